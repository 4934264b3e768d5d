"""The running games with their PINs, for the admin page (web/admin.py)."""

from __future__ import annotations

import json
from typing import Any

from .connection import get_db

MAX_LISTED = 200
"""Running games the admin page lists, least recently touched last."""


def running_games(limit: int = MAX_LISTED) -> list[dict[str, Any]]:
    """Return every running game, most recently touched first: id, players
    (names), created_at, updated_at, move_count and pin."""
    rows = get_db().conn.execute(
        "SELECT id, players, created_at, updated_at, move_count, pin FROM games"
        " WHERE status = 'active' ORDER BY updated_at DESC, id DESC LIMIT ?",
        [limit],
    ).fetchall()
    return [
        {"id": game_id, "players": json.loads(players), "created_at": created,
         "updated_at": updated, "move_count": moves, "pin": pin or ""}
        for game_id, players, created, updated, moves, pin in rows
    ]
