// The deck: which slide is shown, moving between slides, and the browser history.
// Every other controller listens for the "slidechange" event this class sends.

export class Deck extends EventTarget {
  constructor(root) {
    super();
    this.root = root;
    this.slides = [...root.querySelectorAll(".slide")];
    this.siteTitle = root.dataset.siteTitle;
    this.index = Number(root.dataset.current) - 1;
    this.onPopState = this.onPopState.bind(this);
    window.addEventListener("popstate", this.onPopState);
    // A static export addresses slides as #/n (a file on disk has no /slides/n); typing another
    // #/n in the address bar moves there too.
    this.onHashChange = this.onHashChange.bind(this);
    window.addEventListener("hashchange", this.onHashChange);
    const fromHash = this.slideNumberForHash();
    if (fromHash) this.goTo(fromHash, { push: false });
    // Remember the first slide in history so Back returns to it.
    history.replaceState({ n: this.index + 1 }, "", location.href);
  }

  get total() { return this.slides.length; }
  get current() { return this.slides[this.index]; }
  get n() { return this.index + 1; }

  // Show slide n (1-based). `push` adds a history entry; Back/Forward pass false.
  goTo(n, { push = true } = {}) {
    const index = Math.min(Math.max(Math.round(n), 1), this.total) - 1;
    if (Number.isNaN(index) || index === this.index) return;
    const previous = this.current;
    // The focus goes with the slide (a screen reader then reads its title), unless it is elsewhere.
    const focused = document.activeElement;
    const followFocus = !focused || focused === document.body || previous.contains(focused);
    this.index = index;
    previous.hidden = true;
    this.current.hidden = false;
    if (followFocus) this.current.focus({ preventScroll: true });
    document.title = `${this.current.dataset.title} · ${this.siteTitle}`;
    if (push) history.pushState({ n: this.n }, "", this.current.dataset.url);
    this.dispatchEvent(new CustomEvent("slidechange", { detail: { n: this.n, slide: this.current, previous } }));
  }

  next() { this.goTo(this.n + 1); }
  prev() { this.goTo(this.n - 1); }
  first() { this.goTo(1); }
  last() { this.goTo(this.total); }

  onPopState(event) {
    const n = event.state?.n ?? this.slideNumberForHash() ?? this.slideNumberForPath(location.pathname);
    if (n) this.goTo(n, { push: false });
  }

  // An address typed by hand (a new history entry with no state): popstate may not come with it.
  onHashChange() {
    const n = this.slideNumberForHash();
    if (n) this.goTo(n, { push: false });
  }

  slideNumberForHash() {
    const match = /^#\/(\d+)$/.exec(location.hash);
    return match ? Number(match[1]) : null;
  }

  slideNumberForPath(path) {
    const index = this.slides.findIndex((slide) => slide.dataset.url === path);
    return index >= 0 ? index + 1 : 1;
  }
}
