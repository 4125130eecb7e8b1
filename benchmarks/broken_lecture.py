"""Break the lecture on purpose and see its tests catch it: each sabotage in its own copy of the
project, and the test files that must fail there.

    python -m benchmarks.broken_lecture [--keep] [--every-test] [sabotage ...]

- frozen: the training core's optimiser step does nothing, so no weight ever changes
  (demos/core/training.py, the one loop every demo trains through). Every training demo's own test
  file must fail: each checks that its models learned what the slide says they learn.
- peeking: attention ignores the causal mask, in the written-out path and in the fused kernel
  (demos/core/models.py). The tests of the models, of the attention slides and of every language
  model must fail: a causal model that reads the next token predicts it without learning language.

A copy is the files git knows (tracked, and untracked but not ignored), as they are in the working
tree, in a temporary folder. Its tests run with the copy as the working directory and first on
PYTHONPATH, so they import the copy's code, not this checkout's (which the virtual environment's
editable install points at); a check run the same way first proves it: it sees the sabotage in the
copy, and not in this checkout. A file expected to fail that passes is a hole in the tests: the
table marks it MISSED and the script exits 1.
"""
import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

# Every test file of a demo whose models train (system_check times a training step but claims no
# learning; the speed race times steps). test_scaling.py is the showdown's size sweep and the context slide.
TRAINING_TESTS = tuple(f"tests/demos/test_{name}.py" for name in (
    "amnesia", "signal_decay", "recall_vs_length", "index_lookup", "dyck", "attention_web", "attention_matrix",
    "training_progression", "generation", "context_scaling", "scaling"))
# The models themselves, the attention slides, and every slide with a causal language model.
ATTENTION_TESTS = ("tests/core/test_models.py",) + tuple(f"tests/demos/test_{name}.py" for name in (
    "attention_web", "attention_matrix", "training_progression", "generation", "context_scaling", "scaling"))

# Run in a copy (or this checkout) with `python -c`: exits 0 when the sabotage is in effect there.
FROZEN_CHECK = """
import torch
from demos.core import training
from demos.core.models import ModelConfig, build_model
model = build_model(ModelConfig(kind="lstm", vocab_size=5, n_out=5, width=8))
before = [p.detach().clone() for p in model.parameters()]
inputs, targets = torch.randint(5, (4, 6)), torch.randint(5, (4,))
training.train(model, training.SameBatch(inputs, targets), training.classification_loss, training.TrainConfig(steps=5))
frozen = all(torch.equal(a, b) for a, b in zip(before, model.parameters()))
print(training.__file__, "weights unchanged after 5 steps" if frozen else "weights changed after 5 steps")
raise SystemExit(0 if frozen else 1)
"""
PEEKING_CHECK = """
import torch
from demos.core import models
peeks = []
for fast in (False, True):
    torch.manual_seed(0)
    model = models.build_model(models.ModelConfig(kind="transformer", vocab_size=11, n_out=11, width=16, n_heads=2,
                                                  max_len=12, causal=True, fast_attention=fast)).eval()
    tokens = torch.randint(11, (2, 12))
    changed = tokens.clone()
    changed[:, 6:] = (changed[:, 6:] + 1) % 11  # a change in the future
    peeks.append(not torch.allclose(model(tokens)[:, :6], model(changed)[:, :6], atol=1e-5))
print(models.__file__, "the past reads the future" if all(peeks) else "the past ignores the future", peeks)
raise SystemExit(0 if all(peeks) else 1)
"""


@dataclass(frozen=True)
class Sabotage:
    name: str
    what: str
    path: str  # the file it edits
    edits: tuple[tuple[str, str], ...]  # (text, its replacement): each text must occur exactly once
    check: str  # Python that exits 0 where the sabotage is in effect
    must_fail: tuple[str, ...]  # test files


SABOTAGES = {
    "frozen": Sabotage("frozen", "the optimiser step is a no-op: no weight ever changes", "demos/core/training.py",
                       (("        self.optimizer.step()\n", "        pass  # sabotage: the optimiser never steps\n"),),
                       FROZEN_CHECK, TRAINING_TESTS),
    "peeking": Sabotage("peeking", "attention ignores the causal mask (written out and fused)", "demos/core/models.py",
                        (("            if self.cfg.causal:\n", "            if False:  # sabotage: no causal mask\n"),
                         ("is_causal=self.cfg.causal,", "is_causal=False,")),
                        PEEKING_CHECK, ATTENTION_TESTS),
}


def copy_project(into: Path) -> None:
    """The files git knows, as they are in the working tree, copied into `into`."""
    listed = subprocess.run(["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"], cwd=ROOT,
                            check=True, capture_output=True).stdout.decode().split("\0")
    for name in filter(None, listed):
        source = ROOT / name
        if source.is_file():  # a tracked file deleted in the working tree is left out
            (into / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, into / name, follow_symlinks=False)


def sabotage(copy: Path, plan: Sabotage) -> None:
    path = copy / plan.path
    text = path.read_text(encoding="utf-8")
    for old, new in plan.edits:
        found = text.count(old)
        if found != 1:
            raise SystemExit(f"{plan.name}: {old.strip()!r} occurs {found} times in {plan.path}, not once: "
                             "the sabotage no longer fits the code")
        text = text.replace(old, new)
    path.write_text(text, encoding="utf-8")


def in_folder(folder: Path, *args: str, timeout: float | None = None) -> subprocess.CompletedProcess:
    """This Python, run with `folder` as the working directory and the first place imports look."""
    env = {**os.environ, "PYTHONPATH": str(folder), "PYTHONDONTWRITEBYTECODE": "1"}
    return subprocess.run([sys.executable, *args], cwd=folder, env=env, capture_output=True, text=True,
                          timeout=timeout)


def counts(output: str) -> dict[str, int]:
    """{"failed": n, "passed": n, "error": n, ...} from pytest's last summary line."""
    lines = [line for line in output.splitlines() if re.search(r"\d+ (passed|failed|error)", line)]
    found = re.findall(r"(\d+) (passed|failed|errors?|skipped|deselected)", lines[-1] if lines else "")
    return {"error" if kind.startswith("error") else kind: int(n) for n, kind in found}


def run_tests(copy: Path, plan: Sabotage, timeout: float, every_test: bool) -> list[dict]:
    """Each test file of `plan` in `copy`, stopping at its first failure (with `every_test`: running them all)."""
    rows = []
    for test_file in plan.must_fail:
        started = time.perf_counter()
        try:
            done = in_folder(copy, "-m", "pytest", "-q", "-n", "0", *([] if every_test else ["-x"]), "-p", "no:cacheprovider",
                             test_file, timeout=timeout)
            output, code = done.stdout + done.stderr, done.returncode
        except subprocess.TimeoutExpired:
            output, code = "", None
        seen = counts(output)
        caught = code == 1 and seen.get("failed", 0) > 0  # a test failed (not a crash, an import error or a timeout)
        verdict = "caught" if caught else "MISSED" if code == 0 else f"error ({'timeout' if code is None else code})"
        failures = [line.removeprefix("FAILED ").split(" - ")[0] for line in output.splitlines()
                    if line.startswith("FAILED ")]
        rows.append({"sabotage": plan.name, "file": test_file, "failed": seen.get("failed", 0),
                     "passed": seen.get("passed", 0), "seconds": time.perf_counter() - started, "verdict": verdict})
        named = "".join(f"\n    {name.split('::')[-1]}" for name in failures)
        print(f"  {test_file}: {verdict}, {rows[-1]['failed']} failed / {rows[-1]['passed']} passed "
              f"({rows[-1]['seconds']:.0f} s){named}", flush=True)
    return rows


def check(folder: Path, plan: Sabotage) -> tuple[bool, str]:
    """Whether the sabotage is in effect for code imported in `folder`, and what the check printed."""
    done = in_folder(folder, "-c", plan.check, timeout=300)
    return done.returncode == 0, (done.stdout + done.stderr).strip().splitlines()[-1]


def table(rows: list[dict]) -> str:
    lines = [f"{'sabotage':<9} {'test file':<44} {'failed':>6} {'passed':>6} {'seconds':>8}  verdict",
             "-" * 86]
    lines += [f"{r['sabotage']:<9} {r['file']:<44} {r['failed']:>6} {r['passed']:>6} {r['seconds']:>8.0f}  "
              f"{r['verdict']}" for r in rows]
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("sabotages", nargs="*", help=f"which to apply: {', '.join(SABOTAGES)} (default: all)")
    parser.add_argument("--keep", action="store_true", help="keep the copies (their folders are printed)")
    parser.add_argument("--timeout", type=float, default=900, help="seconds one test file may take")
    parser.add_argument("--every-test", action="store_true",
                        help="run every test of a file, not only up to its first failure (slower; names each failure)")
    args = parser.parse_args()
    if unknown := set(args.sabotages) - set(SABOTAGES):
        parser.error(f"no sabotage named {', '.join(sorted(unknown))}; there are {', '.join(SABOTAGES)}")
    plans = [SABOTAGES[name] for name in args.sabotages or SABOTAGES]
    rows, problems = [], []
    for plan in plans:
        copy = Path(tempfile.mkdtemp(prefix=f"broken-lecture-{plan.name}-"))
        try:
            copy_project(copy)
            sabotage(copy, plan)
            seen_there, there = check(copy, plan)
            seen_here, here = check(ROOT, plan)
            print(f"{plan.name}: {plan.what}\n  in the copy ({copy}): {there}\n  in this checkout: {here}", flush=True)
            if not seen_there or seen_here:
                problems.append(f"{plan.name}: the check did not tell the sabotaged copy from this checkout")
                continue
            rows += run_tests(copy, plan, args.timeout, args.every_test)
        finally:
            if args.keep:
                print(f"  kept: {copy}")
            else:
                shutil.rmtree(copy, ignore_errors=True)
    print("\n" + table(rows))
    problems += [f"{r['sabotage']}: {r['file']} {r['verdict']}" for r in rows if r["verdict"] != "caught"]
    print("\n" + ("\n".join(problems) if problems else f"every one of the {len(rows)} test files failed, as it must"))
    sys.exit(1 if problems else 0)


if __name__ == "__main__":
    main()
