"""Does a whole slide fit the screen? What a hall would miss on a projector, measured in the page:
a box inside the slide that scrolls (the hall cannot scroll it, and what is below its fold is not
seen), a demo's output whose content spills out of it, a part of the slide (its text, the poll, the
demo panel) not wholly on the slide and the screen, a chart not wholly inside the window or its demo
panel or lying over a neighbour in its box (the text beside or under it), and a summary cut off the
same way.

A box scrolls when its computed overflow is auto or scroll and its content is larger than the box
(scrollHeight > clientHeight, or the same sideways), by more than a pixel of rounding. Plotly's own
elements are left out: a chart is measured by its bounding box instead.
"""
SLACK_PX = 1

MEASURE = """([slideId, slack]) => {
  const slide = document.getElementById(slideId);
  const found = [];
  const shown = (el) => el.checkVisibility({ checkOpacity: true, checkVisibilityCSS: true });
  const name = (el) => `${el.tagName.toLowerCase()}${el.classList.length ? '.' + [...el.classList].join('.') : ''}`;
  for (const el of [slide, ...slide.querySelectorAll('*')]) {
    if (el.closest('.js-plotly-plot') || !shown(el)) continue;
    const style = getComputedStyle(el);
    if (/auto|scroll/.test(style.overflowY) && el.scrollHeight > el.clientHeight + slack) {
      found.push(`${name(el)} scrolls: ${el.scrollHeight} px of content in ${el.clientHeight} px`);
    }
    if (/auto|scroll/.test(style.overflowX) && el.scrollWidth > el.clientWidth + slack) {
      found.push(`${name(el)} scrolls sideways: ${el.scrollWidth} px of content in ${el.clientWidth} px`);
    }
  }
  // A demo's output whose content spills out of it (over the summary below it).
  for (const el of slide.querySelectorAll('.demo-output')) {
    if (shown(el) && getComputedStyle(el).overflowY === 'visible' && el.scrollHeight > el.clientHeight + slack) {
      found.push(`${name(el)} spills: ${el.scrollHeight} px of content in ${el.clientHeight} px`);
    }
  }
  const screen = { left: 0, top: 0, right: innerWidth, bottom: innerHeight };
  const outside = (r, box) => Math.max(box.left - r.left, box.top - r.top, r.right - box.right, r.bottom - box.bottom);
  // Each part of the slide (its text, the poll, the demo panel) on the slide and on the screen.
  const whole = slide.getBoundingClientRect();
  for (const el of slide.children) {
    const r = el.getBoundingClientRect();
    if (!shown(el) || !r.height) continue;
    if (outside(r, whole) > slack || outside(r, screen) > slack) found.push(`${name(el)} runs off the slide or the screen`);
  }
  const within = (el, what) => {
    const r = el.getBoundingClientRect();
    const panel = el.closest('.demo').getBoundingClientRect();
    const size = `${Math.round(r.width)}×${Math.round(r.height)} at (${Math.round(r.left)}, ${Math.round(r.top)})`;
    if (outside(r, screen) > slack) found.push(`${what} ${size} is not wholly on the ${innerWidth}×${innerHeight} screen`);
    if (outside(r, panel) > slack) found.push(`${what} ${size} runs out of its demo panel`);
  };
  // A chart that lies over another part of its demo (a neighbour in its box: the text beside or under it).
  const overlap = (a, b) => Math.min(a.right, b.right) - Math.max(a.left, b.left) > slack
    && Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top) > slack;
  const covers = (chart, what) => {
    for (const other of chart.parentElement.children) {
      if (other !== chart && shown(other) && overlap(chart.getBoundingClientRect(), other.getBoundingClientRect())) {
        found.push(`${what} lies over ${name(other)}`);
      }
    }
  };
  slide.querySelectorAll('.demo-output .js-plotly-plot').forEach((chart, i) => {
    if (shown(chart)) { within(chart, `chart ${i + 1}`); covers(chart, `chart ${i + 1}`); }
  });
  const summary = slide.querySelector('.demo-summary');
  if (summary && shown(summary)) within(summary, 'the summary');
  return found;
}"""


def fit_problems(page, slide_id: str) -> list[str]:
    """What on this slide (its element id) scrolls or lies off the screen."""
    return page.evaluate(MEASURE, [slide_id, SLACK_PX])


def chart_heights(page, slide_id: str) -> list[int]:
    """The on-screen height of each chart of the slide's result."""
    return page.evaluate("""(slideId) => [...document.getElementById(slideId).querySelectorAll('.demo-output .js-plotly-plot')]
        .map((chart) => Math.round(chart.getBoundingClientRect().height))""", slide_id)
