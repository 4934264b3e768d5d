"""What the device says aloud after each move and at the end."""

from __future__ import annotations

from collections.abc import Sequence

from babel import Locale
from babel.lists import format_list

from .. import engine, i18n
from ..i18n import gettext, ngettext
from .moves import move_result

SPEECH_TAGS: dict[str, str] = {
    "en": "en-GB", "nl": "nl-NL", "de": "de-DE", "fr": "fr-FR", "es": "es-ES",
}
"""The voice each page language asks the browser for (en-GB: the app writes
British English)."""


def spoken_move(move: engine.Move, names: Sequence[str]) -> str:
    """Return what the device says after a move: "Ann: 12 points, Qwirkle!",
    "Bob traded 3 tiles.", "Ann passed."."""
    name = names[move.player]
    if move.type == "place":
        if move.qwirkles == 0:
            return ngettext("%(name)s: %(num)d point.", "%(name)s: %(num)d points.",
                            move.points, name=name)
        if move.qwirkles == 1:
            return ngettext("%(name)s: %(num)d point, Qwirkle!",
                            "%(name)s: %(num)d points, Qwirkle!",
                            move.points, name=name)
        return ngettext("%(name)s: %(num)d point, %(q)d Qwirkles!",
                        "%(name)s: %(num)d points, %(q)d Qwirkles!",
                        move.points, name=name, q=move.qwirkles)
    if move.type == "trade":
        return ngettext("%(name)s traded %(num)d tile.",
                        "%(name)s traded %(num)d tiles.", move.count, name=name)
    if move.type == "pass":
        return gettext("%(name)s passed.", name=name)
    return gettext("%(name)s, %(what)s.", name=name, what=move_result(move))


def spoken_list(items: Sequence[str]) -> str:
    """Return names joined as the language says them aloud: "Anna and Bob",
    "Anna en Bob", "Anna, Bob et Chris" (a bare comma sounds clipped)."""
    return str(format_list(list(items), locale=i18n.current().locale))


def spoken_end(final: engine.Final, names: Sequence[str]) -> str:
    """Return what the device says when the game ends: the winner, then every
    total in play, best first."""
    if not final.scored:
        return gettext("The game is over.")
    winners = final.winners
    totals = ", ".join(
        ngettext("%(name)s %(num)d point", "%(name)s %(num)d points", standing.score,
                 name=names[standing.seat])
        for standing in final.ranking()
    )
    return " ".join([
        ngettext("Game over. The winner is %(names)s.",
                 "Game over. The winners are %(names)s.", len(winners),
                 names=spoken_list([names[seat] for seat in winners])),
        gettext("Totals: %(totals)s.", totals=totals),
    ])


def spoken_last(game: engine.Game, names: Sequence[str]) -> str:
    """Return what the device says of the game's latest move ("" before the
    first), with the end when that move ended the game."""
    if not game.moves:
        return ""
    said = spoken_move(game.moves[-1], names)
    # A game the table ended or abandoned was not ended by its last move.
    if game.final is not None and game.final.reason not in engine.CLOSING:
        said += " " + spoken_end(game.final, names)
    return said


def speech_strings() -> dict[str, str]:
    """Return static/speech.js's own sentences (the moves' come with each state)."""
    return {
        "on": gettext("The score will be said aloud."),
        "no_voice": gettext(
            "This device has no %(language)s voice: it uses the nearest one"
            " (%(voice)s).", language="%(language)s", voice="%(voice)s",
        ),
        "blocked": gettext(
            "The browser speaks only once the page has been tapped: tap anywhere"
            " on it."
        ),
    }


def speech_voice() -> dict[str, str]:
    """Return the voice static/speech.js asks for: its language tag ("nl-NL")
    and the language's own name, for the sentence when the device lacks it."""
    code = i18n.current().code
    return {
        "lang": SPEECH_TAGS.get(code, code),
        "language": str(Locale.parse(code).get_display_name(code) or code),
    }
