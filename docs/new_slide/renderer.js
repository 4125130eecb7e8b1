// Majority vote (the example a new slide starts from): each model's training loss, one line a seed, drawn
// while it trains and again with the result, its accuracy on the test strings in the legend.
import { modelStyles } from "../chart_styles.js";
import { plot } from "../charts.js";
import { chartIn, FAMILIES, percent, TOP_LEGEND } from "./shared/common.js";

const ORDER = ["lstm", "transformer"];

// The loss curves so far (`curves`: model → one list of [step, loss] pairs a seed) and, once scored,
// each model's accuracy over the seeds.
function draw(chart, steps, curves, accuracies = {}) {
  const styles = modelStyles(); // each model's colour and dash (chart_styles.js): shape as well as colour
  const names = ORDER.filter((name) => curves[name]?.length);
  const label = (name) => FAMILIES[name].name + (name in accuracies ? ` · ${percent(accuracies[name].mean)} right` : "");
  chart.setAttribute("role", "img");
  chart.setAttribute("aria-label", `Training loss against step, one line a seed: ${names.map(label).join(", ")}`);
  plot(chart, names.flatMap((name) => curves[name].map((curve, seed) => ({
    type: "scatter",
    mode: "lines",
    name: label(name),
    legendgroup: name,
    showlegend: seed === 0, // one entry a model
    x: curve.map(([step]) => step),
    y: curve.map(([, loss]) => loss),
    line: { color: styles[name].color, width: 3, dash: styles[name].dash },
    hovertemplate: `${FAMILIES[name].name}, seed ${seed + 1}, step %{x}: loss %{y:.3f}<extra></extra>`,
  }))), {
    xaxis: { title: { text: "training step", standoff: 4 }, range: [0, steps], nticks: 5 },
    yaxis: { title: { text: "loss", standoff: 4 }, rangemode: "tozero", nticks: 5, ticklabelstandoff: 8 }, // its 0 apart from the x axis's
    legend: TOP_LEGEND,
    margin: { l: 8, r: 8, t: 8, b: 8 },
  });
}

// While training: the curves so far, redrawn in place.
export function renderProgress(output, data) {
  draw(chartIn(output, "new_demo-chart"), data.steps, data.curves);
}

export function render(output, result) {
  const curves = Object.fromEntries(ORDER.map((name) => [name, result.models[name].loss_curves]));
  const accuracies = Object.fromEntries(ORDER.map((name) => [name, result.models[name].accuracy]));
  draw(chartIn(output, "new_demo-chart", { fresh: true }), result.steps, curves, accuracies);
}
