"""What the server says when it refuses a new game to keep the table going."""

from __future__ import annotations

from ..i18n import gettext, ngettext


def too_many_games(seconds: int) -> str:
    """Return why a device was refused a new game for starting too many (429),
    and when the next may be started."""
    return ngettext(
        "Too many new games from this device. Start the next one in %(num)d"
        " second.",
        "Too many new games from this device. Start the next one in %(num)d"
        " seconds.",
        seconds,
    )


def night_full(limit: int) -> str:
    """Return why a club night takes no more tables: it holds `limit`."""
    return ngettext(
        "This club night already has its %(num)d table: start another club"
        " night for more.",
        "This club night already has its %(num)d tables: start another club"
        " night for more.",
        limit,
    )


def no_room_for_games() -> str:
    """Return why no new game is started while the disk is nearly full (507)."""
    return gettext(
        "The disk of the computer running the scorekeeper is nearly full: no new"
        " game is started, so that the games being played can still store their"
        " moves. Free some space on it, then try again."
    )
