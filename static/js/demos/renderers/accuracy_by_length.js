// Accuracy on fresh strings against their length: one line per model (its colour and its marker
// shape), and chance as a dotted line. The charts of slide 4 (a fair fight) and slide 13 (Dyck).
import { modelColors, plot } from "../charts.js";
import { percent, TOP_LEGEND } from "./common.js";

// `style`: order (the models, in legend order), markers (a shape per model), dashed (models drawn
// dashed), chanceDigits, xTitle, yTitle, margin, and hover(point): more lines for a point's tooltip.
export function plotAccuracyByLength(chart, data, style) {
  const { order, markers, dashed = [], chanceDigits = 0, hover, xTitle, yTitle, margin } = style;
  const colors = modelColors();
  const lengths = data.lengths.map(String);
  const lines = order.map((name) => {
    const points = data.points.filter((p) => p.model === name);
    return {
      type: "scatter",
      mode: "lines+markers",
      name: data.models[name],
      x: points.map((p) => String(p.length)),
      y: points.map((p) => p.accuracy),
      customdata: hover && points.map(hover),
      line: { color: colors[name], width: 4, dash: dashed.includes(name) ? "dash" : "solid" },
      marker: { color: colors[name], size: 13, symbol: markers[name] },
      hovertemplate: `${data.models[name]}, length %{x}: %{y:.1%}${hover ? " right<br>%{customdata}" : ""}<extra></extra>`,
    };
  });
  const chance = {
    type: "scatter",
    mode: "lines",
    name: `chance (${percent(data.chance, chanceDigits)})`,
    x: lengths,
    y: lengths.map(() => data.chance),
    line: { color: colors.chance, width: 3, dash: "dot" },
    hoverinfo: "skip",
  };
  plot(chart, [...lines, chance], {
    xaxis: { type: "category", categoryorder: "array", categoryarray: lengths, title: { text: xTitle, standoff: 4 } },
    yaxis: { range: [-0.04, 1.06], tickformat: ".0%", title: { text: yTitle, standoff: 4 } },
    legend: TOP_LEGEND,
    margin,
  });
}
