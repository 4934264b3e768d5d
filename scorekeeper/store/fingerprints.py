"""A stored game's content fingerprint: how a restore knows a game is already here.

Two games are the same game (CONTRACT §8) when their players, variant, moves and
created_at are. The fingerprint hashes exactly those, as a chain: the head
(created_at, names, variant, first seat), then each move in turn, so that a new
move updates it from the one before in constant time. It is stored, indexed, in
`games.fingerprint`; a restore looks each incoming game up instead of comparing.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable, Sequence
from typing import Any

MoveKey = tuple[str, str, int]
"""What identifies a move: its type, its tiles as the moves table stores them (a
compact JSON list), and its trade count."""


def head(
    created_at: str, names: Sequence[str], variant: dict[str, Any], first_player: int
) -> str:
    """Return the fingerprint of a game before its first move."""
    text = json.dumps(
        [created_at, list(names), variant, first_player],
        ensure_ascii=False, separators=(",", ":"), sort_keys=True,
    )
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def chain(previous: str, move: MoveKey) -> str:
    """Return the fingerprint after one more move, from the one before it."""
    kind, tiles, count = move
    text = f"{previous}\n{kind}\n{tiles}\n{count}"
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def fingerprint(
    created_at: str, names: Sequence[str], variant: dict[str, Any],
    first_player: int, moves: Iterable[MoveKey],
) -> str:
    """Return the fingerprint of a whole game."""
    value = head(created_at, names, variant, first_player)
    for move in moves:
        value = chain(value, move)
    return value
