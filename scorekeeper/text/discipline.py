"""Table discipline (RULES §7): penalties, exclusion, thinking time."""

from __future__ import annotations

from collections.abc import Sequence

from .. import engine
from ..engine.messages import N_, N_plural, Template
from ..i18n import gettext
from .moves import counted, move_points, move_result

CONSEQUENCES: dict[str, Template] = {
    "retry": N_("the player takes the move back and tries again"),
    "none": N_("nothing"),
    "lose_turn": N_("the turn passes"),
    "deduct": N_plural(
        "%(num)d point off and the turn passes",
        "%(num)d points off and the turn passes",
    ),
    "exclude": N_("the player leaves the game"),
}
"""What each table-discipline consequence does, as the form and the game page
name it."""


def consequence(name: str, points: int) -> str:
    """Return what a table-discipline consequence does: "5 points off and the
    turn passes"."""
    return counted(CONSEQUENCES[name], points)


def penalty_action(reason: str, name: str, options: engine.Options) -> str:
    """Name a penalty before it is recorded, with its consequence: "Illegal move
    by Ann: 5 points off and the turn passes"."""
    what = consequence(options.consequence(reason).value, options.penalty_points)
    if reason == engine.Reason.ILLEGAL:
        return gettext("Illegal move by %(name)s: %(what)s", name=name, what=what)
    return gettext("%(name)s is out of time: %(what)s", name=name, what=what)


def excluded_heading() -> str:
    """Return the heading of the players excluded from a game."""
    return gettext("Out of the game")


def excluded_note() -> str:
    """Say where an excluded player's score stands (RULES §7)."""
    return gettext(
        "Excluded players keep their points on the sheet but are not ranked."
    )


def thinking_time(seconds: int) -> str:
    """Return a thinking time as the countdown shows it: "0:30", "12:00"."""
    sign = "-" if seconds < 0 else ""
    seconds = abs(seconds)
    return f"{sign}{seconds // 60}:{seconds % 60:02d}"


def average_thinking(seconds: float | None) -> str:
    """Return an average thinking time: "23 s", "2:05 min" or "–"."""
    if seconds is None:
        return "–"
    whole = round(seconds)
    if whole < 60:
        return gettext("%(n)d s", n=whole)
    return gettext("%(time)s min", time=thinking_time(whole))


def countdown_strings() -> dict[str, str]:
    """Return the sentences countdown.js shows (it builds none of its own)."""
    return {"expired": gettext("Time is up!")}


def penalty_legend(*, penalty: str, excluded: str) -> str:
    """Return the key to a score sheet's penalty marks (only on a sheet that has
    penalties)."""
    return keep_marks(gettext(
        "%(penalty)s = penalty (a deduction counts in the points), %(excluded)s"
        " = excluded from the game (not ranked).",
        penalty=penalty, excluded=excluded,
    ))


def keep_marks(legend: str) -> str:
    """Join each mark of a legend to its "=" with a no-break space, so that a
    line (the PDF's too) never ends on a lone "★"."""
    return legend.replace(" = ", "\u00a0= ")


def move_line(move: engine.Move, names: Sequence[str]) -> str:
    """Return a move as one line: "Ann: red line 3 = 3", "Bob: traded 2"."""
    return gettext(
        "%(name)s: %(what)s", name=names[move.player], what=move_result(move)
    )


def last_points(game: engine.Game) -> list[str | None]:
    """Return, per seat, that player's latest move in shorthand (None: none yet)."""
    out: list[str | None] = [None] * game.players
    for move in reversed(game.moves):
        if out[move.player] is None:
            out[move.player] = move_points(move)
            if all(text is not None for text in out):
                break
    return out
