"""A photo's format and size from its first bytes, before any pixel is decoded
(no numpy, no OpenCV: the server checks an upload with it)."""

from __future__ import annotations

import math
import struct

from .errors import PhotoUnreadable

PNG_SIZE_END = 24
"""Bytes a PNG needs to give its size: signature, IHDR's length and type, size."""

MARKER = 0xFF
"""The byte that starts every JPEG marker (and fills between them)."""

START_OF_SCAN = 0xDA
"""The JPEG marker after which entropy-coded data follows."""

MEGABYTE = 1024 * 1024
"""Bytes in the MB the limit is named in."""

MAX_MEGABYTES = 15
"""The largest upload read, in MB (CONTRACT §12)."""

MAX_BYTES = MAX_MEGABYTES * MEGABYTE
"""The largest upload read, in bytes."""

MAX_PIXELS = 40_000_000
"""The largest photo decoded, in pixels (a 40 MP phone photo)."""

MAX_WHOLE_PIXELS = 16_000_000
"""The largest PNG or progressive JPEG decoded, in pixels: they decode whole
(40 MP of PNG: 120 MB), where libjpeg scales a baseline JPEG down."""

MIN_SIDE = 64
"""The shortest side a photo of a board can have and still show tiles."""


def image_size(data: bytes) -> tuple[str, int, int]:
    """Return (format, width, height) from a JPEG's or PNG's header; the format
    is "png", "jpeg" or "progressive" (a progressive JPEG)."""
    if data[:8] == b"\x89PNG\r\n\x1a\n":
        if len(data) < PNG_SIZE_END or data[12:16] != b"IHDR":
            raise PhotoUnreadable("not_an_image")
        width, height = struct.unpack(">II", data[16:24])
        return "png", width, height
    if data[:2] == b"\xff\xd8":
        width, height, progressive = _jpeg_size(data)
        return ("progressive" if progressive else "jpeg"), width, height
    raise PhotoUnreadable("not_an_image")


def _jpeg_size(data: bytes) -> tuple[int, int, bool]:
    """A JPEG's width, height and whether it is progressive, from its frame
    header; refuse one cut short."""
    pos = 2
    size: tuple[int, int, bool] | None = None
    while pos + 4 <= len(data):
        if data[pos] != MARKER:
            raise PhotoUnreadable("not_an_image")
        marker = data[pos + 1]
        if marker == MARKER:  # fill byte
            pos += 1
            continue
        if marker in (0x01, *range(0xD0, 0xD8)):  # markers without a length
            pos += 2
            continue
        (length,) = struct.unpack(">H", data[pos + 2:pos + 4])
        if marker in (0xC0, 0xC1, 0xC2, 0xC3, 0xC5, 0xC6, 0xC7, 0xC9, 0xCA, 0xCB,
                      0xCD, 0xCE, 0xCF) and pos + 9 <= len(data):
            height, width = struct.unpack(">HH", data[pos + 5:pos + 9])
            # SOF2, 6, 10 and 14: progressive frames.
            size = (width, height, marker in (0xC2, 0xC6, 0xCA, 0xCE))
        if marker == START_OF_SCAN:
            # In the scan data a 0xFF is always stuffed (FF 00): an end-of-image
            # marker there is the real one, and without it the file is cut short.
            if size is None or data.find(b"\xff\xd9", pos + 2 + length) < 0:
                raise PhotoUnreadable("not_an_image")
            return size
        pos += 2 + length
    raise PhotoUnreadable("not_an_image")


def too_large(size: int) -> PhotoUnreadable:
    """The refusal of a photo of `size` bytes, over MAX_BYTES."""
    # Rounded up to a tenth of the MB the limit is named in: 15 MB and a byte
    # is "15.1 MB", never "15.0 MB" over a limit of 15 MB.
    megabytes = math.ceil(size * 10 / MEGABYTE) / 10
    return PhotoUnreadable("too_large", megabytes=megabytes, limit=MAX_MEGABYTES)


def checked_size(data: bytes) -> tuple[str, int, int]:
    """(format, width, height) of a photo that may be decoded; PhotoUnreadable
    for one too large (bytes or pixels), too small or not a JPEG or PNG."""
    if len(data) > MAX_BYTES:
        raise too_large(len(data))
    kind, width, height = image_size(data)
    most = MAX_PIXELS if kind == "jpeg" else MAX_WHOLE_PIXELS
    if width * height > most:
        raise PhotoUnreadable("too_large", width=width, height=height,
                              megapixels=most // 1_000_000)
    if min(width, height) < MIN_SIDE:
        raise PhotoUnreadable("too_small", width=width, height=height)
    return kind, width, height
