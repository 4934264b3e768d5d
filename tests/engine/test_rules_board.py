"""One test per board rule of RULES.md (§1, §2 first move, §3, §4, §7, §8)."""

from __future__ import annotations

import pytest

from scorekeeper import engine, text

CLASSIC_COLORS = ("red", "orange", "yellow", "green", "blue", "purple")
CLASSIC_SHAPES = ("circle", "crisscross", "diamond", "square", "starburst", "clover")


def lines_of(score: engine.MoveScore) -> list[tuple]:
    """The breakdown as sortable tuples: (direction, kind, value, length, points)."""
    return sorted(
        (line.direction, line.kind, line.value, line.length, line.points)
        for line in score.lines
    )


def play_refused(board: engine.Board, move: list) -> engine.IllegalMove:
    """Play a refused move, check the board is unchanged, return the error."""
    before = list(board.tiles())
    with pytest.raises(engine.IllegalMove) as refused:
        board.play(move)
    assert list(board.tiles()) == before
    return refused.value


# --- §1 Material -------------------------------------------------------------


def test_s1_classic_set_has_six_colours_six_shapes_three_copies_108_tiles():
    variant = engine.Variant()

    assert variant.color_names == CLASSIC_COLORS
    assert variant.shape_names == CLASSIC_SHAPES
    assert (variant.colors, variant.shapes, variant.copies) == (6, 6, 3)
    assert variant.total_tiles == 108
    assert variant.name == "classic"


def test_s1_an_empty_board_leaves_three_of_each_of_the_36_tiles_unseen():
    board = engine.Board()

    unseen = board.unseen()

    assert len(unseen) == 36
    assert set(unseen.values()) == {3}
    assert sum(unseen.values()) == 108


def test_s1_hand_is_six_and_the_classic_table_seats_two_to_four():
    variant = engine.Variant()

    assert variant.hand_size == 6
    assert variant.max_players == 4
    for players in (2, 3, 4):
        assert engine.Game(players=players).players == players
    for players in (1, 5):
        with pytest.raises(ValueError):
            engine.Game(players=players)


def three_red_circles() -> engine.Board:
    """Three red circles, each in its own circle column below a row of circles."""
    board = engine.Board()
    board.play([(0, c, color, "circle") for c, color in
                enumerate(["orange", "yellow", "green", "blue", "purple"])])
    for col in (0, 2, 4):
        board.play([(1, col, "red", "circle")])
    return board


def test_s1_a_fourth_red_circle_can_never_be_on_the_board():
    board = three_red_circles()
    assert board.count("red", "circle") == 3
    assert board.unseen()[("red", "circle")] == 0

    # (-1, 1) above the yellow circle would be fine for any other red circle.
    refused = play_refused(board, [(-1, 1, "red", "circle")])

    assert refused.code == "tile_exhausted"
    assert board.legal_cells("red", "circle") == set()
    # The same cell takes another circle: only the supply refuses the red one.
    assert board.check([(-1, 1, "purple", "circle")]).points == 2


# --- §2 Start: the first move ------------------------------------------------


@pytest.mark.parametrize("k", [1, 2, 3, 4, 5])
def test_s2_a_first_move_of_k_tiles_scores_k(k):
    board = engine.Board()

    points = board.play([(0, c, "red", shape) for c, shape in
                         enumerate(CLASSIC_SHAPES[:k])])

    assert points == k


def test_s2_a_first_move_of_six_tiles_is_a_qwirkle_worth_12():
    board = engine.Board()

    score = board.check([(r, 0, color, "square") for r, color in
                         enumerate(CLASSIC_COLORS)])

    assert score.points == 12
    assert score.qwirkles == 1
    assert lines_of(score) == [("column", "shape", "square", 6, 12)]


def test_s2_a_single_first_tile_scores_1_and_the_empty_board_offers_only_the_origin():
    board = engine.Board()

    assert board.legal_cells("blue", "circle") == {(0, 0)}
    score = board.check([(0, 0, "blue", "circle")])

    assert score.points == 1
    assert [line.kind for line in score.lines] == ["tile"]
    assert [line.direction for line in score.lines] == ["single"]


# --- §3 A move ---------------------------------------------------------------


def test_s3_1_placed_tiles_must_lie_in_one_row_or_one_column():
    board = engine.Board()
    board.play([(0, 0, "red", "circle"), (0, 1, "red", "square")])

    # Each tile alone would be legal; together they are in no one row or column.
    assert board.check([(1, 0, "red", "diamond")]).points == 2
    assert board.check([(-1, 1, "red", "clover")]).points == 2
    refused = play_refused(board, [(1, 0, "red", "diamond"), (-1, 1, "red", "clover")])

    assert refused.code == "not_in_line"


def test_s3_2_placed_tiles_need_not_touch_but_gaps_must_be_filled():
    board = engine.Board()
    board.play([(0, 0, "red", "circle"), (0, 1, "red", "square")])

    # (0, -1) and (0, 2) do not touch each other: the existing tiles fill between.
    score = board.check([(0, -1, "red", "diamond"), (0, 2, "red", "clover")])
    assert score.points == 4

    refused = play_refused(board, [(0, 2, "red", "diamond"), (0, 4, "red", "clover")])
    assert refused.code == "gap"


def test_s3_2_adding_at_both_ends_of_a_line_in_one_turn_is_fine():
    board = engine.Board()
    board.play([(0, 0, "green", "circle"), (0, 1, "green", "square"),
                (0, 2, "green", "starburst")])

    points = board.play([(0, -1, "green", "clover"), (0, 3, "green", "diamond")])

    assert points == 5
    assert len(board) == 5


def test_s3_3_a_tile_cannot_go_on_an_occupied_cell():
    board = engine.Board()
    board.play([(0, 0, "red", "circle")])

    refused = play_refused(board, [(0, 0, "red", "square")])

    assert refused.code == "occupied"


def test_s3_3_no_cell_may_be_used_twice_in_one_move():
    board = engine.Board()
    board.play([(0, 0, "red", "circle")])

    refused = play_refused(board, [(0, 1, "red", "square"), (0, 1, "red", "diamond")])

    assert refused.code == "same_cell_twice"


def test_s3_4_from_the_second_move_on_a_placed_tile_must_touch_the_board():
    board = engine.Board()
    board.play([(0, 0, "red", "circle")])

    refused = play_refused(board, [(0, 2, "red", "square"), (0, 3, "red", "diamond")])

    assert refused.code == "not_connected"


def test_s3_4_diagonal_contact_does_not_count():
    board = engine.Board()
    board.play([(0, 0, "red", "circle")])

    refused = play_refused(board, [(1, 1, "red", "square")])

    assert refused.code == "not_connected"
    assert (1, 1) not in board.legal_cells("red", "square")


def test_s3_5_a_line_of_one_colour_with_all_shapes_different_is_valid():
    board = engine.Board()
    board.play([(0, 0, "blue", "circle"), (0, 1, "blue", "square")])

    assert board.play([(0, 2, "blue", "clover")]) == 3


def test_s3_5_a_line_of_one_shape_with_all_colours_different_is_valid():
    board = engine.Board()
    board.play([(0, 0, "blue", "circle"), (1, 0, "red", "circle")])

    assert board.play([(2, 0, "yellow", "circle")]) == 3


def test_s3_5_a_line_sharing_neither_colour_nor_shape_is_refused():
    board = engine.Board()
    board.play([(0, 0, "blue", "circle"), (0, 1, "blue", "square")])

    refused = play_refused(board, [(0, 2, "red", "clover")])

    assert refused.code == "mixed_line"


def test_s3_5_a_line_mixing_the_two_attributes_is_refused_even_if_pairs_match():
    # blue circle - blue square - red square: each neighbour pair shares something.
    board = engine.Board()
    board.play([(0, 0, "blue", "circle"), (0, 1, "blue", "square")])

    refused = play_refused(board, [(0, 2, "red", "square")])

    assert refused.code == "mixed_line"


def test_s3_5_no_duplicate_tile_in_a_line():
    board = engine.Board()
    board.play([(0, 0, "blue", "circle"), (0, 1, "blue", "square")])

    refused = play_refused(board, [(0, 2, "blue", "circle")])

    assert refused.code == "duplicate_in_line"


def test_s3_5_the_same_tile_twice_in_one_move_is_a_duplicate():
    board = engine.Board()
    board.play([(0, 0, "blue", "circle")])

    refused = play_refused(board, [(0, 1, "blue", "square"), (0, 2, "blue", "square")])

    assert refused.code == "duplicate_in_line"


def test_s3_5_no_line_longer_than_six():
    board = engine.Board()
    board.play([(0, c, "red", shape) for c, shape in enumerate(CLASSIC_SHAPES)])

    refused = play_refused(board, [(0, 6, "red", "circle")])

    assert refused.code == "line_too_long"


def test_s3_5_the_perpendicular_line_of_every_placed_tile_must_be_valid():
    board = engine.Board()
    board.play([(0, 0, "red", "circle"), (0, 1, "red", "square")])
    board.play([(1, 1, "blue", "square")])

    # Along row 1 it is a blue line, but its column (red circle above) is mixed.
    refused = play_refused(board, [(1, 0, "blue", "clover")])

    assert refused.code == "mixed_line"
    assert board.check([(1, 0, "blue", "circle")]).points == 4


def test_s3_6_touching_tiles_make_a_line_only_when_they_touch():
    # Like the sample game's orange diamond: next to the red diamond it joins a
    # diamond line; two cells further along the orange row it joins nothing.
    board = engine.Board()
    board.play([(0, 0, "red", "diamond"), (0, 1, "red", "clover")])
    board.play([(-1, 1, "orange", "clover")])

    apart = board.check([(-1, 2, "orange", "square"), (-1, 3, "orange", "diamond")])
    touching = board.check([(-1, 0, "orange", "diamond")])

    assert lines_of(apart) == [("row", "color", "orange", 3, 3)]
    assert lines_of(touching) == [("column", "shape", "diamond", 2, 2),
                                  ("row", "color", "orange", 2, 2)]


def test_s3_6_a_tile_touching_a_line_it_does_not_match_is_refused():
    board = engine.Board()
    board.play([(0, 0, "red", "diamond"), (0, 1, "red", "clover")])
    board.play([(-1, 1, "orange", "clover")])

    # Meant for the orange row only, but it also touches the red diamond below.
    refused = play_refused(board, [(-1, 0, "orange", "square")])

    assert refused.code == "mixed_line"


# --- §4 Scoring --------------------------------------------------------------


def test_s4_a_line_scores_its_full_length_existing_tiles_included():
    board = engine.Board()
    board.play([(0, c, "red", shape) for c, shape in enumerate(CLASSIC_SHAPES[:4])])

    score = board.check([(0, 4, "red", "starburst")])

    assert score.points == 5
    assert lines_of(score) == [("row", "color", "red", 5, 5)]


def test_s4_each_line_counts_once_the_line_along_the_move_plus_each_perpendicular():
    board = engine.Board()
    board.play([(0, 0, "red", "circle"), (0, 1, "red", "square"),
                (0, 2, "red", "diamond")])

    # Three yellows under the reds: the yellow row once (3) + three columns (2 each).
    score = board.check([(1, 0, "yellow", "circle"), (1, 1, "yellow", "square"),
                         (1, 2, "yellow", "diamond")])

    assert score.points == 3 + 2 + 2 + 2
    assert lines_of(score) == [
        ("column", "shape", "circle", 2, 2),
        ("column", "shape", "diamond", 2, 2),
        ("column", "shape", "square", 2, 2),
        ("row", "color", "yellow", 3, 3),
    ]


def test_s4_a_tile_in_two_lines_scores_in_both():
    board = engine.Board()
    board.play([(0, 0, "red", "circle"), (0, 1, "red", "square")])
    board.play([(1, 1, "blue", "square")])

    score = board.check([(1, 0, "blue", "circle")])

    assert score.points == 4
    assert lines_of(score) == [("column", "shape", "circle", 2, 2),
                               ("row", "color", "blue", 2, 2)]


def test_s4_completing_a_line_of_six_scores_a_qwirkle_bonus():
    board = engine.Board()
    board.play([(0, c, "purple", shape) for c, shape in enumerate(CLASSIC_SHAPES[:5])])

    score = board.check([(0, 5, "purple", "clover")])

    assert score.points == 12
    assert score.qwirkles == 1
    (line,) = score.lines
    assert (line.length, line.points, line.qwirkle) == (6, 12, True)


def test_s4_one_move_can_make_two_qwirkles():
    board = engine.Board()
    # A red row of five (cols 1..5) and a circle column of five (rows 1..5)
    # meeting at the empty corner (0, 0).
    board.play([(0, c, "red", shape) for c, shape in
                zip(range(1, 6), CLASSIC_SHAPES[1:], strict=True)])
    board.play([(1, 1, "orange", "crisscross")])
    board.play([(1, 0, "orange", "circle")])
    board.play([(r, 0, color, "circle") for r, color in
                zip(range(2, 6), ["yellow", "green", "blue", "purple"], strict=True)])

    score = board.check([(0, 0, "red", "circle")])

    assert score.qwirkles == 2
    assert score.points == 24
    assert lines_of(score) == [("column", "shape", "circle", 6, 12),
                               ("row", "color", "red", 6, 12)]


def test_s4_score_is_the_sum_of_the_breakdown():
    board = engine.Board()
    board.play([(0, 0, "red", "circle"), (0, 1, "red", "square")])
    board.play([(1, 1, "blue", "square")])

    score = board.check([(1, 0, "blue", "circle"), (1, 2, "blue", "diamond")])

    assert score.points == sum(line.points for line in score.lines) == 3 + 2
    assert board.play([(1, 0, "blue", "circle"), (1, 2, "blue", "diamond")]) == 5


def test_s4_breakdown_labels_read_like_the_rulebook():
    board = engine.Board()
    board.play([(0, 0, "red", "circle"), (0, 1, "red", "diamond"),
                (0, 2, "red", "clover")])

    score = board.check([(0, 3, "red", "square"), (1, 3, "blue", "square"),
                         (2, 3, "green", "square")])

    labels = sorted(text.line_label(line) for line in score.lines)
    assert labels == ["red line 4", "square line 3"]
    assert text.breakdown(score) == "square line 3 + red line 4 = 7"
    assert score.to_dict()["points"] == 7


# --- §7 Other sets -----------------------------------------------------------


def test_s7_a_five_colour_set_uses_the_first_five_names():
    variant = engine.Variant(colors=5, copies=2, hand_size=5)

    assert variant.color_names == CLASSIC_COLORS[:5]
    assert variant.shape_names == CLASSIC_SHAPES[:5]
    assert variant.shapes == 5
    assert variant.total_tiles == 50
    assert variant.name == "generalised"
    assert variant.max_players == 8
    assert variant.to_dict() == {"name": "generalised", "colors": 5, "shapes": 5,
                                 "copies": 2, "hand_size": 5}


def test_s7_an_eight_colour_set_adds_pink_brown_heart_triangle():
    variant = engine.Variant(colors=8, copies=1)

    assert variant.color_names == CLASSIC_COLORS + ("pink", "brown")
    assert variant.shape_names == CLASSIC_SHAPES + ("heart", "triangle")
    board = engine.Board(variant)
    assert board.play([(0, 0, "pink", "heart"), (0, 1, "brown", "heart")]) == 2


@pytest.mark.parametrize("n", [3, 4, 5, 7, 8])
def test_s7_completing_a_line_of_n_is_a_qwirkle_worth_2n(n):
    variant = engine.Variant(colors=n, copies=1, hand_size=n)
    board = engine.Board(variant)

    score = board.check([(0, c, "red", shape) for c, shape in
                         enumerate(variant.shape_names)])

    assert score.points == 2 * n
    assert score.qwirkles == 1


def test_s7_in_a_five_colour_set_a_line_of_six_is_impossible_and_five_is_a_qwirkle():
    variant = engine.Variant(colors=5, copies=2, hand_size=5)
    board = engine.Board(variant)
    board.play([(0, c, "red", shape) for c, shape in
                enumerate(variant.shape_names[:4])])

    assert board.check([(0, 4, "red", "starburst")]).points == 10
    board.play([(0, 4, "red", "starburst")])
    refused = play_refused(board, [(0, 5, "red", "circle")])
    assert refused.code == "line_too_long"


def test_s7_names_outside_a_small_set_are_unknown_tiles():
    board = engine.Board(engine.Variant(colors=5, copies=2, hand_size=5))

    for move in ([(0, 0, "purple", "circle")], [(0, 0, "red", "clover")]):
        refused = play_refused(board, move)
        assert refused.code == "unknown_tile"


@pytest.mark.parametrize("bad", [
    {"colors": 2}, {"colors": 9}, {"copies": 0}, {"copies": 10},
    {"hand_size": 0}, {"hand_size": 13},
])
def test_s7_variant_numbers_out_of_range_are_refused(bad):
    with pytest.raises(ValueError):
        engine.Variant(**bad)
    with pytest.raises(ValueError):
        engine.Variant.from_dict(bad)


def test_s7_variant_round_trips_through_its_dict_and_accepts_missing_fields():
    variant = engine.Variant(colors=5, copies=2, hand_size=5)

    assert engine.Variant.from_dict(variant.to_dict()) == variant
    short = {"colors": 5, "copies": 2, "hand_size": 5}
    assert engine.Variant.from_dict(short) == variant
    assert engine.Variant.from_dict({}) == engine.Variant()


def test_s7_the_supply_check_counts_copies_of_the_variant():
    variant = engine.Variant(colors=3, copies=1, hand_size=3)
    board = engine.Board(variant)
    board.play([(0, 0, "red", "circle"), (0, 1, "orange", "circle")])

    refused = play_refused(board, [(1, 1, "red", "circle")])

    assert refused.code == "tile_exhausted"
    assert board.unseen()[("red", "circle")] == 0


# --- §8 Names ----------------------------------------------------------------


def test_s8_cells_are_unbounded_and_negative_rows_and_columns_are_allowed():
    board = engine.Board()
    board.play([(0, 0, "red", "circle")])

    board.play([(-1, 0, "red", "square"), (-2, 0, "red", "clover")])
    board.play([(-2, -1, "orange", "clover")])

    assert board.get((-2, -1)) == ("orange", "clover")
    assert board.get((5, 5)) is None
    assert [tuple(t) for t in board.tiles()] == [
        (0, 0, "red", "circle"), (-1, 0, "red", "square"), (-2, 0, "red", "clover"),
        (-2, -1, "orange", "clover"),
    ]


def test_s8_pop_undoes_the_last_play_exactly():
    board = engine.Board()
    board.play([(0, 0, "red", "circle")])
    before = list(board.tiles())
    legal_before = board.legal_map()

    board.play([(0, 1, "red", "square"), (0, 2, "red", "diamond")])
    board.pop()

    assert list(board.tiles()) == before
    assert board.legal_map() == legal_before
    assert board.unseen()[("red", "square")] == 3


def test_s4_move_score_to_dict_gives_every_line_with_its_cells():
    board = engine.Board()
    board.play([(0, 0, "red", "circle"), (0, 1, "red", "square")])
    board.play([(1, 1, "blue", "square")])

    data = board.check([(1, 0, "blue", "circle")]).to_dict()

    assert data["points"] == 4 and data["qwirkles"] == 0
    documented = ("direction", "cells", "kind", "value", "length", "points", "qwirkle")
    lines = sorted(({key: line[key] for key in documented} for line in data["lines"]),
                   key=lambda line: line["direction"])
    assert lines == [
        {"direction": "column", "cells": [[0, 0], [1, 0]], "kind": "shape",
         "value": "circle", "length": 2, "points": 2, "qwirkle": False},
        {"direction": "row", "cells": [[1, 0], [1, 1]], "kind": "color",
         "value": "blue", "length": 2, "points": 2, "qwirkle": False},
    ]


# --- a position laid from its tiles -------------------------------------------


def test_a_board_laid_from_a_games_tiles_judges_the_next_move_as_the_game_does():
    # The photo reader knows a stored position by its tiles alone.
    played = three_red_circles()
    laid = engine.Board.laid(played.tiles())
    assert sorted(laid.tiles()) == sorted(played.tiles())
    assert laid.unseen() == played.unseen()
    for move in ([(-1, 1, "purple", "circle")], [(-1, 0, "yellow", "circle")],
                 [(-1, 1, "purple", "circle"), (-2, 1, "blue", "circle")]):
        assert laid.check(move).points == played.check(move).points
    for move in ([(-1, 1, "red", "circle")],  # a fourth red circle (§1)
                 [(0, 5, "red", "square")],  # neither colour nor shape (§3.5)
                 [(-1, 0, "orange", "square"), (-1, 2, "yellow", "square")]):
        assert play_refused(laid, move).code == play_refused(played, move).code
    assert len(engine.Board.laid([])) == 0


def test_a_board_laid_from_a_tile_it_cannot_name_is_refused():
    with pytest.raises(engine.IllegalMove):
        engine.Board.laid([(0, 0, "pink", "circle")])
