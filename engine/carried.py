"""Results that travel: prepare the long runs on a GPU server the night before, present them from
a laptop the next morning.

`write_file` puts chosen cached results in one JSON file with their provenance (the device, the
PyTorch, Python and project versions, the corpus, the date, each result's code version and
settings). `load_file` checks such a file and stores its results in another installation's
cache, each marked with where and when it was measured (`result["carried"]`), and lists them in
`carried.json` beside the results, so the slides can offer them (`Engine.prepared`).

A file is trusted only as far as it checks out: a file that cannot be read, is not complete JSON,
has another format, was changed after it was written (its checksum), was written with another
corpus, names an unknown demo, comes from another version of a demo's code, or holds a result its
demo cannot read is refused whole, with a message naming what failed, and nothing is stored.
Loading the same file twice changes nothing the second time. A result this installation measured
itself under the same key is kept, not replaced: it is the same computation, measured here.
"""
import hashlib
import json
import math
import platform
from dataclasses import dataclass, field
from datetime import datetime, timezone
from importlib import metadata
from pathlib import Path
from types import ModuleType

import torch

from demos import DEMOS
from demos.core.python_docs import manifest
from demos.runtime import budgets
from demos.runtime.files import atomic_write_bytes
from demos.runtime.params import ParamError, validate
from demos.runtime.versions import code_version
from engine.cache import Entry, cache_key

FORMAT = "the-great-shift results 1"
INDEX = "carried.json"  # in the cache folder: the carried results, for the slides to find


class CarryError(ValueError):
    """A results file this installation cannot take; the message says what failed."""


def project_version() -> str:
    try:
        return metadata.version("great-shift")
    except metadata.PackageNotFoundError:  # run from a checkout that was never installed
        return "unknown"


def corpus_digest() -> str:
    """The digest of the text the language models learn from, as the package's manifest names it."""
    return manifest()["digest"]


def checksum(data: dict) -> str:
    """What the file's `checksum` must be for the rest of it: any later edit changes it."""
    rest = {name: value for name, value in data.items() if name != "checksum"}
    return hashlib.sha256(json.dumps(rest, sort_keys=True, allow_nan=False).encode()).hexdigest()


# ---- writing

def chosen_entries(engine, demo_ids: list[str], every: bool = False) -> list[tuple[str, str, Entry]]:
    """(demo, key, entry) of each demo's cached default and prepared run on the engine's device class,
    in the order given (the runs not cached left out); with `every`, each cached result of theirs,
    settings chosen in class too."""
    chosen = []
    for demo_id in demo_ids:
        full = engine.full_params(DEMOS[demo_id])
        keys = [engine.resolve(demo_id, raw)[2] for raw in ((None, full) if full is not None else (None,))]
        if every:
            keys += sorted(set(engine.cache.keys(demo_id)) - set(keys))
        for key in keys:
            entry = engine.cache.get(demo_id, key)
            if entry is not None and entry.result.get("params") is not None:
                chosen.append((demo_id, key, entry))
    return chosen


def write_file(engine, path: Path, demo_ids: list[str], every: bool = False) -> dict:
    """Write the cached default and prepared run of each of `demo_ids` (with `every`, each of their
    cached results) to `path`; returns what was written."""
    results = [{"demo": demo_id, "key": key, "code": code_version(DEMOS[demo_id].__name__),
                "params": entry.result["params"], "created": entry.created, "result": entry.result}
               for demo_id, key, entry in chosen_entries(engine, demo_ids, every)]
    data = {
        "format": FORMAT,
        "provenance": {"device": engine.device_label, "torch": torch.__version__, "python": platform.python_version(),
                       "project": project_version(), "corpus": corpus_digest(),
                       "written": datetime.now(timezone.utc).isoformat(timespec="seconds")},
        "results": results,
    }
    data["checksum"] = checksum(data)
    atomic_write_bytes(Path(path), json.dumps(data, indent=1, allow_nan=False).encode())
    return data


# ---- reading and checking

def cut_short(text: str, error_at: int) -> bool:
    """Whether JSON that fails to parse at `error_at` is only cut short: the parser reached its end, or
    stopped inside the last bare word (a number cut inside its digits, "0." or "1e-", or "tru")."""
    rest = text.rstrip()[error_at:]
    return all(char.isalnum() or char in ".+-" for char in rest)


def read_file(path: Path) -> dict:
    """The file's contents, checked as a whole (readable, complete, this format, unchanged)."""
    name = Path(path).name
    try:
        raw = Path(path).read_bytes()
    except OSError as error:
        raise CarryError(f"cannot read {path}: {error.strerror or error}") from None
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        raise CarryError(f"{name} is not a results file: it is not text") from None
    try:
        data = json.loads(text)
    except json.JSONDecodeError as error:
        if text.strip() and cut_short(text, error.pos):
            raise CarryError(f"{name} is not complete: it ends too soon (truncated while copying?)") from None
        raise CarryError(f"{name} is not a results file: it is not JSON (line {error.lineno}, "
                         f"column {error.colno}: {error.msg})") from None
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        found = data.get("format") if isinstance(data, dict) else None
        raise CarryError(f"{name} is not a results file of this project"
                         + (f" (its format is {found!r}; this installation reads {FORMAT!r})" if found else ""))
    if not isinstance(data.get("results"), list) or not isinstance(data.get("provenance"), dict):
        raise CarryError(f"{name} is damaged: it has no list of results or no provenance")
    try:
        unchanged = checksum(data) == data.get("checksum")
    except ValueError:  # NaN or infinity somewhere
        unchanged = False
    if not unchanged:
        raise CarryError(f"{name} was changed after it was written: its checksum does not match its contents "
                         "(edited by hand, or damaged)")
    here = corpus_digest()
    if data["provenance"].get("corpus") != here:
        raise CarryError(f"{name} was measured on another corpus (digest {data['provenance'].get('corpus')}; "
                         f"this installation's is {here}): its language results are about other text")
    return data


@dataclass
class Carried:
    """One result of a file, checked, with the label it gets here."""
    demo: str
    key: str
    params: dict
    created: str
    result: dict  # with `carried`: where and when it was measured

    @property
    def run(self) -> str:
        return self.result["budget_run"]["run"]


def check_record(record, index: int, provenance: dict) -> Carried:
    """One result of the file, checked against its demo here; raises CarryError naming what failed."""
    if not isinstance(record, dict) or not isinstance(record.get("result"), dict):
        raise CarryError(f"result {index + 1} of the file is damaged: it is not a demo's result")
    demo_id = record.get("demo")
    if demo_id not in DEMOS:
        raise CarryError(f"result {index + 1} is of an unknown demo, {demo_id!r}; this installation has "
                         f"{', '.join(DEMOS)}")
    demo = DEMOS[demo_id]
    here = code_version(demo.__name__)
    if record.get("code") != here:
        raise CarryError(f"{demo_id}: measured with another version of its code ({record.get('code')}; here "
                         f"{here}), by project {provenance.get('project')}: write the file again with this "
                         "version of the project")
    try:
        params = validate(demo.PARAMS, record.get("params"))
    except (ParamError, TypeError, AttributeError) as error:
        raise CarryError(f"{demo_id}: its settings are not ones this demo accepts ({error})") from None
    if params != record["params"] or record.get("key") != cache_key(demo_id, params, here):
        raise CarryError(f"{demo_id}: its settings do not match its key (edited by hand?)")
    created = record.get("created")
    try:
        measured = datetime.fromisoformat(created)
    except (TypeError, ValueError):
        raise CarryError(f"{demo_id}: it does not say when it was measured") from None
    result = record["result"]
    check_result(demo, result, params)
    earlier = result.get("carried")  # carried here before, and saved again: its first label stands
    if earlier is not None and not (isinstance(earlier, dict) and all(isinstance(earlier.get(part), str)
                                                                      for part in ("text", "short", "device"))):
        raise CarryError(f"{demo_id}: it says it was carried from elsewhere, but not where or when")
    return Carried(demo_id, record["key"], params, created,
                   {**result, "carried": result.get("carried") or label(result["device"], measured, provenance)})


def check_result(demo: ModuleType, result: dict, params: dict) -> None:
    """The result has what every result has (runner.run_demo) for these settings, and its demo can
    read it: its terminal text and its recap row (where it has one) come out of it."""
    seconds = result.get("train_seconds")
    fields_ok = (result.get("demo") == demo.ID and result.get("params") == params
                 and isinstance(result.get("device"), str) and isinstance(result.get("summary"), str)
                 and isinstance(result.get("budget_run"), dict) and result["budget_run"].get("run") in (*budgets.RUNS, "chosen")
                 and isinstance(seconds, (int, float)) and not isinstance(seconds, bool)
                 and math.isfinite(seconds) and seconds >= 0)
    if not fields_ok:
        raise CarryError(f"{demo.ID}: its result lacks what every result says (device, settings, budget, time, summary)")
    try:
        demo.format_text(result)
        if hasattr(demo, "headline"):
            demo.headline(result)
    except Exception as error:  # any shape the demo's own code cannot read
        raise CarryError(f"{demo.ID}: its result is not one this demo can read "
                         f"({type(error).__name__}: {error})") from None


def carried_text(result: dict) -> str | None:
    """Where and when a carried result was measured ("measured on NVIDIA H100 80GB HBM3, 26 Nov"); None
    for a result measured here."""
    return result.get("carried", {}).get("text")


def device_name(device: str) -> str:
    """"cuda: NVIDIA H100 80GB HBM3" → "NVIDIA H100 80GB HBM3"; "cpu" → "a CPU"."""
    kind, _, name = device.partition(": ")
    return (name or {"cpu": "a CPU", "mps": "an Apple GPU"}.get(kind, kind))[:60]


def short_name(name: str) -> str:
    """A device's name in a word or two, for a button: "NVIDIA H100 80GB HBM3" → "H100", "NVIDIA A100-SXM4-80GB"
    → "A100", "NVIDIA GeForce RTX 4090" → "RTX 4090", "a CPU" → "CPU"."""
    words = name.removeprefix("a ").removeprefix("an ").split()
    for i, word in enumerate(words):
        if any(ch.isdigit() for ch in word):
            model = word.split("-")[0]
            return f"{words[i - 1]} {model}" if model.isdigit() and i > 0 else model
    return " ".join(words[-2:])


def label(device: str, measured: datetime, provenance: dict) -> dict:
    """How a carried result says where and when it was measured: "measured on NVIDIA H100 80GB HBM3,
    26 Nov"; `short` for a button ("H100 run, 26 Nov"), and the versions it was measured with."""
    day = f"{measured.day} {measured:%b}"
    name = device_name(device)
    return {"text": f"measured on {name}, {day}", "short": f"{short_name(name)} run, {day}", "device": device,
            "measured": measured.isoformat(), "torch": provenance.get("torch"), "python": provenance.get("python"),
            "project": provenance.get("project")}


def check_file(path: Path) -> tuple[dict, list[Carried]]:
    """The file's provenance and its results, all checked; raises CarryError at the first that fails."""
    data = read_file(path)
    return data["provenance"], [check_record(record, i, data["provenance"]) for i, record in enumerate(data["results"])]


# ---- loading

@dataclass
class Report:
    added: list[Carried] = field(default_factory=list)
    unchanged: list[Carried] = field(default_factory=list)  # loaded before: the same result is here
    kept: list[Carried] = field(default_factory=list)  # this installation measured the same run itself


def load_file(engine, path: Path) -> tuple[dict, Report]:
    """Check the file whole, then store each of its results in the engine's cache (see the module's
    docstring for what is refused and what is kept)."""
    if engine.cache.directory is None:
        raise CarryError("this installation keeps no cache folder: there is nowhere to load results into")
    provenance, carried = check_file(path)
    report = Report()
    for item in carried:
        existing = engine.cache.get(item.demo, item.key)
        if existing is not None and "carried" not in existing.result:
            report.kept.append(item)
        elif existing is not None and existing.result == item.result:
            report.unchanged.append(item)
        else:
            engine.cache.put(item.demo, item.key, item.params, item.result, created=item.created)
            report.added.append(item)
    engine.carried.add(report.added + report.unchanged, Path(path).name)
    return provenance, report


class CarriedIndex:
    """`carried.json` in the cache folder: which results were carried in, per demo (read again when
    another process, `flask results load`, has changed it)."""

    def __init__(self, directory: Path | None):
        self.path = Path(directory) / INDEX if directory else None
        self.seen: tuple[float, list[dict]] = (-1.0, [])

    def runs(self, demo_id: str) -> list[dict]:
        return [run for run in self._read() if run["demo"] == demo_id]

    def add(self, items: list[Carried], file_name: str) -> None:
        rows = {run["key"]: run for run in self._read()}
        new = {item.key: {"demo": item.demo, "key": item.key, "params": item.params, "run": item.run,
                          "created": item.created, "file": file_name} for item in items}
        if all(rows.get(key, {}).get("created") == row["created"] for key, row in new.items()):
            return  # nothing new: the file is not written again
        rows.update(new)
        atomic_write_bytes(self.path, json.dumps({"runs": list(rows.values())}, indent=1).encode())

    def _read(self) -> list[dict]:
        if self.path is None:
            return []
        try:
            mtime = self.path.stat().st_mtime
        except OSError:
            return []
        if mtime != self.seen[0]:
            try:
                runs = json.loads(self.path.read_bytes())["runs"]
            except (OSError, ValueError, KeyError, TypeError):
                runs = []
            self.seen = (mtime, runs)
        return self.seen[1]
