"""The table view (issue 10): big totals, the player to move, the last move and
the turn's timer, readable across the table; it doubles as a TV or second-screen
spectator view.

Updates are server-sent events from a bounded stream: it sends the view's state,
then checks the game's change key (turn, updated_at and games.revision: one
indexed read) every CHECK_SECONDS and sends the state again when it changed,
and ends after STREAM_SECONDS; the browser's EventSource reconnects after the
`retry` it was told, with Last-Event-ID so that an unchanged state is not sent
again. The server runs one process with a few threads (waitress; granian's
worker processes for a club night), so a stream must never hold a thread for
good: each is bounded, and at most STREAMS_PER_PROCESS run at once in a process.
One more gets the state if it changed and a retry of BUSY_RETRY_MS, which makes
it a poll: at a club night (200 screens) most screens poll, so a poll that
finds nothing new costs one indexed read and a few bytes, and polls often
enough that a move shows within 1.5 s (issue 19). Without EventSource, the page
polls tv.json (ETag, 304 while nothing changed).
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Iterator
from typing import Any

from flask import (
    Blueprint,
    Response,
    current_app,
    render_template,
    request,
    stream_with_context,
)

from .. import text
from ..i18n import gettext as _
from ..store import GameNotFound, GameRow, change_key, loaded
from .pages import turn_elapsed

bp = Blueprint("tv", __name__)

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


def view_key(row: GameRow) -> str:
    """Return the change key of a loaded game (as store.change_key reads it)."""
    return f"{row.game.turn}-{row.updated_at}-{row.revision}"


def view_state(row: GameRow) -> dict[str, Any]:
    """Return what the table view shows, its sentences in the request's language."""
    game = row.game
    names = row.names
    active = game.status == "active"
    last = game.moves[-1] if game.moves else None
    final = game.final
    winners = final.winners if final is not None and final.scored else ()
    return {
        "key": view_key(row),
        "status": game.status,
        "players": [
            {"name": name, "score": score, "excluded": seat in game.excluded,
             "current": active and seat == game.current_player,
             "winner": seat in winners}
            for seat, (name, score) in enumerate(zip(names, game.scores, strict=True))
        ],
        "bag": game.bag,
        "turn_line": (
            _("%(name)s to play", name=names[game.current_player]) if active
            else text.final_reason(final, names, game.variant) if final is not None
            else ""
        ),
        "last_line": (
            text.last_move_line(names[last.player], text.move_result(last))
            if last is not None else ""
        ),
        "timer": {
            "elapsed": turn_elapsed(row), "seconds": game.options.move_seconds,
        } if active else None,
    }


def _event(state: dict[str, Any]) -> str:
    return f"id: {state['key']}\nevent: state\ndata: {json.dumps(state)}\n\n"


@bp.get("/games/<int:game_id>/tv")
def page(game_id: int) -> str:
    """Show the table view of a game."""
    with loaded(game_id) as row:
        state = view_state(row)
        return render_template(
            "table/tv.html", row=row, state=state,
            strings=json.dumps({"expired": text.countdown_strings()["expired"]},
                               ensure_ascii=False),
        )


@bp.get("/games/<int:game_id>/tv.json")
def state_json(game_id: int) -> Response:
    """Return the table view's state (the poll without EventSource); 304 while
    the game is unchanged."""
    key = change_key(game_id)
    if request.if_none_match.contains(key):
        response = Response(status=304)
    else:
        with loaded(game_id) as row:
            state = view_state(row)
        key = state["key"]
        response = Response(json.dumps(state), mimetype="application/json")
    response.set_etag(key)
    response.headers["Cache-Control"] = "no-cache"
    return response


@bp.get("/games/<int:game_id>/tv/events")
def events(game_id: int) -> Response:
    """Stream the table view's state as server-sent events, for STREAM_SECONDS."""
    seen = request.headers.get("Last-Event-ID", "")
    if seen and _streams.full() and change_key(game_id) == seen:
        # A polling screen that has the state: one indexed read (GameNotFound,
        # 404, for a game deleted), no game loaded, a few bytes.
        return Response(
            f"retry: {BUSY_RETRY_MS}\n\n", mimetype="text/event-stream",
            headers={"Cache-Control": "no-cache"},
        )
    with loaded(game_id) as row:  # GameNotFound (404) before any byte is sent
        first = view_state(row)
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
                if change_key(game_id) != key:
                    with loaded(game_id) as row:
                        state = view_state(row)
                    key = state["key"]
                    yield _event(state)
                elif time.monotonic() >= beat:
                    beat = time.monotonic() + HEARTBEAT_SECONDS
                    yield ": still here\n\n"
        except GameNotFound:
            return  # deleted meanwhile: the reconnect gets the 404
        finally:
            if held:
                _streams.give_back()

    return Response(
        stream_with_context(stream()), mimetype="text/event-stream",
        headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"},
    )
