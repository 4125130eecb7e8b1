"""Accessibility checks with axe-core (bundled by the axe-playwright-python package): a page,
or a part of it, must have no violation of impact "serious" or "critical"."""
from axe_playwright_python.sync_playwright import Axe

AXE = Axe()
BLOCKING = ("serious", "critical")


def serious_violations(page, selector: str = "body", rules: list[str] | None = None) -> list[str]:
    """One line per serious or critical axe-core violation inside `selector`: rule, impact, elements.
    `rules`: only these rules, run even where axe leaves them off by default (e.g. "target-size")."""
    options = {"resultTypes": ["violations"]}
    if rules:
        options["runOnly"] = {"type": "rule", "values": rules}
    results = AXE.run(page, context={"include": [[selector]]}, options=options)
    return [f"{v['id']} ({v['impact']}): {[node['target'] for node in v['nodes']][:5]} {v['help']}"
            for v in results.response["violations"] if v["impact"] in BLOCKING]


def expect_accessible(page, selector: str = "body", rules: list[str] | None = None) -> None:
    found = serious_violations(page, selector, rules)
    assert not found, "\n".join(found)


def expect_finger_sized(page, controls: str, region: str) -> None:
    """The `controls` (a selector) at least 24×24 px each, WCAG 2.2's minimum target size, and axe's
    target-size rule passed in `region` (it leaves out a target inline in text, as WCAG does)."""
    boxes = page.evaluate("""(selector) => [...document.querySelectorAll(selector)]
        .filter((control) => control.getClientRects().length)
        .map((control) => { const box = control.getBoundingClientRect();
                            return [control.className || control.tagName, box.width, box.height]; })""", controls)
    assert boxes, f"nothing on show matches {controls}"
    small = [f"{name}: {width:.1f}×{height:.1f}" for name, width, height in boxes if width < 24 or height < 24]
    assert not small, f"targets under 24×24 px: {small}"
    expect_accessible(page, region, rules=["target-size"])
