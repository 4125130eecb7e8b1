// How many students have the lecture open, from the server's count of open follow streams
// (GET /api/follow/audience, the instructor only). Asked again every few seconds.
import { getJSON } from "../demos/api.js";

export class Audience {
  constructor(root) {
    this.url = root.dataset.audienceUrl;
    this.everyMs = 1000 * Number(root.dataset.audienceEvery); // the server's AUDIENCE_REFRESH_SECONDS
    this.line = root.querySelector(".presenter-audience");
    if (!this.url) return; // a static copy: no class to count
    this.tick = this.refresh.bind(this);
    this.refresh();
  }

  async refresh() {
    try {
      const { body } = await getJSON(this.url);
      const students = `${body.students} student${body.students === 1 ? "" : "s"}`;
      this.line.textContent = body.on ? `${students} following` : `${students} connected · follow mode is off`;
      this.line.hidden = false;
    } catch (error) {
      this.line.hidden = error.status === 403; // not the instructor: nothing to show
      this.line.textContent = error.status === 403 ? "" : `Students: ${error.message}`;
    }
    setTimeout(this.tick, this.everyMs);
  }
}
