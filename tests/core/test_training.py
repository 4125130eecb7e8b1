"""The one training loop: it lowers the loss, repeats under a seed (the same batches, the same
losses), stops when told to, and trains independent models side by side with the same results as
one after another. (That a model is never tested on an input it trained on is tests/shared/test_classifier.py's.)"""
import torch
from torch import nn

from demos.core.training import (
    EarlyStop,
    Run,
    SameBatch,
    TrainConfig,
    seed_everything,
    thinned,
    train,
    train_together,
)
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
    from demos.core.training import learning_rate
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
    from demos.core.training import Stepper
    stepper = Stepper(run, graphs=False)
    for _ in range(20):
        stepper.advance()
        seen.append(float(stepper.optimizer.param_groups[0]["lr"]))
    assert abs(seen[0] - 0.1) < 1e-6 and seen[-1] < 0.002 and seen == sorted(seen, reverse=True)
