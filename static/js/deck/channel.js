// The deck's windows on one machine (the slides, the presenter view) talk over one BroadcastChannel.
// Messages: {type: "slide", n}, {type: "demo", n, state}, {type: "picture", n, html, css} (a slide as
// the slides window shows it, and the styles that page added to itself), {type: "goto", n}, {type: "blank"}, {type: "hello"},
// {type: "questions-screen", on, questions} (the presenter view shows the class's questions over the slide, or hides them),
// {type: "questions-screen-ask"} (a slides window that just opened asks for them again).

export const CHANNEL_NAME = "great-shift-deck";

export function openChannel(onMessage) {
  const channel = new BroadcastChannel(CHANNEL_NAME);
  channel.addEventListener("message", (event) => onMessage(event.data));
  return channel;
}
