"""Name the symbols' colours from the photo itself.

Real paint is not the renderers' paint: a real orange sits a few degrees of
hue from red, a real purple close to blue, and the light moves every hue.
What survives is the order of the hues around the circle (red, orange,
yellow, green, blue, purple) and that one paint's symbols lie close
together in one photo. So the symbols are sorted by hue and named together,
in that order, as a chain (a Viterbi pass over the sorted hues): a name
change costs little across a wide gap between neighbouring hues and much
inside a tight group; each symbol pays for a name far from where that
colour usually sits; a stored tile the photo recognises pays much for any
name but its own, so one stored tile of a colour anchors all its group.
What the confirmed moves of the table taught (`Taught`) moves each colour's
usual place to where this table's paint and light put it; a colour it
taught as a colourless paint (a set whose sixth colour is white) names the
symbols that show no colour, and the chain names the others.

Each symbol's confidence is the margin between the best naming of all and
the best one that names it otherwise (min-marginals), so a symbol that
could belong to either of two groups is reported uncertain.
"""

from __future__ import annotations

import colorsys
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np

from .lessons import PALE

CUT = 320.0
"""The hue (degrees) where the circle is cut open: between purple and red,
whatever the light."""

GAMMA = 2.2
"""The exponent between a photo's 8-bit sRGB levels (over 255) and linear
light, as the reader takes it: the sRGB curve, near enough."""

USUAL: dict[str, tuple[float, float]] = {
    "red": (347.0, 8.0),
    "orange": (10.0, 32.0),
    "yellow": (36.0, 60.0),
    "green": (85.0, 160.0),
    "blue": (195.0, 228.0),
    "purple": (236.0, 305.0),
}
"""Where each colour's hue lies in photos (degrees): real tiles' paint (red
350–8°, orange 8–25°, yellow 40–55°, green 90–150°, blue 195–225°, purple
235–275°) widened for the printed and rendered paints and the light's colour."""

OUTSIDE = 6.0
"""Degrees outside a colour's usual range that cost one unit."""

TAUGHT = 3.0
"""Degrees outside a range the table taught that cost one unit."""

SAME_PAINT = 4.0
"""Symbols closer than this in hue are taken as one paint: together they
weigh as one symbol where they lie (more tiles of one paint do not make its
name surer; their order among the others and the stored ones do)."""

ANCHOR = 12.0
"""What naming a recognised stored tile otherwise than stored costs."""

SPLIT = 5.0
"""What a name change between two symbols of the same hue costs; it falls
off with the gap between them (`SPLIT_GAP` degrees for a factor e)."""

SPLIT_GAP = 3.5

SPREAD = 7.0
"""The widest hue gap inside one colour's group that costs nothing."""

WIDE_GAP = 2.0
"""Degrees of hue gap past `SPREAD`, inside one colour's group, that cost one
unit."""

FAR = 25.0
"""The most a symbol pays for lying outside a colour's range (units): past
five units' distance, any further is as unlikely."""

SURE_MARGIN = 3.0
"""The cost (units) by which a symbol's best name beats its next that makes
it sure (confidence 1); less, its confidence falls in proportion. The
benchmark's sets (bench_photo.py) read right with it; it is not measured
apart."""

TAUGHT_HALF = 4.0
"""Degrees either side of a taught colour's mean hue that cost nothing, at
the least; `TAUGHT_SPREADS` of its spread where that is wider."""

TAUGHT_SPREADS = 2.0
"""A taught colour's spreads (degrees) either side of its mean that cost
nothing, where that is wider than `TAUGHT_HALF`."""

KEEP_OUT = 2.0
"""Degrees between a taught colour's range and an untaught neighbour's."""

GUESS = 0.1
"""The confidence of a colour that stored tiles of another colour at the
same hue contradict (`MIXED`), or of a colourless symbol on a stored tile
of another colour: a guess the page marks."""

MIXED = 2.5
"""Degrees of hue around a symbol where stored tiles of two colours make its
colour a guess."""

GREY = 0.22
"""Below this saturation a symbol's hue says little (glare, a washed-out
print) and shows no paint (real paint measures 0.5 and more in every light
the test sets draw): its colour is reported uncertain, and it cannot teach
a colour (`teach`)."""


PAINT = 0.5
"""The least saturation real paint measures (`GREY`)."""

LITTLE_COLOUR = 0.2
"""The most confidence a colour named by its hue gets when its symbol's
saturation is under `lessons.PALE`: less than the reader's LOW_CONFIDENCE,
so the page marks it. A white paint measures up to 0.25 in the cool light
of the test sets (`tests/photo/white.py`), over `GREY`, and its hue lies
beside blue's."""

SURE_PALE = 0.1
"""Saturation between a symbol and the line between a taught colourless
paint and paint (midway between the two) that makes its name sure; nearer,
its confidence falls in proportion. The white tiles of the real development
set lie 0.13 and more inside that line, its paint 0.4 and more outside."""


def colourless(pix: np.ndarray) -> np.ndarray:
    """For each pixel (… × 3, any channel order, sRGB), whether its
    saturation is under `GREY`: no paint (a lamp's white, a lit black)."""
    # Channel by channel: numpy reduces a 3-long last axis many times slower
    # than it compares whole planes, and a cell read runs this on every pixel.
    a, b, c = pix[..., 0], pix[..., 1], pix[..., 2]
    lo = np.minimum(np.minimum(a, b), c).astype(np.float32)
    hi = np.maximum(np.maximum(a, b), c).astype(np.float32)
    return np.asarray(lo >= (1 - GREY) * np.maximum(hi, 1))


DIM = 0.5
"""The least value, as a share of a taught colourless paint's, that a
colourless symbol may show and be that paint: the white of
`tests/photo/white.py` measures 0.8–1.0 in plain, warm and cool light; a
tile's black body that a grid a tile off reads as a "symbol" is far darker."""


def pale_paint(colors: Sequence[np.ndarray], pale: Mapping[str, tuple[float, float]]
               ) -> bool:
    """True when every colour (linear RGB) may be a taught colourless paint
    (`pale`: colour -> (saturation, value)): none darker than `DIM` of the
    dimmest taught."""
    if not pale or not colors:
        return False
    least = DIM * min(value for _, value in pale.values())
    return all(hsv(np.asarray(c))[2] >= least for c in colors)


def hsv(lin: np.ndarray) -> tuple[float, float, float]:
    """Return (hue degrees, saturation, value) of a linear RGB colour, as a
    phone's sRGB photo shows it."""
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
    """Each colour's range: the usual one, or around what the table taught; a
    taught colour keeps its neighbours out of its place, sharply (the table
    showed where it lies)."""
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

    `anchors` gives the stored colour of symbols that are recognised stored
    tiles (by index); `learnt` each colour's (mean hue, spread) as the
    table's confirmed moves taught it; `pale` each colour they taught as a
    colourless paint, its (mean saturation, mean value): a symbol nearer its
    saturation than paint's is that colour, whatever its hue."""
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
        if i in anchors and anchors[i] != color:
            # A lamp washed its paint, or the set's white is not what the
            # table taught.
            sure = min(sure, GUESS)
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
            if forward:
                before = prev[:s]
            else:
                before = prev[s + 1:]
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
