"""`flask --app app warm`: train and cache every demo's default result before the lecture."""
import time

import click
from flask import Flask
from flask.cli import with_appcontext

from demos import DEMOS
from demos.runtime.progress import ProgressBar
import slides
from web.deck import get_deck
from web.engine import get_engine


@click.command("warm")
@click.argument("demo_ids", nargs=-1)
@click.option("--full", is_flag=True,
              help="Then also each demo's long variant (its FULL_PARAMS, e.g. the copy test's varying distance).")
@with_appcontext
def warm_command(demo_ids: tuple[str, ...], full: bool):
    """Train and cache the default result of every demo (or of DEMO_IDS). Safe to run while the
    server is up: a demo the server is training already is waited for, not trained twice."""
    engine = get_engine()
    unknown = sorted(set(demo_ids) - set(DEMOS))
    if unknown:
        raise click.UsageError(f"unknown demo(s): {', '.join(unknown)}; demos: {', '.join(DEMOS)}")
    if not demo_ids:  # the deck's demos in slide order, then any other
        on_slides = slides.demo_ids(get_deck())
        demo_ids = tuple(on_slides + [demo_id for demo_id in DEMOS if demo_id not in on_slides])
    runs = [(demo_id, demo_id, None) for demo_id in demo_ids]  # (label, demo, parameters)
    if full:
        runs += [(f"{demo_id} (full)", demo_id, DEMOS[demo_id].FULL_PARAMS)
                 for demo_id in demo_ids if getattr(DEMOS[demo_id], "FULL_PARAMS", None)]
    click.echo(f"Warming {len(runs)} demo runs on {engine.device_label}; cache: {engine.cache.directory}")
    width = max(len(label) for label, _, _ in runs)
    rows = []
    for label, demo_id, raw_params in runs:
        demo, params, key = engine.resolve(demo_id, raw_params)
        bar = ProgressBar(label=f"{label:<{width}}  ")
        started = time.perf_counter()
        try:
            _, trained = engine.compute(demo, params, key, bar)
            outcome = "trained" if trained else "cached"
        except Exception as error:  # one broken demo must not stop the others from warming
            outcome = f"FAILED: {error}"
        finally:
            bar.close()
        rows.append((label, outcome, time.perf_counter() - started))

    click.echo(f"\n{'demo':<{width}}  {'outcome':<8}  seconds")
    for demo_id, outcome, seconds in rows:
        click.echo(f"{demo_id:<{width}}  {outcome:<8}  {seconds:7.2f}")
    click.echo(f"{'total':<{width}}  {'':<8}  {sum(r[2] for r in rows):7.2f}")
    if any(outcome.startswith("FAILED") for _, outcome, _ in rows):
        raise SystemExit(1)


def init_app(app: Flask) -> None:
    app.cli.add_command(warm_command)
