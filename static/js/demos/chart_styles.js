// The charts' look, declared once for every slide: the phone's breakpoint, the text sizes, and each
// model's colour, dash and marker. Colours come from the stylesheet's variables (deck.css), so the
// page and the charts share them; dash and marker tell the models apart without colour too (a grey
// print, a washed-out projector). Renderers take all of it from here and declare none of it.

// The deck's one-column layout for a phone (deck.css's `@media (max-width: 760px)`).
export const PHONE = window.matchMedia("(max-width: 760px)");

export function onPhone() {
  return PHONE.matches;
}

// Text sizes in the units the chart is drawn in. The 1280×720 canvas is shown at 0.8 on a 1024×768
// projector, so 20 canvas pixels are 16 on the screen; a phone's flowing column is not scaled, so 16
// there. `small`: a note in a corner of a chart; `title`: a chart's own title, on every screen.
export const FONT_SIZE = {
  canvas: { text: 20, small: 18 },
  phone: { text: 16, small: 15 },
  title: 22,
};

// The sizes for this screen: {text, small}.
export function fontSizes() {
  return onPhone() ? FONT_SIZE.phone : FONT_SIZE.canvas;
}

// The chart's text size on this screen, in px.
export function textSize() {
  return fontSizes().text;
}

// Each model's line and marker, beside its colour (`color`: the stylesheet's --color-<name>, where it is
// not the model's own name). "lstm" is the LSTM at the slides' shared recipe, "lstm-tuned" the one with
// its own learning rate and forget bias, "lstm-loop" the LSTM stepped in a Python loop (the speed race);
// "baseline" a counting rule or an n-gram, "chance" guessing.
const LOOKS = {
  transformer: { dash: "solid", marker: "circle" },
  "transformer-2": { dash: "dot", marker: "square" },
  lstm: { dash: "dash", marker: "square" },
  "lstm-tuned": { dash: "dashdot", marker: "diamond" },
  "lstm-loop": { color: "lstm", dash: "dot", marker: "triangle-up" },
  rnn: { dash: "dot", marker: "triangle-down" },
  baseline: { dash: "dashdot" },
  chance: { dash: "dot" },
};

// Several lines of one model (Index Lookup's LSTM widths, narrowest first): a dash and a hollow
// marker each, so they are told apart without their shades of one colour.
export const VARIANTS = [
  { dash: "dot", marker: "circle-open" },
  { dash: "dash", marker: "square-open" },
  { dash: "longdash", marker: "diamond-open" },
  { dash: "dashdot", marker: "triangle-up-open" },
  { dash: "longdashdot", marker: "star-open" },
];

// Plotly's dashes as an SVG stroke-dasharray, for a legend drawn outside Plotly.
export const DASHARRAY = { solid: "", dash: "9 5", dot: "3 4" };

const COLORED = ["transformer", "transformer-2", "lstm", "lstm-tuned", "rnn", "chance", "baseline"];

function cssVariables(prefix) {
  const style = getComputedStyle(document.documentElement);
  return Object.fromEntries(COLORED.map((name) => [name, style.getPropertyValue(`--${prefix}-${name}`).trim() || undefined]));
}

export function modelColors() {
  return cssVariables("color");
}

// The same colours as text: darker shades that keep 4.5:1 contrast on the page.
export function textColors() {
  return cssVariables("text");
}

// Every model's {color, dash, marker}, by the names of LOOKS.
export function modelStyles() {
  const colors = modelColors();
  return Object.fromEntries(Object.entries(LOOKS).map(([name, { color, ...look }]) => [name, { color: colors[color ?? name], ...look }]));
}

// One model's dash and marker, without its colour (which needs the page's stylesheet).
export function modelLook(name) {
  const { dash, marker } = LOOKS[name];
  return { dash, marker };
}
