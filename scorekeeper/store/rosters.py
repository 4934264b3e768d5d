"""A season's roster (CONTRACT §14): its players, present at a night or not."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

import sqlite_utils

from .. import engine
from .connection import get_db, immediate
from .games import now

MAX_ROSTER = 200
"""Most players a season's roster holds (a club, not a town)."""


def roster(season_id: int) -> list[str]:
    """Return the season's roster, in the order its names were added."""
    return [str(row[0]) for row in get_db().conn.execute(
        "SELECT name FROM rosters WHERE season_id = ? ORDER BY added_at, rowid",
        [season_id])]


def season_players(season_id: int) -> list[str]:
    """Return everyone who sat at a table of the season's nights, once each
    (by name key), as written in their latest game there, in order of first
    appearance (by the nights' dates)."""
    names: dict[str, str] = {}
    for name, key in get_db().conn.execute(
        "SELECT p.name, p.name_key FROM events e INDEXED BY events_season"
        " JOIN games g INDEXED BY games_event ON g.event_id = e.id"
        " JOIN game_players p ON p.game_id = g.id WHERE e.season_id = ?"
        " ORDER BY e.date, e.id, g.id, p.seat", [season_id]):
        names[key] = name
    return list(names.values())


def change_roster(season_id: int, add: Iterable[str] = (),
                  remove: Iterable[str] = ()) -> list[str]:
    """Take names (by name key) off the season's roster, then put names on
    it (checked by the name rule; a name there already is kept as it is
    written), all or nothing; return the roster. Raise engine.InvalidName
    for a name the rule refuses, ValueError when the roster would hold more
    than MAX_ROSTER."""
    checked = [engine.normalise_name(name) for name in add]
    db = get_db()
    with immediate(db):
        db.conn.executemany(
            "DELETE FROM rosters WHERE season_id = ? AND name_key = ?",
            [(season_id, engine.name_key(name)) for name in remove])
        _insert(db, season_id, checked, now())
        count = db.conn.execute(
            "SELECT count(*) FROM rosters WHERE season_id = ?", [season_id]
        ).fetchone()[0]
        if count > MAX_ROSTER:
            raise ValueError(count)
    return roster(season_id)


def _insert(db: sqlite_utils.Database, season_id: int, names: Sequence[str],
            stamp: str) -> None:
    """Add names to a roster in the caller's transaction, in their order."""
    db.conn.executemany(
        "INSERT OR IGNORE INTO rosters (season_id, name, name_key, added_at)"
        " VALUES (?, ?, ?, ?)",
        [(season_id, name, engine.name_key(name), stamp) for name in names])


def restore_roster(db: sqlite_utils.Database, season_id: int,
                   names: Sequence[str]) -> None:
    """Add a backup's roster to a season (in the caller's transaction)."""
    _insert(db, season_id, names, now())
