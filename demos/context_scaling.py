"""Slide 11: does each model keep using the context as it reads on? A miniature of Kaplan et al.
(2020), Figure 7.

A small causal Transformer and an LSTM with about as many non-embedding parameters train on
the same documents (`demos.context_documents`: corpus sentences whose uncommon words are the
document's own recurring "names") with the same batches and steps. Then, on held-out
documents, the loss of each token against its position T in the context: one value per
position, each the mean over the documents, fitted with L(T) = a + b·T^(−c) (their Figure 20).

With `sweep`, it also trains Transformers and 1- and 2-layer LSTMs of several sizes and
plots each one's held-out loss against its non-embedding parameters (their left panel);
that takes minutes, so `flask --app app warm --full` computes it before the lecture.
"""
import math
import time
from bisect import bisect_left
from dataclasses import asdict, dataclass, replace

import torch
from torch import nn

from demos.context_documents import COMMON, FEWEST_NAMES, MOST_NAMES, Documents, decode_names_marked, documents
from demos.corpus import load
from demos.language_models import LMSettings, cross_entropy_per_token, transformer_config
from demos.models import ModelConfig, build_model, count_parameters
from demos.params import Param, seed_param
from demos.power_law import fit_offset_power_law, fit_power_law
from demos.recap import headline as recap_row
from demos.storage import current_store
from demos.training import TrainConfig, language_model_loss, seed_everything, train

ID = "context_scaling"
TITLE = "Using the whole context"
PARAMS = [
    seed_param(),
    Param("steps", "int", 600, "Training steps of each model (the same batches for both)", 10, 700),
    Param("context", "int", 256, "Tokens per document: the context each model reads", 16, 256),
    Param("width", "choice", 64, "The Transformer's width (2 layers, 4 heads); the LSTM is sized to match it",
          choices=(16, 32, 64)),
    Param("lstm_layers", "choice", 2, "Layers of the LSTM", choices=(1, 2)),
    Param("sweep", "bool", False, "Also train models of several sizes for the left panel (minutes: "
                                  "`flask --app app warm --full` does it before the lecture)"),
]
FULL_PARAMS = {"sweep": True}  # the long variant `flask warm --full` computes after the defaults

BATCH_SIZE = 8
LR = 3e-3
DROPOUT = 0.1
TRANSFORMER_LAYERS, HEADS = 2, 4
HELD_OUT_DOCUMENTS = 1024  # the per-position losses are means over this many documents
EVAL_CHUNK = 32  # documents per forward pass when measuring (keeps the logits small)
SWEEP_WIDTHS = (16, 32, 64, 96)  # Transformer widths of the sweep; LSTMs of 1 and 2 layers match each
PAPER_ALPHA_N = 0.076  # Kaplan et al. (2020): L(N) = (N_c / N)^0.076 -- drawn as a reference only
EXAMPLE_TOKENS = 40  # the start of a held-out document, shown as an example
CURVE_POINTS = 60  # training-loss curves are thinned to about this many points
NAMES = {"transformer": "Transformer", "lstm": "LSTM"}
FAMILY_NAMES = {"transformer": "Transformer", "lstm-1": "1-layer LSTM", "lstm-2": "2-layer LSTM"}


@dataclass(frozen=True)
class Contender:
    """One model to train: its kind, layers and width."""
    kind: str  # "transformer" or "lstm"
    n_layers: int
    width: int

    @property
    def label(self) -> str:
        layers = f"{self.n_layers} layer{'s' if self.n_layers > 1 else ''}"
        return f"{NAMES[self.kind]} ({layers}, width {self.width})"


# ----------------------------------------------------------------------------- models


def tie_embeddings(model: nn.Module) -> nn.Module:
    """Read the next token out with the token table itself, as GPT-2 and Kaplan et al.'s models do:
    a name seen earlier is then one step from being predicted again. (In trials while designing
    this demo, untied Transformers did not learn to predict a name they had seen within the budget.)"""
    model.head.weight = model.embed.weight
    return model


def config(contender: Contender, context: int) -> ModelConfig:
    vocab_size = len(load().tokenizer)
    settings = LMSettings(context=context, width=contender.width, n_layers=contender.n_layers, n_heads=HEADS,
                          dropout=DROPOUT)
    transformer = replace(transformer_config(settings, vocab_size), fast_attention=True)
    return transformer if contender.kind == "transformer" else replace(transformer, kind="lstm")


def non_embedding_parameters(cfg: ModelConfig) -> int:
    return count_parameters(tie_embeddings(build_model(cfg)), non_embedding=True)


def matching_lstm(transformer: Contender, n_layers: int, context: int) -> Contender:
    """The LSTM of `n_layers` whose non-embedding parameter count is closest to the Transformer's."""
    target = non_embedding_parameters(config(transformer, context))

    def size(width: int) -> int:
        return non_embedding_parameters(config(Contender("lstm", n_layers, width), context))

    widths = range(4, 4 * transformer.width + 1)
    above = widths[min(bisect_left(widths, target, key=size), len(widths) - 1)]
    return Contender("lstm", n_layers, min((above - 1, above), key=lambda width: abs(size(width) - target)))


def training_batches(seed: int, context: int):
    """The batches every model trains on: the same for the same seed, whichever model asks."""
    generator = torch.Generator().manual_seed(seed)

    def get_batch(step: int) -> tuple[torch.Tensor, torch.Tensor]:
        batch = documents("train", BATCH_SIZE, context, generator)
        return batch.inputs, batch.targets

    return get_batch


def trained_model(contender: Contender, params: dict, device: torch.device, report) -> tuple[nn.Module, dict]:
    """`contender` trained with `params` (kept in the model store, so a later run reuses it)."""
    steps, context = params["steps"], params["context"]

    def train_now() -> tuple[nn.Module, dict]:
        seed_everything(params["seed"])
        model = tie_embeddings(build_model(config(contender, context))).to(device)
        get_batch = training_batches(params["seed"], context)
        started = time.perf_counter()
        losses = train(model, lambda step: tuple(t.to(device) for t in get_batch(step)), language_model_loss,
                       TrainConfig(steps=steps, lr=LR), lambda step, loss: report(step, loss))
        every = max(1, steps // CURVE_POINTS)
        return model, {"train_seconds": round(time.perf_counter() - started, 3),
                       "loss_curve": [[s, round(losses[s - 1], 4)] for s in range(every, len(losses) + 1, every)],
                       "train_loss": sum(losses[-20:]) / len(losses[-20:])}

    settings = {**asdict(contender), "seed": params["seed"], "steps": steps, "context": context,
                "batch_size": BATCH_SIZE, "lr": LR}
    model, info, _ = current_store().load_or_train("context_scaling_model", settings, train_now,
                                                   code_module=__name__, device=device)
    return tie_embeddings(model).eval(), info  # a model read back from disk has two equal tables: one again


# ----------------------------------------------------------------------------- measuring


def held_out(seed: int, context: int) -> Documents:
    """The held-out documents (from the held-out abstracts only), the same for every model."""
    return documents("held_out", HELD_OUT_DOCUMENTS, context, torch.Generator().manual_seed(seed + 1))


def token_losses(model: nn.Module, docs: Documents, device: torch.device) -> torch.Tensor:
    """Cross-entropy of every target token: (documents, positions)."""
    return cross_entropy_per_token(model, docs.inputs, docs.targets, device, rows_at_once=EVAL_CHUNK)


def windows(context: int) -> dict[str, list[int]]:
    """Positions (first, last; counted from 1) of the early, middle and late stretches of the context."""
    return {"early": [1, max(1, context // 32)], "mid": [context // 8 + 1, context // 4],
            "late": [3 * context // 4 + 1, context]}


def window_mean(losses: torch.Tensor, window: list[int]) -> torch.Tensor:
    """Each document's mean loss over positions window[0]..window[1]: (documents,)."""
    return losses[:, window[0] - 1:window[1]].mean(dim=1)


def measure(model: nn.Module, contender: Contender, info: dict, docs: Documents,
            device: torch.device) -> tuple[dict, torch.Tensor]:
    """What the slide shows of one trained model, and its per-token losses."""
    losses = token_losses(model, docs, device)  # (documents, T)
    per_position = losses.mean(dim=0)  # (T,)
    positions = list(range(1, len(per_position) + 1))
    fit = fit_offset_power_law(positions, per_position.tolist(), weights=[1 / t for t in positions])
    spans = windows(len(positions))
    is_name, seen = docs.target_is_name, docs.target_name_seen
    names, new_names = is_name & seen, is_name & ~seen
    return {
        "kind": contender.kind,
        "label": contender.label,
        "n_layers": contender.n_layers,
        "width": contender.width,
        "parameters": count_parameters(model),
        "non_embedding_parameters": count_parameters(model, non_embedding=True),
        "per_token_loss": [round(x, 4) for x in per_position.tolist()],
        "fit": {k: round(v, 4) for k, v in fit.items()},
        "loss": losses.mean().item(),
        **{f"{span}_loss": window_mean(losses, window).mean().item() for span, window in spans.items()},
        "repeat_name_loss": losses[names].mean().item() if names.any() else 0.0,
        "new_name_loss": losses[new_names].mean().item() if new_names.any() else 0.0,
        "common_word_loss": losses[~is_name].mean().item(),
        "train_loss": info["train_loss"],
        "train_seconds": info["train_seconds"],
        "loss_curve": info["loss_curve"],
    }, losses


def paired(lstm: torch.Tensor, transformer: torch.Tensor) -> dict:
    """The mean over documents of (LSTM − Transformer) for a per-document measure, and its standard error."""
    diff = lstm - transformer  # (documents,)
    error = diff.std().item() / math.sqrt(len(diff)) if len(diff) > 1 else 0.0
    return {"lstm_minus_transformer": diff.mean().item(), "standard_error": error}


def compare(lstm: torch.Tensor, transformer: torch.Tensor, context: int) -> dict:
    """The two models on the same documents: early loss, late loss, and the later context's gain
    (loss on the middle stretch minus loss on the late one), each as a paired difference."""
    spans = windows(context)

    def gain(losses: torch.Tensor) -> torch.Tensor:
        return window_mean(losses, spans["mid"]) - window_mean(losses, spans["late"])

    return {"early": paired(window_mean(lstm, spans["early"]), window_mean(transformer, spans["early"])),
            "late": paired(window_mean(lstm, spans["late"]), window_mean(transformer, spans["late"])),
            "late_gain": paired(gain(lstm), gain(transformer))}


def ahead(difference: dict, lower_is_better: bool = True) -> str:
    """"transformer", "lstm" or "tie" (within two standard errors) for a paired difference."""
    gap, error = difference["lstm_minus_transformer"], difference["standard_error"]
    if abs(gap) <= 2 * error:
        return "tie"
    return "transformer" if (gap > 0) == lower_is_better else "lstm"


# ----------------------------------------------------------------------------- the run


def sweep_contenders(params: dict) -> list[Contender]:
    contenders = []
    for width in SWEEP_WIDTHS:
        transformer = Contender("transformer", TRANSFORMER_LAYERS, width)
        contenders += [transformer] + [matching_lstm(transformer, layers, params["context"]) for layers in (1, 2)]
    return contenders


def sweep_fits(points: list[dict]) -> dict:
    """Each family's fitted L(N) = k·N^(−α), for families with two sizes or more."""
    fits = {}
    for family in ("transformer", "lstm-1", "lstm-2"):
        mine = [p for p in points if p["family"] == family]
        if len({p["non_embedding_parameters"] for p in mine}) > 1:
            fits[family] = fit_power_law([p["non_embedding_parameters"] for p in mine], [p["loss"] for p in mine])
    return fits


def run(params: dict, progress, device: torch.device) -> dict:
    context = params["context"]
    transformer = Contender("transformer", TRANSFORMER_LAYERS, params["width"])
    lstm = matching_lstm(transformer, params["lstm_layers"], context)
    main = [transformer, lstm]
    extra = [c for c in sweep_contenders(params) if c not in main] if params["sweep"] else []
    total = len(main) + len(extra)
    docs = held_out(params["seed"], context)
    models: list[dict] = []
    losses: dict[str, torch.Tensor] = {}
    points: list[dict] = []
    facts = data_facts(docs, params)
    started = time.perf_counter()

    def partial() -> dict:
        result = {"context": context, "windows": windows(context), "models": [dict(m) for m in models],
                  "data": dict(facts), "sweep": None, "sweep_models": 3 * len(SWEEP_WIDTHS)}
        if params["sweep"]:
            result["sweep"] = {"points": [dict(p) for p in points], "fits": sweep_fits(points),
                               "paper_alpha": PAPER_ALPHA_N, "steps": params["steps"]}
        return result

    def train_one(index: int, contender: Contender) -> tuple[dict, torch.Tensor]:
        def report(step: int, loss: float) -> None:
            if step % 10 == 0 or step == params["steps"]:
                progress((index + step / params["steps"]) / total,
                         f"{contender.label}: step {step}/{params['steps']}, loss {loss:.2f}")

        model, info = trained_model(contender, params, device, report)
        return measure(model, contender, info, docs, device)

    for index, contender in enumerate(main):
        measured, losses[contender.kind] = train_one(index, contender)
        models.append(measured)
        if params["sweep"]:
            points.append(sweep_point(measured))
        progress((index + 1) / total, f"{contender.label}: held-out loss {measured['loss']:.2f}", partial())

    for index, contender in enumerate(extra, start=len(main)):
        measured, _ = train_one(index, contender)
        points.append(sweep_point(measured))
        progress((index + 1) / total, f"sweep: {contender.label}, held-out loss {measured['loss']:.2f}", partial())

    comparison = compare(losses["lstm"], losses["transformer"], context)
    # The test is the use of distant context: the model whose loss kept falling further wins.
    result = {**partial(), "comparison": comparison, "winner": ahead(comparison["late_gain"], lower_is_better=False),
              "seconds": round(time.perf_counter() - started, 3)}
    result["summary"] = summarise(result)
    return result


def sweep_point(measured: dict) -> dict:
    family = "transformer" if measured["kind"] == "transformer" else f"lstm-{measured['n_layers']}"
    return {"family": family, "label": measured["label"], "width": measured["width"],
            "non_embedding_parameters": measured["non_embedding_parameters"],
            "parameters": measured["parameters"], "loss": measured["loss"], "late_loss": measured["late_loss"]}


def data_facts(docs: Documents, params: dict) -> dict:
    """What the documents are, for the slide: sizes, the share of names, and an example."""
    example = slice(0, EXAMPLE_TOKENS)
    return {
        "held_out_documents": len(docs.inputs),
        "train_documents": params["steps"] * BATCH_SIZE,
        "batch_size": BATCH_SIZE,
        "common_words": COMMON,
        "fewest_names": FEWEST_NAMES,
        "most_names": MOST_NAMES,
        "name_share": docs.target_is_name.float().mean().item(),
        "repeat_name_share": (docs.target_is_name & docs.target_name_seen).float().mean().item(),
        "example": decode_names_marked(docs.tokens[0, example].tolist(), docs.is_name[0, example].tolist()),
    }


# ----------------------------------------------------------------------------- words


def tokens(window: list[int]) -> str:
    return f"tokens {window[0]}–{window[1]}" if window[0] != window[1] else f"token {window[0]}"


def summarise(result: dict) -> str:
    transformer, lstm = result["models"]
    spans, comparison = result["windows"], result["comparison"]
    names = {"transformer": "the Transformer", "lstm": "the LSTM"}

    def moved(model: dict, noun: str) -> str:
        change = model["mid_loss"] - model["late_loss"]
        if abs(change) < 0.005:
            return f"{names[model['kind']]}'s{noun} stayed within 0.01"
        return f"{names[model['kind']]}'s{noun} {'fell' if change > 0 else 'rose'} {abs(change):.2f}"

    early_leader = ahead(comparison["early"])
    early_losses = f"Transformer {transformer['early_loss']:.2f}, LSTM {lstm['early_loss']:.2f} nats"
    early = (f"neither was ahead on {tokens(spans['early'])} ({early_losses})" if early_leader == "tie" else
             f"{names[early_leader]} was ahead on {tokens(spans['early'])} ({early_losses})")
    late, late_leader = comparison["late"], ahead(comparison["late"])
    late_gap = f"{abs(late['lstm_minus_transformer']):.2f} ± {late['standard_error']:.2f} nats"
    ending = (f"on {tokens(spans['late'])} the two were level ({late_gap} apart)" if late_leader == "tie" else
              f"on {tokens(spans['late'])} {names[late_leader]} was lower by {late_gap}")
    text = (f"On {result['data']['held_out_documents']} held-out documents {early}. From {tokens(spans['mid'])} to "
            f"{tokens(spans['late'])} {moved(transformer, ' loss')} and {moved(lstm, '')}; {ending}.")
    if result["sweep"] and result["sweep"]["fits"]:
        fits = ", ".join(f"{FAMILY_NAMES[family]} {fit['alpha']:.3f}"
                         for family, fit in result["sweep"]["fits"].items())
        text += (f" Across {len(result['sweep']['points'])} sizes the fitted exponents α of L ∝ N^−α were {fits} "
                 f"(the paper's: {result['sweep']['paper_alpha']}).")
    return text


def headline(result: dict) -> dict:
    """For the recap: which model's loss kept falling further late in the context."""
    transformer, lstm = result["models"]
    gains = {m["kind"]: m["mid_loss"] - m["late_loss"] for m in (transformer, lstm)}
    return recap_row("Using the whole context", result["winner"],
                     f"loss drop from {tokens(result['windows']['mid'])} to {tokens(result['windows']['late'])}: "
                     f"Transformer {gains['transformer']:.2f}, LSTM {gains['lstm']:.2f} nats")


def format_text(result: dict) -> str:
    lines = [f"Held-out documents, e.g.: {result['data']['example']} ...", ""]
    header = f"{'position T':>10}" + "".join(f"{NAMES[m['kind']]:>14}" for m in result["models"])
    lines.append(header)
    context = result["context"]
    for position in sorted({1, 2, 4, 8, 16, 32, 64, 128, 256, context}):
        if position <= context:
            losses = "".join(f"{m['per_token_loss'][position - 1]:>14.3f}" for m in result["models"])
            lines.append(f"{position:>10}{losses}")
    lines.append("")
    for m in result["models"]:
        fit = m["fit"]
        lines.append(f"{m['label']}: {m['non_embedding_parameters']:,} non-embedding parameters "
                     f"({m['parameters']:,} in all); L(T) = {fit['a']:.2f} {'−' if fit['b'] < 0 else '+'} "
                     f"{abs(fit['b']):.2f}·T^−{fit['c']:.2f} (rms error {fit['rmse']:.3f}); loss on names seen "
                     f"before {m['repeat_name_loss']:.2f}, on new names {m['new_name_loss']:.2f}, on common words "
                     f"{m['common_word_loss']:.2f}")
    if result["sweep"]:
        lines += ["", "Sweep: held-out loss against non-embedding parameters"]
        for point in sorted(result["sweep"]["points"], key=lambda p: (p["family"], p["non_embedding_parameters"])):
            lines.append(f"  {point['label']:<34} {point['non_embedding_parameters']:>9,}  {point['loss']:.3f}")
        for family, fit in result["sweep"]["fits"].items():
            lines.append(f"  fitted exponent, {family}: α = {fit['alpha']:.3f}")
        lines.append(f"  (Kaplan et al. 2020 report α_N = {result['sweep']['paper_alpha']} "
                     f"for far larger Transformers)")
    lines += ["", result["summary"]]
    return "\n".join(lines)
