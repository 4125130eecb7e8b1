"""Lighthouse's scores for every slide, as a phone (its default: a mid-range phone on a slow 4G
network, simulated) and optionally as a desktop.

Starts the server on a free port with every demo's result cached (the tests' tiny runs, cached as
each demo's default, tests/browser/cached_results.py; or `--cache DIR`, a warmed cache folder,
copied), then runs Lighthouse (from npm; not a dependency of the project) against each slide with
the system's Chromium and prints the Performance and Accessibility scores, with the blocking time,
the largest and first contentful paints, the speed index and the layout shift that make up
Performance (with `--runs N`, each the median of N runs).

    npm install --prefix /tmp/lh lighthouse@12     # once, anywhere
    python -m benchmarks.lighthouse --lighthouse /tmp/lh/node_modules/.bin/lighthouse [--desktop] [--cache DIR] [--slides N ...] [--runs 5]
"""
import argparse
import json
import statistics
import shutil
import subprocess
import tempfile
from pathlib import Path

from slides import load_deck
from tests.browser.cached_results import every_result_in
from tests.browser.conftest import CHROMIUM_ARGS, chromium_path
from tests.live_server import LiveServer

# The browser tests' flags, as one string for Lighthouse, less their resolver rule (its spaces and commas
# do not survive Lighthouse's splitting; the pages ask only this server anyway).
FLAGS = " ".join(["--headless=new", *(arg for arg in CHROMIUM_ARGS if not arg.startswith("--host-resolver-rules"))])


def scores(lighthouse: str, url: str, desktop: bool) -> dict:
    run = subprocess.run([lighthouse, url, f"--chrome-path={chromium_path()}", f"--chrome-flags={FLAGS}",
                          "--only-categories=performance,accessibility", "--output=json", "--quiet",
                          *(["--preset=desktop"] if desktop else [])], capture_output=True, text=True, timeout=600)
    if run.returncode != 0:
        raise SystemExit(f"lighthouse failed on {url}: {run.stderr[-2000:]}")
    report = json.loads(run.stdout)
    audits = report["audits"]
    return {"performance": round(100 * report["categories"]["performance"]["score"]),
            "accessibility": round(100 * report["categories"]["accessibility"]["score"]),
            "blocking_ms": audits["total-blocking-time"]["numericValue"],
            "lcp_s": audits["largest-contentful-paint"]["numericValue"] / 1000,
            "fcp_s": audits["first-contentful-paint"]["numericValue"] / 1000,
            "speed_index_s": audits["speed-index"]["numericValue"] / 1000,
            "cls": audits["cumulative-layout-shift"]["numericValue"]}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--lighthouse", default="lighthouse", help="the lighthouse command (default: on the PATH)")
    parser.add_argument("--desktop", action="store_true", help="Lighthouse's desktop preset instead of a phone")
    parser.add_argument("--cache", type=Path, help="a warmed cache folder to copy (default: the tests' tiny results)")
    parser.add_argument("--slides", type=int, nargs="+", help="only these slides, by number (default: every slide)")
    parser.add_argument("--runs", type=int, default=1, help="runs per slide, each figure their median (Lighthouse's "
                        "advice: 5, since one run's score moves by several points)")
    args = parser.parse_args()
    if not shutil.which(args.lighthouse):
        raise SystemExit(f"no {args.lighthouse!r} here: npm install --prefix /tmp/lh lighthouse@12, then "
                         "--lighthouse /tmp/lh/node_modules/.bin/lighthouse")
    with tempfile.TemporaryDirectory() as tmp:
        cache = every_result_in(Path(tmp) / "cache", args.cache)
        with LiveServer(cache) as server:
            print(f"{'slide':<28} {'performance':>11} {'accessibility':>13} {'blocking':>9} {'LCP':>6} {'FCP':>6} "
                  f"{'speed index':>11} {'CLS':>6}  ({'desktop' if args.desktop else 'phone'})")
            for slide in load_deck():
                if args.slides and slide.n not in args.slides:
                    continue
                runs = [scores(args.lighthouse, f"{server.url}/slides/{slide.n}", args.desktop) for _ in range(args.runs)]
                row = {key: statistics.median(run[key] for run in runs) for key in runs[0]}
                print(f"{slide.n:>2} {slide.demo:<25} {row['performance']:>11.0f} {row['accessibility']:>13.0f} "
                      f"{row['blocking_ms']:>7.0f}ms {row['lcp_s']:>5.1f}s {row['fcp_s']:>5.1f}s {row['speed_index_s']:>10.1f}s "
                      f"{row['cls']:6.3f}")


if __name__ == "__main__":
    main()
