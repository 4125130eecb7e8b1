"""The long variant of every demo that has one (its FULL_PARAMS, what `flask warm --full` computes),
run from a terminal with its result printed as text and timed: what the slides show when the
instructor has warmed them the night before.

    python -m benchmarks.long_runs [--device cuda] [demo_id ...]
"""
import argparse
import sys
import time

from demos import DEMOS
from demos.runtime.device import pick_device
from demos.runtime.progress import ProgressBar
from demos.runtime.runner import run_demo


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("demo_ids", nargs="*")
    parser.add_argument("--device", default="auto")
    args = parser.parse_args()
    device = pick_device(args.device)
    chosen = args.demo_ids or [demo_id for demo_id, demo in DEMOS.items() if getattr(demo, "FULL_PARAMS", None)]
    for demo_id in chosen:
        demo = DEMOS[demo_id]
        bar = ProgressBar(label=f"{demo_id}  ")
        started = time.perf_counter()
        result = run_demo(demo, getattr(demo, "FULL_PARAMS", None), bar, device)
        bar.close()
        print(f"\n=== {demo_id} {getattr(demo, 'FULL_PARAMS', {})}: {time.perf_counter() - started:.1f} s on "
              f"{result['device']} ({result['precision']})\n{demo.format_text(result)}\n", flush=True)
    sys.exit(0)


if __name__ == "__main__":
    main()
