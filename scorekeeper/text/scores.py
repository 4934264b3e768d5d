"""A move's score: its lines' labels and the breakdown the table says."""

from __future__ import annotations

from .. import engine
from ..engine.messages import N_
from ..i18n import gettext

LINE_LABELS: dict[tuple[str, str], str] = {
    ("color", "red"): N_("red line %(length)d"),
    ("color", "orange"): N_("orange line %(length)d"),
    ("color", "yellow"): N_("yellow line %(length)d"),
    ("color", "green"): N_("green line %(length)d"),
    ("color", "blue"): N_("blue line %(length)d"),
    ("color", "purple"): N_("purple line %(length)d"),
    ("color", "pink"): N_("pink line %(length)d"),
    ("color", "brown"): N_("brown line %(length)d"),
    ("shape", "circle"): N_("circle line %(length)d"),
    ("shape", "crisscross"): N_("crisscross line %(length)d"),
    ("shape", "diamond"): N_("diamond line %(length)d"),
    ("shape", "square"): N_("square line %(length)d"),
    ("shape", "starburst"): N_("starburst line %(length)d"),
    ("shape", "clover"): N_("clover line %(length)d"),
    ("shape", "heart"): N_("heart line %(length)d"),
    ("shape", "triangle"): N_("triangle line %(length)d"),
}
"""A scored line's label by what it shares, whole, so that a language can make
the colour agree with its word for line ("rote Reihe", "línea roja") or name
the shapes its own way ("rij van vierkanten")."""


def line_label(line: engine.LineScore) -> str:
    """Name a scored line as the rule book does: "red line 4", "red line 6 +
    Qwirkle 6", "single tile 1"."""
    if line.kind == "tile":
        return gettext("single tile %(n)d", n=line.points)
    label = gettext(LINE_LABELS[(line.kind, line.value)], length=line.length)
    if line.qwirkle:
        label += " + " + gettext("Qwirkle %(n)d", n=line.bonus)
    return label


def breakdown(score: engine.MoveScore, end_bonus: int = 0) -> str:
    """Return a placing move's score as the table says it: "red line 4 + square
    line 3 = 7" (the end bonus, when earned, as one more part)."""
    return _said([line_label(line) for line in score.lines], score, end_bonus)


def _said(labels: list[str], score: engine.MoveScore, end_bonus: int) -> str:
    parts = [*labels, gettext("end bonus %(n)d", n=end_bonus)] if end_bonus else labels
    return _summed(parts, score.points + end_bonus)


def _summed(parts: list[str], points: int) -> str:
    return " + ".join(parts) + f" = {points}"


def breakdown_json(score: engine.MoveScore) -> dict[str, object]:
    """Return a breakdown as the API writes it: the engine's data plus each
    line's `label` and the whole `summary` (end bonus excluded)."""
    # Each label is said once, for its line and for the summary both.
    return _labelled(score, [line_label(line) for line in score.lines])


def _labelled(score: engine.MoveScore, labels: list[str]) -> dict[str, object]:
    return {
        "points": score.points,
        "qwirkles": score.qwirkles,
        "lines": [
            {**line.to_dict(), "label": label}
            for line, label in zip(score.lines, labels, strict=True)
        ],
        "summary": _summed(labels, score.points),
    }


def breakdown_and_said(
    score: engine.MoveScore, end_bonus: int = 0
) -> tuple[dict[str, object], str]:
    """Return breakdown_json(score) and breakdown(score, end_bonus), each line
    labelled once for both (a move's answer gives both)."""
    labels = [line_label(line) for line in score.lines]
    return _labelled(score, labels), _said(labels, score, end_bonus)


def preview(result: engine.Preview) -> str:
    """Return what a pending move would score, and whether it ends the game."""
    text = breakdown(result.breakdown, result.end_bonus)
    if result.ends_game:
        text += " · " + gettext("ends the game")
    return text
