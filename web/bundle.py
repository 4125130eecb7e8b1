"""One classic script from our ES modules, for every page the server sends and for the static export.

A phone on the hall's Wi-Fi waits a round trip for each level of imports when it loads modules itself
(measured: docs/benchmarks.md, "One bundle, or the modules as the browser asks"), and browsers refuse
ES modules from `file://` pages, which the export must open from. The server bundles each page's
script once per process (web/static_assets.py).

Our modules keep to a small subset of the syntax (named imports, `import * as`, `export` before a
class, function or const), so each can be wrapped in a function that receives its imports and
returns its exports. Anything outside that subset is an error,
not a silent mistake.

One import is ours, not the language's: `import * as NAME from "./folder/*.js"` makes NAME an
object of every module in that folder (not its subfolders, not the importer), each under its
file's name: `renderers/index.js` finds every demo's renderer this way, so a new renderer is
found by its file alone, and it is bundled with the page as if imported by hand (and written out
as one import per file where the browser loads the modules itself: `as_browser_module`).
"""
import json
import re
from pathlib import Path

IMPORT_NAMED = re.compile(r'^import\s*\{([^}]*)\}\s*from\s*"([^"]+)";?[ \t]*$', re.MULTILINE)
IMPORT_FOLDER = re.compile(r'^import\s+\*\s+as\s+(\w+)\s+from\s*"([^"]*/)\*\.js";?[ \t]*$', re.MULTILINE)
IMPORT_ALL = re.compile(r'^import\s+\*\s+as\s+(\w+)\s+from\s*"([^"]+)";?[ \t]*$', re.MULTILINE)
EXPORT_DECLARATION = re.compile(r"^export\s+((?:async\s+)?function\*?|class|const|let)\s+(\w+)", re.MULTILINE)
EXPORT_LIST = re.compile(r"^export\s*\{([^}]*)\}\s*;?[ \t]*$", re.MULTILINE)

RUNTIME = """(() => {
"use strict";
const definitions = {}, modules = {};
function __define(name, factory) { definitions[name] = factory; }
function __load(name) {
  if (!(name in modules)) modules[name] = definitions[name](__load);
  return modules[name];
}
"""


class BundleError(ValueError):
    pass


def module_name(path: Path, root: Path) -> str:
    return path.relative_to(root).as_posix()


def without_comment_lines(source: str) -> str:
    """The source less its lines that are only a `//` comment: a fifth of the script a phone
    downloads (the modules keep them for their readers). A line inside a multi-line template literal is text
    and stays; if the backticks do not pair up, the source is returned as it is."""
    kept, in_template = [], False
    for line in source.splitlines(keepends=True):
        if not in_template and line.lstrip().startswith("//"):
            continue
        kept.append(line)
        in_template ^= (line.count("`") - line.count("\\`")) % 2 == 1
    return source if in_template else "".join(kept)


def wrap_module(path: Path, root: Path) -> tuple[str, list[Path]]:
    """The module as `__define(name, (__load) => {...; return {exports}})`, and the files it imports."""
    source = without_comment_lines(path.read_text(encoding="utf-8"))
    imports: list[Path] = []

    def relative(spec: str) -> Path:
        if not spec.startswith("."):
            raise BundleError(f"{path}: only relative imports can be bundled, not {spec!r}")
        return (path.parent / spec).resolve()

    def load(target: Path) -> str:
        imports.append(target)
        return f"__load({json.dumps(module_name(target, root))})"

    def named(match: re.Match) -> str:
        names = [part.strip() for part in match.group(1).split(",") if part.strip()]
        bindings = ", ".join(f"{a}: {b}" if " as " in n else n for n in names for a, _, b in [n.partition(" as ")])
        return f"const {{ {bindings} }} = {load(relative(match.group(2)))};"

    def folder(match: re.Match) -> str:
        """`import * as all from "./dir/*.js"`: {"<file name>": its module, ...}, in file-name order."""
        relative(match.group(2))  # only a relative folder
        found = folder_modules(path, match.group(2))
        return f"const {match.group(1)} = {{ {', '.join(f'{json.dumps(p.stem)}: {load(p)}' for p in found)} }};"

    body = IMPORT_NAMED.sub(named, source)
    body = IMPORT_FOLDER.sub(folder, body)
    body = IMPORT_ALL.sub(lambda m: f"const {m.group(1)} = {load(relative(m.group(2)))};", body)
    exported = [f"{name}" for _, name in EXPORT_DECLARATION.findall(body)]
    body = EXPORT_DECLARATION.sub(lambda m: f"{m.group(1)} {m.group(2)}", body)
    for names in EXPORT_LIST.findall(body):  # export { a, b as c };
        for part in filter(None, (p.strip() for p in names.split(","))):
            local, _, public = part.partition(" as ")
            exported.append(f"{public}: {local}" if public else local)
    body = EXPORT_LIST.sub("", body)
    leftover = re.search(r"^\s*(import|export)\b.*$", body, re.MULTILINE)
    if leftover or re.search(r"\bimport\s*\(|\bimport\.meta\b", body):
        raise BundleError(f"{path}: syntax the bundler does not handle: {leftover.group(0) if leftover else 'import()'}")
    names = ", ".join(exported)
    return f"__define({json.dumps(module_name(path, root))}, (__load) => {{\n{body}\nreturn {{ {names} }};\n}});\n", imports


def folder_modules(importer: Path, spec: str) -> list[Path]:
    """The modules `import * as NAME from "<spec>"` (a folder's "*.js") stands for, in file-name order,
    less the importer itself."""
    return sorted(p for p in (importer.parent / spec).resolve().glob("*.js") if p != importer.resolve())


def as_browser_module(path: Path) -> str:
    """The module as a browser can load it itself (FLASK_SCRIPT_MODULES): our folder import written out
    as one `import * as` per file, gathered into the object it names; everything else as written."""
    def listed(match: re.Match) -> str:
        found = folder_modules(path, match.group(2))
        lines = [f'import * as {match.group(1)}_{i} from "{match.group(2)}{p.name}";' for i, p in enumerate(found)]
        entries = ", ".join(f"{json.dumps(p.stem)}: {match.group(1)}_{i}" for i, p in enumerate(found))
        return "\n".join([*lines, f"const {match.group(1)} = {{ {entries} }};"])
    return IMPORT_FOLDER.sub(listed, path.read_text(encoding="utf-8"))


def bundle(entry: Path, root: Path) -> str:
    """Every module `entry` needs, wrapped, then `entry` run: one classic script."""
    entry, root = entry.resolve(), root.resolve()
    parts, seen, todo = [], set(), [entry]
    while todo:
        path = todo.pop()
        if path in seen:
            continue
        seen.add(path)
        code, imports = wrap_module(path, root)
        parts.append(code)
        todo.extend(imports)
    return RUNTIME + "".join(parts) + f"__load({json.dumps(module_name(entry, root))});\n}})();\n"
