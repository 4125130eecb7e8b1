// The class's questions, live: their event stream (web/questions.py) sends the list (as this browser may see
// it) now and after every change. A student's page holds the stream only while it shows the list.

// Calls onList(body) with {questions, count} for each event; returns a function that stops.
export function followQuestions(url, onList) {
  const source = new EventSource(url); // reconnects by itself after a drop
  source.addEventListener("questions", (event) => onList(JSON.parse(event.data)));
  return () => source.close();
}
