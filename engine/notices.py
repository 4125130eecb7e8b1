"""The notices on the engine's board (engine/board.py), named in one place. Every server process
reads and writes the same names; a module that needs one asks here rather than spelling it."""

JOB = "job-"  # + job id: the job's latest state, posted by the process that runs it
CANCEL = "cancel-"  # + job id: a request from another process to stop that job
WATCHERS = "watchers-"  # + job id and process id: how many of that process's streams follow another's job
POLL = "poll-"  # + demo id: where its poll stands (open, result hidden, counts shown)
POLL_ANSWERS = "poll-answers-"  # + demo id: a map, voter id → that voter's answer (engine/polls.py)
AUDIENCE = "audience-"  # + process id: that process's count of students' open follow streams
ALIVE = "alive-"  # + process id: that process's heartbeat (engine/liveness.py)
WORKER = "worker-"  # + process id: a training worker (engine/training_queue.py), alive while that process beats
LECTURER_RUN = "lecturer-run"  # posted when the lecturer starts a run: students' running jobs give way
FOLLOW = "follow"  # follow mode: on or off, and the lecturer's slide and demo results
POINTER = "pointer"  # the lecturer's pointer on the slide, or hidden: apart, so its moves leave FOLLOW unwritten
QUESTIONS = "questions"  # the class's anonymous questions and the lecturer's marks
QUESTION_VOTES = "question-votes"  # a map, "<question id>:<voter id>" → true: the upvotes (engine/questions.py)


def job(job_id: str) -> str:
    return JOB + job_id


def cancel(job_id: str) -> str:
    return CANCEL + job_id


def watchers(job_id: str, process_id: str = "") -> str:
    """That process's count of streams following `job_id` (no process id: every process's, as a prefix)."""
    return f"{WATCHERS}{job_id}-{process_id}"


def poll(demo_id: str) -> str:
    return POLL + demo_id


def poll_answers(demo_id: str) -> str:
    return POLL_ANSWERS + demo_id


def audience(process_id: str) -> str:
    return AUDIENCE + process_id


def alive(process_id: str) -> str:
    return ALIVE + process_id


def worker(process_id: str) -> str:
    return WORKER + process_id
