// Which renderer draws which demo's result. A renderer module exports
// render(output, result) and, if it can draw a partial result while training,
// renderProgress(output, data). A demo without one shows its summary text only.
import * as systemCheck from "./system_check.js";

export const RENDERERS = {
  system_check: systemCheck,
};
