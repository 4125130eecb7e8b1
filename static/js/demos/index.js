// One widget per demo area; a widget wakes up when its slide is shown. In a static export the
// widgets show the results frozen into the page; in print mode every slide's result is loaded.
import { DemoWidget } from "./widget.js";

function frozenResults(deck) {
  if (deck.root.dataset.static !== "true") return null;
  return JSON.parse(document.getElementById("frozen-results").textContent);
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
