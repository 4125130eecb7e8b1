"""The one training loop: it lowers the loss, repeats under a seed (the same batches, the same
losses), gives every step the next batch, clips gradients, follows its learning-rate schedule, stops
when told to, and trains independent models side by side with the same results as one after another;
the two losses read what they should, and early stopping counts only real progress. (That a model is
never tested on an input it trained on is tests/shared/test_classifier.py's.)"""
import copy
import math
import random
import subprocess
import sys

import numpy as np
import pytest
import torch
from torch import nn

from demos.core.models import ModelConfig, build_model
from demos.core.training import (
    EarlyStop,
    Run,
    SameBatch,
    Stepper,
    TrainConfig,
    classification_loss,
    in_bfloat16,
    language_model_loss,
    learning_rate,
    make_optimizer,
    scheduled,
    seed_everything,
    thinned,
    train,
    train_together,
)
from tests.live_server import ROOT
from tests.task_runs import task_run

def fit_line(steps: int, on_report=None, report_every: int = 25) -> tuple[nn.Module, list[float]]:
    seed_everything(0)
    model = nn.Linear(1, 1)
    x = torch.linspace(-1, 1, 64).unsqueeze(1)
    losses = train(model, SameBatch(x, 3 * x - 1), lambda m, batch: nn.functional.mse_loss(m(batch[0]), batch[1]),
                   TrainConfig(steps=steps, lr=0.1, grad_clip=None, report_every=report_every), on_report)
    return model, losses


def test_training_lowers_the_loss_and_repeats_under_a_seed():
    model, losses = fit_line(200)
    assert len(losses) == 200 and losses[-1] < 0.01 * losses[0]
    assert abs(model.weight.item() - 3) < 0.05 and abs(model.bias.item() + 1) < 0.05
    assert fit_line(200)[1] == losses


def test_the_loss_is_read_every_few_steps_and_a_report_can_stop_training():
    seen = []

    def on_report(step, losses):
        seen.append((step, len(losses)))
        return step == 30

    _, losses = fit_line(200, on_report, report_every=10)
    assert seen == [(10, 10), (20, 20), (30, 30)] and len(losses) == 30


def test_the_same_seed_draws_the_same_batches_and_gives_the_same_losses():
    first, again, other = task_run(3), task_run(3), task_run(4)
    assert torch.equal(first.batches.draw(5)[0], again.batches.draw(5)[0])
    assert not torch.equal(task_run(3).batches.draw(5)[0], other.batches.draw(5)[0])
    a, b = train_together([task_run(3)])[0].losses, train_together([task_run(3)])[0].losses
    assert a == b and len(a) == 40


def test_models_trained_side_by_side_end_as_if_trained_one_after_another():
    alone = [train_together([task_run(seed, name)], cpu_workers=1)[0] for seed in (0, 1) for name in ("lstm-tuned", "transformer")]
    together = train_together([task_run(seed, name) for seed in (0, 1) for name in ("lstm-tuned", "transformer")],
                              cpu_workers=2)
    for one, other in zip(alone, together):
        assert one.losses == other.losses
        for p, q in zip(one.model.parameters(), other.model.parameters()):
            assert torch.equal(p, q)






def test_training_rounds_numbers_below_float32s_normal_range_to_zero_on_every_training_thread():
    # An LSTM at a high learning rate fills its gradients with such numbers, and a CPU computes them
    # several times slower (the sweep's largest LSTM at 0.03: 150 s for 250 steps instead of 24).
    seen = []

    def loss(model, batch):
        seen.append((torch.tensor([1e-39]) * 1.0).item())  # below float32's smallest normal number, 1.2e-38
        return classification_loss(model, batch)

    runs = [task_run(seed, "lstm-tuned") for seed in (0, 1, 2)]
    for run in runs:
        run.loss_fn, run.cfg.steps = loss, 2
    train_together(runs[:1], cpu_workers=1)  # on this thread
    train_together(runs[1:], cpu_workers=2)  # on threads of their own
    assert seen == [0.0] * 6
    assert (torch.tensor([1e-39]) * 1.0).item() > 0, "after training, this thread computes as it did"


def test_early_stop_when_solved_or_when_the_loss_stops_falling():
    solved = EarlyStop(solved=0.1, window=5)
    assert not solved(5, [1.0] * 5) and solved(10, [1.0] * 5 + [0.01] * 5)
    stalled = EarlyStop(patience=50, window=5)
    flat = [2.0] * 200
    assert [step for step in range(25, 201, 25) if stalled(step, flat[:step])][0] == 75
    falling = EarlyStop(patience=50, window=5)
    assert not any(falling(step, [1 / s for s in range(1, step + 1)]) for step in range(25, 201, 25))


def test_a_loss_curve_keeps_about_the_points_asked_for_and_always_the_last():
    assert [step for step, _ in thinned([1.0] * 1000, points=10)] == list(range(100, 1001, 100))
    assert [step for step, _ in thinned([1.0] * 25, points=10)] == [2, 4, 6, 8, 10, 12, 14, 16, 18, 20, 22, 24, 25]


def test_learning_rate_schedules_warm_up_then_keep_cool_down_or_decay():
    cooldown = TrainConfig(steps=100, lr=1.0, warmup=10, schedule="cooldown", cooldown=0.2)
    rates = [learning_rate(cooldown, step) for step in range(100)]
    assert rates[0] == 0.1 and rates[9] == 1.0  # warm-up
    assert all(rate == 1.0 for rate in rates[10:80])  # constant
    assert all(a > b for a, b in zip(rates[80:], rates[81:])) and rates[99] < 0.1  # linearly down
    cosine = TrainConfig(steps=100, lr=1.0, schedule="cosine")
    decayed = [learning_rate(cosine, step) for step in range(100)]
    assert decayed[0] == 1.0 and abs(decayed[50] - 0.5) < 1e-9 and decayed[99] < 0.001
    assert all(a >= b for a, b in zip(decayed, decayed[1:]))


def test_a_scheduled_rate_reaches_the_optimiser():
    seen = []
    model = nn.Linear(1, 1)
    x = torch.linspace(-1, 1, 8).unsqueeze(1)
    cfg = TrainConfig(steps=20, lr=0.1, schedule="cosine", report_every=1)
    run = Run(model, SameBatch(x, x), lambda m, batch: nn.functional.mse_loss(m(batch[0]), batch[1]), cfg)
    stepper = Stepper(run)
    for _ in range(20):
        stepper.advance()
        seen.append(float(stepper.optimizer.param_groups[0]["lr"]))
    assert abs(seen[0] - 0.1) < 1e-6 and seen[-1] < 0.002 and seen == sorted(seen, reverse=True)


def squared_error(model: nn.Module, batch: tuple) -> torch.Tensor:
    return nn.functional.mse_loss(model(batch[0]), batch[1])


class Numbered:
    """Batches that say which step they were drawn for, and a record of how many were drawn at once."""

    def __init__(self):
        self.drawn, self.next = [], 0

    def draw(self, steps: int) -> tuple[torch.Tensor, ...]:
        self.drawn.append(steps)
        numbers = torch.arange(self.next, self.next + steps, dtype=torch.float32).view(steps, 1, 1)
        self.next += steps
        return numbers, torch.zeros(steps, 1, 1)


def test_every_step_gets_the_next_batch_drawn_a_chunk_at_a_time():
    batches, seen = Numbered(), []

    def loss_fn(model, batch):
        seen.append(int(batch[0].item()))
        return squared_error(model, batch)

    losses = train(nn.Linear(1, 1), batches, loss_fn, TrainConfig(steps=250, chunk=100, lr=1e-3))
    assert batches.drawn == [100, 100, 50] and seen == list(range(250)) and len(losses) == 250
    assert SameBatch(torch.ones(3, 2)).draw(5)[0].shape == (5, 3, 2)


def gradient_norms(grad_clip: float | None) -> list[float]:
    """The gradient norm the optimiser sees at each step of fitting a steep line (gradients far above 1)."""
    torch.manual_seed(0)
    x = torch.linspace(-1, 1, 16).unsqueeze(1)
    run = Run(nn.Linear(1, 1), SameBatch(x, 50 * x), squared_error, TrainConfig(steps=5, grad_clip=grad_clip))
    stepper, norms = Stepper(run), []

    def record_norm(optimizer, args, kwargs):
        norms.append(torch.cat([p.grad.flatten() for p in run.model.parameters()]).norm().item())

    stepper.optimizer.register_step_pre_hook(record_norm)
    for _ in range(5):
        stepper.advance()
    return norms


def test_gradients_are_clipped_to_the_largest_norm_before_the_update():
    assert all(norm == pytest.approx(0.5) for norm in gradient_norms(0.5))
    assert all(norm > 10 for norm in gradient_norms(None))


def test_a_warm_up_reaches_the_optimiser_then_the_rate_stays_constant():
    x = torch.linspace(-1, 1, 8).unsqueeze(1)
    run = Run(nn.Linear(1, 1), SameBatch(x, x), squared_error, TrainConfig(steps=8, lr=0.1, warmup=4))
    stepper, seen = Stepper(run), []
    for _ in range(8):
        stepper.advance()
        seen.append(float(stepper.optimizer.param_groups[0]["lr"]))
    assert seen == pytest.approx([0.025, 0.05, 0.075, 0.1, 0.1, 0.1, 0.1, 0.1])
    assert not scheduled(TrainConfig()) and scheduled(TrainConfig(warmup=1))
    assert scheduled(TrainConfig(schedule="cooldown"))
    with pytest.raises(AssertionError, match="unknown schedule"):
        scheduled(TrainConfig(schedule="linear"))


def test_a_cosine_after_a_warm_up_starts_at_the_full_rate_and_ends_near_zero():
    cfg = TrainConfig(steps=110, lr=2.0, warmup=10, schedule="cosine")
    rates = [learning_rate(cfg, step) for step in range(110)]
    assert rates[:10] == pytest.approx([0.2 * (i + 1) for i in range(10)])
    assert rates[10] == 2.0 and rates[60] == pytest.approx(1.0) and rates[109] < 0.01
    assert learning_rate(cfg, 150) == 0.0  # past its budget it stays at zero, not up again
    assert learning_rate(TrainConfig(lr=0.5), 1000) == 0.5
    cooldown = TrainConfig(steps=10, lr=1.0, schedule="cooldown", cooldown=0.5)
    assert [learning_rate(cooldown, step) for step in range(10)] == pytest.approx([1] * 6 + [0.8, 0.6, 0.4, 0.2])


def test_weight_decay_pulls_the_weights_towards_zero():
    def no_loss(model, batch):
        return (model(batch[0]) * 0).sum()

    def weight_after(weight_decay: float) -> float:
        torch.manual_seed(0)
        model = nn.Linear(1, 1, bias=False)
        with torch.no_grad():
            model.weight.fill_(1.0)
        train(model, SameBatch(torch.ones(4, 1)), no_loss, TrainConfig(steps=10, lr=0.01, weight_decay=weight_decay))
        return model.weight.item()

    assert weight_after(0.0) == 1.0 and weight_after(0.1) < 0.95


def test_a_seed_repeats_every_random_source():
    def draws():
        return random.random(), float(np.random.rand()), torch.rand(1).item()

    seed_everything(7)
    first = draws()
    seed_everything(7)
    assert draws() == first
    others = []
    for seed in range(8, 16):
        seed_everything(seed)
        others.append(draws())
    assert all(len({draw[source] for draw in others + [first]}) == 9 for source in range(3))  # 9 seeds, 9 draws each


def test_trained_models_are_left_ready_to_evaluate_each_at_its_own_budget():
    x = torch.linspace(-1, 1, 8).unsqueeze(1)
    runs = [Run(nn.Sequential(nn.Linear(1, 4), nn.Dropout(0.5), nn.Linear(4, 1)), SameBatch(x, x), squared_error,
                TrainConfig(steps=steps, report_every=7)) for steps in (10, 30)]
    train_together(runs, cpu_workers=2)
    assert [len(run.losses) for run in runs] == [10, 30] and not any(run.model.training for run in runs)
    assert train_together([]) == []


class NextToken(nn.Module):
    """A stand-in model that knows one rule for sure: after token t comes t + 1 (mod 5)."""

    def forward(self, idx):
        return 40 * nn.functional.one_hot((idx + 1) % 5, 5).float() - 20  # (B, T, 5)


def test_a_classifier_is_scored_on_its_answer_at_the_question_and_a_language_model_at_every_position():
    model, inputs = NextToken(), torch.tensor([[0, 1, 2], [3, 4, 0]])
    assert classification_loss(model, (inputs, torch.tensor([3, 1]))).item() < 1e-6  # what follows the last token
    assert classification_loss(model, (inputs, torch.tensor([2, 0]))).item() > 10  # what follows the one before
    assert language_model_loss(model, (inputs, (inputs + 1) % 5)).item() < 1e-6
    one_wrong = (inputs + 1) % 5
    one_wrong[1, 2] = 4
    assert language_model_loss(model, (inputs, one_wrong)).item() > 5  # one position in six wrong: 40 nats / 6
    unsure = language_model_loss(lambda idx: torch.zeros(*idx.shape, 5), (inputs, inputs))  # equal odds on 5 tokens
    assert unsure.item() == pytest.approx(math.log(5))


def test_early_stop_counts_only_real_progress_over_its_window():
    slow = EarlyStop(patience=50, min_gain=0.1, window=5)  # 10 % better, or it is not progress
    creeping = [1.0 * 0.99 ** s for s in range(200)]  # 1 % better every step: 22 % per 25 steps
    assert not any(slow(step, creeping[:step]) for step in range(25, 201, 25))
    crawling = [1.0 * 0.999 ** s for s in range(200)]  # 2.5 % per 25 steps: stalled
    slow = EarlyStop(patience=50, min_gain=0.1, window=5)
    assert [step for step in range(25, 201, 25) if slow(step, crawling[:step])][0] == 75
    windowed = EarlyStop(solved=0.5, window=4)
    assert not windowed(8, [0.0] * 4 + [1.0] * 4) and windowed(8, [1.0] * 4 + [0.0] * 4)
    assert not EarlyStop(solved=0.5, window=2)(2, [0.5, 0.5])  # solved means below
    assert EarlyStop(solved=0.5)(26, [100.0] + [0.0] * 25) and not EarlyStop(solved=0.5)(26, [100.0] * 2 + [0.0] * 24)
    flat = EarlyStop(patience=50, min_gain=0.0, window=5)  # even when any gain counts, none is none
    assert [step for step in range(25, 201, 25) if flat(step, [2.0] * step)][0] == 75


def test_a_loss_curve_of_any_length_is_drawn_with_about_a_hundred_points():
    assert len(thinned([1.0] * 1000)) == 100 and len(thinned([1.0] * 250)) == 125
    assert thinned([2.0, 1.0], points=100) == [[1, 2.0], [2, 1.0]]


def test_the_optimiser_updates_every_weight_exactly_as_torchs_adam_does():
    torch.manual_seed(0)
    ours = nn.Sequential(nn.Linear(4, 8), nn.Tanh(), nn.Linear(8, 1))
    theirs = copy.deepcopy(ours)
    start = copy.deepcopy(ours.state_dict())
    optimisers = [make_optimizer(ours, TrainConfig(lr=0.01, weight_decay=0.1)),
                  torch.optim.Adam(theirs.parameters(), lr=0.01, weight_decay=0.1, fused=True)]
    inputs = torch.randn(16, 4)
    for _ in range(3):
        for model, optimiser in zip((ours, theirs), optimisers):
            optimiser.zero_grad()
            model(inputs).pow(2).mean().backward()
            optimiser.step()
    for name, weights in ours.state_dict().items():
        assert not torch.equal(weights, start[name]), f"{name} never moved"
        assert torch.equal(weights, theirs.state_dict()[name]), f"{name} moved otherwise than under torch's Adam"


def test_training_in_a_fresh_process_never_imports_torchs_compiler():
    # torch.optim imports torch._dynamo (seconds of CPU) to mark its calls for a compiler nothing here uses.
    script = ("import sys, torch\n"
              "from torch import nn\n"
              "from demos.core.training import SameBatch, TrainConfig, train\n"
              "x = torch.linspace(-1, 1, 8).unsqueeze(1)\n"
              "train(nn.Linear(1, 1), SameBatch(x, 2 * x), lambda m, b: (m(b[0]) - b[1]).pow(2).mean(), TrainConfig(steps=3))\n"
              "print('torch._dynamo' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, cwd=ROOT, check=True)
    assert out.stdout.strip() == "False", out.stderr


def test_bfloat16_training_is_for_a_gpu_and_leaves_a_cpus_loss_exactly_as_it_was():
    torch.manual_seed(0)
    model = build_model(ModelConfig(kind="lstm", vocab_size=10, n_out=10, width=8, n_layers=1))
    tokens = torch.randint(10, (4, 9))
    batch = (tokens[:, :-1], tokens[:, 1:])
    assert torch.equal(in_bfloat16(language_model_loss)(model, batch), language_model_loss(model, batch))
