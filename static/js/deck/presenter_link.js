// S opens the presenter window. This side tells it which slide is shown and how the slide's
// demo is doing, and moves when the presenter window asks. The presenter never runs a demo:
// it shows the state of the widget in this window, and pictures of this window's current and
// next slide: copies of their markup (the charts are SVG, so they come along), sent again
// whenever the current slide changes on screen.
import { openChannel } from "./channel.js";

const PICTURE_EVERY_MS = 400; // at most this often while a chart redraws or a progress bar moves

// The markup of a slide as it looks now, for a picture: shown, and without ids (they would clash).
export function slidePicture(slide) {
  const copy = slide.cloneNode(true);
  copy.hidden = false;
  for (const element of [copy, ...copy.querySelectorAll("[id]")]) element.removeAttribute("id");
  return copy.outerHTML;
}

// The rules the page added to itself (Plotly's, which stack a chart's layers): a picture needs them too.
function addedStyles() {
  return [...document.querySelectorAll("style")]
    .flatMap((style) => [...(style.sheet?.cssRules ?? [])].map((rule) => rule.cssText))
    .join("\n");
}

// The canvas as this window shows it (static/js/deck/scale.js): a picture has the same shape.
function stageSize() {
  const style = getComputedStyle(document.documentElement);
  return { width: style.getPropertyValue("--stage-width").trim(), height: style.getPropertyValue("--stage-height").trim() };
}

export class PresenterLink {
  constructor(deck, widgets, blank) {
    this.deck = deck;
    this.widgets = widgets;
    this.blank = blank;
    this.url = deck.root.dataset.presenterUrl;
    this.presenterOpen = false; // no pictures are made until a presenter window says hello
    this.pictureTimer = null;
    this.onMessage = this.onMessage.bind(this);
    this.onSlideChange = this.onSlideChange.bind(this);
    this.onDemoState = this.onDemoState.bind(this);
    this.onSlideMutation = this.schedulePicture.bind(this);
    this.observer = new MutationObserver(this.onSlideMutation);
    this.channel = openChannel(this.onMessage);
    deck.addEventListener("slidechange", this.onSlideChange);
    deck.root.addEventListener("demostate", this.onDemoState);
  }

  open() {
    window.open(this.url, "great-shift-presenter", "popup,width=1280,height=800");
  }

  onSlideChange() {
    this.sendSlide();
    if (this.presenterOpen) this.watchCurrentSlide();
  }

  sendSlide() {
    const n = this.deck.n;
    this.channel.postMessage({ type: "slide", n });
    const widget = this.widgets.get(this.deck.current);
    this.channel.postMessage({ type: "demo", n, state: widget ? widget.mirrorState() : null });
  }

  // Pictures of the current slide and the next; the current one again whenever it changes.
  watchCurrentSlide() {
    this.observer.disconnect();
    this.observer.observe(this.deck.current, { subtree: true, childList: true, attributes: true, characterData: true });
    this.sendPicture(this.deck.n);
    this.sendPicture(this.deck.n + 1);
  }

  sendPicture(n) {
    const slide = this.deck.slides[n - 1];
    if (slide) this.channel.postMessage({ type: "picture", n, html: slidePicture(slide), css: addedStyles(), stage: stageSize() });
  }

  schedulePicture() {
    if (this.pictureTimer !== null) return; // one is coming: it will show this change too
    this.pictureTimer = setTimeout(() => {
      this.pictureTimer = null;
      this.sendPicture(this.deck.n);
    }, PICTURE_EVERY_MS);
  }

  onDemoState(event) {
    if (event.target.closest(".slide") !== this.deck.current) return;
    this.channel.postMessage({ type: "demo", n: this.deck.n, state: event.detail });
  }

  onMessage(message) {
    if (message.type === "goto") this.deck.goTo(message.n);
    else if (message.type === "hello") {
      this.presenterOpen = true;
      this.sendSlide();
      this.watchCurrentSlide();
    } else if (message.type === "blank") this.blank.toggle();
  }
}
