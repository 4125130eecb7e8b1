// What went wrong, in plain words beside Run; a bad setting is also named beside its field, which
// is marked invalid (and, when the user asked for the run, opened and focused).
import { ApiError } from "./api.js";
import { resizeCharts } from "./charts.js";

export class ErrorNote {
  // `form`: the widget's SettingsForm; `output`: the result's box, resized as the note comes and goes.
  constructor(element, form, output) {
    this.element = element;
    this.form = form;
    this.output = output;
    this.box = element.querySelector(".demo-error");
  }

  get shown() {
    return !this.box.hidden;
  }

  get kind() {
    return this.box.dataset.kind;
  }

  // `message` (null: none); `kind`: "error", "field" (a bad setting) or "note" (e.g. cancelled);
  // `field`: the control of the bad setting, to name the message beside it too.
  show(message, kind = "error", field = null) {
    this.element.querySelectorAll(".param-error").forEach((note) => note.remove());
    if (message && field) {
      kind = "field";
      const note = document.createElement("span");
      note.className = "param-error";
      note.textContent = message.replace(/^[^:]+: /, "");
      field.closest(".param").append(note);
    }
    this.box.hidden = !message;
    this.box.textContent = message ?? "";
    this.box.dataset.kind = kind;
    if (!message) this.clearInvalid();
    resizeCharts(this.output); // the toolbar grew or shrank: the chart takes the room that is left
  }

  // Take `message` away if it is still the one shown (another may have replaced it meanwhile).
  withdraw(message) {
    if (this.shown && this.box.textContent === message) this.show(null);
  }

  // Say what went wrong with a request (see explain).
  report(error, { focus = true } = {}) {
    const { message, kind, field } = this.explain(error, { focus });
    this.show(message, kind, field);
  }

  clearInvalid() {
    this.element.querySelectorAll("[aria-invalid]").forEach((el) => el.removeAttribute("aria-invalid"));
  }

  // What `error` means: {message, kind, field}. A bad setting's `field` is marked invalid and,
  // unless `focus` is false, gets the focus, its Settings opened. A refusal because a poll keeps
  // the result back is a note, not an error.
  explain(error, { focus = true } = {}) {
    if (!(error instanceof ApiError)) return { message: `Something went wrong: ${error.message}`, kind: "error", field: null };
    const field = error.status === 400 && error.body?.param ? this.form.control(error.body.param) : null;
    if (field) {
      field.setAttribute("aria-invalid", "true");
      if (focus) this.form.reveal(field);
      if (focus) field.focus();
    }
    const kind = field ? "field" : error.body?.withheld ? "note" : "error";
    const message = error.status === 503 && error.retryAfter ? `${error.message} (about ${error.retryAfter} s)` : error.message;
    return { message, kind, field };
  }
}
