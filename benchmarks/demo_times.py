"""Cold and cached time of each demo's default run, through the engine, on this machine: what
`flask --app app warm` does from an empty cache, demo by demo in slide order.

Cold: one fresh cache folder for the whole deck, so each demo trains what it needs; a model two
slides share (the attention slides' language model, the showdown's character models) is trained
by the first and found by the next, as in the lecture. Cached: the same request again, answered
from the cache (median of many). The total is the whole deck's warm-up.

    python -m benchmarks.demo_times [demo_id ...] [--device cpu]
"""
import argparse
import statistics
import tempfile
import time
from pathlib import Path

from engine import Engine
from slides import demo_ids, load_deck


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("demos", nargs="*", default=demo_ids(load_deck()),
                        help="demo ids (default: every slide's, in slide order)")
    parser.add_argument("--device", default="auto")
    parser.add_argument("--cached-repeats", type=int, default=200)
    args = parser.parse_args()

    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        engine = Engine(Path(tmp) / "cache", device=args.device)
        for demo_id in args.demos:
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
            print(f"{demo_id}: {cold:.2f} s", flush=True)

    width = max(len(row[0]) for row in rows)
    print(f"{'demo':<{width}}  {'cold (s)':>9}  {'cached (ms)':>11}  {'result size':>11}  device")
    for demo_id, cold, cached, device, size in rows:
        print(f"{demo_id:<{width}}  {cold:9.2f}  {cached * 1000:11.3f}  {size / 1024:9.1f} KB  {device}")
    print(f"{'whole deck':<{width}}  {sum(row[1] for row in rows):9.2f}  (slowest: {max(rows, key=lambda r: r[1])[0]})")


if __name__ == "__main__":
    main()
