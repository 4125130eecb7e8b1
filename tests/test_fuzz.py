"""Hostile input: random JSON at every API endpoint and parameter, random paths at the slide
routes. Every answer is a 4xx with a JSON error (or a 2xx for what happens to be valid) or a
proper 404 page: never a 500, never a hang, and the server keeps serving afterwards."""
import json
import string
import time

import pytest

pytest.importorskip("hypothesis", reason="the property tests need hypothesis: pip install -e '.[test]'")
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from app import create_app
from demos import DEMOS
from tests.deck import SLIDES, slide_path

SCALARS = (
    st.none() | st.booleans()
    | st.integers(min_value=-10**40, max_value=10**40)
    | st.floats(allow_nan=True, allow_infinity=True)
    | st.text(max_size=300)
    | st.sampled_from(["<script>alert(1)</script>", "<b>x</b>", "\x00\x07\x1b[31m", "💥" * 50, "a" * 5000])
)
JSON = st.recursive(SCALARS, lambda children: st.lists(children, max_size=4)
                    | st.dictionaries(st.text(max_size=12), children, max_size=4), max_leaves=12)
PARAM_NAMES = sorted({p.name for demo in DEMOS.values() for p in demo.PARAMS} | {"force", "bogus", ""})
BODIES = st.dictionaries(st.sampled_from(PARAM_NAMES) | st.text(max_size=10), JSON, max_size=5)
INSTRUCTOR = {"X-Instructor-Token": "t"}
FUZZ = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])


def quick_run(params, progress, device):
    return {"summary": "stub"}


@pytest.fixture(scope="module")
def client(tmp_path_factory):
    """The real app, but every demo's training replaced by an instant stub: fuzzing checks the
    handling of input, and valid input must not queue minutes of training."""
    patched = {demo_id: demo.run for demo_id, demo in DEMOS.items()}
    for demo in DEMOS.values():
        demo.run = quick_run
    app = create_app({"TESTING": True, "CACHE_DIR": str(tmp_path_factory.mktemp("fuzz")), "INSTRUCTOR_TOKEN": "t"})
    yield app.test_client()
    for demo_id, run in patched.items():
        DEMOS[demo_id].run = run


def check_answer(response, api: bool):
    assert response.status_code < 500, (response.status_code, response.get_data(as_text=True)[:300])
    if response.status_code >= 400:
        if api:
            assert response.is_json and response.get_json()["error"]
        else:
            assert response.mimetype == "text/html" and "Traceback" not in response.get_data(as_text=True)


@FUZZ
@given(demo_id=st.sampled_from(sorted(DEMOS)) | st.text(max_size=20), body=BODIES,
       endpoint=st.sampled_from(["run", "lookup"]))
def test_random_parameters_to_every_demo(client, demo_id, body, endpoint):
    if "/" in demo_id or "?" in demo_id or "#" in demo_id:
        demo_id = demo_id.replace("/", "").replace("?", "").replace("#", "") or "x"
    data = json.dumps(body, allow_nan=True).encode()
    response = client.post(f"/api/demos/{demo_id}/{endpoint}", data=data, content_type="application/json")
    check_answer(response, api=True)
    if response.status_code == 400:
        assert response.get_json()["param"], "a 400 names the parameter"


@FUZZ
@given(body=JSON)
def test_random_bodies_of_any_shape(client, body):
    data = json.dumps(body, allow_nan=True).encode()
    for path in ["/api/demos/line_fit/run", "/api/follow", "/api/warm", "/api/demos/system_check/lookup"]:
        response = client.post(path, data=data, content_type="application/json", headers={"X-Instructor-Token": "t"})
        check_answer(response, api=True)


@FUZZ
@given(raw=st.binary(max_size=2000))
def test_random_bytes(client, raw):
    for path in ["/api/demos/line_fit/run", "/api/follow"]:
        check_answer(client.post(path, data=raw, content_type="application/json"), api=True)


@FUZZ
@given(follow=st.fixed_dictionaries({}, optional={"on": JSON, "n": JSON, "demo": JSON}))
def test_random_follow_states_from_the_instructor(client, follow):
    response = client.post("/api/follow", json=follow, headers={"X-Instructor-Token": "t"})
    check_answer(response, api=True)
    state = client.get("/api/follow").get_json()
    assert isinstance(state["on"], bool) and 1 <= state["n"] <= SLIDES, "nothing invalid was stored"


PATH_CHARS = string.ascii_letters + string.digits + "-._~%!$&'()*+,;=:@/"


@FUZZ
@given(path=st.text(alphabet=PATH_CHARS, max_size=60), api=st.booleans())
def test_random_paths(client, path, api):
    url = ("/api/" if api else "/slides/") + path
    response = client.get(url)
    check_answer(response, api=url.startswith("/api/"))


def test_the_server_still_serves_after_the_fuzzing(client):
    """Hostile input first, in this test (so it holds run alone or in any order), then what a lecture
    needs from the same app: a slide, a run trained and served from the cache, follow mode, health."""
    @settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
    @given(body=JSON, raw=st.binary(max_size=500), path=st.text(alphabet=PATH_CHARS, max_size=40))
    def hostile(body, raw, path):
        data = json.dumps(body, allow_nan=True).encode()
        for url in ["/api/demos/line_fit/run", "/api/follow", "/api/warm", "/api/demos/system_check/lookup"]:
            check_answer(client.post(url, data=data, content_type="application/json", headers=INSTRUCTOR), api=True)
        check_answer(client.post("/api/demos/line_fit/run", data=raw, content_type="application/json"), api=True)
        check_answer(client.get("/api/" + path), api=True)
        check_answer(client.get("/slides/" + path), api=False)
    hostile()

    assert client.get(slide_path("amnesia")).status_code == 200
    started = client.post("/api/demos/line_fit/run", json={"steps": 3, "seed": 4242}, headers=INSTRUCTOR)
    assert started.status_code == 202, started.get_json()  # a setting no fuzzed request could have cached
    job = started.get_json()
    deadline = time.monotonic() + 60  # only ends a hang
    while (state := client.get(job["url"]).get_json())["status"] in ("queued", "running"):
        assert time.monotonic() < deadline, state
        time.sleep(0.02)
    assert state["status"] == "done" and state["result"]["summary"] == "stub"
    again = client.post("/api/demos/line_fit/run", json={"steps": 3, "seed": 4242})
    assert again.status_code == 200 and again.get_json()["result"] == state["result"]
    follow = client.post("/api/follow", json={"on": True, "n": 2}, headers=INSTRUCTOR)
    assert follow.status_code == 200, follow.get_json()
    assert client.get("/api/follow").get_json()["n"] == 2
    client.post("/api/follow", json={"on": False, "n": 1}, headers=INSTRUCTOR)
    assert client.get("/healthz").get_json()["status"] == "ok"


def test_a_megabyte_string_is_refused_before_it_is_read(client):
    response = client.post("/api/demos/line_fit/run", data=json.dumps({"seed": "x" * 1_000_000}),
                           content_type="application/json")
    assert response.status_code == 413 and response.is_json
