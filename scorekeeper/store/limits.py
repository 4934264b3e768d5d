"""Wrong PIN tries, counted in the database so every server process sees them.

Each wrong try fills two leaking buckets: the address's (the device's network
address, an IPv6 one by its /64) and the device's own (the id in its device
cookie). A bucket holds `capacity` tries and drains one every `drain` seconds,
so a lock decays by itself. Nobody is locked out by someone else's guesses
(docs/CONTRACT.md §15):

- a try is refused (429) while the device's own bucket is full;
- a full address bucket refuses only devices that appeared after its wrong
  tries began, or that have guessed wrong themselves: a phone that shared the
  address before (a household behind one router) and never guessed wrong is
  heard at once. A guest who drops its cookie comes back as a new device,
  which the address's bucket then holds; the devices known before count in
  a second bucket of the address (ELDERS), so cookies a guest made ahead of
  time buy no more than one more bucket's tries;
- no bucket is shared between addresses or between PINs, so no number of
  guests locks a PIN for anybody else.

The try is taken atomically before the PIN is compared (one BEGIN IMMEDIATE
transaction): 200 guesses sent at once get `capacity` heard, no more. A right
PIN empties nothing: a guest who knows one PIN (their own table's) cannot use
it to buy more guesses at another.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

from .connection import get_db, immediate


@dataclass(frozen=True)
class Bucket:
    """A kind of bucket: how many tries it holds and how fast it drains."""

    prefix: str
    capacity: int
    """Tries heard in a row before it is full."""
    drain: float
    """Seconds for one try to drain away."""

    def scope(self, key: str) -> str:
        """Return the row's key for one address or device."""
        return f"{self.prefix}:{key}"


ADDRESS = Bucket("address", 5, 600.0)
"""One address (an IPv6 /64): 5 wrong tries, then one every 10 minutes."""

ELDERS = Bucket("elders", 5, 600.0)
"""The devices of one address that were known before its wrong tries began:
as many tries again, in all."""

DEVICE = Bucket("device", 5, 600.0)
"""One device cookie: as an address, so that a phone sharing its address with
a guesser keeps its own five tries."""

FORGET_AFTER = 24 * 3600.0
"""Rows untouched this long are empty whatever they held: deleted as we go."""


@dataclass(frozen=True)
class Trier:
    """Who tries a PIN: the address key, the device's id, and when the device's
    cookie was first given (0 for a device that has none yet: it is new)."""

    address: str
    device: str
    born: float


def _level(level: float, at: float, now: float, bucket: Bucket) -> float:
    """Return a bucket's level now: what it held, less what drained since."""
    return max(0.0, level - max(0.0, now - at) / bucket.drain)


def _wait(level: float, bucket: Bucket) -> float:
    """Return the seconds until a bucket at `level` hears one more try (0: now)."""
    return max(0.0, (level + 1 - bucket.capacity) * bucket.drain)


@dataclass(frozen=True)
class Taken:
    """A try asked for: 0 seconds to wait when it is heard (and counted in
    `buckets`, each row's scope with its kind), else how long until it may be."""

    wait: float
    buckets: tuple[tuple[str, Bucket], ...] = ()


def take_try(trier: Trier, now: float | None = None) -> Taken:
    """Take one try for trier; say whether it may be heard now (nothing is
    counted when it may not). The try counts as wrong until `succeeded`."""
    now = time.time() if now is None else now
    address, elders, device = (ADDRESS.scope(trier.address),
                               ELDERS.scope(trier.address),
                               DEVICE.scope(trier.device))
    buckets = {address: ADDRESS, elders: ELDERS, device: DEVICE}
    db = get_db()
    with immediate(db):
        found = {
            scope: (level, at, since) for scope, level, at, since in db.conn.execute(
                "SELECT scope, level, at, since FROM pin_tries"
                " WHERE scope IN (?, ?, ?)", list(buckets),
            )
        }
        levels: dict[str, tuple[float, float]] = {}
        for scope, bucket in buckets.items():
            level, at, since = found.get(scope, (0.0, now, now))
            levels[scope] = (_level(level, at, now, bucket), since or now)
        # The address's streak began at `since`: a device already known then,
        # with no wrong try of its own, is not the guesser; it counts with the
        # address's other elders instead.
        known_before = 0 < trier.born < levels[address][1] and levels[device][0] == 0
        counted = (elders if known_before else address, device)
        wait = max(_wait(levels[scope][0], buckets[scope]) for scope in counted)
        if wait > 0:
            return Taken(wait)
        db.conn.executemany(
            "INSERT INTO pin_tries (scope, level, at, since) VALUES (?, ?, ?, ?)"
            " ON CONFLICT (scope) DO UPDATE SET level = excluded.level,"
            " at = excluded.at, since = excluded.since",
            [(scope, levels[scope][0] + 1, now,
              levels[scope][1] if levels[scope][0] > 0 else now)
             for scope in counted],
        )
        db.conn.execute("DELETE FROM pin_tries WHERE at < ?", [now - FORGET_AFTER])
    return Taken(0.0, tuple((scope, buckets[scope]) for scope in counted))


def succeeded(taken: Taken, now: float | None = None) -> None:
    """A right PIN: give back the try `take_try` counted (and nothing more)."""
    now = time.time() if now is None else now
    db = get_db()
    with immediate(db):
        for scope, bucket in taken.buckets:
            row = db.conn.execute(
                "SELECT level, at FROM pin_tries WHERE scope = ?", [scope]
            ).fetchone()
            if row:
                db.conn.execute(
                    "UPDATE pin_tries SET level = ?, at = ? WHERE scope = ?",
                    [max(0.0, _level(row[0], row[1], now, bucket) - 1), now, scope],
                )
