"""Majority vote: which model learns sooner whether a string of bits holds more 1s than 0s?

The example a new slide starts from (`python -m demos new <id>` copies it): an LSTM and a Transformer
of the same width learn a toy task from the same batches, each reporting its loss as it trains, and are
scored on strings drawn apart from their training batches. Replace the task, the models and the numbers
with your experiment, and keep the shape demos/__init__.py asks of a demo.
"""
import torch

from demos.core.models import ModelConfig, build_model, count_parameters
from demos.core.tasks import EVAL, TRAIN, data_generator
from demos.core.training import TrainConfig, classification_loss, thinned, train
from demos.runtime.params import Param, seed_param
from demos.runtime.progress import part
from demos.shared.recap import best_of
from demos.shared.recap import headline as recap_row

ID = "new_demo"
TITLE = "Majority vote: LSTM vs Transformer"
PARAMS = [  # every one bounded: a student's run stays small
    seed_param(),
    Param("length", "int", 15, "Bits in each string", 3, 63),
    Param("steps", "int", 100, "Training steps, the same for both models", 10, 2000),
    Param("width", "int", 16, "Width of both models (LSTM state size, Transformer d_model)", 8, 64),
]
TINY = {"length": 5, "steps": 20, "width": 8}
MODELS = {"lstm": "LSTM", "transformer": "Transformer"}
BATCH_SIZE = 64
N_TEST = 1000  # strings each model is scored on
CLOSE = 0.02  # accuracies closer than this are a tie
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


@torch.no_grad()
def accuracy(model: torch.nn.Module, bits: torch.Tensor, answers: torch.Tensor) -> float:
    """The share of the strings whose answer the model gives (read at the last position)."""
    model.eval()
    return (model(bits)[:, -1, :].argmax(dim=-1) == answers).float().mean().item()


def run(params: dict, progress, device: torch.device) -> dict:
    length, steps = params["length"], params["steps"]
    test_bits, test_answers = Majority(length, data_generator(params["seed"], EVAL, device)).sample(N_TEST)
    curves: dict[str, list] = {}  # each model's loss so far, sent with every progress report
    models = {}
    for i, (name, label) in enumerate(MODELS.items()):
        model = build_model(ModelConfig(kind=name, vocab_size=2, n_out=2, width=params["width"], max_len=length))
        model = model.to(device)
        batches = Majority(length, data_generator(params["seed"], TRAIN, device))  # the same batches for both
        report = part(progress, i, len(MODELS))

        def on_report(step: int, losses: list[float], name=name, label=label, report=report) -> None:
            curves[name] = thinned(losses, CURVE_POINTS)  # a new list: what was sent is never changed
            report(step / steps, f"{label}: step {step} of {steps}, loss {losses[-1]:.3f}",
                   {"steps": steps, "curves": dict(curves)})

        losses = train(model, batches, classification_loss,
                       TrainConfig(steps=steps, report_every=max(1, steps // 30)), on_report)
        models[name] = {"label": label, "parameters": count_parameters(model), "final_loss": losses[-1],
                        "loss_curve": thinned(losses, CURVE_POINTS),
                        "accuracy": accuracy(model, test_bits, test_answers)}
    ones = test_answers.float().mean().item()
    result = {"length": length, "steps": steps, "models": models, "n_test": N_TEST,
              "baseline": max(ones, 1 - ones)}  # always giving the commoner answer
    result["summary"] = summarize(result)
    return result


def summarize(result: dict) -> str:
    scores = ", ".join(f"the {model['label']} {model['accuracy']:.0%}" for model in result["models"].values())
    winner = headline(result)["winner_label"]
    verdict = "neither is clearly ahead" if winner == "neither" else f"the {winner} is ahead"
    return (f"After {result['steps']} training steps on strings of {result['length']} bits, {scores} of "
            f"{result['n_test']} strings answered right (always giving the commoner answer: "
            f"{result['baseline']:.0%}): {verdict}.")


def headline(result: dict) -> dict:
    """For the recap (and the poll's verdict): who answered more strings right, or a tie."""
    accuracies = {name: model["accuracy"] for name, model in result["models"].items()}
    return recap_row(f"Majority of {result['length']} bits", best_of(accuracies, CLOSE),
                     ", ".join(f"{model['label']} {model['accuracy']:.0%}" for model in result["models"].values()))


def format_text(result: dict) -> str:
    lines = [f"{model['label']:<12} accuracy {model['accuracy']:6.1%}  final loss {model['final_loss']:.3f}  "
             f"{model['parameters']:,} parameters" for model in result["models"].values()]
    return "\n".join([*lines, "", result["summary"]])
