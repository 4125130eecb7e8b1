// The key map and the keyboard handler. The help overlay is built from KEYMAP,
// so what it lists is exactly what the keys do.

// `keys` are normalised names (see keyName): letters in upper case, "Space", "Shift+Space".
export const KEYMAP = [
  { action: "next", keys: ["ArrowRight", "Space", "PageDown", "N"], label: "Next slide" },
  { action: "prev", keys: ["ArrowLeft", "Shift+Space", "PageUp", "P"], label: "Previous slide" },
  { action: "first", keys: ["Home"], label: "First slide" },
  { action: "last", keys: ["End"], label: "Last slide" },
  { action: "goto", keys: ["G"], label: "Go to slide: type its number, then Enter" },
  { action: "overview", keys: ["O", "Escape"], label: "Overview of all slides" },
  { action: "fullscreen", keys: ["F"], label: "Full screen on / off" },
  { action: "blank", keys: ["B", "."], label: "Blank the screen / bring it back" },
  { action: "help", keys: ["?"], label: "This list of keys" },
  { action: "presenter", keys: ["S"], label: "Presenter view: notes, next slide, timer (opens a window)" },
  { action: "instructor", keys: ["I"], label: "Instructor panel: token, warm all demos, follow mode, polls' CSV" },
  { action: "join", keys: ["J"], label: "Join code full screen: a QR code for the class's phones" },
  { action: "rejoin", keys: ["R"], label: "Follow the lecturer again (in follow mode)" },
];

const KEY_SYMBOLS = { ArrowRight: "→", ArrowLeft: "←", ArrowUp: "↑", ArrowDown: "↓", Escape: "Esc" };

export function keyLabel(key) {
  return key.split("+").map((part) => KEY_SYMBOLS[part] ?? part).join(" + ");
}

// One name per key press: printable characters as typed (letters upper-cased, so the
// shift state does not matter for them), named keys with "Shift+" when shift is held.
export function keyName(event) {
  if (event.key === " ") return event.shiftKey ? "Shift+Space" : "Space";
  if (event.key.length === 1) return event.key.toUpperCase();
  return (event.shiftKey ? "Shift+" : "") + event.key;
}

// Typing in a demo's text field, slider or menu must not move the deck.
function isTyping(target) {
  return Boolean(target.closest?.("input, textarea, select, [contenteditable='true']"));
}

// A focused button, link or disclosure keeps Space and Enter (they press it), and a control of a
// demo keeps the arrow keys; the deck moves only when the focus is elsewhere.
const PRESSABLE = "button, a[href], summary, [role='button']";
const ARROWS = ["ArrowLeft", "ArrowRight", "ArrowUp", "ArrowDown"];
// What presentation clickers send: it always moves the deck, whatever has the focus.
const CLICKER_KEYS = ["PageDown", "PageUp"];

function keepsItsKey(target, name) {
  if ((name === "Space" || name === "Enter") && target.closest?.(PRESSABLE)) return true;
  return ARROWS.includes(name) && Boolean(target.closest?.(".demo") && target.closest(`${PRESSABLE}, input, select`));
}

export class Keyboard {
  // `actions` maps each key map action to a function; `modals` get keys first while open (their
  // onKey returns true for a key it handled).
  // `keymap`: the deck's by default; the presenter window has its own.
  constructor(actions, modals, keymap = KEYMAP) {
    this.actions = actions;
    this.modals = modals;
    this.bindings = new Map(keymap.flatMap(({ action, keys }) => keys.map((key) => [key, action])));
    this.onKeyDown = this.onKeyDown.bind(this);
    document.addEventListener("keydown", this.onKeyDown);
  }

  onKeyDown(event) {
    if (event.ctrlKey || event.metaKey || event.altKey || event.defaultPrevented) return;
    const name = keyName(event);
    const typing = isTyping(event.target);
    const modal = this.modals.find((m) => m.isOpen);
    if (modal) { // Esc leaves a dialog even from its text field
      if ((!typing || name === "Escape") && modal.onKey(name, event)) event.preventDefault();
      return;
    }
    if (name === "Escape" && closeSettings(event.target)) {
      event.preventDefault();
      return;
    }
    if (CLICKER_KEYS.includes(name)) { // a clicker moves the deck from anywhere, even from inside a field
      event.preventDefault(); // a slider or a menu would take the key as a big step
      if (typing) event.target.blur();
      this.actions[this.bindings.get(name)]?.();
      return;
    }
    if (typing) {
      if (name === "Escape") event.target.blur(); // a way back to the deck
      return;
    }
    if (keepsItsKey(event.target, name)) return;
    const action = this.bindings.get(name);
    if (!action || !this.actions[action]) return; // a window may offer only some actions
    event.preventDefault();
    this.actions[action]();
  }
}

// Esc inside an open Settings panel closes it and puts the focus back on its toggle.
function closeSettings(target) {
  const settings = target.closest?.("details[open]");
  if (!settings) return false;
  settings.open = false;
  settings.querySelector("summary").focus();
  return true;
}
