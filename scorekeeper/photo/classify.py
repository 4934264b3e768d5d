"""Name a symbol's colour and shape: first from general references, then from the
stored tiles the photo shows, which carry this photo's own light and print.

The general references are a paint palette and shape templates drawn here at
many proportions, line weights and blurs. Shapes are compared as masks moved to
the middle and scaled to one size, by their overlap (intersection over union)
in any quarter turn. Once the photo is matched to the stored board, every
stored tile seen is a labelled example in this very light and print: colours
are corrected by the light's colour (per-channel gains fitted to them) and
compared with their medians, and shapes are overlaid on theirs too.

Its thresholds, named at its top: `TAUGHT_APART`, `TAUGHT_BAND`,
`PROTOTYPE_TILES`, `FOUR_FOLD`, `ARMS`, `LEAD`, `SHARP_PITCH`, `FIT`,
`THIN_FIT`, `ROUND_FIT` and `DOUBT`.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from typing import cast

import cv2
import numpy as np

from .hues import GAMMA
from .symbols import CELL, MASK_MID, MIN_PIXELS, normalise

DRAWINGS = 9
"""Drawings of each symbol at other proportions and line weights."""

REAL_STARS = 3
"""Drawings more of a crisscross and a starburst as real tiles print them
(a four- and an eight-pointed star, `STARS`)."""

TAUGHT_APART = 0.08
"""Four-fold measure (`four_fold`): where a table's confirmed crisscrosses
and starbursts lie at least this far apart, the bounds between them are
its own (`FOUR_FOLD` otherwise). Set on the realistic sets' first moves."""

TAUGHT_BAND = 0.03
"""Four-fold measure: the half-width of the band round the middle of a
table's own crisscrosses and starbursts where neither is preferred."""

PROTOTYPE_TILES = 3
"""Stored tiles of a colour the photo must show to take their median as the
colour's look in this light: a median of three one wrongly stored tile
cannot move."""

PAINT: dict[str, tuple[int, int, int]] = {
    "red": (205, 35, 45),
    "orange": (240, 120, 30),
    "yellow": (245, 210, 45),
    "green": (45, 160, 70),
    "blue": (30, 100, 205),
    "purple": (125, 55, 160),
    "pink": (240, 115, 175),
    "brown": (135, 80, 40),
}
"""Typical printed colour of each symbol colour (sRGB)."""

STARS = ("crisscross", "starburst")
"""The shapes drawn also as real tiles' stars (four and eight points)."""

RAYS = 64
"""Directions the radial profile is measured in (`four_fold`): 64 see the
eight points of a starburst (a harmonic of 8) with room to spare."""

FOUR_FOLD = (0.07, 0.15)
"""Four-fold measure (`four_fold`): below the first a symbol has no four
arms (no crisscross); above the second it is no starburst. Set on the
realistic sets' first moves of crisscrosses and starbursts."""

ARMS = 0.08
"""Overlap (intersection over union): how much the radial profile's evidence
is worth against a shape. Set with `FOUR_FOLD`."""

LEAD = 0.05
"""Overlap (intersection over union): the lead over the second shape that
makes a reading sure. Set on the held-out realistic photos 40-119."""

SHARP_PITCH = 72.0
"""Below this tile size (pixels) a symbol's outline is so few pixels that
one pixel more or less of it moves its overlaps as much as the lead between
two shapes: the lead asked grows as the tile shrinks (a blobby crisscross
read as a clover or square by 0.015-0.02 on 39-41 px tiles)."""

FIT = 0.8
"""A symbol that overlaps even its best shape less than this fits none:
a fragment, a bar of a clover, a clover with specks of the table attached;
its reading is a guess however far it leads."""

THIN_FIT = 0.65
"""FIT for the crisscross: its thin arms lose overlap to a pixel of blur or
offset, so a right one may fit only 0.72."""

ROUND_FIT = 0.94
"""A symbol read as a circle must fit one this closely: blur and a small
tile round a starburst's points and a clover's lobes off into a near-circle
(0.91-0.92), while a circle fits its templates by 0.95 and more."""

DOUBT = 0.1
"""The confidence of a shape its outline cannot vouch for: below the
reader's `LOW_CONFIDENCE`, so the tile is marked uncertain."""


def chroma(rgb: np.ndarray) -> np.ndarray:
    """Return rg chromaticity (brightness removed) of linear RGB rows."""
    rgb = np.atleast_2d(rgb)
    total = np.maximum(rgb.sum(axis=-1, keepdims=True), 1e-4)
    return cast(np.ndarray, (rgb / total)[..., :2])


def paint_linear(name: str) -> np.ndarray:
    """A paint colour in linear RGB."""
    return (np.array(PAINT[name], np.float64) / 255.0) ** GAMMA


def _poly(points: Sequence[tuple[float, float]], turn: float) -> np.ndarray:
    c, s = math.cos(turn), math.sin(turn)
    return cast(np.ndarray, np.array(points, np.float64) @ np.array([[c, s], [-s, c]]))


def _circle(cx: float, cy: float, r: float) -> list[tuple[float, float]]:
    return [(cx + r * math.cos(t), cy + r * math.sin(t))
            for t in np.linspace(0, 2 * math.pi, 40, endpoint=False)]


def _star(points: int, outer: float, inner: float, phase: float
          ) -> list[tuple[float, float]]:
    return [((outer if k % 2 == 0 else inner) * math.cos(k * math.pi / points + phase),
             (outer if k % 2 == 0 else inner) * math.sin(k * math.pi / points + phase))
            for k in range(2 * points)]


def _template_polygons(shape: str, variant: int) -> list[list[tuple[float, float]]]:
    """Polygons (cell units, centred) of one drawing of a symbol."""
    v = variant
    if shape == "circle":
        return [_circle(0, 0, (0.25, 0.28, 0.31)[v % 3])]
    if shape == "square":
        h = (0.2, 0.23, 0.26)[v % 3]
        return [[(-h, -h), (h, -h), (h, h), (-h, h)]]
    if shape == "diamond":
        hw = (0.22, 0.26, 0.32)[v % 3]
        hh = 0.33 if v // 3 == 0 else 0.3
        if v % 2:
            hw, hh = hh, hw
        return [[(0, -hh), (hw, 0), (0, hh), (-hw, 0)]]
    if shape == "crisscross" and v >= DRAWINGS:
        # A real tile's crisscross: a four-pointed star on the diagonals.
        outer = (0.36, 0.4, 0.38)[v - DRAWINGS]
        return [_star(4, outer, outer * (0.22, 0.3, 0.4)[v - DRAWINGS], math.pi / 4)]
    if shape == "starburst" and v >= DRAWINGS:
        outer = (0.34, 0.38, 0.36)[v - DRAWINGS]
        return [_star(8, outer, outer * (0.5, 0.58, 0.66)[v - DRAWINGS], math.pi / 8)]
    if shape == "crisscross":
        length = (0.34, 0.37, 0.4)[v % 3]
        w = (0.06, 0.09, 0.12)[(v // 3) % 3]
        tip = w if v % 2 else 0
        bars = []
        for a in (math.pi / 4, -math.pi / 4):
            bar = [(-length, 0), (-length + tip, -w), (length - tip, -w), (length, 0),
                   (length - tip, w), (-length + tip, w)]
            bars.append([tuple(p) for p in _poly(bar, a)])
        return bars
    if shape == "starburst":
        outer = (0.32, 0.35, 0.37)[v % 3]
        inner = outer * (0.42, 0.52, 0.62)[(v // 3) % 3]
        points = []
        for k in range(16):
            r, a = (outer if k % 2 == 0 else inner), k * math.pi / 8 + 0.2 * v
            points.append((r * math.cos(a), r * math.sin(a)))
        return [points]
    if shape == "clover":
        r = (0.11, 0.13, 0.145)[v % 3]
        dist = (0.14, 0.16, 0.18)[(v // 3) % 3]
        a0 = 0 if v % 2 == 0 else math.pi / 4
        parts = [_circle(0, 0, r * 0.9)]
        for k in range(4):
            a = a0 + k * math.pi / 2
            parts.append(_circle(dist * math.cos(a), dist * math.sin(a), r))
        return parts
    if shape == "heart":
        r = 0.13
        return [_circle(-0.12, -0.08, r), _circle(0.12, -0.08, r),
                [(-0.25, -0.03), (0.25, -0.03), (0, 0.3)]]
    if shape == "triangle":
        s = (0.3, 0.34, 0.38)[v % 3]
        return [[(0, -s), (s * 0.87, s * 0.5), (-s * 0.87, s * 0.5)]]
    raise ValueError(f"no template for shape {shape!r}")


def draw_template(shape: str, variant: int, turn: float, blur: float) -> np.ndarray:
    """Draw one symbol mask (CELL × CELL) with our own drawing code."""
    big = 4 * CELL
    img = np.zeros((big, big), np.uint8)
    for poly in _template_polygons(shape, variant):
        pts = _poly(poly, turn) * big + big / 2
        cv2.fillPoly(img, [np.round(pts * 16).astype(np.int32)], 255, cv2.LINE_AA, 4)
    small = cv2.resize(img, (CELL, CELL), interpolation=cv2.INTER_AREA)
    if blur:
        small = cv2.GaussianBlur(small, (0, 0), blur)
    return (small > MASK_MID).astype(np.uint8)


def _pack(masks: np.ndarray) -> np.ndarray:
    """Pack boolean masks (n, CELL, CELL) into bits: one row of 64-bit words each."""
    bits = np.packbits(masks.reshape(len(masks), CELL * CELL), axis=1)
    return bits.view(np.uint64)


def _turns(masks: np.ndarray) -> np.ndarray:
    """The masks in their four quarter turns: (n, 4, CELL, CELL)."""
    return np.stack([np.rot90(masks, k, axes=(1, 2)) for k in range(4)], axis=1)


def _overlap(refs: np.ndarray, query: np.ndarray,
             ref_area: np.ndarray | None = None) -> np.ndarray:
    """Intersection over union of a packed query with packed references (whose
    areas, when given, save counting them again)."""
    inter = np.bitwise_count(refs & query).sum(axis=-1, dtype=np.int32)
    if ref_area is None:
        ref_area = _area(refs)
    union = ref_area + _area(query[None])[0] - inter
    return cast(np.ndarray, inter / np.maximum(union, 1))


def _area(packed: np.ndarray) -> np.ndarray:
    """Pixels set in each packed mask."""
    return cast(np.ndarray, np.bitwise_count(packed).sum(axis=-1, dtype=np.int32))


@cache
def templates(shapes: tuple[str, ...]) -> tuple[np.ndarray, np.ndarray]:
    """Return the packed, normalised shape templates (each in four quarter
    turns) and their shape indexes."""
    masks, labels = [], []
    for label, shape in enumerate(shapes):
        for variant in range(DRAWINGS + (REAL_STARS if shape in STARS else 0)):
            for turn in (-0.1, 0.0, 0.1):
                for blur in (0.0, 2.5):
                    norm = normalise(draw_template(shape, variant, turn, blur))
                    if norm is not None:
                        masks.append(norm)
                        labels.append(label)
    turned = _turns(np.array(masks))
    return _pack(turned.reshape(-1, CELL, CELL)), np.repeat(labels, 4)


def four_fold(mask: np.ndarray) -> float:
    """How four-fold a symbol's outline is: the fourth harmonic of its radius
    against the direction from its centre, over the mean radius (× 2).

    A crisscross (four arms) measures 0.25 and more, a starburst (eight
    points) almost nothing: its eight points repeat every 45°, which the
    fourth harmonic does not see. Squares, diamonds and clovers measure
    0.11–0.35, a circle nothing."""
    ys, xs = np.nonzero(mask)
    if len(xs) < MIN_PIXELS:
        return 0.0
    cy, cx = ys.mean(), xs.mean()
    t = np.arange(RAYS) * 2 * math.pi / RAYS
    rs = np.arange(0, CELL / 2, 0.5)
    x = np.clip(np.round(cx + np.cos(t)[:, None] * rs[None]), 0, CELL - 1).astype(int)
    y = np.clip(np.round(cy + np.sin(t)[:, None] * rs[None]), 0, CELL - 1).astype(int)
    on = mask[y, x] > 0
    # The outermost point of the symbol along each ray.
    last = np.where(on.any(axis=1), on.shape[1] - 1 - np.argmax(on[:, ::-1], axis=1), 0)
    radius = rs[last]
    spectrum = np.abs(np.fft.rfft(radius)) / RAYS
    return float(2 * spectrum[4] / max(spectrum[0], 1e-6))


def _four_fold_bounds(learnt: Mapping[str, tuple[float, float]]
                      ) -> tuple[float, float]:
    """FOUR_FOLD, or between this table's crisscrosses and starbursts where
    its confirmed moves taught both and they lie apart."""
    if all(s in learnt for s in STARS):
        (cross, _), (star, _) = (learnt[s] for s in STARS)
        if cross - star > TAUGHT_APART:
            mid = (cross + star) / 2
            return mid - TAUGHT_BAND, mid + TAUGHT_BAND
    return FOUR_FOLD


def lead(pitch: float | None) -> float:
    """The lead over the second shape that makes a reading sure, for a tile
    of `pitch` pixels (unknown: the usual one)."""
    if not pitch:
        return LEAD
    return LEAD * max(1.0, SHARP_PITCH / pitch)


def fits(shape: str, overlap: float) -> bool:
    """True when a symbol overlaps the shape it is read as well enough to
    vouch for it (`FIT`, `THIN_FIT`, `ROUND_FIT`)."""
    if shape == "circle":
        return overlap >= ROUND_FIT
    return overlap >= (THIN_FIT if shape == "crisscross" else FIT)


@dataclass
class Choice:
    """A label, its index, and how sure: 0 (a toss-up) to 1."""

    index: int
    confidence: float
    scores: np.ndarray
    """How well the symbol fits each label: higher is better."""


def _choose(dist: np.ndarray) -> Choice:
    order = np.argsort(dist)
    best, second = dist[order[0]], dist[order[1]] if len(dist) > 1 else np.inf
    if not np.isfinite(second):
        return Choice(int(order[0]), 1.0, -dist)
    conf = float((second - best) / (second + best + 1e-9))
    return Choice(int(order[0]), conf, -dist)


class Classifier:
    """Colour and shape references for one photo, general or learnt from it."""

    def __init__(self, colors: Sequence[str], shapes: Sequence[str]) -> None:
        self.colors = tuple(colors)
        self.shapes = tuple(shapes)
        self.gains = np.ones(3)
        self.paint = np.array([chroma(paint_linear(c))[0] for c in self.colors])
        self.color_protos: dict[int, np.ndarray] = {}
        self.templates, self.template_labels = templates(self.shapes)
        self.keys: list[object] = []
        self.template_area = _area(self.templates)
        self.masks = np.zeros((0, CELL * CELL // 64), np.uint64)
        self.mask_area = np.zeros(0, np.int32)
        self.labels = np.zeros(0, int)

    def color(self, rgb: np.ndarray) -> Choice:
        """Name the colour of a symbol (linear RGB)."""
        raw = chroma(rgb)[0]
        fixed = chroma(rgb * self.gains)[0]
        dist = np.empty(len(self.colors))
        for k in range(len(self.colors)):
            if k in self.color_protos:
                dist[k] = np.linalg.norm(raw - self.color_protos[k])
            else:
                dist[k] = np.linalg.norm(fixed - self.paint[k])
        return _choose(dist)

    def _overlaps(self, query: np.ndarray, key: object) -> np.ndarray:
        """The best overlap of a packed mask with each shape's references."""
        best = np.zeros(len(self.shapes))
        np.maximum.at(best, self.template_labels,
                      _overlap(self.templates, query, self.template_area))
        if len(self.labels):
            others = np.repeat([k != key for k in self.keys], 4)
            if others.any():
                np.maximum.at(best, self.labels[others], _overlap(
                    self.masks[others], query, self.mask_area[others]))
        return best

    def shape(self, mask: np.ndarray, key: object = None,
              learnt: Mapping[str, tuple[float, float]] | None = None,
              pitch: float | None = None) -> Choice:
        """Name the shape of a normalised symbol mask: the shape it overlaps
        best, among our templates and the stored tiles this photo shows (in
        this photo's own print and blur), never counting the symbol itself
        (`key` names its cell). `pitch` is the tile's size in the photo
        (pixels): a small symbol's lead must be larger to be sure."""
        best = self._overlaps(_pack(mask[None])[0], key)
        if all(s in self.shapes for s in STARS):
            # Overlaps confuse a blurred crisscross with a starburst; their
            # outlines do not (four arms against eight points).
            cross, star = (self.shapes.index(s) for s in STARS)
            four = four_fold(mask)
            lo, hi = _four_fold_bounds(learnt or {})
            if four > hi:
                best[star] -= ARMS * min(1.0, (four - hi) / 0.05 + 0.5)
            elif four < lo:
                best[cross] -= ARMS * min(1.0, (lo - four) / 0.03 + 0.5)
        order = np.argsort(best)[::-1]
        margin = best[order[0]] - best[order[1]]
        # Overlaps of unlike shapes are high too (a clover is nearly a square):
        # a lead of 0.05 is already a clear one, on a tile large enough that
        # a pixel of outline moves the overlap little (`SHARP_PITCH`).
        conf = min(1.0, margin / lead(pitch))
        if not fits(self.shapes[order[0]], float(best[order[0]])):
            conf = min(conf, DOUBT)
        return Choice(int(order[0]), float(conf), best)

    def learn(self, examples: Sequence[Example]) -> None:
        """Learn this photo's light and print from the stored tiles it shows."""
        if not examples:
            return
        obs = np.array([e.rgb for e in examples])
        ref = np.array([paint_linear(e.color) for e in examples])
        # Per-channel gains (the colour of the light), least squares. The
        # light's colour shows only across several colours: with few tiles or
        # few colours the gains are pulled back towards neutral.
        gains = (obs * ref).sum(axis=0) / np.maximum((obs * obs).sum(axis=0), 1e-9)
        gains = gains / gains[1]
        kinds = len({e.color for e in examples})
        trust = min(1.0, len(examples) / 12) * min(1.0, max(0, kinds - 1) / 3)
        self.gains = gains ** trust
        by_color: dict[int, list[np.ndarray]] = {}
        for e in examples:
            if e.color in self.colors:
                k = self.colors.index(e.color)
                by_color.setdefault(k, []).append(chroma(e.rgb)[0])
        # Three or more: a median that one wrongly stored tile cannot move.
        self.color_protos = {k: np.median(np.array(v), axis=0)
                             for k, v in by_color.items() if len(v) >= PROTOTYPE_TILES}
        known = [e for e in examples if e.shape in self.shapes]
        self._set_examples(known)
        # A stored tile that looks more like another shape than its own
        # (the table and the page may differ) must not teach that shape's look.
        keep = [e for e in known if self._looks_like_its_own(e)]
        self._set_examples(keep)

    def _looks_like_its_own(self, e: Example) -> bool:
        """True unless a stored tile overlaps another shape better than its own."""
        best = self._overlaps(_pack(e.mask[None])[0], e.key)
        label = self.shapes.index(e.shape)
        return bool(best[label] >= np.delete(best, label).max() - 0.005)

    def _set_examples(self, known: Sequence[Example]) -> None:
        """Keep these stored tiles as the photo's own shape examples."""
        self.keys = [e.key for e in known]
        self.labels = np.repeat([self.shapes.index(e.shape) for e in known], 4)
        stack = np.array([e.mask for e in known], bool).reshape(-1, CELL, CELL)
        self.masks = _pack(_turns(stack).reshape(-1, CELL, CELL))
        self.mask_area = _area(self.masks)


@dataclass
class Example:
    """A stored tile seen in the photo: what it looks like, and what it is."""

    rgb: np.ndarray
    mask: np.ndarray
    color: str
    shape: str
    key: object = None
    """The cell it was seen on."""
