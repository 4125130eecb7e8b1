"""The character corpus: over a megabyte of the documentation shipped with Python 3.11.7, shipped in
the package and read without the network, the same text whatever Python runs, split by document into
training, validation and test text that never share a document."""
import json
import platform
import shutil
import socket

import pytest

from demos.core import make_python_docs, python_docs
from demos.core.make_python_docs import clean
from demos.core.python_docs import ALPHABET, DATA, SPLITS, decode, encode, load, manifest, split_of


@pytest.fixture
def fresh_caches():
    """Every cached read of the corpus and of the running Python's documentation, cleared before and after."""
    caches = (python_docs.documents, python_docs.load, make_python_docs.documents)
    for cached in caches:
        cached.cache_clear()
    yield
    for cached in caches:
        cached.cache_clear()


def test_the_corpus_is_over_a_megabyte_of_documentation_split_80_10_10():
    corpus = load()
    sizes = {split: len(corpus.texts[split]) for split in SPLITS}
    assert sum(sizes.values()) > 1_000_000
    assert 0.7 < sizes["train"] / sum(sizes.values()) < 0.9
    assert all(len(corpus.ids[split]) == sizes[split] for split in SPLITS)
    assert "PSF" in corpus.facts()["licence"] and corpus.facts()["python"] == corpus.python == "3.11.7"


def test_the_manifest_names_the_source_the_licence_and_the_sizes_it_was_made_with():
    about, facts = manifest(), load().facts()
    assert facts["source"] == about["source"] and "Python 3.11.7" in facts["source"]
    assert facts["made_by"] == about["command"] == "python -m demos.core.make_python_docs"
    assert facts["digest"] == about["digest"] and facts["characters"] == about["characters"]
    assert facts["documents"] == about["documents"]
    assert "PYTHON SOFTWARE FOUNDATION LICENSE VERSION 2" in (DATA.parent / about["licence_file"]).read_text()


def test_it_loads_without_the_network(monkeypatch, fresh_caches):
    def refuse(*args, **kwargs):
        raise AssertionError("the corpus tried to reach the network")

    monkeypatch.setattr(socket, "socket", refuse)
    monkeypatch.setattr(socket, "create_connection", refuse)
    assert len(python_docs.load().texts["train"]) > 500_000


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


def test_the_text_is_the_same_whatever_documentation_the_running_python_has(monkeypatch, tmp_path, fresh_caches):
    """The issue's check: replace the running Python's documentation by other text, and the corpus
    (its digest) does not change; only the maker, which reads that documentation, sees the difference."""
    import pydoc_data.topics

    shipped = load().digest
    (tmp_path / "os.py").write_text('"""Another Python\'s os module, documented quite differently."""\n')
    monkeypatch.setattr(pydoc_data.topics, "topics", {"assert": "Other documentation of assert, in other words."})
    monkeypatch.setattr(make_python_docs, "stdlib", lambda: tmp_path)
    monkeypatch.setattr(platform, "python_version", lambda: "9.9.9")
    python_docs.documents.cache_clear()
    python_docs.load.cache_clear()
    assert make_python_docs.documents() == (
        ("topic:assert", "Other documentation of assert, in other words.\n"),
        ("os:(module)", "Another Python's os module, documented quite differently.\n"))
    assert load().digest == shipped == manifest()["digest"] and load().python == "3.11.7"


@pytest.mark.parametrize("damage", ["a flipped byte", "a different manifest"])
def test_a_damaged_install_is_refused_with_a_clear_message(tmp_path, damage, fresh_caches):
    shipped = tmp_path / DATA.name
    shutil.copyfile(DATA, shipped)
    shutil.copyfile(DATA.with_suffix(""), shipped.with_suffix(""))
    if damage == "a flipped byte":
        data = bytearray(shipped.read_bytes())
        data[len(data) // 2] ^= 0x01
        shipped.write_bytes(bytes(data))
        wrong = "sha256"
    else:  # the file is intact but the manifest promises other text
        about = manifest(shipped) | {"digest": "0123456789abcdef"}
        shipped.with_suffix("").write_text(json.dumps(about))
        wrong = "digest"
    with pytest.raises(ValueError, match=f"does not match its manifest .*{wrong}.*install is damaged"):
        load(shipped)
    assert load().digest == manifest()["digest"]  # the shipped corpus is untouched


@pytest.mark.skipif(platform.python_version() != manifest()["python"],
                    reason=f"the shipped corpus was made from Python {manifest()['python']}'s documentation")
def test_the_maker_reproduces_the_shipped_documents_on_the_python_that_made_them(fresh_caches):
    docs = make_python_docs.documents()
    assert docs == python_docs.documents()
    assert make_python_docs.manifest(docs, DATA.read_bytes()) == manifest()
