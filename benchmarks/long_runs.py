"""The long variant of every demo that has one, run from a terminal with its result printed as text
and timed: its prepared run for the device's class, CPU or GPU (`demos.runtime.budgets`), what
`flask warm --full` computes there and the slides show when the instructor has warmed them the
night before.

    python -m benchmarks.long_runs [--device cuda] [demo_id ...]
"""
import argparse
import sys
import time

from demos import DEMOS
from demos.runtime.budgets import full_params
from demos.runtime.device import pick_device
from demos.runtime.progress import ProgressBar
from demos.runtime.runner import run_demo


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("demo_ids", nargs="*")
    parser.add_argument("--device", default="auto")
    args = parser.parse_args()
    device = pick_device(args.device)
    chosen = args.demo_ids or [demo_id for demo_id, demo in DEMOS.items() if full_params(demo, device) is not None]
    for demo_id in chosen:
        demo = DEMOS[demo_id]
        params = full_params(demo, device)  # None (a demo named with no prepared run): its default on this class
        bar = ProgressBar(label=f"{demo_id}  ")
        started = time.perf_counter()
        result = run_demo(demo, params, bar, device)
        bar.close()
        print(f"\n=== {demo_id} {params or {}}: {time.perf_counter() - started:.1f} s on "
              f"{result['device']} ({result['precision']}, {result['budget_run']['text']})\n{demo.format_text(result)}\n",
              flush=True)
    sys.exit(0)


if __name__ == "__main__":
    main()
