"""How good are the slides' time estimates, on a fresh server? For each slide's demo, in slide order,
on one fresh cache (so a model two slides share is trained by the first, as in a first pass
through the lecture):

1. the estimate before its first run, as the slide shows it: from this server's speed test
   (`engine/calibration.py`, measured first) and the demo's `work`, corrected by the runs before it;
2. its default run, trained through the engine's job, as Run does; its real time beside the estimate;
3. the time left the widget shows while it runs (the job's `eta_seconds` at its last report,
   counted down since, as static/js/demos/estimate.js does), set against the real time left at a
   quarter, half and three quarters of the run (1.00: exact; above 1: it said more than was left).

`units` is the run's time in speed-test units and `work` the demo's `work(params)` for it: their
ratio is how much a demo's work factor is off here (`--fit` prints the factors to write in).
With `--settings`, the estimate for another seed and half the steps is also set against a real
run (estimates scaled from a demo's own runs), and a cancel's delay is measured.

    python -m benchmarks.eta [demo_id ...] [--device cpu] [--settings]
"""
import argparse
import os
import statistics
import tempfile
import time
from pathlib import Path

from engine import Engine
from engine.timings import work
from slides import demo_ids, load_deck

QUARTERS = (0.25, 0.5, 0.75)
TICK = 0.05  # seconds between looks at what the widget would show


def shown_left(reports: list[tuple[float, float | None]], at: float) -> float | None:
    """What the widget shows at time `at`: the last report's time left, counted down since."""
    before = [(when, left) for when, left in reports if when <= at]
    if not before or before[-1][1] is None:
        return None
    when, left = before[-1]
    return max(left - (at - when), 0.0)


def run_job(engine: Engine, demo_id: str, raw: dict) -> tuple[float, list[tuple[float, float | None]]]:
    """Run a job as Run does; (its running time, [(seconds into the run, eta_seconds) at each report])."""
    job = engine.submit(demo_id, raw, force=True).job
    reports, seen = [], 0
    while not job.finished:
        seen = job.wait_for_change(seen, TICK)
        state = job.snapshot()
        if state["status"] == "running":
            reports.append((time.monotonic() - job.started, state.get("eta_seconds")))
    if job.status != "done":
        raise RuntimeError(f"{demo_id}: {job.status}: {job.error}")
    return time.monotonic() - job.started, reports


def left_ratios(actual: float, reports: list[tuple[float, float | None]]) -> list[float | None]:
    """Shown time left ÷ real time left, at each of QUARTERS of the run."""
    ratios = []
    for quarter in QUARTERS:
        shown = shown_left(reports, quarter * actual)
        ratios.append(None if shown is None else shown / ((1 - quarter) * actual))
    return ratios


def timed(engine: Engine, demo_id: str, raw: dict) -> tuple[float | None, float]:
    """(the estimate before the run, the run's own time), computed directly (no job)."""
    estimate = engine.estimate(demo_id, raw)
    demo, params, key = engine.resolve(demo_id, raw)
    entry, _ = engine.compute(demo, params, key, force=True)
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


def number(value: float | None, places: int = 2) -> str:
    return "-" if value is None else f"{value:.{places}f}"


def fresh_deck(engine: Engine, demos: list[str], unit: float, fit: bool) -> None:
    print(f"\n{'demo':<22}{'estimate':>9}{'actual':>9}{'est/act':>8}{'units':>9}{'work':>9}"
          f"   time left shown/real at 25%, 50%, 75%")
    ratios, lefts, factors = [], [], {}
    for demo_id in demos:
        estimate = engine.estimate(demo_id, {})
        demo, params, _ = engine.resolve(demo_id, {})
        with engine_store(engine):
            cost = work(demo, params)
        actual, reports = run_job(engine, demo_id, {})
        ratio = estimate.seconds / actual if estimate else None
        quarters = left_ratios(actual, reports)
        ratios += [ratio] if ratio else []
        lefts += [q for q in quarters if q is not None]
        factors[demo_id] = actual / unit / cost
        print(f"{demo_id:<22}{number(estimate and estimate.seconds, 1):>8}s{actual:>8.1f}s{number(ratio):>8}"
              f"{actual / unit:>9.2f}{cost:>9.2f}   {', '.join(number(q) for q in quarters)}", flush=True)
    within = sum(0.67 <= r <= 1.5 for r in ratios)
    print(f"\nestimate/actual: median {statistics.median(ratios):.2f}, {min(ratios):.2f} to {max(ratios):.2f}; "
          f"{within} of {len(ratios)} within 0.67 to 1.5")
    if lefts:
        inside = sum(0.67 <= r <= 1.5 for r in lefts)
        print(f"time left shown/real: median {statistics.median(lefts):.2f}, {min(lefts):.2f} to {max(lefts):.2f}; "
              f"{inside} of {len(lefts)} within 0.67 to 1.5")
    if fit:
        print("\nmultiply each demo's work factor by (units ÷ work):")
        for demo_id, factor in factors.items():
            print(f"  {demo_id:<22}{factor:.3f}")


def engine_store(engine: Engine):
    from demos.runtime.storage import using_store
    return using_store(engine.models)


def other_settings(engine: Engine, demos: list[str]) -> None:
    rows, delays = [], []
    for demo_id in demos:
        rows.append((demo_id, "seed 1", *timed(engine, demo_id, {"seed": 1})))
        demo, defaults, _ = engine.resolve(demo_id, None)  # the defaults of this device's class
        steps = next((p for p in demo.PARAMS if p.name == "steps"), None)
        if steps is not None and defaults["steps"] // 2 >= (steps.min or 0):
            half = defaults["steps"] // 2
            rows.append((demo_id, f"steps {half}", *timed(engine, demo_id, {"seed": 2, "steps": half})))
        delays.append(cancel_delay(engine, demo_id, {"seed": 3}, after=min(2.0, rows[-1][3] / 2)))
    print(f"\n{'demo':<22}{'settings':<12}{'estimate':>10}{'actual':>10}{'est/act':>10}")
    for demo_id, label, estimate, actual in rows:
        print(f"{demo_id:<22}{label:<12}{estimate or 0:>9.1f}s{actual:>9.1f}s{number(estimate and estimate / actual):>10}")
    finite = [d for d in delays if d == d]
    print(f"cancel to stopped: median {statistics.median(finite):.2f} s, slowest {max(finite):.2f} s "
          f"({len(delays) - len(finite)} runs finished before the cancel reached them)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("demos", nargs="*", default=demo_ids(load_deck()))
    parser.add_argument("--device", default="auto")
    parser.add_argument("--fit", action="store_true", help="print the factor each demo's work is off by")
    parser.add_argument("--settings", action="store_true", help="also: other settings scaled from earlier runs, and cancels")
    args = parser.parse_args()

    with tempfile.TemporaryDirectory(ignore_cleanup_errors=True) as tmp:
        engine = Engine(Path(tmp) / "cache", device=args.device, calibrate=True)
        started = time.perf_counter()
        unit = engine.calibration.seconds(wait=600)
        print(f"device: {engine.device_label}; speed test {unit:.3f} s (took {time.perf_counter() - started:.1f} s "
              f"to measure); load average at start {os.getloadavg()[0]:.1f}")
        fresh_deck(engine, args.demos, unit, args.fit)
        if args.settings:
            other_settings(engine, args.demos)
        print(f"load average at the end: {os.getloadavg()[0]:.1f} (1 min), {os.getloadavg()[2]:.1f} (15 min)")


if __name__ == "__main__":
    main()
