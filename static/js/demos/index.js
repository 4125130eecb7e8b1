// One widget per demo area; a widget wakes up when its slide is shown.
import { DemoWidget } from "./widget.js";

export function startDemos(deck) {
  const widgets = new Map();
  for (const element of deck.root.querySelectorAll(".demo[data-run-url]")) {
    widgets.set(element.closest(".slide"), new DemoWidget(element));
  }
  const showCurrent = () => widgets.get(deck.current)?.onShow();
  deck.addEventListener("slidechange", showCurrent);
  showCurrent();
  return widgets;
}
