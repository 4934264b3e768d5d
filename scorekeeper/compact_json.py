"""Compact JSON, ASCII-escaped as Flask writes it: the API's answers and the
moves table's tiles."""

from __future__ import annotations

import json
from collections.abc import Callable
from json.encoder import c_make_encoder, encode_basestring_ascii  # type: ignore[attr-defined]
from typing import Any


def _encoder() -> Callable[[Any], str]:
    """Return a function encoding a value as compact ASCII JSON: json's C
    encoder made once, called directly.

    JSONEncoder.encode makes a new C encoder on every call, through two
    Python calls: a move encodes a dozen parts, its answer's and its stored
    tiles (benchmarks/bench_api.py). No value here refers to itself, so no
    circular check is asked for.
    """
    if c_make_encoder is None:  # a Python built without json's C speedups
        return json.JSONEncoder(separators=(",", ":")).encode
    encode = c_make_encoder(
        None, json.JSONEncoder().default, encode_basestring_ascii, None,
        ":", ",", False, False, True,
    )

    def dumps(value: Any) -> str:
        return "".join(encode(value, 0))

    return dumps


dumps = _encoder()
"""Compact JSON, ASCII-escaped (one encoder, not one per call)."""
