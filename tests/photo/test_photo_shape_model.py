"""The shipped shape model (`photo.shape_model`) names the symbols the
reader cuts from photos of every renderer, at several tile sizes, says a
fragment is no symbol, and is never sure of another shape for a symbol
broken in two."""

from __future__ import annotations

import random
from dataclasses import replace

import numpy as np
import pytest

from scorekeeper.photo.cells import read_cells
from scorekeeper.photo.decode import decode
from scorekeeper.photo.grid import find_grid
from scorekeeper.photo.shape_model import SHAPES, SURE, WEIGHTS, probabilities
from scorekeeper.photo.symbols import normalise

from . import drawn, synth, synth_alt, synth_real
from .helpers import PLAIN

COLOURS = ("red", "orange", "yellow", "green", "blue", "purple")
CLASSIC = SHAPES[:6]


def _masks(image: bytes) -> list[np.ndarray]:
    """The normalised masks of the tiles the reader's stages find."""
    img = decode(image)
    cells = read_cells(img, find_grid(img))
    return [c.mask for c in cells.values() if c.is_tile and c.mask is not None]


def _line(shape: str) -> tuple[synth.Tile, ...]:
    """A line of the six colours of one shape: every symbol read is that shape."""
    return tuple((0, i, colour, shape) for i, colour in enumerate(COLOURS))


def test_the_shipped_weights_are_small() -> None:
    assert WEIGHTS.stat().st_size < 24_000


@pytest.mark.parametrize("shape", CLASSIC)
def test_the_model_names_each_shape_in_every_kind_of_photo(shape: str) -> None:
    tiles = _line(shape)
    rng = random.Random(shape)
    real = synth_real.Real(synth_real.paint(rng))
    photos = {
        "bright paint, small tiles": synth.encode(
            synth.render(tiles, replace(PLAIN, tile_px=40, angle=20), 1), 90),
        "other renderer": synth.encode(
            synth_alt.render(tiles, replace(PLAIN, tile_px=56, angle=-35), 2), 90),
        "real tiles, warm light": synth.encode(synth_real.render(
            tiles, replace(PLAIN, tile_px=64, warmth=0.8, angle=50), 3, real), 90),
    }
    for kind, image in photos.items():
        masks = _masks(image)
        assert len(masks) == len(tiles), kind
        named = [CLASSIC[k] for k in probabilities(np.array(masks)).argmax(axis=1)]
        assert named == [shape] * len(tiles), kind


@pytest.mark.parametrize("shape", SHAPES)
def test_the_model_names_our_own_drawing_of_every_shape(shape: str) -> None:
    masks = [normalise(drawn.draw(shape, v, 0.05 * v, 1.0)) for v in range(3)]
    p = probabilities(np.array(masks), SHAPES)
    assert [SHAPES[k] for k in p.argmax(axis=1)] == [shape] * 3


def test_half_a_symbol_is_no_symbol() -> None:
    ys, xs = np.mgrid[0:64, 0:64]
    halves = [normalise(drawn.draw(shape, 1) * (xs > ys))
              for shape in ("circle", "square", "clover")]
    p = probabilities(np.array(halves))
    assert (p.argmax(axis=1) == len(CLASSIC)).all()


@pytest.mark.parametrize("shape", CLASSIC)
def test_a_symbol_broken_by_a_band_is_never_sure_of_another_shape(shape: str) -> None:
    # Paint nearly as dark as its body reads in part as body: the symbol's
    # mask in two parts. Its shape may be read, or unsure; never another.
    ys, xs = np.mgrid[0:64, 0:64] - 32
    broken = []
    for v in range(drawn.variants(shape)):
        mask = drawn.draw(shape, v, 0.0, 1.5) > 0
        for degrees in range(0, 180, 15):
            a = np.radians(degrees)
            across = np.abs(xs * np.cos(a) + ys * np.sin(a))
            for width in (4, 6, 8):
                broken.append(normalise(mask & (across > width / 2)))
    p = probabilities(np.array([m for m in broken if m is not None]))
    best = p.argmax(axis=1)
    ranked = np.sort(p, axis=1)
    sure = (best != len(CLASSIC)) & (ranked[:, -1] - ranked[:, -2] >= SURE)
    assert [CLASSIC[k] for k in best[sure]] == [shape] * int(sure.sum())
