// The Amnesia Test: an unseen test string and each model's answer with its top-3
// probabilities, then accuracy on fresh strings against chance, and the loss curves.
import { modelStyles, textColors } from "../chart_styles.js";
import { chartElement, plot } from "../charts.js";
import { seedRange } from "./shared/accuracy_by_length.js";
import { element, percent, seedCount, thousands, SIDE_BARS, TOP_LEGEND } from "./shared/common.js";
import { rateLabel } from "./shared/rates.js";

const ORDER = ["lstm-tuned", "transformer"];
const SHOWN_LETTERS = 24; // a longer test string is shown with its middle left out

function testString(result) {
  const letters = [...result.test_string];
  const row = element("p", "amnesia-string");
  row.title = result.test_string;
  row.append(element("span", "amnesia-caption", "Unseen string"));
  const shown = letters.length > SHOWN_LETTERS
    ? [...letters.slice(0, SHOWN_LETTERS - 4), "…", ...letters.slice(-4)]
    : letters;
  shown.forEach((letter, i) => row.append(element("span", i === 0 ? "amnesia-letter amnesia-first" : "amnesia-letter", letter)));
  row.append(element("span", "amnesia-caption", `(${letters.length} letters) → target`),
    element("span", "amnesia-letter amnesia-first", result.target));
  return row;
}

function answers(result) {
  const list = element("ul", "amnesia-answers");
  for (const name of ORDER) {
    const model = result.models[name];
    const right = model.prediction === result.target;
    const item = element("li", "amnesia-answer");
    const label = element("span", "amnesia-model", model.label);
    label.style.color = textColors()[name];
    const top = model.top.map((t) => `${t.answer} ${percent(t.probability)}`).join(" · ");
    item.append(label, element("span", "amnesia-prediction", `says ${model.prediction}`),
      element("span", right ? "amnesia-verdict amnesia-right" : "amnesia-verdict amnesia-wrong", right ? "right" : "wrong"),
      element("span", "amnesia-top", `top 3: ${top}`));
    list.append(item);
  }
  return list;
}

// The training recipe behind "a fair fight": folded away, so the charts keep the room.
function budget(result) {
  const b = result.budget;
  const sizes = ORDER.map((name) => `${result.models[name].label} ${thousands(result.models[name].parameters)} params`).join(" · ");
  const details = element("details", "amnesia-budget");
  details.append(element("summary", "", "How they were trained"), element("p", "",
    `${b.optimizer}, batch ${b.batch_size}, at most ${b.steps} steps · LSTM: ${b.lstm} · Transformer: ${b.transformer} · `
    + `${sizes} · seeds ${result.seeds.join(", ")} · ${result.device}`));
  return details;
}

// Every seed's loss curve; the first seed's in the legend (with the learning rate the model got), the
// others faint behind it.
function lossTraces(models, styles) {
  return ORDER.filter((name) => models[name]).flatMap((name) => models[name].loss_curves.map((curve, i) => ({
    type: "scatter",
    mode: "lines",
    name: `${models[name].label} (${rateLabel(models[name].lr)})`,
    showlegend: i === 0,
    legendgroup: name,
    opacity: i === 0 ? 1 : 0.4,
    x: curve.map((point) => point[0]),
    y: curve.map((point) => point[1]),
    line: { color: styles[name].color, width: i === 0 ? 4 : 2, dash: styles[name].dash }, // shape as well as colour
    hovertemplate: `${models[name].label}, seed ${i + 1}, step %{x}: loss %{y:.3f}<extra></extra>`,
  })));
}

// Accuracy (left) beside the loss curves (right); on a phone, one above the other.
const LAYOUT = {
  xaxis: { domain: [0.52, 1], title: { text: "training step", standoff: 4 }, nticks: 4 },
  yaxis: { title: { text: "loss", standoff: 4 }, rangemode: "tozero", nticks: 3 },
  xaxis2: { domain: [0, 0.38], anchor: "y2", tickangle: 0 },
  xaxis3: { domain: [0, 0.38], anchor: "y2", overlaying: "x2", visible: false },
  legend: { ...TOP_LEGEND, traceorder: "normal", tracegroupgap: 0 }, // one row: grouped, each group would take its own
  margin: { l: 8, r: 8, t: 8, b: 8 },
  phone: {
    xaxis: { domain: [0, 1] },
    yaxis: { domain: [0, 0.4] },
    xaxis2: { domain: [0, 1] },
    xaxis3: { domain: [0, 1] },
    yaxis2: { domain: [0.6, 1] },
  },
};

function drawResult(chart, result) {
  const styles = modelStyles();
  const accuracy = {
    type: "bar",
    x: ORDER.map((name) => result.models[name].label.replace(" ", "<br>")), // two short lines, never slanted
    y: ORDER.map((name) => result.models[name].accuracy.mean),
    error_y: seedRange(ORDER.map((name) => result.models[name].accuracy), styles.baseline.color),
    marker: { color: ORDER.map((name) => styles[name].color) },
    text: ORDER.map((name) => percent(result.models[name].accuracy.mean, 1)),
    ...SIDE_BARS,
    customdata: ORDER.map((name) => result.models[name].label),
    hovertemplate: `%{customdata}: %{y:.1%} right, mean of ${seedCount(result.seeds)}<extra></extra>`,
  };
  const chance = {
    type: "scatter",
    mode: "lines",
    name: `chance (${percent(result.chance, 1)})`,
    x: [-0.5, ORDER.length - 0.5],
    y: [result.chance, result.chance],
    line: { color: styles.chance.color, width: 3, dash: styles.chance.dash },
    xaxis: "x3",
    yaxis: "y2",
    hoverinfo: "skip",
  };
  plot(chart, [...lossTraces(result.models, styles), accuracy, chance], {
    ...LAYOUT,
    xaxis3: { ...LAYOUT.xaxis3, range: [-0.5, ORDER.length - 0.5] },
    yaxis2: { anchor: "x2", range: [0, 1.2], tickvals: [0, 0.5, 1], tickformat: ".0%", title: { text: `right (${seedCount(result.seeds)})`, standoff: 4 } },
  });
}

export function render(output, result) {
  output.replaceChildren();
  const box = element("div", "amnesia");
  box.append(testString(result), answers(result));
  output.append(box);
  const chart = chartElement(box, "demo-chart amnesia-chart");
  box.append(budget(result));
  drawResult(chart, result);
}

