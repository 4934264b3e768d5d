"""Names near one another (a typo is not a new player): "Chloe" beside
"Chloé", "chloe" or "Chlore" is probably the same person. Plain text in, the
known names it may have meant out."""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable

from .names import name_key


def folded(name: str) -> str:
    """Return the name's key without accents ("Chloé" -> "chloe")."""
    decomposed = unicodedata.normalize("NFKD", name_key(name))
    return "".join(ch for ch in decomposed if not unicodedata.combining(ch))


def one_letter_apart(a: str, b: str) -> bool:
    """Return whether b is a with one letter changed, added or left out."""
    if a == b or abs(len(a) - len(b)) > 1:
        return False
    if len(a) == len(b):
        return sum(x != y for x, y in zip(a, b, strict=True)) == 1
    short, long_ = (a, b) if len(a) < len(b) else (b, a)
    return any(long_[:i] + long_[i + 1:] == short for i in range(len(long_)))


def near_names(name: str, known: Iterable[str]) -> list[str]:
    """Return the known names the typed one may mean: the same but for accents,
    or one letter apart (accents aside), never the same player (same
    name_key); in the order known gives them. Names of fewer than four
    letters are only matched without accents: "Al" and "Ed" are two people."""
    key, plain = name_key(name), folded(name)
    out = []
    for other in known:
        if name_key(other) == key:
            continue
        other_plain = folded(other)
        if other_plain == plain or (
            min(len(plain), len(other_plain)) >= 4
            and one_letter_apart(plain, other_plain)
        ):
            out.append(other)
    return out
