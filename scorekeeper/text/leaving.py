"""A player who leaves a running game (RULES §7.5): the page's question and
the words that mark them on the scoreboard, the score sheet and the replay."""

from __future__ import annotations

from ..i18n import gettext, ngettext


def leave_note(name: str, score: int) -> str:
    """Say what leaving does, before the table confirms it."""
    return ngettext(
        "%(name)s's tiles go back into the bag and the others play on;"
        " %(name)s keeps %(num)d point on the sheet, outside the ranking.",
        "%(name)s's tiles go back into the bag and the others play on;"
        " %(name)s keeps %(num)d points on the sheet, outside the ranking.",
        score, name=name,
    )


def left_heading() -> str:
    """Return the heading of the players who left a game."""
    return gettext("Players who left")


def left_note() -> str:
    """Say where the score of a player who left stands (RULES §7.5)."""
    return gettext(
        "A player who left keeps their points on the sheet but is not ranked."
    )


def left_legend(mark: str) -> str:
    """Return the key to a score sheet's mark of a player who left."""
    return gettext("%(left)s = left the game (not ranked).", left=mark)
