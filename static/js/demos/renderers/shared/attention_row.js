// One row of the attention matrix taken apart: one query word's attention, step by step, with the
// model's own numbers: each key's dot product with the query scaled by √d_k, the softmax weights
// (Σ = 1), and the output as the weights' mix of the value vectors, on one colour scale. One row per
// word: the words themselves are buttons beside the chart's rows (click one to make it the query);
// words after the query are masked. At a temperature t other than 1 the softmax and the output are
// recomputed from the scaled scores divided by t, as the matrix beside it is.
import { modelColors, onPhone, textSize } from "../../chart_styles.js";
import { chartElement, plot } from "../../charts.js";
import { element, softmaxRow, sum } from "./attention_parts.js";

// The chart's text size (chart_styles.js); rows a little taller than their text. A narrow chart (a
// phone, or beside the matrix) draws the values' colour scale under the panels.
function sizes(chart) {
  const phone = onPhone();
  const text = textSize();
  const narrow = phone || chart.clientWidth < 560;
  // A word button is a row tall: on a phone at least 24 px, a finger's target (WCAG 2.2).
  return { phone, narrow, text, row: phone ? 24 : Math.ceil(1.25 * text), title: Math.ceil(1.5 * text), gap: 10 };
}

// The step for query `query` at this temperature: the model's own at 1, else softmax(scaled / t).
function stepAt(parts, query, temperature) {
  const step = parts.steps[query];
  if (temperature === 1) return step;
  const weights = softmaxRow(step.scaled, temperature);
  const output = parts.v[0].map((_, d) => sum(weights.map((w, j) => w * parts.v[j][d])));
  return { ...step, weights, output };
}

// A number with `digits` decimals, never "-0.0", with a true minus sign.
function signed(value, digits) {
  const text = value.toFixed(digits);
  return Number(text) === 0 ? (0).toFixed(digits) : text.replace("-", "−");
}

// The x range of a bar panel `width` px wide, with room for the labels printed outside the bars
// (`labelWidth(labels)` in px).
function barRange(values, width, labelWidth) {
  const low = Math.min(0, ...values), high = Math.max(0, ...values);
  const left = labelWidth(values.filter((v) => v < 0).map((v) => signed(v, 2)));
  const right = labelWidth(values.filter((v) => v > 0).map((v) => signed(v, 2)));
  const perPixel = (high - low || 1) / Math.max(width - left - right, 1);
  return [low - left * perPixel, high + right * perPixel];
}

// The words as buttons, one per chart row, with the row of the output under them.
function wordColumn(result, onPick) {
  const column = element("div", "attn-words");
  column.setAttribute("role", "group");
  column.setAttribute("aria-label", "Pick the query word");
  column.append(element("span", "attn-words-head", "query:"));
  const buttons = result.tokens.map((token, i) => {
    const button = element("button", "attn-token", token);
    button.type = "button";
    if (result.unknown[i]) button.classList.add("attn-token--unknown");
    button.addEventListener("click", () => onPick(i));
    column.append(button);
    return button;
  });
  column.append(element("span", "attn-words-output", "output"));
  return { column, buttons };
}

// Draw the row of `query` for one head's `parts` ({v, steps}) of `result` (tokens, d_k) at `temperature`.
function draw(chart, words, result, parts, query, temperature) {
  const size = sizes(chart);
  const colors = modelColors();
  const step = stepAt(parts, query, temperature);
  const T = result.tokens.length;
  const masked = (j) => j > query;
  const pad = (values) => result.tokens.map((_, j) => (masked(j) ? null : values[j]));
  const scaled = pad(step.scaled), weights = pad(step.weights);
  const ys = result.tokens.map((_, j) => j);
  words.buttons.forEach((b, i) => { b.setAttribute("aria-pressed", String(i === query)); b.classList.toggle("attn-token--masked", masked(i)); });
  // A label's width, generously: the chart may be resized a little once drawn (Plotly keeps the range).
  const labelWidth = (labels) => Math.max(0, ...labels.map((t) => t.length)) * 0.64 * size.text + 16;

  // Widths in px, then as fractions of the plot area.
  const scaleWidth = size.narrow ? 0 : 4 * 0.62 * size.text + 40; // a vertical colour bar with "−0.5" beside it
  const left = 6; // px: room for the rounding of the labels left of the bars
  const plotWidth = chart.clientWidth - scaleWidth - left;
  // Where the scores, the weights and the values start and end; a phone has no room for the scores (the
  // weights' hover gives them), a narrow chart room for them as numbers but not as bars.
  const panels = size.phone ? [0, 0, 0.52] : size.narrow ? [0, 0.32, 0.67] : [0, 0.38, 0.7];
  const ends = [panels[1] - 0.04, panels[2] - 0.05, 1];
  const px = (i) => (ends[i] - panels[i]) * plotWidth;
  const height = T * size.row + size.gap + size.row; // the plot area: a row per word, then the output's row
  const bottom = size.narrow ? Math.ceil(3.4 * size.text) : 4; // whole px: Plotly rounds the chart's height
  chart.style.height = `${size.title + height + bottom}px`;
  words.style.setProperty("--row", `${size.row}px`); // the words' rows line up with the chart's
  words.style.setProperty("--title", `${size.title}px`);
  words.style.setProperty("--gap", `${size.gap}px`);

  const keysDomain = [(size.gap + size.row) / height, 1];
  const outputDomain = [0, size.row / height];
  const vmax = Math.max(...parts.v.flat().map(Math.abs), ...step.output.map(Math.abs));
  const tick = Number((0.8 * vmax).toPrecision(1)); // three ticks, −t, 0 and t: room for them on a phone too
  const scale = { colorscale: "RdBu", zmin: -vmax, zmax: vmax, zmid: 0 };
  const dims = parts.v[0].map((_, d) => d + 1);
  const bars = (values, xaxis, name, color, digits, hover) => ({
    type: "bar", orientation: "h", x: values, y: ys, xaxis, yaxis: "y", name, showlegend: false,
    marker: { color }, text: values.map((v) => (v === null ? "" : signed(v, digits))), textposition: "outside",
    cliponaxis: false, constraintext: "none", textfont: { size: size.text }, customdata: result.tokens.map((key, j) => [key, step.dots[j] ?? 0, step.scaled[j] ?? 0]),
    hovertemplate: hover,
  });
  const scoreHover = `'%{customdata[0]}': q·k = %{customdata[1]:.2f}, ÷ √${result.d_k} = %{customdata[2]:.2f}<extra></extra>`;
  const scoreNumbers = { // the scores as a column of numbers, where bars have no room
    type: "scatter", mode: "text", x: scaled.map((v) => (v === null ? null : 0)), y: ys, xaxis: "x", yaxis: "y",
    text: scaled.map((v) => (v === null ? "" : signed(v, 2))), textposition: "middle center", cliponaxis: false,
    textfont: { size: size.text }, showlegend: false, hovertemplate: scoreHover,
    customdata: result.tokens.map((key, j) => [key, step.dots[j] ?? 0, step.scaled[j] ?? 0]),
  };
  const traces = [
    ...(size.phone ? [] : [size.narrow ? scoreNumbers : bars(scaled, "x", "score", colors.chance, 2, scoreHover)]),
    bars(weights, "x2", "weight", colors.transformer, 2, `'%{customdata[0]}': q·k = %{customdata[1]:.2f}, ÷ √${result.d_k} `
      + "= %{customdata[2]:.2f}, softmax weight %{x:.3f}<extra></extra>"),
    {
      type: "heatmap", z: parts.v.map((row, j) => (masked(j) ? row.map(() => null) : row)), x: dims, y: ys,
      xaxis: "x3", yaxis: "y", ...scale, hoverongaps: false,
      customdata: result.tokens.map((key) => dims.map(() => key)),
      hovertemplate: "value of '%{customdata}', dimension %{x}: %{z:.2f}<extra></extra>",
      colorbar: size.narrow
        ? { orientation: "h", thickness: 12, lenmode: "pixels", len: chart.clientWidth - 24, x: 0.5,
            xanchor: "center", y: -0.02, yanchor: "top", title: { text: "values", side: "left" }, tickvals: [-tick, 0, tick], tickangle: 0 }
        : { thickness: 14, len: keysDomain[1] - keysDomain[0], y: 1, yanchor: "top", tickvals: [-tick, 0, tick] },
    },
    {
      type: "heatmap", z: [step.output], x: dims, y: [0], xaxis: "x4", yaxis: "y2", ...scale, showscale: false,
      hovertemplate: "output, dimension %{x}: %{z:.2f}<extra></extra>",
    },
  ];
  const barAxis = (i, range) => ({ domain: [panels[i], ends[i]], range, zeroline: true, zerolinecolor: "#9aa0aa",
    showgrid: false, showticklabels: false, fixedrange: true });
  const title = (i, text) => ({ xref: "paper", yref: "paper", x: (panels[i] + ends[i]) / 2, xanchor: "center", y: 1, yanchor: "bottom",
    yshift: 4, showarrow: false, text });
  plot(chart, traces, {
    font: { size: size.text },
    margin: { l: left, r: scaleWidth, t: size.title, b: bottom },
    xaxis: size.narrow ? { ...barAxis(0, [-1, 1]), zeroline: false } : barAxis(0, barRange(step.scaled, px(0), labelWidth)),
    xaxis2: barAxis(1, barRange([0, 1], px(1), labelWidth)),
    xaxis3: { domain: [panels[2], 1], showticklabels: false, ticks: "", fixedrange: true, anchor: "y" },
    xaxis4: { domain: [panels[2], 1], showticklabels: false, ticks: "", fixedrange: true, anchor: "y2", matches: "x3" },
    yaxis: { domain: keysDomain, range: [T - 0.5, -0.5], showticklabels: false, ticks: "", showgrid: false, zeroline: false, fixedrange: true },
    yaxis2: { domain: outputDomain, range: [0.5, -0.5], showticklabels: false, ticks: "", showgrid: false, zeroline: false, fixedrange: true },
    annotations: [
      ...(size.phone ? [] : [title(0, size.narrow ? `q·k/√${result.d_k}` : `q·k ÷ √${result.d_k}`)]),
      title(1, "softmax"),
      title(2, "values v"),
      { xref: "paper", yref: "y2", x: (panels[1] + ends[1]) / 2, y: 0, xanchor: "center", showarrow: false,
        text: `Σ = ${sum(step.weights).toFixed(3)}` },
      ...(temperature === 1 || size.phone ? [] : [{ xref: "paper", yref: "y2", x: (panels[0] + ends[0]) / 2, y: 0,
        xanchor: "center", showarrow: false, text: `t = ${temperature.toFixed(2)}` }]), // the softmax's temperature
    ],
    hovermode: "closest",
  });
  chart.setAttribute("aria-label", `Query '${result.tokens[query]}': softmax weights ` +
    `${result.tokens.slice(0, query + 1).map((k, j) => `${k} ${step.weights[j].toFixed(2)}`).join(", ")}`);
  // Where its rows of keys are, so the matrix beside it can line its rows up with them (px).
  return { top: size.title, keys: T * size.row, height: size.title + height + bottom };
}

// The breakdown's box (the words as buttons beside a chart); `show(parts, query, temperature)` draws
// the row of `query` for one head; `onPick(i)` is called when a word is clicked.
export function rowBreakdown(result, onPick) {
  const box = element("div", "attn attn-qkv");
  const { column, buttons } = wordColumn(result, onPick);
  const words = Object.assign(column, { buttons });
  const chart = chartElement(box, "demo-chart attn-qkv-chart");
  chart.setAttribute("role", "img");
  box.prepend(words);
  return { box, show: (parts, query, temperature) => draw(chart, words, result, parts, query, temperature) };
}
