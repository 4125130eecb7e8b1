// Q (or the Ask button) opens a student's questions panel: type a short anonymous question about
// the slide on screen, send it, and upvote the class's questions. The panel follows the list live
// only while it is open, so a class does not hold a stream each all lecture. The lecturer's own
// window (the projector) has no Ask button: the list reaches the screen only from the presenter view.
import { postJSON } from "../demos/api.js";
import { instructorStatus } from "../demos/instructor_status.js";
import { Dialog } from "./dialog.js";
import { questionBody, votesWord } from "./question_items.js";
import { followQuestions } from "./questions_feed.js";

export class QuestionsPanel {
  constructor(deck) {
    this.deck = deck;
    this.element = deck.root.querySelector(".questions-panel"); // none in a static copy
    this.askButton = deck.root.querySelector(".control-ask");
    this.instructor = true; // until the server says otherwise: nothing shows on a projector meanwhile
    this.stop = null;
    this.streamKnowsMe = false; // a stream opened before this browser's first question or vote says nothing is "yours"
    if (!this.element) return;
    this.dialog = new Dialog(this.element);
    this.form = this.element.querySelector(".questions-form");
    this.text = this.element.querySelector(".question-text");
    this.max = Number(this.text.dataset.max);
    this.count = this.element.querySelector(".question-count");
    this.message = this.element.querySelector(".questions-message");
    this.list = this.element.querySelector(".questions-list");
    this.total = this.element.querySelector(".questions-total");
    this.empty = this.element.querySelector(".questions-empty");
    this.onSubmit = (event) => { event.preventDefault(); this.send(); };
    this.onInput = this.showCount.bind(this);
    this.onList = this.render.bind(this);
    this.form.addEventListener("submit", this.onSubmit);
    this.text.addEventListener("input", this.onInput);
    this.element.querySelector(".overlay-close").addEventListener("click", () => this.close());
    this.whoAmI(deck.root.dataset.instructorUrl);
    deck.root.addEventListener("instructorchange", (event) => this.setInstructor(event.detail.instructor));
    deck.addEventListener("slidechange", () => this.showSlide()); // follow mode may move the slide meanwhile
  }

  get isOpen() { return Boolean(this.dialog?.isOpen); }

  async whoAmI(url) {
    this.setInstructor(await instructorStatus(url).then((body) => body.instructor, () => false));
  }

  setInstructor(instructor) {
    this.instructor = instructor;
    this.askButton.hidden = instructor;
    if (instructor) this.close();
  }

  toggle() {
    if (this.isOpen) this.close();
    else this.open();
  }

  open() {
    if (!this.element || this.instructor) return;
    this.showSlide();
    this.message.textContent = "";
    this.showCount();
    this.dialog.open(this.text);
    this.follow();
  }

  follow() {
    this.stop?.();
    this.stop = followQuestions(this.element.dataset.eventsUrl, this.onList);
  }

  // After this page's first question or vote the browser surely has its anonymous id (a cookie the
  // page cannot read): a stream opened before then is opened again, to mark what is this browser's.
  sent() {
    if (this.streamKnowsMe) return;
    this.streamKnowsMe = true;
    if (this.isOpen) this.follow();
  }

  close() {
    this.stop?.();
    this.stop = null;
    this.dialog?.close();
  }

  showSlide() {
    this.element.querySelector(".questions-slide").textContent = String(this.deck.n);
  }

  showCount() {
    const length = this.text.value.trim().length;
    this.count.textContent = `${length} / ${this.max} characters`;
    this.count.dataset.over = String(length > this.max);
  }

  async send() {
    try {
      await postJSON(this.element.dataset.askUrl, { text: this.text.value, slide: this.deck.n });
      this.sent();
      this.text.value = "";
      this.showCount();
      this.message.textContent = "Sent: the lecturer sees it in the list below, without your name.";
    } catch (error) {
      this.message.textContent = error.message; // the server's words: too long, too many, …
    }
    this.text.focus();
  }

  async vote(question) {
    try {
      await postJSON(question.vote_url, { up: !question.voted });
      this.sent();
      this.message.textContent = question.voted ? "Vote taken back." : "Upvoted.";
    } catch (error) {
      this.message.textContent = error.message;
    }
  }

  render({ questions, count }) {
    const focusedId = document.activeElement?.closest?.(".questions-item")?.dataset.id;
    this.total.textContent = count ? `(${count})` : "";
    this.empty.hidden = count > 0;
    this.list.replaceChildren(...questions.map((question) => this.item(question)));
    if (focusedId) this.list.querySelector(`.questions-item[data-id="${focusedId}"] .question-vote`)?.focus();
  }

  item(question) {
    const item = document.createElement("li");
    item.className = "questions-item";
    item.dataset.id = String(question.id);
    item.dataset.answered = String(question.answered);
    const vote = document.createElement("button");
    vote.type = "button";
    vote.className = "question-vote";
    vote.setAttribute("aria-pressed", String(question.voted));
    vote.setAttribute("aria-label", `Upvote (${votesWord(question.votes)})`);
    vote.textContent = `▲ ${question.votes}`;
    vote.addEventListener("click", () => this.vote(question));
    const body = document.createElement("div");
    body.className = "question-body";
    body.append(...questionBody(question));
    if (question.mine) body.querySelector(".question-meta").append(" · yours");
    item.append(vote, body);
    return item;
  }

  onKey(name) {
    if (name !== "Escape" && name !== "Q") return false; // Tab, Enter and Space work in the panel
    this.close();
    return true;
  }
}
