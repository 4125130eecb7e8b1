"""The terminal version of every demo: `python -m demos <demo_id> [--param value ...]`.

`python -m demos` lists the demos; `python -m demos <id> --help` lists a demo's parameters.
A progress bar runs on stderr while the demo trains; the result is printed as text
(or as JSON with --json). `python -m demos new <id>` starts a new slide's four files (demos/_new_slide.py).
"""
import argparse
import json
import sys

from demos import DEMOS, _new_slide as new_slide, get_demo
from demos.runtime.device import DeviceError, pick_device
from demos.runtime.params import Param, ParamError, fmt
from demos.runtime.progress import ProgressBar
from demos.runtime.runner import run_demo

PARSERS = {"int": int, "float": float, "str": str}


def parse_bool(text: str) -> bool:
    if text.lower() in ("1", "true", "yes", "on"):
        return True
    if text.lower() in ("0", "false", "no", "off"):
        return False
    raise argparse.ArgumentTypeError(f"expected true or false, not {text!r}")


def add_param(parser: argparse.ArgumentParser, param: Param) -> None:
    bounds = f" [{fmt(param.min)} to {fmt(param.max)}]" if param.type in ("int", "float") else ""
    if param.type == "choice":
        kind = type(param.choices[0])
        parser.add_argument(f"--{param.name}", type=kind, choices=param.choices, help=param.help)
    elif param.type == "multi":
        kind = type(param.choices[0])
        parser.add_argument(f"--{param.name}", type=kind, nargs="+", choices=param.choices, help=param.help)
    elif param.type == "bool":
        parser.add_argument(f"--{param.name}", type=parse_bool, metavar="true|false", help=param.help)
    else:
        parser.add_argument(f"--{param.name}", type=PARSERS[param.type], help=param.help + bounds)


def list_demos() -> str:
    width = max(map(len, DEMOS))
    return "\n".join(f"  {demo_id:<{width}}  {demo.TITLE}" for demo_id, demo in DEMOS.items())


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if not argv or argv[0] in ("-h", "--help", "--list"):
        print(f"usage: python -m demos <demo_id> [--param value ...] [--device auto|cpu|cuda|mps] [--json]\n"
              f"       python -m demos new <id>  (a new slide's four files, from docs/new_slide/)\n\n"
              f"Demos:\n{list_demos()}")
        return 0
    if argv[0] == "new":
        return new_slide.main(argv[1:])
    if argv[0] not in DEMOS:
        print(f"unknown demo {argv[0]!r}. Demos:\n{list_demos()}", file=sys.stderr)
        return 2
    demo = get_demo(argv[0])
    parser = argparse.ArgumentParser(prog=f"python -m demos {demo.ID}", description=demo.TITLE)
    for param in demo.PARAMS:
        add_param(parser, param)
    parser.add_argument("--device", default="auto", help="auto (CUDA, else MPS, else CPU), cpu, cuda, cuda:1, mps")
    parser.add_argument("--json", action="store_true", help="print the result as JSON")
    args = vars(parser.parse_args(argv[1:]))
    device_choice, as_json = args.pop("device"), args.pop("json")
    params = {name: value for name, value in args.items() if value is not None}
    try:
        device = pick_device(device_choice)
        bar = ProgressBar()
        try:
            result = run_demo(demo, params, bar, device)
        finally:
            bar.close()
    except (ParamError, DeviceError) as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    print(json.dumps(result, indent=2) if as_json else demo.format_text(result))
    if not as_json:
        print(f"\n({result['device']}, {result['train_seconds']:.2f} s, seed {result['seed']})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
