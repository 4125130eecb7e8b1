// The key map and the keyboard handler. The help overlay is built from KEYMAP,
// so what it lists is exactly what the keys do.

// `keys` are normalised names (see keyName): letters in upper case, "Space", "Shift+Space". A row
// without an action says what a key does to the control that has the focus (the help lists it too).
export const PRESS_ROW = { action: null, keys: ["Enter"], label: "Press the button that has the focus (→ and Space move the deck, even from a button)" };
export const KEYMAP = [
  { action: "next", keys: ["ArrowRight", "Space", "PageDown", "N"], label: "Next slide" },
  { action: "prev", keys: ["ArrowLeft", "Shift+Space", "PageUp", "P"], label: "Previous slide" },
  { action: "first", keys: ["Home"], label: "First slide" },
  { action: "last", keys: ["End"], label: "Last slide" },
  { action: "goto", keys: ["G"], label: "Go to slide: type its number, then Enter" },
  { action: "overview", keys: ["O", "Escape"], label: "Overview of all slides (in a field, Esc first leaves the field)" },
  { action: "fullscreen", keys: ["F"], label: "Full screen on / off" },
  { action: "blank", keys: ["B", "."], label: "Blank the screen / bring it back" },
  { action: "help", keys: ["?"], label: "This list of keys" },
  { action: "presenter", keys: ["S"], label: "Presenter view: notes, next slide, timer (opens a window)" },
  { action: "instructor", keys: ["I"], label: "Instructor panel: token, warm all demos, follow mode, polls' CSV" },
  { action: "join", keys: ["J"], label: "Join code full screen: a QR code for the class's phones" },
  { action: "rejoin", keys: ["R"], label: "Follow the lecturer again (in follow mode)" },
  { action: "pointer", keys: ["L"], label: "Hold: a red pointer follows the mouse (the class sees it too)" },
  { action: "ask", keys: ["Q"], label: "Ask the lecturer a question, anonymously, and upvote the class's (a student's screen)" },
  PRESS_ROW,
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

// Who keeps a key when the focus is on a control; the deck takes every other key.
// - A field (text, number, slider, menu, checkbox): what is typed into it, arrows included, except a
//   clicker's PageUp/PageDown, which move the deck, and Esc, which leaves the field and so hands the
//   arrows back to the deck.
// - A button, link, disclosure or word chip: Enter, which presses it. → and Space move the deck there
//   and press nothing, so a lecturer who clicked a button can go on with the usual keys.
// - A group that moves its focus with the arrows (slide 11's characters) takes them itself
//   (preventDefault), and the deck leaves a key that was taken.
function inField(target) {
  return Boolean(target.closest?.("input, textarea, select, [contenteditable='true']"));
}

const PRESSABLE = "button, a[href], summary, [role='button']";
// What presentation clickers send: it always moves the deck, whatever has the focus.
const CLICKER_KEYS = ["PageDown", "PageUp"];

function pressesIt(target, name) {
  return name === "Enter" && Boolean(target.closest?.(PRESSABLE));
}

export class Keyboard {
  // `actions` maps each key map action to a function; `modals` get keys first while open (their
  // onKey returns true for a key it handled).
  // `keymap`: the deck's by default; the presenter window has its own.
  constructor(actions, modals, keymap = KEYMAP) {
    this.actions = actions;
    this.modals = modals;
    this.bindings = new Map(keymap.filter(({ action }) => action).flatMap(({ action, keys }) => keys.map((key) => [key, action])));
    this.onKeyDown = this.onKeyDown.bind(this);
    document.addEventListener("keydown", this.onKeyDown);
  }

  onKeyDown(event) {
    if (event.ctrlKey || event.metaKey || event.altKey || event.defaultPrevented) return;
    const name = keyName(event);
    const typing = inField(event.target);
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
    if (pressesIt(event.target, name)) return;
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
