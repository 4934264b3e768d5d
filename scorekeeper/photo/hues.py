"""Name the symbols' colours from the photo itself (docs/PHOTO.md, "Real
tiles in real light"): sorted by hue, named together as a chain (a Viterbi
pass) whose name changes cost little across wide hue gaps and much inside
tight groups, a name far from its colour's usual hues costs, and a
recognised stored tile anchors its group. Taught colours (`lessons.Taught`)
move the usual hues; one taught colourless (white) names the symbols without
colour. A symbol's confidence is its best name's margin over its next
(min-marginals); costs are in units, `SURE_MARGIN` of them sure.
"""

from __future__ import annotations

import colorsys
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np

from .lessons import PALE

CUT = 320.0
"""Degrees: where the hue circle is cut open, between purple and red."""

GAMMA = 2.2
"""The exponent from a photo's sRGB levels (over 255) to linear light."""

USUAL: dict[str, tuple[float, float]] = {
    "red": (347.0, 8.0),
    "orange": (10.0, 32.0),
    "yellow": (36.0, 60.0),
    "green": (85.0, 160.0),
    "blue": (195.0, 228.0),
    "purple": (236.0, 305.0),
}
"""Each colour's hues in photos, degrees: real paint's (red 350–8, orange
8–25, yellow 40–55, green 90–150, blue 195–225, purple 235–275) widened for
the renders' paints and the light's colour."""

OUTSIDE = 6.0
"""Degrees outside a colour's usual hues that cost one unit."""

TAUGHT = 3.0
"""Degrees outside a taught colour's hues that cost one unit."""

SAME_PAINT = 4.0
"""Degrees: symbols closer in hue weigh as one (more tiles of a paint do
not make its name surer)."""

ANCHOR = 12.0
"""Units: the cost of naming a recognised stored tile otherwise."""

SPLIT = 5.0
"""Units: a name change between symbols of one hue; it falls off by a
factor e every `SPLIT_GAP` degrees of gap between them."""

SPLIT_GAP = 3.5

SPREAD = 7.0
"""Degrees: the widest hue gap inside a colour's group that costs nothing;
each `WIDE_GAP` degrees more costs one unit."""

WIDE_GAP = 2.0

FAR = 25.0
"""Units: the most a symbol pays for lying outside a colour's hues."""

SURE_MARGIN = 3.0
"""Units by which a symbol's best name beats the next for confidence 1
(less, in proportion); the benchmark's sets read right with it."""

TAUGHT_HALF = 4.0
"""Degrees either side of a taught mean hue that cost nothing, or
`TAUGHT_SPREADS` of its spread where wider."""

TAUGHT_SPREADS = 2.0

KEEP_OUT = 2.0
"""Degrees kept between a taught colour's hues and an untaught neighbour's."""

GUESS = 0.1
"""Confidence of a colour stored tiles of another colour contradict."""

MIXED = 2.5
"""Degrees round a symbol where stored tiles of two colours make it a guess."""

GREY = 0.22
"""Saturation: under it a symbol shows no paint (glare, a washed print):
its colour is unsure and it teaches none. Paint measures 0.5 and more in
every light of the test sets."""

PAINT = 0.5
"""Saturation: the least real paint measures."""

LITTLE_COLOUR = 0.2
"""The most confidence of a colour named by hue under `lessons.PALE`
saturation: white measures up to 0.25 in cool light (`tests/photo/white.py`)."""

SURE_PALE = 0.1
"""Saturation past the line between a taught colourless paint and paint
that makes a name sure; the real development set's tiles lie 0.13 and more
from it."""

DIM = 0.5
"""Share of a taught colourless paint's value a colourless symbol needs to
be it: white measures 0.8–1.0 (`tests/photo/white.py`), a tile body far less."""


def colourless(pix: np.ndarray) -> np.ndarray:
    """For each pixel (… × 3, sRGB, any channel order), whether its
    saturation is under `GREY`: no paint."""
    # Channel by channel: numpy reduces a 3-long last axis many times slower
    # than it compares whole planes, and a cell read runs this on every pixel.
    a, b, c = pix[..., 0], pix[..., 1], pix[..., 2]
    lo = np.minimum(np.minimum(a, b), c).astype(np.float32)
    hi = np.maximum(np.maximum(a, b), c).astype(np.float32)
    return np.asarray(lo >= (1 - GREY) * np.maximum(hi, 1))



def pale_paint(colors: Sequence[np.ndarray], pale: Mapping[str, tuple[float, float]]
               ) -> bool:
    """True when every colour (linear RGB) may be a taught colourless paint
    (`Taught.pale`): none darker than `DIM` of the dimmest taught."""
    if not pale or not colors:
        return False
    least = DIM * min(value for _, value in pale.values())
    return all(hsv(np.asarray(c))[2] >= least for c in colors)


def hsv(lin: np.ndarray) -> tuple[float, float, float]:
    """(hue degrees, saturation, value) of a linear RGB colour, as sRGB shows it."""
    srgb = np.clip(np.asarray(lin, np.float64), 0, 1) ** (1 / GAMMA)
    h, s, v = colorsys.rgb_to_hsv(*srgb)
    return h * 360.0, s, v


def _open(hue: float) -> float:
    """Degrees past the cut, in [0, 360)."""
    return (hue - CUT) % 360.0


@dataclass(frozen=True)
class Named:
    """One symbol's colour: its index, how sure, and each name's cost."""

    index: int
    confidence: float
    costs: np.ndarray
    """The best naming's total cost with this symbol given each colour."""


def known(colors: Sequence[str]) -> bool:
    """True when every colour has a usual hue (the classic six or fewer)."""
    return all(c in USUAL for c in colors)


Range = tuple[float, float, float, float]
"""A colour's place: (lo, hi) open degrees, and the degrees outside each end
that cost one unit."""


def _ranges(colors: Sequence[str], learnt: Mapping[str, tuple[float, float]]
            ) -> list[Range]:
    """Each colour's range: the usual one, or round what the table taught,
    which keeps its untaught neighbours out (`KEEP_OUT`)."""
    out: list[Range] = []
    for color in colors:
        if color in learnt:
            mean, spread = learnt[color]
            half = max(TAUGHT_HALF, TAUGHT_SPREADS * spread)
            sharp = max(TAUGHT, spread)
            out.append((_open(mean) - half, _open(mean) + half, sharp, sharp))
        else:
            lo, hi = USUAL[color]
            out.append((_open(lo), _open(hi), OUTSIDE, OUTSIDE))
    order = sorted(range(len(colors)), key=lambda k: out[k][0] + out[k][1])
    for k in order:
        if colors[k] not in learnt:
            continue
        mid = (out[k][0] + out[k][1]) / 2
        for j in order:
            if j == k or colors[j] in learnt:
                continue
            lo, hi, below, above = out[j]
            if (lo + hi) / 2 < mid:
                if hi > out[k][0] - KEEP_OUT:
                    hi, above = out[k][0] - KEEP_OUT, TAUGHT
                lo = min(lo, hi)
            else:
                if lo < out[k][1] + KEEP_OUT:
                    lo, below = out[k][1] + KEEP_OUT, TAUGHT
                hi = max(lo, hi)
            out[j] = (lo, hi, below, above)
    return out


def name_colors(hues: Sequence[float], saturations: Sequence[float],
                colors: Sequence[str], anchors: Mapping[int, str] | None = None,
                learnt: Mapping[str, tuple[float, float]] | None = None,
                pale: Mapping[str, tuple[float, float]] | None = None,
                ) -> list[Named]:
    """Name each symbol's colour from its hue (degrees) among the others.

    `anchors`: the stored colour of recognised stored tiles, by index;
    `learnt` and `pale`: `Taught.hues()` and `Taught.pale()`. A symbol nearer
    a pale paint's saturation than paint's is that colour, whatever its hue."""
    anchors = anchors or {}
    pale = {c: p for c, p in (pale or {}).items() if c in colors}
    if not pale:
        return _chain(hues, saturations, colors, anchors, learnt)
    # Midway between the taught colourless paint and paint: below, no paint.
    line = (max(sat for sat, _ in pale.values()) + PAINT) / 2
    apart = [i for i, sat in enumerate(saturations) if sat < line]
    rest = [i for i in range(len(hues)) if i not in apart]
    chained = _chain([hues[i] for i in rest], [saturations[i] for i in rest],
                     colors, {j: anchors[i] for j, i in enumerate(rest)
                              if i in anchors}, learnt)
    named: dict[int, Named] = {}
    for i, done in zip(rest, chained, strict=True):
        sure = min(1.0, (saturations[i] - line) / SURE_PALE)
        costs = done.costs.copy()
        for color in pale:
            # A colourless paint is the runner-up of a symbol of little colour.
            k = colors.index(color)
            costs[k] = min(costs[k], float(costs.min()) + SURE_MARGIN * sure)
        named[i] = Named(done.index, round(min(done.confidence, sure), 3), costs)
    for i in apart:
        sat = saturations[i]
        color = min(pale, key=lambda c: abs(pale[c][0] - sat))
        sure = min(1.0, (line - sat) / SURE_PALE)
        # Its hue ranks the others, for the runners-up only.
        costs = np.array([SURE_MARGIN * sure + gap(hues[i], _middle(c)) / 360.0
                          if c in USUAL else SURE_MARGIN * sure + 1 for c in colors])
        costs[colors.index(color)] = 0.0
        named[i] = Named(colors.index(color), round(sure, 3), costs)
    return [named[i] for i in range(len(hues))]


def gap(a: float, b: float) -> float:
    """Degrees between two hues, the short way round."""
    d = abs(a - b) % 360.0
    return min(d, 360.0 - d)


def _middle(color: str) -> float:
    """The middle of a colour's usual hues, degrees."""
    lo, hi = USUAL[color]
    return (lo + ((hi - lo) % 360.0) / 2) % 360.0


def _chain(hues: Sequence[float], saturations: Sequence[float],
           colors: Sequence[str], anchors: Mapping[int, str],
           learnt: Mapping[str, tuple[float, float]] | None) -> list[Named]:
    """Name the symbols' colours as a chain in hue order (see the module)."""
    learnt = learnt or {}
    n, k = len(hues), len(colors)
    if n == 0:
        return []
    ranges = _ranges(colors, learnt)
    # The colours in hue order: the chain's names never go back.
    order = sorted(range(k), key=lambda j: ranges[j][0] + ranges[j][1])
    opened = np.array([_open(h) for h in hues])
    seq = np.argsort(opened, kind="stable")
    emit = np.zeros((n, k))
    for pos, i in enumerate(seq):
        h = opened[i]
        alike = int(np.sum(np.abs(opened - h) <= SAME_PAINT))
        for state, j in enumerate(order):
            lo, hi, below, above = ranges[j]
            out = max((lo - h) / below, (h - hi) / above, 0.0)
            emit[pos, state] = min(FAR, out ** 2) / alike
            if i in anchors and anchors[i] != colors[j]:
                emit[pos, state] += ANCHOR
    gaps = np.diff(opened[seq])
    same = np.maximum(0.0, gaps - SPREAD) / WIDE_GAP
    change = SPLIT * np.exp(-gaps / SPLIT_GAP)
    inf = 1e9

    def step(prev: np.ndarray, g: int, forward: bool) -> np.ndarray:
        # From one symbol to the next: stay (gap cost) or move on in hue
        # order (change cost); backwards, the mirror.
        out = np.full(k, inf)
        for s in range(k):
            before = prev[:s] if forward else prev[s + 1:]
            moved = before.min() + change[g] if len(before) else inf
            out[s] = min(prev[s] + same[g], moved)
        return out

    fwd = np.zeros((n, k))
    fwd[0] = emit[0]
    for pos in range(1, n):
        fwd[pos] = step(fwd[pos - 1], pos - 1, True) + emit[pos]
    bwd = np.zeros((n, k))
    for pos in range(n - 2, -1, -1):
        bwd[pos] = step(bwd[pos + 1] + emit[pos + 1], pos, False)
    total = fwd + bwd
    named: list[Named | None] = [None] * n
    for pos, i in enumerate(seq):
        costs = np.empty(k)
        costs[order] = total[pos]
        best = np.argsort(costs)
        margin = costs[best[1]] - costs[best[0]] if k > 1 else inf
        conf = float(min(1.0, margin / SURE_MARGIN))
        near = {anchors[j] for j in anchors
                if abs(opened[j] - opened[i]) <= MIXED and j != i}
        if len(near) > 1:
            # Stored tiles of different colours share this hue: it cannot
            # tell them apart, whatever the chain made of it.
            conf = min(conf, GUESS)
        sat = saturations[i]
        if sat < PALE:
            # Little colour (a white paint in cool light, a washed print): its
            # hue is the light's as much as the paint's.
            conf = min(conf, LITTLE_COLOUR) * min(1.0, max(0.0, sat / GREY))
        named[i] = Named(int(best[0]), round(conf, 3), costs)
    return [x for x in named if x is not None]
