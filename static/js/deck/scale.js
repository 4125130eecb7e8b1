// Fits the canvas to the window (a 1024×768 projector, a 1280×720 one, a 4K screen): the canvas is
// scaled so that it is at least --canvas-width × --canvas-height canvas pixels (1280×900: the room
// every slide is designed to fit), and grows to the window's shape up to --canvas-max-width ×
// --canvas-max-height (1600×960), so a 4:3 projector gets a taller canvas and a 16:9 one a wider
// canvas, not empty bands. On both projectors the scale is then 0.8: the 20 px text of a chart is
// 16 px on the screen, the smallest a hall reads. Beyond those shapes the canvas is centred.
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
    const size = (name) => parseFloat(style.getPropertyValue(name));
    const scale = Math.min(window.innerWidth / size("--canvas-width"), window.innerHeight / size("--canvas-height"));
    const width = Math.min(window.innerWidth / scale, size("--canvas-max-width"));
    const height = Math.min(window.innerHeight / scale, size("--canvas-max-height"));
    this.root.style.setProperty("--scale", String(scale));
    this.root.style.setProperty("--stage-width", `${Math.floor(width)}px`);
    this.root.style.setProperty("--stage-height", `${Math.floor(height)}px`);
  }
}
