// How strongly the final answer reacts to each input position (gradient norm, log scale): one
// line per model at the mean over the seeds, each seed's own curve faint behind it, beside the
// count of sequential steps each model needs to read the string.
import { modelColors, plot } from "../charts.js";
import { chartIn, thousands, TOP_LEGEND } from "./shared/common.js";

const ORDER = ["rnn", "lstm", "lstm-tuned", "transformer"];
const DASHES = { rnn: "dot", lstm: "dash", "lstm-tuned": "dashdot", transformer: "solid" }; // shape as well as colour

function modelLines(data, name, color) {
  const model = data.models[name];
  const bias = model.forget_bias == null ? "" : `, forget bias ${model.forget_bias}`;
  const seeds = (model.gradient_by_seed ?? []).map((curve) => ({
    type: "scatter",
    mode: "lines",
    x: data.distances,
    y: curve,
    line: { color, width: 1.5, dash: DASHES[name] },
    opacity: 0.35,
    showlegend: false,
    hoverinfo: "skip",
  }));
  return [...seeds, {
    type: "scatter",
    mode: "lines",
    name: `${model.label} (${thousands(model.parameters)} params${bias})`,
    x: data.distances,
    y: model.gradient,
    line: { color, width: 4, dash: DASHES[name] },
    hovertemplate: `${model.label}, %{x} from the end: %{y:.2e}<extra></extra>`,
  }];
}

function draw(chart, data) {
  const colors = modelColors();
  const names = ORDER.filter((name) => data.models[name]);
  const steps = {
    type: "bar",
    x: names.map((name) => data.models[name].label),
    y: names.map((name) => data.models[name].sequential_steps),
    marker: { color: names.map((name) => colors[name]) },
    text: names.map((name) => String(data.models[name].sequential_steps)),
    textposition: "outside",
    cliponaxis: false,
    showlegend: false,
    xaxis: "x2",
    yaxis: "y2",
    hovertemplate: "%{x}: %{y} sequential steps<extra></extra>",
  };
  const when = data.train_steps ? `after ${data.train_steps} training steps` : "at initialisation";
  plot(chart, [...names.flatMap((name) => modelLines(data, name, colors[name])), steps], {
    xaxis: { domain: [0, 0.68], title: { text: `distance from the end (${when})`, standoff: 4 }, range: [1, data.length] },
    yaxis: { type: "log", title: { text: "gradient norm", standoff: 4 }, exponentformat: "power" },
    xaxis2: { domain: [0.8, 1], anchor: "y2", tickangle: -40 },
    yaxis2: { anchor: "x2", rangemode: "tozero", title: { text: "sequential steps", standoff: 2 } },
    legend: TOP_LEGEND,
    margin: { l: 76, r: 8, t: 64, b: 84 },
  });
}

export function render(output, result) {
  draw(chartIn(output, "signal-decay-chart", { fresh: true }), result);
}
