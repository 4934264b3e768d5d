"""RULES §7, Qwirkle Cubes (seed 001): the engine's `system="cubes"` variant.

90 cubes, 15 of each colour, any face; supply checked per colour; never two
alike in one line; a first move of at least 2; no trading, no passing.
"""

from __future__ import annotations

import pytest

from scorekeeper import engine

SMALL = engine.Variant(colors=6, copies=3, hand_size=6, system="cubes")
"""Three cubes per colour, so the per-colour supply runs out quickly."""


def refused(action) -> engine.IllegalMove:
    with pytest.raises(engine.IllegalMove) as error:
        action()
    return error.value


def test_s7_cubes_box_holds_90_cubes_15_per_colour_and_seats_four():
    cubes = engine.CUBES

    assert (cubes.colors, cubes.copies, cubes.hand_size) == (6, 15, 6)
    assert cubes.total_tiles == 90
    assert cubes.system == "cubes" and cubes.name == "cubes"
    assert cubes.open_hands and cubes.supply_per_color and not cubes.allows_trade
    assert cubes.max_players == 4
    assert engine.Variant.from_dict(cubes.to_dict()) == cubes


def test_s7_cubes_bag_is_max0_of_90_minus_board_minus_six_per_player():
    game = engine.Game(engine.CUBES, players=3)
    assert game.bag == 90 - 18

    game.place([(0, 0, "red", "circle"), (0, 1, "red", "square"),
                (0, 2, "red", "clover")])

    assert game.bag == 90 - 3 - 18
    assert game.hands == [6, 6, 6]


def test_s7_cubes_first_move_places_at_least_two():
    game = engine.Game(engine.CUBES)

    error = refused(lambda: game.place([(0, 0, "red", "circle")]))
    move = game.place([(0, 0, "red", "circle"), (1, 0, "blue", "circle")])

    assert error.code == "first_move_too_small"
    assert move.score == 2


def test_s7_cubes_any_number_of_one_face_may_be_on_the_board():
    board = engine.Board(engine.CUBES)
    board.play([(0, c, color, "circle") for c, color in
                enumerate(["orange", "yellow", "green", "blue", "purple"])])
    for col in (0, 2, 4):
        board.play([(1, col, "red", "circle")])

    # A fourth red circle: refused in the tile game, fine with cubes.
    assert board.play([(-1, 1, "red", "circle")]) == 2
    assert sum(1 for t in board.tiles() if (t[2], t[3]) == ("red", "circle")) == 4


def test_s7_cubes_never_two_alike_in_one_line():
    board = engine.Board(engine.CUBES)
    board.play([(0, 0, "red", "circle"), (0, 1, "red", "square")])

    error = refused(lambda: board.play([(0, 2, "red", "circle")]))

    assert error.code == "duplicate_in_line"


def test_s7_cubes_supply_is_checked_per_colour():
    board = engine.Board(SMALL)
    board.play([(0, 0, "red", "circle"), (0, 1, "red", "square"),
                (0, 2, "red", "diamond")])
    before = list(board.tiles())

    # A fourth red cube, whatever its face, is one more than the set holds.
    error = refused(lambda: board.play([(1, 1, "red", "crisscross")]))

    assert error.code == "tile_exhausted"
    assert list(board.tiles()) == before
    assert board.unseen()[("red", "")] == 0
    assert board.unseen()[("blue", "")] == 3
    assert board.play([(1, 0, "orange", "circle")]) == 2


def test_s7_cubes_have_no_trading_and_no_passing():
    game = engine.Game(SMALL, players=2)
    game.place([(0, 0, "red", "circle"), (0, 1, "red", "square")])
    for tiles in ([(1, 0, "orange", "circle")], [(1, 1, "orange", "square")],
                  [(2, 0, "yellow", "circle")], [(2, 1, "yellow", "square")]):
        game.place(tiles)

    assert refused(lambda: game.trade(1)).code == "trade_not_allowed"
    assert refused(lambda: game.pass_turn()).code == "pass_not_allowed"
    assert game.max_trade() == 0 and not game.can_pass()


def test_s7_cubes_score_like_tiles_with_the_qwirkle_bonus():
    board = engine.Board(engine.CUBES)
    board.play([(0, c, "green", shape) for c, shape in
                enumerate(["circle", "crisscross", "diamond", "square", "starburst"])])

    score = board.check([(0, 5, "green", "clover")])

    assert (score.points, score.qwirkles) == (12, 1)


def test_s7_cubes_game_ends_when_a_hand_empties_with_the_bag_empty():
    # Three colours of two cubes, hands of 2: 6 cubes, two players hold 4, bag 2.
    variant = engine.Variant(colors=3, copies=2, hand_size=2, system="cubes")
    game = engine.Game(variant, players=2)
    game.place([(0, 0, "red", "circle"), (0, 1, "red", "diamond")])      # bag 0
    assert game.bag == 0 and game.hands == [2, 2]
    game.place([(1, 0, "orange", "circle"), (1, 1, "orange", "diamond")])

    assert game.final.reason == "hand_emptied"
    assert game.moves[-1].end_bonus == 6
    assert game.final.end_bonus_player == 1
    assert game.scores == [2, 2 + 2 + 2 + 6]


def test_s7_cubes_record_round_trips_with_its_system():
    game = engine.Game(engine.CUBES)
    game.place([(0, col, "red", shape) for col, shape in
                enumerate(("circle", "crisscross", "diamond"))])
    game.place([(1, 0, "blue", "circle")])

    record = engine.to_record(game, ["Jessica", "Chris"])
    replayed, names = engine.from_record(record)

    assert record["variant"]["system"] == "cubes"
    assert replayed.variant == engine.CUBES
    assert engine.to_record(replayed, names) == record
    assert "system" not in engine.CLASSIC.to_dict()
