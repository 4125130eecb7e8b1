// One widget per demo area; a widget wakes up when its slide is shown. In a static export the
// widgets show the results frozen into the page; in print mode every slide's result is loaded.
import { DemoWidget } from "./widget.js";

// {results, prepared}: each demo's frozen default result and its prepared run, by demo id.
function frozenResults(deck) {
  if (deck.root.dataset.static !== "true") return null;
  const read = (id) => JSON.parse(document.getElementById(id).textContent);
  return { results: read("frozen-results"), prepared: read("frozen-prepared") };
}

export function startDemos(deck) {
  const frozen = frozenResults(deck);
  const widgets = new Map();
  for (const element of deck.root.querySelectorAll(".demo[data-widget]")) {
    widgets.set(element.closest(".slide"), new DemoWidget(element, frozen));
  }
  const showCurrent = () => widgets.get(deck.current)?.onShow();
  deck.addEventListener("slidechange", showCurrent);
  if (deck.root.dataset.print === "true") widgets.forEach((widget) => widget.onShow());
  else showCurrent();
  return widgets;
}
