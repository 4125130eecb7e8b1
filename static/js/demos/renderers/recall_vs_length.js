// Slide 4, a fair fight: accuracy on the first-letter task against string length, one line per
// model, drawn point by point as each (model, length) finishes training.
import { plotAccuracyByLength } from "./accuracy_by_length.js";
import { chartIn } from "./common.js";

function draw(chart, data) {
  plotAccuracyByLength(chart, data, {
    order: ["transformer", "lstm-tuned", "lstm"],
    markers: { transformer: "circle", "lstm-tuned": "diamond", lstm: "square" }, // shape as well as colour
    dashed: ["lstm"],
    chanceDigits: 1,
    xTitle: "string length (letters)",
    yTitle: "right on fresh strings",
    margin: { l: 76, r: 10, t: 44, b: 56 },
  });
}

export function render(output, result) {
  draw(chartIn(output, "recall-chart", { fresh: true }), result);
}

export function renderProgress(output, data) {
  draw(chartIn(output, "recall-chart"), data);
}

