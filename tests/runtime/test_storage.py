"""The model store: a model trained once is reused from memory, from disk after a restart,
and trained again if its file is damaged."""
import torch

from demos.core.models import ModelConfig, build_model, count_parameters
from demos.runtime.storage import ModelStore, current_store, using_store

CPU = torch.device("cpu")
CONFIG = ModelConfig(kind="lstm", vocab_size=5, n_out=5, width=8)


def trainer(calls):
    def train():
        calls.append(1)
        torch.manual_seed(len(calls))
        return build_model(CONFIG), {"loss": 1.5}
    return train


def test_a_model_is_trained_once_then_reused(tmp_path):
    calls = []
    store = ModelStore(tmp_path)
    first, info, trained = store.load_or_train("tiny", {"steps": 3}, trainer(calls), "demos.core.models", CPU)
    again, info_again, trained_again = store.load_or_train("tiny", {"steps": 3}, trainer(calls), "demos.core.models", CPU)
    assert trained and not trained_again and again is first and info_again == info == {"loss": 1.5}
    other, _, trained_other = store.load_or_train("tiny", {"steps": 4}, trainer(calls), "demos.core.models", CPU)
    assert trained_other and len(calls) == 2


def test_a_new_store_on_the_same_folder_loads_the_weights_from_disk(tmp_path):
    calls = []
    model, _, _ = ModelStore(tmp_path).load_or_train("tiny", {}, trainer(calls), "demos.core.models", CPU)
    loaded, info, trained = ModelStore(tmp_path).load_or_train("tiny", {}, trainer(calls), "demos.core.models", CPU)
    assert not trained and len(calls) == 1 and info == {"loss": 1.5}
    assert loaded is not model and count_parameters(loaded) == count_parameters(model)
    for (name, a), (_, b) in zip(model.state_dict().items(), loaded.state_dict().items()):
        assert torch.equal(a, b), name


def test_a_damaged_model_file_is_trained_again(tmp_path, caplog):
    calls = []
    ModelStore(tmp_path).load_or_train("tiny", {}, trainer(calls), "demos.core.models", CPU)
    (path,) = (tmp_path / "models").glob("*.pt")
    path.write_bytes(path.read_bytes()[:100])
    _, _, trained = ModelStore(tmp_path).load_or_train("tiny", {}, trainer(calls), "demos.core.models", CPU)
    assert trained and len(calls) == 2 and "unreadable model file" in caplog.text


def test_runs_outside_the_engine_use_a_memory_store(tmp_path):
    assert current_store().directory is None
    store = ModelStore(tmp_path)
    with using_store(store):
        assert current_store() is store
    assert current_store() is not store


def test_the_store_says_whether_it_has_a_model_without_loading_it(tmp_path):
    store = ModelStore(tmp_path)
    assert not store.has("tiny", {}, "demos.core.models")
    store.load_or_train("tiny", {}, trainer([]), "demos.core.models", CPU)
    assert store.has("tiny", {}, "demos.core.models") and ModelStore(tmp_path).has("tiny", {}, "demos.core.models")
    assert not store.has("tiny", {"steps": 9}, "demos.core.models")
