"""A board turned to the photo's frame, its symbols as large on their tiles
as a real set's: a symbol is found at any turn, so the move is read whole.

Turned about 45°, the box round a large symbol reaches past its tile's
corners onto the table (or the gap to the next tile) while the ring round
it stays on the tile (`blobs.ENCLOSED`); with the ring's test left out,
6 of these 36 boards are refused (tiles 60 and 100 pixels, turned 40°
and 45°).
"""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from scorekeeper.photo import read_move

from . import synth, synth_real
from .helpers import PLAIN
from .synth import Tile

STORED: tuple[Tile, ...] = tuple(
    (0, col, colour, "circle") for col, colour in enumerate(
        ("red", "orange", "yellow", "green", "blue", "purple")))
"""A line of six circles: the largest round symbols."""

MOVE: tuple[Tile, ...] = ((1, 3, "green", "square"), (2, 3, "green", "diamond"))
"""Two tiles down from the green circle."""

REAL = synth_real.Real(synth_real.paint(random.Random(5)), fill=1.0, circle=1.2)
"""Real paint, its symbols as large on their tiles as a real set's."""


@pytest.mark.parametrize("pixels", [60.0, 100.0])
@pytest.mark.parametrize("angle", [40.0, 45.0, 50.0])
@pytest.mark.parametrize("seed", range(6))
def test_a_board_turned_half_a_quarter_with_large_circles_is_read_whole(
        pixels: float, angle: float, seed: int) -> None:
    shot = replace(PLAIN, angle=angle, tile_px=pixels)
    photo = synth.encode(synth_real.render(STORED + MOVE, shot, seed, REAL), 90)
    reading = read_move(photo, list(STORED))
    assert sorted(t[:4] for t in reading.tiles) == sorted(MOVE)
