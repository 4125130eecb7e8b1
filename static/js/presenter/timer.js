// The presenter's clock and elapsed-time timer, with pause and reset.

function twoDigits(value) { return String(value).padStart(2, "0"); }

export function formatElapsed(ms) {
  const seconds = Math.floor(ms / 1000);
  return `${twoDigits(Math.floor(seconds / 3600))}:${twoDigits(Math.floor(seconds / 60) % 60)}:${twoDigits(seconds % 60)}`;
}

export class Timer {
  constructor(root) {
    this.clock = root.querySelector(".presenter-time");
    this.elapsed = root.querySelector(".presenter-elapsed");
    this.pauseButton = root.querySelector(".presenter-pause");
    this.startedAt = Date.now();
    this.pausedAt = null;
    this.onPause = this.togglePause.bind(this);
    this.onReset = this.reset.bind(this);
    this.pauseButton.addEventListener("click", this.onPause);
    root.querySelector(".presenter-reset").addEventListener("click", this.onReset);
    this.tick = this.render.bind(this);
    setInterval(this.tick, 250);
    this.render();
  }

  get elapsedMs() { return (this.pausedAt ?? Date.now()) - this.startedAt; }

  togglePause() {
    if (this.pausedAt === null) this.pausedAt = Date.now();
    else { this.startedAt += Date.now() - this.pausedAt; this.pausedAt = null; }
    this.pauseButton.textContent = this.pausedAt === null ? "Pause" : "Resume";
    this.elapsed.dataset.paused = String(this.pausedAt !== null);
    this.render();
  }

  reset() {
    this.startedAt = Date.now();
    if (this.pausedAt !== null) this.pausedAt = this.startedAt;
    this.render();
  }

  render() {
    const now = new Date();
    this.clock.textContent = `${twoDigits(now.getHours())}:${twoDigits(now.getMinutes())}`;
    this.elapsed.textContent = formatElapsed(this.elapsedMs);
  }
}
