// How long a run will take and, while it runs, how long it has left: the server's figures in words.
// The time left is counted down here between the job's reports (a demo may report seldom, the
// speed race between two timings), so it never stands still while the run goes on.

// A duration to plan with: "under a second", "about 40 s", "about 3 min 20 s".
export function aboutSeconds(seconds) {
  if (seconds < 1) return "under a second";
  if (seconds < 60) return `about ${Math.round(seconds)} s`;
  const minutes = Math.floor(seconds / 60);
  const rest = Math.round((seconds - minutes * 60) / 10) * 10;
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
