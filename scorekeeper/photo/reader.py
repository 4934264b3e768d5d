"""Read a move from a photo of the board: the entry point of the photo package."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import NamedTuple

import cv2
import numpy as np

from ..engine import CLASSIC, Variant
from .cells import Cell as GridCell
from .cells import read_cells
from .classify import Classifier, Example
from .decode import decode
from .errors import PhotoUnreadable
from .grid import find_grid, refit
from .register import Placement, register, turn

Cell = tuple[int, int]

LOW_CONFIDENCE = 0.25
"""Below this a read tile is worth a second look (the page marks it)."""

BLURRED = 0.165
"""Symbol edges wider than this share of a tile (median over the tiles) are too
blurred to tell a starburst from a circle: the photo is refused, not guessed.
Sharp photos measure 0.05–0.13 (the benchmark's blurriest small tiles)."""


class PhotoTile(NamedTuple):
    """A tile the photo shows on a cell that is empty on the stored board."""

    row: int
    col: int
    color: str
    shape: str
    confidence: float
    """0 (a guess) to 1 (sure): how clearly the colour and shape stood out."""


class Conflict(NamedTuple):
    """A stored tile the photo shows as a different tile."""

    row: int
    col: int
    stored: tuple[str, str]
    """The stored tile (colour, shape)."""
    seen: tuple[str, str]
    """The tile the photo shows there (colour, shape)."""
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

    def to_dict(self) -> dict[str, object]:
        """Return the reading as JSON-ready data (CONTRACT §12, plus conflicts)."""
        return {
            "tiles": [t._asdict() for t in self.tiles],
            "matched": self.matched,
            "conflicts": [
                {"row": c.row, "col": c.col,
                 "stored": {"color": c.stored[0], "shape": c.stored[1]},
                 "seen": {"color": c.seen[0], "shape": c.seen[1]},
                 "confidence": c.confidence}
                for c in self.conflicts
            ],
        }


@dataclass
class _Read:
    """One tile read in the photo's own grid."""

    cell: GridCell
    color: int = 0
    shape: int = 0
    color_conf: float = 0.0
    shape_conf: float = 0.0
    color_scores: np.ndarray | None = None
    shape_scores: np.ndarray | None = None

    @property
    def confidence(self) -> float:
        return round(min(self.color_conf, self.shape_conf), 3)


def read_move(image: bytes, stored: Sequence[tuple[int, int, str, str]],
              variant: Variant = CLASSIC) -> PhotoReading:
    """Return the tiles a photo shows beyond the stored board (row, col, colour,
    shape); raise PhotoUnreadable when it cannot be read as one move."""
    try:
        return _read(image, stored, variant)
    except PhotoUnreadable:
        raise
    except (cv2.error, ArithmeticError, IndexError, ValueError,
            np.linalg.LinAlgError) as exc:
        # A photo must never fail the request: an unforeseen numeric corner is
        # reported as unreadable, with the cause chained for the log.
        raise PhotoUnreadable("not_read") from exc


def _read(image: bytes, stored: Sequence[tuple[int, int, str, str]],
          variant: Variant) -> PhotoReading:
    """Read a photo (see `read_move`)."""
    img = decode(image)
    grid = find_grid(img)
    cells = read_cells(img, grid)
    for _ in range(3):
        # Every symbol read is a point the grid must go through: fit again
        # while that finds more tiles (a slanted board, glare on some symbols).
        found = {key: cell.centre for key, cell in cells.items()
                 if cell.is_tile and cell.centre is not None}
        if len(found) <= len(grid.centres):
            break
        grid = refit(grid, found)
        again = read_cells(img, grid)
        if sum(c.is_tile for c in again.values()) <= len(found):
            break
        cells = again
    reads = {key: _Read(cell) for key, cell in cells.items() if cell.is_tile}
    reads = _main_group(reads)
    if not reads:
        raise PhotoUnreadable("no_tiles")
    if np.median([rd.cell.edge for rd in reads.values()]) > BLURRED:
        raise PhotoUnreadable("blurred")
    empty = {key for key, cell in cells.items() if cell.body < 0.25}
    clf = Classifier(variant.color_names, variant.shape_names)
    _label(reads, clf)
    board = {(r, c): (color, shape) for r, c, color, shape in stored}
    if not board:
        return _first_move(reads, clf, variant)
    index = {(r, c): (clf.colors.index(color) if color in clf.colors else -1,
                      clf.shapes.index(shape) if shape in clf.shapes else -1)
             for (r, c), (color, shape) in board.items()}
    placement: Placement | None = None
    for _ in range(3):
        labels = {key: (rd.color, rd.shape) for key, rd in reads.items()}
        fit = register(labels, empty, index)
        if fit is None or fit == placement:
            break
        placement = fit
        # Learn this photo's light and print from the stored tiles it shows,
        # read every tile again, and see whether the board lines up otherwise.
        examples = []
        for key, rd in reads.items():
            tile = board.get(placement.to_board(key))
            cell = rd.cell
            if tile is not None and cell.color is not None and cell.mask is not None:
                examples.append(Example(cell.color, cell.mask, *tile, key))
        clf.learn(examples)
        _label(reads, clf)
    if placement is None:
        raise PhotoUnreadable("no_match", matched=0, stored=len(board))
    return _result(reads, cells, placement, board, clf, variant)


def _main_group(reads: dict[Cell, _Read]) -> dict[Cell, _Read]:
    """Keep the largest group of tiles: the board. Tiles lying elsewhere on the
    table are not part of it; a tile or two left unread within the board must
    not split it, so tiles up to two cells apart count as one group."""
    left = set(reads)
    best: set[Cell] = set()
    near = [(dr, dc) for dr in range(-2, 3) for dc in range(-2, 3) if dr or dc]
    while left:
        start = left.pop()
        group = {start}
        todo = [start]
        while todo:
            r, c = todo.pop()
            for n in ((r + dr, c + dc) for dr, dc in near):
                if n in left:
                    left.discard(n)
                    group.add(n)
                    todo.append(n)
        if len(group) > len(best):
            best = group
    return {key: reads[key] for key in best}


def _label(reads: dict[Cell, _Read], clf: Classifier) -> None:
    """Name each read tile's colour and shape."""
    for key, rd in reads.items():
        if rd.cell.color is None or rd.cell.mask is None:
            continue  # never: only cells with a symbol are read
        color = clf.color(rd.cell.color)
        shape = clf.shape(rd.cell.mask, key)
        rd.color, rd.color_conf = color.index, color.confidence
        rd.shape, rd.shape_conf = shape.index, shape.confidence
        rd.color_scores, rd.shape_scores = color.scores, shape.scores


def _one_attribute(new: list[tuple[Cell, _Read]]) -> None:
    """Tiles placed in one move share their colour or their shape (RULES §3):
    when their colours all differ, their shapes must agree, and the other way
    round. A doubtful reading that breaks this is read as the shared value; a
    clear one is left for the engine to refuse."""
    if len(new) < 2:
        return
    reads = [rd for _, rd in new]
    for attr, other in (("shape", "color"), ("color", "shape")):
        if len({getattr(rd, other) for rd in reads}) != len(reads):
            continue
        if len({getattr(rd, attr) for rd in reads}) == 1:
            continue
        scores = [getattr(rd, f"{attr}_scores") for rd in reads]
        if any(s is None for s in scores):
            continue
        shared = int(np.argmax(np.sum(scores, axis=0)))
        for rd in reads:
            conf = getattr(rd, f"{attr}_conf")
            if getattr(rd, attr) != shared and conf < LOW_CONFIDENCE:
                setattr(rd, attr, shared)
                setattr(rd, f"{attr}_conf", min(conf, LOW_CONFIDENCE / 2))


def _first_move(reads: dict[Cell, _Read], clf: Classifier,
                variant: Variant) -> PhotoReading:
    """An empty board: the tiles in a frame of their own, in row 0 from (0, 0)."""
    cells = list(reads)
    if len(cells) > variant.hand_size:
        raise PhotoUnreadable("too_many_tiles", count=len(cells),
                              limit=variant.hand_size)
    rows = {r for r, _ in cells}
    cols = {c for _, c in cells}
    if len(rows) > 1 and len(cols) > 1:
        raise PhotoUnreadable("not_one_line", cells=sorted(cells))
    _one_attribute(list(reads.items()))
    quarter = 0 if len(rows) == 1 else 1
    turned = {turn(cell, quarter): rd for cell, rd in reads.items()}
    r0 = min(r for r, _ in turned)
    c0 = min(c for _, c in turned)
    tiles = tuple(
        PhotoTile(r - r0, c - c0, clf.colors[rd.color], clf.shapes[rd.shape],
                  rd.confidence)
        for (r, c), rd in sorted(turned.items())
    )
    return PhotoReading(tiles, 0, (), 0)


def _result(reads: dict[Cell, _Read], cells: dict[Cell, GridCell],
            placement: Placement, board: dict[Cell, tuple[str, str]],
            clf: Classifier, variant: Variant) -> PhotoReading:
    """Sort the read tiles into matched, conflicting and new; check the move."""
    _one_attribute([(key, rd) for key, rd in reads.items()
                    if placement.to_board(key) not in board])
    matched = 0
    conflicts = []
    new = []
    for key, rd in reads.items():
        at = placement.to_board(key)
        tile = board.get(at)
        seen = (clf.colors[rd.color], clf.shapes[rd.shape])
        if tile is None:
            new.append(PhotoTile(at[0], at[1], seen[0], seen[1], rd.confidence))
        elif tile == seen:
            matched += 1
        else:
            wrong = []
            if tile[0] != seen[0]:
                wrong.append(rd.color_conf)
            if tile[1] != seen[1]:
                wrong.append(rd.shape_conf)
            conflicts.append(Conflict(at[0], at[1], tile, seen, round(min(wrong), 3)))
    seen_cells = {placement.to_board(key) for key in cells}
    in_view = sum(1 for cell in board if cell in seen_cells)
    if matched < min(3, len(board)) or matched < 0.5 * in_view:
        raise PhotoUnreadable("no_match", matched=matched, stored=len(board))
    new.sort()
    if len(new) > variant.hand_size:
        raise PhotoUnreadable("too_many_tiles", count=len(new), limit=variant.hand_size)
    if new:
        rows = {t.row for t in new}
        cols = {t.col for t in new}
        touches = any((t.row + dr, t.col + dc) in board
                      for t in new for dr, dc in ((1, 0), (-1, 0), (0, 1), (0, -1)))
        if (len(rows) > 1 and len(cols) > 1) or not touches:
            raise PhotoUnreadable("not_one_line", cells=[(t.row, t.col) for t in new])
    # Only confident contradictions: a blurred symbol is not a drifted board.
    sure = tuple(sorted(c for c in conflicts if c.confidence >= 0.15))
    return PhotoReading(tuple(new), matched, sure, in_view)
