"""A fair fight: is the LSTM's failure on the Amnesia Test really amnesia?

The same first-letter task at several lengths, three models under one equal step budget, on the
same training batches and several seeds: the LSTM as PyTorch starts it, the LSTM with its forget
gates starting at bias 1, and the one-layer Transformer with GPT-2's initialisation. Each gets the
learning rate of the grid it did best with on validation strings, over the slide's lengths
(`tuning`, run by `python -m benchmarks.recipes recall_vs_length`). A model stops once it has
solved the task, or once its loss has stopped falling.
"""
import torch

from demos.core.tasks import FirstLetter
from demos.core.training import EarlyStop
from demos.runtime.params import Param, seed_param
from demos.shared.classifier import N_TEST, Entry, classifier_config, near_chance, train_and_score, validation_loss
from demos.shared.contenders import CARE, TUNED_FORGET_BIAS, label, rates_sentence, recipe
from demos.shared.quantities import declared
from demos.shared.recap import headline as recap_row
from demos.shared.seeds import ahead, leader, over_seeds, seed_list, seeds_param, spread_text
from demos.shared.tuning import Study, chosen, how_chosen, lr_grid
from demos.shared.words import count, listed

ID = "recall_vs_length"
TITLE = "Is it really amnesia? Recall against length"
LENGTHS = (5, 10, 20, 50, 100, 200)
PARAMS = [
    seed_param(),
    seeds_param(),
    Param("lengths", "multi", [10, 20, 50], "String lengths to test", 1, len(LENGTHS), choices=LENGTHS),
    Param("steps", "int", 300, "Most training steps, the same for every model (one that has solved the task stops)",
          10, 800),
    Param("width", "int", 32, "Width of every model (LSTM state size, Transformer d_model)", 8, 64),
    Param("forget_bias", "float", TUNED_FORGET_BIAS,
          "Where the tuned LSTM's forget gates start (the default LSTM's: random, near 0)", -2.0, 5.0),
]
TINY = {"lengths": [5, 10], "steps": 10, "width": 8}
MODELS = ("lstm-tuned", "lstm", "transformer")
BATCH_SIZE = 64
SOLVED_LOSS = 0.05
PATIENCE = 100  # steps without a 1% fall in the loss: the model has stopped learning, and stops
CHANCE = 1 / FirstLetter.n_out


def entry(name: str, length: int, params: dict, lr: float, seed: int) -> Entry:
    """Contender `name` at `length` and learning rate `lr`, trained with `seed` on the settings `params`."""
    task = FirstLetter(length)
    cfg = classifier_config(name, task, params["width"])
    if name == "lstm-tuned":
        cfg.forget_bias = params["forget_bias"]
    return Entry((name, length, seed), cfg, task, recipe(name, params["steps"], lr), seed,
                 label=f"{label(name)}, length {length}, seed {seed}",
                 stop=EarlyStop(patience=PATIENCE, solved=SOLVED_LOSS))


def entries(params: dict) -> list[Entry]:
    return [entry(name, length, params, chosen(ID, name)["lr"], seed) for length in params["lengths"]
            for name in MODELS for seed in seed_list(params["seed"], params["seeds"])]


def tuning(settings: dict | None = None) -> Study:
    """Each model's one learning rate for the slide: the grid's, scored by the loss on validation strings,
    averaged over the default lengths, at the default budget."""
    defaults = {**{param.name: param.default for param in PARAMS}, **(settings or {})}  # `settings`: tests' tiny ones

    def score(name: str, candidate: dict, seed: int, device: torch.device) -> float:
        return validation_loss([entry(name, length, defaults, candidate["lr"], seed) for length in defaults["lengths"]],
                               BATCH_SIZE, device)

    lengths = "/".join(map(str, defaults["lengths"]))
    return Study(ID, f"at most {defaults['steps']} steps of {BATCH_SIZE} strings of length {lengths}",
                 "validation loss (cross-entropy, nats), mean over the lengths", {name: lr_grid() for name in MODELS},
                 score)


def work(params: dict) -> float:
    """The run's cost, in units of the server's speed test (engine/calibration.py); the factor was measured at the defaults
    (`python -m benchmarks.eta --fit`): seeds × steps × the lengths."""
    return 4.14e-4 * params["seeds"] * params["steps"] * sum(params["lengths"])


def run(params: dict, progress, device: torch.device) -> dict:
    lengths, seeds = params["lengths"], seed_list(params["seed"], params["seeds"])
    scored = train_and_score(entries(params), BATCH_SIZE, device, progress)
    points = []
    for length in lengths:
        for name in MODELS:
            runs = [scored[(name, length, seed)] for seed in seeds]
            points.append({"model": name, "length": length, "accuracy": over_seeds([r.accuracy for r in runs]),
                           "steps_taken": [len(r.losses) for r in runs], "final_loss": [r.losses[-1] for r in runs],
                           "parameters": runs[0].parameters})
    result = {"models": labels(), "lengths": lengths, "seeds": seeds, "chance": CHANCE,
              "baselines": {"chance": CHANCE}, "points": points, "n_test": N_TEST,
              "budget": {"optimizer": "Adam", "steps": params["steps"], "batch_size": BATCH_SIZE,
                         "care": {name: CARE[name] for name in MODELS},
                         "lr": {name: chosen(ID, name)["lr"] for name in MODELS},
                         "forget_bias": params["forget_bias"], "solved_loss": SOLVED_LOSS},
              "recipes": how_chosen(ID)}
    result["summary"] = summarize(result)
    return result


def labels() -> dict:
    return {name: label(name) for name in MODELS}


def accuracies(result: dict, name: str) -> list[dict]:
    """The model's accuracy (over seeds) at each length, in order."""
    return [p["accuracy"] for length in result["lengths"] for p in result["points"]
            if p["model"] == name and p["length"] == length]


def summarize(result: dict) -> str:
    lengths, chance, seeds = result["lengths"], result["chance"], result["seeds"]
    scores = {name: accuracies(result, name) for name in MODELS}
    per_model = "; ".join(f"{result['models'][name]} {' / '.join(format(a['mean'], '.0%') for a in scores[name])}"
                          for name in MODELS)
    over = f"Mean accuracy over {len(seeds)} seeds" if len(seeds) > 1 else f"Accuracy (seed {seeds[0]})"
    text = (f"{over} at length {' / '.join(map(str, lengths))}, "
            f"with at most {result['budget']['steps']} steps each: {per_model} (chance {chance:.1%}).")
    helped = [n for n, tuned, plain in zip(lengths, scores["lstm-tuned"], scores["lstm"])
              if ahead(tuned, plain) and not near_chance(tuned["min"], chance, N_TEST)]
    if helped:
        text += (f" With every seed the tuning lifted the LSTM at length {listed(helped)}: there its failure was "
                 f"partly training, not memory.")
    else:
        text += " At no length tested did the tuning lift the LSTM with every seed, under this budget."
    stuck = [n for n, tuned, attention in zip(lengths, scores["lstm-tuned"], scores["transformer"])
             if near_chance(tuned["max"], chance, N_TEST) and attention["min"] >= 0.9]
    if stuck:
        text += f" At {listed(stuck)} even the tuned LSTM stayed at chance with every seed, the Transformer at 90% or more."
    beaten = [n for n, tuned, attention in zip(lengths, scores["lstm-tuned"], scores["transformer"])
              if ahead(tuned, attention)]
    if beaten:
        text += f" At length {listed(beaten)} the tuned LSTM beat the Transformer with every seed."
    rates = result["budget"]["lr"]
    return text + " " + rates_sentence(result["recipes"], {result["models"][name]: rates[name] for name in MODELS})


def lstm_accuracy(result: dict) -> dict:
    """The tuned LSTM's accuracy at the longest length tested (0 to 1), over seeds."""
    return accuracies(result, "lstm-tuned")[-1]


def transformer_accuracy(result: dict) -> dict:
    """The Transformer's accuracy at the longest length tested (0 to 1), over seeds."""
    return accuracies(result, "transformer")[-1]


QUANTITIES = declared(lstm_accuracy, transformer_accuracy)  # what the slide may quote


def headline(result: dict) -> dict:
    """For the recap: the best LSTM against the Transformer at the longest length tested."""
    tuned, attention = lstm_accuracy(result), transformer_accuracy(result)
    return recap_row(f"Fair fight, length {result['lengths'][-1]}", leader({"transformer": attention, "lstm": tuned}),
                     f"Transformer {spread_text(attention)}, tuned LSTM {spread_text(tuned)}, "
                     f"LSTM {spread_text(accuracies(result, 'lstm')[-1])} ({count(len(result['seeds']), 'seed')})")


def format_text(result: dict) -> str:
    width = max(len(label) for label in result["models"].values())
    lines = [f"Mean accuracy (lowest–highest over seeds {', '.join(map(str, result['seeds']))}):",
             f"{'length':<{width}}  " + "".join(f"{n:>16}" for n in result["lengths"])]
    for name in MODELS:
        lines.append(f"{result['models'][name]:<{width}}  "
                     + "".join(f"{spread_text(a, '.0%'):>16}" for a in accuracies(result, name)))
    budget = result["budget"]
    lines += [f"{'chance':<{width}}  {result['chance']:>16.1%}",
              f"Budget: Adam, at most {budget['steps']} steps (stopping once the loss is below {budget['solved_loss']}), "
              f"batch {budget['batch_size']}; tuned LSTM: forget bias {budget['forget_bias']:g}; "
              f"LSTM: {budget['care']['lstm']}; Transformer: {budget['care']['transformer']}",
              "", result["summary"]]
    return "\n".join(lines)

