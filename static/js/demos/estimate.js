// How long a run will take and, while it runs, how long it has left: the server's figures in words.
// The time left is counted down here between the job's reports (a demo may report seldom, the
// speed race between two timings), so it never stands still while the run goes on.
import { ApiError, postJSON } from "./api.js";

// A duration to plan with: "under a second", "about 40 s", "about 3 min 20 s".
export function aboutSeconds(seconds) {
  if (seconds < 1) return "under a second";
  if (Math.round(seconds) < 60) return `about ${Math.round(seconds)} s`;
  const tens = Math.max(60, Math.round(seconds / 10) * 10); // rounded whole: 239 s is "about 4 min", never "3 min 60 s"
  const minutes = Math.floor(tens / 60);
  const rest = tens - minutes * 60;
  return rest ? `about ${minutes} min ${rest} s` : `about ${minutes} min`;
}

const OVERDUE_SECONDS = 3; // "almost done" this long after the count reached zero, then "longer than estimated"
const TICK_MS = 1000;

// The time left of one running job. `report(seconds)` at each of its progress reports (null: not
// known); `onTick()` is called every second meanwhile, to show `words()` again.
export class TimeLeft {
  constructor(onTick) {
    this.onTick = onTick;
    this.seconds = null; // as last reported
    this.reportedAt = 0;
    this.timer = null;
  }

  report(seconds, now = performance.now()) {
    const counted = this.left(now);
    // A run past its time stays past it until a report gives it time again: a repeated "nothing
    // left" must not hold the words at "almost done" for as long as the run goes on.
    const overdue = seconds !== null && seconds < 1 && counted !== null && counted < 1;
    if (!overdue) {
      this.seconds = seconds;
      this.reportedAt = now;
    }
    if (this.timer === null) this.timer = setInterval(() => this.onTick(), TICK_MS);
  }

  stop() {
    clearInterval(this.timer);
    this.timer = null;
    this.seconds = null;
  }

  // Seconds left now: the last report's figure less the time since (below zero: overdue); or null.
  left(now = performance.now()) {
    return this.seconds === null ? null : this.seconds - (now - this.reportedAt) / 1000;
  }

  // " · about 12 s left", " · almost done", " · longer than estimated", or "" when not known.
  words(now = performance.now()) {
    const left = this.left(now);
    if (left === null) return "";
    if (left >= 1) return ` · ${aboutSeconds(left)} left`;
    return left > -OVERDUE_SECONDS ? " · almost done" : " · taking longer than estimated";
  }
}

// How long a run of the settings in the form would take here (or that it is cached), asked of
// the server whenever they change, and said beside Run and, before any result, in the placeholder.
export class RunEstimate {
  // `url`: where to ask (none: a static copy, or a demo without estimates); `waitsForPrediction`: a
  // poll beside the demo holds its result until the class has predicted. `handlers`: settings() the
  // form's parameters; invalid(error) a setting was refused (the error names it); valid() the settings
  // were accepted; showsResultFor(params) whether the result on show has these settings.
  constructor(element, { url, waitsForPrediction, settings, invalid, valid, showsResultFor }) {
    this.url = url ?? null;
    this.waitsForPrediction = waitsForPrediction;
    this.handlers = { settings, invalid, valid, showsResultFor };
    this.text = element.querySelector(".demo-estimate");
    this.placeholderTime = element.querySelector(".demo-placeholder-time");
  }

  // Whether there is a server to ask (a long run is then confirmed first).
  get available() {
    return Boolean(this.url);
  }

  // Ask the server whether these settings are cached and how long they would take here; show it.
  // Returns the answer, null if it could not be had, or undefined for a bad setting.
  async refresh(params = this.handlers.settings()) {
    if (!this.url) return null;
    let body;
    try {
      ({ body } = await postJSON(this.url, params));
    } catch (error) {
      if (error instanceof ApiError && error.status === 400) {
        this.handlers.invalid(error);
        this.text.textContent = "";
        return undefined;
      }
      return null; // the Run button will say what is wrong
    }
    this.handlers.valid();
    // A result on show for these settings says its own time in the badge; the estimate would repeat it.
    const onShow = body.cached && this.handlers.showsResultFor(this.handlers.settings());
    this.text.textContent = onShow ? "" : estimateWords(body);
    this.text.title = body.estimate ? `Measured on this server: ${body.estimate.basis}` : "";
    if (this.placeholderTime) {
      this.placeholderTime.textContent = body.cached
        ? (this.waitsForPrediction ? "A result is ready: press Run once the class has made its prediction." : "Computed already: press Run to show it.")
        : `Press Run to measure it on ${body.device}: ${estimateWords(body, true)}.`;
    }
    return body;
  }

  // A run started: the placeholder says its results come in as they are measured.
  measuring() {
    if (this.placeholderTime) this.placeholderTime.textContent = "Measuring now: the results appear here as they come in.";
  }

  // A result is on show: its badge says its time; a change of settings asks again.
  clear() {
    this.text.textContent = "";
  }
}

// `long`: as the placeholder says it, in a sentence.
function estimateWords(estimate, long = false) {
  if (estimate.cached) return long ? "instant (cached)" : "cached: instant";
  if (!estimate.estimate) return long ? "the first run here times it" : "time not measured here yet";
  return long ? `${aboutSeconds(estimate.estimate.seconds)}` : `${aboutSeconds(estimate.estimate.seconds)} on ${estimate.device}`;
}
