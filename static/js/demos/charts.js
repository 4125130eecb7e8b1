// Plotly with the deck's look (chart_styles.js: large type for the back row, one colour, dash and
// marker per model on every slide), loaded only when a chart is drawn.
import { fontSizes, onPhone, PHONE } from "./chart_styles.js";

function baseLayout() {
  const size = fontSizes().text;
  return {
    font: { family: "system-ui, -apple-system, 'Segoe UI', Roboto, 'DejaVu Sans', sans-serif", size, color: "#16181d" },
    margin: { l: 64, r: 16, t: 36, b: 56 },
    paper_bgcolor: "rgba(0,0,0,0)",
    plot_bgcolor: "rgba(0,0,0,0)",
    legend: { orientation: "h", y: -0.25 },
    hoverlabel: { font: { size } },
  };
}

// No toolbar (it covered legends and its buttons were unreachable by keyboard), and none of
// Plotly's links to its cloud service ("Edit in Chart Studio", "Share"): nothing leaves the room.
export const CONFIG = {
  displayModeBar: false,
  displaylogo: false,
  showLink: false,
  showSendToCloud: false,
  showEditInChartStudio: false,
  responsive: true,
};

// Plotly (1.5 MB gzipped) is not in the page, so neither the first paint nor moving between slides
// ever waits for it. It is downloaded once the page has loaded (fetchPlotly) but run only when the
// first chart is drawn: running its 4.8 MB freezes a phone for 1 to 3.5 s in one piece, which a
// slide without a chart (a poll, a demo waiting for Run) should not pay.
let plotlyFetching = null;
let plotlyLoading = null;

// Into the browser's cache (the URL is kept for a year), without running it. A page opened from disk
// (the static export) cannot fetch files: its script tag reads the file when a chart needs it.
export function fetchPlotly() {
  if (!location.protocol.startsWith("http")) return Promise.resolve();
  // At low priority: the slide's own answers (its result, the poll) go first.
  plotlyFetching ??= fetch(document.body.dataset.plotlyUrl, { priority: "low" }).then((response) => response.blob()).catch(() => {
    plotlyFetching = null;
  });
  return plotlyFetching;
}

// Once the next frame is on screen (its paint done: the frame after it has begun); a hidden tab
// paints nothing, so at most after `fallbackMs`.
export function afterNextPaint(fallbackMs = 100) {
  return new Promise((resolve) => {
    requestAnimationFrame(() => requestAnimationFrame(() => resolve()));
    setTimeout(resolve, fallbackMs);
  });
}

export function loadPlotly() {
  if (window.Plotly) return Promise.resolve(window.Plotly);
  // After the download in flight, if any: the script then reads the cached copy instead of a second one.
  // And after the next paint, so that the result's words are on screen before Plotly holds the page.
  plotlyLoading ??= fetchPlotly().then(afterNextPaint).then(() => new Promise((resolve, reject) => {
    const script = document.createElement("script");
    script.src = document.body.dataset.plotlyUrl;
    script.addEventListener("load", () => resolve(window.Plotly));
    script.addEventListener("error", () => {
      plotlyLoading = null; // the next chart tries again
      reject(new Error("The chart library could not be loaded: check the connection and press Run again."));
    });
    document.head.append(script);
  }));
  return plotlyLoading;
}

// `overrides` deep-merged into `base`: objects key by key, anything else replaced.
function merge(base, overrides) {
  const out = { ...base };
  for (const [key, value] of Object.entries(overrides ?? {})) {
    const both = value && typeof value === "object" && !Array.isArray(value) && base?.[key] && typeof base[key] === "object";
    out[key] = both ? merge(base[key], value) : value;
  }
  return out;
}

// The layout for this screen: `layout.phone` holds what changes on a phone (a legend below, fewer
// ticks, shorter titles, a taller chart). Every axis makes room for its labels and title itself.
function layoutFor(layout) {
  const { phone, ...wide } = layout;
  const chosen = onPhone() ? merge(wide, phone) : wide;
  const base = baseLayout();
  const merged = { ...base, ...chosen, font: { ...base.font, ...chosen.font } };
  for (const key of Object.keys(merged)) {
    if (/^[xy]axis\d*$/.test(key)) merged[key] = { automargin: true, ...merged[key] };
  }
  return merged;
}

// Each chart's traces and layout as last drawn, to draw it again for the other screen.
const drawn = new WeakMap();

// Draw (or redraw in place) a chart into `element`, and give it a text alternative. Returns a
// promise when Plotly is still loading. `layout.phone`: changes for a phone's screen (see layoutFor);
// the chart is drawn again when the screen crosses the phone width (a phone turned, a window resized).
export function plot(element, traces, layout = {}) {
  drawn.set(element, [traces, layout]);
  const merged = layoutFor(layout);
  describeChart(element, traces, merged);
  fitted.observe(element);
  if (window.Plotly) return window.Plotly.react(element, traces, merged, CONFIG);
  return loadPlotly().then((Plotly) => Plotly.react(element, traces, merged, CONFIG));
}

// A chart takes the room its box has, whenever that changes: the summary written under it, a poll
// above it growing or shrinking, a line of the toolbar, a slide shown, the window changing shape.
// (Plotly's own `responsive` follows only the window, and a chart drawn before the summary kept
// the room the summary then needed.) Drawn again at once, not after Plotly.Plots.resize's 100 ms.
const fitted = new ResizeObserver((entries) => {
  for (const { target } of entries) {
    if (window.Plotly && target._fullLayout && target.isConnected && target.checkVisibility()) {
      window.Plotly.relayout(target, { autosize: true });
    }
  }
});

PHONE.addEventListener("change", () => {
  for (const chart of document.querySelectorAll(".js-plotly-plot")) {
    if (drawn.has(chart) && chart.isConnected) plot(chart, ...drawn.get(chart));
  }
});

function axisTitle(axis) {
  const title = axis?.title;
  return typeof title === "string" ? title : title?.text ?? "";
}

// A chart is an image to a screen reader: its label names what is plotted (a renderer may have
// set a more precise one), and the demo's summary, the measured result in words, describes it.
function describeChart(element, traces, layout) {
  element.setAttribute("role", "img");
  const labelled = element.hasAttribute("aria-label") && !("autoLabel" in element.dataset);
  if (!labelled) { // a label the renderer set is kept
    const names = [...new Set(traces.filter((t) => t.name && t.showlegend !== false).map((t) => t.name))];
    const axes = [axisTitle(layout.yaxis), axisTitle(layout.xaxis)].filter(Boolean);
    const what = axes.length === 2 ? `${axes[0]} against ${axes[1]}` : axes[0] ?? "Chart";
    element.setAttribute("aria-label", `${what}${names.length ? `: ${names.join(", ")}` : ""}.`);
    element.dataset.autoLabel = "";
  }
  const summary = element.closest(".demo")?.querySelector(".demo-summary");
  if (summary) {
    summary.id ||= `${element.closest(".slide")?.id ?? "demo"}-summary`;
    element.setAttribute("aria-describedby", summary.id);
  }
}

// Plotly draws into a hidden slide at the wrong size: redraw at the right one when it is shown. A chart
// hidden inside it (a view not on show) is left alone: Plotly refuses to resize it, and it is fitted when shown.
export function resizeCharts(container) {
  if (!window.Plotly) return; // nothing drawn yet
  for (const chart of container.querySelectorAll(".js-plotly-plot")) {
    if (chart.checkVisibility()) window.Plotly.Plots.resize(chart);
  }
}

export function chartElement(parent, className = "demo-chart") {
  const element = document.createElement("div");
  element.className = className;
  parent.append(element);
  return element;
}
