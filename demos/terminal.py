"""A progress bar for terminals, used by `python -m demos` and `flask warm`."""
import shutil
import sys
import time


class ProgressBar:
    """One line on stderr, redrawn at most ten times a second:
    [#########---------------------]  30%  step 90/300, loss 1.92"""

    WIDTH = 30
    INTERVAL = 0.1  # seconds between redraws

    def __init__(self, label: str = "", stream=sys.stderr):
        self.label = label
        self.stream = stream
        self.last_draw = 0.0

    def __call__(self, fraction: float, message: str, data=None) -> None:
        now = time.monotonic()
        if now - self.last_draw < self.INTERVAL and fraction < 1:
            return
        self.last_draw = now
        fraction = max(0.0, min(1.0, fraction))
        filled = round(self.WIDTH * fraction)
        columns = shutil.get_terminal_size((100, 20)).columns
        line = f"{self.label}[{'#' * filled}{'-' * (self.WIDTH - filled)}] {fraction:4.0%}  {message}"
        self.stream.write("\r" + line[: columns - 1].ljust(columns - 1))
        self.stream.flush()

    def close(self) -> None:
        if self.last_draw:
            self.stream.write("\n")
            self.stream.flush()
