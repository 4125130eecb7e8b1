// Accuracy on fresh strings against their length: one line per model (its colour, dash and marker,
// chart_styles.js) at the mean over the seeds, with a bar from the lowest to the highest seed, and the
// baselines as levels (chance, and for bounded Dyck the counting rule). Drawn for the fair fight and
// for bounded Dyck.
import { plot } from "../../charts.js";
import { percent, TOP_LEGEND } from "./common.js";

// The spread over seeds as Plotly's asymmetric error bar around each mean.
export function seedRange(stats, color) {
  return {
    type: "data",
    symmetric: false,
    array: stats.map((s) => s.max - s.mean),
    arrayminus: stats.map((s) => s.mean - s.min),
    color,
    thickness: 2,
    width: 6,
  };
}

// `style`: order (the models, in legend order), looks (per model: {color, dash, marker}, from
// chart_styles.js's modelStyles), baselines ([{name, y (one per length), color, dash}]), xTitle,
// yTitle, margin, legend (changes to the legend above the chart),
// phone (changes to the layout on a phone, see charts.js), hover(point): more lines for a point's tooltip,
// and beside ({traces, layout, domain}): a second plot beside this one (its traces and axes), this one
// then drawn in `domain` of the width.
export function plotAccuracyByLength(chart, data, style) {
  const { order, looks, baselines = [], hover, xTitle, yTitle, margin, legend, phone, beside } = style;
  const lengths = data.lengths.map(String);
  const seeds = data.seeds?.length ?? 1;
  const lines = order.map((name) => {
    const points = data.points.filter((p) => p.model === name);
    const stats = points.map((p) => p.accuracy);
    const { color, dash, marker } = looks[name];
    return {
      type: "scatter",
      mode: "lines+markers",
      name: data.models[name],
      x: points.map((p) => String(p.length)),
      y: stats.map((s) => s.mean),
      error_y: seeds > 1 ? seedRange(stats, color) : undefined,
      customdata: points.map((p) => [percent(p.accuracy.min), percent(p.accuracy.max), hover ? hover(p) : ""]),
      line: { color, width: 4, dash },
      marker: { color, size: 13, symbol: marker, line: { color, width: 3 } },
      hovertemplate: `${data.models[name]}, length %{x}: %{y:.1%} right`
        + (seeds > 1 ? ` (seeds: %{customdata[0]} to %{customdata[1]})` : "")
        + `${hover ? "<br>%{customdata[2]}" : ""}<extra></extra>`,
    };
  });
  const single = lengths.length === 1; // one length: a line has nowhere to go, so a bar across it
  const references = baselines.map((baseline) => ({
    type: "scatter",
    mode: single ? "markers" : "lines",
    name: baseline.name,
    x: lengths,
    y: baseline.y,
    line: { color: baseline.color, width: 3, dash: baseline.dash },
    ...(single ? { marker: { symbol: "line-ew", size: 70, line: { color: baseline.color, width: 3 } } } : {}),
    hovertemplate: `${baseline.name}, length %{x}: %{y:.1%}<extra></extra>`,
  }));
  plot(chart, [...lines, ...references, ...(beside?.traces ?? [])], {
    xaxis: { type: "category", categoryorder: "array", categoryarray: lengths, title: { text: xTitle, standoff: 4 },
      ...(beside ? { domain: beside.domain } : {}) },
    yaxis: { range: [-0.04, 1.08], tickformat: ".0%", title: { text: yTitle, standoff: 4 } },
    legend: { ...TOP_LEGEND, ...legend },
    margin,
    phone,
    ...beside?.layout,
  });
}
