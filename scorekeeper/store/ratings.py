"""Ratings (CONTRACT §14): openskill's Plackett-Luce over every finished game.

Games are rated one at a time in the order of games.rated_at (their night's
date, or the day they finished, then when they finished: triggers.RATED_AT),
then id; rating_steps.finished_at and rating_dirty.finished_at hold that
place, not the time alone. Each game's ranks come from its final scores, an
excluded player below everyone in play, equal scores sharing a rank; an
abandoned game (no result: game_players.is_winner NULL) is not rated, nor is
a game with fewer than two players. rating_steps holds every seat's rating
after each rated game, player_ratings each player's latest. Triggers
(schema.m600_club_nights, m850) mark the earliest finished game a write
changed in rating_dirty; `refresh` re-rates from that game on, reusing the
ratings from before it, so that finishing a game rates that game alone while
a correction of an old one re-rates what follows.
"""

from __future__ import annotations

import math
import sqlite3
from collections.abc import Iterator, Sequence
from typing import Any

import sqlite_utils
from openskill.models import PlackettLuce

from .. import engine
from .connection import get_db, immediate

_MODEL = PlackettLuce()
"""The model at its default parameters (mu 25, sigma 25/3)."""

MU = float(_MODEL.mu)
"""A new player's mu."""

SIGMA = float(_MODEL.sigma)
"""A new player's sigma."""


def ordinal(mu: float, sigma: float) -> float:
    """Return the ordinal openskill derives from a rating: mu - 3 sigma."""
    return mu - 3 * sigma


_TAU_SQUARED = float(_MODEL.tau) ** 2
"""openskill's dynamics term, added to each sigma squared before a game."""


def rate_owned(ratings: list[Any], ranks: Sequence[float]) -> list[Any]:
    """Return the ratings after one game (ranks: 1 the best, ties equal), by
    the model's own update (PlackettLuce._compute), from rating objects the
    caller owns and no longer needs.

    The same steps as PlackettLuce.rate() for one player per team (sigma
    widened by tau, teams sorted by rank, the update, the original order
    back), without the deep copy of every input rate() makes to leave its
    arguments untouched: that copy (and the UUID each copied rating draws)
    was 60% of re-rating 50,000 games. tests/test_club_ratings.py checks it
    against rate() on thousands of random games, ties and exclusions
    included: the floats are identical.
    """
    for rating in ratings:
        rating.sigma = math.sqrt(rating.sigma * rating.sigma + _TAU_SQUARED)
    order = sorted(range(len(ranks)), key=ranks.__getitem__)
    rated = _MODEL._compute(
        teams=[[ratings[i]] for i in order], ranks=[float(ranks[i]) for i in order]
    )
    out: list[Any] = [None] * len(ranks)
    for position, index in enumerate(order):
        out[index] = rated[position][0]
    return out


class _Player:
    """A player's rating while games are rated: openskill's own rating object,
    made once per player (making one draws a UUID) and replaced by rate()."""

    __slots__ = ("games", "rating")

    def __init__(self, mu: float = MU, sigma: float = SIGMA, games: int = 0) -> None:
        self.rating: Any = _MODEL.rating(mu=mu, sigma=sigma)
        self.games = games

    @property
    def mu(self) -> float:
        return float(self.rating.mu)

    @property
    def sigma(self) -> float:
        return float(self.rating.sigma)


def _stale_from(db: sqlite_utils.Database) -> tuple[str, int] | None:
    row = db.conn.execute(
        "SELECT finished_at, game_id FROM rating_dirty WHERE id = 1"
    ).fetchone()
    return (str(row[0]), int(row[1])) if row else None


def _games_from(
    db: sqlite_utils.Database, start: tuple[str, int]
) -> Iterator[tuple[int, str, list[tuple[int, str, int, bool]]]]:
    """Yield (game id, finished_at, seats) of every rated game from start on,
    in rating order; seats are (seat, name key, score, excluded)."""
    cursor = db.conn.execute(
        "SELECT g.id, g.rated_at, p.seat, p.name_key, p.score, p.excluded"
        " FROM games g INDEXED BY games_rated"
        " JOIN game_players p ON p.game_id = g.id"
        " WHERE g.rated_at IS NOT NULL AND (g.rated_at, g.id) >= (?, ?)"
        " AND p.is_winner IS NOT NULL"
        " ORDER BY g.rated_at, g.id, p.seat",
        list(start),
    )
    current: int | None = None
    finished = ""
    seats: list[tuple[int, str, int, bool]] = []
    for game_id, finished_at, seat, key, score, excluded in cursor:
        if game_id != current:
            if current is not None:
                yield current, finished, seats
            current, finished, seats = game_id, finished_at, []
        seats.append((seat, key, score, bool(excluded)))
    if current is not None:
        yield current, finished, seats


def _players_before(
    db: sqlite_utils.Database, start: tuple[str, int]
) -> tuple[dict[str, _Player], set[str]]:
    """Take back the ratings from start on; return every player's rating before
    start and the players whose rating changed (to write back or remove)."""
    first = db.conn.execute(
        "SELECT finished_at, game_id FROM rating_steps"
        " ORDER BY finished_at, game_id LIMIT 1"
    ).fetchone()
    if first is not None and tuple(first) >= tuple(start):
        # Everything goes: emptied at once (SQLite's truncate), not row by row.
        affected = {key for (key,) in db.conn.execute(
            "SELECT name_key FROM player_ratings")}
        db.conn.execute("DELETE FROM rating_steps")
        return {}, affected
    # Each affected player's games from start on (a range of the order index).
    later = dict(db.conn.execute(
        "SELECT name_key, count(*) FROM rating_steps INDEXED BY rating_steps_order"
        " WHERE (finished_at, game_id) >= (?, ?) GROUP BY name_key", list(start)
    ).fetchall())
    affected = set(later)
    players = {}
    for key, mu, sigma, games in db.conn.execute(
        "SELECT name_key, mu, sigma, games FROM player_ratings"
    ):
        if key not in affected:
            players[key] = _Player(mu, sigma, games)
        elif games > later[key]:
            # Their rating after their last game before start (one seek).
            before = db.conn.execute(
                "SELECT mu, sigma FROM rating_steps WHERE name_key = ?"
                " AND (finished_at, game_id) < (?, ?)"
                " ORDER BY finished_at DESC, game_id DESC LIMIT 1",
                [key, *start],
            ).fetchone()
            players[key] = _Player(before[0], before[1], games - later[key])
    db.conn.execute(
        "DELETE FROM rating_steps WHERE (finished_at, game_id) >= (?, ?)", list(start)
    )
    return players, affected


def _rerate(db: sqlite_utils.Database, start: tuple[str, int]) -> int:
    """Re-rate every game from start on (in the caller's transaction); return how
    many games were rated."""
    players, touched = _players_before(db, start)
    steps: list[tuple[int, int, str, str, float, float]] = []
    rated = 0
    for game_id, finished_at, seats in _games_from(db, start):
        if len(seats) < 2:
            continue
        ranks = list(engine.rating_ranks(
            [score for _, _, score, _ in seats],
            [i for i, (_, _, _, excluded) in enumerate(seats) if excluded],
        ))
        who = []
        for _, key, _, _ in seats:
            player = players.get(key)
            if player is None:
                player = players[key] = _Player()
            who.append(player)
        after = rate_owned([p.rating for p in who], ranks)
        for (seat, key, _, _), player, rating in zip(
            seats, who, after, strict=True
        ):
            player.rating = rating
            player.games += 1
            touched.add(key)
            steps.append((game_id, seat, finished_at, key, float(rating.mu),
                          float(rating.sigma)))
        rated += 1
    db.conn.executemany(
        "INSERT INTO rating_steps (game_id, seat, finished_at, name_key, mu, sigma)"
        " VALUES (?, ?, ?, ?, ?, ?)",
        steps,
    )
    gone = [(key,) for key in touched if key not in players]
    db.conn.executemany("DELETE FROM player_ratings WHERE name_key = ?", gone)
    db.conn.executemany(
        "INSERT INTO player_ratings (name_key, mu, sigma, ordinal, games)"
        " VALUES (?, ?, ?, ?, ?) ON CONFLICT (name_key) DO UPDATE SET"
        " mu = excluded.mu, sigma = excluded.sigma, ordinal = excluded.ordinal,"
        " games = excluded.games",
        [
            (key, p.mu, p.sigma, ordinal(p.mu, p.sigma), p.games)
            for key in touched if key in players
            for p in (players[key],)
        ],
    )
    db.conn.execute("DELETE FROM rating_dirty")
    return rated


def refresh(db: sqlite_utils.Database | None = None) -> int:
    """Bring the stored ratings up to date with the games; return how many games
    were (re-)rated (0: they were current).

    Every reader of ratings calls this first: a write only marks where the
    ratings went stale (one row, by trigger), the first read after it re-rates.
    """
    db = db or get_db()
    if _stale_from(db) is None:
        return 0
    with immediate(db):
        # Another request or process may have re-rated meanwhile.
        start = _stale_from(db)
        return 0 if start is None else _rerate(db, start)


def rerate_all(db: sqlite_utils.Database) -> int:
    """Re-rate every finished game from the first; return how many were rated."""
    with immediate(db):
        db.conn.execute("DELETE FROM rating_dirty")
        return _rerate(db, ("", 0))


_NAME = (
    "(SELECT name FROM game_players WHERE name_key = r.name_key"
    " ORDER BY created_at DESC, game_id DESC LIMIT 1)"
)
"""A player's name as written in their most recent game (as the players list)."""


def _row(row: sqlite3.Row | tuple[Any, ...]) -> dict[str, Any]:
    name, key, mu, sigma, value, games = row
    return {"name": name, "name_key": key, "mu": mu, "sigma": sigma,
            "ordinal": value, "games": games}


def all_ratings() -> list[dict[str, Any]]:
    """Return every rated player's rating, highest ordinal first: name, name_key,
    mu, sigma, ordinal, games (rated games)."""
    db = get_db()
    refresh(db)
    return [
        _row(row) for row in db.conn.execute(
            f"SELECT {_NAME}, r.name_key, r.mu, r.sigma, r.ordinal, r.games"
            " FROM player_ratings r ORDER BY r.ordinal DESC, r.name_key"
        )
    ]


def ratings_by_key(keys: Sequence[str] | None = None) -> dict[str, dict[str, Any]]:
    """Return the ratings of these players (every player: None) by name key;
    a player without a rated game is missing."""
    db = get_db()
    refresh(db)
    if keys is None:
        rows = db.conn.execute(
            "SELECT NULL, name_key, mu, sigma, ordinal, games FROM player_ratings"
        ).fetchall()
    else:
        wanted = list(dict.fromkeys(keys))
        rows = []
        for chunk in range(0, len(wanted), 500):
            part = wanted[chunk:chunk + 500]
            rows += db.conn.execute(
                "SELECT NULL, name_key, mu, sigma, ordinal, games FROM player_ratings"
                f" WHERE name_key IN ({','.join('?' * len(part))})",
                part,
            ).fetchall()
    return {row[1]: _row(row) for row in rows}


def rating_of(name: str) -> dict[str, Any] | None:
    """Return one player's rating (as all_ratings' rows), or None."""
    return ratings_by_key([engine.name_key(name)]).get(engine.name_key(name))


def history(name: str, limit: int = 500) -> list[dict[str, Any]]:
    """Return a player's rating after each of their rated games, oldest first
    (at most the last `limit`): game_id, finished_at, mu, sigma, ordinal."""
    db = get_db()
    refresh(db)
    rows = db.conn.execute(
        "SELECT game_id, finished_at, mu, sigma FROM rating_steps"
        " WHERE name_key = ? ORDER BY finished_at DESC, game_id DESC LIMIT ?",
        [engine.name_key(name), limit],
    ).fetchall()
    return [
        {"game_id": game_id, "finished_at": place.partition(" ")[2], "mu": mu,
         "sigma": sigma, "ordinal": ordinal(mu, sigma)}
        for game_id, place, mu, sigma in reversed(rows)
    ]


def ratings_as_of(keys: Sequence[str], day: str) -> dict[str, dict[str, Any]]:
    """Return the players' ratings as they stood at the end of `day` (every
    game rated on that day or before, CONTRACT §14): {name key: {"mu",
    "sigma", "ordinal", "games"}}; a player with no game by then is missing.
    A later night changes nothing here."""
    db = get_db()
    refresh(db)
    # Places are "<day> <finished_at>": "!" sorts after the space, before
    # any later day.
    bound = f"{day}!"
    found: dict[str, dict[str, Any]] = {}
    for key in dict.fromkeys(keys):
        row = db.conn.execute(
            "SELECT mu, sigma, (SELECT count(*) FROM rating_steps"
            "  WHERE name_key = ? AND finished_at < ?)"
            " FROM rating_steps WHERE name_key = ? AND finished_at < ?"
            " ORDER BY finished_at DESC, game_id DESC LIMIT 1",
            [key, bound, key, bound],
        ).fetchone()
        if row is not None:
            found[key] = {"mu": row[0], "sigma": row[1],
                          "ordinal": ordinal(row[0], row[1]), "games": row[2]}
    return found
