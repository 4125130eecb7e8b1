"""Slide 12, the generative showdown: the Transformer and the LSTM language model, trained on the
same corpus with the same steps, batch and about the same parameter count, continue the same
prompt one token at a time. Every step keeps each model's top-5 candidates and the one it chose;
beside each model stands its perplexity on the held-out abstracts.

The models come from the shared store (`demos.language_models`): a new prompt or a new decoding
reuses them, and with 200 steps they are the very models of the attention slides. The default
budget is 150 steps for both: the shared models' held-out curves put the Transformer's best
near 100 steps and the LSTM's past 250, and 150 is where their mean held-out loss was lowest
(seeds 0 to 2). Each result carries both held-out curves, so the trade-off is measured again.
"""
import math
from dataclasses import replace

import torch

from demos.corpus import load
from demos.language_models import SHARED, generate, language_model, next_token_probs
from demos.params import Param, seed_param
from demos.recap import best_of, headline as recap_row
from demos.sentence_attention import MAX_CHARS, MAX_TOKENS, SentenceParam, encode_sentence, unknown_words_note
from demos.tokenizer import join

ID = "generation"
TITLE = "The generative showdown: two language models continue a prompt"
PROMPT = "We propose a"
MODELS = ("transformer", "lstm")
LABELS = {"transformer": "Transformer", "lstm": "LSTM"}
TOP = 5  # candidates shown at each step
MAX_NEW_TOKENS = 40
DEFAULT_STEPS = 150
# Held-out losses closer than this (nats, about 5% in perplexity) count as a tie: at the default
# budget one model's perplexity moved by about that much from one seed to the next.
CLEAR_GAP = 0.05
TRAINING_SHARE = 0.45  # of the progress bar, for each model's training; generation gets the rest
assert MAX_TOKENS + MAX_NEW_TOKENS <= SHARED.context, "prompt and continuation fit the models' context"

PARAMS = [
    SentenceParam("prompt", "str", PROMPT, f"The words both models continue (at most {MAX_TOKENS} words and marks; "
                  "unknown words become ⟨unk⟩)", max=MAX_CHARS, toolbar=True),
    Param("decoding", "choice", "greedy", "greedy: always the most probable next token; "
          "sample: draw it from the probabilities at the temperature", choices=("greedy", "sample")),
    Param("temperature", "float", 1.0, "When sampling: divide the scores by this before the softmax "
          "(below 1 sharper, above 1 flatter)", 0.1, 2.0),
    Param("tokens", "int", 20, "How many tokens each model adds to the prompt", 1, MAX_NEW_TOKENS),
    Param("steps", "int", DEFAULT_STEPS, f"Training steps of each model, the same for both "
          f"({SHARED.steps}: the attention slides' model)", 10, 2 * DEFAULT_STEPS),
    seed_param(),
]


def shown(token_id: int) -> str:
    """A vocabulary token as the slide writes it (`<unk>` would read as markup)."""
    tokenizer = load().tokenizer
    return "⟨unk⟩" if token_id == tokenizer.unk_id else tokenizer.vocab[token_id]


def next_pick(model, ids: list[int], temperature: float, generator: torch.Generator) -> tuple[int, dict]:
    """The token the model adds after `ids` (picked by the shared `generate`), with its top candidates.

    The probabilities are the ones the pick is made from: the softmax at the temperature when
    sampling, the plain softmax when greedy."""
    probs = next_token_probs(model, ids, temperature or 1.0)  # (vocab,)
    chosen = generate(model, ids, 1, temperature, generator)[0]
    top = probs.topk(TOP)
    return chosen, {
        "token": shown(chosen),
        "probability": probs[chosen].item(),
        "rank": int((probs > probs[chosen]).sum()) + 1,  # 1: the most probable token
        "top": [{"token": shown(i), "probability": p} for i, p in zip(top.indices.tolist(), top.values.tolist())],
    }


def spaces_before(tokens: list[str]) -> list[bool]:
    """Whether `join` writes a space before each token, so the browser lays the text out as the tokenizer does."""
    return [len(join(tokens[: i + 1])) > len(join(tokens[:i])) + len(token) for i, token in enumerate(tokens)]


def longest_copy(generated: list[int], train_ids: torch.Tensor) -> dict:
    """The longest run of consecutive generated tokens that the training text contains word for word."""
    best = {"start": 0, "length": 0}
    match = torch.zeros(len(train_ids), dtype=torch.long)  # match[j]: length of the match ending at train_ids[j]
    for i, token in enumerate(generated):
        match = torch.where(train_ids == token, torch.cat([match.new_zeros(1), match[:-1]]) + 1, 0)
        length = int(match.max()) if len(match) else 0
        if length > best["length"]:
            best = {"start": i + 1 - length, "length": length}
    return best


def about_model(kind: str, info: dict, trained_now: bool) -> dict:
    """What the slide says about a trained model: size, budget, held-out perplexity now and along the way."""
    curve = [[step, math.exp(loss)] for step, loss in info["held_out_curve"]]
    best_step, best_perplexity = min(curve[1:] or curve, key=lambda point: point[1])  # step 0: untrained
    return {
        "label": LABELS[kind],
        "parameters": info["parameters"],
        "width": info["width"],
        "train_steps": info["steps"],
        "train_loss": info["train_loss"],
        "held_out_loss": info["held_out_loss"],
        "held_out_perplexity": info["held_out_perplexity"],
        "held_out_curve": curve,  # [step, perplexity]
        "best": {"step": best_step, "perplexity": best_perplexity},
        "train_seconds": info["train_seconds"],
        "trained_now": trained_now,
    }


def share_of(progress, low: float, high: float):
    """`progress` for one part of the run, mapped onto [low, high] of the whole bar."""
    return lambda fraction, message, data=None: progress(low + (high - low) * fraction, message, data)


def run(params: dict, progress, device: torch.device) -> dict:
    # Checked again (a run from Python skips no check); unknown words are kept, shown as ⟨unk: word⟩.
    words, prompt_ids, prompt_tokens, unknown = encode_sentence(params["prompt"], "prompt")
    corpus = load()
    models, about = {}, {}
    for n, kind in enumerate(MODELS):
        settings = replace(SHARED, kind=kind, seed=params["seed"], steps=params["steps"])
        part = share_of(progress, n * TRAINING_SHARE, (n + 1) * TRAINING_SHARE)
        models[kind], info, trained_now = language_model(settings, device, part)
        about[kind] = about_model(kind, info, trained_now)

    sampled = params["decoding"] == "sample"
    temperature = params["temperature"] if sampled else 0.0  # 0: greedy, as `generate` reads it
    # One random stream per model: with a shared one, two similar distributions would draw the same words.
    generators = {kind: torch.Generator().manual_seed(2 * params["seed"] + n) for n, kind in enumerate(MODELS)}
    ids = {kind: list(prompt_ids) for kind in MODELS}
    picks = {kind: [] for kind in MODELS}
    n_tokens = params["tokens"]

    def continuation(model_picks: list[dict]) -> dict:
        tokens = [pick["token"] for pick in model_picks]
        return {"tokens": tokens, "spaces": spaces_before(prompt_tokens + tokens)[len(prompt_tokens):],
                "picks": list(model_picks)}

    def partial() -> dict:
        """The whole result so far, a fresh object each time (progress reports are never changed afterwards)."""
        return {
            "prompt": {"text": params["prompt"], "tokens": prompt_tokens, "unknown": unknown,
                       "spaces": spaces_before(prompt_tokens)},
            "decoding": params["decoding"],
            "temperature": params["temperature"] if sampled else None,
            "n_tokens": n_tokens,
            "top_k": TOP,
            "vocab_size": len(corpus.tokenizer),
            "held_out_tokens": len(corpus.held_out_ids),
            "models": {kind: {**about[kind], **continuation(picks[kind])} for kind in MODELS},
        }

    for step in range(1, n_tokens + 1):
        for kind in MODELS:
            chosen, pick = next_pick(models[kind], ids[kind], temperature, generators[kind])
            ids[kind].append(chosen)
            picks[kind].append(pick)
        progress(2 * TRAINING_SHARE + (1 - 2 * TRAINING_SHARE) * step / n_tokens,
                 f"generating token {step}/{n_tokens}", partial())

    result = partial()
    for kind in MODELS:
        generated = ids[kind][len(prompt_ids):]
        model = result["models"][kind]
        model["text"] = join(prompt_tokens + model["tokens"])
        model["copied"] = longest_copy(generated, corpus.train_ids)
        model["mean_chosen_probability"] = sum(p["probability"] for p in picks[kind]) / n_tokens
    unknown_words = [word for word, unk in zip(words, unknown) if unk]
    return {**result, "unknown_words": unknown_words, "summary": summarize(result, unknown_words)}


def winner(result: dict) -> str:
    """"transformer", "lstm" or "tie", by held-out loss (lower is better)."""
    return best_of({kind: result["models"][kind]["held_out_loss"] for kind in MODELS}, CLEAR_GAP,
                   higher_is_better=False)


def summarize(result: dict, unknown_words: list[str]) -> str:
    models = result["models"]
    transformer, lstm = models["transformer"], models["lstm"]
    best = winner(result)
    verdict = (f"within {math.expm1(CLEAR_GAP):.0%}: too close to call" if best == "tie"
               else f"so the {LABELS[best]} did better")
    text = (f"Held-out perplexity after {transformer['train_steps']} training steps each: "
            f"Transformer {transformer['held_out_perplexity']:.0f}, LSTM {lstm['held_out_perplexity']:.0f}; "
            f"lower is better, {verdict}.")
    for model in (transformer, lstm):
        if math.log(model["held_out_perplexity"] / model["best"]["perplexity"]) >= CLEAR_GAP:
            text += (f" The {model['label']}'s was {model['best']['perplexity']:.0f} at step {model['best']['step']}, "
                     "then rose: overfitting.")
    text += (f" Longest run copied from the training text: {count(transformer['copied']['length'], 'token')} "
             f"(Transformer), {lstm['copied']['length']} (LSTM).")
    return text + unknown_words_note(unknown_words)


def count(n: int, noun: str) -> str:
    return f"{n} {noun}{'' if n == 1 else 's'}"


def percent(probability: float) -> str:
    """A probability with the digits it needs not to read as 0%."""
    digits = 0 if probability >= 0.01 else 1 if probability >= 0.001 else 2
    return f"{probability:.{digits}%}"


def headline(result: dict) -> dict:
    """For the recap: which model had the lower held-out perplexity."""
    transformer, lstm = result["models"]["transformer"], result["models"]["lstm"]
    return recap_row("Held-out perplexity (lower is better)", winner(result),
                     f"Transformer {transformer['held_out_perplexity']:.0f}, LSTM {lstm['held_out_perplexity']:.0f} "
                     f"after {lstm['train_steps']} steps each")


def format_text(result: dict) -> str:
    """Both continuations, then every step's top candidates, as the seed deck's console printed it."""
    prompt = join(result["prompt"]["tokens"])
    how = ("greedy: the most probable token each time" if result["decoding"] == "greedy"
           else f"sampled at temperature {result['temperature']:g}")
    lines = [f"Prompt: {prompt}", f"{count(result['n_tokens'], 'token')}, {how}", ""]
    for kind in MODELS:
        model = result["models"][kind]
        lines += [f"{model['label']} ({model['parameters']:,} parameters, {model['train_steps']} steps): "
                  f"held-out perplexity {model['held_out_perplexity']:.1f}",
                  f"  {model['text']}",
                  f"  (mean probability of the tokens taken {percent(model['mean_chosen_probability'])}; "
                  f"longest run copied from the training text {count(model['copied']['length'], 'token')})", ""]
    width = max(len(label) for label in LABELS.values()) + 1
    lines.append(f"Step by step: the top {result['top_k']} next tokens, * the one taken")
    for step in range(result["n_tokens"]):
        for kind in MODELS:
            pick = result["models"][kind]["picks"][step]
            top = "  ".join(f"{'*' if c['token'] == pick['token'] else ' '}{c['token']} {percent(c['probability'])}"
                            for c in pick["top"])
            if pick["rank"] > result["top_k"]:
                top += f"   (took {pick['token']} {percent(pick['probability'])}, rank {pick['rank']})"
            lines.append(f"{step + 1 if kind == MODELS[0] else '':>4}  {LABELS[kind] + ':':<{width}} {top}")
    lines += ["", result["summary"]]
    return "\n".join(lines)
