"""Training shared by the photo reader's learnt models (`train_shapes.py`,
`train_colours.py`, `train_bodies.py`): one hidden layer of tanh units and
a softmax, trained by mini-batch Adam from a fixed seed, then (the shape
and colour models) calibrated by one temperature on photos it never saw,
and stored in float16 as the package ships it.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from pathlib import Path

import numpy as np

from scorekeeper.photo.shape_model import softmax

Weights = dict[str, np.ndarray]


def train(x: np.ndarray, y: np.ndarray, outputs: int, hidden: int, epochs: int,
          seed: int, balanced: bool = False) -> Weights:
    """Weights w1, b1, w2, b2 fitted to inputs `x` (already centred, float32)
    and labels `y`; `balanced` weighs each class alike, however many rows it
    has."""
    rng = np.random.default_rng(seed)
    n, d = x.shape
    w = {"w1": rng.normal(0, 1 / np.sqrt(d), (d, hidden)), "b1": np.zeros(hidden),
         "w2": rng.normal(0, 1 / np.sqrt(hidden), (hidden, outputs)),
         "b2": np.zeros(outputs)}
    m = {k: np.zeros_like(v) for k, v in w.items()}
    v2 = {k: np.zeros_like(v) for k, v in w.items()}
    onehot = np.eye(outputs)[y]
    weigh = (len(y) / outputs / np.bincount(y, minlength=outputs))[y] if balanced \
        else None
    step = 0
    for epoch in range(epochs):
        rate = 3e-3 * (0.1 if epoch >= epochs * 3 // 4 else 1.0)
        for batch in np.array_split(rng.permutation(n), max(1, n // 256)):
            step += 1
            xb, tb = x[batch], onehot[batch]
            h = np.tanh(xb @ w["w1"] + w["b1"])
            p = softmax(h @ w["w2"] + w["b2"])
            g = (p - tb) * weigh[batch, None] if weigh is not None else p - tb
            g = g / len(batch)
            dh = (g @ w["w2"].T) * (1 - h * h)
            grads = {"w2": h.T @ g + 1e-4 * w["w2"], "b2": g.sum(0),
                     "w1": xb.T @ dh + 1e-4 * w["w1"], "b1": dh.sum(0)}
            for k in w:
                m[k] = 0.9 * m[k] + 0.1 * grads[k]
                v2[k] = 0.999 * v2[k] + 0.001 * grads[k] ** 2
                mh, vh = m[k] / (1 - 0.9 ** step), v2[k] / (1 - 0.999 ** step)
                w[k] -= rate * mh / (np.sqrt(vh) + 1e-8)
    return w


def save(w: Weights, path: Path) -> None:
    """Store the weights as the package ships them: float16, compressed."""
    np.savez_compressed(path, **{k: v.astype(np.float16) for k, v in w.items()})


def shipped(w: Weights) -> Weights:
    """The weights as the package reads them (float16 kept, float32 used)."""
    return {k: v.astype(np.float16).astype(np.float32) for k, v in w.items()}


def calibrate(w: Weights, probabilities: Callable[[Weights], np.ndarray],
              y: np.ndarray) -> float:
    """The temperature that makes the model's probabilities honest on
    photos it never saw (least negative log-likelihood of `y` under
    `probabilities` of the shipped weights), folded into its output layer;
    returned."""
    small = shipped(w)
    best, temperature = math.inf, 1.0
    for t in np.exp(np.linspace(math.log(0.1), math.log(8), 60)):
        p = probabilities({**small, "w2": small["w2"] / t, "b2": small["b2"] / t})
        nll = -np.mean(np.log(p[np.arange(len(y)), y] + 1e-9))
        if nll < best:
            best, temperature = nll, float(t)
    w["w2"], w["b2"] = w["w2"] / temperature, w["b2"] / temperature
    return temperature
