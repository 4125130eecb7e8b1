// A poll beside a demo keeps its result back while the class predicts: from "Open the poll" (or
// "Reset") until "Close it". The server refuses students the result meanwhile (web/poll_secret.py);
// this controller hides it on every screen that has it anyway: the lecturer's projected one (a
// rehearsal, a reload, a Run during the poll) and a student's that showed it before the poll opened.
// The poll box says where it stands with a `pollstate` event; until it has, nothing is shown.
// It decides; the widget does what it decides through the handlers it was given.
const KEPT = "The result is ready: it is shown when the poll closes.";
const WAITING = "The class is predicting: the result is shown when the lecturer closes the poll.";

export class Withhold {
  // `slide`: the slide whose poll box speaks for demo `demoId`. `handlers`: hold() a result arrived
  // and is kept back (the widget then stands idle); hide() the poll opened: the widget takes away what
  // it shows, and says whether that was a result; release(args) the poll closed: show the result kept,
  // showResult's `args`; say(message) and unsay(message) put this controller's note beside Run and
  // take it away (if it is still the one shown).
  constructor(slide, demoId, handlers) {
    this.handlers = handlers;
    this.hiding = null; // null until the poll has said; then true (kept back) or false (shown)
    // Whether the class has answered and the poll is closed: then the slide may show its result by itself.
    this.answered = false;
    this.kept = null; // the arguments of a showResult that came while kept back: shown at Close
    this.said = null; // the note this controller put beside Run, taken away at Close
    this.known = new Promise((resolve) => { this.onKnown = resolve; });
    this.onPollState = (event) => {
      if (event.detail.demo !== demoId) return;
      this.answered = event.detail.predicted;
      this.set(event.detail.hidesResult);
    };
    slide?.addEventListener("pollstate", this.onPollState);
  }

  get lecturer() {
    return document.body.dataset.instructor === "true";
  }

  // Whether the poll has closed on the class's answers: the slide may then show its result by itself.
  get predicted() {
    return this.answered;
  }

  // Once the poll has said where it stands: whether it keeps the result back now.
  async hidesResult() {
    await this.known;
    return this.hiding;
  }

  // Asked by showResult: true if this result must wait for Close (it is kept until then).
  keeps(args) {
    if (this.hiding === false) return false;
    this.kept = args;
    this.handlers.hold();
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
    if (hiding) {
      if (this.handlers.hide()) this.say(WAITING);
      return;
    }
    if (this.said) this.handlers.unsay(this.said);
    const kept = this.kept;
    this.kept = null;
    if (kept) this.handlers.release(kept);
  }

  say(message) {
    this.said = message;
    this.handlers.say(message);
  }
}
