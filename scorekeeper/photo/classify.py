"""Name a symbol's colour and shape: first from general references, then from the
stored tiles the photo shows, which carry this photo's own light and print.

Colours: the general references are a paint palette; once the photo is matched
to the stored board, every stored tile seen is a labelled example in this very
light, so colours are corrected by the light's colour (per-channel gains
fitted to them) and compared with their medians. Shapes: the learnt model
(`shape_model`) names them, and the stored tiles the photo shows check it in
the model's own hidden layer (`Classifier.shape`). Its thresholds, named at
its top: `PROTOTYPE_TILES`, `FEW`, `FAR`, `CLOSE` and `DOUBT`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import cast

import numpy as np

from . import shape_model
from .hues import GAMMA

PROTOTYPE_TILES = 3
"""Stored tiles of a colour the photo must show to take their median as the
colour's look in this light: a median of three one wrongly stored tile
cannot move."""

PAINT: dict[str, tuple[int, int, int]] = {
    "red": (205, 35, 45),
    "orange": (240, 120, 30),
    "yellow": (245, 210, 45),
    "green": (45, 160, 70),
    "blue": (30, 100, 205),
    "purple": (125, 55, 160),
    "pink": (240, 115, 175),
    "brown": (135, 80, 40),
}
"""Typical printed colour of each symbol colour (sRGB)."""

FEW = 3
"""Stored tiles of a shape the photo must show to say how far apart its
own tiles lie (`FAR`)."""

FAR = 4.0
"""A symbol further than this many times the usual distance between the
photo's stored tiles of its shape (hidden-layer units) from the nearest of
them is unlike them. Set on the realistic sets' cool light (a crisscross
thickened into a blob, 5 times)."""

CLOSE = 0.2
"""Hidden-layer distance: stored tiles of one shape nearer each other than
this (one print, sharp) count as this far apart, so that a symbol a little
unlike them is no stranger."""

DOUBT = 0.1
"""Probability margin, at most, of a shape the photo's own stored tiles do
not vouch for: well under `tiles.SURE`, so the tile is marked uncertain."""


def chroma(rgb: np.ndarray) -> np.ndarray:
    """Return rg chromaticity (brightness removed) of linear RGB rows."""
    rgb = np.atleast_2d(rgb)
    total = np.maximum(rgb.sum(axis=-1, keepdims=True), 1e-4)
    return cast(np.ndarray, (rgb / total)[..., :2])


def paint_linear(name: str) -> np.ndarray:
    """A paint colour in linear RGB."""
    return (np.array(PAINT[name], np.float64) / 255.0) ** GAMMA


@dataclass
class Choice:
    """A label, its index, and how sure: 0 (a toss-up) to 1."""

    index: int
    confidence: float
    scores: np.ndarray
    """How well the symbol fits each label: higher is better."""


def _choose(dist: np.ndarray) -> Choice:
    order = np.argsort(dist)
    best, second = dist[order[0]], dist[order[1]] if len(dist) > 1 else np.inf
    if not np.isfinite(second):
        return Choice(int(order[0]), 1.0, -dist)
    conf = float((second - best) / (second + best + 1e-9))
    return Choice(int(order[0]), conf, -dist)


class Classifier:
    """Colour and shape references for one photo, general or learnt from it."""

    def __init__(self, colors: Sequence[str], shapes: Sequence[str]) -> None:
        self.colors = tuple(colors)
        self.shapes = tuple(shapes)
        self.gains = np.ones(3)
        self.paint = np.array([chroma(paint_linear(c))[0] for c in self.colors])
        self.color_protos: dict[int, np.ndarray] = {}
        self.keys: list[object] = []
        self.seen = np.zeros((0, 0))
        self.labels = np.zeros(0, int)

    def color(self, rgb: np.ndarray) -> Choice:
        """Name the colour of a symbol (linear RGB)."""
        raw = chroma(rgb)[0]
        fixed = chroma(rgb * self.gains)[0]
        dist = np.empty(len(self.colors))
        for k in range(len(self.colors)):
            if k in self.color_protos:
                dist[k] = np.linalg.norm(raw - self.color_protos[k])
            else:
                dist[k] = np.linalg.norm(fixed - self.paint[k])
        return _choose(dist)

    def shape(self, mask: np.ndarray, key: object = None) -> Choice:
        """Name the shape of a normalised symbol mask (`shape_model`). Its
        confidence is the lead of its probability over the next shape's or
        no symbol's (`tiles.SURE` makes it sure), at most `DOUBT` where the
        stored tile this photo shows nearest to it in the model's hidden
        layer (this photo's own print and blur) is another shape, never
        counting the symbol itself (`key` names its cell)."""
        layer = shape_model.hidden(mask[None])
        p = shape_model.from_hidden(layer, self.shapes)[0]
        best = int(np.argmax(p[:-1]))
        conf = max(0.0, float(p[best] - np.delete(p, best).max()))
        if not self._vouched(layer.mean(axis=0)[0], best, key):
            conf = min(conf, DOUBT)
        return Choice(best, conf, p[:-1])

    def _vouched(self, seen: np.ndarray, shape: int, key: object) -> bool:
        """False where the photo shows stored tiles of a symbol's shape and
        one of another shape lies nearer it in the model's hidden layer, or
        where it lies `FAR` times further from its shape's stored tiles than
        they lie from each other (a blob the model calls a shape it is
        unlike). Nothing to say where the photo shows none of its shape.
        `seen` is where the symbol lies in the hidden layer (over its views)."""
        others = np.array([k != key for k in self.keys], bool)
        same = others & (self.labels == shape)
        if not same.any():
            return True
        near = np.linalg.norm(self.seen - seen, axis=1)
        if near[others & ~same].min(initial=np.inf) < near[same].min():
            return False
        if same.sum() < FEW:
            return True
        kin = self.seen[same]
        spread = np.linalg.norm(kin[:, None] - kin[None], axis=2)
        np.fill_diagonal(spread, np.inf)
        apart = max(float(np.median(spread.min(axis=1))), CLOSE)
        return bool(near[same].min() <= FAR * apart)

    def learn(self, examples: Sequence[Example]) -> None:
        """Learn this photo's light and print from the stored tiles it shows."""
        if not examples:
            return
        obs = np.array([e.rgb for e in examples])
        ref = np.array([paint_linear(e.color) for e in examples])
        # Per-channel gains (the colour of the light), least squares. The
        # light's colour shows only across several colours: with few tiles or
        # few colours the gains are pulled back towards neutral.
        gains = (obs * ref).sum(axis=0) / np.maximum((obs * obs).sum(axis=0), 1e-9)
        gains = gains / gains[1]
        kinds = len({e.color for e in examples})
        trust = min(1.0, len(examples) / 12) * min(1.0, max(0, kinds - 1) / 3)
        self.gains = gains ** trust
        by_color: dict[int, list[np.ndarray]] = {}
        for e in examples:
            if e.color in self.colors:
                k = self.colors.index(e.color)
                by_color.setdefault(k, []).append(chroma(e.rgb)[0])
        # Three or more: a median that one wrongly stored tile cannot move.
        self.color_protos = {k: np.median(np.array(v), axis=0)
                             for k, v in by_color.items() if len(v) >= PROTOTYPE_TILES}
        known = [e for e in examples if e.shape in self.shapes]
        if not known:
            return
        masks = np.array([e.mask for e in known], bool)
        labels = np.array([self.shapes.index(e.shape) for e in known], int)
        # A stored tile the model names otherwise (the table and the page
        # may differ) must not vouch for its stored shape's look.
        layer = shape_model.hidden(masks)
        named = shape_model.from_hidden(layer, self.shapes)[:, :-1].argmax(axis=1)
        own = named == labels
        self.keys = [e.key for e, ok in zip(known, own, strict=True) if ok]
        self.labels = labels[own]
        # Where they lie in the hidden layer, over all their views.
        self.seen = layer.mean(axis=0)[own] if own.any() else np.zeros((0, 0))


@dataclass
class Example:
    """A stored tile seen in the photo: what it looks like, and what it is."""

    rgb: np.ndarray
    mask: np.ndarray
    color: str
    shape: str
    key: object = None
    """The cell it was seen on."""
