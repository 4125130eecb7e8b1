"""The text the character-level language models learn from: the English documentation that ships
with every Python. Nothing is downloaded and nothing is copied into this repository: the text is
read, when first needed, from the running Python's own standard library:

- the reference topics that `help()` shows (`pydoc_data.topics`: the language reference on
  expressions, statements, the data model, ...), one document per topic;
- the docstrings of the standard library's most documented modules (`MODULES`), one document per
  module, class or function.

Its licence is Python's own (the PSF License, version 2), which allows this use. It is plain,
varied technical English, with some code in it. Documents are split by a hash of their name into
training (80%), validation (10%) and test (10%) text, the same split on every machine with the
same Python: the models learn from the first, choose their budget on the second, and are scored
once on the third. A different Python version has somewhat different documentation, so the corpus
names its Python version and its digest, and both are part of every model's key.

Characters are the tokens: the printable ASCII characters and the newline; any other character
(a rare accent, a box-drawing line) is read as "?".
"""
import ast
import hashlib
import platform
import sysconfig
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import torch

MODULES = (  # the standard library modules whose docstrings join the corpus
    "_pydecimal", "typing", "doctest", "difflib", "logging/__init__", "inspect", "ipaddress", "_pyio", "statistics",
    "xml/etree/ElementTree", "logging/handlers", "threading", "email/message", "smtplib", "http/cookiejar",
    "configparser", "codecs", "tarfile", "pdb", "os", "subprocess", "shutil", "urllib/request", "imaplib", "optparse",
    "http/server", "ssl", "socketserver", "xmlrpc/server", "urllib/parse", "collections/__init__", "pydoc",
    "traceback", "argparse", "ftplib", "json/__init__", "mailbox", "asyncio/events", "zipfile", "bdb",
    "http/client", "socket", "re/__init__", "datetime", "enum", "pickletools", "ast", "pathlib", "uuid", "heapq",
    "functools", "contextlib", "dataclasses", "random", "string", "textwrap", "calendar", "csv", "sched", "queue",
)
ALPHABET = "\n" + "".join(chr(c) for c in range(32, 127))  # newline, then the printable ASCII characters
UNKNOWN = "?"
SPLITS = ("train", "validation", "test")
DATA_VERSION = f"python {platform.python_version()}"  # part of every demo's code version: other Python, other text


def split_of(name: str) -> str:
    """Which split a document belongs to, from a hash of its name: 80% train, 10% validation, 10% test."""
    bucket = int(hashlib.sha256(name.encode()).hexdigest(), 16) % 10
    return "validation" if bucket == 8 else "test" if bucket == 9 else "train"


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


@cache
def documents() -> tuple[tuple[str, str], ...]:
    """Every document of the corpus as (name, text), in a fixed order."""
    from pydoc_data.topics import topics  # the stdlib's help() text

    found = [(f"topic:{name}", text) for name, text in sorted(topics.items())]
    stdlib = Path(sysconfig.get_paths()["stdlib"])
    for module in MODULES:
        path = stdlib / f"{module}.py"
        if path.exists():
            found += [(f"{module}:{name}", doc) for name, doc in docstrings(path)]
    return tuple((name, clean(text).strip() + "\n") for name, text in found)


@dataclass(frozen=True)
class Corpus:
    """The three splits as one character-id tensor each, documents joined end to end (a blank
    line between them), with where each document starts."""
    ids: dict  # split -> (n,) long tensor of character ids
    starts: dict  # split -> (documents,) long tensor: where each document begins
    texts: dict  # split -> the text itself
    python: str
    digest: str

    @property
    def vocab_size(self) -> int:
        return len(ALPHABET)

    def facts(self) -> dict:
        return {"source": f"the documentation shipped with Python {self.python} (pydoc_data.topics and the "
                          f"docstrings of {len(MODULES)} standard library modules)",
                "licence": "PSF License, version 2",
                "characters": {split: len(self.texts[split]) for split in SPLITS},
                "documents": {split: len(self.starts[split]) for split in SPLITS},
                "alphabet": len(ALPHABET), "python": self.python, "digest": self.digest}


def encode(text: str) -> list[int]:
    return [ALPHABET.index(ch) if ch in ALPHABET else ALPHABET.index(UNKNOWN) for ch in text]


def decode(ids: list[int]) -> str:
    return "".join(ALPHABET[i] for i in ids)


@cache
def load() -> Corpus:
    """The corpus, split and encoded (a second or two, once per process)."""
    parts = {split: [] for split in SPLITS}
    for name, text in documents():
        parts[split_of(name)].append(text)
    texts = {split: "\n".join(parts[split]) for split in SPLITS}
    starts = {}
    for split in SPLITS:
        offsets, at = [], 0
        for text in parts[split]:
            offsets.append(at)
            at += len(text) + 1
        starts[split] = torch.tensor(offsets, dtype=torch.long)
    lookup = torch.full((128,), ALPHABET.index(UNKNOWN), dtype=torch.long)
    lookup[[ord(ch) for ch in ALPHABET]] = torch.arange(len(ALPHABET))
    ids = {split: lookup[torch.frombuffer(bytearray(texts[split].encode("ascii")), dtype=torch.uint8).long()]
           for split in SPLITS}
    digest = hashlib.sha256("".join(texts[s] for s in SPLITS).encode()).hexdigest()[:16]
    return Corpus(ids, starts, texts, platform.python_version(), digest)
