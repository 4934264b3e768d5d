"""The learnt shape model: one hidden layer over a symbol's normalised mask
(`symbols.normalise`) averaged down to `SIDE` × `SIDE`, with one output per
shape of `SHAPES` and one, `NONE`, for a mask that is no symbol (a fragment,
specks, a bar). A mask is read in its four quarter turns and their mirror
images, the probabilities averaged: a shape is the same whichever way its
tile lies. Its weights (`shapes.npz`, float16) are trained by
`benchmarks/train_shapes.py` and loaded on first use.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from pathlib import Path
from typing import cast

import numpy as np

from .symbols import CELL

WEIGHTS = Path(__file__).with_name("shapes.npz")
"""The shipped weights (`benchmarks/train_shapes.py` writes them)."""

SHAPES = ("circle", "square", "diamond", "clover", "crisscross", "starburst",
          "heart", "triangle")
"""The shapes the model names, in the order of its outputs: every set's
(`engine.SHAPE_NAMES`)."""

NONE = len(SHAPES)
"""The output that says a mask is no symbol."""

SURE = 0.7
"""Probability margin (of a shape over the next shape or no symbol) from
which a shape is sure (`tiles.sureness`, `sure`): on the calibration
renders' 1,887 stored tiles, laid touching (`benchmarks/train_shapes.py`),
3 are wrong from it, 3 from 0.25 too (7 before the model learnt tiles laid
apart)."""

SIDE = 16
"""Pixels per edge of the averaged-down mask the model reads: a quarter of
`symbols.CELL` each way."""


def features(masks: np.ndarray) -> np.ndarray:
    """Masks (n, CELL, CELL) averaged down to SIDE × SIDE, one row each."""
    k = CELL // SIDE
    m = masks.astype(np.float32).reshape(len(masks), SIDE, k, SIDE, k)
    return cast(np.ndarray, m.mean(axis=(2, 4)).reshape(len(masks), SIDE * SIDE))


def views(masks: np.ndarray) -> np.ndarray:
    """Each mask in its four quarter turns and their mirror images: (8, n, …)."""
    turned = [np.rot90(masks, k, axes=(1, 2)) for k in range(4)]
    return np.stack(turned + [np.flip(m, axis=2) for m in turned])


def softmax(z: np.ndarray) -> np.ndarray:
    """Rows of scores made probabilities."""
    e = np.exp(z - z.max(axis=-1, keepdims=True))
    return cast(np.ndarray, e / e.sum(axis=-1, keepdims=True))


def lead(p: np.ndarray, k: int) -> float:
    """How far the probability of label `k` leads the likeliest other (0 at
    most behind): what makes a model's answer sure (`tiles.sureness`)."""
    return max(0.0, float(p[k] - np.delete(p, k).max()))


@cache
def weights(path: Path = WEIGHTS) -> dict[str, np.ndarray]:
    """The model's weights, in float32."""
    with np.load(path) as stored:
        return {k: stored[k].astype(np.float32) for k in stored.files}


def probabilities(masks: np.ndarray, shapes: Sequence[str] = SHAPES[:6],
                  w: dict[str, np.ndarray] | None = None) -> np.ndarray:
    """How likely each normalised mask (n, CELL, CELL) is each of `shapes`
    (those the set has), and last, no symbol: (n, len(shapes) + 1)."""
    w = w if w is not None else weights()
    x = features(views(masks).reshape(-1, CELL, CELL)) - w["mean"]
    layer = np.tanh(x @ w["w1"] + w["b1"]).reshape(8, len(masks), -1)
    outputs = [SHAPES.index(s) for s in shapes] + [NONE]
    z = layer @ w["w2"][:, outputs] + w["b2"][outputs]
    return cast(np.ndarray, softmax(z).mean(axis=0))


def sure(mask: np.ndarray) -> bool:
    """Whether a normalised mask is one of `SHAPES`, its probability ahead of
    every other shape's and no symbol's by `SURE`."""
    p = probabilities(mask[None], SHAPES)[0]
    best = int(np.argmax(p))
    return best != NONE and lead(p, best) >= SURE
