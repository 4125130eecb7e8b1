"""Choose each contender's recipe on validation data, for one demo or every demo that takes part:
every candidate of the grid (`demos.shared.tuning.LR_GRID`, and any other setting the demo tries)
with every seed, at the slide's budget, scored on validation data only; each contender keeps its
best mean. Writes `demos/shared/tuned/<demo>.json`, which the demo reads its recipes from.

    python -m benchmarks.recipes [demo_id ...] [--device cpu] [--workers N] [--dry-run]

A demo may also offer variants of its study, named `<demo_id>-<variant>` and run only when named
(e.g. `generation-gpu-sweep`: each size of the showdown's size sweep, sized for a GPU).

On a CPU the cells run side by side, one process and one thread per core (the models are small:
one core each is the fastest way to train many). Run it on the machine whose budget the slides
quote: the choice is only as good as the budget it was made at.
"""
import argparse
import os
from concurrent.futures import ProcessPoolExecutor

import torch

from demos import DEMOS, get_demo
from demos.runtime.device import pick_device
from demos.shared.tuning import choose, save


def studying() -> list[str]:
    return [demo_id for demo_id, module in DEMOS.items() if hasattr(module, "tuning")]


def variants() -> list[str]:
    return [f"{demo_id}-{variant}" for demo_id, module in DEMOS.items()
            for variant in getattr(module, "TUNING_VARIANTS", ())]


def study_of(name: str):
    """The Study called `name`: a demo's (its id) or one of its variants ("generation-gpu-sweep")."""
    demo_id, _, variant = name.partition("-")
    module = get_demo(demo_id)
    return module.tuning(variant) if variant else module.tuning()


def _one_thread() -> None:
    torch.set_num_threads(1)


def _score(job: tuple) -> float:
    name, device, contender, recipe, seed = job
    return study_of(name).score(contender, recipe, seed, torch.device(device))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("demos", nargs="*", help=f"demo ids (default: every demo with a grid: {', '.join(studying())}) or a variant: "
                             f"{', '.join(variants())}")
    parser.add_argument("--device", default="auto")
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 1, help="processes on a CPU (default: one per core)")
    parser.add_argument("--dry-run", action="store_true", help="print the choice, write nothing")
    args = parser.parse_args()
    device = pick_device(args.device)
    for demo_id in args.demos or studying():
        if demo_id not in studying() + variants():
            parser.error(f"no study called {demo_id!r}; studies: {', '.join(studying() + variants())}")
        study = study_of(demo_id)
        if device.type == "cpu" and args.workers > 1:
            with ProcessPoolExecutor(args.workers, initializer=_one_thread) as pool:
                chosen = choose(study, device, lambda jobs: list(pool.map(
                    _score, [(demo_id, str(device), *job) for job in jobs])), threads=1)
        else:
            chosen = choose(study, device)
        print(f"\n{demo_id}: {study.budget}; {study.measure}, mean over seeds {list(study.seeds)}")
        for name, entry in chosen["contenders"].items():
            for tried in entry["tried"]:
                mark = "  <- chosen" if tried["recipe"] == entry["chosen"] else ""
                print(f"  {name:<16} {str(tried['recipe']):<48} {tried['mean']:.4f}{mark}")
        print(f"  ({chosen['seconds']} s on {chosen['device']})")
        if not args.dry_run:
            print(f"  written to {save(chosen)}")


if __name__ == "__main__":
    main()
