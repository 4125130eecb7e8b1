// A speed-up or a ratio of times as the slides write it: "0.031×", "1.78×", "12×". The same rule as
// the Python that writes the summaries (demos/shared/speedup.py `times_word`; a test holds them together).
export function timesWord(value) {
  if (value < 0.1) return `${+value.toPrecision(2)}×`;
  return value < 10 ? `${value.toFixed(2)}×` : `${Math.round(value)}×`;
}
