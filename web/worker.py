"""`flask --app app worker`: train, on this machine's device, the jobs that web servers started with
FLASK_TRAINING=worker put on the room's Redis (engine/training_queue.py)."""
import click
from flask import Flask, current_app
from flask.cli import with_appcontext

from engine.training_queue import queue_names, serve
from web.engine import calibrates, get_engine


@click.command("worker")
@click.option("--burst", is_flag=True, help="Quit once no job is waiting (for scripts and tests).")
@with_appcontext
def worker_command(burst: bool):
    """Train the jobs the web servers enqueue, one at a time, the lecturer's first. Start one per
    device, on the machine that has it, with the same FLASK_REDIS_URL and cache folder as the servers."""
    redis_url, prefix = current_app.config.get("REDIS_URL"), current_app.config.get("REDIS_PREFIX")
    if not redis_url:
        raise click.UsageError("the worker takes its jobs from Redis: set FLASK_REDIS_URL, as on the web servers")
    engine = get_engine()
    click.echo(f"Training worker on {engine.device_label}; queues {', '.join(queue_names(prefix))}; "
               f"cache: {engine.cache.directory}")
    if calibrates(current_app):
        engine.calibration.start()  # the speed test behind the web servers' estimates, which run none (web/engine.py)
    serve(engine, redis_url, prefix, burst)


def init_app(app: Flask) -> None:
    app.cli.add_command(worker_command)
