"""Find the tiles and their grid in a photo: symbols, lattice, homography.

A Qwirkle tile is a black square with one coloured symbol in its middle, so the
symbols' centres are the tile centres. They are found as light blobs enclosed by
dark (the tile body); a lattice is grown over them from neighbour to neighbour
(which follows a slanted photo's changing scale), and a homography from lattice
coordinates to the photo is fitted to every centre the lattice explains.
"""

from __future__ import annotations

import math
from collections import deque
from dataclasses import dataclass, field
from typing import cast

import cv2
import numpy as np
from cv2.typing import MatLike

from .errors import PhotoUnreadable
from .hues import colourless

DETECT_SIDE = 1600
"""Long side of the image the symbols are looked for in."""

MIN_PITCH = 14.0
"""The smallest tile (pixels of the working image) that can still be read."""


def brightest_channel(img: np.ndarray) -> np.ndarray:
    """Each pixel's brightest channel (HSV value), as uint8. NumPy's
    `max(axis=2)` walks the three channels pixel by pixel and takes ten times
    as long on a working image as OpenCV's per-plane maximum."""
    b, g, r = cv2.split(img)
    return np.asarray(cv2.max(cv2.max(b, g), r))


def darkest_channel(img: np.ndarray) -> np.ndarray:
    """Each pixel's darkest channel, as uint8 (see `brightest_channel`)."""
    b, g, r = cv2.split(img)
    return np.asarray(cv2.min(cv2.min(b, g), r))


@dataclass
class Grid:
    """The tile grid seen in a photo."""

    homography: np.ndarray
    """Lattice (col, row) to working-image pixels (x, y)."""
    pitch: float
    """Distance between neighbouring tile centres, working-image pixels."""
    centres: dict[tuple[int, int], tuple[float, float]] = field(default_factory=dict)
    """Observed symbol centre of each lattice cell (row, col) that has one."""
    faint: frozenset[tuple[int, int]] = frozenset()
    """Cells (row, col) whose symbol was found only as faint paint: so little
    above its tile that its shape may be lost (a crisscross's thin arms)."""
    symbol: float = 0.0
    """The symbols' usual extent, working-image pixels (0 when not known)."""


def halved(grid: Grid) -> Grid:
    """The grid with half its step: its symbols two cells apart, where the
    step taken from them was two tiles."""
    def twice(key: tuple[int, int]) -> tuple[int, int]:
        return 2 * key[0], 2 * key[1]

    return Grid(grid.homography @ np.diag([0.5, 0.5, 1.0]), grid.pitch / 2,
                {twice(key): xy for key, xy in grid.centres.items()},
                frozenset(twice(key) for key in grid.faint), grid.symbol)


def value_ratio(img: np.ndarray, radius: float, floor: bool = False) -> np.ndarray:
    """Return each pixel's brightness relative to the brightest things near it,
    so that a black tile is dark in the shade as well as in full light; with
    `floor`, relative to the darkest things near it too (glare lifts both)."""
    v = brightest_channel(img)
    h, w = v.shape
    f = 4 if min(h, w) >= 64 else 1
    small = cv2.resize(v, (max(1, w // f), max(1, h // f)),
                       interpolation=cv2.INTER_AREA)
    k = max(3, int(radius / f) | 1)
    # A square window: OpenCV filters it in time independent of its size.
    kernel = cv2.getStructuringElement(cv2.MORPH_RECT, (k, k))

    def smooth(x: np.ndarray) -> np.ndarray:
        x = cv2.GaussianBlur(x.astype(np.float32), (0, 0), k / 2)
        return cv2.resize(x, (w, h), interpolation=cv2.INTER_LINEAR)

    light = smooth(cv2.dilate(small, kernel))
    if not floor:
        return cast(np.ndarray, v.astype(np.float32) / np.maximum(light, 24.0))
    low = np.minimum(smooth(cv2.erode(small, kernel)), light - 24.0)
    return cast(np.ndarray,
                (v.astype(np.float32) - low) / np.maximum(light - low, 24.0))


def dark_threshold(ratio: np.ndarray, mask: np.ndarray | None = None) -> float:
    """Return the brightness ratio below which a pixel is a tile body (Otsu)."""
    scaled = np.clip(ratio * 160, 0, 255).astype(np.uint8)
    if mask is not None:
        scaled = scaled[mask > 0]
    if scaled.size == 0:
        return 0.4
    level, _ = cv2.threshold(scaled.reshape(-1, 1), 0, 255,
                             cv2.THRESH_BINARY + cv2.THRESH_OTSU)
    return float(min(0.6, max(0.22, level / 160)))


@dataclass
class Blobs:
    """Candidate symbols: light blobs enclosed by dark."""

    centres: np.ndarray
    """(n, 2) float, detection-image pixels."""
    extents: np.ndarray
    """(n,) the larger side of each blob's box."""
    dark: np.ndarray
    """The dark mask the blobs were found in."""
    faint: np.ndarray | None = None
    """(n,) bool: found only as faint paint (`more_dark_paint`); None for none."""


def find_blobs(img: np.ndarray) -> Blobs:
    """Return light blobs (symbol candidates) enclosed by dark pixels.

    Real paint can be dark (a symbol value of 0.3): against a light table
    such a symbol is as dark as the tile around it at the usual level, so
    the blobs are looked for again at a lower one, and the two sets joined."""
    h, w = img.shape[:2]
    ratio = value_ratio(img, max(h, w) / 10)
    level = dark_threshold(ratio)
    first = _blobs_at(img, ratio, level)
    # Looked for again at half size where the photo is large: a symbol keeps
    # pixels enough, and the pass costs a quarter.
    half = 2 if min(h, w) >= 800 and len(first.centres) and \
        np.median(first.extents) >= 24 else 1
    if half == 2:
        small = cv2.resize(img, (w // 2, h // 2), interpolation=cv2.INTER_AREA)
        sratio = cv2.resize(ratio, (w // 2, h // 2), interpolation=cv2.INTER_AREA)
        low = _blobs_at(small, sratio, level * DARK_PAINT)
        low = Blobs(low.centres * 2 + 0.5, low.extents * 2, low.dark)
    else:
        low = _blobs_at(img, ratio, level * DARK_PAINT)
    if len(low.centres) == 0:
        return first
    new = _not_found_yet(low.centres, low.extents, first.centres)
    if not new.any():
        return first
    centres = np.concatenate([first.centres, low.centres[new]])
    extents = np.concatenate([first.extents, low.extents[new]])
    if len(centres) >= 3:
        typical = np.percentile(extents, 75)
        keep = (extents >= 0.45 * typical) & (extents <= 2.2 * typical)
        centres, extents = centres[keep], extents[keep]
    return Blobs(centres, extents, first.dark)


def _not_found_yet(centres: np.ndarray, extents: np.ndarray, known: np.ndarray
                   ) -> np.ndarray:
    """For each blob found by another pass, whether it is new: no blob already
    known lies within half its size of its centre."""
    if not len(known):
        return np.ones(len(centres), bool)
    d = np.linalg.norm(centres[:, None] - known[None], axis=2)
    return np.asarray(d.min(axis=1) > 0.5 * np.maximum(extents, 4))


DARK_PAINT = 0.55
"""The lower level blobs are looked for at again, as a share of the usual."""


def _blobs_at(img: np.ndarray, ratio: np.ndarray, level: float,
              contrast: float = 1.6, hugged: bool = False) -> Blobs:
    """The light blobs enclosed by dark at one brightness level, at least
    `contrast` times as bright as the dark around them. With `hugged`, a blob
    not enclosed in its box may be enclosed by a band of its own outline
    (`_hugged`)."""
    h, w = img.shape[:2]
    dark = (ratio < level).astype(np.uint8)
    n, labels, stats, centroids = cv2.connectedComponentsWithStats(
        cast(MatLike, 1 - dark), connectivity=8
    )
    x, y, bw, bh, area = (stats[:, i] for i in range(5))
    ext = np.maximum(bw, bh)
    keep = (area >= 16) & (area <= h * w * 0.01) & (ext >= 5)
    keep &= (np.minimum(bw, bh) * 3 >= ext) & (area * 6 >= bw * bh)
    keep[0] = False
    idx = np.flatnonzero(keep)
    if idx.size == 0:
        return Blobs(np.zeros((0, 2)), np.zeros(0), dark)
    # Enclosed: the box around the blob, widened by a sixth of its size, is dark
    # except for the blob itself.
    integral = cv2.integral(dark)
    m = np.maximum(2, (ext[idx] * 0.15).astype(int))
    x0 = np.clip(x[idx] - m, 0, w)
    y0 = np.clip(y[idx] - m, 0, h)
    x1 = np.clip(x[idx] + bw[idx] + m, 0, w)
    y1 = np.clip(y[idx] + bh[idx] + m, 0, h)
    def box_sum(table: np.ndarray) -> np.ndarray:
        return cast(np.ndarray,
                    table[y1, x1] - table[y0, x1] - table[y1, x0] + table[y0, x0])

    box = (x1 - x0) * (y1 - y0)
    enclosed = box_sum(integral) >= 0.8 * (box - area[idx])
    # A symbol is printed on black: its ring is several times darker than the
    # symbol (blur evens that out on small tiles), where a light patch of wood
    # grain is only a little lighter.
    value = brightest_channel(img).astype(np.float64)
    blob_sum = np.bincount(labels.ravel(), weights=value.ravel(), minlength=n)[idx]
    ring = (box_sum(cv2.integral(value)) - blob_sum) / np.maximum(box - area[idx], 1)
    inside = blob_sum / area[idx]
    bright = inside >= contrast * ring + 8
    loose = bright & ~enclosed
    if hugged and loose.any():
        enclosed[loose] = _hugged(dark, labels, idx[loose], x0[loose], y0[loose],
                                  x1[loose], y1[loose], m[loose])
    idx = idx[enclosed & bright & ~_like_table(img, labels, n, idx, area)]
    if idx.size >= 3:
        # Symbols share one size within a photo; the specks of table between
        # four tile corners are far smaller.
        typical = np.percentile(ext[idx], 75)
        idx = idx[(ext[idx] >= 0.45 * typical) & (ext[idx] <= 2.2 * typical)]
    return Blobs(centroids[idx].astype(np.float64), ext[idx].astype(np.float64), dark)


def _hugged(dark: np.ndarray, labels: np.ndarray, idx: np.ndarray, x0: np.ndarray,
            y0: np.ndarray, x1: np.ndarray, y1: np.ndarray, m: np.ndarray
            ) -> np.ndarray:
    """For each blob, whether the band `m` wide round its own outline is
    dark. A symbol filling most of a tile turned about 45° reaches near the
    tile's corners, and the corners of the upright box round it lie on the
    table: the box test fails on a lone tile that is plainly one, where the
    band round the symbol lies on its tile."""
    out = np.zeros(len(idx), bool)
    for k, i in enumerate(idx):
        win = (slice(y0[k], y1[k]), slice(x0[k], x1[k]))
        blob = (labels[win] == i).astype(np.uint8)
        size = 2 * int(m[k]) + 1
        grown = cv2.dilate(blob, cv2.getStructuringElement(cv2.MORPH_ELLIPSE,
                                                           (size, size)))
        band = (grown > 0) & (blob == 0)
        out[k] = band.any() and dark[win][band].mean() >= HUGGED
    return out


HUGGED = 0.9
"""Share of the band round a blob's outline that must be dark: tighter than
the box's 0.8, since the band lies wholly on the tile."""


FEW = 2
"""Fewer symbols than the grid needs to know its step from them (a lone
tile of a first move, or a photo about to be refused): there a few more
passes cost little, and the cells round what they find are read anyway."""

FAINT = 1.2
"""The contrast over the dark around it a symbol needs in those passes: dark
paint on a black tile (a symbol value of 0.3) is only about 1.7 times as
bright as its tile once blur has spread its edge."""


def more_dark_paint(img: np.ndarray, blobs: Blobs) -> Blobs:
    """Look again, at levels between the usual and the dark-paint one, for
    dark symbols when few were found. A lone dark symbol on a small tile is
    neither light at the usual level (its tile's bevel and the blur lift the
    ring round it) nor enclosed at the lower one (its tile body passes too);
    between the two it is both, if less bright over its ring than bright
    paint. A candidate found only so must still show a square tile body
    (`_single_tile`) or lie a tile from another symbol (`_grow`)."""
    h, w = img.shape[:2]
    f = 2 if min(h, w) >= 800 else 1
    small = img if f == 1 else cv2.resize(img, (w // f, h // f),
                                           interpolation=cv2.INTER_AREA)
    ratio = value_ratio(small, max(h, w) / f / 10)
    level = dark_threshold(ratio)
    centres, extents = blobs.centres, blobs.extents
    faint = np.zeros(len(centres), bool)
    # Where those passes still leave too few, a symbol on a tile turned
    # about 45° is enclosed by a band round its outline (`_hugged`).
    passes = [(share, False) for share in (0.9, 0.8, 0.7, 0.6)]
    passes += [(share, True) for share in (1.0, 0.9, 0.8)]
    for share, hugged in passes:
        if hugged and len(centres) >= FEW:
            break
        found = _blobs_at(small, ratio, level * share, FAINT, hugged)
        if not len(found.centres):
            continue
        pts, ext = found.centres * f + (f - 1) / 2, found.extents * f
        new = _not_found_yet(pts, ext, centres)
        pts, ext = pts[new], ext[new]
        centres = np.concatenate([centres, pts])
        extents = np.concatenate([extents, ext])
        faint = np.concatenate([faint, np.ones(len(pts), bool)])
    if len(centres) >= 3:
        typical = np.percentile(extents, 75)
        keep = (extents >= 0.45 * typical) & (extents <= 2.2 * typical)
        centres, extents, faint = centres[keep], extents[keep], faint[keep]
    return Blobs(centres, extents, blobs.dark, faint)


COLOURLESS = 0.5
"""Share of a blob's light pixels without colour (saturation under
`hues.GREY`) above which it is not paint but a lamp's reflection: glare
whitens a tile and its symbol into one light blob, larger than a symbol and
off its centre. Paint measures none."""


SPOT = 1.5
"""A lamp's spot up to this many times a symbol's size may help fit the
lattice (see `find_grid`)."""


def _lamp_spots(img: np.ndarray, blobs: Blobs) -> np.ndarray:
    """For each blob, whether its light pixels are mostly without colour:
    a lamp's spot, not paint (`COLOURLESS`)."""
    h, w = img.shape[:2]
    out = np.zeros(len(blobs.centres), bool)
    for i, ((x, y), e) in enumerate(zip(blobs.centres, blobs.extents, strict=True)):
        r = max(2, int(e / 2))
        x0, y0 = max(0, int(x) - r), max(0, int(y) - r)
        x1, y1 = min(w, int(x) + r + 1), min(h, int(y) + r + 1)
        pix = img[y0:y1, x0:x1][blobs.dark[y0:y1, x0:x1] == 0]
        if len(pix) >= 0.2 * (x1 - x0) * (y1 - y0):
            out[i] = colourless(pix).mean() > COLOURLESS
    return out


def _beside_the_lamp(img: np.ndarray, blobs: Blobs, spots: np.ndarray) -> Blobs:
    """The blobs, and the symbols beside a lamp's spot found once the spot is
    painted over with the table: its light, far above any paint, made the
    symbols a tile from it look dark (`value_ratio` measures against the
    brightest light near), and the lattice was taken from those left."""
    covered = img.copy()
    table = np.median(img.reshape(-1, 3), axis=0)
    for (x, y), e in zip(blobs.centres[spots], blobs.extents[spots], strict=True):
        cv2.circle(covered, (int(x), int(y)), int(e), table.tolist(), cv2.FILLED)
    found = find_blobs(covered)
    if not len(found.centres):
        return blobs
    new = _not_found_yet(found.centres, found.extents, blobs.centres)
    if not new.any():
        return blobs
    faint = None if blobs.faint is None else np.concatenate(
        [blobs.faint, np.zeros(int(new.sum()), bool)])
    return Blobs(np.concatenate([blobs.centres, found.centres[new]]),
                 np.concatenate([blobs.extents, found.extents[new]]), blobs.dark, faint)


def _without(blobs: Blobs, drop: np.ndarray) -> Blobs:
    """The blobs but those marked in `drop`."""
    keep = ~drop
    return Blobs(blobs.centres[keep], blobs.extents[keep], blobs.dark,
                 None if blobs.faint is None else blobs.faint[keep])


def _like_table(img: np.ndarray, labels: np.ndarray, n: int, idx: np.ndarray,
                area: np.ndarray) -> np.ndarray:
    """For each blob, whether it is the table showing between tile corners: the
    colour and brightness of the largest light region, where paint differs."""
    flat = labels.ravel()
    table = int(np.argmax(np.where(np.arange(n) == 0, -1, area)))
    # A channel at a time: the whole image as float64 would be 24 bytes a pixel.
    sums = np.stack([np.bincount(flat, weights=img[:, :, k].ravel(), minlength=n)
                     for k in range(3)], axis=1)
    mean = sums / np.maximum(area, 1)[:, None]
    total = mean.sum(axis=1, keepdims=True) + 1e-6
    chroma = mean / total
    near = np.abs(chroma[idx] - chroma[table]).sum(axis=1) < 0.06
    level = np.abs(np.log((total[idx, 0] + 1) / (total[table, 0] + 1))) < 0.3
    return cast(np.ndarray, near & level)


LATTICE_GAPS = np.array([1.0, math.sqrt(2), 2.0, math.sqrt(5), math.sqrt(8), 3.0])
"""Distances between cells of a square lattice, in steps, up to three."""

GAP_FIT = 0.08
"""How far (as a share) a nearest-neighbour distance may lie from one of them."""


def _lattice_step(nn: np.ndarray) -> float:
    """The lattice's step from the symbols' nearest-neighbour distances.

    Their median is the step on any board whose symbols were all found. On a
    small board with a tile missing (under a lamp, or a symbol too dark to
    find), most symbols' nearest neighbour may lie a diagonal or two steps
    away, and the median then lies between lattice distances. Where it
    explains under half the distances as lattice distances, the step is
    the candidate that explains the most distances as lattice distances;
    of those, the largest, since half the step explains them all as well."""
    median = float(np.median(nn))

    def explained(step: float) -> int:
        ratio = nn[:, None] / step
        return int((np.abs(ratio / LATTICE_GAPS - 1) < GAP_FIT).any(axis=1).sum())

    best = explained(median)
    if 2 * best >= len(nn):
        return median
    count, step = max((explained(float(c)), float(c)) for c in nn)
    return step if count > best else median


TWO_STEPS = 5.6
"""A symbol's nearest neighbour up to this many of its extents away may be a
step or two away: a symbol's box is no less than 0.36 of the step (rotated,
in the benchmark's photos), so two steps are at most 5.6 extents. A first
move whose middle symbols are too dark to find shows symbols two tiles
apart; the grid found so is halved where tiles lie between
(`reader._step_of_two`). (At 3.2 extents, small crisscrosses two tiles
apart were no lattice at all: such first moves were refused.)"""


def _pitch_and_angle(pts: np.ndarray, ext: np.ndarray) -> tuple[float, float] | None:
    """Return the typical neighbour distance and the lattice angle (radians)."""
    d = np.linalg.norm(pts[:, None] - pts[None], axis=2)
    np.fill_diagonal(d, np.inf)
    nearest = d.argmin(axis=1)
    nn = d[np.arange(len(pts)), nearest]
    # Two symbols a tile apart lie further apart than either is wide: a
    # speck of grain inside a symbol's tile set a step of half a tile (and
    # a first move's lone tile was refused).
    wider = np.maximum(ext, ext[nearest])
    ok = (nn > 1.05 * wider) & (nn < TWO_STEPS * ext)
    if not ok.any():
        return None
    pitch = _lattice_step(nn[ok])
    i, j = np.nonzero((d > 0.8 * pitch) & (d < 1.25 * pitch))
    if i.size == 0:
        return None
    vec = pts[j] - pts[i]
    phi = np.arctan2(vec[:, 1], vec[:, 0])
    angle = 0.25 * math.atan2(np.sin(4 * phi).sum(), np.cos(4 * phi).sum())
    return pitch, angle


def _grow(pts: np.ndarray, pitch: float, angle: float
          ) -> list[dict[int, tuple[int, int]]]:
    """Grow lattices over the points from neighbour to neighbour; return each
    connected lattice as {point index: (col, row)}, largest first."""
    u0 = np.array([math.cos(angle), math.sin(angle)]) * pitch
    v0 = np.array([-u0[1], u0[0]])
    d = np.linalg.norm(pts[:, None] - pts[None], axis=2)
    near = [np.flatnonzero((row > 0) & (row < 1.6 * pitch)) for row in d]
    centre = np.median(pts, axis=0)
    order = np.argsort(np.linalg.norm(pts - centre, axis=1))
    seen: set[int] = set()
    found = []
    for seed in order:
        if seed in seen:
            continue
        coords = {int(seed): (0, 0)}
        basis = {int(seed): (u0, v0)}
        taken = {(0, 0)}
        seen.add(int(seed))
        queue = deque([int(seed)])
        while queue:
            p = queue.popleft()
            u, v = basis[p]
            ci, cj = coords[p]
            for di, dj in ((1, 0), (-1, 0), (0, 1), (0, -1)):
                step = di * u + dj * v
                target = pts[p] + step
                if not near[p].size:
                    break
                cand = near[p]
                err = np.linalg.norm(pts[cand] - target, axis=1)
                best = int(np.argmin(err))
                q = int(cand[best])
                cell = (ci + di, cj + dj)
                if err[best] > 0.3 * pitch or q in seen or cell in taken:
                    continue
                obs = pts[q] - pts[p]
                if di:
                    nu = 0.5 * u + 0.5 * obs * di
                    basis[q] = (nu, v)
                else:
                    nv = 0.5 * v + 0.5 * obs * dj
                    basis[q] = (u, nv)
                coords[q] = cell
                taken.add(cell)
                seen.add(q)
                queue.append(q)
        found.append(coords)
    found.sort(key=len, reverse=True)
    return found


def _fit(src: np.ndarray, dst: np.ndarray, pitch: float) -> np.ndarray:
    """Fit lattice (col, row) -> pixels: a homography, or a similarity for a line."""
    cols, rows = src[:, 0], src[:, 1]
    if len(src) >= 4 and np.ptp(cols) >= 1 and np.ptp(rows) >= 1:
        h, _ = cv2.findHomography(src, dst, cv2.RANSAC, 0.25 * pitch)
        if h is not None and _sane(h, src, pitch):
            return h
        # Too few points off one line for a homography: an affine fit does.
        a, _ = cv2.estimateAffine2D(src, dst, ransacReprojThreshold=0.25 * pitch)
        if a is not None:
            return np.vstack([a, [0, 0, 1]])
    if len(src) == 3 and np.ptp(cols) >= 1 and np.ptp(rows) >= 1:
        # An L of three (a small board, or one a lamp has split): the affine
        # map through the three. A line through them would take a step
        # along a row from a tile of the next row, off in length and turn.
        a = cv2.getAffineTransform(src.astype(np.float32), dst.astype(np.float32))
        return np.vstack([a, [0, 0, 1]])
    # A line (or one tile): the step along it, and the same step turned a
    # quarter (a photo from above is never mirrored).
    if len(src) >= 2 and np.ptp(cols) >= np.ptp(rows):
        step = np.polyfit(cols, dst, 1)[0]
        u = step
        v = np.array([-u[1], u[0]])
    elif len(src) >= 2:
        step = np.polyfit(rows, dst, 1)[0]
        v = step
        u = np.array([v[1], -v[0]])
    else:
        raise ValueError("one point: no direction")
    origin = (dst - np.outer(cols, u) - np.outer(rows, v)).mean(axis=0)
    return np.array([[u[0], v[0], origin[0]], [u[1], v[1], origin[1]], [0, 0, 1]])


def _sane(h: np.ndarray, src: np.ndarray, pitch: float) -> bool:
    """True when a homography keeps every cell near the measured tile size."""
    lo, hi = src.min(axis=0) - 1, src.max(axis=0) + 1
    corners = np.array([[lo[0], lo[1]], [hi[0], lo[1]], [hi[0], hi[1]], [lo[0], hi[1]]],
                       np.float64)
    for c in corners:
        pts = cv2.perspectiveTransform(np.array([[c, c + (1, 0), c + (0, 1)]]), h)[0]
        du = np.linalg.norm(pts[1] - pts[0])
        dv = np.linalg.norm(pts[2] - pts[0])
        if not (0.5 * pitch < du < 2 * pitch and 0.5 * pitch < dv < 2 * pitch):
            return False
        (ax, ay), (bx, by) = pts[1] - pts[0], pts[2] - pts[0]
        if ax * by - ay * bx <= 0:  # turned inside out (mirrored)
            return False
    return True


def _single_tile(blobs: Blobs, k: int, img: np.ndarray | None = None
                 ) -> tuple[float, float]:
    """Pitch and angle of a lone tile, from the dark body around its symbol."""
    cx, cy = blobs.centres[k]
    r = int(blobs.extents[k] * 1.3) + 2
    h, w = blobs.dark.shape
    x0, y0 = max(0, int(cx) - r), max(0, int(cy) - r)
    win = blobs.dark[y0:min(h, int(cy) + r), x0:min(w, int(cx) + r)].copy()
    found = _square_body(win, blobs.extents[k])
    if found is None and img is not None:
        # On a dark table the photo's dark level takes in the table's grain
        # too, which joins the body: the body against the table round it
        # alone, in a wider window.
        found = _local_body(img, (cx, cy), blobs.extents[k])
    if found is None:
        raise PhotoUnreadable("no_tiles")
    side, a = found
    return side * 1.03, math.radians(a)


def _square_body(win: np.ndarray, ext: float, cut: int = 0
                 ) -> tuple[float, float] | None:
    """The side and angle (degrees) of the square tile body in a dark mask
    around a symbol of extent `ext`, or None when it shows none; `cut` opens
    the mask by that many pixels first (thin bridges of dark grain)."""
    # The symbol counts as the tile too: fill it, then take the dark around it.
    closed = cv2.morphologyEx(win, cv2.MORPH_CLOSE, np.ones((5, 5), np.uint8))
    if cut:
        closed = filled(closed)
        closed = cv2.morphologyEx(closed, cv2.MORPH_OPEN,
                                  np.ones((cut, cut), np.uint8))
    contours, _ = cv2.findContours(closed, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    if cut:
        # The body is the part round the symbol, whatever lies beside it.
        mid = (win.shape[1] / 2, win.shape[0] / 2)
        contours = tuple(c for c in contours
                         if cv2.pointPolygonTest(c, mid, False) >= 0)
    if not contours:
        return None
    c = max(contours, key=cv2.contourArea)
    left, top, width, height = cv2.boundingRect(c)
    if left == 0 or top == 0 or left + width == win.shape[1] \
            or top + height == win.shape[0]:
        # Dark out to the window's edge: the window itself (a dark table
        # joins the body), whose square would give the tile its side and
        # angle, or the body joined to dark beside it (dark wood by a tile
        # the lamp blew out), whose box is far larger than a tile.
        return None
    (_, _), (bw, bh), a = cv2.minAreaRect(c)
    side = (bw + bh) / 2
    # A tile is a square: a dark body much like its box, and larger than its symbol.
    if (not ext * 1.15 < side < ext * 3
            or min(bw, bh) < 0.8 * max(bw, bh)
            or cv2.contourArea(c) < 0.75 * bw * bh):
        return None
    return side, a


def filled(mask: np.ndarray) -> np.ndarray:
    """A mask with the holes of its regions filled."""
    contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    out = np.zeros_like(mask)
    cv2.drawContours(out, contours, -1, 1, cv2.FILLED)
    return out


def _local_body(img: np.ndarray, centre: tuple[float, float], ext: float
                ) -> tuple[float, float] | None:
    """The side and angle of the tile body round a symbol, told from the
    table by a level between the body (just outside the symbol) and the
    table (beyond the largest tile the symbol may sit on)."""
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
    if table - body < 16:
        return None
    dark = (v < body + 0.5 * (table - body)).astype(np.uint8)
    # Centre the window on the symbol for `_square_body`'s middle.
    ox, oy = int(cx) - x0, int(cy) - y0
    side_x, side_y = min(ox, x1 - x0 - ox), min(oy, y1 - y0 - oy)
    dark = dark[oy - side_y:oy + side_y, ox - side_x:ox + side_x]
    return _square_body(dark, ext, cut=max(3, int(ext / 8)))


def find_grid(img: np.ndarray) -> Grid:
    """Return the grid of the largest group of tiles in a working image."""
    h, w = img.shape[:2]
    scale = min(1.0, DETECT_SIDE / max(h, w))
    small = img if scale == 1.0 else cv2.resize(
        img, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)
    blobs = find_blobs(small)
    if len(blobs.centres) < FEW:
        blobs = more_dark_paint(small, blobs)
    if len(blobs.centres) == 0:
        raise _nothing_found(small, blobs)
    spots = _lamp_spots(small, blobs)
    if spots.any():
        blobs = _beside_the_lamp(small, blobs, spots)
        spots = np.concatenate([spots, np.zeros(len(blobs.centres) - len(spots), bool)])
    glare = anchors = np.zeros((0, 2))
    if (~spots).sum() >= FEW:
        # The lattice from paint alone; a lamp's spot joins it afterwards
        # where it lies on a cell, so that the tile under it is read. A spot
        # of a symbol's size lies on its symbol and may help fit the lattice;
        # a larger one spreads over the tile body and beyond, its centre
        # the lamp's, not the tile's.
        glare, size = blobs.centres[spots], blobs.extents[spots]
        blobs = _without(blobs, spots)
        anchors = glare[size <= SPOT * np.median(blobs.extents)]
    pts, ext = blobs.centres, blobs.extents
    found = _pitch_and_angle(pts, ext) if len(pts) > 1 else None
    if found is None:
        # No two symbols a tile apart: one tile alone, the largest clean blob.
        k = int(np.argmax(ext))
        pitch, angle = _single_tile(blobs, k, small)
        groups = [{k: (0, 0)}]
    else:
        pitch, angle = found
        groups = _grow(pts, pitch, angle)
        if len(groups[0]) == 1:
            k = max(range(len(ext)), key=lambda i: ext[i])
            pitch, angle = _single_tile(blobs, k, small)
            groups = [{k: (0, 0)}]
    group = groups[0]
    if len(groups) > 1 and len(groups[1]) == len(group) == 1:
        raise PhotoUnreadable("no_tiles")
    idx = np.array(sorted(group))
    src = np.array([group[i] for i in idx], np.float64)
    dst = pts[idx]
    if len(idx) == 1:
        u = np.array([math.cos(angle), math.sin(angle)]) * pitch
        v = np.array([-u[1], u[0]])
        hom = np.array([[u[0], v[0], dst[0, 0]], [u[1], v[1], dst[0, 1]], [0, 0, 1]])
    else:
        hom = _fit(src, dst, pitch)
        hom, src, dst = _refine(hom, np.concatenate([pts, anchors]), src, dst, pitch)
    if pitch / scale < MIN_PITCH:
        raise PhotoUnreadable("too_small",
                              detail=f"tiles of {pitch / scale:.0f} pixels")
    to_work = np.diag([1 / scale, 1 / scale, 1.0])
    centres = {(int(r), int(c)): (float(x) / scale, float(y) / scale)
               for (c, r), (x, y) in zip(src, dst, strict=True)}
    if len(glare):
        lat = cv2.perspectiveTransform(glare[None], np.linalg.inv(hom))[0]
        for (c, r), (x, y) in zip(np.round(lat), glare, strict=True):
            centres.setdefault((int(r), int(c)), (float(x) / scale, float(y) / scale))
    faint = frozenset() if blobs.faint is None else frozenset(
        (int(r), int(c)) for (c, r), p in zip(src, dst, strict=True)
        if blobs.faint[np.flatnonzero((pts == p).all(axis=1))].any())
    return Grid(to_work @ hom, pitch / scale, centres, faint,
                float(np.median(ext[idx])) / scale)


def refit(grid: Grid, centres: dict[tuple[int, int], tuple[float, float]]) -> Grid:
    """Fit the grid again to symbol centres (row, col) -> working-image pixels,
    such as those the cells were read at: far from the first symbols found, a
    slanted grid's first fit drifts."""
    keys = sorted(centres)
    src = np.array([(c, r) for r, c in keys], np.float64)
    dst = np.array([centres[k] for k in keys], np.float64)
    try:
        hom = _fit(src, dst, grid.pitch)
    except ValueError:
        return grid
    return Grid(hom, grid.pitch, dict(centres), grid.faint)


def _refine(hom: np.ndarray, pts: np.ndarray, src: np.ndarray, dst: np.ndarray,
            pitch: float) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Take in every symbol the fitted lattice explains, and fit again."""
    for _ in range(2):
        inv = np.linalg.inv(hom)
        lat = cv2.perspectiveTransform(pts[None], inv)[0]
        cell = np.round(lat)
        err = np.linalg.norm(lat - cell, axis=1)
        fitted: dict[tuple[int, int], int] = {}
        for k in np.argsort(err):
            if err[k] > 0.28:
                break
            key = (int(cell[k, 0]), int(cell[k, 1]))
            fitted.setdefault(key, k)
        if len(fitted) < len(src):
            break
        keys = sorted(fitted)
        new_src = np.array(keys, np.float64)
        new_dst = pts[[fitted[key] for key in keys]]
        try:
            new_hom = _fit(new_src, new_dst, pitch)
        except ValueError:
            break
        hom, src, dst = new_hom, new_src, new_dst
    return hom, src, dst


def _nothing_found(img: np.ndarray, blobs: Blobs) -> PhotoUnreadable:
    """Say whether a photo without symbols looks blurred or shows no tiles."""
    grey = cv2.cvtColor(img, cv2.COLOR_BGR2GRAY)
    sharp = float(cv2.Laplacian(grey, cv2.CV_32F).var())
    dark_share = float(blobs.dark.mean())
    if 0.02 < dark_share < 0.9 and sharp < 4.0:
        return PhotoUnreadable("blurred")
    return PhotoUnreadable("no_tiles")
