"""Majority vote: which model learns sooner whether a string of bits holds more 1s than 0s?

The example a new slide starts from (`python -m demos new <id>` copies it): an LSTM and a Transformer
of the same width learn a toy task from the same batches, with several seeds, each reporting its loss
as it trains, and are scored on strings drawn apart from their training batches. Replace the task, the
models and the numbers with your experiment, and keep the shape demos/__init__.py asks of a demo.
"""
import torch

from demos.core.models import ModelConfig, build_model, count_parameters
from demos.core.tasks import EVAL, TRAIN, data_generator
from demos.core.training import TrainConfig, classification_loss, thinned, train
from demos.runtime.params import Param, seed_param
from demos.runtime.progress import part
from demos.shared.quantities import declared
from demos.shared.recap import headline as recap_row
from demos.shared.seeds import leader, over_seeds, seed_list, seeds_param, spread_text

ID = "new_demo"
TITLE = "Majority vote: LSTM vs Transformer"
PARAMS = [  # every one bounded: a student's run stays small
    seed_param(),
    seeds_param(),
    Param("length", "int", 15, "Bits in each string", 3, 63),
    Param("steps", "int", 60, "Training steps, the same for both models", 10, 2000),
    Param("width", "int", 16, "Width of both models (LSTM state size, Transformer d_model)", 8, 64),
]
TINY = {"length": 5, "steps": 20, "width": 8, "seeds": 2}
MODELS = {"lstm": "LSTM", "transformer": "Transformer"}
BATCH_SIZE = 64
N_TEST = 1000  # strings each model is scored on
CURVE_POINTS = 60  # points of each loss curve sent to the browser


class Majority:
    """The task: `length` random bits; the answer is 1 where they hold more 1s than 0s, else 0."""

    def __init__(self, length: int, generator: torch.Generator):
        self.length, self.generator = length, generator

    def sample(self, n: int) -> tuple[torch.Tensor, torch.Tensor]:
        bits = torch.randint(0, 2, (n, self.length), generator=self.generator, device=self.generator.device)  # (n, T)
        return bits, (2 * bits.sum(dim=1) > self.length).long()  # (n, T), (n,)

    def draw(self, steps: int) -> tuple[torch.Tensor, torch.Tensor]:
        """The batches of `steps` training steps at once, as the training loop asks: (steps, B, T), (steps, B)."""
        bits, answers = self.sample(steps * BATCH_SIZE)
        return bits.view(steps, BATCH_SIZE, self.length), answers.view(steps, BATCH_SIZE)


def work(params: dict) -> float:
    """The run's cost in units of the server's speed test (engine/calibration.py), for the estimate before
    Run: seeds × steps × length, its factor measured on a 2-core CPU (0.9 to 1.1e-3 at the defaults, 3 times
    the steps, one seed; `python -m benchmarks.eta --fit` measures a demo's again)."""
    return 1.0e-3 * params["seeds"] * params["steps"] * params["length"]


@torch.no_grad()
def accuracy(model: torch.nn.Module, bits: torch.Tensor, answers: torch.Tensor) -> float:
    """The share of the strings whose answer the model gives (read at the last position)."""
    model.eval()
    return (model(bits)[:, -1, :].argmax(dim=-1) == answers).float().mean().item()


def run(params: dict, progress, device: torch.device) -> dict:
    length, steps = params["length"], params["steps"]
    seeds = seed_list(params["seed"], params["seeds"])
    tests = {seed: Majority(length, data_generator(seed, EVAL, device)).sample(N_TEST) for seed in seeds}
    curves: dict[str, list] = {name: [] for name in MODELS}  # each model's loss so far, one curve a seed
    models = {}
    for i, (name, label) in enumerate(MODELS.items()):
        scores, parameters = [], 0
        for j, seed in enumerate(seeds):
            torch.manual_seed(seed)  # the model's starting weights
            model = build_model(ModelConfig(kind=name, vocab_size=2, n_out=2, width=params["width"], max_len=length))
            model, parameters = model.to(device), count_parameters(model)
            batches = Majority(length, data_generator(seed, TRAIN, device))  # the same batches for both models
            report = part(progress, i * len(seeds) + j, len(MODELS) * len(seeds))
            curves[name] = [*curves[name], []]

            def on_report(step: int, losses: list[float], name=name, label=label, seed=seed, report=report) -> None:
                curves[name] = [*curves[name][:-1], thinned(losses, CURVE_POINTS)]  # new lists: what was sent stays
                report(step / steps, f"{label}, seed {seed}: step {step} of {steps}, loss {losses[-1]:.3f}",
                       {"steps": steps, "curves": dict(curves)})

            train(model, batches, classification_loss, TrainConfig(steps=steps, report_every=max(1, steps // 20)),
                  on_report)
            scores.append(accuracy(model, *tests[seed]))
        models[name] = {"label": label, "parameters": parameters, "loss_curves": curves[name],
                        "accuracy": over_seeds(scores)}
    answers = torch.cat([answers for _, answers in tests.values()]).float().mean().item()
    result = {"length": length, "steps": steps, "seeds": seeds, "models": models, "n_test": N_TEST,
              "baseline": max(answers, 1 - answers)}  # always giving the commoner answer
    result["summary"] = summarize(result)
    return result


def lstm_accuracy(result: dict) -> dict:
    """The LSTM's accuracy on the test strings (0 to 1), over seeds."""
    return result["models"]["lstm"]["accuracy"]


def transformer_accuracy(result: dict) -> dict:
    """The Transformer's accuracy on the test strings (0 to 1), over seeds."""
    return result["models"]["transformer"]["accuracy"]


QUANTITIES = declared(lstm_accuracy, transformer_accuracy)  # what a number poll on the slide may ask for


def headline(result: dict) -> dict:
    """For the recap (and the poll's verdict): the model that answered more strings right with every seed, or a tie."""
    lstm, transformer = lstm_accuracy(result), transformer_accuracy(result)
    return recap_row(f"Majority of {result['length']} bits", leader({"lstm": lstm, "transformer": transformer}),
                     f"LSTM {spread_text(lstm)}, Transformer {spread_text(transformer)} ({len(result['seeds'])} seeds)")


def summarize(result: dict) -> str:
    winner = headline(result)["winner_label"]
    verdict = "Neither was ahead with every seed." if winner == "neither" else f"The {winner} was ahead with every seed."
    scores = ", ".join(f"the {model['label']} {spread_text(model['accuracy'])}" for model in result["models"].values())
    return (f"After {result['steps']} training steps on strings of {result['length']} bits, over "
            f"{len(result['seeds'])} seeds, {scores} of {result['n_test']} test strings answered right (always "
            f"giving the commoner answer: {result['baseline']:.0%}). {verdict}")


def format_text(result: dict) -> str:
    lines = [f"{model['label']:<12} accuracy {spread_text(model['accuracy'], '.1%'):<22} "
             f"{model['parameters']:,} parameters" for model in result["models"].values()]
    return "\n".join([*lines, "", result["summary"]])
