"""RULES §7, Qwirkle Cubes (seed 001): supply per colour, no trades, no passes,
a first move of at least two cubes."""

import pytest

from scorekeeper import engine

RED_ROW = [(0, col, "red", shape) for col, shape in enumerate(
    ("circle", "crisscross", "diamond", "square", "starburst", "clover"))]


def test_s7_cubes_box_has_90_cubes_15_per_colour_and_the_bag_formula():
    game = engine.Game(engine.CUBES, players=3)

    assert engine.CUBES.total_tiles == 90
    assert game.bag == 90 - 6 * 3
    game.place(RED_ROW[:3])
    assert game.bag == max(0, 90 - 3 - 6 * 3)


def test_s7_cubes_first_move_places_at_least_two_cubes():
    game = engine.Game(engine.CUBES)

    with pytest.raises(engine.IllegalMove) as refused:
        game.place([(0, 0, "red", "circle")])

    assert refused.value.code == "first_move_too_small"
    assert game.turn == 0 and len(game.board) == 0
    assert game.place(RED_ROW[:2]).score == 2


def test_s7_cubes_may_repeat_a_face_but_never_in_one_line():
    board = engine.Board(engine.CUBES)
    board.play(RED_ROW[:2])
    # A second red circle elsewhere is fine: cubes are limited per colour only.
    board.play([(1, 1, "red", "circle")])
    assert board.count("red", "circle") == 2

    with pytest.raises(engine.IllegalMove) as refused:
        board.play([(0, 2, "red", "circle")])
    assert refused.value.code == "duplicate_in_line"


def test_s7_cubes_supply_is_checked_per_colour():
    board = engine.Board(engine.Variant(colors=6, copies=2, hand_size=6,
                                        system="cubes"))
    board.play(RED_ROW[:2])

    with pytest.raises(engine.IllegalMove) as refused:
        board.play([(0, 2, "red", "diamond")])

    assert refused.value.code == "tile_exhausted"
    assert "red cubes" in str(refused.value)
    assert board.unseen()[("red", "")] == 0
    assert board.legal_cells("red", "diamond") == set()
    assert board.legal_cells("blue", "circle")


def test_s7_cubes_have_no_trading_and_no_passing():
    game = engine.Game(engine.CUBES)
    game.place(RED_ROW[:2])

    with pytest.raises(engine.IllegalMove) as trade:
        game.trade(1)
    with pytest.raises(engine.IllegalMove) as passing:
        game.pass_turn()

    assert trade.value.code == "trade_not_allowed"
    assert passing.value.code == "pass_not_allowed"
    assert game.max_trade() == 0 and not game.can_pass()


def test_s7_cubes_record_round_trips_with_its_system():
    game = engine.Game(engine.CUBES)
    game.place(RED_ROW[:3])
    game.place([(1, 0, "blue", "circle")])

    record = engine.to_record(game, ["Jessica", "Chris"])
    replayed, names = engine.from_record(record)

    assert record["variant"]["system"] == "cubes"
    assert replayed.variant == engine.CUBES
    assert engine.to_record(replayed, names) == record
    assert "system" not in engine.CLASSIC.to_dict()
