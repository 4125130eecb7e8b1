// Follow mode. The lecturer's tab ("leading") posts its slide and demo results to the server;
// every other page follows them over Server-Sent Events, until the student moves on their own or
// runs a demo of their own (then R or the banner's button rejoins: a student's own run is never
// replaced by the lecturer's behind their back). A dropped connection reconnects by itself, and the
// server sends the current state first, so a student catches up at once.
import { instructorToken, postJSON } from "../demos/api.js";

const LEADING_KEY = "great-shift-leading"; // per tab: only the tab that switched follow on leads

export class Follow {
  constructor(deck, widgets) {
    this.deck = deck;
    this.widgets = widgets;
    this.url = deck.root.dataset.followUrl;
    this.banner = deck.root.querySelector(".follow-banner");
    this.bannerText = this.banner.querySelector(".follow-text");
    this.rejoinButton = this.banner.querySelector(".follow-rejoin");
    this.leading = sessionStorage.getItem(LEADING_KEY) === "1";
    this.following = true;
    this.ownRun = false; // not following because the student ran a demo of their own
    this.state = null;
    this.applying = false; // true while this page moves because the lecturer did
    this.lastPosted = null;

    this.onSlideChange = this.onSlideChange.bind(this);
    this.onDemoState = this.onDemoState.bind(this);
    this.onOwnRun = this.onOwnRun.bind(this);
    deck.addEventListener("slidechange", this.onSlideChange);
    deck.root.addEventListener("demostate", this.onDemoState);
    deck.root.addEventListener("demoownrun", this.onOwnRun);
    this.source = null;
    this.connect();
  }

  // The stream of the lecturer's moves. The lecturer's own tabs (leading, or in the browser that
  // holds the token) say so, so that the presenter view's count of students leaves them out; the
  // token itself is not sent (a student who did the same would only go uncounted).
  connect() {
    const url = this.deck.root.dataset.followEventsUrl;
    if (!url) return; // a static copy: no server to follow
    this.source?.close();
    this.source = new EventSource(this.leading || instructorToken.get() ? `${url}?lecturer` : url);
    this.source.addEventListener("follow", (event) => this.onState(JSON.parse(event.data)));
    this.source.addEventListener("pointer", (event) => this.onPointer(JSON.parse(event.data)));
  }

  // The lecturer's pointer ({x, y, n} or {x: null}): passed on to be drawn (static/js/deck/pointer.js)
  // while this page follows the lecturer and is on their slide, and taken away otherwise.
  onPointer(pointer) {
    this.pointer = pointer;
    this.showPointer();
  }

  showPointer() {
    const { x, y, n } = this.pointer ?? { x: null };
    const shown = x !== null && this.state?.on && this.following && !this.leading && n === this.deck.n;
    this.deck.root.dispatchEvent(new CustomEvent("lecturerpointer", { detail: shown ? { x, y } : null }));
  }

  async setLeading(on) {
    await postJSON(this.url, { on, n: this.deck.n, demo: null });
    const changed = this.leading !== on;
    this.leading = on;
    if (on) sessionStorage.setItem(LEADING_KEY, "1");
    else sessionStorage.removeItem(LEADING_KEY);
    if (changed) this.connect();
    if (on) this.postCurrentDemo();
    this.render();
  }

  rejoin() {
    this.following = true;
    this.ownRun = false;
    this.render();
    if (this.state?.on) this.apply();
  }

  onState(state) {
    this.state = state;
    if (!state.on) { // off: when it is switched on again, every student follows afresh
      this.following = true;
      this.ownRun = false;
    }
    if (!state.on && this.leading) { // switched off elsewhere
      this.leading = false;
      sessionStorage.removeItem(LEADING_KEY);
      this.connect();
    }
    this.render();
    if (state.on && !this.leading && this.following) this.apply();
  }

  apply() {
    const { n, demo } = this.state;
    if (this.deck.n !== n) {
      this.applying = true;
      this.deck.goTo(n);
      this.applying = false;
    }
    const widget = this.widgets.get(this.deck.current);
    // A demo whose poll keeps its result back comes with a `reason` and nothing to fetch.
    if (!demo || demo.reason || !widget) return;
    widget.showLecturers(demo, () => this.following && this.state?.demo === demo);
  }

  onSlideChange() {
    this.showPointer(); // the lecturer's dot is on the lecturer's slide only
    if (this.applying) return;
    if (this.leading) {
      this.post({ n: this.deck.n });
      this.lastPosted = null; // a new slide has no demo on the server: post this one's, even if posted before
      this.postCurrentDemo();
    } else if (this.state?.on && this.following) {
      this.following = false; // the student moved on their own
      this.render();
    }
  }

  // A student ran a demo of their own: its run and result stay theirs until they rejoin.
  onOwnRun() {
    // Before the first state arrives (a reload resumes the run first), follow mode may be on.
    if (this.leading || this.state?.on === false || !this.following) return;
    this.following = false;
    this.ownRun = true;
    this.render();
  }

  // The lecturer's demo: a job the class can watch, or a result the class can fetch from the cache.
  onDemoState(event) {
    if (!this.leading || event.target.closest(".slide") !== this.deck.current) return;
    this.postDemo(event.detail);
  }

  postCurrentDemo() {
    const widget = this.widgets.get(this.deck.current);
    if (widget) this.postDemo(widget.mirrorState());
  }

  postDemo(state) {
    let demo = null;
    if (state.status === "running" && state.job) demo = { id: state.demo, params: state.params ?? {}, job: state.job };
    else if (state.status === "done" && state.params) demo = { id: state.demo, params: state.params, job: null };
    if (!demo) {
      // The lecturer's screen took its result away (a poll opened, or was reset): so does the class's.
      if (state.status === "idle" && this.lastPosted) {
        this.lastPosted = null;
        this.post({ demo: null });
      }
      return;
    }
    const key = JSON.stringify(demo);
    if (key === this.lastPosted) return; // progress updates need no new post
    this.lastPosted = key;
    this.post({ demo });
  }

  // One post at a time, in order: two quick key presses send two posts, and if the second
  // overtook the first on the network the class would be left on the earlier slide. Changes made
  // while a post is on its way wait as one: a burst of presses reaches the class as its last slide
  // in one more round trip, not one per press (and a new slide drops the previous one's demo).
  post(changes) {
    if (this.waiting) {
      if ("n" in changes) delete this.waiting.demo;
      Object.assign(this.waiting, changes);
      return;
    }
    this.waiting = { ...changes };
    this.posting = (this.posting ?? Promise.resolve()).then(() => {
      const sending = this.waiting;
      this.waiting = null;
      return postJSON(this.url, sending);
    }).catch((error) => {
      this.bannerText.textContent = `Follow mode: ${error.message}`;
    });
  }

  render() {
    const on = Boolean(this.state?.on);
    this.banner.hidden = !on;
    this.banner.dataset.mode = this.leading ? "leading" : this.following ? "following" : "free";
    this.bannerText.textContent = this.leading
      ? "You are leading: the class follows your slides"
      : this.following ? "Following the lecturer"
        : this.ownRun ? "Your own run: not following the lecturer" : "Browsing on your own";
    this.rejoinButton.hidden = !on || this.leading || this.following;
    this.showPointer();
  }
}
