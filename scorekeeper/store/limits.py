"""Wrong PIN tries, counted in the database so every server process sees them.

Each try fills three leaking buckets at once: the client's (its address), the
target's (the admin PIN, or one game's PIN) and one for all PINs together.
A bucket holds `capacity` tries and drains one every `drain` seconds, so a
lock decays by itself and a slow guesser never keeps anyone out for long;
while any of the three is full, no PIN is heard (429). The try is taken,
atomically, before the PIN is compared (one BEGIN IMMEDIATE transaction for the
three buckets: 200 guesses sent at once get `capacity` heard, no more), and a
right PIN gives it back and empties the client's and the target's buckets.

What this bounds (issue 19): one client hears CLIENT.capacity wrong guesses,
then one every CLIENT.drain seconds; any number of clients together hear one
every ALL.drain seconds: with a 6-digit game PIN, ALL lets 144 wrong guesses a
day reach all games together, 1 in ~7,000 per running game per day.
Who is never locked is the caller's business (web.auth): this machine, and a
device that already holds the right.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

from .connection import get_db, immediate


@dataclass(frozen=True)
class Bucket:
    """A kind of bucket: how many tries it holds and how fast it drains."""

    prefix: str
    capacity: float
    """Tries heard in a row before it is full."""
    drain: float
    """Seconds for one try to drain away."""

    def scope(self, key: str) -> str:
        """Return the row's key for one client or target."""
        return f"{self.prefix}:{key}"


CLIENT = Bucket("client", 5, 300.0)
"""One device: 5 wrong tries, then one every 5 minutes."""

TARGET = Bucket("target", 10, 600.0)
"""One PIN (the admin PIN or a game's): 10 wrong tries from anywhere, then one
every 10 minutes."""

ALL = Bucket("all", 20, 600.0)
"""Every PIN together: the ceiling for a guest with many addresses."""

FREE_TRIES = int(CLIENT.capacity)
"""Wrong tries a client has before it waits (the tests' and the docs' figure)."""

FORGET_AFTER = 24 * 3600.0
"""Rows untouched this long are empty whatever they held: deleted as we go."""


def _level(row: tuple[float, float] | None, now: float, bucket: Bucket) -> float:
    """Return a bucket's level now: what it held, less what drained since."""
    if row is None:
        return 0.0
    level, at = row
    return max(0.0, level - max(0.0, now - at) / bucket.drain)


def _scopes(client: str, target: str) -> list[tuple[str, Bucket]]:
    return [(CLIENT.scope(client), CLIENT), (TARGET.scope(target), TARGET),
            (ALL.scope("pins"), ALL)]


def take_try(client: str, target: str, now: float | None = None) -> float:
    """Take one try for client at target; return 0 when it may be heard, else
    the seconds until it may (and nothing is counted).

    The try counts as wrong until `succeeded` gives it back.
    """
    now = time.time() if now is None else now
    scopes = _scopes(client, target)
    db = get_db()
    with immediate(db):
        rows = dict(
            (scope, (level, at)) for scope, level, at in db.conn.execute(
                "SELECT scope, level, at FROM pin_tries WHERE scope IN (?, ?, ?)",
                [scope for scope, _ in scopes],
            )
        )
        levels = {
            scope: _level(rows.get(scope), now, bucket)
            for scope, bucket in scopes
        }
        wait = max(
            (levels[scope] + 1 - bucket.capacity) * bucket.drain
            for scope, bucket in scopes
        )
        if wait > 0:
            return wait
        db.conn.executemany(
            "INSERT INTO pin_tries (scope, level, at) VALUES (?, ?, ?)"
            " ON CONFLICT (scope) DO UPDATE SET level = excluded.level,"
            " at = excluded.at",
            [(scope, levels[scope] + 1, now) for scope, _ in scopes],
        )
        db.conn.execute("DELETE FROM pin_tries WHERE at < ?", [now - FORGET_AFTER])
    return 0.0


def succeeded(client: str, target: str, now: float | None = None) -> None:
    """A right PIN: empty the client's and the target's buckets and give the
    try back to the bucket of all PINs."""
    now = time.time() if now is None else now
    client_scope, target_scope, all_scope = (scope for scope, _ in
                                             _scopes(client, target))
    db = get_db()
    with immediate(db):
        db.conn.execute("DELETE FROM pin_tries WHERE scope IN (?, ?)",
                        [client_scope, target_scope])
        row = db.conn.execute("SELECT level, at FROM pin_tries WHERE scope = ?",
                              [all_scope]).fetchone()
        if row:
            db.conn.execute(
                "UPDATE pin_tries SET level = ?, at = ? WHERE scope = ?",
                [max(0.0, _level((row[0], row[1]), now, ALL) - 1), now, all_scope],
            )


def locked_for(client: str, target: str, now: float | None = None) -> float:
    """Return how many seconds until client's next try at target is heard (0:
    now), without taking one (the page says so before anyone types)."""
    now = time.time() if now is None else now
    scopes = _scopes(client, target)
    rows = dict(
        (scope, (level, at)) for scope, level, at in get_db().conn.execute(
            "SELECT scope, level, at FROM pin_tries WHERE scope IN (?, ?, ?)",
            [scope for scope, _ in scopes],
        )
    )
    return max(0.0, max(
        (_level(rows.get(scope), now, bucket) + 1 - bucket.capacity)
        * bucket.drain
        for scope, bucket in scopes
    ))
