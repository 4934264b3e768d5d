"""Why a photo could not be read: a small vocabulary of reasons (CONTRACT §12).
The web layer answers 422 `photo_unreadable` with the reason, its numbers,
and the text module's sentence on how to retake it (`text.photo_unreadable`:
the reader, below the text layer, says no sentence of its own)."""

from __future__ import annotations

REASONS: frozenset[str] = frozenset({
    "not_an_image", "too_large", "too_small", "blurred", "no_tiles", "no_match",
    "not_one_line", "not_read", "too_many_tiles",
    "teach_count", "teach_unread", "teach_alike", "teach_pale",
})
"""The reasons' codes."""


class PhotoUnreadable(ValueError):
    """A photo that cannot be read as a move; `.reason` says why, in a code."""

    code = "photo_unreadable"
    """The API's error code for every unreadable photo."""

    def __init__(self, reason: str, **params: object) -> None:
        if reason not in REASONS:
            raise ValueError(f"unknown photo reason {reason!r}")
        if reason == "too_large" and not {"limit", "megapixels"} & params.keys():
            # The sentence names the limit: without it, "at most 0 MB".
            raise ValueError("a too_large refusal names its limit")
        super().__init__(reason)
        self.reason = reason
        """One of REASONS."""
        self.params: dict[str, object] = dict(params)
        """The numbers the sentence names (sizes, counts, cells)."""

    def __str__(self) -> str:
        return f"{self.reason} {self.params}" if self.params else self.reason
