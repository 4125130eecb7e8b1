// Printing: every slide on its own page. /slides/1?print lays the deck out that way on screen
// (with every cached demo result drawn); Ctrl+P switches to it just for the print.

export class Print {
  constructor(deck) {
    this.root = deck.root;
    this.always = deck.root.dataset.print === "true";
    window.addEventListener("beforeprint", () => this.root.classList.add("print-mode"));
    window.addEventListener("afterprint", () => { if (!this.always) this.root.classList.remove("print-mode"); });
  }
}
