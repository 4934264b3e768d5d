"""The names the admin merged into another (CONTRACT §14): kept, so that the
players' old names travel with a backup and are listed where merges are made."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import sqlite_utils

from .. import engine
from .connection import get_db, immediate


def record_merge(old: str, new: str, merged_at: str,
                 db: sqlite_utils.Database | None = None) -> None:
    """Remember that the player `old` is `new` since merged_at; a name merged
    into `old` before follows it to `new`. With db, in the caller's
    transaction."""
    old_name, new_name = engine.normalise_name(old), engine.normalise_name(new)
    old_key, new_key = engine.name_key(old_name), engine.name_key(new_name)
    if old_key == new_key:
        return

    def write(target: sqlite_utils.Database) -> None:
        target.conn.execute(
            "UPDATE merged_names SET new = ?, new_key = ? WHERE new_key = ?",
            [new_name, new_key, old_key])
        target.conn.execute("DELETE FROM merged_names WHERE old_key = ?", [new_key])
        target.conn.execute(
            "INSERT OR REPLACE INTO merged_names (old_key, old, new, new_key,"
            " merged_at) VALUES (?, ?, ?, ?, ?)",
            [old_key, old_name, new_name, new_key, merged_at])

    if db is not None:
        write(db)
        return
    stored = get_db()
    with immediate(stored):
        write(stored)


def merges() -> list[dict[str, Any]]:
    """Return every merged name, oldest merge first: old, new and merged_at."""
    return [
        {"old": row[0], "new": row[1], "merged_at": row[2]}
        for row in get_db().conn.execute(
            "SELECT old, new, merged_at FROM merged_names ORDER BY merged_at, old_key")
    ]


def restore_merges(db: sqlite_utils.Database,
                   items: Sequence[Any]) -> None:
    """Store a backup's merged names (in the caller's transaction); a name
    merged here already keeps what it has."""
    for item in items:
        if db.conn.execute("SELECT 1 FROM merged_names WHERE old_key = ?",
                           [engine.name_key(item.old)]).fetchone() is None:
            record_merge(item.old, item.new, item.merged_at, db)
