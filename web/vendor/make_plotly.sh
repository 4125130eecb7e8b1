#!/bin/sh
# Remakes the deck's Plotly build in web/vendor/: plotly-<build>.min.js, its .gz and .br, Plotly's
# LICENSE, and the checksums in plotly.json. Only this maintainer script fetches anything (from npm);
# the site serves the files it leaves. The same toolchain gives the same bytes: every package version
# is fixed by make_plotly.package-lock.json, installed with `npm ci` (the .br also depends on node's
# brotli, whose version plotly.json records under made_with). Needs node and npm.
#
#   web/vendor/make_plotly.sh            # after editing "traces" (or "build") in plotly.json
#   web/vendor/make_plotly.sh --relock   # after changing a version in make_plotly.package.json
set -eu

vendor=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

cp "$vendor/make_plotly.package.json" "$work/package.json"
cp "$vendor/make_plotly.mjs" "$work/"
if [ "${1:-}" = "--relock" ]; then
    (cd "$work" && npm install --ignore-scripts --no-audit --no-fund --loglevel=error)
    cp "$work/package-lock.json" "$vendor/make_plotly.package-lock.json"
else
    cp "$vendor/make_plotly.package-lock.json" "$work/package-lock.json"
    (cd "$work" && npm ci --ignore-scripts --no-audit --no-fund --loglevel=error)
fi

old=$(node -e 'console.log(require(process.argv[1]).file ?? "")' "$vendor/plotly.json")
(cd "$work" && node make_plotly.mjs "$vendor")
new=$(node -e 'console.log(require(process.argv[1]).file)' "$vendor/plotly.json")
if [ -n "$old" ] && [ "$old" != "$new" ]; then  # the build was renamed: the old files go
    rm -f "$vendor/$old" "$vendor/$old.gz" "$vendor/$old.br"
fi
