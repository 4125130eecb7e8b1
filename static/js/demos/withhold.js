// A poll beside a demo keeps its result back while the class predicts: from "Open the poll" (or
// "Reset") until "Close it". The server refuses students the result meanwhile (web/poll_secret.py);
// this controller hides it on every screen that has it anyway: the lecturer's projected one (a
// rehearsal, a reload, a Run during the poll) and a student's that showed it before the poll opened.
// The poll box says where it stands with a `pollstate` event; until it has, nothing is shown.
const KEPT = "The result is ready: it is shown when the poll closes.";
const WAITING = "The class is predicting: the result is shown when the lecturer closes the poll.";

export class Withhold {
  constructor(widget) {
    this.widget = widget;
    this.hiding = null; // null until the poll has said; then true (kept back) or false (shown)
    // Whether the class has answered and the poll is closed: then the slide may show its result by itself.
    this.predicted = false;
    this.kept = null; // the arguments of a showResult that came while kept back: shown at Close
    this.said = null; // the note this controller put beside Run, taken away at Close
    this.known = new Promise((resolve) => { this.onKnown = resolve; });
    this.onPollState = (event) => {
      if (event.detail.demo !== widget.demoId) return;
      this.predicted = event.detail.predicted;
      this.set(event.detail.hidesResult);
    };
    widget.element.closest(".slide")?.addEventListener("pollstate", this.onPollState);
  }

  get lecturer() {
    return document.body.dataset.instructor === "true";
  }

  // Asked by showResult: true if this result must wait for Close (it is kept until then).
  keeps(args) {
    if (this.hiding === false) return false;
    this.kept = args;
    const widget = this.widget;
    widget.progressBox.hidden = true;
    widget.badge.show("", "");
    widget.setBusy(false);
    widget.emitIdle();
    if (this.hiding) this.say(KEPT);
    return true;
  }

  // Asked by Run: true (and says why) if a student's Run could show nothing now. The lecturer may
  // run (a long run trains while the class votes); the result waits for Close.
  refusesRun() {
    if (this.hiding !== true || this.lecturer) return false;
    this.say(WAITING);
    return true;
  }

  // A training run's partial results (curves drawn as they come) would give the answer away too.
  hidesProgress() {
    return this.hiding !== false;
  }

  set(hiding) {
    if (hiding === this.hiding) return;
    this.hiding = hiding;
    this.onKnown();
    const widget = this.widget;
    if (hiding) {
      if (widget.result) {
        this.clear();
        this.say(WAITING);
      } else if (widget.busy) { // a run's partial curves, drawn before the poll opened
        widget.output.replaceChildren(...(widget.placeholder ? [widget.placeholder] : []));
      }
      return;
    }
    if (widget.errors.shown && widget.errors.box.textContent === this.said) widget.errors.show(null);
    const kept = this.kept;
    this.kept = null;
    if (kept) widget.showResult(...kept);
  }

  // Back to the slide as it was before any result: the placeholder, Run, no badge; the page (the
  // presenter view, a class following) is told the demo shows nothing now.
  clear() {
    const widget = this.widget;
    widget.result = null;
    widget.longer.clear();
    widget.link.hide();
    widget.output.replaceChildren(...(widget.placeholder ? [widget.placeholder] : []));
    widget.summary.textContent = "";
    widget.badge.show("", "");
    widget.runButton.textContent = "Run";
    widget.retrainButton.hidden = true;
    widget.emitIdle();
    widget.estimate.refresh();
  }

  say(message) {
    this.said = message;
    this.widget.errors.show(message, "note");
  }
}
