// A Transformer learning live. While it trains: the loss curve growing and its latest
// greedy continuation of "We" under the target, matching words marked. Afterwards a scrubber
// goes back to any snapshot.
import { chartElement, modelColors, plot } from "../charts.js";
import { element } from "./shared/attention_parts.js";
import { TOP_LEGEND } from "./shared/common.js";

const NO_SPACE_BEFORE = new Set([".", ",", ";", ":", "!", "?", ")", "%"]); // as the tokenizer joins words

// A label, then the prompt and the words as the tokenizer would write them; each word marked
// as matching the target or not when `matches` is given.
function sentenceLine(label, prompt, words, matches) {
  const line = element("p", "prog-line");
  const text = element("span", "prog-text");
  text.append(element("span", "prog-word", prompt));
  words.forEach((word, i) => {
    if (!NO_SPACE_BEFORE.has(word)) text.append(" ");
    const span = element("span", "prog-word", word);
    if (matches) span.classList.add(matches[i] ? "prog-word--match" : "prog-word--miss");
    text.append(span);
  });
  line.append(element("span", "prog-label", label), text);
  return line;
}

function drawLoss(chart, data, shown) {
  const color = modelColors().transformer;
  const snaps = data.snapshots;
  const traces = [
    {
      type: "scatter", mode: "lines", name: "training batches", x: data.loss_curve.map((p) => p[0]),
      y: data.loss_curve.map((p) => p[1]), line: { color, width: 2 }, opacity: 0.45,
      hovertemplate: "step %{x}: loss %{y:.2f}<extra></extra>",
    },
    {
      type: "scatter", mode: "lines+markers", name: "training text", x: snaps.map((s) => s.step), y: snaps.map((s) => s.loss),
      line: { color, width: 4 }, marker: { size: 9 }, customdata: snaps.map((s) => s.epoch),
      hovertemplate: "epoch %{customdata}: loss %{y:.2f}<extra></extra>",
    },
    {
      type: "scatter", mode: "lines+markers", name: "held-out text", x: snaps.map((s) => s.step), y: snaps.map((s) => s.held_out_loss),
      line: { color, width: 3, dash: "dot" }, marker: { size: 8, symbol: "square" }, customdata: snaps.map((s) => s.epoch),
      hovertemplate: "epoch %{customdata}: held-out loss %{y:.2f}<extra></extra>",
    },
  ];
  const at = snaps[shown];
  plot(chart, traces, {
    margin: { l: 56, r: 12, t: 36, b: 48 },
    xaxis: { title: { text: "training step" }, range: [0, data.total_steps], fixedrange: true },
    yaxis: { title: { text: "loss" }, rangemode: "tozero", fixedrange: true },
    legend: TOP_LEGEND,
    shapes: at ? [{ type: "line", xref: "x", yref: "paper", x0: at.step, x1: at.step, y0: 0, y1: 1,
      line: { color: "#16181d", width: 2, dash: "dash" } }] : [],
  });
}

function build(output, data) {
  output.replaceChildren();
  const box = element("div", "prog");
  const target = sentenceLine("Target", data.prompt, data.target_tokens, null);
  const current = element("div", "prog-current");
  const chart = chartElement(box, "demo-chart prog-chart");
  chart.setAttribute("role", "img");
  box.prepend(target, current);
  const footer = element("div", "prog-footer");
  box.append(footer);
  output.append(box);
  output.progression = { current, chart, footer };
  return output.progression;
}

function showSnapshot(view, data, index) {
  const snap = data.snapshots[index];
  view.current.replaceChildren(
    sentenceLine(`Epoch ${snap.epoch}`, data.prompt, snap.continuation, snap.matches),
    element("p", "prog-stats", `loss ${snap.loss.toFixed(2)} · held-out ${snap.held_out_loss.toFixed(2)} · ` +
      `${snap.matched} of ${snap.matches.length} words right · step ${snap.step}`),
  );
  drawLoss(view.chart, data, index);
  view.chart.setAttribute("aria-label", `Loss curve; at epoch ${snap.epoch} the loss is ${snap.loss.toFixed(2)} ` +
    `and the model continues: ${data.prompt} ${snap.continuation.join(" ")}`);
}

// While training: the latest snapshot and the curve so far.
export function renderProgress(output, data) {
  const view = output.progression && output.progression.live ? output.progression : { ...build(output, data), live: true };
  output.progression = view;
  if (data.snapshots.length) showSnapshot(view, data, data.snapshots.length - 1);
}

export function render(output, result) {
  const view = build(output, result);
  const last = result.snapshots.length - 1;
  const scrubber = element("input", "prog-scrubber");
  Object.assign(scrubber, { type: "range", min: "0", max: String(last), step: "1", value: String(last) });
  scrubber.setAttribute("aria-label", "Go back to a snapshot");
  scrubber.addEventListener("input", () => showSnapshot(view, result, Number(scrubber.value)));
  const outcome = result.stopped === "matched"
    ? `stopped at epoch ${result.snapshots[last].epoch}: target reached`
    : `stopped at epoch ${result.snapshots[last].epoch}: budget spent`;
  view.footer.append(element("span", "prog-scrub-label", "Scrub back:"), scrubber, element("span", "prog-took", outcome));
  showSnapshot(view, result, last);
}

