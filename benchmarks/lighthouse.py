"""Lighthouse's scores for every slide, as a phone (its default: a mid-range phone on a slow 4G
network, simulated) and optionally as a desktop.

Starts the server on a free port with every demo's result cached (the tests' tiny runs, cached as
each demo's default, tests/browser/cached_results.py; or `--cache DIR`, a warmed cache folder,
copied), then runs Lighthouse (from npm; not a dependency of the project) against each slide with
the system's Chromium and prints the Performance and Accessibility scores, with the blocking time
and the largest contentful paint that decide most of Performance.

    npm install --prefix /tmp/lh lighthouse@12     # once, anywhere
    python -m benchmarks.lighthouse --lighthouse /tmp/lh/node_modules/.bin/lighthouse [--desktop] [--cache DIR]
"""
import argparse
import json
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
            "lcp_s": audits["largest-contentful-paint"]["numericValue"] / 1000}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--lighthouse", default="lighthouse", help="the lighthouse command (default: on the PATH)")
    parser.add_argument("--desktop", action="store_true", help="Lighthouse's desktop preset instead of a phone")
    parser.add_argument("--cache", type=Path, help="a warmed cache folder to copy (default: the tests' tiny results)")
    args = parser.parse_args()
    if not shutil.which(args.lighthouse):
        raise SystemExit(f"no {args.lighthouse!r} here: npm install --prefix /tmp/lh lighthouse@12, then "
                         "--lighthouse /tmp/lh/node_modules/.bin/lighthouse")
    with tempfile.TemporaryDirectory() as tmp:
        cache = every_result_in(Path(tmp) / "cache", args.cache)
        with LiveServer(cache) as server:
            print(f"{'slide':<28} {'performance':>11} {'accessibility':>13} {'blocking':>9} {'LCP':>6}  "
                  f"({'desktop' if args.desktop else 'phone'})")
            for slide in load_deck():
                row = scores(args.lighthouse, f"{server.url}/slides/{slide.n}", args.desktop)
                print(f"{slide.n:>2} {slide.demo:<25} {row['performance']:>11} {row['accessibility']:>13} "
                      f"{row['blocking_ms']:>7.0f}ms {row['lcp_s']:>5.1f}s")


if __name__ == "__main__":
    main()
