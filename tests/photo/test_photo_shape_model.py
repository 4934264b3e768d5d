"""The shipped shape model (`photo.shape_model`) names the symbols the
reader cuts from photos of every renderer, at several tile sizes."""

from __future__ import annotations

import random
from dataclasses import replace

import numpy as np
import pytest

from scorekeeper.photo.cells import read_cells
from scorekeeper.photo.decode import decode
from scorekeeper.photo.grid import find_grid
from scorekeeper.photo.shape_model import SHAPES, WEIGHTS, probabilities

from . import synth, synth_alt, synth_real
from .helpers import PLAIN

COLOURS = ("red", "orange", "yellow", "green", "blue", "purple")


def _masks(image: bytes) -> list[np.ndarray]:
    """The normalised masks of the tiles the reader's stages find."""
    img = decode(image)
    cells = read_cells(img, find_grid(img))
    return [c.mask for c in cells.values() if c.is_tile and c.mask is not None]


def _line(shape: str) -> tuple[synth.Tile, ...]:
    """A line of the six colours of one shape: every symbol read is that shape."""
    return tuple((0, i, colour, shape) for i, colour in enumerate(COLOURS))


def test_the_shipped_weights_are_small() -> None:
    assert WEIGHTS.stat().st_size < 16_000


@pytest.mark.parametrize("shape", SHAPES)
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
        named = [SHAPES[k] for k in probabilities(np.array(masks)).argmax(axis=1)]
        assert named == [shape] * len(tiles), kind
