"""Photos that cannot be read give PhotoUnreadable with a useful sentence, never
another exception (CONTRACT §12: 422 photo_unreadable)."""

from __future__ import annotations

import struct
import zlib

import cv2
import numpy as np
import pytest

from scorekeeper.photo import REASONS, PhotoUnreadable, read_move

from .helpers import BOARD, cat_scene, photo_of, png, said


def _chunk(kind: bytes, data: bytes) -> bytes:
    return (struct.pack(">I", len(data)) + kind + data
            + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF))


def big_png(megabytes: float) -> bytes:
    """A valid small PNG carrying a private chunk that makes it this large."""
    small = png(np.full((100, 100, 3), 128, np.uint8))
    filler = _chunk(b"prVt", bytes(int(megabytes * 1024 * 1024)))
    return small[:33] + filler + small[33:]


def header_png(width: int, height: int) -> bytes:
    """A PNG whose header claims this size (no pixels follow)."""
    ihdr = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + _chunk(b"IHDR", ihdr)


def jpeg(img: np.ndarray) -> bytes:
    ok, buf = cv2.imencode(".jpg", img, [cv2.IMWRITE_JPEG_QUALITY, 85])
    assert ok
    return buf.tobytes()


CASES = {
    "not an image": (b"this is not a photo", {"not_an_image"}),
    "empty upload": (b"", {"not_an_image"}),
    "a GIF": (b"GIF89a" + bytes(100), {"not_an_image"}),
    "a 1x1 PNG": (png(np.zeros((1, 1, 3), np.uint8)), {"too_small"}),
    "a 15 MB PNG": (big_png(15.2), {"too_large"}),
    "a PNG claiming 50 megapixels": (header_png(10_000, 5_000), {"too_large"}),
    "a truncated JPEG": (jpeg(cat_scene())[:20_000], {"not_an_image"}),
    "a JPEG header then noise": (b"\xff\xd8\xff\xe0" + bytes(range(256)) * 40,
                                 {"not_an_image"}),
    "a PNG header then noise": (header_png(640, 480) + bytes(5000), {"not_an_image"}),
    "a blank photo": (png(np.full((480, 640, 3), 200, np.uint8)), {"no_tiles"}),
    "a black photo": (png(np.zeros((480, 640, 3), np.uint8)), {"no_tiles"}),
    "a photo of a cat": (jpeg(cat_scene()), {"no_tiles"}),
}


@pytest.mark.parametrize("name", CASES)
def test_an_unreadable_photo_raises_photo_unreadable_with_a_sentence(name: str) -> None:
    data, reasons = CASES[name]
    with pytest.raises(PhotoUnreadable) as caught:
        read_move(data, list(BOARD))
    error = caught.value
    assert error.code == "photo_unreadable"
    assert error.reason in reasons
    assert isinstance(error, ValueError)
    # A sentence that tells the player what to do, with its parameters filled in.
    assert said(error).endswith(".") and len(said(error)) > 40
    assert "{" not in said(error) and "?" not in said(error)


def test_a_photo_of_a_cat_on_an_empty_board_reads_no_tiles() -> None:
    with pytest.raises(PhotoUnreadable) as caught:
        read_move(jpeg(cat_scene(seed=3)), [])
    assert caught.value.reason == "no_tiles"


def test_the_size_limits_are_named_in_the_sentence() -> None:
    with pytest.raises(PhotoUnreadable) as caught:
        read_move(big_png(15.2), [])
    assert "15 MB" in said(caught.value)
    assert caught.value.params["limit"] == 15


def test_a_size_refusal_cannot_be_built_without_the_limit_it_names() -> None:
    # Its sentence sends the player to a smaller photo: "at most 0 MB" would
    # say nothing, so the refusal is a bug without its limit.
    with pytest.raises(ValueError, match="limit"):
        PhotoUnreadable("too_large", megabytes=16.0)
    assert "at most 15 MB" in said(PhotoUnreadable("too_large", megabytes=16.0,
                                                   limit=15))


def test_random_bytes_never_raise_anything_but_photo_unreadable() -> None:
    rng = np.random.default_rng(5)
    for k in range(40):
        head = (b"\xff\xd8", b"\x89PNG\r\n\x1a\n", b"")[k % 3]
        size = int(rng.integers(0, 3000))
        data = head + rng.integers(0, 256, size, np.uint8).tobytes()
        with pytest.raises(PhotoUnreadable):
            read_move(data, [])


def test_a_cut_short_board_photo_is_refused_not_half_read() -> None:
    data = photo_of(BOARD, jpeg=90)
    with pytest.raises(PhotoUnreadable) as caught:
        read_move(data[: len(data) * 2 // 3], list(BOARD))
    assert caught.value.reason == "not_an_image"


def test_every_reason_has_a_sentence_and_unknown_reasons_are_a_bug() -> None:
    sentences = set()
    for reason in REASONS:
        error = PhotoUnreadable(reason, width=1, height=1, megapixels=40, matched=2,
                                stored=9, cells=[(0, 1), (2, 3)], count=8, expected=6,
                                limit=6)
        assert error.reason == reason and said(error).endswith(".")
        assert "%(" not in said(error) and " 0 " not in said(error)
        sentences.add(said(error))
    # Each reason says its own thing (none falls back on another's sentence).
    assert len(sentences) == len(REASONS)
    with pytest.raises(ValueError, match="unknown photo reason"):
        PhotoUnreadable("mystery")


def test_a_blurred_board_photo_is_refused_as_blurred_not_guessed() -> None:
    sharp = photo_of(BOARD, tile_px=60)
    img = cv2.imdecode(np.frombuffer(sharp, np.uint8), cv2.IMREAD_COLOR)
    with pytest.raises(PhotoUnreadable) as caught:
        read_move(png(cv2.GaussianBlur(img, (0, 0), 5)), list(BOARD))
    assert caught.value.reason == "blurred"
    assert "still" in said(caught.value)
