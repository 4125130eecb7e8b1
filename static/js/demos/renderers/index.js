// Which renderer draws which demo's result: every module in this folder, under its file's name, which is
// its demo's id (renderers/amnesia.js draws demos/amnesia.py's results). The page's bundle lists the folder
// (web/bundle.py), so a new renderer is found by its file alone. A renderer module exports
// render(output, result) and, if it can draw a partial result while training, renderProgress(output, data);
// and onShow(output) if it must act when its slide is shown again (charts are resized by the widget). A demo
// without one shows its summary text only.
import * as RENDERERS from "./*.js";

export { RENDERERS };
