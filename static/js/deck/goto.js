// "G, then a number, then Enter": jump straight to a slide. The prompt is a dialog: it takes the
// focus while open (a screen reader announces it) and gives it back when it closes.
import { Dialog } from "./dialog.js";

export class GoTo {
  constructor(deck) {
    this.deck = deck;
    this.element = deck.root.querySelector(".goto");
    this.digitsElement = this.element.querySelector(".goto-digits");
    this.digits = "";
    this.dialog = new Dialog(this.element);
  }

  get isOpen() { return this.dialog.isOpen; }

  open() {
    this.digits = "";
    this.digitsElement.textContent = "";
    this.dialog.open();
  }

  close() { this.dialog.close(); }

  onKey(name) {
    if (/^[0-9]$/.test(name) && this.digits.length < String(this.deck.total).length) {
      this.digits += name;
      this.digitsElement.textContent = this.digits;
    } else if (name === "Backspace") {
      this.digits = this.digits.slice(0, -1);
      this.digitsElement.textContent = this.digits;
    } else if (name === "Enter") {
      this.close();
      if (this.digits) this.deck.goTo(Number(this.digits));
    } else if (name === "Escape" || name === "G") {
      this.close();
    }
    return true;
  }
}
