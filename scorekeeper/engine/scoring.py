"""Score breakdowns: which lines a move scored and how much (words: text.py)."""

from __future__ import annotations

from dataclasses import dataclass

from .errors import Cell


@dataclass(frozen=True)
class LineScore:
    """One line a move scored."""

    direction: str
    """'row', 'column', or 'single' for a lone first tile that forms no line."""
    cells: tuple[Cell, ...]
    """The line's cells in order, existing tiles included."""
    kind: str
    """'color' when the line shares a colour, 'shape' when it shares a shape,
    'tile' for a lone tile."""
    value: str
    """The shared colour or shape name; '' for a lone tile."""
    points: int
    """What the line scored: its length, plus the Qwirkle bonus."""
    qwirkle: bool
    """True when the line is complete (as long as the set has colours)."""

    @property
    def length(self) -> int:
        """Number of tiles in the line."""
        return len(self.cells)

    @property
    def bonus(self) -> int:
        """The Qwirkle bonus in the line's points (0 for an incomplete line)."""
        return self.points - self.length if self.qwirkle else 0

    def to_dict(self) -> dict[str, object]:
        """Return the line as JSON-ready data."""
        return {
            "direction": self.direction,
            "cells": [list(cell) for cell in self.cells],
            "kind": self.kind,
            "value": self.value,
            "length": self.length,
            "points": self.points,
            "qwirkle": self.qwirkle,
        }


@dataclass(frozen=True)
class MoveScore:
    """What a placing move scores, line by line (end bonus excluded)."""

    points: int
    """Total of the lines' points."""
    lines: tuple[LineScore, ...]
    """Every line the move scored, the line along the move first."""

    @property
    def qwirkles(self) -> int:
        """Number of lines this move completed."""
        return sum(1 for line in self.lines if line.qwirkle)

    def to_dict(self) -> dict[str, object]:
        """Return the breakdown as JSON-ready data."""
        return {
            "points": self.points,
            "qwirkles": self.qwirkles,
            "lines": [line.to_dict() for line in self.lines],
        }
