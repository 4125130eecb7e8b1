// A poll answered with a number (templates/deck/poll_number.html): a slider paired with a typed
// value and a Send button, and the class's answers as a histogram, drawn for the class once the poll
// is closed (the server sends the answers only then) and, while it is open, in the presenter view and
// on the projector once the lecturer shows them (poll.js decides which). After the run
// the measured value is drawn over it: its middle as a line, its range as a band. How many guesses
// fell in the range, and the median error, come from the server (web/number_poll.py), never from here.
const SVG = "http://www.w3.org/2000/svg";
const WIDTH = 400; // the histogram's viewBox: stretched to the poll's width
const HEIGHT = 60;
const BINS = 20;

function decimals(step) {
  const text = String(step);
  return text.includes(".") ? text.split(".")[1].length : 0;
}

// A number as a number poll writes it, wherever it is shown (the poll, the recap): the slider's
// precision (two significant digits below 1, for a ratio) and its unit ("40%" and "0.14×" closed up,
// "3.4 digits" spaced).
export function formatNumber(value, step, unit) {
  const digits = Math.abs(value) < 1 && value !== 0 ? Math.max(decimals(step), 2) : decimals(step);
  const text = value.toFixed(digits);
  return unit === "%" || unit === "×" ? `${text}${unit}` : `${text} ${unit}`;
}

function svg(name, attributes) {
  const element = document.createElementNS(SVG, name);
  for (const [key, value] of Object.entries(attributes)) element.setAttribute(key, String(value));
  return element;
}

export class NumberAnswers {
  constructor(element, send) {
    this.form = element.querySelector(".poll-number");
    this.range = this.form.querySelector(".poll-range");
    this.typed = this.form.querySelector(".poll-value");
    this.sendButton = this.form.querySelector(".poll-send");
    this.spread = element.querySelector(".poll-spread");
    this.histogram = element.querySelector(".poll-histogram");
    this.axisWords = element.querySelector(".poll-axis-words");
    const { unit, min, max, step, axis } = this.form.dataset;
    this.unit = unit;
    this.min = Number(min);
    this.max = Number(max);
    this.step = Number(step);
    this.log = axis === "log"; // equal ratios: the slider's position and the histogram's bins
    this.measured = null; // the outcome, once the run has settled the poll

    this.onRange = () => { this.typed.value = String(this.fromSlider(Number(this.range.value))); };
    this.onTyped = () => { if (this.typed.value !== "") this.range.value = String(this.toSlider(Number(this.typed.value))); };
    this.onSubmit = (event) => {
      event.preventDefault();
      send(this.typed.value === "" ? null : Number(this.typed.value));
    };
    this.range.addEventListener("input", this.onRange);
    this.typed.addEventListener("input", this.onTyped);
    this.form.addEventListener("submit", this.onSubmit);
  }

  format(value) {
    return formatNumber(value, this.step, this.unit);
  }

  render(state, mine) {
    for (const control of [this.range, this.typed, this.sendButton]) control.disabled = !state.open;
    if (mine !== null && mine !== undefined && document.activeElement !== this.typed) {
      this.typed.value = String(mine);
      this.range.value = String(this.toSlider(mine));
    }
    if (state.open || !state.revealed) this.measured = null; // asked again: the last run's line is gone
    this.spread.hidden = !state.revealed || !state.values?.length;
    if (!this.spread.hidden) this.draw(state);
    else this.histogram.replaceChildren(); // not drawn here now: nothing of the answers stays in the page
  }

  statusText(state, mine) {
    const answers = `${state.total} ${state.total === 1 ? "answer" : "answers"}`;
    const yours = mine === null || mine === undefined ? "" : ` Your answer: ${this.format(mine)}.`;
    const median = state.revealed && state.median !== null && state.median !== undefined
      ? ` Median guess: ${this.format(state.median)}.` : "";
    if (state.open) return `Open: choose a number and send it (you can change it until the poll closes). ${answers} so far.${median}${yours}`;
    if (state.total) return `Closed with ${answers}.${median}${yours} Now the demo settles it.`;
    return "The lecturer opens this poll before the demo runs.";
  }

  // Where `value` lies between min (0) and max (1): in equal steps, or on a log axis in equal ratios.
  fraction(value) {
    const clamped = Math.min(this.max, Math.max(this.min, value));
    return this.log ? Math.log(clamped / this.min) / Math.log(this.max / this.min)
      : (clamped - this.min) / (this.max - this.min);
  }

  // The slider's position for a value, and the value at a position (on a log axis the position runs
  // 0 to 1000, and a value keeps two significant digits: 0.25, 1.3, 40).
  toSlider(value) {
    return this.log ? Math.round(this.fraction(value) * 1000) : value;
  }

  fromSlider(position) {
    return this.log ? Number((this.min * (this.max / this.min) ** (position / 1000)).toPrecision(2)) : position;
  }

  x(value) {
    return this.fraction(value) * WIDTH;
  }

  // The class's answers in BINS equal bins across the slider's range, the measured range and
  // middle over them once there is a measurement.
  draw(state) {
    const counts = new Array(BINS).fill(0);
    for (const value of state.values) {
      counts[Math.min(BINS - 1, Math.floor(this.fraction(value) * BINS))] += 1;
    }
    const tallest = Math.max(1, ...counts);
    const shapes = [svg("line", { x1: 0, x2: WIDTH, y1: HEIGHT - 0.5, y2: HEIGHT - 0.5, class: "poll-baseline" })];
    if (this.measured) {
      const { low, high, mean } = this.measured;
      // At least a step wide, as the server counts a guess within it (web/number_poll.py).
      const left = this.x(low - this.step / 2);
      shapes.push(svg("rect", { x: left, y: 0, width: Math.max(1, this.x(high + this.step / 2) - left), height: HEIGHT,
        class: "poll-band" }));
    }
    counts.forEach((count, i) => {
      if (!count) return;
      const height = (count / tallest) * (HEIGHT - 4);
      shapes.push(svg("rect", { x: (i * WIDTH) / BINS + 1, y: HEIGHT - height, width: WIDTH / BINS - 2, height,
        class: "poll-bin" }));
    });
    if (this.measured) {
      const at = this.x(this.measured.mean);
      shapes.push(svg("line", { x1: at, x2: at, y1: 0, y2: HEIGHT, class: "poll-measured" }));
    }
    this.histogram.replaceChildren(...shapes);
    const words = [`The class's ${state.values.length} answers, from ${this.format(state.values[0])} to `
      + `${this.format(state.values.at(-1))}`];
    if (this.measured) words.push(`measured ${this.format(this.measured.mean)}`);
    this.histogram.setAttribute("aria-label", words.join("; "));
    this.axisWords.textContent = this.measured ? `measured ${this.format(this.measured.mean)}` : "";
  }

  // The run's measurement: drawn over the class's answers, and said in words.
  outcomeLines(outcome, state) {
    this.measured = outcome;
    if (state.revealed && state.values?.length) this.draw(state);
    const middle = outcome.centre === "median" ? "the ratio of the medians" : "the mean of the seeds";
    // The range in the poll's precision; none where its ends round alike (one seed, or seeds that agree).
    const [low, high] = [this.format(outcome.low), this.format(outcome.high)];
    const range = low === high ? "" : `, range ${low.replace(this.unit, "").trim()} to ${high}`;
    const measured = `Measured: ${this.format(outcome.mean)} (${middle}${range}).`;
    // web/number_poll.py: a range this wide would count almost any guess a hit, so none is scored
    if (outcome.too_noisy) return [measured, " Too noisy to score the guesses: run it again on a quiet machine."];
    const within = `${outcome.within} of ${outcome.total} ${outcome.total === 1 ? "guess was" : "guesses were"} within the range`;
    const error = outcome.median_error === null ? "" : `; the class's median error was ${this.format(outcome.median_error)}`;
    return [measured, ` ${within}${error}.`];
  }
}
