"""A poll answered with a number (slide 3's: the tuned LSTM's accuracy in %): every refusal, the
class's answers hidden from students until Close, the measured value against the guesses, the
front matter's checks, and the CSV, the recap and `flask export`."""
import csv
import io
import json

import pytest

from app import create_app
from demos.shared.seeds import over_seeds
from slides import NumberPoll, SlideError, load_deck
from slides.measured import measured_value
from web.number_poll import TOO_NOISY_RATIO, settle, too_noisy

STUDENT = {"REMOTE_ADDR": "10.0.0.7"}  # the test client on this machine is the instructor
URL = "/api/polls/amnesia"


@pytest.fixture
def student(app):
    return app.test_client()


def answer(client, body, **kwargs):
    return client.post(URL + "/answer", json=body, environ_base=STUDENT, **kwargs)


def seen(client) -> dict:
    return client.get(URL, environ_base=STUDENT).get_json()


def cache_lstm_accuracy(app, by_seed: list[float]) -> dict:
    """The default Amnesia result with the tuned LSTM's accuracy per seed as given; its parameters."""
    engine = app.extensions["engine"]
    demo, params, key = engine.resolve("amnesia", None)
    engine.cache.put(demo.ID, key, params, {
        "params": params, "chance": 1 / 26, "seeds": list(range(len(by_seed))), "device": "cpu", "train_seconds": 1.0,
        "models": {"transformer": {"accuracy": over_seeds([1.0] * len(by_seed))},
                   "lstm-tuned": {"accuracy": over_seeds(by_seed)}}})
    return params


def test_a_number_poll_says_its_kind_unit_and_range(client):
    body = client.get(URL).get_json()
    assert body["kind"] == "number" and body["unit"] == "%" and "choices" not in body
    assert (body["min"], body["max"], body["step"]) == (0, 100, 1)
    assert body["open"] is False and body["total"] == 0 and body["mine"] is None


def test_students_answer_with_a_number_once_each_and_may_change_it(app, client, student):
    client.post(URL, json={"action": "open"})
    assert answer(student, {"value": 40}).get_json()["mine"] == 40
    changed = answer(student, {"value": 55.5})
    assert changed.status_code == 200 and changed.get_json()["mine"] == 55.5 and changed.get_json()["total"] == 1
    assert answer(app.test_client(), {"value": 0}).get_json()["total"] == 2
    assert client.get(URL).get_json()["values"] == [0, 55.5]


@pytest.mark.parametrize("body", ['{}', '{"value": true}', '{"value": "50"}', '{"value": NaN}', '{"value": Infinity}',
                                  '{"value": 1e999}', '{"value": -1}', '{"value": 100.5}', '{"value": null}',
                                  '{"choice": 0}', '{"value": 5, "name": "Ada"}', '[5]'])
def test_a_bad_number_is_a_400_and_counts_nothing(client, student, body):
    client.post(URL, json={"action": "open"})
    response = student.post(URL + "/answer", data=body, content_type="application/json", environ_base=STUDENT)
    assert response.status_code == 400, response.get_json()
    if body != "[5]":  # not an object at all: refused before the poll is asked
        assert response.get_json()["param"] == "value" and "from 0 to 100" in response.get_json()["error"]
    assert client.get(URL).get_json()["total"] == 0


def test_a_choice_poll_refuses_a_number(client, student):
    choice_poll = "/api/polls/recall_vs_length"
    client.post(choice_poll, json={"action": "open"})
    response = student.post(choice_poll + "/answer", json={"value": 1}, environ_base=STUDENT)
    assert response.status_code == 400 and response.get_json()["param"] == "choice"


def test_a_closed_number_poll_refuses_answers(client, student):
    assert answer(student, {"value": 10}).status_code == 409
    client.post(URL, json={"action": "open"})
    answer(student, {"value": 10})
    client.post(URL, json={"action": "close"})
    refused = answer(student, {"value": 90})
    assert refused.status_code == 409 and "not open" in refused.get_json()["error"]
    assert client.get(URL).get_json()["values"] == [10]


def test_a_flood_of_numbers_is_refused_with_retry_after(tmp_path):
    app = create_app({"TESTING": True, "CACHE_DIR": str(tmp_path / "cache"), "POLL_ANSWERS_PER_MINUTE": 2})
    lecturer, student = app.test_client(), app.test_client()
    lecturer.post(URL, json={"action": "open"})
    statuses = [answer(student, {"value": v}).status_code for v in (1, 2, 3, 4)]
    assert statuses == [200, 200, 200, 429]
    assert lecturer.get(URL).get_json()["values"] == [3]


def test_the_class_sees_the_answers_only_once_the_poll_is_closed(app, client, student):
    client.post(URL, json={"action": "open"})
    answer(student, {"value": 30})
    answer(app.test_client(), {"value": 70})
    while_open = seen(student)
    assert while_open["total"] == 2 and while_open["mine"] == 30 and while_open["revealed"] is False
    assert "values" not in while_open and "median" not in while_open
    stream = student.get(URL + "/events", buffered=False, environ_base=STUDENT)
    event = json.loads(next(iter(stream.response)).decode().split("data: ", 1)[1])
    stream.close()
    assert event["total"] == 2 and "values" not in event
    lecturer = client.get(URL).get_json()
    assert lecturer["values"] == [30, 70] and lecturer["median"] == 50  # the projector draws them live
    client.post(URL, json={"action": "close"})
    closed = seen(student)
    assert closed["revealed"] is True and closed["values"] == [30, 70] and closed["median"] == 50


def test_the_instructor_with_a_token_sees_the_answers_while_open(tmp_path):
    app = create_app({"TESTING": True, "CACHE_DIR": str(tmp_path / "cache"), "INSTRUCTOR_TOKEN": "s3cret"})
    lecturer, student = app.test_client(), app.test_client()
    lecturer.post(URL, json={"action": "open"}, headers={"X-Instructor-Token": "s3cret"})
    answer(student, {"value": 12})
    assert "values" not in lecturer.get(URL).get_json()  # this machine without the token is a student here
    assert lecturer.get(URL, headers={"X-Instructor-Token": "s3cret"}).get_json()["values"] == [12]


def test_the_outcome_is_refused_to_students_until_close_then_settles_the_guesses(app, client, student):
    params = cache_lstm_accuracy(app, [0.40, 0.45, 0.50])
    client.post(URL, json={"action": "open"})
    for guess in (4, 42, 50, 51, 90):
        answer(app.test_client(), {"value": guess})
    refused = student.post(URL + "/outcome", json=params, environ_base=STUDENT)
    assert refused.status_code == 409 and refused.get_json()["reason"] == "poll_open"
    client.post(URL, json={"action": "close"})
    body = student.post(URL + "/outcome", json=params, environ_base=STUDENT).get_json()
    outcome = body["outcome"]
    assert body["status"] == "done" and outcome["kind"] == "number" and outcome["centre"] == "mean"
    assert (outcome["mean"], outcome["low"], outcome["high"]) == pytest.approx((45, 40, 50))
    # 42 and 50 are in [40, 50]; 51 is not (half a step is 0.5); errors from 45: 41, 3, 5, 6, 45
    assert outcome["within"] == 2 and outcome["total"] == 5 and outcome["median_error"] == pytest.approx(6)


def test_the_outcome_of_a_result_without_the_value_is_missing(app, client):
    engine = app.extensions["engine"]
    demo, params, key = engine.resolve("amnesia", None)
    engine.cache.put(demo.ID, key, params, {"params": params, "models": {}})
    assert client.post(URL + "/outcome", json=params).get_json() == {"status": "missing", "same_run": True}


def test_a_number_poll_is_settled_by_its_own_run_whatever_runs_after_it(app, client, student):
    params = cache_lstm_accuracy(app, [0.40, 0.45, 0.50])
    client.post(URL, json={"action": "open"})
    for guess in (42, 90):
        answer(app.test_client(), {"value": guess})
    client.post(URL, json={"action": "close"})
    engine = app.extensions["engine"]
    demo, other, key = engine.resolve("amnesia", {"length": 40, "steps": 600})  # a Retrain where the LSTM fails
    engine.cache.put(demo.ID, key, other, {"params": other, "chance": 1 / 26, "seeds": [0],
                                           "models": {"transformer": {"accuracy": over_seeds([1.0])},
                                                      "lstm-tuned": {"accuracy": over_seeds([0.04])}}})
    body = student.post(URL + "/outcome", json=other, environ_base=STUDENT).get_json()
    assert body["status"] == "done" and body["same_run"] is False and body["params"] == params
    assert body["outcome"]["mean"] == pytest.approx(45) and body["outcome"]["within"] == 1


def test_showing_the_answers_on_the_projector_never_reaches_a_phone(client, student):
    client.post(URL, json={"action": "open"})
    answer(student, {"value": 30})
    assert client.post(URL, json={"action": "show_counts"}).get_json()["values"] == [30]
    while_shown = seen(student)
    assert while_shown["shows_counts"] is True and while_shown["revealed"] is False and "values" not in while_shown
    assert client.post(URL, json={"action": "reset"}).get_json()["shows_counts"] is False


def test_within_a_range_of_zero_width_means_within_half_a_step():
    one_seed = {"mean": 10.0, "low": 10.0, "high": 10.0, "centre": "mean"}
    settled = settle([9.4, 9.5, 10.0, 10.5, 10.6], one_seed, step=1.0)
    assert settled["within"] == 3 and settled["total"] == 5
    assert settled["median"] == 10.0 and settled["median_error"] == pytest.approx(0.5)
    assert settle([], one_seed, 1.0) == {**one_seed, "total": 0, "within": 0, "median": None, "median_error": None}


@pytest.mark.parametrize("low, high, noisy", [
    (1.0, TOO_NOISY_RATIO, False),  # exactly an order of magnitude: still scored
    (1.0, TOO_NOISY_RATIO * 1.01, True),
    (0.28, 13.2, True),  # the speed race's range on a busy 2-core laptop
    (0.45, 0.6, False),
])
def test_a_how_many_times_poll_is_too_noisy_to_score_when_its_range_spans_over_the_threshold(low, high, noisy):
    ratio = NumberPoll("How many times?", "x", "×", 0.1, 100, 0.1, axis="log")
    assert too_noisy(ratio, {"mean": (low + high) / 2, "low": low, "high": high, "centre": "median"}) is noisy


def test_a_value_its_demo_marked_noisy_is_never_scored_however_narrow_its_range():
    ratio = NumberPoll("How many times?", "x", "×", 0.1, 100, 0.1, axis="log")
    result = {"transformer_speedup": [{"length": 4096, "median": 0.17, "min": 0.16, "max": 0.26, "noisy": True}]}
    measured = measured_value("speed_race", "transformer_speedup", result)
    assert measured["noisy"] is True and too_noisy(ratio, measured) is True
    quiet = measured_value("speed_race", "transformer_speedup",
                           {"transformer_speedup": [{**result["transformer_speedup"][0], "noisy": False}]})
    assert quiet["noisy"] is False and too_noisy(ratio, quiet) is False


def test_a_linear_polls_range_is_scored_however_wide():
    accuracy = NumberPoll("What accuracy?", "x", "%", 0, 100, 1)
    assert too_noisy(accuracy, {"mean": 40.0, "low": 0.0, "high": 80.0, "centre": "mean"}) is False


def test_a_named_quantity_is_read_by_its_demo_with_the_seeds_mean_or_a_timings_median():
    def model(width, *held):
        return {"model": "lstm-tuned", "width": width, "digits_held": over_seeds(list(held))}

    lookup = {"models": [model(4, 1.0, 2.0), model(16, 3.0, 5.0), {"model": "transformer", "width": 64}]}
    assert measured_value("index_lookup", "digits_held_width_16", lookup) == {
        "mean": 4.0, "low": 3.0, "high": 5.0, "centre": "mean", "noisy": False}
    assert measured_value("index_lookup", "digits_held_width_16", {"models": [model(4, 1.0)]}) is None  # not run at 16
    race = {"transformer_speedup": [{"length": 64, "median": 9.0, "min": 8.0, "max": 10.0},
                                    {"length": 4096, "median": 2.0, "min": 1.5, "max": 3.0}]}
    at_longest = measured_value("speed_race", "transformer_speedup", race, 10)
    assert (at_longest["mean"], at_longest["low"], at_longest["high"], at_longest["centre"]) == (20.0, 15.0, 30.0, "median")
    for old_shape in ({}, {"transformer_speedup": []}, {"transformer_speedup": [{"median": 2.0}]}, None):
        assert measured_value("speed_race", "transformer_speedup", old_shape) is None
    with pytest.raises(KeyError):
        measured_value("speed_race", "transformer_speedup[-1]", race)  # a name the demo does not declare


@pytest.mark.parametrize("number, message", [
    ("{measured: lstm_accuracy, unit: '%', min: 0, max: 100}", "needs measured, unit, min, max and step"),
    ("{measured: lstm_accuracy, unit: '%', min: 0, max: 100, step: 1, colour: red}", "needs measured"),
    ("{measured: lstm_accuracy, unit: '%', min: 100, max: 0, step: 1}", "min < max"),
    ("{measured: lstm_accuracy, unit: '%', min: 0, max: 100, step: 0}", "step above 0"),
    ("{measured: lstm_accuracy, unit: '%', min: 0, max: 100, step: 1, scale: -1}", "scale above 0"),
    ("{measured: lstm_accuracy, unit: '%', min: 0, max: true, step: 1}", "max must be numbers"),
    ("{measured: lstm_accuracy, unit: '%', min: zero, max: 100, step: 1}", "min must be numbers"),
    # a quantity the demo does not declare, such as the path into a result a slide once named
    ("{measured: models.lstm-tuned.accuracy, unit: '%', min: 0, max: 100, step: 1}",
     r"names 'models.lstm-tuned.accuracy', which demo 'amnesia' does not declare \(its QUANTITIES: lstm_accuracy"),
    ("{measured: 'lstm_accuracy[-1]', unit: '%', min: 0, max: 100, step: 1}", "does not declare"),
    ("{measured: lstm_acuracy, unit: '%', min: 0, max: 100, step: 1}", "does not declare"),
    ("{measured: lstm_accuracy, unit: '×', min: 0, max: 100, step: 1, axis: log}", "log needs min above 0"),
    ("{measured: lstm_accuracy, unit: '×', min: 1, max: 100, step: 1, axis: cubic}", "axis is one of"),
    ("[1, 2]", "needs measured"),
])
def test_a_badly_written_number_poll_is_refused_with_the_reason(tmp_path, number, message):
    (tmp_path / "01-amnesia.md").write_text(f"---\ntitle: T\ndemo: amnesia\npoll:\n  question: How much?\n"
                                            f"  number: {number}\n---\nBody\n")
    with pytest.raises(SlideError, match=message):
        load_deck(tmp_path)


def test_a_poll_with_both_choices_and_a_number_is_refused(tmp_path):
    (tmp_path / "01-amnesia.md").write_text("---\ntitle: T\ndemo: amnesia\npoll:\n  question: Q?\n"
                                            "  choices: {lstm: L, tie: T}\n"
                                            "  number: {measured: a, unit: x, min: 0, max: 1, step: 1}\n---\nB\n")
    with pytest.raises(SlideError, match="either choices"):
        load_deck(tmp_path)


def test_the_csv_the_recap_and_the_export_give_the_median_and_the_measurement(app, client, student, tmp_path):
    cache_lstm_accuracy(app, [0.40, 0.45, 0.50])
    client.post(URL, json={"action": "open"})
    for guess in (20, 44):
        answer(app.test_client(), {"value": guess})
    client.post(URL, json={"action": "close"})
    rows = list(csv.DictReader(io.StringIO(client.get("/api/polls.csv").get_data(as_text=True))))
    row = next(row for row in rows if row["demo"] == "amnesia")
    assert (row["answers"], row["median"], row["unit"], row["measured_mean"], row["measured_low"],
            row["measured_high"], row["within"], row["median_error"]) == ("2", "32", "%", "45", "40", "50", "1", "13")
    recap = {row["demo"]: row for row in client.get("/api/recap").get_json()["rows"]}
    guess = recap["amnesia"]["class_guess"]
    assert (guess["median"], guess["within"], guess["total"], guess["unit"]) == (32, 1, 2, "%")
    assert "class_guess" not in recap["recall_vs_length"]
    out = tmp_path / "export"
    run = app.test_cli_runner().invoke(args=["export", str(out)])
    assert run.exit_code == 0, run.output
    frozen = json.loads((out / "polls" / "amnesia.json").read_text())
    assert frozen["kind"] == "number" and frozen["values"] == [20, 44] and frozen["open"] is False
    assert frozen["outcome"]["within"] == 1 and frozen["outcome"]["mean"] == pytest.approx(45)
