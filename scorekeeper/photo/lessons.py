"""What the table's confirmed moves taught the reader: its lessons.

Each confirmed move whose photo was read labels what its new tiles looked
like (`reader.Look`: a hue, a four-fold measure) with the kinds the players
confirmed. A few numbers per kind are kept, for the game and for the
installation: per colour the sums that give a circular mean hue and its
spread, per shape the mean and spread of its four-fold measure. The next
photo names its colours around where this table's paint and light put them
(`hues`) and tells crisscrosses from starbursts between this table's own.

The numbers are plain (`Lesson` rows) so that the store keeps them without
knowing the reader; this module turns them into what the reader uses.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import NamedTuple


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


MIN_COLOR = 1
"""Confirmed tiles of a colour that already teach where it lies."""

MIN_SHAPE = 2
"""Confirmed tiles of a shape that teach its outline's measure."""


@dataclass(frozen=True)
class Taught:
    """What the reader uses from the lessons (empty: nothing taught yet)."""

    lessons: tuple[Lesson, ...] = field(default_factory=tuple)

    def hues(self) -> dict[str, tuple[float, float]]:
        """Each taught colour's (mean hue degrees, spread degrees)."""
        out = {}
        for lesson in self.lessons:
            if lesson.what != "color" or lesson.n < MIN_COLOR:
                continue
            c, s = lesson.a / lesson.n, lesson.b / lesson.n
            mean = math.degrees(math.atan2(s, c)) % 360.0
            length = min(1.0, math.hypot(c, s))
            spread = math.degrees(math.sqrt(max(0.0, -2 * math.log(max(length, 1e-9)))))
            out[lesson.name] = (mean, max(spread, 2.0))
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
        """Lessons from plain rows (what, name, count, a, b), as a worker
        process receives them; a damaged row is left out."""
        out = []
        for row in rows:
            try:
                what, name, count, a, b = row
                out.append(Lesson(str(what), str(name), int(count),  # type: ignore[call-overload]
                                  float(a), float(b)))  # type: ignore[arg-type]
            except (TypeError, ValueError):
                continue
        return cls(tuple(out))
