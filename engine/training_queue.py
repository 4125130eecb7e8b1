"""Training in a separate worker process, through RQ on the room's Redis (`FLASK_TRAINING=worker`).

Why RQ: it needs nothing but Redis, which the room's state already uses (engine/redis_board.py); it is
small; and its `SimpleWorker` runs each job in the worker's own process, so the models it keeps stay
loaded between jobs and one process holds the device.

- A web process enqueues a job (`TrainingQueue.enqueue`): its id and settings, on the lecturer's queue
  or the students'. The worker listens to both, the lecturer's first, so the lecturer's jobs go first.
- `serve` runs the worker (`flask --app app worker`): each job goes through the worker's own Engine
  (`Engine.run_enqueued`), which posts its progress and end on the board and beats meanwhile, as for a
  job of its own; so the web processes follow, cancel and outlive it as they do another process's job.
  One worker per device: one training at a time on it.
- A job still waiting can be taken off its queue (`withdraw`), so that a cancel ends it at once.
- The worker is named on RQ by its heartbeat's process id, so that a web process can tell a job the
  worker took and then died with (`taken_by`) from one still waiting, as it tells a job whose process
  died mid-run: it fails, saying so, rather than wait forever.
- A job started from a slide is cancelled once every page that followed it has gone, on any web
  server (`_cancel_once_unwatched`), as a web process's own job is (engine.jobs.Job.watched).
"""
import threading

import redis
from rq import Queue, SimpleWorker
from rq.exceptions import NoSuchJobError
from rq.job import Job as QueuedJob
from rq.timeouts import TimerDeathPenalty

from engine import notices
from engine.board import BoardUnavailable
from engine.jobs import LOST_FROM_QUEUE, UNWATCHED, UNWATCHED_GRACE
from engine.redis_board import COMMAND_SECONDS, CONNECT_SECONDS, DEFAULT_PREFIX, UNREACHABLE, address_of, talking_to

# The Engine the worker process runs its jobs with: RQ calls `run_enqueued` by its name, with no context.
_worker_engine = None


def queue_names(prefix: str | None) -> list[str]:
    """The lecturer's queue, then the students' (a worker takes from the first that has a job)."""
    room = (prefix or DEFAULT_PREFIX).rstrip(":")
    return [f"{room}-lecturer", f"{room}-students"]


def connect(redis_url: str) -> redis.Redis:
    # Not decoding replies: RQ stores its jobs pickled.
    return redis.Redis.from_url(redis_url, socket_connect_timeout=CONNECT_SECONDS, socket_timeout=COMMAND_SECONDS)


class TrainingQueue:
    """The web processes' side: put jobs on the worker's queues, or take a waiting one off."""

    def __init__(self, redis_url: str, prefix: str | None = None):
        self.address = address_of(redis_url)
        self.connection = connect(redis_url)
        self.lecturer, self.students = (Queue(name, connection=self.connection) for name in queue_names(prefix))

    def waiting(self) -> int:
        """How many jobs wait for the worker, on both queues."""
        with talking_to(self.address, "counting the training queues"):
            return self.lecturer.count + self.students.count

    def enqueue(self, job, watched: bool = False) -> None:
        """Put `job` (an engine.jobs.Job, posted queued on the board) on its queue for the worker;
        `watched`: cancel it once the pages that follow it have all gone."""
        spec = {"job_id": job.id, "demo_id": job.demo_id, "params": job.params, "key": job.key, "force": job.force,
                "time_limit": job.time_limit, "student": job.student, "cancel_token": job.cancel_token,
                "watched": watched}
        queue = self.students if job.student else self.lecturer
        with talking_to(self.address, f"enqueueing {job.id}"):  # no time limit from RQ (the engine's own apply),
            queue.enqueue(run_enqueued, spec, job_id=job.id, job_timeout=-1, result_ttl=0)  # and no result kept

    def withdraw(self, job_id: str) -> bool:
        """Take a job off its queue if no worker has taken it yet; True if it was still there."""
        try:
            return bool(self.lecturer.remove(job_id) or self.students.remove(job_id))
        except UNREACHABLE:
            return False  # it ends when the worker takes it and reads the cancel request


    def taken_by(self, job_id: str) -> str | None:
        """The process id of the worker that took `job_id` off its queue; None while it waits there;
        LOST_FROM_QUEUE if the queue has no such job (a Redis restarted without its data, or one lost
        before the job was put there)."""
        with talking_to(self.address, f"looking for {job_id}"):
            try:
                return QueuedJob.fetch(job_id, connection=self.connection).worker_name or None
            except NoSuchJobError:
                return LOST_FROM_QUEUE


def run_enqueued(spec: dict) -> None:
    """What the worker runs for each job: the job, through the worker process's Engine."""
    watched, ended = spec.pop("watched", False), threading.Event()
    if watched:
        threading.Thread(target=_cancel_once_unwatched, args=(spec["job_id"], ended), daemon=True).start()
    try:
        _worker_engine.run_enqueued(**spec)
    finally:
        ended.set()


def _cancel_once_unwatched(job_id: str, ended: threading.Event) -> None:
    """Cancel the job once pages followed it and, for a grace period, none does any more. The worker
    has no stream of its own: the web servers count theirs on the board (engine.jobs.RemoteJob.watched),
    and a job that no page has followed yet (a page still connecting) is left alone."""
    engine = _worker_engine
    while not ended.wait(UNWATCHED_GRACE):
        try:
            job = engine.jobs.get(job_id)
            followed = engine.board.names(notices.watchers(job_id))
            if job is not None and followed and not engine.watched_elsewhere(job):
                engine.cancel(job_id, UNWATCHED, by="unwatched")
                return
        except BoardUnavailable:
            pass  # no count can be read while Redis is away: the job runs on, as a stop request would wait


class TrainingWorker(SimpleWorker):
    """RQ's SimpleWorker (each job in this process), timing nothing with SIGALRM (a job has no RQ time
    limit) and leaving signals alone outside the main thread, where Python allows no handler (tests)."""

    death_penalty_class = TimerDeathPenalty

    def _install_signal_handlers(self):
        if threading.current_thread() is threading.main_thread():
            super()._install_signal_handlers()


def serve(engine, redis_url: str, prefix: str | None = None, burst: bool = False) -> None:
    """Train the enqueued jobs with `engine`, one at a time, until stopped (or, with `burst`, until the
    queues are empty). The worker beats on the board all along: the web processes tell by it that a
    worker is there, and the jobs it runs beat with it."""
    global _worker_engine
    _worker_engine = engine
    connection = connect(redis_url)
    queues = [Queue(name, connection=connection) for name in queue_names(prefix)]
    stopped = threading.Event()
    with engine.heartbeat.held():
        threading.Thread(target=_announce, args=(engine, stopped), name="worker-notice", daemon=True).start()
        worker = TrainingWorker(queues, connection=connection, name=engine.heartbeat.process_id)
        try:
            worker.work(burst=burst, logging_level="WARNING")
        finally:
            stopped.set()


def _announce(engine, stopped: threading.Event) -> None:
    """Post that this process is a training worker, and again every lease while it serves: a Redis
    restarted without its data, or a web server clearing old notices as it starts, forgets it otherwise,
    and the web servers would say that no worker runs."""
    name = notices.worker(engine.heartbeat.process_id)
    while True:
        try:
            engine.board.write(name, {"device": engine.device_label})
        except BoardUnavailable:
            pass  # posted again once Redis answers
        if stopped.wait(engine.liveness.lease_seconds):
            return
