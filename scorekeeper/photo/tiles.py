"""Name each symbol's colour and shape: the tiles read, and how sure each
reading is.

Takes the cells read as tiles (`cells.Cell`), the photo's classifier and
what the table was taught; gives a `ReadTile` per tile: its colour and
shape (`classify`), each with a confidence and its runners-up. What makes a
tile unsure is said here (`ReadTile.confidence`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from . import hues
from .cells import GLARE
from .cells import Cell as GridCell
from .classify import Classifier, Example
from .lessons import Taught
from .reading import Cell
from .shape_model import SURE

LOW_CONFIDENCE = 0.25
"""Confidence (0 to 1): below this a read tile is worth a second look (the
page marks it). The benchmark counts confident wrong readings against it."""

COLOUR_SURE = 0.5
"""Probability margin from which a colour is sure, as `shape_model.SURE`
for shapes: set on the calibration renders (`benchmarks/train_colours.py`)."""

DOUBTFUL = LOW_CONFIDENCE / 2
"""The confidence, at most, of a reading something else makes doubtful
(glare beside it, faint paint, a move that breaks the rules as read, a
shape the photo's stored tiles show misnamed): well under `LOW_CONFIDENCE`."""


@dataclass
class ReadTile:
    """One tile read in the photo's own grid."""

    cell: GridCell
    """The cell it was read from, with its symbol."""
    color: int = 0
    """Its colour, an index into the classifier's colours."""
    shape: int = 0
    """Its shape, an index into the classifier's shapes."""
    color_conf: float = 0.0
    """How sure its colour is, 0 (a toss-up) to 1."""
    shape_conf: float = 0.0
    """How sure its shape is, 0 (a toss-up) to 1."""
    color_scores: np.ndarray | None = None
    """How well it fits each colour, higher better (for its runners-up)."""
    shape_scores: np.ndarray | None = None
    """How well it fits each shape, higher better (for its runners-up)."""
    hsv: tuple[float, float, float] = (0.0, 1.0, 1.0)
    """Its symbol's hue (degrees), saturation and value (`hues.hsv`): what
    the table learns from."""
    glare: bool = False
    """Glare on or beside the symbol: its reading may be wrong."""
    faint: bool = False
    """Its symbol was found only as faint paint: its shape may be lost."""

    @property
    def confidence(self) -> float:
        """How sure the reading is: the lower of colour and shape, at most
        `DOUBTFUL` where glare or faint paint make it so."""
        conf = min(self.color_conf, self.shape_conf)
        if self.glare or self.faint:
            conf = min(conf, DOUBTFUL)
        return round(float(conf), 3)

    def likely(self, clf: Classifier) -> tuple[tuple[str, str], ...]:
        """The kinds it may be, best first (itself first), when uncertain."""
        if self.confidence >= LOW_CONFIDENCE:
            return ()
        colors = _ranked(self.color_scores, self.color, self.color_conf)
        shapes = _ranked(self.shape_scores, self.shape, self.shape_conf)
        kinds = sorted(((pc * ps, c, s) for c, pc in colors for s, ps in shapes),
                       key=lambda x: -x[0])
        out = [(clf.colors[self.color], clf.shapes[self.shape])]
        for _, c, s in kinds:
            kind = (clf.colors[c], clf.shapes[s])
            if kind not in out:
                out.append(kind)
        return tuple(out[:4])


def _ranked(scores: np.ndarray | None, best: int, conf: float
            ) -> list[tuple[int, float]]:
    """A reading's two or three likeliest values with rough weights: the one
    read, then the runners-up, weighted by how unsure the reading was."""
    if scores is None:
        return [(best, 1.0)]
    order = [int(k) for k in np.argsort(-np.asarray(scores)) if int(k) != best][:2]
    doubt = 1.0 - conf
    return [(best, 1.0)] + [(k, doubt * (0.6 if i == 0 else 0.3))
                            for i, k in enumerate(order)]


def name_colours(reads: dict[Cell, ReadTile], clf: Classifier,
                 stored: Sequence[Example], taught: Taught) -> None:
    """Name each read tile's colour (`Classifier.colours`), the read tiles
    that lie on stored ones (`stored`) and the taught colours as examples."""
    keys = [key for key, rd in reads.items()
            if rd.cell.color is not None and rd.cell.mask is not None]
    rgb = np.array([reads[key].cell.color for key in keys]).reshape(-1, 3)
    for key, seen in zip(keys, rgb, strict=True):
        reads[key].hsv = hues.hsv(seen)
    named = clf.colours(rgb, light(reads), keys, [*_taught(taught), *stored])
    for key, colour in zip(keys, named, strict=True):
        rd = reads[key]
        rd.color, rd.color_conf = colour.index, sureness(colour.confidence, COLOUR_SURE)
        rd.color_scores = colour.scores


def light(reads: dict[Cell, ReadTile]) -> np.ndarray:
    """The photo's light: the median colour of its read tiles' bodies
    (linear RGB, `colour_model.features`), white where none was measured."""
    bodies = [rd.cell.black for rd in reads.values() if rd.cell.black is not None]
    return np.median(np.array(bodies), axis=0) if bodies else np.ones(3)


def name_shapes(reads: dict[Cell, ReadTile], clf: Classifier) -> None:
    """Name each read tile's shape (`Classifier.shape`): the photo's stored
    tiles do not change it, so it is named once."""
    for rd in reads.values():
        if rd.cell.color is not None and rd.cell.mask is not None:
            shape = clf.shape(rd.cell.mask)
            rd.shape, rd.shape_conf = shape.index, sureness(shape.confidence)
            rd.shape_scores = shape.scores


def _taught(taught: Taught) -> list[Example]:
    """The taught colours whose paint was measured as examples of them
    (`Classifier.colours`): a lesson kept before then knows only a hue."""
    return [Example(hues.linear(hue, sat, val), color)
            for color, (hue, sat, val) in taught.paints().items()
            if sat is not None and val is not None]


def sureness(margin: float, sure: float = SURE) -> float:
    """A confidence (0 to 1) for a model's probability margin: `sure`
    (`shape_model.SURE` for shapes, `COLOUR_SURE` for colours) is `LOW_CONFIDENCE`, the
    rest stretched on either side."""
    if margin < sure:
        return max(0.0, margin) / sure * LOW_CONFIDENCE
    return LOW_CONFIDENCE + (margin - sure) / (1 - sure) * (1 - LOW_CONFIDENCE)


def under_glare(key: Cell, cells: dict[Cell, GridCell]) -> bool:
    """True when glare blew out the cell or one beside it."""
    r, c = key
    return any((n := cells.get((r + dr, c + dc))) is not None and n.glare >= GLARE
               for dr in (-1, 0, 1) for dc in (-1, 0, 1) if not (dr and dc))
