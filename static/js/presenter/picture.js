// A picture of a slide in the presenter window: the slide's markup at its real size (the deck's
// canvas, in the shape the slides window shows it: static/js/deck/scale.js) in a frame of its own, with the deck's stylesheets, scaled down to fit. Its own
// document keeps the copy apart from the presenter's page: nothing in it can be clicked or
// focused, and nothing in the page (a script, a test) mistakes the copy's poll for its own.

export class SlidePicture {
  constructor(frame) {
    this.frame = frame;
    this.frame.setAttribute("role", "img");
    this.iframe = document.createElement("iframe");
    this.iframe.className = "presenter-picture-canvas";
    this.iframe.tabIndex = -1;
    this.iframe.setAttribute("aria-hidden", "true"); // the frame's label says what it shows
    this.iframe.title = "Picture of a slide";
    this.frame.replaceChildren(this.iframe);
    const picture = this.iframe.contentDocument; // an empty page of this origin: we fill it in
    for (const link of document.querySelectorAll('link[rel="stylesheet"]')) picture.head.append(link.cloneNode());
    this.addedStyles = picture.createElement("style");
    picture.head.append(this.addedStyles);
    picture.body.className = "page-deck slide-picture";
    this.canvas = picture.body;
    this.onResize = this.fit.bind(this);
    new ResizeObserver(this.onResize).observe(this.frame);
  }

  // `html`: one slide's markup; `label`: what a screen reader says the picture shows; `css`: the
  // rules the slides window added to itself (its charts'); `stage`: the slides window's canvas size
  // ({width, height} in CSS lengths; the stylesheet's 16:9 canvas when not given).
  show(html, label, css = "", stage = null) {
    if (this.addedStyles.textContent !== css) this.addedStyles.textContent = css;
    for (const style of [this.iframe.style, this.canvas.ownerDocument.documentElement.style]) {
      for (const side of ["width", "height"]) {
        if (stage) style.setProperty(`--stage-${side}`, stage[side]);
        else style.removeProperty(`--stage-${side}`);
      }
    }
    this.frame.style.aspectRatio = stage ? `${parseFloat(stage.width)} / ${parseFloat(stage.height)}` : "";
    this.canvas.innerHTML = html; // our own slides' markup, from the slides window of this site
    this.frame.setAttribute("aria-label", label);
    this.frame.hidden = false;
    this.fit();
  }

  // Where the slide's canvas is on the screen: the frame's document scaled to the picture, so a place
  // on it, as fractions of this box, is the same place on the slides window's canvas.
  canvasBox() {
    return this.iframe.getBoundingClientRect();
  }

  clear() {
    this.canvas.replaceChildren();
    this.frame.hidden = true;
  }

  fit() {
    const width = parseFloat(getComputedStyle(this.iframe).getPropertyValue("--stage-width"));
    this.iframe.style.setProperty("--picture-scale", String(this.frame.clientWidth / width));
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
