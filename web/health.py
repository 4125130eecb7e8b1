"""`GET /healthz`: is this server process up, and what is it doing (for a load balancer or a glance)."""
import threading

from flask import Blueprint, Flask, jsonify

from web import sse
from web.engine import get_engine

bp = Blueprint("health", __name__)


@bp.get("/healthz")
def healthz():
    engine = get_engine()
    running = [job.demo_id for job in engine.in_flight.values() if job.status == "running"]
    return jsonify(
        status="ok",
        device=engine.device_label,
        cache="disk" if engine.cache.disk_ok else "memory only",
        jobs_queued=engine.queue.qsize(),
        jobs_running=running,
        event_streams=sse.open_streams(),
        threads=threading.active_count(),
    )


def init_app(app: Flask) -> None:
    app.register_blueprint(bp)
