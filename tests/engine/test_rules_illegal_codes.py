"""One parametrized case per illegal-move code of CONTRACT §7 (RULES §3, §5, §6).

Each case checks the code, that the message names the cells (or the unknown
name), and that the refused move leaves the board or game exactly as it was.
"""

from __future__ import annotations

import re

import pytest

from scorekeeper import engine

CODES = {
    "occupied", "same_cell_twice", "not_in_line", "gap", "not_connected",
    "mixed_line", "duplicate_in_line", "line_too_long", "tile_exhausted",
    "unknown_tile", "empty_move", "too_many_tiles", "first_move_trade",
    "trade_exceeds_bag", "pass_not_allowed", "game_over", "too_many_moves",
}

SHAPES = ("circle", "crisscross", "diamond", "square", "starburst", "clover")

# A small position: red circle, red square in row 0; a blue square under the red one.
BASE = [
    [(0, 0, "red", "circle"), (0, 1, "red", "square")],
    [(1, 1, "blue", "square")],
]

RED_QWIRKLE = [[(0, c, "red", shape) for c, shape in enumerate(SHAPES)]]

THREE_RED_CIRCLES = [
    [(0, c, color, "circle") for c, color in
     enumerate(["orange", "yellow", "green", "blue", "purple"])],
    [(1, 0, "red", "circle")],
    [(1, 2, "red", "circle")],
    [(1, 4, "red", "circle")],
]


def cell_text(cell: tuple[int, int]) -> str:
    """A cell as the messages write it."""
    return f"({cell[0]}, {cell[1]})"


# (section, code, setup moves, refused move, cells one of which the message names,
#  words the message names)
BOARD_CASES = [
    ("s3_3", "occupied", BASE, [(0, 0, "red", "diamond")], {(0, 0)}, ()),
    ("s3_3", "same_cell_twice", BASE,
     [(0, 2, "red", "diamond"), (0, 2, "red", "clover")], {(0, 2)}, ()),
    ("s3_1", "not_in_line", BASE,
     [(0, -1, "red", "diamond"), (2, 1, "green", "square")], {(0, -1), (2, 1)}, ()),
    ("s3_2", "gap", BASE,
     [(0, 2, "red", "diamond"), (0, 4, "red", "clover")], {(0, 3)}, ()),
    ("s3_4", "not_connected", BASE, [(3, 3, "red", "diamond")], {(3, 3)}, ()),
    ("s3_4", "not_connected", BASE, [(2, 2, "blue", "circle")], {(2, 2)}, ()),
    ("s3_5", "mixed_line", BASE, [(0, 2, "blue", "clover")],
     {(0, 0), (0, 1), (0, 2)}, ()),
    ("s3_5", "mixed_line", BASE, [(1, 0, "blue", "clover")],
     {(0, 0), (1, 0)}, ()),
    ("s3_5", "duplicate_in_line", BASE, [(0, 2, "red", "circle")],
     {(0, 0), (0, 2)}, ()),
    ("s3_5", "duplicate_in_line", BASE,
     [(2, 1, "green", "square"), (3, 1, "green", "square")], {(2, 1), (3, 1)}, ()),
    ("s3_5", "line_too_long", RED_QWIRKLE, [(0, 6, "red", "circle")],
     {(0, 0), (0, 6)}, ()),
    ("s1", "tile_exhausted", THREE_RED_CIRCLES, [(-1, 1, "red", "circle")],
     {(-1, 1)}, ("red circle",)),
    ("s8", "unknown_tile", BASE, [(0, 2, "magenta", "square")], set(), ("magenta",)),
    ("s8", "unknown_tile", BASE, [(0, 2, "red", "hexagon")], set(), ("hexagon",)),
    ("s7", "unknown_tile", BASE, [(0, 2, "pink", "square")], set(), ("pink",)),
    ("s7", "unknown_tile", BASE, [(0, 2, "red", "heart")], set(), ("heart",)),
    ("s3", "empty_move", BASE, [], set(), ()),
]


def board_case_id(case) -> str:
    section, code, *_ = case
    return f"{section}-{code}"


def check_message(refused: engine.IllegalMove, named: set, words: tuple) -> None:
    """The message is a sentence naming tiles and lines, never coordinates the
    board does not show; the cells stay in the error for the page to
    mark."""
    message = str(refused)
    assert message and message[0].isupper(), message
    assert not re.search(r"\(-?\d+, -?\d+\)", message), message
    if named:
        assert named & {tuple(cell) for cell in refused.cells}, (named, refused.cells)
    for word in words:
        assert word in message, (word, message)


@pytest.mark.parametrize("case", BOARD_CASES, ids=board_case_id)
def test_board_refuses_each_illegal_move_with_its_code_and_changes_nothing(case):
    _, code, setup, move, named, words = case
    board = engine.Board()
    for tiles in setup:
        board.play(tiles)
    before, unseen = list(board.tiles()), board.unseen()

    with pytest.raises(engine.IllegalMove) as check_refused:
        board.check(move)
    with pytest.raises(engine.IllegalMove) as refused:
        board.play(move)

    assert refused.value.code == code
    assert check_refused.value.code == code
    assert code in CODES
    assert isinstance(refused.value, ValueError)
    check_message(refused.value, named, words)
    assert list(board.tiles()) == before
    assert board.unseen() == unseen


@pytest.mark.parametrize("case", BOARD_CASES, ids=board_case_id)
def test_game_refuses_each_illegal_placement_with_its_code_and_changes_nothing(case):
    _, code, setup, move, named, words = case
    game = engine.Game(players=2)
    for tiles in setup:
        game.place(tiles)
    state = snapshot(game)

    with pytest.raises(engine.IllegalMove) as preview:
        game.check_place(move)
    with pytest.raises(engine.IllegalMove) as refused:
        game.place(move)

    assert refused.value.code == code
    assert preview.value.code == code
    check_message(refused.value, named, words)
    assert snapshot(game) == state


def snapshot(game: engine.Game) -> tuple:
    """Everything a refused move must leave alone."""
    return (
        list(game.board.tiles()), len(game.moves), game.turn, game.current_player,
        list(game.scores), list(game.hands), game.bag, game.final, game.status,
    )


# --- game-level codes --------------------------------------------------------

TINY = engine.Variant(colors=3, copies=1, hand_size=2)
"""9 tiles, hands of 2: with two players the bag holds 5 at the start."""

TINY_MOVES = [
    [(0, 0, "red", "circle"), (0, 1, "red", "crisscross")],        # 2, bag 3
    [(1, 0, "orange", "circle"), (1, 1, "orange", "crisscross")],  # 6, bag 1
    [(2, 0, "yellow", "circle")],                                  # 6, bag 0
    [(2, 1, "yellow", "crisscross")],                              # 8, hands [2, 1]
    [(0, 2, "red", "diamond")],                                    # 6, hands [1, 1]
    [(1, 2, "orange", "diamond")],                                 # 8 + 6, end
]


def tiny_game(moves: int) -> engine.Game:
    """The tiny scripted game after its first `moves` moves."""
    game = engine.Game(TINY, players=2)
    for tiles in TINY_MOVES[:moves]:
        game.place(tiles)
    return game


def classic_after_one_move() -> engine.Game:
    """A classic two-player game after a first move of two tiles (bag 94)."""
    game = engine.Game()
    game.place([(0, 0, "red", "circle"), (0, 1, "red", "square")])
    return game


def game_at_the_move_limit():
    """A classic game of engine.MAX_MOVES moves: one placement, then trades."""
    game = engine.Game()
    game.place([(0, 0, "red", "circle")])
    while game.turn < engine.MAX_MOVES:
        game.trade(1)
    return game


def disciplined_game_at_the_move_limit():
    """A game whose illegal moves cost the turn, at engine.MAX_MOVES moves: one
    placement, then penalties and trades in turn (penalties count as moves)."""
    game = engine.Game(options=engine.Options(on_illegal="lose_turn"))
    game.place([(0, 0, "red", "circle")])
    while game.turn < engine.MAX_MOVES:
        if game.turn % 2:
            game.penalty("illegal")
        else:
            game.trade(1)
    assert sum(move.type == "penalty" for move in game.moves) == engine.MAX_MOVES // 2
    return game


GAME_CASES = [
    ("s2", "first_move_trade", lambda: engine.Game(), lambda g: g.trade(1)),
    ("s2", "first_move_trade", lambda: engine.Game(), lambda g: g.trade(6)),
    ("s5", "trade_exceeds_bag", lambda: tiny_game(2), lambda g: g.trade(2)),
    ("s5", "trade_exceeds_bag", lambda: tiny_game(3), lambda g: g.trade(1)),
    ("s5", "pass_not_allowed", lambda: engine.Game(), lambda g: g.pass_turn()),
    ("s5", "pass_not_allowed", lambda: tiny_game(2), lambda g: g.pass_turn()),
    # After move 4 the second player holds one tile: two are too many.
    ("s6", "too_many_tiles", lambda: tiny_game(5),
     lambda g: g.place([(1, 2, "orange", "diamond"), (2, 2, "yellow", "diamond")])),
    ("s5", "too_many_tiles", lambda: classic_after_one_move(), lambda g: g.trade(7)),
    ("s6", "game_over", lambda: tiny_game(6), lambda g: g.pass_turn()),
    ("s6", "game_over", lambda: tiny_game(6), lambda g: g.trade(1)),
    ("s6", "game_over", lambda: tiny_game(6),
     lambda g: g.place([(2, 2, "yellow", "diamond")])),
    ("s6", "game_over", lambda: tiny_game(6), lambda g: g.push({"type": "pass"})),
    # CONTRACT §8: a game holds at most 1,000 moves, whatever the move.
    ("c8", "too_many_moves", game_at_the_move_limit, lambda g: g.trade(1)),
    ("c8", "too_many_moves", game_at_the_move_limit,
     lambda g: g.place([(0, 1, "red", "square")])),
    # A penalty is a move (CONTRACT §10): it counts, and it is refused there too.
    ("c8", "too_many_moves", disciplined_game_at_the_move_limit,
     lambda g: g.penalty("illegal")),
    ("c8", "too_many_moves", disciplined_game_at_the_move_limit,
     lambda g: g.push({"type": "penalty", "reason": "illegal"})),
    ("c8", "too_many_moves", disciplined_game_at_the_move_limit, lambda g: g.trade(1)),
]


@pytest.mark.parametrize(
    "case", GAME_CASES, ids=[f"{c[0]}-{c[1]}-{i}" for i, c in enumerate(GAME_CASES)]
)
def test_game_refuses_each_illegal_turn_with_its_code_and_changes_nothing(case):
    _, code, make, act = case
    game = make()
    state = snapshot(game)

    with pytest.raises(engine.IllegalMove) as refused:
        act(game)

    assert refused.value.code == code
    assert str(refused.value)
    assert snapshot(game) == state


def test_every_contract_code_has_a_case():
    covered = {c[1] for c in BOARD_CASES} | {c[1] for c in GAME_CASES}

    assert covered == CODES


# --- malformed input: a ValueError with a clear message, never another error ---

MALFORMED = [
    lambda g: g.trade(True),
    lambda g: g.trade("2"),
    lambda g: g.push({"type": "place"}),
    lambda g: g.push({"type": "trade"}),
    lambda g: g.push({"type": "trade", "count": "2"}),
    lambda g: g.push({"type": "bogus"}),
    lambda g: g.push({}),
    lambda g: g.push([]),
    lambda g: g.push({"type": "place", "tiles": [{"row": 0}]}),
    lambda g: g.push({"type": "place", "tiles": [
        {"row": "0", "col": 1, "color": "red", "shape": "square"}]}),
    lambda g: g.place([("a", 0, "red", "circle")]),
    lambda g: g.place([(0, 1, "red")]),
    lambda g: g.place([(0.5, 1, "red", "square")]),
    lambda g: g.place([(True, 1, "red", "square")]),
    lambda g: g.place([(0, 1, 5, "circle")]),
    lambda g: g.trade(0),
    # Beyond engine.MAX_COORDINATE: the API, the forms and records share it.
    lambda g: g.place([(0, 10_001, "red", "square")]),
    lambda g: g.place([(-10**30, 0, "red", "square")]),
]


@pytest.mark.parametrize("act", MALFORMED)
def test_malformed_moves_raise_value_error_and_change_nothing(act):
    game = classic_after_one_move()
    state = snapshot(game)

    with pytest.raises(ValueError) as error:
        act(game)

    assert str(error.value)
    assert snapshot(game) == state
