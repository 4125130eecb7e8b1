"""Makes the character corpus's data files from the documentation shipped with the running Python:

- the reference topics that `help()` shows (`pydoc_data.topics`), one document per topic;
- the docstrings of the standard library's most documented modules (`MODULES`), one document per
  module, class or function.

Run once, and again only to change the corpus (the demos load the files it wrote, never the running
Python's documentation):

    python -m demos.core.make_python_docs

It writes the documents (`data/python_docs.json.xz`), their manifest (`data/python_docs.json`) and
Python's licence (`data/python_docs_LICENSE.txt`), and prints what it wrote.
"""
import ast
import hashlib
import json
import lzma
import platform
import shutil
import sysconfig
from functools import cache
from pathlib import Path

from demos.core.python_docs import ALPHABET, DATA, SPLITS, UNKNOWN, digest_of, split

COMMAND = "python -m demos.core.make_python_docs"
LICENCE = DATA.parent / "python_docs_LICENSE.txt"
MODULES = (  # the standard library modules whose docstrings join the corpus
    "_pydecimal", "typing", "doctest", "difflib", "logging/__init__", "inspect", "ipaddress", "_pyio", "statistics",
    "xml/etree/ElementTree", "logging/handlers", "threading", "email/message", "smtplib", "http/cookiejar",
    "configparser", "codecs", "tarfile", "pdb", "os", "subprocess", "shutil", "urllib/request", "imaplib", "optparse",
    "http/server", "ssl", "socketserver", "xmlrpc/server", "urllib/parse", "collections/__init__", "pydoc",
    "traceback", "argparse", "ftplib", "json/__init__", "mailbox", "asyncio/events", "zipfile", "bdb",
    "http/client", "socket", "re/__init__", "datetime", "enum", "pickletools", "ast", "pathlib", "uuid", "heapq",
    "functools", "contextlib", "dataclasses", "random", "string", "textwrap", "calendar", "csv", "sched", "queue",
)
TYPOGRAPHY = str.maketrans({"\u2018": "'", "\u2019": "'", "\u201c": '"', "\u201d": '"', "\u2013": "-",
                            "\u2014": "-", "\u2026": "...", "\u00a0": " ", "\t": "    ", "\r": ""})


def clean(text: str) -> str:
    """The text in the alphabet: curly quotes and dashes as their plain forms, tabs as spaces,
    any other character outside the alphabet as "?"."""
    text = text.translate(TYPOGRAPHY)
    return text if text.isascii() and text.isprintable() else "".join(
        ch if ch in ALPHABET else UNKNOWN for ch in text)


def docstrings(path: Path) -> list[tuple[str, str]]:
    """(name, docstring) of the module, and of every class and function in it, that has one."""
    found, todo = [], [ast.parse(path.read_text(encoding="utf-8"))]
    while todo:  # statements only: classes and functions, however nested
        node = todo.pop()
        doc = ast.get_docstring(node)
        if doc and len(doc) >= 40:  # one-liners like "Return self." add nothing to learn from
            found.append((getattr(node, "name", "(module)"), doc))
        todo.extend(child for child in reversed(node.body)
                    if isinstance(child, (ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)))
    return found


def stdlib() -> Path:
    return Path(sysconfig.get_paths()["stdlib"])


@cache
def documents() -> tuple[tuple[str, str], ...]:
    """Every document of the running Python's documentation as (name, text), in a fixed order."""
    from pydoc_data.topics import topics  # the stdlib's help() text

    found = [(f"topic:{name}", text) for name, text in sorted(topics.items())]
    for module in MODULES:
        path = stdlib() / f"{module}.py"
        if path.exists():
            found += [(f"{module}:{name}", doc) for name, doc in docstrings(path)]
    return tuple((name, clean(text).strip() + "\n") for name, text in found)


def compressed(docs: tuple[tuple[str, str], ...]) -> bytes:
    """The documents as xz-compressed JSON, one [name, text] pair a line."""
    lines = ",\n".join(json.dumps([name, text]) for name, text in docs)
    return lzma.compress(f"[\n{lines}\n]\n".encode("ascii"))


def manifest(docs: tuple[tuple[str, str], ...], data: bytes) -> dict:
    parts = split(docs)
    python = platform.python_version()
    return {"source": f"the documentation shipped with Python {python}: the reference topics that help() shows "
                      f"(pydoc_data.topics) and the docstrings of {len(MODULES)} standard library modules",
            "python": python, "command": COMMAND,
            "licence": "PSF License, version 2", "licence_file": LICENCE.name,
            "file": DATA.name, "sha256": hashlib.sha256(data).hexdigest(), "digest": digest_of(parts),
            "documents": {s: len(parts[s]) for s in SPLITS},
            "characters": {s: len("\n".join(parts[s])) for s in SPLITS}}


def main() -> None:
    docs = documents()
    data = compressed(docs)
    about = manifest(docs, data)
    DATA.write_bytes(data)
    DATA.with_suffix("").write_text(json.dumps(about, indent=2) + "\n", encoding="utf-8")
    shutil.copyfile(stdlib() / "LICENSE.txt", LICENCE)
    print(f"{about['source']}\n{sum(about['documents'].values())} documents in {DATA} ({len(data):,} bytes, "
          f"sha256 {about['sha256'][:16]}...), digest {about['digest']}")
    for s in SPLITS:
        print(f"  {s}: {about['documents'][s]:,} documents, {about['characters'][s]:,} characters")


if __name__ == "__main__":
    main()
