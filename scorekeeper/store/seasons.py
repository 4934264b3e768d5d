"""Seasons (CONTRACT §14): club nights grouped, their standings together."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

import sqlite_utils

from .cache import MAX_GAME_ID
from .connection import get_db, immediate
from .events import UNDO_SECONDS, season_named, seconds_before
from .games import now
from .rosters import restore_roster, roster


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


def season_games(season_id: int) -> tuple[int, int]:
    """Return how many games of the season's nights are finished (not
    abandoned) and how many are still being played."""
    row = get_db().conn.execute(
        "SELECT total(g.status = 'finished' AND g.end_reason IS NOT 'abandoned'),"
        " total(g.status = 'active') FROM events e INDEXED BY events_season"
        " JOIN games g INDEXED BY games_event ON g.event_id = e.id"
        " WHERE e.season_id = ?", [season_id]).fetchone()
    return int(row[0]), int(row[1])


def list_seasons() -> list[dict[str, Any]]:
    """Return every season, newest first: id, name and nights (how many)."""
    return [
        {"id": row[0], "name": row[1], "nights": row[2]}
        for row in get_db().conn.execute(
            "SELECT s.id, s.name, count(e.id) FROM seasons s"
            " LEFT JOIN events e ON e.season_id = s.id"
            " GROUP BY s.id ORDER BY s.id DESC")
    ]


def rename_season(season_id: int, name: str) -> None:
    """Give a season another name; raise SeasonNotFound."""
    db = get_db()
    with immediate(db):
        changed = db.conn.execute(
            "UPDATE seasons SET name = ? WHERE id = ?", [name, season_id]).rowcount
    if not changed:
        raise SeasonNotFound(season_id)


def delete_season(season_id: int) -> list[int]:
    """Delete a season; return the ids of its nights, which stay (in no
    season). The season, its nights' ids and its roster are kept aside
    UNDO_SECONDS, so that undelete_season can bring it back."""
    season = get_season(season_id)
    db = get_db()
    with immediate(db):
        stamp = now()
        db.conn.execute("DELETE FROM deleted_seasons WHERE deleted_at < ?",
                        [seconds_before(stamp, UNDO_SECONDS)])
        db.conn.execute(
            "INSERT OR REPLACE INTO deleted_seasons (id, name, created_at, events,"
            " roster, deleted_at) SELECT id, name, created_at, ?, ?, ? FROM seasons"
            " WHERE id = ?",
            [json.dumps(season["events"]),
             json.dumps(roster(season_id), ensure_ascii=False), stamp, season_id])
        # Said here, not left to ON DELETE: the nights outlive their season
        # whatever the connection's pragmas.
        db.conn.execute("UPDATE events SET season_id = NULL WHERE season_id = ?",
                        [season_id])
        db.conn.execute("DELETE FROM rosters WHERE season_id = ?", [season_id])
        db.conn.execute("DELETE FROM seasons WHERE id = ?", [season_id])
    return list(season["events"])


def was_deleted(season_id: int) -> bool:
    """Return whether the season was deleted less than UNDO_SECONDS ago."""
    if not 0 <= season_id <= MAX_GAME_ID:
        return False
    return get_db().conn.execute(
        "SELECT 1 FROM deleted_seasons WHERE id = ? AND deleted_at >= ?",
        [season_id, seconds_before(now(), UNDO_SECONDS)]).fetchone() is not None


def deleted_season_events(season_id: int) -> list[int]:
    """Return the nights a season deleted less than UNDO_SECONDS ago had
    (who organises one may bring it back); empty when there is none."""
    if not was_deleted(season_id):
        return []
    row = get_db().conn.execute(
        "SELECT events FROM deleted_seasons WHERE id = ?", [season_id]).fetchone()
    return [int(night) for night in json.loads(row[0])]


def undelete_season(season_id: int) -> bool:
    """Bring back a season deleted less than UNDO_SECONDS ago, with its id,
    roster and the nights it had that are still in no season; return False
    when there is none to bring back."""
    db = get_db()
    with immediate(db):
        row = db.conn.execute(
            "SELECT name, created_at, events, roster FROM deleted_seasons"
            " WHERE id = ? AND deleted_at >= ?",
            [season_id, seconds_before(now(), UNDO_SECONDS)]).fetchone()
        if row is None:
            return False
        db.conn.execute("INSERT INTO seasons (id, name, created_at) VALUES (?, ?, ?)",
                        [season_id, row[0], row[1]])
        db.conn.executemany(
            "UPDATE events SET season_id = ? WHERE id = ? AND season_id IS NULL",
            [(season_id, night) for night in json.loads(row[2])])
        restore_roster(db, season_id, json.loads(row[3]))
        db.conn.execute("DELETE FROM deleted_seasons WHERE id = ?", [season_id])
    return True


def seasons_for_backup() -> list[dict[str, Any]]:
    """Return every season for a backup: name, created_at and roster (when
    it has one); its nights name it (events_for_backup)."""
    return [
        {"name": row[1], "created_at": row[2],
         **({"roster": names} if (names := roster(int(row[0]))) else {})}
        for row in get_db().conn.execute(
            "SELECT id, name, created_at FROM seasons ORDER BY id")
    ]


def restore_seasons(db: sqlite_utils.Database, items: Sequence[Any]) -> None:
    """Store a backup's seasons (in the caller's transaction): a season of
    that name here already is the same season and gains the roster."""
    for item in items:
        restore_roster(db, season_named(db, item.name, item.created_at), item.roster)

