// Slide 12, the generative showdown: the Transformer and the LSTM continue the same prompt side by
// side, each with its held-out perplexity. While the server generates, both continuations grow token
// by token, and under them each model's top-5 candidates for the latest token, as bars. Afterwards
// any token can be looked at again (hover or click it, or move the slider), and Replay grows the
// texts again, one token at a time.
import { element, percent, thousands } from "./common.js";

const MODELS = ["transformer", "lstm"];
const REPLAY_MS = 400; // between tokens when replaying: slow enough to read the bars

function stopReplay(output) {
  clearInterval(output.genReplay);
  output.genReplay = null;
}

// The prompt (unknown words flagged) and the model's tokens, each a button that shows its candidates.
function continuationText(data, kind, view) {
  const text = element("p", "gen-text");
  const prompt = data.prompt;
  prompt.tokens.forEach((token, i) => {
    if (prompt.spaces[i]) text.append(" ");
    const word = element("span", prompt.unknown[i] ? "gen-prompt gen-unknown" : "gen-prompt", token);
    if (prompt.unknown[i]) word.title = "Not in the vocabulary: the models read it as ⟨unk⟩";
    text.append(word);
  });
  const model = data.models[kind];
  const buttons = model.tokens.map((token, i) => {
    const pick = model.picks[i];
    const button = element("button", "gen-token", token);
    button.type = "button";
    button.dataset.step = String(i + 1);
    button.title = `token ${i + 1}: ${probability(pick.probability)}` + (pick.rank > 1 ? `, rank ${pick.rank}` : "");
    const space = document.createTextNode(model.spaces[i] ? " " : "");
    text.append(space, button);
    return { button, space };
  });
  text.addEventListener("mouseover", (event) => {
    const step = event.target.closest?.(".gen-token")?.dataset.step;
    if (step) view.show(Number(step));
  });
  text.addEventListener("focusin", (event) => {
    if (event.target.matches(".gen-token")) view.show(Number(event.target.dataset.step));
  });
  text.addEventListener("click", (event) => {
    const token = event.target.closest?.(".gen-token");
    if (token) view.pin(Number(token.dataset.step));
  });
  text.addEventListener("mouseleave", () => view.show(view.pinned));
  return { text, buttons };
}

function modelColumn(data, kind, view) {
  const model = data.models[kind];
  const column = element("section", `gen-model gen-model--${kind}`);
  const curve = model.held_out_curve.map(([step, ppl]) => `step ${step}: ${Math.round(ppl)}`).join(" · ");
  const head = element("header", "gen-head");
  const perplexity = element("span", "gen-ppl");
  perplexity.append(element("span", "gen-ppl-label", "held-out perplexity "),
    element("span", "gen-ppl-value", String(Math.round(model.held_out_perplexity))));
  perplexity.title = `Held-out perplexity while training: ${curve}`;
  head.append(element("h3", "gen-name", model.label), perplexity);
  const meta = element("p", "gen-meta",
    `${thousands(model.parameters)} parameters · ${model.train_steps} training steps`);
  const { text, buttons } = continuationText(data, kind, view);
  column.append(head, meta, text);
  column.setAttribute("aria-label", `${model.label}, held-out perplexity ${Math.round(model.held_out_perplexity)}`);
  return { column, text, buttons };
}

// A probability as a percentage with the digits it needs to not read as 0%.
function probability(p) {
  if (p < 0.0001) return "<0.01%";
  return percent(p, p >= 0.01 ? 0 : p >= 0.001 ? 1 : 2);
}

// One model's top candidates for token `step`: a table of bars on a 0-100% track, the one taken solid
// and ticked; a token taken from outside the top 5 (when sampling) gets a sixth row of its own.
function topTable(data, kind, step) {
  const model = data.models[kind];
  const pick = model.picks[step - 1];
  const rows = [...pick.top];
  if (pick.rank > data.top_k) rows.push({ token: pick.token, probability: pick.probability, rank: pick.rank });
  const table = element("table", `gen-top gen-top--${kind}`);
  table.append(element("caption", "", `${model.label}, token ${step}: top ${data.top_k}`));
  for (const row of rows) {
    const taken = row.token === pick.token;
    const tr = element("tr", taken ? "gen-top-row gen-top-row--taken" : "gen-top-row");
    const token = element("th", "gen-top-token", row.token);
    token.scope = "row";
    const track = element("td", "gen-top-track");
    const fill = element("span", "gen-top-fill");
    fill.style.width = percent(row.probability, 2);
    track.append(fill);
    const value = element("td", "gen-top-p", probability(row.probability) + (taken ? " ✓" : ""));
    if (row.rank) value.title = `taken though ranked ${row.rank}`;
    tr.append(token, track, value);
    table.append(tr);
  }
  return table;
}

function build(output, data) {
  stopReplay(output);
  output.replaceChildren();
  const box = element("div", "gen");
  const columns = element("div", "gen-columns");
  const view = {
    data, pinned: 0, columns: {}, columnsBox: columns,
    show: (step) => showStep(view, step),
    pin: (step) => {
      if (output.genReplay) { stopReplay(output); reveal(view, null); }
      view.pinned = step;
      view.slider.value = String(step);
      showStep(view, step);
    },
  };
  const stepbar = element("div", "gen-stepbar");
  const slider = element("input", "gen-slider");
  Object.assign(slider, { type: "range", min: "1", max: String(data.n_tokens), step: "1", value: "1" });
  slider.setAttribute("aria-label", "Which generated token to show");
  slider.addEventListener("input", () => view.pin(Number(slider.value)));
  const label = element("span", "gen-step-label");
  const replay = element("button", "gen-replay", "▶ Replay");
  replay.type = "button";
  replay.hidden = true;
  replay.addEventListener("click", () => replayAll(output, view));
  const how = data.decoding === "sample" ? `sampled, temperature ${data.temperature}` : "greedy";
  const decoding = element("span", "gen-decoding", how);
  stepbar.append(element("span", "gen-step-name", "Token"), slider, label, decoding, replay);
  const tops = element("div", "gen-tops");
  box.append(columns, stepbar, tops);
  output.append(box);
  Object.assign(view, { slider, label, replay, tops });
  output.gen = view;
  return view;
}

// Both models' columns for `data` (the result, or the generation so far).
function fillColumns(view, data) {
  view.data = data;
  view.columnsBox.replaceChildren();
  for (const kind of MODELS) {
    view.columns[kind] = modelColumn(data, kind, view);
    view.columnsBox.append(view.columns[kind].column);
  }
}

// Show generated token `step` (1-based; null: the latest): marked in both texts, both models' top candidates.
function showStep(view, step) {
  const made = Math.min(...MODELS.map((kind) => view.data.models[kind].picks.length));
  if (!made) return;
  const at = Math.min(Math.max(step || made, 1), made);
  for (const kind of MODELS) {
    view.columns[kind].buttons.forEach(({ button }, i) => button.classList.toggle("gen-token--current", i + 1 === at));
  }
  view.label.textContent = `${at} of ${view.data.n_tokens}`;
  view.tops.replaceChildren(...MODELS.map((kind) => topTable(view.data, kind, at)));
}

// The texts up to `step` only (while replaying), or whole (`step` null).
function reveal(view, step) {
  for (const kind of MODELS) {
    view.columns[kind].buttons.forEach(({ button, space }, i) => {
      const hidden = step !== null && i + 1 > step;
      button.hidden = hidden;
      space.textContent = !hidden && view.data.models[kind].spaces[i] ? " " : "";
    });
  }
}

function replayAll(output, view) {
  stopReplay(output);
  let step = 0;
  const tick = () => {
    step += 1;
    reveal(view, step);
    view.pinned = step;
    view.slider.value = String(step);
    showStep(view, step);
    if (step >= view.data.n_tokens) {
      stopReplay(output);
      reveal(view, null);
    }
  };
  output.genReplay = setInterval(tick, REPLAY_MS);
  tick();
}

// While generating: both texts so far, growing in place, and the bars of the latest token.
export function renderProgress(output, data) {
  let view = output.gen;
  if (!view || !view.live) {
    view = build(output, data);
    view.live = true;
    view.slider.disabled = true;
  }
  fillColumns(view, data);
  view.show(null);
}

export function render(output, result) {
  const view = build(output, result);
  fillColumns(view, result);
  view.replay.hidden = false;
  view.pin(result.n_tokens);
}
