// The machine behind the demos, a measured matrix-product speed, and which demos
// of the deck are trained and cached already (with a button for the instructor to warm them all).
import { getJSON, warmAllDemos } from "../api.js";
import { chartElement, modelColors, plot } from "../charts.js";
import { element } from "./shared/common.js";

const POLL_MS = 1000;

function factList(result) {
  const list = element("dl", "facts");
  const facts = [
    ["Device", result.device],
    ["PyTorch", `${result.torch} · Python ${result.python}`],
    ["CPU", `${result.cpu_cores} cores · ${result.torch_threads} threads for PyTorch`],
  ];
  if (result.gpu_name) facts.push(["GPU", `${result.gpu_name} · ${result.gpu_memory_gib} GiB · CUDA ${result.cuda_version}`]);
  for (const [name, value] of facts) list.append(element("dt", "", name), element("dd", "", value));
  return list;
}

function drawSpeed(chart, result) {
  const labels = result.matmul.map((t) => `${t.n}×${t.n}`);
  plot(chart, [{
    type: "bar",
    x: labels,
    y: result.matmul.map((t) => t.gflops),
    marker: { color: modelColors().transformer },
    text: result.matmul.map((t) => `${t.gflops.toFixed(0)}`),
    textposition: "outside",
    hovertemplate: "%{x}: %{y:.1f} GFLOP/s<extra></extra>",
  }], {
    title: { text: "Matrix product speed (measured)", font: { size: 16 } },
    yaxis: { title: { text: "GFLOP/s" }, rangemode: "tozero" },
    margin: { l: 60, r: 10, t: 36, b: 36 },
  });
}

// The deck's demos as small chips: slide number, demo id, and its state.
class CacheStatus {
  constructor(parent) {
    const deckRoot = document.getElementById("deck");
    this.demosUrl = deckRoot.dataset.demosUrl;
    this.warmUrl = deckRoot.dataset.warmUrl;
    this.slides = [...deckRoot.querySelectorAll(".slide")].map((slide) => ({
      n: slide.dataset.n, demo: slide.querySelector(".demo").dataset.demo,
    }));
    this.box = element("div", "cache-status instructor-only"); // the lecturer's: demo ids, cache, warming
    this.heading = element("p", "cache-status-heading", "Demos in this deck");
    this.chips = element("ol", "cache-chips");
    this.warmButton = element("button", "cache-warm", "Warm all demos");
    this.warmButton.type = "button";
    this.message = element("p", "cache-message");
    this.message.setAttribute("role", "status");
    this.box.append(this.heading, this.chips, this.warmButton, this.message);
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
    this.chips.replaceChildren(...this.slides.map(({ n, demo }) => this.chip(n, demo, byId.get(demo))));
    const cached = this.slides.filter(({ demo }) => byId.get(demo)?.cached).length;
    this.heading.textContent = `Demos in this deck: ${cached} of ${this.slides.length} ${this.demosUrl ? "cached" : "frozen in this copy"}`;
    const running = demos.some((demo) => demo.job);
    clearTimeout(this.timer);
    if (running) this.timer = setTimeout(() => this.refresh(), POLL_MS);
  }

  chip(n, demoId, demo) {
    const chip = element("li", "cache-chip");
    let state = "missing", label = "not built yet";
    if (demo?.job) [state, label] = ["training", `${demo.job.status} ${Math.round(demo.job.progress * 100)}%`];
    else if (demo?.cached) [state, label] = ["cached", demo.frozen ? "frozen" : "cached"];
    else if (demo) [state, label] = ["cold", "not cached"];
    chip.dataset.state = state;
    chip.title = `Slide ${n}: ${demoId} (${label})`;
    chip.append(element("span", "cache-chip-n", n), element("span", "cache-chip-id", demoId), element("span", "cache-chip-state", label));
    return chip;
  }

  async warm() {
    this.warmButton.disabled = true;
    this.message.textContent = await warmAllDemos(this.warmUrl);
    this.warmButton.disabled = false;
    this.refresh();
  }
}

export function render(output, result) {
  output.replaceChildren();
  const layout = element("div", "system-check");
  const left = element("div", "system-check-machine");
  left.append(factList(result));
  const chart = chartElement(left, "demo-chart system-check-chart");
  layout.append(left);
  output.append(layout);
  drawSpeed(chart, result);
  output.cacheStatus = new CacheStatus(layout);
  output.cacheStatus.refresh();
}

// The slide is shown again: the cache may have changed since.
export function onShow(output) {
  output.cacheStatus?.refresh();
}
