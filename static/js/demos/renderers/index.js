// Which renderer draws which demo's result. A renderer module exports
// render(output, result) and, if it can draw a partial result while training,
// renderProgress(output, data); and onShow(output) if it must act when its slide is shown
// again (charts are resized by the widget). A demo without one shows its summary text only.
import * as systemCheck from "./system_check.js";
import * as attentionWeb from "./attention_web.js";
import * as attentionMatrix from "./attention_matrix.js";
import * as trainingProgression from "./training_progression.js";
import * as signalDecay from "./signal_decay.js";
import * as amnesia from "./amnesia.js";
import * as recallVsLength from "./recall_vs_length.js";
import * as indexLookup from "./index_lookup.js";
import * as speedRace from "./speed_race.js";
import * as contextScaling from "./context_scaling.js";
import * as generation from "./generation.js";
import * as dyck from "./dyck.js";

export const RENDERERS = {
  system_check: systemCheck,
  attention_web: attentionWeb,
  attention_matrix: attentionMatrix,
  training_progression: trainingProgression,
  signal_decay: signalDecay,
  amnesia,
  recall_vs_length: recallVsLength,
  index_lookup: indexLookup,
  speed_race: speedRace,
  context_scaling: contextScaling,
  generation,
  dyck,
};
