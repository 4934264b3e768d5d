"""Game records in the `qwirkle-game/1` format (CONTRACT §5): export and replay."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence

from .discipline import Options
from .errors import BadInput, IllegalMove, RecordError
from .game import Game
from .moves import MAX_MOVES
from .names import InvalidName, check_stored_players
from .results import CLOSING, Final
from .tiles import Variant

FORMAT = "qwirkle-game/1"
"""The format tag of a game record."""


def write_record(
    variant: Variant, names: Sequence[str], first_player: int,
    moves: Sequence[Mapping[str, object]], final: Final | None,
    options: Options | None = None,
) -> dict[str, object]:
    """Return a `qwirkle-game/1` record; the one writer of a record's keys.

    moves are game.move_record dicts. to_record writes a Game through it; a backup
    writes stored games through it without replaying them. The table discipline
    (CONTRACT §10) is written only when it is not the default, so that a game
    without it keeps the bytes it always had.
    """
    data: dict[str, object] = {
        "format": FORMAT,
        "variant": variant.to_dict(),
        "players": list(names),
    }
    if options is not None and not options.is_default:
        data["options"] = options.to_dict()
    if not moves or moves[0].get("type") == "leave":
        # The starter is the first move's player; before any move the record
        # has to say it, or an exported new game would come back starting at 0
        # (a leave is anyone's, RULES §7.5).
        data["first_player"] = first_player
    data["moves"] = list(moves)
    data["final"] = final.to_dict() if final is not None else None
    return data


def to_record(game: Game, names: Sequence[str]) -> dict[str, object]:
    """Return the game as a `qwirkle-game/1` record."""
    if len(names) != game.players:
        raise ValueError(f"{game.players} players need {game.players} names")
    return write_record(
        game.variant, names, game.first_player,
        [move.to_dict() for move in game.moves], game.final, game.options,
    )


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
        raise RecordError("bad_record", "record_not_object")
    if record.get("format") != FORMAT:
        raise RecordError(
            "bad_record", "record_format",
            {"format": FORMAT, "value": record.get("format")},
        )
    try:
        variant = Variant.from_dict(record.get("variant"))
    except BadInput as exc:
        raise RecordError("bad_record", "record_variant", {"reason": exc}) from None
    names = record.get("players")
    if not isinstance(names, list) or not all(isinstance(n, str) for n in names):
        raise RecordError("bad_record", "record_players")
    moves = record.get("moves")
    if not isinstance(moves, list):
        raise RecordError("bad_record", "record_moves")
    if len(moves) > MAX_MOVES:
        # Refused before replaying: a 50,000-move record would take seconds.
        raise RecordError(
            "too_many_moves", "record_too_many_moves",
            {"count": len(moves), "max": MAX_MOVES},
        )
    first = record.get("first_player", 0)
    if moves and isinstance(moves[0], dict) and moves[0].get("type") != "leave":
        first = moves[0].get("player", first)
        if "first_player" in record and first != record["first_player"]:
            raise RecordError(
                "out_of_turn", "record_first_player",
                {"value": first, "first": record["first_player"]}, 1,
            )
    try:
        options = Options.from_dict(record.get("options"))
    except BadInput as exc:
        raise RecordError("bad_record", "record_options", {"reason": exc}) from None
    try:
        game = Game(variant, len(names), first, options)
    except BadInput as exc:
        raise RecordError("bad_record", "record_start", {"reason": exc}) from None
    try:
        check_stored_players(names, variant)
    except InvalidName as exc:
        raise RecordError("invalid_players", "record_names", {"reason": exc}) \
            from None

    for number, move in enumerate(moves, start=1):
        if not isinstance(move, dict):
            raise RecordError(
                "bad_record", "record_move_not_object", {"number": number}, number
            )
        player = move.get("player", game.current_player)
        # A player leaves in anyone's turn (RULES §7.5): the game checks the seat.
        if player != game.current_player and move.get("type") != "leave":
            raise RecordError(
                "out_of_turn", "record_out_of_turn",
                {"number": number, "value": player, "current": game.current_player},
                number,
            )
        try:
            played = game.push(move)
        except IllegalMove as exc:
            raise RecordError(
                exc.code, "record_move_illegal", {"number": number, "reason": exc},
                number,
            ) from None
        except BadInput as exc:
            raise RecordError(
                "bad_record", "record_move_malformed",
                {"number": number, "reason": exc}, number,
            ) from None
        if "score" in move and move["score"] != played.score:
            raise RecordError(
                "score_mismatch", "record_score",
                {"number": number, "value": move["score"], "score": played.score},
                number,
            )

    final = record.get("final")
    if (isinstance(final, dict) and final.get("reason") in CLOSING
            and game.final is None):
        # Ended or abandoned by the table: the moves alone do not end it.
        game.close(str(final["reason"]))
    actual = game.final.to_dict() if game.final is not None else None
    if "final" in record and final != actual:
        if actual is None:
            raise RecordError("final_mismatch", "record_final_goes_on")
        if final is None:
            raise RecordError(
                "final_mismatch", "record_final_ended", {"end": actual["reason"]}
            )
        raise RecordError(
            "final_mismatch", "record_final_differs",
            {"value": final, "actual": actual},
        )
    return game, list(names)
