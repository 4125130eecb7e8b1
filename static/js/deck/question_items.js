// A question from the class as every list shows it (a phone's panel, the presenter view, the
// audience screen): its words as plain text, never markup, and the slide it came from.

export function votesWord(n) {
  return `${n} ${n === 1 ? "vote" : "votes"}`;
}

// The question's words and a line saying where it came from and what the lecturer did with it.
export function questionBody(question) {
  const words = document.createElement("p");
  words.className = "question-words";
  words.textContent = question.text; // typed by a student: text, never HTML
  const meta = document.createElement("p");
  meta.className = "question-meta";
  const marks = [question.answered ? "answered" : "", question.hidden ? "hidden from the class" : ""].filter(Boolean);
  meta.textContent = [`Slide ${question.slide}`, ...marks].join(" · ");
  return [words, meta];
}
