// The closing slide: one row per test the deck ran, from the server's cached results (or, in a
// static copy, from the results frozen into the page): who won, by how much, where. Beside it the
// takeaway the server computed from those rows, act by act, and the devices and budgets they ran on. Read
// again each time the slide is shown: demos may have run during the lecture.
import { getJSON } from "./api.js";
import { textColors } from "./chart_styles.js";
import { formatNumber } from "./number_poll.js";
import { element } from "./renderers/shared/common.js";

async function recapData(deckRoot) {
  if (deckRoot.dataset.static === "true") return JSON.parse(document.getElementById("frozen-recap").textContent);
  return (await getJSON(deckRoot.dataset.recapUrl)).body;
}

// Text coloured by the family it names (a winner or an act's leader), where it names one.
function colored(el, family) {
  const color = textColors()[family];
  if (color) el.style.setProperty("--winner", color);
  if (family) el.dataset.winner = family;
  return el;
}

// One test: its slide's number, the test and who won it, then the measured numbers under them. An
// illustration (the headline's declared `contest: false`) is muted and says it is not counted, in
// place of a winner.
function row(data) {
  const illustration = data.contest === false;
  const item = element("li", illustration ? "recap-row recap-row--illustration" : "recap-row");
  const head = element("p", "recap-head");
  head.append(element("span", "recap-n", String(data.n)), element("span", "recap-test", data.measured ? data.test : data.slide));
  item.append(head);
  if (!data.measured) {
    head.append(element("span", "recap-missing", "not run yet"));
    return item;
  }
  head.append(illustration ? element("span", "recap-illustration", "illustration — not counted")
    : colored(element("span", "recap-winner", data.winner_label), data.winner));
  item.append(element("p", "recap-detail", data.detail + (data.carried ? ` (${data.carried})` : data.longer_run ? " (longer run)" : "") + guessText(data.class_guess)));
  return item;
}

// A number poll's answers beside the measurement (web/polls.py's class_guess), in a few words; not
// scored where the server found the measured range too wide for that (web/number_poll.py's too_noisy).
function guessText(guess) {
  if (!guess) return "";
  const number = (value) => formatNumber(value, guess.step, guess.unit); // as the poll itself wrote it
  if (guess.too_noisy) {
    return `; the class guessed ${number(guess.median)} (median), not scored: the measurement was too noisy `
      + `(range ${number(guess.low)} to ${number(guess.high)})`;
  }
  return `; the class guessed ${number(guess.median)} (median), measured ${number(guess.mean)}: `
    + `${guess.within} of ${guess.total} within the range, median error ${number(guess.median_error)}`;
}

// The tests in slide order, in two columns on a projector (down the first, then the second).
function table(rows) {
  const list = element("ol", "recap-rows");
  list.setAttribute("aria-label", "Each test the deck ran, who won it, and the measured numbers");
  list.append(...rows.map(row));
  return list;
}

// One line of the takeaway: the act and what its measured tests answer (its question on hover).
function actLine(act) {
  const item = colored(element("li", "recap-act"), act.leader);
  item.title = `${act.act}: ${act.question}`;
  item.append(element("strong", "recap-act-name", `${act.act}: `), element("span", "recap-act-text", act.text), ".");
  return item;
}

function takeaway(data) {
  const box = element("div", "recap-takeaway");
  const list = element("ul", "recap-acts");
  list.append(...data.acts.map(actLine));
  box.append(list);
  if (data.overall) {
    const overall = colored(element("p", "recap-overall"), data.overall.leader);
    const illustrations = data.illustrations
      ? `, ${data.illustrations} illustration${data.illustrations === 1 ? "" : "s"} not counted` : "";
    overall.append(element("strong", "", "Overall: "), `${data.overall.text} (${data.tests} tests${illustrations}). `);
    box.append(overall);
  }
  const budgets = data.budgets?.length ? ` · ${data.budgets.join(", ")}` : ""; // "the CPU default", ...
  const measured = data.rows.filter((row) => row.measured).length;
  const carried = data.rows.filter((row) => row.measured && row.carried).length; // web/recap.py: measured elsewhere
  const where = carried ? `Measured on ${data.devices.join(" and ")}${budgets}; ${carried} of ${measured} rows `
    + "carried in from another machine, each saying where and when." : `Measured on this server's ${data.devices.join(" and ")}${budgets}.`;
  (box.querySelector(".recap-overall") ?? box).append(element("span", "recap-device", data.devices.length
    ? where : "Nothing measured yet on this server."));
  return box;
}

export async function renderRecap(container) {
  try {
    const data = await recapData(document.getElementById("deck"));
    container.replaceChildren(table(data.rows), takeaway(data));
  } catch (error) {
    container.replaceChildren(element("p", "recap-missing", error.message));
  }
}

// Draw the recap whenever its slide is shown (and once for printing, where every slide is shown).
export function startRecap(deck) {
  const panel = deck.root.querySelector(".recap-output");
  if (!panel) return;
  const showIfCurrent = () => { if (deck.current.contains(panel)) renderRecap(panel); };
  deck.addEventListener("slidechange", showIfCurrent);
  if (deck.root.dataset.print === "true") renderRecap(panel);
  else showIfCurrent();
}
