"""Serving a whole class: `gunicorn -c gunicorn.conf.py "app:create_app()"`.

Several worker processes. The workers share the on-disk cache: a result trained by one is served by
all, a demo is trained once however many ask, one training runs at a time on the device, and every
worker can report on every job. The development server (`flask run`) stays the right choice for one
laptop.

Two kinds of worker (GREATSHIFT_WORKER_CLASS):

- gthread, the default: many threads per worker, and an open progress or follow-mode stream holds
  one. Training runs in the web processes, on threads of their own, beside the requests.
- gevent, the default when FLASK_TRAINING=worker (training in `flask --app app worker`): an open
  stream is a greenlet of a few kilobytes, so one process holds thousands. Only for web processes
  that do not train: gevent turns threads into greenlets, and a greenlet running PyTorch for seconds
  never yields, freezing every stream of its process meanwhile. So this file refuses gevent when
  training would run here.

Settings come from the environment: FLASK_CACHE_DIR, FLASK_DEVICE, FLASK_INSTRUCTOR_TOKEN
(set one: students on the network are not the instructor), and for this file
GREATSHIFT_BIND, WEB_CONCURRENCY (workers), GREATSHIFT_WORKER_CLASS, GREATSHIFT_THREADS (gthread)
and GREATSHIFT_CONNECTIONS (gevent).
"""
import os
import resource

bind = os.environ.get("GREATSHIFT_BIND", "0.0.0.0:8000")
workers = int(os.environ.get("WEB_CONCURRENCY", "3"))
trains_here = os.environ.get("FLASK_TRAINING", "here") in ("", "here")
worker_class = os.environ.get("GREATSHIFT_WORKER_CLASS") or ("gthread" if trains_here else "gevent")
if worker_class not in ("gthread", "gevent"):
    raise SystemExit(f"GREATSHIFT_WORKER_CLASS must be gthread or gevent, not {worker_class!r}")
if worker_class == "gevent" and trains_here:
    raise SystemExit("GREATSHIFT_WORKER_CLASS=gevent needs FLASK_TRAINING=worker (and FLASK_REDIS_URL): "
                     "a greenlet training in the web process would freeze every stream of that process")
# A student's page holds one stream (follow mode), two on a slide with a poll: a thousand students
# on one machine, two thousand streams over the three workers. An idle thread costs a few kilobytes
# (1,200 of them about 10 MB, measured), and a worker starts them only as its connections need them.
threads = int(os.environ.get("GREATSHIFT_THREADS", "1000"))
# gthread: the streams never take a worker's last hundred threads (a quarter of fewer; the cap is
# FLASK_MAX_EVENT_STREAMS, set below unless given), so that pages and answers are still served; a
# stream past the cap gets a 503 and the browser retries, where past the threads it would wait unanswered.
reserved_threads = min(100, threads // 4)
# gevent: open connections per worker, streams and page requests together. Its streams are capped
# below that (FLASK_MAX_EVENT_STREAMS, set below unless given), so that pages still get answered.
worker_connections = int(os.environ.get("GREATSHIFT_CONNECTIONS", "5000"))
# A gthread worker answers the arbiter from its main thread, a gevent worker from a greenlet of its
# own, so a long-lived event stream never looks like a hung worker.
timeout = 60
graceful_timeout = 10
keepalive = 5
accesslog = "-"
errorlog = "-"
loglevel = "info"
# Training uses one CPU thread per job, leaving the other cores to the request threads.
raw_env = [f"FLASK_TORCH_THREADS={os.environ.get('FLASK_TORCH_THREADS', '1')}"]
streams = worker_connections * 4 // 5 if worker_class == "gevent" else max(1, threads - reserved_threads)
raw_env.append(f"FLASK_MAX_EVENT_STREAMS={os.environ.get('FLASK_MAX_EVENT_STREAMS', streams)}")
# Every stream is an open file (past a thousand, over the usual soft limit of 1,024), and each may
# also hold a connection to Redis: as many files as the system lets this user open (the workers
# inherit the limit).
soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
if hard == resource.RLIM_INFINITY or soft < hard:
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))


def post_worker_init(worker):
    """Render every slide page as each worker starts, before the first student arrives, so that a
    class opening the deck in the same second is served from the page cache at once. Then freeze
    what is loaded (PyTorch, the app, the pages: about 190,000 objects) out of the garbage
    collector's sight: a full collection over them stops every thread of the worker for about
    0.1 s (measured), which a class answering a poll felt as its slowest answers."""
    import gc

    from web.deck import render_deck
    with worker.wsgi.test_request_context("/slides/1"):
        render_deck(1)
    gc.freeze()
