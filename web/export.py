"""`flask --app app export OUTDIR`: a static copy of the lecture that needs no Python.

It holds every slide (without the speaker notes), the assets, Plotly, and the cached default result of
every demo frozen as JSON (in `results/`, and inside the page so it opens from disk), and the
class's answers to each poll with what the frozen result says about them (in `polls/`). A
static host or a CDN can serve it to any number of students; live runs stay on the
lecturer's server. It opens at `index.html`; slides are `index.html#/n`.
"""
import json
import shutil
from datetime import datetime, timezone
from pathlib import Path

import click
from flask import Flask, current_app, g, render_template
from flask.cli import with_appcontext

from demos import DEMOS
from demos.runtime.budgets import budget_text
from engine.carried import carried_text
from slides import demo_ids
from web.assets import plotly_js
from web.deck import demo_budgets, get_deck
from web.engine import get_engine
from web.polls import frozen_polls
from web.recap import recap
from web.static_assets import ENTRY_POINTS, get_assets


FULL = "@full"  # a prepared run's name in the export's files and manifest: "<demo>@full"


def frozen_results(demo_ids: list[str]) -> tuple[dict, dict, list[str]]:
    """Where cached: each demo's default result (demo id -> result) and its prepared run (a run
    carried in from another machine, else this device class's longer run: `Engine.prepared`), and
    the ids of the demos with neither. The page gets the two as two maps by demo id."""
    engine = get_engine()
    frozen, prepared, missing = {}, {}, []
    for demo_id in demo_ids:
        default = engine.cached(demo_id) if demo_id in DEMOS else None
        longer = engine.prepared(demo_id) if demo_id in DEMOS else None
        if default is None and longer is None:
            missing.append(demo_id)
        if default is not None:
            frozen[demo_id] = default.result
        if longer is not None:
            prepared[demo_id] = longer.result
    return frozen, prepared, missing


def why_not_frozen(demo_id: str) -> str:
    """Why a demo has no frozen result, in words an operator can act on."""
    if demo_id not in DEMOS:
        return "this slide has no demo"
    folder = get_engine().cache.directory
    if folder is None:
        return "this app has no cache folder, and nothing was computed in this process"
    results = folder / "results" / demo_id
    if results.is_dir() and any(results.glob("*.json")):
        return "results of other settings (or of an older version of the demo) are cached, not its default"
    return "nothing cached for its default settings"


def render_pages(deck, frozen: dict, prepared: dict, polls: list[dict]) -> dict[str, str]:
    with current_app.test_request_context("/"):
        g.static_export = True
        return {
            "index.html": render_template("deck/deck.html", deck=deck, current=deck[0], demos=DEMOS,
                                          budgets=demo_budgets(get_engine()), frozen=frozen, frozen_prepared=prepared,
                                          frozen_recap=recap(), frozen_polls=polls, print_mode=False),
            "presenter.html": render_template("deck/presenter.html", deck=deck),
        }


def write_export(outdir: Path) -> dict:
    deck = get_deck()
    frozen, prepared, missing = frozen_results(demo_ids(deck))
    files = {**frozen, **{demo_id + FULL: result for demo_id, result in prepared.items()}}
    polls = frozen_polls(frozen)
    static_dir = Path(current_app.static_folder)
    shutil.copytree(static_dir, outdir / "static", dirs_exist_ok=True)
    for bundle_name in ENTRY_POINTS:
        (outdir / "static" / bundle_name).write_bytes(get_assets().get(bundle_name).raw)
    (outdir / "vendor").mkdir(parents=True, exist_ok=True)
    (outdir / "vendor" / "plotly.min.js").write_bytes(plotly_js().raw)
    for name, html in render_pages(deck, frozen, prepared, polls).items():
        (outdir / name).write_text(html, encoding="utf-8")
    (outdir / "results").mkdir(exist_ok=True)
    for name, result in files.items():
        (outdir / "results" / f"{name}.json").write_text(json.dumps(result, indent=1), encoding="utf-8")
    (outdir / "polls").mkdir(exist_ok=True)
    for poll in polls:
        (outdir / "polls" / f"{poll['demo']}.json").write_text(json.dumps(poll, indent=1), encoding="utf-8")
    manifest = {
        "exported": datetime.now(timezone.utc).isoformat(timespec="seconds"),
        "frozen": [{"demo": name, "device": result["device"], "budget": budget_text(result),
                    "carried": carried_text(result),
                    "train_seconds": result["train_seconds"], "params": result["params"]}
                   for name, result in files.items()],
        "cache_folder": str(get_engine().cache.directory),
        "not_frozen": missing,
        "not_frozen_why": {demo_id: why_not_frozen(demo_id) for demo_id in missing},
        "polls": [{"demo": poll["demo"], "answers": poll["total"]} for poll in polls],
    }
    (outdir / "manifest.json").write_text(json.dumps(manifest, indent=1), encoding="utf-8")
    return manifest


@click.command("export")
@with_appcontext
@click.argument("outdir", type=click.Path(file_okay=False, path_type=Path))
def export_command(outdir: Path):
    """Write a static copy of the lecture to OUTDIR (open OUTDIR/index.html, or serve the folder)."""
    manifest = write_export(outdir)
    click.echo(f"Exported the lecture to {outdir}/index.html")
    click.echo(f"  read the cached results in {manifest['cache_folder']}")
    for item in manifest["frozen"]:
        click.echo(f"  froze {item['demo']:<22} computed on {item['device']} in {item['train_seconds']:.2f} s"
                   + (f" ({item['budget']})" if item["budget"] else "") + (f", {item['carried']}" if item["carried"] else ""))
    answered = [f"{poll['demo']} ({poll['answers']})" for poll in manifest["polls"] if poll["answers"]]
    click.echo(f"  froze the class's answers to {len(manifest['polls'])} polls"
               + (f"; answered: {', '.join(answered)}" if answered else "; none answered yet"))
    if manifest["not_frozen"]:
        click.echo(f"  not frozen, {len(manifest['not_frozen'])} of {len(demo_ids(get_deck()))} demos:")
        for demo_id, why in manifest["not_frozen_why"].items():
            click.echo(f"    {demo_id:<22} {why}")
        click.echo("  Run `flask --app app warm` first, with the same FLASK_CACHE_DIR as the server "
                   "(this read the folder above).")


def init_app(app: Flask) -> None:
    app.cli.add_command(export_command)
