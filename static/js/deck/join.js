// Joining from a phone. The join address beside each QR code (slide 1, the instructor panel, the
// J screen) is asked of the server, which builds it from the host this browser reached (or
// FLASK_PUBLIC_URL), as it drew the QR code.
import { getJSON } from "../demos/api.js";
import { Dialog } from "./dialog.js";

export async function showJoinAddress(root) {
  const figures = [...root.querySelectorAll(".join[data-join-url]")];
  if (!figures.length) return;
  try {
    const { body } = await getJSON(figures[0].dataset.joinUrl);
    figures.forEach((figure) => {
      figure.querySelector(".join-address").textContent = body.short;
      figure.querySelector(".join-local").hidden = !body.local; // phones could not reach localhost
    });
  } catch {
    // the QR code still works; the address stays a placeholder
  }
}

// J shows the QR code as large as the screen allows, for the back of the hall.
export class JoinScreen {
  constructor(deck) {
    const element = deck.root.querySelector(".join-screen"); // none in a static copy
    this.dialog = element ? new Dialog(element) : null;
  }

  get isOpen() { return Boolean(this.dialog?.isOpen); }

  toggle() { this.dialog?.toggle(); }

  onKey(name) {
    if (name !== "J" && name !== "Escape") return false;
    this.toggle();
    return true;
  }
}
