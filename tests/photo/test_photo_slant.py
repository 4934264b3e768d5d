"""Photos taken at a slant: a phone held 40-50° from straight down, as by a
player seated at the table, shows the board's cells oblong, those nearer
the camera larger, its rows no longer square to each other
(docs/PHOTO.md, "A photo taken at a slant")."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from scorekeeper.photo import LOW_CONFIDENCE, PhotoReading, PhotoUnreadable, read_move

from . import kinds
from .helpers import BOARD, MOVE, photo_of

SEEDS = range(16)
"""The boards drawn at each slant: each turned and tilted its own way."""

MOST = 14
"""Of the 16, read right and sure at least (16 at 40°, 14 at 45° when this
was written; 15 and 13 with the step measured along the rows where it was
across them, 11 and 9 with square cells assumed)."""


def _readings(slant: float) -> Iterator[PhotoReading]:
    """The readings of the boards drawn at `slant` degrees that are read."""
    for seed in SEEDS:
        photo = photo_of(BOARD + MOVE, seed, slant=slant,
                         slant_axis=(seed * 37) % 360, angle=(seed * 23) % 90)
        try:
            yield read_move(photo, list(BOARD))
        except PhotoUnreadable:
            continue


@pytest.mark.parametrize("slant", [40.0, 45.0])
def test_boards_photographed_at_a_steep_slant_are_read_each_tile_as_promised(
        slant: float) -> None:
    right = 0
    for reading in _readings(slant):
        kinds.honest_move(MOVE, reading)
        read = sorted(t[:4] for t in reading.tiles) == sorted(MOVE)
        flagged = bool(reading.unread or reading.glare) or any(
            t.confidence < LOW_CONFIDENCE for t in reading.tiles)
        right += read and not flagged
    assert right >= MOST


def test_boards_photographed_at_a_steeper_slant_miss_no_tile_in_silence() -> None:
    # At 50° the lattice may fall short of the move: a symbol found beyond
    # the cells read is warned of.
    for reading in _readings(50.0):
        kinds.honest_move(MOVE, reading)
