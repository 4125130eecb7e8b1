// One query word's attention, step by step, with the model's own numbers: the dot
// product of its query with each key, the scaling by √d_k, the softmax weights (Σ = 1), and the
// output as the weights' mix of the value vectors. Click a word to make it the query.
import { chartElement, modelColors, plot } from "../charts.js";
import { element, sum } from "./shared/attention_parts.js";

const VECTORS_TOP = 0.17; // the query and output vectors fill the chart below this; the key rows sit above

function tokenButtons(result, state, onPick) {
  const row = element("div", "attn-tokens");
  row.setAttribute("role", "group");
  row.setAttribute("aria-label", "Pick the query word");
  row.append(element("span", "attn-hint", "Query:"));
  const buttons = result.tokens.map((token, i) => {
    const button = element("button", "attn-token", token);
    button.type = "button";
    if (result.unknown[i]) button.classList.add("attn-token--unknown");
    button.addEventListener("click", () => onPick(i));
    row.append(button);
    return button;
  });
  const mark = () => buttons.forEach((b, i) => b.setAttribute("aria-pressed", String(i === state.query)));
  mark();
  return { row, mark };
}

function vectorTitle(x, text) {
  return { xref: "paper", yref: "paper", x, xanchor: "center", y: VECTORS_TOP, yanchor: "bottom", showarrow: false, text,
    font: { size: 15 } };
}

function draw(chart, result, query) {
  const colors = modelColors();
  const step = result.steps[query];
  const keys = result.tokens.slice(0, query + 1);
  const ys = keys.map((_, j) => j);
  const bars = (values, xaxis, name, color, digits) => ({
    type: "bar", orientation: "h", x: values, y: ys, xaxis, yaxis: "y", name, showlegend: false,
    marker: { color }, text: values.map((v) => v.toFixed(digits)), textposition: "outside", cliponaxis: false,
    textfont: { size: 14 }, hovertemplate: `%{customdata}: ${name} = %{x:.3f}<extra></extra>`, customdata: keys,
  });
  const scaleText = result.scale.toFixed(0);
  const vector = (values, xaxis, yaxis, label) => ({
    type: "heatmap", z: [values], x: values.map((_, i) => i + 1), y: [label], xaxis, yaxis,
    colorscale: "RdBu", zmid: 0, showscale: false, hovertemplate: `${label}, dimension %{x}: %{z:.2f}<extra></extra>`,
  });
  const traces = [
    bars(step.dots, "x", "q·k", colors.chance, 1),
    bars(step.scaled, "x2", `q·k ÷ √${result.d_k}`, colors.chance, 2),
    bars(step.weights, "x3", "softmax weight", colors.transformer, 2),
    {
      type: "heatmap", z: result.v.slice(0, query + 1), x: result.v[0].map((_, i) => i + 1), y: ys, xaxis: "x4", yaxis: "y",
      colorscale: "RdBu", zmid: 0, showscale: false, customdata: keys.map((key) => result.v[0].map(() => key)),
      hovertemplate: "value of '%{customdata}', dimension %{x}: %{z:.2f}<extra></extra>",
    },
    vector(result.q[query], "x5", "y5", "query q"),
    vector(step.output, "x6", "y6", "output Σ w·v"),
  ];
  const padded = (values) => {
    const low = Math.min(0, ...values), high = Math.max(0, ...values), pad = 0.45 * (high - low || 1);
    return [low < 0 ? low - pad : 0, high + pad];
  };
  const panel = (from, to, title, extra = {}) => ({
    domain: [from, to], zeroline: true, zerolinecolor: "#9aa0aa", showgrid: false, fixedrange: true,
    showticklabels: false, title: { text: title, font: { size: 15 }, standoff: 4 }, side: "top", ...extra,
  });
  plot(chart, traces, {
    margin: { l: 110, r: 8, t: 30, b: 4 },
    xaxis: panel(0, 0.19, "q·k", { range: padded(step.dots) }),
    xaxis2: panel(0.21, 0.4, `÷ √${result.d_k} = ${scaleText}`, { range: padded(step.scaled) }),
    xaxis3: panel(0.42, 0.62, `softmax: Σ = ${sum(step.weights).toFixed(3)}`, { range: [0, 1.25] }),
    xaxis4: panel(0.66, 1, "values v"),
    yaxis: {
      domain: [VECTORS_TOP + 0.13, 1], autorange: "reversed", fixedrange: true, tickmode: "array", tickvals: ys,
      ticktext: keys, tickfont: { size: keys.length > 12 ? 12 : 15 },
    },
    xaxis5: { domain: [0, 0.62], anchor: "y5", showticklabels: false, fixedrange: true },
    yaxis5: { domain: [0, VECTORS_TOP], anchor: "x5", fixedrange: true, showticklabels: false },
    xaxis6: { domain: [0.66, 1], anchor: "y6", showticklabels: false, fixedrange: true },
    yaxis6: { domain: [0, VECTORS_TOP], anchor: "x6", fixedrange: true, showticklabels: false },
    annotations: [
      vectorTitle(0.31, `query q of '${result.tokens[query]}'`),
      vectorTitle(0.83, "output = Σ weight × value"),
    ],
    hovermode: "closest",
  });
  chart.setAttribute("aria-label",
    `Query '${result.tokens[query]}': softmax weights ${keys.map((k, j) => `${k} ${step.weights[j].toFixed(2)}`).join(", ")}`);
}

export function render(output, result) {
  output.replaceChildren();
  const state = { query: result.query };
  const box = element("div", "attn attn-qkv");
  const tokens = tokenButtons(result, state, (i) => { state.query = i; tokens.mark(); draw(chart, result, i); });
  box.append(tokens.row);
  const chart = chartElement(box, "demo-chart attn-qkv-chart");
  chart.setAttribute("role", "img");
  output.append(box);
  draw(chart, result, state.query);
}

