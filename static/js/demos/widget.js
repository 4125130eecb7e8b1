// The demo widget on every slide: Run / Rerun / Retrain, a progress bar with the time left, and
// the result, drawn by the demo's renderer (./renderers/). The widget keeps the lifecycle (show,
// run, progress, result); one controller per job does the rest: the settings form, the result's
// link, the badge, errors, the estimate, asking before a long run, the longer run, following a
// job, a poll's secret and where the focus goes. Each controller is given only its elements and the
// handlers it calls back (`{ show, busy, … }`): none reads or sets the widget's fields, nor the widget theirs.
import { getJSON, postJSON } from "./api.js";
import { Badge } from "./badge.js";
import { resizeCharts } from "./charts.js";
import { ConfirmBox } from "./confirm_box.js";
import { ErrorNote } from "./error_note.js";
import { RunEstimate, TimeLeft } from "./estimate.js";
import { JobFollower } from "./job_follower.js";
import { LongerRun } from "./longer_run.js";
import { RENDERERS } from "./renderers/index.js";
import { ResultLink } from "./result_link.js";
import { RunFocus } from "./run_focus.js";
import { SettingsForm } from "./settings_form.js";
import { Withhold } from "./withhold.js";

// Where a demo stands before any run, and again when a poll hides what it showed.
const IDLE = { status: "idle", progress: 0, message: "", badge: "", params: null, job: null, events: null };

export class DemoWidget {
  // `frozen`: in a static export, the results frozen into the page ({results, prepared}: demo id →
  // result); no server.
  constructor(element, frozen = null) {
    this.element = element;
    this.frozen = frozen;
    this.demoId = element.dataset.demo;
    this.runUrl = element.dataset.runUrl;
    this.infoUrl = element.dataset.infoUrl;
    this.lookupUrl = element.dataset.lookupUrl;
    this.runButton = element.querySelector(".demo-run");
    this.retrainButton = element.querySelector(".demo-retrain");
    this.cancelButton = element.querySelector(".demo-cancel");
    this.placeholder = element.querySelector(".demo-placeholder");
    this.progressBox = element.querySelector(".demo-progress");
    this.progressBar = element.querySelector(".demo-progress-bar");
    this.progressMessage = element.querySelector(".demo-progress-message");
    this.progressText = "";
    this.timeLeft = new TimeLeft(() => this.showTimeLeft()); // counts down between the job's reports
    this.output = element.querySelector(".demo-output");
    this.summary = element.querySelector(".demo-summary");
    this.renderer = RENDERERS[this.demoId] ?? {};
    this.result = null;
    this.busy = false;
    // What other windows (presenter view, students following) need to mirror this widget.
    this.state = { demo: this.demoId, ...IDLE };

    this.settings = new SettingsForm(element, {
      run: () => this.run(),
      edited: () => this.estimate.refresh(), // change a setting, and the time it will take is asked again
      reset: () => this.errors.show(null),
    });
    this.errors = new ErrorNote(element, this.settings, this.output);
    this.badge = new Badge(element);
    // A poll beside it: its cached result waits for Run until the class has answered and the poll is
    // closed (the printed page shows it at once).
    this.waitsForPrediction = element.dataset.poll === "true" && element.closest(".deck")?.dataset.print !== "true";
    // And while the poll is open (or reset and not closed again), no result is shown at all.
    this.withhold = this.waitsForPrediction && !frozen ? new Withhold(element.closest(".slide"), this.demoId, {
      hold: () => this.holdResult(),
      hide: () => this.hideResult(),
      release: (args) => this.showResult(...args),
      say: (message) => this.errors.show(message, "note"),
      unsay: (message) => this.errors.withdraw(message),
    }) : null;
    this.estimate = new RunEstimate(element, {
      url: frozen ? null : element.dataset.estimateUrl, // a static copy has no server to ask
      waitsForPrediction: this.waitsForPrediction,
      settings: () => this.settings.read(),
      invalid: (error) => this.errors.report(error, { focus: false }),
      valid: () => {
        this.errors.clearInvalid();
        if (!this.busy && this.errors.kind === "field") this.errors.show(null);
      },
      showsResultFor: (params) => Boolean(this.result) && JSON.stringify(this.result.params) === JSON.stringify(params),
    });
    this.confirm = new ConfirmBox(element, {
      run: (request) => this.run(request),
      cancelled: () => this.runButton.focus(),
      areDefaults: (params) => this.settings.areDefaults(params),
    });
    this.link = new ResultLink(element, this.settings, frozen);
    this.longer = new LongerRun(element, {
      frozenRun: frozen ? frozen.prepared[this.demoId] ?? null : undefined,
      show: (result, source, options) => this.showResult(result, source, options),
      shownResult: () => this.result,
      busy: () => this.busy,
    });
    this.runFocus = new RunFocus(element, this.runButton, this.cancelButton);
    this.jobs = new JobFollower(this.demoId, this.cancelButton, {
      start: (job) => this.onJobStart(job),
      progress: (state) => this.onJobProgress(state),
      done: (state) => {
        this.showResult(state.result, state.cached ? "cached" : "fresh", { ran: true });
        this.estimate.refresh();
      },
      ended: (state) => this.onJobEnded(state),
      cancelRefused: (error) => this.errors.report(error),
    });
    this.linked = this.link.fromAddress();

    this.onRun = () => this.run();
    this.onRetrain = () => this.run({ force: true });
    this.runButton.addEventListener("click", this.onRun);
    this.retrainButton.addEventListener("click", this.onRetrain);
    // After a reload: the job this tab started here is followed on (or its end said) before anything else.
    this.resumed = this.frozen ? null : this.resumeJob();
  }

  // The job this tab had started on this demo before a reload, with its settings put back in the
  // form; its params, or null if there was none.
  async resumeJob() {
    const params = await this.jobs.resume();
    if (params) {
      this.settings.write(params);
      this.state = { ...this.state, params };
      this.announceOwnRun(); // running, done or stopped: what the page shows is this tab's own run
    }
    return params;
  }

  // What other windows (the presenter view, students following) need to mirror this widget: where
  // its demo stands (status, progress, the job to watch or the settings of the result shown).
  mirrorState() {
    return this.state;
  }

  // Follow mode: show the lecturer's run of `demo` ({id, job, events} while it trains, else {id,
  // params} of a cached result) unless it is on screen already. A run of this tab's own, found after a
  // reload, comes first; `stillWanted()` says, once that is known, whether the lecturer's run is still wanted.
  async showLecturers(demo, stillWanted) {
    if (demo.id !== this.demoId) return;
    await this.resumed;
    if (!stillWanted()) return;
    if (demo.events) {
      if (this.state.job !== demo.job) this.follow({ job: demo.job, events: demo.events }, { params: demo.params });
    } else if (JSON.stringify(this.result?.params) !== JSON.stringify(demo.params)) {
      this.showCached(demo.params);
    }
  }

  // This page runs its own job (Run, or one resumed after a reload): follow mode stops replacing it.
  announceOwnRun() {
    this.element.dispatchEvent(new CustomEvent("demoownrun", { bubbles: true }));
  }

  // The slide is on screen: show the result its address asks for, or the default result if one
  // is cached (unless a poll waits for the class's prediction), or the job already training it;
  // otherwise wait for Run, since training costs the lecturer's time. Once the class has predicted
  // and the poll is closed (back on the slide, a reload), its default result is the poll's own run:
  // every screen shows it, the projector as the phones.
  async onShow() {
    await this.open();
    // The page came with the summary of the result this slide opens on (web/deck.py opening_summary),
    // for the first paint: it stays only while a result is on show (that one, or another's own summary).
    if (!this.result) this.summary.textContent = "";
  }

  // What onShow shows, as said above it.
  async open() {
    const resumed = await this.resumed; // after a reload, the job this tab started comes first
    this.resumed = null;
    if (this.result) {
      resizeCharts(this.output);
      this.renderer.onShow?.(this.output);
      this.link.showInAddressBar();
    }
    if (this.result || this.busy) return;
    if (this.frozen) {
      this.showFrozen();
      return;
    }
    this.estimate.refresh(resumed ?? undefined);
    if (resumed) return; // its end (cancelled, stopped or failed) is said: nothing replaces it by itself
    // Nothing to show until the poll closes (a link, a reload); or a result came meanwhile.
    if (this.withhold && ((await this.withhold.hidesResult()) || this.result || this.busy)) return;
    if (this.linked) {
      const params = this.linked;
      this.linked = null;
      this.state = { ...this.state, params };
      await this.showCached(params);
      if (!this.result && !this.errors.shown) this.badge.say("not computed with these settings yet: press Run");
      return;
    }
    // The prepared run and the cached default are asked for beside the demo's state, not after it: a
    // round trip fewer before a cached result is on show (a phone on the hall's Wi-Fi waits 150 ms or
    // more for each). A lookup never starts training; a slide whose poll comes first asks for neither.
    if (!this.waitsForPrediction) this.longer.ask();
    const cachedDefault = this.waitsForPrediction ? null : postJSON(this.lookupUrl, {}).catch(() => null);
    let info;
    try {
      ({ body: info } = await getJSON(this.infoUrl));
    } catch {
      this.longer.forget();
      return; // the Run button still works, and will say what is wrong
    }
    if (this.result || this.busy) return;
    if (info.job) {
      this.longer.forget();
      this.follow(info.job);
      return;
    }
    if (this.waitsForPrediction) {
      if (this.withhold?.predicted && info.cached) this.run({ params: {}, confirmed: true, shownBySlide: true });
      return;
    }
    // A run measured on another machine and carried here is shown first; else the cached default.
    if ((await this.longer.openOnCarried()) || this.result || this.busy) return;
    if (!info.cached) return;
    const looked = await cachedDefault;
    if (this.result || this.busy) return;
    if (looked?.body.status === "done") this.showResult(looked.body.result, "cached", { ran: true });
    else this.run({ params: {}, confirmed: true, shownBySlide: true }); // cached: nothing to confirm, and the estimate is asked above
  }

  // `shownBySlide`: the slide showed its cached default by itself, nobody pressed Run.
  async run({ force = false, params = this.settings.read(), confirmed = false, shownBySlide = false } = {}) {
    const startedFrom = document.activeElement;
    if (this.frozen) {
      this.showFrozen();
      return;
    }
    if (this.busy || this.withhold?.refusesRun()) return;
    this.confirm.close();
    this.errors.show(null);
    if (!confirmed && this.estimate.available) {
      const estimate = await this.estimate.refresh(params);
      if (estimate === undefined) return; // a bad setting: the error says which
      if (this.confirm.asks(estimate, { force, params })) return; // a long run: the lecturer chooses
    }
    this.runFocus.starting(startedFrom);
    this.setBusy(true);
    this.settings.close(); // the settings were accepted: the run and its result need the room
    this.state = { ...this.state, params };
    this.jobs.forget(); // a new run: how an earlier one ended is no longer news
    if (!shownBySlide) this.announceOwnRun();
    try {
      const { status, body } = await postJSON(this.runUrl, force ? { ...params, force: true } : params);
      if (status === 200) this.showResult(body.result, "cached", { ran: true });
      else this.follow(body, { own: true });
    } catch (error) {
      this.setBusy(false);
      this.errors.report(error);
      if (this.result) this.badge.showResult(this.result, this.resultSource);
      else this.badge.show("", "");
    }
  }

  // Show a job's progress and then its result: `job` is a job answer (its addresses from the
  // server); `own`: this page started it (Run), else it is the lecturer's, in follow mode, whose
  // `params` are put in the form (the result on show is never under other settings).
  follow(job, { own = false, params = null } = {}) {
    if (params) {
      this.settings.write(params);
      this.state = { ...this.state, params };
    }
    this.jobs.follow(job, { own, params: this.state.params });
  }

  onJobStart(job) {
    this.state = { ...this.state, events: job.events, job: job.job };
    this.setBusy(true);
    this.runFocus.running(); // the Cancel button is shown by now, if this page may cancel the job
    this.showProgress(job.progress ?? 0, job.message ?? "waiting for its turn", job.eta_seconds ?? job.expected_seconds ?? null);
    this.estimate.measuring();
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
    this.errors.show(state.error, badge === "cancelled" ? "note" : "error");
    this.badge.show(badge, badge);
    if (!this.result && !this.output.children.length && this.placeholder) this.output.append(this.placeholder);
    this.emit({ status: "failed", message: state.error, badge });
    this.estimate.refresh(this.state.params ?? undefined);
  }

  // Tell the page (and through it the presenter view and the class) where this demo stands.
  emit(changes) {
    this.state = { ...this.state, ...changes };
    this.element.dispatchEvent(new CustomEvent("demostate", { bubbles: true, detail: { ...this.state } }));
  }

  emitIdle() {
    this.emit(IDLE);
  }

  // `left`: seconds still to go (the server's estimate), if known.
  showProgress(fraction, message, left = null) {
    this.progressBox.hidden = false;
    this.progressBar.value = fraction;
    this.progressText = `${Math.round(fraction * 100)}% · ${message}`;
    this.timeLeft.report(left);
    this.showTimeLeft();
    this.badge.show("training…", "training");
    this.emit({ status: "running", progress: fraction, message: message + this.timeLeft.words(), badge: this.badge.text });
  }

  showTimeLeft() {
    this.progressMessage.textContent = this.progressText + this.timeLeft.words();
  }

  // A static copy of the lecture: the result frozen at export time (a run carried in from another machine
  // first, as on the live slide), or a note that there is none.
  showFrozen() {
    const prepared = this.frozen.prepared[this.demoId];
    const quick = this.frozen.results[this.demoId];
    if (prepared && (prepared.carried || !quick)) this.longer.openOn(prepared, quick);
    else if (quick) this.showResult(quick, "frozen");
    else this.errors.show("This demo was not run before the lecture was exported; live runs need the lecturer's server.");
  }

  // A result came while the poll keeps it back (Withhold keeps it for Close): the widget stands idle.
  holdResult() {
    this.progressBox.hidden = true;
    this.badge.show("", "");
    this.setBusy(false);
    this.emitIdle();
  }

  // The poll opened: the slide as it was before any result (the placeholder, Run, no badge), the page
  // (the presenter view, a class following) told the demo shows nothing now; or, during a run, its
  // partial curves taken away. Whether a result was taken away.
  hideResult() {
    if (!this.result) {
      if (this.busy) this.showPlaceholder(); // a run's partial curves, drawn before the poll opened
      return false;
    }
    this.result = null;
    this.longer.clear();
    this.link.hide();
    this.showPlaceholder();
    this.summary.textContent = "";
    this.badge.show("", "");
    this.runButton.textContent = "Run";
    this.retrainButton.hidden = true;
    this.emitIdle();
    this.estimate.refresh();
    return true;
  }

  showPlaceholder() {
    this.output.replaceChildren(...(this.placeholder ? [this.placeholder] : []));
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
    this.errors.show(null);
    if (ran) this.settings.close();
    this.longer.shown(longer);
    this.progressBox.hidden = true;
    this.timeLeft.stop();
    this.setBusy(false);
    this.badge.showResult(result, source);
    this.estimate.clear(); // the badge says this result's time
    // Unchanged text left as it is (the page may have come with it: web/deck.py opening_summary), so
    // that the browser does not paint the sentence a second time.
    if (this.summary.textContent !== (result.summary ?? "")) this.summary.textContent = result.summary ?? "";
    // A run carried in at another machine's settings: Run trains this machine's own (a carried run at
    // this machine's own settings is its default already: Rerun shows it, Retrain trains it here).
    this.runButton.textContent = result.carried && longer ? "Run here" : "Rerun";
    this.retrainButton.hidden = Boolean(this.frozen); // and shown only to the instructor (.instructor-only)
    this.renderer.render?.(this.output, result);
    this.link.show(result);
    this.emit({ status: "done", progress: 1, message: result.summary ?? "", badge: this.badge.text,
                params: result.params, job: null, events: null });
  }

  // Show the cached result for `params` without ever starting a training job.
  async showCached(params) {
    try {
      const { body } = await postJSON(this.lookupUrl, params);
      if (body.status !== "done") return;
      this.settings.write(params); // the form says which settings the result on show has
      this.showResult(body.result, "cached");
    } catch (error) {
      this.errors.report(error);
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
}
