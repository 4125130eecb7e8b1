"""A small Index Lookup training run on the CPU, for the tests of the training loop and the classifier."""
import torch

from demos.core.tasks import IndexLookup
from demos.core.training import Run, TrainConfig, classification_loss
from demos.shared.classifier import Entry, TaskBatches, build, classifier_config

CPU = torch.device("cpu")


def task_run(seed: int, name: str = "lstm-tuned", steps: int = 40) -> Run:
    task = IndexLookup(8)
    entry = Entry((name, seed), classifier_config(name, task, 8), task, TrainConfig(steps=steps, chunk=16), seed)
    return Run(build(entry, CPU), TaskBatches(task, 16, seed, CPU), classification_loss, entry.train_cfg)
