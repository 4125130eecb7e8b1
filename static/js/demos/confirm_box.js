// A long run asks first: how long it will take here, whether it would finish within the time
// limit, and what else there is (a ready result for the defaults); then Run, or Cancel.
import { aboutSeconds } from "./estimate.js";

export class ConfirmBox {
  // `handlers`: run(request) the lecturer chose Run; cancelled() they chose Cancel (the focus goes
  // back to Run); areDefaults(params) whether `params` are the demo's default settings.
  constructor(element, { run, cancelled, areDefaults }) {
    this.box = element.querySelector(".demo-confirm");
    this.handlers = { cancelled, areDefaults };
    this.request = null; // the run waiting for the answer: {force, params}
    this.onRun = () => run({ ...this.request, confirmed: true });
    this.onCancel = () => this.close(true);
    this.box.querySelector(".demo-confirm-run").addEventListener("click", this.onRun);
    this.box.querySelector(".demo-confirm-cancel").addEventListener("click", this.onCancel);
  }

  // Asks first (and says true) if the run `request` ({force, params}) would take longer than the
  // server's `confirm_over_seconds`, going by its `estimate`; a cached result needs no asking.
  asks(estimate, request) {
    if (!estimate?.estimate || (estimate.cached && !request.force)) return false;
    if (estimate.estimate.seconds <= estimate.confirm_over_seconds) return false;
    this.ask(estimate, request);
    return true;
  }

  // Say how long, and what else there is, and let the lecturer choose.
  ask(estimate, request) {
    const seconds = estimate.estimate.seconds;
    const tooLong = seconds > estimate.time_limit_seconds;
    const parts = [`This run will take ${aboutSeconds(seconds)} on ${estimate.device} (${estimate.estimate.basis}).`];
    if (tooLong) {
      parts.push(`Runs started here stop after ${aboutSeconds(estimate.time_limit_seconds).replace("about ", "")}, so it would not finish: choose smaller settings.`);
    }
    if (estimate.default_cached && !this.handlers.areDefaults(request.params)) {
      parts.push("The default settings have a ready result: press Defaults under Settings, then Run.");
    }
    const text = this.box.querySelector(".demo-confirm-text");
    text.replaceChildren(parts.join(" "));
    if (estimate.instructor) {
      const hint = document.createElement("span");
      hint.className = "instructor-only";
      hint.textContent = " To have results ready in the lecture, compute them beforehand with flask --app app warm.";
      text.append(hint);
    }
    this.request = request;
    this.box.hidden = false;
    this.box.querySelector(tooLong ? ".demo-confirm-cancel" : ".demo-confirm-run").focus();
  }

  // `returnFocus`: the lecturer chose Cancel, so the focus goes back to Run.
  close(returnFocus = false) {
    if (this.box.hidden) return;
    this.box.hidden = true;
    this.request = null;
    if (returnFocus) this.handlers.cancelled();
  }
}
