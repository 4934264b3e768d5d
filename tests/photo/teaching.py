"""Teaching photos of real paint: one tile of each colour, apart or
in a row, rendered by `synth_real` in a given light."""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import replace

from scorekeeper.photo.color_lessons import COLORS

from . import synth, synth_real

Tile = tuple[int, int, str, str]

SHAPES = ("circle", "square", "diamond", "clover", "starburst", "crisscross")

FAR_SHIFTED = synth_real.Paint((
    ("red", 352.0, 0.85, 0.55), ("orange", 8.0, 0.85, 0.5),
    ("yellow", 44.0, 0.8, 0.7), ("green", 125.0, 0.8, 0.55),
    ("blue", 222.0, 0.8, 0.45), ("purple", 237.0, 0.85, 0.45),
))
"""Real paint at the edges of real tiles' ranges (red 350–8°, orange 8–25°,
blue 195–225°, purple 235–275°): an orange 16° from red, a purple 15° from
blue."""

REDDEST_ORANGE = synth_real.Paint(tuple(
    ("orange", 3.0, 0.85, 0.5) if color == "orange" else (color, h, s, v)
    for color, h, s, v in FAR_SHIFTED.hsv))
"""`FAR_SHIFTED` with its orange where red lies, 11° from its red. An
orange alone on an empty board reads red without teaching."""

APART = ((0, 0), (0, 2), (0, 4), (2, 0), (2, 2), (2, 4))
IN_A_ROW = tuple((0, c) for c in range(6))


def six(cells: Sequence[tuple[float, float]], seed: int,
        colors: Sequence[str] = COLORS) -> tuple[Tile, ...]:
    """One tile of each colour (shuffled, random shapes) on these cells."""
    rng = random.Random(seed)
    order = list(colors)
    rng.shuffle(order)
    # Places off the grid are fractions of a cell: the renderer takes them.
    return tuple((r, c, color, rng.choice(SHAPES))  # type: ignore[misc]
                 for (r, c), color in zip(cells, order, strict=True))


def shot(seed: int, warmth: float) -> synth.Shot:
    """A steady camera over the table in a light of this warmth."""
    rng = random.Random(seed)
    return replace(synth.random_shot(rng, tile_px=(55, 80), slant=(0, 8)),
                   glare=0.0, warmth=warmth, warmth_shift=0.0, jpeg=90,
                   gradient=0.0, vignette=0.0, blur=0.8)


def photo(tiles: Sequence[Tile], seed: int, warmth: float,
          paint: synth_real.Paint) -> bytes:
    img = synth_real.render(tiles, shot(seed, warmth), seed, synth_real.Real(paint))
    return synth.encode(img, 90)


def gap(a: float, b: float) -> float:
    d = abs(a - b) % 360
    return min(d, 360 - d)


def scattered(seed: int) -> tuple[tuple[float, float], ...]:
    """Six places off any grid, each at least 1.6 tiles from the others (as
    a hand lays tiles on a table)."""
    rng = random.Random(seed)
    while True:
        cells = [(rng.uniform(0, 3.5), rng.uniform(0, 5)) for _ in COLORS]
        if all((a[0] - b[0]) ** 2 + (a[1] - b[1]) ** 2 >= 1.6 ** 2
               for i, a in enumerate(cells) for b in cells[i + 1:]):
            return tuple(cells)
