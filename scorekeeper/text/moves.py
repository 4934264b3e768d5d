"""What a move did: its result, its points, its summary, a replay's step."""

from __future__ import annotations

from .. import engine
from ..engine.messages import N_, N_plural, Template
from ..i18n import gettext, ngettext
from .scores import breakdown, breakdown_and_said
from .tiles import color_letters, tile_name
from .units import by_unit

PENALTY_RESULTS: dict[tuple[str, str], Template] = {
    ("illegal", "lose_turn"): N_("illegal move: turn lost"),
    ("illegal", "deduct"): N_plural(
        "illegal move: %(num)d point deducted", "illegal move: %(num)d points deducted"
    ),
    ("illegal", "exclude"): N_("illegal move: excluded from the game"),
    ("timeout", "lose_turn"): N_("out of time: turn lost"),
    ("timeout", "deduct"): N_plural(
        "out of time: %(num)d point deducted", "out of time: %(num)d points deducted"
    ),
    ("timeout", "exclude"): N_("out of time: excluded from the game"),
}
"""What a penalty did (RULES §7), by its reason and consequence (a deduction's
sentence by its number of points)."""

PENALTY_COSTS: dict[str, Template] = {
    "lose_turn": N_("turn lost"),
    "deduct": N_plural("%(num)d point deducted", "%(num)d points deducted"),
    "exclude": N_("excluded from the game"),
}
"""What a penalty cost, by its consequence, for a line that has already said
its reason (the replay's "Penalty for an illegal move: turn lost")."""

PENALTY_SUMMARIES: dict[str, str] = {
    "illegal": N_("Penalty for an illegal move"),
    "timeout": N_("Penalty for running out of time"),
}
"""What a penalty move was, by its reason, without its consequence."""


def counted(template: Template, num: int) -> str:
    """Return a sentence or, for a (singular, plural) pair, the one num asks for,
    translated and filled in with num."""
    if isinstance(template, tuple):
        return ngettext(template[0], template[1], num)
    return gettext(template)


def move_result(move: engine.Move) -> str:
    """Return what a move did, after its player's name: the breakdown of a
    placing move, "traded 2", "passed", what a penalty cost or "left the game"."""
    if move.breakdown is not None:
        return breakdown(move.breakdown, move.end_bonus)
    if move.type == "trade":
        return gettext("traded %(n)d", n=move.count)
    if move.type == "penalty":
        return counted(PENALTY_RESULTS[(move.reason, move.consequence)], -move.score)
    if move.type == "leave":
        return gettext("left the game")
    return gettext("passed")


def result_and_breakdown(move: engine.Move) -> tuple[str, dict[str, object] | None]:
    """Return move_result(move) and, for a placing move, its breakdown as the
    API writes it (text.breakdown_json; None for any other move), each of its
    lines labelled once for both."""
    if move.breakdown is None:
        return move_result(move), None
    breakdown_data, said = breakdown_and_said(move.breakdown, move.end_bonus)
    return said, breakdown_data


def penalty_cost(move: engine.Move) -> str:
    """Return what a penalty move cost, without its reason: "turn lost",
    "3 points deducted", "excluded from the game"."""
    return counted(PENALTY_COSTS[move.consequence], -move.score)


def move_points(move: engine.Move) -> str:
    """Return a move in the score column's shorthand, the score sheet's own
    marks (templates/history/_sheet.html): "+7", "⇄ 2" for a trade, "–" for a
    pass, "−5" for a deduction, "!" for a turn lost, "✕" for an exclusion or a
    player who left. A
    player card holds it at 360 px with four players in every language; the
    last-move line says it in words."""
    if move.type == "place":
        return f"+{move.points}"
    if move.type == "trade":
        return f"⇄ {move.count}"
    if move.type == "penalty":
        if move.score:
            return f"−{-move.score}"
        return "✕" if move.excludes else "!"
    if move.type == "leave":
        return "✕"
    return "–"


def move_summary(move: engine.Move, variant: engine.Variant) -> str:
    """Return what a move was, without its score: "Placed 3 tiles", "Traded 2
    tiles", "Passed", "Penalty for an illegal move", "Left the game"."""
    if move.type == "place":
        return by_unit(variant, "placed", num=len(move.tiles))
    if move.type == "trade":
        return ngettext("Traded %(num)d tile", "Traded %(num)d tiles", move.count)
    if move.type == "penalty":
        return gettext(PENALTY_SUMMARIES[move.reason])
    if move.type == "leave":
        return gettext("Left the game")
    return gettext("Passed")


def replay_title(step: int, round_number: int, who: str) -> str:
    """Return a replay step's heading: "Move 5, round 3: Ann" (step 0: before)."""
    if step == 0:
        return gettext("Before the first move")
    return gettext("Move %(n)d, round %(r)d: %(who)s", n=step, r=round_number, who=who)


def points_word(points: int) -> str:
    """Return the word after a move's points, "point" or "points", by the
    language's plural rule for the number without its sign (a deduction too)."""
    return ngettext("point", "points", abs(points))


def replay_strings(variant: engine.Variant) -> dict[str, object]:
    """Return the words the replay page's script puts around each step's figures."""
    return {
        "qwirkle": gettext("Qwirkle!"),
        "next": gettext("next: %(who)s", who="%(who)s"),
        "out": gettext("excluded, not ranked"),
        "left": gettext("left the game, not ranked"),
        "tile_names": {
            f"{color} {shape}": tile_name(color, shape)
            for color, shape in variant.kinds
        },
        "letters": color_letters(variant),
    }
