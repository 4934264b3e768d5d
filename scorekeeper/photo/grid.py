"""Find the tiles' lattice: a symbol's centre is its tile's, so a lattice is
grown over the symbols (`blobs`) from neighbour to neighbour, and a
homography from lattice (col, row) to pixels fitted to every symbol it
explains. Raises `PhotoUnreadable` for no tile or tiles too small.
"""

from __future__ import annotations

import math
from collections import deque
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

import cv2
import numpy as np

from .blobs import (
    FEW,
    Blobs,
    find_blobs,
    lamp_spots,
    more_dark_paint,
    without,
)
from .errors import PhotoUnreadable
from .levels import brightest_channel, filled
from .reading import SIDES, Cell

__all__ = ["Grid", "detection_image", "explains", "find_grid", "foreshortened",
           "halved", "one_tile", "refit", "tile_bodies"]

Points = dict[Cell, tuple[float, float]]
"""Points (x, y, working pixels) by the lattice cell (row, col) each lies on."""

DETECT_SIDE = 1600
"""Pixels: the long side the symbols are looked for at (`tests/photo/synth.py`)."""

MIN_PITCH = 14.0
"""Working pixels: a smaller step is refused `too_small` (renders' tiles: 30 px up)."""

HOMOGRAPHY_POINTS = 4
"""Symbols a homography needs; fewer fit an affine map or a line."""

AFFINE_POINTS = 3
"""Symbols an affine map goes through exactly (an L of three)."""

TABLE_CONTRAST = 16
"""8-bit levels a table is lighter than a lone tile's body (realistic dark tables)."""

ON_LATTICE = 0.28
"""Steps: a symbol this near its lattice point joins the fit (the renders)."""

CLOSE_PX = 5
"""Pixels over which a tile body's dark is closed (grain, the symbol's edge)."""

SQUARE = 0.8
"""The least ratio of a tile body's short side to its long one."""

FILLED = 0.75
"""The least share of its box a tile body fills (its corners are rounded)."""

BODY_TO_TILE = 1.03
"""A tile's edge over its body's box (rounded corners pull the box in)."""

BODY_OVER_SYMBOL = (1.15, 3.0)
"""A lone tile body's side over its symbol's extent (the renders)."""

SPOT = 1.5
"""Symbol extents: a lamp's spot up to this size helps fit the lattice; a
larger one spreads past its tile (realistic glare)."""

APART = 1.05
"""Neighbouring symbols lie further apart than this many of the wider's
extent (grain inside a tile set half a step)."""

NEIGHBOUR = (0.8, 1.25)
"""Steps between which two symbols are neighbours, for the lattice's angle;
this and the next three were set with the first reader, on the renders."""

NEAR = 1.6
"""Steps within which the lattice grows to a symbol."""

OFF_STEP = 0.3
"""Steps a symbol may lie from where the lattice grows it."""

OFF_FIT = 0.25
"""Steps a symbol may lie off a fitted homography (RANSAC's threshold)."""

SANE = (0.5, 2.0)
"""Steps a fitted homography's cells must measure between (`_sane`)."""

ACROSS = 60.0
"""Degrees off a row past which a step is across it (`_across`): a square
cell's diagonal lies 45° off; with the cut there, a board of four symbols
under a lamp took a diagonal for the step across
(`tests/photo/test_photo_lamp.py`). Steps across a slanted photo's rows
lie 68-90° off them (the renders at 40-50°, the development set at
a slant)."""

LATTICE_GAPS = np.array([1.0, math.sqrt(2), 2.0, math.sqrt(5), math.sqrt(8), 3.0])
"""Steps between cells of a square lattice, up to three."""

GAP_FIT = 0.08
"""Share of a lattice distance a neighbour's may be off it (realistic small
boards with a tile unread)."""

LOOSE_BODY = (0.75, 1.25)
"""A lone tile body's side, share of the lattice's step, for it to stand
for a tile laid loosely (`find_grid`). Where a symbol lies it measures
0.82–1.21 on the loose-board set's photos 0–99 (125 bodies) and 0.88–1.17
on the own renders' (42), at either level (`blobs.BODY_LEVEL`)."""

SLANTED = 0.8
"""The symbols' second moments across over along (their median, `_unslanted`)
under which the photo was taken at a slant: cos² of the angle from straight
down, so 0.8 is 27°. Under it the lattice is grown where the slant is
undone; a photo taken less slanted is read as before."""

EXACT = 0.05
"""Steps within which an affine map must take each symbol of a lattice
grown where the slant was undone (no homography fitting it, `_fit`). On
`benchmarks/bench_slants.py`'s photos every such lattice fitted by a
homography was a homography's to 0.00-0.03 of a step and read right or
unsure; those fitted by an affine map to 0.00-0.04 read right, and those
past 0.05 missed tiles in silence in 4 of 64. The development set's
hand-laid tiles at a slant lie 0.03-0.18 off their homography (`OFF_FIT`
bounds it)."""

APART_BODIES = 3
"""Outlines of lone tile bodies on the symbols' cells from which their
median side measures how much of a step a tile fills (`Grid.tile`): each
dark mask outlines a body (`blobs.Blobs.dark`, `deep`), most often both,
so one body alone measures nothing and two tiles of a first move laid
apart do (`tests/photo/test_photo_apart.py`). Counted by cell instead, two
bodies measure tiles laid touching as low as 0.83 of the step (the eight
synthetic sets' photos 0-99), where tiles laid apart reach (`APART_TILE`),
and three bodies miss such a first move (2 of the test's 16)."""

APART_SIDE = (0.5, 1.25)
"""A lone tile body's side, share of the step, for it to measure a tile:
under half a step the tiles lie a whole tile apart, and the step is halved
(`reader._step_of_two`); over it, two bodies merged (`LOOSE_BODY`)."""

APART_TILE = 0.84
"""The median side (share of the step, `APART_BODIES`) under which tiles
lie apart and each cell is read at its tile's size. Tiles laid touching
measure 0.85-1.09 (the 63 of the eight synthetic sets' photos 0-99 with
three lone bodies or more); laid at 0.75 of the step, 0.73-0.83 (the cool
light set's photos 0-29 and `tests/photo/test_photo_apart.py`'s boards)."""

LOCAL_BODIES = 12
"""Symbols nearest the middle whose tile bodies are measured against the
table round each (`_local_body`) where too few stand alone in the dark
masks to measure `Grid.tile` (`APART_BODIES`): a wooden table's dark grain
joins them there. Twelve measured three bodies or more on 473 of the 540
photos of `LOCAL_APART_TILE`, in a median 8 ms a photo (29 ms at most,
every twentieth of its photos 30-89, load 2.7)."""

LOCAL_APART_TILE = 0.8
"""`APART_TILE` for the bodies measured so (`LOCAL_BODIES`): tiles laid
touching measure 0.82-1.0 (the 208 of the eight synthetic sets' photos
0-99 with three bodies measured or more), laid at 0.75 of the step
0.67-0.87, 471 of 473 under 0.8 (the realistic conditions' photos 0-89
drawn so, `benchmarks/bench_apart.py`)."""

LINE_POINTS = 3
"""Symbols on a line from which `foreshortened` fits it: its five unknowns
take three points' six coordinates."""

TWO_STEPS = 5.6
"""Symbol extents to a neighbour that may be two steps away: a symbol's box
is at least 0.36 of a step in the benchmark's photos (`reader._step_of_two`)."""


@dataclass
class Grid:
    """The tile grid seen in a photo."""

    homography: np.ndarray
    """Lattice (col, row) to working-image pixels (x, y)."""
    pitch: float
    """The step between tile centres, working pixels."""
    centres: Points = field(default_factory=dict)
    """The symbol centre found in each cell (row, col) that has one."""
    faint: frozenset[Cell] = frozenset()
    """Cells whose symbol was found only as faint paint (`blobs.more_dark_paint`)."""
    symbol: float = 0.0
    """The symbols' usual extent, working pixels (0: not known)."""
    strays: Points = field(default_factory=dict)
    """The symbols found off every lattice point (a tile laid loosely), by
    the cell nearest each: working pixels."""
    dim: Points = field(default_factory=dict)
    """As `strays`, dark paint found only by `blobs.more_dark_paint` (or the
    table's grain): read there where the lattice point reads no tile."""
    tile: float = 1.0
    """The share of a step a tile's side fills, under `APART_TILE` where
    tiles lie apart (a printed board's cells larger than its tiles); else 1."""

    def bounds(self) -> tuple[int, int, int, int]:
        """The first and last row and column (r0, c0, r1, c1) of `centres`."""
        rows, cols = zip(*self.centres, strict=True)
        return min(rows), min(cols), max(rows), max(cols)


def halved(grid: Grid) -> Grid:
    """The grid at half its step (the step found was two tiles)."""
    hom = grid.homography @ np.diag([0.5, 0.5, 1.0])
    return Grid(hom, grid.pitch / 2,
                {(2 * r, 2 * c): xy for (r, c), xy in grid.centres.items()},
                frozenset((2 * r, 2 * c) for r, c in grid.faint), grid.symbol,
                _by_cell(hom, grid.strays.values()), _by_cell(hom, grid.dim.values()))


def _nearest_cells(hom: np.ndarray, points: Iterable[tuple[float, float]]
                  ) -> list[Cell]:
    """The lattice cell (row, col) of `hom` nearest each point (pixels)."""
    pts = np.array(list(points), np.float64).reshape(-1, 2)
    if not len(pts):
        return []
    lat = np.round(cv2.perspectiveTransform(pts[None], np.linalg.inv(hom))[0])
    return [(int(r), int(c)) for c, r in lat]


def _by_cell(hom: np.ndarray, points: Iterable[tuple[float, float]]) -> Points:
    """Points (pixels) by the lattice cell (row, col) of `hom` nearest each."""
    pts = np.array(list(points), np.float64).reshape(-1, 2)
    return {cell: (float(x), float(y))
            for cell, (x, y) in zip(_nearest_cells(hom, pts), pts, strict=True)}


def _lattice_step(nn: np.ndarray) -> float:
    """The step from nearest-neighbour distances: their median, unless that
    explains under half as lattice distances (a small board with a tile
    unread); then the distance that explains the most."""
    def explained(step: float) -> int:
        ratio = nn[:, None] / step
        return int((np.abs(ratio / LATTICE_GAPS - 1) < GAP_FIT).any(axis=1).sum())

    median = float(np.median(nn))
    best = explained(median)
    if 2 * best >= len(nn):
        return median
    count, step = max((explained(float(c)), float(c)) for c in nn)
    return step if count > best else median


def _pitch_and_angle(pts: np.ndarray, ext: np.ndarray) -> tuple[float, float] | None:
    """The lattice's step and angle (radians), or None without neighbours:
    the angle turned a quarter where every neighbour a step apart lies across
    it and symbols further apart lie along it (oblong cells, whose short
    step was measured: a photo taken at a slant)."""
    d = np.linalg.norm(pts[:, None] - pts[None], axis=2)
    np.fill_diagonal(d, np.inf)
    nearest = d.argmin(axis=1)
    nn = d[np.arange(len(pts)), nearest]
    # Neighbours lie further apart than either is wide (not grain in a tile).
    ok = (nn > APART * np.maximum(ext, ext[nearest])) & (nn < TWO_STEPS * ext)
    if not ok.any():
        return None
    pitch = _lattice_step(nn[ok])
    i, j = np.nonzero((d > NEIGHBOUR[0] * pitch) & (d < NEIGHBOUR[1] * pitch))
    if i.size == 0:
        return None
    vec = pts[j] - pts[i]
    phi = np.arctan2(vec[:, 1], vec[:, 0])
    angle = 0.25 * math.atan2(np.sin(4 * phi).sum(), np.cos(4 * phi).sum())
    along = _along(pts[None] - pts[:, None], d,
                   np.array([math.cos(angle), math.sin(angle)]))
    # The mean over quarter turns cannot tell the two ways apart: with the
    # neighbours a step apart one way only, it may point the other.
    if not along[i, j].any() and \
            (along & (d > NEIGHBOUR[1] * pitch) & (d < NEAR * pitch)).any():
        angle += math.pi / 2
    return pitch, angle


def _along(off: np.ndarray, d: np.ndarray, u: np.ndarray) -> np.ndarray:
    """For each pair of points (`off`: their offsets, `d`: their distances),
    whether it lies within `ACROSS` of the direction `u`."""
    return np.asarray(np.abs(off @ u)
                      >= math.cos(math.radians(ACROSS)) * d * float(np.linalg.norm(u)))


def _across(pts: np.ndarray, d: np.ndarray, u: np.ndarray) -> np.ndarray:
    """The lattice's step across its rows: the median of each point's
    nearest neighbour more than `ACROSS` off the row (`u`), from
    `NEIGHBOUR`'s least to `NEAR` steps; `u` turned a right angle where no
    point has one (a line). A photo taken at a slant shortens the step one
    way: its rows stay straight, its cells are no longer square."""
    pitch = float(np.linalg.norm(u))
    off = pts[None] - pts[:, None]
    ok = ~_along(off, d, u) & (d > NEIGHBOUR[0] * pitch) & (d < NEAR * pitch)
    rows = np.flatnonzero(ok.any(axis=1))
    if not len(rows):
        return np.array([-u[1], u[0]])
    nearest = np.where(ok[rows], d[rows], np.inf).argmin(axis=1)
    vec = off[rows, nearest]
    # Either way across is the same step: take each one turned left of `u`.
    vec[u[0] * vec[:, 1] - u[1] * vec[:, 0] < 0] *= -1
    return np.asarray(np.median(vec, axis=0))


def _grow(pts: np.ndarray, pitch: float, angle: float) -> dict[int, tuple[int, int]]:
    """The largest lattice grown over the points from neighbour to neighbour,
    as {point index: (col, row)}: with square cells, and with cells as
    oblong as the symbols lie (`_across`)."""
    u0 = np.array([math.cos(angle), math.sin(angle)]) * pitch
    d = np.linalg.norm(pts[:, None] - pts[None], axis=2)
    grown = [_grown(pts, d, u0, v0, pitch)
             for v0 in (np.array([-u0[1], u0[0]]), _across(pts, d, u0))]
    # Of two as large, the one whose steps land nearer where they were looked for.
    return max(grown, key=lambda lattice: lattice[:2])[2]


def _grown(pts: np.ndarray, d: np.ndarray, u0: np.ndarray, v0: np.ndarray,
           pitch: float) -> tuple[int, float, dict[int, tuple[int, int]]]:
    """The largest lattice grown over the points (`d`: their distances) from
    steps `u0` along a row and `v0` across it: its size, how far its steps
    landed from where they were looked for on average, negated (higher is
    better), and {point index: (col, row)}."""
    reach = NEAR * max(pitch, float(np.linalg.norm(v0)))
    near = [np.flatnonzero((row > 0) & (row < reach)) for row in d]
    order = np.argsort(np.linalg.norm(pts - np.median(pts, axis=0), axis=1))
    seen: set[int] = set()
    found = []
    for seed in map(int, order):
        if seed in seen:
            continue
        coords = {seed: (0, 0)}
        basis = {seed: (u0, v0)}
        missed = 0.0
        seen.add(seed)
        queue = deque([seed])
        while queue:
            p = queue.popleft()
            u, v = basis[p]
            cand = near[p]
            for di, dj in ((1, 0), (-1, 0), (0, 1), (0, -1)) if cand.size else ():
                err = np.linalg.norm(pts[cand] - (pts[p] + di * u + dj * v), axis=1)
                q = int(cand[int(np.argmin(err))])
                cell = (coords[p][0] + di, coords[p][1] + dj)
                if err.min() > OFF_STEP * pitch or q in seen or cell in coords.values():
                    continue
                # The step follows the observed one halfway: a slanted
                # photo's scale changes across the board.
                obs = pts[q] - pts[p]
                basis[q] = ((0.5 * u + 0.5 * obs * di, v) if di
                            else (u, 0.5 * v + 0.5 * obs * dj))
                coords[q] = cell
                missed += float(err.min())
                seen.add(q)
                queue.append(q)
        found.append((len(coords), -missed / len(coords), coords))
    return max(found, key=lambda lattice: lattice[0])


def _fit(src: np.ndarray, dst: np.ndarray, pitch: float) -> np.ndarray:
    """Fit lattice (col, row) -> pixels: a homography, an affine map, or a
    similarity along a line."""
    cols, rows = src[:, 0], src[:, 1]
    square = np.ptp(cols) >= 1 and np.ptp(rows) >= 1
    if len(src) >= HOMOGRAPHY_POINTS and square:
        h, _ = cv2.findHomography(src, dst, cv2.RANSAC, OFF_FIT * pitch)
        if h is not None and _sane(h, src, pitch):
            return h
        a, _ = cv2.estimateAffine2D(src, dst, ransacReprojThreshold=OFF_FIT * pitch)
        affine = None if a is None else np.vstack([a, [0, 0, 1]])
        # A photo taken at a slant grows its near cells past `SANE`: a
        # homography that explains every symbol where no affine map does is
        # the board's perspective, however large those cells grow; no size
        # tells it from a degenerate fit, which leaves a symbol unexplained
        # (docs/PHOTO.md, "A photo taken at a slant").
        if h is not None and _sane(h, src, pitch, math.inf) \
                and explains(h, src, dst, pitch) \
                and (affine is None or not explains(affine, src, dst, pitch)):
            return h
        # Too few points off one line for a homography: an affine fit does
        # (a few symbols laid loosely fit a slant that is not there).
        if affine is not None:
            return affine
    if len(src) == AFFINE_POINTS and square:
        # An L of three: a line through them would take a step along a row
        # from a tile of the next row, off in length and turn.
        a = cv2.getAffineTransform(src.astype(np.float32), dst.astype(np.float32))
        return np.vstack([a, [0, 0, 1]])
    if len(src) <= 1:
        raise ValueError("one point: no direction")
    # The step along the line, and the same step turned a quarter (a photo
    # from above is never mirrored).
    if np.ptp(cols) >= np.ptp(rows):
        u = np.polyfit(cols, dst, 1)[0]
    else:
        v = np.polyfit(rows, dst, 1)[0]
        u = np.array([v[1], -v[0]])
    v = np.array([-u[1], u[0]])
    return _lattice(u, (dst - np.outer(cols, u) - np.outer(rows, v)).mean(axis=0))


def foreshortened(src: np.ndarray, dst: np.ndarray) -> np.ndarray | None:
    """The homography of a line of points seen in perspective (`src`: their
    lattice (col, row), along one row or down one column; `dst`: pixels),
    its steps shortening toward one end: pixels (A + B t) / (1 + w t) at
    lattice step t along it, its cells square at its middle; None where
    that turns over before a cell past either end."""
    along = bool(np.ptp(src[:, 1]) == 0)
    t, k = (src[:, 0], float(src[0, 1])) if along else (src[:, 1], float(src[0, 0]))
    # p (1 + w t) = A + B t is linear in A, B and w: least squares.
    m = np.zeros((2 * len(t), 5))
    m[0::2, 0] = m[1::2, 1] = 1
    m[0::2, 2] = m[1::2, 3] = t
    m[0::2, 4], m[1::2, 4] = -t * dst[:, 0], -t * dst[:, 1]
    a_x, a_y, b_x, b_y, w = np.linalg.lstsq(m, dst.reshape(-1), rcond=None)[0]
    if (1 + w * np.array([t.min() - 1, t.max() + 1]) <= 0).any():
        return None
    step = np.array([b_x - w * a_x, b_y - w * a_y]) / (1 + w * float(np.mean(t)))
    across = np.array([-step[1], step[0]]) if along else np.array([step[1], -step[0]])
    a_x, a_y = a_x - k * across[0], a_y - k * across[1]
    if along:
        return np.array([[b_x, across[0], a_x], [b_y, across[1], a_y], [w, 0, 1]])
    return np.array([[across[0], b_x, a_x], [across[1], b_y, a_y], [0, w, 1]])


def _lattice(u: np.ndarray, origin: Sequence[float]) -> np.ndarray:
    """The homography of a square lattice stepping `u` along a row."""
    return np.array([[u[0], -u[1], origin[0]], [u[1], u[0], origin[1]], [0, 0, 1]])


def explains(m: np.ndarray, src: np.ndarray, dst: np.ndarray, pitch: float,
              within: float = OFF_FIT) -> bool:
    """True when lattice map `m` takes every point of `src` within `within`
    steps of its symbol in `dst`."""
    moved = cv2.perspectiveTransform(src[None].astype(np.float64), m)[0]
    return bool((np.linalg.norm(moved - dst, axis=1) <= within * pitch).all())


def _sane(h: np.ndarray, src: np.ndarray, pitch: float, most: float = SANE[1]) -> bool:
    """True when a homography keeps every cell's sides within `SANE` steps
    (their longest up to `most`), never mirrored."""
    lo, hi = src.min(axis=0) - 1, src.max(axis=0) + 1
    for c in np.array([lo, (hi[0], lo[1]), hi, (lo[0], hi[1])], np.float64):
        pts = cv2.perspectiveTransform(np.array([[c, c + (1, 0), c + (0, 1)]]), h)[0]
        (ax, ay), (bx, by) = sides = pts[1:] - pts[0]
        length = np.linalg.norm(sides, axis=1)
        if not ((SANE[0] * pitch < length) & (length < most * pitch)).all() \
                or ax * by - ay * bx <= 0:  # too large, too small or mirrored
            return False
    return True


def one_tile(centre: Sequence[float], pitch: float, angle: float) -> np.ndarray:
    """The homography of a lattice of one tile at `centre`, turned `angle`."""
    return _lattice(np.array([math.cos(angle), math.sin(angle)]) * pitch, centre)


def _single_tile(blobs: Blobs, k: int, img: np.ndarray) -> tuple[float, float]:
    """Pitch and angle (radians) of a lone tile, from the dark body round its
    symbol; on a dark table, whose grain joins the body at the photo's dark
    level, from the body against the table round it alone."""
    cx, cy = blobs.centres[k]
    r = int(blobs.extents[k] * 1.3) + 2
    win = blobs.dark[max(0, int(cy) - r):int(cy) + r, max(0, int(cx) - r):int(cx) + r]
    found = _square_body(win.copy(), blobs.extents[k]) \
        or _local_body(img, (cx, cy), blobs.extents[k])
    if found is None:
        raise PhotoUnreadable("no_tiles")
    return found[0] * BODY_TO_TILE, math.radians(found[1])


def _square_body(win: np.ndarray, ext: float, cut: int = 0
                 ) -> tuple[float, float] | None:
    """The side and angle (degrees) of the square tile body in a dark mask
    round a symbol of extent `ext`, or None; `cut` opens the mask first (thin
    bridges of dark grain) and keeps the part round the symbol."""
    # The symbol counts as the tile too: fill it, then take the dark around it.
    closed = cv2.morphologyEx(win, cv2.MORPH_CLOSE,
                              np.ones((CLOSE_PX, CLOSE_PX), np.uint8))
    if cut:
        closed = cv2.morphologyEx(filled(closed), cv2.MORPH_OPEN,
                                  np.ones((cut, cut), np.uint8))
    contours, _ = cv2.findContours(closed, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    mid = (win.shape[1] / 2, win.shape[0] / 2)
    contours = tuple(c for c in contours
                     if not cut or cv2.pointPolygonTest(c, mid, False) >= 0)
    if not contours:
        return None
    c = max(contours, key=cv2.contourArea)
    left, top, width, height = cv2.boundingRect(c)
    if min(left, top) == 0 or left + width == win.shape[1] \
            or top + height == win.shape[0]:
        # Dark out to the window's edge: a dark table or wood joins the body.
        return None
    body = tile_body(c)
    low, high = BODY_OVER_SYMBOL
    if body is None or not ext * low < body[2] < ext * high:
        return None
    return body[2], body[3]


def tile_body(contour: np.ndarray) -> tuple[float, float, float, float] | None:
    """The centre (x, y), side and angle (degrees) of a dark outline shaped as
    a tile body (`SQUARE`, `FILLED`), or None."""
    (cx, cy), (bw, bh), a = cv2.minAreaRect(contour)
    if min(bw, bh) < SQUARE * max(bw, bh) \
            or cv2.contourArea(contour) < FILLED * bw * bh:
        return None
    return cx, cy, (bw + bh) / 2, a


def tile_bodies(dark: np.ndarray) -> list[tuple[float, float, float, float]]:
    """Each tile body standing alone in a dark mask (`tile_body`): a tile
    with table all round it."""
    closed = cv2.morphologyEx(dark, cv2.MORPH_CLOSE,
                              np.ones((CLOSE_PX, CLOSE_PX), np.uint8))
    contours, _ = cv2.findContours(closed, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    return [body for body in map(tile_body, contours) if body is not None]


def _local_body(img: np.ndarray, centre: tuple[float, float], ext: float
                ) -> tuple[float, float] | None:
    """`_square_body` at a level halfway from the body just outside the
    symbol to the table beyond the largest tile it may sit on."""
    h, w = img.shape[:2]
    cx, cy = centre
    r = int(ext * 2.4) + 2
    x0, y0 = max(0, int(cx) - r), max(0, int(cy) - r)
    x1, y1 = min(w, int(cx) + r), min(h, int(cy) + r)
    v = brightest_channel(img[y0:y1, x0:x1]).astype(np.float32)
    yy, xx = np.mgrid[y0:y1, x0:x1]
    d = np.hypot(xx - cx, yy - cy)
    near = v[(d > 0.5 * ext) & (d < 0.7 * ext)]
    far = v[d > 2.2 * ext]
    if near.size == 0 or far.size < 0.05 * v.size:
        return None
    body = float(np.percentile(near, 25))
    table = float(np.median(far))
    if table - body < TABLE_CONTRAST:
        return None
    dark = (v < body + 0.5 * (table - body)).astype(np.uint8)
    # Centre the window on the symbol for `_square_body`'s middle.
    ox, oy = int(cx) - x0, int(cy) - y0
    side_x, side_y = min(ox, x1 - x0 - ox), min(oy, y1 - y0 - oy)
    dark = dark[oy - side_y:oy + side_y, ox - side_x:ox + side_x]
    return _square_body(dark, ext, cut=max(3, int(ext / 8)))


def detection_image(img: np.ndarray) -> tuple[np.ndarray, float]:
    """The image the symbols are looked for in (`DETECT_SIDE`), and its scale."""
    scale = min(1.0, DETECT_SIDE / max(img.shape[:2]))
    return img if scale == 1.0 else cv2.resize(
        img, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA), scale


def find_grid(img: np.ndarray) -> Grid:
    """The grid of the largest group of tiles in a working image."""
    small, scale = detection_image(img)
    blobs = find_blobs(small)
    if len(blobs.centres) < FEW:
        blobs = more_dark_paint(small, blobs)
    if len(blobs.centres) == 0:
        raise PhotoUnreadable("no_tiles")
    spots = lamp_spots(small, blobs)
    anchors = np.zeros((0, 2))
    if (~spots).sum() >= FEW:
        # The lattice from paint alone; a lamp's spot helps fit it only if
        # a symbol's size (`SPOT`).
        glare, size = blobs.centres[spots], blobs.extents[spots]
        blobs = without(blobs, spots)
        anchors = glare[size <= SPOT * np.median(blobs.extents)]
    pts, ext = blobs.centres, blobs.extents
    grown = _largest_lattice(pts, ext, _unslanted(blobs.spreads))
    if grown is None:
        # No two symbols a tile apart: one tile alone, the largest clean blob.
        k = int(np.argmax(ext))
        pitch, angle = _single_tile(blobs, k, small)
        group = {k: (0, 0)}
    else:
        group, pitch, angle = grown
    idx = np.array(sorted(group))
    src = np.array([group[i] for i in idx], np.float64)
    dst = pts[idx]
    if len(idx) == 1:
        hom = one_tile(dst[0], pitch, angle)
    else:
        hom, src, dst = _refine(_fit(src, dst, pitch), np.concatenate([pts, anchors]),
                                src, dst, pitch)
    if pitch / scale < MIN_PITCH:
        raise PhotoUnreadable("too_small", tile_pixels=int(pitch / scale))
    centres = {(int(r), int(c)): (float(x) / scale, float(y) / scale)
               for (c, r), (x, y) in zip(src, dst, strict=True)}
    faint = frozenset() if blobs.faint is None else frozenset(
        (int(r), int(c)) for (c, r), p in zip(src, dst, strict=True)
        if blobs.faint[np.flatnonzero((pts == p).all(axis=1))].any())
    hom = np.diag([1 / scale, 1 / scale, 1.0]) @ hom
    strays = {key: xy for key, xy in _by_cell(hom, pts / scale).items()
              if key not in centres}
    # A lone tile body beside a symbol's cell, where no symbol was found, is
    # a tile laid loosely whose paint no pass found: read there as a stray.
    bodies = [body for dark in (blobs.dark, blobs.deep) if dark is not None
              for body in tile_bodies(dark)]
    loose = np.array([(x, y) for x, y, side, _ in bodies
                      if LOOSE_BODY[0] < side / pitch < LOOSE_BODY[1]])
    for key, xy in _by_cell(hom, loose / scale).items():
        r, c = key
        if key not in centres and any((r + dr, c + dc) in centres for dr, dc in SIDES):
            strays.setdefault(key, xy)
    # Tile bodies alone on the symbols' cells: how much of a step a tile
    # fills (tiles laid apart, as on a printed board's larger cells).
    at = _nearest_cells(hom, [(x / scale, y / scale) for x, y, _, _ in bodies])
    sides = [side / pitch for (_, _, side, _), key in zip(bodies, at, strict=True)
             if key in centres and APART_SIDE[0] < side / pitch < APART_SIDE[1]]
    least = APART_TILE
    if len(sides) < APART_BODIES:
        # A wooden table's dark grain joins the bodies in both masks: measure
        # each body against the table round it instead.
        sides = [side for side in _local_sides(small, dst, float(np.median(ext[idx])),
                                               pitch)
                 if APART_SIDE[0] < side < APART_SIDE[1]]
        least = LOCAL_APART_TILE
    median = float(np.median(sides)) if len(sides) >= APART_BODIES else 1.0
    tile = median if median < least else 1.0
    dim: Points = {}
    if blobs.faint is None:
        more = more_dark_paint(small, blobs)
        if more.faint is not None:
            taken = centres.keys() | strays.keys()
            dim = {key: xy for key, xy in
                   _by_cell(hom, more.centres[more.faint] / scale).items()
                   if key not in taken}
    return Grid(hom, pitch / scale, centres, faint, float(np.median(ext[idx])) / scale,
                strays, dim, tile)


def _local_sides(img: np.ndarray, pts: np.ndarray, ext: float, pitch: float
                 ) -> list[float]:
    """The sides, share of the step, of the tile bodies round the
    `LOCAL_BODIES` symbols (`pts`, of usual extent `ext`) nearest the
    middle, each measured against the table round it (`_local_body`)."""
    near = np.argsort(np.linalg.norm(pts - np.median(pts, axis=0), axis=1))
    found = (_local_body(img, (float(pts[k, 0]), float(pts[k, 1])), ext)
             for k in near[:LOCAL_BODIES])
    return [body[0] / pitch for body in found if body is not None]


def _largest_lattice(pts: np.ndarray, ext: np.ndarray, unslant: np.ndarray
                     ) -> tuple[dict[int, tuple[int, int]], float, float] | None:
    """The lattice grown over the most symbols (`_grow`), with its step and
    angle: over the symbols as the photo shows them, and at a slant
    (`unslant` not the identity) where it is undone too, if a homography
    goes through each of its symbols (`EXACT`); None where no two symbols
    lie a tile apart."""
    best = None
    views = [pts] if np.allclose(unslant, np.eye(2)) else [pts, pts @ unslant.T]
    for view in views:
        found = _pitch_and_angle(view, ext) if len(pts) > 1 else None
        if found is None:
            continue
        group = _grow(view, *found)
        if best is not None:
            idx = sorted(group)
            src = np.array([group[i] for i in idx], np.float64)
            fit = _fit(src, pts[idx], found[0])
            # The board's perspective goes through each symbol as a
            # homography does; an affine map stands in for one (`_fit`)
            # only where no homography does, and must then go exactly.
            within = OFF_FIT if fit[2, :2].any() else EXACT
            if len(group) <= len(best[0]) or not explains(
                    fit, src, pts[idx], found[0], within):
                continue
        best = group, *found
    return best


def _unslanted(spreads: np.ndarray) -> np.ndarray:
    """The linear map that undoes the slant the symbols' shapes show (each
    symbol is as wide every way on its tile): their median second moments
    stretched to be alike every way, along their longer axis unchanged; the
    identity for a photo slanted less than `SLANTED`."""
    if not len(spreads):
        return np.eye(2)
    values, vectors = np.linalg.eigh(np.median(spreads, axis=0))
    ratio = values[0] / max(values[1], 1e-9)
    if ratio >= SLANTED or ratio <= 0:
        return np.eye(2)
    return np.asarray(vectors @ np.diag([1 / math.sqrt(ratio), 1.0]) @ vectors.T)


def refit(grid: Grid, centres: Points) -> Grid:
    """The grid fitted again to symbol centres (row, col) -> working pixels,
    such as the cells read (a slanted grid's first fit drifts)."""
    keys = sorted(centres)
    try:
        hom = _fit(np.array([(c, r) for r, c in keys], np.float64),
                   np.array([centres[k] for k in keys], np.float64), grid.pitch)
    except ValueError:
        return grid
    return Grid(hom, grid.pitch, dict(centres), grid.faint, strays=grid.strays,
                dim=grid.dim, tile=grid.tile)


def _refine(hom: np.ndarray, pts: np.ndarray, src: np.ndarray, dst: np.ndarray,
            pitch: float) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Take in every symbol the fitted lattice explains (`ON_LATTICE`), and
    fit again."""
    for _ in range(2):
        lat = cv2.perspectiveTransform(pts[None], np.linalg.inv(hom))[0]
        cell = np.round(lat)
        err = np.linalg.norm(lat - cell, axis=1)
        fitted: dict[Cell, int] = {}
        for k in np.argsort(err)[:int((err <= ON_LATTICE).sum())]:
            fitted.setdefault((int(cell[k, 0]), int(cell[k, 1])), k)
        if len(fitted) < len(src):
            break
        keys = sorted(fitted)
        new_src = np.array(keys, np.float64)
        new_dst = pts[[fitted[key] for key in keys]]
        try:
            hom, src, dst = _fit(new_src, new_dst, pitch), new_src, new_dst
        except ValueError:
            break
    return hom, src, dst
