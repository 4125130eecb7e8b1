// Slide 5, Index Lookup: accuracy heatmaps over sequence length N, the tuned LSTM at each
// width above, the one-layer Transformer below, filled in cell by cell as each finishes.
import { modelColors, plot } from "../charts.js";
import { chartIn, percent } from "./common.js";

// Cividis: readable with every common colour-vision deficiency, dark (low) to yellow (high).
const COLORSCALE = "Cividis";

function grid(data, model, rows) {
  const z = rows.map((width) => data.lengths.map((n) => {
    const cell = data.cells.find((c) => c.model === model && c.length === n && (width === null || c.width === width));
    return cell ? cell.accuracy : null;
  }));
  return { z, text: z.map((row) => row.map((value) => (value === null ? "" : percent(value)))) };
}

function heatmap(data, model, rows, axis, showScale) {
  const { z, text } = grid(data, model, rows);
  return {
    type: "heatmap",
    x: data.lengths.map((n) => `N = ${n}`),
    y: rows.map((width) => (width === null ? `width ${data.transformer_width}` : `width ${width}`)),
    z,
    text,
    texttemplate: "%{text}",
    textfont: { size: 18 },
    zmin: 0,
    zmax: 1,
    colorscale: COLORSCALE,
    showscale: showScale,
    colorbar: { tickformat: ".0%", title: { text: "right" }, len: 1, y: 0.5, thickness: 16 },
    xgap: 2,
    ygap: 2,
    xaxis: "x",
    yaxis: axis,
    hovertemplate: `${model === "transformer" ? "Transformer" : "tuned LSTM"}, %{y}, %{x}: %{z:.1%}<extra></extra>`,
  };
}

function draw(chart, data) {
  const colors = modelColors();
  const lstmShare = data.widths.length / (data.widths.length + 1);
  const split = 0.2 + 0.6 * (1 - lstmShare); // the Transformer's single row gets one row's height, at least
  plot(chart, [
    heatmap(data, "lstm-tuned", data.widths, "y", true),
    heatmap(data, "transformer", [null], "y2", false),
  ], {
    xaxis: { anchor: "y2", side: "bottom", title: { text: `sequence length (chance ${percent(data.chance)})` } },
    yaxis: { domain: [split + 0.06, 1], title: { text: "tuned LSTM", font: { color: colors["lstm-tuned"] } }, autorange: true },
    yaxis2: { domain: [0, split - 0.02], title: { text: "Transformer", font: { color: colors.transformer } } },
    margin: { l: 150, r: 10, t: 12, b: 60 },
  });
}

export function render(output, result) {
  draw(chartIn(output, "index-lookup-chart", { fresh: true }), result);
}

export function renderProgress(output, data) {
  draw(chartIn(output, "index-lookup-chart"), data);
}

