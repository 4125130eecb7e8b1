"""Accessibility checks with axe-core (bundled by the axe-playwright-python package): a page,
or a part of it, must have no violation of impact "serious" or "critical"."""
from axe_playwright_python.sync_playwright import Axe

AXE = Axe()
BLOCKING = ("serious", "critical")


def serious_violations(page, selector: str = "body") -> list[str]:
    """One line per serious or critical axe-core violation inside `selector`: rule, impact, elements."""
    results = AXE.run(page, context={"include": [[selector]]}, options={"resultTypes": ["violations"]})
    return [f"{v['id']} ({v['impact']}): {[node['target'] for node in v['nodes']][:5]} {v['help']}"
            for v in results.response["violations"] if v["impact"] in BLOCKING]


def expect_accessible(page, selector: str = "body") -> None:
    found = serious_violations(page, selector)
    assert not found, "\n".join(found)
