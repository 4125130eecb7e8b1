// The badge beside a demo's result: where the result came from (cached, trained just now, a frozen
// copy), on what machine, how fast and at which budget; or how a run stands ("training…", "cancelled", "stopped").
function formatSeconds(seconds) {
  return seconds < 10 ? `${seconds.toFixed(2)} s` : `${seconds.toFixed(1)} s`;
}

export class Badge {
  constructor(element) {
    this.element = element.querySelector(".demo-badge");
  }

  get text() {
    return this.element.textContent;
  }

  // `state` (for the style): the result's source or the run's state; none: "".
  show(text, state) {
    this.element.textContent = text;
    if (state) this.element.dataset.state = state;
    else delete this.element.dataset.state;
  }

  // `source`: "cached", "fresh" (trained just now) or "frozen" (a static export). After the device and
  // time, the result's budget (demos/runtime/budgets.py): "the GPU default", "the CPU prepared run", or
  // "settings chosen in class" (the device is said already). A result carried in from another machine
  // (engine/carried.py) says where and when it was measured instead. The time and the budget never
  // break across lines, so on a phone the badge wraps between its parts.
  showResult(result, source) {
    const lead = { cached: "cached · computed on ", fresh: "trained just now on ", frozen: "frozen copy · computed on " }[source];
    const where = result.carried
      ? `${source === "frozen" ? "frozen copy · " : ""}carried · ${result.carried.text}, in `
      : `${lead}${result.device} in `;
    const parts = [where, unbroken(formatSeconds(result.train_seconds))];
    const run = result.budget_run;
    if (run?.text) parts.push(" · ", unbroken(run.run === "chosen" ? "settings chosen in class" : run.text));
    if (result.noisy) parts.push(" · noisy timings (a busy machine)");
    this.element.replaceChildren(...parts);
    this.element.dataset.state = result.carried ? "carried" : source;
  }

  // Words without a state of their own (the style stays as it was).
  say(text) {
    this.element.textContent = text;
  }
}

function unbroken(text) {
  const span = document.createElement("span");
  span.className = "demo-badge-part";
  span.textContent = text;
  return span;
}
