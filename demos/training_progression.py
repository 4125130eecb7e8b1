"""Training progression: a Transformer language model learns the corpus from random weights while the room
watches. Every few epochs: the loss, and the model's greedy continuation of "We" beside the
target sentence. It stops when the continuation is the target, or when the budget ends."""
import math
import time
from dataclasses import replace

import torch

from demos.core.corpus import TARGET_SENTENCE, load, split
from demos.core.tokenizer import join
from demos.core.training import thinned
from demos.runtime.device import device_label
from demos.runtime.params import Param, seed_param
from demos.shared.language_models import SHARED, fit, generate, held_out_loss, mean_loss, new_model, window_starts

ID = "training_progression"
TITLE = "Watching the model learn"
PARAMS = [
    seed_param(),
    Param("epochs", "int", 20,
          "Most epochs to train (an epoch: one window from each sentence of the corpus, on average)", 1, 40),
    Param("snapshot_every", "int", 1, "Epochs between snapshots of the loss and the continuation", 1, 10),
]
TINY = {"epochs": 1}
PROMPT = "We"
EVAL_WINDOWS = 48  # training windows on which each snapshot measures the loss
CURVE_POINTS = 200


def steps_per_epoch() -> int:
    corpus = load()
    windows = len(window_starts(corpus.train_ids, corpus.train_starts, SHARED.context))
    return math.ceil(windows / SHARED.batch_size)


def work(params: dict) -> float:
    """The run's cost, in units of the server's speed test (engine/calibration.py); the factor was measured at the defaults
    (`python -m benchmarks.eta --fit`): epochs."""
    return 1.25 * params["epochs"]


def run(params: dict, progress, device: torch.device) -> dict:
    corpus, tokenizer = load(), load().tokenizer
    prompt, target = tokenizer.encode(PROMPT), tokenizer.encode(TARGET_SENTENCE)
    goal = target[len(prompt):]
    per_epoch = steps_per_epoch()
    total_steps = params["epochs"] * per_epoch
    settings = replace(SHARED, seed=params["seed"], steps=total_steps)
    model = new_model(settings, device)
    snapshots, curve = [], []
    started = time.perf_counter()

    def partial() -> dict:
        return {"prompt": PROMPT, "target": TARGET_SENTENCE, "target_tokens": [tokenizer.vocab[i] for i in goal],
                "snapshots": list(snapshots), "loss_curve": list(curve), "total_steps": total_steps,
                "steps_per_epoch": per_epoch}

    def snapshot(step: int) -> bool:
        """Measure and record the model now; True when its continuation is the target."""
        continuation = generate(model, prompt, len(goal))
        matches = [a == b for a, b in zip(continuation, goal)]
        snapshots.append({
            "epoch": step // per_epoch,
            "step": step,
            "seconds": round(time.perf_counter() - started, 3),
            "loss": mean_loss(model, corpus.train_ids, corpus.train_starts, SHARED.context, device, EVAL_WINDOWS),
            "held_out_loss": held_out_loss(model, SHARED.context, device),
            "continuation": [tokenizer.vocab[i] for i in continuation],
            "matches": matches,
            "matched": sum(matches),
        })
        latest = snapshots[-1]
        progress(step / total_steps, f"epoch {latest['epoch']}: loss {latest['loss']:.2f}, "
                                     f"{latest['matched']}/{len(goal)} words right", partial())
        return all(matches)

    def on_report(step: int, losses: list[float]) -> bool:
        curve[:] = thinned(losses, CURVE_POINTS)
        return snapshot(step)

    if not snapshot(0):  # a snapshot after every `snapshot_every` epochs, and after the last step
        fit(model, settings, device, on_report, report_every=per_epoch * params["snapshot_every"])
    seconds = time.perf_counter() - started
    last = snapshots[-1]
    stopped = "matched" if last["matched"] == len(goal) else "budget"
    first_loss, last_loss = snapshots[0]["loss"], last["loss"]
    ending = (f"the continuation of '{PROMPT}' matched the target at epoch {last['epoch']}"
              if stopped == "matched" else
              f"the budget ended with {last['matched']} of {len(goal)} words right")
    in_training = sum(abstract.count(TARGET_SENTENCE) for abstract in split()[0])
    summary = (f"Trained from random weights for {last['epoch']} epochs ({last['step']} steps) on "
               f"{device_label(device)}: the loss fell from {first_loss:.2f} to {last_loss:.2f} and {ending}. "
               f"Held-out loss: {snapshots[0]['held_out_loss']:.2f} → {last['held_out_loss']:.2f}. The target sentence "
               f"is in the training text ({in_training} time{'s' * (in_training != 1)}): reaching it shows the model "
               f"learned its training text, not that it can write new sentences.")
    return {**partial(), "stopped": stopped, "seconds": round(seconds, 3), "target_in_training": in_training,
            "summary": summary}


def format_text(result: dict) -> str:
    lines = [f"Target: {result['target']}", ""]
    for snap in result["snapshots"]:
        words = join([w if ok else f"[{w}]" for w, ok in zip(snap["continuation"], snap["matches"])])
        lines.append(f"Epoch {snap['epoch']:>3}  loss {snap['loss']:5.2f}  held-out {snap['held_out_loss']:5.2f}  "
                     f"{snap['matched']}/{len(snap['matches'])}  {result['prompt']} {words}")
    lines += ["", "([word]: differs from the target)", result["summary"]]
    return "\n".join(lines)
