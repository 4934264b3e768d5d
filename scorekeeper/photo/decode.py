"""Decode an uploaded photo, its size checked before any pixel is (`header`)."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

import cv2
import numpy as np

from .errors import PhotoUnreadable
from .header import checked_size, image_size

CHANNELS = 3
"""Colour channels of a decoded photo (BGR)."""

WORK_SIDE = 2400
"""Long side of the working image: larger photos are reduced to about this."""

LEEWAY = 1.25
"""Factor the working image's long side may lie either side of `WORK_SIDE`
without a resize: a resize at a fractional scale took a third of a 12 MP
photo's decoding, where libjpeg's halving is nearly free (`bench_photo.py
--real`). Below `WORK_SIDE` the smallest tiles read in a 12 MP photo grow
from 26 to 30 pixels: `reader` decodes such a photo again without it."""


def decode(data: bytes, leeway: bool = True) -> np.ndarray:
    """Return the photo as a BGR image of about WORK_SIDE pixels a side at
    most (within `LEEWAY` either side, or only above it without `leeway`)."""
    if not isinstance(data, bytes | bytearray | memoryview):
        raise PhotoUnreadable("not_an_image")
    data = bytes(data)
    kind, width, height = checked_size(data)
    flag = cv2.IMREAD_COLOR
    if kind in ("jpeg", "progressive"):
        # libjpeg decodes at 1/2, 1/4 or 1/8 size directly: less time and memory.
        for factor, reduced in ((8, cv2.IMREAD_REDUCED_COLOR_8),
                                (4, cv2.IMREAD_REDUCED_COLOR_4),
                                (2, cv2.IMREAD_REDUCED_COLOR_2)):
            if max(width, height) / factor >= WORK_SIDE / (LEEWAY if leeway else 1.0):
                flag = reduced
                break
    try:
        img = cv2.imdecode(np.frombuffer(data, np.uint8), flag)
    except cv2.error:
        img = None
    if img is None or img.shape[2:] != (CHANNELS,):
        raise PhotoUnreadable("not_an_image")
    long_side = max(img.shape[:2])
    if long_side > WORK_SIDE * LEEWAY:
        scale = WORK_SIDE / long_side
        img = cv2.resize(img, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)
    return img


def shrunk(img: np.ndarray, data: bytes) -> bool:
    """True when libjpeg reduced the photo `data` below `WORK_SIDE` as `img`
    (`LEEWAY`): decoded again without leeway, it has more pixels."""
    _, width, height = image_size(bytes(data))
    return bool(max(img.shape[:2]) < min(WORK_SIDE, max(width, height)))


@contextmanager
def never_failing() -> Iterator[None]:
    """Report an unforeseen numeric corner of a photo as `not_read`, its cause
    chained for the log: a photo must never fail the request."""
    try:
        yield
    except PhotoUnreadable:
        raise
    except (cv2.error, ArithmeticError, IndexError, ValueError,
            np.linalg.LinAlgError) as exc:
        raise PhotoUnreadable("not_read") from exc
