"""A sentence typed on an attention slide: unknown words flagged, bad sentences refused before anything trains, bounded model choices."""
import pytest

from demos import attention_matrix, attention_web
from demos.runtime.params import ParamError, validate
from demos.shared.sentence_attention import MAX_TOKENS
from tests.demos.tiny import run_on_shared_model


def test_unknown_words_are_shown_flagged_and_named_in_the_summary():
    result = run_on_shared_model(attention_web, sentence="We propose a flibbertigibbet network")
    assert result["tokens"][3] == "⟨unk: flibbertigibbet⟩"
    assert result["unknown"] == [False, False, False, True, False]
    assert "flibbertigibbet" in result["summary"] and "⟨unk⟩" in result["summary"]


@pytest.mark.parametrize("sentence, message", [
    ("", "is empty"),
    ("   ", "is empty"),
    ("<b>hi</b> there", "not markup such as <b>"),
    ("We propose &amp; test", "not markup"),
    ("zorblax quuxify", "has no word the model knows"),
    (" ".join(["word"] * (MAX_TOKENS + 1)), f"at most {MAX_TOKENS} fit"),
    ("x" * 161, "at most 160 characters"),
])
def test_a_bad_sentence_is_refused_before_anything_trains(sentence, message):
    for demo in (attention_web, attention_matrix):
        with pytest.raises(ParamError) as error:
            validate(demo.PARAMS, {"sentence": sentence})
        assert error.value.name == "sentence" and message in error.value.message


def test_the_api_answers_a_markup_sentence_with_400_naming_the_field(client):
    response = client.post("/api/demos/attention_web/run", json={"sentence": "<b>hi</b>"})
    assert response.status_code == 400
    body = response.get_json()
    assert body["param"] == "sentence" and "markup" in body["error"]


def test_layer_head_and_steps_are_bounded():
    for bad in ({"layer": 3}, {"head": 5}, {"head": 0}, {"steps": 401}, {"steps": -1}):
        with pytest.raises(ParamError):
            validate(attention_matrix.PARAMS, bad)
