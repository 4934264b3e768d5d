"""A small learnt shape classifier: one hidden layer over a symbol's
normalised mask (`symbols.normalise`) averaged down to `SIDE` × `SIDE`.

Its weights (`shapes.npz`, a few KB, float16) are trained by
`benchmarks/train_shapes.py` on the masks the reader itself cuts from
rendered photos, labelled as a confirmed move labels the stored tiles; that
script also measures it against `classify.Classifier.shape`. They are loaded
on first use, in the process that reads photos only. Its one constant,
`SIDE`, is the size the weights were trained at.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import cast

import numpy as np

from .symbols import CELL

WEIGHTS = Path(__file__).with_name("shapes.npz")
"""The shipped weights (`benchmarks/train_shapes.py` writes them)."""

SHAPES = ("circle", "square", "diamond", "clover", "crisscross", "starburst")
"""The shapes the model names, in the order of its outputs: the classic
set's (`engine.CLASSIC`)."""

SIDE = 16
"""Pixels per edge of the averaged-down mask the model reads: a quarter of
`symbols.CELL` each way."""


def features(masks: np.ndarray) -> np.ndarray:
    """Masks (n, CELL, CELL) averaged down to SIDE × SIDE, one row each."""
    k = CELL // SIDE
    m = masks.astype(np.float32).reshape(len(masks), SIDE, k, SIDE, k)
    return cast(np.ndarray, m.mean(axis=(2, 4)).reshape(len(masks), SIDE * SIDE))


def softmax(z: np.ndarray) -> np.ndarray:
    """Rows of scores made probabilities."""
    e = np.exp(z - z.max(axis=1, keepdims=True))
    return cast(np.ndarray, e / e.sum(axis=1, keepdims=True))


@cache
def weights(path: Path = WEIGHTS) -> dict[str, np.ndarray]:
    """The model's weights, in float32."""
    with np.load(path) as stored:
        return {k: stored[k].astype(np.float32) for k in stored.files}


def probabilities(masks: np.ndarray, w: dict[str, np.ndarray] | None = None
                  ) -> np.ndarray:
    """How likely each normalised mask (n, CELL, CELL) is each of `SHAPES`."""
    w = w if w is not None else weights()
    hidden = np.tanh((features(masks) - w["mean"]) @ w["w1"] + w["b1"])
    return softmax(hidden @ w["w2"] + w["b2"])
