"""`flask --app app results save FILE` and `flask --app app results load FILE`: carry results from the
machine that measured them (a GPU server, the night before) to the one that presents them (a
laptop, offline). What a file holds and what is refused: engine/carried.py."""
from pathlib import Path

import click
from flask import Flask
from flask.cli import with_appcontext

from demos import DEMOS
import slides
from engine.carried import CarryError, load_file, write_file
from web.deck import get_deck
from web.engine import get_engine

results_group = click.Group("results", help="Carry results between installations: save them to a file here, "
                                            "load the file into another installation's cache.")


@results_group.command("save")
@click.argument("file", type=click.Path(dir_okay=False, path_type=Path))
@click.argument("demo_ids", nargs=-1)
@click.option("--all", "every", is_flag=True, help="Every cached result of these demos, settings chosen in class too.")
@with_appcontext
def save_command(file: Path, demo_ids: tuple[str, ...], every: bool):
    """Write each demo's cached default and prepared run on this machine (or only DEMO_IDS') to FILE,
    with where, when and how they were measured. Nothing is trained: run `flask warm --full` first."""
    unknown = sorted(set(demo_ids) - set(DEMOS))
    if unknown:
        raise click.UsageError(f"unknown demo(s): {', '.join(unknown)}; demos: {', '.join(DEMOS)}")
    engine = get_engine()
    if not demo_ids:  # the deck's demos in slide order, then any other
        on_slides = slides.demo_ids(get_deck())
        demo_ids = tuple(on_slides + [demo_id for demo_id in DEMOS if demo_id not in on_slides])
    try:
        data = write_file(engine, file, list(demo_ids), every)
    except OSError as error:
        raise click.ClickException(f"cannot write {file}: {error.strerror or error}") from None
    for record in data["results"]:
        click.echo(f"  saved {record['demo']:<22} {record['result']['budget_run']['text']}, measured "
                   f"{record['created'][:16].replace('T', ' ')} on {record['result']['device']}")
    saved = {record["demo"] for record in data["results"]}
    missing = [demo_id for demo_id in demo_ids if demo_id not in saved]
    click.echo(f"Saved {len(data['results'])} results to {file} ({file.stat().st_size / 1e6:.1f} MB), "
               f"measured on {data['provenance']['device']}.")
    if missing:
        click.echo(f"Not cached here, so not saved: {', '.join(missing)} (run `flask --app app warm --full` first).")


@results_group.command("load")
@click.argument("file", type=click.Path(dir_okay=False, path_type=Path))
@with_appcontext
def load_command(file: Path):
    """Check FILE (written by `results save` on another machine) and put its results in this
    installation's cache, each labelled with where and when it was measured. A file that does not
    check out is refused whole, and nothing changes."""
    engine = get_engine()
    try:
        provenance, report = load_file(engine, file)
    except CarryError as error:
        raise click.ClickException(f"{error}. Nothing was loaded.") from None
    for verb, items in (("loaded", report.added), ("already here", report.unchanged),
                        ("kept this machine's own", report.kept)):
        for item in items:
            click.echo(f"  {verb:<23} {item.demo:<22} {item.result['budget_run']['text']}, {item.result['carried']['text']}")
    click.echo(f"Loaded {len(report.added)} results from {file} (measured on {provenance.get('device')}, "
               f"project {provenance.get('project')}, PyTorch {provenance.get('torch')}) into {engine.cache.directory}"
               + (f"; {len(report.unchanged)} were here already" if report.unchanged else "")
               + (f"; {len(report.kept)} measured here too, kept" if report.kept else "") + ".")


def init_app(app: Flask) -> None:
    app.cli.add_command(results_group)
