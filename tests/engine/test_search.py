"""The move search: cases its pruning must get right, and a stable order."""

from __future__ import annotations

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scorekeeper import engine

from .helpers import build_position, replay


def test_s3_5_a_gap_between_two_copies_of_a_tile_is_filled_by_nothing():
    # Row -2 holds a red clover at -3 and at -1: whatever goes between them
    # makes a line with two red clovers.
    board = replay([
        [(-1, -1, "red", "square"), (-1, -2, "red", "circle"),
         (-1, -3, "red", "diamond")],
        [(-2, -1, "red", "clover")],
        [(-2, -3, "red", "clover")],
    ])

    moves = engine.legal_moves(board, [("red", "crisscross"), ("green", "circle")])

    assert moves
    assert all((t[0], t[1]) != (-2, -2) for _, move in moves for t in move)
    for points, move in moves:
        assert board.check(list(move)).points == points


def test_s3_5_a_tile_can_join_two_runs_that_make_one_line():
    # Red circle, gap, red diamond: a red square in the gap makes a row of 3.
    board = replay([
        [(0, 0, "red", "circle"), (1, 0, "blue", "circle")],
        [(1, 1, "blue", "square"), (1, 2, "blue", "diamond")],
        [(0, 2, "red", "diamond")],
    ])

    best = engine.best_moves(board, [("red", "square")], limit=1)

    # Row 0: 3 tiles; column 1: red square over blue square, 2.
    assert best == [(5, [(0, 1, "red", "square")])]


@settings(max_examples=25, deadline=None, derandomize=True, database=None,
          suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1), n=st.integers(0, 40))
def test_best_moves_are_the_first_of_legal_moves_for_every_limit(seed, n):
    position = build_position(seed, n)
    hand = (list(position.hand) + list(position.bag))[:6]
    random.Random(seed).shuffle(hand)

    every = engine.legal_moves(position.board, hand)

    for limit in (1, 2, 5, 10, len(every) + 1):
        assert engine.best_moves(position.board, hand, limit=limit) == every[:limit]
