// I opens the instructor panel: the token (kept in this browser), warm every demo, and follow mode.
import { downloadSaying, instructorToken, warmAllDemos } from "../demos/api.js";
import { Dialog } from "./dialog.js";
import { instructorStatus } from "../demos/instructor_status.js";

export class InstructorPanel {
  constructor(deck, follow) {
    this.deck = deck;
    this.follow = follow;
    this.element = deck.root.querySelector(".instructor");
    this.dialog = new Dialog(this.element);
    this.statusUrl = deck.root.dataset.instructorUrl;
    this.warmUrl = deck.root.dataset.warmUrl;
    this.form = this.element.querySelector(".instructor-form");
    this.tokenInput = this.element.querySelector(".instructor-token");
    this.status = this.element.querySelector(".instructor-status");
    this.followBox = this.element.querySelector(".instructor-follow");
    this.warmButton = this.element.querySelector(".instructor-warm");
    this.message = this.element.querySelector(".instructor-message");
    this.csvButton = this.element.querySelector(".instructor-csv");

    this.onSave = (event) => { event.preventDefault(); this.save(); };
    this.onForget = () => { instructorToken.clear(); this.tokenInput.value = ""; this.check({ again: true }); };
    this.onFollowChange = () => this.setFollow(this.followBox.checked);
    this.onWarm = this.warm.bind(this);
    this.form.addEventListener("submit", this.onSave);
    this.element.querySelector(".instructor-forget").addEventListener("click", this.onForget);
    this.followBox.addEventListener("change", this.onFollowChange);
    this.warmButton.addEventListener("click", this.onWarm);
    this.onCsv = this.downloadCsv.bind(this);
    this.csvButton?.addEventListener("click", this.onCsv);
    if (this.statusUrl) this.check(); // the lecturer's controls (.instructor-only) show from the start
  }

  get isOpen() { return this.dialog.isOpen; }

  toggle() {
    if (this.isOpen) {
      this.dialog.close();
      return;
    }
    this.followBox.checked = this.follow.leading;
    this.message.textContent = "";
    this.check({ again: true });
    this.dialog.open(this.tokenInput);
  }

  async save() {
    const token = this.tokenInput.value.trim();
    if (token) instructorToken.set(token);
    this.tokenInput.value = "";
    await this.check({ again: true });
  }

  async check({ again = false } = {}) {
    if (!this.statusUrl) {
      this.status.textContent = "This is a static copy of the lecture: the instructor tools need the lecturer's server.";
      this.followBox.disabled = this.warmButton.disabled = true;
      return;
    }
    try {
      const body = await instructorStatus(this.statusUrl, { again });
      this.status.textContent = body.instructor
        ? "This browser is recognised as the instructor."
        : body.token_configured
          ? "Not recognised: enter the server's instructor token."
          : "Without a token set on the server, only the server's own machine is the instructor.";
      this.element.dataset.instructor = String(body.instructor);
      document.body.dataset.instructor = String(body.instructor); // shows or hides .instructor-only
      this.followBox.disabled = this.warmButton.disabled = !body.instructor;
      if (this.csvButton) this.csvButton.disabled = !body.instructor;
      // The polls show their controls to the instructor only.
      this.deck.root.dispatchEvent(new CustomEvent("instructorchange", { detail: { instructor: body.instructor } }));
    } catch (error) {
      this.status.textContent = error.message;
    }
  }

  async setFollow(on) {
    try {
      await this.follow.setLeading(on);
      this.message.textContent = on ? "Follow mode is on: students see your slide and your demo results." : "Follow mode is off.";
    } catch (error) {
      this.followBox.checked = this.follow.leading;
      this.message.textContent = error.message;
    }
  }

  downloadCsv() {
    return downloadSaying(this.message, this.csvButton.dataset.url, "predictions.csv", "the class's predictions");
  }

  async warm() {
    this.message.textContent = await warmAllDemos(this.warmUrl);
  }

  onKey(name) {
    if (name !== "Escape" && name !== "I") return false; // Tab, Space and Enter work on the panel's controls
    this.toggle();
    return true;
  }
}
