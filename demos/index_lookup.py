"""Memory has a size: Index Lookup (Bhattamishra et al., 2024).

N random digits, then a token naming a position; the answer is the digit there. A recurrent
network must hold the digits in its fixed-size state before it learns which one is asked for;
attention looks back at the position asked. The demo trains tuned LSTMs of several widths and a
one-layer Transformer, each with several seeds and until it has converged (its loss stopped
falling, or it solved the task), and measures accuracy by how far back the asked digit was. The
LSTMs share one learning rate, the Transformer has its own: each the grid's best on validation
questions at the default settings (`tuning`, run by `python -m benchmarks.recipes index_lookup`).

The simplest rule that beats chance is "remember the last k digits, guess the rest": right on
the last k, right one time in ten before them. Each model's accuracy is read as the k of that
rule which scores the same: how many digits its state holds.
"""
import torch

from demos.core.tasks import IndexLookup
from demos.core.training import EarlyStop
from demos.runtime.params import Param, seed_param
from demos.shared.classifier import Entry, classifier_config, train_and_score, validation_loss
from demos.shared.contenders import CARE, label, rates_sentence, recipe
from demos.shared.quantities import declared
from demos.shared.recap import headline as recap_row
from demos.shared.seeds import ahead, leader, over_seeds, seed_list, seeds_param, spread_text
from demos.shared.tuning import Study, chosen, how_chosen, lr_grid

ID = "index_lookup"
TITLE = "Memory has a size: Index Lookup"
LENGTHS = (8, 12, 16, 24, 32)
WIDTHS = (4, 8, 16, 32, 64)
PARAMS = [
    seed_param(),
    seeds_param(),
    Param("length", "choice", 12, "Digits N in each sequence", choices=LENGTHS),
    Param("widths", "multi", [4, 8, 16], "LSTM widths (state size)", 1, len(WIDTHS), choices=WIDTHS),
    Param("steps", "int", 1200, "Most training steps of every model; each stops earlier once its loss has "
          "stopped falling", 100, 4000),
]
TINY = {"length": 8, "widths": [4, 16], "steps": 100, "seeds": 2}
# Budgets per device class (`demos.runtime.budgets`): the prepared run (`flask warm --full`, minutes on a
# CPU) is the same on every class, so only the CPU's is named.
BUDGETS = {"cpu": {"full": {"length": 16, "widths": [4, 8, 16, 32, 64], "steps": 4000}}}
TRANSFORMER_WIDTH = 32
BATCH_SIZE = 64
N_TEST = 4000  # fresh questions per model: about 250 for each position asked when N = 16
PATIENCE = 300  # steps without a 1% fall in the loss before a model counts as converged
SOLVED_LOSS = 0.01
CHANCE = 1 / IndexLookup(1).n_out


def last_k_accuracy(k: float, n: int) -> float:
    """The accuracy of "remember the last k digits, guess the rest" when any of the n positions is asked."""
    return k / n + (1 - k / n) * CHANCE


def digits_held(accuracy: float, n: int) -> float:
    """The k whose last-k rule scores `accuracy`: how many digits a model's state effectively holds."""
    return max(0.0, min(n, n * (accuracy - CHANCE) / (1 - CHANCE)))


def by_distance(inputs: torch.Tensor, right: torch.Tensor, n: int) -> list[float]:
    """Accuracy for each distance back from the end of the digits (1: the last digit), (n,)."""
    distance = n - (inputs[:, -1] - IndexLookup(n).symbols)  # the asked position, counted from the end
    return [right[distance == d].float().mean().item() if bool((distance == d).any()) else 0.0
            for d in range(1, n + 1)]


def work(params: dict) -> float:
    """The run's cost, in units of the server's speed test (engine/calibration.py); the factor was measured at the defaults
    (`python -m benchmarks.eta --fit`): seeds × steps × N × models."""
    return 2.2e-4 * params["seeds"] * params["steps"] * params["length"] * (len(params["widths"]) + 1)


def entry(name: str, width: int, params: dict, lr: float, seed: int) -> Entry:
    """Contender `name` of `width` at learning rate `lr`, trained with `seed` on the settings `params`."""
    task = IndexLookup(params["length"])
    return Entry((name, width, seed), classifier_config(name, task, width), task, recipe(name, params["steps"], lr), seed,
                 label=f"{label(name)} width {width}, seed {seed}", stop=EarlyStop(patience=PATIENCE, solved=SOLVED_LOSS))


def tuning(settings: dict | None = None) -> Study:
    """The LSTMs' one learning rate (scored over the default widths) and the Transformer's: the grid's,
    scored by the loss on validation questions at the default settings."""
    defaults = {**{param.name: param.default for param in PARAMS}, **(settings or {})}  # `settings`: tests' tiny ones
    widths = {"lstm-tuned": defaults["widths"], "transformer": [TRANSFORMER_WIDTH]}

    def score(name: str, candidate: dict, seed: int, device: torch.device) -> float:
        return validation_loss([entry(name, width, defaults, candidate["lr"], seed) for width in widths[name]],
                               BATCH_SIZE, device)

    return Study(ID, f"at most {defaults['steps']:,} steps of {BATCH_SIZE} questions, N = {defaults['length']}, "
                 f"LSTM widths {', '.join(map(str, defaults['widths']))}",
                 "validation loss (cross-entropy, nats), mean over the LSTM widths",
                 {name: lr_grid() for name in widths}, score)


def run(params: dict, progress, device: torch.device) -> dict:
    n, seeds = params["length"], seed_list(params["seed"], params["seeds"])
    contenders = [("lstm-tuned", width) for width in params["widths"]] + [("transformer", TRANSFORMER_WIDTH)]
    entries = [entry(name, width, params, chosen(ID, name)["lr"], seed) for name, width in contenders for seed in seeds]
    scored = train_and_score(entries, BATCH_SIZE, device, progress, n_test=N_TEST)
    models = []
    for name, width in contenders:
        runs = [scored[(name, width, seed)] for seed in seeds]
        curves = [by_distance(r.inputs, r.probabilities.argmax(-1) == r.targets, n) for r in runs]
        models.append({
            "model": name, "label": label(name), "width": width, "parameters": runs[0].parameters,
            "accuracy": over_seeds([r.accuracy for r in runs]),
            "digits_held": over_seeds([digits_held(r.accuracy, n) for r in runs]),
            "by_distance": [over_seeds(list(values)) for values in zip(*curves)],
            "steps_taken": [len(r.losses) for r in runs], "lr": chosen(ID, name)["lr"],
        })
    result = {"length": n, "widths": params["widths"], "transformer_width": TRANSFORMER_WIDTH, "seeds": seeds,
              "models": models, "chance": CHANCE, "distances": list(range(1, n + 1)),
              "baselines": {"chance": CHANCE, "last_k": [last_k_accuracy(k, n) for k in range(n + 1)]},
              "steps": params["steps"], "patience": PATIENCE, "batch_size": BATCH_SIZE,
              "symbols": IndexLookup(n).symbols, "n_test": N_TEST,
              "care": {"lstm-tuned": CARE["lstm-tuned"], "transformer": CARE["transformer"]},
              "recipes": how_chosen(ID)}
    result["summary"] = summarize(result)
    return result


def lstms(result: dict) -> list[dict]:
    return [m for m in result["models"] if m["model"] == "lstm-tuned"]


def transformer(result: dict) -> dict:
    return next(m for m in result["models"] if m["model"] == "transformer")


def summarize(result: dict) -> str:
    n, seeds = result["length"], result["seeds"]
    held = ", ".join(f"{spread_text(m['digits_held'], '.1f')} at width {m['width']}" for m in lstms(result))
    attention = transformer(result)
    over = f"mean over {len(seeds)} seeds, range in brackets" if len(seeds) > 1 else f"seed {seeds[0]}"
    text = (f"Trained until converged (at most {result['steps']:,} steps; {over}), with N = {n} digits: the tuned "
            f"LSTMs held about {held} of the last digits, read from their accuracy as the 'remember the last k' rule that "
            f"scores the same. The Transformer (width {attention['width']}) scored {spread_text(attention['accuracy'])} "
            f"and holds about {spread_text(attention['digits_held'], '.1f')} of {n}.")
    ordered = lstms(result)
    grew = all(ahead(wide["digits_held"], narrow["digits_held"]) for narrow, wide in zip(ordered, ordered[1:]))
    if len(ordered) > 1 and grew:
        text += " Every wider LSTM held more digits than the next narrower one, with every seed: memory has a size."
    elif len(ordered) > 1:
        text += " Not every step up in width held more digits with every seed."
    rates = {"tuned LSTMs": ordered[0]["lr"]} if ordered else {}
    return text + " " + rates_sentence(result["recipes"], {**rates, attention["label"]: attention["lr"]})


def best_lstm(result: dict) -> dict:
    return max(lstms(result), key=lambda m: m["accuracy"]["mean"])


def digits_held_width_16(result: dict) -> dict:
    """The digits the tuned LSTM of width 16 holds (its k of the last-k rule), over seeds."""
    return next(m for m in lstms(result) if m["width"] == 16)["digits_held"]


def best_lstm_accuracy(result: dict) -> dict:
    """The accuracy (0 to 1) of the tuned LSTM width with the best mean, over seeds."""
    return best_lstm(result)["accuracy"]


def transformer_accuracy(result: dict) -> dict:
    """The Transformer's accuracy (0 to 1), over seeds."""
    return transformer(result)["accuracy"]


QUANTITIES = declared(digits_held_width_16, best_lstm_accuracy, transformer_accuracy)  # what the slide may quote


def headline(result: dict) -> dict:
    """For the recap: the Transformer against the best LSTM width."""
    best, attention = best_lstm(result), transformer(result)
    winner = leader({"transformer": transformer_accuracy(result), "lstm": best_lstm_accuracy(result)})
    return recap_row(f"Index Lookup, N = {result['length']}", winner,
                     f"Transformer {spread_text(attention['accuracy'])}, best LSTM (width {best['width']}) "
                     f"{spread_text(best['accuracy'])}; chance {result['chance']:.0%}")


def format_text(result: dict) -> str:
    n = result["length"]
    marks = sorted({1, 2, 3, 4, 6, 8, 12, 16, 24, 32} & set(range(1, n + 1)))
    lines = [f"Index Lookup, N = {n}: accuracy by distance back from the end (mean over seeds "
             f"{', '.join(map(str, result['seeds']))})",
             f"{'model':<26}" + "".join(f"{d:>6}" for d in marks) + "   overall   digits held"]
    for m in result["models"]:
        lines.append(f"{m['label'] + ' width ' + str(m['width']):<26}"
                     + "".join(f"{m['by_distance'][d - 1]['mean']:>6.0%}" for d in marks)
                     + f"   {m['accuracy']['mean']:>6.0%}   {spread_text(m['digits_held'], '.1f')}")
    lines += [f"{'chance':<26}" + f"{result['chance']:>6.0%}" * len(marks),
              f"Trained until the loss stopped falling for {result['patience']} steps (at most {result['steps']:,}), "
              f"batch {result['batch_size']}; tuned LSTM: {result['care']['lstm-tuned']}; "
              f"Transformer: {result['care']['transformer']}; "
              f"{result['n_test']:,} fresh questions per model", "", result["summary"]]
    return "\n".join(lines)

