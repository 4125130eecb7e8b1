// Builds the deck and its controllers from the page. No framework, no build step.
import { Deck } from "./deck/deck.js";
import { Blank } from "./deck/blank.js";
import { toggleFullscreen } from "./deck/fullscreen.js";
import { GoTo } from "./deck/goto.js";
import { Follow } from "./deck/follow.js";
import { Help } from "./deck/help.js";
import { InstructorPanel } from "./deck/instructor.js";
import { JoinScreen, showJoinAddress } from "./deck/join.js";
import { Keyboard } from "./deck/keyboard.js";
import { Overview } from "./deck/overview.js";
import { Pointer } from "./deck/pointer.js";
import { PresenterLink } from "./deck/presenter_link.js";
import { Print } from "./deck/print.js";
import { Progress } from "./deck/progress.js";
import { QuestionsPanel } from "./deck/questions.js";
import { QuestionsScreen } from "./deck/questions_screen.js";
import { Scale } from "./deck/scale.js";
import { Touch } from "./deck/touch.js";
import { afterNextPaint, fetchPlotly } from "./demos/charts.js";
import { startDemos } from "./demos/index.js";
import { Polls } from "./demos/poll.js";
import { startRecap } from "./demos/recap.js";

const deck = new Deck(document.getElementById("deck"));
const overview = new Overview(deck);
const help = new Help(deck.root);
const goTo = new GoTo(deck);
const blank = new Blank(deck);
const joinScreen = new JoinScreen(deck);

const demos = startDemos(deck);
startRecap(deck);
const presenter = new PresenterLink(deck, demos, blank);
const follow = new Follow(deck, demos);
const instructor = new InstructorPanel(deck, follow);
const pointer = new Pointer(deck, follow);
const questions = new QuestionsPanel(deck);
new QuestionsScreen(deck);
const polls = new Polls(deck.root, deck.root.dataset.instructorUrl);
const showPoll = () => polls.show(deck.current.dataset.demo);
deck.addEventListener("slidechange", showPoll);
showPoll();
// A result beside a poll: the poll says what the class predicted and what was measured.
deck.root.addEventListener("demostate", (event) => {
  if (event.detail.status === "done") polls.judge(event.detail.demo, event.detail.params);
});
showJoinAddress(deck.root);

const actions = {
  next: () => deck.next(),
  prev: () => deck.prev(),
  first: () => deck.first(),
  last: () => deck.last(),
  goto: () => goTo.open(),
  overview: () => overview.toggle(),
  fullscreen: toggleFullscreen,
  blank: () => blank.toggle(),
  help: () => help.toggle(),
  presenter: () => presenter.open(),
  instructor: () => instructor.toggle(),
  join: () => joinScreen.toggle(),
  rejoin: () => follow.rejoin(),
  pointer: () => pointer.hold(), // held: released on the key's keyup (pointer.js)
  ask: () => questions.toggle(),
};

new Keyboard(actions, [blank, joinScreen, help, instructor, questions, goTo, overview]);
new Progress(deck);
new Scale(deck);
new Touch(deck);
new Print(deck);

// The on-screen buttons run the same actions as the keys.
deck.root.addEventListener("click", (event) => {
  const button = event.target.closest("[data-action]");
  if (button) actions[button.dataset.action]();
});

window.greatShift = { deck, demos, follow, polls, pointer }; // for the browser console and the tests

// Once the slide is painted, download the chart library in the background, ready for the first chart
// (not at the page's load event: on a phone on slow Wi-Fi that came a tenth of a second later still).
afterNextPaint(1000).then(fetchPlotly);
