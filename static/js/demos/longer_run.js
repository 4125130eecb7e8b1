// A demo's longer run (its full parameters), if the instructor computed it beforehand: offered
// beside Run, and shown in place of the quick result until "Back to the quick run".
import { postJSON } from "./api.js";

export class LongerRun {
  constructor(widget) {
    this.widget = widget;
    this.button = widget.element.querySelector(".demo-longer");
    const full = widget.element.dataset.fullParams;
    this.fullParams = full ? JSON.parse(full) : null;
    this.quickResult = null; // while the longer run is on show: the result it replaced
    this.longerResult = null;
    this.onToggle = () => this.toggle();
    this.button.addEventListener("click", this.onToggle);
  }

  // A result is on show: the longer run (`longer`), or a quick one, for which a longer run is looked for.
  shown(longer) {
    if (!longer) {
      this.quickResult = null;
      this.find();
    }
    this.button.setAttribute("aria-pressed", String(longer));
    this.button.textContent = longer ? "Back to the quick run" : "Longer run";
  }

  // No result on show: nothing to offer.
  clear() {
    this.quickResult = this.longerResult = null;
    this.button.hidden = true;
  }

  async find() {
    this.button.hidden = true;
    this.longerResult = null;
    if (!this.fullParams) return;
    const { frozen, demoId, lookupUrl } = this.widget;
    let result = null;
    if (frozen) result = frozen[`${demoId}@full`] ?? null;
    else {
      try {
        const { body } = await postJSON(lookupUrl, this.fullParams);
        if (body.status === "done") result = body.result;
      } catch {
        return; // no longer run to offer
      }
    }
    if (!result || this.quickResult) return;
    this.longerResult = result;
    this.button.hidden = false;
  }

  toggle() {
    const widget = this.widget;
    const source = widget.frozen ? "frozen" : "cached";
    if (this.quickResult) {
      widget.showResult(this.quickResult, source);
    } else if (this.longerResult) {
      const quick = widget.result;
      widget.showResult(this.longerResult, source, { longer: true });
      this.quickResult = quick;
      this.button.hidden = false;
    }
  }
}
