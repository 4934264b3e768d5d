"""A photo of the board (CONTRACT §12): why it was refused, what it gave."""

from __future__ import annotations

from collections.abc import Sequence

from ..engine.messages import N_
from ..i18n import gettext, ngettext
from .numbers import decimal
from .tiles import WORDS, tile_name

PHOTO_REASONS: dict[str, str] = {
    "not_an_image": N_(
        "The file is not a JPEG or PNG photo. Take the photo again with the camera"
        " and send it as it is."
    ),
    "too_large_bytes": N_(
        "The photo is too large (%(size)s MB). Send a photo of at most %(limit)d MB."
    ),
    "too_large_pixels": N_(
        "The photo is too large (%(width)d × %(height)d pixels). Send a photo of at"
        " most %(limit)d megapixels."
    ),
    "too_small": N_(
        "The photo is too small to read the tiles (%(width)d × %(height)d pixels)."
        " Take it closer, so that the board fills most of the picture."
    ),
    "too_small_tiles": N_(
        "The tiles are too small in the photo (%(pixels)d pixels across). Take it"
        " closer, so that the board fills most of the picture."
    ),
    "blurred": N_(
        "The photo is too blurred to read the tiles. Hold the phone still, let it"
        " focus on the board and take it again."
    ),
    "no_tiles": N_(
        "No Qwirkle tiles were found in the photo. Take it from straight above,"
        " with the whole board in the picture and enough light."
    ),
    "no_match": N_(
        "The tiles in the photo do not match the board as it is stored (%(matched)d"
        " of %(stored)d recognised). Take the whole board from above, in even"
        " light, and check the board on the page."
    ),
    "not_one_line": N_(
        "The new tiles in the photo do not form one line next to the board. Check"
        " the tiles on the table, or enter the move by hand."
    ),
    "first_move_not_a_line": N_(
        "The tiles in the photo do not read as one first move. Lay the first"
        " move's tiles side by side in one line, touching, then take the photo"
        " again, or enter the move by hand."
    ),
    "not_read": N_(
        "The photo could not be read. Take it again from straight above, with the"
        " whole board in the picture and enough light."
    ),
    "teach_alike": N_(
        "Two of the tiles are too alike in colour to tell apart. Lay out one tile"
        " of each colour, and take the photo again in even light."
    ),
    "teach_pale": N_(
        "A tile's colour is washed out (glare or too much light). Take the photo"
        " again without the reflection."
    ),
}
"""Why a photo could not be read, by the photo reader's reason code (the size
refusals split by what was too large), each saying how to retake it."""


def _whole(value: object) -> int:
    """Return a parameter as a whole number (0 when it is none)."""
    return value if isinstance(value, int) and not isinstance(value, bool) else 0


def photo_unreadable(reason: str, params: dict[str, object]) -> str:
    """Return why a photo could not be read and how to retake it, in the page's
    language, from the reader's reason code and parameters."""
    key = reason
    values: dict[str, object] = {}
    if reason in ("not_one_line", "too_many_tiles") and params.get("first_move"):
        # On an empty board nothing anchors the line: tiles laid apart or
        # with the table showing between read as more, or as none in a line.
        key = "first_move_not_a_line"
    elif reason == "too_large":
        if "width" in params:
            key = "too_large_pixels"
            values = {"width": _whole(params.get("width")),
                      "height": _whole(params.get("height")),
                      "limit": _whole(params.get("megapixels"))}
        else:
            size = params.get("megabytes")
            key = "too_large_bytes"
            values = {"size": decimal(size if isinstance(size, float | int) else None),
                      "limit": _whole(params.get("limit"))}
    elif reason == "too_small" and "tile_pixels" in params:
        key = "too_small_tiles"
        values = {"pixels": _whole(params.get("tile_pixels"))}
    elif reason == "too_small":
        values = {"width": _whole(params.get("width")),
                  "height": _whole(params.get("height"))}
    elif reason == "no_match":
        values = {"matched": _whole(params.get("matched")),
                  "stored": _whole(params.get("stored"))}
    elif reason == "teach_unread":
        return ngettext(
            "The colour of %(num)d tile could not be read: too dark or too small in"
            " the photo. Take it closer, in more light.",
            "The colour of %(num)d tiles could not be read: too dark or too small in"
            " the photo. Take it closer, in more light.",
            max(1, _whole(params.get("count"))),
        )
    elif reason == "teach_count":
        return ngettext(
            "%(num)d tile was found in the photo, not %(expected)d. Lay out one"
            " tile of each colour, a little apart, and take the photo again from"
            " above, close enough that they fill most of it.",
            "%(num)d tiles were found in the photo, not %(expected)d. Lay out one"
            " tile of each colour, a little apart, and take the photo again from"
            " above, close enough that they fill most of it.",
            _whole(params.get("count")), expected=_whole(params.get("expected")),
        )
    elif reason == "too_many_tiles":
        return ngettext(
            "The photo shows %(num)d new tile, more than one move can place"
            " (%(limit)d). Check the board on the page, or take the photo again"
            " with the whole board in the picture.",
            "The photo shows %(num)d new tiles, more than one move can place"
            " (%(limit)d). Check the board on the page, or take the photo again"
            " with the whole board in the picture.",
            _whole(params.get("count")), limit=_whole(params.get("limit")),
        )
    template = PHOTO_REASONS.get(key, PHOTO_REASONS["not_read"])
    return gettext(template, **values)


def photo_summary(count: int, unsure: int) -> str:
    """Return what a read photo gave: how many new tiles, how many to check."""
    if not count:
        return gettext(
            "The photo shows no new tile next to the board. Place the move on the"
            " table, then take the photo again, or enter the move by hand."
        )
    read = ngettext(
        "%(num)d tile read from the photo: check it, then confirm.",
        "%(num)d tiles read from the photo: check them, then confirm.", count,
    )
    if not unsure:
        return read
    return read + " " + ngettext(
        "%(num)d tile is uncertain and marked: tap it to fix it if it is wrong.",
        "%(num)d tiles are uncertain and marked: tap one to fix it if it is wrong.",
        unsure,
    )


def photo_unsure_label(color: str, shape: str, row: int, col: int) -> str:
    """Return a screen reader's words for a tile the photo left uncertain."""
    return gettext("Uncertain from the photo: %(tile)s", tile=tile_name(color, shape))


def photo_conflicts(conflicts: Sequence[tuple[int, int, str, str, str, str]]) -> str:
    """Return a warning for stored tiles the photo shows otherwise (row, col,
    stored colour, stored shape, seen colour, seen shape): the table and the
    page may have drifted apart ("" when there are none)."""
    if not conflicts:
        return ""
    if len(conflicts) == 1:
        _r, _c, color, shape, seen_color, seen_shape = conflicts[0]
        return gettext(
            "On the photo: %(seen)s; on the page: %(stored)s. Check that the table"
            " and the page agree.",
            seen=tile_name(seen_color, seen_shape), stored=tile_name(color, shape),
        )
    return ngettext(
        "The photo shows %(num)d stored tile differently from the page: check that"
        " the table and the page agree.",
        "The photo shows %(num)d stored tiles differently from the page: check that"
        " the table and the page agree.",
        len(conflicts),
    )


def photo_glare(cells: Sequence[tuple[int, int]]) -> str:
    """Return a warning for glare over the board at these cells ("" when
    there is none): a tile there may be missing or misread."""
    if not cells:
        return ""
    return ngettext(
        "Glare on the photo at %(cells)s: a tile there may be missing or misread."
        " Check the move, or take the photo again without the reflection.",
        "Glare on the photo at %(cells)s: tiles there may be missing or misread."
        " Check the move, or take the photo again without the reflection.",
        len(cells), cells=WORDS.cells(list(cells)),
    )


def photo_unread(cells: Sequence[tuple[int, int]]) -> str:
    """Return a warning for tiles the photo shows whose symbols could not be
    read ("" when there are none): they may be missing from the move. Dim
    light leaves a symbol unread, and so does a slant, whose far cells the
    reader's lattice may fall short of (docs/PHOTO.md): the sentence asks
    for both."""
    if not cells:
        return ""
    return ngettext(
        "At %(cells)s the photo shows a tile whose symbol could not be read: it"
        " may be missing from the move. Check the move, or take the photo again"
        " from above, in even light.",
        "At %(cells)s the photo shows tiles whose symbols could not be read: they"
        " may be missing from the move. Check the move, or take the photo again"
        " from above, in even light.",
        len(cells), cells=WORDS.cells(list(cells)),
    )


def photo_too_often(seconds: int) -> str:
    """Return why a photo was turned away for this device's or game's photo rate
    (429), and when the next may be sent."""
    return ngettext(
        "Photos are coming too fast from this device or for this game. Send the"
        " next one in %(num)d second.",
        "Photos are coming too fast from this device or for this game. Send the"
        " next one in %(num)d seconds.",
        seconds,
    )


def photo_strings() -> dict[str, str]:
    """Return the sentences the page's photo script shows (it builds none)."""
    return {
        "reading": gettext("Reading the photo…"),
        "failed": gettext("The photo could not be sent (%(status)s). Try again."),
        "offline": gettext("No connection to the scorekeeper. Try again."),
        "busy": gettext(
            "Another photo is being read. Try again in a moment."
        ),
    }
