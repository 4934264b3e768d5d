"""The JSON API (CONTRACT §4) plus the preview and legal-cells calls of the page."""

from __future__ import annotations

import functools
import json
from typing import Any, NoReturn, TypeGuard

from flask import Blueprint, Response, jsonify, request

from .. import engine, text
from ..i18n import gettext as _
from ..store import GameNotFound, NothingToUndo, TurnConflict, loaded, stats
from ..store import games as stored
from ..store.cache import GameRow, per_move
from . import auth
from .errors import error_response

bp = Blueprint("api", __name__)

MAX_TILES_IN_BODY = 64
"""More tiles than any hand holds: beyond this a body is malformed, not illegal."""


class ApiError(Exception):
    """An error answer: HTTP status, CONTRACT code and a sentence for people."""

    def __init__(self, status: int, code: str, message: str, **extra: Any) -> None:
        super().__init__(message)
        self.status = status
        self.code = code
        self.message = message
        self.extra = extra


@bp.errorhandler(ApiError)
def _api_error(exc: ApiError) -> Response:
    return error_response(exc.status, exc.code, exc.message, **exc.extra)


@bp.errorhandler(engine.IllegalMove)
def _illegal_move(exc: engine.IllegalMove) -> Response:
    cells = [list(cell) for cell in exc.cells]
    return error_response(422, exc.code, text.illegal_move(exc), cells=cells)


# --- request parsing ---


def _bad(message: str, code: str = "bad_request", **extra: Any) -> NoReturn:
    raise ApiError(400, code, message, **extra)


def _is_int(value: object) -> TypeGuard[int]:
    return isinstance(value, int) and not isinstance(value, bool)


def json_body() -> dict[str, Any]:
    """Return the request's JSON object body, or answer 400."""
    body = request.get_json(silent=True)
    if not isinstance(body, dict):
        _bad(_("The request body must be a JSON object."))
    return body


def parse_turn(value: object) -> int | None:
    """Return the optional "turn" a client saw, or answer 400."""
    if value is None:
        return None
    if not _is_int(value) or value < 0:
        _bad(_('"turn" must be a whole number of moves (0 or more).'))
    return value


def query_int(name: str) -> int | None:
    """Return a whole-number query parameter (ASCII digits only), or answer 400."""
    raw = request.args.get(name)
    if raw is None:
        return None
    if not (raw.isascii() and raw.isdigit() and len(raw) <= 9):
        _bad(_('"%(name)s" must be a whole number (0 or more).', name=name))
    return int(raw)


def parse_tiles(value: object) -> list[dict[str, Any]]:
    """Return a list of well-formed tile dicts, or answer 400."""
    if not isinstance(value, list):
        _bad(_('"tiles" must be a list of tiles.'))
    if len(value) > MAX_TILES_IN_BODY:
        _bad(_("Too many tiles in one move."))
    tiles = []
    for tile in value:
        if not isinstance(tile, dict):
            _bad(_("Each tile must be an object with row, col, color and shape."))
        row, col = tile.get("row"), tile.get("col")
        color, shape = tile.get("color"), tile.get("shape")
        if not (_is_int(row) and _is_int(col)):
            _bad(_("A tile's row and col must be whole numbers."))
        if abs(row) > engine.MAX_COORDINATE or abs(col) > engine.MAX_COORDINATE:
            _bad(_("A tile's row and col are too far from the board."))
        if not (isinstance(color, str) and isinstance(shape, str)):
            _bad(_("A tile's color and shape must be names."))
        tiles.append({"row": row, "col": col, "color": color, "shape": shape})
    return tiles


def parse_seconds(body: dict[str, Any]) -> dict[str, int]:
    """Return {"seconds": n} when the body carries a thinking time (CONTRACT
    §10), else {}; answer 400 when it is not whole seconds within a day."""
    if "seconds" not in body:
        return {}
    seconds = body["seconds"]
    if not _is_int(seconds) or not 0 <= seconds <= engine.MAX_THINKING_SECONDS:
        _bad(_('"seconds" (thinking time) must be a whole number of seconds from 0'
               " to %(high)d.", high=engine.MAX_THINKING_SECONDS))
    return {"seconds": seconds}


def parse_move(body: dict[str, Any]) -> dict[str, Any]:
    """Return the CONTRACT §5 move dict the body describes, or answer 400."""
    kind = body.get("type")
    if kind == "place":
        if "tiles" not in body:
            _bad(_('A place move needs "tiles".'))
        return {"type": "place", "tiles": parse_tiles(body["tiles"]),
                **parse_seconds(body)}
    if kind == "trade":
        count = body.get("count")
        if not _is_int(count) or count < 1:
            _bad(_('A trade needs "count", the number of tiles traded (1 or more).'))
        if count > MAX_TILES_IN_BODY:
            _bad(_("Too many tiles in one trade."))
        return {"type": "trade", "count": count, **parse_seconds(body)}
    if kind == "pass":
        return {"type": "pass", **parse_seconds(body)}
    if kind == "penalty":
        reason = body.get("reason")
        if reason not in ("illegal", "timeout"):
            _bad(_('A penalty needs "reason": "illegal" or "timeout".'))
        if "seconds" in body:
            _bad(_('A penalty carries no "seconds".'))
        return {"type": "penalty", "reason": reason}
    _bad(_('"type" must be "place", "trade", "pass" or "penalty".'))


def parse_options(value: object) -> engine.Options:
    """Return the table discipline a request sets (CONTRACT §10; the defaults
    when absent), or answer 400."""
    try:
        return engine.Options.from_dict(value)
    except engine.BadInput as exc:
        _bad(text.error(exc), "invalid_options")


def parse_names(value: object, variant: engine.Variant) -> list[str]:
    """Return the players' names by the one name rule (CONTRACT §8), or answer 400."""
    if not isinstance(value, list) or not all(isinstance(n, str) for n in value):
        _bad(_('"players" must be a list of names.'), "invalid_players")
    try:
        return engine.check_players(value, variant)
    except engine.InvalidName as exc:
        _bad(text.invalid_name(exc), "invalid_players", detail=exc.code)


def parse_variant(value: object) -> engine.Variant:
    """Return the variant a request names (classic when absent), or answer 400."""
    if value is None:
        return engine.CLASSIC
    if not isinstance(value, dict):
        _bad(_('"variant" must be an object with colors, copies and hand_size.'),
             "invalid_variant")
    try:
        return engine.Variant.from_dict(value)
    except engine.BadInput as exc:
        _bad(text.error(exc), "invalid_variant")


# --- shared steps ---


def _require_edit(game_id: int) -> None:
    token = stored.edit_token(game_id)
    if token is None:
        raise GameNotFound(game_id)
    allowed, reason = auth.request_may_edit(game_id, token)
    if not allowed:
        messages = {
            "bad_edit_token": _("This edit token does not belong to the game."),
            "missing_edit_token": _("Changing this game needs its edit token."),
            "csrf_failed": _("The page's security token is missing or stale: reload."),
        }
        raise ApiError(403, reason, messages[reason])


def move_json(move: engine.Move) -> dict[str, Any]:
    """Return a CONTRACT §5 move dict with its score (0 for a trade or pass; 0
    or minus the deduction for a penalty, with the consequence it had)."""
    data = move.to_dict(with_score=True)
    if move.type == "penalty":
        data["consequence"] = move.consequence
    return data


def _state_parts(
    row: GameRow,
) -> tuple[dict[str, Any], dict[str, Any], dict[str, Any] | None]:
    """Return the state's fields before "board", those between "moves" and
    "unseen", and "last_move" (CONTRACT order)."""
    game = row.game
    excluded = game.excluded
    last = game.moves[-1] if game.moves else None
    last_move = None
    if last is not None:
        last_move = move_json(last)
        last_move["end_bonus"] = last.end_bonus
        last_move["breakdown"] = (
            text.breakdown_json(last.breakdown) if last.breakdown is not None else None
        )
        last_move["text"] = text.move_result(last)
    final = game.final
    head = {
        "id": row.id,
        "status": game.status,
        "players": [
            {"name": name, "score": score, "hand": hand, "qwirkles": q,
             "excluded": seat in excluded}
            for seat, (name, score, hand, q) in enumerate(zip(
                row.names, game.scores, game.hands, game.qwirkles, strict=True
            ))
        ],
        "current_player": game.current_player,
        "turn": game.turn,
        "bag": game.bag,
    }
    middle = {
        "final": final.to_dict() if final is not None else None,
        "variant": game.variant.to_dict(),
        "options": game.options.to_dict(),
        "first_player": game.first_player,
        "created_at": row.created_at,
        "updated_at": row.updated_at,
    }
    return head, middle, last_move


def state_json(row: GameRow) -> dict[str, Any]:
    """Return the game state of CONTRACT §4 plus the extensions the pages use.

    "unseen" lists the copies off the board per supply key of the set (shape ""
    where a set counts per colour, as Qwirkle Cubes does).
    """
    game = row.game
    head, middle, last_move = _state_parts(row)
    unseen = game.unseen()
    return {
        **head,
        "board": [
            {"row": r, "col": c, "color": color, "shape": shape}
            for r, c, color, shape in game.board.tiles()
        ],
        "moves": [move_json(m) for m in game.moves],
        **middle,
        "unseen": [
            {"color": color, "shape": shape, "count": unseen.get((color, shape), 0)}
            for color, shape in game.variant.supply_keys
        ],
        "last_move": last_move,
    }


_dumps = json.JSONEncoder(separators=(",", ":")).encode
"""Compact JSON, ASCII-escaped as Flask writes it (one encoder, not one per call)."""

_MoveParts = tuple[str, str, int]
"""A move's encoded JSON, its encoded tiles (inside the brackets), and the tiles
placed up to it."""


def _move_parts(move: engine.Move, previous: _MoveParts | None) -> _MoveParts:
    """Return what state_text needs of a move, from the parts of the move before."""
    data = move_json(move)
    tiles = _dumps(data["tiles"])[1:-1] if move.type == "place" else ""
    placed = (previous[2] if previous is not None else 0) + len(move.tiles)
    return _dumps(data), tiles, placed


@functools.lru_cache(maxsize=64)
def _unseen_prefixes(
    variant: engine.Variant,
) -> tuple[tuple[tuple[str, str], str], ...]:
    """Return each supply key with its encoded object up to the count's value."""
    return tuple(
        (kind, _dumps({"color": kind[0], "shape": kind[1], "count": 0})[:-2])
        for kind in variant.supply_keys
    )


def state_text(row: GameRow) -> str:
    """Return state_json(row) encoded as JSON, reusing each move's encoding.

    Moves are append-only and the board is the placed tiles in order, so the
    encoded moves and board tiles are memoised with the cached game (per_move
    drops them with the move they came from); only the small fields are encoded
    per request. Encoding the whole state took a third of a move's server time.
    """
    game = row.game
    parts = per_move(row, "api.state_text", _move_parts)
    head, middle, last_move = _state_parts(row)
    if (parts[-1][2] if parts else 0) == len(game.board):
        board = ",".join([part[1] for part in parts if part[1]])
    else:  # not expected: the board is exactly the tiles the moves placed
        board = _dumps(state_json(row)["board"])[1:-1]
    moves = ",".join([part[0] for part in parts])
    unseen = game.unseen()
    unseen_text = ",".join([
        f"{prefix}{unseen.get(kind, 0)}}}"
        for kind, prefix in _unseen_prefixes(game.variant)
    ])
    return (
        f'{_dumps(head)[:-1]},"board":[{board}],"moves":[{moves}],'
        f'{_dumps(middle)[1:-1]},"unseen":[{unseen_text}],'
        f'"last_move":{_dumps(last_move)}}}'
    )


def _json_answer(body: str, status: int = 200) -> Response:
    return Response(body + "\n", status=status, mimetype="application/json")


def _state(game_id: int) -> str:
    """Return the stored game's state as JSON text."""
    with loaded(game_id) as row:
        return state_text(row)


def _conflict(exc: TurnConflict, game_id: int) -> Response:
    with loaded(game_id) as row:
        state = state_json(row)
    return error_response(
        409, "turn_conflict",
        _("Someone else entered a move meanwhile: you saw turn %(seen)d, the game is"
          " at turn %(now)d. Nothing was stored.", seen=exc.expected, now=exc.actual),
        game=state,
    )


def _with_token(state: str, token: str) -> Response:
    return _json_answer(f'{state[:-1]},"edit_token":{_dumps(token)}}}')


# --- routes ---


@bp.post("/games")
def create_game() -> tuple[Response, int]:
    """Create a game; 201 with its state and edit token."""
    body = json_body()
    variant = parse_variant(body.get("variant"))
    names = parse_names(body.get("players"), variant)
    first = body.get("first_player", 0)
    if not _is_int(first) or not 0 <= first < len(names):
        _bad(_('"first_player" must be a seat number from 0 to %(last)d.',
               last=len(names) - 1))
    options = parse_options(body.get("options"))
    game_id, token = stored.create_game(names, variant, first, options)
    auth.remember_token(game_id, token)
    return _with_token(_state(game_id), token), 201


@bp.get("/games")
def list_games() -> Response:
    """List stored games, most recent first (?status=active|finished, limit, offset)."""
    status = request.args.get("status")
    if status not in (None, "active", "finished"):
        _bad(_('"status" must be "active" or "finished".'))
    limit, offset = query_int("limit"), query_int("offset")
    limit = 50 if limit is None else limit
    if not 1 <= limit <= 500:
        _bad(_('"limit" must be from 1 to 500.'))
    games = stats.list_games(status, limit, offset or 0)
    return jsonify({"games": games, "total": stats.count_games(status)})


@bp.get("/games/<int:game_id>")
def get_game(game_id: int) -> Response:
    """Return the game state; 304 when the client's ETag is still current.

    Viewers on other devices poll this every few seconds; while nobody moves
    they get an empty 304 instead of the whole game again.
    """
    with loaded(game_id) as row:
        etag = f"{row.id}-{row.game.turn}-{row.updated_at}"
        if request.if_none_match.contains(etag):
            response = Response(status=304)
        else:
            response = _json_answer(state_text(row))
    response.set_etag(etag)
    # Revalidate every time: the browser's cache may keep the body, never trust it.
    response.headers["Cache-Control"] = "no-cache"
    return response


@bp.delete("/games/<int:game_id>")
def delete_game(game_id: int) -> Response:
    """Delete a game (edit token needed)."""
    _require_edit(game_id)
    stored.delete_game(game_id)
    return jsonify({"deleted": game_id})


@bp.post("/games/<int:game_id>/moves")
def post_move(game_id: int) -> tuple[Response, int] | Response:
    """Record the current player's move; 201 {"score", "end_bonus", "text", "game"}."""
    _require_edit(game_id)
    body = json_body()
    move = parse_move(body)
    turn = parse_turn(body.get("turn"))
    try:
        played = stored.record_move(game_id, move, turn)
    except TurnConflict as exc:
        return _conflict(exc, game_id)
    answer = _dumps({
        "score": played.score, "end_bonus": played.end_bonus,
        "text": text.move_result(played),
    })
    # The state is the game the write just put back in the cache: one lookup,
    # no replay (a move another device stored in between would show too).
    return _json_answer(f'{answer[:-1]},"game":{_state(game_id)}}}', 201)


@bp.delete("/games/<int:game_id>/moves/last")
def undo_move(game_id: int) -> Response:
    """Undo the last move (?turn=n guards against a stale page); 200 with the state."""
    _require_edit(game_id)
    turn = query_int("turn")
    if turn is None:
        body = request.get_json(silent=True)
        turn = parse_turn(body.get("turn")) if isinstance(body, dict) else None
    try:
        stored.undo_last_move(game_id, turn)
    except TurnConflict as exc:
        return _conflict(exc, game_id)
    except NothingToUndo:
        return error_response(409, "nothing_to_undo", _("There is no move to undo."))
    return _json_answer(_state(game_id))


@bp.post("/games/import")
def import_game() -> tuple[Response, int]:
    """Store a game record as a new game: 201 with state and edit token, else 422."""
    record = json_body()
    try:
        game, names = engine.from_record(record)
    except engine.RecordError as exc:
        cause = exc.params.get("reason")
        extra: dict[str, Any] = {"move_number": exc.move_number}
        if isinstance(cause, engine.InvalidName):
            extra["detail"] = cause.code
        return error_response(422, exc.code, text.record_error(exc), **extra), 422
    except (ValueError, TypeError, KeyError, AttributeError, IndexError) as exc:
        # The engine checks structure; this only keeps a gap there from becoming a 500.
        return error_response(422, "bad_record", str(exc)), 422
    game_id, token = stored.store_game(names, game)
    auth.remember_token(game_id, token)
    return _with_token(_state(game_id), token), 201


@bp.post("/games/<int:game_id>/preview")
def preview_move(game_id: int) -> Response:
    """Score a place move without storing it: points, breakdown, whether it ends."""
    body = json_body()
    if body.get("type", "place") != "place":
        _bad(_("Only a place move can be previewed."))
    tiles = [
        (t["row"], t["col"], t["color"], t["shape"])
        for t in parse_tiles(body.get("tiles"))
    ]
    with loaded(game_id) as row:
        result = row.game.preview(tiles)
    return jsonify({
        "ok": True,
        "score": result.score,
        "breakdown": text.breakdown_json(result.breakdown),
        "ends_game": result.ends_game,
        "end_bonus": result.end_bonus,
        "text": text.preview(result),
    })


@bp.get("/games/<int:game_id>/legal")
def legal_cells(game_id: int) -> Response:
    """Return where each tile kind still unseen may go alone: by kind and by cell."""
    kinds: dict[str, list[list[int]]] = {}
    cells: dict[str, list[str]] = {}
    with loaded(game_id) as row:
        game = row.game
        if not game.is_over():
            unseen = game.unseen_by_kind()
            for kind, places in game.board.legal_map().items():
                if unseen.get(kind, 0) <= 0:
                    continue
                name = f"{kind[0]} {kind[1]}"
                kinds[name] = sorted([r, c] for r, c in places)
                for r, c in places:
                    cells.setdefault(f"{r},{c}", []).append(name)
    return jsonify({"kinds": kinds, "cells": cells})
