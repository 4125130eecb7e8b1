// The class's questions over the slide in the lecturer's slides window: shown only while the
// lecturer presses "Show on screen" in the presenter view, which sends the list over the
// BroadcastChannel ({type: "questions-screen", on, questions}) and sends it again as it changes, or
// when a reloaded slides window asks for it ({type: "questions-screen-ask"}).
import { openChannel } from "./channel.js";
import { questionBody, votesWord } from "./question_items.js";

const ON_SCREEN = 6; // the most upvoted: a projector shows a few, legibly

export class QuestionsScreen {
  constructor(deck) {
    this.element = deck.root.querySelector(".questions-screen"); // none in a static copy
    this.list = this.element?.querySelector(".questions-screen-list");
    if (!this.element) return;
    const channel = openChannel((message) => { if (message.type === "questions-screen") this.show(message); });
    channel.postMessage({ type: "questions-screen-ask" }); // a presenter view showing them sends them again
  }

  show({ on, questions = [] }) {
    this.element.hidden = !on;
    this.list.replaceChildren(...questions.slice(0, ON_SCREEN).map((question) => {
      const item = document.createElement("li");
      item.className = "questions-screen-item";
      item.dataset.answered = String(question.answered);
      const votes = document.createElement("span");
      votes.className = "questions-screen-votes";
      votes.textContent = votesWord(question.votes);
      item.append(votes, ...questionBody(question));
      return item;
    }));
  }
}
