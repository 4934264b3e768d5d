"""Teach the colours: a photo of one tile of each colour, read by
`photo.color_lessons`, names its six paints by the colour model; a photo that
does not show one tile of each colour is refused with a reason."""

from __future__ import annotations

import math
import random
from dataclasses import replace

import cv2
import numpy as np
import pytest

from scorekeeper.engine.tiles import CLASSIC
from scorekeeper.photo import LOW_CONFIDENCE, PhotoUnreadable, hues, read_move
from scorekeeper.photo.blobs import find_blobs
from scorekeeper.photo.color_lessons import (
    COLORS,
    WEIGHT,
    lessons,
    name_symbols,
    read_colors,
)
from scorekeeper.photo.decode import decode
from scorekeeper.photo.grid import detection_image
from scorekeeper.photo.lessons import PALE, Taught, lesson_sums

from . import synth, synth_real
from .teaching import (
    APART,
    FAR_SHIFTED,
    IN_A_ROW,
    REDDEST_ORANGE,
    gap,
    photo,
    scattered,
    shot,
    six,
)
from .white import WHITE_FOR_PURPLE

LIGHT_MOVES = 10
"""Degrees of hue the test sets' light moves a paint by, at most."""

EXACT = 0.01
"""Degrees within which a taught hue is the one given."""


BODY = np.full(3, 0.02)
"""A tile body's dark grey, linear RGB: a plain light."""


def name_hues(seen: list[float], saturations: list[float] | None = None
              ) -> dict[str, float]:
    """Each colour's hue as `name_symbols` names paints of these hues."""
    sats = saturations or [0.8] * len(seen)
    rgb = np.array([hues.linear(h, s, 0.6) for h, s in zip(seen, sats, strict=True)])
    named = name_symbols(rgb.reshape(-1, 3), BODY)
    return {color: seen[i] for color, i in named.items()}


@pytest.mark.parametrize("warmth", [-0.8, 0.0, 0.8], ids=["cool", "plain", "warm"])
@pytest.mark.parametrize("cells", [APART, IN_A_ROW], ids=["apart", "in a row"])
@pytest.mark.parametrize("seed", [0, 2])
def test_six_tiles_of_shifted_paint_are_named_by_their_hues(
        cells: tuple[tuple[int, int], ...], warmth: float, seed: int) -> None:
    paint = synth_real.paint(random.Random(seed), shifted=True)
    taught = read_colors(photo(six(cells, seed), seed, warmth, paint))
    assert list(taught.hues) == list(COLORS)
    assert len(taught.seen) == len(COLORS)
    for color, hue, _s, _v in paint.hsv:
        # The light moves every hue a little; the names follow the paint.
        assert gap(taught.hues[color], hue) < LIGHT_MOVES, (color, hue, taught.hues)


DARK_PAINT = [(1, 0.0, IN_A_ROW), (4, -0.8, APART), (5, 0.8, APART),
              (7, -0.8, IN_A_ROW), (9, 0.8, IN_A_ROW)]
"""(seed, warmth, cells): teaching photos in the three lights, apart and in
a row, whose darkest symbols the first pass over the photo misses."""


@pytest.mark.parametrize(("seed", "warmth", "cells"), DARK_PAINT)
def test_six_tiles_whose_dark_paint_the_first_pass_misses_are_named(
        seed: int, warmth: float, cells: tuple[tuple[int, int], ...]) -> None:
    paint = synth_real.paint(random.Random(seed), shifted=True)
    data = photo(six(cells, seed), seed, warmth, paint)
    small, _ = detection_image(decode(data))
    assert len(find_blobs(small).centres) < len(COLORS)
    taught = read_colors(data)
    assert len(taught.seen) == len(COLORS)
    for color, hue, _s, _v in paint.hsv:
        assert gap(taught.hues[color], hue) < LIGHT_MOVES, (color, hue, taught.hues)


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_six_tiles_scattered_and_turned_by_hand_are_named_too(seed: int) -> None:
    paint = synth_real.paint(random.Random(seed), shifted=True)
    tiles = six(scattered(seed), seed)
    img = synth_real.render(tiles, replace(shot(seed, 0.0), turn=25.0), seed,
                            synth_real.Real(paint))
    taught = read_colors(synth.encode(img, 90))
    for color, hue, _s, _v in paint.hsv:
        assert gap(taught.hues[color], hue) < LIGHT_MOVES, (color, hue, taught.hues)


def test_an_orange_alone_on_an_empty_board_reads_right_only_after_teaching() -> None:
    move = ((0, 0, "orange", "circle"), (0, 1, "orange", "clover"),
            (0, 2, "orange", "diamond"))
    for seed, warmth in ((1, 0.0), (1, 0.8), (2, -0.8)):
        first = photo(move, seed + 100, warmth, REDDEST_ORANGE)
        before = read_move(first, [], CLASSIC)
        # The case this teaching is for: with nothing taught, the reader takes
        # this paint for red (if it ever reads it right alone, pick a harder one).
        assert [t.color for t in before.tiles] == ["red"] * 3, "no longer a misread"
        taught = read_colors(photo(six(APART, seed), seed, warmth, REDDEST_ORANGE))
        after = read_move(first, [], CLASSIC, Taught.from_rows(
            lessons(taught.hues, paints=taught.paints)))
        assert [t.color for t in after.tiles] == ["orange"] * 3


def test_five_tiles_are_refused_with_their_count() -> None:
    five = six(APART, 3)[:5]
    with pytest.raises(PhotoUnreadable) as caught:
        read_colors(photo(five, 3, 0.0, FAR_SHIFTED))
    assert caught.value.reason == "teach_count"
    assert caught.value.params == {"count": 5, "expected": 6}


def test_two_tiles_of_one_colour_are_refused() -> None:
    colors = ("red", "orange", "yellow", "green", "blue", "blue")
    with pytest.raises(PhotoUnreadable) as caught:
        read_colors(photo(six(APART, 4, colors), 4, 0.0, FAR_SHIFTED))
    assert caught.value.reason == "teach_alike"


def test_not_a_photo_is_refused() -> None:
    with pytest.raises(PhotoUnreadable) as caught:
        read_colors(b"GIF89a not a photo")
    assert caught.value.reason == "not_an_image"


def test_paints_are_named_by_the_model_whatever_their_order() -> None:
    seen = [245.0, 16.0, 130.0, 358.0, 218.0, 47.0]
    assert name_hues(seen) == {"red": 358.0, "orange": 16.0, "yellow": 47.0,
                               "green": 130.0, "blue": 218.0, "purple": 245.0}
    # Warm light: red past 0°, orange further on.
    red = 6.0
    assert name_hues([red, 20.0, 45.0, 120.0, 215.0, 250.0])["red"] == red


def test_two_paints_the_model_calls_alike_are_told_apart_together() -> None:
    # An orange where red lies (3°, a red at 352°): each the likelier of the two.
    named = name_hues([352.0, 3.0, 44.0, 125.0, 222.0, 262.0])
    assert (named["red"], named["orange"]) == (352.0, 3.0)


@pytest.mark.parametrize("seen, reason", [
    ([0.0, 16.0, 47.0, 130.0, 218.0], "teach_count"),
    ([0.0, 16.0, 47.0, 130.0, 218.0, 245.0, 300.0], "teach_count"),
    ([0.0, 3.0, 47.0, 130.0, 218.0, 245.0], "teach_alike"),
    ([], "no_tiles"),
])
def test_hues_that_are_not_one_of_each_colour_are_refused(
        seen: list[float], reason: str) -> None:
    with pytest.raises(PhotoUnreadable) as caught:
        name_hues(seen)
    assert caught.value.reason == reason


def test_two_grey_symbols_teach_nothing() -> None:
    with pytest.raises(PhotoUnreadable) as caught:
        name_hues([0.0, 16.0, 47.0, 130.0, 218.0, 245.0], [0.8] * 4 + [0.1, 0.1])
    assert caught.value.reason == "teach_pale"


@pytest.mark.parametrize("left_out", COLORS)
def test_one_grey_symbol_is_the_colour_the_other_five_leave_out(left_out: str) -> None:
    usual = {"red": 0.0, "orange": 16.0, "yellow": 47.0, "green": 130.0,
             "blue": 218.0, "purple": 255.0}
    colours = [c for c in COLORS if c != left_out]
    # The grey symbol's hue is its light's: anywhere, here beside blue.
    seen = [usual[c] for c in colours] + [205.0]
    rgb = np.array([hues.linear(h, s, 0.6)
                    for h, s in zip(seen, [0.8] * len(colours) + [0.15], strict=True)])
    named = name_symbols(rgb, BODY)
    assert named[left_out] == len(colours)
    assert [named[c] for c in colours] == list(range(len(colours)))


def test_a_teaching_counts_as_a_few_examples_of_each_colour() -> None:
    rows = lessons(name_hues([0.0, 16.0, 47.0, 130.0, 218.0, 245.0]))
    taught = Taught.from_rows(rows).hues()
    assert {name for name in taught} == set(COLORS)
    assert all(row[2] == WEIGHT for row in rows)
    assert gap(taught["orange"], 16.0) < EXACT


def test_a_tile_whose_symbol_cannot_be_read_is_named_as_such() -> None:
    # The purple tile's symbol covered by the black of its own body (a sticker,
    # a finger): its body is there, its colour not. (Paint as dark as the
    # renderer draws it, value 0.25, is read since the dark-paint work.)
    data = photo(six(IN_A_ROW, 5), 5, 0.0, FAR_SHIFTED)
    taught = read_colors(data)
    img = cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_COLOR)
    h, w = img.shape[:2]
    at = [(s.x * w, s.y * h) for s in taught.seen]
    purple = next(s for s in taught.seen if s.hue == taught.hues["purple"])
    x, y = purple.x * w, purple.y * h
    pitch = min(math.dist((x, y), p) for p in at if p != (x, y))
    yy, xx = np.mgrid[0:h, 0:w]
    d = np.hypot(xx - x, yy - y)
    body = np.median(img[(d > 0.36 * pitch) & (d < 0.42 * pitch)], axis=0)
    img[d < 0.34 * pitch] = body
    ok, covered = cv2.imencode(".jpg", img, [cv2.IMWRITE_JPEG_QUALITY, 92])
    assert ok
    with pytest.raises(PhotoUnreadable) as caught:
        read_colors(covered.tobytes())
    assert caught.value.reason == "teach_unread"
    assert caught.value.params == {"count": 1}


# --- a set whose sixth colour is white ---

WHITE_BOARD = (
    (0, 0, "red", "circle"), (0, 1, "red", "square"), (0, 2, "red", "diamond"),
    (0, 3, "red", "clover"), (1, 0, "orange", "circle"), (2, 0, "yellow", "circle"),
    (3, 0, "purple", "circle"), (4, 0, "green", "circle"), (5, 0, "blue", "circle"),
)
"""A board with one white tile (purple's place) among the five paints."""

WHITE_MOVE = ((3, 1, "purple", "diamond"), (3, 2, "purple", "clover"))
"""Two white tiles beside the stored white one."""

LIGHTS = [(0, 0.0), (1, 0.8), (2, -0.8), (3, 0.0), (4, 0.4)]
"""(seed, warmth): plain, warm and cool light."""


def _white_move(seed: int, warmth: float) -> bytes:
    return photo(WHITE_BOARD + WHITE_MOVE, seed + 10, warmth, WHITE_FOR_PURPLE)


def _white_taught(seed: int, warmth: float) -> Taught:
    """The lessons one teaching photo of the white set gives, in this light."""
    taught = read_colors(photo(six(APART, seed), seed, warmth, WHITE_FOR_PURPLE))
    return Taught.from_rows(lessons(taught.hues, paints=taught.paints))


@pytest.mark.parametrize("seed, warmth", LIGHTS)
def test_a_white_for_purple_set_is_taught_by_one_photo_then_read_right(
        seed: int, warmth: float) -> None:
    taught = read_colors(photo(six(APART, seed), seed, warmth, WHITE_FOR_PURPLE))
    assert taught.paints["purple"][0] < PALE
    assert all(taught.paints[c][0] > PALE for c in COLORS if c != "purple")
    for color, hue, _s, _v in WHITE_FOR_PURPLE.hsv:
        if color != "purple":
            assert gap(taught.hues[color], hue) < LIGHT_MOVES, (color, hue, taught.hues)
    lessons_taught = Taught.from_rows(lessons(taught.hues, paints=taught.paints))
    assert set(lessons_taught.pale()) == {"purple"}

    reading = read_move(_white_move(seed, warmth), list(WHITE_BOARD), CLASSIC,
                        lessons_taught)
    assert sorted(t[:4] for t in reading.tiles) == sorted(WHITE_MOVE)
    assert all(t.confidence >= LOW_CONFIDENCE for t in reading.tiles)
    assert reading.matched == len(WHITE_BOARD)


OTHER_LIGHTS = [(0.0, 0.8), (0.0, -0.8), (0.8, -0.8), (-0.8, 0.8)]
"""(warmth taught in, warmth read in): plain light to a warm lamp or a
window's blue, and from either to the other."""


# A white taught by the window is bluish, the same white under a bulb
# yellowish: the taught white is not what the photo shows. The stored white
# tile in view is, in the photo's own light.
@pytest.mark.parametrize("seed", [0, 1])
@pytest.mark.parametrize(("taught_in", "read_in"), OTHER_LIGHTS)
def test_a_white_taught_in_one_light_reads_in_another_beside_a_stored_white(
        seed: int, taught_in: float, read_in: float) -> None:
    reading = read_move(_white_move(seed, read_in), list(WHITE_BOARD), CLASSIC,
                        _white_taught(seed, taught_in))
    assert sorted(t[:4] for t in reading.tiles) == sorted(WHITE_MOVE)
    assert all(t.confidence >= LOW_CONFIDENCE for t in reading.tiles)


SMALL_WHITE_BOARD = ((0, 0, "purple", "circle"), (1, 0, "yellow", "circle"),
                     (2, 0, "orange", "circle"))
"""A board of three, one of them white: the move lines up on all three."""

YELLOW_MOVE = ((1, 1, "yellow", "square"), (1, 2, "yellow", "diamond"))


# The stored white shows no paint whatever the light: it is matched, and
# the board is lined up on three tiles, not two (a loose board makes the
# new tiles unsure).
@pytest.mark.parametrize("seed", [0, 1, 2])
@pytest.mark.parametrize(("taught_in", "read_in"), OTHER_LIGHTS)
def test_a_stored_white_in_another_light_than_taught_is_matched(
        seed: int, taught_in: float, read_in: float) -> None:
    data = photo(SMALL_WHITE_BOARD + YELLOW_MOVE, seed + 40, read_in, WHITE_FOR_PURPLE)
    reading = read_move(data, list(SMALL_WHITE_BOARD), CLASSIC,
                        _white_taught(seed, taught_in))
    assert reading.matched == len(SMALL_WHITE_BOARD)
    assert sorted(t[:4] for t in reading.tiles) == sorted(YELLOW_MOVE)
    assert all(t.confidence >= LOW_CONFIDENCE for t in reading.tiles)


@pytest.mark.parametrize("seed, warmth", LIGHTS)
def test_untaught_white_tiles_are_unsure_never_confidently_wrong(
        seed: int, warmth: float) -> None:
    reading = read_move(_white_move(seed, warmth), list(WHITE_BOARD), CLASSIC)
    assert {t[:2] for t in reading.tiles} == {t[:2] for t in WHITE_MOVE}
    # A white has no hue of its own (warm light makes it yellowish, cool
    # light bluish): whatever it is named, the page asks.
    assert all(t.confidence < LOW_CONFIDENCE for t in reading.tiles)


TWO_WHITES_BOARD = WHITE_BOARD + ((3, 1, "purple", "diamond"),)
"""The board with a second white tile beside the first."""

TWO_WHITES_MOVE = ((3, 2, "purple", "clover"), (3, 3, "purple", "square"))
"""Two white tiles on the line of the stored two."""


@pytest.mark.parametrize("seed, warmth", LIGHTS)
def test_untaught_white_tiles_beside_two_stored_whites_are_read_sure(
        seed: int, warmth: float) -> None:
    # Two stored tiles of one colour, both colourless in this photo's light
    # and under no lamp, show that colour is the set's white
    # (`classify.PALE_PEERS`): one alone may be a washed print.
    data = photo(TWO_WHITES_BOARD + TWO_WHITES_MOVE, seed + 50, warmth,
                 WHITE_FOR_PURPLE)
    reading = read_move(data, list(TWO_WHITES_BOARD), CLASSIC)
    assert sorted(t[:4] for t in reading.tiles) == sorted(TWO_WHITES_MOVE)
    assert all(t.confidence >= LOW_CONFIDENCE for t in reading.tiles)
    assert reading.matched == len(TWO_WHITES_BOARD)


def test_a_confirmed_move_of_white_tiles_teaches_the_set() -> None:
    seed, warmth = 1, 0.8
    first = read_move(_white_move(seed, warmth), list(WHITE_BOARD), CLASSIC)
    confirmed = {(r, c): (color, shape) for r, c, color, shape in WHITE_MOVE}
    taught = Taught(tuple(lesson_sums([x._asdict() for x in first.looks],
                                      confirmed)))
    assert set(taught.pale()) == {"purple"}
    # The next move: a white tile and a paint one, on the board confirmed
    # (a legal move: the rules make a move they refuse unsure, RULES §3.5).
    board = WHITE_BOARD + WHITE_MOVE
    move = ((2, 2, "purple", "starburst"), (2, 3, "green", "starburst"))
    data = photo(board + move, seed + 20, warmth, WHITE_FOR_PURPLE)
    reading = read_move(data, list(board), CLASSIC, taught)
    assert sorted(t[:4] for t in reading.tiles) == sorted(move)
    assert all(t.confidence >= LOW_CONFIDENCE for t in reading.tiles)


def test_lessons_kept_before_paint_was_measured_teach_their_hue() -> None:
    old = [("color", "purple", 3, 3.0 * math.cos(math.radians(250.0)),
            3.0 * math.sin(math.radians(250.0)))]
    taught = Taught.from_rows(old)
    assert taught.pale() == {}
    assert gap(taught.hues()["purple"], 250.0) < EXACT


FIRST_MOVES = [
    ((0, 0, "purple", "circle"), (0, 1, "purple", "square"),
     (0, 2, "purple", "diamond")),
    ((0, 0, "purple", "clover"), (0, 1, "red", "clover"), (0, 2, "green", "clover")),
]
"""First moves of the white set: white tiles alone, and one among paints."""


@pytest.mark.parametrize("seed, warmth", LIGHTS[:3])
def test_a_first_move_of_white_tiles_reads_once_white_is_taught(
        seed: int, warmth: float) -> None:
    move = FIRST_MOVES[0]
    data = photo(move, seed + 30, warmth, WHITE_FOR_PURPLE)
    try:
        before = read_move(data, [], CLASSIC).tiles
    except PhotoUnreadable as exc:
        # No paint at all: taken for tile bodies, not symbols.
        assert exc.reason == "no_tiles"
    else:
        assert all(t.confidence < LOW_CONFIDENCE for t in before)
    after = read_move(data, [], CLASSIC, _white_taught(seed, warmth))
    # An empty board has no frame: the tiles come along row 0, either way.
    assert sorted(t.shape for t in after.tiles) == sorted(t[3] for t in move)
    assert all(t.color == "purple" and t.confidence >= LOW_CONFIDENCE
               for t in after.tiles)


# With no tile on the board, no white shows the photo's light: a white
# tile under a bulb is pale yellow, by the window pale blue. It shows no
# paint, and in a set taught its white that is likelier the white than the
# colour its hue points at; unsure still, as a lamp may wash a paint so.
@pytest.mark.parametrize("seed", [0, 1])
@pytest.mark.parametrize("move", FIRST_MOVES)
@pytest.mark.parametrize(("taught_in", "read_in"), OTHER_LIGHTS)
def test_a_first_move_in_another_light_than_taught_names_its_white_unsure(
        seed: int, move: tuple[tuple[int, int, str, str], ...], taught_in: float,
        read_in: float) -> None:
    data = photo(move, seed + 30, read_in, WHITE_FOR_PURPLE)
    tiles = read_move(data, [], CLASSIC, _white_taught(seed, taught_in)).tiles
    assert sorted(t[2:4] for t in tiles) == sorted(t[2:] for t in move)
    for tile in tiles:
        assert (tile.confidence < LOW_CONFIDENCE) == (tile.color == "purple")
