"""Can a hall read a slide's result? The text of its demo panel measured as drawn on screen: how big
each piece is in on-screen pixels, whether two pieces overlap, whether a piece is cut off; and
whether the demo shows an error instead of its result.

What counts as chart text: everything written inside the slide's `.demo-output` (where a renderer
draws): the SVG text of every Plotly chart (titles, tick labels, axis titles, legend entries,
annotations, bar labels) and the HTML around the charts (captions, tables, lists of answers). Its
size is checked. The rest of the demo panel (the toolbar, the badge, the summary) is the widget's
own: its size is not checked here, but chart text must not run into it either.

How a size is measured: the font size an element was given (getComputedStyle, which for SVG text
includes Plotly's own sizes, and the smallest size among a text's <tspan>s, so a superscript is
measured at its real size) times the scale it is drawn at. The deck draws a fixed 1280×720 canvas
scaled by a CSS transform, and SVG text may carry its own transform: for SVG text the scale is that of
its screen matrix (getScreenCTM, which includes the canvas's CSS transform), for HTML text the ratio of
the slide's drawn width to its layout width. Measuring the font size rather than a box's height keeps
the number exact (a box's height depends on the font's ascent and line spacing).

Boxes: an SVG text's own box (getBBox) mapped through its screen matrix, so a slanted tick label is a
slanted box, not the larger upright box around it; an HTML text's boxes are its lines' boxes (a Range
over the text node). Two boxes overlap when they share more than OVERLAP_PX along every direction
that could separate them (the separating-axis test for convex shapes).
"""
from dataclasses import dataclass
from itertools import combinations

MIN_PX = 16  # the smallest text a hall can read, in on-screen pixels
OVERLAP_PX = 2  # glyph boxes include some blank space above and below: touching is not overlapping
OUTSIDE_PX = 1

MEASURE = """(slideId) => {
  const slide = document.getElementById(slideId);
  const panel = slide.querySelector('.demo');
  const output = slide.querySelector('.demo-output');
  const canvasScale = slide.getBoundingClientRect().width / slide.offsetWidth;
  const rect = (r) => [[r.left, r.top], [r.right, r.top], [r.right, r.bottom], [r.left, r.bottom]];
  const shown = (el) => el.checkVisibility({ checkOpacity: true, checkVisibilityCSS: true });
  const px = (el) => parseFloat(getComputedStyle(el).fontSize);
  const name = (el) => {
    const plotly = el.closest('.gtitle, .g-xtitle, .g-ytitle, .g-x2title, .g-y2title, .xtick, .ytick, .legendtext, .annotation, .textpoint, .bartext, .cbtitle, .cbaxis');
    if (plotly) return [...plotly.classList].find((c) => !c.startsWith('js-'));
    const owner = el.closest('[class]'); // the element's class, or its nearest ancestor's
    return `${el.tagName.toLowerCase()}${owner ? '.' + owner.classList[0] : ''}`;
  };
  const items = [];
  const charts = [...output.querySelectorAll('.js-plotly-plot')];
  charts.forEach((chart, index) => {
    const svg = chart.querySelector('svg.main-svg');
    const bounds = rect(svg.getBoundingClientRect());
    for (const text of chart.querySelectorAll('svg text')) {
      const words = text.textContent.replace(/\u200b/g, '').trim(); // Plotly puts zero-width spaces around a superscript
      if (!words || text.closest('.hoverlayer') || !shown(text)) continue;
      const box = text.getBBox();
      if (box.width === 0 || box.height === 0) continue;
      const m = text.getScreenCTM();
      const at = ([x, y]) => [m.a * x + m.c * y + m.e, m.b * x + m.d * y + m.f];
      const corners = [[box.x, box.y], [box.x + box.width, box.y], [box.x + box.width, box.y + box.height], [box.x, box.y + box.height]];
      const sizes = [text, ...text.querySelectorAll('tspan')].filter((t) => [...t.childNodes].some((n) => n.nodeType === 3 && n.textContent.trim())).map(px);
      items.push({ text: words, kind: name(text), chart: index, chart_text: true, px: Math.min(...sizes) * Math.sqrt(Math.abs(m.a * m.d - m.b * m.c)),
                   boxes: [corners.map(at)], within: bounds });
    }
  });
  const walker = document.createTreeWalker(panel, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const el = node.parentElement;
    const words = node.textContent.trim();
    if (!words || el.closest('svg') || !shown(el)) continue;
    const range = document.createRange();
    range.selectNodeContents(node);
    const boxes = [...range.getClientRects()].filter((r) => r.width > 0 && r.height > 0).map(rect);
    if (!boxes.length) continue;
    // The nearest box that clips it sideways (overflow other than visible): the text must fit inside.
    let clip = el;
    while (clip !== panel && getComputedStyle(clip).overflowX === 'visible') clip = clip.parentElement;
    const c = clip === panel ? { left: 0, right: innerWidth } : clip.getBoundingClientRect();
    items.push({ text: words, kind: name(el), chart: null, chart_text: output.contains(el), px: px(el) * canvasScale, boxes,
                 within: rect({ left: Math.max(0, c.left), right: Math.min(innerWidth, c.right), top: -1e9, bottom: 1e9 }) });
  }
  const error = slide.querySelector('.demo-error');
  return { items, error: error && shown(error) ? error.textContent : null };
}"""


@dataclass
class Text:
    text: str
    kind: str  # e.g. "xtick", "legendtext", "gtitle", "span.amnesia-caption"
    chart: int | None  # which chart of the output (None: HTML text)
    chart_text: bool  # inside .demo-output, so its size is checked (else the widget's: overlaps only)
    px: float  # on-screen font size
    boxes: list  # convex quadrilaterals, each four (x, y) corners on screen
    within: list  # what it must stay inside: its chart; HTML text, the screen's width and the box that clips it

    def __str__(self):
        shown = self.text if len(self.text) <= 40 else self.text[:37] + "..."
        return f"{self.kind} {shown!r}"


def measure(page, slide_id: str) -> tuple[list[Text], str | None]:
    """Every visible piece of text in the demo panel of the slide with this element id, and the
    error the demo shows, if any."""
    found = page.evaluate(MEASURE, slide_id)
    return [Text(**item) for item in found["items"]], found["error"]


def _axes(box):
    for (x1, y1), (x2, y2) in zip(box, box[1:] + box[:1]):
        yield (y1 - y2, x2 - x1)  # the edge's normal


def _overlap(a, b) -> float:
    """How far two convex boxes overlap: 0 if a line separates them, else the smallest depth."""
    depth = float("inf")
    for ax, ay in [*_axes(a), *_axes(b)]:
        length = (ax * ax + ay * ay) ** 0.5
        if length == 0:
            continue
        pa = [(x * ax + y * ay) / length for x, y in a]
        pb = [(x * ax + y * ay) / length for x, y in b]
        depth = min(depth, min(max(pa), max(pb)) - max(min(pa), min(pb)))
        if depth <= 0:
            return 0.0
    return depth


def _outside(box, within) -> float:
    """How far a box reaches outside an upright rectangle."""
    left, top = within[0]
    right, bottom = within[2]
    xs, ys = [x for x, _ in box], [y for _, y in box]
    return max(left - min(xs), max(xs) - right, top - min(ys), max(ys) - bottom, 0)


def problems(texts: list[Text], error: str | None = None) -> list[str]:
    """What a reader would notice: an error, text under MIN_PX, two texts on top of each other, text cut off."""
    found = [f"the demo shows an error: {error}"] if error else []
    for t in texts:
        if t.chart_text and t.px < MIN_PX - 0.05:
            found.append(f"{t} is {t.px:.1f} px (under {MIN_PX})")
        reach = max(_outside(box, t.within) for box in t.boxes)
        if reach > OUTSIDE_PX:
            where = "its chart" if t.chart is not None else "the screen or the box that clips it"
            found.append(f"{t} reaches {reach:.0f} px outside {where}")
    for a, b in combinations(texts, 2):
        depth = max(_overlap(p, q) for p in a.boxes for q in b.boxes)
        if depth > OVERLAP_PX:
            found.append(f"{a} overlaps {b} by {depth:.0f} px")
    return found
