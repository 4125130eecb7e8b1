"""Trained models kept between runs, so a later request can use a model without training it again
(the attention slides analyse a new sentence with the language model trained once).

A model is saved as nanoGPT does, `{"model": state_dict, "config": asdict(cfg), "info": ...}`,
so it can be rebuilt from its file alone. Files are written atomically, and a file lock lets
one process train while the others wait for its file. The engine gives each run a store on
its cache folder; a run from the terminal gets one that keeps models in memory only.
"""
import hashlib
import io
import json
import logging
import os
import tempfile
import threading
from collections import OrderedDict
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import asdict
from pathlib import Path
from typing import Callable

import torch
from filelock import FileLock
from torch import nn

from demos.models import ModelConfig, build_model
from demos.versions import code_version

log = logging.getLogger(__name__)
MEMORY_MODELS = 8  # most recently used models kept loaded


def atomic_write_bytes(path: Path, data: bytes, durable: bool = True) -> None:
    """Write `data` to `path` so that no reader, and no crash, ever sees half of it.

    `durable` also waits until the bytes are on disk before the rename (results and models);
    passing notices that are soon out of date skip that wait.
    """
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
            if durable:
                f.flush()
                os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


class ModelStore:
    def __init__(self, directory: Path | None = None):
        self.directory = Path(directory) if directory else None
        self.memory: OrderedDict[str, tuple[nn.Module, dict]] = OrderedDict()
        self.lock = threading.Lock()

    def load_or_train(self, name: str, settings: dict, train: Callable[[], tuple[nn.Module, dict]],
                      code_module: str, device: torch.device) -> tuple[nn.Module, dict, bool]:
        """The model called `name` trained with `settings`: from memory, from disk, or trained now.

        `train()` returns (model, info); `info` is JSON-safe (losses, perplexity, seconds).
        `code_module` names the module whose code (and imports) decide how the model is
        trained, so a change there trains a new model. Returns (model, info, trained_now).
        """
        canonical = json.dumps({"name": name, "settings": settings, "code": code_version(code_module)}, sort_keys=True)
        key = hashlib.sha256(canonical.encode()).hexdigest()[:32]
        with self.lock:
            if key in self.memory:
                self.memory.move_to_end(key)
                model, info = self.memory[key]
                return model.to(device), info, False
        with self._file_lock(key):
            loaded = self._read(key, device)
            if loaded is not None:
                model, info = loaded
                trained = False
            else:
                model, info = train()
                trained = True
                self._write(key, model, info)
        with self.lock:
            self.memory[key] = (model, info)
            while len(self.memory) > MEMORY_MODELS:
                self.memory.popitem(last=False)
        return model, info, trained

    def path(self, key: str) -> Path:
        return self.directory / "models" / f"{key}.pt"

    @contextmanager
    def _file_lock(self, key: str):
        if self.directory is None:
            yield
            return
        try:
            (self.directory / "locks").mkdir(parents=True, exist_ok=True)
        except OSError:
            yield  # an unwritable folder: models stay in memory
            return
        with FileLock(self.directory / "locks" / f"model-{key}.lock"):
            yield

    def _read(self, key: str, device: torch.device) -> tuple[nn.Module, dict] | None:
        if self.directory is None or not self.path(key).exists():
            return None
        try:
            checkpoint = torch.load(self.path(key), map_location="cpu", weights_only=True)
            model = build_model(ModelConfig(**checkpoint["config"]))
            model.load_state_dict(checkpoint["model"])
            return model.to(device).eval(), json.loads(checkpoint["info"])
        except Exception as error:  # a damaged file is trained again, never served
            log.warning("removing unreadable model file %s: %s", self.path(key), error)
            self.path(key).unlink(missing_ok=True)
            return None

    def _write(self, key: str, model: nn.Module, info: dict) -> None:
        if self.directory is None:
            return
        buffer = io.BytesIO()
        state = {name: tensor.detach().cpu() for name, tensor in model.state_dict().items()}
        torch.save({"model": state, "config": asdict(model.cfg), "info": json.dumps(info)}, buffer)
        try:
            atomic_write_bytes(self.path(key), buffer.getvalue())
        except OSError as error:
            log.warning("cannot save model %s (%s): keeping it in memory only", self.path(key), error)


_current_store: ContextVar[ModelStore | None] = ContextVar("model_store", default=None)
_fallback_store = ModelStore()  # memory only: for terminal runs and tests without an engine


def current_store() -> ModelStore:
    """The store of the run in progress (set by the engine), else an in-memory one."""
    return _current_store.get() or _fallback_store


@contextmanager
def using_store(store: ModelStore):
    token = _current_store.set(store)
    try:
        yield store
    finally:
        _current_store.reset(token)
