"""The rulebook's sample game (seeds 002 and 004) rebuilt as a concrete board.

The pictures are not in the seeds, so the layout is our own reconstruction from
the text alone.  Every move scores as printed (3, 7, 4, 6, 7, 6, 3, 3, 10, 9,
18, 9) and scores exactly the lines the text names, with their lengths, kinds
and — where seed 004 says "horizontal" or "vertical" — their direction.

The board after move 12 (rows grow downward; colour initial, shape, and the
number of the move that placed the tile)::

          -3     -2     -1      0      1      2      3      4
    -1  Ost 7  Bst 7  Gst 5  Rst10
     0  Ocl 8         Gcl 4  Rcl 1
     1  Odi 8  Ydi 9  Gdi 4  Rdi 1
     2         Yci 9  Gci 5  Rci 1  Bci 3
     3                       Rsq 2  Bsq 2  Gsq 2  Ysq 6  Osq12
     4                Ycr11  Rcr11  Bcr11         Rsq 6  Psq12

The red line is column 0, so Chris's square line of move 2 is horizontal (row
3), as seed 004 calls it in moves 6 and 12.
"""

from __future__ import annotations

import pytest

from scorekeeper import engine, text

PLAYERS = ["Anna", "Chris", "Sally", "Dave"]

# (player, tiles as (row, col, color, shape), printed points, printed lines as
#  (direction or None, kind, value, length, points)).
MOVES = [
    # 1. Anna plays three red tiles: 3.
    (0, [(0, 0, "red", "clover"), (1, 0, "red", "diamond"), (2, 0, "red", "circle")],
     3, [(None, "color", "red", 3, 3)]),
    # 2. Chris, three squares through the red line: red line 4 + square line 3.
    (1, [(3, 0, "red", "square"), (3, 1, "blue", "square"), (3, 2, "green", "square")],
     7, [(None, "color", "red", 4, 4), ("row", "shape", "square", 3, 3)]),
    # 3. Sally, one blue circle: circle line 2 + blue line 2.
    (2, [(2, 1, "blue", "circle")],
     4, [(None, "shape", "circle", 2, 2), (None, "color", "blue", 2, 2)]),
    # 4. Dave, two green tiles: green 2 + clover 2 + diamond 2.
    (3, [(0, -1, "green", "clover"), (1, -1, "green", "diamond")],
     6, [(None, "color", "green", 2, 2), (None, "shape", "clover", 2, 2),
         (None, "shape", "diamond", 2, 2)]),
    # 5. Anna, two green tiles on the green line that do not touch each other:
    #    green 4 + circle 3.
    (0, [(-1, -1, "green", "starburst"), (2, -1, "green", "circle")],
     7, [(None, "color", "green", 4, 4), (None, "shape", "circle", 3, 3)]),
    # 6. Chris, two squares: horizontal square line 4 + vertical square line 2
    #    (both in the first square line would make two red squares).
    (1, [(3, 3, "yellow", "square"), (4, 3, "red", "square")],
     6, [("row", "shape", "square", 4, 4), ("column", "shape", "square", 2, 2)]),
    # 7. Sally, two starbursts: starburst line 3.
    (2, [(-1, -2, "blue", "starburst"), (-1, -3, "orange", "starburst")],
     3, [(None, "shape", "starburst", 3, 3)]),
    # 8. Dave, two orange tiles: orange line 3; his orange diamond does not
    #    touch the diamond line (one empty cell between).
    (3, [(0, -3, "orange", "clover"), (1, -3, "orange", "diamond")],
     3, [(None, "color", "orange", 3, 3)]),
    # 9. Anna, two yellow: yellow 2 + diamond 4 + circle 4 (the yellow diamond
    #    fills the cell between the orange diamond and the diamond line).
    (0, [(1, -2, "yellow", "diamond"), (2, -2, "yellow", "circle")],
     10, [(None, "color", "yellow", 2, 2), (None, "shape", "diamond", 4, 4),
          (None, "shape", "circle", 4, 4)]),
    # 10. Chris, a red starburst: starburst line 4 + red line 5.
    (1, [(-1, 0, "red", "starburst")],
     9, [(None, "shape", "starburst", 4, 4), (None, "color", "red", 5, 5)]),
    # 11. Sally, three crisscrosses: crisscross 3 + red 6 + Qwirkle 6 + blue 3.
    (2, [(4, -1, "yellow", "crisscross"), (4, 0, "red", "crisscross"),
         (4, 1, "blue", "crisscross")],
     18, [(None, "shape", "crisscross", 3, 3), (None, "color", "red", 6, 12),
          (None, "color", "blue", 3, 3)]),
    # 12. Dave, two squares: horizontal square line 5 + vertical square line 2
    #     + second horizontal square line 2.
    (3, [(3, 4, "orange", "square"), (4, 4, "purple", "square")],
     9, [("row", "shape", "square", 5, 5), ("column", "shape", "square", 2, 2),
         ("row", "shape", "square", 2, 2)]),
]

PRINTED = [3, 7, 4, 6, 7, 6, 3, 3, 10, 9, 18, 9]


def test_the_reconstruction_scores_the_printed_totals():
    assert [points for _, _, points, _ in MOVES] == PRINTED
    for _, _, points, lines in MOVES:
        assert sum(line[4] for line in lines) == points


@pytest.mark.parametrize("number", range(1, 13))
def test_sample_game_move_scores_as_printed_with_its_line_breakdown(number):
    board = engine.Board()
    for _, tiles, _, _ in MOVES[: number - 1]:
        board.play(tiles)
    _, tiles, points, printed = MOVES[number - 1]

    score = board.check(tiles)

    assert score.points == points
    assert sum(line.points for line in score.lines) == points
    got = [(ln.direction, ln.kind, ln.value, ln.length, ln.points)
           for ln in score.lines]
    # Every line: kind, value, length and points as printed, nothing more ...
    assert sorted(g[1:] for g in got) == sorted(p[1:] for p in printed)
    # ... and the direction wherever seed 004 names it.
    for line in printed:
        if line[0] is not None:
            assert line in got, (line, got)
    assert score.qwirkles == sum(1 for p in printed if p[3] == 6)


def test_sample_game_qwirkle_is_the_sixth_red_tile():
    board = engine.Board()
    for _, tiles, _, _ in MOVES[:10]:
        board.play(tiles)

    score = board.check(MOVES[10][1])

    (red,) = [line for line in score.lines if line.value == "red"]
    assert (red.length, red.points, red.qwirkle) == (6, 12, True)
    assert text.line_label(red) == "red line 6 + Qwirkle 6"


def test_sample_game_chris_could_not_put_both_squares_in_the_first_square_line():
    board = engine.Board()
    for _, tiles, _, _ in MOVES[:5]:
        board.play(tiles)

    # Both at the end of the square row (3, 0)..(3, 2): two red squares.
    with pytest.raises(engine.IllegalMove) as refused:
        board.play([(3, 3, "yellow", "square"), (3, 4, "red", "square")])

    assert refused.value.code == "duplicate_in_line"


def test_sample_game_dave_orange_diamond_would_join_the_diamond_line_if_it_touched():
    board = engine.Board()
    for _, tiles, _, _ in MOVES[:7]:
        board.play(tiles)

    # One cell closer, (1, -2), it touches the green diamond and joins its line.
    score = board.check([(1, -2, "orange", "diamond")])

    assert ("row", "shape", "diamond", 3, 3) in [
        (ln.direction, ln.kind, ln.value, ln.length, ln.points) for ln in score.lines
    ]


def test_sample_game_as_a_four_player_game_gives_each_player_their_total():
    game = engine.Game(players=4)

    for player, tiles, points, _ in MOVES:
        move = game.place(tiles)
        assert (move.player, move.score) == (player, points)

    assert game.scores == [3 + 7 + 10, 7 + 6 + 9, 4 + 3 + 18, 6 + 3 + 9]
    assert game.bag == 108 - 25 - 24
    assert game.final is None
    record = engine.to_record(game, PLAYERS)
    assert [m["score"] for m in record["moves"]] == PRINTED
    again, names = engine.from_record(record)
    assert names == PLAYERS
    assert again.scores == game.scores


# The sample game in every language: the same scores, and the
# breakdowns in the rule books' own words (glossary, section 9).
BREAKDOWNS = {
    "en": ("square line 3 + red line 4 = 7",
           "crisscross line 3 + red line 6 + Qwirkle 6 + blue line 3 = 18"),
    "nl": ("rij van vierkanten 3 + rode rij 4 = 7",
           "rij van kruisen 3 + rode rij 6 + Qwirkle 6 + blauwe rij 3 = 18"),
    "de": ("Quadrat-Reihe 3 + rote Reihe 4 = 7",
           "Kreuz-Reihe 3 + rote Reihe 6 + Qwirkle 6 + blaue Reihe 3 = 18"),
    "fr": ("ligne de carrés 3 + ligne rouge 4 = 7",
           "ligne d'entrecroisements 3 + ligne rouge 6 + Qwirkle 6"
           " + ligne bleue 3 = 18"),
    "es": ("línea de cuadrados 3 + línea roja 4 = 7",
           "línea de cruces 3 + línea roja 6 + Qwirkle 6 + línea azul 3 = 18"),
}


@pytest.mark.parametrize("language", sorted(BREAKDOWNS))
def test_sample_game_replays_in_every_language_with_the_same_scores(language):
    from scorekeeper import i18n

    game = engine.Game(players=4)
    with i18n.language(language):
        said = [text.move_result(game.place(tiles)) for _, tiles, _, _ in MOVES]

    assert [move.score for move in game.moves] == PRINTED
    assert [int(line.rsplit("= ", 1)[1]) for line in said] == PRINTED
    assert (said[1], said[10]) == BREAKDOWNS[language]
    if language != "en":
        english = [text.move_result(move) for move in game.moves]
        assert all(ours != theirs for ours, theirs in zip(said, english, strict=True))
