"""Training on a GPU without waiting on the host: each run on its own CUDA stream, and its whole step
(forward, backward, clipping, Adam) captured once as a CUDA graph and replayed, which saves the launch
of every small kernel. The step itself is `training.Stepper`'s; only how it is launched differs. A
model that cannot be captured trains step by step instead. Only a GPU runs this file: its tests are
`tests/gpu/` (`pytest -m gpu`)."""
import logging

import torch

from demos.core.training import Run, Stepper
from demos.runtime.progress import check_stop

log = logging.getLogger(__name__)


class GraphStepper(Stepper):
    """A Stepper on its own CUDA stream that, after a few eager steps, replays its step as a CUDA graph."""

    WARMUP_STEPS = 3  # eager steps before capture: allocations, cuDNN plans and Adam's state settle

    def __init__(self, run: Run, graphs: bool):
        super().__init__(run, capturable=True)
        self.graph: torch.cuda.CUDAGraph | None = None
        self.want_graph = graphs
        self.stream = torch.cuda.Stream(self.device)

    def capture(self) -> None:
        """Record one whole step as a CUDA graph on static input buffers; replaying it is the step."""
        self.static_batch = tuple(part.clone() for part in self.batch())
        self.optimizer.zero_grad(set_to_none=True)
        self.graph = torch.cuda.CUDAGraph()
        with torch.cuda.graph(self.graph, stream=self.stream):
            self.static_loss = self.train_step(self.static_batch)

    def advance(self) -> None:
        """One step of training, on this run's stream."""
        with torch.cuda.stream(self.stream):
            if self.graph is None and self.want_graph and self.step >= self.WARMUP_STEPS:
                try:
                    self.capture()
                except Exception as error:  # some models or ops cannot be captured: train them eagerly
                    log.warning("training %s eagerly: its step could not be captured as a CUDA graph (%s)",
                                type(self.run.model).__name__, error)
                    self.graph, self.want_graph = None, False
                    torch.cuda.synchronize(self.device)
            if self.graph is None:
                self.eager_step()
                return
            for static, part in zip(self.static_batch, self.batch()):
                static.copy_(part, non_blocking=True)
            self.schedule()
            self.graph.replay()
            self.loss_log[self.step].copy_(self.static_loss)
            self.step += 1
            self.run.captured = True


def train_on_gpu(runs: list[Run], graphs: bool = True) -> None:
    """Advance every run in lockstep, each on its own stream, reading the losses only when a report is due."""
    steppers = [GraphStepper(run, graphs) for run in runs]
    for stepper in steppers:
        stepper.stream.wait_stream(torch.cuda.current_stream(stepper.device))
    active = list(steppers)
    while active:
        check_stop()  # cancelled? (asked at every step, without waiting for the GPU)
        for stepper in active:
            stepper.advance()
        if any(s.report_due for s in active):
            for stepper in active:
                torch.cuda.current_stream(stepper.device).wait_stream(stepper.stream)
            active = [s for s in active if not (s.report_due and s.report())]
    torch.cuda.synchronize()
