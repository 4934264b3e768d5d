"""Screens that follow a changing state by themselves (the game's table view,
a club night's TV view): bounded server-sent-event streams plus an ETag poll.

A stream sends the state, then checks a cheap change key every CHECK_SECONDS
and sends the state again when it changed, and ends after STREAM_SECONDS; the
browser's EventSource reconnects after the `retry` it was told, with
Last-Event-ID so that an unchanged state is not sent again. The server runs a
few threads in one process, or in a few (`--workers N`), so a stream must
never hold a thread for good: each is bounded, and
at most STREAMS_PER_PROCESS run at once in a process (every kind of screen
together); one more gets the state if it changed and a retry of BUSY_RETRY_MS,
which makes it a poll: at a club night (200 screens) most screens poll, so a
poll that finds nothing new costs one cheap read and a few bytes (quiet_poll),
and polls often enough that a move shows within 1.5 s (bench_club.py). Without
EventSource, the page polls the JSON state (ETag, 304 while
nothing changed). static/live.js is the browser's half.
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Callable, Iterator
from typing import Any

from flask import Response, current_app, request, stream_with_context

STREAM_SECONDS = 25.0
"""How long one event stream stays open before the browser reconnects."""

CHECK_SECONDS = 0.25
"""How often an open stream looks for a change (one indexed read)."""

HEARTBEAT_SECONDS = 10.0
"""A comment line this often: a closed connection is noticed at the next write."""

STREAMS_PER_PROCESS = 3
"""Event streams held open at once per process (of serve.DEFAULT_THREADS = 8)."""

RETRY_MS = 500
"""Reconnect delay after a stream ends."""

BUSY_RETRY_MS = 1000
"""Reconnect delay for a stream refused a slot: it polls at this rate instead
(a move reaches a polling screen within this plus the request's time)."""


class Streams:
    """The event streams held open at once in this process, at most `limit`."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self._open = 0
        self._lock = threading.Lock()

    def take(self) -> bool:
        """Take a place for one more stream; False when all are taken."""
        with self._lock:
            if self._open >= self.limit:
                return False
            self._open += 1
            return True

    def give_back(self) -> None:
        """Give back a place taken."""
        with self._lock:
            self._open -= 1

    def full(self) -> bool:
        """Return whether every place is taken (a hint: it may change at once)."""
        with self._lock:
            return self._open >= self.limit


_streams = Streams(STREAMS_PER_PROCESS)

State = dict[str, Any]
"""A screen's state: JSON-able, its change key under "key"."""


def _event(state: State) -> str:
    return f"id: {state['key']}\nevent: state\ndata: {json.dumps(state)}\n\n"


def quiet_poll(key_now: Callable[[], str]) -> Response | None:
    """Answer a polling screen that already has the state with a bare retry, or
    return None to stream it. Only while every stream place is taken: such a
    screen polls every BUSY_RETRY_MS, and key_now() (one cheap read; it raises
    for a thing deleted, a 404) spares loading the state when nothing moved."""
    seen = request.headers.get("Last-Event-ID", "")
    if seen and _streams.full() and key_now() == seen:
        return Response(
            f"retry: {BUSY_RETRY_MS}\n\n", mimetype="text/event-stream",
            headers={"Cache-Control": "no-cache"},
        )
    return None


def event_stream(
    first: State, changed: Callable[[str], bool], load: Callable[[], State],
    gone: type[BaseException] = LookupError,
) -> Response:
    """Answer a server-sent-event stream of a screen's state for STREAM_SECONDS.

    first: the state now (an unknown thing answered 404 before this is called);
    changed(key): whether the state moved past key (one cheap read);
    load(): the state now; gone: the error load raises once the thing was
    deleted meanwhile (the reconnect then gets the 404).
    """
    seen = request.headers.get("Last-Event-ID", "")
    # Tests shorten the stream (TV_STREAM_SECONDS); the server never sets it.
    length = float(current_app.config.get("TV_STREAM_SECONDS", STREAM_SECONDS))

    def stream() -> Iterator[str]:
        held = _streams.take()
        try:
            yield f"retry: {RETRY_MS if held else BUSY_RETRY_MS}\n\n"
            key = first["key"]
            if key != seen:
                yield _event(first)
            if not held:
                return
            now = time.monotonic()
            deadline, beat = now + length, now + HEARTBEAT_SECONDS
            while time.monotonic() < deadline:
                time.sleep(CHECK_SECONDS)
                if changed(key):
                    state = load()
                    key = state["key"]
                    yield _event(state)
                elif time.monotonic() >= beat:
                    beat = time.monotonic() + HEARTBEAT_SECONDS
                    yield ": still here\n\n"
        except gone:
            return
        finally:
            if held:
                _streams.give_back()

    return Response(
        stream_with_context(stream()), mimetype="text/event-stream",
        headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"},
    )


def polled_state(key: str, load: Callable[[], State]) -> Response:
    """Answer the state as JSON with its key as ETag; 304 while the client's
    copy is current (key: the current change key, read cheaply)."""
    if request.if_none_match.contains(key):
        response = Response(status=304)
    else:
        state = load()
        key = state["key"]
        response = Response(json.dumps(state), mimetype="application/json")
    response.set_etag(key)
    response.headers["Cache-Control"] = "no-cache"
    return response
