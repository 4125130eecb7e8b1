// Time per training step against sequence length (log-log), one line per contender and one chart
// per device timed, each point its median with a bar from the fastest to the slowest timing
// (hollow where the timings stayed noisy); beside it, this server's parallel hardware and how much
// each step sped up from one CPU thread to all of it; above, the legend and, folded away, who was
// faster at each length (said only where the bars do not overlap), Table 1 and the settings.
import { DASHARRAY, fontSizes, modelStyles, onPhone, textColors } from "../chart_styles.js";
import { plot } from "../charts.js";
import { chartIn, element, thousands } from "./shared/common.js";
import { timesWord } from "./shared/times.js";

const NAMES = { lstm_fused: "LSTM fused", lstm_loop: "LSTM loop", transformer: "Transformer" };
// Each contender's style in chart_styles.js: told apart by dash and marker as well as colour, since the
// two LSTMs share one.
const STYLE = { lstm_fused: "lstm", lstm_loop: "lstm-loop", transformer: "transformer" };
const SVG = "http://www.w3.org/2000/svg";

// The chart's text sizes on this screen (chart_styles.js), and its markers, smaller on a phone.
function sizes(narrow) {
  const { text, small } = fontSizes();
  return { font: text, small, marker: narrow ? 9 : 11 };
}

function styleOf(name) {
  return modelStyles()[STYLE[name]];
}

// 64, 128, 256, 512, 1k, 2k, 4k (1k = 1,024 tokens, as the axis title says).
function lengthLabel(n) {
  return n >= 1024 && n % 1024 === 0 ? `${n / 1024}k` : thousands(n);
}

function lengthTicks(lengths, crowded) {
  const shown = crowded && lengths.length > 4 ? lengths.filter((_, i) => i % 2 === 0) : lengths;
  return { tickvals: shown, ticktext: shown.map(lengthLabel) };
}

function timeLabel(ms) {
  if (ms >= 1000) return `${+(ms / 1000).toPrecision(3)} s`;
  return ms >= 1 ? `${+ms.toPrecision(3)} ms` : `${+(ms * 1000).toPrecision(3)} µs`;
}

// Ticks with their units (10 ms, 1 s) for an axis from 10^low to 10^high ms: the densest scheme
// the range calls for (1-2-5 in each decade, 1-3, whole decades) whose labels stand clear of
// each other (a label's height and more) on an axis this many pixels per decade, with two
// numbers at least. Where none does, a scheme with each tick too close to the one before left
// out: whole decades, or 1-3 or 1-2-5 if that leaves only one number to read. A short chart gets
// fewer ticks, never touching ones.
function timeTicks([low, high], pixelsPerDecade, font) {
  const decades = high - low;
  const schemes = [[1, 2, 5], [1, 3], [1]];
  const clear = (a, b) => Math.abs(a - b) * pixelsPerDecade >= 1.3 * font; // a label's height and a margin for the estimate
  const inRange = (steps) => Array.from({ length: Math.ceil(high) - Math.floor(low) + 1 }, (_, i) => Math.floor(low) + i)
    .flatMap((power) => steps.map((step) => power + Math.log10(step))).filter((at) => at >= low && at <= high);
  const thinned = (steps) => inRange(steps).reduce((kept, at) => (kept.length && !clear(kept.at(-1), at) ? kept : [...kept, at]), []);
  const kept = schemes.slice(decades >= 2 ? 2 : decades > 1.2 ? 1 : 0).map(inRange)
    .find((ats) => ats.length >= 2 && ats.every((at, i) => i === 0 || clear(ats[i - 1], at)))
    ?? [...schemes].reverse().map(thinned).find((ats) => ats.length >= 2) ?? thinned([1]);
  const ticks = kept.map((at) => +(10 ** at).toPrecision(3));
  return { tickvals: ticks, ticktext: ticks.map(timeLabel) };
}

function logRange(values) {
  return [Math.log10(Math.min(...values)), Math.log10(Math.max(...values))];
}

function milliseconds(race, name) {
  const median = race.series[name].map((t) => (t === null ? null : t * 1000));
  const spread = (race.spread?.[name] ?? race.series[name].map(() => null)).map((s) => (s ? s.map((t) => t * 1000) : null));
  return { median, spread, noisy: race.noisy?.[name] ?? median.map(() => false) };
}

function raceTraces(race, size) {
  return Object.keys(NAMES).map((name) => {
    const { color, dash, marker } = styleOf(name);
    const { median, spread, noisy } = milliseconds(race, name);
    return {
      type: "scatter",
      mode: "lines+markers",
      name: NAMES[name],
      x: race.lengths,
      y: median,
      error_y: { // fastest to slowest timing of the point
        type: "data",
        symmetric: false,
        array: median.map((m, i) => (m === null || !spread[i] ? null : spread[i][1] - m)),
        arrayminus: median.map((m, i) => (m === null || !spread[i] ? null : m - spread[i][0])),
        color,
        thickness: 2.5,
        width: 7,
      },
      line: { color, width: 3, dash },
      marker: {
        color,
        size: size.marker,
        symbol: noisy.map((bad) => (bad ? `${marker}-open` : marker)),
        line: { color, width: 2.5 },
      },
      customdata: median.map((_, i) => [spread[i] ? timeLabel(spread[i][0]) : "", spread[i] ? timeLabel(spread[i][1]) : "",
        noisy[i] ? " (noisy)" : ""]),
      hovertemplate: `${NAMES[name]}, length %{x}<br>median %{y:.3g} ms, fastest %{customdata[0]}, slowest %{customdata[1]}%{customdata[2]}<extra></extra>`,
    };
  });
}

function drawTimes(chart, races) {
  const narrow = onPhone();
  const size = sizes(narrow);
  const crowded = narrow || races.length > 1 || chart.clientWidth < 480;
  const traces = races.flatMap((race, i) => raceTraces(race, size).map((trace) => ({
    ...trace, xaxis: i ? `x${i + 1}` : "x", yaxis: i ? `y${i + 1}` : "y",
  })));
  const layout = {
    font: { size: size.font },
    showlegend: false, // the legend is a row of its own above the chart (legendRow)
    margin: narrow ? { l: 66, r: 8, t: races.length > 1 ? 28 : 10, b: 56 } : { l: 86, r: 10, t: races.length > 1 ? 30 : 12, b: 56 },
    grid: { rows: 1, columns: races.length, pattern: "independent" },
    annotations: races.length > 1 ? races.map((race, i) => ({ // which device each chart timed
      text: race.device === "cpu" ? "CPU" : "GPU", // the GPU's name is over the speed-ups
      showarrow: false, xref: `x${i ? i + 1 : ""} domain`, yref: `y${i ? i + 1 : ""} domain`,
      x: 0, y: 1, xanchor: "left", yanchor: "bottom", font: { size: size.small },
    })) : [],
  };
  // One time axis for all the devices (the others match the first and leave it the labels): the
  // charts share a scale to compare by, and the room of the labels goes to the plots.
  const values = [races.flatMap((race) => Object.keys(NAMES).flatMap((name) => {
    const { median, spread } = milliseconds(race, name);
    return [...median, ...spread.flat()].filter((v) => v !== null && v > 0);
  }))];
  races.forEach((race, i) => {
    const suffix = i ? String(i + 1) : "";
    layout[`xaxis${suffix}`] = {
      type: "log", title: { text: i ? "" : crowded ? "length (tokens)" : "sequence length (tokens; 1k = 1,024)", standoff: 4 },
      ...lengthTicks(race.lengths, crowded), tickangle: 0,
    };
    layout[`yaxis${suffix}`] = i ? { type: "log", matches: "y", showticklabels: false }
      : { type: "log" }; // the units are on the ticks (10 ms, 1 s): no title to crowd them
  });
  // As many time ticks as the chart's height leaves room for (a longer summary or an error above
  // it leaves it less). First from the box's height less the margins, before drawing; then, once
  // drawn, from the axis as Plotly laid it out (a label at the top edge can push the margin), and
  // only ever fewer, so it settles. Again from the start whenever the chart is resized.
  const ticksFor = ([low, high], length) => timeTicks([low, high], length > 0 ? length / (high - low) : Infinity, size.font);
  const yaxis = (i) => `yaxis${i ? i + 1 : ""}`;
  const estimate = () => {
    values.forEach((timings, i) => {
      if (!timings.length) return;
      const [low, high] = logRange(timings);
      Object.assign(layout[yaxis(i)], ticksFor([low - 0.04, high + 0.04], chart.clientHeight - layout.margin.t - layout.margin.b));
    });
  };
  const settle = () => {
    let fewer = false;
    values.forEach((timings, i) => {
      const axis = layout[yaxis(i)];
      const drawn = chart._fullLayout?.[yaxis(i)];
      if (!timings.length || !drawn?._length) return;
      const ticks = ticksFor([...drawn.range].sort((a, b) => a - b), drawn._length);
      if (ticks.tickvals.length < axis.tickvals.length) {
        Object.assign(axis, ticks);
        fewer = true;
      }
    });
    if (fewer) plot(chart, traces, layout);
  };
  estimate();
  return plot(chart, traces, layout).then(() => {
    chart.removeAllListeners?.("plotly_relayout"); // a chart redrawn with new data fits those
    chart.removeAllListeners?.("plotly_afterplot");
    chart.on?.("plotly_relayout", () => { estimate(); plot(chart, traces, layout); }); // resized
    chart.on?.("plotly_afterplot", settle);
    settle();
    return chart;
  });
}

// Who was faster at each length, in words as well as colour: "Transformer 2.10×", "LSTM 1.40×",
// "too close" where the two bars overlap, "noisy" where one stayed noisy (drawn hollow).
function callsList(race, heading) {
  const colors = textColors();
  const section = element("section", "speed-calls");
  section.append(element("h3", "speed-calls-heading", heading));
  const list = element("ol", "speed-calls-list");
  race.lengths.forEach((n, i) => {
    const winner = race.faster?.[i] ?? null;
    const ratio = race.ratio_lstm_to_transformer[i];
    const noisy = race.noisy?.lstm_fused?.[i] || race.noisy?.transformer?.[i];
    const text = winner === "transformer" ? `Transformer ${timesWord(ratio)}`
      : winner === "lstm" ? `LSTM ${timesWord(1 / ratio)}` : noisy ? "noisy" : "too close";
    const item = element("li", "speed-call");
    item.dataset.winner = winner ?? "none";
    const words = element("span", "speed-call-winner", text);
    if (winner) words.style.color = colors[winner];
    item.append(element("span", "speed-call-length", lengthLabel(n)), words);
    list.append(item);
  });
  section.append(list);
  return section;
}

function svgElement(tag, attributes) {
  const el = document.createElementNS(SVG, tag);
  for (const [name, value] of Object.entries(attributes)) el.setAttribute(name, value);
  return el;
}

// A sample of each line as the chart draws it: colour, dash and marker.
function lineSample(name) {
  const { color, dash, marker: symbol } = styleOf(name);
  const svg = svgElement("svg", { width: 46, height: 18, viewBox: "0 0 46 18", "aria-hidden": "true" });
  svg.append(svgElement("line", { x1: 1, y1: 9, x2: 45, y2: 9, stroke: color, "stroke-width": 3, "stroke-dasharray": DASHARRAY[dash] }));
  const marker = {
    square: () => svgElement("rect", { x: 17, y: 3, width: 12, height: 12, fill: color }),
    "triangle-up": () => svgElement("polygon", { points: "23,2 30,15 16,15", fill: color }),
    circle: () => svgElement("circle", { cx: 23, cy: 9, r: 6.5, fill: color }),
  }[symbol]();
  svg.append(marker);
  return svg;
}

// The legend as a row of the page (Plotly's wraps to two lines in a chart this narrow), with the
// folded details at its end.
function legendRow(result) {
  const row = element("div", "speed-legend-row");
  const legend = element("ul", "speed-legend");
  for (const name of Object.keys(NAMES)) {
    const item = element("li", "speed-legend-item");
    item.append(lineSample(name), element("span", "", NAMES[name]));
    legend.append(item);
  }
  row.append(legend, detailsPanel(result));
  return row;
}

// Folded away (the chart row keeps its height on the projector): who was faster at each length,
// Table 1 and the settings.
function detailsPanel(result) {
  const details = element("details", "speed-details");
  details.append(element("summary", "", "Each length, Table 1"));
  const several = result.races.length > 1;
  const calls = element("div", "speed-side");
  result.races.forEach((race) => calls.append(callsList(race, several ? `Faster on ${race.device}` : "Faster at each length")));
  const table = element("table", "speed-complexity");
  const head = element("tr");
  ["Per layer (Table 1)", "Work", "Sequential steps"].forEach((text) => head.append(element("th", "", text)));
  table.append(head);
  for (const row of result.complexity) {
    const tr = element("tr");
    [row.layer, row.per_layer, row.sequential].forEach((text) => tr.append(element("td", "", text)));
    table.append(tr);
  }
  const last = result.lengths.at(-1);
  const counts = result.parameters;
  const limit = Math.round((result.races[0].noise_limit ?? 0.5) * 100);
  const facts = [
    `At n = ${thousands(last)} the LSTM takes ${thousands(last)} steps in order; the Transformer layer 1.`,
    `Parameters: LSTM ${thousands(counts.lstm_fused)}, Transformer layer ${thousands(counts.transformer)}; ` +
    `width ${result.params.width}, batch ${result.params.batch}.`,
    `Each point: the median of ${result.params.repeats} timings, its bar from the fastest to the slowest. ` +
    `A bar wider than ${limit}% of its median is timed again, and drawn hollow if it stays so.`,
  ];
  if (result.skipped.lstm_loop) {
    facts.push(`The Python loop was not timed beyond ${thousands(result.params.loop_max_length)} steps (it is slow).`);
  }
  const cuda = result.races.find((race) => race.peak_fraction);
  if (cuda) {
    const best = Math.max(...cuda.peak_fraction);
    facts.push(`On ${cuda.device} the Transformer layer reached ${(best * 100).toFixed(1)}% of the device's ` +
      `${thousands(Math.round(cuda.peak_gflops))} GFLOP/s ${cuda.precision} peak (data sheet).`);
  }
  result.races.slice(1).forEach((race) => facts.push(race.verdict)); // the CPU beside a GPU
  const scaling = result.scaling;
  for (const target of Object.keys(scaling?.speedup ?? {}).filter((t) => t !== scaling.main)) { // the cores beside a GPU
    const i = scaling.lengths.length - 1;
    const gains = scaling.speedup[target];
    facts.push(`Speed-up on all ${scaling.hardware.cpu_threads} CPU threads at length ${thousands(scaling.lengths[i])}: ` +
      ["transformer", "lstm_fused"].map((name) => `${NAMES[name]} ${timesWord(gains[name].series[i])} ` +
        `(${timesWord(gains[name].spread[i][0])} to ${timesWord(gains[name].spread[i][1])})`).join(", ") + ".");
  }
  const panel = element("div", "speed-details-panel");
  panel.tabIndex = 0; // it may scroll: reachable from the keyboard
  panel.append(calls, table, ...facts.map((text) => element("p", "", text)));
  // How many CPU threads ran the race: for the lecturer, not the projected slide.
  panel.append(element("p", "instructor-only", `The CPU ran with ${result.cpu_threads} thread${result.cpu_threads === 1 ? "" : "s"}.`));
  details.append(panel);
  return details;
}

// "Server: 2 CPU cores" or "Server: NVIDIA H100 80GB HBM3, 132 SMs" (its cores in Details): from the result.
function hardwareText(facts) {
  if (facts.gpu) return `Server: ${facts.gpu}${facts.gpu_sms ? `, ${facts.gpu_sms} SMs` : ""}`;
  return `Server: ${facts.cpu_cores} CPU core${facts.cpu_cores === 1 ? "" : "s"}`;
}

// What each chart of speed-ups measures, over one CPU thread: "speed-up on 2 threads", "… on the GPU".
function targetText(target, facts) {
  return target === "gpu" ? "speed-up on the GPU" : `speed-up on ${facts.cpu_threads} threads`;
}

// One row per contender timed at each length, grouped by length (the shortest on top) with a row's
// gap between the groups: numbers on a y axis whose ticks name the lengths.
function gainRows(scaling) {
  const rows = [];
  let y = 0;
  scaling.lengths.forEach((n, i) => {
    for (const name of Object.keys(NAMES).filter((name) => scaling.times.one_thread[name]?.series[i] != null)) {
      rows.push({ n, i, name, y });
      y -= 1;
    }
    y -= 1;
  });
  return rows;
}

// The speed-up of each contender's step over one CPU thread, a point per contender and length with
// its range as a bar (hollow where a timing stayed noisy), against 1× (no gain) and, on the CPU,
// the number of threads (every core fully used): on the server's parallel hardware, all its CPU
// threads or, where it has one, its GPU (the cores beside a GPU are in Details).
function drawGains(chart, scaling) {
  const narrow = onPhone();
  const size = sizes(narrow);
  const target = scaling.main;
  const rows = gainRows(scaling);
  const traces = Object.keys(NAMES).map((name) => {
    const mine = rows.filter((row) => row.name === name);
    const gains = scaling.speedup[target][name];
    const { color, marker } = styleOf(name);
    const value = mine.map((row) => gains.series[row.i]);
    return {
      type: "scatter", mode: "markers", name: NAMES[name], x: value, y: mine.map((row) => row.y),
      error_x: {
        type: "data", symmetric: false, color, thickness: 2.5, width: 6,
        array: mine.map((row, k) => gains.spread[row.i][1] - value[k]),
        arrayminus: mine.map((row, k) => value[k] - gains.spread[row.i][0]),
      },
      marker: {
        color, size: size.marker, line: { color, width: 2.5 },
        symbol: mine.map((row) => (gains.noisy[row.i] ? `${marker}-open` : marker)),
      },
      customdata: mine.map((row) => [thousands(row.n), timesWord(gains.spread[row.i][0]), timesWord(gains.spread[row.i][1]),
        timesWord(gains.series[row.i])]),
      hovertemplate: `${NAMES[name]}, length %{customdata[0]}: %{customdata[3]} (%{customdata[1]} to %{customdata[2]})<extra></extra>`,
    };
  });
  const bands = [...new Set(rows.map((row) => row.n))].map((n) => {
    const ys = rows.filter((row) => row.n === n).map((row) => row.y);
    return { n, y: (Math.min(...ys) + Math.max(...ys)) / 2 };
  });
  const spreads = rows.map((row) => scaling.speedup[target][row.name].spread[row.i]);
  const ideal = target === "all_threads" ? scaling.hardware.cpu_threads : null;
  const [low, high] = [Math.min(...spreads.map((s) => s[0]), 1), Math.max(...spreads.map((s) => s[1]), ideal ?? 1)];
  const log = high / low > 20; // a GPU's hundredfold, or a busy machine's outliers
  const references = [1, ...(ideal ? [ideal] : [])]; // 1×: no gain; n×: every core used fully
  const margin = { l: narrow ? 48 : 50, r: 6, t: 6, b: 30 };
  // Decades on a log axis, every one where the labels have room ("0.01×" is about three em wide),
  // else every second or third, always with 1× (a busy machine's timings can span five decades).
  const decades = log ? Math.log10((high * 1.3) / (low / 1.3)) : 1;
  const perDecade = (chart.clientWidth - margin.l - margin.r) / decades;
  const every = Math.max(1, Math.ceil((3.4 * size.font) / perDecade));
  const ticks = log ? [0.01, 0.1, 1, 10, 100, 1000].filter((v) => v >= low / 1.3 && v <= high * 1.3
    && Math.round(Math.log10(v)) % every === 0) : references;
  const bottom = Math.min(...rows.map((row) => row.y)) - 0.8;
  const layout = {
    font: { size: size.font },
    showlegend: false, // the legend row above serves both charts
    margin,
    xaxis: {
      type: log ? "log" : "linear", range: log ? [Math.log10(low / 1.3), Math.log10(high * 1.3)] : [0, high * 1.12],
      tickvals: ticks, ticktext: ticks.map((v) => `${v}×`), zeroline: false, tickangle: 0,
    },
    yaxis: { range: [bottom, 0.8], showgrid: false, zeroline: false },
    shapes: references.map((at, k) => ({
      type: "line", xref: "x", yref: "y domain", x0: at, x1: at, y0: 0, y1: 1,
      line: { color: "#888", width: 1.5, dash: k ? "dash" : "solid" },
    })),
  };
  // Each band named by its length where the chart is tall enough for the names to stand apart;
  // in a short one, only the longest (the one the summary and the poll speak of).
  const label = () => {
    const perRow = (chart.clientHeight - layout.margin.t - layout.margin.b) / (0.8 - bottom);
    const apart = bands.every((band, k) => k === 0 || (bands[k - 1].y - band.y) * perRow >= 1.2 * size.font);
    const shown = apart ? bands : bands.slice(-1);
    Object.assign(layout.yaxis, { tickvals: shown.map((band) => band.y), ticktext: shown.map((band) => lengthLabel(band.n)) });
  };
  label();
  return plot(chart, traces, layout).then(() => {
    chart.removeAllListeners?.("plotly_relayout");
    chart.on?.("plotly_relayout", () => { label(); plot(chart, traces, layout); }); // resized
    return chart;
  });
}

// This server's parallel hardware, then the chart of speed-ups over one thread.
function gainsPanel(scaling) {
  const section = element("section", "speed-gains");
  section.append(element("h3", "speed-gains-heading", hardwareText(scaling.hardware)));
  if (scaling.main) section.append(element("p", "speed-gains-what", targetText(scaling.main, scaling.hardware)));
  if (!Object.keys(scaling.speedup).length) {
    section.append(element("p", "speed-gains-none", "One CPU thread and no GPU: nothing to spread a step over."));
    return [section, null];
  }
  const chart = element("div", "demo-chart speed-gains-chart");
  chart.setAttribute("aria-label", "Speed-up of each contender's training step over one CPU thread, " +
    "each the ratio of median times with its range as a bar, at each length timed.");
  section.append(chart);
  return [section, chart];
}

export function render(output, result) {
  output.replaceChildren();
  const several = result.races.length > 1;
  const layout = element("div", several ? "speed-layout speed-layout--stacked" : "speed-layout");
  const times = element("div", "demo-chart speed-times");
  times.setAttribute("aria-label", "Milliseconds per training step against sequence length, " +
    "each point the median with a bar from the fastest to the slowest timing: LSTM fused, LSTM loop, Transformer.");
  const [gains, gainsChart] = result.scaling ? gainsPanel(result.scaling) : [element("div"), null];
  layout.append(legendRow(result), times, gains);
  output.append(layout);
  drawTimes(times, result.races);
  if (gainsChart) drawGains(gainsChart, result.scaling);
}

// While timing: the points so far, on the device being timed.
export function renderProgress(output, data) {
  drawTimes(chartIn(output, "speed-live"), [data]);
}
