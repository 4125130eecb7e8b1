"""The deck over HTTP: slide pages, 404s, the slide list, headers, and no outside URLs."""
import gzip
import hashlib
import re
from html.parser import HTMLParser
from pathlib import Path

import pytest

from app import create_app
from slides import load_deck
from web.assets import plotly_build
from tests.deck import LECTURE, SLIDES, slide_number, slide_path

ROOT = Path(__file__).resolve().parent.parent
# A URL that names another host. The SVG/XML namespace names are identifiers, not requests.
OUTSIDE_URL = re.compile(r"https?://(?!127\.0\.0\.1|localhost|www\.w3\.org/(?:2000/svg|1999/xlink|XML/1998/namespace))[^\s\"'<>)]+")


@pytest.mark.parametrize("slide", load_deck(), ids=lambda slide: slide.demo)
def test_every_slide_has_its_own_page(client, slide):
    n, demo = slide.n, slide.demo
    response = client.get(f"/slides/{n}")
    assert response.status_code == 200
    html = response.get_data(as_text=True)
    assert f"<title>{escape(slide.title)} · The Great Shift</title>" in html
    # All the slides come with the page, so moving on needs no request; only slide n is shown.
    assert html.count('<section class="slide') == SLIDES
    shown = re.findall(r'<section [^>]*data-n="(\d+)"(?:(?!hidden)[^>])*>', html)
    assert shown == [str(n)]
    assert f'data-demo="{demo}"' in html


def escape(text):
    return text.replace("&", "&amp;").replace("'", "&#39;").replace('"', "&#34;")


def test_the_root_opens_the_first_slide(client):
    html = client.get("/").get_data(as_text=True)
    assert f'data-current="{slide_number(LECTURE[0])}"' in html
    assert "<title>The Great Shift: From LSTMs to Transformers · The Great Shift</title>" in html


@pytest.mark.parametrize("path", ["/slides/0", f"/slides/{SLIDES + 1}", "/slides/abc", "/slides/-1", "/slides/1.5", "/nowhere"])
def test_a_missing_slide_is_a_404_page_that_links_to_the_first_slide(client, path):
    response = client.get(path)
    assert response.status_code == 404
    assert response.mimetype == "text/html"
    html = response.get_data(as_text=True)
    assert f'href="{slide_path(LECTURE[0])}"' in html
    assert "Traceback" not in html


def test_the_api_lists_the_slides_in_order(client):
    response = client.get("/api/slides")
    assert response.status_code == 200
    slides = response.get_json()["slides"]
    assert [(s["n"], s["id"], s["demo"]) for s in slides] == [(n, demo, demo) for n, demo in enumerate(LECTURE, 1)]
    assert [s["title"] for s in slides] == [slide.title for slide in load_deck()]
    assert all(set(s) == {"n", "id", "title", "demo"} for s in slides), "notes stay out of the public list"


def test_an_unknown_api_path_answers_json(client):
    response = client.get("/api/nothing-here")
    assert response.status_code == 404
    assert response.is_json and response.get_json()["error"]


@pytest.mark.parametrize("path", ["/slides/1", "/api/slides", "/slides/99", "/static/css/deck.css"])
def test_every_response_carries_a_self_only_content_security_policy(client, path):
    policy = client.get(path).headers["Content-Security-Policy"]
    directives = dict(d.strip().split(" ", 1) for d in policy.split(";"))
    assert directives["default-src"] == "'self'"
    assert directives["script-src"] == "'self'"  # no inline or outside scripts
    assert directives["connect-src"] == "'self'"
    for sources in directives.values():
        assert "http" not in sources and "*" not in sources


def test_speaker_notes_reach_the_instructor_only(tmp_path):
    app = create_app({"TESTING": True, "CACHE_DIR": str(tmp_path), "INSTRUCTOR_TOKEN": "s3cret"})
    client = app.test_client()
    deck = load_deck(ROOT / "slides")
    n = slide_number("amnesia")
    a_note = re.sub(r"<[^>]+>", "", deck[n - 1].notes_html).split(".")[0]
    for path in [slide_path(demo_id) for demo_id in LECTURE] + ["/presenter"]:
        assert a_note not in client.get(path).get_data(as_text=True), f"{path} carries speaker notes"
    refused = client.get("/api/notes")
    assert refused.status_code == 403 and "instructor" in refused.get_json()["error"]
    assert client.get("/api/notes", headers={"X-Instructor-Token": "guess"}).status_code == 403
    notes = client.get("/api/notes", headers={"X-Instructor-Token": "s3cret"}).get_json()["notes"]
    assert len(notes) == SLIDES and notes[str(n)] == deck[n - 1].notes_html


def test_the_instructor_sees_how_many_students_have_the_follow_stream_open(tmp_path):
    app = create_app({"TESTING": True, "CACHE_DIR": str(tmp_path)})
    client = app.test_client()
    students = lambda: client.get("/api/follow/audience").get_json()["students"]  # noqa: E731 (localhost: the instructor)
    assert students() == 0
    lecturer = client.get("/api/follow/events", buffered=False)  # the lecturer's own page is not a student
    streams = [lecturer] + [client.get("/api/follow/events", environ_base={"REMOTE_ADDR": f"10.0.0.{i}"}, buffered=False)
                            for i in (5, 6)]
    for stream in streams:
        assert next(iter(stream.response)).startswith(b"retry: 1000\nevent: follow")
    assert students() == 2
    assert client.get("/api/follow/audience", environ_base={"REMOTE_ADDR": "10.0.0.5"}).status_code == 403
    # Students close their tabs (the last opened first: this test client runs every stream in one thread).
    streams.pop().close()
    assert students() == 1
    streams.pop().close()
    assert students() == 0
    lecturer.close()


class AssetLinks(HTMLParser):
    """Collects every src= and href= of a page."""

    def __init__(self):
        super().__init__()
        self.links = []

    def handle_starttag(self, tag, attrs):
        self.links += [value for name, value in attrs if name in ("src", "href") and value]


def test_nothing_served_points_at_another_host(client):
    pages = [slide_path(demo_id) for demo_id in LECTURE] + ["/presenter", "/slides/99"]
    to_check = set(pages)
    for page in pages:
        parser = AssetLinks()
        parser.feed(client.get(page).get_data(as_text=True))
        to_check.update(link for link in parser.links if link.startswith("/"))
    # Every stylesheet and script we ship, also those a page loads from another script.
    to_check.update("/static/" + p.relative_to(ROOT / "static").as_posix() for p in (ROOT / "static").rglob("*.*"))
    # Plotly is the vendored build, checked by test_the_vendored_plotly_is_the_build_its_record_names
    # and by the browser tests, which fail if any request leaves localhost.
    to_check = {path for path in to_check if not path.startswith("/vendor/")}
    assert len(to_check) > 20
    for path in sorted(to_check):
        response = client.get(path)
        assert response.status_code == (404 if path == "/slides/99" else 200), path
        found = OUTSIDE_URL.findall(response.get_data(as_text=True))
        assert not found, f"{path} names another host: {found}"


VENDOR = Path(__file__).resolve().parent.parent / "web" / "vendor"
# What a trace type is written as in a renderer: `type: "bar"` (also an axis's, a shape's or an error
# bar's type, which no Plotly trace type is named like).
TYPE_LITERALS = re.compile(r'\btype:\s*([^,}\n]+)')


def test_the_vendored_plotly_is_the_build_its_record_names():
    """The file, and its gzip and brotli copies, are byte for byte the ones web/vendor/make_plotly.sh made
    (their sha256s); it says its version, holds exactly the trace types recorded, and ships with its licence."""
    build = plotly_build()
    shipped = (VENDOR / build["file"]).read_bytes()
    assert hashlib.sha256(shipped).hexdigest() == build["sha256"], "plotly's file is not the recorded build"
    for encoding, copy in build["encodings"].items():
        assert hashlib.sha256((VENDOR / copy["file"]).read_bytes()).hexdigest() == copy["sha256"], encoding
    assert gzip.decompress((VENDOR / build["encodings"]["gzip"]["file"]).read_bytes()) == shipped
    assert f"v{build['version']}" in shipped[:200].decode()
    for trace in build["all_traces"]:
        registered = f'moduleType:"trace",name:"{trace}"'.encode() in shipped
        assert registered == (trace in build["traces"]), f"{trace}: {'in' if registered else 'not in'} the build"
    assert "MIT License" in (VENDOR / "LICENSE-plotly.txt").read_text()


def test_the_build_has_every_trace_type_a_renderer_draws():
    """A partial build draws nothing, silently, for a trace type it lacks: each one our scripts name
    must be in it (web/vendor/make_plotly.sh remakes it with another)."""
    build = plotly_build()
    named = {literal for path in (ROOT / "static" / "js").rglob("*.js")
             for value in TYPE_LITERALS.findall(path.read_text()) for literal in re.findall(r'"(\w+)"', value)}
    drawn = named & set(build["all_traces"])
    assert {"bar", "heatmap", "scatter"} <= drawn, "the renderers' trace types were not found"
    assert drawn <= set(build["traces"]), f"the Plotly build lacks {sorted(drawn - set(build['traces']))}"


def test_plotly_comes_from_this_project_compressed_and_cached_for_long(client):
    html = client.get("/slides/1").get_data(as_text=True)
    (src,) = re.findall(r'data-plotly-url="(/vendor/plotly-[^"]+\.min\.js)"', html)
    build = plotly_build()
    assert src.startswith(f"/vendor/plotly-{build['build']}-{build['version']}-{build['sha256'][:8]}")
    shipped = (VENDOR / build["file"]).read_bytes()

    plain = client.get(src)
    assert plain.status_code == 200 and plain.data == shipped and "Content-Encoding" not in plain.headers
    assert "immutable" in plain.headers["Cache-Control"] and "max-age=31536000" in plain.headers["Cache-Control"]

    zipped = client.get(src, headers={"Accept-Encoding": "gzip, deflate"})  # a phone on the hall's network
    assert zipped.headers["Content-Encoding"] == "gzip"
    assert gzip.decompress(zipped.data) == shipped
    assert len(zipped.data) < len(shipped) / 2

    # A browser that asks for brotli gets the recorded copy (tests/browser/test_whole_slides.py checks
    # that Chromium decodes it to the file's sha256); one that refuses it, gzip.
    brotli = client.get(src, headers={"Accept-Encoding": "gzip, deflate, br, zstd"})
    assert brotli.headers["Content-Encoding"] == "br"
    assert brotli.data == (VENDOR / build["encodings"]["br"]["file"]).read_bytes()
    assert len(brotli.data) < len(zipped.data)
    assert client.get(src, headers={"Accept-Encoding": "br;q=0, gzip"}).headers["Content-Encoding"] == "gzip"
    for response in (plain, zipped, brotli):
        assert response.headers["Vary"] == "Accept-Encoding"

    again = client.get(src, headers={"If-None-Match": brotli.headers["ETag"], "Accept-Encoding": "br"})
    assert again.status_code == 304
    assert client.get(f"/vendor/plotly-cartesian-{build['version']}.min.js").status_code == 404
    assert client.get("/vendor/plotly-0.0.1.min.js").status_code == 404


def test_the_closing_slide_is_the_recap_panel_not_a_demo_widget(client):
    html = client.get(f"/slides/{len(LECTURE)}").get_data(as_text=True)
    closing = html.split('id="slide-recap"')[1].split("</section>")[0]
    assert "demo recap-panel" in closing and 'class="demo-output recap-output"' in closing
    assert "data-widget" not in closing and "not built yet" not in closing and "demo-run" not in closing
    assert 'data-recap-url="/api/recap"' in html


def test_the_presenters_numbers_are_the_cached_summaries_with_their_device_budget_and_date(app, client):
    n = str(load_deck()[0].n)  # the system check: fast enough to compute here
    before = client.get("/api/measured").get_json()["slides"]
    assert before[n] == [] and str(len(LECTURE)) not in before, "nothing measured yet; the recap has no demo of its own"
    engine = app.extensions["engine"]
    entry, _ = engine.compute(*engine.resolve("system_check", None))
    [run] = client.get("/api/measured").get_json()["slides"][n]
    assert run == {"run": "default", "summary": entry.result["summary"], "device": "cpu", "budget": "the CPU default",
                   "created": entry.created}
    assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\+00:00", run["created"])
    # A server restarted on the same cache folder reads the date back from the entry on disk.
    again = create_app({"TESTING": True, "CACHE_DIR": app.config["CACHE_DIR"]}).test_client()
    assert again.get("/api/measured").get_json()["slides"][n] == [run]


def sentences_on(client, path: str) -> list[str]:
    """The result sentences (.demo-summary) a slide's page comes with, before any script has run."""
    html = client.get(path).get_data(as_text=True)
    return [text for text in re.findall(r'<p class="demo-summary"[^>]*>([^<]*)</p>', html) if text]


def test_a_slide_comes_with_the_sentence_of_the_result_it_opens_on_and_a_poll_slide_without(app, client):
    engine = app.extensions["engine"]
    assert sentences_on(client, slide_path("system_check")) == [], "nothing measured: nothing to say"
    entry, _ = engine.compute(*engine.resolve("system_check", None))
    assert sentences_on(client, slide_path("system_check")) == [escape(entry.result["summary"])]
    assert sentences_on(client, slide_path(LECTURE[1])) == [], "only the slide the page opens on"
    # Measured again (a Retrain): the page says the new sentence, not the one it was first rendered with.
    _, params, key = engine.resolve("system_check", None)
    engine.cache.put("system_check", key, params, {**entry.result, "summary": "Measured again <b>now</b>."})
    assert sentences_on(client, slide_path("system_check")) == ["Measured again &lt;b&gt;now&lt;/b&gt;."]
    # A poll's slide keeps its result for after the class's prediction: its page says nothing of it.
    poll = next(slide for slide in load_deck() if slide.poll)
    _, params, key = engine.resolve(poll.demo, None)
    engine.cache.put(poll.demo, key, params, {"summary": "The answer to the poll."})
    assert engine.cached(poll.demo) is not None
    assert sentences_on(client, f"/slides/{poll.n}") == []
