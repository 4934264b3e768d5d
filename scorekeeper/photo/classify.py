"""Name a symbol's colour and shape: by the learnt models, checked by the
stored tiles the photo shows, which carry this photo's own light and print.

Colours: the colour model (`colour_model`) names them in the photo's light,
and the stored tiles the photo shows and the colours the table taught are
examples that name the symbols of their paint (`Classifier.colours`); a
set with colours the model lacks (pink, brown) is named by the nearest
example, a paint palette among them (`Classifier._nearest`). Shapes: the
shape model (`shape_model`) names them, and the stored tiles the photo
shows check it in the model's own hidden layer (`Classifier.shape`). Its
thresholds, named at its top: `PROTOTYPE_TILES`, `FEW`, `FAR`, `CLOSE`,
`DOUBT` and `SAME_PAINT`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from . import colour_model, hues, shape_model
from .hues import GAMMA

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
"""Typical printed colour of each symbol colour (sRGB): the examples a set
with colours the colour model lacks is named by (`Classifier.colours`)."""

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

SAME_PAINT = 0.1
"""Distance (sRGB saturation, `colour_model.PLANE`) within which an example
(a stored tile the photo shows, a taught colour) names a symbol its colour.
On renders of every renderer and condition (`benchmarks/train_colours.py`'s
training seeds), 99 % of stored tiles lie within 0.07 of another of their
colour in their photo, and tiles of two colours 0.1 apart and more."""


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
        self.keys: list[object] = []
        self.seen = np.zeros((0, 0))
        self.labels = np.zeros(0, int)

    def colours(self, rgb: np.ndarray, body: np.ndarray, keys: Sequence[object],
                examples: Sequence[Paint]) -> list[Choice]:
        """Name the colours of the photo's symbols (n × 3, linear RGB; `keys`
        their cells) in its light (`body`, its tile bodies' colour) with the
        colour model. Its confidence is the lead of its probability over the
        next colour's or no paint's (`tiles.COLOUR_SURE` makes it sure).
        An example (a stored tile the photo shows, a taught colour; never
        the symbol itself; only a taught one for a symbol the model finds no
        paint on) within `SAME_PAINT` of a symbol names it, sure where no
        example of another colour lies as near; where the nearest example is
        of another colour than the model's, the model is at most `DOUBT`
        sure. A stored tile keeps its stored colour where its print may
        just lie off that colour's hues (`_kept`)."""
        examples = [e for e in examples if e.color in self.colors]
        if not colour_model.knows(self.colors):
            palette = [Paint(paint_linear(c), c) for c in self.colors]
            return self._nearest(rgb, body, keys, [*palette, *examples])
        model = [colour_model.COLOURS.index(c) for c in self.colors]
        x = colour_model.features(rgb, body)
        w = colour_model.weights()
        p = colour_model.probabilities(x, w)[:, [*model, colour_model.NONE]]
        p /= p.sum(axis=1, keepdims=True)
        # A symbol of no paint (a lamp washed it) is named, unsure, by the
        # colour its hue points at, as saturated as the photo's paint.
        rank = p[:, :-1].copy()
        washed = p.argmax(axis=1) == len(model)
        if washed.any():
            paint = colour_model.hsv_rows(rgb[~washed])[:, 1]
            level = float(np.median(paint)) if len(paint) else hues.PAINT
            rank[washed] = colour_model.probabilities(colour_model.features(
                colour_model.saturated(rgb[washed], level), body), w)[:, model]
        seen = x[:, colour_model.PLANE]
        if examples:
            ex = colour_model.features(np.array([e.rgb for e in examples]),
                                       body)[:, colour_model.PLANE]
            labels = np.array([self.colors.index(e.color) for e in examples])
            taught = np.array([e.key is None for e in examples])
            hue_only = np.array([e.hue_only for e in examples])
            ex[hue_only] /= np.maximum(np.linalg.norm(ex[hue_only], axis=1,
                                                      keepdims=True), 1e-9)
        stored = {e.key: self.colors.index(e.color) for e in examples
                  if e.key is not None}
        out = []
        for i, key in enumerate(keys):
            best = int(np.argmax(rank[i]))
            conf = max(0.0, float(p[i, best] - np.delete(p[i], best).max()))
            if key in stored and stored[key] != best:
                kept = self._kept(rgb[i], body, model, stored[key])
                if kept is not None:
                    best, conf = stored[key], kept
                    out.append(Choice(best, conf, rank[i]))
                    continue
            if examples:
                # A symbol of no paint is named only by a taught colourless
                # paint: a stored tile's white may be a washed print.
                paint = taught | (p[i].argmax() != len(p[i]) - 1)
                own = paint & np.array([e.key is None or e.key != key
                                        for e in examples])
                at = np.where(hue_only[:, None], ex * np.linalg.norm(seen[i]), ex)
                near = np.where(own, np.linalg.norm(at - seen[i], axis=1), np.inf)
                first = int(np.argmin(near))
                other = near[labels != labels[first]].min(initial=np.inf)
                if near[first] <= SAME_PAINT:
                    agree = conf if labels[first] == best else 0.0
                    best = int(labels[first])
                    apart = (other - near[first]) / SAME_PAINT
                    conf = max(agree, float(min(1.0, apart)))
                elif np.isfinite(near[first]) and labels[first] != best \
                        and (labels[own] == best).any():
                    conf = min(conf, DOUBT)
            out.append(Choice(best, conf, rank[i]))
        return out

    def _nearest(self, rgb: np.ndarray, body: np.ndarray, keys: Sequence[object],
                 examples: Sequence[Paint]) -> list[Choice]:
        """Name each symbol the colour of its nearest example (never
        itself) on `colour_model.PLANE`: a set with colours the model lacks,
        the paint palette among its examples."""
        seen = colour_model.features(rgb, body)[:, colour_model.PLANE]
        ex = colour_model.features(np.array([e.rgb for e in examples]),
                                   body)[:, colour_model.PLANE]
        labels = np.array([self.colors.index(e.color) for e in examples])
        out = []
        for i, key in enumerate(keys):
            d = np.linalg.norm(ex - seen[i], axis=1)
            d[[e.key is not None and e.key == key for e in examples]] = np.inf
            out.append(_choose(np.array([d[labels == k].min(initial=np.inf)
                                         for k in range(len(self.colors))])))
        return out

    def _kept(self, rgb: np.ndarray, body: np.ndarray, model: list[int],
              colour: int) -> float | None:
        """How sure a stored tile is its stored colour, by the model read
        with its hue turned up to `colour_model.TURN` either way (a print
        off its colour's usual hues): the colour's lead where a turn makes
        it the model's best; None where none does (the page may be wrong)."""
        turns = colour_model.turned(np.repeat(rgb[None], 2, axis=0),
                                    np.array([-1.0, 1.0]) * colour_model.TURN)
        p = colour_model.probabilities(colour_model.features(turns, body))[:, model]
        leads = [float(row[colour] - np.delete(row, colour).max()) for row in p
                 if int(np.argmax(row)) == colour]
        return max(leads) if leads else None

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
        """Learn this photo's print from the stored tiles it shows (their
        colours name the symbols as examples, `colours`)."""
        if not examples:
            return
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
class Paint:
    """An example of a colour: a symbol's colour (linear RGB) and its name;
    the cell it was seen on, or None for a taught colour."""

    rgb: np.ndarray
    color: str
    key: object = None
    hue_only: bool = False
    """Only its hue is known (a lesson kept before paint was measured):
    compared at the symbol's own saturation."""


@dataclass
class Example:
    """A stored tile seen in the photo: what it looks like, and what it is."""

    rgb: np.ndarray
    mask: np.ndarray
    color: str
    shape: str
    key: object = None
    """The cell it was seen on."""
