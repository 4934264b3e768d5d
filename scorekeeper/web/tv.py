"""The table view: big totals, the player to move, the last move and
the turn's timer, readable across the table; it doubles as a TV or second-screen
spectator view.

Updates come as server-sent events from bounded streams, or by polling
tv.json (web/live.py, shared with the club night's TV view).
"""

from __future__ import annotations

import json
from typing import Any

from flask import Blueprint, Response, render_template

from .. import text
from ..i18n import gettext as _
from ..store import GameNotFound, GameRow, change_key, loaded
from .live import (  # noqa: F401 (re-exported: tests hold the stream slots)
    BUSY_RETRY_MS,
    STREAMS_PER_PROCESS,
    _streams,
    event_stream,
    polled_state,
    quiet_poll,
)
from .pages import turn_elapsed

bp = Blueprint("tv", __name__)

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
             "left": seat in game.left,
             "current": active and seat == game.current_player,
             "winner": seat in winners}
            for seat, (name, score) in enumerate(zip(names, game.scores, strict=True))
        ],
        "bag": game.bag,
        # The live board: its tiles as [row, col, colour, shape] in the
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
        # What static/speech.js says aloud after a new move.
        "turn": game.turn,
        "spoken": text.spoken_last(game, names),
    }


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

    def load() -> dict[str, Any]:
        with loaded(game_id) as row:
            return view_state(row)

    return polled_state(change_key(game_id), load)


@bp.get("/games/<int:game_id>/tv/events")
def events(game_id: int) -> Response:
    """Stream the table view's state as server-sent events (web/live.py)."""
    quiet = quiet_poll(lambda: change_key(game_id))
    if quiet is not None:
        return quiet

    def load() -> dict[str, Any]:
        with loaded(game_id) as row:
            return view_state(row)

    first = load()  # GameNotFound (404) before any byte is sent
    return event_stream(
        first, lambda key: change_key(game_id) != key, load, GameNotFound
    )
