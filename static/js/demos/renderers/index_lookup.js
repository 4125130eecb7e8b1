// Index Lookup: accuracy against how far back the asked digit was, one line per LSTM width
// (lighter for narrower) and one for the Transformer, each the mean over the seeds with its range,
// beside chance; and how many digits each model holds (the mean over the seeds; the range is in
// the tooltip), as bars against the digits there are.
import { modelStyles, VARIANTS } from "../chart_styles.js";
import { plot } from "../charts.js";
import { seedRange } from "./shared/accuracy_by_length.js";
import { chartIn, percent, SIDE_BARS, TOP_LEGEND } from "./shared/common.js";
import { rateLabel } from "./shared/rates.js";

function name(model) {
  return `${model.label} width ${model.width}`;
}

// In the legend: the LSTMs by their width ("tuned" is on the slide), the Transformer by name. The
// learning rate each got is in its tooltip and the summary: in the legend it took a third row.
function shortName(model) {
  return model.model === "transformer" ? model.label : `LSTM, width ${model.width}`;
}

function draw(chart, data) {
  const styles = modelStyles();
  const lstms = data.models.filter((m) => m.model === "lstm-tuned");
  const seeds = data.seeds.length;
  // The LSTMs share one orange (lighter for narrower): each width has its own marker and dash as well
  // (VARIANTS), so the widths are told apart without colour.
  const line = (model, i) => {
    const transformer = model.model === "transformer";
    const { color } = transformer ? styles.transformer : styles["lstm-tuned"];
    const { dash, marker } = transformer ? styles.transformer : VARIANTS[i % VARIANTS.length];
    const stats = model.by_distance;
    return {
      type: "scatter",
      mode: "lines+markers",
      name: shortName(model),
      x: data.distances,
      y: stats.map((s) => s.mean),
      error_y: seeds > 1 ? seedRange(stats, color) : undefined,
      opacity: transformer ? 1 : 0.45 + 0.55 * (i + 1) / lstms.length,
      line: { color, width: transformer ? 4 : 2 + i, dash },
      marker: { color, size: transformer ? 10 : 12, symbol: marker, line: { color, width: 2 } },
      hovertemplate: `${name(model)} (${rateLabel(model.lr)}): %{y:.0%} right when the digit %{x} from the end was asked<extra></extra>`,
    };
  };
  const chance = {
    type: "scatter",
    mode: "lines",
    name: `chance (${percent(data.chance)})`,
    x: [1, data.length],
    y: [data.chance, data.chance],
    line: { color: styles.chance.color, width: 3, dash: styles.chance.dash },
    hoverinfo: "skip",
  };
  const held = {
    type: "bar",
    orientation: "h",
    y: data.models.map((m) => (m.model === "transformer" ? m.label : `width ${m.width}`)),
    x: data.models.map((m) => m.digits_held.mean),
    marker: { color: data.models.map((m) => (m.model === "transformer" ? styles.transformer : styles["lstm-tuned"]).color) },
    text: data.models.map((m) => m.digits_held.mean.toFixed(1)),
    ...SIDE_BARS,
    customdata: data.models.map((m) => [name(m), m.digits_held.min.toFixed(1), m.digits_held.max.toFixed(1)]),
    hovertemplate: "%{customdata[0]}: holds %{x:.1f} digits (the last-k rule that scores the same)"
      + (seeds > 1 ? ", seeds %{customdata[1]} to %{customdata[2]}" : "") + "<extra></extra>",
  };
  plot(chart, [...lstms.map(line), line(data.models.find((m) => m.model === "transformer"), 0), chance, held], {
    xaxis: { domain: [0, 0.56], title: { text: `distance from the end (N = ${data.length})`, standoff: 4 }, dtick: data.length > 12 ? 2 : 1 },
    yaxis: { range: [0, 1.06], tickvals: [0, 0.5, 1], tickformat: ".0%", title: { text: "right", standoff: 4 } },
    xaxis2: { domain: [0.8, 1], anchor: "y2", range: [0, data.length * 1.6], nticks: 3, title: { text: `digits held<br>(of ${data.length})`, standoff: 4 } },
    yaxis2: { anchor: "x2", type: "category", autorange: "reversed", ticksuffix: " " },
    legend: TOP_LEGEND,
    margin: { l: 8, r: 8, t: 8, b: 8 },
    // A phone: the digits held under the curves, the whole width each.
    phone: {
      xaxis: { domain: [0, 1], title: { text: `distance from the end<br>(N = ${data.length})` } },
      yaxis: { domain: [0.45, 1] },
      xaxis2: { domain: [0, 1], title: { text: `digits held (of ${data.length})` } },
      yaxis2: { domain: [0, 0.22] },
    },
  });
}

export function render(output, result) {
  draw(chartIn(output, "index-lookup-chart", { fresh: true }), result);
}
