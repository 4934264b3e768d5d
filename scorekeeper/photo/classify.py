"""Name a symbol's colour and shape by the learnt models; its colour checked
by the stored tiles the photo shows, which carry this photo's own light.

Colours: the colour model (`colour_model`) names them in the photo's light;
the stored tiles the photo shows and the taught colours are examples that
name the symbols of their paint; a set with colours the model lacks (pink,
brown) is named by the nearest example, a paint palette among them.
Shapes: the shape model (`shape_model`) names them.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from . import colour_model, hues, shape_model
from .hues import GAMMA
from .lessons import PALE

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
with colours the colour model lacks is named by (`Classifier._nearest`)."""

PALE_PEERS = 2
"""Stored tiles of one colour the photo shows under no glare, all
colourless (under `lessons.PALE`), that make it the set's white in this
photo, as if taught: one may be a print a lamp washed unseen. With two, a
white-for-purple set untaught reads 530 of the realistic sets' 600 moves
right, 431 before, 0 confident wrong (`benchmarks/bench_white_set.py`)."""

DOUBT = 0.1
"""Probability margin, at most, of a colour whose paint the photo cannot
tell from another's (`colour_model.OVERLAP`): well under
`tiles.COLOUR_SURE`, so the tile is marked uncertain."""

SAME_PAINT = 0.1
"""Distance (sRGB saturation, `colour_model.PLANE`) within which an example
names a symbol its colour: on the colour model's training renders, 99 % of
stored tiles lie within 0.07 of another of their colour in their photo, and
tiles of two colours 0.1 apart and more."""


@dataclass
class Choice:
    """A label, its index, and how sure: 0 (a toss-up) to 1."""

    index: int
    confidence: float
    scores: np.ndarray
    """How well the symbol fits each label: higher is better."""


class Classifier:
    """Colour and shape names for one photo, its colours checked by its examples."""

    def __init__(self, colors: Sequence[str], shapes: Sequence[str]) -> None:
        self.colors = tuple(colors)
        self.shapes = tuple(shapes)

    def colours(self, rgb: np.ndarray, body: np.ndarray, keys: Sequence[object],
                examples: Sequence[Example]) -> list[Choice]:
        """Name the colours of the photo's symbols (n × 3, linear RGB; `keys`
        their cells) in its light (`body`, its tile bodies' colour): the
        model's, as sure as its probability leads the next colour's or no
        paint's. An example within `SAME_PAINT` names a symbol (never
        itself; a symbol of no paint only a taught one, or a stored tile of
        a colour taught colourless, `lessons.PALE`, or shown so,
        `PALE_PEERS`), sure where none of another colour lies as near;
        with none near, a symbol of no paint is the colour taught
        colourless, unsure. A colour whose paint overlaps another's
        (`colour_model.OVERLAP`) is at most `DOUBT` sure where the photo
        shows none of that other to measure against (`_shows`) and its hue
        is not past the other's (`colour_model.PLAIN`). A stored tile keeps
        its colour where its print may lie off its hues (`_kept`)."""
        examples = [e for e in examples if e.color in self.colors]
        if not colour_model.knows(self.colors):
            palette = [Example((np.array(PAINT[c], np.float64) / 255.0) ** GAMMA, c)
                       for c in self.colors]
            return self._nearest(rgb, body, keys, [*palette, *examples])
        model = [colour_model.COLOURS.index(c) for c in self.colors]
        x = colour_model.features(rgb, body)
        p = colour_model.probabilities(x)[:, [*model, colour_model.NONE]]
        p /= p.sum(axis=1, keepdims=True)
        # A symbol of no paint (a lamp washed it) is named, unsure, by the
        # colour its hue points at, as saturated as the photo's paint.
        rank = p[:, :-1].copy()
        washed = p.argmax(axis=1) == len(model)
        if washed.any():
            paint = hues.hsv_rows(rgb[~washed])[:, 1]
            level = float(np.median(paint)) if len(paint) else hues.PAINT
            rank[washed] = colour_model.probabilities(colour_model.features(
                colour_model.saturated(rgb[washed], level), body))[:, model]
        seen = x[:, colour_model.PLANE]
        named = np.where(washed, -1, rank.argmax(axis=1))
        labels = np.zeros(0, int)
        pale: set[str] = set()
        if examples:
            ex = colour_model.features(np.array([e.rgb for e in examples]),
                                       body)[:, colour_model.PLANE]
            labels = np.array([self.colors.index(e.color) for e in examples])
            pale = {e.color for e in examples
                    if e.key is None and hues.hsv(e.rgb)[1] < PALE}
            stored_saturations: dict[str, list[float]] = {}
            for e in examples:
                if e.key is not None:
                    stored_saturations.setdefault(e.color, []).append(
                        hues.hsv(e.rgb)[1])
            pale |= {color for color, sat in stored_saturations.items()
                     if len(sat) >= PALE_PEERS and max(sat) < PALE}
            colourless = np.array([e.key is None or e.color in pale
                                   for e in examples])
        stored = {e.key: self.colors.index(e.color) for e in examples
                  if e.key is not None}
        out = []
        for i, key in enumerate(keys):
            best = int(np.argmax(rank[i]))
            conf = shape_model.lead(p[i], best)
            if key in stored and stored[key] != best and \
                    (kept := self._kept(rgb[i], body, model, stored[key])) is not None:
                out.append(Choice(stored[key], kept, rank[i]))
                continue
            if examples:
                # A symbol of no paint is named only by a taught paint, or
                # by a stored tile of a colour taught colourless, which shows
                # that white in this photo's light: another stored tile's
                # white may be a washed print.
                paint = colourless | ~washed[i]
                own = paint & np.array([e.key is None or e.key != key
                                        for e in examples])
                near = np.where(own, np.linalg.norm(ex - seen[i], axis=1), np.inf)
                first = int(np.argmin(near))
                other = near[labels != labels[first]].min(initial=np.inf)
                if near[first] <= SAME_PAINT:
                    agree = conf if labels[first] == best else 0.0
                    best = int(labels[first])
                    apart = (other - near[first]) / SAME_PAINT
                    conf = max(agree, float(min(1.0, apart)))
                elif washed[i] and len(pale) == 1:
                    # No white in this light to measure against (a first
                    # move): of no paint, likelier the set's white than the
                    # colour its hue points at, and as unsure (a lamp may
                    # have washed a paint).
                    best = self.colors.index(next(iter(pale)))
            pair = colour_model.OVERLAP.get(self.colors[best])
            if pair in self.colors and not colour_model.plain(
                    self.colors[best], seen[i]) and not self._shows(
                    self.colors.index(pair), i, named,
                    labels[own] if examples else labels):
                # Nothing in the photo to tell the two paints apart by.
                conf = min(conf, DOUBT)
            out.append(Choice(best, conf, rank[i]))
        return out

    @staticmethod
    def _shows(colour: int, symbol: int, named: np.ndarray, labels: np.ndarray
               ) -> bool:
        """True where the photo shows paint of `colour` beside the symbol
        (index `symbol`): an example of it (`labels`), or another symbol
        the model names so (`named`, -1 for no paint)."""
        others = np.delete(named, symbol)
        return bool((labels == colour).any() or (others == colour).any())

    def _nearest(self, rgb: np.ndarray, body: np.ndarray, keys: Sequence[object],
                 examples: Sequence[Example]) -> list[Choice]:
        """Name each symbol the colour of its nearest example (never itself)
        on `colour_model.PLANE`: a set with colours the model lacks."""
        seen = colour_model.features(rgb, body)[:, colour_model.PLANE]
        ex = colour_model.features(np.array([e.rgb for e in examples]),
                                   body)[:, colour_model.PLANE]
        labels = np.array([self.colors.index(e.color) for e in examples])
        out = []
        for i, key in enumerate(keys):
            d = np.linalg.norm(ex - seen[i], axis=1)
            d[[e.key is not None and e.key == key for e in examples]] = np.inf
            dist = np.array([d[labels == k].min(initial=np.inf)
                             for k in range(len(self.colors))])
            best, second = np.sort(dist)[:2]
            conf = float((second - best) / (second + best + 1e-9)) \
                if np.isfinite(second) else 1.0
            out.append(Choice(int(np.argmin(dist)), conf, -dist))
        return out

    def _kept(self, rgb: np.ndarray, body: np.ndarray, model: list[int],
              colour: int) -> float | None:
        """How sure a stored tile is its stored colour where its hue turned
        `colour_model.TURN` either way makes it the model's best (a print off
        its colour's usual hues); None where neither does (the page may be
        wrong)."""
        turns = colour_model.turned(np.repeat(rgb[None], 2, axis=0),
                                    np.array([-1.0, 1.0]) * colour_model.TURN)
        p = colour_model.probabilities(colour_model.features(turns, body))[:, model]
        leads = [shape_model.lead(row, colour) for row in p
                 if int(np.argmax(row)) == colour]
        return max(leads) if leads else None

    def shape(self, mask: np.ndarray) -> Choice:
        """Name the shape of a normalised symbol mask (`shape_model`), as sure
        as its probability leads the next shape's or no symbol's."""
        p = shape_model.probabilities(mask[None], self.shapes)[0]
        best = int(np.argmax(p[:-1]))
        return Choice(best, shape_model.lead(p, best), p[:-1])


@dataclass
class Example:
    """A symbol of a known colour: a stored tile the photo shows (the cell
    it lies on) or a taught colour (no cell)."""

    rgb: np.ndarray
    """Its colour, linear RGB."""
    color: str
    key: object = None
