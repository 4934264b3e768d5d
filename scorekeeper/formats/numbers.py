"""Numbers in JSON a client sends: refused when no game could hold them.

Python turns a JSON integer of any length into an int, and one of more than
4,300 digits into a ValueError deep inside the parser (a 500 from the
API, a traceback from `scorekeeper restore`). Every JSON this app reads from
outside goes through these hooks instead: an integer longer than MAX_DIGITS,
a float that is not finite (1e999) or NaN/Infinity (not JSON at all) raises
NumberRefused before anything is stored.
"""

from __future__ import annotations

import json
import math
from typing import Any

MAX_DIGITS = 100
"""Longest integer literal parsed (SQLite's largest integer has 19 digits; up to
here the API's own checks answer, e.g. 400 for a row of 10**30)."""

MAX_FLOAT_CHARS = 64
"""Longest float literal accepted (0.1 written out in full takes 55)."""


class NumberRefused(Exception):
    """A JSON number no game can hold. Deliberately not a ValueError, so that
    no `except ValueError` (Flask's "not JSON") hides it: the caller answers 422.
    """

    code = "number_too_large"

    def __init__(self, literal: str) -> None:
        super().__init__(f"number too large: {literal[:20]}…")
        self.digits = len(literal)


def parse_int(literal: str) -> int:
    """json's parse_int: the integer, unless it is too long for any game."""
    if len(literal) > MAX_DIGITS:
        raise NumberRefused(literal)
    return int(literal)


def parse_float(literal: str) -> float:
    """json's parse_float: the float, unless it is too long or not finite."""
    if len(literal) > MAX_FLOAT_CHARS:
        raise NumberRefused(literal)
    value = float(literal)
    if not math.isfinite(value):
        raise NumberRefused(literal)
    return value


def parse_constant(literal: str) -> Any:
    """json's parse_constant: NaN and Infinity are not JSON numbers."""
    raise NumberRefused(literal)


HOOKS: dict[str, Any] = {
    "parse_int": parse_int,
    "parse_float": parse_float,
    "parse_constant": parse_constant,
}
"""Keyword arguments for json.loads / json.JSONDecoder."""


_DECODER = json.JSONDecoder(**HOOKS)
"""A decoder with the checks, made once (json.loads with hooks makes one a call)."""


def loads(text: str | bytes) -> Any:
    """json.loads with the number checks."""
    if isinstance(text, str):
        if text.startswith("\ufeff"):
            # As json.loads: a BOM is no JSON text's first character.
            raise json.JSONDecodeError(
                "Unexpected UTF-8 BOM (decode using utf-8-sig)", text, 0)
    else:
        text = text.decode(json.detect_encoding(text), "surrogatepass")
    return _DECODER.decode(text)
