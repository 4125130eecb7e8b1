// Following one training job for a demo widget: its event stream, its Cancel button, and this
// tab's note of the job it started, so that a reload finds that job again and follows it on (or
// says how it ended: a stop is data, `stopped_by`, not wording). Cancel is shown only for a job
// this page may cancel: one it started (it holds the job's token), or any job for the instructor.
// Every address (the job's state, events, cancel) comes from the server's answers.
import { ApiError, followJob, getJSON, postJSON } from "./api.js";

const KEY = "great-shift-job:"; // + demo id, in sessionStorage: per tab, and it survives a reload

export class JobFollower {
  // `handlers`: start(job) as following begins, progress(state), then done(state) or ended(state);
  // cancelRefused(error) if a Cancel was not accepted.
  constructor(demoId, cancelButton, handlers) {
    this.key = KEY + demoId;
    this.cancelButton = cancelButton;
    this.handlers = handlers;
    this.job = null; // the job followed: its addresses, and `own`, `token`, `params` for one this page started
    this.stopStream = null;
    this.onCancel = () => this.cancel();
    cancelButton.addEventListener("click", this.onCancel);
  }

  get own() {
    return Boolean(this.job?.own);
  }

  get running() {
    return Boolean(this.stopStream);
  }

  // `job`: a job answer (job, url, events, cancel; cancel_token if this page started it). `own`:
  // this page started it with these `params`, so a reload follows it on. Stops following any other.
  follow(job, { own = false, params = null } = {}) {
    this.stop();
    this.job = { job: job.job, url: job.url, events: job.events, cancel: job.cancel ?? null,
                 token: job.cancel_token ?? job.token ?? null, own, params };
    if (own) sessionStorage.setItem(this.key, JSON.stringify(this.job));
    else this.forget(); // the page now shows another's job: how its own run ended is old news
    this.showCancel();
    this.handlers.start(job);
    this.stopStream = followJob(job.events, {
      progress: (state) => {
        this.learnLinks(state);
        this.handlers.progress(state);
      },
      done: (state) => this.end(state),
      ended: (state) => this.end(state),
    });
  }

  // After a reload: the job this tab started on this demo, followed on if it still runs, its
  // result or its end shown if it is over. Returns its params (for the form), or null if none.
  async resume() {
    const saved = JSON.parse(sessionStorage.getItem(this.key) ?? "null");
    if (!saved?.url) return null;
    let state;
    try {
      ({ body: state } = await getJSON(saved.url));
    } catch (error) {
      if (error instanceof ApiError && error.status === 404) this.forget(); // long gone: nothing to say
      return null;
    }
    if (["done", "failed", "cancelled"].includes(state.status)) {
      this.job = saved;
      this.end(state);
    } else {
      this.follow({ ...saved, ...state }, { own: true, params: saved.params });
    }
    return saved.params ?? {};
  }

  // Stop following (the page follows another job, or shows another result); the job runs on.
  stop() {
    this.stopStream?.();
    this.stopStream = null;
    this.cancelButton.hidden = true;
  }

  // Forget the job this tab started (a new run, or a result on show, replaces it).
  forget() {
    sessionStorage.removeItem(this.key);
  }

  async cancel() {
    if (!this.job?.cancel) return;
    this.cancelButton.disabled = true;
    try {
      await postJSON(this.job.cancel, this.job.token ? { token: this.job.token } : {});
    } catch (error) {
      this.cancelButton.disabled = false;
      this.handlers.cancelRefused(error);
    }
  }

  // The job is over: a result is not remembered for a reload (the address bar holds its settings),
  // a stop or a failure is, so that the page that started the run still says how it ended.
  end(state) {
    this.stopStream = null;
    this.cancelButton.hidden = true;
    if (state.status === "done") this.forget();
    else if (this.own) sessionStorage.setItem(this.key, JSON.stringify(this.job));
    if (state.status === "done") this.handlers.done(state);
    else this.handlers.ended(state);
  }

  // A job followed from follow mode gets its addresses with its first event.
  learnLinks(state) {
    if (this.job && !this.job.cancel && state.cancel) {
      this.job = { ...this.job, cancel: state.cancel };
      this.showCancel();
    }
  }

  showCancel() {
    const mayCancel = (this.own && Boolean(this.job.token)) || document.body.dataset.instructor === "true";
    this.cancelButton.hidden = !(mayCancel && this.job?.cancel);
    this.cancelButton.disabled = false;
  }
}
