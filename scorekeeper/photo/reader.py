"""Read a move from a photo of the board: the stages in their order
(docs/PHOTO.md): `decode`, `grid`, `cells` and `symbols`, `tiles`,
`register`, `move`, `rules`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import cv2
import numpy as np

from ..engine import CLASSIC, Variant
from .cells import GLARE, may_hide_tile, read_cells
from .cells import Cell as GridCell
from .classify import Classifier, Example
from .decode import decode, never_failing, shrunk
from .errors import PhotoUnreadable
from .grid import (
    EXACT,
    LINE_POINTS,
    Grid,
    explains,
    find_grid,
    foreshortened,
    halved,
    refit,
)
from .lessons import Taught
from .move import first_move, placed_move
from .reading import SIDES, Cell, PhotoReading
from .register import Placement, register
from .rules import by_the_rules
from .tiles import ReadTile, name_colours, name_shapes, under_glare

EMPTY = 0.25
"""Rim share (`cells`) under which a cell shows table, against a stored tile
placed there (`tests/photo/synth.py`)."""

BLURRED = 0.165
"""Symbol edge width, share of a tile (median): wider is refused `blurred`;
sharp photos measure 0.05–0.13 (the benchmark's blurriest small tiles)."""

SMALL = 3
"""Symbols: up to this many make a small board, read two cells out (a lamp
over its end tile can hide its symbol; realistic glare)."""

SETTLED = 0.05
"""Steps: a refit moving no cell further reads nothing new (`_settled`)."""

STEP_OF_TWO = 0.4
"""Symbol extent over step under which the step may be two tiles: symbols
fill 50–80 % of a tile, of two 28–34 % (the benchmark's photos)."""

REFITS = 3
"""Times at most the grid is fitted again to the symbols its cells read, each
fit reading the cells again (a slanted board)."""


@dataclass
class Stages:
    """What each stage gave (docs/PHOTO.md draws them)."""

    image: np.ndarray
    """The working image (`decode`)."""
    grid: Grid
    cells: dict[Cell, GridCell]
    tiles: dict[Cell, ReadTile]
    """The tiles read, their colour and shape named."""
    classifier: Classifier
    reading: PhotoReading
    """The move, checked against the rules."""
    placement: Placement | None = None
    """The photo's cells on the stored board (`register`; None for a first
    move): what labels the stored tiles it shows, as a confirmed move does."""
    examples: tuple[Example, ...] = ()
    """The stored tiles read, away from glare, that named the colours as
    examples of their stored colour (`name_colours`)."""


def read_move(image: bytes, stored: Sequence[tuple[int, int, str, str]],
              variant: Variant = CLASSIC, taught: Taught | None = None
              ) -> PhotoReading:
    """The tiles a photo shows beyond the stored board; raise PhotoUnreadable
    when it cannot be read as one move. `taught`: the table's lessons."""
    return read_stages(image, stored, variant, taught).reading


def read_stages(image: bytes, stored: Sequence[tuple[int, int, str, str]],
                variant: Variant = CLASSIC, taught: Taught | None = None) -> Stages:
    """`read_move`, with what each stage gave on the way."""
    with never_failing():
        stages = _read(image, stored, variant, taught or Taught())
    stages.reading = by_the_rules(stages.reading, stored, variant)
    return stages


def _read(image: bytes, stored: Sequence[tuple[int, int, str, str]],
          variant: Variant, taught: Taught) -> Stages:
    img = decode(image)
    try:
        grid, cells = _cells(img, variant.hand_size)
    except PhotoUnreadable as err:
        if err.reason != "too_small" or not shrunk(img, image):
            raise
        # Tiles too small once libjpeg halved the photo below WORK_SIDE: read
        # it at that size (`decode.LEEWAY`).
        img = decode(image, leeway=False)
        grid, cells = _cells(img, variant.hand_size)
    reads = {key: ReadTile(cell, faint=key in grid.faint,
                           glare=under_glare(key, cells))
             for key, cell in cells.items() if cell.is_tile}
    if not reads:
        raise PhotoUnreadable("no_tiles")
    if np.median([rd.cell.edge for rd in reads.values()]) > BLURRED:
        raise PhotoUnreadable("blurred")
    clf = Classifier(variant.color_names, variant.shape_names)
    name_colours(reads, clf, [], taught)
    name_shapes(reads, clf)
    board = {(r, c): (color, shape) for r, c, color, shape in stored}
    # Where a symbol was found and no tile is read, a tile of the move may
    # lie: beyond the cells read (the lattice drifted short of it), or on a
    # cell that reads no tile (near the camera its cells fell short of the
    # tiles). Warned of, never dropped.
    unread = {key for key, cell in cells.items() if cell.found and not cell.is_tile}
    found = (set(grid.strays) - cells.keys()) | unread
    if not board:
        found |= _past_the_line(img, grid, cells)
        return Stages(img, grid, cells, reads, clf,
                      first_move(reads, cells, found, clf, variant))
    index = {key: (clf.colors.index(color) if color in clf.colors else -1,
                   clf.shapes.index(shape) if shape in clf.shapes else -1)
             for key, (color, shape) in board.items()}
    empty = {key for key, cell in cells.items() if cell.body < EMPTY}
    placement = register(_labels(reads), empty, index)
    # Learn this photo's light from the stored tiles it shows (not
    # from under a lamp: a symbol read through glare keeps a little of its
    # colour, not its hue) and name every tile's colour again.
    examples = []
    for key, rd in reads.items():
        tile, cell = board.get(placement.to_board(key)), rd.cell
        if tile is not None and cell.color is not None and cell.glare < GLARE:
            examples.append(Example(cell.color, tile[0], key))
    name_colours(reads, clf, examples, taught)
    return Stages(img, grid, cells, reads, clf,
                  placed_move(reads, cells, found, placement, board, clf, variant),
                  placement, tuple(examples))


def _cells(img: np.ndarray, hand: int) -> tuple[Grid, dict[Cell, GridCell]]:
    """The tiles' lattice and the cells cut along it (stages 2 to 4); `hand`:
    the most tiles a move may have."""
    grid = find_grid(img)
    # A lamp over a small board's end tile hides its symbol and can darken
    # none of the rim of the next: read it two cells out.
    margin = 2 if len(grid.centres) <= SMALL else 1
    grid, apart, first = _step_of_two(img, grid, margin, hand)
    symbols = set(grid.centres) | set(grid.strays)

    def read(grid: Grid, margin: int) -> dict[Cell, GridCell]:
        if not apart:
            return read_cells(img, grid, margin)
        # Tiles laid a tile apart: each read at its own size, as their line.
        cells = read_cells(img, halved(grid), 2 * margin)
        return {(r // 2, c // 2): cell for (r, c), cell in cells.items()
                if r % 2 == 0 and c % 2 == 0}

    cells = read(grid, margin) if first is None else first
    with_probes = True
    for _ in range(REFITS):
        # Every symbol read is a point the grid must go through: fit again
        # while that finds more tiles (a slanted board, glare on some symbols).
        found = {key: cell.centre for key, cell in cells.items()
                 if cell.is_tile and cell.centre is not None and not cell.dim}
        # So may be a symbol in paint on a rim half dark (`Cell.probe`) beside
        # a tile read: a tile off a grid fitted short of it (an end tile the
        # blobs missed), if the grid through it loses no tile read (a lamp's
        # patch does); paint with no tile beside it is the table's.
        probes = {key: cell.probe.centre for key, cell in cells.items()
                  if with_probes and cell.hint and cell.probe is not None
                  and cell.probe.centre is not None
                  and any((key[0] + dr, key[1] + dc) in found for dr, dc in SIDES)}
        if len(found) + len(probes) <= len(grid.centres):
            break
        grid, before = refit(grid, found | probes), grid
        if _settled(before, grid):
            break
        again = read(grid, margin)
        if probes and not set(found) <= {k for k, c in again.items() if c.is_tile}:
            grid, with_probes = before, False
            continue
        if _tile_count(again) <= len(found):
            break
        cells = again
    if _tile_on_edge(cells):
        # Its neighbours beyond may hold a tile too dark to find: look there.
        # The wider window's levels, taken over more table, may lose a tile
        # read: keep the cells read, and take from it only those they lack
        # (the ring beyond, where a tile body may lie unread).
        wider = read(grid, margin + 1)
        cells = wider if _tile_count(wider) >= _tile_count(cells) else \
            wider | cells
    for key in symbols & cells.keys():
        cells[key].found = True
    return grid, cells


def _settled(before: Grid, after: Grid) -> bool:
    """True when the refitted grid would read the cells as before: the same
    window, no cell moved `SETTLED` (reading again is a third of a phone
    photo's time)."""
    if before.bounds() != after.bounds():
        return False
    lattice = np.array([[(c, r) for r, c in after.centres]], np.float64)
    moved = cv2.perspectiveTransform(lattice, after.homography) - \
        cv2.perspectiveTransform(lattice, before.homography)
    return float(np.linalg.norm(moved[0], axis=1).max()) < SETTLED * before.pitch


def _step_of_two(img: np.ndarray, grid: Grid, margin: int, hand: int
                 ) -> tuple[Grid, bool, dict[Cell, GridCell] | None]:
    """The grid, at half the step where the few symbols found (at most a
    `hand`) lie two tiles apart with a tile between (a first move's dark
    middle tile: read, or its paint seen on a rim too light to vouch for a
    tile, `Cell.paint`), with the cells it read there; else the grid, and
    whether they lie apart with table between (tiles laid apart: read at
    half the step, as their line)."""
    keys = list(grid.centres)
    if not 1 < len(keys) <= hand or grid.symbol >= STEP_OF_TWO * grid.pitch:
        return grid, False, None
    between = {(r0 + r1, c0 + c1) for i, (r0, c0) in enumerate(keys)
               for r1, c1 in keys[i + 1:] if abs(r0 - r1) + abs(c0 - c1) == 1}
    if not between:
        return grid, False, None
    half = halved(grid)
    again = read_cells(img, half, margin)
    if all(key in again and (again[key].is_tile or again[key].paint)
           for key in between):
        return half, False, again
    apart = all(key in again and again[key].body < EMPTY for key in between) and \
        all((2 * r, 2 * c) in again and again[(2 * r, 2 * c)].is_tile for r, c in keys)
    return grid, apart, None


def _labels(reads: dict[Cell, ReadTile]) -> dict[Cell, tuple[int, int]]:
    return {key: (rd.color, rd.shape) for key, rd in reads.items()}


def _tile_count(cells: dict[Cell, GridCell]) -> int:
    """The tiles read on their lattice points: how well a grid fits."""
    return sum(cell.is_tile and not cell.dim for cell in cells.values())


def _tile_on_edge(cells: dict[Cell, GridCell]) -> bool:
    """True when a tile, read or not, is on the cells' outermost row or column."""
    rows, cols = {r for r, _ in cells}, {c for _, c in cells}
    return any((cell.is_tile or may_hide_tile(cell))
               and (r in (min(rows), max(rows)) or c in (min(cols), max(cols)))
               for (r, c), cell in cells.items())


def _past_the_line(img: np.ndarray, grid: Grid, cells: dict[Cell, GridCell]
                   ) -> set[Cell]:
    """The cells just past either end of a line of three tiles read or more
    that may hide a tile (`may_hide_tile`) read where the line's steps
    shorten as its symbols show (`grid.foreshortened`): a first move taken
    close at a slant, whose even lattice fell past its far end tile
    (docs/PHOTO.md, "A first move taken close at a slant")."""
    tiles = {key: cell.centre for key, cell in cells.items()
             if cell.is_tile and cell.centre is not None}
    rows, cols = {r for r, _ in tiles}, {c for _, c in tiles}
    if len(tiles) < LINE_POINTS or min(len(rows), len(cols)) != 1:
        return set()
    keys = sorted(tiles)
    src = np.array([(c, r) for r, c in keys], np.float64)
    dst = np.array([tiles[k] for k in keys])
    if explains(grid.homography, src, dst, grid.pitch, EXACT):
        # The even lattice goes through every symbol: the steps do not shorten.
        return set()
    hom = foreshortened(src, dst)
    if hom is None:
        return set()
    again = read_cells(img, Grid(hom, grid.pitch, dict(tiles)), 1)
    dr, dc = (0, 1) if len(rows) == 1 else (1, 0)
    (r0, c0), (r1, c1) = keys[0], keys[-1]
    ends = [(r0 - dr, c0 - dc), (r1 + dr, c1 + dc)]
    return {key for key in ends if key not in tiles and key in again
            and (again[key].is_tile or may_hide_tile(again[key], beside_move=True))}
