#!/usr/bin/env bash
# Several web servers and a training worker on one Redis, all on this machine (loopback): a Redis on
# port 6390, web server A on 127.0.0.1:8001 and B on 127.0.0.1:8002 (gunicorn, gunicorn.conf.py), and
# one training worker on this machine's device. The settings they share are in deploy/room.env.
# Ctrl-C stops them all. On several machines, run each part there with the same room.env: see
# docs/operating.md, "Several machines sharing one Redis".
#
#   deploy/two_servers.sh            # from the repository's folder, after pip install -e .
#
# Elsewhere than these defaults: ROOM_ENV=my-room.env, BINDS="127.0.0.1:9001 127.0.0.1:9002",
# REDIS_DIR (where Redis keeps its data), VENV (the virtual environment, .venv).
#
# Students reach A or B (or a proxy in front of both, FLASK_PUBLIC_URL); the lecturer may use either.
set -euo pipefail
cd "$(dirname "$0")/.."
VENV=${VENV:-.venv}
BINDS=${BINDS:-127.0.0.1:8001 127.0.0.1:8002}
REDIS_DIR=${REDIS_DIR:-instance/redis}
set -a
. "${ROOM_ENV:-deploy/room.env}"
set +a
REDIS_PORT=$(python3 -c "from urllib.parse import urlsplit; import os; print(urlsplit(os.environ['FLASK_REDIS_URL']).port)")
mkdir -p "$FLASK_CACHE_DIR" "$REDIS_DIR"

started=()
stop_all() {
  trap - INT TERM EXIT
  for pid in "${started[@]}"; do kill "$pid" 2>/dev/null || true; done
  wait
}
trap stop_all INT TERM EXIT

# Redis, keeping its data on disk (REDIS_DIR): restarted, it still has the room's polls and queue.
redis-server --port "$REDIS_PORT" --bind 127.0.0.1 --dir "$REDIS_DIR" --appendonly yes &
started+=($!)
until redis-cli -p "$REDIS_PORT" ping >/dev/null 2>&1; do sleep 0.1; done

# Two web servers: two processes each (WEB_CONCURRENCY), enough for a class on one machine.
for bind in $BINDS; do
  GREATSHIFT_BIND=$bind WEB_CONCURRENCY=${WEB_CONCURRENCY:-2} "$VENV/bin/gunicorn" -c gunicorn.conf.py "app:create_app()" &
  started+=($!)
done

# The training worker: one per device (FLASK_DEVICE=cuda:1 for a second GPU, with a second worker).
"$VENV/bin/flask" --app app worker &
started+=($!)

echo "web servers on $BINDS (GET /healthz on each); Ctrl-C stops all"
wait -n
echo "one part stopped; stopping the others" >&2
