"""The text the character-level language models learn from: English documentation shipped with
Python 3.11.7 (the reference topics that `help()` shows and the docstrings of 60 standard library
modules), made once by `python -m demos.core.make_python_docs` and shipped in the package
(`data/python_docs.json.xz`, described by its manifest `data/python_docs.json`). Every machine reads
the same text, whatever Python it runs; a file that does not match its manifest is refused.

Its licence is Python's own (the PSF License, version 2: `data/python_docs_LICENSE.txt`). It is
plain, varied technical English, with some code in it. Documents are split by a hash of their name
into training (80%), validation (10%) and test (10%) text: the models learn from the first, choose
their budget on the second, and are scored once on the third.

Characters are the tokens: the printable ASCII characters and the newline; any other character
(a rare accent, a box-drawing line) was written as "?" when the file was made.
"""
import hashlib
import json
import lzma
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import torch

DATA_FILES = ("data/python_docs.json.xz", "data/python_docs.json")  # the documents and their manifest
DATA = Path(__file__).resolve().parent / DATA_FILES[0]
ALPHABET = "\n" + "".join(chr(c) for c in range(32, 127))  # newline, then the printable ASCII characters
UNKNOWN = "?"
SPLITS = ("train", "validation", "test")


def split_of(name: str) -> str:
    """Which split a document belongs to, from a hash of its name: 80% train, 10% validation, 10% test."""
    bucket = int(hashlib.sha256(name.encode()).hexdigest(), 16) % 10
    return "validation" if bucket == 8 else "test" if bucket == 9 else "train"


def split(docs: tuple[tuple[str, str], ...]) -> dict[str, list[str]]:
    """split -> the texts of its documents, in the corpus's order."""
    parts = {s: [] for s in SPLITS}
    for name, text in docs:
        parts[split_of(name)].append(text)
    return parts


def digest_of(parts: dict[str, list[str]]) -> str:
    """A short hash of the three splits' text: the corpus's name in every model's key."""
    return hashlib.sha256("".join("\n".join(parts[s]) for s in SPLITS).encode()).hexdigest()[:16]


def manifest(path: Path = DATA) -> dict:
    """What the manifest beside the documents says: their source, licence, sha256, digest and sizes."""
    return json.loads(path.with_suffix("").read_text(encoding="utf-8"))


def damaged(path: Path, what: str) -> ValueError:
    return ValueError(f"The character corpus {path} does not match its manifest {path.with_suffix('')}: {what}. "
                      f"The install is damaged: reinstall the package (or, to change the corpus on purpose, "
                      f"remake both files with {manifest(path)['command']}).")


@cache
def documents(path: Path = DATA) -> tuple[tuple[str, str], ...]:
    """Every document of the corpus as (name, text), in the file's fixed order."""
    data = path.read_bytes()
    sha256, wanted = hashlib.sha256(data).hexdigest(), manifest(path)["sha256"]
    if sha256 != wanted:
        raise damaged(path, f"its sha256 is {sha256}, the manifest says {wanted}")
    return tuple((name, text) for name, text in json.loads(lzma.decompress(data)))


@dataclass(frozen=True)
class Corpus:
    """The three splits as one character-id tensor each, documents joined end to end (a blank
    line between them), with where each document starts."""
    ids: dict  # split -> (n,) long tensor of character ids
    starts: dict  # split -> (documents,) long tensor: where each document begins
    texts: dict  # split -> the text itself
    manifest: dict  # where the text came from (see `data/python_docs.json`)
    digest: str

    @property
    def vocab_size(self) -> int:
        return len(ALPHABET)

    @property
    def python(self) -> str:
        """The Python whose documentation this is (not necessarily the one running)."""
        return self.manifest["python"]

    def facts(self) -> dict:
        return {"source": self.manifest["source"], "made_by": self.manifest["command"],
                "licence": self.manifest["licence"],
                "characters": {split: len(self.texts[split]) for split in SPLITS},
                "documents": {split: len(self.starts[split]) for split in SPLITS},
                "alphabet": len(ALPHABET), "python": self.python, "digest": self.digest}


def encode(text: str) -> list[int]:
    return [ALPHABET.index(ch) if ch in ALPHABET else ALPHABET.index(UNKNOWN) for ch in text]


def decode(ids: list[int]) -> str:
    return "".join(ALPHABET[i] for i in ids)


@cache
def load(path: Path = DATA) -> Corpus:
    """The corpus, split and encoded (a fraction of a second, once per process)."""
    parts = split(documents(path))
    digest, wanted = digest_of(parts), manifest(path)["digest"]
    if digest != wanted:
        raise damaged(path, f"its text's digest is {digest}, the manifest says {wanted}")
    texts = {s: "\n".join(parts[s]) for s in SPLITS}
    starts = {}
    for s in SPLITS:
        offsets, at = [], 0
        for text in parts[s]:
            offsets.append(at)
            at += len(text) + 1
        starts[s] = torch.tensor(offsets, dtype=torch.long)
    lookup = torch.full((128,), ALPHABET.index(UNKNOWN), dtype=torch.long)
    lookup[[ord(ch) for ch in ALPHABET]] = torch.arange(len(ALPHABET))
    ids = {s: lookup[torch.frombuffer(bytearray(texts[s].encode("ascii")), dtype=torch.uint8).long()]
           for s in SPLITS}
    return Corpus(ids, starts, texts, manifest(path), digest)
