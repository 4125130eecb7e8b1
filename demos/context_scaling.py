"""Context scaling: does each model keep using the context as it reads on? A miniature of Kaplan et al.
(2020), Figure 7.

The character-level Transformer and LSTM of the generative showdown (the same models: trained on
the Python documentation with the same batches and budget, the budget chosen on the validation
text, several seeds) read test text in windows of `context` characters that lie inside one
document each. For every position T of the window, the loss of the next character, averaged over
the windows: how much better a model predicts once it has read T characters. Each curve is
fitted with L(T) = a + b·T^(−c) (their Figure 20); an exponent at the edge of the range tried is
flagged, as the fit has then found no power law.

The comparison is paired and by document: the two models' losses on the same windows, averaged
per test document (the documents are independent; windows of one document are not), with standard
errors over the documents. The verdict weighs the loss late in the context and the gain from
reading on together, and calls it level when they are.

With `sweep`, it also trains Transformers and LSTMs of several sizes and plots each one's test
loss against its non-embedding parameters (their left panel); `flask --app app warm --full` does
that before the lecture.
"""
import math

import torch

from demos.core.fitting import EXPONENTS, fit_offset_power_law, fit_power_law
from demos.core.models import count_parameters
from demos.core.python_docs import decode, load
from demos.runtime.params import Param, seed_param
from demos.runtime.progress import share
from demos.shared.char_models import CharLM, context_spans, document_windows, trained_models
from demos.shared.contenders import label
from demos.shared.recap import headline as recap_row
from demos.shared.seeds import over_seeds, seed_list, seeds_param

ID = "context_scaling"
TITLE = "Using the whole context"
PARAMS = [
    seed_param(),
    seeds_param(),
    Param("steps", "int", CharLM.steps, "Most training steps of each model (the same models as the generative "
          "showdown's)", 20, 3000),
    Param("sweep", "bool", False, "Also train models of several sizes for the left panel (minutes on a CPU: "
                                  "the instructor computes it before the lecture)"),
]
FULL_PARAMS = {"sweep": True, "steps": 3000}  # the long run `flask warm --full` computes: many minutes on a CPU
MODELS = ("transformer", "lstm")
SWEEP_WIDTHS = (32, 48, 64, 96)  # Transformer widths of the sweep; an LSTM is matched to each
PAPER_ALPHA_N = 0.076  # Kaplan et al. (2020): L(N) = (N_c / N)^0.076 -- drawn as a reference only
EXAMPLE_CHARACTERS = 100


def per_document(values: torch.Tensor, documents: torch.Tensor) -> torch.Tensor:
    """The mean of `values` (one per window) within each document: (documents with windows,)."""
    order = torch.unique(documents)
    return torch.stack([values[documents == d].mean() for d in order])


def paired(lstm: torch.Tensor, transformer: torch.Tensor) -> dict:
    """The mean over documents of (LSTM − Transformer), and its standard error over the documents."""
    diff = lstm - transformer
    error = diff.std().item() / math.sqrt(len(diff)) if len(diff) > 1 else 0.0
    return {"lstm_minus_transformer": diff.mean().item(), "standard_error": error, "documents": len(diff)}


def ahead(difference: dict, lower_is_better: bool = True) -> str:
    """"transformer", "lstm" or "tie" (within two standard errors) for a paired difference."""
    gap, error = difference["lstm_minus_transformer"], difference["standard_error"]
    if abs(gap) <= 2 * error:
        return "tie"
    return "transformer" if (gap > 0) == lower_is_better else "lstm"


def verdict(comparison: dict) -> str:
    """The recap's winner from the late loss and the late gain together: a model wins when its loss
    late in the context is lower and its gain from reading on is not smaller; level otherwise."""
    final, gain = ahead(comparison["late"]), ahead(comparison["late_gain"], lower_is_better=False)
    return final if final != "tie" and gain in (final, "tie") else "tie"


def fit_curve(curve: list[float]) -> dict:
    positions = list(range(1, len(curve) + 1))
    fit = fit_offset_power_law(positions, curve, weights=[1 / t for t in positions])
    fit["at_edge"] = bool(fit["c"] <= EXPONENTS[0] * 1.0001 or fit["c"] >= EXPONENTS[-1] * 0.9999)
    return fit


def measure(kind: str, runs: list[tuple]) -> dict:
    """What the slide shows of one kind of model over the seeds (its test scores, kept since training)."""
    curves = [info["test_by_position"] for _, info in runs]  # bits at each position, one curve per seed
    mean_curve = [sum(values) / len(values) for values in zip(*curves)]
    fits = [fit_curve(curve) for curve in curves]
    model, info = runs[0]
    return {
        "kind": kind, "label": label(kind), "width": info["width"],
        "parameters": count_parameters(model), "non_embedding_parameters": count_parameters(model, non_embedding=True),
        "per_token_bits": [round(x, 4) for x in mean_curve],
        "per_token_bits_by_seed": [[round(x, 4) for x in curve] for curve in curves],
        "fit": {k: (round(v, 4) if isinstance(v, float) else v) for k, v in fit_curve(mean_curve).items()},
        "exponent": over_seeds([f["c"] for f in fits]),
        "fits_at_edge": sum(f["at_edge"] for f in fits),
        "bits": over_seeds([sum(c) / len(c) for c in curves]),
        **{f"{span}_bits": over_seeds([sum(i["test_spans"][span]) / len(i["test_spans"][span]) for _, i in runs])
           for span in context_spans(len(mean_curve))},
        "steps_taken": [info["steps_taken"] for _, info in runs], "best_step": [info["best_step"] for _, info in runs],
    }


def compare(trained: dict, seeds: list[int], documents: torch.Tensor) -> dict:
    """The two models on the same windows, per document (mean over seeds, in bits): early and late
    loss, and the later context's gain (loss on the middle stretch minus loss on the late one)."""
    def span(kind: str, name: str) -> torch.Tensor:  # (windows,): the mean over the seeds' models
        return torch.tensor([trained[(kind, seed)][1]["test_spans"][name] for seed in seeds]).mean(dim=0)

    def by_document(values) -> dict:
        return paired(per_document(values("lstm"), documents), per_document(values("transformer"), documents))

    return {"early": by_document(lambda kind: span(kind, "early")),
            "late": by_document(lambda kind: span(kind, "late")),
            "late_gain": by_document(lambda kind: span(kind, "mid") - span(kind, "late"))}


def sweep(params: dict, device: torch.device, progress) -> dict:
    """Test loss against non-embedding parameters for Transformers and matched LSTMs of several sizes."""
    settings = [CharLM(kind=kind, seed=params["seed"], steps=params["steps"], width=width)
                for width in SWEEP_WIDTHS for kind in MODELS]
    points = []
    for s, (model, info) in zip(settings, trained_models(settings, device, progress)):
        points.append({"family": s.kind, "label": f"{label(s.kind)} (width {info['width']})", "width": info["width"],
                       "non_embedding_parameters": count_parameters(model, non_embedding=True),
                       "parameters": count_parameters(model), "bits": info["test_bits"]})
    fits = {family: fit_power_law([p["non_embedding_parameters"] for p in points if p["family"] == family],
                                  [p["bits"] for p in points if p["family"] == family]) for family in MODELS}
    return {"points": points, "fits": fits, "paper_alpha": PAPER_ALPHA_N, "steps": params["steps"],
            "seed": params["seed"]}


def work(params: dict) -> float:
    """How the run's cost grows with its settings, seeds × steps × model sizes: the engine scales its time
    estimates for new settings by it."""
    return params["seeds"] * params["steps"] * (1 + len(SWEEP_WIDTHS) * params["sweep"])


def run(params: dict, progress, device: torch.device) -> dict:
    corpus, seeds = load(), seed_list(params["seed"], params["seeds"])
    context = CharLM.context
    training = share(progress, 0, 0.6 if params["sweep"] else 1.0)
    settings = [CharLM(kind=kind, seed=seed, steps=params["steps"]) for kind in MODELS for seed in seeds]
    trained = dict(zip(((s.kind, s.seed) for s in settings), trained_models(settings, device, training)))
    test, documents = document_windows(corpus, "test", context)  # the windows the models were scored on
    models = [measure(kind, [trained[(kind, seed)] for seed in seeds]) for kind in MODELS]
    comparison = compare(trained, seeds, documents)
    result = {"context": context, "windows": context_spans(context), "models": models, "seeds": seeds,
              "comparison": comparison, "winner": verdict(comparison),
              "data": {"test_windows": len(test), "test_documents": len(torch.unique(documents)),
                       "example": decode(test[0, :EXAMPLE_CHARACTERS].tolist()), "corpus": corpus.facts()},
              "sweep": sweep(params, device, share(progress, 0.6, 1.0)) if params["sweep"] else None,
              "sweep_models": 2 * len(SWEEP_WIDTHS), "exponent_range": [float(EXPONENTS[0]), float(EXPONENTS[-1])]}
    result["summary"] = summarise(result)
    return result


# ----------------------------------------------------------------------------- words


def positions(span: list[int]) -> str:
    return f"characters {span[0]}–{span[1]}" if span[0] != span[1] else f"character {span[0]}"


def summarise(result: dict) -> str:
    transformer, lstm = result["models"]
    spans, comparison = result["windows"], result["comparison"]
    names = {"transformer": "the Transformer", "lstm": "the LSTM"}

    def moved(model: dict) -> str:
        change = model["mid_bits"]["mean"] - model["late_bits"]["mean"]
        if abs(change) < 0.005:
            return f"{names[model['kind']]}'s loss stayed within 0.01 bits"
        return f"{names[model['kind']]}'s loss {'fell' if change > 0 else 'rose'} {abs(change):.2f} bits"

    def difference(key: str) -> str:
        d = comparison[key]
        return f"{abs(d['lstm_minus_transformer']):.2f} ± {d['standard_error']:.2f}"

    documents = comparison["late"]["documents"]
    early_leader, late_leader = ahead(comparison["early"]), ahead(comparison["late"])
    early = (f"the two were level on {positions(spans['early'])} ({difference('early')} bits apart)"
             if early_leader == "tie" else
             f"{names[early_leader]} was ahead on {positions(spans['early'])} by {difference('early')} bits")
    late = (f"on {positions(spans['late'])} the two were level ({difference('late')} bits apart)" if late_leader == "tie"
            else f"on {positions(spans['late'])} {names[late_leader]} was lower by {difference('late')} bits")
    seeds = result["seeds"]
    over = f"mean over {len(seeds)} seeds" if len(seeds) > 1 else f"seed {seeds[0]}"
    text = (f"On {result['data']['test_windows']:,} windows of test text from {documents} documents ({over}; "
            f"± one standard error), {early}. From "
            f"{positions(spans['mid'])} to {spans['late'][0]}–{spans['late'][1]} {moved(transformer)} and {moved(lstm)}; "
            f"{late}.")
    gain_leader = ahead(comparison["late_gain"], lower_is_better=False)
    text += (" Neither gained clearly more from the later context." if gain_leader == "tie" else
             f" {names[gain_leader].capitalize()} gained more from the later context ({difference('late_gain')} bits).")
    for model in (transformer, lstm):
        if model["fits_at_edge"]:
            text += (f" The {label(model['kind'])}'s fit put the exponent at the edge of the range tried "
                     f"({model['fits_at_edge']} of {len(result['seeds'])} seeds): no power law there.")
    if result["sweep"]:
        fits = ", ".join(f"{label(family)} {fit['alpha']:.3f}" for family, fit in result["sweep"]["fits"].items())
        text += (f" Across {len(result['sweep']['points'])} sizes the fitted exponents α of L ∝ N^−α were {fits} "
                 f"(the paper's: {result['sweep']['paper_alpha']}, for far larger models).")
    return text


def headline(result: dict) -> dict:
    """For the recap: the late loss and the late gain together, level when they are."""
    transformer, lstm = result["models"]
    return recap_row("Using the whole context", result["winner"],
                     f"late loss: Transformer {transformer['late_bits']['mean']:.2f}, LSTM {lstm['late_bits']['mean']:.2f} "
                     f"bits; gain from reading on: Transformer "
                     f"{transformer['mid_bits']['mean'] - transformer['late_bits']['mean']:.2f}, LSTM "
                     f"{lstm['mid_bits']['mean'] - lstm['late_bits']['mean']:.2f}")


def format_text(result: dict) -> str:
    lines = [f"Test text, e.g.: {result['data']['example']!r} ...", ""]
    lines.append(f"{'position T':>10}" + "".join(f"{m['label']:>14}" for m in result["models"]))
    for position in sorted({1, 2, 4, 8, 16, 32, 64, 128, result["context"]}):
        if position <= result["context"]:
            lines.append(f"{position:>10}" + "".join(f"{m['per_token_bits'][position - 1]:>14.3f}" for m in result["models"]))
    lines.append("")
    for m in result["models"]:
        fit = m["fit"]
        edge = " (at the edge of the range: no power law)" if fit["at_edge"] else ""
        lines.append(f"{m['label']}: {m['non_embedding_parameters']:,} non-embedding parameters; L(T) = {fit['a']:.2f} "
                     f"{'−' if fit['b'] < 0 else '+'} {abs(fit['b']):.2f}·T^−{fit['c']:.2f}{edge} (rms error "
                     f"{fit['rmse']:.3f} bits); exponent over seeds {m['exponent']['mean']:.2f} "
                     f"({m['exponent']['min']:.2f}–{m['exponent']['max']:.2f})")
    if result["sweep"]:
        lines += ["", "Sweep: test bits per character against non-embedding parameters"]
        for point in sorted(result["sweep"]["points"], key=lambda p: (p["family"], p["non_embedding_parameters"])):
            lines.append(f"  {point['label']:<28} {point['non_embedding_parameters']:>9,}  {point['bits']:.3f}")
        for family, fit in result["sweep"]["fits"].items():
            lines.append(f"  fitted exponent, {label(family)}: α = {fit['alpha']:.3f}")
    lines += ["", result["summary"]]
    return "\n".join(lines)
