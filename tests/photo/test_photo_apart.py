"""Tiles laid apart, table between every two (a printed board whose cells are
larger than its tiles, or a loose hand): each cell is read at its tile's
own size, and the move is read or its doubt said, never refused for a line
the rim of table made look broken (docs/PHOTO.md, "Tiles laid apart")."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from scorekeeper.photo import PhotoUnreadable, read_move
from scorekeeper.photo.decode import decode
from scorekeeper.photo.grid import find_grid

from . import kinds, synth, synth_real
from .helpers import BOARD, MOVE

APART = 0.75
"""A tile's size over the step it is laid at: a quarter of a tile's size
between two tiles. Tiles laid touching are 1."""

DARK_WOOD = (0.05, 0.1)
"""Median light (linear) of dark wooden tables (`synth_real.Real.table`):
3 to 10 times the tile bodies', their grain dark enough to join the
bodies in both dark masks."""

LOOSE_PHOTOS = 30
"""The first of the loose board set's photos laid apart that
`benchmarks/bench_apart.py` reads."""


def laid_apart(seed: int, apart: float, first: bool = False,
               table: float | None = None) -> bytes:
    """The test board and move (the move alone for `first`), realistic
    tiles laid `apart`, at the seed's size, turn and slant; `table`: the
    table's light (`synth_real.Real.table`)."""
    rng = random.Random(seed)
    shot = synth.Shot(tile_px=rng.choice([50, 70, 90]), angle=rng.uniform(0, 90),
                      slant=rng.uniform(0, 10), jpeg=90, margin=0.15)
    real = synth_real.Real(synth_real.paint(rng), apart=apart, table=table)
    return synth.encode(synth_real.render(MOVE if first else BOARD + MOVE, shot,
                                          seed, real), 90)


@pytest.mark.parametrize("seed", range(16))
def test_tiles_laid_apart_are_read_as_the_move_or_doubted(seed: int) -> None:
    # Read at the step alone, a rim of table round every tile made cells
    # read empty: 2 of these 16 boards, and 2 of the 16 first moves below,
    # were refused as not one line.
    try:
        got = read_move(laid_apart(seed, APART), list(BOARD))
    except PhotoUnreadable as error:
        pytest.fail(f"refused: {error.reason}")
    kinds.honest_move(MOVE, got)


@pytest.mark.parametrize("seed", range(16))
def test_a_first_move_laid_apart_is_read_in_one_line(seed: int) -> None:
    got = read_move(laid_apart(seed, APART, first=True), [])
    # An empty board has no frame: the line is read from either end.
    ways = [[(0, i, *tile[2:]) for i, tile in enumerate(line)]
            for line in (MOVE, MOVE[::-1])]
    at_start = {tile[:4] for tile in got.tiles if tile[:2] == (0, 0)}
    kinds.honest_move(next((way for way in ways if way[0] in at_start), ways[0]), got)


def test_the_tiles_size_is_measured_only_where_they_lie_apart() -> None:
    seeds = range(16)
    # Laid touching, tile bodies merge: the step is the tile's size.
    assert {find_grid(decode(laid_apart(seed, 1.0))).tile for seed in seeds} == {1.0}
    # Laid apart, a body stands alone where the photo's dark finds it whole:
    # on 10 of these 16 boards three bodies or more.
    apart = [find_grid(decode(laid_apart(seed, APART))).tile for seed in seeds]
    measured = [tile for tile in apart if tile != 1.0]
    assert len(measured) >= len(apart) / 2
    assert all(APART - 0.05 < tile < APART + 0.05 for tile in measured), measured


@pytest.mark.parametrize("table", DARK_WOOD)
def test_tiles_laid_apart_on_dark_wood_are_measured_body_by_body(table: float) -> None:
    # The masks outlined a lone body on 1 of these 16 boards: each was read
    # at the step, its rims on the table, 4 of them unsure.
    seeds = range(8)
    photos = [laid_apart(seed, APART, table=table) for seed in seeds]
    apart = [find_grid(decode(photo)).tile for photo in photos]
    measured = [tile for tile in apart if tile != 1.0]
    assert len(measured) >= 0.75 * len(apart), apart
    assert all(APART - 0.05 < tile < APART + 0.05 for tile in measured), measured
    for photo in photos:
        kinds.honest_move(MOVE, read_move(photo, list(BOARD)))


@pytest.mark.parametrize("index", range(LOOSE_PHOTOS))
def test_a_loose_board_laid_apart_misses_no_tile_in_silence(index: int) -> None:
    # Tiles of dark paint at a loose board's end, laid apart on wood whose
    # grain joins their bodies: read at their own size, or warned of,
    # never missed in silence (docs/PHOTO.md, "Tiles laid apart").
    rc = kinds.cases("loose board")[index]
    rc = replace(rc, real=replace(rc.real, apart=APART))
    try:
        got = read_move(synth_real.photo(rc), list(rc.case.stored))
    except PhotoUnreadable:
        return  # a refusal says what to do: no tile is missed in silence
    (kinds.honest if rc.case.stored else kinds.honest_line)(rc, got)
