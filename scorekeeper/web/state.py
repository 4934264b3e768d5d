"""The game state as JSON: the one builder for the API, the game page and its script.

CONTRACT §4 fixes the state's core fields and their order; the extensions the
pages use slot in here, so that the API's answers, the state the game page
starts from and the answers board.js applies after a move are one shape.
Extensions: per player "qwirkles", "excluded" (RULES §7) and "left" (a player
who left, RULES §7.5, is excluded too); "variant",
"options" (the table discipline, CONTRACT §10), "first_player", "created_at",
"updated_at", "unseen", "last_move" (with its breakdown, its sentence and "spoken", what
static/speech.js says aloud);
"can_pass" and "max_trade" (what the current player may do besides placing)
and "last_points" (each seat's latest move in the score column's shorthand).
"""

from __future__ import annotations

import functools
from collections.abc import Mapping, Sequence
from typing import Any

from .. import engine, text
from ..compact_json import dumps
from ..store.cache import GameRow, per_move


def move_json(move: engine.Move) -> dict[str, Any]:
    """Return a CONTRACT §5 move dict with its score (0 for a trade or pass; 0
    or minus the deduction for a penalty, with the consequence it had)."""
    data = move.to_dict(with_score=True)
    if move.type == "penalty":
        data["consequence"] = move.consequence
    return data


def _state_parts(
    row: GameRow,
) -> tuple[dict[str, Any], dict[str, Any], dict[str, Any], dict[str, Any] | None]:
    """Return the state's fields before "board", "final" alone, those after
    the game's fixed fields (_fixed_fields) up to "unseen", and what
    "last_move" adds to the last move's own fields (None before the first
    move), in CONTRACT order."""
    game = row.game
    excluded = game.excluded
    # A leaver is excluded too (RULES §7.5): with nobody excluded, nobody left,
    # and the moves need not be walked to say so.
    left = game.left if excluded else excluded
    last = game.moves[-1] if game.moves else None
    after_move = None
    if last is not None:
        said, breakdown = text.result_and_breakdown(last)
        after_move = {
            "end_bonus": last.end_bonus,
            "breakdown": breakdown,
            "text": said,
            "spoken": text.spoken_last(game, row.names),
        }
    final = game.final
    head = {
        "id": row.id,
        "status": game.status,
        "players": [
            {"name": name, "score": score, "hand": hand, "qwirkles": q,
             "excluded": seat in excluded, "left": seat in left}
            for seat, (name, score, hand, q) in enumerate(zip(
                row.names, game.scores, game.hands, game.qwirkles, strict=True
            ))
        ],
        "current_player": game.current_player,
        "turn": game.turn,
        "bag": game.bag,
    }
    ended = {"final": final.to_dict() if final is not None else None}
    middle = {
        "updated_at": row.updated_at,
        "can_pass": game.can_pass(),
        "max_trade": game.max_trade(),
        "last_points": text.last_points(game),
    }
    return head, ended, middle, after_move


def _fixed_fields(row: GameRow) -> dict[str, Any]:
    """Return the state's fields that no write changes (between "final" and
    "updated_at"): nothing edits a game's set, discipline, first seat or
    creation time."""
    game = row.game
    return {
        "variant": game.variant.to_dict(),
        "options": game.options.to_dict(),
        "first_player": game.first_player,
        "created_at": row.created_at,
    }


def state_json(row: GameRow) -> dict[str, Any]:
    """Return the game state of CONTRACT §4 plus the extensions the pages use.

    "unseen" lists the copies off the board per supply key of the set (shape ""
    where a set counts per colour, as Qwirkle Cubes does).
    """
    game = row.game
    head, ended, middle, after_move = _state_parts(row)
    unseen = game.unseen()
    last_move = (None if after_move is None
                 else {**move_json(game.moves[-1]), **after_move})
    return {
        **head,
        "board": [
            {"row": r, "col": c, "color": color, "shape": shape}
            for r, c, color, shape in game.board.tiles()
        ],
        "moves": [move_json(m) for m in game.moves],
        **ended,
        **_fixed_fields(row),
        **middle,
        "unseen": [
            {"color": color, "shape": shape, "count": unseen.get((color, shape), 0)}
            for color, shape in game.variant.supply_keys
        ],
        "last_move": last_move,
    }


_MoveParts = tuple[str, str, int]
"""A move's encoded JSON, its encoded tiles (inside the brackets), and the tiles
placed up to it."""


def _move_parts(move: engine.Move, previous: _MoveParts | None) -> _MoveParts:
    """Return what state_text needs of a move, from the parts of the move before."""
    data = move_json(move)
    tiles = dumps(data["tiles"])[1:-1] if move.type == "place" else ""
    placed = (previous[2] if previous is not None else 0) + len(move.tiles)
    return dumps(data), tiles, placed


@functools.lru_cache(maxsize=64)
def _unseen_prefixes(
    variant: engine.Variant,
) -> tuple[tuple[tuple[str, str], str], ...]:
    """Return each supply key with its encoded object up to the count's value."""
    return tuple(
        (kind, dumps({"color": kind[0], "shape": kind[1], "count": 0})[:-2])
        for kind in variant.supply_keys
    )


_Unseen = tuple[engine.Move | None, list[int], list[str]]
"""The "unseen" entries of a game as a state last encoded them: after which
move, each supply key's count, and each entry encoded."""


def _unseen_entries(row: GameRow, from_moves: bool) -> list[str]:
    """Return the encoded "unseen" entries of the game, in supply key order.

    The last ones encoded are kept with the cached game: the same move, the
    same entries; one move on, only the kinds its tiles took change (a move's
    answer, a poll after it). Otherwise, and whenever the board is not
    exactly the tiles the moves placed (from_moves false), the board says.
    """
    game = row.game
    prefixes = _unseen_prefixes(game.variant)
    moves = game.moves
    last = moves[-1] if moves else None
    kept: _Unseen | None = row.memo.get("api.unseen") if from_moves else None
    if kept is not None and kept[0] is last:
        return kept[2]
    if kept is not None and last is not None and kept[0] is (
            moves[-2] if len(moves) > 1 else None):
        counts, entries = list(kept[1]), list(kept[2])
        index = _supply_index(game.variant)
        for tile in last.tiles:
            at = index[game.variant.supply_key(tile.color, tile.shape)]
            counts[at] -= 1
            entries[at] = f"{prefixes[at][1]}{counts[at]}}}"
    else:
        unseen = game.unseen()
        counts = [unseen.get(kind, 0) for kind, _prefix in prefixes]
        entries = [f"{prefix}{count}}}"
                   for (_kind, prefix), count in zip(prefixes, counts, strict=True)]
    if from_moves:
        row.memo["api.unseen"] = (last, counts, entries)
    return entries


@functools.lru_cache(maxsize=64)
def _supply_index(variant: engine.Variant) -> dict[tuple[str, str], int]:
    """Return each supply key's place in variant.supply_keys."""
    return {kind: at for at, kind in enumerate(variant.supply_keys)}


def state_text(row: GameRow, moves: bool = True) -> str:
    """Return state_json(row) encoded as JSON, reusing each move's encoding.

    moves=False leaves out "moves": the game page embeds its state so, since
    its scripts read the board, the last move and the figures, never the list
    of moves (0.9 KB of a late game's page on the wire).

    Moves are append-only and the board is the placed tiles in order, so the
    encoded moves and board tiles are memoised with the cached game (per_move
    drops them with the move they came from); only the small fields are encoded
    per request. Encoding the whole state took a third of a move's server time.
    """
    return _state_encoded(row, moves)[0]


def move_answer_text(row: GameRow) -> str:
    """Return the answer to a move just recorded (CONTRACT §5), encoded: the
    last move's score, end bonus and text, then the game as it left it.

    The move's text is the one its "last_move" holds, said once for both.
    """
    state, after_move = _state_encoded(row, True)
    assert after_move is not None  # a move was recorded: there is a last move
    played = row.game.moves[-1]
    return (f'{{"score":{played.score},"end_bonus":{played.end_bonus},'
            f'"text":{dumps(after_move["text"])},"game":{state}}}')


def _fixed_text(row: GameRow) -> str:
    """Return _fixed_fields(row) encoded, without its braces; made once per
    cached game and kept with it, made again should any of them differ."""
    game = row.game
    key = (game.variant, game.options, game.first_player, row.created_at)
    kept: tuple[tuple[Any, ...], str] | None = row.memo.get("api.fixed")
    if kept is None or kept[0] != key:
        kept = row.memo["api.fixed"] = (key, dumps(_fixed_fields(row))[1:-1])
    return kept[1]


def _state_encoded(row: GameRow, moves: bool) -> tuple[str, dict[str, Any] | None]:
    """Return state_text's answer and what "last_move" added to the last move."""
    game = row.game
    parts = per_move(row, "api.state_text", _move_parts)
    head, ended, middle, after_move = _state_parts(row)
    # The last move as "moves" encoded it, with what "last_move" adds.
    last_move = ("null" if after_move is None
                 else f"{parts[-1][0][:-1]},{dumps(after_move)[1:]}")
    if (parts[-1][2] if parts else 0) == len(game.board):
        board = ",".join([part[1] for part in parts if part[1]])
    else:  # not expected: the board is exactly the tiles the moves placed
        board = dumps(state_json(row)["board"])[1:-1]
    moves_text = f'"moves":[{",".join([part[0] for part in parts])}],' if moves else ""
    from_moves = (parts[-1][2] if parts else 0) == len(game.board)
    unseen_text = ",".join(_unseen_entries(row, from_moves))
    return (
        f'{dumps(head)[:-1]},"board":[{board}],{moves_text}'
        f'{dumps(ended)[1:-1]},{_fixed_text(row)},'
        f'{dumps(middle)[1:-1]},"unseen":[{unseen_text}],'
        f'"last_move":{last_move}}}'
    ), after_move


def preview_json(result: engine.Preview) -> dict[str, Any]:
    """Return what a placing move would do: points, lines, end, bonus, sentence."""
    return {
        "ok": True,
        "score": result.score,
        "breakdown": text.breakdown_json(result.breakdown),
        "ends_game": result.ends_game,
        "end_bonus": result.end_bonus,
        "text": text.preview(result),
    }


def option_json(result: engine.Preview | engine.IllegalMove) -> dict[str, Any]:
    """Return what the picker needs of a kind on a cell: the move's points, its
    sentence, whether it makes a Qwirkle or ends the game and the end bonus; or,
    for a move a later tile may still mend, its refusal under "error"."""
    if isinstance(result, engine.IllegalMove):
        return {"error": refusal_json(result)}
    return {
        "score": result.score,
        "text": text.preview(result),
        "qwirkles": result.breakdown.qwirkles,
        "ends_game": result.ends_game,
        "end_bonus": result.end_bonus,
    }


def refusal_json(exc: engine.IllegalMove) -> dict[str, Any]:
    """Return an illegal move's error object: code, sentence and the cells named."""
    return {
        "code": exc.code,
        "message": text.illegal_move(exc),
        "cells": [list(cell) for cell in exc.cells],
    }


# --- the board's options (the picker's answers, GET /games/<id>/options) ---

Cell = tuple[int, int]
Kind = tuple[str, str]
Tile = tuple[int, int, str, str]


def previews_json(
    found: Mapping[Kind, engine.Preview | engine.IllegalMove],
) -> dict[str, Any]:
    """Return, per tile kind ("red circle"), what it would do on one cell."""
    return {f"{color} {shape}": option_json(result)
            for (color, shape), result in found.items()}


def cell_options_json(
    game: engine.Game, cell: Cell, pending: Sequence[Tile]
) -> dict[str, Any]:
    """Return the kinds that may go on `cell` with the pending tiles, and what
    each would do: {"cell", "turn", "kinds", "previews"}."""
    previews = previews_json(game.cell_options(cell, pending))
    return {"cell": list(cell), "turn": game.turn, "kinds": list(previews),
            "previews": previews}


def cells_options_json(
    game: engine.Game, cells: Sequence[Cell], pending: Sequence[Tile]
) -> dict[str, Any]:
    """Return the same for several cells, {"turn", "cells": {"r,c": previews}};
    with no cells, for a move's first tile on every cell where one may go, and
    under "dead" the cells beside the board where no tile may go."""
    if cells:
        found = {at: game.cell_options(at, pending) for at in cells}
    else:
        found = game.first_options()
    answer: dict[str, Any] = {"turn": game.turn, "cells": {
        f"{r},{c}": previews_json(options) for (r, c), options in found.items()
    }}
    if not cells:
        answer["dead"] = [list(at) for at in engine.insights.dead_cells(game.board)]
    return answer


def refusal_answer_json(
    game: engine.Game, cell: Cell, kind: Kind, pending: Sequence[Tile]
) -> dict[str, Any]:
    """Return why `kind` may not go on `cell` with the pending tiles:
    {"cell", "turn", "kind", "error": refusal or null}."""
    refused = game.refusal(cell, kind, pending)
    return {"cell": list(cell), "turn": game.turn, "kind": " ".join(kind),
            "error": refusal_json(refused) if refused is not None else None}
