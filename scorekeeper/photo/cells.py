"""Read each cell of a rectified grid: is there a tile, its symbol's colour and shape.

The grid is warped to squares of CELL pixels. A cell holds a tile when its rim
is dark (a tile body); the symbol is the light blob nearest the middle. Its
colour is the median of its brighter half, less the black of the tile around
it; its shape is its mask, moved to the middle and scaled to one size.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import cast

import cv2
import numpy as np
from cv2.typing import MatLike

from . import hues
from .grid import (
    Grid,
    brightest_channel,
    dark_threshold,
    darkest_channel,
    filled,
    value_ratio,
)

CELL = 64
"""Pixels per cell edge in the rectified grid."""

WHITE = 235
"""A pixel with every channel at least this is blown out (glare)."""

GLARE = 0.04
"""Share of a cell blown out (a channel at the sensor's top) that makes glare
there: a tile under it may be misread, or missing from the reading."""

LIT = 0.9
"""Share of a cell's rim without colour that makes it lamp-lit where no
pixel is blown out: a weak lamp washes a black tile grey, while wood and
cloth under it keep their colour (no empty cell of the realistic sets'
warm, cool, paint-shifted and first-move photos comes near it). Only on a
table with colour (`TABLE_GREY`)."""

TABLE_GREY = 0.3
"""Share of the table's pixels without colour above which `LIT` is not
used: the table is grey itself."""

LIT_SHARE = 0.05
"""Share of a symbol's window lit grey (light, without colour) that shows a
lamp's light beside it (`_read_symbol`)."""

TILE_BODY = 0.75
"""A cell's rim this dark vouches for a tile body, symbol read or not."""

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
    size (`classify.normalise`)."""
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
    """`raw` is already free of the lamp's white (`_lamp_free_colour`)."""
    probe: Cell | None = None
    """The painted symbol read on a rim too light to vouch for a tile, from
    `HALF_BODY` dark (`hint`), or lit grey by a lamp blown out beside it: no
    tile, unless the rules need one there (`reader._joined_by_paint`)."""
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
        return self.body >= 0.5 and self.color is not None and self.mask is not None


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
                continue  # partly outside the photo: unknown, not empty
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
            if body >= (0.3 if (r, c) in grid.centres else TILE_BODY):
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
                    cell.body = max(body, 0.5)
                    cell.edge = _edge_width(value[y:y + CELL, x:x + CELL])
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


def _edge_width(value: np.ndarray) -> float:
    """The width of a cell's sharpest edge (symbol against body), as a share of
    the cell: its contrast over its steepest slope."""
    v = cv2.GaussianBlur(value, (0, 0), 1.0)
    gx = cv2.Sobel(v, cv2.CV_32F, 1, 0, ksize=3) / 8
    gy = cv2.Sobel(v, cv2.CV_32F, 0, 1, ksize=3) / 8
    slope = float(np.percentile(np.hypot(gx, gy), 99))
    low, high = np.percentile(v, (5, 95))
    return float((high - low) / max(slope, 1e-3) / CELL)


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
    """Find the symbol near the cell's middle; store its colour and shape."""
    m = CELL // 4
    h, w = dark.shape
    wx0, wy0 = max(0, x - m), max(0, y - m)
    wx1, wy1 = min(w, x + CELL + m), min(h, y + CELL + m)
    light = (~dark[wy0:wy1, wx0:wx1]).astype(np.uint8)
    mid = np.array([x + CELL / 2 - wx0, y + CELL / 2 - wy0])
    if _speck(_central_parts(light, mid)):
        # Dark paint: a symbol nearly as dark as its tile against a light
        # table (at most a speck of it lighter than the level). Look for it
        # against the tile body alone.
        light = _lighter_than_body(rect, dark, x, y, (wx0, wy0, wx1, wy1), light)
    mask = _peeled(light, mid)
    if _speck(mask):
        # Dark paint in coloured light: a deep red under a cool light is as
        # bright as the bluish grey the light makes of the tile body; it
        # differs in colour, not in brightness.
        light = _unlike_body(rect, dark, x, y, (wx0, wy0, wx1, wy1), light)
        mask = _peeled(light, mid)
    if _speck(mask) and cell.body >= TILE_BODY:
        # A lamp beside the tile lit part of its body grey, joining the symbol
        # to the table past it (bench_photo.py's glare): paint is never grey.
        # Only on a body that vouches for a tile (on a lighter rim, probed for
        # paint, it found wood grain in bluish light), and where something is
        # lit grey (on dark wood it found paint in the grain).
        grey = hues.colourless(rect[wy0:wy1, wx0:wx1])
        light = ~dark[wy0:wy1, wx0:wx1]
        if float((light & grey).mean()) >= LIT_SHARE:
            mask = _peeled((light & ~grey).astype(np.uint8), mid)
    if mask is None:
        return
    area = int(mask.sum())
    if area < 0.03 * CELL * CELL or area > 0.6 * CELL * CELL:
        return
    norm = normalise(mask)
    if norm is None:
        return
    my, mx = np.nonzero(mask)
    cell.centre = (float(mx.mean()) + wx0, float(my.mean()) + wy0)
    # Colour from the symbol's inside, away from edges blurred into black.
    core = cv2.erode(mask, np.ones((3, 3), np.uint8))
    if core.sum() < 12:
        core = mask
    symbol = rect[wy0:wy1, wx0:wx1][core > 0]
    pix = symbol.astype(np.float32)
    bright = pix.max(axis=1)
    # The brighter half: blur and black rims darken the rest.
    pix = pix[bright >= np.median(bright)]
    bgr = np.median(pix, axis=0) / 255.0
    # Less the black of the tile around it: glare and flare add light to both.
    body = rect[y:y + CELL, x:x + CELL][dark[y:y + CELL, x:x + CELL]]
    black = np.median(body, axis=0) / 255.0 if len(body) else np.zeros(3)
    cell.raw = (bgr[::-1] ** hues.GAMMA).astype(np.float64)
    cell.black = (black[::-1] ** hues.GAMMA).astype(np.float64)
    cell.mask = _own_level(rect, dark, x, y, (wx0, wy0, wx1, wy1), norm)
    if cell.glare >= GLARE:
        lamp_free = _lamp_free_colour(symbol)
        if lamp_free is not None:
            cell.raw, cell.lamp_free = lamp_free, True
        cell.mask = _by_colour(rect, x, y, (wx0, wy0, wx1, wy1), cell.mask)
    cell.color = cell.raw


OWN_LEVEL = 0.3
"""Where a symbol's outline is drawn for its shape: this share of the way from
its tile body's brightness up to its own brightest."""


def _own_level(rect: np.ndarray, dark: np.ndarray, x: int, y: int,
               window: tuple[int, int, int, int], norm: np.ndarray) -> np.ndarray:
    """The symbol's shape (normalised mask) outlined at its own level over its
    tile body, or `norm` (its mask at the photo's level) where it shows too
    little contrast for one. Blur spreads a dark symbol's paint into the gaps
    between its arms and points: at the photo's level, set for the whole
    photo, a dark crisscross fills out into a square and a starburst into a
    circle; at a level of its own the arms and points stand out again."""
    # The body from the cell's outer ring only: a dark symbol is nearly as
    # dark as the body and would lift its level.
    light = _over_body(rect, dark, x, y, window, OWN_LEVEL, _OUTER, 0.1, 95)
    if light is None:
        # As dark as its body: it differs in colour (`_unlike_body`).
        return norm
    own = _outline(light, x, y, window)
    again = None if own is None else normalise(own)
    return norm if again is None else again


def _outline(light: np.ndarray, x: int, y: int, window: tuple[int, int, int, int]
             ) -> np.ndarray | None:
    """The mask of the symbol of the cell at (x, y) among a window's light
    pixels, or None: nothing there, a speck, or more than a symbol covers."""
    wx0, wy0, _, _ = window
    mask = _peeled(light, np.array([x + CELL / 2 - wx0, y + CELL / 2 - wy0]))
    if mask is None or _speck(mask) or int(mask.sum()) > 0.6 * CELL * CELL:
        return None
    return mask


LAMP_LEVEL = 0.35
"""Where a symbol under a lamp is outlined on its colour alone (`_by_colour`):
this share of the way from its tile body's colourfulness up to its own."""

_LINEAR = ((np.arange(256) / 255.0) ** hues.GAMMA).astype(np.float32)
"""Each 8-bit sRGB level in linear light (as `_read_symbol` converts)."""


def _by_colour(rect: np.ndarray, x: int, y: int, window: tuple[int, int, int, int],
               norm: np.ndarray) -> np.ndarray:
    """The symbol's shape outlined on its colourfulness alone (each pixel's
    brightest channel less the darkest around it, in linear light), or
    `norm` where it shows too little colour for one. A lamp's reflection is
    white light added to everything under it: it lights the black body
    between a crisscross's arms as much as the arms, so that by brightness
    the arms join into a square, while what it adds to every channel alike
    drops out of the difference (the specular-free image of the dichromatic
    reflection model)."""
    wx0, wy0, wx1, wy1 = window
    lin = _LINEAR[rect[wy0:wy1, wx0:wx1]]
    # The lamp's white varies smoothly: the darkest channel, smoothed, is it
    # (and the paint's own darkest, a little); less it, the brightest keeps
    # the sharper outline of the photo's brightness.
    chroma = lin.max(axis=2) - cv2.GaussianBlur(lin.min(axis=2), (0, 0), 2.0)
    own = chroma[y - wy0:y - wy0 + CELL, x - wx0:x - wx0 + CELL]
    # The body from the cell's outer ring; its lower half, as the ring's
    # corners can reach past a small tile onto coloured wood.
    base = float(np.percentile(own[_OUTER], 25))
    q = CELL // 4
    top = float(np.percentile(own[q:CELL - q, q:CELL - q], 95))
    if top - base < 0.05:
        return norm
    light = (chroma > base + LAMP_LEVEL * (top - base)).astype(np.uint8)
    mask = _outline(light, x, y, window)
    # No symbol has a hole, but a lamp blown to white leaves one where it
    # took the symbol's colour.
    again = None if mask is None else normalise(filled(mask))
    return norm if again is None else again


def _lamp_free_colour(pix: np.ndarray) -> np.ndarray | None:
    """A symbol's colour under a lamp (linear RGB, from its pixels, BGR
    uint8), or None where the lamp left too few unclipped. A lamp's
    reflection adds the same white to every channel of a pixel, more near
    its middle: each pixel less its darkest channel is free of it, and the
    paint's own darkest channel is the least a pixel shows of it. (Taking
    off the white of the body around the symbol, as elsewhere, leaves the
    more the symbol lies under the lamp's middle: an orange read red.)"""
    pix = pix[pix.min(axis=1) < WHITE]
    if len(pix) < 12:
        return None
    lin = _LINEAR[pix[:, ::-1]]
    low = lin.min(axis=1, keepdims=True)
    floor = float(np.percentile(low, 10))
    free = lin - low
    # The more coloured half: blur and blown-out edges take colour from the rest.
    spread = free.max(axis=1)
    free = free[spread >= np.median(spread)]
    return np.asarray(np.median(free, axis=0), np.float64) + floor


def _speck(mask: np.ndarray | None) -> bool:
    """True for no symbol, or one too small to be one (a glint of a dark
    symbol's lightest pixels, JPEG noise)."""
    return mask is None or int(mask.sum()) < 0.03 * CELL * CELL


def _lighter_than_body(rect: np.ndarray, dark: np.ndarray, x: int, y: int,
                       window: tuple[int, int, int, int], light: np.ndarray
                       ) -> np.ndarray:
    """The pixels of a window clearly lighter than the tile body of the cell
    at (x, y), when its middle holds something clearly lighter than it."""
    lighter = _over_body(rect, dark, x, y, window, 0.45, None, 0.2, 90)
    return light if lighter is None else lighter


def _over_body(rect: np.ndarray, dark: np.ndarray, x: int, y: int,
               window: tuple[int, int, int, int], share: float,
               ring: np.ndarray | None, least: float, top_percent: float
               ) -> np.ndarray | None:
    """The pixels of a window brighter than `share` of the way from the tile
    body of the cell at (x, y) (its dark pixels, within `ring` if given; at
    least `least` of the cell) up to the brightest of its middle (that
    percentile), or None when there is no such body or nothing in its middle
    clearly brighter than it."""
    wx0, wy0, wx1, wy1 = window
    value = brightest_channel(rect[wy0:wy1, wx0:wx1]).astype(np.float32)
    cell_value = value[y - wy0:y - wy0 + CELL, x - wx0:x - wx0 + CELL]
    body_mask = dark[y:y + CELL, x:x + CELL]
    body = cell_value[body_mask if ring is None else body_mask & ring]
    if body.size < least * CELL * CELL:
        return None
    base = float(np.median(body))
    q = CELL // 4
    top = float(np.percentile(cell_value[q:CELL - q, q:CELL - q], top_percent))
    if top - base < 24:
        return None
    return (value > base + share * (top - base)).astype(np.uint8)


def _peeled(light: np.ndarray, mid: np.ndarray) -> np.ndarray | None:
    """The symbol's mask in a window's light pixels, or None. A thin bridge of
    light (blur over a narrow rim) can join the symbol to the table: peel the
    light back a pixel at a time until the symbol stands alone."""
    kernel = np.ones((3, 3), np.uint8)
    for peel in range(4):
        core = cv2.erode(light, kernel, iterations=peel) if peel else light
        parts = _central_parts(core, mid)
        if parts is not None:
            if peel:
                grown = np.asarray(cv2.dilate(parts, kernel, iterations=peel))
                return cast(np.ndarray, grown & np.asarray(light))
            return parts
    return None


_YY, _XX = np.mgrid[0:CELL, 0:CELL]
_OUTER = np.hypot(_XX - (CELL - 1) / 2, _YY - (CELL - 1) / 2) > 0.36 * CELL
"""The outer ring of a cell, beyond any symbol."""


def _unlike_body(rect: np.ndarray, dark: np.ndarray, x: int, y: int,
                 window: tuple[int, int, int, int], light: np.ndarray) -> np.ndarray:
    """The pixels of a window clearly unlike the tile body of the cell at
    (x, y) in colour (distance from the body's median colour), when its middle
    holds something clearly unlike it."""
    wx0, wy0, wx1, wy1 = window
    cell = rect[y:y + CELL, x:x + CELL].astype(np.float32)
    # The body from the cell's outer ring only: a dark symbol is as dark as
    # the body and would lend it its colour.
    body = cell[dark[y:y + CELL, x:x + CELL] & _OUTER]
    if len(body) < 0.1 * CELL * CELL:
        return light
    base = np.median(body, axis=0)
    far = np.linalg.norm(rect[wy0:wy1, wx0:wx1].astype(np.float32) - base, axis=2)
    usual = float(np.median(np.linalg.norm(body - base, axis=1)))
    q = CELL // 4
    top = float(np.percentile(far[y - wy0 + q:y - wy0 + CELL - q,
                                  x - wx0 + q:x - wx0 + CELL - q], 90))
    if top - usual < 16:
        return light
    return cast(np.ndarray, (far > usual + 0.45 * (top - usual)).astype(np.uint8))


def _central_parts(light: np.ndarray, mid: np.ndarray) -> np.ndarray | None:
    """Return the mask of the light blobs around `mid` smaller than a cell."""
    n, labels, stats, cents = cv2.connectedComponentsWithStats(
        cast(MatLike, light), connectivity=8
    )
    parts = []
    for k in range(1, n):
        if stats[k, cv2.CC_STAT_AREA] < 0.004 * CELL * CELL:
            continue
        if np.linalg.norm(cents[k] - mid) < 0.3 * CELL and \
                stats[k, cv2.CC_STAT_WIDTH] < 0.95 * CELL and \
                stats[k, cv2.CC_STAT_HEIGHT] < 0.95 * CELL:
            parts.append(k)
    if not parts:
        return None
    return np.isin(labels, parts).astype(np.uint8)


def normalise(mask: np.ndarray) -> np.ndarray | None:
    """Return a symbol mask moved to the cell's middle and scaled to one size
    (its root-mean-square radius), so that symbols compare whatever the tile
    size, the perspective or the print's proportions; None for a speck."""
    m = cv2.moments(mask.astype(np.uint8), binaryImage=True)
    if m["m00"] < 8:
        return None
    cx, cy = m["m10"] / m["m00"], m["m01"] / m["m00"]
    scale = RADIUS / math.sqrt((m["mu20"] + m["mu02"]) / m["m00"])
    warp = np.array([[scale, 0, CELL / 2 - scale * cx],
                     [0, scale, CELL / 2 - scale * cy]])
    out = cv2.warpAffine(mask.astype(np.uint8) * 255, warp, (CELL, CELL),
                         flags=cv2.INTER_LINEAR)
    return out > 127


RADIUS = 0.19 * CELL
"""The root-mean-square radius every symbol mask is scaled to."""
