"""Name a symbol's colour and shape: first from general references, then from the
stored tiles the photo shows, which carry this photo's own light and print.

The general references are a paint palette and shape templates drawn here at
many proportions, line weights and blurs. Once the photo is matched to the
stored board, every stored tile seen is a labelled example in this very light:
the colours are corrected by the light's colour (per-channel gains fitted to
them) and compared with their medians, and shapes with their nearest examples.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache

import cv2
import numpy as np

from .cells import CELL, shape_features

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


def chroma(rgb: np.ndarray) -> np.ndarray:
    """Return rg chromaticity (brightness removed) of linear RGB rows."""
    rgb = np.atleast_2d(rgb)
    total = np.maximum(rgb.sum(axis=-1, keepdims=True), 1e-4)
    return (rgb / total)[..., :2]


def paint_linear(name: str) -> np.ndarray:
    """A paint colour in linear RGB."""
    return (np.array(PAINT[name], np.float64) / 255.0) ** 2.2


# --- shape templates ------------------------------------------------------------

def _poly(points: Sequence[tuple[float, float]], turn: float) -> np.ndarray:
    c, s = math.cos(turn), math.sin(turn)
    pts = np.array(points, np.float64) @ np.array([[c, s], [-s, c]])
    return pts


def _circle(cx: float, cy: float, r: float) -> list[tuple[float, float]]:
    return [(cx + r * math.cos(t), cy + r * math.sin(t))
            for t in np.linspace(0, 2 * math.pi, 40, endpoint=False)]


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
        hh = 0.33 if v < 3 else 0.3
        if v % 2:
            hw, hh = hh, hw
        return [[(0, -hh), (hw, 0), (0, hh), (-hw, 0)]]
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
    return (small > 127).astype(np.uint8)


@cache
def templates(shapes: tuple[str, ...]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Return (features, labels, scale) of the shape templates for these shapes."""
    feats, labels = [], []
    for label, shape in enumerate(shapes):
        for variant in range(9):
            for turn in (-0.12, 0.0, 0.12, math.pi / 2 + 0.06):
                for blur in (0.0, 2.0, 3.5):
                    f = shape_features(draw_template(shape, variant, turn, blur))
                    if f is not None:
                        feats.append(f)
                        labels.append(label)
    x = np.array(feats)
    scale = np.maximum(x.std(axis=0), 0.05)
    return x, np.array(labels), scale


# --- classifiers ------------------------------------------------------------------

@dataclass
class Choice:
    """A label, its index, and how sure: 0 (a toss-up) to 1."""

    index: int
    confidence: float


def _choose(dist: np.ndarray) -> Choice:
    order = np.argsort(dist)
    best, second = dist[order[0]], dist[order[1]] if len(dist) > 1 else np.inf
    if not np.isfinite(second):
        return Choice(int(order[0]), 1.0)
    conf = float((second - best) / (second + best + 1e-9))
    return Choice(int(order[0]), conf)


class Classifier:
    """Colour and shape references for one photo, general or learnt from it."""

    def __init__(self, colors: Sequence[str], shapes: Sequence[str]) -> None:
        self.colors = tuple(colors)
        self.shapes = tuple(shapes)
        self.gains = np.ones(3)
        self.paint = np.array([chroma(paint_linear(c))[0] for c in self.colors])
        self.color_protos: dict[int, np.ndarray] = {}
        feats, labels, scale = templates(self.shapes)
        self.scale = scale
        self.shape_refs = [feats[labels == k] / scale for k in range(len(self.shapes))]
        self.examples: list[object] = []
        self.features = np.zeros((0, len(self.scale)))
        self.masks = np.zeros((0, 4, CELL, CELL), bool)
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

    def shape(self, features: np.ndarray, mask: np.ndarray | None = None,
              key: object = None) -> Choice:
        """Name the shape of a symbol from its features and, once the photo's
        stored tiles are known, by overlaying its mask on theirs (never on its
        own: `key` names the symbol's cell, left out of the examples)."""
        x = features / self.scale
        others = np.array([k != key for k in self.examples], bool)
        labels = self.labels[others] if len(others) else self.labels
        feats = self.features[others] if len(others) else self.features
        dist = np.empty(len(self.shapes))
        for k in range(len(self.shapes)):
            refs = feats[labels == k]
            if len(refs) < 2:
                refs = self.shape_refs[k]
            dist[k] = np.sqrt(((refs - x) ** 2).sum(axis=1)).min()
        by_features = _choose(dist)
        if mask is None or not len(labels):
            return by_features
        # The best overlap (intersection over union) with each known shape's
        # stored tiles, in any quarter turn: this photo's own print and blur.
        masks = self.masks[others]
        inter = (masks & mask).sum(axis=(2, 3))
        union = (masks | mask).sum(axis=(2, 3))
        iou = (inter / np.maximum(union, 1)).max(axis=1)
        best = np.full(len(self.shapes), -1.0)
        np.maximum.at(best, labels, iou)
        order = np.argsort(best)[::-1]
        first, second = best[order[0]], max(best[order[1]], 0.0)
        unseen = by_features.index not in labels
        # A shape no stored tile shows can only come from the general
        # references; trust them over a poor overlap.
        if unseen and (first < 0.85 or dist[by_features.index] < 0.6 * dist[order[0]]):
            return by_features
        return Choice(int(order[0]), float(min(1.0, (first - second) / 0.15)))

    def learn(self, examples: Sequence[Example]) -> None:
        """Learn this photo's light and print from the stored tiles it shows."""
        if not examples:
            return
        obs = np.array([e.rgb for e in examples])
        ref = np.array([paint_linear(e.color) for e in examples])
        # Per-channel gains (the colour of the light), least squares.
        gains = (obs * ref).sum(axis=0) / np.maximum((obs * obs).sum(axis=0), 1e-9)
        self.gains = gains / gains[1]
        by_color: dict[int, list[np.ndarray]] = {}
        for e in examples:
            if e.color in self.colors:
                k = self.colors.index(e.color)
                by_color.setdefault(k, []).append(chroma(e.rgb)[0])
        # Three or more: a median that one wrongly stored tile cannot move.
        self.color_protos = {k: np.median(np.array(v), axis=0)
                             for k, v in by_color.items() if len(v) >= 3}
        known = [e for e in examples if e.shape in self.shapes]
        self.examples = [e.key for e in known]
        self.labels = np.array([self.shapes.index(e.shape) for e in known], int)
        self.features = np.array([e.features / self.scale for e in known]).reshape(
            len(known), len(self.scale))
        stack = np.array([e.mask for e in known], bool).reshape(len(known), CELL, CELL)
        turns = [np.rot90(stack, k, axes=(1, 2)) for k in range(4)]
        self.masks = np.stack(turns, axis=1)


@dataclass
class Example:
    """A stored tile seen in the photo: what it looks like, and what it is."""

    rgb: np.ndarray
    features: np.ndarray
    mask: np.ndarray
    color: str
    shape: str
    key: object = None
    """The cell it was seen on."""
