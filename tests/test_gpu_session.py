"""The GPU session's script (`benchmarks/gpu_session.sh`), which a session lent a GPU machine runs in
its one call there: CI has no GPU to run it, so what can go wrong before it reaches one is checked
here. Bash reads it; every command it runs is one this project has, with arguments it takes; and its
report of the sweep reads a results file as `flask results save` writes it."""
import json
import re
import subprocess
import sys
from pathlib import Path

from demos import DEMOS

ROOT = Path(__file__).resolve().parents[1]
SCRIPT = ROOT / "benchmarks" / "gpu_session.sh"


def test_bash_reads_both_scripts():
    for script in (SCRIPT, ROOT / "benchmarks" / "gpu_wheels.sh"):
        assert subprocess.run(["bash", "-n", str(script)], capture_output=True).returncode == 0, script


def test_every_demo_it_names_is_one_and_every_benchmark_it_runs_takes_its_options():
    text = SCRIPT.read_text()
    for line in re.findall(r"flask (?:warm --full|results save \S+) ([a-z_ ]+)$", text, re.M):
        assert set(line.split()) <= set(DEMOS), line
    benchmarks = re.findall(r"python3 -m (benchmarks\.\w+) (.*)$", text, re.M)
    assert benchmarks
    for module, arguments in benchmarks:
        run = subprocess.run([sys.executable, "-m", module, "--help"], capture_output=True, text=True, cwd=ROOT)
        assert run.returncode == 0, run.stderr
        words = arguments.split()
        for word in words:
            assert (word in run.stdout if word.startswith("--") else word in DEMOS or word.isdigit()
                    or words[words.index(word) - 1] == "--device"), (module, word)


def test_its_report_of_the_sweep_reads_a_saved_results_file(tmp_path):
    printer = re.search(r"python3 - \"\$out/sweep-results.json\" <<'PY'\n(.*?)\nPY\n", SCRIPT.read_text(), re.S).group(1)
    saved = {"results": [{"demo": "generation", "result": {"budget_run": {"text": "the GPU prepared run"}, "device": "cuda: X",
                                                   "precision": "bfloat16", "train_seconds": 191.2,
                                                   "summary": "By size: …", "seconds": {"models": 180.0}}}]}
    (tmp_path / "saved.json").write_text(json.dumps(saved))
    run = subprocess.run([sys.executable, "-", str(tmp_path / "saved.json")], input=printer, capture_output=True, text=True)
    assert run.returncode == 0, run.stderr
    assert "--- generation (the GPU prepared run, cuda: X, bfloat16, 191.2 s)" in run.stdout
    assert "where the time went (s): {'models': 180.0}" in run.stdout


def test_every_step_runs_a_program_that_timeout_can_start():
    text = SCRIPT.read_text()
    functions = set(re.findall(r"^(\w+)\(\) \{", text, re.M)) - {"step"}  # timeout cannot run a shell function
    commands = re.findall(r"^step \d+ \S+ (\S+)", text, re.M)
    assert commands and not set(commands) & functions, set(commands) & functions
