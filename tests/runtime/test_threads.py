"""Work spread over threads still hears the run's stop request (the training core's pool and the
language models' scoring share one helper)."""
import pytest
import torch

from demos.runtime.progress import check_stop, in_threads, stopping_with
from demos.shared.char_models import each_in_parallel


class Stopped(Exception):
    pass


def refuse():
    raise Stopped("cancelled")


def checked_square(n: int) -> int:
    check_stop()
    return n * n


def test_work_in_threads_keeps_its_order_and_hears_a_stop():
    assert in_threads(checked_square, [3, 1, 2], workers=2) == [9, 1, 4]
    with stopping_with(refuse), pytest.raises(Stopped):
        in_threads(checked_square, [1, 2, 3], workers=2)


def test_the_language_models_cpu_scoring_hears_a_stop_too():
    assert each_in_parallel(checked_square, [2, 3], torch.device("cpu")) == [4, 9]
    with stopping_with(refuse), pytest.raises(Stopped):
        each_in_parallel(checked_square, [2, 3], torch.device("cpu"))
