"""A stored game's content fingerprint: how a restore knows a game is already here.

Two games are the same game (CONTRACT §8) when their players, variant, moves and
created_at are, and so are their table discipline and each move's penalty reason
and thinking time (CONTRACT §10). The fingerprint hashes exactly those, as a
chain: the head (created_at, names, variant, first seat, options), then each move
in turn, so that a new move updates it from the one before in constant time. It
is stored, indexed, in `games.fingerprint`; a restore looks each incoming game up
instead of comparing.

Default options, no penalty reason and no thinking time add nothing to the text
hashed, so a game stored before table discipline keeps the fingerprint an earlier
release gave it.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable, Sequence
from typing import Any

MoveKey = tuple[str, str, int, str | None, int | None]
"""What identifies a move, as the moves table stores it: its type, its tiles (a
compact JSON list), its trade count, its penalty reason and its thinking time."""


def head(
    created_at: str, names: Sequence[str], variant: dict[str, Any], first_player: int,
    options: dict[str, Any] | None = None,
) -> str:
    """Return the fingerprint of a game before its first move (options: the table
    discipline as games.options stores it, None for the defaults)."""
    fields: list[Any] = [created_at, list(names), variant, first_player]
    if options is not None:
        fields.append(options)
    text = json.dumps(
        fields, ensure_ascii=False, separators=(",", ":"), sort_keys=True,
    )
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def chain(previous: str, move: MoveKey) -> str:
    """Return the fingerprint after one more move, from the one before it."""
    kind, tiles, count, reason, seconds = move
    text = f"{previous}\n{kind}\n{tiles}\n{count}"
    # Tagged, after a whole number: no move without them hashes the same text.
    if reason is not None:
        text += f"\nreason:{reason}"
    if seconds is not None:
        text += f"\nseconds:{seconds}"
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def fingerprint(
    created_at: str, names: Sequence[str], variant: dict[str, Any],
    first_player: int, moves: Iterable[MoveKey],
    options: dict[str, Any] | None = None,
) -> str:
    """Return the fingerprint of a whole game."""
    value = head(created_at, names, variant, first_player, options)
    for move in moves:
        value = chain(value, move)
    return value
