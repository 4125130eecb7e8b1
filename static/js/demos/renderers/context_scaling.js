// Using the whole context (a miniature of Kaplan et al. 2020, Figure 7). Right: each
// model's loss on test text against the character's position T (log axis, mean over the seeds,
// each seed faint behind it), with the fitted a + b·T⁻ᶜ dashed over it. Left: test loss against
// non-embedding parameters for Transformers and LSTMs of several sizes, when the result holds
// that sweep (the longer run computes it). Under both: the fitted constants and an example of the
// test text.
import { modelColors, plot } from "../charts.js";
import { TOP_LEGEND, element, thousands } from "./shared/common.js";

const NAMES = { transformer: "Transformer", lstm: "LSTM" };
const EXAMPLE_CHARACTERS = 48; // of the test text: about a line of the canvas at 20 px
const FAMILIES = {
  transformer: { name: "Transformer", color: "transformer", dash: "solid", symbol: "circle" },
  lstm: { name: "LSTM", color: "lstm", dash: "dash", symbol: "square" },
};

// Text size in px: 20 on the canvas (16 on a 1024×768 projector, where the canvas is scaled by 0.8),
// 16 on a phone, which shows the slide unscaled.
function textSize() {
  return matchMedia("(max-width: 760px)").matches ? 16 : 20;
}

function fitted(fit, t) {
  return fit.a + fit.b * t ** -fit.c;
}

// The fit's formula in two parts: the base, and the exponent of T.
function fitParts(fit) {
  return [`${fit.a.toFixed(2)} ${fit.b < 0 ? "−" : "+"} ${Math.abs(fit.b).toFixed(2)}·T`, `−${fit.c.toFixed(2)}`];
}

// For Plotly's text (a tooltip): the exponent raised with Plotly's own <sup>.
function fitText(fit) {
  const [base, exponent] = fitParts(fit);
  return `${base}<sup>${exponent}</sup>` + (fit.at_edge ? " (at the edge)" : "");
}

// For the page: "L(T) = a + b·T" and the exponent as a raised <sup>, on one line.
function fitFormula(fit) {
  const [base, exponent] = fitParts(fit);
  const formula = element("span", "ctx-formula", `L(T) = ${base}`);
  formula.append(element("sup", "", exponent));
  return formula;
}

function compact(count) {
  return count >= 1e6 ? `${(count / 1e6).toFixed(1)}M` : count >= 1e3 ? `${Math.round(count / 1e3)}k` : String(count);
}

// ---- the right panel: per-token loss against position

// Mean loss over positions 1, 2, 3–4, 5–8, …: the measured curve without the noise of single positions.
function binned(losses) {
  const points = [];
  for (let start = 1; start <= losses.length; start *= 2) {
    const end = Math.min(2 * start - 1, losses.length);
    const part = losses.slice(start - 1, end);
    points.push({ x: Math.sqrt(start * end), y: part.reduce((sum, v) => sum + v, 0) / part.length, start, end });
  }
  return points;
}

function drawPositions(chart, data) {
  const colors = modelColors();
  const positions = Array.from({ length: data.context }, (_, i) => i + 1);
  const traces = data.models.flatMap((model) => {
    const name = NAMES[model.kind];
    const color = colors[model.kind];
    const bins = binned(model.per_token_bits);
    return [
      ...model.per_token_bits_by_seed.map((curve, i) => ({ // each seed, faint: one value per position
        type: "scatter", mode: "lines", name: `${name}, seed ${data.seeds[i]}`, legendgroup: model.kind,
        showlegend: false, x: positions, y: curve, line: { color, width: 1.2 }, opacity: 0.3,
        hovertemplate: `${name}, seed ${data.seeds[i]}, character %{x}: %{y:.2f} bits<extra></extra>`,
      })),
      {
        type: "scatter", mode: "lines+markers", name, legendgroup: model.kind,
        x: bins.map((b) => b.x), y: bins.map((b) => b.y), line: { color, width: 4 },
        marker: { color, size: 10, symbol: FAMILIES[model.kind].symbol }, // the shape tells the two apart, not only the colour
        customdata: bins.map((b) => (b.start === b.end ? `character ${b.start}` : `characters ${b.start}–${b.end}`)),
        hovertemplate: `${name}, %{customdata}: mean %{y:.2f} bits<extra></extra>`,
      },
      {
        type: "scatter", mode: "lines", name: `${name} fit`, legendgroup: model.kind, showlegend: false,
        x: positions, y: positions.map((t) => fitted(model.fit, t)), line: { color, width: 2.5, dash: "dash" },
        hovertemplate: `${name} fit ${fitText(model.fit)}: %{y:.2f}<extra></extra>`,
      },
    ];
  });
  if (data.models.length) { // one legend entry says what the dashed lines are
    traces.push({ type: "scatter", mode: "lines", name: "fit", x: [null], y: [null],
                  line: { color: colors.chance, width: 2.5, dash: "dash" }, hoverinfo: "skip" });
  }
  const ticks = [1, 2, 4, 8, 16, 32, 64, 128, 256].filter((t) => t <= data.context);
  const size = textSize();
  plot(chart, traces, {
    font: { size },
    legend: TOP_LEGEND,
    margin: { l: 8, r: 8, t: 8, b: 8 },
    xaxis: { type: "log", title: { text: "position T in the context", standoff: 4 }, tickvals: ticks, automargin: true,
             range: [-0.03, Math.log10(data.context) + 0.03], fixedrange: true },
    yaxis: { title: { text: "bits per char", standoff: 4 }, fixedrange: true, automargin: true, nticks: 5 },
  });
  const words = data.models.map((m) => `${NAMES[m.kind]} from ${m.per_token_bits[0].toFixed(2)} at character 1 to ` +
    `${m.per_token_bits.at(-1).toFixed(2)} at character ${data.context}`);
  chart.setAttribute("aria-label", `Bits per character on test text against position: ${words.join("; ")}.`);
}

// ---- the left panel: loss against non-embedding parameters (the sweep)

function drawSweep(chart, sweep) {
  const colors = modelColors();
  const traces = Object.entries(FAMILIES).map(([family, look]) => {
    const points = sweep.points.filter((p) => p.family === family)
      .sort((a, b) => a.non_embedding_parameters - b.non_embedding_parameters);
    const fit = sweep.fits[family];
    return {
      type: "scatter", mode: "lines+markers", name: look.name,
      x: points.map((p) => p.non_embedding_parameters), y: points.map((p) => p.bits),
      line: { color: colors[look.color], width: 3, dash: look.dash },
      marker: { color: colors[look.color], size: 10, symbol: look.symbol },
      customdata: points.map((p) => p.label),
      hovertemplate: `%{customdata}<br>%{x:,} non-embedding parameters: %{y:.3f} bits` +
        `${fit ? `<br>fitted α = ${fit.alpha.toFixed(3)}` : ""}<extra></extra>`,
    };
  });
  const smallest = sweep.points.filter((p) => p.family === "transformer")
    .sort((a, b) => a.non_embedding_parameters - b.non_embedding_parameters)[0];
  const sizes = sweep.points.map((p) => p.non_embedding_parameters);
  if (smallest) { // the paper's slope, drawn through our smallest Transformer: a reference, not a result
    const xs = [Math.min(...sizes), Math.max(...sizes)];
    traces.push({
      type: "scatter", mode: "lines", name: `paper: α ${sweep.paper_alpha}`,
      x: xs, y: xs.map((n) => smallest.bits * (n / smallest.non_embedding_parameters) ** -sweep.paper_alpha),
      line: { color: colors.chance, width: 3, dash: "dot" },
      hovertemplate: `Kaplan et al. (2020): L ∝ N<sup>−${sweep.paper_alpha}</sup>, drawn through our smallest Transformer<extra></extra>`,
    });
  }
  plot(chart, traces, {
    font: { size: textSize() },
    legend: TOP_LEGEND,
    margin: { l: 8, r: 8, t: 8, b: 8 },
    xaxis: { type: "log", title: { text: "non-emb. parameters", standoff: 4 }, fixedrange: true, automargin: true, nticks: 4 },
    yaxis: { type: "log", title: { text: "bits per char", standoff: 4 }, fixedrange: true, automargin: true,
             tickformat: ".3~g", nticks: 4 },
  });
  const fits = Object.entries(sweep.fits).map(([family, fit]) => `${FAMILIES[family].name} α = ${fit.alpha.toFixed(3)}`);
  chart.setAttribute("aria-label", `Held-out loss against non-embedding parameters for ${sweep.points.length} models; ` +
    `fitted exponents: ${fits.join(", ") || "none yet"}; the paper's α = ${sweep.paper_alpha} drawn as a reference.`);
}

// ---- below: the fitted constants and an example of the text

function formulaCell(fit) {
  const cell = element("td", "ctx-fit-formula");
  cell.append(fitFormula(fit));
  if (fit.at_edge) cell.append(" ", element("span", "ctx-fit-edge", "(at the edge)"));
  return cell;
}

function fitsTable(models) {
  const table = element("table", "ctx-fits");
  for (const model of models) {
    const row = element("tr", `ctx-fit--${model.kind}`);
    row.append(
      element("th", "ctx-fit-name", NAMES[model.kind]),
      formulaCell(model.fit),
    ); // the model's size is in the row's tooltip: a third column does not fit at this text size
    row.title = `${model.label}, ${thousands(model.non_embedding_parameters)} non-embedding parameters, `
      + `${compact(model.parameters)} in all: fit rms ${model.fit.rmse.toFixed(3)} bits`
      + (model.fit.at_edge ? "; the fitted exponent sits at the edge of the range tried: no power law there" : "");
    table.append(row);
  }
  return table;
}

function example(data) {
  const line = element("p", "ctx-example");
  const start = data.example.replaceAll("\n", " ⏎ ");
  line.append(element("span", "ctx-example-label", "Test text: "), `${start.slice(0, EXAMPLE_CHARACTERS).trimEnd()} …`);
  line.title = `Windows of ${data.test_windows} × 128 characters inside ${data.test_documents} documents of ${data.corpus.source}.`;
  return line;
}

// ---- the layout

function build(output) {
  output.replaceChildren();
  const root = element("div", "ctx");
  const charts = element("div", "ctx-charts");
  const sweepBox = element("div", "ctx-sweep");
  const positions = element("div", "demo-chart ctx-positions");
  positions.setAttribute("role", "img");
  charts.append(sweepBox, positions);
  const footer = element("div", "ctx-footer");
  root.append(charts, footer);
  output.append(root);
  const view = {
    root, sweepBox, positions, footer,
    sweepChart() { // the sweep's chart, made when first needed
      let chart = sweepBox.querySelector(".ctx-sweep-chart");
      if (!chart) {
        chart = element("div", "demo-chart ctx-sweep-chart");
        chart.setAttribute("role", "img");
        sweepBox.replaceChildren(chart);
      }
      return chart;
    },
  };
  output.contextView = view;
  return view;
}

// The footer first: the charts are sized to the room it leaves.
function fill(view, data) {
  view.footer.replaceChildren(...(data.models.length ? [fitsTable(data.models)] : []), example(data.data));
  drawPositions(view.positions, data);
}

export function render(output, result) {
  const view = build(output);
  view.sweepBox.hidden = !result.sweep; // without the sweep, the loss curves take the whole width
  fill(view, result);
  if (result.sweep) drawSweep(view.sweepChart(), result.sweep);
  else view.footer.append(element("p", "ctx-sweep-note", `Loss against model size (${result.sweep_models} models) is part of the longer run.`));
}
