// The run that speaks for a slide beyond its quick result, where one is cached (web/api.py's
// /prepared): the lecturer's longer run (`flask warm --full`), or a run carried in from another
// machine (`flask results load`), labelled with where and when it was measured. Offered beside Run,
// and shown in place of the quick result until "Back to the quick run". A carried run is what the
// slide opens on (`openOnCarried`); Run and Retrain still train at this machine's own budget, and the
// carried run is then offered beside that result.
import { getJSON } from "./api.js";

export class LongerRun {
  // `frozenRun`: in a static copy, the prepared run frozen into the page (null: none), else undefined
  // (asked of the server). `handlers`: show(result, source, options) shows a result (showResult's
  // arguments), shownResult() is the result on show (or null), busy() whether a run is under way.
  constructor(element, { frozenRun = undefined, show, shownResult, busy }) {
    this.button = element.querySelector(".demo-longer");
    this.preparedUrl = element.dataset.preparedUrl;
    this.frozenRun = frozenRun;
    this.source = frozenRun === undefined ? "cached" : "frozen";
    this.handlers = { show, shownResult, busy };
    this.quickResult = null; // while the longer run is on show: the result it replaced
    this.longerResult = null;
    this.asked = null; // the answer the slide's opening asked for, which the result it then shows reuses
    this.onToggle = () => this.toggle();
    this.button.addEventListener("click", this.onToggle);
  }

  // A result is on show: the longer run (`longer`), or a quick one, for which a longer run is looked for.
  shown(longer) {
    this.button.setAttribute("aria-pressed", String(longer));
    if (longer) {
      this.button.textContent = "Back to the quick run";
      this.button.hidden = !this.quickResult; // the slide opened on it: Run makes the quick one
    } else {
      this.quickResult = null;
      this.find();
    }
  }

  // No result on show: nothing to offer.
  clear() {
    this.quickResult = this.longerResult = null;
    this.button.hidden = true;
  }

  // The prepared run, or null: from the page in a static copy, else from the server (never trains).
  async fetch() {
    if (this.frozenRun !== undefined) return this.frozenRun;
    if (!this.preparedUrl) return null;
    try {
      const { body } = await getJSON(this.preparedUrl);
      return body.status === "done" ? body.result : null;
    } catch {
      return null; // no longer run to offer
    }
  }

  async find() {
    this.button.hidden = true;
    this.longerResult = null;
    const asked = this.asked ?? this.fetch();
    this.asked = null;
    const result = await asked;
    if (!result || this.quickResult) return;
    this.longerResult = result;
    this.button.textContent = result.carried ? result.carried.short : "Longer run";
    this.button.title = result.carried ? `The run ${result.carried.text}` : "The longer run, computed before the lecture";
    this.button.hidden = false;
  }

  // Asks the server for the prepared run now, beside the slide's other questions, for openOnCarried.
  ask() {
    this.asked ??= this.fetch();
  }

  // The answer asked for is not wanted after all (the slide follows a job instead).
  forget() {
    this.asked = null;
  }

  // The slide opens on a run carried in from another machine, if there is one; whether it did.
  async openOnCarried() {
    this.ask(); // asked once: the default shown next, if not this, offers what it found
    const result = await this.asked;
    if (!result?.carried || this.handlers.shownResult() || this.handlers.busy()) return false;
    this.openOn(result);
    return true;
  }

  // Show `result`, the prepared run, first; `quick`, where there is one, is a button away.
  openOn(result, quick = null) {
    this.asked = null;
    this.longerResult = result;
    this.handlers.show(result, this.source, { longer: true });
    this.quickResult = quick;
    this.button.hidden = !quick;
  }

  toggle() {
    if (this.quickResult) {
      this.handlers.show(this.quickResult, this.source);
    } else if (this.longerResult) {
      this.quickResult = this.handlers.shownResult();
      this.handlers.show(this.longerResult, this.source, { longer: true });
    }
  }
}
