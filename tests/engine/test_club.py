"""Club nights in the engine: ranks for the ratings, seating for the next round."""

from __future__ import annotations

import random

import pytest

from scorekeeper import engine


def test_equal_scores_share_a_rank_and_the_next_rank_counts_them() -> None:
    assert engine.rating_ranks([10, 7, 10, 3]) == [1, 3, 1, 4]


def test_an_excluded_player_ranks_below_everyone_in_play_whatever_the_score() -> None:
    assert engine.rating_ranks([30, 5, 12], excluded=[0]) == [3, 2, 1]
    assert engine.rating_ranks([30, 5, 12], excluded=[0, 2]) == [2, 1, 3]


@pytest.mark.parametrize(
    ("players", "sizes"),
    [(2, [2]), (3, [3]), (4, [4]), (5, [3, 2]), (6, [3, 3]), (7, [4, 3]),
     (8, [4, 4]), (9, [3, 3, 3]), (10, [4, 3, 3]), (13, [4, 3, 3, 3])],
)
def test_tables_hold_two_to_four_and_are_as_even_as_possible(
    players: int, sizes: list[int]
) -> None:
    assert engine.table_sizes(players) == sizes


def test_one_player_cannot_fill_a_table() -> None:
    with pytest.raises(engine.SeatingError):
        engine.table_sizes(1)


def test_balanced_seating_deals_the_strongest_in_a_snake() -> None:
    ratings = {name: float(value) for value, name in enumerate("HGFEDCBA")}
    # A (7) ... H (0), two tables of four, dealt 1 2 2 1 1 2 2 1.
    tables = engine.seat_tables(list("ABCDEFGH"), ratings)
    assert tables == [["A", "D", "E", "H"], ["B", "C", "F", "G"]]
    totals = [sum(ratings[n] for n in t) for t in tables]
    assert totals[0] == totals[1]


def test_unrated_players_count_as_the_weakest_rated_one() -> None:
    tables = engine.seat_tables(["New", "A", "B", "C"], {"A": 5.0, "B": 1.0, "C": 3.0})
    assert sorted(map(sorted, tables)) == [["A", "B", "C", "New"]]


def test_random_seating_seats_everyone_once() -> None:
    names = [f"P{i}" for i in range(11)]
    tables = engine.seat_tables(names, rng=random.Random(4))
    assert sorted(n for t in tables for n in t) == sorted(names)
    assert [len(t) for t in tables] == engine.table_sizes(11)
