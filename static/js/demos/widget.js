// The demo widget on every slide: Run / Rerun / Retrain / Cancel, the parameter form, how long
// a run will take (measured on this server), a progress bar with the time left fed by the job's
// event stream, a badge saying where the result came from, and errors in plain words beside
// Run. What the result looks like is up to the demo's renderer (./renderers/).
import { ApiError, getJSON, postJSON } from "./api.js";
import { resizeCharts } from "./charts.js";
import { aboutSeconds, TimeLeft } from "./estimate.js";
import { JobFollower } from "./job_follower.js";
import { RENDERERS } from "./renderers/index.js";
import { RunFocus } from "./run_focus.js";
import { Withhold } from "./withhold.js";

function formatSeconds(seconds) {
  return seconds < 10 ? `${seconds.toFixed(2)} s` : `${seconds.toFixed(1)} s`;
}

// Parameter values as typed in the form. Numbers that do not parse are sent as typed,
// so the server's message can name the field and what it allows.
function readParam(field) {
  const inputs = [...field.querySelectorAll("input, select")];
  switch (field.dataset.type) {
    case "bool":
      return inputs[0].checked;
    case "multi":
      return inputs.filter((input) => input.checked).map((input) => JSON.parse(input.value));
    case "choice":
      return JSON.parse(inputs[0].value);
    case "str":
      return inputs[0].value;
    default: {
      const text = inputs[0].value.trim();
      const number = Number(text);
      return text === "" || Number.isNaN(number) ? text : number;
    }
  }
}

// A parameter's value as a link writes it: a set with commas, a checkbox as 1 or 0.
function paramText(value) {
  return Array.isArray(value) ? value.join(",") : typeof value === "boolean" ? (value ? "1" : "0") : String(value);
}

// A result's parameters as a slide address's query (`?seed=2&widths=16,64`): only those that differ
// from the defaults, so a link stays short.
function queryFor(params, defaults) {
  const parts = [];
  for (const [name, value] of Object.entries(params ?? {})) {
    if (!(name in defaults) || JSON.stringify(value) === JSON.stringify(defaults[name])) continue;
    const text = paramText(value);
    parts.push(`${encodeURIComponent(name)}=${encodeURIComponent(text).replace(/%2C/g, ",")}`);
  }
  return parts.length ? `?${parts.join("&")}` : "";
}

// Put a value from a link into its control, as a user would set it; the server checks it as typed.
function writeParam(field, text) {
  const inputs = [...field.querySelectorAll("input, select")];
  const asText = (json) => String(JSON.parse(json));
  switch (field.dataset.type) {
    case "bool":
      inputs[0].checked = ["1", "true", "yes", "on"].includes(text.toLowerCase());
      break;
    case "multi": {
      const wanted = new Set(text.split(",").map((item) => item.trim()));
      inputs.forEach((input) => { input.checked = wanted.has(asText(input.value)); });
      break;
    }
    case "choice": {
      const select = inputs[0];
      let option = [...select.options].find((o) => asText(o.value) === text);
      if (!option) { // not one of the choices: sent as given, so the server can say what is allowed
        option = new Option(text, JSON.stringify(text));
        select.add(option);
      }
      select.value = option.value;
      break;
    }
    default:
      inputs[0].value = text;
  }
}

export class DemoWidget {
  // `frozen`: in a static export, the results frozen into the page (demo id → result); no server.
  constructor(element, frozen = null) {
    this.element = element;
    this.frozen = frozen;
    this.demoId = element.dataset.demo;
    this.runUrl = element.dataset.runUrl;
    this.estimateUrl = element.dataset.estimateUrl;
    this.infoUrl = element.dataset.infoUrl;
    this.lookupUrl = element.dataset.lookupUrl;
    this.form = element.querySelector(".demo-params");
    this.settings = element.querySelector(".demo-settings");
    this.runButton = element.querySelector(".demo-run");
    this.cancelButton = element.querySelector(".demo-cancel");
    this.runFocus = new RunFocus(element, this.runButton, this.cancelButton);
    this.estimateText = element.querySelector(".demo-estimate");
    this.confirmBox = element.querySelector(".demo-confirm");
    this.placeholder = element.querySelector(".demo-placeholder");
    this.placeholderTime = element.querySelector(".demo-placeholder-time");
    this.estimate = null; // the server's answer for the settings in the form: cached? how long?
    this.invalidField = null; // the field a bad-setting error names, until it is shown
    this.retrainButton = element.querySelector(".demo-retrain");
    this.longerButton = element.querySelector(".demo-longer");
    this.fullParams = element.dataset.fullParams ? JSON.parse(element.dataset.fullParams) : null;
    this.quickResult = null; // while the longer run is on show: the result it replaced
    this.longerResult = null;
    this.badge = element.querySelector(".demo-badge");
    this.progressBox = element.querySelector(".demo-progress");
    this.progressBar = element.querySelector(".demo-progress-bar");
    this.progressMessage = element.querySelector(".demo-progress-message");
    this.progressText = "";
    this.timeLeft = new TimeLeft(() => this.showTimeLeft()); // counts down between the job's reports
    this.errorBox = element.querySelector(".demo-error");
    this.output = element.querySelector(".demo-output");
    this.summary = element.querySelector(".demo-summary");
    this.renderer = RENDERERS[this.demoId] ?? {};
    this.result = null;
    this.busy = false;
    this.jobs = new JobFollower(this.demoId, this.cancelButton, {
      start: (job) => this.onJobStart(job),
      progress: (state) => this.onJobProgress(state),
      done: (state) => {
        this.showResult(state.result, state.cached ? "cached" : "fresh", { ran: true });
        this.refreshEstimate();
      },
      ended: (state) => this.onJobEnded(state),
      cancelRefused: (error) => this.showError(this.explain(error)),
    });
    // What other windows (presenter view, students following) need to mirror this widget.
    this.state = { demo: this.demoId, status: "idle", progress: 0, message: "", badge: "", params: null, job: null, events: null };

    this.slideUrl = element.closest(".slide")?.dataset.url;
    // A poll beside it: its cached result is never shown before Run (except on the printed page).
    this.waitsForPrediction = element.dataset.poll === "true" && element.closest(".deck")?.dataset.print !== "true";
    // And while the poll is open (or reset and not closed again), no result is shown at all.
    this.withhold = this.waitsForPrediction && !frozen ? new Withhold(this) : null;
    this.copyButton = element.querySelector(".demo-copy-link");
    this.defaults = this.readParams(); // the form as rendered holds each parameter's default
    this.linked = this.paramsFromAddress();

    this.onCopy = () => this.copyLink();
    this.copyButton?.addEventListener("click", this.onCopy);
    this.onRun = () => this.run();
    this.onRetrain = () => this.run({ force: true });
    this.confirmBox.querySelector(".demo-confirm-run").addEventListener("click", () => this.run({ ...this.confirming, confirmed: true }));
    this.confirmBox.querySelector(".demo-confirm-cancel").addEventListener("click", () => this.closeConfirm(true));
    // The estimate follows the form: change a setting, and the time it will take is asked again.
    let pending = null;
    this.onEdit = () => {
      clearTimeout(pending);
      pending = setTimeout(() => this.refreshEstimate(), 300);
    };
    // The Settings form is inside the toolbar: one pair of listeners hears every control.
    element.querySelector(".demo-toolbar").addEventListener("input", this.onEdit);
    element.querySelector(".demo-toolbar").addEventListener("change", this.onEdit);
    this.onSubmit = (event) => { event.preventDefault(); this.run(); };
    this.onReset = () => {
      // The form resets its own fields; the ones beside Run (a sentence, a prompt) are outside it.
      this.element.querySelectorAll(".demo-toolbar > .param :is(input, select)").forEach(toDefault);
      this.element.querySelectorAll("[aria-invalid]").forEach((el) => el.removeAttribute("aria-invalid"));
      this.showError(null);
      this.onEdit();
    };
    // Enter in a field beside the Run button (a sentence, a prompt) runs the demo too.
    this.onToolbarKey = (event) => {
      if (event.key === "Enter" && event.target.matches(".demo-toolbar input")) { event.preventDefault(); this.run(); }
    };
    this.onLonger = () => this.toggleLonger();
    this.longerButton.addEventListener("click", this.onLonger);
    this.runButton.addEventListener("click", this.onRun);
    this.retrainButton.addEventListener("click", this.onRetrain);
    this.form.addEventListener("submit", this.onSubmit);
    this.form.addEventListener("reset", this.onReset);
    element.querySelector(".demo-toolbar").addEventListener("keydown", this.onToolbarKey);
    // Settings opened: the focus goes to its first field (unless a field there has it already).
    this.settings.addEventListener("toggle", () => {
      if (this.settings.open && !this.form.contains(document.activeElement)) this.form.querySelector("input, select, button")?.focus();
    });
    // After a reload: the job this tab started here is followed on (or its end said) before anything else.
    this.resumed = this.frozen ? null : this.resumeJob();
  }

  // The job this tab had started on this demo before a reload, with its settings put back in the
  // form; its params, or null if there was none.
  async resumeJob() {
    const params = await this.jobs.resume();
    if (params) {
      this.writeParams(params);
      this.state.params = params;
      this.announceOwnRun(); // running, done or stopped: what the page shows is this tab's own run
    }
    return params;
  }

  // This page runs its own job (Run, or one resumed after a reload): follow mode stops replacing it.
  announceOwnRun() {
    this.element.dispatchEvent(new CustomEvent("demoownrun", { bubbles: true }));
  }

  // Put `params` (values, as a result or a job holds them) into the form's fields.
  writeParams(params) {
    for (const field of this.element.querySelectorAll(".param")) {
      if (field.dataset.name in params) writeParam(field, paramText(params[field.dataset.name]));
    }
  }

  readParams() {
    return Object.fromEntries([...this.element.querySelectorAll(".param")].map((field) => [field.dataset.name, readParam(field)]));
  }

  // Parameters in the address of this widget's slide (`/slides/5?seed=2`), put into the form; or null.
  paramsFromAddress() {
    if (this.frozen || location.pathname !== this.slideUrl) return null;
    const query = new URLSearchParams(location.search);
    const fields = [...this.element.querySelectorAll(".param")].filter((field) => query.has(field.dataset.name));
    if (!fields.length) return null;
    fields.forEach((field) => writeParam(field, query.get(field.dataset.name)));
    return this.readParams();
  }

  // The address of this slide with the result's parameters: a link that opens the same result.
  link() {
    return new URL(this.slideUrl + queryFor(this.result?.params ?? this.readParams(), this.defaults), location.href).href;
  }

  // Keep the address bar on the result shown, so a reload or a shared link reproduces it.
  showInAddressBar() {
    if (this.frozen || !this.result || location.pathname !== this.slideUrl || new URLSearchParams(location.search).has("print")) return;
    const link = this.link();
    if (link !== location.href) history.replaceState(history.state, "", link);
  }

  async copyLink() {
    const link = this.link();
    try {
      await navigator.clipboard.writeText(link);
      this.copyButton.textContent = "Link copied";
    } catch { // no clipboard (a page on a plain-http network address): show the link to copy by hand
      this.copyButton.textContent = "Copy link";
      window.prompt("Copy this link:", link);
    }
  }

  // The slide is on screen: show the result its address asks for, or the default result if one
  // is cached (unless a poll waits for the class's prediction), or the job already training it;
  // otherwise wait for Run, since training costs the lecturer's time.
  async onShow() {
    const resumed = await this.resumed; // after a reload, the job this tab started comes first
    this.resumed = null;
    if (this.result) {
      resizeCharts(this.output);
      this.renderer.onShow?.(this.output);
      this.showInAddressBar();
    }
    if (this.result || this.busy) return;
    if (this.frozen) {
      this.showFrozen();
      return;
    }
    this.refreshEstimate(resumed ?? undefined);
    if (resumed) return; // its end (cancelled, stopped or failed) is said: nothing replaces it by itself
    if (this.withhold) {
      await this.withhold.known;
      // Nothing to show until the poll closes (a link, a reload); or a result came meanwhile.
      if (this.withhold.hiding || this.result || this.busy) return;
    }
    if (this.linked) {
      const params = this.linked;
      this.linked = null;
      this.state.params = params;
      await this.showCached(params);
      if (!this.result && this.errorBox.hidden) this.badge.textContent = "not computed with these settings yet: press Run";
      return;
    }
    let info;
    try {
      ({ body: info } = await getJSON(this.infoUrl));
    } catch {
      return; // the Run button still works, and will say what is wrong
    }
    if (this.result || this.busy) return;
    if (info.job) {
      this.follow(info.job);
    } else if (info.cached && !this.waitsForPrediction) {
      this.run({ params: {}, confirmed: true, shownBySlide: true }); // cached: nothing to confirm, and the estimate is asked above
    }
  }

  // `shownBySlide`: the slide showed its cached default by itself, nobody pressed Run.
  async run({ force = false, params = this.readParams(), confirmed = false, shownBySlide = false } = {}) {
    const startedFrom = document.activeElement;
    if (this.frozen) {
      this.showFrozen();
      return;
    }
    if (this.busy || this.withhold?.refusesRun()) return;
    this.closeConfirm();
    this.showError(null);
    if (!confirmed && this.estimateUrl) {
      const estimate = await this.refreshEstimate(params);
      if (estimate === undefined) return; // a bad setting: the error says which
      if (this.needsConfirming(estimate, force)) {
        this.askToConfirm(estimate, { force, params });
        return;
      }
    }
    this.runFocus.starting(startedFrom);
    this.setBusy(true);
    this.settings.open = false; // the settings were accepted: the run and its result need the room
    this.state.params = params;
    this.jobs.forget(); // a new run: how an earlier one ended is no longer news
    if (!shownBySlide) this.announceOwnRun();
    try {
      const { status, body } = await postJSON(this.runUrl, force ? { ...params, force: true } : params);
      if (status === 200) this.showResult(body.result, "cached", { ran: true });
      else this.follow(body, { own: true });
    } catch (error) {
      this.setBusy(false);
      this.showError(this.explain(error), kindOf(error));
      this.showBadge(this.result ? this.badgeFor(this.result) : "", this.result ? this.resultSource : "");
    }
  }

  // Ask the server whether these settings are cached and how long they would take here; show it
  // beside Run. Returns the answer, null if it could not be had, or undefined for a bad setting.
  async refreshEstimate(params = this.readParams()) {
    if (!this.estimateUrl || this.frozen) return null;
    let body;
    try {
      ({ body } = await postJSON(this.estimateUrl, params));
    } catch (error) {
      if (error instanceof ApiError && error.status === 400) {
        this.showError(this.explain(error, { focus: false }));
        this.estimateText.textContent = "";
        return undefined;
      }
      return null; // the Run button will say what is wrong
    }
    this.clearInvalid();
    if (!this.busy && this.errorBox.dataset.kind === "field") this.showError(null);
    this.estimate = body;
    // A result on show for these settings says its own time in the badge; the estimate would repeat it.
    const onShow = body.cached && this.result && JSON.stringify(this.result.params) === JSON.stringify(this.readParams());
    this.estimateText.textContent = onShow ? "" : this.estimateWords(body);
    this.estimateText.title = body.estimate ? `Measured on this server: ${body.estimate.basis}` : "";
    if (this.placeholderTime) {
      this.placeholderTime.textContent = body.cached
        ? (this.waitsForPrediction ? "A result is ready: press Run once the class has made its prediction." : "Computed already: press Run to show it.")
        : `Press Run to measure it on ${body.device}: ${this.estimateWords(body, true)}.`;
    }
    return body;
  }

  estimateWords(estimate, long = false) {
    if (estimate.cached) return long ? "instant (cached)" : "cached: instant";
    if (!estimate.estimate) return long ? "the first run here times it" : "time not measured here yet";
    return long ? `${aboutSeconds(estimate.estimate.seconds)}` : `${aboutSeconds(estimate.estimate.seconds)} on ${estimate.device}`;
  }

  needsConfirming(estimate, force) {
    if (!estimate?.estimate || (estimate.cached && !force)) return false;
    return estimate.estimate.seconds > estimate.confirm_over_seconds;
  }

  // A long run: say how long, and what else there is, and let the lecturer choose.
  askToConfirm(estimate, run) {
    const seconds = estimate.estimate.seconds;
    const parts = [`This run will take ${aboutSeconds(seconds)} on ${estimate.device} (${estimate.estimate.basis}).`];
    if (seconds > estimate.time_limit_seconds) {
      parts.push(`Runs started here stop after ${aboutSeconds(estimate.time_limit_seconds).replace("about ", "")}, so it would not finish: choose smaller settings.`);
    }
    if (estimate.default_cached && JSON.stringify(run.params) !== JSON.stringify(this.defaults)) {
      parts.push("The default settings have a ready result: press Defaults under Settings, then Run.");
    }
    const text = this.confirmBox.querySelector(".demo-confirm-text");
    text.replaceChildren(parts.join(" "));
    if (estimate.instructor) {
      const hint = document.createElement("span");
      hint.className = "instructor-only";
      hint.textContent = " To have results ready in the lecture, compute them beforehand with flask --app app warm.";
      text.append(hint);
    }
    this.confirming = run;
    this.confirmBox.hidden = false;
    this.confirmBox.querySelector(seconds > estimate.time_limit_seconds ? ".demo-confirm-cancel" : ".demo-confirm-run").focus();
  }

  closeConfirm(returnFocus = false) {
    if (this.confirmBox.hidden) return;
    this.confirmBox.hidden = true;
    this.confirming = null;
    if (returnFocus) this.runButton.focus();
  }

  // Show a job's progress and then its result: `job` is a job answer (its addresses from the
  // server); `own`: this page started it (Run), else it is the lecturer's, in follow mode, whose
  // `params` are put in the form (the result on show is never under other settings).
  follow(job, { own = false, params = null } = {}) {
    if (params) {
      this.writeParams(params);
      this.state.params = params;
    }
    this.jobs.follow(job, { own, params: this.state.params });
  }

  onJobStart(job) {
    Object.assign(this.state, { events: job.events, job: job.job });
    this.setBusy(true);
    this.runFocus.running(); // the Cancel button is shown by now, if this page may cancel the job
    this.showProgress(job.progress ?? 0, job.message ?? "waiting for its turn", job.eta_seconds ?? job.expected_seconds ?? null);
    if (this.placeholderTime) this.placeholderTime.textContent = "Measuring now: the results appear here as they come in.";
  }

  onJobProgress(state) {
    this.showProgress(state.progress, state.message, state.eta_seconds ?? null);
    if (state.data && this.renderer.renderProgress && !this.withhold?.hidesProgress()) {
      this.placeholder?.remove();
      this.renderer.renderProgress(this.output, state.data);
    }
  }

  // The job ended without a result: failed, or stopped (its `stopped_by` says by what).
  onJobEnded(state) {
    const timeUp = state.stopped_by === "time_limit";
    const badge = state.status === "cancelled" ? (timeUp ? "stopped" : "cancelled") : "failed";
    this.progressBox.hidden = true;
    this.timeLeft.stop();
    this.setBusy(false);
    this.showError(state.error, badge === "cancelled" ? "note" : "error");
    this.showBadge(badge, badge);
    if (!this.result && !this.output.children.length && this.placeholder) this.output.append(this.placeholder);
    this.emit({ status: "failed", message: state.error, badge });
    this.refreshEstimate(this.state.params ?? undefined);
  }

  // Tell the page (and through it the presenter view and the class) where this demo stands.
  emit(changes) {
    Object.assign(this.state, changes);
    this.element.dispatchEvent(new CustomEvent("demostate", { bubbles: true, detail: { ...this.state } }));
  }

  // `left`: seconds still to go (the server's estimate), if known.
  showProgress(fraction, message, left = null) {
    this.progressBox.hidden = false;
    this.progressBar.value = fraction;
    this.progressText = `${Math.round(fraction * 100)}% · ${message}`;
    this.timeLeft.report(left);
    this.showTimeLeft();
    this.showBadge("training…", "training");
    this.emit({ status: "running", progress: fraction, message: message + this.timeLeft.words(), badge: this.badge.textContent });
  }

  showTimeLeft() {
    this.progressMessage.textContent = this.progressText + this.timeLeft.words();
  }

  showBadge(text, state) {
    this.badge.textContent = text;
    if (state) this.badge.dataset.state = state;
    else delete this.badge.dataset.state;
  }

  badgeFor(result, source = this.resultSource) {
    const where = `${result.device} in ${formatSeconds(result.train_seconds)}${result.noisy ? " · noisy timings (a busy machine)" : ""}`;
    return { cached: `cached · computed on ${where}`, fresh: `trained just now on ${where}`, frozen: `frozen copy · computed on ${where}` }[source];
  }

  // A static copy of the lecture: the result frozen at export time, or a note that there is none.
  showFrozen() {
    const result = this.frozen[this.demoId];
    if (result) this.showResult(result, "frozen");
    else this.showError("This demo was not run before the lecture was exported; live runs need the lecturer's server.");
  }

  // `source`: "cached", "fresh" (trained just now) or "frozen" (a static export); `ran`: the user
  // pressed Run for it (so the Settings they used are put away).
  showResult(result, source, { longer = false, ran = false } = {}) {
    if (this.withhold?.keeps([result, source, { longer, ran }])) return;
    this.result = result;
    this.resultSource = source;
    this.placeholder?.remove();
    this.cancelButton.hidden = true;
    if (!this.jobs.running) this.jobs.forget(); // this result is what a reload shows (from the address bar)
    this.showError(null);
    if (ran) this.settings.open = false;
    if (!longer) {
      this.quickResult = null;
      this.findLonger();
    }
    this.longerButton.setAttribute("aria-pressed", String(longer));
    this.longerButton.textContent = longer ? "Back to the quick run" : "Longer run";
    this.progressBox.hidden = true;
    this.timeLeft.stop();
    this.setBusy(false);
    this.showBadge(this.badgeFor(result, source), source);
    this.estimateText.textContent = ""; // the badge says this result's time; a change of settings asks again
    this.summary.textContent = result.summary ?? "";
    this.runButton.textContent = "Rerun";
    this.retrainButton.hidden = Boolean(this.frozen); // and shown only to the instructor (.instructor-only)
    this.renderer.render?.(this.output, result);
    if (this.copyButton) {
      this.copyButton.hidden = false;
      this.copyButton.textContent = "Copy link";
    }
    this.showInAddressBar();
    this.emit({ status: "done", progress: 1, message: result.summary ?? "", badge: this.badge.textContent,
                params: result.params, job: null, events: null });
  }

  // The demo's longer run (its full parameters), if the instructor computed it: offered beside Run.
  async findLonger() {
    this.longerButton.hidden = true;
    this.longerResult = null;
    if (!this.fullParams) return;
    let result = null;
    if (this.frozen) result = this.frozen[`${this.demoId}@full`] ?? null;
    else {
      try {
        const { body } = await postJSON(this.lookupUrl, this.fullParams);
        if (body.status === "done") result = body.result;
      } catch {
        return; // no longer run to offer
      }
    }
    if (!result || this.quickResult) return;
    this.longerResult = result;
    this.longerButton.hidden = false;
  }

  toggleLonger() {
    if (this.quickResult) {
      const quick = this.quickResult;
      this.showResult(quick, this.frozen ? "frozen" : "cached");
    } else if (this.longerResult) {
      const quick = this.result;
      this.showResult(this.longerResult, this.frozen ? "frozen" : "cached", { longer: true });
      this.quickResult = quick;
      this.longerButton.hidden = false;
    }
  }

  // Show the cached result for `params` without ever starting a training job.
  async showCached(params) {
    try {
      const { body } = await postJSON(this.lookupUrl, params);
      if (body.status !== "done") return;
      this.writeParams(params); // the form says which settings the result on show has
      this.showResult(body.result, "cached");
    } catch (error) {
      this.showError(this.explain(error), kindOf(error));
    }
  }

  setBusy(busy) {
    this.busy = busy;
    this.runButton.disabled = busy;
    this.retrainButton.disabled = busy;
    if (!busy) this.cancelButton.hidden = true;
    this.element.setAttribute("aria-busy", String(busy));
    if (!busy) this.runFocus.ended();
  }

  // `kind`: "error", "field" (a bad setting, named beside its field too) or "note" (e.g. cancelled).
  showError(message, kind = "error") {
    this.element.querySelectorAll(".param-error").forEach((note) => note.remove());
    const field = message ? this.invalidField : null; // marked by explain(): named beside it too
    this.invalidField = null;
    if (field) {
      kind = "field";
      const note = document.createElement("span");
      note.className = "param-error";
      note.textContent = message.replace(/^[^:]+: /, "");
      field.closest(".param").append(note);
    }
    this.errorBox.hidden = !message;
    this.errorBox.textContent = message ?? "";
    this.errorBox.dataset.kind = kind;
    if (!message) this.clearInvalid();
    resizeCharts(this.output); // the toolbar grew or shrank: the chart takes the room that is left
  }

  clearInvalid() {
    this.element.querySelectorAll("[aria-invalid]").forEach((el) => el.removeAttribute("aria-invalid"));
  }

  // A message for `error`; a bad setting's field is also marked (and, unless `focus` is false,
  // gets the focus, its Settings opened), and the next showError names the message beside it.
  explain(error, { focus = true } = {}) {
    if (!(error instanceof ApiError)) return `Something went wrong: ${error.message}`;
    if (error.status === 400 && error.body?.param) {
      const name = CSS.escape(error.body.param);
      const field = this.element.querySelector(`.param[data-name="${name}"] input, .param[data-name="${name}"] select`);
      if (field) {
        field.setAttribute("aria-invalid", "true");
        if (focus && this.form.contains(field)) this.settings.open = true;
        if (focus) field.focus();
        this.invalidField = field;
      }
    }
    if (error.status === 503 && error.retryAfter) return `${error.message} (about ${error.retryAfter} s)`;
    return error.message;
  }
}


// A refusal because a poll keeps the result back is a note, not an error.
function kindOf(error) {
  return error instanceof ApiError && error.body?.reason === "poll_open" ? "note" : "error";
}

// A control back to the value its page was served with (the parameter's default).
function toDefault(control) {
  if (control.matches("select")) [...control.options].forEach((option) => { option.selected = option.defaultSelected; });
  else if (control.type === "checkbox") control.checked = control.defaultChecked;
  else control.value = control.defaultValue;
}
