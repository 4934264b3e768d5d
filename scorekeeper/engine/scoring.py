"""Score breakdowns: which lines a move scored and how much."""

from __future__ import annotations

from dataclasses import dataclass

from .errors import Cell
from .tiles import plural


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

    def label(self) -> str:
        """Name the line and its points as the rule book does: 'red line 4'."""
        if self.kind == "tile":
            return f"single tile {self.points}"
        what = self.value if self.kind == "color" else self.value
        text = f"{what} line {self.length}"
        if self.qwirkle:
            text += f" + Qwirkle {self.points - self.length}"
        return text

    def describe(self) -> str:
        """Name the line for a sentence: 'row of red tiles', 'column of squares'."""
        if self.kind == "color":
            return f"{self.direction} of {self.value} tiles"
        if self.kind == "shape":
            return f"{self.direction} of {plural(self.value)}"
        return "single tile"

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
            "label": self.label(),
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

    def summary(self) -> str:
        """The breakdown as the table says it: 'red line 4 + square line 3 = 7'."""
        parts = [line.label() for line in self.lines]
        if len(parts) == 1 and not self.lines[0].qwirkle:
            return f"{parts[0]} = {self.points}"
        return " + ".join(parts) + f" = {self.points}"

    def to_dict(self) -> dict[str, object]:
        """Return the breakdown as JSON-ready data."""
        return {
            "points": self.points,
            "qwirkles": self.qwirkles,
            "lines": [line.to_dict() for line in self.lines],
            "summary": self.summary(),
        }
