// The badge beside a demo's result: where the result came from (cached, trained just now, a frozen
// copy), on what machine and how fast; or how a run stands ("training…", "cancelled", "stopped").
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

  // `source`: "cached", "fresh" (trained just now) or "frozen" (a static export).
  showResult(result, source) {
    const where = `${result.device} in ${formatSeconds(result.train_seconds)}${result.noisy ? " · noisy timings (a busy machine)" : ""}`;
    const text = { cached: `cached · computed on ${where}`, fresh: `trained just now on ${where}`, frozen: `frozen copy · computed on ${where}` }[source];
    this.show(text, source);
  }

  // Words without a state of their own (the style stays as it was).
  say(text) {
    this.element.textContent = text;
  }
}
