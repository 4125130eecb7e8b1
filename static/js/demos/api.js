// Talking to the server's API: JSON requests (with the instructor token, when this browser
// has one), and following a job's event stream.

const TOKEN_KEY = "great-shift-instructor-token";

// The instructor token lives in this browser's storage and travels only in a header.
export const instructorToken = {
  get: () => localStorage.getItem(TOKEN_KEY) ?? "",
  set: (token) => localStorage.setItem(TOKEN_KEY, token),
  clear: () => localStorage.removeItem(TOKEN_KEY),
};

function headers(extra = {}) {
  const token = instructorToken.get();
  return { Accept: "application/json", ...(token ? { "X-Instructor-Token": token } : {}), ...extra };
}

export class ApiError extends Error {
  // `retryAfter`: the seconds a busy server (503) asked to wait before trying again, if it said.
  constructor(status, body, retryAfter = null) {
    super(body?.error ?? `The server answered ${status}.`);
    this.status = status;
    this.body = body;
    this.retryAfter = retryAfter;
  }
}

async function request(url, options = {}) {
  let response;
  try {
    response = await fetch(url, { ...options, headers: headers(options.headers) });
  } catch {
    throw new ApiError(0, { error: "Cannot reach the server. Check the connection and try again." });
  }
  const body = await response.json().catch(() => null);
  if (!response.ok) {
    throw new ApiError(response.status, body, Number(response.headers.get("Retry-After")) || null);
  }
  return { status: response.status, body };
}

export function getJSON(url) {
  return request(url);
}

// `keepalive`: the request outlives the page (sent as the window closes).
export function postJSON(url, payload = {}, { keepalive = false } = {}) {
  return request(url, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(payload),
    keepalive });
}

// Saves the answer to `url` as a file (the instructor's CSV export: the token goes in a header,
// which a plain link could not send).
async function download(url, filename) {
  const response = await fetch(url, { headers: headers() }).catch(() => null);
  if (!response?.ok) throw new ApiError(response?.status ?? 0, await response?.json().catch(() => null));
  const link = document.createElement("a");
  link.href = URL.createObjectURL(await response.blob());
  link.download = filename;
  link.click();
  URL.revokeObjectURL(link.href);
}

// download(), then says in `message` what was saved ("Saved <what> as <filename>.") or why not.
export async function downloadSaying(message, url, filename, what) {
  try {
    await download(url, filename);
    message.textContent = `Saved ${what} as ${filename}.`;
  } catch (error) {
    message.textContent = error.message;
  }
}

// `task` (an async function) run one at a time: a call while it runs asks for one more run after it,
// however many calls came meanwhile, so a burst of "something changed" events fetches the newest
// state once more, never a queue of requests.
export function oneAtATime(task) {
  let running = false, again = false;
  const run = async () => {
    if (running) {
      again = true;
      return;
    }
    running = true;
    try {
      await task();
    } finally {
      running = false;
    }
    if (again) {
      again = false;
      run();
    }
  };
  return run;
}

// Follows a job until it ends: handlers.progress(state) for each update, then handlers.done(state)
// or handlers.ended(state) (status "failed" or "cancelled", with its `error` and, if stopped, its
// `stopped_by`). Returns a function that stops following.
export function followJob(eventsUrl, handlers) {
  const source = new EventSource(eventsUrl);
  const stop = () => source.close();
  const parse = (event) => JSON.parse(event.data);
  source.addEventListener("progress", (event) => handlers.progress(parse(event)));
  source.addEventListener("done", (event) => { stop(); handlers.done(parse(event)); });
  for (const status of ["failed", "cancelled"]) {
    source.addEventListener(status, (event) => { stop(); handlers.ended(parse(event)); });
  }
  source.addEventListener("error", () => {
    // EventSource reconnects by itself after a drop; it gives up only if the job is gone.
    if (source.readyState === EventSource.CLOSED) {
      handlers.ended({ status: "failed", error: "Lost track of this training job (the server may have restarted). Press Run again." });
    }
  });
  return stop;
}

// Ask the server to train every demo's default result not cached yet (instructor only);
// returns a sentence for the lecturer either way.
export async function warmAllDemos(url) {
  try {
    const { body } = await postJSON(url);
    if (!body.jobs.length) return "Every demo is cached already.";
    const queued = `Queued ${body.jobs.length} demo(s) to train, one at a time.`;
    return body.waiting?.length
      ? `${queued} The queue is full: press again in a while for the other ${body.waiting.length} (${body.waiting.join(", ")}).`
      : queued;
  } catch (error) {
    return error.message;
  }
}
