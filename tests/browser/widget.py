"""What the slide tests do with a demo widget, as a lecturer would: open its Settings, change some
parameters, close Settings, press Run and wait until the badge says the result is there."""
import json

from playwright.sync_api import expect

from tests.deck import slide_path

TRAINED = 120_000  # ms: a tiny run, but the test machine's cores are shared, so training can be slow


def demo_on(page, demo_id: str):
    """The demo widget of the slide that runs `demo_id`, once it is ready to run."""
    widget = page.locator(f"#slide-{demo_id} .demo")
    expect(widget.locator(".demo-run")).to_have_text("Run")
    return widget


SLIDE_TO = "(input, value) => { input.value = value; input.dispatchEvent(new Event('input')); }"  # a range input


def open_demo(open_page, demo_id: str, **params):
    """Open the slide of `demo_id` and return (page, its widget), with `params` set in its Settings."""
    page = open_page(slide_path(demo_id))
    widget = demo_on(page, demo_id)
    if params:
        set_params(widget, **params)
    return page, widget


def set_params(widget, **values) -> None:
    """Set each named parameter the way its control takes it: a number or text is typed, a menu
    option is picked by its label, a checkbox is ticked or not (bool), and a set ticks exactly
    those boxes of a multiple choice."""
    widget.locator(".demo-settings summary").click()
    for name, value in values.items():
        control = widget.locator(f'.demo-params [name="{name}"]')
        if isinstance(value, (set, frozenset)):
            for box in control.all():
                box.set_checked(json.loads(box.get_attribute("value")) in value)  # a choice's JSON: 20, "lstm"
        elif isinstance(value, bool):
            control.set_checked(value)
        elif control.evaluate("element => element.tagName") == "SELECT":
            control.select_option(label=str(value))
        else:
            control.fill(str(value))
    widget.locator(".demo-settings summary").click()  # close the form again


def run_and_wait(widget, badge: str = " on cpu") -> None:
    """Press Run and wait until the badge names the result (e.g. "trained just now on cpu")."""
    widget.locator(".demo-run").click()
    expect(widget.locator(".demo-badge")).to_contain_text(badge, timeout=TRAINED)


def run_and_plot(widget) -> None:
    """Press Run, wait for the result, and see that it was drawn as one chart."""
    run_and_wait(widget)
    expect(widget.locator(".js-plotly-plot")).to_have_count(1)


def expect_markup_refused(page, demo_id: str, field: str, markup: str, error: str, tags: tuple[str, ...]) -> None:
    """Markup typed into `field` on the slide of `demo_id` is refused with `error` beside the field, and no
    element of `tags` reaches the slide."""
    page.watch.expect_error("status of 400")
    widget = demo_on(page, demo_id)
    widget.locator(f'input[name="{field}"]').fill(markup)
    widget.locator(".demo-run").click()
    expect(widget.locator(".demo-error")).to_have_text(error)
    expect(widget.locator(f'input[name="{field}"]')).to_have_attribute("aria-invalid", "true")
    assert page.locator(", ".join(f"#slide-{demo_id} {tag}" for tag in tags)).count() == 0, "no markup reached the page"


# Pairs of texts (matching `selector`) inside an element whose boxes overlap by more than a pixel.
OVERLAPS = """(chart, selector) => {
  const boxes = [...chart.querySelectorAll(selector)]
    .filter((t) => t.textContent).map((t) => [t.textContent, t.getBoundingClientRect()]);
  const pairs = [];
  boxes.forEach(([a, r], i) => boxes.slice(i + 1).forEach(([b, s]) => {
    if (Math.min(r.right, s.right) - Math.max(r.left, s.left) > 1
        && Math.min(r.bottom, s.bottom) - Math.max(r.top, s.top) > 1) pairs.push([a, b]);
  }));
  return pairs;
}"""


def overlapping_texts(chart, selector: str) -> list:
    """The pairs of texts in `chart` (a locator) that overlap: [] when every label can be read."""
    return chart.evaluate(OVERLAPS, selector)
