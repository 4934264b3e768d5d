"""The end of a game: how it ended, who won, and the score sheet's words."""

from __future__ import annotations

from collections.abc import Sequence

from .. import engine
from ..i18n import gettext, ngettext
from .discipline import keep_marks
from .units import by_unit

END_BONUS = engine.END_BONUS
"""The end bonus, as the sentences name it."""


def end_reason(
    reason: str, finisher: str | None = None,
    variant: engine.Variant = engine.CLASSIC,
) -> str:
    """Return how a game ended; `finisher` is who emptied their hand."""
    if reason == engine.EndReason.HAND_EMPTIED:
        name = finisher if finisher is not None else gettext("A player")
        return by_unit(variant, "last", name=name, n=END_BONUS)
    if reason == engine.EndReason.STALLED:
        return by_unit(variant, "stalled")
    if reason == engine.EndReason.ALL_PASSED:
        return gettext("Every player passed in turn: no end bonus.")
    if reason == engine.EndReason.EXCLUDED:
        return gettext(
            "Every other player was excluded, so one player is left: the game"
            " ends with no end bonus."
        )
    if reason == engine.EndReason.LEFT:
        return gettext(
            "Every other player has left the game, so one player is still in"
            " play: the game ends with no end bonus."
        )
    if reason == engine.EndReason.ENDED:
        return gettext("The table ended the game here: scored as it stood, no end"
                       " bonus.")
    if reason == engine.EndReason.ABANDONED:
        return gettext("The table abandoned the game: it has no result.")
    return reason


def final_reason(
    final: engine.Final, names: Sequence[str], variant: engine.Variant
) -> str:
    """Return how this game ended (end_reason with the finisher's name)."""
    seat = final.end_bonus_player
    return end_reason(
        final.reason.value, names[seat] if seat is not None else None, variant
    )


def winners_line(names: Sequence[str], winners: Sequence[int]) -> str:
    """Return "Winner: Ann" ("Winners: Ann, Bob" on a tie), or that the game runs."""
    if not winners:
        return gettext("Game still running")
    return ngettext(
        "Winner: %(names)s", "Winners: %(names)s", len(winners),
        names=", ".join(names[seat] for seat in winners),
    )


def sheet_title(game_id: int) -> str:
    """Return a printed score sheet's title."""
    return gettext("Qwirkle score sheet – game %(id)d", id=game_id)


def round_label() -> str:
    """Return the heading of a sheet's round column."""
    return gettext("Round")


def chart_title() -> str:
    """Return the score chart's title."""
    return gettext("Running totals per round")


def points_label() -> str:
    """Return the label of the chart's points axis."""
    return gettext("Points")


def total_label() -> str:
    """Return the heading of a sheet's total row."""
    return gettext("Total")


def qwirkles_label() -> str:
    """Return the heading of a sheet's row of Qwirkles per player."""
    return gettext("Qwirkles")


def sheet_legend(
    variant: engine.Variant, *, trade: str, passed: str, bonus: str, winner: str
) -> str:
    """Return the key to a score sheet's marks, given how the sheet writes them."""
    return keep_marks(gettext(
        "Q = Qwirkle (its %(q)d bonus points are included), %(bonus)s = end bonus"
        " (included), %(trade)s = trade, %(passed)s = pass, %(winner)s = winner.",
        q=variant.colors, bonus=bonus, trade=trade, passed=passed, winner=winner,
    ))
