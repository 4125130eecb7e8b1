// Using the whole context. Left, the copy test: each model's loss on every symbol of the test
// sequences against its position (the mean over the seeds, each seed faint behind it), chance
// dotted, and where the repeat starts marked. Right, natural text: the showdown's character models
// on the same test characters with the context cut to T (mean over the seeds, a bar for their range);
// or, for a result with a size sweep (`text.positions`, a GPU's prepared run), Kaplan et al.'s Figure 7
// (right) in miniature: the sweep's largest models' loss at each position of their whole context, each
// family's fitted a + b·T^−c and where it stops gaining. One legend, beside the copy test, serves both
// charts (the chart of positions has its own, naming each fit, and the copy test's goes above it); the
// summary under them gives the numbers and the learning rate each model got.
import { modelColors } from "../chart_styles.js";
import { plot } from "../charts.js";
import { seedRange } from "./shared/accuracy_by_length.js";
import { FAMILIES, TOP_LEGEND, element, levelLine } from "./shared/common.js";

const RIGHT_LEGEND = { orientation: "v", x: 1.02, xanchor: "left", y: 1, yanchor: "top" };

function bitsText(stats) {
  return stats.by_seed.length > 1 ? `${stats.mean.toFixed(2)} (${stats.min.toFixed(2)}–${stats.max.toFixed(2)})`
    : stats.mean.toFixed(2);
}

// A dotted grey line across the chart at `y`: chance.
function chanceLine(x, y, showlegend = true) {
  return levelLine("chance", x, y, { showlegend });
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
  const narrow = Boolean(data.text.positions); // the chart of positions beside it takes the more room
  plot(chart, traces, {
    legend: narrow ? TOP_LEGEND : RIGHT_LEGEND, // beside the plot: the slide has more room across than down
    margin: { l: 8, r: 8, t: 8, b: 8 },
    xaxis: { title: { text: narrow ? "symbol's position" : "position of the symbol", standoff: 4 },
             range: [0.5, copy.length + 0.5], fixedrange: true,
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
      line: { color, width: 3, dash: look.dash }, marker: { color, size: 10, symbol: look.marker },
      hovertemplate: `${look.name}, context %{x}: %{y:.2f} bits<extra></extra>`,
    };
  });
  traces.push(chanceLine(text.contexts, text.chance, false));
  const longest = text.contexts.at(-1);
  plot(chart, traces, {
    margin: { l: 8, r: 8, t: 8, b: 8 },
    xaxis: { type: "log", title: { text: "text: context T<br>(chars)", standoff: 4 }, fixedrange: true,
             tickvals: text.contexts.filter((t) => [1, 4, 16, 64, 256].includes(t)), range: [-0.1, Math.log10(longest) + 0.1] },
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

// ---- natural text, the loss at each position of the whole context (a result with a size sweep)

// A fit's formula as the chart writes it, on one line (a superscript would be too small to read): 3.85 + 0.42·T^−2.70.
function fitText({ a, b, c }) {
  return `${a.toFixed(2)} + ${b.toFixed(2)}·T^−${c.toFixed(2)}`;
}

// Where a family stops gaining: the mean over the seeds, and their range when they differ.
function stopText({ mean, min, max }) {
  return min === max ? mean.toFixed(0) : `${mean.toFixed(0)} (${min}–${max} over seeds)`;
}

// Figure 7 (right): bits per character at each position T of the context, both families' largest models:
// each position's mean over the seeds thin and faint, the doubling bins of positions as markers (the
// mean, and a bar for the seeds' range), the fitted a + b·T^−c (named in the legend), and a vertical line
// where each family stops gaining.
function drawPositions(chart, data) {
  const colors = modelColors();
  const text = data.text;
  const { bins, context, families } = text.positions;
  const seeds = data.seeds.length;
  const positions = Array.from({ length: context }, (_, i) => i + 1);
  const values = families.flatMap((family) => [...family.curve, ...family.bins.flatMap((s) => [s.min, s.max])]);
  const [bottom, top] = [Math.max(0, Math.min(...values) - 0.3), Math.max(text.chance, ...values) + 0.3];
  const ends = [0.8, context * 1.25];
  const traces = families.flatMap((family) => {
    const look = FAMILIES[family.kind];
    const color = colors[family.kind];
    const { a, b, c } = family.fit;
    const stop = family.stops_gaining;
    return [{
      type: "scatter", mode: "lines", name: `${look.name}, each position`, legendgroup: family.kind, showlegend: false,
      x: positions, y: family.curve, line: { color, width: 1.5, dash: look.dash }, opacity: 0.4,
      hovertemplate: `${look.name}, position %{x}: %{y:.2f} bits<extra></extra>`,
    }, {
      type: "scatter", mode: "lines", name: `${look.name}: ${fitText(family.fit)}`, legendgroup: family.kind,
      x: positions, y: positions.map((t) => a + b * t ** -c), line: { color, width: 3, dash: look.dash },
      hovertemplate: `${look.name}, fitted ${fitText(family.fit)}: %{y:.2f} bits at position %{x}<extra></extra>`,
    }, {
      type: "scatter", mode: "markers", name: `${look.name}, by bins of positions`, legendgroup: family.kind, showlegend: false,
      x: bins.map(([first, last]) => Math.sqrt(first * last)), y: family.bins.map((s) => s.mean),
      error_y: seeds > 1 ? seedRange(family.bins, color) : undefined,
      marker: { color, size: 11, symbol: look.marker },
      customdata: bins.map(([first, last]) => (first === last ? `position ${first}` : `positions ${first}–${last}`)),
      hovertemplate: `${look.name}, %{customdata}: mean %{y:.2f} bits<extra></extra>`,
    }, {
      type: "scatter", mode: "lines", name: `${look.name} stops gaining`, legendgroup: family.kind, showlegend: false,
      x: [stop.mean, stop.mean], y: [bottom, top], line: { color, width: 2, dash: look.dash },
      hovertemplate: `${look.name}: no clear gain after position ${stopText(stop)}<extra></extra>`,
    }];
  });
  traces.push(chanceLine(ends, text.chance, false), { // the vertical lines' entry in the legend
    type: "scatter", mode: "markers", name: "stops gaining", x: [null], y: [null], hoverinfo: "skip",
    marker: { symbol: "line-ns-open", size: 18, color: "#16181d", line: { color: "#16181d", width: 2 } },
  });
  plot(chart, traces, {
    legend: TOP_LEGEND,
    margin: { l: 8, r: 8, t: 8, b: 8 },
    xaxis: { type: "log", title: { text: "position T in the context", standoff: 4 }, fixedrange: true,
             tickvals: [1, 4, 16, 64, 256].filter((t) => t <= context), range: [Math.log10(ends[0]), Math.log10(ends[1])] },
    yaxis: { title: { text: "bits", standoff: 4 }, fixedrange: true, range: [bottom, top] },
    annotations: [{ x: Math.log10(ends[1]), y: text.chance, xanchor: "right", yanchor: "top", text: "chance",
                    showarrow: false }],
  });
  const words = families.map((f) => `${FAMILIES[f.kind].name} from ${f.bins[0].mean.toFixed(2)} at position 1 to `
    + `${f.bins.at(-1).mean.toFixed(2)} at ${bins.at(-1)[0]}–${bins.at(-1)[1]}, fitted ${f.fit.a.toFixed(2)} + `
    + `${f.fit.b.toFixed(2)}·T^−${f.fit.c.toFixed(2)}, no clear gain after position ${stopText(f.stops_gaining)}`);
  chart.setAttribute("aria-label", `Test text, bits per character at each position T of a ${context}-character context `
    + `(chance ${text.chance.toFixed(2)}), with a fitted a + b·T^−c for each family: ${words.join("; ")}.`);
}

// The charts share a row whose height is what the toolbar, badge and summary leave, and those may
// change after drawing (a badge that wraps): each chart is drawn again to its box when the box changes.
const sizers = new WeakMap(); // each output's observer, replaced with its charts

function keepSized(output, charts) {
  sizers.get(output)?.disconnect();
  const sizer = new ResizeObserver(() => {
    for (const chart of charts) if (window.Plotly && chart.isConnected) window.Plotly.Plots.resize(chart);
  });
  for (const chart of charts) sizer.observe(chart);
  sizers.set(output, sizer);
}

export function render(output, result) {
  const root = element("div", "ctx");
  const copy = element("div", "demo-chart ctx-copy");
  const sweep = Boolean(result.text.positions);
  const text = element("div", sweep ? "demo-chart ctx-text ctx-positions" : "demo-chart ctx-text");
  root.classList.toggle("ctx--positions", sweep);
  root.append(copy, text);
  output.replaceChildren(root);
  drawCopy(copy, result);
  if (sweep) drawPositions(text, result);
  else drawText(text, result);
  keepSized(output, [copy, text]);
}
