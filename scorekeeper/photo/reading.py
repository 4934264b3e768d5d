"""What a photo of the board gave: the new tiles, the stored tiles it shows
otherwise, and the measures the table learns from (CONTRACT §12). Plain data,
no numpy: the web layer reads it without the reader."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, NamedTuple

Cell = tuple[int, int]
"""A cell of the photo's grid or of the board, (row, col)."""

SIDES = ((1, 0), (-1, 0), (0, 1), (0, -1))
"""The four cells beside a cell, (row, col) steps."""


class PhotoTile(NamedTuple):
    """A tile the photo shows on a cell that is empty on the stored board."""

    row: int
    col: int
    color: str
    shape: str
    confidence: float
    """0 (a guess) to 1 (sure): how clearly the colour and shape stood out."""
    likely: tuple[tuple[str, str], ...] = ()
    """The kinds (colour, shape) an uncertain tile may be, best first (2–4)."""


class Look(NamedTuple):
    """What a tile looked like, for the table to learn from (`lessons`)."""

    row: int
    col: int
    hue: float
    """The symbol's hue, degrees."""
    saturation: float | None = None
    """The symbol's saturation (`hues.hsv`): a colourless paint has little."""
    value: float | None = None


class Conflict(NamedTuple):
    """A stored tile the photo shows as a different tile."""

    row: int
    col: int
    stored: tuple[str, str]
    """The stored (colour, shape)."""
    seen: tuple[str, str]
    """The (colour, shape) the photo shows there."""
    confidence: float


@dataclass(frozen=True)
class PhotoReading:
    """What a photo of the board shows, in the stored board's coordinates."""

    tiles: tuple[PhotoTile, ...]
    """The new tiles: on cells empty on the stored board, in line order."""
    matched: int
    """Stored tiles the photo shows as stored (same cell, colour and shape)."""
    conflicts: tuple[Conflict, ...]
    """Stored tiles the photo shows differently: the table and the page differ."""
    seen: int
    """Stored tiles on cells the photo shows (matched, conflicting or missing)."""
    glare: tuple[Cell, ...] = ()
    """Cells on or next to the board, none a stored tile's (board
    coordinates; a first move's own), where glare blew the photo out: a
    tile there may be missing or misread."""
    looks: tuple[Look, ...] = ()
    """What each new tile looked like (for `store.photo_lessons`)."""
    unread: tuple[Cell, ...] = ()
    """Cells as `glare` showing a tile body or paint whose symbol was not
    read, or where a symbol was found and no tile is read: a tile of the
    move may be missing there."""
    stored_looks: tuple[Look, ...] = ()
    """What each stored tile the photo shows (no glare on it) looked like:
    a board the players vouch for teaches its whole set (`lessons`)."""

    def tile_dicts(self) -> list[dict[str, Any]]:
        """The new tiles as JSON-ready data (`likely` only on uncertain ones)."""
        return [_tile_dict(t) for t in self.tiles]

    def to_dict(self) -> dict[str, object]:
        """Return the reading as JSON-ready data (CONTRACT §12, plus conflicts)."""
        return {
            "tiles": self.tile_dicts(),
            "matched": self.matched,
            "conflicts": [
                {"row": c.row, "col": c.col,
                 "stored": {"color": c.stored[0], "shape": c.stored[1]},
                 "seen": {"color": c.seen[0], "shape": c.seen[1]},
                 "confidence": c.confidence}
                for c in self.conflicts
            ],
        }


def _tile_dict(tile: PhotoTile) -> dict[str, Any]:
    data = tile._asdict()
    data["likely"] = [list(kind) for kind in tile.likely]
    if not tile.likely:
        del data["likely"]
    return data
