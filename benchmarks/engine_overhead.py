"""What the engine costs on top of the training it runs.

Runs the same demo training loop two ways, several times each with fresh seeds (so nothing
is served from the cache): bare (the demo's `run` called directly, progress ignored), and
through the engine (queue, job, progress published to a listener that reads every change
as an event stream would, result written to the disk cache). Prints both medians and the
ratio. Target: under 10% overhead.

    python -m benchmarks.engine_overhead [--repeats 7] [--steps 3000]
"""
import argparse
import statistics
import tempfile
import threading
import time
from pathlib import Path

from tests import fixture_app  # noqa: F401  (registers the tests' demo, line_fit, with the engine)
from tests import line_fit
from demos.core.training import seed_everything
from demos.runtime.device import pick_device
from demos.runtime.params import validate
from demos.runtime.runner import no_progress
from engine import Engine


def bare(params: dict) -> float:
    seed_everything(params["seed"])
    started = time.perf_counter()
    line_fit.run(params, no_progress, pick_device("cpu"))
    return time.perf_counter() - started


def through_engine(engine: Engine, params: dict) -> float:
    started = time.perf_counter()
    job = engine.submit("line_fit", params).job
    snapshots = 0

    def listen():  # what an event stream does: wake on each change, serialise a snapshot
        nonlocal snapshots
        version = -1
        while not job.finished:
            version = job.wait_for_change(version, timeout=5)
            job.snapshot()
            snapshots += 1

    listener = threading.Thread(target=listen)
    listener.start()
    listener.join()
    assert job.status == "done", job.error
    return time.perf_counter() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=7)
    parser.add_argument("--steps", type=int, default=3000)
    args = parser.parse_args()

    with tempfile.TemporaryDirectory() as tmp:
        engine = Engine(Path(tmp) / "cache", device="cpu")
        bare(validate(line_fit.PARAMS, {"steps": 200}))  # warm-up: first calls pay for lazy set-up
        bare_times, engine_times = [], []
        for repeat in range(args.repeats):
            params = validate(line_fit.PARAMS, {"steps": args.steps, "points": 4096, "seed": 1000 + repeat})
            bare_times.append(bare(params))
            engine_times.append(through_engine(engine, {**params, "seed": 2000 + repeat}))

    bare_median, engine_median = statistics.median(bare_times), statistics.median(engine_times)
    overhead = engine_median / bare_median - 1
    print(f"line_fit, {args.steps} steps, {args.repeats} repeats each, on cpu:")
    print(f"  bare training loop:  median {bare_median:.3f} s  (min {min(bare_times):.3f}, max {max(bare_times):.3f})")
    print(f"  through the engine:  median {engine_median:.3f} s  (min {min(engine_times):.3f}, max {max(engine_times):.3f})")
    print(f"  ratio {engine_median / bare_median:.3f}: overhead {overhead:+.1%} "
          f"({'meets' if overhead < 0.10 else 'MISSES'} the target of under 10%)")


if __name__ == "__main__":
    main()
