"""The generative showdown: a Transformer and an LSTM of about the same size, trained on the same
text (the Python documentation, character by character) with the same budget (steps x characters
per step), each with its family's care and its recipe (learning rate, schedule, training window)
chosen on the validation text (`tuning`), continue the same prompt one character at a time. Every
step keeps each model's top-5 candidates and the one it took.

Beside the continuations stand the numbers that decide who models the text better: bits per
character on the test text, which no model trained on or chose anything by, for both models over
several seeds, next to a ladder of counting models (unigram to an interpolated 5-gram, counted on
the training text, weights chosen on the validation text) scored on exactly the same test
characters: every character after the first of each test window of `CharLM.context` characters.
The continuation is checked against the training text: the longest run it copied is reported, and
called memorised when it is long.
"""
import re
import time
from functools import cache

import torch
import torch.nn.functional as F

from demos.core.ngrams import Text, ladder, uniform_bits
from demos.core.python_docs import ALPHABET, decode, encode, load
from demos.runtime.params import Param, ParamError, seed_param
from demos.runtime.progress import share
from demos.shared.char_models import CharLM, fit_models, target_positions, trained_models, untrained
from demos.shared.contenders import TIE, label
from demos.shared import scaling
from demos.shared.quantities import declared
from demos.shared.recap import headline as recap_row
from demos.shared.seeds import ahead, leader, over_seeds, seed_list, seeds_param, spread_text
from demos.shared.tuning import LR_GRID, Study, how_chosen, rate_text

ID = "generation"
TITLE = "The generative showdown: two language models continue a prompt"
PROMPT = "The function returns"
MODELS = ("transformer", "lstm")
TOP = 5  # candidates shown at each step
MAX_PROMPT = 80
MARKUP = re.compile(r"<\s*/?\s*[A-Za-z!?][^>]*>|&#?\w+;")  # a tag or a character entity
MEMORISED = 40  # a copied run with at least this many printed characters is called memorised
NGRAM_ORDER = 5  # the longest counting model of the ladder: four characters of history
TRAINING_SHARE = 0.9  # of the progress bar, for training; generation gets the rest


class PromptParam(Param):
    """Text the models continue: printable characters, not markup."""

    def check(self, value):
        value = super().check(value)
        if markup := MARKUP.search(value):
            raise ParamError(self.name, f"must be plain text, not markup such as {markup.group(0)}")
        if not value.strip():
            raise ParamError(self.name, "is empty: type the start of a sentence for the models to continue")
        return value


PARAMS = [
    PromptParam("prompt", "str", PROMPT, f"The text both models continue (at most {MAX_PROMPT} characters; "
                "a character outside plain ASCII is read as ?)", max=MAX_PROMPT, toolbar=True),
    Param("decoding", "choice", "greedy", "greedy: always the most probable next character; "
          "sample: draw it from the probabilities at the temperature", choices=("greedy", "sample")),
    Param("temperature", "float", 0.8, "When sampling: divide the scores by this before the softmax "
          "(below 1 sharper, above 1 flatter)", 0.1, 2.0),
    Param("characters", "int", 120, "How many characters each model adds to the prompt", 10, 300),
    Param("steps", "int", CharLM.steps, "Most training steps of each model (the validation text decides where "
          "each stops)", 20, 3000),
    seed_param(),
    seeds_param(),
    scaling.scale_param("scale", "one: the slide's two models; a sweep: both families at three sizes (Kaplan "
                        "et al.'s Figure 7, left, in miniature; gpu-sweep also Figure 5), the showdown between "
                        "the largest (cpu-sweep: sized for a 2-core CPU; gpu-sweep: for an H100)"),
]
TINY = {"steps": 20, "characters": 10, "seeds": 1}
# Per device class (`demos.runtime.budgets`): the prepared run is the size sweep sized for that class.
BUDGETS = {"cpu": {"full": {"scale": "cpu-sweep"}}, "gpu": {"full": {"scale": "gpu-sweep"}}}
TUNING_VARIANTS = tuple(scaling.SWEEPS)  # `python -m benchmarks.recipes generation-gpu-sweep` (or -cpu-sweep)


SCHEDULES = ("cooldown", "cosine")  # the schedules each family tries (`demos.core.training.learning_rate`)
WINDOWS = (64, 32)  # training window lengths each family tries, with as many windows per step as keep the characters equal


def tuning(variant: str | None = None) -> Study:
    """Each family's learning rate, schedule and training window, chosen on the validation text at the
    slide's default budget: the best validation bits per character (of the weights kept). A `variant`
    (a sweep's name) chooses each size's learning rate for that sweep instead (`scaling.tuning`)."""
    if variant is not None:
        return scaling.tuning(scaling.SWEEPS[variant])
    budget = CharLM()

    def score(kind: str, recipe: dict, seed: int, device: torch.device) -> float:
        (_, info), = fit_models([CharLM(kind=kind, seed=seed, **recipe)], device, lambda *args, **kwargs: None)
        return info["validation_bits"]

    candidates = [{"lr": lr, "schedule": schedule, "window": window}
                  for window in WINDOWS for schedule in SCHEDULES for lr in LR_GRID]
    return Study(ID, f"at most {budget.steps} steps of {budget.batch_size * budget.context:,} training characters "
                     f"(the best of every {budget.eval_every} steps on the validation text kept)",
                 "validation bits per character", {kind: candidates for kind in MODELS}, score, seeds=(0,))


@cache
def baselines(context: int = CharLM.context) -> dict:
    """Uniform guessing and the counting models of order 1 to NGRAM_ORDER, counted on the training
    text, their weights chosen on the validation text, scored on the test characters the neural
    models are scored on (the targets of their test windows of `context` characters)."""
    corpus = load()

    def split(name: str, scored: torch.Tensor | None = None) -> Text:
        return Text(corpus.ids[name], corpus.starts[name], scored)

    test = target_positions(corpus, "test", context)
    ngrams = ladder(split("train"), split("validation", target_positions(corpus, "validation", context)),
                    split("test", test), NGRAM_ORDER, corpus.vocab_size)
    return {"uniform": uniform_bits(corpus.vocab_size), "ngrams": ngrams, "test_characters": len(test)}


@torch.no_grad()
def next_probabilities(model, ids: list[int], temperature: float) -> torch.Tensor:
    """The model's probabilities for the character after `ids` (its last `max_len` characters): (vocab,)."""
    device = next(model.parameters()).device
    window = torch.tensor([ids[-model.cfg.max_len:]], dtype=torch.long, device=device)
    logits = model(window)[0, -1].float()
    return F.softmax(logits / temperature, dim=-1).cpu()


def shown(char: str) -> str:
    return "⏎" if char == "\n" else "␣" if char == " " else char


def continue_text(model, prompt_ids: list[int], n: int, temperature: float, generator: torch.Generator) -> list[dict]:
    """`n` characters after the prompt, one at a time: greedy when `temperature` is 0, else sampled;
    each with the character taken, its probability and rank, and the top candidates."""
    ids, picks = list(prompt_ids), []
    for _ in range(n):
        probs = next_probabilities(model, ids, temperature or 1.0)
        chosen = int(probs.argmax()) if temperature == 0 else int(torch.multinomial(probs, 1, generator=generator))
        top = probs.topk(TOP)
        picks.append({"char": ALPHABET[chosen], "probability": probs[chosen].item(),
                      "rank": int((probs > probs[chosen]).sum()) + 1,
                      "top": [{"char": ALPHABET[i], "shown": shown(ALPHABET[i]), "probability": p}
                              for i, p in zip(top.indices.tolist(), top.values.tolist())]})
        ids.append(chosen)
    return picks


def longest_copy(text: str, training: str) -> dict:
    """The run of `text` that the training text contains character for character and that holds the
    most printed characters (not spaces or line breaks: a run of indentation is copied, but says
    nothing of memory); `printed` counts them."""
    best = {"start": 0, "length": 0, "text": "", "printed": 0}
    for start in range(len(text)):
        low, high = best["printed"] + 1, len(text) - start  # a run with more printed characters is at least this long
        if high < low or text[start:start + low] not in training:
            continue
        while low < high:  # the longest run from `start` that is in the training text
            middle = (low + high + 1) // 2
            low, high = (middle, high) if text[start:start + middle] in training else (low, middle - 1)
        run = text[start:start + low]
        printed = sum(not char.isspace() for char in run)
        if printed > best["printed"]:
            best = {"start": start, "length": low, "text": run, "printed": printed}
    return best


def work(params: dict) -> float:
    """The run's cost, in units of the server's speed test (engine/calibration.py); the factor was measured at the defaults
    (`python -m benchmarks.eta --fit`): the steps of each model not kept from an
    earlier run (two kinds × seeds), and the rest (the counting models, the continuations)."""
    seeds = seed_list(params["seed"], params["seeds"])
    if params["scale"] != "one":  # each model's steps, scaled by its characters per step and its size
        sweep = scaling.SWEEPS[params["scale"]]
        return 18 + sum(0.0392 * s.steps * scaling.cost(s) for s in untrained(scaling.sizes(sweep, seeds)
                                                                             + scaling.shapes(sweep, seeds)))
    models = [CharLM(kind=kind, seed=seed, steps=params["steps"]) for kind in MODELS for seed in seeds]
    return 18 + 0.0392 * params["steps"] * len(untrained(models))


def run(params: dict, progress, device: torch.device) -> dict:
    corpus, seeds = load(), seed_list(params["seed"], params["seeds"])
    sweep = scaling.SWEEPS.get(params["scale"])
    if sweep is None:  # the slide's two models
        settings = [CharLM(kind=kind, seed=seed, steps=params["steps"]) for kind in MODELS for seed in seeds]
        everything = settings
    else:  # every size and shape of the sweep; the showdown between the largest of each family
        settings = [s for kind in MODELS for s in scaling.largest(sweep, kind, seeds)]
        everything = scaling.sizes(sweep, seeds) + scaling.shapes(sweep, seeds)
    started = time.perf_counter()
    by_settings = dict(zip(everything, trained_models(everything, device, share(progress, 0, TRAINING_SHARE))))
    trained_at = time.perf_counter()
    trained = {(s.kind, s.seed): by_settings[s] for s in settings}
    scores = {key: info["test_bits"] for key, (_, info) in trained.items()}

    prompt = params["prompt"]
    prompt_ids = encode(prompt)
    sampled = params["decoding"] == "sample"
    temperature = params["temperature"] if sampled else 0.0
    generating = share(progress, TRAINING_SHARE, 1)
    models = {}
    for n, kind in enumerate(MODELS):
        model, info = trained[(kind, seeds[0])]
        picks = continue_text(model, prompt_ids, params["characters"], temperature,
                              torch.Generator().manual_seed(2 * params["seed"] + n))
        text = "".join(pick["char"] for pick in picks)
        infos = [trained[(kind, seed)][1] for seed in seeds]
        models[kind] = {
            "label": label(kind), "parameters": info["parameters"], "width": info["width"], "care": info["care"],
            "recipe": {key: info[key] for key in ("lr", "schedule", "window", "warmup")},
            "test_bits": over_seeds([scores[(kind, seed)] for seed in seeds]),
            "validation_bits": over_seeds([i["validation_bits"] for i in infos]),
            "steps_taken": [i["steps_taken"] for i in infos], "best_step": [i["best_step"] for i in infos],
            "validation_curves": [i["validation_curve"] for i in infos],
            "text": text, "picks": picks, "copied": longest_copy(text, corpus.texts["train"]),
            "mean_chosen_probability": sum(p["probability"] for p in picks) / len(picks),
        }
        generating((n + 1) / len(MODELS), f"{label(kind)} continued the prompt")
    continued_at = time.perf_counter()
    budget = settings[0]
    result = {"prompt": prompt, "read_as": decode(prompt_ids), "decoding": params["decoding"],
              "temperature": params["temperature"] if sampled else None, "n_characters": params["characters"],
              "top_k": TOP, "models": models, "seeds": seeds, "baselines": baselines(budget.context),
              "corpus": corpus.facts(), "how_chosen": how_chosen(sweep.recipe_file if sweep else ID),
              "budget": {"steps": budget.steps, "characters_per_step": budget.batch_size * budget.context,
                         "context": budget.context, "eval_every": budget.eval_every, "patience": budget.patience,
                         "default_steps": CharLM.steps},
              "memorised_at": MEMORISED}
    seconds = {"models": trained_at - started, "continuations": continued_at - trained_at,
               "counting baselines": time.perf_counter() - continued_at}
    result["seconds"] = {**{part: round(value, 2) for part, value in seconds.items()},
                         **training_seconds([info for _, info in by_settings.values()])}
    precision = trained[(MODELS[0], seeds[0])][1].get("precision")  # how the models trained ("bfloat16" in the GPU sweep)
    if precision:
        result["precision"] = precision
    if sweep is not None:
        result["sweep"] = {"name": sweep.name, "sizes": scaling.size_panel(sweep, by_settings, seeds),
                           "shapes": scaling.shape_panel(sweep, by_settings, seeds)}
    result["winner"] = winner(result)
    result["summary"] = summarize(result)
    if sweep is not None:  # the slide shows each part under its own view ("summaries"); the summary has both
        result["summaries"] = {"showdown": result["summary"],
                               "sizes": sweep_words(result["sweep"], result["baselines"]["ngrams"])}
        result["summary"] += " " + result["summaries"]["sizes"]
    return result


def training_seconds(infos: list[dict]) -> dict:
    """Where the models' training time went, as they recorded it when they were trained (all together):
    the whole of it, the part spent scoring on the validation text (summed over the models: on a GPU one
    after another, so part of the whole; on a CPU's cores side by side), when the first and the last
    of those scores began (the steps before the first include a GPU's capture of each step), and
    scoring on the test text."""
    seconds = [i.get("seconds", {}) for i in infos]
    scored_at = [at for s in seconds for _, at in s.get("scored_at", [])]
    return {"training (when trained)": round(max(i["train_seconds"] for i in infos), 2),
            "of which validation, summed": round(sum(s.get("validation", 0) for s in seconds), 2),
            "first score at": round(min(scored_at, default=0), 2), "last score at": round(max(scored_at, default=0), 2),
            "test scoring": round(max(s.get("test, all models", 0) for s in seconds), 2)}


def transformer_bits(result: dict) -> dict:
    """The Transformer's bits per character on the test text (lower is better), over seeds."""
    return result["models"]["transformer"]["test_bits"]


def lstm_bits(result: dict) -> dict:
    """The LSTM's bits per character on the test text (lower is better), over seeds."""
    return result["models"]["lstm"]["test_bits"]


QUANTITIES = declared(transformer_bits, lstm_bits)  # what the slide may quote


def winner(result: dict) -> str:
    """"transformer", "lstm" or "tie": the lower test bits per character with every seed, or a tie."""
    return leader({"transformer": transformer_bits(result), "lstm": lstm_bits(result)}, lower_is_better=True)


def beaten(result: dict, kind: str) -> int:
    """How many rungs of the counting ladder (unigram first) `kind` beat with every seed."""
    worst = result["models"][kind]["test_bits"]["max"]
    return sum(worst < rung["test_bits"] for rung in result["baselines"]["ngrams"])


def baseline_words(result: dict, kind: str) -> str:
    """Which counting baselines a model beat with every seed, and the first it did not, in words."""
    ladder, below = result["baselines"]["ngrams"], beaten(result, kind)
    if below == 0:
        return "did not beat even the unigram with every seed"
    if below == len(ladder):
        return f"beat every counting model up to the {ladder[-1]['name']} with every seed"
    return f"beat the {ladder[below - 1]['name']} with every seed but not the {ladder[below]['name']}"


def strongest(result: dict) -> dict:
    """The strongest counting baseline: the longest n-gram of the ladder."""
    return result["baselines"]["ngrams"][-1]


def summarize(result: dict) -> str:
    models, seeds, top = result["models"], result["seeds"], strongest(result)
    over = f"mean over {len(seeds)} seeds, range in brackets" if len(seeds) > 1 else f"seed {seeds[0]}"
    trigram = next(rung for rung in result["baselines"]["ngrams"] if rung["order"] == 3)
    text = (f"Bits per character on the test text ({over}; lower is better): Transformer "
            f"{spread_text(models['transformer']['test_bits'], '.2f')}, LSTM {spread_text(models['lstm']['test_bits'], '.2f')}; "
            f"counting on the same characters: trigram {trigram['test_bits']:.2f}, {top['name']} {top['test_bits']:.2f}.")
    best = result["winner"]
    text += (" Neither model was ahead with every seed." if best == TIE
             else f" The {label(best)} was ahead with every seed.")
    words = {kind: baseline_words(result, kind) for kind in MODELS}
    text += (f" Both {words['transformer']}." if words["transformer"] == words["lstm"]
             else f" The Transformer {words['transformer']}; the LSTM {words['lstm']}.")
    for kind in MODELS:
        copied = models[kind]["copied"]
        if copied["printed"] >= result["memorised_at"]:
            text += (f" The {label(kind)}'s continuation repeats {copied['length']} characters of the training text "
                     f"word for word: memorised, not composed.")
    return text


def millions(parameters: int) -> str:
    return f"{parameters / 1e6:.2f} M" if parameters < 1e6 else f"{parameters / 1e6:.1f} M"


def sweep_words(sweep: dict, ladder: list[dict]) -> str:
    """The size sweep in words: each family's test bits at each size, who was ahead at each with every
    seed, the fitted exponents, any size that did not beat the trigram of the counting `ladder`, and
    how far apart the shapes landed."""
    families = {family["kind"]: family for family in sweep["sizes"]["families"]}
    curves = "; ".join(f"{family['label']} " + ", ".join(f"{spread_text(p['test_bits'], '.2f')} at "
                                                         f"{millions(p['non_embedding'])}" for p in family["points"])
                       for family in families.values())
    pairs = list(zip(families["transformer"]["points"], families["lstm"]["points"]))
    ahead_t = sum(ahead(t["test_bits"], l["test_bits"], lower_is_better=True) for t, l in pairs)
    ahead_l = sum(ahead(l["test_bits"], t["test_bits"], lower_is_better=True) for t, l in pairs)
    text = (f"By size (non-embedding parameters, test bits per character): {curves}. With every seed the "
            f"Transformer was ahead at {ahead_t} of {len(pairs)} sizes, the LSTM at {ahead_l}. Fitted as "
            f"k·N^(−α): α = {families['transformer']['fit']['alpha']:.3f} for the Transformer, "
            f"{families['lstm']['fit']['alpha']:.3f} for the LSTM (larger: gains more from size).")
    trigram = next(rung for rung in ladder if rung["order"] == 3)
    short = [f"the {family['label']} at {millions(p['non_embedding'])}" for family in families.values()
             for p in family["points"] if p["test_bits"]["max"] >= trigram["test_bits"]]
    if short:
        text += f" Not below the trigram ({trigram['test_bits']:.2f}) with every seed: {', '.join(short)}."
    if sweep.get("shapes"):
        rows = sweep["shapes"]["shapes"]
        layers = sorted({row["layers"] for row in rows})
        heads = sorted({row["head_size"] for row in rows})
        text += (f" {len(rows)} shapes of the Transformer at about {millions(rows[0]['non_embedding'])} "
                 f"({layers[0]} to {layers[-1]} layers, heads of {heads[0]} to {heads[-1]} dimensions) scored within "
                 f"{sweep['shapes']['spread']:.1%} of each other.")
    else:
        text += (f" The Transformer's shape at one size (Figure 5) is not in this run: "
                 f"{scaling.measured_by('shapes')} measures it.")
    return text


def headline(result: dict) -> dict:
    """For the recap: which model predicted the test text better, in bits per character."""
    transformer, lstm = transformer_bits(result), lstm_bits(result)
    top = strongest(result)
    return recap_row("Unseen text, bits per character", result["winner"],
                     f"Transformer {spread_text(transformer, '.2f')}, LSTM {spread_text(lstm, '.2f')}; "
                     f"{top['name']} {top['test_bits']:.2f}")


def percent(probability: float) -> str:
    """A probability with the digits it needs not to read as 0%."""
    digits = 0 if probability >= 0.01 else 1 if probability >= 0.001 else 2
    return f"{probability:.{digits}%}"


def format_text(result: dict) -> str:
    """Both continuations, then every step's top candidates."""
    how = ("greedy: the most probable character each time" if result["decoding"] == "greedy"
           else f"sampled at temperature {result['temperature']:g}")
    lines = [f"Prompt: {result['prompt']!r}", f"{result['n_characters']} characters, {how}", ""]
    for kind in MODELS:
        model = result["models"][kind]
        lines += [f"{model['label']} ({model['parameters']:,} parameters): test {spread_text(model['test_bits'], '.2f')} "
                  f"bits per character", f"  {result['read_as']}{model['text']}",
                  f"  (longest run copied from the training text: {model['copied']['length']} characters)", ""]
    b = result["baselines"]
    lines.append(f"Counting baselines on the same {b['test_characters']:,} test characters: uniform {b['uniform']:.2f}, "
                 + ", ".join(f"{rung['name']} {rung['test_bits']:.2f}" for rung in b["ngrams"]) + " bits per character")
    for kind in MODELS:
        recipe = result["models"][kind]["recipe"]
        lines.append(f"{label(kind)}'s recipe (chosen on the validation text): learning rate {rate_text(recipe['lr'])}, "
                     f"{recipe['schedule']} schedule, training windows of {recipe['window']} characters")
    lines += ["", f"Step by step: the top {result['top_k']} next characters, * the one taken"]
    for step in range(min(result["n_characters"], 30)):
        for kind in MODELS:
            pick = result["models"][kind]["picks"][step]
            top = "  ".join(f"{'*' if c['char'] == pick['char'] else ' '}{c['shown']} {percent(c['probability'])}"
                            for c in pick["top"])
            lines.append(f"{step + 1 if kind == MODELS[0] else '':>4}  {label(kind) + ':':<13} {top}")
    lines += ["", result["summary"]]
    if "seconds" in result:
        lines += ["", "Where the time went (seconds): " + ", ".join(f"{part} {value:g}"
                                                                  for part, value in result["seconds"].items())]
    return "\n".join(lines)
