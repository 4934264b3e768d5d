"""A move's tiles entered in any order: what more tiles may still mend.

RULES §3: a move's tiles form one unbroken line with the board and touch it. A
page that takes the tiles one at a time in any order shows a tile before the
move is whole, so the engine says which refusals more tiles of the same move
may still mend (a gap, not touching the board yet) and which they never can.
"""

from __future__ import annotations

from scorekeeper import engine

from .test_sample_game import MOVES


def sample_board(moves: int) -> engine.Game:
    """The rulebook sample game after this many moves."""
    game = engine.Game(players=4)
    for _, tiles, _, _ in MOVES[:moves]:
        game.place(tiles)
    return game


def test_s3_a_tile_off_the_board_in_line_with_it_may_come_first() -> None:
    # Move 7: Sally's orange starburst goes two cells left of the green one;
    # entered first, it touches nothing yet, and the blue one mends that.
    game = sample_board(6)
    first = (-1, -3, "orange", "starburst")
    assert game.board.mend_fault([first]) is None
    options = game.cell_options((-1, -3))
    assert options[("orange", "starburst")].code == "not_connected"
    second = game.cell_options((-1, -2), [first])
    assert second[("blue", "starburst")].score == 3


def test_s3_a_tile_that_can_never_join_its_line_is_not_offered() -> None:
    game = sample_board(6)
    options = game.cell_options((-1, -3))
    # An orange circle would join the starburst row: mixed, whatever comes between.
    assert ("orange", "circle") not in options
    fault = game.refusal((-1, -3), ("orange", "circle"))
    assert fault is not None and fault.code == "mixed_line"
    # A second green starburst in that row: a duplicate.
    fault = game.refusal((-1, -3), ("green", "starburst"))
    assert fault is not None and fault.code == "duplicate_in_line"


def test_s3_a_tile_beyond_a_hands_reach_of_the_board_is_not_offered() -> None:
    game = sample_board(6)
    assert game.cell_options((-1, -9)) == {}
    fault = game.refusal((-1, -9), ("orange", "starburst"))
    assert fault is not None and fault.code == "not_connected"
    assert game.cell_options((10, 10)) == {}


def test_s3_greying_still_works_while_a_gap_is_pending() -> None:
    game = engine.Game()
    game.place([(0, 0, "red", "circle"), (0, 1, "red", "square")])
    pending = [(0, 3, "red", "diamond")]
    offered = game.cell_options((0, 5), pending)
    assert ("red", "clover") in offered
    assert offered[("red", "clover")].code == "gap"
    assert ("blue", "clover") not in offered
    assert game.refusal((0, 5), ("blue", "clover"), pending).code == "mixed_line"
    # Six cells from (0, 0) to (0, 5) hold at most a line of six: (0, 6) is one too far.
    too_long = game.refusal((0, 6), ("red", "clover"), pending)
    assert too_long is not None and too_long.code == "line_too_long"


def test_s3_a_gap_wider_than_the_hand_is_refused() -> None:
    game = engine.Game(engine.Variant(colors=8, copies=3, hand_size=3), 2)
    game.place([(0, 0, "red", "circle")])
    # Three tiles in hand: (0, 1) and (0, 5) leave three holes, too many to fill.
    fault = game.refusal((0, 5), ("red", "square"), [(0, 1, "red", "diamond")])
    assert fault is not None and fault.code == "gap"


def test_s3_the_sample_game_moves_are_offered_tile_by_tile_in_every_order() -> None:
    from itertools import permutations

    for number, (_, tiles, points, _) in enumerate(MOVES, start=1):
        game = sample_board(number - 1)
        for order in permutations(tiles):
            for i, tile in enumerate(order):
                offered = game.cell_options(tile[:2], list(order[:i]))
                assert tuple(tile[2:]) in offered, (number, order, i)
            assert game.preview(list(order)).score == points


def test_a_refusal_names_the_tile_exhausted_when_no_copy_is_left() -> None:
    game = engine.Game(engine.Variant(colors=3, copies=1, hand_size=3), 2)
    game.place([(0, 0, "red", "circle")])
    fault = game.refusal((0, 1), ("red", "circle"))
    assert fault is not None and fault.code == "tile_exhausted"
    assert game.refusal((0, 1), ("red", "diamond")) is None
