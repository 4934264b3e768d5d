"""Read a move from a photo of the board (issue 13, CONTRACT §12).

Classical computer vision with numpy and OpenCV, offline: no Flask, no SQL, no
model weights. `read_move(image, stored, variant)` finds the tiles and their
grid, rectifies it, reads each symbol's colour and shape, lines the grid up
with the stored board in any of the four quarter turns, and returns the tiles
on cells the stored board has empty, in its coordinates. A photo that cannot
be read raises `PhotoUnreadable` (code `photo_unreadable`) with a `.reason`
from `REASONS` and an English sentence on how to retake it.
"""

from .errors import REASONS, PhotoUnreadable
from .reader import LOW_CONFIDENCE, Conflict, PhotoReading, PhotoTile, read_move

__all__ = [
    "read_move", "PhotoReading", "PhotoTile", "Conflict", "PhotoUnreadable",
    "REASONS", "LOW_CONFIDENCE",
]
