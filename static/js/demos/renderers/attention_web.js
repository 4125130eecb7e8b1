// The sentence as a row of tokens with an arc from each token to every earlier token it
// attends to (thicker and darker = more weight), for a layer and head picked here at once; below,
// Table 1 of "Attention Is All You Need" with this sentence's n and d filled in.
import { modelColors } from "../chart_styles.js";
import { chartElement, plot } from "../charts.js";
import { element, headPickers, modelLabel, tokenAxis } from "./shared/attention_parts.js";
import { percent, showSummary } from "./shared/common.js";

const MIN_WEIGHT = 0.04; // lighter arcs are left out, so the strong ones stay readable
const ARC_POINTS = 24;

function arcTrace(from, to, weight, tokens, color, faded) {
  const xs = [], ys = [];
  const height = (from - to) / Math.max(1, tokens.length - 1);
  for (let p = 0; p <= ARC_POINTS; p += 1) {
    const t = p / ARC_POINTS;
    xs.push(to + (from - to) * t);
    ys.push(height * Math.sin(Math.PI * t));
  }
  const text = `'${tokens[from]}' → '${tokens[to]}': ${weight.toFixed(2)}`;
  return {
    type: "scatter", mode: "lines", x: xs, y: ys, showlegend: false,
    line: { color, width: 1 + 11 * weight, shape: "spline" },
    opacity: faded ? 0.12 : 0.25 + 0.75 * weight,
    hoverinfo: "text", text: xs.map(() => text),
  };
}

function drawArcs(chart, result, weights, focus) {
  const colors = modelColors();
  const { tokens } = result;
  const traces = [];
  weights.forEach((row, from) => {
    for (let to = 0; to < from; to += 1) {
      const faded = focus !== null && focus !== from;
      if (row[to] >= MIN_WEIGHT) traces.push(arcTrace(from, to, row[to], tokens, colors.transformer, faded));
    }
  });
  // Each token's weight on itself, as the size of its dot.
  traces.push({
    type: "scatter", mode: "markers", x: tokens.map((_, i) => i), y: tokens.map(() => 0), showlegend: false,
    cliponaxis: false, // a large dot at either end is drawn whole
    marker: {
      size: weights.map((row, i) => 8 + 30 * row[i]),
      color: tokens.map((_, i) => (result.unknown[i] ? colors.chance : colors.transformer)),
      opacity: tokens.map((_, i) => (focus === null || focus === i ? 0.9 : 0.3)),
    },
    hoverinfo: "text",
    text: tokens.map((t, i) => `'${t}' → itself: ${weights[i][i].toFixed(2)} (click to show its arcs only)`),
  });
  return plot(chart, traces, {
    margin: { l: 24, r: 24, t: 4, b: 8 },
    xaxis: tokenAxis(tokens, { range: [-0.6, tokens.length - 0.4], fixedrange: true }, 640),
    yaxis: { visible: false, range: [-0.2, 1.08], fixedrange: true }, // room below the dots, the largest 38 px across
    hovermode: "closest",
  });
}

// Table 1 of the paper, turned so each model is a column, with this sentence's n and d put in.
function complexityTable(complexity) {
  const { n } = complexity;
  const [attention, recurrent] = complexity.rows;
  const rows = [
    ["Complexity per layer", `${attention.per_layer} = ${complexity.attention_ops.toLocaleString("en")}`,
      `${recurrent.per_layer} = ${complexity.recurrent_ops.toLocaleString("en")}`],
    ["Sequential operations", attention.sequential, `${recurrent.sequential} = ${n}`],
    ["Maximum path length", attention.path, `${recurrent.path} = ${n}`],
  ];
  const table = element("table", "attn-complexity");
  table.title = complexity.source; // the slide names it too
  const head = element("tr");
  head.append(element("th", "attn-complexity-nd", `n = ${n}, d = ${complexity.d}`), element("th", "", attention.layer), element("th", "", recurrent.layer));
  table.append(head);
  for (const [name, ...cells] of rows) {
    const tr = element("tr");
    tr.append(element("th", "", name), ...cells.map((cell) => element("td", "", cell)));
    table.append(tr);
  }
  return table;
}

// Each token's strongest link: the earlier (or same) token it gives the most weight to (the first, on a tie).
function strongestLinks(weights) {
  return weights.map((row, from) => {
    let to = 0;
    for (let j = 1; j <= from; j += 1) if (row[j] > row[to]) to = j;
    return { from, to, weight: row[to] };
  });
}

// The summary for the layer and head on show, in the words of demos/attention_web.py's (which is
// shown as it is for the layer and head it was run with), and the picked token's strongest link.
function summaryFor(result, weights, state) {
  const { tokens } = result;
  const picked = state.focus !== null;
  if (state.layer === result.layer && state.head === result.head && !picked) return result.summary;
  const links = strongestLinks(weights);
  const strongest = (links.length > 1 ? links.slice(1) : links).reduce((best, link) => (link.weight > best.weight ? link : best));
  const target = (link) => (link.to === link.from ? "itself" : `'${tokens[link.to]}'`);
  const later = Math.max(1, tokens.length - 1);
  const previous = weights.slice(1).reduce((total, row, i) => total + row[i], 0) / later;
  const itself = weights.reduce((total, row, i) => total + row[i], 0) / tokens.length;
  const focus = picked ? links[state.focus] : null;
  return `Layer ${state.layer}, head ${state.head} (${result.notes.model}): '${tokens[strongest.from]}' attends most to `
    + `${target(strongest)} (${strongest.weight.toFixed(2)}); on average a token gives ${percent(previous)} of its weight `
    + `to the previous token and ${percent(itself)} to itself.`
    + (focus ? ` Arcs from '${tokens[focus.from]}': it attends most to ${target(focus)} (${focus.weight.toFixed(2)}).` : "")
    + result.notes.unknown;
}

function focusPicker(tokens, onChange) {
  const wrap = element("label", "attn-picker");
  const select = element("select");
  select.append(new Option("every token", ""));
  tokens.forEach((token, i) => select.append(new Option(token, String(i))));
  select.addEventListener("change", () => onChange(select.value === "" ? null : Number(select.value)));
  wrap.append(element("span", "", "Arcs from"), select);
  return { wrap, select };
}

export function render(output, result) {
  output.replaceChildren();
  let state = { layer: result.layer, head: result.head, focus: null };
  const update = (change) => {
    state = { ...state, ...change };
    redraw();
  };
  const box = element("div", "attn attn-web");
  const controls = headPickers(result, state, update);
  const focus = focusPicker(result.tokens, (i) => update({ focus: i }));
  controls.append(focus.wrap, element("span", "attn-model", modelLabel(result.model)));
  box.append(controls);
  const chart = chartElement(box, "demo-chart attn-web-chart");
  chart.setAttribute("role", "img");
  box.append(complexityTable(result.complexity));
  output.append(box);

  function redraw() {
    const weights = result.all_weights[state.layer - 1][state.head - 1];
    chart.setAttribute("aria-label", `Attention arcs of layer ${state.layer}, head ${state.head} over the sentence: ${result.tokens.join(" ")}`);
    showSummary(output, summaryFor(result, weights, state));
    return drawArcs(chart, result, weights, state.focus);
  }
  // Plotly may still be loading: clicks are listened to once the chart is drawn.
  Promise.resolve(redraw()).then(() => chart.on("plotly_click", (event) => {
    const point = event.points[0];
    if (point.data.mode !== "markers") return;
    const picked = state.focus === point.pointIndex ? null : point.pointIndex;
    focus.select.value = picked === null ? "" : String(picked);
    update({ focus: picked });
  }));
}

