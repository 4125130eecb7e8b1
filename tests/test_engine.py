"""The engine without the web: caching in memory and on disk, restarts, corrupt entries,
single flight across threads and processes, failures, and the queue's bound."""
import json
import os
import subprocess
import sys
import threading
import time
import uuid
from concurrent.futures import ThreadPoolExecutor
from types import SimpleNamespace

import pytest

from tests import line_fit
from engine import Engine, QueueFull, notices
from engine import jobs as jobs_module
from engine.jobs import Job
from tests.clocks import step_the_clock_back
from tests.held_jobs import FAST, Gate, Spinner, wait_done
from tests.live_server import ROOT

@pytest.fixture
def cache_dir(tmp_path):
    return tmp_path / "cache"


@pytest.fixture
def runs(monkeypatch):
    """Counts how many times line_fit actually trains."""
    calls = []
    real_run = line_fit.run

    def counting_run(params, progress, device):
        calls.append(params)
        return real_run(params, progress, device)

    monkeypatch.setattr(line_fit, "run", counting_run)
    return calls


@pytest.fixture
def gate(monkeypatch):
    gate = Gate(monkeypatch)
    yield gate
    gate.opened.set()  # never leave a worker waiting


def test_a_result_is_computed_once_then_served_from_memory(cache_dir, runs):
    engine = Engine(cache_dir)
    first = engine.submit("line_fit", FAST)
    assert first.entry is None and first.job is not None
    state = wait_done(first.job)
    assert state["status"] == "done" and state["cached"] is False
    second = engine.submit("line_fit", FAST)
    assert second.job is None and second.entry.result == state["result"]
    assert len(runs) == 1


def test_every_result_says_what_produced_it(cache_dir):
    engine = Engine(cache_dir)
    entry, trained = engine.compute(*engine.resolve("line_fit", FAST))
    result = entry.result
    assert trained
    assert result["device"] == "cpu"
    assert result["params"] == {"seed": 0, "steps": 20, "lr": 0.05, "noise": 0.3, "points": 256}
    assert result["seed"] == 0
    assert 0 < result["train_seconds"] < 60
    assert json.loads(entry.body) == result


def test_different_parameters_are_different_entries(cache_dir, runs):
    engine = Engine(cache_dir)
    a, _ = engine.compute(*engine.resolve("line_fit", FAST))
    b, _ = engine.compute(*engine.resolve("line_fit", {**FAST, "seed": 1}))
    assert len(runs) == 2
    assert a.result["slope"] != b.result["slope"], "the seed changes the data, so the fit"
    # The same parameters spelled differently are the same entry.
    engine.compute(*engine.resolve("line_fit", {"steps": 20.0, "seed": 0, "lr": 0.05}))
    assert len(runs) == 2


def test_same_parameters_and_seed_give_the_same_result(tmp_path):
    one = Engine(tmp_path / "a").compute(*Engine(tmp_path / "a").resolve("line_fit", FAST))[0].result
    two = Engine(tmp_path / "b").compute(*Engine(tmp_path / "b").resolve("line_fit", FAST))[0].result
    assert {k: v for k, v in one.items() if k != "train_seconds"} == {k: v for k, v in two.items() if k != "train_seconds"}


def test_a_restarted_engine_serves_from_disk_without_training(cache_dir, runs):
    Engine(cache_dir).compute(*Engine(cache_dir).resolve("line_fit", FAST))
    assert len(runs) == 1
    restarted = Engine(cache_dir)
    submission = restarted.submit("line_fit", FAST)
    assert submission.entry is not None
    assert len(runs) == 1


@pytest.mark.parametrize("damage", [
    lambda text: text[: len(text) // 2],  # cut off mid-write by another program
    lambda text: "not json at all",
    lambda text: json.dumps({"key": "someone-else", "result": {}}),
    lambda text: json.dumps({"key": json.loads(text)["key"], "result": "oops"}),
    lambda text: "",
])
def test_a_corrupt_entry_is_logged_removed_and_recomputed(cache_dir, runs, caplog, damage):
    engine = Engine(cache_dir)
    demo, params, key = engine.resolve("line_fit", FAST)
    engine.compute(demo, params, key)
    path = engine.cache.path("line_fit", key)
    path.write_text(damage(path.read_text()))

    restarted = Engine(cache_dir)
    assert restarted.cached("line_fit", FAST) is None, "a corrupt entry is never served"
    assert "corrupt cache entry" in caplog.text
    assert not path.exists() or json.loads(path.read_text())["key"] == key
    entry, trained = restarted.compute(demo, params, key)
    assert trained and len(runs) == 2
    assert json.loads(path.read_text())["result"] == entry.result


def test_no_temporary_files_are_left_behind(cache_dir):
    engine = Engine(cache_dir)
    for seed in range(3):
        engine.compute(*engine.resolve("line_fit", {**FAST, "seed": seed}))
    files = sorted(p.name for p in (cache_dir / "results" / "line_fit").iterdir())
    assert len(files) == 3 and all(name.endswith(".json") and not name.startswith(".") for name in files)


def test_fifty_requests_at_once_train_once_and_all_get_the_result(cache_dir, runs, gate):
    engine = Engine(cache_dir)
    with ThreadPoolExecutor(max_workers=50) as pool:
        submissions = list(pool.map(lambda _: engine.submit("line_fit", FAST), range(50)))
    jobs = {s.job.id for s in submissions}
    assert len(jobs) == 1, "every request joined the one job"
    gate.opened.set()
    state = wait_done(submissions[0].job)
    assert state["status"] == "done"
    assert len(runs) == 1
    assert engine.submit("line_fit", FAST).entry.result == state["result"]


def test_fifty_threads_asking_the_api_way_train_once(cache_dir, runs):
    engine = Engine(cache_dir)
    barrier = threading.Barrier(50)

    def ask(_):
        barrier.wait()
        submission = engine.submit("line_fit", FAST)
        return submission.entry.result if submission.entry else wait_done(submission.job)["result"]

    with ThreadPoolExecutor(max_workers=50) as pool:
        results = list(pool.map(ask, range(50)))
    assert len(runs) == 1
    assert all(result == results[0] for result in results)


TRAIN_IN_A_PROCESS = """
import json, sys
import tests.fixture_app  # registers the test demo line_fit
from engine import Engine
engine = Engine(sys.argv[1])
print("ready", flush=True)
sys.stdin.readline()  # wait until both processes are ready
entry, trained = engine.compute(*engine.resolve("line_fit", {"steps": 2000}))
print(json.dumps({"trained": trained, "slope": entry.result["slope"]}))
"""


def test_two_processes_sharing_the_folder_train_once(cache_dir):
    processes = [subprocess.Popen([sys.executable, "-c", TRAIN_IN_A_PROCESS, str(cache_dir)], cwd=ROOT,
                                  stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True) for _ in range(2)]
    for process in processes:
        assert process.stdout.readline().strip() == "ready"
    for process in processes:  # release both together
        process.stdin.write("go\n")
        process.stdin.flush()
    outputs = [json.loads(process.communicate(timeout=120)[0]) for process in processes]
    assert sorted(out["trained"] for out in outputs) == [False, True]
    assert outputs[0]["slope"] == outputs[1]["slope"]


def test_progress_reaches_the_job_while_it_trains(cache_dir, gate):
    engine = Engine(cache_dir)
    job = engine.submit("line_fit", FAST).job
    assert gate.entered.wait(timeout=30)
    version, deadline = -1, time.monotonic() + 60  # the deadline only ends a hang
    while "data" not in (state := job.snapshot()):  # published within a tenth of a second
        assert time.monotonic() < deadline, state
        version = job.wait_for_change(version, timeout=1)
    assert state["status"] == "running"
    assert state["progress"] == 0.5 and state["message"] == "halfway, held at the gate"
    assert state["data"] == {"partial": [1, 2, 3]}
    gate.opened.set()
    assert wait_done(job)["status"] == "done"


def test_a_failing_demo_ends_as_failed_and_the_next_job_runs(cache_dir, monkeypatch):
    engine = Engine(cache_dir)

    def broken(params, progress, device):
        raise RuntimeError("CUDA out of memory. Tried to allocate 2.00 GiB")

    monkeypatch.setattr(line_fit, "run", broken)
    failed = wait_done(engine.submit("line_fit", FAST).job)
    assert failed["status"] == "failed"
    assert "ran out of memory" in failed["error"] and "Traceback" not in failed["error"]
    monkeypatch.undo()
    assert wait_done(engine.submit("line_fit", FAST).job)["status"] == "done"


def test_a_result_with_nan_fails_clearly_and_is_not_cached(cache_dir, monkeypatch):
    engine = Engine(cache_dir)
    monkeypatch.setattr(line_fit, "run", lambda params, progress, device: {"final_loss": float("nan")})
    failed = wait_done(engine.submit("line_fit", FAST).job)
    assert failed["status"] == "failed" and "not finite" in failed["error"]
    assert engine.cached("line_fit", FAST) is None


def test_a_full_queue_refuses_new_jobs(cache_dir, gate):
    engine = Engine(cache_dir, max_queued=1)
    running = engine.submit("line_fit", {**FAST, "seed": 1}).job  # taken by the worker, held at the gate
    assert gate.entered.wait(timeout=30)
    waiting = engine.submit("line_fit", {**FAST, "seed": 2}).job  # waits in the queue
    with pytest.raises(QueueFull):
        engine.submit("line_fit", {**FAST, "seed": 3})
    gate.opened.set()
    assert wait_done(running)["status"] == wait_done(waiting)["status"] == "done"


def test_force_trains_again_even_when_cached(cache_dir, runs):
    engine = Engine(cache_dir)
    engine.compute(*engine.resolve("line_fit", FAST))
    job = engine.submit("line_fit", FAST, force=True).job
    assert wait_done(job)["cached"] is False
    assert len(runs) == 2


def test_a_cache_folder_that_cannot_be_written_degrades_to_memory(tmp_path, runs, caplog):
    blocker = tmp_path / "a-file"
    blocker.write_text("the cache folder would have to be inside this file")  # fails even for root
    engine = Engine(blocker / "cache")
    entry, trained = engine.compute(*engine.resolve("line_fit", FAST))
    assert trained and "memory only" in caplog.text
    assert engine.submit("line_fit", FAST).entry.result == entry.result
    assert len(runs) == 1


def test_the_status_lists_every_demo_with_its_cache_state(cache_dir):
    engine = Engine(cache_dir)
    before = {row["id"]: row for row in engine.status()}
    assert set(before) >= {"system_check", "line_fit"}
    assert before["line_fit"]["cached"] is False
    engine.compute(*engine.resolve("line_fit", None))
    after = {row["id"]: row for row in engine.status()}
    assert after["line_fit"]["cached"] is True and after["system_check"]["cached"] is False


def test_a_time_limited_job_stops_and_says_why(cache_dir):
    engine = Engine(cache_dir)
    stopped = wait_done(engine.submit("line_fit", FAST, time_limit=0).job)
    assert stopped["status"] == "cancelled" and stopped["stopped_by"] == "time_limit"
    assert "Stopped after 0 s" in stopped["error"]
    assert engine.cached("line_fit", FAST) is None
    assert wait_done(engine.submit("line_fit", FAST).job)["status"] == "done"


def test_the_lecturers_jobs_go_before_students_jobs(cache_dir, gate):
    engine = Engine(cache_dir)
    first = engine.submit("line_fit", {**FAST, "seed": 1}).job  # held at the gate
    assert gate.entered.wait(timeout=30)
    student = engine.submit("line_fit", {**FAST, "seed": 2}, student=True, time_limit=600).job
    lecturer = engine.submit("line_fit", {**FAST, "seed": 3}).job
    gate.opened.set()
    for job in (first, student, lecturer):
        assert wait_done(job)["status"] == "done"
    assert lecturer.started < student.started


def test_joining_a_students_job_lifts_its_time_limit(cache_dir, gate):
    engine = Engine(cache_dir)
    job = engine.submit("line_fit", FAST, student=True, time_limit=0.5).job
    assert gate.entered.wait(timeout=30)
    assert engine.submit("line_fit", FAST).job is job and job.time_limit is None
    time.sleep(0.6)  # past the student's limit: the job must not be stopped now
    gate.opened.set()
    assert wait_done(job)["status"] == "done"


@pytest.fixture
def spinner(monkeypatch):
    return Spinner(monkeypatch)


def test_a_running_job_stops_at_its_next_report_when_cancelled_and_nothing_is_cached(cache_dir, spinner):
    engine = Engine(cache_dir)
    job = engine.submit("line_fit", FAST).job
    assert spinner.entered.wait(timeout=30)
    engine.cancel(job.id, "Cancelled by the test.")
    assert job.stop_reason == "Cancelled by the test.", "the cancel is taken at once"
    # The spinner never ends by itself (it fails after 30 s): ending cancelled, it was the cancel that stopped it.
    state = ended(job)
    assert state["status"] == "cancelled" and state["error"] == "Cancelled by the test."
    assert state["stopped_by"] == "cancel"
    assert engine.cached("line_fit", FAST) is None
    assert engine.in_flight == {}  # the slot is free: the next run starts a fresh job
    again = engine.submit("line_fit", FAST).job
    assert again is not job
    engine.cancel(again.id)  # leave no job running into the next test
    assert ended(again)["status"] == "cancelled"


def test_a_queued_job_is_cancelled_at_once_and_never_runs(cache_dir, gate, runs):
    engine = Engine(cache_dir)
    first = engine.submit("line_fit", {**FAST, "seed": 1}).job
    assert gate.entered.wait(timeout=30)
    queued = engine.submit("line_fit", {**FAST, "seed": 2}).job
    engine.cancel(queued.id)
    assert queued.snapshot()["status"] == "cancelled"
    gate.opened.set()
    assert wait_done(first)["status"] == "done"
    follower = engine.submit("line_fit", {**FAST, "seed": 3}).job  # runs after the cancelled one was skipped
    assert wait_done(follower)["status"] == "done"
    assert [params["seed"] for params in runs] == [1, 3]


def test_another_process_can_cancel_a_job_through_the_board(cache_dir, spinner):
    runner, other = Engine(cache_dir), Engine(cache_dir)  # two server processes sharing the cache folder
    job = runner.submit("line_fit", FAST).job
    assert spinner.entered.wait(timeout=30)
    # The runner posts the job's state on the board as it changes: the other process sees it soon after.
    wait_until(lambda: other.job(job.id) is not None and other.job(job.id).snapshot()["status"] == "running", timeout=60)
    other.cancel(job.id, "Cancelled from another process.")
    state = ended(job)
    assert state["error"] == "Cancelled from another process." and state["stopped_by"] == "cancel"
    wait_until(lambda: other.job(job.id).snapshot()["status"] == "cancelled", timeout=60)  # only ends a hang
    assert other.job(job.id).snapshot()["stopped_by"] == "cancel"  # every process can tell what stopped it


def test_a_new_run_of_the_lecturer_stops_a_students_running_job(cache_dir, spinner, monkeypatch):
    engine = Engine(cache_dir)
    student = engine.submit("line_fit", {**FAST, "seed": 1}, student=True, time_limit=600).job
    assert spinner.entered.wait(timeout=30)
    monkeypatch.undo()  # the lecturer's run is a real (short) one
    lecturer = engine.submit("line_fit", {**FAST, "seed": 2}).job
    # The student's spinner never ends by itself (it fails after 30 s, far inside its 600 s limit):
    # ending cancelled by the lecturer, it gave way rather than the lecturer waiting for its end.
    assert ended(student)["status"] == "cancelled"
    assert "lecturer" in student.snapshot()["error"] and student.snapshot()["stopped_by"] == "lecturer"
    assert ended(lecturer)["status"] == "done"


def test_a_students_job_gives_way_to_a_lecturer_run_posted_after_it_though_the_clock_went_back(
        cache_dir, spinner, monkeypatch):
    """Which came first is told by the board's versions, not by clocks: the lecturer's run, started
    after the student's job, stops it even though the clock was stepped back an hour in between."""
    engine = Engine(cache_dir)
    student = engine.submit("line_fit", {**FAST, "seed": 1}, student=True, time_limit=600).job
    assert spinner.entered.wait(timeout=30)
    monkeypatch.undo()  # the lecturer's run is a real (short) one
    step_the_clock_back(monkeypatch)
    lecturer = engine.submit("line_fit", {**FAST, "seed": 2}).job
    assert ended(student)["status"] == "cancelled" and student.snapshot()["stopped_by"] == "lecturer"
    assert ended(lecturer)["status"] == "done"


def test_a_job_whose_process_stopped_beating_reads_as_stopped_though_its_pid_lives(cache_dir):
    """A job's process is alive while its heartbeat changes, not while some process has its PID: a
    notice naming this very test process's PID, from a process id that never beat, reads as failed
    once a lease has passed since this process first looked."""
    engine = Engine(cache_dir, lease_seconds=0.5)
    job_id = "0123456789abcdef"
    running = {"job": job_id, "demo": "line_fit", "status": "running", "progress": 0.5, "message": "training"}
    engine.board.write(notices.job(job_id), {"pid": os.getpid(), "process": uuid.uuid4().hex,
                                             "snapshot": running, "cancel_token": "t", "student": False})
    job = engine.job(job_id)
    assert job.snapshot()["status"] == "running", "given a lease from the first look"
    wait_until(lambda: job.snapshot()["status"] == "failed", timeout=60)  # only ends a hang
    assert "stopped before it finished" in job.snapshot()["error"]


def test_a_job_whose_process_beats_reads_as_running_for_longer_than_a_lease(cache_dir, gate):
    runner, other = Engine(cache_dir, lease_seconds=0.5), Engine(cache_dir, lease_seconds=0.5)
    job = runner.submit("line_fit", FAST).job
    assert gate.entered.wait(timeout=30)
    seen = other.job(job.id)
    with pytest.raises(TimeoutError):
        wait_until(lambda: seen.snapshot()["status"] != "running", timeout=4 * 0.5)
    gate.opened.set()
    wait_until(lambda: seen.snapshot()["status"] == "done", timeout=60)  # only ends a hang


def test_watchers_counted_by_a_process_that_stopped_beating_keep_no_job_running(cache_dir, spinner):
    """A count of streams posted by a process that no longer beats (killed while its streams followed
    the job) stops counting a lease after the job's process first looked, though its PID lives."""
    engine = Engine(cache_dir, lease_seconds=0.5)
    job = engine.submit("line_fit", FAST, watched=True).job
    assert spinner.entered.wait(timeout=30)
    gone = uuid.uuid4().hex
    engine.board.write(notices.watchers(job.id, gone), {"pid": os.getpid(), "process": gone, "count": 1})
    with job.watched():
        pass  # the page here closes; the gone process's stream "still follows" it
    state = wait_done(job, timeout=2 * jobs_module.UNWATCHED_GRACE + 3)
    assert state["status"] == "cancelled" and state["stopped_by"] == "unwatched"


def test_a_job_whose_last_watcher_left_is_cancelled_but_not_while_one_remains(cache_dir, spinner):
    engine = Engine(cache_dir)
    job = engine.submit("line_fit", FAST, watched=True).job
    assert spinner.entered.wait(timeout=30)
    first, second = job.watched(), job.watched()  # two pages follow it
    first.__enter__(), second.__enter__()
    first.__exit__(None, None, None)  # one page closes: the other still watches
    with pytest.raises(TimeoutError):
        wait_until(lambda: job.finished, timeout=jobs_module.UNWATCHED_GRACE + 1)
    second.__exit__(None, None, None)  # the last one closes
    state = wait_done(job, timeout=jobs_module.UNWATCHED_GRACE + 3)
    assert state["status"] == "cancelled" and state["stopped_by"] == "unwatched"


def test_a_page_reloaded_onto_another_server_process_keeps_the_job(cache_dir, spinner):
    runner, other = Engine(cache_dir), Engine(cache_dir)  # two server processes sharing the cache folder
    job = runner.submit("line_fit", FAST, watched=True).job
    assert spinner.entered.wait(timeout=30)
    old_page = job.watched()
    old_page.__enter__()
    with other.job(job.id).watched():  # the reloaded page's stream lands on the other process
        old_page.__exit__(None, None, None)  # the old page's stream closes
        with pytest.raises(TimeoutError):
            wait_until(lambda: job.finished, timeout=jobs_module.UNWATCHED_GRACE + 1)
    # The reloaded page closes too: now nobody watches anywhere.
    state = wait_done(job, timeout=2 * jobs_module.UNWATCHED_GRACE + 3)
    assert state["status"] == "cancelled" and state["stopped_by"] == "unwatched"


def test_a_job_nobody_started_from_a_slide_is_not_cancelled_for_want_of_watchers(cache_dir, gate):
    engine = Engine(cache_dir)
    job = engine.submit("line_fit", FAST).job  # e.g. "warm all demos": nobody follows it
    assert gate.entered.wait(timeout=30)
    with job.watched():
        pass
    with pytest.raises(TimeoutError):
        wait_until(lambda: job.finished, timeout=jobs_module.UNWATCHED_GRACE + 1)
    gate.opened.set()
    assert wait_done(job)["status"] == "done"


def test_estimates_come_from_earlier_runs_and_scale_with_the_demos_work(cache_dir):
    engine = Engine(cache_dir)
    assert engine.estimate("line_fit", FAST) is None  # never run here: nothing to go on
    seconds = wait_done(engine.submit("line_fit", FAST).job)["result"]["train_seconds"]
    same = engine.estimate("line_fit", FAST)
    assert same.seconds == pytest.approx(seconds, abs=0.002) and "1 earlier run with these settings" in same.basis
    double = engine.estimate("line_fit", {"steps": 40})
    assert double.seconds == pytest.approx(2 * seconds, rel=0.01) and "other settings" in double.basis
    restarted = Engine(cache_dir)  # written down in the cache folder: a restarted server still knows
    assert restarted.estimate("line_fit", FAST).seconds == pytest.approx(seconds, abs=0.002)
    job = restarted.submit("line_fit", {"steps": 40}).job
    assert job.brief()["expected_seconds"] == pytest.approx(2 * seconds, abs=0.1)
    wait_done(job)  # no run left going into the next test (it would train with that test's stand-ins)


def test_a_running_job_says_how_long_it_has_left():
    assert jobs_module.remaining_seconds(None, 0.5, 0.0) is None
    assert jobs_module.remaining_seconds(10.0, 4.0, 0.01, (1.0, 0.01)) == pytest.approx(6.0)  # the estimate, at first
    assert jobs_module.remaining_seconds(None, 10.0, 0.5, (0.0, 0.0)) == pytest.approx(10.0)  # its own pace
    # The pace is timed from the first report: 6 s of setup are not taken for slow training.
    assert jobs_module.remaining_seconds(None, 10.0, 0.5, (6.0, 0.1)) == pytest.approx(5.0)
    # Half done, the pace (10 s) counts a quarter and the estimate (90 s) the rest: steps still to go
    # overstate what is left of a run that stops once solved; at the end the pace has the last word.
    assert jobs_module.remaining_seconds(100.0, 10.0, 0.5, (0.0, 0.0)) == pytest.approx(0.75 * 90 + 0.25 * 10)
    assert jobs_module.remaining_seconds(100.0, 10.0, 1.0, (0.0, 0.0)) == pytest.approx(0.0)
    # Past its estimate, a run is not "almost done" for ever: its pace alone says what is left.
    assert jobs_module.remaining_seconds(10.0, 20.0, 0.5, (0.0, 0.0)) == pytest.approx(20.0)
    assert jobs_module.remaining_seconds(100.0, 99.0, 0.995, (0.0, 0.0)) < 1


def test_the_time_left_goes_down_between_reports(monkeypatch):
    clock = SimpleNamespace(now=100.0)
    monkeypatch.setattr(jobs_module, "time", SimpleNamespace(monotonic=lambda: clock.now, time=time.time, time_ns=time.time_ns))
    job = Job("line_fit", {}, "key", expected=20.0)
    job.start()
    clock.now += 2
    job.report(0.1, "step 10")
    first = job.brief()["eta_seconds"]
    assert first == pytest.approx(18.0)
    clock.now += 3  # no report meanwhile (a demo between two timings)
    assert job.brief()["eta_seconds"] == pytest.approx(15.0)


def ended(job, deadline_seconds: float = 120) -> dict:
    """The job's state once it has ended. The deadline only ends a hang (wait_done's timeout bounds each
    wait for a change, not the whole)."""
    deadline = time.monotonic() + deadline_seconds
    version = -1
    while not job.finished:
        assert time.monotonic() < deadline, f"the job never ended: {job.snapshot()}"
        version = job.wait_for_change(version, timeout=1)
    return job.snapshot()


def wait_until(condition, timeout):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if condition():
            return
        time.sleep(0.05)
    raise TimeoutError
