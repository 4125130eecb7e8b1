"""`flask --app app warm`: train and cache every demo's default result before the lecture."""
import time

import click
from flask import Flask, current_app
from flask.cli import with_appcontext

from demos import DEMOS
from demos.terminal import ProgressBar


@click.command("warm")
@click.argument("demo_ids", nargs=-1)
@with_appcontext
def warm_command(demo_ids: tuple[str, ...]):
    """Train and cache the default result of every demo (or of DEMO_IDS). Safe to run while the
    server is up: a demo the server is training already is waited for, not trained twice."""
    engine = current_app.extensions["engine"]
    unknown = sorted(set(demo_ids) - set(DEMOS))
    if unknown:
        raise click.UsageError(f"unknown demo(s): {', '.join(unknown)}; demos: {', '.join(DEMOS)}")
    demo_ids = demo_ids or tuple(DEMOS)
    click.echo(f"Warming {len(demo_ids)} demos on {engine.device_label}; cache: {engine.cache.directory}")
    width = max(map(len, demo_ids))
    rows = []
    for demo_id in demo_ids:
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
