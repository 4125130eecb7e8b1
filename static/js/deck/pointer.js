// The lecturer's pointer: a red dot on the slide. In the slides window it follows the mouse while the
// lecturer holds L, or goes where the presenter view points (its toggle, over its "On screen"
// picture). A page that leads the class (follow mode) sends the place to the server; a following page
// draws the lecturer's dot, which follow.js passes on when the student is on the lecturer's slide.
// A place is a fraction of the canvas (0..1 each way), so a phone's column and a projector's scaled
// canvas agree on it. Releasing L, the toggle off, the window losing focus or the mouse leaving the
// slide hides it, here and on every follower's screen.
import { postJSON } from "../demos/api.js";
import { openChannel } from "./channel.js";

const SEND_EVERY_MS = 50; // at most one post per 50 ms, always ending with the newest place
const RETRY_AFTER_MS = 1000;

// The place of (clientX, clientY) in `box` (a canvas's bounding box) as fractions, or null outside it.
export function placeIn(box, clientX, clientY) {
  const x = (clientX - box.left) / box.width, y = (clientY - box.top) / box.height;
  if (!(x >= 0 && x <= 1 && y >= 0 && y <= 1)) return null;
  return { x: Math.round(x * 10000) / 10000, y: Math.round(y * 10000) / 10000 };
}

// Draws `place` ({x, y} or null) as the dot `dot` (its stylesheet places it by --pointer-x/-y).
export function drawDot(dot, place) {
  dot.hidden = !place;
  if (!place) return;
  dot.style.setProperty("--pointer-x", String(place.x));
  dot.style.setProperty("--pointer-y", String(place.y));
}

// Whether two places ({x, y} or null) are the same.
export const samePlace = (a, b) => a === b || (Boolean(a) && Boolean(b) && a.x === b.x && a.y === b.y);

export class Pointer {
  constructor(deck, follow) {
    this.deck = deck;
    this.follow = follow;
    this.url = deck.root.dataset.pointerUrl; // none in a static copy: nothing to send
    this.canvas = deck.root.querySelector(".canvas");
    this.dot = deck.root.querySelector(".pointer-dot");
    this.held = false; // L is down
    this.mouse = null; // {clientX, clientY}: where the mouse was last seen in this window
    this.fromPresenter = null; // the place the presenter view points at
    this.own = null; // this window's place: from the mouse or the presenter view
    this.lecturers = null; // the lecturer's place, as follow mode passes it on
    this.sent = undefined; // the place the server has (null: hidden; undefined: not known)
    this.waiting = undefined; // the newest place not sent yet
    this.sending = false;
    this.timer = null;
    this.lastPostAt = -Infinity;
    // Each post names this window and counts: the server drops one overtaken by a later post of this
    // window (the hide sent as the window closes may arrive before the last move).
    this.page = Math.random().toString(36).slice(2, 14);
    this.seq = 0;

    this.onMove = (event) => { this.mouse = { clientX: event.clientX, clientY: event.clientY }; if (this.held) this.update(); };
    this.onLeave = () => { this.mouse = null; if (this.held) this.update(); };
    this.onKeyUp = (event) => { if (event.key.toUpperCase() === "L") this.release(); };
    this.onBlur = () => this.release();
    // The lecturer closes or leaves the slides window with the pointer shown: the class's dot goes too.
    // A place may be shown, in flight or waiting for its turn; a keepalive post outlives the page.
    // After that hide the window sends nothing more until it is shown again: a move whose turn came
    // as it closed (an answer arriving, a timer) would be numbered after the hide and show the dot again.
    this.onPageHide = () => {
      const shown = this.sent || this.sending || this.waiting;
      this.hidden = true;
      clearTimeout(this.timer);
      this.timer = null;
      this.waiting = undefined;
      if (!this.url || !this.follow.leading || !shown) return;
      postJSON(this.url, this.numbered(null), { keepalive: true }).catch(() => {});
    };
    this.onPageShow = () => { this.hidden = false; this.sent = undefined; }; // back from the browser's cache
    this.onLecturers = (event) => { this.lecturers = event.detail; this.render(); };
    this.onSlideChange = this.onSlideChange.bind(this);
    document.addEventListener("pointermove", this.onMove);
    document.documentElement.addEventListener("mouseleave", this.onLeave);
    document.addEventListener("keyup", this.onKeyUp);
    window.addEventListener("blur", this.onBlur);
    window.addEventListener("pagehide", this.onPageHide);
    window.addEventListener("pageshow", this.onPageShow);
    deck.root.addEventListener("lecturerpointer", this.onLecturers);
    deck.addEventListener("slidechange", this.onSlideChange);
    this.channel = openChannel((message) => {
      if (message.type !== "pointer") return;
      this.fromPresenter = message.x === null ? null : { x: message.x, y: message.y };
      this.update();
    });
  }

  // L: called again and again while the key repeats.
  hold() {
    if (this.held) return;
    this.held = true;
    this.update();
  }

  release() {
    if (!this.held) return;
    this.held = false;
    this.update();
  }

  // While L is held, the mouse (off the slide: no dot); otherwise the presenter view's place.
  ownPlace() {
    if (!this.held) return this.fromPresenter;
    return this.mouse ? placeIn(this.canvas.getBoundingClientRect(), this.mouse.clientX, this.mouse.clientY) : null;
  }

  update() {
    this.own = this.ownPlace();
    this.render();
    if (this.url && this.follow.leading) this.send(this.own);
  }

  render() {
    drawDot(this.dot, this.own ?? (this.follow.leading ? null : this.lecturers));
  }

  // The server puts the lecturer's slide on each place: on a new slide, post the place again once
  // follow mode has posted the slide.
  onSlideChange() {
    if (!this.own || !this.follow.leading) return;
    (this.follow.posting ?? Promise.resolve()).then(() => {
      this.sent = undefined;
      this.update();
    });
  }

  // The body of a post: the place ({x, y}, or null to hide) with this window's name and next number.
  numbered(place) {
    this.seq += 1;
    return { x: place?.x ?? null, y: place?.y ?? null, page: this.page, seq: this.seq };
  }

  // One post at a time, at most one per SEND_EVERY_MS; a move made meanwhile replaces the waiting
  // one, so the server gets the newest place and never a queue of old ones.
  send(place) {
    this.waiting = place;
    this.flush();
  }

  flush() {
    if (this.hidden || this.sending || this.timer !== null || this.waiting === undefined) return;
    if (samePlace(this.waiting, this.sent)) {
      this.waiting = undefined;
      return;
    }
    const wait = this.lastPostAt + SEND_EVERY_MS - performance.now();
    if (wait > 0) {
      this.timer = setTimeout(() => { this.timer = null; this.flush(); }, wait);
      return;
    }
    const place = this.waiting;
    this.waiting = undefined;
    this.sending = true;
    this.lastPostAt = performance.now();
    postJSON(this.url, this.numbered(place))
      .then(() => { this.sent = place; })
      .catch((error) => {
        this.sent = undefined;
        // Lost on the way (no answer, or the server busy): again in a second, unless a newer place waits.
        if (this.waiting === undefined && (error.status === 0 || error.status >= 500)) {
          this.waiting = place;
          this.lastPostAt += RETRY_AFTER_MS;
        }
      })
      .finally(() => { this.sending = false; this.flush(); });
  }
}
