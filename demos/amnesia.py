"""The Amnesia Test: can a model recall the first letter of a random string?

An LSTM and a one-layer Transformer, each with its family's standard care (the LSTM's forget
gates start at 1; the Transformer starts from GPT-2's small weights) and the learning rate of the
grid it did best with on validation strings (`tuning`, run by `python -m benchmarks.recipes
amnesia`), get the same optimiser, batch size, step budget and training batches. Each is trained
with several seeds, then asked about an unseen test string, and scored on 1,000 fresh strings
against chance (1/26).
"""
import torch

from demos.core.tasks import FirstLetter
from demos.core.training import EarlyStop, thinned
from demos.runtime.params import Param, seed_param
from demos.shared.classifier import N_TEST, Entry, classifier_config, near_chance, train_and_score, validation_loss
from demos.shared.contenders import CARE, label, rates_sentence, recipe
from demos.shared.quantities import declared
from demos.shared.recap import headline as recap_row
from demos.shared.seeds import ahead, leader, over_seeds, seed_list, seeds_param, spread_text
from demos.shared.tuning import Study, chosen, how_chosen, lr_grid
from demos.shared.words import count

ID = "amnesia"
TITLE = "The Amnesia Test: LSTM vs Transformer"
PARAMS = [
    seed_param(),
    seeds_param(),
    Param("length", "int", 20, "Letters in each string; the model must recall the first", 5, 200),
    Param("steps", "int", 300, "Most training steps, the same for both models (a model that has solved the task "
          "stops)", 10, 600),
    Param("width", "int", 32, "Width of both models (LSTM state size, Transformer d_model)", 8, 64),
]
TINY = {"length": 5, "steps": 20, "width": 8}
MODELS = ("lstm-tuned", "transformer")
BATCH_SIZE = 64
SOLVED_LOSS = 0.02  # a model whose recent training loss is below this has solved the task: it stops
TOP = 3  # answers shown for the test string


def top_answers(task: FirstLetter, probabilities: torch.Tensor) -> list[dict]:
    """The `TOP` most probable letters for one string, with their probabilities."""
    values, indices = probabilities.topk(TOP)
    return [{"answer": task.label(i), "probability": p} for p, i in zip(values.tolist(), indices.tolist())]


def work(params: dict) -> float:
    """The run's cost, in units of the server's speed test (engine/calibration.py); the factor was measured at the defaults
    (`python -m benchmarks.eta --fit`): seeds × steps × length."""
    return 4.6e-4 * params["seeds"] * params["steps"] * params["length"]


def entry(name: str, params: dict, lr: float, seed: int) -> Entry:
    """Contender `name` at learning rate `lr`, trained with `seed` on the settings `params`."""
    task = FirstLetter(params["length"])
    return Entry((name, seed), classifier_config(name, task, params["width"]), task,
                 recipe(name, params["steps"], lr), seed,
                 label=f"{label(name)}, seed {seed}", stop=EarlyStop(solved=SOLVED_LOSS))


def tuning(settings: dict | None = None) -> Study:
    """Each model's learning rate: the grid's, scored by the loss on validation strings at the default budget."""
    defaults = {**{param.name: param.default for param in PARAMS}, **(settings or {})}  # `settings`: tests' tiny ones

    def score(name: str, candidate: dict, seed: int, device: torch.device) -> float:
        return validation_loss([entry(name, defaults, candidate["lr"], seed)], BATCH_SIZE, device)

    return Study(ID, f"at most {defaults['steps']} steps of {BATCH_SIZE} strings of length {defaults['length']}",
                 "validation loss (cross-entropy, nats)", {name: lr_grid() for name in MODELS}, score)


def run(params: dict, progress, device: torch.device) -> dict:
    task = FirstLetter(params["length"])
    seeds = seed_list(params["seed"], params["seeds"])
    entries = [entry(name, params, chosen(ID, name)["lr"], seed) for name in MODELS for seed in seeds]
    scored = train_and_score(entries, BATCH_SIZE, device, progress)

    # Models with the same seed trained on the same batches, so they are tested on the same fresh strings.
    first = scored[(MODELS[0], seeds[0])]
    test_input, test_target = first.inputs[0], int(first.targets[0])
    models = {}
    for name in MODELS:
        shown = scored[(name, seeds[0])]  # the first seed's model answers the test string
        probabilities = shown.probabilities[0]
        models[name] = {
            "label": label(name),
            "prediction": task.label(int(probabilities.argmax())),
            "top": top_answers(task, probabilities),
            "probabilities": probabilities.tolist(),
            "accuracy": over_seeds([scored[(name, seed)].accuracy for seed in seeds]),
            "steps_taken": [len(scored[(name, seed)].losses) for seed in seeds],
            "parameters": shown.parameters,
            "final_loss": shown.losses[-1],
            "loss_curves": [thinned(scored[(name, seed)].losses, 60) for seed in seeds],
            "care": CARE[name],
            "lr": chosen(ID, name)["lr"],
        }
    chance = 1 / task.n_out
    result = {
        "test_string": "".join(task.label(t) for t in test_input[:-1].tolist()),
        "target": task.label(test_target),
        "answers": [task.label(i) for i in range(task.n_out)],
        "models": models,
        "seeds": seeds,
        "chance": chance,
        "baselines": {"chance": chance},
        "n_test": N_TEST,
        "budget": {"optimizer": "Adam", "batch_size": BATCH_SIZE, "steps": params["steps"], "solved_loss": SOLVED_LOSS,
                   "lstm": CARE["lstm-tuned"], "transformer": CARE["transformer"]},
        "recipes": how_chosen(ID),
    }
    result["summary"] = summarize(result, params["length"])
    return result


def verdict(accuracy: dict, chance: float) -> str:
    if accuracy["min"] >= 0.9:
        return "it solved the test with every seed"
    if near_chance(accuracy["max"], chance, N_TEST):
        return "no better than guessing with any seed"
    if near_chance(accuracy["min"], chance, N_TEST):
        return "above chance with some seeds, at chance with others"
    return "better than guessing, but far from solved"


def summarize(result: dict, length: int) -> str:
    chance, seeds = result["chance"], result["seeds"]
    lstm, transformer = result["models"]["lstm-tuned"], result["models"]["transformer"]
    over = f"mean over {len(seeds)} seeds, range in brackets" if len(seeds) > 1 else f"seed {seeds[0]}"
    text = (f"With at most {result['budget']['steps']} training steps each ({over}), the {lstm['label']} recalled the "
            f"first of {length} letters in {spread_text(lstm['accuracy'], '.1%')} of {N_TEST:,} unseen strings "
            f"({verdict(lstm['accuracy'], chance)}) and the Transformer in "
            f"{spread_text(transformer['accuracy'], '.1%')} ({verdict(transformer['accuracy'], chance)}); "
            f"chance is {chance:.1%}.")
    if ahead(transformer["accuracy"], lstm["accuracy"]):
        text += " Every Transformer beat every LSTM."
    elif ahead(lstm["accuracy"], transformer["accuracy"]):
        text += " Here every LSTM beat every Transformer: no amnesia was measured."
    else:
        text += " The seeds' ranges overlap: neither model was ahead with every seed."
    return text + " " + rates_sentence(result["recipes"], {m["label"]: m["lr"] for m in result["models"].values()})


def lstm_accuracy(result: dict) -> dict:
    """The tuned LSTM's accuracy on unseen strings (0 to 1), over seeds."""
    return result["models"]["lstm-tuned"]["accuracy"]


def transformer_accuracy(result: dict) -> dict:
    """The Transformer's accuracy on unseen strings (0 to 1), over seeds."""
    return result["models"]["transformer"]["accuracy"]


QUANTITIES = declared(lstm_accuracy, transformer_accuracy)  # what the slide may quote


def headline(result: dict) -> dict:
    """For the recap: which model recalled the first letter more often, with every seed."""
    lstm, transformer = lstm_accuracy(result), transformer_accuracy(result)
    winner = leader({"transformer": transformer, "lstm": lstm})
    return recap_row(f"Amnesia Test, length {result['params']['length']}", winner,
                     f"Transformer {spread_text(transformer)}, tuned LSTM {spread_text(lstm)} "
                     f"(chance {result['chance']:.0%}; {count(len(result['seeds']), 'seed')})")


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
        lines.append(f"{model['label'] + ' accuracy:':<24}{spread_text(model['accuracy'], '.1%')} on "
                     f"{result['n_test']:,} fresh strings, seeds {', '.join(map(str, result['seeds']))} "
                     f"({model['parameters']:,} parameters, steps taken {model['steps_taken']})")
    budget = result["budget"]
    lines += [f"{'Chance:':<24}{result['chance']:7.1%}",
              f"Budget: Adam, batch {budget['batch_size']}, at most {budget['steps']} steps for each model "
              f"(stopping once its loss is below {budget['solved_loss']}); LSTM: {budget['lstm']}; "
              f"Transformer: {budget['transformer']}", "", result["summary"]]
    return "\n".join(lines)

