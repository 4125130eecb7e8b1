"""The board on a Redis server (engine/board.py has the interface): for server processes on several
machines, or many on one, sharing the room's state through one Redis (`FLASK_REDIS_URL`).

- A post is one Lua script, atomic on the server: the next version from one counter (INCR), the
  notice stored as a hash (`version`; `value`, the JSON text as posted; `at`, the server's TIME), and
  its name PUBLISHed on the board's channel. No file is rewritten, and no server process's clock is read.
- Each process runs one subscriber thread on that channel: a name someone here waits on is read again
  (HMGET) and its waiters woken, as the file board's watcher does. After a lost connection it
  reconnects by itself, with a short back-off, and reads every watched name again, so that nothing
  posted during the gap is missed.
- A map notice's field (`write_field`, `clear`) is one Lua script too: HSET or HDEL on the map's own
  hash (`fields:<name>`, one JSON text per field), the next version from the same counter, and a
  PUBLISH of that one change (`[name, version, field, value]`), never of the whole map. The subscriber
  applies it to this process's copy (engine/map_view.py); a process loads a map whole (HGETALL) once,
  when it starts following it, and again only after a lost connection or when its copy lags a read.
- `changing` holds a Redis lock: SET NX PX with a random token, released only by its holder (a
  compare-and-delete script); a lock left by a process that died expires after a few seconds.
- Every key starts with a prefix (`greatshift:`), so that rooms, or tests, can share one server.
- A store without a counter (a new one, or one restarted without persistence) starts counting from its
  own clock in microseconds: above every count it handed out before the restart, since it never takes
  a post a microsecond, so versions still only grow and no process's waiters are left behind.

When Redis cannot be reached, the board logs it and raises BoardUnavailable (a 503 for a request):
it never falls back to this process's memory, where two servers would disagree without knowing.
"""
import json
import logging
import secrets
import threading
import time
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from urllib.parse import urlsplit

import redis
from redis.backoff import ExponentialBackoff, NoBackoff
from redis.retry import Retry

from engine.board import Board, BoardUnavailable
from engine.map_view import MapView

log = logging.getLogger(__name__)
DEFAULT_PREFIX = "greatshift:"
CONNECT_SECONDS = 2.0  # a request waits no longer than this for a Redis that does not answer...
COMMAND_SECONDS = 5.0  # ...or for a reply
POOL_CONNECTIONS = 50  # a process's connections to Redis (beside its subscriber's): its requests wait for one
LISTEN_SECONDS = 1.0  # the subscriber looks up from its channel this often (to notice close())
RECONNECT_PAUSES = (0.05, 2.0)  # the subscriber's first pause after a lost connection, and its longest
LOCK_LEASE_MS = 5000  # a change's lock outlives a holder that died by this long, at most
LOCK_POLL_SECONDS = 0.002  # a change holds it for a millisecond or two: ask again soon
CATCH_UP_SECONDS = 0.2  # a read waits this long for the subscriber to bring a map's newer changes, then loads it

# The start of every change: the next version from the counter (KEYS[1]), and the server's time.
NEXT_VERSION = """
local now = redis.call('TIME')
if redis.call('EXISTS', KEYS[1]) == 0 then
  redis.call('SET', KEYS[1], now[1] .. string.format('%06d', tonumber(now[2])))
end
local version = string.format('%d', redis.call('INCR', KEYS[1]))
local at = now[1] .. '.' .. string.format('%06d', tonumber(now[2]))
"""
# KEYS: the counter, the notice; ARGV: the notice's JSON text, the channel, the notice's name.
POST = NEXT_VERSION + """
redis.call('HSET', KEYS[2], 'version', version, 'value', ARGV[1], 'at', at)
redis.call('PUBLISH', ARGV[2], ARGV[3])
return version
"""
# KEYS: the counter, the notice, its fields[, a guard notice]; ARGV: 'set', 'remove' or 'clear', the
# field, the value's JSON text, the channel, the notice's name[, the guard's key]. With a guard, nothing
# happens (and it returns false) unless that notice's value has the key true: checked in the same step.
# Publishes `[name, version]` (clear), `[name, version, field]` (remove) or `[name, version, field,
# value]`: a change, never the whole map.
CHANGE_FIELD = """
if KEYS[4] then
  local guard = redis.call('HGET', KEYS[4], 'value')
  if not guard or not cjson.decode(guard)[ARGV[6]] then return false end
end
""" + NEXT_VERSION + """
redis.call('HSET', KEYS[2], 'version', version, 'map', '1', 'at', at)
local change = '[' .. cjson.encode(ARGV[5]) .. ',' .. version
if ARGV[1] == 'set' then
  redis.call('HSET', KEYS[3], ARGV[2], ARGV[3])
  change = change .. ',' .. cjson.encode(ARGV[2]) .. ',' .. ARGV[3]
elseif ARGV[1] == 'remove' then
  redis.call('HDEL', KEYS[3], ARGV[2])
  change = change .. ',' .. cjson.encode(ARGV[2])
else
  redis.call('DEL', KEYS[3])
end
redis.call('PUBLISH', ARGV[4], change .. ']')
return version
"""
# KEYS: notices; ARGV: seconds, the notices' key prefix, the maps' fields' key prefix. Deletes those not
# posted for that long, by the server's clock, with a map's fields.
REMOVE_OLDER = """
local now = redis.call('TIME')
local cutoff = tonumber(now[1]) + tonumber(now[2]) / 1000000 - tonumber(ARGV[1])
for _, key in ipairs(KEYS) do
  local at = tonumber(redis.call('HGET', key, 'at'))
  if at and at < cutoff then redis.call('DEL', key, ARGV[3] .. string.sub(key, string.len(ARGV[2]) + 1)) end
end
return 0
"""
# KEYS: the lock; ARGV: the holder's token.
UNLOCK = """
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0
"""
UNREACHABLE = (redis.ConnectionError, redis.TimeoutError)


def address_of(url: str) -> str:
    """Where the server is, for log lines: host and port (or socket), never the password."""
    parts = urlsplit(url)
    return f"{parts.hostname}:{parts.port or 6379}" if parts.hostname else parts.path or url


def glob_escaped(text: str) -> str:
    return "".join(f"\\{char}" if char in "*?[]\\" else char for char in text)


@contextmanager
def talking_to(address: str, doing: str) -> Iterator[None]:
    """Report a Redis that cannot be reached as BoardUnavailable, with a log line saying so."""
    try:
        yield
    except UNREACHABLE as error:
        log.error("the board's Redis at %s cannot be reached (%s): %s", address, doing, error)
        raise BoardUnavailable(f"the board's Redis at {address} cannot be reached") from error


class RedisBoard(Board):
    def __init__(self, url: str, prefix: str = DEFAULT_PREFIX):
        super().__init__()
        self.address = address_of(url)
        self.prefix = prefix
        self.counter = f"{prefix}version"
        self.channel = f"{prefix}notices"
        connection = dict(decode_responses=True, socket_connect_timeout=CONNECT_SECONDS,
                          socket_timeout=COMMAND_SECONDS, socket_keepalive=True)
        # A command retries twice, quickly: a pooled connection that a restarted server closed is
        # replaced without the caller seeing it; a server that is down is reported within a second.
        # The pool waits for a free connection (up to a command's time) rather than failing at once:
        # a slide change wakes every stream of a process together, a thousand under gevent.
        pool = redis.BlockingConnectionPool.from_url(url, max_connections=POOL_CONNECTIONS, timeout=COMMAND_SECONDS,
                                                     retry=Retry(ExponentialBackoff(cap=0.1, base=0.01), 2), **connection)
        self.client = redis.Redis(connection_pool=pool)
        # The subscriber's connection does not retry on its own: its loop reconnects, and reads again.
        self.subscriber_client = redis.Redis.from_url(url, retry=Retry(NoBackoff(), 0), **connection)
        self.post_script = self.client.register_script(POST)
        self.field_script = self.client.register_script(CHANGE_FIELD)
        self.remove_script = self.client.register_script(REMOVE_OLDER)
        self.unlock_script = self.client.register_script(UNLOCK)
        self.subscriber: threading.Thread | None = None
        self.listening = threading.Event()  # subscribed, and caught up with what was posted before
        self.closed = False
        self.change_locks: dict[str, threading.Lock] = {}  # this process's threads queue here, not on Redis
        self.views: dict[str, MapView] = {}  # map notice → this process's copy, for the maps it follows

    def key(self, name: str) -> str:
        return f"{self.prefix}notice:{name}"

    def fields_key(self, name: str) -> str:
        """A map notice's fields (its version and time are in `key`, as a plain notice's)."""
        return f"{self.prefix}fields:{name}"

    def _talking(self, doing: str):
        return talking_to(self.address, doing)

    def _post(self, name: str, value) -> int:
        text = json.dumps(value, separators=(",", ":"))
        with self._talking(f"posting {name}"):
            return int(self.post_script(keys=[self.counter, self.key(name)], args=[text, self.channel, name]))

    def _fetch(self, name: str) -> tuple[int, object] | None:
        with self._talking(f"reading {name}"):
            return self._loaded(name, self.client.hmget(self.key(name), ["version", "value"]))

    @staticmethod
    def _loaded(name: str, fields: list) -> tuple[int, object] | None:
        """A notice's (version, value) from its hash's fields; None if there is none, or it is unreadable."""
        version, text = fields[:2]
        if version is None:
            return None
        try:
            return int(version), json.loads(text)
        except (TypeError, ValueError) as error:
            log.warning("ignoring unreadable board entry %s: %s", name, error)
            return None

    def _fetch_many(self, names: Iterable[str], anew: bool = False) -> None:
        """Read `names` in one round trip, and keep what is newer; the maps among them, whole (`anew`:
        as Redis has them, whatever the copies held before)."""
        names = list(names)
        if not names:
            return
        with self._talking("reading the watched notices"):
            pipeline = self.client.pipeline(transaction=False)
            for name in names:
                pipeline.hmget(self.key(name), ["version", "value", "map"])
            replies = pipeline.execute()
        with self.lock:
            maps = {name for name, fields in zip(names, replies) if fields[2] or name in self.views}
            for name, fields in zip(names, replies):
                notice = None if name in maps else self._loaded(name, fields)
                if notice is not None:
                    self._keep(name, *notice)
        self._load_maps(sorted(maps), anew)

    # ---- map notices

    def write_field(self, name: str, field: str, value, only_while: tuple[str, str] | None = None) -> int | None:
        if value is None:
            return self._change_map(name, "remove", field, only_while=only_while)
        return self._change_map(name, "set", field, json.dumps(value, separators=(",", ":")), only_while)

    def clear(self, name: str) -> int:
        return self._change_map(name, "clear")

    def _change_map(self, name: str, change: str, field: str = "", text: str = "",
                    only_while: tuple[str, str] | None = None) -> int | None:
        """One change of a map, one script (with its guard, `write_field`'s `only_while`); this
        process's copy takes it at once (its readers see their own answer), the others' when they hear it."""
        view = self._follow_map(name)
        guard_keys, guard_args = ([self.key(only_while[0])], [only_while[1]]) if only_while else ([], [])
        with self._talking(f"changing {name}"):
            version = self.field_script(keys=[self.counter, self.key(name), self.fields_key(name), *guard_keys],
                                        args=[change, field, text, self.channel, name, *guard_args])
        if version is None:
            return None  # the guard said no: nothing changed
        version = int(version)
        with self.lock:
            if change == "clear":
                view.clear(version)
            else:
                view.change(version, field, json.loads(text) if text else None)
            self._show_map(name, view)
        return version

    def _follow_map(self, name: str) -> MapView:
        """This process's copy of map `name`, loaded, and kept up to date by the subscriber from now on."""
        with self.lock:
            view = self.views.setdefault(name, MapView())
        self._watch([name])  # subscribed first: a change after the load below is heard
        if not view.loaded:  # watched before it was known to be a map
            self._load_maps([name])
        return view

    def _load_maps(self, names: list[str], anew: bool = False) -> None:
        """Load maps whole, each with its version, in one transaction; the copies keep their later changes."""
        if not names:
            return
        with self._talking("reading maps"):
            pipeline = self.client.pipeline(transaction=True)
            for name in names:
                pipeline.hget(self.key(name), "version")
                pipeline.hgetall(self.fields_key(name))
            replies = pipeline.execute()
        loaded = []
        for name, version, texts in zip(names, replies[::2], replies[1::2]):
            try:
                loaded.append((name, int(version or 0), {field: json.loads(text) for field, text in texts.items()}))
            except ValueError as error:
                log.warning("ignoring unreadable board map %s: %s", name, error)
        with self.lock:
            for name, version, fields in loaded:
                view = self.views.setdefault(name, MapView())
                view.load(version, fields, anew)
                self._show_map(name, view)

    def _show_map(self, name: str, view: MapView) -> None:
        """A copy of the map for readers (call with the lock held): they may keep it while it changes."""
        if view.loaded and view.version:
            self.newest = max(self.newest, view.version)
            self._show(name, view.version, dict(view.fields))

    def _refresh(self, name: str) -> bool:
        with self.lock:
            view = self.views.get(name)
        if view is not None and view.loaded:
            return self._catch_up(name, view)
        with self._talking(f"reading {name}"):
            fields = self.client.hmget(self.key(name), ["version", "value", "map"])
        if fields[2] or view is not None:  # a map: followed from now on, one change at a time
            self._follow_map(name)
            return True
        notice = self._loaded(name, fields)
        with self.lock:
            return notice is not None and self._keep(name, *notice)

    def _catch_up(self, name: str, view: MapView) -> bool:
        """Bring the copy of a map up to the version Redis has: most often the subscriber has, or does
        within a moment; else (a change it missed) load the map whole."""
        with self._talking(f"reading {name}"):
            stored = int(self.client.hget(self.key(name), "version") or 0)
        with self.lock:
            if self._condition((name,)).wait_for(lambda: view.version >= stored, timeout=CATCH_UP_SECONDS):
                return False
        self._load_maps([name])
        return True

    def _hear(self, change: str) -> None:
        """A change of a map, published by any process: into the copy, if this process follows that map."""
        try:
            name, version, *rest = json.loads(change)
        except ValueError as error:
            log.warning("ignoring an unreadable change on the board: %s", error)
            return
        if name not in self.watched:
            return
        with self.lock:
            view = self.views.setdefault(name, MapView())
            if rest:
                view.change(int(version), rest[0], rest[1] if len(rest) > 1 else None)
            else:
                view.clear(int(version))
            self._show_map(name, view)
        if not view.loaded:  # waited on before it was known to be a map: load it whole, once
            self._load_maps([name])

    def _last_version(self) -> int:
        try:
            with self._talking("reading the version"):
                return int(self.client.get(self.counter) or 0)
        except BoardUnavailable:
            return 0  # what this process has seen is all it knows (a job's start notes it: it must not fail)

    def _keys(self, prefix: str) -> list[str]:
        """The keys of the notices named `prefix...` (SCAN: the server is never held up for long)."""
        with self._talking(f"listing {prefix}"):
            return list(self.client.scan_iter(match=self.key(glob_escaped(prefix)) + "*", count=1000))

    def names(self, prefix: str) -> list[str]:
        start = len(self.key(""))
        return sorted(key[start:] for key in self._keys(prefix))

    def remove_older_than(self, prefix: str, seconds: float) -> None:
        try:
            keys = self._keys(prefix)
        except BoardUnavailable:
            return  # housekeeping, left for the next start: a server starts while Redis is away, and answers 503
        with self._talking(f"removing old {prefix}"):
            for start in range(0, len(keys), 500):  # a few hundred at a time: each script holds the server
                self.remove_script(keys=keys[start:start + 500], args=[seconds, self.key(""), self.fields_key("")])

    @contextmanager
    def changing(self, name: str) -> Iterator[None]:
        with self.lock:
            thread_lock = self.change_locks.setdefault(name, threading.Lock())
        lock_key, token = f"{self.prefix}lock:{name}", secrets.token_hex(16)
        with thread_lock:
            with self._talking(f"locking {name}"):
                while not self.client.set(lock_key, token, nx=True, px=LOCK_LEASE_MS):
                    time.sleep(LOCK_POLL_SECONDS)
            try:
                yield
            finally:
                with self._talking(f"unlocking {name}"):
                    self.unlock_script(keys=[lock_key], args=[token])

    # ---- noticing other processes' posts

    def _watch(self, names) -> None:
        with self.lock:
            if self.subscriber is None:
                self.subscriber = threading.Thread(target=self._listen, name="board-subscriber", daemon=True)
                self.subscriber.start()
            new = set(names) - self.watched
        if not new:
            return  # watched already: heard of, or caught up with once the subscriber reconnects
        # Subscribed before the first read of a name: a post after that read is then heard.
        if not self.listening.wait(CONNECT_SECONDS):
            raise BoardUnavailable(f"not subscribed to the board's Redis at {self.address}")
        with self.lock:
            self.watched.update(new)
        self._fetch_many(new)

    def _listen(self) -> None:
        pause, lost = RECONNECT_PAUSES[0], False
        while not self.closed:
            pubsub = self.subscriber_client.pubsub()
            try:
                pubsub.subscribe(self.channel)
                while not self.closed:
                    message = pubsub.get_message(timeout=LISTEN_SECONDS)
                    if message is None:
                        continue
                    if message["type"] == "subscribe":  # connected: catch up with what was posted meanwhile
                        with self.lock:
                            watched = list(self.watched)
                        self._fetch_many(watched, anew=True)  # a restarted Redis may have lost a map's fields
                        self.listening.set()
                        if lost:
                            log.warning("the board's Redis at %s answers again: subscribed", self.address)
                        pause, lost = RECONNECT_PAUSES[0], False
                    elif message["type"] == "message" and message["data"].startswith("["):
                        self._hear(message["data"])  # a map's change
                    elif message["type"] == "message" and message["data"] in self.watched:
                        self._refresh(message["data"])
            except (*UNREACHABLE, BoardUnavailable) as error:
                self.listening.clear()
                if self.closed:
                    return
                log.error("lost the board's Redis at %s (%s): subscribing again in %.2f s", self.address, error, pause)
                time.sleep(pause)
                pause, lost = min(pause * 2, RECONNECT_PAUSES[1]), True
            finally:
                pubsub.close()

    def close(self) -> None:
        """Let go of the connections; the subscriber stops within LISTEN_SECONDS (tests: a server
        process just ends)."""
        self.closed = True
        self.client.close()
