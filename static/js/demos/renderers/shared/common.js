// Small helpers shared by the renderers: DOM built from data (text through textContent, never
// innerHTML, so nothing the server or a user sends is parsed as markup), number formats, and
// a chart that is drawn again in place while a result streams in.
import { modelLook, modelStyles } from "../../chart_styles.js";
import { chartElement } from "../../charts.js";

// The two families by name, with the dash and marker every chart of them draws (chart_styles.js).
export const FAMILIES = {
  transformer: { name: "Transformer", ...modelLook("transformer") },
  lstm: { name: "LSTM", ...modelLook("lstm") },
};

// A level across a chart from x[0] to x.at(-1): chance, or a baseline (`style`, "chance" or "baseline",
// chart_styles.js), named in the tooltip; in the legend unless `showlegend` is false.
export function levelLine(name, x, y, { style = "chance", showlegend = true } = {}) {
  const { color, dash } = modelStyles()[style];
  return {
    type: "scatter", mode: "lines", name, x: [x[0], x.at(-1)], y: [y, y], showlegend,
    line: { width: 3, color, dash },
    hovertemplate: `${name}: %{y:.2f} bits<extra></extra>`,
  };
}

export function element(tag, className, text) {
  const el = document.createElement(tag);
  if (className) el.className = className;
  if (text !== undefined) el.textContent = text;
  return el;
}

// Put `text` in the summary of the demo holding `output`: for a renderer whose pickers change what is
// on show at once, so the words under the chart describe what it shows, not what was run.
export function showSummary(output, text) {
  const summary = output.closest(".demo")?.querySelector(".demo-summary");
  if (summary) summary.textContent = text;
}

export function percent(fraction, digits = 0) {
  return `${(fraction * 100).toFixed(digits)}%`;
}

// "1 seed", "3 seeds": how many seeds a mean is over.
export function seedCount(seeds) {
  return seeds.length === 1 ? "1 seed" : `${seeds.length} seeds`;
}

export function thousands(number) {
  return number.toLocaleString("en-GB");
}

// The output's chart of this class: progress reports redraw the same chart in place; the final
// result (`fresh`) gets a new one, sized to the room left once the progress bar has gone and
// the summary is written.
export function chartIn(output, className, { fresh = false } = {}) {
  const chart = output.querySelector(`.${className}`);
  if (chart && !fresh) return chart;
  output.replaceChildren();
  return chartElement(output, `demo-chart ${className}`);
}

// A legend in one row above the plot, where it never covers an axis title.
// The bars of a chart's side panel (axes x2, y2), each value written past its bar's end, never
// shrunk to fit nor clipped by the axes.
export const SIDE_BARS = { textposition: "outside", constraintext: "none", cliponaxis: false, showlegend: false, xaxis: "x2", yaxis: "y2" };
export const TOP_LEGEND = { orientation: "h", x: 0, xanchor: "left", y: 1.02, yanchor: "bottom" };
