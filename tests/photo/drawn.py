"""Symbol masks drawn with our own code, at many proportions and line
weights: other prints than the renderers' (`benchmarks/train_shapes.py`
trains on them; tests draw one symbol without a photo)."""

from __future__ import annotations

import math
from collections.abc import Sequence

import cv2
import numpy as np

from scorekeeper.photo.symbols import CELL, MASK_MID

DRAWINGS = 9
"""Drawings of each symbol at other proportions and line weights."""

REAL_STARS = 3
"""Drawings more of a crisscross and a starburst as real tiles print them
(a four- and an eight-pointed star)."""

STARS = ("crisscross", "starburst")
"""The shapes drawn also as real tiles' stars (four and eight points)."""


def variants(shape: str) -> int:
    """How many drawings of `shape` there are."""
    return DRAWINGS + (REAL_STARS if shape in STARS else 0)


def _poly(points: Sequence[tuple[float, float]], turn: float) -> np.ndarray:
    c, s = math.cos(turn), math.sin(turn)
    return np.array(points, np.float64) @ np.array([[c, s], [-s, c]])


def _circle(cx: float, cy: float, r: float) -> list[tuple[float, float]]:
    return [(cx + r * math.cos(t), cy + r * math.sin(t))
            for t in np.linspace(0, 2 * math.pi, 40, endpoint=False)]


def _star(points: int, outer: float, inner: float, phase: float
          ) -> list[tuple[float, float]]:
    return [((outer if k % 2 == 0 else inner) * math.cos(k * math.pi / points + phase),
             (outer if k % 2 == 0 else inner) * math.sin(k * math.pi / points + phase))
            for k in range(2 * points)]


def _polygons(shape: str, v: int) -> list[list[tuple[float, float]]]:
    """Polygons (cell units, centred) of drawing `v` of a symbol."""
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
            bars.append([(float(x), float(y)) for x, y in _poly(bar, a)])
        return bars
    if shape == "starburst":
        outer = (0.32, 0.35, 0.37)[v % 3]
        inner = outer * (0.42, 0.52, 0.62)[(v // 3) % 3]
        return [_star(8, outer, inner, 0.2 * v)]
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
        r = (0.12, 0.13, 0.14)[v % 3]
        return [_circle(-0.12, -0.08, r), _circle(0.12, -0.08, r),
                [(-0.25, -0.03), (0.25, -0.03), (0, (0.28, 0.3, 0.33)[(v // 3) % 3])]]
    if shape == "triangle":
        s = (0.3, 0.34, 0.38)[v % 3]
        return [[(0, -s), (s * 0.87, s * 0.5), (-s * 0.87, s * 0.5)]]
    raise ValueError(f"no drawing of shape {shape!r}")


def draw(shape: str, variant: int, turn: float = 0.0, blur: float = 0.0) -> np.ndarray:
    """One symbol mask (CELL × CELL), turned by `turn` radians and blurred."""
    big = 4 * CELL
    img = np.zeros((big, big), np.uint8)
    for poly in _polygons(shape, variant):
        pts = _poly(poly, turn) * big + big / 2
        cv2.fillPoly(img, [np.round(pts * 16).astype(np.int32)], 255, cv2.LINE_AA, 4)
    small = cv2.resize(img, (CELL, CELL), interpolation=cv2.INTER_AREA)
    if blur:
        small = cv2.GaussianBlur(small, (0, 0), blur)
    return (small > MASK_MID).astype(np.uint8)
