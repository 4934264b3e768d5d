"""Small synthetic photos for the photo tests, drawn on the fly with fixed seeds."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

import cv2
import numpy as np

from scorekeeper import text
from scorekeeper.photo import PhotoUnreadable

from . import synth

Tile = tuple[int, int, str, str]

PLAIN = synth.Shot(tile_px=44, blur=0.6, noise=2.0, jpeg=90, margin=0.12,
                   jitter=0.01, turn=1.0)
"""A clean, small shot: quick to draw and to read."""

BOARD: tuple[Tile, ...] = (
    (0, 0, "red", "circle"), (0, 1, "red", "square"), (0, 2, "red", "diamond"),
    (1, 1, "blue", "square"), (2, 1, "green", "square"), (2, 2, "green", "clover"),
    (2, 3, "green", "starburst"), (-1, 2, "yellow", "diamond"),
)
"""A stored board of eight tiles, every colour but orange and purple."""

MOVE: tuple[Tile, ...] = ((3, 3, "orange", "starburst"), (4, 3, "purple", "starburst"))
"""A move of two tiles down from the green starburst."""


def photo_of(tiles: Sequence[Tile], seed: int = 1, **shot: object) -> bytes:
    """Return a JPEG (or PNG) photo of these tiles, drawn by our own renderer."""
    return synth.encode(synth.render(tiles, replace(PLAIN, **shot), seed),
                        replace(PLAIN, **shot).jpeg)


def png(img: np.ndarray) -> bytes:
    """Encode an image as PNG bytes."""
    ok, buf = cv2.imencode(".png", img)
    assert ok
    return buf.tobytes()


def cat_scene(seed: int = 7, size: tuple[int, int] = (640, 480)) -> np.ndarray:
    """Draw something that is not a board: a furry cat-like face on a rug."""
    rng = np.random.default_rng(seed)
    w, h = size
    fur = rng.normal(0, 1, (h, w)).astype(np.float32)
    fur = cv2.GaussianBlur(fur, (0, 0), sigmaX=6, sigmaY=1.5)
    fur = (fur - fur.min()) / (fur.max() - fur.min())
    img = np.dstack([60 + 120 * fur, 90 + 110 * fur, 120 + 100 * fur]).astype(np.uint8)
    cv2.ellipse(img, (w // 2, h // 2), (180, 150), 0, 0, 360, (70, 110, 160), -1)
    for dx in (-1, 1):
        cx, cy = w // 2, h // 2
        pts = np.array([(cx + dx * 150, cy - 60), (cx + dx * 90, cy - 230),
                        (cx + dx * 40, cy - 120)], np.int32)
        cv2.fillPoly(img, [pts], (60, 100, 150))
        cv2.ellipse(img, (w // 2 + dx * 70, h // 2 - 20), (34, 22), 0, 0, 360,
                    (60, 200, 90), -1)
        cv2.ellipse(img, (w // 2 + dx * 70, h // 2 - 20), (8, 20), 0, 0, 360,
                    (10, 10, 10), -1)
    cv2.circle(img, (w // 2, h // 2 + 40), 14, (150, 120, 230), -1)
    for k in range(6):
        y = h // 2 + 50 + 12 * (k % 3)
        sx = 1 if k < 3 else -1
        cv2.line(img, (w // 2 + sx * 30, y), (w // 2 + sx * 190, y - 20 + 20 * (k % 3)),
                 (230, 230, 230), 1, cv2.LINE_AA)
    return img


def said(error: PhotoUnreadable) -> str:
    """The sentence the page shows for a refusal (in English, as none is set)."""
    return text.photo_unreadable(error.reason, error.params)
