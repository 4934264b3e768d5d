"""Club standings (CONTRACT §14): what each finished game gives each player
under a scoring, and the table of rows those add up to. Plain data in, plain
data out: the store reads the games, the pages and the API show the rows."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any, Literal, get_args

from .events import rating_ranks

Scoring = Literal["wins", "placement", "share"]
"""How a game counts in the standings (CONTRACT §14)."""

SCORINGS: tuple[str, ...] = get_args(Scoring)
"""Every scoring, the default first."""

_PRECISION = 9
"""Decimals a value keeps when rows are compared: a sum of shares is a sum of
fractions, whose last bits differ with the order they were added in."""


@dataclass(frozen=True)
class Seat:
    """One player's result in one finished game."""

    key: str
    """The player's name key (one player however the name is written)."""
    name: str
    score: int
    excluded: bool = False
    """Out of play when the game ended: excluded (RULES §7.3) or left (§7.5)."""
    left: bool = False
    """The player left the game (RULES §7.5); excluded is true too."""


def counted_seats(seats: Sequence[Seat], count_leavers: bool = True) -> list[Seat]:
    """Return the seats a game counts in the standings (CONTRACT §14): every
    seat, a player who left placed last as an excluded one is; or, when the
    organiser chose not to count leavers, the game without them (RULES §7.5)."""
    return [seat for seat in seats if count_leavers or not seat.left]


def measures(seats: Sequence[Seat], scoring: Scoring) -> list[float]:
    """Return what the game gives each seat under the scoring.

    wins: 1 to each seat with the best rank (a shared top score too), else 0;
    placement: 1 for each player who finished below the seat, a half for each
    who finished level; share: the seat's score over the mean score at the
    table (0 when that mean is 0). An excluded player finishes below everyone
    in play (RULES §7), as rating_ranks orders them.
    """
    ranks = rating_ranks([s.score for s in seats],
                         [i for i, s in enumerate(seats) if s.excluded])
    if scoring == "wins":
        return [1.0 if rank == 1 and not seat.excluded else 0.0
                for rank, seat in zip(ranks, seats, strict=True)]
    if scoring == "placement":
        return [sum(1.0 if other > rank else 0.5 if other == rank else 0.0
                    for j, other in enumerate(ranks) if j != i)
                for i, rank in enumerate(ranks)]
    mean = sum(s.score for s in seats) / len(seats) if seats else 0.0
    return [s.score / mean if mean else 0.0 for s in seats]


@dataclass
class _Total:
    """A player's sums over some games."""

    name: str
    games: int = 0
    wins: int = 0
    points: int = 0
    value: float = 0.0

    def add(self, other: _Total) -> None:
        self.name = other.name
        self.games += other.games
        self.wins += other.wins
        self.points += other.points
        self.value += other.value


def _totals(games: Iterable[Sequence[Seat]], scoring: Scoring) -> dict[str, _Total]:
    totals: dict[str, _Total] = {}
    for seats in games:
        won = measures(seats, "wins")
        given = won if scoring == "wins" else measures(seats, scoring)
        for seat, win, value in zip(seats, won, given, strict=True):
            total = totals.setdefault(seat.key, _Total(seat.name))
            total.add(_Total(seat.name, 1, int(win), seat.score, value))
    return totals


def _ranked(totals: dict[str, _Total], scoring: Scoring) -> list[dict[str, Any]]:
    def mark(key: str) -> tuple[float, int]:
        return round(totals[key].value, _PRECISION), totals[key].points

    ordered = sorted(totals, key=lambda k: (-mark(k)[0], -mark(k)[1], k))
    out: list[dict[str, Any]] = []
    for place, key in enumerate(ordered, start=1):
        total = totals[key]
        same = place > 1 and mark(ordered[place - 2]) == mark(key)
        out.append({
            "name": total.name, "games": total.games, "wins": total.wins,
            "points": total.points,
            "value": int(total.value) if scoring == "wins" else round(total.value, 3),
            "rank": out[-1]["rank"] if same else place,
        })
    return out


def standings(games: Iterable[Sequence[Seat]], scoring: Scoring = "wins"
              ) -> list[dict[str, Any]]:
    """Return one row per player (by name key) over the games: name (as
    written in their last game), games, wins, points, value (the sum of the
    scoring's measure) and rank; ordered by value, then points, both highest
    first, then by name key; equal value and points share a rank."""
    return _ranked(_totals(games, scoring), scoring)


def season_standings(nights: Iterable[Iterable[Sequence[Seat]]],
                     scoring: Scoring = "wins", best: int | None = None
                     ) -> list[dict[str, Any]]:
    """Return the standings of several nights' games together, as standings
    does; with best, each player's best `best` nights alone count (a night's
    games, wins, points and value together; the best by value, then points,
    the earlier night first among equals)."""
    per_player: dict[str, list[_Total]] = {}
    for night in nights:
        for key, total in _totals(night, scoring).items():
            per_player.setdefault(key, []).append(total)
    totals: dict[str, _Total] = {}
    for key, done in per_player.items():
        kept = done if best is None else sorted(
            done, key=lambda t: (-round(t.value, _PRECISION), -t.points))[:best]
        total = totals[key] = _Total(done[-1].name)
        for part in kept:
            total.add(part)
        total.name = done[-1].name
    return _ranked(totals, scoring)
