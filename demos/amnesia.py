"""Slide 3, the Amnesia Test: can a model recall the first letter of a random string?

An LSTM and a one-layer Transformer get the same optimiser, batch size, step budget and
training batches. Each is then asked about an unseen test string, and scored on 1,000
fresh strings against chance (1/26).
"""
import torch

from demos.classifier import CLEAR_GAP, CONTENDERS, LossCurve, classifier_config, near_chance, train_and_score
from demos.params import Param, seed_param
from demos.recap import best_of, headline as recap_row
from demos.tasks import FirstLetter
from demos.training import TrainConfig

ID = "amnesia"
TITLE = "The Amnesia Test: LSTM vs Transformer"
PARAMS = [
    seed_param(),
    Param("length", "int", 20, "Letters in each string; the model must recall the first", 5, 200),
    Param("steps", "int", 300, "Training steps, the same for both models", 10, 600),
    Param("width", "int", 32, "Width of both models (LSTM state size, Transformer d_model)", 8, 64),
]
MODELS = ("lstm", "transformer")
BATCH_SIZE = 64
N_TEST = 1000  # fresh strings each model is scored on
TOP = 3  # answers shown for the test string


def top_answers(task: FirstLetter, probabilities: torch.Tensor) -> list[dict]:
    """The `TOP` most probable letters for one string, with their probabilities."""
    values, indices = probabilities.topk(TOP)
    return [{"answer": task.label(i), "probability": p} for p, i in zip(values.tolist(), indices.tolist())]


def run(params: dict, progress, device: torch.device) -> dict:
    task = FirstLetter(params["length"])
    train_cfg = TrainConfig(steps=params["steps"])
    curves: dict[str, LossCurve] = {}
    scored = {}

    def partial() -> dict:
        return {"models": {name: {"label": CONTENDERS[name]["label"], "loss_curve": list(curve.points)}
                           for name, curve in curves.items()}}

    for i, name in enumerate(MODELS):
        label = CONTENDERS[name]["label"]
        curves[name] = LossCurve(train_cfg.steps, lambda step, loss, i=i, label=label: progress(
            (i + step / train_cfg.steps) / len(MODELS), f"{label} step {step}/{train_cfg.steps}, loss {loss:.2f}",
            partial()))
        scored[name] = train_and_score(classifier_config(name, task, params["width"]), task, train_cfg, BATCH_SIZE,
                                       params["seed"], device, N_TEST, curves[name])

    # Both models trained on the same batches, so they are tested on the same fresh strings.
    test_input, test_target = scored[MODELS[0]].inputs[0], int(scored[MODELS[0]].targets[0])
    models = {}
    for name, score in scored.items():
        probabilities = score.probabilities[0]
        models[name] = {
            "label": CONTENDERS[name]["label"],
            "prediction": task.label(int(probabilities.argmax())),
            "top": top_answers(task, probabilities),
            "probabilities": probabilities.tolist(),
            "accuracy": score.accuracy,
            "parameters": score.parameters,
            "final_loss": score.losses[-1],
            "loss_curve": curves[name].points,
            "seconds": score.seconds,
        }
    chance = 1 / task.n_out
    result = {
        "test_string": "".join(task.label(t) for t in test_input[:-1].tolist()),
        "target": task.label(test_target),
        "answers": [task.label(i) for i in range(task.n_out)],
        "models": models,
        "chance": chance,
        "n_test": N_TEST,
        "budget": {"optimizer": "Adam", "lr": train_cfg.lr, "batch_size": BATCH_SIZE, "steps": train_cfg.steps},
    }
    result["summary"] = summarize(result, params["length"])
    return result


def verdict(accuracy: float, chance: float) -> str:
    if accuracy >= 0.9:
        return "it solved the test"
    if near_chance(accuracy, chance, N_TEST):
        return "no better than guessing"
    return "better than guessing, but far from solved"


def summarize(result: dict, length: int) -> str:
    chance, lstm, transformer = result["chance"], result["models"]["lstm"], result["models"]["transformer"]
    text = (f"After {result['budget']['steps']} training steps each, the LSTM recalled the first of {length} letters "
            f"in {lstm['accuracy']:.1%} of {N_TEST:,} unseen strings ({verdict(lstm['accuracy'], chance)}) and the "
            f"Transformer in {transformer['accuracy']:.1%} ({verdict(transformer['accuracy'], chance)}); "
            f"chance is {chance:.1%}.")
    if lstm["accuracy"] >= 0.9:
        text += " With this length and seed the LSTM did not forget: no amnesia was measured here."
    elif lstm["accuracy"] > transformer["accuracy"]:
        text += " Here the LSTM did better than the Transformer."
    return text


def headline(result: dict) -> dict:
    """For the recap: which model recalled the first letter more often."""
    scores = {name: model["accuracy"] for name, model in result["models"].items()}
    winner = best_of(scores, CLEAR_GAP)
    return recap_row(f"Amnesia Test, length {result['params']['length']}", winner,
                     f"Transformer {scores['transformer']:.0%}, LSTM {scores['lstm']:.0%} (chance {result['chance']:.0%})")


def format_text(result: dict) -> str:
    """The test as the seed deck's console printed it, with the measured numbers."""
    rule = "=" * 60
    lines = [rule, "THE AMNESIA TEST: LSTM vs Transformer (recall the first letter)", rule,
             f"Unseen test string: '{' '.join(result['test_string'])}'",
             f"Target answer:      '{result['target']}'", "-" * 60]
    for name in MODELS:
        model = result["models"][name]
        mark = "right" if model["prediction"] == result["target"] else "wrong"
        top = ", ".join(f"{t['answer']} {t['probability']:.0%}" for t in model["top"])
        lines.append(f"{model['label'] + ' predicted:':<24}'{model['prediction']}' ({mark}; top 3: {top})")
    lines.append("-" * 60)
    for name in MODELS:
        model = result["models"][name]
        lines.append(f"{model['label'] + ' accuracy:':<24}{model['accuracy']:7.1%} on {result['n_test']:,} fresh strings "
                     f"({model['parameters']:,} parameters, final loss {model['final_loss']:.3f})")
    budget = result["budget"]
    lines += [f"{'Chance:':<24}{result['chance']:7.1%}",
              f"Budget: {budget['optimizer']}, lr {budget['lr']:g}, batch {budget['batch_size']}, "
              f"{budget['steps']} steps for each model", "", result["summary"]]
    return "\n".join(lines)
