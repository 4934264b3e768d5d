"""Wrong PIN tries, counted in the database so every server process sees them.

A scope ("admin", "game:12") may be tried FREE_TRIES times wrong; each wrong try
after that locks it for twice as long as the last (FIRST_LOCK up to MAX_LOCK),
so guessing a 6-digit PIN takes years. A right try clears the count.
"""

from __future__ import annotations

import time

from .connection import get_db, immediate

FREE_TRIES = 5
"""Wrong tries allowed before the scope locks."""

FIRST_LOCK = 30.0
"""Seconds of the first lock."""

MAX_LOCK = 900.0
"""The longest lock, in seconds (a guest cannot lock the table out for long)."""


def locked_for(scope: str, now: float | None = None) -> float:
    """Return how many seconds the scope stays locked (0 when it may be tried)."""
    now = time.time() if now is None else now
    row = get_db().conn.execute(
        "SELECT locked_until FROM attempts WHERE scope = ?", [scope]
    ).fetchone()
    return max(0.0, float(row[0]) - now) if row else 0.0


def lock_after(failures: int) -> float:
    """Return how long a scope locks after its failures-th wrong try in a row."""
    if failures < FREE_TRIES:
        return 0.0
    return min(MAX_LOCK, FIRST_LOCK * 2 ** min(failures - FREE_TRIES, 20))


def failed(scope: str, now: float | None = None) -> float:
    """Count a wrong try; return the seconds the scope is now locked for."""
    now = time.time() if now is None else now
    db = get_db()
    with immediate(db):
        row = db.conn.execute(
            "SELECT failures FROM attempts WHERE scope = ?", [scope]
        ).fetchone()
        failures = (row[0] if row else 0) + 1
        lock = lock_after(failures)
        db.conn.execute(
            "INSERT INTO attempts (scope, failures, locked_until, last_at)"
            " VALUES (?, ?, ?, ?) ON CONFLICT (scope) DO UPDATE SET"
            " failures = excluded.failures, locked_until = excluded.locked_until,"
            " last_at = excluded.last_at",
            [scope, failures, now + lock, now],
        )
    return lock


def succeeded(scope: str) -> None:
    """Clear the scope's wrong tries (a right PIN)."""
    db = get_db()
    if db.conn.execute(
        "SELECT 1 FROM attempts WHERE scope = ?", [scope]
    ).fetchone():
        with immediate(db):
            db.conn.execute("DELETE FROM attempts WHERE scope = ?", [scope])
