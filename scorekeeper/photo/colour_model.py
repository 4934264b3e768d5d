"""The learnt colour model: one hidden layer over a symbol's colour as seen
and in its photo's light, with one output per colour of `COLOURS` and one,
`NONE`, for a symbol that shows no paint (a lamp washed it grey, a tile
body read as a symbol, a white no lesson taught).

Tile bodies (`cells.Cell.black`) are one dark grey in any set: dividing a
symbol's colour by theirs, channel by channel, takes the light's colour out
of it (`features`). Each colour is read as sRGB saturation times the hue's
cosine and sine, saturation and value: a colourless symbol's hue, which is
its light's, weighs nothing. Its weights (`colours.npz`, float16) are
trained by `benchmarks/train_colours.py` and loaded on first use.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path
from typing import cast

import numpy as np

from . import shape_model
from .hues import GAMMA, hsv, hsv_rows, linear, srgb
from .shape_model import softmax

WEIGHTS = Path(__file__).with_name("colours.npz")
"""The shipped weights (`benchmarks/train_colours.py` writes them)."""

COLOURS = ("red", "orange", "yellow", "green", "blue", "purple")
"""The colours the model names, in the order of its outputs: the classic
set's, the ones the renders print."""

OVERLAP = {"red": "orange", "orange": "red"}
"""Colours whose paints overlap from one set to the next: sets print red up
to 8° and orange from 7° (`tests/photo/synth_real.py`'s hues, the real
game's orange in `tests/test_api_photo.py`), and a lamp turns either
towards the other. A symbol's colour alone does not tell them apart; the
photo showing both does (`classify.Classifier._shows`), or a hue past
where the other's paint is ever seen (`PLAIN`)."""

PLAIN = {"red": (-180.0, -3.0), "orange": (15.0, 180.0)}
"""Hues (degrees, of `PLANE`: the colour with the light taken out) at which
a symbol named red or orange is that colour whether or not the photo shows
the other (`OVERLAP`). Set on the stored tiles of the realistic sets'
photos 0-39 as the reader then cut them (`benchmarks/bench_red_orange.py`):
no orange lay below -0.4° and no red above 12.8°; each edge widened by
2.5°, the 90th percentile of the spread (standard deviation) of one
colour's hues within one photo. Photos 40-79, never tuned on, confirmed
it. As the reader cuts them now, photos 0-79 put the lowest orange at 4.8°
and the highest red at 11.8°: inside both edges."""

NONE = len(COLOURS)
"""The output that says a symbol shows no paint."""

LIGHT_RANGE = 2.0
"""The most the tile bodies' colour may change one channel against the
others, as a factor either way: the test sets' warmest and coolest light
moves a channel by 1.35 at most, a body's dark grey by more only by noise."""


def knows(colors: Iterable[str]) -> bool:
    """True when the model names every colour (the classic six or fewer)."""
    return all(c in COLOURS for c in colors)


def saturated(rgb: np.ndarray, saturation: float) -> np.ndarray:
    """Linear RGB rows with their sRGB saturation raised to at least
    `saturation`, hue and value kept: what a washed symbol's hue points at."""
    levels = srgb(np.atleast_2d(rgb))
    hi = levels.max(axis=1, keepdims=True)
    lo = levels.min(axis=1, keepdims=True)
    now = (hi - lo) / np.maximum(hi, 1e-9)
    # Stretch each channel away from the brightest: the hue stays.
    stretch = np.maximum(saturation, now) / np.maximum(now, 1e-9)
    return cast(np.ndarray, np.clip(hi - (hi - levels) * stretch, 0, 1) ** GAMMA)


def plain(colour: str, plane: np.ndarray) -> bool:
    """True where a symbol named `colour` lies on `PLANE` (`plane`, one
    row) at a hue the paint it overlaps is never seen at (`PLAIN`)."""
    if colour not in PLAIN:
        return False
    low, high = PLAIN[colour]
    return low < float(np.degrees(np.arctan2(plane[1], plane[0]))) < high


def turned(rgb: np.ndarray, degrees: np.ndarray | float) -> np.ndarray:
    """Linear RGB rows with their sRGB hue turned by the degrees given."""
    rows = np.atleast_2d(np.asarray(rgb, np.float64))
    turns = np.broadcast_to(np.asarray(degrees, np.float64), len(rows))
    return np.array([linear((h + turn) % 360.0, s, v) for (h, s, v), turn
                     in zip(map(hsv, rows), turns, strict=True)])


def features(rgb: np.ndarray, body: np.ndarray) -> np.ndarray:
    """Symbols' colours (n, 3, linear RGB) in light whose tile bodies show
    `body` (3 or n × 3, linear RGB): one row each."""
    rgb = np.atleast_2d(np.asarray(rgb, np.float64))
    body = np.maximum(np.broadcast_to(np.asarray(body, np.float64), rgb.shape), 1e-6)
    # Per-channel gains that make the tile bodies' colour grey.
    gains = np.clip(body.mean(axis=1, keepdims=True) / body, 1 / LIGHT_RANGE,
                    LIGHT_RANGE)
    out = []
    for colour in (rgb, rgb * gains):
        hue, sat, val = hsv_rows(colour).T
        out += [sat * np.cos(hue), sat * np.sin(hue), sat, val]
    return np.stack(out, axis=1).astype(np.float32)


TURN = 10.0
"""Degrees either way a set may print a colour off the hues the renders
give it: real sets print up to a neighbour's hues (an orange at 7°,
`tests/test_api_photo.py`). The model is trained on paints turned so, and a
stored tile keeps its colour where a turn this size makes it that."""

PLANE = slice(4, 6)
"""The features examples of a colour are compared on (`classify`): the
corrected colour's sRGB saturation times its hue's cosine and sine. Its
value is left out: a lamp's fall-off changes it across one photo."""


def weights() -> dict[str, np.ndarray]:
    """The model's weights, in float32 (loaded once, `shape_model.weights`)."""
    return shape_model.weights(WEIGHTS)


def hidden(x: np.ndarray, w: dict[str, np.ndarray] | None = None) -> np.ndarray:
    """The hidden layer of feature rows (`features`)."""
    w = w if w is not None else weights()
    return cast(np.ndarray, np.tanh((x - w["mean"]) / w["scale"] @ w["w1"] + w["b1"]))


def probabilities(x: np.ndarray, w: dict[str, np.ndarray] | None = None
                  ) -> np.ndarray:
    """How likely each feature row is each of `COLOURS`, and last, no
    paint: (n, 7)."""
    w = w if w is not None else weights()
    return softmax(hidden(x, w) @ w["w2"] + w["b2"])
