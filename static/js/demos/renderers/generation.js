// The generative showdown: first how well each model predicts unseen text (bits per character on
// the test text, each model's range over the seeds, placed on a ladder of counting models scored on
// the same characters, from chance to the 5-gram), then both
// continuations of the same prompt side by side, character by character, with the run copied from
// the training text underlined, and under them each model's top-5 candidates for the chosen
// character, as bars. Any character can be looked at (hover or click it, or move the slider), and
// Replay grows the texts again, one character at a time. Each text's characters are one Tab stop, the
// one chosen (roving tabindex): the arrows move inside, ← → along a text, ↑ ↓ to the other model's.
// (One stop for both texts would leave a text that scrolls with nothing a keyboard can reach in it.)
// A result with a size sweep (a GPU's prepared run) has a second view, "By size", shown first: Kaplan
// et al.'s Figure 7 (left) in miniature, test bits against non-embedding parameters for each family with
// its fitted k·N^−α, and beside it Figure 5, the Transformer's shapes at one size. Two buttons switch
// between the views, and the summary under them says what the view on show measured.
import { modelColors, modelStyles, textSize } from "../chart_styles.js";
import { chartElement, plot } from "../charts.js";
import { seedRange } from "./shared/accuracy_by_length.js";
import { element, FAMILIES, levelLine, percent, seedCount, showSummary, thousands, TOP_LEGEND } from "./shared/common.js";

const MODELS = ["transformer", "lstm"];
const REPLAY_MS = 120; // between characters when replaying: slow enough to follow the bars
const SCHEDULE = { cooldown: "cool-down", cosine: "cosine" };

// A learning rate as the slides write it: 0.003, 0.0001.
function rate(lr) {
  return String(Number(lr.toPrecision(2)));
}

// The prompt as the models read it, and the model's characters, each a button that shows its
// candidates; the longest run copied from the training text is underlined. `view`: the Showdown, told
// which character to show (hovered or focused), to pin (clicked), and when the pointer leaves.
function continuationText(data, kind, view) {
  const text = element("p", "gen-text");
  text.append(element("span", "gen-prompt", data.read_as));
  const model = data.models[kind];
  text.setAttribute("role", "group");
  text.setAttribute("aria-label", `${model.label}'s continuation: ← and → move through its characters, ↑ and ↓ to the other model's`);
  const copied = model.copied;
  const buttons = model.picks.map((pick, i) => {
    const inCopy = copied.length >= 8 && i >= copied.start && i < copied.start + copied.length;
    const button = element("button", inCopy ? "gen-token gen-copied" : "gen-token", pick.char);
    button.type = "button";
    button.tabIndex = -1; // showStep gives the chosen character the one Tab stop
    button.dataset.step = String(i + 1);
    button.title = `character ${i + 1}: ${probability(pick.probability)}` + (pick.rank > 1 ? `, rank ${pick.rank}` : "")
      + (inCopy ? `; part of a ${copied.length}-character run copied from the training text` : "");
    text.append(button);
    return { button };
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
  text.addEventListener("mouseleave", () => view.showPinned());
  return { text, buttons };
}

function modelColumn(data, kind, view) {
  const model = data.models[kind];
  const column = element("section", `gen-model gen-model--${kind}`);
  const head = element("header", "gen-head");
  const score = element("span", "gen-ppl");
  score.append(element("span", "gen-ppl-label", "test "),
    element("span", "gen-ppl-value", model.test_bits.mean.toFixed(2)), element("span", "gen-ppl-label", " bits/char"));
  score.title = `Bits per character on the test text, mean over ${seedCount(data.seeds)}`
    + ` (${model.test_bits.min.toFixed(2)} to ${model.test_bits.max.toFixed(2)})`;
  const recipe = model.recipe;
  const chosen = element("span", "gen-recipe", `lr ${rate(recipe.lr)}, ${SCHEDULE[recipe.schedule] ?? recipe.schedule}, `
    + `window ${recipe.window}`);
  chosen.title = `Chosen on the validation text from the grid ${data.how_chosen.grid.map(rate).join(", ")} `
    + `(${data.how_chosen.budget}; ${data.how_chosen.script})`;
  head.append(element("h2", "gen-name", model.label), score, chosen);
  head.title = `${thousands(model.parameters)} parameters; each seed's model keeps the weights that scored best on the `
    + `validation text (at most ${data.budget.steps} steps): at step ${model.best_step.join(", ")}.`; // details on hover
  const { text, buttons } = continuationText(data, kind, view);
  column.append(head, text);
  column.setAttribute("aria-label", `${model.label}, ${model.test_bits.mean.toFixed(2)} bits per character on the test text`);
  return { column, text, buttons };
}

// The ladder: bits per character on the test text, best at the top, each model (its range over
// the seeds) among the counting models scored on the same characters, down to chance.
function ladderRows(data) {
  const colors = modelColors();
  const models = MODELS.map((kind) => ({ name: data.models[kind].label, stats: data.models[kind].test_bits,
    color: colors[kind], model: true }));
  const counts = data.baselines.ngrams.map((rung) => ({ name: rung.name, value: rung.test_bits, color: colors.baseline }));
  const chance = { name: "chance", value: data.baselines.uniform, color: colors.chance };
  const value = (row) => (row.stats ? row.stats.mean : row.value);
  return [...models, ...counts, chance].sort((a, b) => value(a) - value(b)).map((row) => ({ ...row, mean: value(row) }));
}

const TITLE = "bits per character on the test text (lower is better)";

function drawScores(chart, data) {
  const rows = ladderRows(data);
  const size = textSize();
  const charWidth = 0.62 * size;
  const labels = Math.max(...rows.map((row) => row.name.length)) * charWidth + 12;
  const room = Math.max(chart.clientWidth - labels - 16, 60); // the bars' width in px; their values need 5 characters more
  const rowHeight = 1.12 * size;
  chart.style.height = `${Math.ceil(rows.length * rowHeight + 1.5 * size + 8)}px`; // a row per bar and the axis title
  plot(chart, [{
    type: "bar",
    orientation: "h",
    y: rows.map((row) => row.name),
    x: rows.map((row) => row.mean),
    error_x: { ...seedRange(rows.map((row) => row.stats ?? { mean: row.value, min: row.value, max: row.value }), "#333"),
               width: 0 }, // no end caps: one would stand like a "1" before the value
    marker: { color: rows.map((row) => row.color) },
    width: 0.8,
    text: rows.map((row) => row.mean.toFixed(2)),
    textposition: "outside",
    constraintext: "none",
    textfont: { size },
    cliponaxis: false,
    customdata: rows.map((row) => (row.stats ? `mean of ${seedCount(data.seeds)}` : row.name === "chance"
      ? "guessing uniformly" : "counted on the training text")),
    hovertemplate: "%{y}: %{x:.3f} bits per character (%{customdata})<extra></extra>",
  }], {
    font: { size },
    bargap: 0.15,
    xaxis: { range: [0, Math.max(...rows.map((row) => row.mean)) * room / Math.max(room - 5 * charWidth, 1)],
             showticklabels: false },
    yaxis: { autorange: "reversed", automargin: true,
             tickfont: { size }, ticktext: rows.map((row) => (row.model ? `<b>${row.name}</b>` : row.name)),
             tickvals: rows.map((row) => row.name) },
    margin: { l: 8, r: 16, t: 4, b: Math.ceil(1.5 * size) },
    annotations: [{ // the axis's title, under the bars (which carry their values, so no ticks) from their right end leftwards
      xref: "paper", yref: "paper", x: 1, xanchor: "right", y: 0, yanchor: "top", yshift: -2, showarrow: false,
      text: TITLE.length * charWidth <= chart.clientWidth ? TITLE : "bits/char (lower is better)", // the short one in half a panel
    }],
    showlegend: false,
  });
}

// ---- the size sweep (a result with `sweep`): Kaplan et al.'s Figures 7 (left) and 5 in miniature

const VIEWS = { sizes: "By size", showdown: "Head to head" }; // the first is shown first

// The summary in two parts, one per view, as the result gives them (`summaries`: the head-to-head's
// and the sweep's words); a result without them shows its whole summary under either view.
function summaryParts(data) {
  const whole = data.summary ?? "";
  return { sizes: data.summaries?.sizes ?? whole, showdown: data.summaries?.showdown ?? whole };
}

// A parameter count as the axis writes it: 20k, 500k, 1M, 2.5M.
function count(n) {
  if (n >= 1e6) return `${Number((n / 1e6).toPrecision(2))}M`;
  return n >= 1e3 ? `${Number((n / 1e3).toPrecision(2))}k` : String(n);
}

// The ticks of a log axis over [low, high]: 1, 2 and 5 times the powers of ten there.
function logTicks(low, high) {
  const ticks = [];
  for (let decade = 10 ** Math.floor(Math.log10(low)); decade <= high; decade *= 10) {
    for (const step of [1, 2, 5]) if (decade * step >= low && decade * step <= high) ticks.push(decade * step);
  }
  return ticks;
}

const BITS_TICKS = [0.5, 0.75, 1, 1.5, 2, 3, 4, 6, 8]; // bits per character on a log axis

// Figure 7 (left): test bits per character against non-embedding parameters N, both on log scales, so
// that each family's fitted k·N^−α (the thin line) is straight; each size's mean over the seeds with a
// bar for their range; chance and the 5-gram as levels across.
function drawSizes(chart, data) {
  const colors = modelColors();
  const { families } = data.sweep.sizes;
  const seeds = data.seeds.length;
  const counts = families.flatMap((family) => family.points.map((point) => point.non_embedding));
  const [low, high] = [Math.min(...counts) / 1.5, Math.max(...counts) * 1.5];
  const along = Array.from({ length: 25 }, (_, i) => low * (high / low) ** (i / 24));
  const top = data.baselines.ngrams.at(-1); // the strongest cheap baseline
  const chance = data.baselines.uniform;
  const traces = families.flatMap((family) => {
    const look = FAMILIES[family.kind];
    const color = colors[family.kind];
    const stats = family.points.map((point) => point.test_bits);
    const { k, alpha } = family.fit;
    return [{
      type: "scatter", mode: "lines+markers", name: `${family.label}: α = ${alpha.toFixed(3)}`, legendgroup: family.kind,
      x: family.points.map((point) => point.non_embedding), y: stats.map((s) => s.mean),
      error_y: seeds > 1 ? seedRange(stats, color) : undefined,
      line: { color, width: 4, dash: look.dash }, marker: { color, size: 12, symbol: look.marker },
      customdata: family.points.map((p) => [thousands(p.non_embedding), p.layers, p.width, rate(p.lr),
        p.test_bits.min.toFixed(2), p.test_bits.max.toFixed(2)]),
      hovertemplate: `${family.label}, %{customdata[0]} non-embedding parameters (%{customdata[1]} layers × %{customdata[2]}, `
        + `lr %{customdata[3]}): %{y:.2f} bits` + (seeds > 1 ? " (seeds: %{customdata[4]} to %{customdata[5]})" : "")
        + "<extra></extra>",
    }, {
      type: "scatter", mode: "lines", name: `${family.label}, fitted`, legendgroup: family.kind, showlegend: false,
      x: along, y: along.map((n) => k * n ** -alpha), line: { color, width: 1.5, dash: look.dash }, opacity: 0.8,
      hovertemplate: `${family.label}, fitted ${k.toFixed(2)}·N<sup>−${alpha.toFixed(3)}</sup>: %{y:.2f} bits at N = %{x:.3s}`
        + "<extra></extra>",
    }];
  });
  traces.push(levelLine("chance", [low, high], chance, { showlegend: false }),
    levelLine(top.name, [low, high], top.test_bits, { style: "baseline", showlegend: false }));
  const bits = [...families.flatMap((family) => family.points.map((p) => p.test_bits.min)), top.test_bits];
  const [bottom, ceiling] = [Math.min(...bits) / 1.3, chance * 1.06];
  const ticks = logTicks(low, high);
  const level = (text, y, where) => ({ x: Math.log10(where === "left" ? low : high), xanchor: where, y: Math.log10(y),
    yanchor: "top", text, showarrow: false });
  plot(chart, traces, {
    legend: TOP_LEGEND,
    margin: { l: 8, r: 8, t: 8, b: 8 },
    xaxis: { type: "log", title: { text: "non-embedding parameters N", standoff: 4 }, fixedrange: true,
             range: [Math.log10(low), Math.log10(high)], tickvals: ticks, ticktext: ticks.map(count) },
    yaxis: { type: "log", title: { text: "test bits/char", standoff: 4 }, fixedrange: true,
             range: [Math.log10(bottom), Math.log10(ceiling)], tickvals: BITS_TICKS.filter((t) => t >= bottom && t <= ceiling) },
    annotations: [level(`chance ${chance.toFixed(2)}`, chance, "right"), level(`${top.name} ${top.test_bits.toFixed(2)}`,
      top.test_bits, "left")], // chance where the models are best, the 5-gram where they are worst: clear of both
    phone: { xaxis: { title: { text: "non-embedding params N" } } },
  });
  const words = families.map((family) => `${family.label} ${family.points.map((p) => `${p.test_bits.mean.toFixed(2)} at `
    + `${thousands(p.non_embedding)}`).join(", ")}, fitted α = ${family.fit.alpha.toFixed(3)}`);
  chart.setAttribute("aria-label", `Test bits per character against non-embedding parameters N, both on log scales, `
    + `with a fitted k·N^−α for each family (chance ${chance.toFixed(2)}, ${top.name} ${top.test_bits.toFixed(2)}): `
    + `${words.join("; ")}.`);
}

// A shape as its row's label: layers × width, then its heads.
function shapeLabel(shape) {
  return `${shape.layers} × ${shape.width}<br>${shape.heads} head${shape.heads === 1 ? "" : "s"}`;
}

// Figure 5: the Transformer's shapes at about one size, best at the top, as bars of test bits per
// character (the range over seeds on each) against chance and the 5-gram: how little the shape changes.
function drawShapes(chart, caption, data) {
  const styles = modelStyles();
  const { shapes, spread } = data.sweep.shapes;
  const rows = [...shapes].sort((a, b) => a.test_bits.mean - b.test_bits.mean);
  const top = data.baselines.ngrams.at(-1);
  const chance = data.baselines.uniform;
  const size = textSize();
  const labels = rows.map(shapeLabel);
  caption.textContent = `The Transformer's shapes at ${count(rows[0].non_embedding)} (layers × width, heads): `
    + `within ${percent(spread, 1)} of each other`;
  plot(chart, [{
    type: "bar", orientation: "h", y: labels, x: rows.map((row) => row.test_bits.mean),
    error_x: { ...seedRange(rows.map((row) => row.test_bits), "#333"), width: 0 },
    marker: { color: styles.transformer.color }, width: 0.7,
    text: rows.map((row) => row.test_bits.mean.toFixed(2)), textposition: "outside", constraintext: "none",
    textfont: { size }, cliponaxis: false,
    customdata: rows.map((row) => [row.head_size, thousands(row.non_embedding)]),
    hovertemplate: "%{y}, heads of %{customdata[0]}, %{customdata[1]} non-embedding parameters: %{x:.3f} bits"
      + "<extra></extra>",
  }], {
    font: { size },
    xaxis: { range: [0, chance * 1.02], showticklabels: false, showgrid: false, zeroline: false, fixedrange: true },
    yaxis: { autorange: "reversed", tickfont: { size }, fixedrange: true },
    margin: { l: 8, r: 8, t: 4, b: Math.ceil(1.5 * size) },
    annotations: [[top.name, top.test_bits, "center"], ["chance", chance, "right"]].map(([text, x, xanchor]) => ({
      x, xanchor, y: 0, yref: "paper", yanchor: "top", yshift: -2, text, showarrow: false })),
    shapes: [ // the 5-gram and chance, as levels standing across the bars
      { type: "line", x0: top.test_bits, x1: top.test_bits, y0: 0, y1: 1, yref: "paper",
        line: { color: styles.baseline.color, width: 3, dash: styles.baseline.dash } },
      { type: "line", x0: chance, x1: chance, y0: 0, y1: 1, yref: "paper",
        line: { color: styles.chance.color, width: 3, dash: styles.chance.dash } },
    ],
    showlegend: false,
  });
  chart.setAttribute("aria-label", `Test bits per character of ${rows.length} shapes of the Transformer at about `
    + `${thousands(rows[0].non_embedding)} non-embedding parameters, within ${percent(spread, 1)} of each other (${top.name} `
    + `${top.test_bits.toFixed(2)}, chance ${chance.toFixed(2)}): ${rows.map((row) => `${row.layers} layers × ${row.width} with `
    + `${row.heads} heads ${row.test_bits.mean.toFixed(2)}`).join("; ")}.`);
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
  if (pick.rank > data.top_k) rows.push({ char: pick.char, shown: pick.char, probability: pick.probability, rank: pick.rank });
  const table = element("table", `gen-top gen-top--${kind}`);
  table.append(element("caption", "", `${model.label}, character ${step}: top ${data.top_k}`));
  for (const row of rows) {
    const taken = row.char === pick.char;
    const tr = element("tr", taken ? "gen-top-row gen-top-row--taken" : "gen-top-row");
    const token = element("th", "gen-top-token", row.shown ?? row.char);
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

// The showdown in one output: both texts, the character chosen and its candidates, Replay, and for a
// result with a size sweep the two views. One per output: a new result's stops the last one's replay.
const shown = new WeakMap();

class Showdown {
  constructor(output, data) {
    shown.get(output)?.stopReplay();
    shown.set(output, this);
    this.output = output;
    this.data = data; // the result, or the generation so far
    this.result = data;
    this.pinned = 0;
    this.replayTimer = null;
    this.columns = {};
    output.replaceChildren();
    this.box = element("div", "gen");
    this.columnsBox = element("div", "gen-columns");
    this.onCharacterKey = (event) => this.characterKey(event);
    this.columnsBox.addEventListener("keydown", this.onCharacterKey);
    const stepbar = element("div", "gen-stepbar");
    this.slider = element("input", "gen-slider");
    Object.assign(this.slider, { type: "range", min: "1", max: String(data.n_characters), step: "1", value: "1" });
    this.slider.setAttribute("aria-label", "Which generated character to show");
    this.slider.addEventListener("input", () => this.pin(Number(this.slider.value)));
    this.label = element("span", "gen-step-label");
    this.replayButton = element("button", "gen-replay", "▶ Replay");
    this.replayButton.type = "button";
    this.replayButton.hidden = true;
    this.replayButton.addEventListener("click", () => this.replay());
    const how = data.decoding === "sample" ? `sampled, temperature ${data.temperature}` : "greedy";
    const decoding = element("span", "gen-decoding", how);
    stepbar.append(element("span", "gen-step-name", "Character"), this.slider, this.label, decoding, this.replayButton);
    this.tops = element("div", "gen-tops");
    this.tops.tabIndex = 0; // it scrolls when the texts are long: the keyboard must reach it
    this.tops.setAttribute("aria-label", "Each model's top 5 candidates for the chosen character");
    this.scores = chartElement(this.box, "demo-chart gen-scores");
    this.box.append(this.columnsBox, stepbar, this.tops);
    if (data.sweep) this.addSweep(data);
    output.append(this.box);
  }

  // The result: both texts whole, at their last character, and the scores (or a size sweep's first view).
  showResult(result) {
    this.fill(result);
    if (!result.sweep) drawScores(this.scores, result);
    this.replayButton.hidden = false;
    this.pin(result.n_characters);
    if (result.sweep) this.showView(Object.keys(VIEWS)[0]);
  }

  // A result with a size sweep: the two views' buttons (first in the box) and the sweep's charts (last).
  addSweep(data) {
    this.box.classList.add("gen--sweep");
    const views = element("div", "gen-views");
    views.setAttribute("role", "group");
    views.setAttribute("aria-label", "What the charts show");
    this.viewButtons = {};
    for (const [name, text] of Object.entries(VIEWS)) {
      const button = element("button", "gen-view", text);
      button.type = "button";
      button.addEventListener("click", () => this.showView(name));
      this.viewButtons[name] = button;
      views.append(button);
    }
    const sweep = element("div", data.sweep.shapes ? "gen-sweep" : "gen-sweep gen-sweep--alone"); // no shapes: one chart, whole width
    this.sizes = chartElement(sweep, "demo-chart gen-sizes");
    if (data.sweep.shapes) {
      const panel = element("div", "gen-shapes-panel");
      this.shapesCaption = element("p", "gen-shapes-caption");
      panel.append(this.shapesCaption);
      this.shapes = chartElement(panel, "demo-chart gen-shapes");
      sweep.append(panel);
    }
    this.box.prepend(views);
    this.box.append(sweep);
    this.summaries = summaryParts(data);
  }

  // Show the view `name` (a key of VIEWS): its charts drawn to the room they have once shown, and under
  // them the part of the summary that speaks of them.
  showView(name) {
    const result = this.result;
    if (name === "sizes" && this.replayTimer) {
      this.stopReplay();
      this.reveal(null);
    }
    this.box.classList.toggle("gen--sizes", name === "sizes");
    for (const [key, button] of Object.entries(this.viewButtons)) button.setAttribute("aria-pressed", String(key === name));
    showSummary(this.output, this.summaries[name]);
    if (name === "sizes") {
      drawSizes(this.sizes, result);
      if (this.shapes) drawShapes(this.shapes, this.shapesCaption, result);
    } else {
      drawScores(this.scores, result);
    }
  }

  // Both models' columns for `data` (the result, or the generation so far).
  fill(data) {
    this.data = data;
    this.columnsBox.replaceChildren();
    for (const kind of MODELS) {
      this.columns[kind] = modelColumn(data, kind, this);
      this.columnsBox.append(this.columns[kind].column);
    }
  }

  // Show generated token `step` (1-based; null: the latest): marked in both texts, both models' top candidates.
  show(step) {
    const made = Math.min(...MODELS.map((kind) => this.data.models[kind].picks.length));
    if (!made) return;
    const at = Math.min(Math.max(step || made, 1), made);
    for (const kind of MODELS) {
      this.columns[kind].buttons.forEach(({ button }, i) => {
        button.classList.toggle("gen-token--current", i + 1 === at);
        button.tabIndex = i + 1 === at ? 0 : -1;
      });
    }
    this.label.textContent = `${at} of ${this.data.n_characters}`;
    this.tops.replaceChildren(...MODELS.map((kind) => topTable(this.data, kind, at)));
  }

  // The character chosen (clicked, the slider, a key) stays on show when the pointer leaves.
  pin(step) {
    if (this.replayTimer) { this.stopReplay(); this.reveal(null); }
    this.choose(step);
  }

  choose(step) {
    this.pinned = step;
    this.slider.value = String(step);
    this.show(step);
  }

  showPinned() {
    this.show(this.pinned);
  }

  // A key on a character: ← → the previous or next one, Home End the first or last, ↑ ↓ the same
  // character in the other model's text; it is chosen, as a click would, and takes the focus. The key
  // is taken (preventDefault), so the deck does not move too.
  characterKey(event) {
    const token = event.target.closest?.(".gen-token");
    if (!token || event.ctrlKey || event.altKey || event.metaKey) return;
    const kind = MODELS.find((k) => this.columns[k].text.contains(token));
    const made = Math.min(...MODELS.map((k) => this.data.models[k].picks.length));
    const step = Number(token.dataset.step);
    const other = MODELS[(MODELS.indexOf(kind) + 1) % MODELS.length];
    const moves = { ArrowLeft: [step - 1, kind], ArrowRight: [step + 1, kind], Home: [1, kind], End: [made, kind],
                    ArrowUp: [step, other], ArrowDown: [step, other] };
    if (!(event.key in moves)) return;
    event.preventDefault();
    const [to, toKind] = moves[event.key];
    const at = Math.min(Math.max(to, 1), made);
    this.pin(at);
    this.columns[toKind].buttons[at - 1].button.focus();
  }

  // The texts up to `step` only (while replaying), or whole (`step` null).
  reveal(step) {
    for (const kind of MODELS) {
      this.columns[kind].buttons.forEach(({ button }, i) => {
        button.hidden = step !== null && i + 1 > step;
      });
    }
  }

  replay() {
    this.stopReplay();
    let step = 0;
    const tick = () => {
      step += 1;
      this.reveal(step);
      this.choose(step);
      if (step >= this.data.n_characters) {
        this.stopReplay();
        this.reveal(null);
      }
    };
    this.replayTimer = setInterval(tick, REPLAY_MS);
    tick();
  }

  stopReplay() {
    clearInterval(this.replayTimer);
    this.replayTimer = null;
  }
}

export function render(output, result) {
  new Showdown(output, result).showResult(result);
}

