// The help overlay, generated from the key map.
import { Dialog } from "./dialog.js";
import { KEYMAP, keyLabel } from "./keyboard.js";

export class Help {
  // `root`: the page holding a `.help` overlay; `keymap`: what it lists (the deck's by default).
  constructor(root, keymap = KEYMAP) {
    this.element = root.querySelector(".help");
    this.keymap = keymap;
    this.dialog = new Dialog(this.element);
    this.onClose = () => this.dialog.close();
    this.element.querySelector(".overlay-close").addEventListener("click", this.onClose);
    this.render();
  }

  get isOpen() { return this.dialog.isOpen; }

  render() {
    const body = this.element.querySelector("tbody");
    body.replaceChildren(...this.keymap.map(({ keys, label }) => {
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

  // The dialog itself takes the focus: a screen reader names it, and on a phone the list shows from
  // its top (its Close button, last, would scroll it to the end).
  toggle() { this.dialog.toggle(this.element); }

  onKey(name) {
    if (name !== "?" && name !== "Escape") return false; // Tab and the rest do what they do
    this.toggle();
    return true;
  }
}
