"""`flask --app app warm`: train and cache every demo's default result before the lecture."""
import time

import click
from flask import Flask, current_app
from flask.cli import with_appcontext

from demos import DEMOS
from demos.terminal import ProgressBar


@click.command("warm")
@with_appcontext
def warm_command():
    """Train and cache the default result of every demo. Safe to run while the server is up:
    a demo the server is training already is waited for, not trained twice."""
    engine = current_app.extensions["engine"]
    click.echo(f"Warming {len(DEMOS)} demos on {engine.device_label}; cache: {engine.cache.directory}")
    width = max(map(len, DEMOS))
    rows = []
    for demo_id in DEMOS:
        demo, params, key = engine.resolve(demo_id, None)
        bar = ProgressBar(label=f"{demo_id:<{width}}  ")
        started = time.perf_counter()
        try:
            _, trained = engine.compute(demo, params, key, bar)
            outcome = "trained" if trained else "cached"
        except Exception as error:  # one broken demo must not stop the others from warming
            outcome = f"FAILED: {error}"
        finally:
            bar.close()
        rows.append((demo_id, outcome, time.perf_counter() - started))

    click.echo(f"\n{'demo':<{width}}  {'outcome':<8}  seconds")
    for demo_id, outcome, seconds in rows:
        click.echo(f"{demo_id:<{width}}  {outcome:<8}  {seconds:7.2f}")
    click.echo(f"{'total':<{width}}  {'':<8}  {sum(r[2] for r in rows):7.2f}")
    if any(outcome.startswith("FAILED") for _, outcome, _ in rows):
        raise SystemExit(1)


def init_app(app: Flask) -> None:
    app.cli.add_command(warm_command)
