"""How light each pixel is against what lies near it: the measures of
brightness every stage shares (BGR uint8 images in)."""

from __future__ import annotations

from typing import cast

import cv2
import numpy as np

SHRINK_FROM = 64
"""Pixels: from this shorter side an image's light is measured at a quarter
size (`value_ratio`); smaller ones are one tile's window (`tests/photo/synth.py`)."""

WHITE = 235
"""8-bit level: every channel this high is blown out (glare; a yellow symbol
tops two channels, never blue). Set on the renders' lamps."""


def brightest_channel(img: np.ndarray) -> np.ndarray:
    """Each pixel's brightest channel (HSV value), as uint8 (OpenCV's maximum
    is ten times as fast as numpy's)."""
    b, g, r = cv2.split(img)
    return np.asarray(cv2.max(cv2.max(b, g), r))


def darkest_channel(img: np.ndarray) -> np.ndarray:
    """Each pixel's darkest channel, as uint8 (see `brightest_channel`)."""
    b, g, r = cv2.split(img)
    return np.asarray(cv2.min(cv2.min(b, g), r))


def value_ratio(img: np.ndarray, radius: float, floor: bool = False) -> np.ndarray:
    """Each pixel's brightness over the brightest things near it (a black tile
    is dark in shade and in full light); with `floor`, over the darkest too."""
    v = brightest_channel(img)
    h, w = v.shape
    f = 4 if min(h, w) >= SHRINK_FROM else 1
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


def filled(mask: np.ndarray) -> np.ndarray:
    """A mask with the holes of its regions filled."""
    contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    out = np.zeros_like(mask)
    cv2.drawContours(out, contours, -1, 1, cv2.FILLED)
    return out
