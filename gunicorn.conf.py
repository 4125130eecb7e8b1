"""Serving a whole class: `gunicorn -c gunicorn.conf.py "app:create_app()"`.

Several worker processes, each with many threads (an open progress or follow-mode stream
holds a thread). The workers share the on-disk cache: a result trained by one is served by
all, a demo is trained once however many ask, one training runs at a time on the device,
and every worker can report on every job. The development server (`flask run`) stays the
right choice for one laptop.

Settings come from the environment: FLASK_CACHE_DIR, FLASK_DEVICE, FLASK_INSTRUCTOR_TOKEN
(set one: students on the network are not the instructor), and for this file
GREATSHIFT_BIND, WEB_CONCURRENCY (workers) and GREATSHIFT_THREADS.
"""
import os

bind = os.environ.get("GREATSHIFT_BIND", "0.0.0.0:8000")
workers = int(os.environ.get("WEB_CONCURRENCY", "3"))
worker_class = "gthread"
# A student's page holds one stream (follow mode), two on a slide with a poll: 200 students, 400 streams.
threads = int(os.environ.get("GREATSHIFT_THREADS", "250"))
# A gthread worker answers the arbiter from its main thread, so a long training job or a
# long-lived event stream never looks like a hung worker.
timeout = 60
graceful_timeout = 10
keepalive = 5
accesslog = "-"
errorlog = "-"
loglevel = "info"
# Training uses one CPU thread per job, leaving the other cores to the request threads.
raw_env = [f"FLASK_TORCH_THREADS={os.environ.get('FLASK_TORCH_THREADS', '1')}"]


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
