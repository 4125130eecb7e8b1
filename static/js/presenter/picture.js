// A picture of a slide in the presenter window: the slide's markup at its real size (the deck's
// 1280×720 canvas), scaled down to the frame. Inert: nothing in it can be clicked or focused.

export class SlidePicture {
  constructor(frame) {
    this.frame = frame;
    this.canvas = document.createElement("div");
    this.canvas.className = "presenter-picture-canvas";
    this.canvas.inert = true;
    this.frame.setAttribute("role", "img");
    this.frame.replaceChildren(this.canvas);
    this.onResize = this.fit.bind(this);
    new ResizeObserver(this.onResize).observe(this.frame);
  }

  // `html`: one slide's markup; `label`: what a screen reader says the picture shows.
  show(html, label) {
    const template = document.createElement("template");
    template.innerHTML = html;
    this.canvas.replaceChildren(template.content);
    this.frame.setAttribute("aria-label", label);
    this.fit();
  }

  fit() {
    const width = parseFloat(getComputedStyle(document.documentElement).getPropertyValue("--canvas-width"));
    this.canvas.style.setProperty("--picture-scale", String(this.frame.clientWidth / width));
  }
}

// A slide as the page alone knows it (title and words, no demo result): until the slides window
// sends its picture, or when the presenter view was opened on its own.
export function plainSlideHtml(article) {
  const slide = document.createElement("section");
  slide.className = `slide slide--${article.dataset.layout}`;
  const header = document.createElement("header");
  header.className = "slide-header";
  const title = document.createElement("h1");
  title.className = "slide-title";
  title.textContent = article.dataset.title;
  header.append(title);
  const body = article.querySelector(".presenter-slide-body").cloneNode(true);
  body.className = "slide-body";
  slide.append(header, body);
  return slide.outerHTML;
}
