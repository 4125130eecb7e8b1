// S opens the presenter window. This side tells it which slide is shown and how the slide's
// demo is doing, and moves when the presenter window asks. The presenter never runs a demo:
// it shows the state of the widget in this window.
import { openChannel } from "./channel.js";

export class PresenterLink {
  constructor(deck, widgets, blank) {
    this.deck = deck;
    this.widgets = widgets;
    this.blank = blank;
    this.url = deck.root.dataset.presenterUrl;
    this.onMessage = this.onMessage.bind(this);
    this.onSlideChange = this.sendSlide.bind(this);
    this.onDemoState = this.onDemoState.bind(this);
    this.channel = openChannel(this.onMessage);
    deck.addEventListener("slidechange", this.onSlideChange);
    deck.root.addEventListener("demostate", this.onDemoState);
  }

  open() {
    window.open(this.url, "great-shift-presenter", "popup,width=1200,height=760");
  }

  sendSlide() {
    const n = this.deck.n;
    this.channel.postMessage({ type: "slide", n });
    const widget = this.widgets.get(this.deck.current);
    this.channel.postMessage({ type: "demo", n, state: widget ? widget.state : null });
  }

  onDemoState(event) {
    if (event.target.closest(".slide") !== this.deck.current) return;
    this.channel.postMessage({ type: "demo", n: this.deck.n, state: event.detail });
  }

  onMessage(message) {
    if (message.type === "goto") this.deck.goTo(message.n);
    else if (message.type === "hello") this.sendSlide();
    else if (message.type === "blank") this.blank.toggle();
  }
}
