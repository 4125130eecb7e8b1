// The learning rate a model got on a task slide (chosen on validation data from the one grid, see
// demos/shared/tuning.py), as the legends name it: "lr 0.01", without trailing zeros.
export function rateLabel(lr) {
  return `lr ${lr.toFixed(4).replace(/0+$/, "")}`;
}
