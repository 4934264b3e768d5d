"""Cut cells: the grid rectified to squares, and what each cell shows.

The grid is warped to squares of CELL pixels. A cell holds a tile when its rim
is dark (a tile body); the symbol is the light blob nearest the middle. Its
colour is the median of its brighter half, less the black of the tile around
it; its shape is its mask, moved to the middle and scaled to one size.

Takes the working image and its `Grid`; gives a `Cell` per square near the
tiles: how dark its rim is (a tile body), how much of it a lamp blew out,
and the symbol found in it (`symbols`), its colour less the light glare
adds. Its thresholds, named at its top: `SYMBOL_BODY`, `FOUND_BODY`,
`CUT_SHOWN`, `GLARE`, `LIT`, `TABLE_GREY`, `TILE_BODY`, `HALF_BODY` and
`FAINT_BODY`.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from . import hues
from .grid import Grid
from .levels import (
    WHITE,
    brightest_channel,
    dark_threshold,
    darkest_channel,
    value_ratio,
)
from .symbols import CELL, edge_width, find_symbol

SYMBOL_BODY = 0.5
"""Share of a rim that is dark: a cell with a symbol found in it counts its
rim at least this dark (glare can lighten a tile body); a cell is a tile
from it with a symbol read (`Cell.is_tile`)."""

FOUND_BODY = 0.3
"""Share of a rim that is dark: a cell where the lattice found a symbol is
looked at for it from this (elsewhere from `TILE_BODY`), as the symbol,
found enclosed in dark, already vouches for a tile. Set on the renders'
glare, which lightens a tile body."""

CUT_SHOWN = 0.25
"""Share of a cell's rim: a cell the photo's edge cuts shows a tile body
only where at least this much of its rim is inside the photo."""

GLARE = 0.04
"""Share of a cell's pixels blown out (`levels.WHITE`) that makes glare
there: a tile under it may be misread, or missing from the reading. Set on
the renders' lamps and kept through the realistic sets' glare."""

LIT = 0.9
"""Share of a cell's rim without colour that makes it lamp-lit where no
pixel is blown out: a weak lamp washes a black tile grey, while wood and
cloth under it keep their colour (no empty cell of the realistic sets'
warm, cool, paint-shifted and first-move photos comes near it). Only on a
table with colour (`TABLE_GREY`)."""

TABLE_GREY = 0.3
"""Share of the table's pixels without colour above which `LIT` is not used:
the table is grey itself. Set on the held-out renderer's grey tables
(`tests/photo/synth_alt.py`), where a grey rim was read as a lamp."""

TILE_BODY = 0.75
"""Share of a cell's rim that is dark: from this it vouches for a tile body,
symbol read or not. Set on the renders; the realistic sets' dark tables keep
their grain under it."""

HALF_BODY = 0.55
"""A rim this dark (but under `TILE_BODY`, which vouches for a tile) is looked at
for a painted symbol, not to read a tile from it but to warn: a tile whose
body merges with a dark table at the photo's edge, or lies in a darker
corner of the light, has a rim only partly darker than the level."""

FAINT_BODY = 0.4
"""A rim this dark (but under `HALF_BODY`) is looked at for a painted symbol
too, to warn only beside a tile of the move (`Cell.paint`): cool light
lights a black tile bluish grey, and a dark orange tile continuing the move
showed a rim 0.42 dark (bench_photo.py's cool light). Elsewhere such rims are mostly
table grain: warned of anywhere, 11 of 400 right readings gained a warning
of a tile that is not there."""


@dataclass
class Cell:
    """What one grid cell shows."""

    row: int
    col: int
    body: float
    """Share of the cell's rim that is dark: about 1 for a tile, 0 for table."""
    color: np.ndarray | None = None
    """The symbol's median colour, linear RGB in [0, 1]."""
    centre: tuple[float, float] | None = None
    """Where the symbol's centre is in the working image."""
    mask: np.ndarray | None = None
    """The symbol's mask, CELL × CELL, moved to the middle and scaled to one
    size (`symbols.normalise`)."""
    edge: float = 0.0
    """How wide the symbol's edge is, as a share of a cell: sharp photos give
    a few hundredths, blurred ones more."""
    raw: np.ndarray | None = None
    """The symbol's median colour as seen, linear RGB (before `color` takes
    off the light that glare adds to the tile around it)."""
    black: np.ndarray | None = None
    """The median colour of the tile body around the symbol, linear RGB."""
    glare: float = 0.0
    """Share of the cell's pixels blown out (a channel at the sensor's top);
    at least GLARE where a weak lamp washed a tile grey (`LIT`)."""
    paint: bool = False
    """A painted symbol shows on a rim too light to vouch for a tile, from
    `FAINT_BODY` dark: not read as a tile, but a tile may lie there (beside
    a tile of the move; anywhere from `HALF_BODY`, `hint`)."""
    lamp_free: bool = False
    """`raw` is already free of the lamp's white (`symbols._lamp_free_colour`)."""
    probe: Cell | None = None
    """The painted symbol read on a rim too light to vouch for a tile, from
    `HALF_BODY` dark (`hint`), or lit grey by a lamp blown out beside it: no
    tile, unless the rules need one there (`move.joined_by_paint`)."""
    washed: bool = False
    """The symbol was read only as what keeps its colour on a tile a lamp
    washed grey: a guess, which must not outweigh the tiles read plainly."""

    @property
    def hint(self) -> bool:
        """A painted symbol shows on a rim from `HALF_BODY` dark: a tile may
        lie there, wherever the cell is."""
        return self.paint and self.body >= HALF_BODY

    @property
    def is_tile(self) -> bool:
        """True when the cell shows a tile with a readable symbol."""
        return (self.body >= SYMBOL_BODY and self.color is not None
                and self.mask is not None)


def rectify(img: np.ndarray, grid: Grid, cells: tuple[int, int, int, int]
            ) -> tuple[np.ndarray, np.ndarray]:
    """Warp the cells (col0, row0, col1, row1, inclusive) to a square grid image
    with one spare cell all round; return it and the mask of pixels in the photo."""
    c0, r0, c1, r1 = cells
    pitch = grid.pitch
    hom = grid.homography
    src = img
    # Warping straight down from large tiles would alias their thin edges.
    while pitch > 1.8 * CELL:
        src = cv2.pyrDown(src)
        hom = np.diag([0.5, 0.5, 1.0]) @ hom
        pitch /= 2
    to_lattice = np.array([[1 / CELL, 0, c0 - 1.5], [0, 1 / CELL, r0 - 1.5], [0, 0, 1]])
    m = hom @ to_lattice
    size = ((c1 - c0 + 3) * CELL, (r1 - r0 + 3) * CELL)
    flags = cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP
    out = cv2.warpPerspective(src, m, size, flags=flags,
                              borderMode=cv2.BORDER_REPLICATE)
    inside = np.full(src.shape[:2], 255, np.uint8)
    seen = cv2.warpPerspective(inside, m, size, flags=flags, borderValue=0)
    return out, seen


def read_cells(img: np.ndarray, grid: Grid, margin: int = 1
               ) -> dict[tuple[int, int], Cell]:
    """Return what each cell near the grid's tiles shows, by (row, col)."""
    rows = [r for r, _ in grid.centres]
    cols = [c for _, c in grid.centres]
    c0, r0 = min(cols) - margin, min(rows) - margin
    c1, r1 = max(cols) + margin, max(rows) + margin
    rect, seen = rectify(img, grid, (c0, r0, c1, r1))
    ratio = value_ratio(rect, CELL * 1.1, floor=True)
    yy, xx = np.mgrid[0:CELL, 0:CELL]
    d = np.hypot(xx - (CELL - 1) / 2, yy - (CELL - 1) / 2)
    inset = CELL // 10
    rim = (d > 0.38 * CELL) & (xx >= inset) & (xx < CELL - inset) \
        & (yy >= inset) & (yy < CELL - inset)
    dark = ratio < _body_level(ratio, seen, rim, grid, (c0, r0, c1, r1))
    value = brightest_channel(rect).astype(np.float32)
    # Blown out: white, every channel near the top (a bright yellow symbol
    # tops one or two channels, never blue).
    white = darkest_channel(rect) >= WHITE
    # Each cell's share blown out, by (row, col) in the window; the window is
    # whole cells, one spare all round.
    blown = white.reshape(white.shape[0] // CELL, CELL,
                          white.shape[1] // CELL, CELL).mean(axis=(1, 3))
    # A grey rim tells a lamp only on a table with colour (wood, cloth): on a
    # grey one, a washed tile looks like the table.
    table = ~dark & (seen > 0)
    grey = hues.colourless(rect.reshape(-1, 3)).reshape(rect.shape[:2])
    coloured_table = bool(table.any()) and float(grey[table].mean()) < TABLE_GREY
    out = {}
    for r in range(r0, r1 + 1):
        for c in range(c0, c1 + 1):
            x = (c - c0 + 1) * CELL
            y = (r - r0 + 1) * CELL
            if seen[y:y + CELL, x:x + CELL].mean() < 0.9 * 255:
                # Partly outside the photo: unknown, not empty; a tile body
                # where it shows, as when the photo is cropped tight round
                # the tiles, may hold a tile of the move (a warning).
                cut = _cut_body(seen[y:y + CELL, x:x + CELL] > 0,
                                dark[y:y + CELL, x:x + CELL], rim)
                if cut >= TILE_BODY:
                    out[(r, c)] = Cell(r, c, cut)
                continue
            body = float(dark[y:y + CELL, x:x + CELL][rim].mean())
            cell = Cell(r, c, body)
            out[(r, c)] = cell
            cell.glare = float(blown[r - r0 + 1, c - c0 + 1])
            if coloured_table and body < TILE_BODY and cell.glare < GLARE and \
                    grey[y:y + CELL, x:x + CELL][rim].mean() >= LIT:
                cell.glare = GLARE
            # A symbol found enclosed in dark already vouches for a tile (glare
            # can lighten its body); elsewhere only a plainly dark rim does, as
            # dark wood grain can pass for a little of it. Under a lamp, a rim
            # dark or lit grey (`_lit_body`) is a tile's.
            if cell.glare >= GLARE:
                body = cell.body = max(body, _lit_body(
                    grey[y:y + CELL, x:x + CELL], dark[y:y + CELL, x:x + CELL], rim))
            if body >= (FOUND_BODY if (r, c) in grid.centres else TILE_BODY):
                _read_symbol(cell, rect, dark, x, y)
                if cell.color is None and cell.glare >= GLARE:
                    # The lamp washed the tile grey, its symbol too light to
                    # stand out: the symbol is what keeps its colour. (The
                    # reading is marked glare, so never sure.)
                    _read_symbol(cell, rect, grey, x, y)
                    cell.washed = cell.color is not None
                if cell.centre is not None:
                    sx, sy = cell.centre
                    lattice = np.array([[[sx / CELL + c0 - 1.5, sy / CELL + r0 - 1.5]]])
                    px = cv2.perspectiveTransform(lattice, grid.homography)[0, 0]
                    cell.centre = (float(px[0]), float(px[1]))
                if cell.color is not None:
                    cell.body = max(body, SYMBOL_BODY)
                    cell.edge = edge_width(value[y:y + CELL, x:x + CELL])
            elif body >= FAINT_BODY:
                probe = Cell(r, c, body)
                _read_symbol(probe, rect, dark, x, y)
                # Paint, not a lighter patch of table or a grey tile edge.
                cell.paint = probe.raw is not None and \
                    hues.hsv(probe.raw)[1] >= hues.GREY
                if cell.hint and probe.is_tile:
                    cell.probe = probe
                elif coloured_table and cell.glare < GLARE and \
                        _beside_lamp(blown, r - r0 + 1, c - c0 + 1):
                    # The lamp blown out beside it lit this rim grey too, as
                    # the lamp's own cell is (`_lit_body`): read as lit, the
                    # tile may join the move to the board (bench_photo.py's
                    # glare: such tiles were left out).
                    lit = Cell(r, c, _lit_body(grey[y:y + CELL, x:x + CELL],
                                               dark[y:y + CELL, x:x + CELL], rim))
                    if lit.body >= TILE_BODY:
                        _read_symbol(lit, rect, dark, x, y)
                        if lit.is_tile:
                            cell.probe = lit
    _less_flare(out)
    return out


def _cut_body(inside: np.ndarray, dark: np.ndarray, rim: np.ndarray) -> float:
    """Share of the part of a cell's rim inside the photo that is dark, for a
    cell the photo's edge cuts; 0 where too little of it shows
    (`CUT_SHOWN`)."""
    shown = rim & inside
    if shown.sum() < CUT_SHOWN * rim.sum():
        return 0.0
    return float(dark[shown].mean())


def _beside_lamp(blown: np.ndarray, i: int, j: int) -> bool:
    """True when a cell beside cell (i, j) of the window's blown-out shares
    (`read_cells`) is blown out (`GLARE`)."""
    rows, cols = blown.shape
    return any(0 <= i + di < rows and 0 <= j + dj < cols
               and blown[i + di, j + dj] >= GLARE
               for di, dj in ((0, 1), (0, -1), (1, 0), (-1, 0)))


def _lit_body(grey: np.ndarray, dark: np.ndarray, rim: np.ndarray) -> float:
    """Share of a lamp-lit cell's rim that is tile body: dark, or without
    colour (`grey`: white light on black is grey, where wood and cloth under
    it keep their colour)."""
    return float((grey[rim] | dark[rim]).mean())


def _less_flare(cells: dict[tuple[int, int], Cell]) -> None:
    """Set each symbol's colour: as seen, less the light glare or flare adds
    to its tile. That light shows as a tile body lighter than the photo's
    usual black; a body of the usual black adds nothing to take off (taking
    it all off would leave dark paint without its weaker channels: a dark
    orange would lose its green and read red)."""
    blacks = [c.black for c in cells.values() if c.black is not None]
    if not blacks:
        return
    usual = np.median(np.array(blacks), axis=0)
    for cell in cells.values():
        if cell.raw is None or cell.black is None or cell.lamp_free:
            continue
        excess = np.maximum(cell.black - usual, 0)
        cell.color = np.maximum(cell.raw - 0.9 * excess, 1e-4).astype(np.float64)


def _body_level(ratio: np.ndarray, seen: np.ndarray, rim: np.ndarray, grid: Grid,
                box: tuple[int, int, int, int]) -> float:
    """Return the brightness ratio below which a pixel is tile body: between the
    rims of cells known to hold a tile (a symbol was found there) and the rims
    of the cells around them, mostly table."""
    c0, r0, c1, r1 = box
    tiles: list[float] = []
    others: list[float] = []
    for r in range(r0, r1 + 1):
        for c in range(c0, c1 + 1):
            x, y = (c - c0 + 1) * CELL, (r - r0 + 1) * CELL
            if seen[y:y + CELL, x:x + CELL].min() == 0:
                continue
            values = ratio[y:y + CELL, x:x + CELL][rim]
            (tiles if (r, c) in grid.centres else others).append(values)
    if not tiles:
        return dark_threshold(ratio, seen)
    body = float(np.median(np.concatenate(tiles)))
    table = float(np.median(np.concatenate(others))) if others else body + 0.6
    return max(body + 0.08, body + 0.45 * (table - body))


def _read_symbol(cell: Cell, rect: np.ndarray, dark: np.ndarray, x: int, y: int
                 ) -> None:
    """Find the symbol near the cell's middle (`symbols.find_symbol`); store
    its colour and shape."""
    found = find_symbol(rect, dark, x, y, vouched=cell.body >= TILE_BODY,
                        lamp=cell.glare >= GLARE)
    if found is None:
        return
    cell.centre, cell.mask = found.centre, found.mask
    cell.raw, cell.black, cell.lamp_free = found.raw, found.black, found.lamp_free
    cell.color = cell.raw


def may_hide_tile(cell: Cell, beside_move: bool = False) -> bool:
    """True when a tile may lie on the cell but was not read: a tile body
    without a readable symbol, or paint on a rim too light to vouch for one
    (`cells.Cell.hint`; beside a tile of the move, on a lighter rim too)."""
    return not cell.is_tile and (cell.body >= TILE_BODY or cell.hint
                                 or (beside_move and cell.paint))
