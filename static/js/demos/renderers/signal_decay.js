// Slide 2: how strongly the final answer reacts to each input position (gradient norm, log scale),
// one line per model, beside the count of sequential steps each model needs to read the string.
import { modelColors, plot } from "../charts.js";
import { chartIn, thousands, TOP_LEGEND } from "./common.js";

const ORDER = ["rnn", "lstm", "transformer"];

function draw(chart, data) {
  const colors = modelColors();
  const names = ORDER.filter((name) => data.models[name]);
  const lines = names.map((name) => {
    const model = data.models[name];
    return {
      type: "scatter",
      mode: "lines",
      name: `${model.label} (${thousands(model.parameters)} params)`,
      x: data.distances,
      y: model.gradient,
      line: { color: colors[name], width: 4, dash: name === "lstm" ? "dash" : "solid" },
      hovertemplate: `${model.label}, %{x} from the end: %{y:.2e}<extra></extra>`,
    };
  });
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
  plot(chart, [...lines, steps], {
    xaxis: { domain: [0, 0.68], title: { text: "distance from the end", standoff: 4 }, range: [1, data.length] },
    yaxis: { type: "log", title: { text: "gradient norm", standoff: 4 }, exponentformat: "power" },
    xaxis2: { domain: [0.8, 1], anchor: "y2", tickangle: -40 },
    yaxis2: { anchor: "x2", rangemode: "tozero", title: { text: "sequential steps", standoff: 2 } },
    legend: TOP_LEGEND,
    margin: { l: 76, r: 8, t: 40, b: 84 },
  });
}

export function render(output, result) {
  draw(chartIn(output, "signal-decay-chart", { fresh: true }), result);
}

export function renderProgress(output, data) {
  draw(chartIn(output, "signal-decay-chart"), data);
}

