"""A demo's code version follows its imports into every subpackage, so editing shared code
(the models, the tasks, the corpus file) gives every demo that uses it a new cache key."""
import subprocess
import sys
from pathlib import Path

import pytest

from demos import DEMOS
from demos.runtime import versions
from demos.runtime.versions import PACKAGE_DIR, code_version, dependency_files


def relative(paths) -> set[str]:
    return {path.relative_to(PACKAGE_DIR).as_posix() for path in paths}


def test_a_demo_depends_on_what_it_imports_from_every_subpackage_and_on_its_data():
    amnesia = relative(dependency_files("demos.amnesia"))
    assert {"amnesia.py", "core/models.py", "core/tasks.py", "core/training.py", "runtime/params.py",
            "shared/classifier.py"} <= amnesia
    assert "attention_web.py" not in amnesia and "core/tokenizer.py" not in amnesia
    assert {"core/corpus.py", "core/tokenizer.py"} <= relative(dependency_files("demos.attention_web"))
    assert any(path.startswith("core/data/") for path in relative(dependency_files("demos.attention_web")))
    assert {"core/python_docs.py", "core/data/python_docs.json.xz", "core/data/python_docs.json", "core/ngrams.py",
            "shared/char_models.py"} <= relative(dependency_files("demos.generation"))


@pytest.mark.parametrize("edited, changes, stays", [
    ("core/models.py", "demos.amnesia", "tests.line_fit"),
    ("core/tasks.py", "demos.dyck", "demos.attention_web"),
    ("shared/language_models.py", "demos.attention_matrix", "demos.index_lookup"),
    ("shared/char_models.py", "demos.generation", "demos.amnesia"),
])
def test_editing_shared_code_changes_the_key_of_the_demos_that_use_it(monkeypatch, edited, changes, stays):
    before = {name: code_version(name) for name in (changes, stays)}
    real_read = Path.read_bytes

    def edited_read(path: Path) -> bytes:
        data = real_read(path)
        return data + b"\n# edited\n" if path == PACKAGE_DIR / edited else data

    monkeypatch.setattr(Path, "read_bytes", edited_read)
    versions.code_version.cache_clear()
    try:
        assert code_version(changes) != before[changes]
        assert code_version(stays) == before[stays]
    finally:
        monkeypatch.undo()
        versions.code_version.cache_clear()


def test_every_demo_has_a_version():
    assert all(len(code_version(demo.__name__)) == 16 for demo in DEMOS.values())


def test_the_key_does_not_depend_on_the_running_python():
    """The character corpus is shipped, not read from the running Python: a Python of another version,
    with other documentation, gives the same key (checked in a fresh process that says it is 9.9.9)."""
    other_python = ("import platform, pydoc_data.topics; platform.python_version = lambda: '9.9.9'; "
                    "pydoc_data.topics.topics = {'other': 'Other documentation entirely.'}; "
                    "from demos.runtime.versions import code_version; print(code_version('demos.generation'))")
    run = subprocess.run([sys.executable, "-c", other_python], cwd=PACKAGE_DIR.parent, capture_output=True,
                         text=True, check=True)
    assert run.stdout.strip() == code_version("demos.generation")
