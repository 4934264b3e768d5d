"""Property-based tests of the board (hypothesis), on positions a seeded bot reaches.

Positions come from `helpers.build_position`: a bot that draws real tiles from a
shuffled set and plays random legal moves (or best_moves' answers) from an
empty board, so they look like real games of any length.
"""

from __future__ import annotations

import itertools
import random
from collections import Counter

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scorekeeper import engine

from . import reference
from .helpers import (
    SYMMETRIES,
    build_position,
    frontier,
    is_legal,
    random_legal_move,
    replay,
    transform,
)

SETTINGS = settings(
    max_examples=30,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
    derandomize=True,
    database=None,
)

VARIANTS = [
    engine.Variant(),
    engine.Variant(),
    engine.Variant(colors=5, copies=2, hand_size=5),
    engine.Variant(colors=4, copies=3, hand_size=4),
    engine.Variant(colors=8, copies=1, hand_size=6),
    engine.Variant(colors=3, copies=2, hand_size=2),
]

seeds = st.integers(min_value=0, max_value=2**32 - 1)
lengths = st.integers(min_value=1, max_value=45)
variants = st.sampled_from(VARIANTS)


def random_candidate(board: engine.Board, rng: random.Random) -> list:
    """A random move near the board: often illegal, sometimes legal."""
    variant = board_variant(board)
    kinds = [(c, s) for c in variant.color_names for s in variant.shape_names]
    cells = sorted(frontier(board)) or [(0, 0)]
    r, c = rng.choice(cells)
    dr, dc = rng.choice([(0, 1), (1, 0)])
    move = []
    # Tiles that share an attribute more often than not, so some are legal.
    color, shape = rng.choice(kinds)
    for _ in range(rng.randint(1, 4)):
        if rng.random() < 0.5:
            kind = (color, rng.choice(variant.shape_names))
        elif rng.random() < 0.8:
            kind = (rng.choice(variant.color_names), shape)
        else:
            kind = rng.choice(kinds)
        move.append((r, c, *kind))
        step = rng.choice([1, 1, 1, 2, 0]) if rng.random() < 0.95 else 5
        r, c = r + dr * step, c + dc * step
    if rng.random() < 0.1:
        # Break the line now and then.
        r0, c0, *kind = move[-1]
        move[-1] = (r0 + dc, c0 + dr, *kind)
    return move


def board_variant(board: engine.Board) -> engine.Variant:
    return board.variant


def state(board: engine.Board) -> tuple:
    """What a refused move (or a play and pop) must leave as it was."""
    return list(board.tiles()), len(board), board.unseen()


def runs_through(board: engine.Board, cells: list) -> set[frozenset]:
    """Independently find every run of 2+ tiles through the given cells."""
    runs = set()
    for r, c in cells:
        for dr, dc in ((0, 1), (1, 0)):
            start = (r, c)
            while board.get((start[0] - dr, start[1] - dc)) is not None:
                start = (start[0] - dr, start[1] - dc)
            run = []
            cell = start
            while board.get(cell) is not None:
                run.append(cell)
                cell = (cell[0] + dr, cell[1] + dc)
            if len(run) >= 2:
                runs.add(frozenset(run))
    return runs


def hand_from(position, rng: random.Random, size: int) -> list:
    """Draw a hand of real (unplayed) tiles for the next move."""
    pool = list(position.hand) + list(position.bag)
    rng.shuffle(pool)
    return pool[:size]


@SETTINGS
@given(seed=seeds, n=lengths, variant=variants)
def test_a_refused_move_changes_nothing_and_a_legal_one_is_undone_by_pop(
    seed, n, variant
):
    position = build_position(seed, n, variant)
    board = position.board
    rng = random.Random(seed)
    before = state(board)
    legal_before = board.legal_map()

    for _ in range(25):
        move = random_candidate(board, rng)
        try:
            expected = board.check(move).points
        except engine.IllegalMove as refused:
            try:
                board.play(move)
            except engine.IllegalMove as again:
                assert again.code == refused.code
            else:
                raise AssertionError(f"check refused but play accepted {move}")
            assert state(board) == before
        else:
            assert board.play(move) == expected
            board.pop()
            assert state(board) == before
    assert board.legal_map() == legal_before


@SETTINGS
@given(seed=seeds, n=st.integers(min_value=0, max_value=45), variant=variants)
def test_score_is_the_sum_of_the_lines_the_move_makes(seed, n, variant):
    position = build_position(seed, n, variant)
    board = position.board
    rng = random.Random(seed + 1)
    size = variant.colors

    for _ in range(8):
        move = random_legal_move(board, hand_from(position, rng, variant.hand_size),
                                 rng)
        if move is None:
            continue
        score = board.check(move)
        assert score.points == sum(line.points for line in score.lines)
        assert score.qwirkles == sum(line.qwirkle for line in score.lines)
        assert score.to_dict()["points"] == score.points

        board.play(move)
        placed = [(r, c) for r, c, _, _ in move]
        runs = runs_through(board, placed)
        if not runs:
            # Only a first move of one tile forms no line: it scores 1.
            assert len(board) == 1 and score.points == 1
        else:
            assert {frozenset(line.cells) for line in score.lines} == runs
            assert len(score.lines) == len(runs)
        for line in score.lines:
            if line.kind == "tile":
                continue
            tiles = [board.get(cell) for cell in line.cells]
            assert line.length == len(line.cells) <= size
            assert line.qwirkle == (line.length == size)
            assert line.points == line.length + (size if line.qwirkle else 0)
            assert len(set(tiles)) == len(tiles)
            if line.kind == "color":
                assert {t[0] for t in tiles} == {line.value}
            else:
                assert line.kind == "shape"
                assert {t[1] for t in tiles} == {line.value}
            rows = {cell[0] for cell in line.cells}
            assert line.direction == ("row" if len(rows) == 1 else "column")
        board.pop()


@SETTINGS
@given(seed=seeds, n=st.integers(min_value=0, max_value=35), sym=st.integers(1, 7),
       variant=variants)
def test_rotating_or_mirroring_changes_neither_legality_nor_score(
    seed, n, sym, variant
):
    position = build_position(seed, n, variant)
    symmetry = SYMMETRIES[sym]
    mirror = engine.Board(variant)
    for move in position.moves:
        expected = replay_score(position, move)
        assert mirror.play(transform(move, symmetry)) == expected
    # The mirrored board holds the mirrored tiles.
    assert sorted(mirror.tiles()) == sorted(transform(position.board.tiles(),
                                                       symmetry))

    rng = random.Random(seed)
    board = position.board
    for _ in range(25):
        move = random_candidate(board, rng)
        turned = transform(move, symmetry)
        assert is_legal(board, move) == is_legal(mirror, turned), (move, turned)
        if is_legal(board, move):
            assert board.check(move).points == mirror.check(turned).points
        else:
            # Faults are ranked, so the code does not depend on orientation.
            assert refusal_code(board, move) == refusal_code(mirror, turned)


def refusal_code(board, move) -> str | None:
    """The illegal-move code a board gives a move, or None if it is legal."""
    try:
        board.check(move)
    except engine.IllegalMove as refused:
        return refused.code
    return None


def replay_score(position, move) -> int:
    """The score a move of the position had when it was played."""
    index = position.moves.index(move)
    board = replay(position.moves[:index], position.board.variant)
    return board.check(move).points


@SETTINGS
@given(seed=seeds, n=st.integers(min_value=1, max_value=45), variant=variants)
def test_every_legal_multi_tile_move_contains_a_tile_legal_alone(seed, n, variant):
    position = build_position(seed, n, variant)
    board = position.board
    rng = random.Random(seed + 2)
    hand = hand_from(position, rng, variant.hand_size)

    candidates = [list(m) for _, m in engine.best_moves(board, hand, limit=60)]
    candidates += [random_candidate(board, rng) for _ in range(40)]
    for move in candidates:
        if len(move) < 2 or not is_legal(board, move):
            continue
        assert any((r, c) in board.legal_cells(color, shape)
                   for r, c, color, shape in move), move


@SETTINGS
@given(seed=seeds, n=st.integers(min_value=0, max_value=45), variant=variants)
def test_best_moves_are_accepted_by_play_and_no_legal_move_scores_more(
    seed, n, variant
):
    position = build_position(seed, n, variant)
    board = position.board
    rng = random.Random(seed + 3)
    hand = hand_from(position, rng, variant.hand_size)
    before = state(board)

    best = engine.best_moves(board, hand, limit=10)

    assert state(board) == before
    assert len(best) <= 10
    assert [p for p, _ in best] == sorted((p for p, _ in best), reverse=True)
    seen = set()
    for points, move in best:
        move = list(move)
        key = frozenset(move)
        assert key not in seen, "best_moves returned a move twice"
        seen.add(key)
        # Only tiles of the hand, each at most as often as it is held.
        assert not Counter((t[2], t[3]) for t in move) - Counter(hand)
        assert board.play(move) == points
        board.pop()
    top = best[0][0] if best else None
    for _ in range(30):
        move = random_legal_move(board, hand, rng)
        if move is None:
            assert best == [], "best_moves found a move but no tile fits alone"
            break
        assert top is not None, f"best_moves found nothing, but {move} is legal"
        assert board.check(move).points <= top, move


@settings(max_examples=15, deadline=None, derandomize=True, database=None,
          suppress_health_check=[HealthCheck.too_slow])
@given(seed=seeds, n=st.integers(min_value=1, max_value=30))
def test_best_moves_first_answer_is_the_true_maximum_for_two_tile_hands(seed, n):
    position = build_position(seed, n)
    board = position.board
    rng = random.Random(seed + 4)
    hand = hand_from(position, rng, 2)

    best = engine.best_moves(board, hand, limit=1)

    # Every single tile on every legal cell, every pair on every pair of cells
    # in one row or column up to 6 apart: the exhaustive maximum.
    top = 0
    singles = {kind: board.legal_cells(*kind) for kind in set(hand)}
    for kind, cells in singles.items():
        for cell in cells:
            top = max(top, board.check([(*cell, *kind)]).points)
    near = frontier(board)
    for (r, c) in near:
        for dr, dc in ((0, 1), (1, 0), (0, -1), (-1, 0)):
            for d in range(1, 7):
                other = (r + dr * d, c + dc * d)
                if board.get(other) is not None:
                    continue
                for a, b in itertools.permutations(hand, 2):
                    move = [(r, c, *a), (*other, *b)]
                    if is_legal(board, move):
                        top = max(top, board.check(move).points)
    assert (best[0][0] if best else 0) == top


@SETTINGS
@given(seed=seeds, n=st.integers(min_value=0, max_value=45), variant=variants)
def test_legal_cells_agrees_with_play_for_single_tiles(seed, n, variant):
    position = build_position(seed, n, variant)
    board = position.board
    rng = random.Random(seed + 5)
    kinds = [(c, s) for c in variant.color_names for s in variant.shape_names]
    legal_map = board.legal_map()
    if len(board) == 0:
        # On an empty board any cell takes a first tile; legal_cells names the
        # origin only, by convention (engine-api.md).
        assert all(legal_map.get(k, set()) == {(0, 0)} for k in kinds)
        assert is_legal(board, [(50, -50, *kinds[0])])
        return
    near = frontier(board)
    far = {(r + 2, c + 2) for r, c in near} | {(0, 0), (50, -50)}

    for kind in rng.sample(kinds, min(len(kinds), 12)):
        cells = board.legal_cells(*kind)
        assert legal_map.get(kind, set()) == cells
        for cell in near | far:
            if board.get(cell) is not None:
                continue
            assert (cell in cells) == is_legal(board, [(*cell, *kind)]), (kind, cell)
    for kind in kinds:
        assert legal_map.get(kind, set()) == board.legal_cells(*kind)


@settings(max_examples=10, deadline=None, derandomize=True, database=None,
          suppress_health_check=[HealthCheck.too_slow])
@given(seed=seeds, n=st.integers(min_value=2, max_value=40))
def test_positions_reached_with_best_moves_keep_the_same_properties(seed, n):
    position = build_position(seed, n, use_best=True)
    board = position.board

    # Replaying the moves gives the same board; undoing all of them empties it.
    again = replay(position.moves)
    assert list(again.tiles()) == list(board.tiles())
    for _ in position.moves:
        board.pop()
    assert len(board) == 0
    assert board.legal_cells("red", "circle") == {(0, 0)}


@settings(max_examples=150, deadline=None, derandomize=True, database=None,
          suppress_health_check=[HealthCheck.too_slow])
@given(seed=seeds, n=st.integers(min_value=0, max_value=45), variant=variants)
def test_engine_agrees_with_a_plain_reference_implementation(seed, n, variant):
    position = build_position(seed, n, variant)
    board = position.board
    rng = random.Random(seed + 6)
    tiles = {(r, c): (color, shape) for r, c, color, shape in board.tiles()}

    moves = [random_candidate(board, rng) for _ in range(40)]
    for _ in range(10):
        legal = random_legal_move(board, hand_from(position, rng, variant.hand_size),
                                  rng)
        if legal:
            moves.append(legal)
    for move in moves:
        broken, points = reference.judge(tiles, move, variant.color_names,
                                         variant.shape_names, variant.copies,
                                         variant.hand_size)
        try:
            got = board.check(move).points
        except engine.IllegalMove as refused:
            assert broken, f"engine refused ({refused.code}) a legal move {move}"
            assert refused.code in broken, (refused.code, broken, move)
        else:
            assert not broken, f"engine accepted {move} that breaks {broken}"
            assert got == points, move


def all_legal_moves_by_brute_force(board: engine.Board, hand: list) -> set[frozenset]:
    """Every legal placing move of up to three tiles of the hand, by trying them all."""
    size = board.variant.colors
    near = frontier(board) or {(0, 0)}
    found: set[frozenset] = set()
    combos: set[tuple] = set()
    for k in range(1, min(3, len(hand)) + 1):
        for r, c in near:
            for dr, dc in ((0, 1), (1, 0)):
                line = [(r + dr * d, c + dc * d) for d in range(-(size - 1), size)]
                empty = [cell for cell in line if board.get(cell) is None]
                for cells in itertools.combinations(empty, k):
                    if (r, c) in cells:
                        combos.add(cells)
    for cells in combos:
        for kinds in set(itertools.permutations(hand, len(cells))):
            move = [(*cell, *kind) for cell, kind in zip(cells, kinds, strict=True)]
            if is_legal(board, move):
                found.add(frozenset(move))
    return found


@settings(max_examples=12, deadline=None, derandomize=True, database=None,
          suppress_health_check=[HealthCheck.too_slow])
@given(seed=seeds, n=st.integers(min_value=1, max_value=40),
       variant=st.sampled_from(VARIANTS[:3]), size=st.integers(2, 3))
def test_legal_moves_lists_exactly_the_legal_moves_of_small_hands(
    seed, n, variant, size
):
    position = build_position(seed, n, variant)
    board = position.board
    hand = hand_from(position, random.Random(seed + 7), size)

    listed = engine.legal_moves(board, hand)
    expected = all_legal_moves_by_brute_force(board, hand)

    as_sets = [frozenset(tuple(t) for t in move) for _, move in listed]
    assert len(as_sets) == len(set(as_sets)), "a move is listed twice"
    assert set(as_sets) == expected
    best = engine.best_moves(board, hand, limit=1)
    top = max((board.check(list(m)).points for m in expected), default=None)
    assert (best[0][0] if best else None) == top


@settings(max_examples=15, deadline=None, derandomize=True, database=None,
          suppress_health_check=[HealthCheck.too_slow])
@given(seed=seeds, variant=st.sampled_from(VARIANTS[:3]))
def test_no_cache_goes_stale_across_play_pop_and_queries(seed, variant):
    rng = random.Random(seed)
    position = build_position(seed, rng.randint(5, 40), variant)
    board = position.board
    moves = list(position.moves)
    pool = list(position.hand) + list(position.bag)

    for _ in range(30):
        op = rng.random()
        if op < 0.45 and moves:
            board.pop()
            moves.pop()
        else:
            move = random_legal_move(board, rng.sample(pool, min(6, len(pool))), rng)
            if move is not None:
                board.play(move)
                moves.append(move)
        # Query in between, so that any memo is filled before the next change.
        fresh = replay(moves, variant)
        assert board.legal_map() == fresh.legal_map()
        hand = rng.sample(pool, min(3, len(pool)))
        assert ([p for p, _ in engine.best_moves(board, hand, limit=3)]
                == [p for p, _ in engine.best_moves(fresh, hand, limit=3)])
        assert list(board.tiles()) == list(fresh.tiles())


def all_legal_moves_by_extension(board: engine.Board, hand: list) -> set[frozenset]:
    """Every legal move of a hand, grown tile by tile from each legal single tile.

    Complete because every legal move contains a tile legal alone, and every
    contiguous part of a legal move that holds that tile is itself legal (its
    lines are parts of the move's lines), so each legal move is reached by
    adding one tile at a time at either end of the run.
    """
    found: set[frozenset] = set()
    seen: set[tuple] = set()

    def grow(move: list, rest: list, dr: int, dc: int) -> None:
        key = (frozenset(move), dr)
        if key in seen:
            return
        seen.add(key)
        found.add(frozenset(move))
        taken = {(t[0], t[1]) for t in move}
        r, c = move[0][0], move[0][1]
        for sign in (1, -1):
            cell = (r, c)
            while cell in taken or board.get(cell) is not None:
                cell = (cell[0] + sign * dr, cell[1] + sign * dc)
            for kind in set(rest):
                longer = move + [(*cell, *kind)]
                if is_legal(board, longer):
                    left = list(rest)
                    left.remove(kind)
                    grow(longer, left, dr, dc)

    for kind in set(hand):
        rest = list(hand)
        rest.remove(kind)
        for cell in board.legal_cells(*kind):
            for dr, dc in ((0, 1), (1, 0)):
                grow([(*cell, *kind)], rest, dr, dc)
    return found


@settings(max_examples=40, deadline=None, derandomize=True, database=None,
          suppress_health_check=[HealthCheck.too_slow])
@given(seed=seeds, n=st.integers(min_value=1, max_value=40), variant=variants)
def test_legal_moves_of_full_hands_match_an_independent_search(seed, n, variant):
    position = build_position(seed, n, variant)
    board = position.board
    hand = hand_from(position, random.Random(seed + 8), variant.hand_size)

    listed = {frozenset(tuple(t) for t in move)
              for _, move in engine.legal_moves(board, hand)}
    expected = all_legal_moves_by_extension(board, hand)

    assert listed == expected
    best = engine.best_moves(board, hand, limit=1)
    top = max((board.check(list(m)).points for m in expected), default=None)
    assert (best[0][0] if best else None) == top
