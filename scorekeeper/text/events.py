"""Club nights: their standings, ratings, dates and deletion."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from babel import dates

from .. import i18n
from ..i18n import gettext, ngettext
from .numbers import decimal


def standings_labels() -> dict[str, str]:
    """Return the column headings of a club night's standings."""
    return {
        "rank": gettext("Place"),
        "name": gettext("Player"),
        "games": gettext("Games"),
        "wins": gettext("Wins"),
        "points": gettext("Points"),
        "rating": gettext("Rating"),
        "value": gettext("Value"),
    }


def event_delete_note(games: int) -> str:
    """Return what deleting a club night does to its games (they stay)."""
    if not games:
        return gettext("The club night has no games: nothing else goes with it.")
    # The singular names no number: "its 1 game" is not how one thing is
    # counted, in English or in the catalogs.
    return ngettext(
        "Its game stays in the history, outside any club night; only the evening"
        " and its standings are deleted.",
        "Its %(num)d games stay in the history, outside any club night; only the"
        " evening and its standings are deleted.",
        games,
    )


def event_deleted(games: int) -> str:
    """Return the notice after a club night was deleted."""
    return ngettext(
        "Club night deleted; its game stays in the history.",
        "Club night deleted; its %(num)d games stay in the history.",
        games,
    )


def event_gone() -> str:
    """Say on a club night's open page or TV view that the night was deleted
    meanwhile (its games are never deleted with it)."""
    return gettext(
        "This club night was deleted. Its games are kept: you find them in the history."
    )


def season_delete_note(nights: int) -> str:
    """Return what deleting a season does to its nights (they stay)."""
    if not nights:
        return gettext("The season has no club nights: nothing else goes with it.")
    return ngettext(
        "Its club night stays, with its games, in no season; only the season,"
        " its roster and its standings are deleted.",
        "Its %(num)d club nights stay, with their games, in no season; only the"
        " season, its roster and its standings are deleted.",
        nights,
    )


def season_deleted(nights: int) -> str:
    """Return the notice after a season was deleted."""
    return ngettext(
        "Season deleted; its club night stays, in no season.",
        "Season deleted; its %(num)d club nights stay, in no season.",
        nights,
    )


def season_gone() -> str:
    """Say on a season's open TV view that the season was deleted meanwhile."""
    return gettext("This season was deleted. Its club nights are kept.")


def standings_title(name: str) -> str:
    """Return the heading of a club night's standings sheet."""
    return gettext("Standings: %(name)s", name=name)


def standings_note(finished: int, running: int) -> str:
    """Return what the standings count: finished games, and those still running."""
    done = ngettext("%(num)d finished game", "%(num)d finished games", finished)
    if not running:
        return done
    return ngettext(
        "%(done)s (%(num)d game still being played: not counted yet)",
        "%(done)s (%(num)d games still being played: not counted yet)",
        running, done=done,
    )


def rating_value(ordinal: float) -> str:
    """Return a rating as shown: its ordinal with one decimal."""
    return decimal(ordinal, 1)


def rating_detail(mu: float, sigma: float, games: int) -> str:
    """Return a rating's parts in words: mu plus or minus sigma, over n games."""
    return ngettext(
        "skill %(mu)s ± %(sigma)s (%(num)d rated game)",
        "skill %(mu)s ± %(sigma)s (%(num)d rated games)",
        games, mu=decimal(mu, 1), sigma=decimal(sigma, 1),
    )


def rating_chart_labels() -> dict[str, str]:
    """Return the rating chart's title and axis labels."""
    return {
        "title": gettext("Rating after each game"),
        "x": gettext("Rated games"),
        "y": gettext("Rating"),
        "band": gettext("skill ± 1 σ"),
    }


def day(value: str) -> str:
    """Return a calendar date ("2026-12-04") in the reader's language, e.g.
    "4 dec. 2026"; the text as given when it is not such a date."""
    try:
        moment = datetime.strptime(value, "%Y-%m-%d").date()
    except (TypeError, ValueError):
        return str(value)
    return str(dates.format_date(moment, "medium", locale=i18n.current().locale))


def scoring_names() -> dict[str, str]:
    """Return each standings scoring's name (engine.SCORINGS)."""
    return {
        "wins": gettext("Wins"),
        "placement": gettext("Placement"),
        "share": gettext("Share of the table"),
    }


def scoring_note(
    scoring: str, count_ended: bool, count_leavers: bool | None = None
) -> str:
    """Return how the standings were computed under the scoring (with how a
    player who left a game counts, when one night's choice says it)."""
    how = {
        "wins": gettext(
            "A win counts 1 (a shared top score is a win for each)."),
        "placement": gettext(
            "Each game counts 1 for every player at the table who finished"
            " below, a half for one level: a win at a table of 4 counts 3, of"
            " 2 counts 1."),
        "share": gettext(
            "Each game counts the player's score divided by the table's mean"
            " score."),
    }[scoring]
    ended = gettext("Games ended early count.") if count_ended else gettext(
        "Games ended early do not count.")
    note = gettext("%(how)s Ties: then points, then name. %(ended)s",
                   how=how, ended=ended)
    if count_leavers is None:
        return note
    left = gettext(
        "A player who left a game counts in it, below those still playing."
    ) if count_leavers else gettext(
        "A game counts without the players who left it.")
    return f"{note} {left}"


def ratings_as_of(day_: str) -> str:
    """Say that a night's ratings are as they stood at the end of that day."""
    return gettext("Ratings as they stood at the end of %(day)s.", day=day(day_))


def season_best(best: int | None) -> str:
    """Say which nights of a season count for each player."""
    if best is None:
        return gettext("Every night counts.")
    return ngettext("Each player's best night counts.",
                    "Each player's best %(num)d nights count.", best)


def players_merged(renamed: int, skipped: Sequence[int]) -> str:
    """Say what merging two players changed, and which games it left alone
    (both sat at them)."""
    done = ngettext("%(num)d game renamed.", "%(num)d games renamed.", renamed)
    if not skipped:
        return done
    return gettext("%(done)s Both sat at game(s) %(ids)s: left as they are.",
                   done=done, ids=", ".join(str(i) for i in skipped))
