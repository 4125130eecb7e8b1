"""A demo's code version: a hash of its source, of every `demos` module it imports (in any
subpackage, followed transitively) and of the data files they name (`DATA_FILES`). Any edit to
what a demo computes gives a new version, so a cached result can never outlive the code that
produced it. It depends on those files alone, not on the machine or the Python running it."""
import ast
import hashlib
import importlib
from functools import cache
from pathlib import Path

PACKAGE = "demos"
PACKAGE_DIR = Path(__file__).resolve().parent.parent


def is_module(name: str) -> bool:
    """Whether `demos.x.y` names a module (a file or a subpackage) of this package."""
    path = PACKAGE_DIR.joinpath(*name.split(".")[1:])
    return path.with_suffix(".py").exists() or (path / "__init__.py").exists()


@cache
def imported_demo_modules(module_name: str) -> frozenset[str]:
    """Names of the `demos.*` modules that `module_name`'s source imports directly (each source read
    once per process: every demo's version follows the shared modules' imports again)."""
    module = importlib.import_module(module_name)
    tree = ast.parse(Path(module.__file__).read_text(encoding="utf-8"))
    package = module_name if module.__file__.endswith("__init__.py") else module_name.rpartition(".")[0]
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names if alias.name.startswith(PACKAGE + "."))
        elif isinstance(node, ast.ImportFrom):
            if node.level:  # relative: `from . import x`, `from ..core.models import y`
                parent = package.rsplit(".", node.level - 1)[0] if node.level > 1 else package
                base = parent + (f".{node.module}" if node.module else "")
            else:
                base = node.module or ""
            if base != PACKAGE and not base.startswith(PACKAGE + "."):
                continue
            if base != PACKAGE:
                found.add(base)
            # `from demos.core import models`: the names may be modules themselves
            found.update(f"{base}.{alias.name}" for alias in node.names if is_module(f"{base}.{alias.name}"))
    return frozenset(name for name in found if name != PACKAGE)


def dependency_files(module_name: str) -> list[Path]:
    """The module's source, its `demos` imports' sources (transitively), and their DATA_FILES."""
    files = set()
    for name in _closure(module_name):
        module = importlib.import_module(name)
        source = Path(module.__file__).resolve()
        files.add(source)
        files.update((source.parent / data).resolve() for data in getattr(module, "DATA_FILES", ()))
    return sorted(files)


def _closure(module_name: str) -> set[str]:
    seen, todo = set(), [module_name]
    while todo:
        name = todo.pop()
        if name not in seen:
            seen.add(name)
            todo.extend(imported_demo_modules(name))
    return seen


@cache
def code_version(module_name: str) -> str:
    digest = hashlib.sha256()
    for path in dependency_files(module_name):
        # Named from the package, so a version is the same on every machine; a demo kept outside it
        # (the tests' own) from the folder that holds the package.
        base = PACKAGE_DIR if path.is_relative_to(PACKAGE_DIR) else PACKAGE_DIR.parent
        digest.update(path.relative_to(base).as_posix().encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()[:16]
