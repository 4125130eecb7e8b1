// Predict, then run: a slide's poll. The lecturer opens it, each student taps a prediction (and may
// change it until it closes) and sees how many have answered (Server-Sent Events), the lecturer
// closes it and runs the demo, and the poll says what the class predicted beside what was measured.
// While it is open the class's answers are the lecturer's: the server sends them to the class only
// at Close, and the projector draws them live only if the lecturer presses "Show counts"; the
// presenter view, the lecturer's own screen, always draws them.
// Which choice a result supports is decided by the server (the demo's recap headline), never here,
// and only by the poll's own run, at the slide's own settings (web/polls.py): the chart may show
// another run, and then the poll says so. From Open (or Reset) until Close the poll keeps the demo's
// result back: each state it shows is announced as a `pollstate` event, which the demo widget's
// Withhold controller follows.
import { getJSON, oneAtATime, postJSON } from "./api.js";
import { PHONE } from "./chart_styles.js";
import { instructorStatus } from "./instructor_status.js";
import { NumberAnswers } from "./number_poll.js";

const REDUCED_MOTION = window.matchMedia("(prefers-reduced-motion: reduce)");

// Where the focus goes when the control that started an action is disabled by it: the next step.
const NEXT_STEP = { open: ".poll-close", close: ".demo-run", reset: ".poll-open" };

// What the poll says beside its verdict when the result on show is not the run that settled it.
const ANOTHER_RUN = "The chart shows another run: the poll was settled at the slide's own settings.";
const NOT_RUN_YET = "The chart shows another run: this poll is settled by a run at the slide's own settings, not computed yet.";

function percent(count, total) {
  return total ? Math.round((100 * count) / total) : 0;
}

export class PollBox {
  // `drawsAnswersAlways`: the presenter view, which only the lecturer sees.
  constructor(element, isInstructor, { drawsAnswersAlways = false } = {}) {
    this.element = element;
    this.drawsAnswersAlways = drawsAnswersAlways;
    this.url = element.dataset.url;
    this.choices = [...element.querySelectorAll(".poll-choice")];
    this.status = element.querySelector(".poll-status");
    this.controls = element.querySelector(".poll-controls");
    this.outcome = element.querySelector(".poll-outcome");
    this.isInstructor = isInstructor; // a promise of true or false
    this.frozen = null; // in a static copy: this poll as `flask export` froze it
    this.state = null;
    this.mine = null;
    this.resultParams = null; // the parameters of the result shown beside this poll, once there is one
    this.judged = { key: null, answer: null }; // the server's answer for that result: a promise
    this.source = null;
    this.message = "";

    // A number poll (data-kind="number") has a slider and a histogram in place of the choices.
    this.number = element.dataset.kind === "number" ? new NumberAnswers(element, (value) => this.answer({ value })) : null;
    this.lastEvent = null; // the stream's newest state: shown if the fetch of the answers fails
    // The lecturer's fetch of the class's answers, which its event stream leaves out while the poll is
    // open (a browser's stream cannot send the token): events meanwhile fetch once more after it.
    this.fetchAnswers = oneAtATime(() => getJSON(this.url).then(({ body }) => this.render(body), () => this.render(this.lastEvent)));

    this.onChoice = (event) => this.answer({ choice: Number(event.currentTarget.dataset.choice) });
    this.choices.forEach((button) => button.addEventListener("click", this.onChoice));
    for (const action of ["open", "close", "reset"]) {
      element.querySelector(`.poll-${action}`).addEventListener("click", (event) => this.act(action, event.currentTarget));
    }
    this.countsButton = element.querySelector(".poll-counts");
    this.countsButton.addEventListener("click", (event) =>
      this.act(this.state?.shows_counts ? "hide_counts" : "show_counts", event.currentTarget));
  }

  // The slide is on screen: fetch the poll (with this browser's answer) and listen for changes.
  async show() {
    if (!this.url) { // a static copy: the answers and the verdict frozen by `flask export`
      if (this.frozen) this.render(this.frozen);
      if (this.frozen?.outcome) this.drawOutcome(this.frozen.outcome, this.frozen);
      return;
    }
    this.source?.close();
    this.source = new EventSource(this.element.dataset.eventsUrl);
    this.source.addEventListener("poll", (event) => this.onPollEvent(JSON.parse(event.data)));
    try {
      const { body } = await getJSON(this.url);
      this.mine = body.mine;
      this.render(body);
    } catch (error) {
      this.say(error.message);
    }
    this.controls.hidden = !(await this.isInstructor);
  }

  // In a static copy: this poll as `flask export` froze it, shown in place of the server's.
  freeze(poll) {
    this.frozen = poll;
  }

  // The instructor panel checked a new token (or forgot one): `instructor`, whether this browser is now.
  setInstructor(instructor) {
    this.isInstructor = Promise.resolve(instructor);
    this.controls.hidden = !instructor;
  }

  // The stream carries the class's answers to the lecturer's page only where it can tell that page is
  // the lecturer's (no token set, this machine): otherwise, while they are to be drawn, the page asks
  // for them, one request at a time.
  async onPollEvent(state) {
    if (state.revealed || !this.drawsLive(state) || !(await this.isInstructor)) {
      this.render(state);
      return;
    }
    this.lastEvent = state;
    this.fetchAnswers();
  }

  // Whether this screen draws the class's answers while the poll is open (if it is given them: a
  // phone never is): the presenter view always, the projected page only when the lecturer chose to.
  drawsLive(state) {
    return this.drawsAnswersAlways || Boolean(state.shows_counts);
  }

  // The poll as this screen draws it: the class's answers left out while they are not to be drawn.
  drawn(state) {
    if (!state.revealed || !state.open || this.drawsLive(state)) return state;
    return { ...state, revealed: false, counts: undefined, values: undefined, median: undefined };
  }

  hide() {
    this.source?.close();
    this.source = null;
  }

  async answer(payload) {
    try {
      const { body } = await postJSON(this.element.dataset.answerUrl, payload);
      this.mine = body.mine;
      this.message = "";
      this.render(body);
    } catch (error) {
      this.say(error.message);
    }
  }

  async act(action, button) {
    try {
      const { body } = await postJSON(this.url, { action });
      if (action === "reset") this.mine = null;
      this.message = "";
      this.render(body);
    } catch (error) {
      this.say(error.message);
    }
    this.keepFocus(button, action);
  }

  // The button pressed may be disabled now (Open, once open): the focus goes to the next step
  // (Close it; after Close, the demo's Run), never to the page body.
  keepFocus(button, action) {
    const lost = [button, document.body, null].includes(document.activeElement);
    if (!lost || (!button.disabled && !button.hidden)) return;
    const usable = (control) => control && !control.disabled && control.offsetParent !== null;
    const next = this.element.closest(".slide")?.querySelector(NEXT_STEP[action]);
    const target = [next, ...this.controls.querySelectorAll("button")].find(usable);
    target?.focus();
  }

  // The demo beside the poll shows a result: once the poll is closed, say what its own run measured
  // (asked afresh: a Retrain may have just computed that run, or computed it again).
  judge(params) {
    this.resultParams = params;
    this.judged = { key: null, answer: null };
    this.showOutcome();
  }

  say(message) {
    this.message = message;
    if (this.state) this.render(this.state);
    else this.status.textContent = message;
  }

  render(state) {
    const opened = this.state !== null && !this.state.open && state.open;
    this.state = state;
    if (opened) this.bringIntoView();
    this.element.dataset.open = String(state.open);
    // Not opened yet and no answers: only the question shows, leaving the demo its room.
    this.element.dataset.idle = String(!state.open && !state.total);
    const drawn = this.drawn(state);
    if (this.number) this.number.render(drawn, this.mine);
    else this.renderChoices(drawn);
    this.status.textContent = this.message || (this.number ? this.number.statusText(drawn, this.mine) : this.choiceStatus(drawn));
    this.controls.querySelector(".poll-open").disabled = state.open;
    // After Reset the result stays hidden until Close: Close is there to show it without asking again.
    this.controls.querySelector(".poll-close").disabled = !state.open && !state.hides_result;
    // Counts are everyone's at Close: the choice is the lecturer's only while the poll is open.
    this.countsButton.hidden = !state.open;
    this.countsButton.setAttribute("aria-pressed", String(Boolean(state.shows_counts)));
    this.countsButton.textContent = state.shows_counts ? this.countsButton.dataset.hide : this.countsButton.dataset.show;
    // `predicted`: the class has answered and the poll is closed, so its slide may show a result by itself.
    this.element.dispatchEvent(new CustomEvent("pollstate", { bubbles: true,
      detail: { demo: this.element.dataset.demo, hidesResult: Boolean(state.hides_result),
                predicted: !state.open && !state.hides_result && state.total > 0 } }));
    this.showOutcome();
  }

  // On a phone the poll sits below the slide's words: when the lecturer opens it, it comes up on
  // the screen (mid-screen, clear of the bars at the bottom), as the class's phones would expect.
  bringIntoView() {
    if (!PHONE.matches || this.element.closest(".slide")?.hidden) return;
    this.element.scrollIntoView({ block: "center", behavior: REDUCED_MOTION.matches ? "auto" : "smooth" });
  }

  // Each choice with its count and share, where this screen draws them; else the choice alone.
  renderChoices(state) {
    this.choices.forEach((button, i) => {
      const text = button.querySelector(".poll-choice-text").textContent;
      const count = state.revealed ? state.counts[i] : null;
      const share = count === null ? 0 : percent(count, state.total);
      button.disabled = !state.open;
      button.setAttribute("aria-pressed", String(this.mine === i));
      button.style.setProperty("--share", `${share}%`);
      button.querySelector(".poll-count").textContent = count === null ? "" : state.total ? `${count} · ${share}%` : "0";
      button.setAttribute("aria-label", count === null ? text : `${text}: ${count} of ${state.total} answers`);
    });
  }

  choiceStatus(state) {
    const answers = `${state.total} ${state.total === 1 ? "answer" : "answers"}`;
    const yours = this.mine === null || this.mine === undefined ? ""
      : ` Your prediction: ${this.choices[this.mine].querySelector(".poll-choice-text").textContent}.`;
    return state.open
      ? `Open: tap your prediction (you can change it until the poll closes). ${answers} so far.${yours}`
      : state.total ? `Closed with ${answers}.${yours} Now the demo settles it.`
        : "The lecturer opens this poll before the demo runs.";
  }

  // Once the poll is closed and a result is on show: the verdict of the poll's own run, and whether
  // the result on show is that run (the server decides both; one request per result shown).
  async showOutcome() {
    const state = this.state;
    if (!state || state.open || !state.total || !this.resultParams || !this.element.dataset.outcomeUrl) {
      this.hideOutcome();
      return;
    }
    const key = JSON.stringify(this.resultParams);
    if (this.judged.key !== key) {
      // A failed request shows no verdict: the widget already says what went wrong with the result.
      this.judged = { key, answer: postJSON(this.element.dataset.outcomeUrl, this.resultParams).then(({ body }) => body, () => null) };
    }
    const judged = this.judged;
    const body = await judged.answer;
    if (judged !== this.judged || state !== this.state) return; // a newer result or state draws its own
    if (body?.status === "done") this.drawOutcome(body.outcome, state, body.same_run ? "" : ANOTHER_RUN);
    else if (body?.status === "missing" && !body.same_run) this.showNote(NOT_RUN_YET);
    else this.hideOutcome();
  }

  // Emptied too, not only hidden: a poll opened again keeps its last verdict from the page (and from a
  // screen reader) until the next one is drawn.
  hideOutcome() {
    this.outcome.hidden = true;
    this.outcome.replaceChildren();
    this.element.dataset.judged = "false";
  }

  // `run`: a line on which run settled the poll, where the chart shows another ("" where it is that run).
  drawOutcome(outcome, state, run = "") {
    if (this.number) {
      const [said, detail] = this.number.outcomeLines(outcome, state);
      this.showVerdict(said, detail, run);
      return;
    }
    const measured = outcome.winner === "tie" ? "neither model was ahead with every seed" : `the ${outcome.winner_label} won`;
    let predicted = "None of the choices predicted that.";
    if (outcome.choice !== null) {
      const count = state.counts[outcome.choice];
      predicted = `${percent(count, state.total)}% of you (${count} of ${state.total}) predicted that.`;
    }
    this.outcome.dataset.choice = String(outcome.choice);
    this.showVerdict(`Measured: ${measured}. ${predicted}`, ` ${outcome.detail}.`, run);
  }

  showVerdict(said, more, run) {
    const line = document.createElement("strong");
    line.textContent = said;
    const detail = document.createElement("span");
    detail.className = "poll-outcome-detail";
    detail.textContent = more;
    this.outcome.replaceChildren(line, detail, ...(run ? [this.runLine(run)] : []));
    this.outcome.hidden = false;
    this.element.dataset.judged = "true";
  }

  // No verdict yet, only which run will settle the poll.
  showNote(run) {
    delete this.outcome.dataset.choice;
    this.outcome.replaceChildren(this.runLine(run));
    this.outcome.hidden = false;
    this.element.dataset.judged = "false";
  }

  runLine(words) {
    const line = document.createElement("span");
    line.className = "poll-outcome-run";
    line.textContent = words;
    return line;
  }
}

// Every poll on the page, keyed by its demo: the shown one listens, the others are quiet.
export class Polls {
  // `options`: as PollBox's (the presenter view draws the class's answers always).
  constructor(root, instructorUrl, options = {}) {
    const isInstructor = instructorUrl
      ? instructorStatus(instructorUrl).then((body) => body.instructor, () => false)
      : Promise.resolve(false);
    this.boxes = new Map([...root.querySelectorAll(".poll")].map((element) => [element.dataset.demo, new PollBox(element, isInstructor, options)]));
    this.current = null;
    const frozen = document.getElementById("frozen-polls");
    if (frozen) JSON.parse(frozen.textContent).forEach((poll) => this.boxes.get(poll.demo)?.freeze(poll));
    // The instructor panel checked a new token (or forgot one).
    root.addEventListener("instructorchange", (event) => {
      for (const box of this.boxes.values()) box.setInstructor(event.detail.instructor);
    });
  }

  show(demoId) {
    const box = this.boxes.get(demoId) ?? null;
    if (box === this.current) return;
    this.current?.hide();
    this.current = box;
    box?.show();
  }

  judge(demoId, params) {
    this.boxes.get(demoId)?.judge(params);
  }
}
