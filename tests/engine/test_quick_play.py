"""`play` has a quick path for the common moves; it must answer as the full path.

`Board.check` always takes the full path (it builds the line breakdown), so for
any move, legal or not, well formed or not, `play` must give check's points,
or raise the same exception with the same code, message and cells, and leave
the board exactly as it was.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scorekeeper import engine
from scorekeeper.engine.board import GRID_ROW

from .helpers import build_position, frontier, random_legal_move, replay

VARIANTS = [
    engine.Variant(),
    engine.Variant(colors=5, copies=2, hand_size=5),
    engine.Variant(colors=4, copies=3, hand_size=4),
    engine.Variant(colors=8, copies=1, hand_size=6),
    engine.Variant(colors=3, copies=2, hand_size=2),
    engine.Variant(colors=6, copies=3, hand_size=1),
]


def outcome(action) -> tuple:
    """What an engine call answered: its points, or its exception's details."""
    try:
        result = action()
    except engine.IllegalMove as refused:
        return ("illegal", refused.code, str(refused), refused.cells)
    except (ValueError, TypeError) as error:
        return (type(error).__name__, str(error))
    return ("points", result)


def state(board: engine.Board) -> tuple:
    return (list(board.tiles()), board.unseen(), board.moves_played,
            board.legal_map())


def nasty_candidate(board: engine.Board, rng: random.Random) -> list:
    """A move near the board built to hit each rule the quick path decides."""
    variant = board.variant
    kinds = [(c, s) for c in variant.color_names for s in variant.shape_names]
    cells = sorted(frontier(board)) or [(0, 0)]
    r, c = rng.choice(cells)
    if rng.random() < 0.1:
        r, c = r + rng.choice([-3, 2, 3]), c + rng.choice([-2, 3])  # off the board
    dr, dc = rng.choice([(0, 1), (1, 0), (0, -1), (-1, 0)])
    color, shape = rng.choice(kinds)
    move: list = []
    for _ in range(rng.choice([1, 1, 2, 2, 2, 3, 4, variant.hand_size + 1])):
        roll = rng.random()
        if roll < 0.4:
            kind = (color, rng.choice(variant.shape_names))
        elif roll < 0.8:
            kind = (rng.choice(variant.color_names), shape)
        else:
            kind = rng.choice(kinds)
        move.append((r, c, *kind))
        step = rng.choice([1, 1, 1, 1, 2, 0, -1])
        r, c = r + dr * step, c + dc * step
    roll = rng.random()
    if roll < 0.05:
        move[-1] = (move[-1][0] + dc + dr, move[-1][1] + dr + dc, *move[-1][2:])
    elif roll < 0.08:
        move[0] = (float(move[0][0]), *move[0][1:])
    elif roll < 0.11:
        move[-1] = (move[-1][0], True, *move[-1][2:])
    elif roll < 0.13:
        move[-1] = (move[-1][0], move[-1][1] + 10**6, *move[-1][2:])
    elif roll < 0.15:
        move[-1] = (*move[-1][:2], "teal", move[-1][3])
    elif roll < 0.17:
        move[-1] = move[-1][:3]
    elif roll < 0.19:
        move.append(move[0])
    elif roll < 0.22:
        move = [engine.Placement(*tile) for tile in move]
    return move


def near_misses(move: list, rng: random.Random) -> list[list]:
    """Moves one slip away from a legal one: each breaks (or may break) a rule."""
    (r, c, *kind), (r2, c2) = move[0], move[-1][:2]
    dr, dc = (0, 1) if len(move) == 1 or r == r2 else (1, 0)
    if (r2 - r) * dr + (c2 - c) * dc < 0:
        dr, dc = -dr, -dc
    other = move[rng.randrange(len(move))]
    return [
        # A tile two cells past the end: a gap, unless a tile fills it.
        [*move, (r2 + 2 * dr, c2 + 2 * dc, *other[2:])],
        # One tile off the line.
        [*move, (r2 + dr + dc, c2 + dc + dr, *other[2:])],
        # The same cells' keys one row up and a row's width over (see GRID_ROW).
        [(t[0] - 1, t[1] + GRID_ROW, *t[2:]) for t in move],
        [(t[0] + GRID_ROW, t[1], *t[2:]) for t in move],
        # A second copy of a tile at the end; the move moved off the board.
        [*move, (r2 + dr, c2 + dc, *other[2:])],
        [(t[0] + 2 * dc, t[1] + 2 * dr, *t[2:]) for t in move],
        [(r, c, *kind), (r, c, *kind)],
    ]


@settings(max_examples=60, deadline=None, derandomize=True, database=None,
          suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1), n=st.integers(0, 40),
       variant=st.sampled_from(VARIANTS))
def test_play_answers_every_move_as_the_full_path_does(seed, n, variant):
    position = build_position(seed, n, variant)
    board = position.board
    rng = random.Random(seed + 11)
    moves = [nasty_candidate(board, rng) for _ in range(60)]
    for _ in range(10):
        legal = random_legal_move(board, list(position.hand), rng)
        if legal:
            moves += [legal, *near_misses(legal, rng)]
    for move in moves:
        before = state(board)
        expected = outcome(lambda move=move: board.check(move).points)
        assert state(board) == before
        got = outcome(lambda move=move: board.play(iter(move)))
        assert got == expected, move
        if got[0] == "points":
            board.pop()
        assert state(board) == before, move


def test_a_board_far_from_the_origin_plays_and_undoes_like_any_other():
    far = 10**7
    first = [(far, far, "red", "circle"), (far, far + 1, "red", "square")]
    board = replay([first])

    assert board.play([(far + 1, far, "blue", "circle")]) == 2
    assert board.play([(far + 1, far + 1, "blue", "square")]) == 4
    with pytest.raises(engine.IllegalMove) as refused:
        board.play([(far + 2, far + 1, "red", "square")])
    assert refused.value.code == "duplicate_in_line"
    board.pop()
    assert board.play([(far + 1, far + 1, "blue", "square")]) == 4
    assert list(board.tiles()) == list(replay([
        first, [(far + 1, far, "blue", "circle")],
        [(far + 1, far + 1, "blue", "square")],
    ]).tiles())


def test_moves_beside_a_far_tile_are_scored_as_near_ones():
    # The first move may lie anywhere; later ones follow it out of any range.
    near = replay([[(0, 0, "red", "circle"), (0, 1, "red", "square")]])
    far = replay([[(0, 5000, "red", "circle"), (0, 5001, "red", "square")]])

    assert near.play([(0, 2, "red", "diamond"), (1, 2, "blue", "diamond")]) == 5
    assert far.play([(0, 5002, "red", "diamond"), (1, 5002, "blue", "diamond")]) == 5
    with pytest.raises(engine.IllegalMove) as refused:
        far.play([(1, 5000, "red", "circle")])
    assert refused.value.code == "duplicate_in_line"
