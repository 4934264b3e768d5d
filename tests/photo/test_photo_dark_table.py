"""A board on a table nearly as dark as its tiles' bodies: the tiles' rims
are told from the table beside them, so the move is read, sure, with no
empty cell warned of."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from scorekeeper.photo import LOW_CONFIDENCE, read_move

from . import synth, synth_real
from .helpers import BOARD, PLAIN
from .synth import Tile

MOVE: tuple[Tile, ...] = ((3, 3, "green", "circle"), (4, 3, "green", "diamond"))
"""Two tiles down from the green starburst."""


@pytest.mark.parametrize("table", [0.03, 0.035])
@pytest.mark.parametrize("seed", range(4))
def test_a_board_on_a_table_nearly_as_dark_as_its_tiles_is_read_sure(
        table: float, seed: int) -> None:
    # The table's median light is 1.5 to 4 times the tile bodies' (linear
    # 0.008-0.02): far from the tiles it reads light against its own grain,
    # beside them dark against their symbols (`cells._body_levels`).
    real = synth_real.Real(synth_real.paint(random.Random(seed)), table=table)
    shot = replace(PLAIN, tile_px=60)
    photo = synth.encode(synth_real.render(BOARD + MOVE, shot, seed, real), 90)
    reading = read_move(photo, list(BOARD))
    assert sorted(t[:4] for t in reading.tiles) == sorted(MOVE)
    assert min(t.confidence for t in reading.tiles) >= LOW_CONFIDENCE
    assert reading.unread == ()
    assert reading.glare == ()
