"""Tiles laid loosely: a tile off its lattice point is read where its symbol
lies, or its cell is warned of; the move is never read short in silence
(CONTRACT §12, docs/PHOTO.md "What makes a tile unsure")."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from scorekeeper.photo import LOW_CONFIDENCE, PhotoUnreadable, cells, read_move
from scorekeeper.photo.reader import read_stages

from . import synth, synth_real
from .helpers import BOARD, MOVE
from .test_photo_apart import laid_apart

START: synth.Tile = (3, 3, "orange", "starburst")
"""The move's first tile, down from the board's green starburst; the move's
end tile, below it, is the one laid loosely."""

NUDGES = ((0.3, 0.2), (-0.3, 0.25), (0.32, -0.1))
"""Offsets (across, down; tiles) of the end tile from its place: a third of
a tile, past where the lattice takes a symbol in (`grid.ON_LATTICE`)."""


APART = NUDGES[:2]
"""The nudges that move the end tile away from the tile before it: table
lies all round it."""

AGAINST = ((0.3, 0.0), (-0.3, 0.0), (0.2, 0.0), (-0.4, 0.0))
"""Nudges across the line alone: the end tile still touches the tile
before it, its body one dark patch with that one's."""

HIDDEN = 0.15
"""HSV value of paint as dark as a tile body (the realistic renders shade
bodies 0.008–0.02 in linear light, 0.11–0.17 in sRGB): a symbol not seen."""


def _loose_photo(move: tuple[synth.Tile, ...], seed: int, nudge: tuple[float, float],
                 monkeypatch: pytest.MonkeyPatch, board: tuple[synth.Tile, ...] = BOARD,
                 hidden: str | None = None) -> bytes:
    """A realistic photo of the board and move, the move's end tile laid
    `nudge` off its place, the rest where they belong; `hidden`: a colour
    whose paint is as dark as its tile body."""
    drawn = synth_real.layout

    def nudged(tiles: tuple[synth.Tile, ...], shot: synth.Shot, seed: int,
               glare: bool) -> synth_real.Layout:
        out = drawn(tiles, shot, seed, glare)
        *rest, (_, _, turn, shade) = out.placed
        return replace(out, placed=(*rest, (*nudge, turn, shade)))

    monkeypatch.setattr(synth_real, "layout", nudged)
    rng = random.Random(seed)
    paint = synth_real.paint(rng)
    if hidden:
        paint = synth_real.Paint(tuple(
            (name, hue, sat, HIDDEN if name == hidden else value)
            for name, hue, sat, value in paint.hsv))
    shot = synth.Shot(tile_px=rng.choice([40, 60, 80]), angle=rng.uniform(0, 90),
                      jitter=0.0, turn=2.0, jpeg=90, margin=0.15)
    real = synth_real.Real(paint)
    return synth.encode(synth_real.render(board + move, shot, seed, real), 90)


# The end tile in a light paint, and in the darkest the realistic renders
# print (purple), which the symbol finder's first pass can miss.
@pytest.mark.parametrize(("colour", "seed"), [*(("yellow", s) for s in range(4)),
                                              *(("purple", s) for s in range(4, 12))])
def test_a_tile_laid_off_its_place_is_read_or_warned_of_never_dropped(
        colour: str, seed: int, monkeypatch: pytest.MonkeyPatch) -> None:
    move = (START, (4, 3, colour, "starburst"))
    end = move[-1][:2]
    read_there = 0
    for nudge in NUDGES:
        reading = read_move(_loose_photo(move, seed, nudge, monkeypatch), list(BOARD))
        read_at = {(t.row, t.col) for t in reading.tiles}
        assert end in read_at or end in reading.unread, (nudge, reading.tiles)
        read_there += end in read_at
        for tile in reading.tiles:
            # Read wrong is read uncertain (a red and an orange alone).
            assert tile[:4] in move or tile.confidence < LOW_CONFIDENCE, tile
    # Its symbol is found: the tile is read where it lies, not only warned of.
    assert read_there == len(NUDGES)


# A first move, and a move on the board; the hidden tile's colour differs
# from the tile it lies beside. Apart, its body alone, table all round it,
# shows it; against its neighbour, one dark patch with that one's, its
# share of its own cell's rim does.
@pytest.mark.parametrize(("board", "move"), [
    ((), ((0, 0, "yellow", "clover"), (1, 0, "green", "clover"),
          (2, 0, "orange", "clover"))),
    (BOARD, (START, (4, 3, "blue", "starburst"))),
], ids=["first move", "on the board"])
@pytest.mark.parametrize("nudges", [APART, AGAINST], ids=["apart", "against"])
@pytest.mark.parametrize("seed", range(4))
def test_a_tile_laid_loosely_with_its_symbol_unseen_is_read_or_warned_of(
        board: tuple[synth.Tile, ...], move: tuple[synth.Tile, ...],
        nudges: tuple[tuple[float, float], ...], seed: int,
        monkeypatch: pytest.MonkeyPatch) -> None:
    for nudge in nudges:
        photo = _loose_photo(move, seed, nudge, monkeypatch, board,
                             hidden=move[-1][2])
        reading = read_move(photo, list(board))
        # Never a move read short in silence.
        assert len(reading.tiles) == len(move) or reading.unread, (nudge, reading)
        for tile in reading.tiles:
            assert tile[2:4] in {t[2:] for t in move} \
                or tile.confidence < LOW_CONFIDENCE, (nudge, tile)


# A dark wooden table's grain can darken half a cell's rim beside the move
# as a tile leaning on its neighbour does; the body model tells the grain
# from a tile body (`cells.BODIED`): on a board on dark wood, no cell where
# no tile lies is taken for a tile body. (A photo may be refused for a stray
# symbol another stage finds in the grain.)
DARK_WOOD = (0.06, 0.1)
"""The tables' median light (linear, `synth_real.Real.table`): the darkest
wood `synth.wood` draws and darker."""


def test_dark_wood_beside_the_move_is_not_taken_for_a_tile() -> None:
    read = 0
    for table in DARK_WOOD:
        for seed in range(4):
            try:
                stages = read_stages(laid_apart(seed, 1.0, table=table), list(BOARD))
            except PhotoUnreadable:
                continue
            read += 1
            assert stages.placement is not None
            tiles = {(r, c) for r, c, *_ in BOARD + MOVE}
            taken = [key for key, cell in stages.cells.items()
                     if stages.placement.to_board(key) not in tiles
                     and cell.bodied >= cells.BODIED]
            assert taken == [], (table, seed)
    assert read >= 3 * len(DARK_WOOD)


# A first move of three whose middle symbol is unseen: the two symbols
# found lie two tiles apart. With the end tile laid loosely, the lattice
# halved between them reads no tile in the middle cell, but the paint seen
# on its rim says one lies there. The ends are read two apart and the
# middle read or warned of, or the photo is refused; never two tiles side
# by side.
@pytest.mark.parametrize("seed", range(6))
def test_a_line_whose_middle_symbol_is_unseen_keeps_its_ends_two_apart(
        seed: int, monkeypatch: pytest.MonkeyPatch) -> None:
    move = ((0, 0, "yellow", "clover"), (1, 0, "red", "clover"),
            (2, 0, "green", "clover"))
    for nudge in NUDGES:
        photo = _loose_photo(move, seed, nudge, monkeypatch, (), hidden="red")
        try:
            reading = read_move(photo, [])
        except PhotoUnreadable:
            continue
        assert len(reading.tiles) == len(move) or reading.unread, (nudge, reading)
        at = {tile[2:4]: (tile.row, tile.col) for tile in reading.tiles}
        ends = [at[end[2:]] for end in (move[0], move[-1]) if end[2:] in at]
        if len(ends) == 2:
            (r0, c0), (r1, c1) = ends
            assert abs(r0 - r1) + abs(c0 - c1) == len(move) - 1, (nudge, reading)
        for tile in reading.tiles:
            assert tile[2:4] in {t[2:] for t in move} \
                or tile.confidence < LOW_CONFIDENCE, (nudge, tile)
