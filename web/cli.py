"""`flask --app app warm`: train and cache every demo's default result before the lecture, saying
first how long that should take on this machine and at the end how long it took."""
import os
import time

import click
from flask import Flask, current_app
from flask.cli import with_appcontext

from demos import DEMOS
from demos.runtime.budgets import full_params
from demos.runtime.params import ParamError
from demos.runtime.progress import ProgressBar
import slides
from web.deck import get_deck
from web.engine import calibrates, get_engine


def duration(seconds: float) -> str:
    """Seconds as a lecturer plans an evening: "45 s", "3 min 40 s", "1 h 2 min"."""
    seconds = round(seconds)
    if seconds < 60:
        return f"{seconds} s"
    minutes, seconds = divmod(seconds, 60)
    if minutes < 60:
        return f"{minutes} min {seconds} s" if seconds else f"{minutes} min"
    hours, minutes = divmod(minutes, 60)
    return f"{hours} h {minutes} min"


def expected_seconds(engine, runs: list) -> list[float | None]:
    """Each run's estimate here: 0 when cached; None when there is nothing to go by."""
    expected = []
    for _, demo_id, raw_params in runs:
        try:
            if engine.cached(demo_id, raw_params) is not None:
                expected.append(0.0)
            else:
                estimate = engine.estimate(demo_id, raw_params)
                expected.append(estimate.seconds if estimate else None)
        except ParamError:  # a prepared run this installation cannot make yet: warming it says why
            expected.append(None)
    return expected


def say_what_to_expect(engine, runs: list) -> list[float | None]:
    """Before training: the time expected on this machine, from its speed test and earlier runs."""
    if not calibrates(current_app):
        click.echo("No estimate: the speed test is off (FLASK_CALIBRATE=0).")
        return [None] * len(runs)
    if engine.calibration.seconds(wait=0) is None:
        click.echo(f"Timing this machine first (a speed test of a few seconds on {engine.device_label})…")
        engine.calibration.start()
        engine.calibration.seconds(wait=None)  # to its end: no thread may be running PyTorch when warm exits
    expected = expected_seconds(engine, runs)
    known = [seconds for seconds in expected if seconds is not None]
    if not known:
        click.echo("No estimate: the speed test failed (see the log above).")
        return expected
    cached = sum(seconds == 0 for seconds in expected)
    click.echo(f"Expect up to about {duration(sum(known))} on {engine.device_label}"
               + (f" ({cached} of {len(runs)} already cached)" if cached else "")
               + ", from this machine's speed test and its earlier runs; demos that stop once solved take less.")
    cores, load = os.cpu_count() or 1, os.getloadavg()[0] if hasattr(os, "getloadavg") else 0.0
    if engine.device.type == "cpu" and load >= cores:
        click.echo(f"This machine is busy (load average {load:.1f} on {cores} cores): the training shares it, "
                   "so expect it to take longer.")
    return expected


def warm_runs(engine, demo_ids: tuple[str, ...], full: bool) -> list[tuple[str, str, dict | None]]:
    """What `warm` trains, as (label, demo, raw parameters): each demo's default, then with `full`
    each prepared run, both those of the engine's device class (`demos.runtime.budgets`)."""
    runs = [(demo_id, demo_id, None) for demo_id in demo_ids]
    if full:
        prepared = [(demo_id, full_params(DEMOS[demo_id], engine.device)) for demo_id in demo_ids]
        runs += [(f"{demo_id} (full)", demo_id, params) for demo_id, params in prepared if params is not None]
    return runs


@click.command("warm")
@click.argument("demo_ids", nargs=-1)
@click.option("--full", is_flag=True,
              help="Then also each demo's prepared longer run for this machine's device class, CPU or GPU "
                   "(its BUDGETS' \"full\", e.g. the copy test's varying distance).")
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
    runs = warm_runs(engine, demo_ids, full)
    click.echo(f"Warming {len(runs)} demo runs on {engine.device_label}; cache: {engine.cache.directory}")
    expected = say_what_to_expect(engine, runs)
    width = max(len(label) for label, _, _ in runs)
    rows = []
    warm_started = time.perf_counter()
    for (label, demo_id, raw_params), estimate in zip(runs, expected):
        if estimate is not None:  # again: a run before it may have trained a model this one reuses
            estimate = expected_seconds(engine, [(label, demo_id, raw_params)])[0]
        bar = ProgressBar(label=f"{label:<{width}}  ")
        started = time.perf_counter()
        try:
            _, trained = engine.compute(*engine.resolve(demo_id, raw_params), bar)
            outcome = "trained" if trained else "cached"
        except Exception as error:  # one broken demo must not stop the others from warming
            outcome = f"FAILED: {error}"
        finally:
            bar.close()
        rows.append((label, outcome, time.perf_counter() - started, estimate))
    took = time.perf_counter() - warm_started

    click.echo(f"\n{'demo':<{width}}  {'outcome':<8}  seconds  expected")
    for label, outcome, seconds, estimate in rows:
        guess = f"{estimate:8.1f}" if estimate is not None else f"{'-':>8}"
        click.echo(f"{label:<{width}}  {outcome:<8}  {seconds:7.2f}  {guess}")
    click.echo(f"{'total':<{width}}  {'':<8}  {sum(row[2] for row in rows):7.2f}")
    known = [estimate for estimate in expected if estimate is not None]
    click.echo(f"Warmed in {duration(took)}" + (f" (expected up to about {duration(sum(known))} at the start)." if known else "."))
    failed = [label for label, outcome, _, _ in rows if outcome.startswith("FAILED")]
    if failed:
        raise click.ClickException(f"{len(failed)} of {len(rows)} runs failed: {', '.join(failed)} (see the table above).")


def init_app(app: Flask) -> None:
    app.cli.add_command(warm_command)
