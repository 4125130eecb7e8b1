// The help overlay, generated from the key map.
import { KEYMAP, keyLabel } from "./keyboard.js";

export class Help {
  constructor(deck) {
    this.element = deck.root.querySelector(".help");
    this.render();
  }

  get isOpen() { return !this.element.hidden; }

  render() {
    const body = this.element.querySelector("tbody");
    body.replaceChildren(...KEYMAP.map(({ keys, label }) => {
      const row = document.createElement("tr");
      const keyCell = document.createElement("th");
      keyCell.scope = "row";
      for (const key of keys) {
        const kbd = document.createElement("kbd");
        kbd.textContent = keyLabel(key);
        keyCell.append(kbd, " ");
      }
      const labelCell = document.createElement("td");
      labelCell.textContent = label;
      row.append(keyCell, labelCell);
      return row;
    }));
  }

  toggle() { this.element.hidden = !this.element.hidden; }

  onKey(name) {
    if (name === "?" || name === "Escape") this.toggle();
    return true; // while the list is open, no other key acts
  }
}
