"""Line up the grid read from a photo with the stored board: in each quarter
turn (a photo from above is never mirrored), each pairing of a read tile
with a stored one votes for a shift, weighted by how they agree; the best
are scored in full, stored tiles where the photo shows table against them.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

import numpy as np

from .reading import Cell

Label = tuple[int, int]
"""A tile as (colour index, shape index)."""


def turn(cell: Cell, quarter: int) -> Cell:
    """Turn a cell (row, col) by quarter turns about the origin (no mirror)."""
    r, c = cell
    for _ in range(quarter % 4):
        r, c = c, -r
    return r, c


@dataclass(frozen=True)
class Placement:
    """Where the photo's grid lies on the board: board = turn(photo) + shift."""

    quarter: int
    shift: Cell
    score: float = field(default=0.0, compare=False)
    """How well the photo's tiles agree with the stored ones there."""

    def to_board(self, cell: Cell) -> Cell:
        r, c = turn(cell, self.quarter)
        return r + self.shift[0], c + self.shift[1]


def register(photo: Mapping[Cell, Label], empty: set[Cell],
             stored: Mapping[Cell, Label]) -> Placement:
    """The placement that best lays the photo's tiles (some) on the stored
    ones (some)."""
    pcells = np.array(list(photo), np.int64)
    plabels = np.array(list(photo.values()), np.int64)
    scells = np.array(list(stored), np.int64)
    slabels = np.array(list(stored.values()), np.int64)
    agree = 1.0 + (plabels[:, None, 0] == slabels[None, :, 0]) \
        + (plabels[:, None, 1] == slabels[None, :, 1]) * 1.0
    candidates = []
    for quarter in range(4):
        turned = np.array([turn((int(r), int(c)), quarter) for r, c in pcells])
        shifts = scells[None, :, :] - turned[:, None, :]
        keys = shifts[..., 0] * 100_003 + shifts[..., 1]
        _, inverse = np.unique(keys.ravel(), return_inverse=True)
        votes = np.bincount(inverse, weights=agree.ravel())
        for k in np.argsort(votes)[::-1][:6]:
            i, j = divmod(int(np.flatnonzero(inverse == k)[0]), len(scells))
            shift = (int(shifts[i, j, 0]), int(shifts[i, j, 1]))
            # Stored tiles where the photo plainly shows table count against it.
            to_board = Placement(quarter, shift).to_board
            candidates.append(Placement(quarter, shift, float(votes[k]) - 2.0 * sum(
                to_board(cell) in stored for cell in empty)))
    return max(candidates, key=lambda p: p.score)
