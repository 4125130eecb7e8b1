"""Mutation score of the science core: how many small bugs planted in it the fast tests catch.

    python -m benchmarks.mutation [FILE ...] [--tests PATH ...] [--max-children N] [--keep | --again COPY]

mutmut 3 (`pip install -e '.[mutation]'`) makes one mutant per small change to a source file (a
comparison or an operator turned around, a constant nudged, an argument or a return value replaced
by None, ...) and runs the tests that call the changed function against it: a mutant is killed when
a test fails (or it runs out of time). The score of a file is killed / all its mutants; a mutant no
test even calls counts as surviving. Mutants are made and tested in a temporary copy of the project
(mutmut works in a `mutants/` folder beside the code), so the working tree is never changed.

FILE defaults to the files of the science core; the tests default to their own test files in
tests/core and tests/gpu (the corpus and documentation tests are left out: a surviving mutant runs every test
that calls its function, and those take ten seconds each).

Without CUDA, some mutants only a GPU could kill: those that change where a tensor is placed
(`device=...`), and those in code that runs only with CUDA (blocks under `if ... "cuda"` or
`with torch.cuda...`, which the tests, run once under coverage, never reach here). They are marked
"GPU only", and a second score leaves the ones not killed out. It prints each file's scores, then
every mutant not killed as the lines it changed. The last figures are in docs/testing.md.
"""
import argparse
import ast
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from collections import Counter
from contextlib import chdir
from dataclasses import dataclass, field
from pathlib import Path

import torch

ROOT = Path(__file__).resolve().parent.parent
CORE = ["demos/core/models.py", "demos/core/training.py", "demos/core/ngrams.py", "demos/core/tasks.py",
        "demos/core/cuda_training.py"]  # the last runs only on a GPU: every mutant of it is "GPU only" here
FAST_TESTS = ["tests/core/test_models.py", "tests/core/test_training.py", "tests/core/test_ngrams.py",
              "tests/core/test_tasks.py", "tests/gpu/test_cuda.py"]
KILLED = {"killed", "timeout", "segfault"}  # a test failed, ran out of time or crashed: the change was noticed


def project_files() -> list[str]:
    """The files git knows of or would add (tracked and untracked, not ignored): the project as it stands."""
    listed = subprocess.run(["git", "ls-files", "--cached", "--others", "--exclude-standard", "-z"],
                            cwd=ROOT, capture_output=True, text=True, check=True).stdout
    return [name for name in listed.split("\0") if name and not name.startswith("mutants/")]


def copy_project(target: Path) -> None:
    for name in project_files():
        source = ROOT / name
        if source.is_file():  # a file deleted but not yet committed is listed and absent
            (target / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, target / name)


def mutmut_config(files: list[str], tests: list[str], copy: Path) -> str:
    """The [tool.mutmut] table for the copy: mutate `files` only, but copy the whole `demos` package and
    everything beside it into mutants/, where the tests run (mutmut takes the project root off sys.path)."""
    beside = sorted(p.name for p in copy.iterdir() if p.name not in ("demos", "tests", "pyproject.toml"))

    def toml_list(values: list[str]) -> str:
        return "[" + ", ".join(json.dumps(value) for value in values) + "]"

    return "\n".join([
        "", "[tool.mutmut]",
        'source_paths = ["demos"]',
        f"only_mutate = {toml_list(files)}",
        f"also_copy = {toml_list(beside)}",
        f"pytest_add_cli_args_test_selection = {toml_list(tests)}",
        'pytest_add_cli_args = ["-p", "no:cacheprovider", "-n", "0"]',
        # mutmut's default, kept on purpose: it stops a mutant after 15 × (its tests' time + 1 s) of wall-clock
        # time, and a busy machine stretches that time (a 3 × limit killed surviving mutants at a load of 7)
        "timeout_multiplier = 15.0",
        "",
    ])


def run_mutmut(copy: Path, max_children: int) -> None:
    mutmut = Path(sys.executable).with_name("mutmut")
    if not mutmut.exists():
        sys.exit(f"mutmut is not installed next to {sys.executable}: pip install -e '.[mutation]'")
    log = copy / "mutmut.log"
    with log.open("w") as out:  # mutmut draws a spinner: keep it out of the report
        done = subprocess.run([str(mutmut), "run", "--max-children", str(max_children)], cwd=copy,
                              stdout=out, stderr=subprocess.STDOUT)
    if done.returncode != 0:
        sys.stdout.write(log.read_text(errors="replace")[-4000:] + "\n")
        sys.exit(f"mutmut failed (exit {done.returncode}); the whole log is {log} (kept: --keep)")


def lines_not_run(copy: Path, files: list[str], tests: list[str]) -> dict[str, set[int]]:
    """Per file, the statements (by first line) the tests never execute on this machine: the tests run
    once under coverage, on the unmutated copy."""
    data, out = copy / ".coverage.mutation", copy / "coverage.json"
    if not out.exists():
        subprocess.run([sys.executable, "-m", "coverage", "run", f"--data-file={data}", f"--include={','.join(files)}",
                        "-m", "pytest", "-q", "-n", "0", "-p", "no:cacheprovider", *tests], cwd=copy, capture_output=True)
        subprocess.run([sys.executable, "-m", "coverage", "json", f"--data-file={data}", "-o", str(out)], cwd=copy,
                       capture_output=True, check=True)
    measured = json.loads(out.read_text())["files"]
    every_line = {path: set(range(1, len((copy / path).read_text().splitlines()) + 1)) for path in files}
    return {path: set(measured[path]["missing_lines"]) if path in measured else every_line[path]  # never imported
            for path in files}


def statement_starts(tree: ast.Module) -> dict[int, int]:
    """Each line -> the first line of the innermost statement it belongs to (coverage names a statement by it)."""
    first: dict[int, int] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.stmt):
            for line in range(node.lineno, node.end_lineno + 1):
                first[line] = max(first.get(line, 0), node.lineno)
    return first


def functions(tree: ast.Module) -> dict[str, ast.FunctionDef]:
    """"function" and "Class.method" -> its node: the functions mutmut mutates."""
    found = {}
    for node in tree.body:
        members = node.body if isinstance(node, ast.ClassDef) else [node]
        prefix = f"{node.name}." if isinstance(node, ast.ClassDef) else ""
        found |= {prefix + m.name: m for m in members if isinstance(m, (ast.FunctionDef, ast.AsyncFunctionDef))}
    return found


def cuda_only_lines(function: ast.FunctionDef, not_run: set[int]) -> set[int]:
    """The lines of `function` that only run with CUDA, and did not run here: blocks entered on a condition
    that names CUDA (`if ... == "cuda"`, `with torch.cuda.stream(...)`), or the whole function if it names
    CUDA and does not run at all (a step captured as a CUDA graph)."""
    def span(node: ast.AST) -> set[int]:
        return set(range(node.lineno, node.end_lineno + 1))

    first = function.body[1] if ast.get_docstring(function) and len(function.body) > 1 else function.body[0]
    if "cuda" in ast.unparse(function) and first.lineno in not_run:
        return span(function)
    lines = set()
    for node in ast.walk(function):
        if isinstance(node, (ast.If, ast.While)) and "cuda" in ast.unparse(node.test):
            lines |= span(node)
        elif isinstance(node, ast.With) and any("cuda" in ast.unparse(item.context_expr) for item in node.items):
            lines |= span(node)
    return lines


def changed_words(old: str, new: str) -> str:
    """The words of `old` the mutation changed: the text between the parts `old` and `new` share at each
    end, widened to whole names ("idx.device" -> "None" changes "idx.device", not "idx.devic")."""
    start = len(os.path.commonprefix([old, new]))
    end = len(old) - len(os.path.commonprefix([old[start:][::-1], new[start:][::-1]]))
    while start > 0 and (old[start - 1].isalnum() or old[start - 1] in "_."):
        start -= 1
    while end < len(old) and (old[end].isalnum() or old[end] in "_."):
        end += 1
    return old[start:end]


@dataclass
class Mutant:
    name: str  # "SelfAttention.forward #57"
    status: str  # as mutmut names it: killed, survived, no tests, timeout, ...
    diff: list[str] = field(default_factory=list)  # the lines it changed: "- original", "+ mutated"
    gpu_only: bool = False  # only a GPU could tell it apart: its lines never run here, or it changes a device

    @property
    def killed(self) -> bool:
        return self.status in KILLED


def short_name(mutant: str) -> str:
    """demos.core.models.xǁSelfAttentionǁforward__mutmut_57 -> SelfAttention.forward #57"""
    function, _, number = mutant.rpartition("__mutmut_")
    function = function.rpartition(".")[2].removeprefix("x").removeprefix("_").strip("ǁ").replace("ǁ", ".")
    return f"{function} #{number}"


def changed_lines(mutant: str, path: str) -> list[str]:
    """The lines the mutant changed, as "- original" and "+ mutated" (mutmut's own diff, without context)."""
    from mutmut.mutation.diff_apply import get_diff_for_mutant
    diff = get_diff_for_mutant(mutant, path=Path(path)).splitlines()
    return [f"{line[0]} {line[1:].strip()}" for line in diff
            if line[:1] in "+-" and not line.startswith(("+++", "---"))]


def gpu_only(mutant: Mutant, source_lines: list[str], function: ast.FunctionDef | None, starts: dict[int, int],
             not_run: set[int]) -> bool:
    """Whether only a GPU could kill the mutant: what it changes names a device or CUDA (where tensors go, not
    what they hold), or every line it changes is CUDA-only code that did not run here."""
    old = [line[2:] for line in mutant.diff if line[0] == "-"]
    new = [line[2:] for line in mutant.diff if line[0] == "+"]
    if re.search(r"device|cuda", changed_words(" ".join(old), " ".join(new))):
        return True
    if function is None:
        return False
    cuda_only = cuda_only_lines(function, not_run)
    places = [[n for n in range(function.lineno, function.end_lineno + 1) if source_lines[n - 1].strip() == text]
              for text in old]
    return all(places) and all(n in cuda_only and starts.get(n, n) in not_run for found in places for n in found)


def collect(copy: Path, files: list[str], not_run: dict[str, set[int]] | None) -> dict[str, list[Mutant]]:
    """Every mutant of every file, with the diff of those not killed; `not_run` (None on a GPU machine) marks
    the ones only a GPU could kill."""
    from mutmut.stats import status_by_exit_code
    found = {}
    with chdir(copy):  # mutmut reads its mutants from ./mutants
        for path in files:
            source = Path(path).read_text()
            tree = ast.parse(source)
            nodes, starts, lines = functions(tree), statement_starts(tree), source.splitlines()
            meta = json.loads((Path("mutants") / (path + ".meta")).read_text())
            found[path] = []
            for key, code in meta["exit_code_by_key"].items():
                mutant = Mutant(short_name(key), status_by_exit_code[code])
                if not mutant.killed:
                    mutant.diff = changed_lines(key, path)
                    function = nodes.get(mutant.name.partition(" #")[0])
                    mutant.gpu_only = not_run is not None and gpu_only(mutant, lines, function, starts, not_run[path])
                found[path].append(mutant)
    return found


def report(found: dict[str, list[Mutant]]) -> None:
    print(f"{'file':<26} {'killed':>6} {'total':>6} {'score':>6}   survived  no tests  timeout"
          "   GPU only  score without")
    for path, mutants in found.items():
        killed = sum(m.killed for m in mutants)
        excused = sum(m.gpu_only for m in mutants if not m.killed)
        count = Counter(m.status for m in mutants)
        print(f"{path:<26} {killed:>6} {len(mutants):>6} {percent(killed, len(mutants)):>6}"
              f"   {count['survived']:>8}  {count['no tests']:>8}  {count['timeout']:>7}"
              f"   {excused:>8}  {percent(killed, len(mutants) - excused):>13}")
    print("(killed counts timeouts; a mutant no test calls counts as surviving; GPU only: not killed, and only a GPU"
          " could kill it: its lines never run here, or it changes where tensors are placed)")
    for path, mutants in found.items():
        alive = [m for m in mutants if not m.killed]
        print(f"\n{path}: {len(alive)} not killed, {sum(m.gpu_only for m in alive)} of them GPU only")
        for mutant in sorted(alive, key=lambda m: m.gpu_only):
            tags = [mutant.status] * (mutant.status != "survived") + ["GPU only"] * mutant.gpu_only
            print(f"  {mutant.name}" + (f" ({', '.join(tags)})" if tags else ""))
            for line in mutant.diff:
                print(f"      {line}")


def percent(part: int, whole: int) -> str:
    return f"{100 * part / whole:.1f}%" if whole else "-"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("files", nargs="*", default=CORE, help="source files to mutate (default: the science core)")
    parser.add_argument("--tests", nargs="+", default=FAST_TESTS, help="test files or folders that may kill a mutant")
    parser.add_argument("--max-children", type=int, default=os.cpu_count() or 1, help="mutants tested at once")
    parser.add_argument("--keep", action="store_true", help="keep the temporary copy (mutmut's log and mutants/)")
    parser.add_argument("--again", metavar="COPY", type=Path, help="report on a copy kept by --keep, without running")
    args = parser.parse_args()
    files = [str(Path(name).resolve().relative_to(ROOT)) if Path(name).is_absolute() else name for name in args.files]
    missing = [name for name in files + args.tests if not (ROOT / name).exists()]
    if missing:
        sys.exit(f"not found: {', '.join(missing)}")

    started = time.perf_counter()
    copy = args.again or Path(tempfile.mkdtemp(prefix="mutation-"))
    try:
        if not args.again:
            copy_project(copy)
            with (copy / "pyproject.toml").open("a") as pyproject:
                pyproject.write(mutmut_config(files, args.tests, copy))
            print(f"mutating {', '.join(files)}; tests: {' '.join(args.tests)}; in {copy}", flush=True)
            run_mutmut(copy, args.max_children)
        not_run = None if torch.cuda.is_available() else lines_not_run(copy, files, args.tests)
        report(collect(copy, files, not_run))
    finally:
        if args.keep or args.again:
            print(f"\nkept {copy}")
        else:
            shutil.rmtree(copy, ignore_errors=True)
    print(f"\n{time.perf_counter() - started:.0f} s in all, {args.max_children} mutants at once")


if __name__ == "__main__":
    main()
