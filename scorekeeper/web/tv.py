"""The table view (issue 10): big totals, the player to move, the last move and
the turn's timer, readable across the table; it doubles as a TV or second-screen
spectator view.

Updates are server-sent events from a bounded stream: it sends the view's state,
then checks the game's change key (turn, updated_at and games.revision: one
indexed read) every CHECK_SECONDS and sends the state again when it changed,
and ends after STREAM_SECONDS; the browser's EventSource reconnects after the
`retry` it was told, with Last-Event-ID so that an unchanged state is not sent
again. The server runs a few worker processes with a few threads each (granian,
or waitress in one process), so a stream must never hold a thread for good:
each is bounded, and at most STREAMS_PER_PROCESS run at once in a process; one
more gets the state at once and a longer retry, which makes it a poll. Without
EventSource, the page polls tv.json (ETag, 304 while nothing changed).
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

BUSY_RETRY_MS = 3000
"""Reconnect delay for a stream refused a slot: it polls at this rate instead."""

_slots = threading.BoundedSemaphore(STREAMS_PER_PROCESS)


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
        # The live board (issue 18): its tiles as [row, col, colour, shape] in the
        # order placed, and the cells of the last placing move, marked.
        "board": [list(tile) for tile in game.board.tiles()],
        "last_cells": [
            [t.row, t.col] for t in (last.tiles if last is not None else ())
        ],
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
    with loaded(game_id) as row:  # GameNotFound (404) before any byte is sent
        first = view_state(row)
    seen = request.headers.get("Last-Event-ID", "")
    # Tests shorten the stream (TV_STREAM_SECONDS); the server never sets it.
    length = float(current_app.config.get("TV_STREAM_SECONDS", STREAM_SECONDS))

    def stream() -> Iterator[str]:
        held = _slots.acquire(blocking=False)
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
                _slots.release()

    return Response(
        stream_with_context(stream()), mimetype="text/event-stream",
        headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"},
    )
