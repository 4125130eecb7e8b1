#!/usr/bin/env bash
# Everything a session lent a GPU machine checks, in one call of about 7 minutes on an H100 (issue 31):
#   1. the prepared size sweep of slides 11 and 12, saved the moment it is done (with where its time went);
#   2. the deck at the GPU defaults, demo by demo;
#   3. the GPU tests;
#   4. the other demos' prepared runs, and every result saved again.
# Each step has a time limit of its own, so a slow one cannot cost the later ones their results.
# Prepare here with `bash benchmarks/gpu_wheels.sh`, then run on the device, in the repository's root,
# carrying .whl:   bash benchmarks/gpu_session.sh
# What it writes (at most 8 files, as the device tool brings back) goes to $OUT, else ./gpu-out.
set -uo pipefail
cd "$(dirname "$0")/.."
out="${OUT:-gpu-out}"
mkdir -p "$out"
if [ -d .whl ]; then
  python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade --target /tmp/site .whl/*.whl \
    || { echo "gpu_session: the carried wheels did not install" >&2; exit 1; }
  export PYTHONPATH=/tmp/site${PYTHONPATH:+:$PYTHONPATH}
fi
export FLASK_DEVICE=cuda PYTHONUNBUFFERED=1
# The wheels install no flask script, and `timeout` runs programs, not shell functions: a small one.
mkdir -p /tmp/gpu-session-bin
printf '#!/bin/sh\nexec python3 -m flask --app app "$@"\n' > /tmp/gpu-session-bin/flask
chmod +x /tmp/gpu-session-bin/flask
export PATH=/tmp/gpu-session-bin:$PATH

{ date -u; nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv; python3 -c \
  'import sys, torch; print("Python", sys.version.split()[0], "PyTorch", torch.__version__, torch.cuda.get_device_name())'
  git log -1 --format='code %h %s' 2>/dev/null; } 2>&1 | tee "$out/machine.txt"

step() {  # step SECONDS LOG COMMAND...: run it with a limit, its output to the terminal and to $out/LOG
  local limit=$1 log=$2; shift 2
  echo "== $* (at most ${limit} s)" | tee -a "$out/$log"
  local started=$SECONDS
  timeout "$limit" "$@" 2>&1 | tee -a "$out/$log"
  local status=${PIPESTATUS[0]}
  echo "== exit $status after $((SECONDS - started)) s" | tee -a "$out/$log"
}

# 1. The sweep first, saved straight after: a later step that runs out of time loses nothing of it.
step 300 sweep.log flask warm --full generation context_scaling
step 60 sweep.log flask results save "$out/sweep-results.json" generation context_scaling
step 30 sweep.log python3 - "$out/sweep-results.json" <<'PY'
import json, sys
saved = json.load(open(sys.argv[1]))
for item in saved["results"]:
    result = item["result"]
    print(f"\n--- {item['demo']} ({result.get('budget_run', {}).get('text')}, {result['device']}, "
          f"{result.get('precision')}, {result['train_seconds']} s)\n{result['summary']}")
    if "seconds" in result:
        print("where the time went (s):", result["seconds"])
PY
# 2. The deck at the GPU defaults (a fresh cache but for the two demos above), then those two again, timed.
step 120 deck.log flask warm
step 60 deck.log python3 -m benchmarks.demo_times --device cuda --cached-repeats 1 generation context_scaling speed_race dyck
# 3. The GPU tests (the browser tests skip themselves: no Playwright here).
step 150 gpu-tests.log python3 -m pytest -m gpu -p no:cacheprovider -q
# 4. The other prepared runs, and everything saved.
step 150 rest.log flask warm --full
step 60 rest.log flask results save "$out/all-results.json"
ls -l "$out"
