"""The JSON API (CONTRACT §4) plus the preview and legal-cells calls of the page."""

from __future__ import annotations

import functools
import json
from typing import Any, NoReturn

from flask import Blueprint, Response, jsonify, request

from . import auth, db, engine
from .i18n import _
from .scoresheet import score_sheet, to_csv

bp = Blueprint("api", __name__)

MAX_NAME_LENGTH = 40
"""Longest player name accepted (it must fit a phone's score column)."""

MAX_TILES_IN_BODY = 64
"""More tiles than any hand holds: beyond this a body is malformed, not illegal."""

MAX_COORDINATE = 10_000
"""Cells further out than this cannot occur in a real game (108 tiles)."""

MAX_GAME_ID = 2**63 - 1
"""SQLite's largest integer; a bigger id in a URL names no game."""


class ApiError(Exception):
    """An error answer: HTTP status, CONTRACT code and a sentence for people."""

    def __init__(self, status: int, code: str, message: str, **extra: Any) -> None:
        super().__init__(message)
        self.status = status
        self.code = code
        self.message = message
        self.extra = extra


def error_response(status: int, code: str, message: str, **extra: Any) -> Response:
    """Return the CONTRACT §4 error body {"error": {"code", "message"}} with status."""
    body: dict[str, Any] = {"error": {"code": code, "message": message}}
    game = extra.pop("game", None)
    body["error"].update(extra)
    if game is not None:
        body["game"] = game
    response = jsonify(body)
    response.status_code = status
    return response


@bp.errorhandler(ApiError)
def _api_error(exc: ApiError) -> Response:
    return error_response(exc.status, exc.code, exc.message, **exc.extra)


@bp.errorhandler(engine.IllegalMove)
def _illegal_move(exc: engine.IllegalMove) -> Response:
    cells = [list(cell) for cell in getattr(exc, "cells", ())]
    return error_response(422, exc.code, str(exc), cells=cells)


@bp.errorhandler(db.GameNotFound)
def _not_found(exc: db.GameNotFound) -> Response:
    message = _("There is no game %(id)s.", id=exc.game_id)
    return error_response(404, "not_found", message)


# --- request parsing ---


def _bad(message: str, code: str = "bad_request") -> NoReturn:
    raise ApiError(400, code, message)


def _is_int(value: object) -> bool:
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
    return int(value)


def query_int(name: str, default: int | None = None) -> int | None:
    """Return a whole-number query parameter (ASCII digits only), or answer 400."""
    raw = request.args.get(name)
    if raw is None:
        return default
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
        if abs(row) > MAX_COORDINATE or abs(col) > MAX_COORDINATE:
            _bad(_("A tile's row and col are too far from the board."))
        if not (isinstance(color, str) and isinstance(shape, str)):
            _bad(_("A tile's color and shape must be names."))
        tiles.append({"row": row, "col": col, "color": color, "shape": shape})
    return tiles


def parse_move(body: dict[str, Any]) -> dict[str, Any]:
    """Return the CONTRACT §5 move dict the body describes, or answer 400."""
    kind = body.get("type")
    if kind == "place":
        if "tiles" not in body:
            _bad(_('A place move needs "tiles".'))
        return {"type": "place", "tiles": parse_tiles(body["tiles"])}
    if kind == "trade":
        count = body.get("count")
        if not _is_int(count) or count < 1:
            _bad(_('A trade needs "count", the number of tiles traded (1 or more).'))
        if count > MAX_TILES_IN_BODY:
            _bad(_("Too many tiles in one trade."))
        return {"type": "trade", "count": count}
    if kind == "pass":
        return {"type": "pass"}
    _bad(_('"type" must be "place", "trade" or "pass".'))


def parse_names(value: object, variant: engine.Variant) -> list[str]:
    """Return trimmed unique player names fitting the variant, or answer 400."""
    if not isinstance(value, list) or not all(isinstance(n, str) for n in value):
        _bad(_('"players" must be a list of names.'), "invalid_players")
    names = [" ".join(n.split()) for n in value]
    problem = names_problem(names, variant)
    if problem:
        _bad(problem, "invalid_players")
    return names


def names_problem(names: list[str], variant: engine.Variant) -> str | None:
    """Return what is wrong with a list of player names, or None when it is fine."""
    low, high = 2, variant.max_players
    if not low <= len(names) <= high:
        return _(
            "A game needs %(low)d to %(high)d players.", low=low, high=high
        )
    seen: set[str] = set()
    for name in names:
        if not name:
            return _("Every player needs a name.")
        if len(name) > MAX_NAME_LENGTH:
            return _(
                "The name %(name)s is longer than %(max)d characters.",
                name=repr(name[:MAX_NAME_LENGTH]) + "…", max=MAX_NAME_LENGTH,
            )
        if not name.isprintable():
            return _("The name %(name)s holds control characters.", name=repr(name))
        key = db.name_key(name)
        if key in seen:
            return _("Two players are both called %(name)s.", name=name)
        seen.add(key)
    return None


def parse_variant(value: object) -> engine.Variant:
    """Return the variant a request names (classic when absent), or answer 400."""
    if value is None:
        return engine.Variant()
    if not isinstance(value, dict):
        _bad(_('"variant" must be an object with colors, copies and hand_size.'),
             "invalid_variant")
    try:
        return engine.Variant.from_dict(value)
    except (ValueError, TypeError) as exc:
        _bad(str(exc), "invalid_variant")


# --- shared steps ---


def _load(game_id: int) -> db.GameRow:
    if game_id > MAX_GAME_ID:
        raise db.GameNotFound(game_id)
    row = db.load_game(game_id)
    if row is None:
        raise db.GameNotFound(game_id)
    return row


def _require_edit(game_id: int) -> None:
    token = db.edit_token(game_id) if game_id <= MAX_GAME_ID else None
    if token is None:
        raise db.GameNotFound(game_id)
    allowed, reason = auth.request_may_edit(game_id, token)
    if not allowed:
        messages = {
            "bad_edit_token": _("This edit token does not belong to the game."),
            "missing_edit_token": _("Changing this game needs its edit token."),
            "csrf_failed": _("The page's security token is missing or stale: reload."),
        }
        raise ApiError(403, reason, messages[reason])


def move_json(move: engine.Move) -> dict[str, Any]:
    """Return a CONTRACT §5 move dict with its score (0 for a trade or pass)."""
    return move.to_dict(with_score=True)


def _qwirkles_of(move: engine.Move) -> int:
    return move.breakdown.qwirkles if move.breakdown is not None else 0


@functools.lru_cache(maxsize=64)
def unseen_kinds(variant: engine.Variant) -> tuple[tuple[str, str], ...]:
    """Return the (color, shape) keys of game.unseen(): shape "" for Qwirkle Cubes."""
    if variant.is_cubes:
        # A cube shows any shape: its supply is counted per colour (RULES §7).
        return tuple((color, "") for color in variant.color_names)
    return tuple(
        (color, shape) for color in variant.color_names for shape in variant.shape_names
    )


def _state_parts(
    row: db.GameRow, qwirkles: list[int]
) -> tuple[dict[str, Any], dict[str, Any], dict[str, Any] | None]:
    """Return the state's fields before "board", those between "moves" and
    "unseen", and "last_move" (CONTRACT order)."""
    game = row.game
    last = game.moves[-1] if game.moves else None
    last_move = None
    if last is not None:
        last_move = move_json(last)
        last_move["end_bonus"] = last.end_bonus
        last_move["breakdown"] = (
            last.breakdown.to_dict() if last.breakdown is not None else None
        )
    final = game.final
    head = {
        "id": row.id,
        "status": game.status,
        "players": [
            {"name": name, "score": score, "hand": hand, "qwirkles": q}
            for name, score, hand, q in zip(
                row.names, game.scores, game.hands, qwirkles, strict=True
            )
        ],
        "current_player": game.current_player,
        "turn": game.turn,
        "bag": game.bag,
    }
    middle = {
        "final": final.to_dict() if final is not None else None,
        "variant": game.variant.to_dict(),
        "first_player": game.first_player,
        "created_at": row.created_at,
        "updated_at": row.updated_at,
    }
    return head, middle, last_move


def state_json(row: db.GameRow) -> dict[str, Any]:
    """Return the game state of CONTRACT §4 plus the extensions the pages use."""
    game = row.game
    qwirkles = [0] * game.players
    for move in game.moves:
        qwirkles[move.player] += _qwirkles_of(move)
    head, middle, last_move = _state_parts(row, qwirkles)
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
            for color, shape in unseen_kinds(game.variant)
        ],
        "last_move": last_move,
    }


_dumps = json.JSONEncoder(separators=(",", ":")).encode
"""Compact JSON, ASCII-escaped as Flask writes it (one encoder, not one per call)."""

_MoveParts = tuple[str, str, tuple[int, ...], int]
"""A move's encoded JSON, its encoded tiles (inside the brackets), and the running
qwirkles per seat and tiles placed after it."""


def _move_parts(
    move: engine.Move, previous: _MoveParts | None, players: int
) -> _MoveParts:
    """Return what state_text needs of a move, from the parts of the move before."""
    data = move_json(move)
    tiles = _dumps(data["tiles"])[1:-1] if move.type == "place" else ""
    qwirkles = list(previous[2]) if previous is not None else [0] * players
    qwirkles[move.player] += _qwirkles_of(move)
    placed = (previous[3] if previous is not None else 0) + len(move.tiles)
    return _dumps(data), tiles, tuple(qwirkles), placed


@functools.lru_cache(maxsize=64)
def _unseen_prefixes(
    variant: engine.Variant,
) -> tuple[tuple[tuple[str, str], str], ...]:
    """Return each unseen kind with its encoded object up to the count's value."""
    return tuple(
        (kind, _dumps({"color": kind[0], "shape": kind[1], "count": 0})[:-2])
        for kind in unseen_kinds(variant)
    )


def state_text(row: db.GameRow) -> str:
    """Return state_json(row) encoded as JSON, reusing each move's encoding.

    Moves are append-only and the board is the placed tiles in order, so the
    encoded moves and board tiles are memoised with the cached game (db.per_move
    drops them with the move they came from); only the small fields are encoded
    per request. Encoding the whole state took a third of a move's server time.
    """
    game = row.game
    players = game.players
    parts = db.per_move(
        row, "api.state_text",
        lambda move, previous: _move_parts(move, previous, players),
    )
    qwirkles = list(parts[-1][2]) if parts else [0] * players
    head, middle, last_move = _state_parts(row, qwirkles)
    if (parts[-1][3] if parts else 0) == len(game.board):
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


def _json_answer(text: str, status: int = 200) -> Response:
    return Response(text + "\n", status=status, mimetype="application/json")


def _state_and_release(row: db.GameRow) -> dict[str, Any]:
    state = state_json(row)
    db.release(row)
    return state


def _state_text_and_release(row: db.GameRow) -> str:
    text = state_text(row)
    db.release(row)
    return text


def _conflict(exc: db.TurnConflict, game_id: int) -> Response:
    row = _load(game_id)
    return error_response(
        409, "turn_conflict",
        _("Someone else entered a move meanwhile: you saw turn %(seen)d, the game is"
          " at turn %(now)d. Nothing was stored.", seen=exc.expected, now=exc.actual),
        game=_state_and_release(row),
    )


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
    game_id, token = db.create_game(names, variant, first)
    auth.remember_token(game_id, token)
    return _with_token(_state_text_and_release(_load(game_id)), token), 201


def _with_token(state: str, token: str) -> Response:
    return _json_answer(f'{state[:-1]},"edit_token":{_dumps(token)}}}')


@bp.get("/games")
def list_games() -> Response:
    """List stored games, most recent first (?status=active|finished, limit, offset)."""
    status = request.args.get("status")
    if status not in (None, "active", "finished"):
        _bad(_('"status" must be "active" or "finished".'))
    limit, offset = query_int("limit", 50), query_int("offset", 0)
    if not 1 <= limit <= 500:  # type: ignore[operator]
        _bad(_('"limit" must be from 1 to 500.'))
    games = db.list_games(status, limit, offset)  # type: ignore[arg-type]
    return jsonify({"games": games, "total": db.count_games(status)})


@bp.get("/games/<int:game_id>")
def get_game(game_id: int) -> Response:
    """Return the game state; 304 when the client's ETag is still current.

    Viewers on other devices poll this every few seconds; while nobody moves
    they get an empty 304 instead of the whole game again.
    """
    row = _load(game_id)
    etag = f"{row.id}-{row.game.turn}-{row.updated_at}"
    if request.if_none_match.contains(etag):
        db.release(row)
        response = Response(status=304)
    else:
        response = _json_answer(_state_text_and_release(row))
    response.set_etag(etag)
    # Revalidate every time: the browser's cache may keep the body, never trust it.
    response.headers["Cache-Control"] = "no-cache"
    return response


@bp.delete("/games/<int:game_id>")
def delete_game(game_id: int) -> Response:
    """Delete a game (edit token needed)."""
    _require_edit(game_id)
    db.delete_game(game_id)
    return jsonify({"deleted": game_id})


@bp.post("/games/<int:game_id>/moves")
def post_move(game_id: int) -> tuple[Response, int] | Response:
    """Record the current player's move; 201 {"score", "end_bonus", "game"}."""
    _require_edit(game_id)
    body = json_body()
    move = parse_move(body)
    turn = parse_turn(body.get("turn"))
    try:
        played, row = db.apply_move(game_id, move, turn)
    except db.TurnConflict as exc:
        return _conflict(exc, game_id)
    state = _state_text_and_release(row)
    return _json_answer(
        f'{{"score":{played.score},"end_bonus":{played.end_bonus},"game":{state}}}',
        201,
    )


@bp.delete("/games/<int:game_id>/moves/last")
def undo_move(game_id: int) -> Response:
    """Undo the last move (?turn=n guards against a stale page); 200 with the state."""
    _require_edit(game_id)
    turn = query_int("turn")
    if turn is None:
        body = request.get_json(silent=True)
        turn = parse_turn(body.get("turn")) if isinstance(body, dict) else None
    try:
        row = db.undo_last_move(game_id, turn)
    except db.TurnConflict as exc:
        return _conflict(exc, game_id)
    except db.NothingToUndo:
        return error_response(409, "nothing_to_undo", _("There is no move to undo."))
    return _json_answer(_state_text_and_release(row))


@bp.get("/games/<int:game_id>/record")
def get_record(game_id: int) -> Response:
    """Return the qwirkle-game/1 record, serialised as the corpus files are."""
    row = _load(game_id)
    text = db.dump_record(db.export_record(row))
    db.release(row)
    return Response(text, mimetype="application/json")


@bp.post("/games/import")
def import_game() -> tuple[Response, int]:
    """Store a game record as a new game: 201 with state and edit token, else 422."""
    record = json_body()
    try:
        game, names = engine.from_record(record)
    except engine.RecordError as exc:
        return error_response(
            422, exc.code, str(exc), move_number=getattr(exc, "move_number", None)
        ), 422
    except (ValueError, TypeError, KeyError, AttributeError, IndexError) as exc:
        # The engine checks structure; this only keeps a gap there from becoming a 500.
        return error_response(422, "bad_record", str(exc)), 422
    problem = names_problem(list(names), game.variant)
    if problem is None and any(name != " ".join(name.split()) for name in names):
        problem = _("Player names may not start or end with spaces.")
    if problem:
        return error_response(422, "invalid_players", problem), 422
    game_id, token = db.store_game(names, game)
    auth.remember_token(game_id, token)
    return _with_token(_state_text_and_release(_load(game_id)), token), 201


@bp.get("/games/<int:game_id>/scoresheet.csv")
def get_scoresheet(game_id: int) -> Response:
    """Return the score sheet as CSV (CONTRACT §6)."""
    row = _load(game_id)
    text = to_csv(score_sheet(row.names, row.game))
    db.release(row)
    return Response(
        text,
        mimetype="text/csv",
        headers={
            "Content-Disposition": f'attachment; filename="qwirkle-{game_id}.csv"'
        },
    )


@bp.post("/games/<int:game_id>/preview")
def preview_move(game_id: int) -> Response:
    """Score a place move without storing it: points, breakdown, whether it ends."""
    body = json_body()
    if body.get("type", "place") != "place":
        _bad(_("Only a place move can be previewed."))
    move = {"type": "place", "tiles": parse_tiles(body.get("tiles"))}
    row = _load(game_id)
    try:
        played = row.game.push(move)
    except engine.IllegalMove:
        db.release(row)
        raise
    ends = row.game.final is not None
    row.game.pop()
    db.release(row)
    return jsonify({
        "ok": True,
        "score": played.score,
        "breakdown": played.breakdown.to_dict() if played.breakdown else None,
        "ends_game": ends,
        "end_bonus": played.end_bonus,
    })


@bp.get("/games/<int:game_id>/legal")
def legal_cells(game_id: int) -> Response:
    """Return where each tile kind still unseen may go alone: by kind and by cell."""
    row = _load(game_id)
    game = row.game
    kinds: dict[str, list[list[int]]] = {}
    cells: dict[str, list[str]] = {}
    if not game.is_over():
        unseen = game.unseen()
        cubes = game.variant.is_cubes
        for (color, shape), places in game.board.legal_map().items():
            # Cubes are counted per colour (shape ""), tiles per kind.
            if unseen.get((color, "" if cubes else shape), 0) <= 0:
                continue
            name = f"{color} {shape}"
            kinds[name] = sorted([r, c] for r, c in places)
            for r, c in places:
                cells.setdefault(f"{r},{c}", []).append(name)
    db.release(row)
    return jsonify({"kinds": kinds, "cells": cells})
