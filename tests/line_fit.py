"""A tiny demo for testing the engine: fit a line to noisy points with the shared training loop.

Only the tests register it (tests/fixture_app.py): it is on no slide, in no list of demos and
never warmed. It exercises everything a real demo does (parameters, seeding,
the training loop, progress with a partial chart, a JSON result) in a fraction of a second.
"""
import torch
from torch import nn

from demos.core.training import SameBatch, TrainConfig, thinned, train
from demos.runtime.params import Param, seed_param

ID = "line_fit"
TITLE = "Fit a line (engine self-test)"
PARAMS = [
    seed_param(),
    Param("steps", "int", 300, "Training steps", 1, 5000),
    Param("lr", "float", 0.05, "Learning rate", 1e-4, 1.0),
    Param("noise", "float", 0.3, "Standard deviation of the noise added to the points", 0.0, 2.0),
    Param("points", "int", 256, "Number of points", 8, 4096),
]
TINY = {"steps": 20}
TRUE_SLOPE, TRUE_INTERCEPT = 3.0, -1.0
CURVE_POINTS = 100  # the loss curve is thinned to about this many points


def work(params: dict) -> float:
    """How the run's cost grows with its settings (the engine's time estimates scale by it)."""
    return params["steps"] * params["points"]


def run(params: dict, progress, device: torch.device) -> dict:
    x = torch.rand(params["points"], 1, device=device) * 2 - 1
    y = TRUE_SLOPE * x + TRUE_INTERCEPT + params["noise"] * torch.randn_like(x)
    model = nn.Linear(1, 1).to(device)
    steps = params["steps"]

    def report(step: int, losses: list[float]) -> None:
        progress(step / steps, f"step {step}/{steps}, loss {losses[-1]:.4f}", {"loss_curve": thinned(losses, CURVE_POINTS)})

    losses = train(model, SameBatch(x, y), lambda m, batch: nn.functional.mse_loss(m(batch[0]), batch[1]),
                   TrainConfig(steps=steps, lr=params["lr"], grad_clip=None, report_every=max(1, steps // 50)), report)
    curve = thinned(losses, CURVE_POINTS)
    slope, intercept = model.weight.item(), model.bias.item()
    return {
        "slope": slope,
        "intercept": intercept,
        "true_slope": TRUE_SLOPE,
        "true_intercept": TRUE_INTERCEPT,
        "final_loss": losses[-1],
        "loss_curve": curve,
        "summary": f"After {steps} steps the fitted line is y = {slope:.3f}·x {intercept:+.3f} "
                   f"(the points were made from y = {TRUE_SLOPE:g}·x {TRUE_INTERCEPT:+g}); final loss {losses[-1]:.4f}.",
    }


def format_text(result: dict) -> str:
    return result["summary"]
