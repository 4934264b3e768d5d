"""`play` has a quick path for the common moves (scorekeeper/engine/quick_play.py);
it must answer as the full path. This is its equivalence test.

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
from scorekeeper.engine.quick_play import GRID_ROW

from .helpers import build_position, frontier, replay

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
    return (list(board.tiles()), board.unseen(), repr(board),
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


def near_misses(board: engine.Board, move: list, rng: random.Random) -> list[list]:
    """Moves one slip away from a legal one: each breaks (or may break) a rule."""
    (r, c, *kind), (r2, c2) = move[0], move[-1][:2]
    dr, dc = (0, 1) if len(move) == 1 or r == r2 else (1, 0)
    if (r2 - r) * dr + (c2 - c) * dc < 0:
        dr, dc = -dr, -dc
    i = rng.randrange(len(move))
    other = move[i]
    tiles = list(board.tiles()) or [engine.Placement(r, c, *kind)]
    placed = rng.choice(tiles)
    variant = board.variant
    spent = [(color, shape) for color in variant.color_names
             for shape in variant.shape_names
             if board.count(color, shape) >= variant.copies]

    def swap(tile: tuple) -> list:
        return [*move[:i], tile, *move[i + 1:]]

    misses = [
        # A tile two cells past the end: a gap, unless a tile fills it.
        [*move, (r2 + 2 * dr, c2 + 2 * dc, *other[2:])],
        # One tile off the line, at the end or in place of another.
        [*move, (r2 + dr + dc, c2 + dc + dr, *other[2:])],
        swap((other[0] + dc, other[1] + dr, *other[2:])),
        # A tile out (a gap when it was between two), or on a full cell.
        [t for j, t in enumerate(move) if j != i] or move,
        swap((placed.row, placed.col, *other[2:])),
        swap((*move[(i + 1) % len(move)][:2], *other[2:])),
        # A tile a row's width over: the same key one row down (see GRID_ROW).
        swap((other[0] - 1, other[1] + GRID_ROW, *other[2:])),
        [(t[0] - 1, t[1] + GRID_ROW, *t[2:]) for t in move],
        [(t[0] + GRID_ROW, t[1], *t[2:]) for t in move],
        # A second copy of a tile; a copy the set has no more of.
        [*move, (r2 + dr, c2 + dc, *other[2:])],
        swap((*other[:2], *move[(i + 1) % len(move)][2:])),
        # The move off the board; a tile of another kind; a float or a bool.
        [(t[0] + 2 * dc, t[1] + 2 * dr, *t[2:]) for t in move],
        swap((*other[:2], *rng.choice(tiles)[2:])),
        swap((float(other[0]), *other[1:])),
        swap((other[0], other[1] == 1 or other[1] != 0, *other[2:])),
        [(r, c, *kind), (r, c, *kind)],
    ]
    if spent:
        misses.append(swap((*other[:2], *rng.choice(spent))))
    return misses


@settings(max_examples=60, deadline=None, derandomize=True, database=None,
          suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1), n=st.integers(0, 40),
       variant=st.sampled_from(VARIANTS))
def test_play_answers_every_move_as_the_full_path_does(seed, n, variant):
    position = build_position(seed, n, variant)
    board = position.board
    rng = random.Random(seed + 11)
    moves = [nasty_candidate(board, rng) for _ in range(60)]
    hand = (list(position.hand) + list(position.bag))[:variant.hand_size + 1]
    legal = [list(m) for _, m in engine.legal_moves(board, hand)]
    legal.sort(key=len, reverse=True)  # the longest first, then a sample
    for move in legal[:6] + rng.sample(legal, min(6, len(legal))):
        moves += [move, *near_misses(board, move, rng)]
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
    # As far out as engine.MAX_COORDINATE lets a tile lie (row far + 2 included).
    far = engine.MAX_COORDINATE - 2
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


@pytest.mark.parametrize("size, spent_at", [
    (size, spent_at) for size in (1, 2, 3, 4) for spent_at in range(size)
])
def test_s1_a_copy_the_set_has_no_more_of_is_refused_in_a_move_of_any_size(
    size, spent_at
):
    # One copy of each tile: the red square on the board is the only one.
    board = replay([[(0, 0, "red", "circle"), (1, 0, "red", "square")]],
                   engine.Variant(colors=6, copies=1, hand_size=6))
    shapes = ["diamond", "clover", "starburst", "crisscross"]
    shapes[spent_at] = "square"
    move = [(0, 1 + i, "red", shape) for i, shape in enumerate(shapes[:size])]

    with pytest.raises(engine.IllegalMove) as refused:
        board.play(move)

    assert refused.value.code == "tile_exhausted"
    assert len(board) == 2


@pytest.mark.parametrize("size", [3, 4])
@pytest.mark.parametrize("turned", [False, True])
def test_s3_1_a_tile_off_the_line_is_refused_where_its_own_line_runs_on(
    size, turned
):
    # A red column at col 6, rows 0-2. The move goes down col 5 and puts its
    # last tile at (-1, 6), atop the red column: from there a walk down col 6
    # passes the move's last row, so only the line test can refuse it.
    def at(r: int, c: int) -> tuple[int, int]:
        return (c, r) if turned else (r, c)

    board = replay([[(*at(0, 6), "red", "circle"), (*at(1, 6), "red", "square"),
                     (*at(2, 6), "red", "diamond")]])
    move = [(*at(0, 5), "blue", "circle"), (*at(1, 5), "blue", "square")]
    if size == 4:
        move.append((*at(2, 5), "blue", "diamond"))
    move.append((*at(-1, 6), "red", "clover"))

    with pytest.raises(engine.IllegalMove) as refused:
        board.play(move)

    assert refused.value.code == "not_in_line"
    assert len(board) == 3


def test_s3_a_move_longer_than_the_hand_is_refused_though_its_lines_are_valid():
    board = replay([[(0, 0, "red", "circle"), (0, 1, "red", "square")]],
                   engine.Variant(colors=6, copies=3, hand_size=2))

    with pytest.raises(engine.IllegalMove) as refused:
        board.play([(0, 2, "red", "diamond"), (0, 3, "red", "clover"),
                    (0, 4, "red", "starburst")])

    assert refused.value.code == "too_many_tiles"



EDGE = engine.MAX_COORDINATE


def edge_case(k: int, across: bool, inside: int = 0) -> tuple[list, list]:
    """A first move on the board's edge (row EDGE) and a legal move of k tiles
    that runs one cell or more beyond it: down column 0 from the edge, or along
    the row just beyond. `inside` moves both that many rows in."""
    first = [(EDGE - inside, 0, "red", "circle")]
    shapes = ["square", "diamond", "clover", "starburst"]
    if across:
        move = [(EDGE + 1 - inside, i, "red", shapes[i]) for i in range(k)]
    else:
        move = [(EDGE + 1 + i - inside, 0, "red", shapes[i]) for i in range(k)]
    return first, move


CASES = [(k, False) for k in range(1, 5)] + [(k, True) for k in range(2, 5)]


@pytest.mark.parametrize(("k", "across"), CASES)
@pytest.mark.parametrize("sign", [1, -1])
def test_a_tile_beyond_max_coordinate_is_refused_by_play_whichever_path(
    k, across, sign
):
    def flip(tiles: list) -> list:
        return [(sign * r, c, color, shape) for r, c, color, shape in tiles]

    first, move = edge_case(k, across)
    board = replay([flip(first)])
    before = state(board)

    with pytest.raises(engine.BadInput) as refused:
        board.play(flip(move))

    assert refused.value.key == "tile_too_far"
    assert state(board) == before
    # The same moves a few rows in are legal: the limit alone refused it, and
    # the board was one the quick path plays on.
    first, move = edge_case(k, across, inside=k)
    board = replay([flip(first)])
    assert board._grid is not None
    # Down the column: one line of k + 1; along the row: k, plus the pair
    # it makes with the first tile.
    assert board.play(flip(move)) == (k + 2 if across else k + 1)


@pytest.mark.parametrize("transpose", [False, True])
def test_a_tile_beyond_max_coordinate_in_either_direction_is_tile_too_far(
    transpose,
):
    def at(r: int, c: int) -> tuple[int, int]:
        return (c, r) if transpose else (r, c)

    board = replay([[(*at(EDGE - 1, 0), "red", "circle")]])

    assert board.play([(*at(EDGE, 0), "red", "square")]) == 2
    with pytest.raises(engine.BadInput) as refused:
        board.play([(*at(EDGE + 1, 0), "red", "diamond")])
    assert refused.value.key == "tile_too_far"
    assert len(board) == 2
