"""Game records in the `qwirkle-game/1` format (CONTRACT §5): export and replay."""

from __future__ import annotations

import json
from collections.abc import Sequence

from .errors import IllegalMove, RecordError
from .game import Game
from .tiles import Variant

FORMAT = "qwirkle-game/1"
"""The format tag of a game record."""

MAX_NAME_LENGTH = 40
"""Longest player name a record may carry."""


def to_record(game: Game, names: Sequence[str]) -> dict[str, object]:
    """Return the game as a `qwirkle-game/1` record."""
    if len(names) != game.players:
        raise ValueError(f"{game.players} players need {game.players} names")
    final = game.final
    record: dict[str, object] = {
        "format": FORMAT,
        "variant": game.variant.to_dict(),
        "players": list(names),
    }
    if not game.moves:
        # The starter is the first move's player; before any move the record
        # has to say it, or an exported new game would come back starting at 0.
        record["first_player"] = game.first_player
    record["moves"] = [move.to_dict() for move in game.moves]
    record["final"] = final.to_dict() if final is not None else None
    return record


def dumps_record(record: dict[str, object]) -> str:
    """Serialise a record canonically, so that export → import → export is
    byte-for-byte stable (one-space indent and no final newline, as the shared
    corpus is written)."""
    return json.dumps(record, indent=1, ensure_ascii=False)


def from_record(record: object) -> tuple[Game, list[str]]:
    """Replay a record move by move; return the game and the player names.

    Raises RecordError naming the move number when a move is malformed,
    out of turn, illegal or carries a score the rules do not give, or when
    the record's final result differs from the replay's.
    """
    if not isinstance(record, dict):
        raise RecordError("bad_record", "A game record must be a JSON object.")
    if record.get("format") != FORMAT:
        raise RecordError(
            "bad_record",
            f"This is not a {FORMAT} record (format is {record.get('format')!r}).",
        )
    try:
        variant = Variant.from_dict(record.get("variant"))
    except (TypeError, ValueError) as exc:
        raise RecordError("bad_record", f"The record's variant is invalid: {exc}.") \
            from None
    names = record.get("players")
    if not isinstance(names, list) or not all(isinstance(n, str) for n in names):
        raise RecordError("bad_record", "The record's players must be a list of names.")
    if any(not n.strip() or len(n) > MAX_NAME_LENGTH for n in names):
        raise RecordError(
            "bad_record",
            f"Every player needs a name of 1 to {MAX_NAME_LENGTH} characters.",
        )
    moves = record.get("moves")
    if not isinstance(moves, list):
        raise RecordError("bad_record", "The record's moves must be a list.")
    first = record.get("first_player", 0)
    if moves and isinstance(moves[0], dict):
        first = moves[0].get("player", first)
        if "first_player" in record and first != record["first_player"]:
            raise RecordError(
                "out_of_turn",
                f"Move 1 is by player {first!r}, but the record's first player is"
                f" {record['first_player']!r}.",
                1,
            )
    try:
        game = Game(variant, len(names), first)
    except ValueError as exc:
        raise RecordError("bad_record", f"The record cannot start a game: {exc}.") \
            from None

    for number, move in enumerate(moves, start=1):
        if not isinstance(move, dict):
            raise RecordError("bad_record", f"Move {number} is not an object.", number)
        player = move.get("player", game.current_player)
        if player != game.current_player:
            raise RecordError(
                "out_of_turn",
                f"Move {number} is by player {player!r}, but it is player"
                f" {game.current_player}'s turn.",
                number,
            )
        try:
            played = game.push(move)
        except IllegalMove as exc:
            raise RecordError(exc.code, f"Move {number} is illegal: {exc}", number) \
                from None
        except ValueError as exc:
            raise RecordError("bad_record", f"Move {number} is malformed: {exc}",
                              number) from None
        if "score" in move and move["score"] != played.score:
            raise RecordError(
                "score_mismatch",
                f"Move {number} is recorded as {move['score']!r} points, but the"
                f" rules give it {played.score}.",
                number,
            )

    final = record.get("final")
    actual = game.final.to_dict() if game.final is not None else None
    if "final" in record and final != actual:
        if actual is None:
            text = "the record says the game ended, but after its last move it goes on"
        elif final is None:
            text = f"the game ended ({actual['reason']}), but the record says it runs"
        else:
            text = (
                f"the record's final result is {final!r},"
                f" the replay gives {actual!r}"
            )
        raise RecordError("final_mismatch", f"Final result: {text}.", None)
    return game, list(names)
