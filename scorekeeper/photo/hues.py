"""A symbol's colour as numbers: linear RGB to sRGB hue, saturation and
value and back (`srgb`, `hsv_rows`, `hsv`, `linear`), and whether pixels show
paint at all (`colourless`).
"""

from __future__ import annotations

import colorsys
import math

import numpy as np

GAMMA = 2.2
"""The exponent from a photo's sRGB levels (over 255) to linear light."""

GREY = 0.22
"""Saturation: under it a pixel shows no paint (glare, a washed print, a
tile body). Paint measures 0.5 and more in every light of the test sets."""

PAINT = 0.5
"""Saturation: the least real paint measures."""


def colourless(pix: np.ndarray) -> np.ndarray:
    """For each pixel (… × 3, sRGB, any channel order), whether its
    saturation is under `GREY`: no paint."""
    # Channel by channel: numpy reduces a 3-long last axis many times slower
    # than it compares whole planes, and a cell read runs this on every pixel.
    a, b, c = pix[..., 0], pix[..., 1], pix[..., 2]
    lo = np.minimum(np.minimum(a, b), c).astype(np.float32)
    hi = np.maximum(np.maximum(a, b), c).astype(np.float32)
    return np.asarray(lo >= (1 - GREY) * np.maximum(hi, 1))


def srgb(lin: np.ndarray) -> np.ndarray:
    """sRGB levels (0 to 1) of linear RGB, clipped to the gamut."""
    return np.asarray(np.clip(np.asarray(lin, np.float64), 0, 1) ** (1 / GAMMA))


def hsv_rows(lin: np.ndarray) -> np.ndarray:
    """(hue radians, saturation, value) of linear RGB rows, as sRGB shows them."""
    levels = srgb(lin)
    hi, lo = levels.max(axis=1), levels.min(axis=1)
    span = np.maximum(hi - lo, 1e-9)
    r, g, b = levels.T
    hue = np.where(hi == r, (g - b) / span % 6,
                   np.where(hi == g, (b - r) / span + 2, (r - g) / span + 4))
    sat = np.where(hi > 0, (hi - lo) / np.maximum(hi, 1e-9), 0.0)
    return np.stack([hue * np.pi / 3, sat, hi], axis=1)


def hsv(lin: np.ndarray) -> tuple[float, float, float]:
    """(hue degrees, saturation, value) of a linear RGB colour, as sRGB shows it."""
    hue, sat, val = hsv_rows(np.atleast_2d(lin))[0]
    return math.degrees(hue), float(sat), float(val)


def linear(hue: float, saturation: float, value: float) -> np.ndarray:
    """Linear RGB of a colour given as sRGB (hue degrees, saturation, value)."""
    return np.array(colorsys.hsv_to_rgb(hue / 360.0, saturation, value)) ** GAMMA


def to_bgr(lin: np.ndarray) -> np.ndarray:
    """8-bit sRGB levels, in OpenCV's channel order, of a linear RGB colour."""
    return srgb(lin)[::-1] * 255
