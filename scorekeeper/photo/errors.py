"""Why a photo could not be read: a small vocabulary of reasons (CONTRACT §12),
each with an English sentence on how to retake it (the web layer answers 422
`photo_unreadable` and translates the reason from its code and parameters)."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping

REASONS: Mapping[str, str] = {
    "not_an_image": "The file is not a JPEG or PNG photo. Take the photo again"
                    " with the camera and send it as it is.",
    "too_large": "The photo is too large ({detail}). Send a photo of at most"
                 " {limit}.",
    "too_small": "The photo is too small to read the tiles ({detail}). Take it"
                 " closer, so that the board fills most of the picture.",
    "blurred": "The photo is too blurred to read the tiles. Hold the phone still,"
               " let it focus on the board and take it again.",
    "no_tiles": "No Qwirkle tiles were found in the photo. Take it from straight"
                " above, with the whole board in the picture and enough light.",
    "no_match": "The tiles in the photo do not match the board as it is stored"
                " ({matched} of {stored} tiles recognised). Take the whole board"
                " from above, in even light, and check the board on the page.",
    "not_one_line": "The new tiles in the photo ({cells}) do not form one line"
                    " next to the board. Check the tiles on the table, or enter"
                    " the move by hand.",
    "not_read": "The photo could not be read. Take it again from straight above,"
                " with the whole board in the picture and enough light.",
    "too_many_tiles": "The photo shows {count} new tiles, more than one move can"
                      " place ({limit}). Check the board on the page, or take the"
                      " photo again with the whole board in the picture.",
    "teach_count": "{count} tiles were found in the photo, not {expected}. Lay"
                   " out one tile of each colour, a little apart, and take the"
                   " photo again from above, close enough that they fill most"
                   " of it.",
    "teach_unread": "The colour of {count} tile(s) could not be read: too dark"
                    " or too small in the photo. Take it closer, in more light.",
    "teach_alike": "Two of the tiles are too alike in colour to tell apart."
                   " Lay out one tile of each colour, and take the photo again"
                   " in even light.",
    "teach_pale": "A tile's colour is washed out (glare or too much light)."
                  " Take the photo again without the reflection.",
}
"""Each reason code with its English sentence; `{name}` marks a parameter."""


class PhotoUnreadable(ValueError):
    """A photo that cannot be read as a move; `.reason` says why, in a code."""

    code = "photo_unreadable"
    """The API's error code for every unreadable photo."""

    def __init__(self, reason: str, **params: object) -> None:
        if reason not in REASONS:
            raise ValueError(f"unknown photo reason {reason!r}")
        self.reason = reason
        """One of REASONS' codes."""
        self.params: dict[str, object] = dict(params)
        """The values the sentence names (numbers, cells, sizes)."""
        # A parameter the sentence names but the caller left out reads "?".
        values = defaultdict(lambda: "?", {k: _say(v) for k, v in params.items()})
        super().__init__(REASONS[reason].format_map(values))

    @property
    def sentence(self) -> str:
        """The English sentence: what is wrong and how to retake the photo."""
        return str(self)


def _say(value: object) -> str:
    """Render a parameter for the English sentence."""
    if isinstance(value, list | tuple) and value and isinstance(value[0], tuple):
        return ", ".join(f"({r}, {c})" for r, c, *_ in value)
    return str(value)

