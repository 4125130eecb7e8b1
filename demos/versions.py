"""A demo's code version: a hash of its source, of every `demos` module it imports, and of
the data files they name. Any edit to what a demo computes gives a new version, so a cached
result can never outlive the code that produced it."""
import ast
import hashlib
import importlib
from functools import cache
from pathlib import Path

PACKAGE = "demos"
PACKAGE_DIR = Path(__file__).resolve().parent


def imported_demo_modules(module_name: str) -> set[str]:
    """Names of the `demos.*` modules that `module_name`'s source imports directly."""
    source = importlib.import_module(module_name).__file__
    tree = ast.parse(Path(source).read_text(encoding="utf-8"))
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names if alias.name.startswith(PACKAGE + "."))
        elif isinstance(node, ast.ImportFrom):
            if node.level:  # relative: `from . import x`, `from .x import y`
                base = PACKAGE + (f".{node.module}" if node.module else "")
            else:
                base = node.module or ""
            if base == PACKAGE:  # `from demos import models`: the names may be modules
                found.update(f"{PACKAGE}.{alias.name}" for alias in node.names
                             if (PACKAGE_DIR / f"{alias.name}.py").exists())
            elif base.startswith(PACKAGE + "."):
                found.add(base)
    return found


def dependency_files(module_name: str) -> list[Path]:
    """The module's source, its `demos` imports' sources (transitively), and their DATA_FILES."""
    seen, todo = set(), [module_name]
    while todo:
        name = todo.pop()
        if name in seen:
            continue
        seen.add(name)
        todo.extend(imported_demo_modules(name))
    files = set()
    for name in seen:
        module = importlib.import_module(name)
        files.add(Path(module.__file__).resolve())
        files.update((PACKAGE_DIR / data).resolve() for data in getattr(module, "DATA_FILES", ()))
    return sorted(files)


@cache
def code_version(module_name: str) -> str:
    digest = hashlib.sha256()
    for path in dependency_files(module_name):
        digest.update(path.relative_to(PACKAGE_DIR).as_posix().encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()[:16]
