"""Boards in warm and cool light and in the real game's dark paint.

Each test names a kind of photo and reads the smallest photos of that kind in
the benchmark's "cool light", "warm light" or "paint shifted" set
(`kinds.of_kind`).
"""

from __future__ import annotations

import pytest

from scorekeeper.photo import PhotoUnreadable, read_move

from . import kinds, synth_real
from .synth import Tile
from .synth_real import RealCase

COOL, WARM, SHIFTED = "cool light", "warm light", "paint shifted"
DARK = 0.45
"""Paint this dark (HSV value) is about as bright as a tile body in cool
light, which turns the body bluish grey."""


def _dark(rc: RealCase, tiles: tuple[Tile, ...]) -> bool:
    return any(kinds.value(rc, t[2]) <= DARK for t in tiles)


def small_board_dark_stored(rc: RealCase) -> bool:
    """A board of at most four stored tiles, one of dark paint."""
    return 0 < len(rc.case.stored) <= 4 and _dark(rc, rc.case.stored)


def test_a_stored_tile_seen_but_not_read_does_not_refuse_the_board() -> None:
    # A dark stored tile's rim in cool light may be too light to vouch for a
    # tile, its symbol not read; with three or four stored tiles, one fewer
    # recognised was a refusal (`no_match`). A stored tile the photo shows
    # but cannot read says nothing against the board.
    for rc in kinds.of_kind(COOL, small_board_dark_stored):
        assert kinds.read_right(rc, kinds.reading(rc)), rc.case.name


def dark_move(rc: RealCase) -> bool:
    """A move of two or more onto a board, all of dark paint."""
    return (bool(rc.case.stored) and len(rc.case.move) >= 2
            and all(kinds.value(rc, t[2]) <= DARK for t in rc.case.move))


def test_dark_paint_in_cool_light_is_read_or_warned_of() -> None:
    # Dark paint on a bluish grey rim: the rim is too light to vouch for a
    # tile. Beside a tile of the move, paint on such a rim is "a tile may lie
    # here" (`unread`), and paint that joins the move to the board is read as
    # a tile, uncertain.
    for rc in kinds.of_kind(COOL, dark_move, 4):
        kinds.honest(rc, kinds.reading(rc))


def test_paint_on_a_lighter_rim_away_from_the_move_is_no_warning() -> None:
    # Rims lighter than a tile's are also table grain in bluish light:
    # warned of anywhere, they would warn of tiles that are not there. Only
    # beside a tile of the move is such a rim a warning.
    right = kinds.right_readings(COOL, lambda rc: bool(rc.case.stored), 6)
    for rc, got in right:
        assert got.unread == (), rc.case.name
    assert len(right) >= 3


def board_of_thirty(rc: RealCase) -> bool:
    """A board of thirty stored tiles or more: many cells of table beside it."""
    return len(rc.case.stored) >= 30


def test_the_tables_own_colour_on_a_half_dark_rim_is_no_paint() -> None:
    # A cell of wooden table whose dark grain darkens half its rim shows the
    # grain's lighter wood in its middle: a colour, and it passed for paint,
    # warning of a tile beside the board that is not there. Paint is unlike
    # the table in chromaticity (`blobs.TABLE_CHROMA`), as a blob of the
    # table's colour is no symbol.
    right = kinds.right_readings(COOL, board_of_thirty, 30)
    for rc, got in right:
        assert got.unread == (), rc.case.name
    assert len(right) >= 25


def lone_dark_tile(rc: RealCase) -> bool:
    """A move of one tile of dark paint."""
    return bool(rc.case.stored) and len(rc.case.move) == 1 and _dark(
        rc, rc.case.move)


def test_a_tile_unread_on_the_windows_edge_has_the_cells_beyond_it_read(
) -> None:
    # A dark arm of the board may be read as tile bodies with paint on them,
    # its end on the outermost cells read; a tile of the move beyond it would
    # never be looked at. An unread tile on the edge has the cells beyond it
    # read: the tile is read, or warned of (`unread`).
    for rc in kinds.of_kind(COOL, lone_dark_tile):
        got = kinds.reading(rc)
        kinds.read_or_warned(rc, got, got.unread)


def look_alikes(rc: RealCase) -> bool:
    """A move of one colour holding two shapes that look alike when blurred
    (clover, diamond, circle, starburst)."""
    move = rc.case.move
    alike = {"clover", "diamond", "circle", "starburst"}
    return (bool(rc.case.stored) and len({t[2] for t in move}) == 1
            and len({t[3] for t in move} & alike) >= 2)


def test_look_alikes_are_told_apart_by_what_the_rules_allow() -> None:
    # Uncertain shapes may make a reading the rules refuse (RULES §3.5: no
    # duplicate in a line). The rules pick, among what each uncertain tile
    # may be, the likeliest move they allow.
    for rc in kinds.of_kind(COOL, look_alikes):
        assert kinds.read_right(rc, kinds.reading(rc)), rc.case.name


def big_board(rc: RealCase) -> bool:
    """A board of sixty stored tiles or more."""
    return len(rc.case.stored) >= 60


def test_the_cells_beyond_a_tile_read_at_the_windows_edge_are_read_too() -> None:
    # On a big board a corner of dark paint is found only from the cells read
    # round the symbols found: its tiles lie on the edge of those cells, and
    # a tile of the move beside them lay beyond. A tile on the edge has the
    # cells one further read as well.
    for rc in kinds.of_kind(SHIFTED, big_board):
        assert kinds.read_right(rc, kinds.reading(rc)), rc.case.name


def board_of_eight(rc: RealCase) -> bool:
    """A board of six to ten stored tiles."""
    return 6 <= len(rc.case.stored) <= 10


def test_a_board_lined_up_on_only_half_its_readable_stored_tiles_is_refused(
) -> None:
    # Half the stored tiles (or one more) given kinds the photo does not
    # show: at most half lie where the placement puts them, and half is not
    # a match, however sure the new tiles look. As stored, it lines up.
    colours = ["red", "orange", "yellow", "green", "blue", "purple"]
    shapes = ["circle", "crisscross", "diamond", "square", "starburst", "clover"]
    for rc in kinds.of_kind(WARM, board_of_eight):
        stored = list(rc.case.stored)
        half = (len(stored) + 1) // 2
        stored[:half] = [(r, c, colours[(colours.index(colour) + 3) % 6],
                          shapes[(shapes.index(shape) + 3) % 6])
                         for r, c, colour, shape in stored[:half]]
        with pytest.raises(PhotoUnreadable) as err:
            read_move(synth_real.photo(rc), stored)
        assert err.value.reason == "no_match"
        assert kinds.read_right(rc, kinds.reading(rc)), rc.case.name


@pytest.mark.parametrize("condition", [WARM, COOL, SHIFTED])
def test_no_empty_cell_of_the_unlit_sets_is_taken_for_a_lamp(condition: str
                                                             ) -> None:
    # The lamp-lit rule's guard: a grey rim is lamp-lit only where no paint
    # and no wood colour is left; photos without a lamp read no glare.
    for rc in kinds.of_kind(condition, lambda rc: True, 5):
        got = kinds.refused_or_read(rc)
        assert got is None or not got.glare, rc.case.name
