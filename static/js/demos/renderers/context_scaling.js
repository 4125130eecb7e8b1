// Using the whole context. Left, the copy test: each model's loss on every symbol of the test
// sequences against its position (the mean over the seeds, each seed faint behind it), chance
// dotted, and where the repeat starts marked. Right, natural text: the showdown's character models
// on the same test characters with the context cut to T (mean over the seeds, a bar for their range).
// One legend, beside the copy test, serves both charts; the summary under them gives the numbers
// and the learning rate each model got.
import { modelColors, plot } from "../charts.js";
import { TOP_LEGEND, element } from "./shared/common.js";

const RIGHT_LEGEND = { orientation: "v", x: 1.02, xanchor: "left", y: 1, yanchor: "top" };
const FAMILIES = { // colour, and a dash and marker too: the two never differ by colour alone
  transformer: { name: "Transformer", dash: "solid", symbol: "circle" },
  lstm: { name: "LSTM", dash: "dash", symbol: "square" },
};

function bitsText(stats) {
  return stats.by_seed.length > 1 ? `${stats.mean.toFixed(2)} (${stats.min.toFixed(2)}–${stats.max.toFixed(2)})`
    : stats.mean.toFixed(2);
}

// A dotted grey line across the chart at `y`: chance.
function chanceLine(x, y, showlegend = true) {
  return {
    type: "scatter", mode: "lines", name: "chance", x: [x[0], x.at(-1)], y: [y, y], showlegend,
    line: { color: modelColors().chance, width: 3, dash: "dot" },
    hovertemplate: "chance: %{y:.2f} bits<extra></extra>",
  };
}

// ---- the copy test

// Where the first repeated symbol sits: a line at a fixed distance, a band where it varies.
function repeatMark(copy) {
  const [first, last] = copy.repeat_starts;
  const text = first === last ? `repeat<br>${first - 1} back` : "repeats<br>start";
  const span = { x0: first - 0.5, x1: last - 0.5, y0: 0, y1: 1, yref: "paper" };
  const shape = first === last
    ? { type: "line", ...span, line: { color: "#16181d", width: 2, dash: "dashdot" } }
    : { type: "rect", ...span, fillcolor: "rgba(127,127,127,0.15)", line: { width: 0 } };
  const note = { x: last - 0.5, xanchor: "left", y: 0.5, yref: "paper", text, align: "left", showarrow: false,
                 xshift: 4 };
  return { shapes: [shape], annotations: [note] };
}

function drawCopy(chart, data) {
  const colors = modelColors();
  const copy = data.copy;
  const positions = Array.from({ length: copy.length }, (_, i) => i + 1);
  const traces = copy.models.flatMap((model) => {
    const look = FAMILIES[model.kind];
    const color = colors[model.kind];
    return [
      ...model.per_position_bits_by_seed.map((curve, i) => ({ // each seed, faint
        type: "scatter", mode: "lines", name: `${look.name}, seed ${data.seeds[i]}`, legendgroup: model.kind,
        showlegend: false, x: positions, y: curve, line: { color, width: 1.5, dash: look.dash }, opacity: 0.35,
        hovertemplate: `${look.name}, seed ${data.seeds[i]}, symbol %{x}: %{y:.2f} bits<extra></extra>`,
      })),
      {
        type: "scatter", mode: "lines", name: look.name, legendgroup: model.kind, x: positions, y: model.per_position_bits,
        line: { color, width: 4, dash: look.dash },
        hovertemplate: `${look.name}, symbol %{x}: mean %{y:.2f} bits<extra></extra>`,
      },
    ];
  });
  traces.push(chanceLine(positions, copy.chance));
  const mark = repeatMark(copy);
  plot(chart, traces, {
    legend: RIGHT_LEGEND, // beside the plot: the slide has more room across than down
    margin: { l: 8, r: 8, t: 8, b: 8 },
    xaxis: { title: { text: "position of the symbol", standoff: 4 }, range: [0.5, copy.length + 0.5], fixedrange: true,
             tickvals: [32, 64, 96, 128].filter((t) => t <= copy.length) },
    yaxis: { title: { text: "bits", standoff: 4 }, range: [-0.2, copy.chance + 0.5], fixedrange: true,
             tickvals: [0, copy.chance / 2, copy.chance],
             ticktext: ["0", (copy.chance / 2).toFixed(1), copy.chance.toFixed(0)] },
    ...mark,
    phone: { legend: TOP_LEGEND }, // a phone's chart is narrow, and tall enough for a row above it
  });
  const words = copy.models.map((m) => `${FAMILIES[m.kind].name} ${bitsText(m.first_bits)} bits before the repeat, ` +
    `${bitsText(m.repeat_bits)} on the repeats`);
  chart.setAttribute("aria-label", `Copy test, loss on each symbol against its position (chance ${copy.chance.toFixed(2)} ` +
    `bits): ${words.join("; ")}.`);
}

// ---- natural text, the context cut to T

function drawText(chart, data) {
  const colors = modelColors();
  const text = data.text;
  const traces = text.models.map((model) => {
    const look = FAMILIES[model.kind];
    const color = colors[model.kind];
    return {
      type: "scatter", mode: "lines+markers", name: look.name, showlegend: false, // named in the copy test's legend
      x: text.contexts, y: model.bits.map((b) => b.mean),
      error_y: data.seeds.length > 1 ? {
        type: "data", symmetric: false, array: model.bits.map((b) => b.max - b.mean),
        arrayminus: model.bits.map((b) => b.mean - b.min), color, thickness: 2, width: 5,
      } : undefined,
      line: { color, width: 3, dash: look.dash }, marker: { color, size: 10, symbol: look.symbol },
      hovertemplate: `${look.name}, context %{x}: %{y:.2f} bits<extra></extra>`,
    };
  });
  traces.push(chanceLine(text.contexts, text.chance, false));
  const longest = text.contexts.at(-1);
  plot(chart, traces, {
    margin: { l: 8, r: 8, t: 8, b: 8 },
    xaxis: { type: "log", title: { text: "text: context T<br>(chars)", standoff: 4 }, fixedrange: true,
             tickvals: text.contexts.filter((t) => [1, 4, 16, 64].includes(t)), range: [-0.1, Math.log10(longest) + 0.1] },
    yaxis: { title: { text: "bits", standoff: 4 }, fixedrange: true, range: [0, text.chance + 0.6],
             tickvals: [0, 2, 4, 6] },
    annotations: [{ x: Math.log10(longest), y: text.chance, xanchor: "right", yanchor: "top", text: "chance",
                    showarrow: false }],
  });
  const words = text.models.map((m) => `${FAMILIES[m.kind].name} from ${m.bits[0].mean.toFixed(2)} at T = 1 to ` +
    `${m.bits.at(-1).mean.toFixed(2)} at T = ${text.contexts.at(-1)}, no clear gain after T = ${m.stops_gaining}`);
  chart.setAttribute("aria-label",
    `Test text, bits per character against the context cut to T characters: ${words.join("; ")}.`);
}

// The charts share a row whose height is what the toolbar, badge and summary leave, and those may
// change after drawing (a badge that wraps): each chart is drawn again to its box when the box changes.
function keepSized(output, charts) {
  output.ctxResize?.disconnect();
  output.ctxResize = new ResizeObserver(() => {
    for (const chart of charts) if (window.Plotly && chart.isConnected) window.Plotly.Plots.resize(chart);
  });
  for (const chart of charts) output.ctxResize.observe(chart);
}

export function render(output, result) {
  const root = element("div", "ctx");
  const copy = element("div", "demo-chart ctx-copy");
  const text = element("div", "demo-chart ctx-text");
  root.append(copy, text);
  output.replaceChildren(root);
  drawCopy(copy, result);
  drawText(text, result);
  keepSized(output, [copy, text]);
}
