// A fair fight: accuracy on the first-letter task against string length, one line per model at
// the mean over the seeds, with each point's range over the seeds, and chance.
import { modelStyles } from "../chart_styles.js";
import { plotAccuracyByLength } from "./shared/accuracy_by_length.js";
import { chartIn, percent, seedCount } from "./shared/common.js";
import { rateLabel } from "./shared/rates.js";

function draw(chart, data) {
  const styles = modelStyles();
  // Each model named with the learning rate it got (chosen on validation data; the summary says how).
  const models = Object.fromEntries(Object.entries(data.models)
    .map(([name, label]) => [name, `${label} (${rateLabel(data.budget.lr[name])})`]));
  plotAccuracyByLength(chart, { ...data, models }, {
    order: ["transformer", "lstm-tuned", "lstm"],
    looks: styles, // dash and marker as well as colour: the two LSTMs' oranges are close
    baselines: [{ name: `chance (${percent(data.chance, 1)})`, y: data.lengths.map(() => data.chance), ...styles.chance }],
    xTitle: "string length (letters)",
    yTitle: `right (${seedCount(data.seeds)})`,
    margin: { l: 8, r: 12, t: 8, b: 8 },
    phone: { xaxis: { title: { text: "string length" } } },
  });
}

export function render(output, result) {
  draw(chartIn(output, "recall-chart", { fresh: true }), result);
}
