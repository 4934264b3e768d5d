"""The one rule for player names (CONTRACT §8): normalise, refuse, and key.

A name is written with every run of white space collapsed to one space, no
space at either end, in Unicode NFC; it holds no control characters, no
invisible format characters (zero-width space, bidirectional overrides, soft
hyphen, byte-order mark), no surrogates and nothing unassigned; it is 1 to 40
characters long. Two names with the same `name_key` are the same player.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence

from .errors import EngineError
from .tiles import Variant

MAX_NAME_LENGTH = 40
"""Longest player name (it must fit a phone's score column)."""

MIN_PLAYERS = 2
"""Smallest table."""

FORBIDDEN_CATEGORIES = frozenset({"Cc", "Cf", "Cs", "Cn"})
"""Unicode categories a name may not hold: control, format (invisible),
surrogate and unassigned characters."""

_SPACE = re.compile(r"\s+")


class InvalidName(EngineError):
    """A player name, or a table of names, the rule refuses."""

    def __init__(
        self, code: str, params: dict[str, object] | None = None,
        key: str | None = None,
    ) -> None:
        self.code = code
        """'name_empty', 'name_too_long', 'name_forbidden_character',
        'name_not_normal', 'names_duplicate' or 'players_count'."""
        super().__init__(key or code, params)


def _forbidden(text: str) -> str | None:
    for char in text:
        if unicodedata.category(char) in FORBIDDEN_CATEGORIES:
            return char
    return None


def character_name(char: str) -> str:
    """Return how a refused character is shown: its code point and Unicode name."""
    return f"U+{ord(char):04X} {unicodedata.name(char, '')}".rstrip()


def normalise_name(raw: str) -> str:
    """Return the name as stored: white space collapsed and trimmed, NFC.

    Raises InvalidName when the result is empty, too long, or holds a
    character no name may have.
    """
    if not isinstance(raw, str):
        raise InvalidName("name_empty")
    # Whitespace first: "\u2028" and friends are white space, not format chars.
    name = unicodedata.normalize("NFC", _SPACE.sub(" ", raw).strip())
    bad = _forbidden(name)
    if bad is not None:
        raise InvalidName(
            "name_forbidden_character",
            {"value": name[:MAX_NAME_LENGTH], "character": character_name(bad)},
        )
    if not name:
        raise InvalidName("name_empty")
    if len(name) > MAX_NAME_LENGTH:
        raise InvalidName(
            "name_too_long", {"value": name[:MAX_NAME_LENGTH] + "…",
                              "max": MAX_NAME_LENGTH},
        )
    return name


def name_key(name: str) -> str:
    """Return the key two names share when they are the same player.

    Case and spacing are ignored (CONTRACT §8): NFKC, all white space removed,
    case-folded, so "Ann Lee", "ann  lee" and "AnnLee" are one player.
    """
    return _SPACE.sub("", unicodedata.normalize("NFKC", name)).casefold()


def check_players(names: Sequence[str], variant: Variant) -> list[str]:
    """Return the table's names normalised; InvalidName if any or the table is bad.

    A table has 2 to variant.max_players names, each valid by normalise_name,
    no two with the same name_key.
    """
    low, high = MIN_PLAYERS, variant.max_players
    if not low <= len(names) <= high:
        raise InvalidName(
            "players_count", {"low": low, "high": high},
            "players_too_few" if len(names) < low else "players_too_many",
        )
    normal = [normalise_name(name) for name in names]
    seen: set[str] = set()
    for name in normal:
        key = name_key(name)
        if key in seen:
            raise InvalidName("names_duplicate", {"name": name})
        seen.add(key)
    return normal


def check_stored_players(names: Sequence[str], variant: Variant) -> list[str]:
    """Like check_players, but a name must already be in its normal form.

    Records and backups are written by this app, so their names are normal; a
    name that is not was edited by hand, and is refused rather than changed
    (an import must give back the game it was given).
    """
    normal = check_players(names, variant)
    for raw, name in zip(names, normal, strict=True):
        if raw != name:
            raise InvalidName("name_not_normal", {"value": raw, "normal": name})
    return normal


FALLBACK_NAME = "Player %d"
"""The name a stored name gets when the rule refuses it (with its seat number)."""


def repair_names(names: Sequence[str]) -> list[tuple[str, str]]:
    """Return each stored name as the rule would store it, with why it changed.

    For names written before the rule: a name is normalised; one the rule
    refuses becomes "Player N" (N its seat number from 1); a seat whose name is
    the same player as an earlier seat's gets a suffix (" 2", " 3", …). The
    reason is '' (unchanged), 'normalised', 'duplicate' or the refusal's code.
    """
    fixed: list[tuple[str, str]] = []
    for seat, raw in enumerate(names):
        try:
            name = normalise_name(raw)
            reason = "normalised" if name != raw else ""
        except InvalidName as exc:
            name, reason = FALLBACK_NAME % (seat + 1), exc.code
        fixed.append((name, reason))
    # A suffix may not make a name equal to another seat's, earlier or later.
    reserved = {name_key(name) for name, _ in fixed}
    taken: set[str] = set()
    for seat, (name, _reason) in enumerate(fixed):
        key = name_key(name)
        if key in taken:
            number = 2
            while True:
                suffix = f" {number}"
                candidate = name[: MAX_NAME_LENGTH - len(suffix)] + suffix
                key = name_key(candidate)
                if key not in taken and key not in reserved:
                    break
                number += 1
            fixed[seat] = (candidate, "duplicate")
        taken.add(key)
    return fixed
