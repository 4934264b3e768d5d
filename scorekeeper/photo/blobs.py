"""Find the symbols' candidates in the whole photo: light blobs enclosed by
the dark of their tile bodies, over which `grid` grows the lattice; dark
paint looked for again at lower levels, and a lamp's colourless spot told
from paint.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import cast

import cv2
import numpy as np
from cv2.typing import MatLike

from .hues import colourless
from .levels import brightest_channel, dark_threshold, value_ratio

HALVE_FROM = 800
"""Pixels: from this shorter side the second pass runs at half size (a
quarter of the time; timed on the benchmark's phone-sized renders)."""

HALVED_SYMBOL = 24
"""Pixels: the least usual symbol extent for that half-size pass (the
renders' smallest tiles are 30 px)."""

SIZE_PEERS = 3
"""Blobs needed to compare their sizes with the photo's usual one."""

SIZE_SPREAD = (0.45, 2.2)
"""Shares of the usual extent (75th percentile) a symbol lies between: below,
a speck of table between tile corners; above, a patch of table or a lamp."""

MIN_AREA = 16
"""Pixels: the least blob area (a symbol at `grid.MIN_PITCH` has about 40)."""

MIN_EXTENT = 5
"""Pixels: the least side of a blob's box."""

MAX_AREA = 0.25
"""Share of the photo a symbol may cover: one cropped tight round a lone
tile (`tests/photo/test_photo_phone.py`)."""

TABLE_CHROMA = 0.06
"""rg chromaticity: a blob this near the largest light region's colour, and
within `TABLE_LEVEL` of its brightness, is table (small blurred renders)."""

TABLE_LEVEL = 0.3
"""Natural log of a brightness ratio (`TABLE_CHROMA`)."""

DARK_PAINT = 0.55
"""Share of the dark level at which blobs are looked for again: dark paint
(value 0.3) on a light table (`tests/photo/synth_real.py`)."""

FEW = 2
"""Fewer symbols than give the step: a few more passes look for dark paint."""

FAINT = 1.2
"""Contrast over its ring that dark paint on a black tile needs in those
passes (it measures about 1.7 once blurred)."""

BODY_LEVEL = 0.8
"""Share of the dark level under which the dark is masked a second time
(`Blobs.deep`): at the photo's own level a wooden table's dark grain joins
a lone tile body beside it; tile bodies (linear 0.008–0.02 in the realistic
renders) stay dark at this share, the grain not."""

RING = 0.15
"""A blob's margin, share of its extent: the box round it widened by this
much, or the ring this wide round it, is its tile's dark (set with the
first reader, on the renders)."""

ENCLOSED = 0.8
"""Share of a blob's box or ring (`RING`) that is dark for it to be a
symbol on its tile (set with the first reader, on the renders, for the box).
The ring round a symbol stays on its tile at any turn, where the box round
a large one on a tile turned 45° reaches past the tile's corners onto the
table (`tests/photo/test_photo_turned.py`): the development set's ten photos
turned 45° have blobs whose box is 0.55-0.8 dark and whose ring passes."""

COLOURLESS = 0.5
"""Share of a blob's light pixels without colour (`hues.GREY`) above which
it is a lamp's spot, not paint (realistic glare)."""


@dataclass
class Blobs:
    """Candidate symbols: light blobs enclosed by dark."""

    centres: np.ndarray
    """(n, 2) detection-image pixels."""
    extents: np.ndarray
    """(n,) the larger side of each blob's box."""
    spreads: np.ndarray
    """(n, 2, 2) each blob's second moments over their trace: as wide every
    way (half the identity) for a symbol seen square on, narrower the way
    a slant foreshortens it (`grid.SLANTED`)."""
    dark: np.ndarray
    """The dark mask the blobs were found in."""
    faint: np.ndarray | None = None
    """(n,) bool: found only as faint paint (`more_dark_paint`)."""
    deep: np.ndarray | None = None
    """The dark at `BODY_LEVEL` of the dark level (`find_blobs`)."""


def find_blobs(img: np.ndarray) -> Blobs:
    """Light blobs enclosed by dark, at the photo's dark level and again at
    `DARK_PAINT` of it (at half size from `HALVE_FROM`)."""
    h, w = img.shape[:2]
    ratio = value_ratio(img, max(h, w) / 10)
    level = dark_threshold(ratio)
    first = _blobs_at(img, ratio, level)
    if min(h, w) >= HALVE_FROM and len(first.centres) and \
            np.median(first.extents) >= HALVED_SYMBOL:
        half = (w // 2, h // 2)
        low = _blobs_at(cv2.resize(img, half, interpolation=cv2.INTER_AREA),
                        cv2.resize(ratio, half, interpolation=cv2.INTER_AREA),
                        level * DARK_PAINT)
        low = Blobs(low.centres * 2 + 0.5, low.extents * 2, low.spreads, low.dark)
    else:
        low = _blobs_at(img, ratio, level * DARK_PAINT)
    deep = (ratio < level * BODY_LEVEL).astype(np.uint8)
    new = _not_found_yet(low.centres, low.extents, first.centres)
    if not new.any():
        return replace(first, deep=deep)
    centres = np.concatenate([first.centres, low.centres[new]])
    extents = np.concatenate([first.extents, low.extents[new]])
    spreads = np.concatenate([first.spreads, low.spreads[new]])
    keep = usual_size(extents)
    return Blobs(centres[keep], extents[keep], spreads[keep], first.dark, deep=deep)


def usual_size(extents: np.ndarray) -> np.ndarray:
    """For each blob, whether its extent is a symbol's (`SIZE_SPREAD`)."""
    if len(extents) < SIZE_PEERS:
        return np.ones(len(extents), bool)
    typical = np.percentile(extents, 75)
    return np.asarray((extents >= SIZE_SPREAD[0] * typical)
                      & (extents <= SIZE_SPREAD[1] * typical))


def _not_found_yet(centres: np.ndarray, extents: np.ndarray, known: np.ndarray
                   ) -> np.ndarray:
    """For each blob of another pass, whether no known one lies within half
    its size."""
    if not len(known) or not len(centres):
        return np.ones(len(centres), bool)
    d = np.linalg.norm(centres[:, None] - known[None], axis=2)
    return np.asarray(d.min(axis=1) > 0.5 * np.maximum(extents, 4))


def _blobs_at(img: np.ndarray, ratio: np.ndarray, level: float,
              contrast: float = 1.6) -> Blobs:
    """The light blobs enclosed by dark at one level, `contrast` times as
    bright as their ring."""
    h, w = img.shape[:2]
    dark = (ratio < level).astype(np.uint8)
    n, labels, stats, centroids = cv2.connectedComponentsWithStats(
        cast(MatLike, 1 - dark), connectivity=8
    )
    x, y, bw, bh, area = (stats[:, i] for i in range(5))
    ext = np.maximum(bw, bh)
    keep = (area >= MIN_AREA) & (area <= h * w * MAX_AREA) & (ext >= MIN_EXTENT)
    keep &= (np.minimum(bw, bh) * 3 >= ext) & (area * 6 >= bw * bh)
    keep[0] = False
    idx = np.flatnonzero(keep)
    if idx.size == 0:
        return Blobs(np.zeros((0, 2)), np.zeros(0), np.zeros((0, 2, 2)), dark)
    # Enclosed: the box around the blob, widened by `RING` of its size, is
    # dark except for the blob itself, or else the ring round it is.
    m = np.maximum(2, (ext[idx] * RING).astype(int))
    x0, y0 = np.clip(x[idx] - m, 0, w), np.clip(y[idx] - m, 0, h)
    x1, y1 = np.clip(x[idx] + bw[idx] + m, 0, w), np.clip(y[idx] + bh[idx] + m, 0, h)

    def box_sum(table: np.ndarray) -> np.ndarray:
        return cast(np.ndarray,
                    table[y1, x1] - table[y0, x1] - table[y1, x0] + table[y0, x0])

    box = (x1 - x0) * (y1 - y0)
    enclosed = box_sum(cv2.integral(dark)) >= ENCLOSED * (box - area[idx])
    # Paint on black is several times its ring's brightness; wood grain not.
    value = brightest_channel(img).astype(np.float64)
    blob_sum = np.bincount(labels.ravel(), weights=value.ravel(), minlength=n)[idx]
    ring = (box_sum(cv2.integral(value)) - blob_sum) / np.maximum(box - area[idx], 1)
    bright = blob_sum / area[idx] >= contrast * ring + 8
    for i in np.flatnonzero(bright & ~enclosed):
        cut = np.s_[y0[i]:y1[i], x0[i]:x1[i]]
        enclosed[i] = _ringed(labels[cut], dark[cut], int(idx[i]), int(m[i]))
    idx = idx[enclosed & bright]
    idx = idx[~_like_table(img, labels, stats, idx)]
    idx = idx[usual_size(ext[idx])]
    return Blobs(centroids[idx].astype(np.float64), ext[idx].astype(np.float64),
                 _spreads(labels, stats, idx), dark)


def _spreads(labels: np.ndarray, stats: np.ndarray, idx: np.ndarray) -> np.ndarray:
    """Each blob's `Blobs.spreads`, from its pixels in `labels`."""
    out = np.zeros((len(idx), 2, 2))
    for i, k in enumerate(idx):
        x, y, w, h = stats[k, :4]
        m = cv2.moments((labels[y:y + h, x:x + w] == k).astype(np.uint8), True)
        out[i] = np.array([[m["mu20"], m["mu11"]], [m["mu11"], m["mu02"]]]) / \
            max(m["mu20"] + m["mu02"], 1e-9)
    return out


def _ringed(labels: np.ndarray, dark: np.ndarray, k: int, width: int) -> bool:
    """True when the ring `width` wide round blob `k` is dark (`ENCLOSED`),
    in `labels` and `dark` cut to its box widened by `width`: a large symbol
    on a tile turned 45°, whose box reaches past the tile's corners."""
    other = (labels != k).astype(np.uint8)
    # Time linear in the box, whatever the ring's width.
    ring = (cv2.distanceTransform(other, cv2.DIST_L2, 3) <= width) & (other > 0)
    return bool(dark[ring].mean() >= ENCLOSED)


def more_dark_paint(img: np.ndarray, blobs: Blobs) -> Blobs:
    """The blobs and dark paint found at levels between the usual and
    `DARK_PAINT`, at `FAINT` contrast (a lone dark symbol on a small tile)."""
    h, w = img.shape[:2]
    f = 2 if min(h, w) >= HALVE_FROM else 1
    small = img if f == 1 else cv2.resize(img, (w // f, h // f),
                                           interpolation=cv2.INTER_AREA)
    ratio = value_ratio(small, max(h, w) / f / 10)
    level = dark_threshold(ratio)
    centres, extents, spreads = blobs.centres, blobs.extents, blobs.spreads
    faint = np.zeros(len(centres), bool)
    for share in (0.9, 0.8, 0.7, 0.6):
        found = _blobs_at(small, ratio, level * share, FAINT)
        pts, ext = found.centres * f + (f - 1) / 2, found.extents * f
        new = _not_found_yet(pts, ext, centres)
        centres = np.concatenate([centres, pts[new]])
        extents = np.concatenate([extents, ext[new]])
        spreads = np.concatenate([spreads, found.spreads[new]])
        faint = np.concatenate([faint, np.ones(int(new.sum()), bool)])
    keep = usual_size(extents)
    return replace(blobs, centres=centres[keep], extents=extents[keep],
                   spreads=spreads[keep], faint=faint[keep])


def lamp_spots(img: np.ndarray, blobs: Blobs) -> np.ndarray:
    """For each blob, whether it is a lamp's spot (`COLOURLESS`)."""
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


def without(blobs: Blobs, drop: np.ndarray) -> Blobs:
    """The blobs but those marked in `drop`."""
    keep = ~drop
    return replace(blobs, centres=blobs.centres[keep], extents=blobs.extents[keep],
                   spreads=blobs.spreads[keep],
                   faint=None if blobs.faint is None else blobs.faint[keep])


def _like_table(img: np.ndarray, labels: np.ndarray, stats: np.ndarray,
                idx: np.ndarray) -> np.ndarray:
    """For each blob `idx` (labels with their `stats`), whether it is the table
    showing between tile corners (`TABLE_CHROMA`, `TABLE_LEVEL`)."""
    area = np.where(np.arange(len(stats)) == 0, -1, stats[:, cv2.CC_STAT_AREA])
    table = int(np.argmax(area))
    # Each blob's mean colour within its own box: summing every pixel by its
    # label was a tenth of a phone photo's time.
    means = [cv2.mean(img, (labels == table).astype(np.uint8))[:3]]
    for i in idx:
        x, y, w, h = stats[i, :4]
        box = np.s_[y:y + h, x:x + w]
        means.append(img[box][labels[box] == i].mean(axis=0))
    mean = np.array(means, np.float64)
    total = mean.sum(axis=1)
    level = np.abs(np.log((total[1:] + 1) / (total[0] + 1))) < TABLE_LEVEL
    return np.asarray(table_coloured(mean[1:], mean[0]) & level)


def table_coloured(colours: np.ndarray, table: np.ndarray) -> np.ndarray:
    """For each colour (rows, 8-bit, any one channel order), whether its
    chromaticity is within `TABLE_CHROMA` of the table's."""
    def chroma(x: np.ndarray) -> np.ndarray:
        return np.asarray(x / (x.sum(axis=-1, keepdims=True) + 1e-6))

    return np.asarray(np.abs(chroma(colours) - chroma(table)).sum(axis=-1)
                      < TABLE_CHROMA)
