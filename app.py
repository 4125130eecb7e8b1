"""The Great Shift: the Flask app factory. `flask --app app run` serves the lecture."""
from pathlib import Path

from flask import Flask

from web import (api, assets, carry, cli, compression, deck, engine, errors, export, follow, headers, health, join,
                 links, logs, pointer, polls, questions, recap, room, static_assets, worker)


def create_app(config: dict | None = None) -> Flask:
    """Build the app: defaults, then FLASK_* environment variables, then `config` (for tests)."""
    app = Flask(__name__, instance_relative_config=True)
    app.config.from_mapping(
        SLIDES_DIR=str(Path(app.root_path) / "slides"),
        CACHE_DIR=None,  # FLASK_CACHE_DIR; default: <instance folder>/cache
        REDIS_URL=None,  # FLASK_REDIS_URL (redis://host:6379/0): the room's shared state on Redis; default: the cache folder
        REDIS_PREFIX=None,  # FLASK_REDIS_PREFIX: what the room's Redis keys start with; default: greatshift:
        TRAINING=None,  # FLASK_TRAINING=worker: a `flask --app app worker` trains (needs FLASK_REDIS_URL); default: here
        DEVICE="auto",  # FLASK_DEVICE: auto (CUDA, else MPS, else CPU), cpu, cuda, cuda:1, mps
        INSTRUCTOR_TOKEN=None,  # FLASK_INSTRUCTOR_TOKEN; without one, only localhost may retrain or warm
        INSTRUCTOR_TOKEN_FILE=None,  # where `flask serve` keeps the token it makes; default: instance/instructor-token
        MAX_QUEUED_JOBS=32,
        STUDENT_JOBS_PER_MINUTE=6,  # training runs a student (not the instructor) may start per minute
        STUDENT_JOB_SECONDS=60,  # a student's run stops after this long
        INSTRUCTOR_JOB_SECONDS=900,  # FLASK_INSTRUCTOR_JOB_SECONDS: the lecturer's runs from a slide stop after this long
        CONFIRM_JOB_SECONDS=20,  # a run expected to take longer asks the lecturer to confirm first
        MAX_EVENT_STREAMS=500,  # open progress/follow streams per server process
        SSE_HEARTBEAT_SECONDS=5,  # a quiet stream sends a comment this often; a listener who left is noticed then
        AUDIENCE_REFRESH_SECONDS=3,  # the presenter view asks how many students follow this often
        PROCESS_LEASE_SECONDS=5,  # a server process whose heartbeat stays unchanged this long is taken for gone
        TORCH_THREADS=None,  # FLASK_TORCH_THREADS: CPU threads a training job may use (default: PyTorch's choice)
        MAX_CONTENT_LENGTH=16 * 1024,  # demo parameters are small; anything bigger is refused
        PUBLIC_URL=None,  # FLASK_PUBLIC_URL: the address students join at; default: the host the lecturer reached
        POLL_ANSWERS_PER_MINUTE=10,  # answers (and changes of mind) one browser may send per minute
        POLL_NEW_VOTERS_PER_MINUTE=600,  # new anonymous voters per client address (a hall may share one)
        QUESTIONS_PER_MINUTE=3,  # questions one browser may send per minute
        QUESTION_VOTES_PER_MINUTE=30,  # upvotes (and votes taken back) one browser may send per minute
    )
    app.config.from_prefixed_env()
    if config:
        app.config.from_mapping(config)

    logs.init_app(app)
    engine.init_app(app)
    headers.init_app(app)
    errors.init_app(app)
    assets.init_app(app)
    static_assets.init_app(app)
    compression.init_app(app)
    links.init_app(app)
    deck.init_app(app)
    api.init_app(app)
    follow.init_app(app)
    pointer.init_app(app)
    polls.init_app(app)
    questions.init_app(app)
    join.init_app(app)
    health.init_app(app)
    recap.init_app(app)
    cli.init_app(app)
    worker.init_app(app)
    room.init_app(app)
    export.init_app(app)
    carry.init_app(app)
    return app
