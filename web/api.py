"""The demo API. Routes are thin: read the request, ask the engine, answer JSON.

  GET  /api/demos                 every demo, its parameter schema, cached or not
  GET  /api/demos/<id>            one of them
  POST /api/demos/<id>/estimate   {"param": value, ...} → cached or not, and how long a run would take
  POST /api/demos/<id>/run        {"param": value, ..., "force": false} → 200 cached result, or 202 job
  POST /api/demos/<id>/lookup     {"param": value, ...} → the cached result, or {"status": "missing"}
  GET  /api/demos/<id>/prepared   the run that speaks for the slide beyond its default: one carried in from
                                  another machine (`flask results load`), else this machine's prepared run
                                  (`flask warm --full`); or {"status": "missing"}
  POST /api/warm                  (instructor) queue the default run of every demo not cached yet
  GET  /api/jobs/<id>             a job's status, progress, expected time and ETA, and result or error
                                  (a cancelled job: `stopped_by`, what stopped it; see engine.jobs.STOPPED_BY)
  GET  /api/jobs/<id>/events      the same as Server-Sent Events, ending with the result
  POST /api/jobs/<id>/cancel      {"token": ...} (whoever started it) or the instructor: stop it

While a slide's poll hides its demo's result, a student's run, lookup or job of that demo is refused
(409, reason "poll_open") and the demo's listing shows no job: web/poll_secret.py.
"""
from functools import lru_cache

from flask import Blueprint, Flask, Response, abort, current_app, jsonify, url_for

from demos import UnknownDemo, get_demo
from demos.runtime.params import ParamError
from engine import QueueFull
from engine.cache import MEMORY_ENTRIES
from engine.engine import Submission
from engine.jobs import TERMINAL, Job
from web import ratelimit
from web.assets import gzip_bytes, gzipped_response
from web.auth import instructor_only, is_instructor, same_secret
from web.engine import get_engine
from web.jsonio import json_error, read_json_object
from web.poll_secret import (MESSAGE, POLL_OPEN, job_events_url, job_kept_from_this_request, kept_from_this_request,
                              withheld)
from web.sse import event_stream

bp = Blueprint("api", __name__, url_prefix="/api")
RETRY_AFTER_SECONDS = 5


@bp.errorhandler(QueueFull)
def queue_full(error: QueueFull):
    response, status = json_error(503, "The server is busy training other demos; try again in a few seconds.")
    response.headers["Retry-After"] = str(RETRY_AFTER_SECONDS)
    return response, status


def job_links(job_id: str) -> dict:
    """Every job answer carries its own addresses: its state (`url`, where a reloaded page finds it
    again), its event stream and its cancel endpoint. The pages never build them."""
    return {"url": url_for("api.show_job", job_id=job_id), "events": job_events_url(job_id),
            "cancel": url_for("api.cancel_job", job_id=job_id)}


def demo_rows() -> list[dict]:
    """The engine's status of every demo, with the addresses of each running job (none for a
    student while the demo's poll hides its result)."""
    rows = get_engine().status()
    for row in rows:
        if kept_from_this_request(row["id"]):
            row.update(job=None, reason=POLL_OPEN)
        elif row["job"]:
            row["job"].update(job_links(row["job"]["job"]))
    return rows


@bp.get("/demos")
def list_demos():
    return jsonify(demos=demo_rows(), device=get_engine().device_label)


@bp.get("/demos/<demo_id>")
def show_demo(demo_id: str):
    for row in demo_rows():
        if row["id"] == demo_id:
            return jsonify(row)
    raise UnknownDemo(demo_id)


@lru_cache(maxsize=MEMORY_ENTRIES)
def cached_answer(body: bytes) -> tuple[bytes, bytes]:
    """The answer for a cached result, and gzipped: made once per result (the same result goes to a
    whole class), not on every request."""
    answer = b'{"status":"done","cached":true,"result":' + body + b"}"
    return answer, gzip_bytes(answer)


def cached_response(body: bytes) -> Response:
    return gzipped_response(*cached_answer(body), mimetype="application/json")


def job_accepted(submission: Submission):
    """202 and where to follow the job; whoever started it also gets the token that cancels it."""
    job = submission.job
    answer = {**job.brief(), **job_links(job.id)}
    if submission.new:
        answer["cancel_token"] = job.cancel_token
    response = jsonify(answer)
    response.status_code = 202
    response.headers["Location"] = url_for("api.show_job", job_id=job.id)
    return response


class TooManyJobs(Exception):
    def __init__(self, wait_seconds: float):
        self.wait_seconds = wait_seconds


def admit_student_job() -> None:
    """A student may start a few training jobs a minute; cached results are always free."""
    wait = ratelimit.limiter().take(ratelimit.client_id())
    if wait:
        raise TooManyJobs(wait)


@bp.errorhandler(TooManyJobs)
def too_many_jobs(error: TooManyJobs):
    seconds = ratelimit.retry_after(error.wait_seconds)
    response, status = json_error(429, f"You have started several training runs in a short time; "
                                       f"try again in {seconds} s. Cached results are always available.")
    response.headers["Retry-After"] = str(seconds)
    return response, status


@bp.post("/demos/<demo_id>/run")
def run_demo(demo_id: str):
    if kept_from_this_request(demo_id):
        return withheld(demo_id)
    params = read_json_object()
    force = params.pop("force", False)
    if not isinstance(force, bool):
        raise ParamError("force", "must be true or false")
    instructor = is_instructor()
    if force and not instructor:
        return json_error(403, "Retraining a cached result needs the instructor token.")
    if instructor:
        submission = get_engine().submit(demo_id, params, force=force, watched=True,
                                         time_limit=current_app.config["INSTRUCTOR_JOB_SECONDS"])
    else:  # a student: a few new runs a minute, each at most a minute long, after the lecturer's
        submission = get_engine().submit(demo_id, params, admit=admit_student_job, student=True, watched=True,
                                         time_limit=current_app.config["STUDENT_JOB_SECONDS"])
    if submission.entry is not None:
        return cached_response(submission.entry.body)
    return job_accepted(submission)


@bp.post("/demos/<demo_id>/estimate")
def estimate_demo(demo_id: str):
    """Before Run: is this cached, and if not, how long will it take here (from earlier runs, or before
    a first run from the server's speed test)?
    Checks the parameters as Run would, so a bad value is named before anything starts."""
    params = read_json_object()
    params.pop("force", None)
    engine = get_engine()
    instructor = is_instructor()
    limit = current_app.config["INSTRUCTOR_JOB_SECONDS" if instructor else "STUDENT_JOB_SECONDS"]
    estimate = engine.estimate(demo_id, params)
    default_cached = engine.cached(demo_id) is not None
    return jsonify(cached=engine.cached(demo_id, params) is not None, default_cached=default_cached,
                   device=engine.device_label, estimate=estimate.as_json() if estimate else None,
                   confirm_over_seconds=current_app.config["CONFIRM_JOB_SECONDS"],
                   time_limit_seconds=limit, instructor=instructor)


@bp.get("/instructor")
def instructor_status():
    """Whether this request counts as the instructor (the panel checks the token with it)."""
    return jsonify(instructor=is_instructor(), token_configured=bool(current_app.config.get("INSTRUCTOR_TOKEN")))


@bp.post("/demos/<demo_id>/lookup")
def lookup_demo(demo_id: str):
    """A cached result for these parameters, or {"status": "missing"}: never starts training.
    (Students following the lecture fetch the lecturer's results this way.)"""
    if kept_from_this_request(demo_id):
        return withheld(demo_id)
    entry = get_engine().cached(demo_id, read_json_object())
    if entry is None:
        return jsonify(status="missing")
    return cached_response(entry.body)


@bp.get("/demos/<demo_id>/prepared")
def prepared_demo(demo_id: str):
    """The slide's prepared run (engine.prepared), or {"status": "missing"}: never starts training."""
    if kept_from_this_request(demo_id):
        return withheld(demo_id)
    entry = get_engine().prepared(get_demo(demo_id).ID)
    if entry is None:
        return jsonify(status="missing")
    return cached_response(entry.body)


@bp.post("/warm")
@instructor_only("Warming every demo needs the instructor token.")
def warm_all():
    """Queue every demo not cached. If the queue fills part-way, what was queued trains and the answer
    says which demos still wait for a second press (`waiting`); with no room at all it is a 503."""
    jobs, waiting = [], []
    for row in get_engine().status():
        if row["cached"]:
            continue
        if waiting:
            waiting.append(row["id"])
            continue
        try:
            submission = get_engine().submit(row["id"])  # before the lecture: no time limit
        except QueueFull:
            if not jobs:
                raise  # nothing queued: busy, try again
            waiting.append(row["id"])
            continue
        if submission.job is not None:
            jobs.append({**submission.job.brief(), **job_links(submission.job.id)})
    return jsonify(jobs=jobs, waiting=waiting), 202


def find_job(job_id: str) -> Job:
    job = get_engine().job(job_id)
    if job is None:
        abort(404, "There is no such job; it may have finished long ago. Run the demo again.")
    return job


@bp.get("/jobs/<job_id>")
def show_job(job_id: str):
    state = find_job(job_id).snapshot()
    if kept_from_this_request(state["demo"]):
        return withheld(state["demo"])
    return jsonify({**state, **job_links(job_id)})


@bp.get("/jobs/<job_id>/events")
def job_events(job_id: str):
    """`progress` events while the job waits and trains, then one `done` or `failed` event. A student
    following a job whose poll opens meanwhile gets a `failed` event saying so, not the result."""
    job = find_job(job_id)
    demo_id = job.snapshot()["demo"]
    links = job_links(job_id)
    if job_kept_from_this_request(job_id, demo_id):
        return withheld(demo_id)

    def current():
        if job_kept_from_this_request(job_id, demo_id):
            refusal = {"job": job_id, "demo": demo_id, "status": "failed", "reason": POLL_OPEN, "error": MESSAGE}
            return "failed", refusal, True
        state = {**job.snapshot(), **links}
        final = state["status"] in TERMINAL
        return (state["status"] if final else "progress"), state, final

    return event_stream(job.wait_for_change, current, watching=job.watched)


@bp.post("/jobs/<job_id>/cancel")
def cancel_job(job_id: str):
    """Stop a job: allowed to whoever started it (the token its 202 answer gave) and the instructor.
    Answers at once; the job ends `cancelled` within a second or two, and nothing of it is cached."""
    job = find_job(job_id)
    if not (is_instructor() or same_secret(read_json_object().get("token"), job.cancel_token)):
        return json_error(403, "Only whoever started this run, or the lecturer, can cancel it.")
    if not job.finished:
        get_engine().cancel(job.id, "Cancelled. Nothing of this run was kept.")
    return jsonify({**job.snapshot(), **job_links(job.id)}), 202


def init_app(app: Flask) -> None:
    ratelimit.init_app(app)
    app.register_blueprint(bp)
