"""Teach the colours: one photo of one tile of each colour (docs/PHOTO.md,
"Teach the colours"), named by the colour model (`colour_model`), become
the installation's colour lessons (`lessons.Lesson`).

`read_colors(image)` reads and names them in the helper process (OpenCV).
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from itertools import permutations
from typing import NamedTuple

import numpy as np

from . import colour_model
from .classify import SAME_PAINT
from .errors import PhotoUnreadable
from .hues import hsv, hsv_rows
from .lessons import PALE, Lesson

COLORS = colour_model.COLOURS
"""The colours taught: the colour model's, in its order."""

SYMBOL_TO_TILE = 1.45
"""A tile's edge over its largest symbols' extent (stars span 70 % of it)."""

SAME_TILE = 0.6
"""Tile edges within which two symbols found are one tile's."""

LARGEST = 75
"""Percentile of the extents that are the largest symbols' (the stars)."""

BODY_SIDE = (0.75, 1.3)
"""A lone tile body's side, share of the tile size its symbols give (a slant
up to 8°, `tests/photo/teaching.py`, and the shapes' sizes)."""

ROW_STEP = (0.75, 1.35)
"""A grid step of tiles in a row, share of the tile size its symbols give
(tiles two apart give twice)."""

WEIGHT = 3
"""Confirmed tiles a taught colour counts as: the table's moves soon move it."""


class Seen(NamedTuple):
    """One symbol of the teaching photo."""

    hue: float
    """Degrees, as the move reader measures a symbol's colour (`hues.hsv`)."""
    saturation: float
    value: float
    x: float
    """Where its centre is, as a share of the photo's width (0 left)."""
    y: float


class Teaching(NamedTuple):
    """A teaching: each colour's hue and the symbols seen, left to right."""

    hues: dict[str, float]
    seen: list[Seen]
    paints: dict[str, tuple[float, float]]
    """Each colour's (saturation, value)."""


def name_symbols(rgb: np.ndarray, body: np.ndarray) -> dict[str, int]:
    """Each colour's symbol (index into `rgb`, linear RGB rows, in light
    whose tile bodies show `body`): the six colours given to the six symbols
    as the colour model finds likeliest together; one symbol of no colour
    (under `PALE`) takes the colour the others leave out. Raise
    PhotoUnreadable `teach_count`, `teach_pale` or `teach_alike` (two
    symbols one paint: within `SAME_PAINT`)."""
    if len(rgb) == 0:
        raise PhotoUnreadable("no_tiles")
    if len(rgb) != len(COLORS):
        raise PhotoUnreadable("teach_count", count=len(rgb), expected=len(COLORS))
    x = colour_model.features(rgb, body)
    pale = np.flatnonzero(hsv_rows(rgb)[:, 1] < PALE)
    if len(pale) > 1:
        raise PhotoUnreadable("teach_pale")
    paint = np.setdiff1d(np.arange(len(rgb)), pale)
    plane = x[paint][:, colour_model.PLANE]
    apart = np.linalg.norm(plane[:, None] - plane[None], axis=2)
    np.fill_diagonal(apart, np.inf)
    if apart.min() <= SAME_PAINT:
        raise PhotoUnreadable("teach_alike")
    odds = np.log(np.maximum(colour_model.probabilities(x[paint])[:, :len(COLORS)],
                             np.finfo(np.float32).tiny))
    ways = np.array(list(permutations(range(len(COLORS)), len(paint))))
    best = ways[np.argmax(odds[np.arange(len(paint)), ways].sum(axis=1))]
    named = {COLORS[c]: int(i) for i, c in zip(paint, best, strict=True)}
    left_out = [color for color in COLORS if color not in named]
    named.update(zip(left_out, map(int, pale), strict=True))
    return {color: named[color] for color in COLORS}


def lessons(hues: Mapping[str, float], weight: int = WEIGHT,
            paints: Mapping[str, tuple[float, float]] | None = None,
            ) -> list[Lesson]:
    """The taught colours as lessons, `weight` tiles each."""
    return [Lesson.of(color, hues[color], (paints or {}).get(color), weight)
            for color in COLORS]


def read_colors(image: bytes) -> Teaching:
    """The colours of a photo of one tile of each colour; PhotoUnreadable
    when it does not show six tiles of six colours."""
    # Imported here: the server loads this module without OpenCV.
    from .decode import decode, never_failing

    with never_failing():
        seen, rgb, body, unread = _symbols(decode(image))
        if 0 < len(seen) < len(COLORS) <= len(seen) + unread:
            raise PhotoUnreadable("teach_unread", count=len(COLORS) - len(seen))
        named = name_symbols(rgb, body)
    return Teaching({color: seen[i].hue for color, i in named.items()}, seen,
                    {color: (seen[i].saturation, seen[i].value)
                     for color, i in named.items()})


def _symbols(img: object) -> tuple[list[Seen], np.ndarray, np.ndarray, int]:
    """Each tile's symbol, left to right, its colour (linear RGB), the tile
    bodies' colour, and how many tile bodies show none: each symbol (dark
    paint too, `blobs.more_dark_paint`) read on a tile of its own, the tiles
    in a row on their grid, then each body without a symbol found on a tile
    of its own."""
    from .blobs import find_blobs, more_dark_paint
    from .cells import TILE_BODY, read_cells
    from .grid import (
        BODY_TO_TILE,
        Grid,
        detection_image,
        find_grid,
        one_tile,
        tile_bodies,
    )

    assert isinstance(img, np.ndarray)
    h, w = img.shape[:2]
    found: list[tuple[tuple[float, float], np.ndarray, float]] = []
    blacks: list[np.ndarray] = []

    def known(x: float, y: float) -> bool:
        return any(math.dist((x, y), at) < SAME_TILE * pitch for at, _, pitch in found)

    bodies: list[tuple[float, float, float]] = []

    def read(grid: Grid, margin: int) -> None:
        for cell in read_cells(img, grid, margin=margin).values():
            if not cell.is_tile or cell.centre is None or cell.color is None:
                if cell.body >= TILE_BODY:
                    at = grid.homography @ np.array([cell.col, cell.row, 1.0])
                    bodies.append((float(at[0] / at[2]), float(at[1] / at[2]),
                                   grid.pitch))
                continue
            if not known(*cell.centre):
                found.append((cell.centre, cell.color, grid.pitch))
                if cell.black is not None:
                    blacks.append(cell.black)

    def lone(x: float, y: float, pitch: float, angle: float) -> None:
        read(Grid(one_tile((x, y), pitch, angle), pitch, {(0, 0): (x, y)}), 0)

    small, scale = detection_image(img)
    blobs = more_dark_paint(small, find_blobs(small))
    if len(blobs.centres):
        pitch = float(np.percentile(blobs.extents, LARGEST)) * SYMBOL_TO_TILE / scale
        for bx, by in blobs.centres:
            for angle in (0.0, math.pi / 4):
                if not known(bx / scale, by / scale):
                    lone(bx / scale, by / scale, pitch, angle)
        try:
            grid = find_grid(img)
        except PhotoUnreadable:
            grid = None
        if grid is not None and ROW_STEP[0] < grid.pitch / pitch < ROW_STEP[1]:
            read(grid, 1)
    if found:
        typical = float(np.median([pitch for _, _, pitch in found])) * scale
        for cx, cy, side, a in tile_bodies(blobs.dark):
            if BODY_SIDE[0] * typical < side < BODY_SIDE[1] * typical \
                    and not known(cx / scale, cy / scale):
                lone(cx / scale, cy / scale, side * BODY_TO_TILE / scale,
                     math.radians(a))
    unread: list[tuple[float, float, float]] = []
    for x, y, size in bodies:
        if not known(x, y) and not any(
                math.dist((x, y), (ux, uy)) < SAME_TILE * size for ux, uy, _ in unread):
            unread.append((x, y, size))
    found.sort(key=lambda f: f[0])
    out = []
    for (x, y), color, _ in found:
        hue, sat, val = hsv(color)
        out.append(Seen(round(hue, 2), round(sat, 3), round(val, 3),
                        round(float(x) / w, 3), round(float(y) / h, 3)))
    rgb = np.array([color for _, color, _ in found]).reshape(-1, 3)
    light = np.median(np.array(blacks), axis=0) if blacks else np.ones(3)
    return out, rgb, light, len(unread)
