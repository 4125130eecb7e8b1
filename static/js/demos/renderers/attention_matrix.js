// Softmax(QKᵀ/√d_k) as a heatmap with its colour scale, one row per token, each row's sum printed
// beside it as computed from the weights shown; beside it, one row taken apart (q·k, ÷ √d_k, softmax,
// the values and their weighted sum: ./shared/attention_row.js). Layer, head, temperature and the
// row change here at once: the weights are recomputed from the model's scores, and the sums from
// those weights. Click a row of the matrix, or a word, to take that row apart. Each weight is
// printed in its cell only where the cell is big enough to hold it legibly (a short sentence on the
// canvas); otherwise the colour scale and the hover give it.
import { modelColors, onPhone, textSize } from "../chart_styles.js";
import { chartElement, plot } from "../charts.js";
import { element, headPickers, softmaxRow, sum } from "./shared/attention_parts.js";
import { rowBreakdown } from "./shared/attention_row.js";
import { showSummary } from "./shared/common.js";

const TEMPERATURES = { min: -1, max: 1, step: 0.02 }; // log10 of the temperature, 0.1 to 10
const ROW_HEIGHT = 1.3; // a row's height in text sizes: rows closer than this would overlap their labels

function temperatureSlider(value, onChange) {
  const wrap = element("label", "attn-picker attn-temperature");
  const input = element("input");
  Object.assign(input, { type: "range", ...TEMPERATURES, value: String(Math.log10(value)) });
  input.setAttribute("aria-label", "Temperature");
  const shown = element("output", "", value.toFixed(2));
  input.addEventListener("input", () => {
    const temperature = 10 ** Number(input.value);
    shown.textContent = temperature.toFixed(2);
    onChange(temperature);
  });
  wrap.append(element("span", "", "Temperature"), input, shown);
  return wrap;
}

// How the matrix fits the chart's width: the columns are labelled by their tokens when those fit
// side by side, else by their positions (and each row's label gains its position to match).
// Beside the row taken apart (`rows`: its layout), the matrix's rows line up with that chart's word
// buttons, which name them: no row labels, no colour scale (the softmax bars give the numbers).
function fitting(chart, tokens, size, rows) {
  const charWidth = 0.62 * size; // a generous average for the deck's sans-serif
  const narrow = onPhone();
  const sumWidth = 4 * charWidth + 12; // "1.00"
  const scaleWidth = narrow || rows ? 0 : 3 * charWidth + 40; // a vertical colour bar with "0.5" beside it
  const rowLabel = rows ? 0 : Math.max(...tokens.map((t) => t.length)) + 3;
  const cell = (chart.clientWidth - rowLabel * charWidth - sumWidth - scaleWidth - 12) / tokens.length;
  const tokensFit = Math.max(...tokens.map((t) => t.length)) * charWidth + 4 <= cell;
  const numbersFit = cell >= 4 * charWidth + 4 && chart.clientHeight / (tokens.length + 2) >= ROW_HEIGHT * size;
  const everyNth = Math.max(1, Math.ceil((2 * charWidth + 6) / cell)); // position labels that fit side by side
  return { narrow, sumWidth, scaleWidth, tokensFit: tokensFit && !rows, numbersFit, everyNth };
}

function draw(chart, result, weights, query, rows) {
  const { tokens } = result;
  const T = tokens.length;
  const size = textSize();
  const fit = fitting(chart, tokens, size, rows);
  if (rows) chart.style.height = `${rows.height}px`;
  else chart.style.minHeight = `${Math.ceil((T + 2) * ROW_HEIGHT * size + (fit.narrow ? 3 * size : 0))}px`; // never squeezes the labels
  const rowSums = weights.map(sum);
  const masked = (i, j) => j > i;
  const hover = weights.map((row, i) => row.map((_, j) => (masked(i, j) ? "masked: a later token" : `'${tokens[i]}' → '${tokens[j]}'`)));
  const position = (i) => String(i + 1);
  const colorbar = fit.narrow
    ? { orientation: "h", thickness: 12, lenmode: "pixels", len: Math.min(200, chart.clientWidth - 110), x: 0.5,
        xanchor: "center", y: -0.04, yanchor: "top", title: { text: "weight", side: "left" }, tickvals: [0, 0.5, 1], tickangle: 0 }
    : { thickness: 14, len: 1, x: 1, xref: "container", xanchor: "right", tickvals: [0, 0.5, 1], ticklabelposition: "outside" };
  const drawn = plot(chart, [{
    type: "heatmap", z: weights, x: tokens.map((_, j) => j), y: tokens.map((_, i) => i),
    zmin: 0, zmax: 1, colorscale: [[0, "#ffffff"], [1, modelColors().transformer]], colorbar, showscale: !rows,
    customdata: hover, hovertemplate: "%{customdata}: %{z:.3f}<extra></extra>",
    text: weights.map((row, i) => row.map((w, j) => (fit.numbersFit && !masked(i, j) ? w.toFixed(2) : ""))),
    texttemplate: "%{text}",
    xgap: 1, ygap: 1,
  }], {
    font: { size },
    margin: rows ? { l: 8, r: fit.sumWidth, t: rows.top, b: rows.height - rows.top - rows.keys }
      : { l: 8, r: fit.sumWidth + fit.scaleWidth, t: 4, b: fit.narrow ? 3.2 * size : size }, // room for the scale's "0"
    xaxis: { tickmode: "array", tickvals: tokens.map((_, j) => j).filter((j) => fit.tokensFit || j % fit.everyNth === 0),
             ticktext: fit.tokensFit ? tokens : tokens.map((_, j) => position(j)).filter((_, j) => j % fit.everyNth === 0),
             range: [-0.5, T - 0.5], // set: the sums beside the matrix would widen it
             side: "top", tickangle: 0, showgrid: false, zeroline: false, automargin: !rows, fixedrange: true,
             ...(rows ? { ticks: "" } : {}) }, // beside the row: the labels keep within the row's title height
    yaxis: { tickmode: "array", tickvals: tokens.map((_, i) => i), showticklabels: !rows, ...(rows ? { ticks: "" } : {}),
             ticktext: fit.tokensFit ? tokens : tokens.map((t, i) => `${t} ${position(i)}`),
             range: [T - 0.5, -0.5], showgrid: false, zeroline: false, automargin: !rows, fixedrange: true },
    // The row taken apart beside the matrix, outlined.
    shapes: [{ type: "rect", xref: "paper", yref: "y", x0: 0, x1: 1, y0: query - 0.5, y1: query + 0.5,
               line: { color: "#16181d", width: 2 }, fillcolor: "rgba(0,0,0,0)" }],
    annotations: [
      { xref: "x", yref: "paper", x: T - 0.5, xshift: 6, y: 1, yanchor: "bottom", xanchor: "left", showarrow: false, text: "Σ" },
      ...rowSums.map((total, i) => ({
        xref: "x", yref: "y", x: T - 0.5, xshift: 6, y: i, xanchor: "left", showarrow: false, text: total.toFixed(2),
      })),
    ],
  });
  chart.setAttribute("aria-label", `Attention matrix of ${T} tokens; row sums ${rowSums.map((s) => s.toFixed(2)).join(", ")}`);
  return drawn;
}

// A number as Python's "{:.1e}" writes it: 1.2e-07.
function exponent(value) {
  return value.toExponential(1).replace(/e([+-])(\d)$/, (_, sign, digit) => `e${sign}0${digit}`);
}

// The summary for the layer, head, temperature and query word on show, in the words of
// demos/attention_matrix.py's (which is shown as it is for the view it was run with).
function summaryFor(result, weights, state) {
  const { tokens } = result;
  const ownWeights = state.layer === result.layer && state.head === result.head && state.temperature === result.temperature;
  if (ownWeights && state.query === result.query) return result.summary;
  const T = tokens.length;
  // The server summed its weights in single precision; weights recomputed here are summed in double.
  const deviation = ownWeights ? result.max_row_sum_deviation : Math.max(...weights.map((row) => Math.abs(sum(row) - 1)));
  const above = weights.flatMap((row, i) => row.slice(i + 1));
  const meanTop = sum(weights.map((row) => Math.max(...row))) / T;
  const { query } = state;
  const step = result.heads[state.layer - 1][state.head - 1].steps[query];
  let best = 0;
  for (let j = 1; j <= query; j += 1) if (weights[query][j] > weights[query][best]) best = j;
  return `Layer ${state.layer}, head ${state.head} (${result.notes.model}), temperature ${Number(state.temperature.toFixed(2))}: `
    + `all ${T} rows sum to 1 (largest deviation ${exponent(deviation)}) and the ${above.length} cells above the diagonal are `
    + `${above.every((w) => w === 0) ? "exactly 0" : "not all 0"}: the causal mask. A row's largest weight is `
    + `${meanTop.toFixed(2)} on average. The query of '${tokens[query]}' matches '${tokens[best]}' best: `
    + `q·k = ${step.dots[best].toFixed(2)}, ÷ √${result.d_k} = ${step.scaled[best].toFixed(2)}, softmax weight `
    + `${weights[query][best].toFixed(2)}.${result.notes.unknown}`;
}

export function render(output, result) {
  output.replaceChildren();
  let state = { layer: result.layer, head: result.head, temperature: result.temperature, query: result.query };
  const update = (change) => {
    state = { ...state, ...change };
    redraw();
  };
  const box = element("div", "attn attn-matrix");
  const controls = headPickers(result, state, update);
  controls.append(temperatureSlider(state.temperature, (temperature) => update({ temperature })));
  const pair = element("div", "attn-pair");
  const chart = chartElement(pair, "demo-chart attn-matrix-chart");
  chart.setAttribute("role", "img");
  const row = rowBreakdown(result, (query) => update({ query }));
  pair.append(row.box);
  box.append(controls, pair);
  output.append(box);

  function redraw() {
    const unchanged = state.layer === result.layer && state.head === result.head && state.temperature === result.temperature;
    const scores = result.all_scores[state.layer - 1][state.head - 1];
    const rows = row.show(result.heads[state.layer - 1][state.head - 1], state.query, state.temperature);
    const weights = unchanged ? result.weights : scores.map((r) => softmaxRow(r, state.temperature));
    showSummary(output, summaryFor(result, weights, state));
    return draw(chart, result, weights, state.query, onPhone() ? null : rows);
  }
  // A click on a row of the matrix takes that row apart (Plotly's events exist once it has drawn).
  Promise.resolve(redraw()).then(() => chart.on?.("plotly_click", (event) => {
    const point = event.points?.[0];
    if (point) update({ query: point.y });
  }));
}
