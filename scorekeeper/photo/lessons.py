"""What the table's confirmed moves taught the reader: its lessons.

Each confirmed move whose photo was read labels what its new tiles looked
like (`reader.Look`: a hue, a saturation and value, a four-fold measure)
with the kinds the players confirmed, and what the stored tiles it showed as
stored looked like with their stored kinds (`vouched_looks`). A few numbers
per kind are kept, for the game and for the installation: per colour the
sums that give a circular mean hue and its spread and the mean saturation
and value, per shape the mean and spread of its four-fold measure. The next
photo names its colours around where this table's paint and light put them
(`hues`), a colourless paint (a set whose sixth colour is white) by its want
of colour, and tells crisscrosses from starbursts between this table's own.

The numbers are plain (`Lesson` rows) so that the store keeps them without
knowing the reader; this module turns them into what the reader uses.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import NamedTuple

from .reading import PhotoReading


class Lesson(NamedTuple):
    """Sums over the examples of one kind: ("color", name) or ("shape", name)."""

    what: str
    """"color" or "shape"."""
    name: str
    n: int
    """How many confirmed tiles."""
    a: float
    """color: sum of cos(hue); shape: sum of four-fold."""
    b: float
    """color: sum of sin(hue); shape: sum of four-fold squared."""
    measured: int = 0
    """color: how many of the n had their saturation and value measured
    (lessons kept before they were are hue alone); shape: 0."""
    saturation: float = 0.0
    """color: sum of the measured saturations (`hues.hsv`)."""
    value: float = 0.0
    """color: sum of the measured values."""


MIN_COLOR = 1
"""Confirmed tiles of a colour that already teach where it lies."""

MIN_SHAPE = 2
"""Confirmed tiles of a shape that teach its outline's measure."""

MIN_SPREAD = 2.0
"""The least spread (degrees) a taught colour's hue is given: one colour's
print varies by a degree or two from tile to tile (`color_lessons.MIN_GAP`),
however alike its few examples."""

PALE = 0.35
"""A taught colour whose symbols' mean saturation is under this is a
colourless paint (white): its hue says nothing, its want of colour names it.
Real paint measures 0.5 and more (`hues.GREY`); the white tiles of the real
development set 0.15–0.21 under its lamp; this lies between the two."""


@dataclass(frozen=True)
class Taught:
    """What the reader uses from the lessons (empty: nothing taught yet)."""

    lessons: tuple[Lesson, ...] = field(default_factory=tuple)

    def hues(self) -> dict[str, tuple[float, float]]:
        """Each taught colour's (mean hue degrees, spread degrees); not a
        colourless one's (`pale`): its hue is the light's, not its paint's."""
        out = {}
        pale = self.pale()
        for lesson in self.lessons:
            if lesson.what != "color" or lesson.n < MIN_COLOR or lesson.name in pale:
                continue
            c, s = lesson.a / lesson.n, lesson.b / lesson.n
            mean = math.degrees(math.atan2(s, c)) % 360.0
            length = min(1.0, math.hypot(c, s))
            spread = math.degrees(math.sqrt(max(0.0, -2 * math.log(max(length, 1e-9)))))
            out[lesson.name] = (mean, max(spread, MIN_SPREAD))
        return out

    def pale(self) -> dict[str, tuple[float, float]]:
        """Each colour taught as a colourless paint: its (mean saturation,
        mean value)."""
        out = {}
        for lesson in self.lessons:
            if lesson.what != "color" or lesson.measured < MIN_COLOR:
                continue
            saturation = lesson.saturation / lesson.measured
            if saturation < PALE:
                out[lesson.name] = (saturation, lesson.value / lesson.measured)
        return out

    def four_fold(self) -> dict[str, tuple[float, float]]:
        """Each taught shape's (mean, spread) of its four-fold measure."""
        out = {}
        for lesson in self.lessons:
            if lesson.what != "shape" or lesson.n < MIN_SHAPE:
                continue
            mean = lesson.a / lesson.n
            var = max(0.0, lesson.b / lesson.n - mean * mean)
            out[lesson.name] = (mean, math.sqrt(var))
        return out

    @classmethod
    def combine(cls, game: Iterable[Lesson], everywhere: Iterable[Lesson]
                ) -> Taught:
        """The game's own lessons where it has them (its table, its light),
        else the installation's."""
        own = list(game)
        have = {(x.what, x.name) for x in own}
        return cls(tuple(own + [x for x in everywhere if (x.what, x.name) not in have]))

    @classmethod
    def from_rows(cls, rows: Iterable[Sequence[object]]) -> Taught:
        """Lessons from plain rows (what, name, count, a, b[, measured,
        saturation, value]), as a worker process receives them; a damaged row
        is left out."""
        out = []
        for row in rows:
            try:
                what, name, count, a, b, *paint = row
                measured, saturation, value = paint or (0, 0.0, 0.0)
                out.append(Lesson(str(what), str(name), int(count),  # type: ignore[call-overload]
                                  float(a), float(b), int(measured),  # type: ignore[arg-type,call-overload]
                                  float(saturation), float(value)))  # type: ignore[arg-type]
            except (TypeError, ValueError):
                continue
        return cls(tuple(out))


def vouched_looks(reading: PhotoReading, stored: Iterable[Sequence[object]]
                  ) -> list[dict[str, object]]:
    """The stored tiles' looks a reading shows as stored, each labelled with
    its kind ("color", "shape"): the players vouched for that board, so once
    they confirm the photo's move these teach as its new tiles do. A stored
    tile read otherwise teaches nothing: the page may be what is wrong."""
    kinds = {(int(str(r)), int(str(c))): (str(color), str(shape))
             for r, c, color, shape in stored}
    disputed = {(c.row, c.col) for c in reading.conflicts}
    return [{**look._asdict(), "color": kinds[cell][0], "shape": kinds[cell][1]}
            for look in reading.stored_looks
            if (cell := (look.row, look.col)) in kinds and cell not in disputed]


def lesson_sums(looks: Iterable[Mapping[str, object]],
                confirmed: Mapping[tuple[int, int], tuple[str, str]]
                ) -> list[Lesson]:
    """What looks (`reading.Look` as a mapping) on cells whose tile is known
    teach: each kind's count and sums. A look labelled with its kind (a
    stored tile's, `vouched_looks`) teaches that kind. A look without a
    saturation (kept before it was measured) teaches its colour's hue alone."""
    out: dict[tuple[str, str], Lesson] = {}

    def add(lesson: Lesson) -> None:
        key = (lesson.what, lesson.name)
        old = out.get(key)
        if old is not None:
            lesson = Lesson(lesson.what, lesson.name, old.n + lesson.n,
                            old.a + lesson.a, old.b + lesson.b,
                            old.measured + lesson.measured,
                            old.saturation + lesson.saturation,
                            old.value + lesson.value)
        out[key] = lesson

    for look in looks:
        try:
            cell = (int(str(look["row"])), int(str(look["col"])))
            hue = float(str(look["hue"]))
            four = float(str(look["four_fold"]))
            paint = (float(str(look["saturation"])), float(str(look["value"]))) \
                if look.get("saturation") is not None else None
        except (KeyError, ValueError):
            continue
        kind = confirmed.get(cell)
        if kind is None and look.get("color") is not None:
            kind = (str(look["color"]), str(look["shape"]))
        if kind is None or not (math.isfinite(hue) and math.isfinite(four)):
            continue
        rad = math.radians(hue)
        if paint is not None and all(math.isfinite(x) for x in paint):
            add(Lesson("color", kind[0], 1, math.cos(rad), math.sin(rad), 1, *paint))
        else:
            add(Lesson("color", kind[0], 1, math.cos(rad), math.sin(rad)))
        add(Lesson("shape", kind[1], 1, four, four * four))
    return list(out.values())
