// What each overlay dialog of the deck does (help, overview, instructor panel): it takes the focus
// when it opens and gives it back when it closes, and the page behind it is inert meanwhile, so
// Tab and a screen reader stay inside it. Esc is handled by the keyboard, which closes it.

const FOCUSABLE = "button:not([disabled]), [href], input:not([disabled]), select, textarea, [tabindex]:not([tabindex='-1'])";

export class Dialog {
  constructor(element) {
    this.element = element;
    this.returnTo = null;
    this.madeInert = [];
  }

  get isOpen() { return !this.element.hidden; }

  // `focus`: what takes the focus (default: the first control inside, else the dialog itself).
  open(focus = null) {
    if (this.isOpen) return;
    this.returnTo = document.activeElement;
    this.element.hidden = false;
    this.madeInert = [...this.element.parentElement.children].filter((other) => other !== this.element && !other.inert);
    for (const other of this.madeInert) other.inert = true;
    (focus ?? this.element.querySelector(FOCUSABLE) ?? this.element).focus();
  }

  close() {
    if (!this.isOpen) return;
    this.element.hidden = true;
    for (const other of this.madeInert) other.inert = false;
    this.madeInert = [];
    const back = this.returnTo;
    this.returnTo = null;
    if (back && back !== document.body && back.isConnected && back.getClientRects().length) back.focus();
    else document.querySelector(".slide:not([hidden])")?.focus();
  }

  toggle(focus) {
    if (this.isOpen) this.close();
    else this.open(focus);
  }
}
