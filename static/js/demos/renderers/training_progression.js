// A Transformer learning live. While it trains: the loss curve growing and its latest
// greedy continuation of "We" under the target, matching words marked. Afterwards a scrubber
// goes back to any snapshot. On the canvas the sentences sit beside the chart; on a phone above it.
import { modelColors, textSize } from "../chart_styles.js";
import { chartElement, plot, resizeCharts } from "../charts.js";
import { element } from "./shared/attention_parts.js";
import { TOP_LEGEND } from "./shared/common.js";

const NO_SPACE_BEFORE = new Set([".", ",", ";", ":", "!", "?", ")", "%"]); // as the tokenizer joins words

// A label (and a note beside it), then the prompt and the words as the tokenizer would write them;
// each word marked as matching the target or not when `matches` is given.
function sentenceLine(label, prompt, words, matches, note) {
  const line = element("p", "prog-line");
  const text = element("span", "prog-text");
  text.append(element("span", "prog-word", prompt));
  words.forEach((word, i) => {
    if (!NO_SPACE_BEFORE.has(word)) text.append(" ");
    const span = element("span", "prog-word", word);
    if (matches) span.classList.add(matches[i] ? "prog-word--match" : "prog-word--miss");
    text.append(span);
  });
  const head = element("span", "prog-head");
  head.append(element("span", "prog-label", label));
  if (note) head.append(element("span", "prog-note", note));
  line.append(head, text);
  return line;
}

function drawLoss(chart, data, shown) {
  const color = modelColors().transformer;
  const snaps = data.snapshots;
  const traces = [
    {
      type: "scatter", mode: "lines", name: "training batches", showlegend: false, x: data.loss_curve.map((p) => p[0]),
      y: data.loss_curve.map((p) => p[1]), line: { color, width: 2 }, opacity: 0.45,
      hovertemplate: "step %{x}: loss %{y:.2f}<extra></extra>",
    },
    {
      type: "scatter", mode: "lines+markers", name: "training", x: snaps.map((s) => s.step), y: snaps.map((s) => s.loss),
      line: { color, width: 4 }, marker: { size: 9 }, customdata: snaps.map((s) => s.epoch),
      hovertemplate: "epoch %{customdata}: loss %{y:.2f}<extra></extra>",
    },
    {
      type: "scatter", mode: "lines+markers", name: "held-out", x: snaps.map((s) => s.step), y: snaps.map((s) => s.held_out_loss),
      line: { color, width: 3, dash: "dot" }, marker: { size: 8, symbol: "square" }, customdata: snaps.map((s) => s.epoch),
      hovertemplate: "epoch %{customdata}: held-out loss %{y:.2f}<extra></extra>",
    },
  ];
  const at = snaps[shown];
  const size = textSize();
  const lastStep = Math.max(0, ...data.loss_curve.map((p) => p[0]), ...snaps.map((s) => s.step));
  plot(chart, traces, {
    font: { size },
    margin: { l: 3.8 * size, r: size, t: 8, b: 8 },
    xaxis: { title: { text: "training step", standoff: 6 }, range: [0, 1.03 * lastStep || 1], fixedrange: true, automargin: true,
             nticks: 5 }, // as far as training went
    yaxis: { title: { text: "loss", standoff: 6 }, rangemode: "tozero", fixedrange: true, nticks: 5,
             ticklabelstandoff: 8 }, // keeps its 0 apart from the x axis's
    legend: TOP_LEGEND, // the faint line of training batches needs no entry: it is the same loss, batch by batch
    shapes: at ? [{ type: "line", xref: "x", yref: "paper", x0: at.step, x1: at.step, y0: 0, y1: 1,
      line: { color: "#16181d", width: 2, dash: "dash" } }] : [],
  });
}

// Each output's parts (its sentence, chart and footer) while a run is drawn into it.
const views = new WeakMap();

function build(output, data) {
  output.replaceChildren();
  const box = element("div", "prog");
  const sentences = element("div", "prog-sentences");
  // It may scroll (long sentences on a small screen): reachable and scrollable from the keyboard too.
  sentences.tabIndex = 0;
  sentences.setAttribute("role", "group");
  sentences.setAttribute("aria-label", "The target sentence and the model's continuation");
  const current = element("div", "prog-current");
  sentences.append(sentenceLine("Target", data.prompt, data.target_tokens, null), current);
  box.append(sentences);
  const chart = chartElement(box, "demo-chart prog-chart");
  chart.setAttribute("role", "img");
  const footer = element("div", "prog-footer");
  box.append(footer);
  output.append(box);
  const view = { current, chart, footer };
  views.set(output, view);
  return view;
}

function showSnapshot(view, data, index) {
  const snap = data.snapshots[index];
  view.current.replaceChildren(
    sentenceLine(`Epoch ${snap.epoch}`, data.prompt, snap.continuation, snap.matches,
      `${snap.matched} of ${snap.matches.length} right`),
  );
  drawLoss(view.chart, data, index);
  view.chart.setAttribute("aria-label", `Loss curve; at epoch ${snap.epoch} (step ${snap.step}) the loss is ${snap.loss.toFixed(2)}, ` +
    `held-out ${snap.held_out_loss.toFixed(2)}, ` +
    `and the model continues: ${data.prompt} ${snap.continuation.join(" ")}`);
}

// While training: the latest snapshot and the curve so far.
export function renderProgress(output, data) {
  const view = views.get(output)?.live ? views.get(output) : { ...build(output, data), live: true };
  views.set(output, view);
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
  requestAnimationFrame(() => resizeCharts(output)); // the widget may show more of its toolbar once the result is drawn
}

