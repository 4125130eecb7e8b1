"""How long a training step of the character language models takes at each size, on this device:
the numbers the size sweep's budgets (`demos.shared.char_models`, the showdown and the context
slide) were sized from. For each family and Transformer width, `--seeds` models (one per seed)
train together, as the demos train them, on windows of `--context` characters, `--batch` windows a
step; the step time is the difference between a long and a short run (so start-up and CUDA graph
capture are not counted), divided by the extra steps.

    python -m benchmarks.char_sizes --device cuda --widths 64 128 256 --layers 4 --context 512
"""
import argparse
import time
from dataclasses import replace

import torch

from demos.core.models import build_model, count_parameters
from demos.core.python_docs import load
from demos.core.training import Run, language_model_loss, train_together
from demos.runtime.device import pick_device, synchronize, use_fast_math
from demos.shared.char_models import CharLM, model_config, train_config, training_windows


def group_seconds(settings: list[CharLM], device: torch.device, steps: int) -> float:
    """Seconds to train every model of `settings` together for `steps` steps."""
    corpus = load()
    runs = []
    for s in settings:
        torch.manual_seed(s.seed)
        model = build_model(model_config(s, corpus.vocab_size)).to(device)
        runs.append(Run(model, training_windows(s, corpus.ids["train"], device), language_model_loss,
                        replace(train_config(s), steps=steps, report_every=steps)))
    synchronize(device)
    started = time.perf_counter()
    train_together(runs)
    synchronize(device)
    return time.perf_counter() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--device", default="auto")
    parser.add_argument("--widths", type=int, nargs="+", default=[64, 128, 256])
    parser.add_argument("--layers", type=int, default=4)
    parser.add_argument("--lstm-layers", type=int, default=2)
    parser.add_argument("--context", type=int, default=512)
    parser.add_argument("--batch", type=int, default=32)
    parser.add_argument("--seeds", type=int, default=3)
    parser.add_argument("--steps", type=int, nargs=2, default=[20, 120], metavar=("SHORT", "LONG"))
    args = parser.parse_args()
    device = pick_device(args.device)
    use_fast_math(device)
    vocab = load().vocab_size
    print(f"{'family':<12} {'width':>5} {'non-emb params':>15} {'ms/step':>9}  ({args.seeds} models together, "
          f"{args.batch} x {args.context} characters a step, {device})")
    for width in args.widths:
        for kind in ("transformer", "lstm"):
            settings = [CharLM(kind=kind, seed=seed, width=width, n_layers=args.layers, lstm_layers=args.lstm_layers, n_heads=max(1, width // 32),
                               context=args.context, batch_size=args.batch, lr=1e-3, schedule="cosine",
                               window=args.context) for seed in range(args.seeds)]
            size = count_parameters(build_model(model_config(settings[0], vocab)), non_embedding=True)
            short, long = (group_seconds(settings, device, steps) for steps in args.steps)
            per_step = (long - short) / (args.steps[1] - args.steps[0])
            print(f"{kind:<12} {model_config(settings[0], vocab).width:>5} {size:>15,} {per_step * 1000:9.2f}", flush=True)


if __name__ == "__main__":
    main()
