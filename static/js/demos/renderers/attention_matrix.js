// Softmax(QKᵀ/√d_k) as a heatmap, one row per token, each row's sum printed beside it
// as computed from the weights shown. Layer, head and temperature change here at once: the
// weights are recomputed from the model's scores, and the sums from those weights.
import { chartElement, modelColors, plot } from "../charts.js";
import { element, headPickers, modelLabel, softmaxRow, sum, tokenAxis } from "./shared/attention_parts.js";

const TEMPERATURES = { min: -1, max: 1, step: 0.02 }; // log10 of the temperature, 0.1 to 10
const CELL_TEXT_UP_TO = 12; // tokens; with more, the values are on hover only

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

function draw(chart, result, weights) {
  const { tokens } = result;
  const T = tokens.length;
  const rowSums = weights.map(sum);
  const hover = weights.map((row, i) => row.map((_, j) => (j > i ? "masked: a later token" : `'${tokens[i]}' → '${tokens[j]}'`)));
  plot(chart, [{
    type: "heatmap", z: weights, x: tokens.map((_, j) => j), y: tokens.map((_, i) => i),
    zmin: 0, zmax: 1, colorscale: [[0, "#ffffff"], [1, modelColors().transformer]],
    showscale: false,
    customdata: hover, hovertemplate: "%{customdata}: %{z:.3f}<extra></extra>",
    texttemplate: T <= CELL_TEXT_UP_TO ? "%{z:.2f}" : "", textfont: { size: 13 },
    xgap: 1, ygap: 1,
  }], {
    margin: { l: 8, r: 76, t: 4, b: 4 },
    xaxis: tokenAxis(tokens, { side: "bottom", fixedrange: true }),
    yaxis: tokenAxis(tokens, { autorange: "reversed", fixedrange: true, tickangle: 0 }),
    annotations: rowSums.map((total, i) => ({
      xref: "paper", yref: "y", x: 1.0, y: i, xanchor: "left", showarrow: false,
      text: `Σ = ${total.toFixed(2)}`, font: { size: T > 12 ? 12 : 14 },
    })),
  });
  chart.setAttribute("aria-label", `Attention matrix of ${T} tokens; row sums ${rowSums.map((s) => s.toFixed(2)).join(", ")}`);
}

export function render(output, result) {
  output.replaceChildren();
  const state = { layer: result.layer, head: result.head, temperature: result.temperature };
  const box = element("div", "attn attn-matrix");
  const controls = headPickers(result, state, () => redraw());
  controls.append(temperatureSlider(state.temperature, (t) => { state.temperature = t; redraw(); }),
    element("span", "attn-model", modelLabel(result.model)));
  box.append(controls);
  const chart = chartElement(box, "demo-chart attn-matrix-chart");
  chart.setAttribute("role", "img");
  output.append(box);

  function redraw() {
    const unchanged = state.layer === result.layer && state.head === result.head && state.temperature === result.temperature;
    const scores = result.all_scores[state.layer - 1][state.head - 1];
    draw(chart, result, unchanged ? result.weights : scores.map((row) => softmaxRow(row, state.temperature)));
  }
  redraw();
}

