// The last slide's recap: one row per test the deck ran, from the server's cached results
// (or, in a static copy, from the results frozen into the page). Who won, by how much, where.
import { getJSON } from "./api.js";
import { textColors } from "./charts.js";
import { element } from "./renderers/shared/common.js";

async function recapRows() {
  const deckRoot = document.getElementById("deck");
  if (deckRoot.dataset.static === "true") return JSON.parse(document.getElementById("frozen-recap").textContent);
  return (await getJSON(deckRoot.dataset.recapUrl)).body.rows;
}

function row(data) {
  const tr = element("tr");
  tr.append(element("td", "recap-n", String(data.n)), element("td", "recap-test", data.measured ? data.test : data.slide));
  if (!data.measured) {
    const cell = element("td", "recap-missing", "not run yet");
    cell.colSpan = 2;
    tr.append(cell);
    return tr;
  }
  const winner = element("td", "recap-winner", data.winner_label);
  const color = textColors()[data.winner];
  if (color) winner.style.setProperty("--winner", color);
  winner.dataset.winner = data.winner;
  tr.append(winner, element("td", "recap-detail", data.detail + (data.longer_run ? " (longer run)" : "")));
  return tr;
}

export async function renderRecap(container) {
  const table = element("table", "recap");
  const head = element("tr");
  ["", "Test", "Won", "Measured"].forEach((text) => head.append(element("th", "", text)));
  table.append(head);
  container.replaceChildren(element("p", "recap-title", "What this deck measured today"), table);
  try {
    const rows = await recapRows();
    rows.forEach((data) => table.append(row(data)));
    const devices = [...new Set(rows.filter((r) => r.measured).map((r) => r.device))];
    if (devices.length) container.append(element("p", "recap-device", `Measured on ${devices.join(", ")}.`));
  } catch (error) {
    container.append(element("p", "recap-missing", error.message));
  }
}
