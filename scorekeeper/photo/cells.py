"""Cut cells: the grid rectified to squares of `symbols.CELL` pixels, one
cell more all round, and what each cell shows: how much of its rim is dark
(a tile body, `_body_levels`), how much of it a lamp blew out, and its symbol
(`symbols`) and its colour.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

import cv2
import numpy as np

from . import body_model, hues, shape_model
from .blobs import table_coloured
from .grid import Grid, Points
from .levels import (
    WHITE,
    brightest_channel,
    dark_threshold,
    darkest_channel,
    value_ratio,
)
from .symbols import CELL, edge_width, find_symbol

SYMBOL_BODY = 0.5
"""Rim share: a cell with a symbol read counts at least this dark, a tile."""

FOUND_BODY = 0.3
"""Rim share from which a cell where the lattice found a symbol is read (the
symbol vouches for its tile; the renders' glare lightens bodies)."""

CUT_SHOWN = 0.25
"""Share of a rim inside the photo for a cell its edge cuts to count."""

GLARE = 0.04
"""Share of a cell's pixels blown out (`levels.WHITE`) that makes glare
there (the renders' lamps, kept through realistic glare)."""

LIT = 0.9
"""Rim share without colour that makes a cell lamp-lit without any pixel
blown out (on a table with colour; the realistic sets' empty cells stay far
under). A symbol read on a rim at least `SYMBOL_BODY` dark of its own is
no glare's: the tile bodies lit so in the sets with no lamp measure
0.57-0.75 dark (`loose board`, `paint shifted`, photos 0-99: 92 cells),
the glare set's lamp-lit ones 0-0.75 (145 cells); with those from 0.5
unwarned, the glare set reads as many moves, none confident wrong."""

TABLE_GREY = 0.3
"""Share of the table without colour above which `LIT` is not used (the
held-out renderer's grey tables, `tests/photo/synth_alt.py`)."""

TILE_BODY = 0.75
"""Rim share that vouches for a tile body, symbol read or not (the renders;
the realistic dark tables stay under it)."""

HALF_BODY = 0.55
"""Rim share from which paint warns of a tile (a body merged with a dark
table, or in a dark corner)."""

FAINT_BODY = 0.4
"""Rim share from which paint warns of a tile only beside the move (cool
light: a dark orange tile's rim at 0.42; anywhere, 11 of 400 right readings
gained a false warning)."""

BODIED = 0.3
"""Probability of a tile body (`body_model`) from which a cell beside the
move with no tile read may hide one. On `benchmarks/bench_screen.py`'s
photos, of the cells beside a tile read where none was (87,674; 493 of them
tiles), the model misses 4 tiles and takes 4 empty cells for one from 0.3;
4 and 6 from 0.2, 5 and 2 from 0.5, 12 and 1 from 0.7. Away from the move,
it took empty cells of the development set for tiles under a cool cast or
a haze (`benchmarks/real_photos.py`'s changes), so a tile body's rim share
(`TILE_BODY`) decides there."""

@dataclass
class Cell:
    """What one grid cell shows."""

    row: int
    col: int
    body: float
    """Share of the cell's rim that is dark: about 1 for a tile, 0 for table."""
    color: np.ndarray | None = None
    """The symbol's colour, linear RGB: its brighter half's median, under a
    lamp less the lamp's white (`symbols.find_symbol`)."""
    centre: tuple[float, float] | None = None
    """The symbol's centre, working pixels."""
    mask: np.ndarray | None = None
    """The symbol's mask, normalised (`symbols.normalise`)."""
    edge: float = 0.0
    """The symbol's edge width, share of a cell (blur)."""
    black: np.ndarray | None = None
    """The tile body's median colour round the symbol, linear RGB."""
    glare: float = 0.0
    """Share of the cell blown out; at least `GLARE` where lamp-lit (`LIT`)."""
    paint: bool = False
    """Paint shows on a rim from `FAINT_BODY` dark, too light to vouch for a
    tile: a symbol with a colour not a coloured table's own
    (`blobs.table_coloured`), or a white one of a shape the shape model is
    sure of (`shape_model.sure`)."""
    probe: Cell | None = None
    """The symbol read on such a rim: a tile only where the rules need one."""
    washed: bool = False
    """The symbol is only what keeps its colour on a tile a lamp washed grey."""
    found: bool = False
    """A symbol was found here, or off every lattice point nearest here
    (`grid.find_grid`)."""
    dim: bool = False
    """Read round dark paint off the lattice point (`grid.Grid.dim`): a tile
    laid loosely, whose symbol the lattice must not follow."""
    look: np.ndarray | None = None
    """The window as the body model reads it (`body_model.features`)."""

    @property
    def hint(self) -> bool:
        """Paint on a rim from `HALF_BODY` dark: a tile may lie there."""
        return self.paint and self.body >= HALF_BODY

    @cached_property
    def bodied(self) -> float:
        """How likely the window shows a tile body (`body_model`): asked only
        of cells beside the move (`may_hide_tile`)."""
        return 0.0 if self.look is None else float(body_model.probability(self.look))

    @property
    def is_tile(self) -> bool:
        """True when the cell shows a tile with a readable symbol."""
        return (self.body >= SYMBOL_BODY and self.color is not None
                and self.mask is not None)


def rectify(img: np.ndarray, grid: Grid, cells: tuple[int, int, int, int]
            ) -> tuple[np.ndarray, np.ndarray]:
    """The cells (col0, row0, col1, row1, inclusive) warped to squares, one
    spare cell all round, and the mask of their pixels inside the photo."""
    c0, r0, c1, r1 = cells
    pitch, hom, src = grid.pitch, grid.homography, img
    # Warping straight down from large tiles would alias their thin edges.
    while pitch > 1.8 * CELL:
        src = cv2.pyrDown(src)
        hom = np.diag([0.5, 0.5, 1.0]) @ hom
        pitch /= 2
    m = hom @ np.array([[1 / CELL, 0, c0 - 1.5], [0, 1 / CELL, r0 - 1.5], [0, 0, 1]])
    size = ((c1 - c0 + 3) * CELL, (r1 - r0 + 3) * CELL)
    flags = cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP
    out = cv2.warpPerspective(src, m, size, flags=flags,
                              borderMode=cv2.BORDER_REPLICATE)
    inside = np.full(src.shape[:2], 255, np.uint8)
    return out, cv2.warpPerspective(inside, m, size, flags=flags, borderValue=0)


def read_cells(img: np.ndarray, grid: Grid, margin: int = 1
               ) -> dict[tuple[int, int], Cell]:
    """What each cell near the grid's tiles shows, by (row, col)."""
    r0, c0, r1, c1 = grid.bounds()
    r0, c0, r1, c1 = r0 - margin, c0 - margin, r1 + margin, c1 + margin
    rect, seen = rectify(img, grid, (c0, r0, c1, r1))
    ratio = value_ratio(rect, CELL * 1.1, floor=True)
    yy, xx = np.mgrid[0:CELL, 0:CELL]
    # The rim lies on the tile's body, not on the table where tiles lie
    # apart (`grid.Grid.tile`).
    tile = CELL * grid.tile
    d = np.hypot(xx - (CELL - 1) / 2, yy - (CELL - 1) / 2)
    box = np.maximum(abs(xx - (CELL - 1) / 2), abs(yy - (CELL - 1) / 2))
    rim = (d > 0.38 * tile) & (box < 0.4 * tile)
    symbols, rims = _body_levels(ratio, seen, rim, grid, (c0, r0, c1, r1))
    # A symbol's outline keeps the far table's level: at the lower one it
    # takes in more of its blurred edge, and a starburst's points fill out.
    dark = ratio < symbols
    body_rim = ratio < rims
    value = brightest_channel(rect).astype(np.float32)
    white = darkest_channel(rect) >= WHITE
    # Each cell's share blown out, by its place in the window.
    blown = white.reshape(white.shape[0] // CELL, CELL,
                          white.shape[1] // CELL, CELL).mean(axis=(1, 3))
    # A grey rim tells a lamp only on a table with colour (`TABLE_GREY`).
    table = ~dark & (seen > 0)
    grey = hues.colourless(rect.reshape(-1, 3)).reshape(rect.shape[:2])
    coloured_table = bool(table.any()) and float(grey[table].mean()) < TABLE_GREY
    # The table's colour, for paint told from it: read only on a table with colour.
    table_bgr = np.array(cv2.mean(rect, table.astype(np.uint8))[:3]) \
        if coloured_table else np.zeros(3)

    def in_pixels(cell: Cell) -> Cell:
        # The symbol's centre from the rectified grid's pixels to the photo's.
        if cell.centre is not None:
            sx, sy = cell.centre
            lattice = np.array([[[sx / CELL + c0 - 1.5, sy / CELL + r0 - 1.5]]])
            px = cv2.perspectiveTransform(lattice, grid.homography)[0, 0]
            cell.centre = (float(px[0]), float(px[1]))
        return cell

    def read(r: int, c: int, x: int, y: int) -> Cell | None:
        i, j = r - r0 + 1, c - c0 + 1
        win = np.s_[y:y + CELL, x:x + CELL]
        shown = rim & (seen[win] > 0)
        # Partly outside the photo: unknown, not empty. A cut cell with a
        # tile body's rim (`TILE_BODY`) is read as a tile below if its
        # symbol is whole in the photo, else it is a warning (a tile of
        # the move may lie there); it never reaches the probes.
        cut = seen if seen[win].mean() < 0.9 * 255 else None
        if cut is not None and (shown.sum() < CUT_SHOWN * rim.sum() or
                                float(body_rim[win][shown].mean()) < TILE_BODY):
            return None
        body = own = float(body_rim[win][shown].mean())
        cell = Cell(r, c, body, glare=float(blown[i, j]),
                    look=body_model.features(ratio[win], body_rim[win], grey[win]))
        lamp_lit = coloured_table and body < TILE_BODY and cell.glare < GLARE \
            and grey[win][shown].mean() >= LIT
        if lamp_lit:
            cell.glare = GLARE
        # Under a lamp, a rim dark or lit grey is a tile's.
        lit = float((grey[win][shown] | body_rim[win][shown]).mean())
        if cell.glare >= GLARE:
            body = cell.body = max(body, lit)
        found = (r, c) in grid.centres or (r, c) in grid.strays
        if body >= (FOUND_BODY if found else TILE_BODY):
            _read_symbol(cell, rect, dark, x, y, cut)
            if cell.color is None and cell.glare >= GLARE:
                # Washed grey by the lamp: the symbol is what keeps its
                # colour (marked glare, so never sure).
                _read_symbol(cell, rect, grey, x, y, cut)
                cell.washed = cell.color is not None
            in_pixels(cell)
            if cell.color is not None:
                cell.body = max(body, SYMBOL_BODY)
                cell.edge = edge_width(value[win])
            if lamp_lit and own >= SYMBOL_BODY and cell.is_tile and not cell.washed:
                # A rim this dark vouches for its tile without the lamp's
                # grey: a tile body a little lighter than the photo's dark
                # level is lit grey too, with no lamp (`LIT`).
                cell.glare = float(blown[i, j])
        elif body >= FAINT_BODY:
            probe = in_pixels(_read_symbol(Cell(r, c, body), rect, dark, x, y))
            # Paint, not a lighter patch of table or a grey tile edge: a
            # colour not the table's, or a shape the shape model is sure of
            # (white paint).
            cell.paint = probe.color is not None and probe.mask is not None and (
                hues.hsv(probe.color)[1] >= hues.GREY
                and not (coloured_table and table_coloured(
                    hues.to_bgr(probe.color), table_bgr))
                or shape_model.sure(probe.mask))
            if cell.hint and probe.is_tile:
                cell.probe = probe
        return cell

    out = {}
    for r in range(r0, r1 + 1):
        for c in range(c0, c1 + 1):
            cell = read(r, c, *_window(grid, grid.strays, (r, c), (c0, r0), dark.shape))
            if (r, c) in grid.dim and (cell is None or not cell.is_tile):
                # Dark paint off the lattice point, or grain: a tile only
                # where the window centred on it reads one.
                moved = read(r, c, *_window(grid, grid.dim, (r, c), (c0, r0),
                                            dark.shape))
                if moved is not None and moved.is_tile:
                    cell, moved.dim = moved, True
            if cell is not None:
                out[(r, c)] = cell
    return out


def _window(grid: Grid, strays: Points, key: tuple[int, int],
            origin: tuple[int, int], shape: tuple[int, ...]) -> tuple[int, int]:
    """The corner (x, y) of a cell's window in the rectified grid: on its
    lattice point, or where only a symbol of `strays` (found off every
    lattice point: `Grid.strays`, `Grid.dim`) lies nearest it, centred on
    that."""
    (r, c), (c0, r0) = key, origin
    x, y = (c - c0 + 1) * CELL, (r - r0 + 1) * CELL
    if key in grid.centres or key not in strays:
        return x, y
    at = np.array([[strays[key]]], np.float64)
    col, row = cv2.perspectiveTransform(at, np.linalg.inv(grid.homography))[0, 0]
    return (int(np.clip(x + round((col - c) * CELL), 0, shape[1] - CELL)),
            int(np.clip(y + round((row - r) * CELL), 0, shape[0] - CELL)))


def _body_levels(ratio: np.ndarray, seen: np.ndarray, rim: np.ndarray, grid: Grid,
                 box: tuple[int, int, int, int]) -> tuple[float, float]:
    """The brightness ratios under which a pixel is tile body, for symbols
    and for rims: between the rims of cells where a symbol was found and
    those of the others, or of the others beside them. A ratio weighs a
    pixel against the lightest and darkest near it (`levels.value_ratio`):
    a table far from the tiles reads light against its own grain, beside
    them darker against their symbols. On a table nearly as dark as the
    tile bodies, the empty rims beside the tiles reach the level the far
    table sets (`tests/photo/test_photo_dark_table.py`)."""
    c0, r0, c1, r1 = box
    tiles: list[np.ndarray] = []
    others: list[np.ndarray] = []
    beside: list[np.ndarray] = []
    for r in range(r0, r1 + 1):
        for c in range(c0, c1 + 1):
            win = np.s_[(r - r0 + 1) * CELL:(r - r0 + 2) * CELL,
                        (c - c0 + 1) * CELL:(c - c0 + 2) * CELL]
            if seen[win].min() == 0:
                continue
            if (r, c) in grid.centres:
                tiles.append(ratio[win][rim])
                continue
            others.append(ratio[win][rim])
            if any((r + dr, c + dc) in grid.centres
                   for dr in (-1, 0, 1) for dc in (-1, 0, 1)):
                beside.append(ratio[win][rim])
    if not tiles:
        level = dark_threshold(ratio, seen)
        return level, level
    body = float(np.median(np.concatenate(tiles)))

    def toward(table: list[np.ndarray]) -> float:
        lit = float(np.median(np.concatenate(table))) if table else body + 0.6
        return max(body + 0.08, body + 0.45 * (lit - body))

    return toward(others), toward(beside or others)


def _read_symbol(cell: Cell, rect: np.ndarray, dark: np.ndarray, x: int, y: int,
                 seen: np.ndarray | None = None) -> Cell:
    """The cell with the symbol near its middle (`symbols.find_symbol`; with
    `seen`, only a symbol whole in the photo)."""
    found = find_symbol(rect, dark, x, y, vouched=cell.body >= TILE_BODY,
                        lamp=cell.glare >= GLARE, seen=seen)
    if found is not None:
        cell.centre, cell.mask = found.centre, found.mask
        cell.color, cell.black = found.color, found.black
    return cell


def may_hide_tile(cell: Cell, beside_move: bool = False) -> bool:
    """True when a tile may lie on the cell unread: a body without a symbol
    read, a symbol found there or off the lattice nearest there (`Cell.found`:
    a tile laid loosely), or paint (`Cell.hint`); beside the move, paint
    (`Cell.paint`) or a tile body the body model sees (`BODIED`: a tile laid
    against its neighbour, or one a lamp's halo lit as grey as the table
    between tiles laid apart)."""
    return not cell.is_tile and (
        cell.body >= TILE_BODY or cell.hint or cell.found
        or (beside_move and (cell.paint or cell.bodied >= BODIED)))
