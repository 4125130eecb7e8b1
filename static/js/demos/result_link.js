// A link to the result on show: its settings kept in the address bar (so a reload or a shared link
// reproduces it), read back from the address when the slide opens, and offered by Copy link.
export class ResultLink {
  // `form`: the widget's SettingsForm; `frozen`: a static export (no server, no settings in links).
  constructor(element, form, frozen) {
    this.form = form;
    this.frozen = Boolean(frozen);
    this.slideUrl = element.closest(".slide")?.dataset.url;
    this.copyButton = element.querySelector(".demo-copy-link");
    this.result = null; // the result on show
    this.onCopy = () => this.copy();
    this.copyButton?.addEventListener("click", this.onCopy);
  }

  get onSlideAddress() {
    return !this.frozen && location.pathname === this.slideUrl;
  }

  // Parameters in the address of this widget's slide (`/slides/5?seed=2`), put into the form; or null.
  fromAddress() {
    return this.onSlideAddress ? this.form.writeQuery(new URLSearchParams(location.search)) : null;
  }

  // The address of this slide with the result's parameters: a link that opens the same result.
  link() {
    return new URL(this.slideUrl + this.form.queryFor(this.result?.params ?? this.form.read()), location.href).href;
  }

  // `result` is on show: Copy link offers it, and the address bar holds its settings.
  show(result) {
    this.result = result;
    if (this.copyButton) {
      this.copyButton.hidden = false;
      this.copyButton.textContent = "Copy link";
    }
    this.showInAddressBar();
  }

  // No result on show any more: nothing to link to.
  hide() {
    this.result = null;
    if (this.copyButton) this.copyButton.hidden = true;
  }

  // Keep the address bar on the result shown (not on a printed page's address).
  showInAddressBar() {
    if (!this.result || !this.onSlideAddress || new URLSearchParams(location.search).has("print")) return;
    const link = this.link();
    if (link !== location.href) history.replaceState(history.state, "", link);
  }

  async copy() {
    const link = this.link();
    try {
      await navigator.clipboard.writeText(link);
      this.copyButton.textContent = "Link copied";
    } catch { // no clipboard (a page on a plain-http network address): show the link to copy by hand
      this.copyButton.textContent = "Copy link";
      window.prompt("Copy this link:", link);
    }
  }
}
