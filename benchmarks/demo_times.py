"""Cold and cached time of each demo's default run, through the engine, on this machine.

Cold: a fresh cache folder, so the demo trains everything it needs (shared models too).
Cached: the same request again, answered from the cache (median of many).

    python -m benchmarks.demo_times [demo_id ...] [--device cpu]
"""
import argparse
import statistics
import tempfile
import time
from pathlib import Path

from demos import DEMOS
from engine import Engine


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("demos", nargs="*", default=list(DEMOS), help="demo ids (default: all)")
    parser.add_argument("--device", default="auto")
    parser.add_argument("--cached-repeats", type=int, default=200)
    args = parser.parse_args()

    rows = []
    for demo_id in args.demos:
        with tempfile.TemporaryDirectory() as tmp:
            engine = Engine(Path(tmp) / "cache", device=args.device)
            demo, params, key = engine.resolve(demo_id, None)
            started = time.perf_counter()
            entry, _ = engine.compute(demo, params, key)
            cold = time.perf_counter() - started
            cached = []
            for _ in range(args.cached_repeats):
                started = time.perf_counter()
                assert engine.submit(demo_id).entry is not None
                cached.append(time.perf_counter() - started)
            rows.append((demo_id, cold, statistics.median(cached), entry.result["device"], len(entry.body)))

    width = max(len(row[0]) for row in rows)
    print(f"{'demo':<{width}}  {'cold (s)':>9}  {'cached (ms)':>11}  {'result size':>11}  device")
    for demo_id, cold, cached, device, size in rows:
        print(f"{demo_id:<{width}}  {cold:9.2f}  {cached * 1000:11.3f}  {size / 1024:9.1f} KB  {device}")


if __name__ == "__main__":
    main()
