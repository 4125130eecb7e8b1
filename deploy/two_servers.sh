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

# Each part in a process group of its own (setsid, where the system has it): Ctrl-C then reaches this
# script alone, which stops the parts in order, the worker and the web servers first, then Redis, each
# by SIGTERM as its own shutdown expects (a Ctrl-C reaching gunicorn's gevent workers themselves had
# each print a traceback on its way out, and Redis stopping first had the others complain).
own_group() { if command -v setsid >/dev/null; then exec setsid "$@"; else exec "$@"; fi; }
parts=()
redis_pid=
stop_all() {
  trap - EXIT
  for pid in "${parts[@]}"; do kill "$pid" 2>/dev/null || true; done
  for pid in "${parts[@]}"; do wait "$pid" 2>/dev/null || true; done
  if [ -n "$redis_pid" ]; then kill "$redis_pid" 2>/dev/null || true; fi
  wait
}
trap stop_all EXIT
trap 'exit 0' INT TERM  # Ctrl-C is how this room is stopped: every part stops (EXIT above), and so does this, with 0

# Redis, keeping its data on disk (REDIS_DIR): restarted, it still has the room's polls and queue.
own_group redis-server --port "$REDIS_PORT" --bind 127.0.0.1 --dir "$REDIS_DIR" --appendonly yes &
redis_pid=$!
until redis-cli -p "$REDIS_PORT" ping >/dev/null 2>&1; do sleep 0.1; done

# Two web servers: two processes each (WEB_CONCURRENCY), enough for a class on one machine.
for bind in $BINDS; do
  own_group env GREATSHIFT_BIND="$bind" WEB_CONCURRENCY="${WEB_CONCURRENCY:-2}" "$VENV/bin/gunicorn" -c gunicorn.conf.py "app:create_app()" &
  parts+=($!)
done

# The training worker: one per device (FLASK_DEVICE=cuda:1 for a second GPU, with a second worker).
own_group "$VENV/bin/flask" --app app worker &
parts+=($!)

echo "web servers on $BINDS (GET /healthz on each); Ctrl-C stops all"
status=0
wait -n || status=$?
echo "one part stopped (exit status $status); stopping the others" >&2
exit 1
