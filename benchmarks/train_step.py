"""Time per training step: the project's training core against a bare loop of the same model.

    python -m benchmarks.train_step [--device cpu|cuda] [--steps 300]

The model is the Index Lookup classifier the issue measured (tuned LSTM, width 128, N = 100,
batch 64), and a one-layer Transformer of the same width. Three ways to train it:
  core   `demos.core.training.train`: batches drawn on the device a chunk at a time, losses read
         every 25 steps, fused Adam and one CUDA graph per step on a GPU;
  bare   the same model, loss and Adam in a plain loop, batches drawn on the device beforehand,
         the loss read once at the end: the least any loop can do in eager mode;
  graph  (CUDA only) the bare step captured once as a CUDA graph and replayed.
It prints the median of several timed runs of each, and the ratios the targets are about:
core / bare (at most 1.2) and, on CUDA, core / graph (at most 1.5).
"""
import argparse
import statistics
import time

import torch
from torch import nn

from demos.core.models import build_model
from demos.core.tasks import TRAIN, IndexLookup, data_generator
from demos.core.training import TrainConfig, classification_loss, make_optimizer, train
from demos.runtime.device import pick_device, synchronize, use_fast_math
from demos.shared.classifier import TaskBatches, classifier_config

WIDTH, LENGTH, BATCH = 128, 100, 64


def model_for(name: str, device: torch.device) -> nn.Module:
    torch.manual_seed(0)
    return build_model(classifier_config(name, IndexLookup(LENGTH), WIDTH)).to(device)


def time_core(name: str, steps: int, device: torch.device) -> float:
    model = model_for(name, device)
    batches = TaskBatches(IndexLookup(LENGTH), BATCH, 0, device)
    synchronize(device)
    started = time.perf_counter()
    train(model, batches, classification_loss, TrainConfig(steps=steps, lr=1e-2))
    synchronize(device)
    return (time.perf_counter() - started) / steps


def bare_batches(steps: int, device: torch.device) -> tuple[torch.Tensor, torch.Tensor]:
    inputs, targets = IndexLookup(LENGTH).sample(steps * BATCH, data_generator(0, TRAIN, device))
    return inputs.view(steps, BATCH, -1), targets.view(steps, BATCH)


def time_bare(name: str, steps: int, device: torch.device) -> float:
    model = model_for(name, device)
    optimizer = make_optimizer(model, TrainConfig(lr=1e-2), capturable=device.type == "cuda")
    inputs, targets = bare_batches(steps, device)
    losses = torch.zeros(steps, device=device)
    synchronize(device)
    started = time.perf_counter()
    for step in range(steps):
        optimizer.zero_grad(set_to_none=True)
        loss = classification_loss(model, (inputs[step], targets[step]))
        loss.backward()
        nn.utils.clip_grad_norm_(model.parameters(), 1.0)
        optimizer.step()
        losses[step] = loss.detach()
    losses.tolist()
    synchronize(device)
    return (time.perf_counter() - started) / steps


def time_graph(name: str, steps: int, device: torch.device) -> float:
    """The bare step as one CUDA graph, replayed (the PyTorch documentation's whole-network capture)."""
    model = model_for(name, device)
    optimizer = make_optimizer(model, TrainConfig(lr=1e-2), capturable=device.type == "cuda")
    inputs, targets = bare_batches(steps + 3, device)
    static_x, static_y = inputs[0].clone(), targets[0].clone()

    def step():
        loss = classification_loss(model, (static_x, static_y))
        loss.backward()
        nn.utils.clip_grad_norm_(model.parameters(), 1.0)
        optimizer.step()
        return loss.detach()

    side = torch.cuda.Stream()
    side.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(side):
        for _ in range(3):  # warm up before capture
            optimizer.zero_grad(set_to_none=True)
            step()
    torch.cuda.current_stream().wait_stream(side)
    optimizer.zero_grad(set_to_none=True)
    graph = torch.cuda.CUDAGraph()
    with torch.cuda.graph(graph):
        static_loss = step()
    losses = torch.zeros(steps, device=device)
    synchronize(device)
    started = time.perf_counter()
    for i in range(steps):
        static_x.copy_(inputs[i + 3])
        static_y.copy_(targets[i + 3])
        graph.replay()
        losses[i] = static_loss
    losses.tolist()
    synchronize(device)
    return (time.perf_counter() - started) / steps


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--device", default="auto")
    parser.add_argument("--steps", type=int, default=300)
    parser.add_argument("--repeats", type=int, default=5)
    args = parser.parse_args()
    device = pick_device(args.device)
    use_fast_math(device)
    if device.type == "cpu":
        torch.set_num_threads(1)  # as the engine trains: one thread per model
    ways = {"core": time_core, "bare": time_bare}
    if device.type == "cuda":
        ways["graph"] = time_graph
    print(f"Index Lookup classifier, width {WIDTH}, N = {LENGTH}, batch {BATCH}, {args.steps} steps, "
          f"median of {args.repeats} runs, on {device}")
    for name in ("lstm-tuned", "transformer"):
        for way in ways.values():
            way(name, 20, device)  # warm-up: kernels, plans, allocations
        medians = {label: statistics.median(way(name, args.steps, device) for _ in range(args.repeats)) * 1000
                   for label, way in ways.items()}
        line = f"{name:<12} " + "  ".join(f"{label} {ms:7.3f} ms/step" for label, ms in medians.items())
        line += f"   core/bare {medians['core'] / medians['bare']:.2f}x"
        if "graph" in medians:
            line += f"   core/graph {medians['core'] / medians['graph']:.2f}x"
        print(line)


if __name__ == "__main__":
    main()
