"""What the table's confirmed moves taught the reader: its lessons.

A confirmed move labels what its new tiles looked like (`reading.Look`) and
what the stored tiles its photo showed as stored looked like
(`vouched_looks`); per colour, for the game and the installation, the store
keeps a few sums (`Lesson`, plain rows): its hue's cosine and sine, its
saturation and value. `Taught` turns them into what the reader uses. Shapes
teach nothing: the "shape" rows older stores hold are read by nothing.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, NamedTuple

from .reading import PhotoReading


class Lesson(NamedTuple):
    """Sums over the examples of one colour: ("color", name)."""

    what: str
    """"color" (older stores hold "shape" rows too, read by nothing)."""
    name: str
    n: int
    """How many confirmed tiles."""
    a: float
    """Sum of cos(hue)."""
    b: float
    """Sum of sin(hue)."""
    measured: int = 0
    """How many of the n had saturation and value measured."""
    saturation: float = 0.0
    """Sum of the measured saturations (`hues.hsv`)."""
    value: float = 0.0
    """Sum of the measured values."""

    @classmethod
    def of(cls, color: str, hue: float, paint: tuple[float, float] | None = None,
           weight: int = 1) -> Lesson:
        """`weight` tiles of a colour seen at a hue (degrees), and at a
        (saturation, value) where measured."""
        rad = math.radians(hue)
        measured = weight if paint is not None else 0
        sat, val = paint or (0.0, 0.0)
        return cls("color", color, weight, weight * math.cos(rad),
                   weight * math.sin(rad), measured, measured * sat, measured * val)


PALE = 0.35
"""Saturation: a taught colour under it is a colourless paint (white). Paint
measures 0.5 and more, the real development set's white 0.15–0.21."""


@dataclass(frozen=True)
class Taught:
    """What the reader uses from the lessons (empty: nothing taught yet)."""

    lessons: tuple[Lesson, ...] = field(default_factory=tuple)

    def paints(self) -> dict[str, tuple[float, float | None, float | None]]:
        """Each taught colour's (circular mean hue degrees, saturation, value)
        as its photos showed them; saturation and value None where not
        measured (a lesson kept before they were)."""
        out: dict[str, tuple[float, float | None, float | None]] = {}
        for lesson in self.lessons:
            if lesson.what != "color":
                continue
            hue = math.degrees(math.atan2(lesson.b, lesson.a)) % 360.0
            m = lesson.measured
            out[lesson.name] = (hue, lesson.saturation / m, lesson.value / m) if m \
                else (hue, None, None)
        return out

    def pale(self) -> dict[str, tuple[float, float]]:
        """Each colour taught as a colourless paint: (saturation, value)."""
        return {name: (sat, val) for name, (_, sat, val) in self.paints().items()
                if sat is not None and val is not None and sat < PALE}

    def hues(self) -> dict[str, float]:
        """Each taught colour's mean hue, degrees; not a colourless one's
        (`pale`), whose hue is its light's."""
        pale = self.pale()
        return {name: hue for name, (hue, _, _) in self.paints().items()
                if name not in pale}

    @classmethod
    def combine(cls, game: Iterable[Lesson], everywhere: Iterable[Lesson]
                ) -> Taught:
        """The game's own lessons where it has them, else the installation's."""
        own = list(game)
        have = {(x.what, x.name) for x in own}
        return cls(tuple(own + [x for x in everywhere if (x.what, x.name) not in have]))

    @classmethod
    def from_rows(cls, rows: Iterable[Sequence[Any]]) -> Taught:
        """Lessons from plain rows (`Lesson`'s fields; the last three may be
        missing), as a worker process receives them; a damaged row is left out."""
        out = []
        for row in rows:
            try:
                what, name, count, a, b, *paint = row
                measured, saturation, value = paint or (0, 0.0, 0.0)
                out.append(Lesson(str(what), str(name), int(count), float(a), float(b),
                                  int(measured), float(saturation), float(value)))
            except (TypeError, ValueError):
                continue
        return cls(tuple(out))


def vouched_looks(reading: PhotoReading, stored: Iterable[Sequence[object]]
                  ) -> list[dict[str, object]]:
    """The looks of the stored tiles a reading shows as stored, labelled with
    their kind ("color", "shape"): once the players confirm the move, the
    board they vouched for teaches too. A stored tile read otherwise teaches
    nothing: the page may be what is wrong."""
    kinds = {(int(str(r)), int(str(c))): (str(color), str(shape))
             for r, c, color, shape in stored}
    disputed = {(c.row, c.col) for c in reading.conflicts}
    return [{**look._asdict(), "color": kinds[cell][0], "shape": kinds[cell][1]}
            for look in reading.stored_looks
            if (cell := (look.row, look.col)) in kinds and cell not in disputed]


def lesson_sums(looks: Iterable[Mapping[str, object]],
                confirmed: Mapping[tuple[int, int], tuple[str, str]]
                ) -> list[Lesson]:
    """What looks (`reading.Look` as mappings) on cells whose tile is known
    teach; a look labelled with its kind (a stored tile's, `vouched_looks`)
    teaches that kind, one without a saturation its colour's hue alone."""
    out: dict[str, Lesson] = {}
    for look in looks:
        try:
            cell = (int(str(look["row"])), int(str(look["col"])))
            hue = float(str(look["hue"]))
            paint = (float(str(look["saturation"])), float(str(look["value"]))) \
                if look.get("saturation") is not None else None
        except (KeyError, ValueError):
            continue
        kind = confirmed.get(cell)
        if kind is None and look.get("color") is not None:
            kind = (str(look["color"]), str(look["shape"]))
        if kind is None or not math.isfinite(hue):
            continue
        measured = paint is not None and all(map(math.isfinite, paint))
        lesson = Lesson.of(kind[0], hue, paint if measured else None)
        old = out.get(lesson.name)
        out[lesson.name] = lesson if old is None else Lesson._make(
            (*old[:2], *(x + y for x, y in zip(old[2:], lesson[2:], strict=True))))
    return list(out.values())
