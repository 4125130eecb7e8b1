// Plotly with the deck's look: large type for the back row, and one colour per model
// on every slide, taken from the stylesheet's variables so they are defined in one place.

const MODELS = ["transformer", "transformer-2", "lstm", "lstm-tuned", "rnn", "chance", "baseline"];

export function modelColors() {
  const style = getComputedStyle(document.documentElement);
  return Object.fromEntries(MODELS.map((name) => [name, style.getPropertyValue(`--color-${name}`).trim()]));
}

const BASE_LAYOUT = {
  font: { family: "system-ui, -apple-system, 'Segoe UI', Roboto, 'DejaVu Sans', sans-serif", size: 16, color: "#16181d" },
  margin: { l: 64, r: 16, t: 36, b: 56 },
  paper_bgcolor: "rgba(0,0,0,0)",
  plot_bgcolor: "rgba(0,0,0,0)",
  legend: { orientation: "h", y: -0.25 },
  hoverlabel: { font: { size: 16 } },
};

const CONFIG = { displaylogo: false, responsive: true, modeBarButtonsToRemove: ["lasso2d", "select2d"] };

// Draw (or redraw in place) a chart into `element`.
export function plot(element, traces, layout = {}) {
  const merged = { ...BASE_LAYOUT, ...layout, font: { ...BASE_LAYOUT.font, ...layout.font } };
  return window.Plotly.react(element, traces, merged, CONFIG);
}

// Plotly draws into a hidden slide at the wrong size: redraw at the right one when it is shown.
export function resizeCharts(container) {
  for (const chart of container.querySelectorAll(".js-plotly-plot")) window.Plotly.Plots.resize(chart);
}

export function chartElement(parent, className = "demo-chart") {
  const element = document.createElement("div");
  element.className = className;
  parent.append(element);
  return element;
}
