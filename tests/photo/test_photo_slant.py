"""Photos taken at a slant: a phone held 40-55° from straight down, as by a
player seated at the table, shows the board's cells oblong, those nearer
the camera larger, its rows no longer square to each other; held close
over the near edge, it shows the far tiles at half the near ones' size
and less (docs/PHOTO.md, "A photo taken at a slant";
benchmarks/bench_slants.py measures more slants and sizes)."""

from __future__ import annotations

import math
from collections.abc import Iterator
from dataclasses import replace

import cv2
import numpy as np
import pytest

from scorekeeper.photo import PhotoReading, PhotoUnreadable, read_move
from scorekeeper.photo.blobs import find_blobs
from scorekeeper.photo.grid import SLANTED, _unslanted, detection_image

from . import kinds, synth, synth_real
from .helpers import BOARD, MOVE, PLAIN, photo_of
from .test_photo_real import REAL_GAME

SEEDS = range(16)
"""The boards drawn at each slant: each turned and tilted its own way."""

MOST = 14
"""Of the 16, read right and sure at least (16 at 40°, 14 at 45° when this
was written; 15 and 13 with the step measured along the rows where it was
across them, 11 and 9 with square cells assumed)."""


STEEPEST_MOST = 4
"""Of the 16 drawn at 60°, read right and sure at least (4 when this was
written; none with the lattice grown on the photo's cells alone)."""


CLOSE_SEEDS = range(12)
"""The boards of real-looking tiles photographed close at each slant."""

CLOSE_MOST = 8
"""Of the 12 taken close with the top corners moved in by 0.3, read right
and sure at least (8 when this was written; 4 with a homography refused
where its near cells passed three steps, and one tile missing unwarned)."""

DARK_CLOSE = 20
"""The realistic set's dark-paint boards taken close, its first ones (the
benchmark's `paint shifted` photos 0-19, keystoned)."""

FIRST = "first move crisscross"
FIRST_CLOSE = 40
"""The realistic set's first moves taken close, its first ones (the
benchmark's `first move crisscross` photos 0-39, keystoned)."""

FOUR = 4
"""Tiles in a line from which three symbols or more are found to show how
its steps shorten (a line of three may show two)."""


def turn_and_tilt(seed: int) -> dict[str, float]:
    """The way a seed turns the board and tilts the camera (`synth.Shot`)."""
    return {"slant_axis": (seed * 37) % 360, "angle": (seed * 23) % 90}


def drawn_at(slant: float, seed: int) -> bytes:
    """The test board drawn at `slant` degrees, turned and tilted the
    seed's own way."""
    return photo_of(BOARD + MOVE, seed, slant=slant, **turn_and_tilt(seed))


def taken_close(inset: float, seed: int, pixels: float = 60) -> bytes:
    """The test board in the real game's paint, photographed close from a
    slant: drawn from above (tiles `pixels` across), the photo's top corners
    moved in by `inset` of its width, so the board's far tiles show at half
    the near ones' size and less."""
    shot = replace(PLAIN, tile_px=pixels, angle=seed * 7 % 10 - 5)
    img = synth_real.render(BOARD + MOVE, shot, seed, synth_real.Real(REAL_GAME))
    return synth.encode(synth.keystone(img, inset), 90)


def _read(photos: Iterator[bytes]) -> Iterator[PhotoReading]:
    """The readings of the photos of the test board that are read."""
    for photo in photos:
        try:
            yield read_move(photo, list(BOARD))
        except PhotoUnreadable:
            continue


def _readings(slant: float) -> Iterator[PhotoReading]:
    """The readings of the boards drawn at `slant` degrees that are read."""
    return _read(drawn_at(slant, seed) for seed in SEEDS)


def _close_readings(inset: float) -> Iterator[PhotoReading]:
    """The readings of the boards taken close with `inset` that are read."""
    return _read(taken_close(inset, seed) for seed in CLOSE_SEEDS)


def _right_as_promised(readings: Iterator[PhotoReading]) -> int:
    """How many readings are right and sure, every one keeping the per-tile
    promise (`kinds.honest_move`)."""
    right = 0
    for reading in readings:
        kinds.honest_move(MOVE, reading)
        right += kinds.right_and_sure(MOVE, reading)
    return right


@pytest.mark.parametrize("slant", [40.0, 45.0])
def test_boards_photographed_at_a_steep_slant_are_read_each_tile_as_promised(
        slant: float) -> None:
    assert _right_as_promised(_readings(slant)) >= MOST


@pytest.mark.parametrize("inset", [0.3])
def test_boards_photographed_close_at_a_slant_are_read_in_perspective(
        inset: float) -> None:
    # The near cells grow past three steps: the homography that explains
    # every symbol is the board's perspective, not a degenerate fit.
    assert _right_as_promised(_close_readings(inset)) >= CLOSE_MOST


@pytest.mark.parametrize("slant", [50.0, 55.0])
def test_boards_photographed_at_a_steeper_slant_miss_no_tile_in_silence(
        slant: float) -> None:
    # The lattice may fall short of the move (a symbol found beyond the
    # cells read is warned of) or drift off the board's far end (a symbol
    # read nearer another cell's lattice point than its own is doubted).
    _right_as_promised(_readings(slant))


@pytest.mark.parametrize("inset", [0.35, 0.4])
def test_boards_photographed_close_at_a_steeper_slant_miss_no_tile_in_silence(
        inset: float) -> None:
    # Near the camera the lattice's cells fall short of the tiles: a symbol
    # found on a cell that reads no tile is warned of, however far it lies
    # from the tiles read.
    _right_as_promised(_close_readings(inset))


def test_dark_paint_photographed_close_misses_no_far_tile_in_silence() -> None:
    # The realistic set's darkest paint (`paint shifted`), keystoned 0.35:
    # a far tile's dark symbol, a third of its near size, may go unfound
    # one cell beyond the cells read. Reading one cell wider shows its body;
    # that window's levels may lose a tile elsewhere, and its ring is kept.
    for rc in synth_real.real_cases("paint shifted", kinds.REAL_SEED, DARK_CLOSE):
        try:
            kinds.honest(rc, read_move(synth_real.photo(rc, keystone=0.35),
                                       list(rc.case.stored)))
        except PhotoUnreadable:
            continue


@pytest.mark.parametrize("inset", [0.3, 0.35])
def test_a_first_move_of_four_photographed_close_misses_no_far_tile_in_silence(
        inset: float) -> None:
    # No stored board to line up on: the line's symbols fit even steps,
    # which the photo shortens toward its far end, and the far end tile's
    # cell falls past it. The steps shortened as the symbols read show
    # (`grid.foreshortened`) put a cell on it, warned of where it may hide a
    # tile.
    for rc in synth_real.real_cases(FIRST, kinds.REAL_SEED, FIRST_CLOSE):
        if len(rc.case.move) < FOUR:
            continue
        try:
            kinds.honest_line(rc, read_move(synth_real.photo(rc, keystone=inset), []))
        except PhotoUnreadable:
            continue


def test_boards_photographed_at_the_steepest_slant_are_read_where_it_is_undone(
        ) -> None:
    # At 60° from straight down the rows lie closer than a symbol is wide:
    # no lattice of the photo's own cells grows over them; undone as the
    # symbols' own shapes show it (`grid._unslanted`), one does.
    assert _right_as_promised(_readings(60.0)) >= STEEPEST_MOST


@pytest.mark.parametrize("tilt", [0.0, 20.0, 40.0, 55.0, 65.0])
@pytest.mark.parametrize("towards", [0.0, 30.0, 90.0])
def test_the_slant_is_undone_as_far_as_the_symbols_show_it(
        tilt: float, towards: float) -> None:
    # Symbols as wide every way on their tiles, foreshortened by cos(tilt)
    # towards a direction: the map stretches them back that way alone, and
    # leaves a photo taken less slanted than `SLANTED` as it is.
    squash = math.cos(math.radians(tilt))
    cos, sin = math.cos(math.radians(towards)), math.sin(math.radians(towards))
    turn = np.array([[cos, -sin], [sin, cos]])
    seen = turn @ np.diag([1.0, squash ** 2]) @ turn.T / (1 + squash ** 2)
    spreads = np.repeat(seen[None], 5, axis=0)
    undone = _unslanted(spreads)
    if squash ** 2 >= SLANTED:
        assert np.allclose(undone, np.eye(2))
        return
    along, across = turn[:, 0], turn[:, 1]
    assert np.allclose(undone @ along, along)
    assert np.allclose(undone @ across, across / squash)


@pytest.mark.parametrize("slant", [0.0, 40.0, 50.0, 60.0])
@pytest.mark.parametrize("seed", [1, 3])
def test_the_symbols_of_a_board_drawn_at_a_slant_show_how_slanted(
        slant: float, seed: int) -> None:
    # Foreshortened by cos(slant) one way, the symbols' shapes give the
    # stretch that undoes it (1/cos(slant)) to within a twentieth.
    photo = drawn_at(slant, seed)
    img = cv2.imdecode(np.frombuffer(photo, np.uint8), cv2.IMREAD_COLOR)
    undone = _unslanted(find_blobs(detection_image(img)[0]).spreads)
    stretch = float(np.linalg.eigvalsh(undone)[-1])
    assert stretch == pytest.approx(1 / math.cos(math.radians(slant)), rel=0.05)
