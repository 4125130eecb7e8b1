// Majority vote (the example a new slide starts from): each model's training loss, drawn while it trains
// and again with the result, its accuracy on the test strings in the legend.
import { modelColors, plot } from "../charts.js";
import { chartIn, FAMILIES, percent, TOP_LEGEND } from "./shared/common.js";

const ORDER = ["lstm", "transformer"];

// The loss curves so far (`curves`: model → [step, loss] pairs) and, once scored, each model's accuracy.
function draw(chart, steps, curves, accuracies = {}) {
  const colors = modelColors();
  const names = ORDER.filter((name) => curves[name]);
  const label = (name) => FAMILIES[name].name + (name in accuracies ? ` · ${percent(accuracies[name])} right` : "");
  chart.setAttribute("role", "img");
  chart.setAttribute("aria-label", `Training loss against step: ${names.map(label).join(", ")}`);
  plot(chart, names.map((name) => ({
    type: "scatter",
    mode: "lines",
    name: label(name),
    x: curves[name].map(([step]) => step),
    y: curves[name].map(([, loss]) => loss),
    line: { color: colors[name], width: 4, dash: FAMILIES[name].dash }, // a dash as well as a colour
    hovertemplate: `${FAMILIES[name].name}, step %{x}: loss %{y:.3f}<extra></extra>`,
  })), {
    xaxis: { title: { text: "training step", standoff: 4 }, range: [0, steps], nticks: 5 },
    yaxis: { title: { text: "loss", standoff: 4 }, rangemode: "tozero", nticks: 5 },
    legend: TOP_LEGEND,
    margin: { l: 8, r: 8, t: 8, b: 8 },
  });
}

// While training: the curves so far, redrawn in place.
export function renderProgress(output, data) {
  draw(chartIn(output, "new_demo-chart"), data.steps, data.curves);
}

export function render(output, result) {
  const curves = Object.fromEntries(ORDER.map((name) => [name, result.models[name].loss_curve]));
  const accuracies = Object.fromEntries(ORDER.map((name) => [name, result.models[name].accuracy]));
  draw(chartIn(output, "new_demo-chart", { fresh: true }), result.steps, curves, accuracies);
}
