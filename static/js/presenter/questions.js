// The class's questions in the presenter view: most upvoted first, with the slide each came from,
// marked answered, hidden from the class or restored here; a badge counts the unanswered ones.
// "Show on screen" (or Q) puts the list over the slide in the slides window, through the
// BroadcastChannel, and takes it away again: the projector never shows it otherwise.
import { downloadSaying, getJSON, oneAtATime, postJSON } from "../demos/api.js";
import { questionBody, votesWord } from "../deck/question_items.js";
import { followQuestions } from "../deck/questions_feed.js";

const MARKS = [ // [action, button text, when it applies]
  ["answered", "Answered", (question) => !question.answered && !question.hidden],
  ["hide", "Hide", (question) => !question.hidden],
  ["restore", "Restore", (question) => question.hidden || question.answered],
];

export class PresenterQuestions {
  constructor(root, channel) {
    this.element = root.querySelector(".presenter-questions"); // none in a static copy
    this.channel = channel;
    this.questions = [];
    this.onScreen = false;
    if (!this.element) return;
    this.list = this.element.querySelector(".presenter-questions-list");
    this.count = this.element.querySelector(".presenter-questions-count");
    this.message = this.element.querySelector(".presenter-questions-message");
    this.screenButton = this.element.querySelector(".presenter-questions-screen");
    this.screenButton.addEventListener("click", () => this.toggleScreen());
    this.element.querySelector(".presenter-questions-csv").addEventListener("click", () => this.downloadCsv());
    this.refresh = oneAtATime(() => this.fetchList()); // changes while the list is fetched: once more after it
    // The stream says when the list changed; the list itself is asked with this browser's instructor
    // token (an event stream cannot send it), so hidden questions come too.
    followQuestions(this.element.dataset.eventsUrl, () => this.refresh());
    window.addEventListener("pagehide", () => { if (this.onScreen) this.toggleScreen(); });
    // A reloaded slides window shows them again while they are on screen.
    channel.addEventListener("message", ({ data }) => { if (data.type === "questions-screen-ask" && this.onScreen) this.sendToScreen(); });
  }

  async fetchList() {
    try {
      this.render((await getJSON(this.element.dataset.url)).body.questions);
    } catch (error) {
      this.message.textContent = `The questions could not be read: ${error.message}`;
    }
  }

  render(questions) {
    this.questions = questions;
    const focused = document.activeElement?.closest?.(".presenter-question");
    const focusedAction = document.activeElement?.dataset?.action;
    this.count.textContent = String(questions.filter((q) => !q.answered && !q.hidden).length);
    this.list.replaceChildren(...questions.map((question) => this.item(question)));
    if (focused) { // the same question's button, or its next one, keeps the focus
      const item = this.list.querySelector(`.presenter-question[data-id="${focused.dataset.id}"]`);
      (item?.querySelector(`[data-action="${focusedAction}"]`) ?? item?.querySelector("button") ?? this.screenButton).focus();
    }
    if (this.onScreen) this.sendToScreen();
  }

  item(question) {
    const item = document.createElement("li");
    item.className = "presenter-question";
    item.dataset.id = String(question.id);
    item.dataset.answered = String(question.answered);
    item.dataset.hidden = String(Boolean(question.hidden));
    const votes = document.createElement("span");
    votes.className = "presenter-question-votes";
    votes.textContent = votesWord(question.votes);
    const buttons = document.createElement("div");
    buttons.className = "presenter-question-marks";
    buttons.setAttribute("role", "group");
    buttons.setAttribute("aria-label", "Mark this question");
    for (const [action, text, applies] of MARKS) {
      if (!question.url || !applies(question)) continue; // no url: this browser is not the instructor
      const button = document.createElement("button");
      button.type = "button";
      button.dataset.action = action;
      button.textContent = text;
      button.addEventListener("click", () => this.mark(question, action));
      buttons.append(button);
    }
    item.append(votes, ...questionBody(question), buttons);
    return item;
  }

  async mark(question, action) {
    try {
      await postJSON(question.url, { action });
      this.message.textContent = "";
    } catch (error) {
      this.message.textContent = error.message;
    }
    this.refresh();
  }

  toggleScreen() {
    if (!this.element) return;
    this.onScreen = !this.onScreen;
    this.screenButton.setAttribute("aria-pressed", String(this.onScreen));
    this.screenButton.textContent = this.onScreen ? "Hide from screen" : "Show on screen";
    if (this.onScreen) this.sendToScreen();
    else this.channel.postMessage({ type: "questions-screen", on: false });
  }

  // What the audience may see: never a hidden question.
  sendToScreen() {
    const shown = this.questions.filter((q) => !q.hidden)
      .map(({ text, slide, votes, answered }) => ({ text, slide, votes, answered }));
    this.channel.postMessage({ type: "questions-screen", on: true, questions: shown });
  }

  downloadCsv() {
    return downloadSaying(this.message, this.element.dataset.csvUrl, "questions.csv", "the questions");
  }
}
