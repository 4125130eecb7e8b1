// Scales the fixed 1280×720 canvas to fit the window (a 1024×768 projector, a 4K screen).
// Phone-width screens get the flowing layout from the stylesheet instead.

export class Scale {
  constructor(deck) {
    this.root = document.documentElement;
    this.canvas = deck.root.querySelector(".canvas");
    this.onResize = this.update.bind(this);
    window.addEventListener("resize", this.onResize);
    this.update();
  }

  update() {
    const style = getComputedStyle(this.root);
    const width = parseFloat(style.getPropertyValue("--canvas-width"));
    const height = parseFloat(style.getPropertyValue("--canvas-height"));
    const scale = Math.min(window.innerWidth / width, window.innerHeight / height);
    this.root.style.setProperty("--scale", String(scale));
  }
}
