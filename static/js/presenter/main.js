// The presenter window: follows the slides window over the BroadcastChannel, shows the
// current slide's notes and demo status, pictures of the current and next slide, the time and
// how many students follow. Keys move both windows and scroll the notes.
import { openChannel } from "../deck/channel.js";
import { GoTo } from "../deck/goto.js";
import { Help } from "../deck/help.js";
import { Keyboard, PRESS_ROW } from "../deck/keyboard.js";
import { getJSON } from "../demos/api.js";
import { Polls } from "../demos/poll.js";
import { Audience } from "./audience.js";
import { PresenterQuestions } from "./questions.js";
import { SlidePicture, plainSlideHtml } from "./picture.js";
import { PresenterPointer } from "./pointer.js";
import { Timer } from "./timer.js";

// The presenter window's keys (its `?` lists them). PageUp and PageDown move slides, as in the
// slides window, since presentation clickers send them.
const PRESENTER_KEYMAP = [
  { action: "next", keys: ["ArrowRight", "Space", "PageDown", "N"], label: "Next slide (both windows)" },
  { action: "prev", keys: ["ArrowLeft", "Shift+Space", "PageUp", "P"], label: "Previous slide (both windows)" },
  { action: "first", keys: ["Home"], label: "First slide" },
  { action: "last", keys: ["End"], label: "Last slide" },
  { action: "goto", keys: ["G"], label: "Go to slide: type its number, then Enter" },
  { action: "notesDown", keys: ["ArrowDown", "J"], label: "Scroll the notes down" },
  { action: "notesUp", keys: ["ArrowUp", "K"], label: "Scroll the notes up" },
  { action: "blank", keys: ["B", "."], label: "Blank the audience's screen / bring it back" },
  { action: "questions", keys: ["Q"], label: "Show the class's questions on the audience's screen / take them off" },
  { action: "help", keys: ["?"], label: "This list of keys" },
  PRESS_ROW,
];

// How the presenter names each of a slide's runs (web/deck.py's /api/measured `run`).
const RUN_WORDS = { default: "Measured", "longer run": "Longer run, measured", "carried run": "Carried from another machine, measured" };
const NOTES_STEP = 0.4; // of the notes pane's height per key press

function measuredLine(className, text) {
  const line = document.createElement("p");
  line.className = className;
  line.textContent = text;
  return line;
}

class PresenterView {
  constructor(root) {
    this.root = root;
    this.slides = [...root.querySelectorAll(".presenter-slide")];
    this.total = this.slides.length;
    this.n = 1;
    this.title = root.querySelector(".presenter-title");
    this.position = root.querySelector(".presenter-n");
    this.notes = root.querySelector(".presenter-notes");
    this.demoLine = root.querySelector(".presenter-demo");
    this.demoName = root.querySelector(".presenter-demo-name");
    this.demoStatus = root.querySelector(".presenter-demo-status");
    this.demoProgress = root.querySelector(".presenter-demo-progress");
    this.measured = root.querySelector(".presenter-measured");
    this.nowPicture = new SlidePicture(root.querySelector(".presenter-picture-now"));
    this.nextPicture = new SlidePicture(root.querySelector(".presenter-picture-next"));
    this.nextTitle = root.querySelector(".presenter-next-title");
    this.pictures = new Map(); // slide number → {html, css}: the slide as the slides window last showed it
    this.notesHtml = null; // slide number -> its notes, once the server has given them
    this.notesMessage = "Loading the speaker notes…";
    // The lecturer's own screen: the class's answers drawn live, whatever the projector shows.
    this.polls = new Polls(root, root.dataset.instructorUrl, { drawsAnswersAlways: true });
    this.channel = openChannel(this.onMessage.bind(this));
    this.channel.postMessage({ type: "hello" }); // the slides window answers with where it is
    this.show(1);
    this.loadNotes(root.dataset.notesUrl);
  }

  // The notes are not in any page: the server gives them to the instructor (this machine, or a
  // browser holding the instructor token) and refuses everyone else.
  async loadNotes(url) {
    if (!url) {
      this.notesMessage = "Speaker notes are not part of this copy of the lecture.";
    } else {
      try {
        this.notesHtml = (await getJSON(url)).body.notes;
      } catch (error) {
        this.notesMessage = error.status === 403
          ? "Speaker notes are for the instructor: enter the instructor token in the slides window (press I there), then reload."
          : `The speaker notes could not be loaded: ${error.message}`;
      }
    }
    this.showNotes();
  }

  showNotes() {
    const html = this.notesHtml?.[String(this.n)];
    if (html === undefined) {
      const message = document.createElement("p");
      message.className = "presenter-notes-missing";
      message.textContent = this.notesMessage;
      this.notes.replaceChildren(message);
      return;
    }
    // Our own notes, rendered from the slide files' Markdown on the server.
    const parsed = new DOMParser().parseFromString(html, "text/html");
    this.notes.replaceChildren(...parsed.body.childNodes);
    this.notes.scrollTop = 0;
  }

  // The numbers the notes leave out: the current slide's cached results (its summary sentence, the
  // device and budget, when it was computed), asked for afresh each time, since demos run during the lecture.
  async showMeasured() {
    const url = this.root.dataset.measuredUrl, n = this.n;
    const slide = this.slides[n - 1];
    if (!url) {
      this.measured.replaceChildren();
      return;
    }
    let runs;
    try {
      runs = (await getJSON(url)).body.slides[String(n)];
    } catch (error) {
      this.measured.replaceChildren(measuredLine("presenter-measured-missing", `The cached results could not be read: ${error.message}`));
      return;
    }
    if (n !== this.n) return; // moved on while asking
    if (runs === undefined) {
      this.measured.replaceChildren(measuredLine("presenter-measured-missing",
        slide.dataset.demo === "recap" ? "This slide recaps the others' cached results." : "This slide has no demo."));
    } else if (!runs.length) {
      this.measured.replaceChildren(measuredLine("presenter-measured-missing", "Not measured yet: no cached result for this slide."));
    } else {
      this.measured.replaceChildren(...runs.map((run) => {
        const when = run.created ? new Date(run.created).toLocaleString([], { dateStyle: "medium", timeStyle: "short" }) : "an unknown date";
        const line = measuredLine("presenter-measured-run", run.summary);
        line.prepend(Object.assign(document.createElement("strong"), {
          className: "presenter-measured-where",
          textContent: `${RUN_WORDS[run.run] ?? "Measured"} on ${run.device}${run.budget ? ` (${run.budget})` : ""}, ${when}: `,
        }));
        return line;
      }));
    }
  }

  scrollNotes(direction) {
    this.notes.scrollBy({ top: direction * NOTES_STEP * this.notes.clientHeight, behavior: "instant" });
  }

  // The same surface as the Deck, so the key map and the go-to prompt work here too.
  goTo(n) {
    const target = Math.min(Math.max(Math.round(n), 1), this.total);
    if (Number.isNaN(target)) return;
    this.channel.postMessage({ type: "goto", n: target });
    this.show(target);
  }
  next() { this.goTo(this.n + 1); }
  prev() { this.goTo(this.n - 1); }
  first() { this.goTo(1); }
  last() { this.goTo(this.total); }

  show(n) {
    const moved = n !== this.n;
    this.n = n;
    if (moved) this.showDemo(null);
    const slide = this.slides[n - 1];
    this.position.textContent = String(n);
    this.title.textContent = slide.dataset.title;
    this.demoName.textContent = slide.dataset.demo;
    this.polls.show(slide.dataset.demo); // the class's answers to this slide's poll, live
    this.polls.boxes.forEach((box, demo) => { box.element.hidden = demo !== slide.dataset.demo; });
    this.showNotes();
    this.showMeasured();
    this.showPictures();
    document.title = `Presenter · ${n}/${this.total} · ${slide.dataset.title}`;
  }

  // The slides window's pictures where it sent them, the slide's words alone until then.
  showPictures() {
    this.showPicture(this.n);
    const next = this.slides[this.n];
    this.nextTitle.textContent = next ? `${next.dataset.n}. ${next.dataset.title}` : "This is the last slide.";
    if (next) this.showPicture(this.n + 1);
    else this.nextPicture.clear();
  }

  showPicture(n) {
    const { html, css, stage } = this.pictures.get(n) ?? { html: plainSlideHtml(this.slides[n - 1]), css: "" };
    const title = this.slides[n - 1].dataset.title;
    if (n === this.n) this.nowPicture.show(html, `Slide ${n} as the audience sees it: ${title}`, css, stage);
    else if (n === this.n + 1) this.nextPicture.show(html, `Next, slide ${n}: ${title}`, css, stage);
  }

  onPicture({ n, html, css, stage }) {
    this.pictures.set(n, { html, css, stage });
    if (n === this.n || n === this.n + 1) this.showPicture(n);
  }

  showDemo(state) {
    const status = state?.status ?? "idle";
    this.demoLine.dataset.status = status;
    const texts = {
      // The closing recap runs nothing: it reads every slide's cached result (data-recap, from the slide file).
      idle: "recap" in this.slides[this.n - 1].dataset ? "the recap: every slide's cached result" : "not run yet on this slide",
      running: `training ${Math.round((state?.progress ?? 0) * 100)}% · ${state?.message ?? ""}`,
      done: state?.badge ?? "done",
      failed: `failed: ${state?.message ?? ""}`,
    };
    this.demoStatus.textContent = texts[status] ?? status;
    this.demoProgress.hidden = status !== "running";
    this.demoProgress.value = state?.progress ?? 0;
  }

  onMessage(message) {
    if (message.type === "picture") this.onPicture(message);
    else if (message.type === "slide" && message.n !== this.n) this.show(message.n);
    else if (message.type === "demo" && message.n === this.n) {
      this.showDemo(message.state);
      if (message.state?.status === "done") {
        this.polls.judge(message.state.demo, message.state.params);
        this.showMeasured();
      }
    }
  }
}

const root = document.getElementById("presenter");
const view = new PresenterView(root);
const goTo = new GoTo({ root, total: view.total, goTo: (n) => view.goTo(n) });
const help = new Help(root, PRESENTER_KEYMAP);
const questions = new PresenterQuestions(root, view.channel);
new Keyboard({
  next: () => view.next(),
  prev: () => view.prev(),
  first: () => view.first(),
  last: () => view.last(),
  goto: () => goTo.open(),
  notesDown: () => view.scrollNotes(1),
  notesUp: () => view.scrollNotes(-1),
  blank: () => view.channel.postMessage({ type: "blank" }),
  questions: () => questions.toggleScreen(),
  help: () => help.toggle(),
}, [help, goTo], PRESENTER_KEYMAP);
new Timer(root);
new Audience(root);
new PresenterPointer(root, view.nowPicture, view.channel);
window.greatShiftPresenter = view;
