// Slide 4, a fair fight: accuracy on the first-letter task against string length, one line per
// model, drawn point by point as each (model, length) finishes training.
import { modelColors, plot } from "../charts.js";
import { chartIn, percent, TOP_LEGEND } from "./common.js";

const ORDER = ["transformer", "lstm-tuned", "lstm"];
const MARKERS = { transformer: "circle", "lstm-tuned": "diamond", lstm: "square" }; // shape as well as colour

function draw(chart, data) {
  const colors = modelColors();
  const lengths = data.lengths.map(String);
  const lines = ORDER.map((name) => {
    const points = data.points.filter((p) => p.model === name);
    return {
      type: "scatter",
      mode: "lines+markers",
      name: data.models[name],
      x: points.map((p) => String(p.length)),
      y: points.map((p) => p.accuracy),
      line: { color: colors[name], width: 4, dash: name === "lstm" ? "dash" : "solid" },
      marker: { color: colors[name], size: 13, symbol: MARKERS[name] },
      hovertemplate: `${data.models[name]}, length %{x}: %{y:.1%}<extra></extra>`,
    };
  });
  const chance = {
    type: "scatter",
    mode: "lines",
    name: `chance (${percent(data.chance, 1)})`,
    x: lengths,
    y: lengths.map(() => data.chance),
    line: { color: colors.chance, width: 3, dash: "dot" },
    hoverinfo: "skip",
  };
  plot(chart, [...lines, chance], {
    xaxis: { type: "category", categoryorder: "array", categoryarray: lengths, title: { text: "string length (letters)", standoff: 4 } },
    yaxis: { range: [-0.04, 1.06], tickformat: ".0%", title: { text: "right on fresh strings", standoff: 4 } },
    legend: TOP_LEGEND,
    margin: { l: 76, r: 10, t: 44, b: 56 },
  });
}

export function render(output, result) {
  draw(chartIn(output, "recall-chart", { fresh: true }), result);
}

export function renderProgress(output, data) {
  draw(chartIn(output, "recall-chart"), data);
}

