"""The learnt body model: whether a cell of the rectified grid shows a tile
body where no symbol was read on it, from the cell's window averaged down
to `SIDE` × `SIDE`: each pixel's brightness against the lightest and
darkest near it (`levels.value_ratio`), whether that is under the photo's
level of a tile body's rim (as `cells` measures rims), and whether it shows
no colour (`hues.colourless`: a lamp lights a body grey).
One hidden layer and a softmax of two outputs, tile body or not; its
weights (`bodies.npz`, float16) are trained by `benchmarks/train_bodies.py`
and loaded on first use.
"""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np

from .shape_model import softmax, weights

WEIGHTS = Path(__file__).with_name("bodies.npz")
"""The shipped weights (`benchmarks/train_bodies.py` writes them)."""

SIDE = 8
"""Pixels per edge of the averaged-down window the model reads: an eighth
of `symbols.CELL` each way."""


def features(ratio: np.ndarray, dark: np.ndarray, grey: np.ndarray) -> np.ndarray:
    """One row of the model's inputs from a cell's window (each
    `symbols.CELL` square): its brightness ratios, its pixels dark as a
    rim, its colourless pixels."""
    return np.concatenate([
        cv2.resize(layer.astype(np.float32), (SIDE, SIDE), interpolation=cv2.INTER_AREA)
        for layer in (ratio, dark, grey)]).ravel()


def probability(x: np.ndarray, w: dict[str, np.ndarray] | None = None
                ) -> np.ndarray:
    """How likely each row of `features` is a tile body's window."""
    w = w if w is not None else weights(WEIGHTS)
    z = np.tanh((x - w["mean"]) @ w["w1"] + w["b1"]) @ w["w2"] + w["b2"]
    return np.asarray(softmax(z)[..., 1])
