"""Seasons (CONTRACT §14): club nights grouped, their standings together."""

from __future__ import annotations

from typing import Any

from .cache import MAX_GAME_ID
from .connection import get_db, immediate
from .games import now


class SeasonNotFound(LookupError):
    """No season has this id."""

    def __init__(self, season_id: int) -> None:
        super().__init__(f"there is no season {season_id}")
        self.season_id = season_id


def create_season(name: str) -> int:
    """Store a new season; return its id."""
    db = get_db()
    with immediate(db):
        cursor = db.conn.execute(
            "INSERT INTO seasons (name, created_at) VALUES (?, ?)", [name, now()])
    return int(cursor.lastrowid or 0)


def get_season(season_id: int) -> dict[str, Any]:
    """Return the season's id, name and events (ids, by date then id); raise
    SeasonNotFound."""
    row = None
    if 0 <= season_id <= MAX_GAME_ID:
        row = get_db().conn.execute(
            "SELECT id, name FROM seasons WHERE id = ?", [season_id]).fetchone()
    if row is None:
        raise SeasonNotFound(season_id)
    events = [int(r[0]) for r in get_db().conn.execute(
        "SELECT id FROM events INDEXED BY events_season WHERE season_id = ?"
        " ORDER BY date, id", [season_id])]
    return {"id": row[0], "name": row[1], "events": events}


def list_seasons() -> list[dict[str, Any]]:
    """Return every season, newest first: id, name and nights (how many)."""
    return [
        {"id": row[0], "name": row[1], "nights": row[2]}
        for row in get_db().conn.execute(
            "SELECT s.id, s.name, count(e.id) FROM seasons s"
            " LEFT JOIN events e ON e.season_id = s.id"
            " GROUP BY s.id ORDER BY s.id DESC")
    ]
