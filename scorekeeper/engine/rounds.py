"""Rounds of a club night (CONTRACT §14): tables of a chosen size, and Swiss
pairing, which seats players of near standing together and never seats two
players together again while another seating exists."""

from __future__ import annotations

from collections.abc import Callable, Collection, Sequence
from itertools import combinations

from .events import MAX_TABLE, MIN_TABLE, SeatingError

SEARCH_STEPS = 150_000
"""Tables weighed before the search settles for the best seating found so
far: 12 players are searched through, a night of 30 is seated in about a
second (test_club_rounds; the report's figures)."""


def round_sizes(players: int, table_size: int) -> list[int]:
    """Return the tables' sizes for a round: as many tables of table_size as
    the count allows, made as even as tables of 2 to 4 allow, largest first
    (12 by 4 -> [4, 4, 4], 10 by 4 -> [4, 3, 3], 5 by 2 -> [3, 2])."""
    if players < MIN_TABLE:
        raise SeatingError(players)
    size = min(max(table_size, MIN_TABLE), MAX_TABLE)
    tables = -(-players // size)
    while tables > 1 and players // tables < MIN_TABLE:
        tables -= 1
    base, extra = divmod(players, tables)
    return [base + 1] * extra + [base] * (tables - extra)


class _OutOfSteps(Exception):
    """The search weighed SEARCH_STEPS tables."""


def swiss_tables(
    order: Sequence[str], sizes: Sequence[int], met: Collection[frozenset[str]],
    key: Callable[[str], str] = str, steps: int = SEARCH_STEPS,
) -> list[list[str]]:
    """Seat the players of `order` (best standing first) at tables of `sizes`.

    The first unseated player sits with the players nearest below them in
    standing, unless that seats a pair who have met (`met`: pairs of keys)
    together again: a branch-and-bound search over the seatings, those with
    the fewest repeated pairs first, nearest first among equals, keeps the
    seating with the fewest repeated pairs. A pair meets again only when no
    seating avoids it, or when the search weighed `steps` tables first (a
    large night: then the best seating found).
    """
    if sum(sizes) != len(order):
        raise ValueError("the tables' sizes do not add up to the players")
    keys = [key(name) for name in order]

    def repeats(seats: Sequence[int]) -> int:
        return sum(frozenset((keys[a], keys[b])) in met
                   for a, b in combinations(seats, 2))

    best: list[list[int]] = []
    best_cost = [sum(size * (size - 1) // 2 for size in sizes) + 1]
    weighed = [0]

    def search(left: list[int], table: int, cost: int, chosen: list[list[int]]
               ) -> None:
        if not left:
            best[:] = [list(seats) for seats in chosen]
            best_cost[0] = cost
            return
        first, rest = left[0], left[1:]
        options = []
        for place, others in enumerate(combinations(rest, sizes[table] - 1)):
            weighed[0] += 1
            if weighed[0] > steps:
                raise _OutOfSteps
            extra = repeats((first, *others))
            if cost + extra < best_cost[0]:
                options.append((extra, place, others))
        options.sort()
        for extra, _place, others in options:
            if cost + extra >= best_cost[0]:
                break
            remaining = [i for i in rest if i not in others]
            search(remaining, table + 1, cost + extra,
                   [*chosen, [first, *others]])
            if best_cost[0] == 0:
                return

    try:
        search(list(range(len(order))), 0, 0, [])
    except _OutOfSteps:
        pass
    if best:
        return [[order[i] for i in seats] for seats in best]
    # The search weighed its steps before any whole seating: standing order.
    out, start = [], 0
    for size in sizes:
        out.append(list(order[start:start + size]))
        start += size
    return out
