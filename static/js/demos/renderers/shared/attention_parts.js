// Pieces the attention slides (7 to 9) share: layer and head pickers that switch instantly,
// token axes, the softmax the temperature slider re-applies. Elements come from common.js,
// text through textContent only, so a typed sentence never becomes markup.
import { onPhone, textSize } from "../../chart_styles.js";
import { element } from "./common.js";

export { element };

// A labelled <select> of 1..count; onChange(value) as a number.
export function numberPicker(label, count, value, onChange) {
  const wrap = element("label", "attn-picker");
  const select = element("select");
  for (let n = 1; n <= count; n += 1) select.append(new Option(String(n), String(n), false, n === value));
  select.addEventListener("change", () => onChange(Number(select.value)));
  wrap.append(element("span", "", label), select);
  return wrap;
}

// Layer and head pickers for a result that carries every layer's heads, at `layer` and `head` first;
// onChange(change) with what was picked: {layer} or {head}.
export function headPickers(result, { layer, head }, onChange) {
  const box = element("div", "attn-controls");
  box.append(
    numberPicker("Layer", result.n_layers, layer, (picked) => onChange({ layer: picked })),
    numberPicker("Head", result.n_heads, head, (picked) => onChange({ head: picked })),
  );
  return box;
}

// Tokens on a numeric axis (a sentence may repeat a word), labelled by the tokens themselves at the
// chart's text size; slanted when the longest would not fit in its slot of a plot about `width` px
// wide (on a phone, at most the phone's width). A character is about 0.6 of the font size wide.
export function tokenAxis(tokens, extra = {}, width = 520) {
  const longest = Math.max(...tokens.map((t) => t.length));
  const size = textSize();
  const room = onPhone() ? Math.min(width, 330) : width;
  const slanted = longest * 0.6 * size > room / tokens.length;
  return {
    tickmode: "array",
    tickvals: tokens.map((_, i) => i),
    ticktext: tokens,
    tickangle: slanted ? -45 : 0,
    showgrid: false,
    zeroline: false,
    automargin: true,
    ...extra,
  };
}

// The model a result came from, in a few words.
export function modelLabel(model) {
  if (!model.trained) return `untrained model (random weights, seed ${model.seed})`;
  return `trained ${model.steps} steps, seed ${model.seed}`;
}

// softmax(scores / temperature) for one row; null scores (the causal mask) get weight 0.
export function softmaxRow(scores, temperature) {
  const kept = scores.filter((s) => s !== null).map((s) => s / temperature);
  const top = Math.max(...kept);
  const exps = scores.map((s) => (s === null ? 0 : Math.exp(s / temperature - top)));
  const total = exps.reduce((a, b) => a + b, 0);
  return exps.map((e) => e / total);
}

export function sum(values) {
  return values.reduce((a, b) => a + b, 0);
}
