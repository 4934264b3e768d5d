"""Insights (CONTRACT §11): threats, dead and hot cells, "same tiles, best spot".

Each insight is checked against a plain scan written here: every empty cell
next to the board, every kind with a copy off the board, judged one by one by
the reference rules (`reference.judge`; the engine's `Board.check` for Qwirkle
Cubes, which the reference does not know), and "same tiles, best spot"
against every subset, order and placement of the placed tiles.
"""

from __future__ import annotations

import itertools
import json
import random
from collections import Counter

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scorekeeper import engine

from . import reference
from .helpers import build_position, corpus_records, load, random_legal_move
from .test_sample_game import MOVES as SAMPLE_MOVES

Cell = tuple[int, int]

SMALL_SETTINGS = settings(
    max_examples=30, deadline=None, derandomize=True, database=None,
    suppress_health_check=[HealthCheck.too_slow],
)

VARIANTS = [
    engine.Variant(),
    engine.Variant(colors=5, copies=2, hand_size=5),
    engine.Variant(colors=4, copies=3, hand_size=4),
    engine.Variant(colors=3, copies=2, hand_size=3),
]

CUBE_VARIANTS = [
    engine.CUBES,
    engine.Variant(colors=4, copies=5, hand_size=4, system="cubes"),
    engine.Variant(colors=3, copies=4, hand_size=3, system="cubes"),
]

seeds = st.integers(min_value=0, max_value=2**32 - 1)


# -- a plain scan, independent of the engine's masks ---------------------------


def plain_frontier(board: engine.Board) -> set[Cell]:
    """Every empty cell side by side with a tile."""
    tiles = {(r, c) for r, c, _, _ in board.tiles()}
    return {
        (r + dr, c + dc)
        for r, c in tiles
        for dr, dc in ((0, 1), (1, 0), (0, -1), (-1, 0))
        if (r + dr, c + dc) not in tiles
    }


def plain_unseen(board: engine.Board) -> dict[tuple[str, str], int]:
    """Copies of every kind off the board; for cubes, cubes of its colour."""
    variant = board.variant
    on_board = Counter((color, shape) for _, _, color, shape in board.tiles())
    colours = Counter(color for _, _, color, _ in board.tiles())
    return {
        (color, shape): variant.copies - (
            colours[color] if variant.supply_per_color else on_board[(color, shape)]
        )
        for color in variant.color_names
        for shape in variant.shape_names
    }


def judge(board: engine.Board, move: list) -> int | None:
    """Points of a move, or None when it is illegal (reference rules for tiles)."""
    variant = board.variant
    if variant.supply_per_color:
        try:
            return board.check(move).points
        except engine.IllegalMove:
            return None
    tiles = {(r, c): (color, shape) for r, c, color, shape in board.tiles()}
    broken, points = reference.judge(tiles, move, variant.color_names,
                                     variant.shape_names, variant.copies,
                                     variant.hand_size)
    return None if broken else points


def line_of(tiles: dict, cell: Cell, dr: int, dc: int) -> list[Cell]:
    """The cells of the run through `cell` in one direction, cell included."""
    r, c = cell
    while (r - dr, c - dc) in tiles:
        r, c = r - dr, c - dc
    run = []
    while (r, c) in tiles:
        run.append((r, c))
        r, c = r + dr, c + dc
    return run


def scan(board: engine.Board) -> tuple[dict, list[Cell], dict]:
    """Try every unseen kind alone on every empty cell next to the board.

    Returns (threats as {the N−1 other cells: {(row, col, color, shape,
    unseen)}}, dead cells sorted, {cell: (points, {(color, shape, unseen)})}).
    """
    n = board.variant.colors
    unseen = plain_unseen(board)
    tiles = {(r, c): (color, shape) for r, c, color, shape in board.tiles()}
    threats: dict[tuple, set] = {}
    dead = []
    hot: dict[Cell, tuple[int, set]] = {}
    for cell in plain_frontier(board):
        fits = set()
        for (color, shape), left in unseen.items():
            if left <= 0:
                continue
            points = judge(board, [(*cell, color, shape)])
            if points is None:
                continue
            fits.add((color, shape, left))
            hot[cell] = (points, fits)
            after = dict(tiles)
            after[cell] = (color, shape)
            for dr, dc in ((0, 1), (1, 0)):
                run = line_of(after, cell, dr, dc)
                if len(run) == n:
                    others = tuple(sorted(c for c in run if c != cell))
                    threats.setdefault(others, set()).add((*cell, color, shape, left))
        if not fits:
            dead.append(cell)
    return threats, sorted(dead), hot


def check_hints_against_scan(board: engine.Board) -> engine.Hints:
    """Assert that hints() says exactly what the plain scan finds."""
    hints = engine.hints(board, hot=10**6)
    threats, dead, hot = scan(board)

    got_threats = {
        threat.cells: {(t.row, t.col, t.color, t.shape, t.unseen)
                       for t in threat.completing}
        for threat in hints.threats
    }
    assert got_threats == threats
    assert len(got_threats) == len(hints.threats), "a line is reported twice"
    for threat in hints.threats:
        assert len(threat.cells) == board.variant.colors - 1
        assert list(threat.cells) == sorted(threat.cells)
        assert all(t.unseen > 0 for t in threat.completing)
    assert list(hints.dead_cells) == dead
    assert {(h.row, h.col): (h.points, set(h.kinds)) for h in hints.hot_cells} == hot
    order = [(-h.points, h.row, h.col) for h in hints.hot_cells]
    assert order == sorted(order)
    assert engine.hints(board, hot=5).hot_cells == hints.hot_cells[:5]
    return hints


# -- positions -----------------------------------------------------------------


def cubes_position(
    seed: int, n_moves: int, variant: engine.Variant
) -> tuple[engine.Board, list[tuple[str, str]]]:
    """A Qwirkle Cubes board from a seeded table, and the next player's open hand.

    Cubes are drawn by colour from a real supply and rolled; a player who
    cannot place re-rolls (RULES §7), so faces repeat on the board.
    """
    rng = random.Random(seed)
    bag = [color for color in variant.color_names for _ in range(variant.copies)]
    rng.shuffle(bag)

    def roll(color: str) -> tuple[str, str]:
        return color, rng.choice(variant.shape_names)

    board = engine.Board(variant)
    hand = [roll(bag.pop()) for _ in range(variant.hand_size)]
    played = 0
    for _ in range(n_moves * 4):
        if len(board) and played >= n_moves or not hand:
            break
        options = engine.best_moves(board, hand, limit=15)
        if not options:
            hand = [roll(color) for color, _ in hand]
            continue
        move = rng.choice(options)[1]
        board.play(move)
        played += 1
        for _, _, color, shape in move:
            hand.remove((color, shape))
        while len(hand) < variant.hand_size and bag:
            hand.append(roll(bag.pop()))
    return board, hand


def brute_best(board: engine.Board, kinds: list[tuple[str, str]]) -> int:
    """The most any legal move of some of these tiles scores, by trying them all.

    A legal move on a non-empty board touches it, so one of its cells is next
    to a tile and the others lie within N−1 cells of it along one line.
    """
    n = board.variant.colors
    best = 0
    for k in range(1, len(kinds) + 1):
        cell_sets: set[tuple[Cell, ...]] = set()
        for r, c in plain_frontier(board):
            for dr, dc in ((0, 1), (1, 0)):
                line = [(r + dr * d, c + dc * d) for d in range(-(n - 1), n)]
                empty = [cell for cell in line if board.get(cell) is None]
                for cells in itertools.combinations(empty, k):
                    if (r, c) in cells:
                        cell_sets.add(cells)
        for cells in cell_sets:
            for order in set(itertools.permutations(kinds, k)):
                move = [(*cell, *kind) for cell, kind in zip(cells, order, strict=True)]
                points = judge(board, move)
                if points is not None:
                    best = max(best, points)
    return best


def longest_of_tries(
    board: engine.Board, pool: list[tuple[str, str]], size: int, rng: random.Random
) -> list | None:
    """The longest of a few random legal moves of `size` related unplayed tiles.

    Hands share a colour or a shape with their first tile, so that moves of
    two and three tiles come up as often as single tiles.
    """
    longest = None
    for _ in range(5 if pool else 0):
        rng.shuffle(pool)
        first = pool[0]
        related = [k for k in pool[1:] if k[0] == first[0] or k[1] == first[1]]
        move = random_legal_move(board, [first, *related[: size - 1]], rng)
        if move is not None and (longest is None or len(move) > len(longest)):
            longest = move
    return longest


def multiset(tiles) -> Counter:
    return Counter((t[2], t[3]) for t in tiles)


# -- threats, dead cells, hot cells --------------------------------------------


@SMALL_SETTINGS
@given(seed=seeds, n=st.integers(min_value=1, max_value=40),
       variant=st.sampled_from(VARIANTS), use_best=st.booleans())
def test_threats_dead_and_hot_cells_match_a_scan_of_every_empty_cell_next_to_the_board(
    seed, n, variant, use_best
):
    position = build_position(seed, n, variant, use_best=use_best)

    check_hints_against_scan(position.board)


@pytest.mark.parametrize("variant", VARIANTS, ids=lambda v: f"n{v.colors}")
def test_seeded_games_show_threats_and_dead_cells_that_match_the_scan(variant):
    # Deterministic positions all through seeded games, so the comparison
    # above is known to meet real threats and dead cells, not only empty lists.
    seen_threats = seen_dead = 0
    for seed in range(6):
        for n in (5, 15, 30):
            position = build_position(seed, n, variant, use_best=True)
            hints = check_hints_against_scan(position.board)
            seen_threats += len(hints.threats)
            seen_dead += len(hints.dead_cells)
    assert seen_threats > 0
    assert seen_dead > 0


@pytest.mark.parametrize("path", corpus_records(), ids=lambda p: p.stem)
def test_hints_on_the_late_corpus_boards_match_the_scan(path):
    game, _ = engine.from_record(load(path))
    board = engine.Board(game.variant)
    places = [m for m in game.moves if m.type == "place"]
    for number, move in enumerate(places):
        board.play(move.tiles)
        if number % 10 == 9 or number == len(places) - 1:
            check_hints_against_scan(board)


def test_a_run_of_five_open_at_both_ends_is_one_threat_with_two_cells():
    board = engine.Board()
    shapes = ["circle", "crisscross", "diamond", "square", "starburst"]
    board.play([(0, c, "red", shape) for c, shape in enumerate(shapes)])

    (threat,) = engine.threats(board)

    assert threat.cells == tuple((0, c) for c in range(5))
    assert [(t.row, t.col, t.color, t.shape, t.unseen) for t in threat.completing] == [
        (0, -1, "red", "clover", 3), (0, 5, "red", "clover", 3),
    ]
    assert threat.to_dict() == {
        "cells": [[0, c] for c in range(5)],
        "completing": [
            {"row": 0, "col": -1, "color": "red", "shape": "clover", "unseen": 3},
            {"row": 0, "col": 5, "color": "red", "shape": "clover", "unseen": 3},
        ],
    }
    hot = engine.hot_cells(board, limit=2)
    assert [(h.row, h.col, h.points, h.qwirkles) for h in hot] == [
        (0, -1, 12, 1), (0, 5, 12, 1),
    ]
    assert hot[0].kinds == (("red", "clover", 3),)


def test_two_runs_one_empty_cell_apart_make_a_threat_at_the_gap_only():
    board = engine.Board()
    board.play([(0, 0, "red", "circle"), (0, 1, "red", "crisscross")])
    board.play([(1, 1, "blue", "crisscross"), (1, 2, "blue", "diamond"),
                (1, 3, "blue", "square")])
    board.play([(0, 3, "red", "square"), (0, 4, "red", "starburst"),
                (0, 5, "red", "clover")])

    hints = engine.hints(board)

    (threat,) = hints.threats
    assert threat.cells == ((0, 0), (0, 1), (0, 3), (0, 4), (0, 5))
    assert [(t.row, t.col, t.color, t.shape, t.unseen) for t in threat.completing] == [
        (0, 2, "red", "diamond", 3),
    ]
    # Red line 6 + Qwirkle 6, and a diamond line of 2 across.
    assert (hints.hot_cells[0].row, hints.hot_cells[0].col) == (0, 2)
    assert (hints.hot_cells[0].points, hints.hot_cells[0].qwirkles) == (14, 1)
    check_hints_against_scan(board)


def test_a_line_whose_missing_tile_is_all_on_the_board_is_no_threat():
    variant = engine.Variant(colors=3, copies=1, hand_size=3)
    board = engine.Board(variant)
    board.play([(0, 0, "red", "circle"), (0, 1, "red", "crisscross")])
    board.play([(1, 1, "orange", "crisscross"), (1, 2, "orange", "diamond")])
    # The only red diamond would complete the red row at (0, 2) or (0, -1);
    # put it somewhere else first.
    board.play([(2, 2, "red", "diamond")])

    hints = engine.hints(board)

    assert all((0, 0) not in threat.cells for threat in hints.threats)
    assert (0, -1) in hints.dead_cells
    check_hints_against_scan(board)


def test_an_empty_board_has_no_hints():
    hints = engine.hints(engine.Board())

    assert hints.to_dict() == {"threats": [], "dead_cells": [], "hot_cells": []}


def test_hints_serialise_to_the_contract_shape():
    board = engine.Board()
    for _, tiles, _, _ in SAMPLE_MOVES:
        board.play(tiles)

    data = json.loads(json.dumps(engine.hints(board).to_dict()))

    assert set(data) == {"threats", "dead_cells", "hot_cells"}
    assert all(len(cell) == 2 for cell in data["dead_cells"])
    for threat in data["threats"]:
        assert set(threat) == {"cells", "completing"}
        for tile in threat["completing"]:
            assert set(tile) == {"row", "col", "color", "shape", "unseen"}
    for hot in data["hot_cells"]:
        assert set(hot) == {"row", "col", "points", "qwirkles", "kinds"}


# -- same tiles, best spot -----------------------------------------------------


@settings(max_examples=25, deadline=None, derandomize=True, database=None,
          suppress_health_check=[HealthCheck.too_slow])
@given(seed=seeds, n=st.integers(min_value=1, max_value=20),
       variant=st.sampled_from(VARIANTS), size=st.integers(1, 3))
def test_best_same_tiles_equals_a_brute_force_search_on_small_boards(
    seed, n, variant, size
):
    position = build_position(seed, n, variant)
    board = position.board
    rng = random.Random(seed + 11)
    pool = list(position.hand) + list(position.bag)
    move = longest_of_tries(board, pool, size, rng)
    if move is None:
        return
    score = board.check(move).points

    best = engine.best_same_tiles(board, move)

    assert best.points == brute_best(board, [(t[2], t[3]) for t in move])
    assert best.points >= score
    assert board.check(list(best.tiles)).points == best.points
    assert not multiset(best.tiles) - multiset(move), "best uses tiles not placed"


def test_best_same_tiles_finds_the_qwirkle_a_player_missed():
    board = engine.Board()
    shapes = ["circle", "crisscross", "diamond", "square", "starburst"]
    board.play([(0, c, "red", shape) for c, shape in enumerate(shapes)])
    played = [(1, 0, "red", "clover")]  # under the red circle: red line 2

    best = engine.best_same_tiles(board, played)

    assert board.check(played).points == 2
    assert best.points == 12
    assert best.tiles in (((0, -1, "red", "clover"),), ((0, 5, "red", "clover"),))


def test_best_same_tiles_of_an_opening_move_is_its_own_score():
    best = engine.best_same_tiles(
        engine.Board(), [(0, 0, "red", "circle"), (1, 0, "red", "square")]
    )

    assert best.points == 2
    assert multiset(best.tiles) == Counter({("red", "circle"): 1, ("red", "square"): 1})


@pytest.mark.parametrize("path", corpus_records(), ids=lambda p: p.stem)
def test_every_corpus_move_scores_at_most_its_best_same_tiles(path):
    game, _ = engine.from_record(load(path))

    analysis = engine.analyse_game(game)

    board = engine.Board(game.variant)
    analysed = iter(analysis.moves)
    for number, move in enumerate(game.moves, start=1):
        if move.type != "place":
            continue
        entry = next(analysed)
        assert (entry.number, entry.player, entry.score) == (
            number, move.player, move.score)
        assert entry.best_same_tiles >= move.score
        assert entry.missed == entry.best_same_tiles - move.score
        assert board.check(list(entry.best)).points == entry.best_same_tiles
        assert not multiset(entry.best) - multiset(move.tiles)
        if entry.best_same_tiles == move.score:
            assert entry.best == move.tiles
        board.play(move.tiles)
    assert next(analysed, None) is None
    for seat in analysis.efficiency:
        mine = [m for m in analysis.moves if m.player == seat.player]
        assert seat.scored == sum(m.score for m in mine)
        assert seat.available == sum(m.best_same_tiles for m in mine)
        assert seat.ratio is not None and 0 < seat.ratio <= 1


def test_sample_game_every_move_could_score_at_least_its_printed_points():
    game = engine.Game(players=4)
    for _, tiles, _, _ in SAMPLE_MOVES:
        game.place(tiles)

    analysis = engine.analyse_game(game)

    assert [m.number for m in analysis.moves] == list(range(1, 13))
    assert [m.player for m in analysis.moves] == [p for p, _, _, _ in SAMPLE_MOVES]
    assert [m.score for m in analysis.moves] == [p for _, _, p, _ in SAMPLE_MOVES]
    assert all(m.best_same_tiles >= m.score for m in analysis.moves)
    # Anna's opening three reds cannot score more than 3 anywhere.
    assert analysis.moves[0].best_same_tiles == 3
    # Sally's three crisscrosses made the red Qwirkle: 18 is their best.
    assert analysis.moves[10].best_same_tiles == 18
    assert [s.scored for s in analysis.efficiency] == [20, 22, 25, 18]


def test_analysis_numbers_count_trades_and_passes_and_skips_them():
    game = engine.Game(players=2)
    game.place([(0, 0, "red", "circle"), (0, 1, "red", "square")])
    game.trade(3)
    game.place([(1, 0, "blue", "circle")])

    analysis = engine.analyse_game(game)

    assert [(m.number, m.player) for m in analysis.moves] == [(1, 0), (3, 0)]
    assert engine.analyse_last_move(game) == analysis.moves[-1]
    game.trade(1)
    assert engine.analyse_last_move(game) is None
    with pytest.raises(ValueError):
        engine.analyse_move(game.board, game.moves[-1], 4)
    assert [s.to_dict() for s in analysis.efficiency] == [
        {"player": 0, "scored": 4, "available": 4, "efficiency": 1.0},
        {"player": 1, "scored": 0, "available": 0, "efficiency": None},
    ]


def test_analysing_the_last_move_leaves_the_game_as_it_was():
    game, _ = engine.from_record(load(corpus_records()[0]))
    while game.moves and game.moves[-1].type != "place":
        game.pop()
    before = (list(game.board.tiles()), game.scores, game.turn)

    last = engine.analyse_last_move(game)

    assert last is not None and last.number == game.turn
    assert (list(game.board.tiles()), game.scores, game.turn) == before
    assert last == engine.analyse_game(game).moves[-1]


def test_stored_analyses_are_reused_and_only_the_others_computed():
    game, _ = engine.from_record(load(corpus_records()[1]))
    full = engine.analyse_game(game)
    stored = {m.number: engine.MoveAnalysis.from_dict(json.loads(json.dumps(
        m.to_dict()))) for m in full.moves[:-3]}
    # A stored entry is taken as it is, so a marked one shows it was reused.
    first = full.moves[0]
    marked = engine.MoveAnalysis(first.number, first.player, first.score,
                                 first.best_same_tiles + 100, first.best)
    stored[first.number] = marked

    again = engine.analyse_game(game, cached=stored)

    assert again.moves[0] is marked
    assert again.moves[1:] == full.moves[1:]


def test_move_analysis_serialises_to_the_contract_shape_and_back():
    game = engine.Game(players=4)
    for _, tiles, _, _ in SAMPLE_MOVES:
        game.place(tiles)
    analysis = engine.analyse_game(game)

    data = json.loads(json.dumps(analysis.to_dict()))

    assert set(data) == {"moves", "efficiency"}
    for entry, move in zip(data["moves"], analysis.moves, strict=True):
        assert set(entry) == {"number", "player", "score", "best_same_tiles", "best"}
        assert all(set(t) == {"row", "col", "color", "shape"} for t in entry["best"])
        assert engine.MoveAnalysis.from_dict(entry) == move


@pytest.mark.parametrize("broken", [
    {},
    {"number": 1, "player": 0, "score": 3, "best_same_tiles": "3", "best": []},
    {"number": 1, "player": 0, "score": 3, "best_same_tiles": 3, "best": None},
    {"number": 1, "player": 0, "score": 3, "best_same_tiles": 3, "best": [5]},
    {"number": 1, "player": 0, "score": 3, "best_same_tiles": 3,
     "best": [{"row": 0, "col": "0", "color": "red", "shape": "circle"}]},
])
def test_a_malformed_stored_analysis_is_a_value_error(broken):
    with pytest.raises(ValueError):
        engine.MoveAnalysis.from_dict(broken)


# -- Qwirkle Cubes -------------------------------------------------------------


@settings(max_examples=20, deadline=None, derandomize=True, database=None,
          suppress_health_check=[HealthCheck.too_slow])
@given(seed=seeds, n=st.integers(min_value=1, max_value=20),
       variant=st.sampled_from(CUBE_VARIANTS), size=st.integers(1, 3))
def test_s7_cubes_best_move_for_an_open_hand_equals_a_brute_force_search(
    seed, n, variant, size
):
    board, hand = cubes_position(seed, n, variant)
    hand = hand[:size]

    best = engine.best_move(board, hand)

    top = brute_best(board, hand)
    assert (best.points if best else 0) == top
    if best is not None:
        assert board.check(list(best.tiles)).points == best.points
        assert not multiset(best.tiles) - Counter(hand)


@settings(max_examples=20, deadline=None, derandomize=True, database=None,
          suppress_health_check=[HealthCheck.too_slow])
@given(seed=seeds, n=st.integers(min_value=1, max_value=30),
       variant=st.sampled_from(CUBE_VARIANTS))
def test_s7_cubes_hints_match_the_scan_with_unseen_counted_per_colour(
    seed, n, variant
):
    board, _ = cubes_position(seed, n, variant)

    hints = check_hints_against_scan(board)

    left = board.unseen()
    for threat in hints.threats:
        for tile in threat.completing:
            assert tile.unseen == left[(tile.color, "")]


def test_s7_cubes_faces_may_repeat_on_the_board_but_not_in_a_line():
    moves = [
        [(0, c, color, "circle") for c, color in
         enumerate(["orange", "yellow", "green", "blue", "purple"])],
        [(1, 0, "red", "circle")], [(1, 2, "red", "circle")],
        [(1, 4, "red", "circle")],
    ]
    cubes, tiles = engine.Board(engine.CUBES), engine.Board()
    for move in moves:
        cubes.play(move)
        tiles.play(move)
    hand = [("red", "circle"), ("red", "circle"), ("red", "square")]

    best = engine.best_move(cubes, hand)

    # A fourth red circle fits with cubes (never beside another red circle);
    # the tile game has only three.
    assert best is not None
    assert best.points == brute_best(cubes, hand)
    assert cubes.check(list(best.tiles)).points == best.points
    assert ("red", "circle") in multiset(best.tiles)
    with pytest.raises(ValueError, match="red circle"):
        engine.best_move(tiles, hand)


def test_s7_cubes_opening_needs_two_cubes_sharing_colour_or_shape():
    board = engine.Board(engine.CUBES)

    assert engine.best_move(board, [("red", "circle"), ("blue", "square")]) is None
    assert engine.best_moves(board, [("red", "circle"), ("blue", "square")]) == []
    best = engine.best_move(
        board, [("red", "circle"), ("blue", "square"), ("blue", "circle"),
                ("green", "circle")],
    )
    assert best is not None and best.points == 3
    assert multiset(best.tiles) == Counter(
        {("red", "circle"): 1, ("blue", "circle"): 1, ("green", "circle"): 1})
    assert engine.Board(engine.CUBES).play(list(best.tiles)) == 3


def test_s7_cubes_a_hand_holding_more_of_a_colour_than_is_off_the_board_is_refused():
    variant = engine.Variant(colors=6, copies=3, hand_size=6, system="cubes")
    board = engine.Board(variant)
    board.play([(0, 0, "red", "circle"), (0, 1, "red", "square")])

    with pytest.raises(ValueError, match="red cubes"):
        engine.best_move(board, [("red", "diamond"), ("red", "clover")])
    assert engine.best_move(board, [("red", "diamond")]) is not None


@pytest.mark.parametrize("hand", [
    [("red", "circle")] * 7,
    [("red", "circle", "x")],
    [("mauve", "circle")],
    [("red", 3)],
    [7],
    ["red"],
])
def test_best_move_refuses_a_hand_that_cannot_be_held(hand):
    with pytest.raises(ValueError):
        engine.best_move(engine.Board(), hand)


def test_s7_cubes_game_analysis_finds_best_same_cubes():
    variant = engine.CUBES
    game = engine.Game(variant, players=2)
    game.place([(0, c, "green", s) for c, s in enumerate(
        ["circle", "crisscross", "diamond", "square", "starburst"])])
    # Two green clovers exist with cubes; one makes a Qwirkle at either end.
    game.place([(1, 0, "green", "clover")])

    (first, second) = engine.analyse_game(game).moves

    assert (first.score, first.best_same_tiles) == (5, 5)
    assert (second.score, second.best_same_tiles) == (2, 12)
