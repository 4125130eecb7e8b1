"""The speed race from a terminal: the same measurement as slide 10 (demos/speed_race.py),
written to CSVs (the race; the speed-ups from one thread) and an HTML chart (Plotly inlined, so
it opens offline).

    python -m benchmarks.speed_race [--lengths 64 256 1024 4096] [--device auto] [--out speed_race]
"""
import argparse
import csv
from pathlib import Path

import plotly.graph_objects as go
from plotly.subplots import make_subplots

from demos import speed_race
from demos.runtime.device import pick_device
from demos.runtime.params import validate
from demos.runtime.progress import ProgressBar


def write_csv(result: dict, path: Path) -> None:
    """One row per device and length: each contender's median, fastest and slowest seconds and
    whether it stayed noisy, then who was faster ("" where too close to call)."""
    with path.open("w", newline="") as f:
        writer = csv.writer(f)
        writer.writerow(["device", "length",
                         *[f"{name}_{column}" for name in speed_race.CONTENDERS
                           for column in ("seconds", "fastest", "slowest", "noisy")],
                         "lstm_fused_over_transformer", "faster", "transformer_gflops"])
        for race in result["races"]:
            for i, n in enumerate(race["lengths"]):
                cells = []
                for name in speed_race.CONTENDERS:
                    spread = race["spread"][name][i] or [None, None]
                    cells += [race["series"][name][i], *spread, race["noisy"][name][i]]
                writer.writerow([race["device"], n, *cells, race["ratio_lstm_to_transformer"][i],
                                 race["faster"][i] or "", race["transformer_gflops"][i]])


def write_speedups_csv(result: dict, path: Path) -> None:
    """One row per length and contender: its median seconds on one thread and on each kind of parallel
    hardware, and the speed-up over one thread with its range and whether it stayed noisy."""
    scaling = result["scaling"]
    settings, targets = list(scaling["times"]), list(scaling["speedup"])
    with path.open("w", newline="") as f:
        writer = csv.writer(f)
        writer.writerow(["length", "contender", *[f"{s}_seconds" for s in settings],
                         *[f"speedup_{t}_{column}" for t in targets for column in ("median", "least", "most", "noisy")]])
        for i, n in enumerate(scaling["lengths"]):
            for name in speed_race.CONTENDERS:
                if scaling["times"]["one_thread"][name]["series"][i] is None:
                    continue
                gains = [scaling["speedup"][t][name] for t in targets]
                writer.writerow([n, name, *[scaling["times"][s][name]["series"][i] for s in settings],
                                 *[v for g in gains for v in (g["series"][i], *g["spread"][i], g["noisy"][i])]])


def write_html(result: dict, path: Path) -> None:
    races = result["races"]
    figure = make_subplots(rows=1, cols=len(races), subplot_titles=[race["device"] for race in races])
    colors = {"lstm_fused": "#d55e00", "lstm_loop": "#d55e00", "transformer": "#0072b2"}
    symbols = {"lstm_fused": "square", "lstm_loop": "triangle-up", "transformer": "circle"}
    for column, race in enumerate(races, start=1):
        for name in speed_race.CONTENDERS:
            ms = [None if t is None else t * 1000 for t in race["series"][name]]
            spread = [s or [None, None] for s in race["spread"][name]]
            figure.add_trace(go.Scatter(
                x=race["lengths"], y=ms, name=speed_race.NAMES[name], showlegend=column == 1, mode="lines+markers",
                line={"color": colors[name], "dash": "dot" if name == "lstm_loop" else "solid", "width": 3},
                marker={"symbol": [symbols[name] + ("-open" if noisy else "") for noisy in race["noisy"][name]], "size": 10},
                error_y={"type": "data", "symmetric": False,  # fastest to slowest timing
                         "array": [None if m is None else s[1] * 1000 - m for m, s in zip(ms, spread)],
                         "arrayminus": [None if m is None else m - s[0] * 1000 for m, s in zip(ms, spread)]}),
                row=1, col=column)
        figure.update_xaxes(type="log", title_text="sequence length", row=1, col=column)
        figure.update_yaxes(type="log", title_text="ms per training step (median, fastest to slowest)", row=1, col=column)
    figure.update_layout(title=result["summary"][:160], font={"size": 15})
    figure.write_html(path, include_plotlyjs=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--lengths", type=int, nargs="+", default=list(speed_race.LENGTHS))
    parser.add_argument("--width", type=int, default=128)
    parser.add_argument("--batch", type=int, default=8)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--loop-max-length", type=int, default=1024)
    parser.add_argument("--device", default="auto")
    parser.add_argument("--no-cpu", action="store_true", help="on a GPU machine, do not also time the CPU")
    parser.add_argument("--out", default="speed_race", help="file name stem for the .csv and .html")
    args = parser.parse_args()

    params = validate(speed_race.PARAMS, {"lengths": args.lengths, "width": args.width, "batch": args.batch,
                                         "repeats": args.repeats, "loop_max_length": args.loop_max_length,
                                         "compare_cpu": not args.no_cpu})
    bar = ProgressBar()
    result = speed_race.run(params, bar, pick_device(args.device))
    bar.close()
    result["params"] = params
    print(speed_race.format_text(result))
    write_csv(result, Path(f"{args.out}.csv"))
    write_speedups_csv(result, Path(f"{args.out}_speedup.csv"))
    write_html(result, Path(f"{args.out}.html"))
    print(f"\nWrote {args.out}.csv, {args.out}_speedup.csv and {args.out}.html")


if __name__ == "__main__":
    main()
