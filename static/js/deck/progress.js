// The "n / 13" counter, the thin progress bar, and the clickable previous/next buttons.

export class Progress {
  constructor(deck) {
    this.deck = deck;
    this.counter = deck.root.querySelector(".counter-current");
    this.bar = deck.root.querySelector(".progress-bar");
    this.prevButton = deck.root.querySelector(".control-prev");
    this.nextButton = deck.root.querySelector(".control-next");
    this.onSlideChange = this.update.bind(this);
    deck.addEventListener("slidechange", this.onSlideChange);
    this.update();
  }

  update() {
    const { n, total } = this.deck;
    this.counter.textContent = String(n);
    this.bar.style.width = `${total > 1 ? ((n - 1) / (total - 1)) * 100 : 100}%`;
    this.prevButton.disabled = n === 1;
    this.nextButton.disabled = n === total;
  }
}
