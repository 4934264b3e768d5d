"""Find each symbol in a cell of the rectified grid (`cells.rectify`): its
centre, its mask scaled to one size in the middle, its colour and its body's.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import cast

import cv2
import numpy as np
from cv2.typing import MatLike

from . import hues
from .levels import WHITE, brightest_channel, filled

CELL = 64
"""Pixels per cell edge in the rectified grid (the renders)."""

MASK_MID = 127
"""8-bit level above which a smoothed mask is set (half of 255)."""

SHOWN = 255
"""8-bit level of a pixel wholly inside the photo (`cells.rectify`'s mask)."""

MIN_PIXELS = 8
"""Pixels: a mask with fewer is a speck."""

SPECK = 0.03
"""Share of a cell: a smaller mask is a speck (a glint, JPEG noise)."""

LARGEST = 0.6
"""Share of a cell: a larger mask is more than a symbol covers."""

MIN_CORE = 12
"""Pixels a symbol's colour is taken from at least (else the whole symbol)."""

LAMP_CONTRAST = 0.05
"""Linear colourfulness over its body from which a symbol under a lamp is
outlined on its colour (`_by_colour`; realistic glare)."""

BODY_CONTRAST = 24
"""8-bit levels a cell's middle must be over its body to hold a lighter
symbol (`_over_body`; realistic dark paint)."""

COLOUR_CONTRAST = 16
"""8-bit BGR distance past the body's spread from which a cell's middle
holds a symbol unlike it in colour (`_unlike_body`; realistic cool light)."""

LIT_SHARE = 0.05
"""Share of a window lit grey that shows a lamp beside the symbol
(realistic glare; without it, grain on dark wood passed for paint)."""

OWN_LEVEL = 0.3
"""Share of the way from the body's brightness to the symbol's where its
own outline is drawn (realistic dark crisscrosses, which blur filled out)."""

LAMP_LEVEL = 0.35
"""The same for a symbol under a lamp, in colourfulness (`_by_colour`)."""

_LINEAR = ((np.arange(256) / 255.0) ** hues.GAMMA).astype(np.float32)
"""Each 8-bit sRGB level in linear light."""

_YY, _XX = np.mgrid[0:CELL, 0:CELL]

_OUTER = np.hypot(_XX - (CELL - 1) / 2, _YY - (CELL - 1) / 2) > 0.36 * CELL
"""The outer ring of a cell, beyond any symbol."""

RADIUS = 0.19 * CELL
"""Pixels: the root-mean-square radius masks are scaled to (a usual symbol's)."""


@dataclass
class Symbol:
    """A symbol found: the fields `cells.Cell` takes (centre in rectified pixels)."""

    centre: tuple[float, float]
    mask: np.ndarray
    color: np.ndarray
    black: np.ndarray


class _Window:
    """The cell at (x, y) of the rectified grid `rect` (`dark`: its tile-body
    pixels) and the quarter cell round it a symbol may reach."""

    def __init__(self, rect: np.ndarray, dark: np.ndarray, x: int, y: int) -> None:
        m = CELL // 4
        h, w = dark.shape
        self.rect, self.dark = rect, dark
        self.x0, self.y0 = max(0, x - m), max(0, y - m)
        self.box = np.s_[self.y0:min(h, y + CELL + m), self.x0:min(w, x + CELL + m)]
        """The window in the grid's pixels."""
        self.cell = np.s_[y:y + CELL, x:x + CELL]
        """The cell in the grid's pixels."""
        dx, dy = x - self.x0, y - self.y0
        self.inner = np.s_[dy:dy + CELL, dx:dx + CELL]
        """The cell in the window's pixels."""
        self.mid = np.array([dx + CELL / 2, dy + CELL / 2])
        """The cell's middle in the window's pixels."""


def find_symbol(rect: np.ndarray, dark: np.ndarray, x: int, y: int,
                vouched: bool = False, lamp: bool = False,
                seen: np.ndarray | None = None) -> Symbol | None:
    """The symbol near the middle of the cell at (x, y), or None. `vouched`:
    its rim vouches for a tile (`cells.TILE_BODY`); `lamp`: glare on it;
    `seen`: which of `rect`'s pixels the photo shows (None for a symbol the
    photo's edge touches)."""
    win = _Window(rect, dark, x, y)
    light = (~dark[win.box]).astype(np.uint8)
    if _speck(_central_parts(light, win.mid)):
        # Dark paint on a light table: look against the tile body alone.
        lighter = _over_body(win, 0.45, None, 0.2, 90)
        light = light if lighter is None else lighter
    mask = _peeled(light, win.mid)
    if _speck(mask):
        # Dark paint in coloured light differs from its body in colour alone.
        mask = _peeled(_unlike_body(win, light), win.mid)
    if _speck(mask) and vouched:
        # A lamp beside the tile lit part of its body grey, joining the symbol
        # to the table past it: paint is never grey (only on a rim that
        # vouches for a tile, and where something is lit grey).
        grey = hues.colourless(rect[win.box])
        body_free = ~dark[win.box]
        if float((body_free & grey).mean()) >= LIT_SHARE:
            mask = _peeled((body_free & ~grey).astype(np.uint8), win.mid)
    mask = _sized(mask)
    norm = None if mask is None else normalise(mask)
    if mask is None or norm is None:
        return None
    if seen is not None:
        around = cv2.dilate(mask, np.ones((3, 3), np.uint8)) > 0
        if (seen[win.box][around] < SHOWN).any():
            return None
    my, mx = np.nonzero(mask)
    centre = (float(mx.mean()) + win.x0, float(my.mean()) + win.y0)
    # Colour from the symbol's inside, away from edges blurred into black.
    core = cv2.erode(mask, np.ones((3, 3), np.uint8))
    symbol = rect[win.box][(mask if core.sum() < MIN_CORE else core) > 0]
    pix = symbol.astype(np.float32)
    bright = pix.max(axis=1)
    # The brighter half: blur and black rims darken the rest.
    bgr = np.median(pix[bright >= np.median(bright)], axis=0) / 255.0
    # The tile body round it: its colour is the light's (`colour_model`).
    body = rect[win.cell][dark[win.cell]]
    black = np.median(body, axis=0) / 255.0 if len(body) else np.zeros(3)
    found = Symbol(centre, _own_level(win, norm),
                   (bgr[::-1] ** hues.GAMMA).astype(np.float64),
                   (black[::-1] ** hues.GAMMA).astype(np.float64))
    if lamp:
        lamp_free = _lamp_free_colour(symbol)
        if lamp_free is not None:
            found.color = lamp_free
        found.mask = _by_colour(win, found.mask)
    return found


def _own_level(win: _Window, norm: np.ndarray) -> np.ndarray:
    """The symbol's mask outlined at its own level over its body (`OWN_LEVEL`:
    a blurred dark crisscross fills out at the photo's), else `norm`."""
    # The body from the cell's outer ring only: a dark symbol is nearly as
    # dark as the body and would lift its level.
    light = _over_body(win, OWN_LEVEL, _OUTER, 0.1, 95)
    own = None if light is None else _sized(_peeled(light, win.mid))
    again = None if own is None else normalise(own)
    return norm if again is None else again


def _by_colour(win: _Window, norm: np.ndarray) -> np.ndarray:
    """The symbol's mask outlined on its colourfulness, else `norm`: a lamp's
    white adds to every channel alike and drops out (the specular-free image
    of the dichromatic reflection model)."""
    lin = _LINEAR[win.rect[win.box]]
    # The lamp's white varies smoothly: the darkest channel, smoothed, is it
    # (and the paint's own darkest, a little); less it, the brightest keeps
    # the sharper outline of the photo's brightness.
    chroma = lin.max(axis=2) - cv2.GaussianBlur(lin.min(axis=2), (0, 0), 2.0)
    # The body from the cell's outer ring; its lower half, as the ring's
    # corners can reach past a small tile onto coloured wood.
    base = float(np.percentile(chroma[win.inner][_OUTER], 25))
    light = _stands_out(chroma, base, win, LAMP_LEVEL, 95, LAMP_CONTRAST)
    mask = None if light is None else _sized(_peeled(light, win.mid))
    # No symbol has a hole, but a lamp blown to white leaves one where it
    # took the symbol's colour.
    again = None if mask is None else normalise(filled(mask))
    return norm if again is None else again


def _lamp_free_colour(pix: np.ndarray) -> np.ndarray | None:
    """A symbol's colour under a lamp (linear RGB, from BGR uint8 pixels), or
    None where too few are unclipped: each pixel less its darkest channel
    (the lamp's white), plus the least darkest channel (the paint's own)."""
    pix = pix[pix.min(axis=1) < WHITE]
    if len(pix) < MIN_CORE:
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
    """True for no symbol or one too small (a glint, JPEG noise)."""
    return mask is None or int(mask.sum()) < SPECK * CELL * CELL


def _sized(mask: np.ndarray | None) -> np.ndarray | None:
    """The mask if it is a symbol's size (`SPECK`, `LARGEST`), else None."""
    if mask is None or _speck(mask) or int(mask.sum()) > LARGEST * CELL * CELL:
        return None
    return mask


def _over_body(win: _Window, share: float, ring: np.ndarray | None, least: float,
               top_percent: float) -> np.ndarray | None:
    """`_stands_out` in brightness over the cell's body (its dark pixels in
    `ring`, at least `least` of the cell), or None."""
    value = brightest_channel(win.rect[win.box]).astype(np.float32)
    body_mask = win.dark[win.cell]
    body = value[win.inner][body_mask if ring is None else body_mask & ring]
    if body.size < least * CELL * CELL:
        return None
    return _stands_out(value, float(np.median(body)), win, share, top_percent,
                       BODY_CONTRAST)


def _stands_out(measure: np.ndarray, base: float, win: _Window, share: float,
                top_percent: float, contrast: float) -> np.ndarray | None:
    """The window's pixels over `share` of the way from the body's `base` to
    the cell middle's `top_percent` percentile, or None under `contrast`."""
    q = CELL // 4
    top = float(np.percentile(measure[win.inner][q:CELL - q, q:CELL - q], top_percent))
    if top - base < contrast:
        return None
    return (measure > base + share * (top - base)).astype(np.uint8)


def _peeled(light: np.ndarray, mid: np.ndarray) -> np.ndarray | None:
    """The symbol's mask in a window's light pixels, or None, peeled a pixel
    at a time from a thin bridge of light joining it to the table."""
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


def _unlike_body(win: _Window, light: np.ndarray) -> np.ndarray:
    """The window's pixels clearly unlike the cell's body in colour
    (`COLOUR_CONTRAST`), or `light` if none."""
    cell = win.rect[win.cell].astype(np.float32)
    # The body from the cell's outer ring only: a dark symbol is as dark as
    # the body and would lend it its colour.
    body = cell[win.dark[win.cell] & _OUTER]
    if len(body) < 0.1 * CELL * CELL:
        return light
    base = np.median(body, axis=0)
    far = np.linalg.norm(win.rect[win.box].astype(np.float32) - base, axis=2)
    usual = float(np.median(np.linalg.norm(body - base, axis=1)))
    unlike = _stands_out(far, usual, win, 0.45, 90, COLOUR_CONTRAST)
    return light if unlike is None else unlike


def _central_parts(light: np.ndarray, mid: np.ndarray) -> np.ndarray | None:
    """The mask of the light blobs round `mid` smaller than a cell."""
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
    """A symbol mask moved to the cell's middle and scaled to `RADIUS`, to
    compare whatever the tile size; None for a speck."""
    m = cv2.moments(mask.astype(np.uint8), binaryImage=True)
    if m["m00"] < MIN_PIXELS:
        return None
    cx, cy = m["m10"] / m["m00"], m["m01"] / m["m00"]
    scale = RADIUS / math.sqrt((m["mu20"] + m["mu02"]) / m["m00"])
    warp = np.array([[scale, 0, CELL / 2 - scale * cx],
                     [0, scale, CELL / 2 - scale * cy]])
    out = cv2.warpAffine(mask.astype(np.uint8) * 255, warp, (CELL, CELL),
                         flags=cv2.INTER_LINEAR)
    return out > MASK_MID


def edge_width(value: np.ndarray) -> float:
    """A cell's sharpest edge's width, share of a cell: contrast over slope."""
    v = cv2.GaussianBlur(value, (0, 0), 1.0)
    gx = cv2.Sobel(v, cv2.CV_32F, 1, 0, ksize=3) / 8
    gy = cv2.Sobel(v, cv2.CV_32F, 0, 1, ksize=3) / 8
    slope = float(np.percentile(np.hypot(gx, gy), 99))
    low, high = np.percentile(v, (5, 95))
    return float((high - low) / max(slope, 1e-3) / CELL)
