// Whether this browser counts as the instructor: asked of the server once per page, shared by the
// instructor panel and the polls, and asked again only when the token may have changed.
import { getJSON } from "./api.js";

let answer = null;

// The server's answer ({instructor, token_configured}); `again`: the token was just saved or forgotten.
export function instructorStatus(url, { again = false } = {}) {
  if (!answer || again) {
    const asked = getJSON(url).then(({ body }) => body);
    asked.catch(() => { if (answer === asked) answer = null; }); // a failed check is asked again next time
    answer = asked;
  }
  return answer;
}
