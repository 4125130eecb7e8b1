// Swipe left or right on a touch screen to move between slides.

const MIN_DISTANCE = 60; // pixels; shorter movements are taps or scrolls
const IGNORE = "input, textarea, select, .js-plotly-plot"; // fields and charts keep their own gestures (a tap on a button does not move)

export class Touch {
  constructor(deck) {
    this.deck = deck;
    this.start = null;
    this.onTouchStart = this.onTouchStart.bind(this);
    this.onTouchEnd = this.onTouchEnd.bind(this);
    deck.root.addEventListener("touchstart", this.onTouchStart, { passive: true });
    deck.root.addEventListener("touchend", this.onTouchEnd, { passive: true });
  }

  onTouchStart(event) {
    const touch = event.touches[0];
    this.start = event.touches.length === 1 && !event.target.closest(IGNORE)
      ? { x: touch.clientX, y: touch.clientY }
      : null;
  }

  onTouchEnd(event) {
    if (!this.start) return;
    const touch = event.changedTouches[0];
    const dx = touch.clientX - this.start.x;
    const dy = touch.clientY - this.start.y;
    this.start = null;
    if (Math.abs(dx) < MIN_DISTANCE || Math.abs(dx) < 2 * Math.abs(dy)) return; // a scroll, not a swipe
    if (dx < 0) this.deck.next();
    else this.deck.prev();
  }
}
