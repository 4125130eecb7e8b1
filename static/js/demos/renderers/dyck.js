// Bounded Dyck-2: accuracy on fresh strings against their length, one line per model (the mean
// over the seeds, with their range) beside chance and the counting rule; under it, how the near
// misses were made, each with an example whose edited brackets are marked. The chart keeps to the top of the panel.
import { chartElement, modelColors } from "../charts.js";
import { plotAccuracyByLength } from "./shared/accuracy_by_length.js";
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

function drawChart(chart, data) {
  const colors = modelColors();
  const size = matchMedia("(max-width: 760px)").matches ? 16 : 20; // 16 px on a 1024×768 projector (the canvas at 0.8) and on a phone
  const counting = data.lengths.map((n) => data.baselines[String(n)].counting.mean);
  plotAccuracyByLength(chart, data, {
    order: ["lstm", "transformer-2", "transformer"],
    colors: { lstm: colors["lstm-tuned"], transformer: colors.transformer, "transformer-2": colors["transformer-2"] },
    markers: { lstm: "diamond", transformer: "circle", "transformer-2": "square" }, // shape as well as colour
    dashed: ["transformer"],
    baselines: [
      { name: `counting (${percent(counting.at(-1))})`, y: counting, color: colors.baseline, dash: "dashdot" },
      { name: "chance (50%)", y: data.lengths.map(() => data.chance), color: colors.chance },
    ],
    hover: byKind,
    xTitle: "string length",
    yTitle: `accuracy (${seedCount(data.seeds)})`,
    legend: { font: { size } }, // above the plot, in as many rows as it needs
    margin: { l: 4.5 * size, r: 8, t: 8, b: 3 * size }, // room for "100%" and the axis titles at this size
  });
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

