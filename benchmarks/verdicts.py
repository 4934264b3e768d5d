"""What a reading of a photo counts as, against the move the photo shows: one
definition for every photo benchmark (`bench_photo.py`, `real_photos.py`).

- right: exactly the move's tiles, none marked uncertain, no warning (glare
  or an unread tile body, which the page shows);
- confident wrong: read, not the move, and a flaw nothing points at: a tile
  read wrong (or where none is) not marked uncertain, or a tile of the move
  missing with no warning on the reading;
- unsure: the rest that is read (the move with a doubt or a warning, or a
  wrong reading whose every flaw is marked);
- refused: the photo could not be read (`PhotoUnreadable`).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from scorekeeper.photo import PhotoReading, PhotoTile

Tile = tuple[int, int, str, str]

KINDS = ("right", "unsure", "confident wrong", "refused")


def exact(got: Iterable[Sequence[object]], wants: Iterable[Iterable[Tile]]) -> bool:
    """Whether the tiles read are one of the readings that count as the move
    (a first move's either way round), doubts and warnings aside."""
    read = sorted(tuple(t[:4]) for t in got)
    return any(read == sorted(want) for want in wants)


def marks(tiles: Sequence[PhotoTile], reading: PhotoReading
          ) -> tuple[list[tuple[object, ...]], list[bool], bool]:
    """What `verdict` takes from a reading: its `tiles` (in the order the
    caller reports them) as read, which of them are marked uncertain
    (`LOW_CONFIDENCE`, as the page marks them), and whether it warns of
    glare or an unread tile."""
    from scorekeeper.photo import LOW_CONFIDENCE

    return ([tuple(t[:4]) for t in tiles],
            [t.confidence < LOW_CONFIDENCE for t in tiles],
            bool(reading.glare or reading.unread))


def verdict(got: Sequence[Sequence[object]], low: Sequence[bool], warned: bool,
            refused: bool, wants: Sequence[Iterable[Tile]]) -> str:
    """One of `KINDS` for a reading: the tiles read (row, col, colour, shape),
    which of them are marked uncertain, whether it warns of glare or an
    unread tile, whether it was refused; `wants`: the readings that count
    as the move."""
    if refused:
        return "refused"
    if exact(got, wants):
        return "unsure" if warned or any(low) else "right"
    read = [tuple(t[:4]) for t in got]
    flaws = []
    for want in map(set, wants):
        sure_wrong = sum(t not in want and not doubt
                         for t, doubt in zip(read, low, strict=True))
        missing = len({t[:2] for t in want} - {t[:2] for t in read})
        flaws.append(sure_wrong + (0 if warned else missing))
    return "confident wrong" if min(flaws) else "unsure"


def read_verdict(photo: bytes, stored: Iterable[Tile],
                 wants: Sequence[Iterable[Tile]]) -> str:
    """One of `KINDS` for the reading of a photo of `stored` tiles and a
    move (`wants`: the readings that count as it, as `verdict` takes them)."""
    from scorekeeper.photo import PhotoUnreadable, read_move

    try:
        reading = read_move(photo, list(stored))
    except PhotoUnreadable:
        return "refused"
    return verdict(*marks(reading.tiles, reading), False, wants)
