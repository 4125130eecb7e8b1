"""`GET /healthz`: is this server process up, and what is it doing (for a load balancer or a glance).

It answers 200 while the process serves, even when the room's Redis is away (`shared_state` says so):
a load balancer that took every server out then would help nobody; the requests that need Redis
answer 503 by themselves."""
import threading

from flask import Blueprint, Flask, jsonify

from engine.board import BoardUnavailable
from web import sse
from web.engine import get_engine

bp = Blueprint("health", __name__)


def training_worker(engine) -> dict | None:
    """With FLASK_TRAINING=worker: how many jobs wait on the worker's queues, and whether a worker
    beats; None where this process trains itself."""
    if engine.training_queue is None:
        return None
    return {"waiting": engine.training_queue.waiting(), "worker_alive": engine.workers_running()}


@bp.get("/healthz")
def healthz():
    engine = get_engine()
    try:
        running = [job.demo_id for job in engine.in_flight.values() if job.status == "running"]
        training, shared_state = training_worker(engine), "ok"
    except BoardUnavailable:  # logged where it happened (engine/redis_board.py)
        running, training, shared_state = None, None, "unreachable"
    return jsonify(
        status="ok",
        shared_state=shared_state,
        device=engine.device_label,
        cache="disk" if engine.cache.disk_ok else "memory only",
        jobs_queued=engine.queue.qsize(),
        jobs_running=running,
        training_queue=training,
        event_streams=sse.open_streams(),
        threads=threading.active_count(),
    )


def init_app(app: Flask) -> None:
    app.register_blueprint(bp)
