"""A photo of the board read as a move for the API (issue 13, CONTRACT §12).

The upload is read from the request within its limit, then handed to the photo
reader in a render worker process (pages.in_worker: a reading holds the
interpreter's lock for most of its half second, and would stall every move
answered meanwhile) under a small semaphore, so that photos sent at once cannot
take the machine's memory: each reading peaks at a few hundred MB. The reader
and OpenCV load in the worker only, never in the server's own process.
"""

from __future__ import annotations

import io
import math
import numbers
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from flask import Flask, current_app, request
from werkzeug.datastructures import FileStorage
from werkzeug.exceptions import RequestEntityTooLarge

from .. import engine
from .pages import in_worker

MAX_PHOTO_BYTES = 15 * 1024 * 1024
"""The largest photo read (CONTRACT §12: at most 15 MB)."""

BODY_SLACK = 64 * 1024
"""Room in a request body for the multipart headers and boundaries around it."""

PHOTO_SLOTS = 1
"""Photos read at once per server process (each peaks at about 250 MB)."""

PHOTO_WAIT = 3.0
"""Seconds a photo waits for a free slot before the request gets 503 (a reading
takes about half a second: a second phone at the table waits, a flood does not)."""

RETRY_AFTER = 2
"""Seconds a 503 tells the client to wait."""

FIELD = "image"
"""The multipart field holding the photo."""

ENDPOINT = "api.read_photo"
"""The route that takes photos (its body limit is the photo's, not the app's)."""


class Unreadable(Exception):
    """A photo that cannot be read: the reader's reason code and parameters."""

    def __init__(self, reason: str, params: dict[str, Any]) -> None:
        super().__init__(reason)
        self.reason = reason
        self.params = params


class NoPhoto(Exception):
    """The request carries no file in the field `image` (a malformed request)."""


class PhotoBusy(Exception):
    """Every photo slot stayed taken for PHOTO_WAIT seconds."""


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
    """What each new tile looked like, kept for the table to learn from."""
    unread: list[list[int]] = field(default_factory=list)
    """Cells [row, col] showing a tile whose symbol could not be read."""


def body_limit() -> int:
    """Return the largest request body the photo route reads."""
    limit: int = current_app.config.get("MAX_PHOTO_BYTES", MAX_PHOTO_BYTES)
    return limit + BODY_SLACK


def _allow_photo_bodies(endpoint: str | None, values: dict[str, Any] | None) -> None:
    # Runs before any before_request handler, so the photo's limit holds before
    # anything could read the body; werkzeug refuses a longer one unread.
    if endpoint == ENDPOINT and request.method == "POST":
        request.max_content_length = body_limit()


def uploaded_photo() -> FileStorage:
    """Return the request's photo upload, its size checked (a large one is in a
    temporary file, not in memory); raise Unreadable when it is over the
    limit, NoPhoto when there is none."""
    limit: int = current_app.config.get("MAX_PHOTO_BYTES", MAX_PHOTO_BYTES)
    try:
        storage = request.files.get(FIELD)
    except RequestEntityTooLarge:
        raise _too_large(request.content_length or limit + 1) from None
    if storage is None:
        raise NoPhoto
    size = storage.stream.seek(0, io.SEEK_END)
    storage.stream.seek(0)
    if size > limit:
        storage.close()
        raise _too_large(size)
    return storage


def photo_bytes(storage: FileStorage) -> bytes:
    """Return an upload's bytes (never more than the limit plus one) and close it."""
    limit: int = current_app.config.get("MAX_PHOTO_BYTES", MAX_PHOTO_BYTES)
    try:
        data: bytes = storage.stream.read(limit + 1)
    finally:
        storage.close()
    if len(data) > limit:
        raise _too_large(len(data))
    return data


def _too_large(size: int) -> Unreadable:
    """The refusal of a photo of `size` bytes, over the limit."""
    # In MB of 2**20 bytes as the limit is, rounded up: 15 MB and a byte is
    # "15.1 MB", never "15.0 MB" over a limit of 15 MB.
    megabytes = math.ceil(size * 10 / 2**20) / 10
    return Unreadable("too_large", {"limit": "15 MB", "megabytes": megabytes})


class Slots:
    """At most `slots` photos read at once in this process; a photo waits up to
    `wait` seconds for a slot, then PhotoBusy."""

    def __init__(self, slots: int, wait: float) -> None:
        self._slots = threading.BoundedSemaphore(slots)
        self.wait = wait

    def run(self, load: Callable[[], bytes],
            stored: Sequence[tuple[int, int, str, str]],
            variant: engine.Variant, taught: Any = None) -> Reading:
        """Take a free slot, then load the photo's bytes and read them (in a
        render worker where the app runs renders so); return the reading, or
        raise Unreadable or PhotoBusy. A photo waiting for a slot stays in the
        upload's temporary file, not in memory."""
        if not self._slots.acquire(timeout=self.wait):
            raise PhotoBusy
        try:
            answer = in_worker(read_photo, load(), list(stored), variant, taught)
        finally:
            self._slots.release()
        if "unreadable" in answer:
            raise Unreadable(answer["unreadable"], answer["params"])
        return Reading(answer["tiles"], answer["matched"], answer["conflicts"],
                       answer["glare"], answer["looks"], answer["unread"])


def read_upload(stored: Sequence[tuple[int, int, str, str]],
                variant: engine.Variant, taught: Any = None) -> Reading:
    """Read the request's photo against the stored board under the app's photo
    slots; raise NoPhoto, Unreadable or PhotoBusy. `taught` is the game's and
    the installation's lessons (`store.photo_lessons.lessons`)."""
    slots: Slots = current_app.extensions["scorekeeper_photo_slots"]
    # Checked before waiting: a request without a photo or over the limit is
    # answered at once.
    storage = uploaded_photo()
    try:
        return slots.run(lambda: photo_bytes(storage), stored, variant, taught)
    finally:
        storage.close()


def read_photo(data: bytes, stored: list[tuple[int, int, str, str]],
               variant: engine.Variant, taught: Any = None) -> dict[str, Any]:
    """Read a photo (in a worker process) and return plain data a process can
    send back: the reading, or {"unreadable": reason, "params": {...}}."""
    # Imported here: OpenCV and numpy load in the worker that reads, not in
    # every server process at start.
    from ..photo import LOW_CONFIDENCE, PhotoUnreadable, read_move
    from ..photo.memory import Taught

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
              "looks": [look._asdict() for look in reading.looks]}
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


def init_app(app: Flask) -> None:
    """Give the app its photo slots and the photo route its body limit."""
    app.extensions["scorekeeper_photo_slots"] = Slots(
        app.config.get("PHOTO_SLOTS", PHOTO_SLOTS),
        app.config.get("PHOTO_WAIT", PHOTO_WAIT),
    )
    app.url_value_preprocessor(_allow_photo_bodies)
