"""The training scripts learn from the stored tiles a photo shows, labelled
as a table's confirmed move labels them (`benchmarks/labelled.py`): each
crop is a stored tile read where the photo lines up on the stored board,
with that tile's shape (`benchmarks/train_shapes.py`) and colour
(`benchmarks/colour_crops.py`); a first move, nothing stored, teaches
nothing."""

from __future__ import annotations

import importlib
from collections import Counter
from pathlib import Path
from types import ModuleType

import numpy as np
import pytest

from scorekeeper.photo.shape_model import SHAPES
from scorekeeper.photo.symbols import CELL

from .helpers import BOARD, MOVE, photo_of

BENCHMARKS = Path(__file__).resolve().parents[2] / "benchmarks"


def _script(name: str, monkeypatch: pytest.MonkeyPatch) -> ModuleType:
    monkeypatch.syspath_prepend(str(BENCHMARKS))
    return importlib.import_module(name)


@pytest.mark.parametrize("seed", range(3))
def test_the_training_crops_are_the_stored_tiles_a_photo_shows(
        seed: int, monkeypatch: pytest.MonkeyPatch) -> None:
    shapes, colours = (_script(name, monkeypatch)
                       for name in ("train_shapes", "colour_crops"))
    photo = photo_of(BOARD + MOVE, seed=seed)
    masks, labels = shapes.crops(iter([(photo, BOARD)]))
    crops = colours.crops(iter([(photo, BOARD)]))
    # Every stored tile but one the glare may hide, none of the move's.
    assert len(BOARD) - 1 <= len(labels) <= len(BOARD)
    assert len(crops["label"]) == len(labels)
    stored = Counter((colour, shape) for *_, colour, shape in BOARD)
    cut = Counter(zip(crops["label"], (SHAPES[k] for k in labels), strict=True))
    assert not cut - stored
    assert masks.shape == (len(labels), CELL, CELL)
    assert masks.reshape(len(labels), -1).any(axis=1).all()
    # The light each colour is read in: one photo, one light.
    assert np.ptp(crops["body"], axis=0).max() == 0


def test_a_first_move_teaches_nothing(monkeypatch: pytest.MonkeyPatch) -> None:
    shapes = _script("train_shapes", monkeypatch)
    masks, labels = shapes.crops(iter([(photo_of(MOVE), ())]))
    assert len(labels) == len(masks) == 0
