// The presenter view's pointer: a toggle button (aria-pressed). While it is on, the mouse over the
// "On screen" picture points at the slide: the place goes to the slides window over the channel,
// which draws the dot on the projected slide and sends it to the class in follow mode (deck/pointer.js).
// The picture shows the dot too. The toggle off, the mouse leaving the picture or this window losing
// focus hides it.
import { drawDot, placeIn, samePlace } from "../deck/pointer.js";

export class PresenterPointer {
  // `picture`: the SlidePicture of the slide on screen; `channel`: the deck's BroadcastChannel.
  constructor(root, picture, channel) {
    this.button = root.querySelector(".presenter-pointer");
    this.picture = picture;
    this.channel = channel;
    this.on = false;
    this.place = null;
    this.dot = document.createElement("span");
    this.dot.className = "pointer-dot";
    this.dot.setAttribute("aria-hidden", "true");
    this.dot.hidden = true;
    picture.frame.append(this.dot);
    this.onMove = (event) => { if (this.on) this.point(placeIn(picture.canvasBox(), event.clientX, event.clientY)); };
    this.onLeave = () => this.point(null);
    this.button.addEventListener("click", () => this.toggle());
    picture.frame.addEventListener("pointermove", this.onMove);
    picture.frame.addEventListener("pointerleave", this.onLeave);
    window.addEventListener("blur", this.onLeave);
    window.addEventListener("pagehide", this.onLeave); // closing this window takes the dot away too
  }

  toggle() {
    this.on = !this.on;
    this.button.setAttribute("aria-pressed", String(this.on));
    this.picture.frame.dataset.pointing = String(this.on);
    if (!this.on) this.point(null);
  }

  point(place) {
    if (samePlace(place, this.place)) return;
    this.place = place;
    drawDot(this.dot, place);
    this.channel.postMessage({ type: "pointer", x: place?.x ?? null, y: place?.y ?? null });
  }
}
