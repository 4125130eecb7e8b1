"""The character corpus: over a megabyte of the documentation shipped with Python, read without the
network, split by document into training, validation and test text that never share a document."""
import socket

import pytest

from demos.core import python_docs
from demos.core.python_docs import ALPHABET, SPLITS, clean, decode, encode, load, split_of


def test_the_corpus_is_over_a_megabyte_of_documentation_split_80_10_10():
    corpus = load()
    sizes = {split: len(corpus.texts[split]) for split in SPLITS}
    assert sum(sizes.values()) > 1_000_000
    assert 0.7 < sizes["train"] / sum(sizes.values()) < 0.9
    assert all(len(corpus.ids[split]) == sizes[split] for split in SPLITS)
    assert "PSF" in corpus.facts()["licence"] and corpus.facts()["python"] == corpus.python


def test_it_loads_without_the_network(monkeypatch):
    def refuse(*args, **kwargs):
        raise AssertionError("the corpus tried to reach the network")

    monkeypatch.setattr(socket, "socket", refuse)
    monkeypatch.setattr(socket, "create_connection", refuse)
    python_docs.documents.cache_clear()
    python_docs.load.cache_clear()
    try:
        assert len(python_docs.load().texts["train"]) > 500_000
    finally:
        python_docs.documents.cache_clear()
        python_docs.load.cache_clear()


def test_a_document_belongs_to_one_split_chosen_by_its_name():
    assert {split_of(f"doc {i}") for i in range(200)} == set(SPLITS)
    assert split_of("topic:assert") == split_of("topic:assert")
    corpus = load()
    names = {}
    for name, _ in python_docs.documents():
        names.setdefault(name, set()).add(split_of(name))
    assert all(len(splits) == 1 for splits in names.values())
    test_text, train_text = corpus.texts["test"], corpus.texts["train"]
    assert sum(doc in train_text for doc in test_text.split("\n\n")[:50] if len(doc) > 400) == 0


def test_characters_are_the_tokens_and_anything_else_reads_as_a_question_mark():
    assert len(ALPHABET) == 96 and ALPHABET[0] == "\n"
    assert clean("It’s “quoted” — ok\tfine é") == "It's \"quoted\" - ok    fine ?"
    assert decode(encode("def f(x):\n    return x")) == "def f(x):\n    return x"
    corpus = load()
    assert int(corpus.ids["train"].max()) < corpus.vocab_size and decode(corpus.ids["test"][:200].tolist()) == \
        corpus.texts["test"][:200]


@pytest.mark.parametrize("split", SPLITS)
def test_documents_start_where_the_starts_say(split):
    corpus = load()
    starts = corpus.starts[split].tolist()
    text = corpus.texts[split]
    assert starts[0] == 0 and all(text[s - 1] == "\n" for s in starts[1:])
