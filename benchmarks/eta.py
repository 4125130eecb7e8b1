"""How good are the slides' time estimates? For each demo, in slide order, on one fresh cache:

1. its default run (seed 0) trains, and its time is written down, as the server does;
2. the estimate for new settings is read: the same settings with another seed (the estimate is
   the earlier run's time), and, where the demo has `steps`, half the steps (scaled by the
   demo's `work`);
3. those runs train, and their real times are printed beside the estimates.

Demos that stop once solved, and models the next run reuses, make the real time differ; this
measures by how much. Also: how long after a cancel the run stopped.

    python -m benchmarks.eta [demo_id ...] [--device cpu]
"""
import argparse
import statistics
import tempfile
import time
from pathlib import Path

from engine import Engine
from slides import demo_ids, load_deck


def timed(engine: Engine, demo_id: str, raw: dict) -> tuple[float | None, float]:
    """(the estimate before the run, the run's own time)."""
    estimate = engine.estimate(demo_id, raw)
    demo, params, key = engine.resolve(demo_id, raw)
    entry, _ = engine.compute(demo, params, key)
    return (estimate.seconds if estimate else None), entry.result["train_seconds"]


def cancel_delay(engine: Engine, demo_id: str, raw: dict, after: float) -> float:
    """Seconds from asking a running job to stop to its end (asked `after` seconds into the run)."""
    job = engine.submit(demo_id, raw).job
    while job.status != "running":
        time.sleep(0.01)
    time.sleep(after)
    asked = time.perf_counter()
    engine.cancel(job.id, "benchmark")
    while not job.finished:
        job.wait_for_change(job.version, 0.05)
    return time.perf_counter() - asked if job.status == "cancelled" else float("nan")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("demos", nargs="*", default=demo_ids(load_deck()))
    parser.add_argument("--device", default="auto")
    args = parser.parse_args()

    rows, delays = [], []
    with tempfile.TemporaryDirectory(ignore_cleanup_errors=True) as tmp:
        engine = Engine(Path(tmp) / "cache", device=args.device)
        print(f"device: {engine.device_label}")
        for demo_id in args.demos:
            timed(engine, demo_id, {"seed": 0})
            rows.append((demo_id, "seed 1", *timed(engine, demo_id, {"seed": 1})))
            steps = next((p for p in engine.resolve(demo_id, None)[0].PARAMS if p.name == "steps"), None)
            if steps is not None and steps.default // 2 >= (steps.min or 0):
                rows.append((demo_id, f"steps {steps.default // 2}", *timed(engine, demo_id, {"seed": 2, "steps": steps.default // 2})))
            delay = cancel_delay(engine, demo_id, {"seed": 3}, after=min(2.0, rows[-1][3] / 2))
            delays.append(delay)
            print(f"{demo_id}: done; cancel took {delay:.2f} s", flush=True)

    print(f"\n{'demo':<22}{'settings':<12}{'estimate':>10}{'actual':>10}{'actual/est':>12}")
    for demo_id, label, estimate, actual in rows:
        ratio = f"{actual / estimate:.2f}" if estimate else "-"
        print(f"{demo_id:<22}{label:<12}{estimate or 0:>9.1f}s{actual:>9.1f}s{ratio:>12}")
    ratios = [actual / estimate for _, _, estimate, actual in rows if estimate]
    print(f"\nactual/estimate: median {statistics.median(ratios):.2f}, range {min(ratios):.2f} to {max(ratios):.2f}")
    finite = [d for d in delays if d == d]
    print(f"cancel to stopped: median {statistics.median(finite):.2f} s, slowest {max(finite):.2f} s "
          f"({len(delays) - len(finite)} runs finished before the cancel reached them)")


if __name__ == "__main__":
    main()
