"""The attention web: the selected head's arcs and Table 1 filled in for this sentence."""
import pytest

from demos import attention_web
from tests.demos.tiny import run_on_shared_model


def test_the_web_shows_the_selected_head_and_the_complexity_table_for_this_sentence():
    result = run_on_shared_model(attention_web, layer=2, head=2)
    assert result["weights"] == result["all_weights"][1][1]
    assert len(result["all_weights"]) == 2 and len(result["all_weights"][0]) == 4
    table = result["complexity"]
    assert "Vaswani et al. (2017)" in table["source"]
    assert [row["per_layer"] for row in table["rows"]] == ["O(n²·d)", "O(n·d²)"]
    assert table["attention_ops"] == 10 * 10 * 64 and table["recurrent_ops"] == 10 * 64 * 64
    for link in result["links"]:
        assert link["to"] <= link["from"]
        assert link["weight"] == pytest.approx(max(result["weights"][link["from"]][: link["from"] + 1]))
