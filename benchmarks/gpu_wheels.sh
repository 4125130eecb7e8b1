#!/usr/bin/env bash
# Here, before a session's one call on a lent GPU machine (whose Python 3.12 has PyTorch but not the
# site's own packages, and which reaches no package index): download the pure-Python wheels the site
# needs into .whl/ (ignored by git), for benchmarks/gpu_session.sh to install there.
#
#     bash benchmarks/gpu_wheels.sh
set -euo pipefail
cd "$(dirname "$0")/.."
mkdir -p .whl .git/info
grep -qx '/.whl/' .git/info/exclude 2>/dev/null || echo '/.whl/' >> .git/info/exclude
# The site's dependencies that the GPU machine's image lacks (or has too old: werkzeug), with theirs.
for name in flask werkzeug itsdangerous blinker python-frontmatter segno redis rq croniter; do
  python3 -m pip download -q --no-deps --only-binary=:all: --python-version 3.12 --implementation cp \
    --platform manylinux2014_x86_64 -d .whl "$name"
done
ls .whl
