// Bounded Dyck-2: accuracy on fresh strings against their length, one line per model (the mean
// over the seeds, with their range) beside chance and the counting rule; beside it, the step at
// which each seed of each model learned the language (a mark per seed, or "not yet" past the
// budget); under them, how the near misses were made, each with an example whose edited brackets are marked.
import { modelStyles, textSize } from "../chart_styles.js";
import { chartElement } from "../charts.js";
import { plotAccuracyByLength } from "./shared/accuracy_by_length.js";
import { rateLabel } from "./shared/rates.js";
import { element, percent, seedCount, thousands } from "./shared/common.js";

const KIND_NAMES = {
  balanced: "balanced", retype: "retyped", flip: "turned round", swap: "swapped", deepen: "3 deep",
};

// The hover text of a point: how many of each kind of test string the model got right.
function byKind(point) {
  return Object.entries(point.by_kind)
    .map(([kind, right]) => `${KIND_NAMES[kind] ?? kind} ${percent(right.mean)}`)
    .join("<br>");
}

const ORDER = ["lstm", "transformer-2", "transformer"];
const trained = (data) => ORDER.filter((name) => name in data.models); // a run may train only some of them
// Each model's colour, dash and marker: the LSTM here is the tuned one (its own learning rate).
function looksOf() {
  const styles = modelStyles();
  return { lstm: styles["lstm-tuned"], transformer: styles.transformer, "transformer-2": styles["transformer-2"] };
}

function drawChart(chart, data) {
  const styles = modelStyles();
  const size = textSize();
  const counting = data.lengths.map((n) => data.baselines[String(n)].counting.mean);
  plotAccuracyByLength(chart, data, {
    order: trained(data),
    looks: looksOf(),
    baselines: [
      { name: `counting (${percent(counting.at(-1))})`, y: counting, ...styles.baseline },
      { name: "chance (50%)", y: data.lengths.map(() => data.chance), ...styles.chance },
    ],
    hover: byKind,
    xTitle: "string length",
    yTitle: `accuracy (${seedCount(data.seeds)})`,
    legend: { font: { size } }, // above the plot, in as many rows as it needs
    margin: { l: 4.5 * size, r: 2.5 * size, t: 8, b: 3 * size }, // room for "100%", "not yet" and the axis titles at this size
    beside: learnedPlot(data),
  });
}

// Steps until learned, beside the accuracy: a row per model, a mark per seed at the step it was first
// right on 95% of the validation strings, or a cross at "not yet" past the budget if it never was.
// With several lengths, each length's marks sit a little lower in the row (hollow after the first).
function learnedPlot(data) {
  const looks = looksOf();
  const budget = data.budget.steps;
  const notYet = budget * 1.35;
  const offsets = data.lengths.map((_, i) => (data.lengths.length > 1 ? 0.3 * (i / (data.lengths.length - 1) - 0.5) : 0));
  const order = trained(data);
  const traces = order.map((name, row) => {
    const seeds = data.points.filter((p) => p.model === name).flatMap((p) => p.learned_at.map((step, i) => ({
      step, length: p.length, seed: data.seeds[i], y: row + offsets[data.lengths.indexOf(p.length)],
      open: data.lengths.indexOf(p.length) > 0 })));
    return {
      type: "scatter",
      mode: "markers",
      name: data.models[name],
      showlegend: false,
      xaxis: "x2",
      yaxis: "y2",
      x: seeds.map((s) => s.step ?? notYet),
      y: seeds.map((s) => s.y),
      customdata: seeds.map((s) => [s.seed, s.length, s.step === null ? `not within ${thousands(budget)} steps` : `by step ${s.step}`]),
      marker: { color: looks[name].color, size: 15, opacity: 0.85, line: { color: looks[name].color, width: 3 },
        symbol: seeds.map((s) => (s.step === null ? "x-thin-open" : `${looks[name].marker}${s.open ? "-open" : ""}`)) },
      hovertemplate: `${data.models[name]}, length %{customdata[1]}, seed %{customdata[0]}: learned %{customdata[2]}<extra></extra>`,
    };
  });
  // Each row: the model, short (the legend names it in full), and the learning rate it got (chosen on
  // validation data; the summary says how).
  const short = { lstm: "LSTM", transformer: "1-layer", "transformer-2": "2-layer" };
  return {
    domain: [0, 0.46],
    traces,
    layout: {
      xaxis2: { domain: [0.74, 1], anchor: "y2", range: [0, budget * 1.55], zeroline: false, tickangle: 0,
        tickvals: [0, budget, notYet], ticktext: ["0", thousands(budget), "not<br>yet"],
        title: { text: `step ${percent(data.learned)} right`, standoff: 4 } },
      yaxis2: { anchor: "x2", range: [order.length - 0.5, -0.5], tickvals: order.map((_, i) => i),
        ticktext: order.map((name) => `${short[name]}, ${rateLabel(data.lr[name])}`), zeroline: false, showgrid: false,
        ticksuffix: " " },
      shapes: [{ type: "line", xref: "x2", yref: "y2 domain", x0: budget, x1: budget, y0: 0, y1: 1,
        line: { color: "#888", width: 2, dash: "dot" } }],
      phone: {
        xaxis: { domain: [0, 1] }, yaxis: { domain: [0.5, 1] },
        xaxis2: { domain: [0.5, 1] }, yaxis2: { domain: [0, 0.26] },
      },
    },
  };
}

// The near miss with the brackets its edit changed marked, so the eye finds the one fault.
function markedString(example) {
  const text = element("code", "dyck-string");
  [...example.near_miss].forEach((bracket, i) => {
    text.append(bracket === example.balanced[i] ? bracket : element("mark", "dyck-edit", bracket));
  });
  return text;
}

// Each kind of near miss: an example with its edit marked, and (×) how many of the test strings at
// the longest length scored so far were made that way; its tooltip says so in words.
function drawNearMisses(list, data) {
  const longest = data.test_sets.at(-1);
  const items = data.examples.map((example) => {
    const item = element("li", "dyck-miss");
    item.append(element("span", "dyck-kind", KIND_NAMES[example.kind] ?? example.kind), markedString(example),
      element("span", "dyck-counting", example.counting_rule === "balanced" ? "fools counting" : "counting catches it"));
    let about = `${data.near_misses[example.kind]}; this one was made from ${example.balanced}`;
    if (longest) {
      const count = thousands(longest.counts[example.kind]);
      item.append(element("span", "dyck-count", `×${count}`));
      about += `. ${count} of the test strings of length ${longest.length} were made this way.`;
    }
    item.title = about;
    return item;
  });
  list.replaceChildren(element("li", "dyck-caption", "Near misses:"), ...items);
}

// This renderer's part of the output: made once, then redrawn in place while the result streams
// in; the final result gets a fresh chart, sized to the room left once the progress bar has gone.
function panel(output, fresh) {
  let root = output.querySelector(".dyck");
  if (root && !fresh) return root;
  const next = element("div", "dyck");
  chartElement(next, "demo-chart dyck-chart");
  const misses = element("ul", "dyck-misses");
  misses.setAttribute("aria-label", "How the near misses were made");
  next.append(misses);
  if (root) root.replaceWith(next);
  else output.prepend(next);
  return next;
}

function draw(output, data, fresh) {
  const root = panel(output, fresh);
  drawChart(root.querySelector(".dyck-chart"), data);
  drawNearMisses(root.querySelector(".dyck-misses"), data);
}

export function render(output, result) {
  output.classList.add("dyck-output"); // first: the chart is drawn to the width of its column
  output.tabIndex = 0; // if the output scrolls, the keyboard must reach it
  output.setAttribute("aria-label", "Bounded Dyck results");
  draw(output, result, true);
}

