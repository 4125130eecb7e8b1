// How strongly the final answer reacts to each input position (gradient norm, log scale): one
// line per model at the mean over the seeds, each seed's own curve faint behind it, beside the
// count of sequential steps each model needs to read the string.
import { FONT_SIZE, modelStyles } from "../chart_styles.js";
import { plot } from "../charts.js";
import { chartIn, thousands, SIDE_BARS, TOP_LEGEND } from "./shared/common.js";

const ORDER = ["rnn", "lstm", "lstm-tuned", "transformer"];
// Each model's line in its colour and dash (chart_styles.js): shape as well as colour.
function modelLines(data, name, { color, dash }) {
  const model = data.models[name];
  const bias = model.forget_bias == null ? "" : `, forget bias ${model.forget_bias}`;
  const seeds = (model.gradient_by_seed ?? []).map((curve) => ({
    type: "scatter",
    mode: "lines",
    x: data.distances,
    y: curve,
    line: { color, width: 1.5, dash },
    opacity: 0.35,
    showlegend: false,
    legendgroup: name, // hidden and shown with its model's line
    hoverinfo: "skip",
  }));
  return [...seeds, {
    type: "scatter",
    mode: "lines",
    name: model.label,
    legendgroup: name,
    x: data.distances,
    y: model.gradient,
    line: { color, width: 4, dash },
    hovertemplate: `${model.label} (${thousands(model.parameters)} params${bias}), %{x} from the end: %{y:.2e}<extra></extra>`,
  }];
}

// Plotly writes a power of ten's exponent at 0.875 of the tick font (the power at 1.25 times it, the
// exponent at 70% of that): the tick font that keeps the exponent as large as the rest of the chart's
// text, `text` px (23 on the canvas, 19 on a phone).
function powerTickFont(text) {
  return { size: Math.ceil(text / 0.875) };
}

// Decades on the log axis: at most five labels, each a power of ten written 10ⁿ.
function logTicks(data, names) {
  const values = names.flatMap((name) => data.models[name].gradient).filter((v) => v > 0);
  const decades = Math.log10(Math.max(...values)) - Math.log10(Math.min(...values));
  return { dtick: Math.max(1, Math.ceil(decades / 4)), exponentformat: "power", tickfont: powerTickFont(FONT_SIZE.canvas.text) };
}

function draw(chart, data) {
  const styles = modelStyles();
  const names = ORDER.filter((name) => data.models[name]);
  const steps = {
    type: "bar",
    orientation: "h",
    y: names.map((name) => data.models[name].label),
    x: names.map((name) => data.models[name].sequential_steps),
    marker: { color: names.map((name) => styles[name].color) },
    text: names.map((name) => String(data.models[name].sequential_steps)),
    ...SIDE_BARS,
    hovertemplate: "%{y}: %{x} sequential steps<extra></extra>",
  };
  const most = Math.max(...names.map((name) => data.models[name].sequential_steps));
  const when = data.train_steps ? `after ${data.train_steps} steps` : "untrained";
  plot(chart, [...names.flatMap((name) => modelLines(data, name, styles[name])), steps], {
    xaxis: { domain: [0, 0.56], title: { text: `distance from the end (${when})`, standoff: 4 }, range: [1, data.length], nticks: 5 },
    yaxis: { type: "log", title: { text: "gradient norm", standoff: 4 }, ...logTicks(data, names) },
    xaxis2: { domain: [0.8, 1], anchor: "y2", range: [0, most * 1.35], nticks: 3, title: { text: "sequential<br>steps", standoff: 4 } },
    yaxis2: { anchor: "x2", autorange: "reversed", ticksuffix: " " },
    legend: TOP_LEGEND,
    margin: { l: 8, r: 8, t: 8, b: 8 },
    // A phone: the steps under the curves, the whole width each.
    phone: {
      xaxis: { domain: [0, 1], title: { text: `distance from the end<br>(${when})` } },
      yaxis: { domain: [0.42, 1], tickfont: powerTickFont(FONT_SIZE.phone.text) },
      xaxis2: { domain: [0, 1], title: { text: "sequential steps" } },
      yaxis2: { domain: [0, 0.2] },
    },
  });
}

export function render(output, result) {
  draw(chartIn(output, "signal-decay-chart", { fresh: true }), result);
}
