// The machine behind the demos, a measured matrix-product speed, and which demos
// of the deck are trained and cached already (with a button for the instructor to warm them all).
import { getJSON, warmAllDemos } from "../api.js";
import { FONT_SIZE, modelColors } from "../chart_styles.js";
import { chartElement, plot } from "../charts.js";
import { element } from "./shared/common.js";

const POLL_MS = 1000;

function plural(count, word) {
  return `${count} ${word}${count === 1 ? "" : "s"}`;
}

// What the machine is; how PyTorch was set up on it is for the instructor only.
function factList(result) {
  const list = element("dl", "facts");
  const cpu = element("dd", "", plural(result.cpu_cores, "core"));
  cpu.append(element("span", "instructor-only", ` · ${plural(result.torch_threads, "thread")} for PyTorch`));
  const facts = [
    ["Device", element("dd", "", result.device)],
    ["PyTorch", element("dd", "", `${result.torch} · Python ${result.python}`)],
    ["CPU", cpu],
  ];
  if (result.gpu_name) facts.push(["GPU", element("dd", "", `${result.gpu_name} · ${result.gpu_memory_gib} GiB · CUDA ${result.cuda_version}`)]);
  for (const [name, value] of facts) list.append(element("dt", "", name), value);
  return list;
}

function drawSpeed(chart, result) {
  const labels = result.matmul.map((t) => `${t.n}×${t.n}`);
  const top = Math.max(...result.matmul.map((t) => t.gflops));
  plot(chart, [{
    type: "bar",
    x: labels,
    y: result.matmul.map((t) => t.gflops),
    marker: { color: modelColors().transformer },
    text: result.matmul.map((t) => `${t.gflops.toFixed(0)}`),
    textposition: "outside",
    hovertemplate: "%{x}: %{y:.1f} GFLOP/s<extra></extra>",
  }], {
    title: { text: "Matrix product speed", font: { size: FONT_SIZE.title }, x: 0, xanchor: "left", xref: "paper", y: 1, yref: "container", yanchor: "top", pad: { t: 8 } },
    xaxis: { title: { text: "matrix size", standoff: 4 } },
    yaxis: { title: { text: "GFLOP/s", standoff: 4 }, range: [0, top * 1.3], nticks: 4 }, // room for the labels above the bars
    margin: { l: 10, r: 10, t: 44, b: 10 },
  });
}

// Which demos are ready: one chip per slide, its number and a mark for its state, in words in a
// key below and in each chip's tooltip. Demo ids are the instructor's business, not the class's.
const STATES = {
  cached: ["✓", "ready"],
  frozen: ["✓", "frozen in this copy"],
  training: ["◷", "training"],
  cold: ["–", "not computed yet"],
  missing: ["–", "not computed yet"],
};

class CacheStatus {
  constructor(parent) {
    const deckRoot = document.getElementById("deck");
    this.demosUrl = deckRoot.dataset.demosUrl;
    this.warmUrl = deckRoot.dataset.warmUrl;
    this.slides = [...deckRoot.querySelectorAll(".slide:not(.slide--recap)")].map((slide) => ({ // the recap trains nothing
      n: slide.dataset.n, title: slide.dataset.title, demo: slide.querySelector(".demo").dataset.demo,
    }));
    this.box = element("div", "cache-status instructor-only"); // the lecturer's: demo ids, cache, warming
    this.heading = element("p", "cache-status-heading", "Demos in this deck");
    this.chips = element("ol", "cache-chips");
    this.key = element("p", "cache-key", "✓ ready · ◷ training · – not yet");
    this.warmButton = element("button", "cache-warm instructor-only", "Warm all demos");
    this.warmButton.type = "button";
    this.message = element("p", "cache-message");
    this.message.setAttribute("role", "status");
    this.box.append(this.heading, this.chips, this.key, this.warmButton, this.message);
    parent.append(this.box);
    this.timer = null;
    this.onWarm = this.warm.bind(this);
    this.warmButton.addEventListener("click", this.onWarm);
  }

  // In a static export, the demos' states are the results frozen into the page.
  frozenStates() {
    const frozen = JSON.parse(document.getElementById("frozen-results").textContent);
    this.warmButton.hidden = true;
    return this.slides.map(({ demo }) => ({ id: demo, cached: demo in frozen, frozen: true }));
  }

  async refresh() {
    let demos;
    try {
      demos = this.demosUrl ? (await getJSON(this.demosUrl)).body.demos : this.frozenStates();
    } catch (error) {
      this.message.textContent = error.message;
      return;
    }
    const byId = new Map(demos.map((demo) => [demo.id, demo]));
    this.chips.replaceChildren(...this.slides.map((slide) => this.chip(slide, byId.get(slide.demo))));
    const cached = this.slides.filter(({ demo }) => byId.get(demo)?.cached).length;
    this.heading.textContent = `Demos in this deck: ${cached} of ${this.slides.length} ${this.demosUrl ? "cached" : "frozen in this copy"}`;
    const running = demos.some((demo) => demo.job);
    clearTimeout(this.timer);
    if (running) this.timer = setTimeout(() => this.refresh(), POLL_MS);
  }

  chip({ n, title, demo: demoId }, demo) {
    const chip = element("li", "cache-chip");
    let state = "missing";
    if (demo?.job) state = "training";
    else if (demo?.cached) state = demo.frozen ? "frozen" : "cached";
    else if (demo) state = "cold";
    const [mark, words] = STATES[state];
    const done = state === "training" ? ` ${Math.round(demo.job.progress * 100)}%` : "";
    chip.dataset.state = state === "frozen" ? "cached" : state;
    chip.title = `Slide ${n}, ${title}: ${words}${done} (demo ${demoId})`;
    chip.append(element("span", "cache-chip-n", n), element("span", "cache-chip-state", `${mark}${done}`));
    return chip;
  }

  async warm() {
    this.warmButton.disabled = true;
    this.message.textContent = await warmAllDemos(this.warmUrl);
    this.warmButton.disabled = false;
    this.refresh();
  }
}

// The cache's status shown in each output, asked again when its slide is shown.
const statuses = new WeakMap();

export function render(output, result) {
  output.replaceChildren();
  const layout = element("div", "system-check");
  const left = element("div", "system-check-machine");
  left.append(factList(result));
  layout.append(left);
  output.append(layout);
  const status = new CacheStatus(left);
  statuses.set(output, status);
  drawSpeed(chartElement(layout, "demo-chart system-check-chart"), result);
  status.refresh();
}

// The slide is shown again: the cache may have changed since.
export function onShow(output) {
  statuses.get(output)?.refresh();
}
