"""Why the CPU's size sweep reads 128 characters, not 512: a Transformer of the sweep, trained at a
few shapes of step, each on one core, scored on the validation text. In too few steps it stays
on the plateau where a character model knows only how often each character comes (about 3.8 bits);
it leaves it with steps more than with characters, and later with longer windows (docs/science.md,
"Why not 512 characters on the CPU"). Each line is one seed; two shapes train side by side at a time, one per core.

    python -m benchmarks.plateau [--kind transformer] [--width 64] [--shapes 128x16x750 128x4x750 ...]

The defaults are the seven shapes of the docs (6 to 7 minutes on two cores); `--kind lstm` trains the LSTM
matched to that Transformer instead.

A shape is CONTEXTxWINDOWSxSTEPS: characters a window, windows a step, steps.
"""
import argparse
import dataclasses
import math
import time
from concurrent.futures import ProcessPoolExecutor

import torch

from demos.core.models import build_model
from demos.core.python_docs import load
from demos.core.training import Run, language_model_loss, train_eagerly
from demos.shared import scaling
from demos.shared.contenders import label
from demos.shared.char_models import (document_windows, model_config, token_losses, train_config,
                                      training_windows)

CPU = torch.device("cpu")
SCORED_WINDOWS = 64  # validation windows each model is scored on


def shape(text: str) -> tuple[int, int, int]:
    try:
        context, windows, steps = (int(part) for part in text.split("x"))
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not CONTEXTxWINDOWSxSTEPS, e.g. 512x4x750") from None
    if not (8 <= context <= 512 and 1 <= windows <= 64 and 1 <= steps <= 20000):
        raise argparse.ArgumentTypeError(f"{text!r}: context 8 to 512, windows 1 to 64, steps 1 to 20,000")
    return context, windows, steps


def train_one(job: tuple[str, int, int, int, int, float]) -> str:
    kind, width, context, windows, steps, lr = job
    torch.set_num_threads(1)
    sweep = scaling.SWEEPS["cpu-sweep"]
    settings = dataclasses.replace(scaling.model(sweep, kind, width, seed=0, lr=lr), context=context,
                                   batch_size=windows, window=context, steps=steps, eval_every=steps)
    corpus = load()
    torch.manual_seed(settings.seed)
    model = build_model(model_config(settings, corpus.vocab_size))
    run = Run(model, training_windows(settings, corpus.ids["train"], CPU), language_model_loss, train_config(settings))
    started = time.perf_counter()
    train_eagerly(run)
    seconds = time.perf_counter() - started
    validation, _ = document_windows(corpus, "validation", context, SCORED_WINDOWS)
    bits = token_losses(model.eval(), validation, CPU).mean().item() / math.log(2)
    return (f"{context:>4} characters x {windows:>2} windows a step x {steps:>5} steps: "
            f"{bits:.3f} validation bits per character ({seconds:.0f} s of one core)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--kind", choices=scaling.MODELS, default="transformer")
    parser.add_argument("--width", type=int, choices=scaling.SWEEPS["cpu-sweep"].widths, default=64,
                        help="the sweep Transformer's width, which the LSTM is matched to (the learning rate: "
                             "the sweep's chosen one for that size of that family)")
    parser.add_argument("--shapes", type=shape, nargs="+",
                        default=[(128, 16, 750), (128, 8, 1500), (128, 4, 750), (128, 4, 3000), (512, 4, 750),
                                 (512, 16, 750), (512, 4, 3000)])
    args = parser.parse_args()
    sweep = scaling.SWEEPS["cpu-sweep"]
    lr = scaling.chosen(sweep.recipe_file, scaling.contender(args.kind, args.width))["lr"]
    print(f"The CPU sweep's {label(args.kind)} of its size {args.width} (lr {lr}), one seed:")
    with ProcessPoolExecutor(2) as pool:
        for line in pool.map(train_one, [(args.kind, args.width, *s, lr) for s in args.shapes]):
            print(" ", line, flush=True)


if __name__ == "__main__":
    main()
