"""Regenerate the dated figures in docs/benchmarks.md from the benchmark scripts themselves.

    python -m benchmarks.figures [NAME ...] [--device cpu|cuda] [--dry-run]

Each NAME (default: every one below) is a benchmark script, `benchmarks/NAME.py`, with a block in
docs/benchmarks.md between the lines `<!-- figures:NAME -->` and `<!-- /figures:NAME -->`. This
runs the script and rewrites its block with the date, the machine it ran on (processor, cores,
memory, device, PyTorch), the load average before and after (other work on the machine slows
every figure) and what the script printed. Blocks not named are left as they are, so figures from
another machine (a GPU server's) stay until that machine regenerates them.
"""
import argparse
import os
import platform
import re
import subprocess
import sys
import time
from datetime import date
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DOC = ROOT / "docs" / "benchmarks.md"
# The scripts whose output is a block of the doc, with the arguments they are run with.
BENCHMARKS = {
    "demo_times": ["--cached-repeats", "50"],
    "cached_latency": [],
    "engine_overhead": [],
    "train_step": ["--steps", "100", "--repeats", "3"],  # its defaults take over 20 minutes on a 2-core CPU
}
DEVICE_ARGUMENT = {"demo_times", "train_step"}  # the scripts that take --device


def block_pattern(name: str) -> re.Pattern:
    return re.compile(rf"(<!-- figures:{name} -->\n)(.*?)(<!-- /figures:{name} -->)", re.DOTALL)


def replace_block(text: str, name: str, body: str) -> str:
    """`text` with the block of `name` holding `body` (a ValueError if the doc has no such block)."""
    pattern = block_pattern(name)
    if not pattern.search(text):
        raise ValueError(f"docs/benchmarks.md has no <!-- figures:{name} --> block")
    return pattern.sub(lambda found: found.group(1) + body.rstrip("\n") + "\n" + found.group(3), text, count=1)


def load_average() -> str:
    return f"{os.getloadavg()[0]:.1f}" if hasattr(os, "getloadavg") else "unknown"


def processor() -> str:
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()


def memory_gib() -> str:
    try:
        return f"{os.sysconf('SC_PAGE_SIZE') * os.sysconf('SC_PHYS_PAGES') / 2 ** 30:.0f} GiB"
    except (ValueError, OSError, AttributeError):
        return "unknown memory"


def machine(device: str) -> str:
    import torch

    from demos.runtime.device import device_label, pick_device

    return (f"{processor()}, {os.cpu_count()} cores, {memory_gib()}; device {device_label(pick_device(device))}; "
            f"PyTorch {torch.__version__}, Python {platform.python_version()}")


def run(name: str, device: str) -> str:
    """Run one benchmark script and return its block: when, where, under what load, and its output."""
    args = [sys.executable, "-m", f"benchmarks.{name}", *BENCHMARKS[name]]
    if device != "auto" and name in DEVICE_ARGUMENT:
        args += ["--device", device]
    command = "python -m " + " ".join(args[2:])
    load_before = load_average()
    started = time.perf_counter()
    print(f"$ {command}", flush=True)
    done = subprocess.run(args, cwd=ROOT, stdout=subprocess.PIPE, text=True)  # its progress (stderr) shows here
    seconds = time.perf_counter() - started
    if done.returncode != 0:
        raise SystemExit(f"{command} exited {done.returncode}; docs/benchmarks.md is left as it was")
    print(done.stdout, flush=True)
    return (f"Measured {date.today().isoformat()} by `python -m benchmarks.figures {name}` on {machine(device)}; "
            f"load average {load_before} at the start and {load_average()} at the end; {seconds:.0f} s in all.\n\n"
            f"```text\n$ {command}\n{done.stdout.rstrip()}\n```\n")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("names", nargs="*", default=list(BENCHMARKS), help=f"benchmarks: {', '.join(BENCHMARKS)}")
    parser.add_argument("--device", default="auto", help="for the scripts that train: auto, cpu, cuda")
    parser.add_argument("--dry-run", action="store_true", help="print the new blocks; leave the doc as it is")
    args = parser.parse_args(argv)
    unknown = [name for name in args.names if name not in BENCHMARKS]
    if unknown:
        parser.error(f"unknown benchmark(s): {', '.join(unknown)}; known: {', '.join(BENCHMARKS)}")
    text = DOC.read_text(encoding="utf-8")
    for name in args.names:
        replace_block(text, name, "")  # a missing block is said before anything runs
    for name in args.names:
        block = run(name, args.device)
        if args.dry_run:
            print(block)
            continue
        text = replace_block(DOC.read_text(encoding="utf-8"), name, block)
        DOC.write_text(text, encoding="utf-8")  # block by block: a later failure keeps the earlier figures
        print(f"rewrote the {name} block of {DOC.relative_to(ROOT)}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
