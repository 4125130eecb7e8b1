// "G, then a number, then Enter": jump straight to a slide.

export class GoTo {
  constructor(deck) {
    this.deck = deck;
    this.element = deck.root.querySelector(".goto");
    this.digitsElement = this.element.querySelector(".goto-digits");
    this.digits = "";
  }

  get isOpen() { return !this.element.hidden; }

  open() {
    this.digits = "";
    this.digitsElement.textContent = "";
    this.element.hidden = false;
  }

  close() { this.element.hidden = true; }

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
