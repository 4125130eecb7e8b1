"""The Engine: runs demos in the background, one at a time, and caches what they return.

It is plain Python (no Flask): the web app, `flask warm`, the benchmarks and the tests all
drive the same `Engine`.

- `submit` answers at once: a cached result, or a job that a worker thread will run.
- Single flight: while a job for a key is queued or running, asking again gives that job;
  across processes sharing the cache folder, a file lock lets one train and the others
  wait and then read its result.
- `compute` is the one path that trains: under the key's lock, look in the cache, else
  run the demo (holding the device's lock: one training at a time per device, across
  processes) and store the result.
- Every job posts its state on the board, so any server process can report on it; the process
  beats on the board meanwhile (`engine.liveness`), so that the others can tell it was killed.
- Jobs can be cancelled (by this process or, through the board, by another); a new run of the
  lecturer's stops a student's running job, so the lecturer never waits on a student.
- With `training="worker"` (FLASK_TRAINING=worker, on Redis) `submit` trains nothing itself: it puts
  the job on a queue for a training worker in another process (engine/training_queue.py), whose own
  Engine runs it (`run_enqueued`) and posts it on the board like any job of its own.
- Every training run's time is written down (`Timings`), and `estimate` tells a slide how long
  its settings will take before anyone presses Run: from those times, or before a demo's first
  run from the server's own speed test (`Calibration`, started with the engine if `calibrate`).
"""
import itertools
import json
import logging
import queue
import threading
import time
from collections import OrderedDict
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import Callable

import filelock
import torch

from demos import DEMOS, get_demo
from demos.runtime import budgets
from demos.runtime.device import device_label, pick_device
from demos.runtime.params import ParamError
from demos.runtime.runner import Progress, effective_params, no_progress, run_demo
from demos.runtime.storage import ModelStore, using_store
from demos.runtime.versions import code_version
from engine.board import BoardUnavailable, open_board
from engine.cache import Entry, ResultCache, cache_key
from engine.carried import CarriedIndex
from engine import notices
from engine.calibration import Calibration
from engine.jobs import JOB_ID, UNWATCHED, Job, JobStopped, RemoteJob
from engine.liveness import LEASE_SECONDS, Heartbeat, Liveness
from engine.timings import Estimate, Timings, work

log = logging.getLogger(__name__)
job_log = logging.getLogger("greatshift.jobs")  # one JSON line per training job
RECENT_JOBS = 500  # finished jobs remembered for late pollers
JOB_NOTICE_SECONDS = 3600  # how long other processes can still read about a finished job
PREEMPTED = "Stopped so that the lecturer's demo could run first. Press Run again in a minute."


class QueueFull(Exception):
    """Too many jobs are waiting; try again shortly."""


@dataclass
class Submission:
    entry: Entry | None = None  # the cached result, when there was one
    job: Job | None = None  # otherwise the job that will produce it
    new: bool = False  # the job was started by this request (not one already queued or running)


class Engine:
    def __init__(self, cache_dir: Path | None, device: str = "auto", max_queued: int = 8,
                 torch_threads: int | None = None, calibrate: bool = False, lease_seconds: float = LEASE_SECONDS,
                 redis_url: str | None = None, redis_prefix: str | None = None, training: str | None = None):
        if training not in (None, "", "here", "worker"):
            raise ValueError(f"training must be 'here' (the default) or 'worker', not {training!r}")
        if training == "worker" and not redis_url:
            raise ValueError("training on a worker (FLASK_TRAINING=worker) needs a Redis (FLASK_REDIS_URL): "
                             "the worker takes its jobs from there")
        self.device = pick_device(device)
        # Small models train as fast on one CPU thread as on several, and much faster when the
        # cores are busy (serving pages, other processes); the rest are left to the server.
        if torch_threads or self.device.type == "cpu":
            torch.set_num_threads(torch_threads or 1)
        if self.device.type == "cuda":
            ready_gpu(self.device)
        self.cache = ResultCache(cache_dir)
        self.models = ModelStore(cache_dir)  # trained weights that later requests reuse
        self.carried = CarriedIndex(cache_dir)  # results measured elsewhere and loaded here (engine.carried)
        # Notices every server process reads (jobs, follow mode): in the cache folder, or on Redis.
        self.board = open_board(cache_dir, redis_url, redis_prefix)
        self.board.remove_older_than(notices.JOB, JOB_NOTICE_SECONDS)
        self.board.remove_older_than(notices.CANCEL, JOB_NOTICE_SECONDS)
        self.board.remove_older_than(notices.WATCHERS, JOB_NOTICE_SECONDS)
        self.board.remove_older_than(notices.ALIVE, JOB_NOTICE_SECONDS)
        self.board.remove_older_than(notices.WORKER, JOB_NOTICE_SECONDS)
        # One Engine per server process: its heartbeat is the process's, and names it on the board.
        self.heartbeat = Heartbeat(self.board, lease_seconds)
        self.liveness = Liveness(self.board, lease_seconds)  # whether other processes still beat
        self.timings = Timings(cache_dir)
        self.calibration = Calibration(cache_dir, self.device, self.device_label,
                                       hold_device=lambda: self.cache.lock_for(f"device-{self.device.type}"))
        if calibrate:  # in the background: the server answers meanwhile; an estimate waits for it
            self.calibration.start()
        self.notice_lock = threading.Lock()
        for demo in DEMOS.values():
            self.cache.pin(self.default_key(demo))
        self.queue: queue.PriorityQueue = queue.PriorityQueue(maxsize=max_queued)  # (priority, arrival, job)
        self.arrivals = itertools.count()
        self.jobs: OrderedDict[str, Job] = OrderedDict()
        self.in_flight: dict[str, Job] = {}  # key → the queued or running job for it
        self.lock = threading.Lock()
        self.worker: threading.Thread | None = None
        self.training_queue = None  # set: jobs go to a training worker, and wait in `enqueued` until it takes them
        self.enqueued: OrderedDict[str, Job] = OrderedDict()
        if training == "worker":
            from engine.training_queue import TrainingQueue  # only then is RQ needed

            self.training_queue = TrainingQueue(redis_url, redis_prefix)

    @property
    def device_label(self) -> str:
        return device_label(self.device)

    # ---- asking for results

    def key(self, demo: ModuleType, params: dict) -> str:
        return cache_key(demo.ID, params, code_version(demo.__name__))

    def default_key(self, demo: ModuleType) -> str:
        """The key of `demo`'s default result on this device's class (`demos.runtime.budgets`)."""
        return self.key(demo, effective_params(demo, None, self.device))

    def resolve(self, demo_id: str, raw_params: dict | None) -> tuple[ModuleType, dict, str]:
        """The demo, its effective parameters (the defaults of this device's class filled in) and its
        cache key; raises UnknownDemo or ParamError."""
        demo = get_demo(demo_id)
        params = effective_params(demo, raw_params, self.device)
        return demo, params, self.key(demo, params)

    def cached(self, demo_id: str, raw_params: dict | None = None) -> Entry | None:
        demo, _, key = self.resolve(demo_id, raw_params)
        return self.cache.get(demo.ID, key)

    def full_params(self, demo: ModuleType) -> dict | None:
        """The raw parameters of `demo`'s prepared run on this device's class (what `flask warm --full`
        computes); None where it has none, or where its settings cannot run on this installation
        (e.g. a GPU sweep whose learning rates are not chosen yet: `warm --full` says so)."""
        raw = budgets.full_params(demo, self.device)
        if raw is None:
            return None
        try:
            effective_params(demo, raw, self.device)
        except ParamError:
            return None
        return raw

    def cached_full(self, demo_id: str) -> Entry | None:
        """The cached prepared run of this device's class, or None (none, not runnable here, not cached)."""
        raw = self.full_params(get_demo(demo_id))
        return None if raw is None else self.cached(demo_id, raw)

    def carried_run(self, demo_id: str) -> Entry | None:
        """The newest result of `demo_id` carried in from another installation (`flask results load`),
        its prepared run before its default; not one under this device's default key (that one is the
        slide's default, measured elsewhere). None where nothing was carried in."""
        default_key = self.default_key(get_demo(demo_id))
        runs = sorted(self.carried.runs(demo_id), key=lambda run: (run["run"] == "full", run["created"]), reverse=True)
        for run in runs:
            entry = None if run["key"] == default_key else self.cache.get(demo_id, run["key"])
            if entry is not None and "carried" in entry.result:  # (a Retrain here may have replaced it)
                return entry
        return None

    def prepared(self, demo_id: str) -> Entry | None:
        """The run that speaks for a slide beyond its default: one carried in from another machine, else
        this device class's prepared run (`flask warm --full`); None where neither is cached."""
        return self.carried_run(demo_id) or self.cached_full(demo_id)

    def estimate(self, demo_id: str, raw_params: dict | None = None) -> Estimate | None:
        """How long a run with these settings will take here, from earlier runs or the speed test (None:
        neither is to be had)."""
        demo, params, _ = self.resolve(demo_id, raw_params)
        return self._estimate(demo, params)

    def _estimate(self, demo: ModuleType, params: dict) -> Estimate | None:
        with using_store(self.models):  # a demo's work is less when a model it needs is kept
            return self.timings.estimate(demo, self.device_label, params, self.calibration.seconds)

    def submit(self, demo_id: str, raw_params: dict | None = None, force: bool = False,
               admit: Callable[[], None] | None = None, time_limit: float | None = None,
               student: bool = False, watched: bool = False) -> Submission:
        """A cached result now, or the job that will compute it (QueueFull if no room).

        `admit()` is called only when a new job would start (not for cached results or jobs
        already running) and may raise to refuse it, e.g. a per-client rate limit. A new job
        stops after `time_limit` seconds of running, if given. A `student`'s jobs run after the
        lecturer's, and a new job of the lecturer's stops a student's running one. A `watched`
        job (a slide follows it) is cancelled when nobody follows it any more.
        """
        demo, params, key = self.resolve(demo_id, raw_params)
        if not force:
            entry = self.cache.get(demo.ID, key)
            if entry is not None:
                return Submission(entry=entry)
        with self.lock:
            job = self._joinable(key)
            if job is not None:
                if not student and isinstance(job, Job):  # the lecturer wants it too: it finishes, whoever started it
                    job.time_limit, job.student = time_limit, False
                return Submission(job=job)
            # A job may have finished since we looked: it stores its result before leaving in_flight.
            entry = None if force else self.cache.get(demo.ID, key)
            if entry is not None:
                return Submission(entry=entry)
            if admit is not None:
                admit()
            job = self._new_job(demo, params, key, force, time_limit, student)
            if self.training_queue is not None:
                return self._enqueue(job, watched)
            job.should_stop = self._stop_requested
            if watched:
                job.on_unwatched = lambda job: self.cancel(job.id, UNWATCHED, by="unwatched")
                job.watched_elsewhere = self.watched_elsewhere
            try:
                self.queue.put_nowait((int(student), next(self.arrivals), job))
            except queue.Full:
                raise QueueFull from None
            self.heartbeat.hold(job.id)  # until the job ends (_post_notice)
            if not student:
                self.board.write(notices.LECTURER_RUN, {"job": job.id})
            self.in_flight[key] = job
            self.jobs[job.id] = job
            self._forget_old_jobs()
            self._start_worker()
        return Submission(job=job, new=True)

    def _new_job(self, demo: ModuleType, params: dict, key: str, force: bool, time_limit: float | None,
                 student: bool, **ids) -> Job:
        """A job of `demo` posted on the board as it changes, with this machine's estimate of its time;
        `ids`: the id and cancel token a web process gave a job it enqueued for this one (run_enqueued)."""
        estimate = self._estimate(demo, params)
        return Job(demo.ID, params, key, force, on_publish=self._post_notice, time_limit=time_limit,
                   expected=estimate.seconds if estimate else None, student=student, **ids)

    def _joinable(self, key: str) -> Job | RemoteJob | None:
        """The queued or running job for `key` that a new request for it joins, if there is one."""
        job = self.in_flight.get(key)
        if isinstance(job, RemoteJob):  # on the training worker: only the board tells when it ends
            if not job.finished:
                return job
            del self.in_flight[key]
            return None
        return job if job is not None and job.stop_reason is None else None

    def _enqueue(self, job: Job, watched: bool) -> Submission:
        """Hand `job` to the training worker: post it queued, then put it on the worker's queue, last, so
        that a Redis lost midway answers 503 with nothing left to train; the caller follows it on the
        board, as another process's job (call with the lock held)."""
        if self.training_queue.waiting() >= self.queue.maxsize:
            raise QueueFull
        self._post_notice(job)
        if not job.student:  # a student's job running on the worker gives way (it reads the board too)
            self.board.write(notices.LECTURER_RUN, {"job": job.id})
        self.training_queue.enqueue(job, watched)
        self.enqueued[job.id] = job  # to end it at once if it is cancelled before the worker takes it
        while len(self.enqueued) > RECENT_JOBS:
            self.enqueued.popitem(last=False)
        self.in_flight[job.key] = remote = self._remote(job.id)
        return Submission(job=remote, new=True)

    def run_enqueued(self, job_id: str, demo_id: str, params: dict, key: str, force: bool,
                     time_limit: float | None, student: bool, cancel_token: str) -> None:
        """Run, as this process's own, a job that a web process put on the training worker's queue
        (engine.training_queue): its progress and end go on the board, and this process beats meanwhile."""
        demo = get_demo(demo_id)
        job = self._new_job(demo, params, key, force, time_limit, student, job_id=job_id, cancel_token=cancel_token)
        job.should_stop = self._stop_requested
        with self.lock:
            self.jobs[job.id] = job
            self._forget_old_jobs()
        version, request = self.board.read(notices.cancel(job.id))
        if version:  # cancelled while it waited on the queue
            job.cancelled(request["reason"], request.get("by", "cancel"))
            return
        self.heartbeat.hold(job.id)  # until the job ends (_post_notice)
        self._run_job(job)

    def workers_running(self) -> bool:
        """Whether a training worker (flask worker) beats on the board."""
        return any(self.liveness.alive(name.removeprefix(notices.WORKER)) for name in self.board.names(notices.WORKER))

    def job(self, job_id: str) -> Job | RemoteJob | None:
        """A job of this process, or one another server process posted on the board."""
        if job_id in self.jobs:
            return self.jobs[job_id]
        if JOB_ID.match(job_id) and self.board.read(notices.job(job_id))[0]:
            return self._remote(job_id)
        return None

    def _remote(self, job_id: str) -> RemoteJob:
        taken_by = self.training_queue.taken_by if self.training_queue is not None else None
        return RemoteJob(self.board, job_id, self.heartbeat, self.liveness, self.workers_running, taken_by)

    def _post_notice(self, job: Job) -> None:
        # Serialised, and the snapshot taken inside the lock: the last notice is the job's latest state.
        with self.notice_lock:
            try:
                # `in_queue`: waiting on the training worker's queue, where no process holds it
                in_queue = self.training_queue is not None and job.status == "queued"
                self.board.write(notices.job(job.id), {"process": self.heartbeat.process_id, "snapshot": job.snapshot(),
                                                       "cancel_token": job.cancel_token, "student": job.student,
                                                       "in_queue": in_queue})
            except BoardUnavailable:
                pass  # the job runs on, and its next change is posted: only other processes miss this one
        if job.finished:  # no one needs to know this process runs it any more
            self.heartbeat.release(job.id)

    def cancel(self, job_id: str, reason: str = "Cancelled.", by: str = "cancel") -> None:
        """Stop a job: a queued one at once, a running one at its next progress report (within a
        fraction of a second). A job of another process is asked through the board. `by`: what
        stopped it (one of STOPPED_BY), kept with the job for the page that started it."""
        job = self.jobs.get(job_id)
        if job is None:
            self.board.write(notices.cancel(job_id), {"reason": reason, "by": by})
            waiting = self.enqueued.pop(job_id, None)
            if waiting is not None and self.training_queue.withdraw(job_id):  # no worker took it: it ends now
                waiting.cancelled(reason, by)
            return
        with self.lock:
            if job.finished:
                return
            if job.stop_reason is None:
                job.stop_reason, job.stop_by = reason, by
            if job.status == "queued":  # never started: it ends now, and the worker will skip it
                if self.in_flight.get(job.key) is job:
                    del self.in_flight[job.key]
                job.cancelled(job.stop_reason, job.stop_by)

    def watched_elsewhere(self, job: Job) -> bool:
        """Whether an event stream in another server process follows `job`."""
        counts = (self.board.read(name)[1] for name in self.board.names(notices.watchers(job.id)))
        return any(count["count"] > 0 and self.liveness.alive(count.get("process", "")) for count in counts)

    def _stop_requested(self, job: Job) -> tuple[str, str] | None:
        """Why `job` should stop and who asked (other processes, or the lecturer's run): or None."""
        try:
            version, request = self.board.read(notices.cancel(job.id))
            if version:
                return request["reason"], request.get("by", "cancel")
            if job.student and self.board.read(notices.LECTURER_RUN)[0] > job.started_version:  # posted after it started
                return PREEMPTED, "lecturer"
        except BoardUnavailable:
            pass  # no request can be heard while the board is away: the run goes on rather than fail
        return None

    # ---- computing

    def compute(self, demo: ModuleType, params: dict, key: str, progress: Progress = no_progress,
                force: bool = False, lecturer: bool = True,
                stop_check: Callable[[], None] | None = None) -> tuple[Entry, bool]:
        """The result for `key`, trained here only if no one has it; returns (entry, trained_here).
        The `lecturer`'s run, finding the device busy, asks a student's job there to give way."""
        with holding(self.cache.lock_for(key), progress, "another server process is training this demo; waiting for its result"):
            if not force:
                entry = self.cache.get(demo.ID, key)
                if entry is not None:
                    return entry, False
            # One training at a time on this device, across every process sharing the cache folder.
            device_lock = self.cache.lock_for(f"device-{self.device.type}")
            give_way = (lambda: self.board.write(notices.LECTURER_RUN, {})) if lecturer else None
            with holding(device_lock, progress, f"waiting for the {self.device.type}: another process is training on it", give_way):
                with using_store(self.models):
                    cost = work(demo, params)  # before the run: after it, the models it trained are kept
                result = run_demo(demo, params, progress, self.device, self.models, stop_check)
            self.timings.record(demo, self.device_label, params, result["train_seconds"], cost)
            return self.cache.put(demo.ID, key, params, result), True

    def _run_job(self, job: Job) -> None:
        with self.lock:
            if job.finished:  # cancelled while it waited in the queue
                return
            job.start(self.board.current_version())
        started = time.perf_counter()
        record = {"event": "job", "job": job.id, "demo": job.demo_id, "params": job.params, "device": self.device_label}
        try:
            entry, trained = self.compute(get_demo(job.demo_id), job.params, job.key, job.report, job.force,
                                          lecturer=not job.student, stop_check=job.check_stop)
            record["outcome"] = "trained" if trained else "cached"
        except JobStopped as stop:  # cancelled, preempted, unwatched or out of time: `by` says which
            record.update(outcome="cancelled", stopped_by=stop.by, error=str(stop))
        except Exception as error:  # a failed demo must not take the worker down with it
            log.exception("job %s (%s) failed", job.id, job.demo_id)
            record.update(outcome="failed", error=explain_failure(error))
        # Leave in_flight before telling anyone the job ended, so that a request that hears
        # of the end and asks again gets the cached result or a fresh job, never this one.
        with self.lock:
            if self.in_flight.get(job.key) is job:
                del self.in_flight[job.key]
        if record["outcome"] == "cancelled":
            job.cancelled(record["error"], record["stopped_by"])
        elif record["outcome"] == "failed":
            job.fail(record["error"])
        else:
            job.finish(entry.result, cached=record["outcome"] == "cached")
        record["seconds"] = round(time.perf_counter() - started, 3)
        job_log.info(json.dumps(record))

    def _work(self) -> None:
        while True:
            self._run_job(self.queue.get()[2])

    def _start_worker(self) -> None:
        if self.worker is None:
            self.worker = threading.Thread(target=self._work, name="demo-worker", daemon=True)
            self.worker.start()

    def _forget_old_jobs(self) -> None:
        while len(self.jobs) > RECENT_JOBS:
            oldest_id, oldest = next(iter(self.jobs.items()))
            if not oldest.finished:
                break
            del self.jobs[oldest_id]

    # ---- for the slides

    def status(self) -> list[dict]:
        """Every demo with its schema (each default the one of this device's class), whether its
        default result is cached, and its job if one runs."""
        rows = []
        for demo in DEMOS.values():
            _, params, key = self.resolve(demo.ID, None)
            job = self.in_flight.get(key)
            rows.append({
                "id": demo.ID,
                "title": demo.TITLE,
                "params": budgets.described(demo, self.device),
                "cached": self.cache.get(demo.ID, key) is not None,
                "job": job.brief() if job else None,
            })
        return rows


def ready_gpu(device: torch.device) -> None:
    """Load the GPU's libraries once, when the server starts (a few seconds: the CUDA context,
    cuBLAS, cuDNN's RNN, the attention kernels), so that no slide's first demo pays for them."""
    from demos.runtime.device import use_fast_math

    use_fast_math(device)
    lstm = torch.nn.LSTM(8, 8, batch_first=True).to(device)
    attention_input = torch.randn(2, 2, 16, 8, device=device, requires_grad=True)
    out = lstm(torch.randn(2, 16, 8, device=device))[0].sum()
    out = out + torch.nn.functional.scaled_dot_product_attention(attention_input, attention_input, attention_input,
                                                                   is_causal=True).sum()
    out.backward()
    torch.cuda.synchronize(device)


@contextmanager
def holding(lock, progress: Progress, waiting_message: str, on_busy: Callable[[], None] | None = None):
    """Hold `lock` for the block; if someone else has it, say so through `progress` (and call
    `on_busy`), then wait, still reporting (a waiting job can be cancelled too)."""
    try:
        lock.acquire(timeout=0)
    except filelock.Timeout:
        progress(0.0, waiting_message)
        if on_busy is not None:
            on_busy()
        while True:
            try:
                lock.acquire(timeout=0.5)
                break
            except filelock.Timeout:
                progress(0.0, waiting_message)
    try:
        yield
    finally:
        lock.release()


def explain_failure(error: Exception) -> str:
    """A message for the audience: what went wrong, without a traceback."""
    text = str(error).strip()
    if isinstance(error, ValueError) and "JSON compliant" in text:
        return "The demo produced a number that is not finite (NaN or infinity); training diverged."
    if "out of memory" in text.lower():
        return f"The device ran out of memory: {text.splitlines()[0]}"
    return f"{type(error).__name__}: {text.splitlines()[0] if text else 'no message'}"
