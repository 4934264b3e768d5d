"""First moves of real tiles: an empty board, so the tiles alone set the grid.

Each test names a kind of first move and reads the smallest photos of that
kind in the benchmark's "first move crisscross" set (`kinds.of_kind`).
"""

from __future__ import annotations

import pytest

from scorekeeper.photo import LOW_CONFIDENCE, PhotoUnreadable, read_move, reader

from . import kinds, synth_real
from .synth_real import RealCase

FIRST = "first move crisscross"
STARS = ("crisscross", "starburst")
DARK = 0.4
"""Paint this dark (HSV value) is hard to find on a dark tile body: the
real game's darkest paint is 0.3 (`synth_real.SHIFTED`)."""

SMALL = 45
"""Tile edge (photo pixels) under which a symbol is a few dozen pixels."""


def _colours(rc: RealCase) -> list[str]:
    return [t[2] for t in rc.case.move]


def _read_right(rc: RealCase) -> None:
    assert kinds.read_right(rc, kinds.reading(rc)), rc.case.name


def middle_dark(rc: RealCase) -> bool:
    """Three tiles whose middle one's paint is dark."""
    return len(rc.case.move) == 3 and kinds.value(rc, _colours(rc)[1]) <= DARK


def test_three_tiles_whose_middle_symbol_is_not_found_are_read_as_three() -> None:
    # Dark paint on a dark tile body is often not found. The two symbols
    # found then lie two tiles apart, and their distance was taken for one
    # tile's step: two neighbours read, the middle tile missing with no word.
    # Symbols are far smaller than such a step, so the cells are read at half
    # of it, and the tile between them is read.
    for rc in kinds.of_kind(FIRST, middle_dark):
        _read_right(rc)


def test_a_reading_of_grey_tile_bodies_is_refused_not_a_move(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Without the step of two, the cells of a line whose middle symbol is not
    # found fall on grey tile bodies between the symbols. No paint is grey: a
    # reading with no colour in it is refused, never a move of guesses.
    monkeypatch.setattr(reader, "STEP_OF_TWO", 0.0)
    for rc in kinds.of_kind(FIRST, middle_dark):
        try:
            got = read_move(synth_real.photo(rc), [])
        except PhotoUnreadable:
            continue
        kinds.honest(rc, got)


def small_with_dark_inside(rc: RealCase) -> bool:
    """Small tiles, three or more, one inside the line of dark paint."""
    move = rc.case.move
    return rc.case.shot.tile_px < SMALL and len(move) >= 3 and any(
        kinds.value(rc, t[2]) <= DARK for t in move[1:-1])


def test_small_symbols_two_tiles_apart_set_the_lattice() -> None:
    # The symbols found lie two tiles apart, 3.5-4 of their own extents: a
    # nearest neighbour is a lattice step only within a few extents, so two
    # steps are looked for too, and the step of two reads the tiles between.
    for rc in kinds.of_kind(FIRST, small_with_dark_inside):
        _read_right(rc)


def lone_small(rc: RealCase) -> bool:
    """One small tile."""
    return len(rc.case.move) == 1 and rc.case.shot.tile_px < SMALL


def test_a_speck_of_grain_beside_a_lone_symbol_sets_no_lattice() -> None:
    # Looking again for dark paint finds specks of table grain a third of a
    # symbol's size; one inside the tile and the symbol would set a step of
    # half a tile. Symbols a tile apart lie further apart than either is
    # wide: the lone tile is read.
    for rc in kinds.of_kind(FIRST, lone_small):
        _read_right(rc)


def red_and_orange_alike(rc: RealCase) -> bool:
    """A line of one shape holding both red and orange."""
    return len({t[3] for t in rc.case.move}) == 1 and {"red", "orange"} <= set(
        _colours(rc))


def test_a_red_and_an_orange_read_alike_are_told_apart_by_the_rules() -> None:
    # Red and orange paint lie 10-20° of hue apart, and both may be named
    # alike. One shape, so the colours all differ (RULES §3.5): two alike are
    # one misread, both are marked uncertain, and the likeliest line the rules
    # allow is read.
    for rc in kinds.of_kind(FIRST, red_and_orange_alike, 4):
        _read_right(rc)


def turned(rc: RealCase) -> bool:
    """One tile, the photo turned 20-45° off the tile's edges."""
    return len(rc.case.move) == 1 and kinds.off_upright(rc) >= 20


def test_a_lone_tile_turned_in_the_photo_is_read_at_its_own_angle() -> None:
    # The dark table round a lone tile can pass for its body: a "body" the
    # size of the search window, upright, and the symbol read turned off the
    # grid, as another shape. A body that fills its window is no body: the
    # tile is found against the table round it, at its angle.
    for rc in kinds.of_kind(FIRST, turned, 4):
        _read_right(rc)


def turned_45_small(rc: RealCase) -> bool:
    """One small tile turned about 45° in the photo."""
    return (len(rc.case.move) == 1 and kinds.off_upright(rc) >= 35
            and rc.case.shot.tile_px < SMALL)


def test_a_lone_symbol_on_a_tile_turned_45_degrees_is_found() -> None:
    # A crisscross's arms reach near its tile's corners, and turned 45° the
    # upright box round the symbol has its corners on the table. The box is
    # widened by only a sixth of the symbol's size and asked to be mostly
    # dark, so the symbol still counts as enclosed by its tile body, at the
    # photo's dark level or, dark paint, at a lower one.
    for rc in kinds.of_kind(FIRST, turned_45_small, 4):
        _read_right(rc)


def blurred_dark_star(rc: RealCase) -> bool:
    """Small, blurred tiles, one a dark crisscross or starburst."""
    shot = rc.case.shot
    return shot.tile_px < SMALL and shot.blur >= 1.0 and any(
        t[3] in STARS and kinds.value(rc, t[2]) <= DARK for t in rc.case.move)


def test_a_blurred_dark_star_keeps_its_arms_and_points() -> None:
    # At the photo's own dark level, set for the whole photo, blur fills the
    # gaps between a dark star's arms: a crisscross read as a square, a
    # starburst as a circle. The shape is outlined at the symbol's own level
    # over its tile body.
    for rc in kinds.of_kind(FIRST, blurred_dark_star):
        got = kinds.reading(rc)
        assert sorted(t.shape for t in got.tiles) == sorted(
            t[3] for t in rc.case.move)


def small_and_very_dark(rc: RealCase) -> bool:
    """Two small tiles, one of very dark paint."""
    return (len(rc.case.move) == 2 and rc.case.shot.tile_px < 40
            and min(kinds.value(rc, c) for c in _colours(rc)) <= 0.35)


def test_a_speck_of_a_dark_symbol_does_not_hide_the_symbol() -> None:
    # A few pixels of a very dark symbol lighter than the photo's usual
    # level are a speck too small for a symbol; it must not stop the cell
    # from looking for the symbol against its body. The dark tile is read,
    # its shape right; its colour right, or marked uncertain with the right
    # kind among its likely ones (dark paints look alike).
    for rc in kinds.of_kind(FIRST, small_and_very_dark):
        got = kinds.reading(rc)
        assert len(got.tiles) == 2
        want = sorted(rc.case.move, key=lambda t: kinds.value(rc, t[2]))[0]
        dark = [t for t in got.tiles if t.shape == want[3]]
        assert dark
        assert any(t.color == want[2] or (
            t.confidence < LOW_CONFIDENCE and want[2:] in t.likely) for t in dark)


def one_colour(rc: RealCase) -> bool:
    """Three or four tiles of one colour."""
    return len(rc.case.move) >= 3 and len(set(_colours(rc))) == 1


def test_no_fleck_between_symbols_of_one_colour_halves_the_step() -> None:
    # Tiles of one colour differ in shape alone, so every symbol must be
    # found; a fleck of a symbol's bevel, lighter than the body round it,
    # lies half a step from its neighbours and must not pass for a symbol
    # (the lattice would take half the step).
    for rc in kinds.of_kind(FIRST, one_colour, 4):
        _read_right(rc)


def with_orange(rc: RealCase) -> bool:
    """Three or four tiles, one orange: the colour of much wood."""
    return len(rc.case.move) >= 3 and "orange" in _colours(rc)


def test_a_painted_symbol_on_a_half_dark_rim_beside_the_move_is_a_warning(
) -> None:
    # An orange tile on orange wood has a rim barely darker than the table:
    # too light to vouch for a tile. Its symbol is still looked at: a painted
    # symbol on a half-dark rim beside the move is an `unread` warning (not a
    # tile: such rims are also table grain and tile edges).
    for rc in kinds.of_kind(FIRST, with_orange, 4):
        got = kinds.reading(rc)
        assert kinds.read_right(rc, got) or got.unread
