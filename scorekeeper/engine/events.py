"""Club nights (CONTRACT §14): each game's ranks for the ratings, and seating
for the next round (tables of 2 to 4 players)."""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping, Sequence


def rating_ranks(scores: Sequence[int], excluded: Iterable[int] = ()) -> list[int]:
    """Return each seat's rank in a finished game for the ratings, 1 the best:
    by final score, equal scores sharing a rank (1, 1, 3), a seat excluded by
    table discipline below every seat in play (RULES §7; the excluded among
    themselves by score)."""
    out = set(excluded)
    keys = [(seat in out, -score) for seat, score in enumerate(scores)]
    return [1 + sum(other < key for other in keys) for key in keys]


MIN_TABLE = 2
"""Fewest players at a table."""

MAX_TABLE = 4
"""Most players at a table (a Qwirkle box seats four)."""


class SeatingError(ValueError):
    """Too few players to seat a table."""

    def __init__(self, players: int) -> None:
        super().__init__(f"{players} player(s) cannot fill a table of {MIN_TABLE}")
        self.code = "too_few_players"
        self.players = players


def table_sizes(players: int) -> list[int]:
    """Return the sizes of the fewest tables of 2-4 seating everyone, as even as
    possible, largest first (5 -> [3, 2], 9 -> [3, 3, 3], 10 -> [4, 3, 3])."""
    if players < MIN_TABLE:
        raise SeatingError(players)
    tables = -(-players // MAX_TABLE)
    base, extra = divmod(players, tables)
    return [base + 1] * extra + [base] * (tables - extra)


def seat_tables(
    names: Sequence[str], ratings: Mapping[str, float] | None = None,
    rng: random.Random | None = None, sizes: Sequence[int] | None = None,
) -> list[list[str]]:
    """Return tables of 2-4 for these players (of `sizes` when given, else
    the fewest, table_sizes).

    With ratings (name -> ordinal; an unrated player counts as the lowest given),
    tables are balanced: players are dealt strongest first in a snake order
    (table 1, 2, ..., n, n, ..., 2, 1, ...), so each table gets a mix. Without,
    the order is shuffled with rng.
    """
    sizes = list(sizes) if sizes is not None else table_sizes(len(names))
    if ratings is None:
        order = list(names)
        (rng or random.Random()).shuffle(order)
        tables: list[list[str]] = []
        start = 0
        for size in sizes:
            tables.append(order[start:start + size])
            start += size
        return tables
    floor = min(ratings.values(), default=0.0)
    order = sorted(
        names, key=lambda name: -ratings.get(name, floor)
    )
    tables = [[] for _ in sizes]
    forward = True
    index = 0
    for name in order:
        # Skip tables already full, in the current direction.
        while len(tables[index]) >= sizes[index]:
            index, forward = _step(index, forward, len(sizes))
        tables[index].append(name)
        index, forward = _step(index, forward, len(sizes))
    return tables


def _step(index: int, forward: bool, count: int) -> tuple[int, bool]:
    """Return the next table of a snake order and its direction."""
    if forward:
        return (index + 1, True) if index + 1 < count else (index, False)
    return (index - 1, False) if index > 0 else (index, True)
