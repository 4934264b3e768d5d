"""A photo of the board sent to the API (CONTRACT §12): its limits,
who waits for the reader and for how long; the reading itself is
scorekeeper/photo's, in the helper process (web/helper.py).

The upload is read from the request within its limit, then handed to the photo
reader in the helper process (a reading holds the interpreter's lock for most
of its half second, and would stall every move answered meanwhile). Photos are
read one at a time per server process (each peaks at a few hundred MB), and
anyone who can reach the server can create a game and so hold a token to send
photos: so each device (the socket's address) has one photo in the queue at a
time and a rate, each game a rate, and the queue is first come, first served
among devices. A stranger sending photos from one device thus keeps the
table's own photo waiting for one reading at most, never for good.
This machine (loopback, the host's own) has neither rate nor queue limit.
"""

from __future__ import annotations

import io
import math
import numbers
import threading
import time
from collections import deque
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass, field
from typing import Any, TypeVar

from flask import Flask, current_app, request
from werkzeug.datastructures import FileStorage
from werkzeug.exceptions import RequestEntityTooLarge

from .. import engine
from ..photo import PhotoUnreadable
from ..photo.header import MAX_BYTES, checked_size, too_large
from .auth import is_admin
from .helper import in_helper

BODY_SLACK = 64 * 1024
"""Room in a request body for the multipart headers and boundaries around it."""

PHOTO_SLOTS = 1
"""Photos read at once per server process (each peaks at about 250 MB)."""

PHOTO_QUEUE = 4
"""Photos waiting for the reader at once per server process, beyond those read:
each holds a server thread while it waits (serve.DEFAULT_THREADS = 8)."""

PHOTO_WAIT = 10.0
"""Seconds a photo waits in the queue before the request gets 503. A reading
takes about half a second, three at most (the pixel limits of photo/decode.py):
a photo behind three others from three devices is still read."""

CLIENT_RATE = (4, 10.0)
"""Photos per device: a burst of 4, then one per 10 seconds (a table sends one
per move, a retake or two)."""

GAME_RATE = (6, 10.0)
"""Photos per game, from whatever devices: a burst of 6, then one per 10 s."""

RETRY_AFTER = 2
"""Seconds a 503 tells the client to wait."""

FIELD = "image"
"""The multipart field holding the photo."""

ENDPOINT = "api.read_photo"
"""The route that takes photos (its body limit is the photo's, not the app's)."""

ENDPOINTS = (ENDPOINT, "color_lessons.read")
"""Every route that takes a photo: a move's, and the one teaching the colours."""

_T = TypeVar("_T")


class NoPhoto(Exception):
    """The request carries no file in the field `image` (a malformed request)."""


class PhotoBusy(Exception):
    """The queue is full, or the photo waited PHOTO_WAIT seconds for the reader."""


class PhotoTooOften(Exception):
    """This device or game sent photos faster than its rate, or this device has
    a photo in the queue already; `.retry_after` seconds until the next may."""

    def __init__(self, retry_after: int) -> None:
        super().__init__(retry_after)
        self.retry_after = retry_after


@dataclass(frozen=True)
class Reading:
    """What a photo showed: new tiles, stored tiles matched, contradictions."""

    tiles: list[dict[str, Any]]
    """{"row", "col", "color", "shape", "confidence", "low"} per new tile, and
    "likely" (the kinds it may be, best first) on a low one."""
    matched: int
    conflicts: list[dict[str, Any]]
    glare: list[list[int]] = field(default_factory=list)
    """Cells [row, col] where glare blew the photo out near the board."""
    looks: list[dict[str, Any]] = field(default_factory=list)
    """What each new tile looked like, kept for the table to learn from, and
    what the stored tiles it showed as stored looked like, labelled with
    their kinds (`photo.lessons.vouched_looks`)."""
    unread: list[list[int]] = field(default_factory=list)
    """Cells [row, col] showing a tile whose symbol could not be read."""


def body_limit() -> int:
    """Return the largest request body the photo route reads."""
    limit: int = current_app.config.get("MAX_PHOTO_BYTES", MAX_BYTES)
    return limit + BODY_SLACK


def _allow_photo_bodies(endpoint: str | None, values: dict[str, Any] | None) -> None:
    # Runs before any before_request handler, so the photo's limit holds before
    # anything could read the body; werkzeug refuses a longer one unread.
    if endpoint in ENDPOINTS and request.method == "POST":
        request.max_content_length = body_limit()


def uploaded_photo() -> FileStorage:
    """Return the request's photo upload, its size checked (a large one is in a
    temporary file, not in memory); raise PhotoUnreadable when it is over
    the limit, NoPhoto when there is none."""
    limit: int = current_app.config.get("MAX_PHOTO_BYTES", MAX_BYTES)
    try:
        storage = request.files.get(FIELD)
    except RequestEntityTooLarge:
        raise too_large(request.content_length or limit + 1) from None
    if storage is None:
        raise NoPhoto
    size = storage.stream.seek(0, io.SEEK_END)
    storage.stream.seek(0)
    if size > limit:
        storage.close()
        raise too_large(size)
    return storage


def photo_bytes(storage: FileStorage) -> bytes:
    """Return an upload's bytes (never more than the limit plus one) and close it."""
    limit: int = current_app.config.get("MAX_PHOTO_BYTES", MAX_BYTES)
    try:
        data: bytes = storage.stream.read(limit + 1)
    finally:
        storage.close()
    if len(data) > limit:
        raise too_large(len(data))
    return data


class Rate:
    """Token buckets by key: `burst` at once, then one per `every` seconds."""

    def __init__(self, burst: int, every: float) -> None:
        self.burst = burst
        self.every = every
        self._lock = threading.Lock()
        self._left: dict[Hashable, tuple[float, float]] = {}

    def take(self, key: Hashable, now: float | None = None) -> float:
        """Take one token for key; return 0, or the seconds until one is free
        (then nothing is taken)."""
        now = time.monotonic() if now is None else now
        with self._lock:
            tokens, since = self._left.get(key, (float(self.burst), now))
            tokens = min(float(self.burst), tokens + (now - since) / self.every)
            if tokens < 1:
                self._left[key] = (tokens, now)
                return (1 - tokens) * self.every
            self._left[key] = (tokens - 1, now)
            if len(self._left) > 10_000:
                # Keys refilled to the brim hold nothing worth keeping.
                full = [k for k, (t, at) in self._left.items()
                        if t + (now - at) / self.every >= self.burst]
                for k in full:
                    del self._left[k]
            return 0.0

    def give_back(self, key: Hashable) -> None:
        """Return the token taken for key (the photo was refused unread)."""
        with self._lock:
            if key in self._left:
                tokens, since = self._left[key]
                self._left[key] = (min(float(self.burst), tokens + 1), since)


class Queue:
    """The photos of one server process waiting for the reader: `slots` read at
    once, at most `size` waiting, one per device, first come first served; a
    photo waits `wait` seconds at most."""

    def __init__(self, slots: int, size: int, wait: float) -> None:
        self.slots = slots
        self.size = size
        self.wait = wait
        self._cond = threading.Condition()
        self._reading = 0
        self._waiting: deque[object] = deque()
        self._clients: set[Hashable] = set()

    def run(self, client: Hashable, work: Callable[[], _T]) -> _T:
        """Wait for a turn, then return work(); raise PhotoTooOften when this
        client has a photo queued or read already, PhotoBusy when the queue is
        full or the turn did not come within `wait` seconds."""
        ticket = object()
        with self._cond:
            if client in self._clients:
                raise PhotoTooOften(RETRY_AFTER)
            if len(self._waiting) >= self.size:
                raise PhotoBusy
            self._clients.add(client)
            self._waiting.append(ticket)
            try:
                turn = self._cond.wait_for(
                    lambda: self._reading < self.slots
                    and self._waiting[0] is ticket,
                    timeout=self.wait,
                )
            finally:
                self._waiting.remove(ticket)
                if not turn:
                    self._clients.discard(client)
                self._cond.notify_all()
            if not turn:
                raise PhotoBusy
            self._reading += 1
        try:
            return work()
        finally:
            with self._cond:
                self._reading -= 1
                self._clients.discard(client)
                self._cond.notify_all()


def _run_reader(load: Callable[[], bytes],
                stored: Sequence[tuple[int, int, str, str]],
                variant: engine.Variant, taught: Any = None) -> Reading:
    """Load the photo's bytes and read them in the helper process."""
    answer = in_helper(read_photo, load(), list(stored), variant, taught)
    if "unreadable" in answer:
        raise PhotoUnreadable(answer["unreadable"], **answer["params"])
    return Reading(answer["tiles"], answer["matched"], answer["conflicts"],
                   answer["glare"], answer["looks"], answer["unread"])


def read_upload(game_id: int, stored: Sequence[tuple[int, int, str, str]],
                variant: engine.Variant, taught: Any = None) -> Reading:
    """Read the request's photo against the stored board, within the device's
    and the game's rates and the process's queue; raise NoPhoto,
    PhotoUnreadable, PhotoTooOften or PhotoBusy. `taught` is the game's and
    the installation's lessons (`store.photo_lessons.lessons`)."""
    return guarded_upload(
        game_id, lambda load: _run_reader(load, stored, variant, taught))


def guarded_upload(game_id: int, work: Callable[[Callable[[], bytes]], _T]) -> _T:
    """Run work(load) on the request's photo (load returns its bytes) within
    the device's and the game's rates and the process's queue, as every photo
    is; raise NoPhoto, PhotoUnreadable, PhotoTooOften or PhotoBusy."""
    photos: Photos = current_app.extensions["scorekeeper_photos"]
    # Checked before waiting: a request without a photo or over the limit is
    # answered at once, and costs no token.
    storage = uploaded_photo()
    try:
        # Its size from its header, here: a photo too large to decode (a 116 KB
        # PNG declaring 40 MP) or not a photo at all is refused at once,
        # without a rate token, a place in the queue or the helper.
        checked_size(storage.stream.read())
        storage.stream.seek(0)
        # The socket's address, never a header a client writes: one device.
        client = request.remote_addr or ""
        # The admin's device has no rate and may queue several photos: the
        # benchmarks send theirs so (benchmarks/bench_photo_api.py).
        local = is_admin()
        if not local:
            wait = photos.clients.take(client)
            if wait:
                raise PhotoTooOften(math.ceil(wait))
            wait = photos.games.take(game_id)
            if wait:
                photos.clients.give_back(client)
                raise PhotoTooOften(math.ceil(wait))
        # A photo waiting in the queue stays in the upload's temporary file, not
        # in memory.
        return photos.queue.run(
            object() if local else client,
            lambda: work(lambda: photo_bytes(storage)))
    finally:
        storage.close()


def read_photo(data: bytes, stored: list[tuple[int, int, str, str]],
               variant: engine.Variant, taught: Any = None) -> dict[str, Any]:
    """Read a photo (in the helper process) and return plain data a process can
    send back: the reading, or {"unreadable": reason, "params": {...}}."""
    # Imported here: OpenCV and numpy load in the helper that reads, never in
    # the server process.
    from ..photo import LOW_CONFIDENCE, read_move
    from ..photo.lessons import Taught, vouched_looks

    game, everywhere = taught or ([], [])
    try:
        reading = read_move(data, stored, variant, Taught.combine(
            Taught.from_rows(game).lessons, Taught.from_rows(everywhere).lessons))
    except PhotoUnreadable as exc:
        return {"unreadable": exc.reason, "params": _plain(exc.params)}
    tiles = [
        {**tile, "low": bool(tile["confidence"] < LOW_CONFIDENCE)}
        for tile in reading.tile_dicts()
    ]
    answer = {"tiles": tiles, "matched": reading.matched,
              "conflicts": reading.to_dict()["conflicts"],
              "glare": [list(cell) for cell in reading.glare],
              "unread": [list(cell) for cell in reading.unread],
              "looks": [*(look._asdict() for look in reading.looks),
                        *vouched_looks(reading, stored)]}
    plain: dict[str, Any] = _plain(answer)
    return plain


def _plain(value: Any) -> Any:
    """Return a reading as JSON-ready Python data: cells as [row, col], numpy's
    numbers as Python's (so the server process never needs numpy to unpickle)."""
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_plain(v) for v in value]
    if isinstance(value, bool | str) or value is None:
        return value
    if isinstance(value, numbers.Integral):
        return int(value)
    if isinstance(value, numbers.Real):
        return float(value)
    return str(value)


@dataclass
class Photos:
    """One app's photo queue and rates."""

    queue: Queue
    clients: Rate
    games: Rate


def init_app(app: Flask) -> None:
    """Give the app its photo queue and rates and the photo route its body limit."""
    app.extensions["scorekeeper_photos"] = Photos(
        Queue(app.config.get("PHOTO_SLOTS", PHOTO_SLOTS),
              app.config.get("PHOTO_QUEUE", PHOTO_QUEUE),
              app.config.get("PHOTO_WAIT", PHOTO_WAIT)),
        Rate(*app.config.get("PHOTO_CLIENT_RATE", CLIENT_RATE)),
        Rate(*app.config.get("PHOTO_GAME_RATE", GAME_RATE)),
    )
    app.url_value_preprocessor(_allow_photo_bodies)
