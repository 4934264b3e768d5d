"""Read a move from a photo of the board (CONTRACT §12, docs/PHOTO.md).

`read_move(image, stored, variant)` gives a `PhotoReading`, or raises
`PhotoUnreadable` (code `photo_unreadable`, a `.reason` from `REASONS`).
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

from .errors import REASONS, PhotoUnreadable

if TYPE_CHECKING:
    from .reader import read_move
    from .reading import Conflict, PhotoReading, PhotoTile
    from .tiles import LOW_CONFIDENCE

__all__ = [
    "read_move", "PhotoReading", "PhotoTile", "Conflict", "PhotoUnreadable",
    "REASONS", "LOW_CONFIDENCE",
]

_HOMES = {"read_move": "reader", "LOW_CONFIDENCE": "tiles", "PhotoReading": "reading",
          "PhotoTile": "reading", "Conflict": "reading"}
"""The module each name the package gives on first use lives in."""


def __getattr__(name: str) -> Any:
    # The reader (numpy, OpenCV: ~100 MB) loads on first use, so that the web
    # layer may name PhotoUnreadable without loading it into the server: only
    # the helper process that reads photos ever does (web/helper.py).
    if name in _HOMES:
        return getattr(import_module(f".{_HOMES[name]}", __name__), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
