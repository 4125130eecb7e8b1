// Blank the screen (B or period), as a presenter does to turn the room's eyes to them.

export class Blank {
  constructor(deck) {
    this.element = deck.root.querySelector(".blank");
  }

  get isOpen() { return !this.element.hidden; }

  toggle() { this.element.hidden = !this.element.hidden; }

  onKey(name) {
    if (name === "B" || name === "." || name === "Escape") this.toggle();
    return true; // nothing moves behind a blank screen
  }
}
