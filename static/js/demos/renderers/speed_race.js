// Time per training step against sequence length (log-log), one line per contender,
// one chart per device timed; below, how many times longer the fused LSTM took than the
// Transformer layer at each length; beside, the sequential steps and Table 1's complexities.
import { modelColors, plot } from "../charts.js";
import { TOP_LEGEND, chartIn, element, thousands } from "./shared/common.js";

const NAMES = { lstm_fused: "LSTM fused", lstm_loop: "LSTM loop", transformer: "Transformer" };
const DASH = { lstm_fused: "solid", lstm_loop: "dot", transformer: "solid" };

function raceTraces(race, showLegend) {
  const colors = modelColors();
  return Object.keys(NAMES).map((name) => ({
    type: "scatter",
    mode: "lines+markers",
    name: NAMES[name],
    legendgroup: name,
    showlegend: showLegend,
    x: race.lengths,
    y: race.series[name].map((t) => (t === null ? null : t * 1000)),
    line: { color: name === "transformer" ? colors.transformer : colors.lstm, width: 4, dash: DASH[name] },
    marker: { size: 9 },
    hovertemplate: `${NAMES[name]}<br>length %{x}: %{y:.2f} ms per step<extra></extra>`,
  }));
}

function drawTimes(chart, races) {
  const traces = races.flatMap((race, i) => raceTraces(race, i === 0).map((trace) => ({
    ...trace, xaxis: i ? `x${i + 1}` : "x", yaxis: i ? `y${i + 1}` : "y",
  })));
  const layout = {
    legend: TOP_LEGEND,
    margin: { l: 70, r: 10, t: 40, b: 50 },
    grid: { rows: 1, columns: races.length, pattern: "independent" },
    annotations: races.map((race, i) => ({
      text: race.device, showarrow: false, xref: `x${i ? i + 1 : ""} domain`, yref: `y${i ? i + 1 : ""} domain`,
      x: 0.02, y: 0.98, xanchor: "left", yanchor: "top", font: { size: 15 },
    })),
  };
  races.forEach((race, i) => {
    const suffix = i ? String(i + 1) : "";
    layout[`xaxis${suffix}`] = { type: "log", title: { text: "sequence length" }, tickvals: race.lengths, ticktext: race.lengths.map(String) };
    layout[`yaxis${suffix}`] = { type: "log", title: { text: i ? "" : "ms per step" } };
  });
  plot(chart, traces, layout);
}

function drawRatios(chart, races) {
  const colors = modelColors();
  plot(chart, races.map((race, i) => ({
    type: "scatter",
    mode: "lines+markers+text",
    name: race.device,
    x: race.lengths,
    y: race.ratio_lstm_to_transformer,
    line: { color: colors.chance, width: 2, dash: i ? "dot" : "solid" },
    marker: { size: 12, color: race.ratio_lstm_to_transformer.map((r) => (r > 1 ? colors.transformer : colors.lstm)) },
    text: race.ratio_lstm_to_transformer.map((r) => `${r.toFixed(2)}×`),
    textposition: "top center",
    cliponaxis: false,
    hovertemplate: `${race.device}<br>length %{x}: the fused LSTM took %{y:.2f}× the Transformer's time<extra></extra>`,
  })), {
    showlegend: races.length > 1,
    legend: TOP_LEGEND,
    margin: { l: 70, r: 10, t: 30, b: 30 },
    yaxis: { title: { text: "LSTM ÷ Transf." }, type: "log", dtick: 1 }, // 0.1, 1, 10: powers of ten only
    xaxis: { type: "log", tickvals: races[0].lengths, ticktext: races[0].lengths.map(String) },
    shapes: [{ type: "line", xref: "paper", x0: 0, x1: 1, y0: 1, y1: 1, line: { dash: "dash", color: colors.chance, width: 2 } }],
    annotations: [{ xref: "paper", x: 1, y: 1, yanchor: "bottom", xanchor: "right", showarrow: false,
                    text: "above the line: the Transformer is faster", font: { size: 13 } }],
  });
}

function factsPanel(result) {
  const panel = element("div", "speed-facts");
  const table = element("table", "speed-complexity");
  const head = element("tr");
  ["Per layer (Table 1)", "Work", "Sequential steps"].forEach((text) => head.append(element("th", "", text)));
  table.append(head);
  for (const row of result.complexity) {
    const tr = element("tr");
    [row.layer, row.per_layer, row.sequential].forEach((text) => tr.append(element("td", "", text)));
    table.append(tr);
  }
  const last = result.lengths.at(-1);
  const steps = element("p", "speed-steps",
    `At n = ${thousands(last)}: the LSTM takes ${thousands(last)} steps one after another; the Transformer layer 1.`);
  const counts = result.parameters;
  const params = element("p", "speed-params",
    `Parameters: LSTM ${thousands(counts.lstm_fused)}, Transformer layer ${thousands(counts.transformer)}. ` +
    `Width ${result.params.width}, batch ${result.params.batch}, median of ${result.params.repeats}; ` +
    `the CPU with ${result.cpu_threads} thread${result.cpu_threads === 1 ? "" : "s"}.`);
  panel.append(table, steps, params);
  const skipped = result.skipped.lstm_loop;
  if (skipped) {
    panel.append(element("p", "speed-skipped",
      `The Python loop was not timed beyond ${thousands(result.params.loop_max_length)} steps (it is slow).`));
  }
  const cuda = result.races.find((race) => race.peak_fraction);
  if (cuda) {
    const best = Math.max(...cuda.peak_fraction);
    panel.append(element("p", "speed-peak",
      `On ${cuda.device} the Transformer layer reached ${(best * 100).toFixed(1)}% of the device's ` +
      `${thousands(Math.round(cuda.peak_gflops))} GFLOP/s ${cuda.precision} peak (data sheet).`));
  }
  return panel;
}

export function render(output, result) {
  output.replaceChildren();
  const layout = element("div", "speed-layout");
  const charts = element("div", "speed-charts");
  const times = element("div", "demo-chart speed-times");
  const ratios = element("div", "demo-chart speed-ratios");
  charts.append(times, ratios);
  layout.append(charts, factsPanel(result));
  output.append(layout);
  drawTimes(times, result.races);
  drawRatios(ratios, result.races);
}

// While timing: the lines so far, on the device being timed.
export function renderProgress(output, data) {
  drawTimes(chartIn(output, "speed-live"), [data]);
}
