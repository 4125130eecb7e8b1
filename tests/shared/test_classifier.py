"""Training and scoring a classifier on a task: batches drawn per seed and shared by the contenders,
fingerprints of every training input, and test examples that never were training inputs."""
import pytest
import torch

from demos.core.tasks import EVAL, TRAIN, FirstLetter, data_generator
from demos.shared.classifier import TaskBatches, fingerprints, fresh_examples
from tests.task_runs import CPU, task_run


def test_test_examples_never_were_training_inputs():
    task = FirstLetter(2)  # only 676 strings: the training batches surely hold some of any test draw
    batches = TaskBatches(task, 64, 7, CPU)
    training = batches.draw(10)[0].view(-1, 3)
    inputs, targets = fresh_examples(task, 100, 7, batches.seen())
    assert len(inputs) == 100 and torch.equal(targets, inputs[:, 0])
    trained = {tuple(row) for row in training.tolist()}
    assert not trained & {tuple(row) for row in inputs.tolist()}
    overlap = fresh_examples(task, 100, 7)[0]  # without the check, the same draw would repeat training strings
    assert trained & {tuple(row) for row in overlap.tolist()}


def test_a_task_with_too_few_unseen_inputs_is_refused_not_looped_on():
    task = FirstLetter(1)
    everything = torch.cat([torch.arange(26).unsqueeze(1), torch.full((26, 1), task.query)], dim=1)
    with pytest.raises(ValueError, match="too few distinct inputs"):
        fresh_examples(task, 10, 0, fingerprints(everything))


def test_fingerprints_are_equal_for_equal_rows_and_differ_otherwise():
    rows = torch.randint(0, 30, (2000, 20), generator=data_generator(0, EVAL))
    prints = fingerprints(rows)
    assert torch.equal(prints, fingerprints(rows.clone()))
    assert len(set(prints.tolist())) == len({tuple(r) for r in rows.tolist()})
    assert data_generator(0, TRAIN).initial_seed() != data_generator(0, EVAL).initial_seed()


def test_contenders_with_one_seed_train_on_the_very_same_batches():
    """What the fairness promise rests on: the batches depend on the task and the seed, never on the model."""
    drawn = {name: task_run(5, name).batches.draw(3) for name in ("lstm-tuned", "lstm", "transformer")}
    first = drawn["lstm-tuned"]
    assert all(torch.equal(first[0], other[0]) and torch.equal(first[1], other[1]) for other in drawn.values())


def test_batches_come_in_chunks_shaped_steps_by_batch():
    inputs, targets = TaskBatches(FirstLetter(6), 16, 0, CPU).draw(7)
    assert inputs.shape == (7, 16, 7) and targets.shape == (7, 16)
    assert torch.equal(targets, inputs[:, :, 0])


def test_models_sharing_draws_see_the_stream_one_model_alone_sees_whoever_draws_each_chunk():
    """Models trained together on one task and seed share their batches (`Draws`). Whichever of them
    asks for a chunk first, chunk i must be the i-th chunk of the seed's one stream: not the first
    chunk again because the model that drew it had drawn nothing before (a model that stopped early,
    or a thread that ran ahead, once decided which data the others trained on)."""
    from demos.shared.classifier import Draws

    task = FirstLetter(5)
    alone = TaskBatches(task, 4, 0, CPU)
    stream = [alone.draw(3)[0] for _ in range(3)]
    draws = Draws()
    first, second = TaskBatches(task, 4, 0, CPU, draws), TaskBatches(task, 4, 0, CPU, draws)
    assert torch.equal(first.draw(3)[0], stream[0]) and torch.equal(second.draw(3)[0], stream[0])
    assert torch.equal(second.draw(3)[0], stream[1]), "the second model ran ahead and drew chunk 1"
    assert torch.equal(first.draw(3)[0], stream[1]) and torch.equal(first.draw(3)[0], stream[2])
    assert torch.equal(first.seen(), alone.seen())
