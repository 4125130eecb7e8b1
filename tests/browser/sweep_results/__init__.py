"""Results of the two slides that show a size sweep (Kaplan et al.'s Figures 7 and 5 in miniature): the
prepared runs (`scale: "gpu-sweep"`, `text_scale: "gpu-sweep"`) measured on an NVIDIA H100 on 2026-11-27
(`flask warm --full` there); the showdown's copied runs and summaries were written again afterwards by
`longest_copy` and `summarize` as they now read (the numbers are the H100's). A server whose cache holds them under each demo's
default parameters shows them at the slide's plain address; the same results less their sweep (as a run
without one makes them) are stored under `seed: 1`, to see that those still draw as they always did."""
import json
from pathlib import Path

from engine import Engine
from tests.live_server import LiveServer

HERE = Path(__file__).resolve().parent
DEMOS = ("generation", "context_scaling")
WITHOUT_SWEEP = {"seed": 1}  # the parameters the results less their sweep are stored under


def sweep_result(demo_id: str) -> dict:
    return json.loads((HERE / f"{demo_id}.json").read_text())


def without_sweep(demo_id: str) -> dict:
    """The result as a run without a sweep makes it: no `sweep` (the showdown), no positions (the context slide),
    and the summary without the words about them (the last words of either summary here)."""
    result = sweep_result(demo_id)
    if demo_id == "generation":
        del result["sweep"], result["summaries"]
        words = " By size ("
    else:
        result["text"]["positions"] = None
        words = " Loss at each position"
    result["summary"] = result["summary"][:result["summary"].index(words)]
    result["params"] = {**{k: v for k, v in result["params"].items() if not k.endswith("scale")}, **WITHOUT_SWEEP}
    return result


def start_sweep_server(cache: Path) -> LiveServer:
    engine = Engine(cache)
    for demo_id in DEMOS:
        _, defaults, key = engine.resolve(demo_id, None)
        engine.cache.put(demo_id, key, defaults, sweep_result(demo_id))
        _, params, key = engine.resolve(demo_id, WITHOUT_SWEEP)
        engine.cache.put(demo_id, key, params, without_sweep(demo_id))
    return LiveServer(cache).start()
