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

from demos.core.models import ModelConfig, build_model
from demos.runtime.files import atomic_write_bytes
from demos.runtime.versions import code_version

log = logging.getLogger(__name__)
MEMORY_MODELS = 16  # most recently used models kept loaded (6 character models and 2 word models at least)


class ModelStore:
    def __init__(self, directory: Path | None = None):
        self.directory = Path(directory) if directory else None
        self.memory: OrderedDict[str, tuple[nn.Module, dict]] = OrderedDict()
        self.lock = threading.Lock()

    @staticmethod
    def key(name: str, settings: dict, code_module: str) -> str:
        """The model's key: its name, its settings, and the code version of `code_module`, the module
        whose code (and imports) decide how it is trained, so a change there trains a new model."""
        canonical = json.dumps({"name": name, "settings": settings, "code": code_version(code_module)}, sort_keys=True)
        return hashlib.sha256(canonical.encode()).hexdigest()[:32]

    def load_or_train(self, name: str, settings: dict, train: Callable[[], tuple[nn.Module, dict]],
                      code_module: str, device: torch.device) -> tuple[nn.Module, dict, bool]:
        """The model called `name` trained with `settings`: from memory, from disk, or trained now
        (one process trains, others wait for its file). `train()` returns (model, info); `info` is
        JSON-safe (losses, scores, seconds). Returns (model, info, trained_now)."""
        key = self.key(name, settings, code_module)
        with self._file_lock(key):
            found = self._recall(key, device)
            if found is not None:
                return (*found, False)
            model, info = train()
            self._keep(key, model, info)
        return model, info, True

    def find(self, name: str, settings: dict, code_module: str, device: torch.device) -> tuple[nn.Module, dict] | None:
        """The model if it is kept (in memory or on disk), else None."""
        return self._recall(self.key(name, settings, code_module), device)

    def has(self, name: str, settings: dict, code_module: str) -> bool:
        """Whether the model is kept, without loading it (for time estimates: a kept model costs nothing)."""
        key = self.key(name, settings, code_module)
        with self.lock:
            if key in self.memory:
                return True
        return self.directory is not None and self.path(key).exists()

    def keep(self, name: str, settings: dict, code_module: str, model: nn.Module, info: dict) -> None:
        """Keep a model trained elsewhere (several trained together, say) under its key."""
        self._keep(self.key(name, settings, code_module), model, info)

    def _recall(self, key: str, device: torch.device) -> tuple[nn.Module, dict] | None:
        with self.lock:
            if key in self.memory:
                self.memory.move_to_end(key)
                model, info = self.memory[key]
                return model.to(device), info
        loaded = self._read(key, device)
        if loaded is not None:
            self._remember(key, *loaded)
        return loaded

    def _keep(self, key: str, model: nn.Module, info: dict) -> None:
        self._write(key, model, info)
        self._remember(key, model, info)

    def _remember(self, key: str, model: nn.Module, info: dict) -> None:
        with self.lock:
            self.memory[key] = (model, info)
            self.memory.move_to_end(key)
            while len(self.memory) > MEMORY_MODELS:
                self.memory.popitem(last=False)

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
