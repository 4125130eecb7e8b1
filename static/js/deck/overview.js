// The overview grid of all slides: click a card, or move with the arrows and press Enter.
import { Dialog } from "./dialog.js";

const COLUMNS = 5; // matches the grid in deck.css on wide screens

export class Overview {
  constructor(deck) {
    this.deck = deck;
    this.element = deck.root.querySelector(".overview");
    this.dialog = new Dialog(this.element);
    this.cards = [...this.element.querySelectorAll(".overview-card")];
    this.selected = 0;
    this.onClick = this.onClick.bind(this);
    this.element.addEventListener("click", this.onClick);
  }

  get isOpen() { return this.dialog.isOpen; }

  open() {
    this.cards.forEach((card, i) => {
      if (i === this.deck.index) card.setAttribute("aria-current", "page");
      else card.removeAttribute("aria-current");
    });
    this.dialog.open(this.cards[this.deck.index]);
    this.select(this.deck.index);
  }

  close() { this.dialog.close(); }

  toggle() { if (this.isOpen) this.close(); else this.open(); }

  select(index) {
    this.selected = Math.min(Math.max(index, 0), this.cards.length - 1);
    this.cards[this.selected].focus();
  }

  jump(index) {
    this.close();
    this.deck.goTo(index + 1);
    this.deck.current.focus(); // on the slide just opened, not back on the old one
  }

  onClick(event) {
    const card = event.target.closest(".overview-card");
    if (!card) return;
    event.preventDefault(); // move inside the page, no reload
    this.jump(Number(card.dataset.n) - 1);
  }

  onKey(name) {
    const moves = { ArrowRight: 1, ArrowLeft: -1, ArrowDown: COLUMNS, ArrowUp: -COLUMNS };
    if (name in moves) this.select(this.selected + moves[name]);
    else if (name === "Enter" || name === "Space") this.jump(this.selected);
    else if (name === "Escape" || name === "O") this.close();
    else if (name === "Home") this.select(0);
    else if (name === "End") this.select(this.cards.length - 1);
    else return false; // Tab moves between the cards as usual
    return true;
  }
}
