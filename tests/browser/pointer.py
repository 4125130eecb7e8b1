"""The lecturer's pointer, step by step, for any test with a lecturer's page and phones: point with L
held (or from the presenter view's picture), and wait until a page shows the dot at the same place
of its slide's canvas (as fractions, within a few hundredths: a phone's canvas is a column, a
projector's a scaled stage)."""
from playwright.sync_api import expect

CLOSE = 0.03  # how far (a fraction of the canvas each way) a drawn dot may be from where it was aimed


def _move_over(page, selector: str, x: float, y: float, steps: int = 1) -> None:
    box = page.locator(selector).bounding_box()  # as drawn: the scaled canvas, or the picture
    page.mouse.move(box["x"] + x * box["width"], box["y"] + y * box["height"], steps=steps)


def point_holding_l(lecturer, x: float, y: float, steps: int = 1) -> None:
    """Hold L in the lecturer's slides window (if not held already) and move the mouse to (x, y) of the
    slide, in `steps` moves."""
    if not lecturer.evaluate("() => window.greatShift.pointer.held"):
        lecturer.keyboard.down("l")
    _move_over(lecturer, ".canvas", x, y, steps)


def release_l(lecturer) -> None:
    lecturer.keyboard.up("l")


def point_from_presenter(presenter, x: float, y: float) -> None:
    """Switch the presenter view's pointer on (if it is off) and move the mouse over its "On screen" picture."""
    toggle = presenter.locator(".presenter-pointer")
    if toggle.get_attribute("aria-pressed") != "true":
        toggle.click()
        expect(toggle).to_have_attribute("aria-pressed", "true")
    _move_over(presenter, ".presenter-picture-now .presenter-picture-canvas", x, y)


def expect_pointer_at(page, x: float, y: float, timeout: float = 30_000) -> None:
    """Wait until `page` draws the pointer with its centre at (x, y) of its slide's canvas."""
    page.wait_for_function("""([x, y, close]) => {
        const dot = document.querySelector(".pointer-dot"), canvas = document.querySelector(".canvas");
        if (dot.hidden) return false;
        const d = dot.getBoundingClientRect(), c = canvas.getBoundingClientRect();
        const at = [(d.left + d.width / 2 - c.left) / c.width, (d.top + d.height / 2 - c.top) / c.height];
        return d.width > 0 && Math.abs(at[0] - x) <= close && Math.abs(at[1] - y) <= close;
    }""", arg=[x, y, CLOSE], timeout=timeout)


def expect_no_pointer(page) -> None:
    expect(page.locator(".pointer-dot")).to_be_hidden()


def phones_see_the_pointer(lecturer, phones, x: float = 0.3, y: float = 0.2) -> None:
    """The lecturer points with L held; the projector and every following phone show it there."""
    point_holding_l(lecturer, x, y)
    for page in [lecturer, *phones]:
        expect_pointer_at(page, x, y)
