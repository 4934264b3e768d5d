"""The stored tiles a photo shows, labelled as a table's confirmed move
labels them: the reader lines the photo up on the stored board
(`reader.Stages.placement`), and each stored tile it names the colours by
(`reader.Stages.examples`) is an example of its stored kind, cut by the
reader's own stages.
The training scripts learn from them (`train_shapes.py`, `colour_crops.py`),
and `bench_red_orange.py` names them again.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import cast

from scorekeeper.photo import PhotoUnreadable
from scorekeeper.photo.reader import Stages, read_stages
from scorekeeper.photo.reading import Cell
from scorekeeper.photo.tiles import ReadTile

Labelled = dict[Cell, tuple[ReadTile, tuple[str, str]]]
"""Each stored tile read, by its cell of the photo's grid, with its stored
(colour, shape)."""


def labelled(image: bytes, stored: Sequence[tuple[int, int, str, str]]
             ) -> tuple[Stages, Labelled] | None:
    """What the reader's stages gave on a photo, and the stored tiles it
    shows; None where it reads no move there or shows no stored tile."""
    try:
        stages = read_stages(image, list(stored))
    except PhotoUnreadable:
        return None
    if stages.placement is None:
        return None
    board = {(r, c): (color, shape) for r, c, color, shape in stored}
    at = stages.placement.to_board
    out = {key: (stages.tiles[key], board[at(key)])
           for key in (cast(Cell, e.key) for e in stages.examples)}
    return (stages, out) if out else None
