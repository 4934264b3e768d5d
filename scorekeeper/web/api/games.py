"""The games' JSON API (CONTRACT §4) plus the preview and legal-cells calls of
the page."""

from __future__ import annotations

from typing import Any, NoReturn, TypeGuard

from flask import Blueprint, Response, jsonify, request
from flask.globals import request_ctx

from ... import engine, text
from ...compact_json import dumps
from ...i18n import gettext as _
from ...photo import PhotoUnreadable
from ...photo.lessons import lesson_sums
from ...store import (
    GameNotFound,
    NothingToUndo,
    TurnConflict,
    analysis,
    loaded,
    photo_lessons,
    stats,
    version,
)
from ...store import events as stored_events
from ...store import games as stored
from .. import auth, bodies, photo_upload, quotas
from ..errors import error_response
from ..state import (
    move_answer_text,
    preview_json,
    refusal_json,
    state_json,
    state_text,
)

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
    refusal = refusal_json(exc)
    return error_response(422, refusal["code"], refusal["message"],
                          cells=refusal["cells"])


# --- request parsing ---


def _bad(message: str, code: str = "bad_request", **extra: Any) -> NoReturn:
    raise ApiError(400, code, message, **extra)


def _is_int(value: object) -> TypeGuard[int]:
    return isinstance(value, int) and not isinstance(value, bool)


def json_body() -> dict[str, Any]:
    """Return the request's JSON object body, or answer 400."""
    # The request context taken from Flask's proxy once (benchmarks/bench_api.py).
    context = request_ctx._get_current_object()  # type: ignore[attr-defined]
    body = bodies.json_document(context.app, context.request)
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


def _within_request_limits(body: dict[str, Any]) -> None:
    """Answer 400 for a move no hand could hold, before the engine reads it;
    and for "seconds": null, which a record may carry (no time) but a client
    that names a thinking time must give."""
    tiles, count = body.get("tiles"), body.get("count")
    if "seconds" in body and body["seconds"] is None:
        _bad(_('"seconds" (thinking time) must be a whole number of seconds from 0'
               " to %(high)d.", high=engine.MAX_THINKING_SECONDS))
    if isinstance(tiles, list) and len(tiles) > MAX_TILES_IN_BODY:
        _bad(_("Too many tiles in one move."))
    if body.get("type") == "trade" and _is_int(count):
        if count < 1:
            _bad(_('A trade needs "count", the number of tiles traded (1 or more).'))
        if count > MAX_TILES_IN_BODY:
            _bad(_("Too many tiles in one trade."))


def parse_move(body: dict[str, Any]) -> engine.MoveInput:
    """Return the move the body describes, read by the engine's one parser
    (CONTRACT §5, §10), or answer 400 with its sentence."""
    _within_request_limits(body)
    try:
        return engine.parse_move(body)
    except engine.BadInput as exc:
        _bad(text.error(exc))


def parse_tiles(value: object) -> list[engine.Placement]:
    """Return a place move's tiles, read by the engine's parser, or answer 400."""
    _within_request_limits({"tiles": value})
    try:
        return engine.parse_tiles(value)
    except engine.BadInput as exc:
        _bad(text.error(exc))


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
    _may_edit(game_id, token)


def _may_edit(game_id: int, edit_token: str) -> None:
    """Answer 403 unless this request may change the game (CONTRACT §15)."""
    allowed, reason = auth.request_may_edit_game(game_id, edit_token)
    if not allowed:
        messages = {
            "bad_edit_token": _("This edit token does not belong to the game."),
            "missing_edit_token": _("Changing this game needs its edit token."),
            "csrf_failed": _("The page's security token is missing or stale: reload."),
        }
        raise ApiError(403, reason, messages[reason])


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
    return _json_answer(f'{state[:-1]},"edit_token":{dumps(token)}}}')


def _event_for_new_game(value: object) -> int | None:
    """Return the event a new game joins (CONTRACT §14), checked before anything
    is stored: 400 for a malformed id, 404 unknown, 403 without its token."""
    if value is None:
        return None
    if not _is_int(value) or value < 0:
        _bad(_('"event" must be an event\'s id (a whole number).'))
    token = stored_events.event_token(value)
    if token is None:
        raise ApiError(404, "not_found", _("There is no event %(id)s.", id=value))
    allowed, reason = auth.request_may_add_to_event(
        value, token, stored_events.join_token(value))
    if not allowed:
        messages = {
            "bad_event_token": _("This event token does not belong to the event."),
            "missing_event_token": _(
                "Adding a game to this event needs its event token."),
            "csrf_failed": _("The page's security token is missing or stale: reload."),
        }
        raise ApiError(403, reason, messages[reason])
    return value


def _join_event(event_id: int, game_id: int) -> None:
    """Make the new game one of the event's tables; if the event was deleted
    since it was checked, take the game back and answer 404: nothing stays."""
    if not stored_events.add_game(event_id, game_id):
        stored.delete_game(game_id)
        raise ApiError(404, "not_found", _("There is no event %(id)s.", id=event_id))


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
    event = _event_for_new_game(body.get("event"))
    refused = quotas.refusal(1, event)
    if refused is not None:
        return quotas.refusal_response(refused), refused.status
    game_id, token = stored.create_game(names, variant, first, options)
    if event is not None:
        _join_event(event, game_id)
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
    turn, updated_at = version(game_id)
    etag = f"{game_id}-{turn}-{updated_at}"
    # Weakly: a gzipped answer carries the ETag as weak (web/compress.py).
    if request.if_none_match.contains_weak(etag):
        response = Response(status=304)  # the game itself is not even loaded
    else:
        with loaded(game_id) as row:
            etag = f"{row.id}-{row.game.turn}-{row.updated_at}"
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
    try:
        # The game row is read once, in the move's write: its edit token decides
        # the right (403 before any 400 for the body, as every write answers).
        # Waitress hands over a request with its body in: no client is waited
        # on while the write is open.
        with stored.move_write(game_id) as write:
            _may_edit(game_id, write.row.edit_token)
            body = json_body()
            write.record(parse_move(body), parse_turn(body.get("turn")))
            # The answer is built from the game as the write left it: no second read.
            reply = move_answer_text(write.row)
    except TurnConflict as exc:
        return _conflict(exc, game_id)
    except engine.BadInput as exc:
        # Only the game knows its seats: a leave of no seat is read, then refused.
        _bad(text.error(exc))
    return _json_answer(reply, 201)


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


@bp.post("/games/<int:game_id>/close")
def close_game(game_id: int) -> Response:
    """End the game as it stands or abandon it ({"reason": "ended" | "abandoned",
    optional "turn"}); 200 with the state, whose final carries the reason."""
    _require_edit(game_id)
    body = json_body()
    turn = parse_turn(body.get("turn"))
    reason = body.get("reason")
    if not isinstance(reason, str) or reason not in engine.CLOSING:
        _bad(text.error(engine.BadInput("close_reason", {"value": reason})))
    try:
        stored.close_game(game_id, reason, turn)
    except TurnConflict as exc:
        return _conflict(exc, game_id)
    return _json_answer(_state(game_id))


@bp.post("/games/import")
def import_game() -> tuple[Response, int]:
    """Store a game record as a new game: 201 with state and edit token, else 422."""
    record = json_body()
    event = _event_for_new_game(query_int("event"))
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
    refused = quotas.refusal(1, event)
    if refused is not None:
        return quotas.refusal_response(refused), refused.status
    game_id, token = stored.store_game(names, game)
    if event is not None:
        _join_event(event, game_id)
    auth.remember_token(game_id, token)
    return _with_token(_state(game_id), token), 201


@bp.post("/games/<int:game_id>/preview")
def preview_move(game_id: int) -> Response:
    """Score a place move without storing it: points, breakdown, whether it ends."""
    body = json_body()
    if body.get("type", "place") != "place":
        _bad(_("Only a place move can be previewed."))
    tiles = parse_tiles(body.get("tiles"))
    with loaded(game_id) as row:
        result = row.game.preview(tiles)
    return jsonify(preview_json(result))


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


# --- insights (CONTRACT §11) ---


@bp.get("/games/<int:game_id>/hints")
def game_hints(game_id: int) -> Response:
    """Return the board's Qwirkle threats, dead cells and hot cells (CONTRACT §11)."""
    with loaded(game_id) as row:
        found = engine.hints(row.game.board).to_dict()
        found["turn"] = row.game.turn
    return jsonify(found)


@bp.get("/games/<int:game_id>/analysis")
def game_analysis(game_id: int) -> Response:
    """Return "same tiles, best spot" for every placing move, and each seat's
    efficiency (CONTRACT §11); stored, computed only where missing."""
    with loaded(game_id) as row:
        found = analysis.game_analysis(row).to_dict()
        found["turn"] = row.game.turn
    return jsonify(found)


def parse_hand(value: object) -> list[tuple[str, str]]:
    """Return the (colour, shape) of each tile of a "hand" list, or answer 400."""
    if not isinstance(value, list) or not value:
        _bad(_('"hand" must be a list of tiles, each with color and shape.'))
    if len(value) > MAX_TILES_IN_BODY:
        _bad(_("Too many tiles in one hand."))
    hand = []
    for tile in value:
        if not isinstance(tile, dict):
            _bad(_('"hand" must be a list of tiles, each with color and shape.'))
        color, shape = tile.get("color"), tile.get("shape")
        if not (isinstance(color, str) and isinstance(shape, str)):
            _bad(_("A tile's color and shape must be names."))
        hand.append((color, shape))
    return hand


@bp.post("/games/<int:game_id>/best-move")
def best_move(game_id: int) -> Response:
    """Return the best move for an open hand of Qwirkle Cubes (nothing is stored).

    Body {"hand": [{"color", "shape"}, ...]}, the faces as rolled; answer
    {"points": n, "tiles": [...]}, or points 0 and no tiles when none fits.
    """
    hand = parse_hand(json_body().get("hand"))
    with loaded(game_id) as row:
        game = row.game
        if not game.variant.open_hands:
            raise ApiError(
                422, "hands_not_open",
                _("Only in Qwirkle Cubes are hands open: here the best move stays"
                  " the player's secret."),
            )
        if game.is_over():
            raise ApiError(422, "game_over", _("The game is over."))
        try:
            best = engine.best_move(game.board, hand)
        except engine.IllegalMove:
            raise
        except ValueError as exc:
            raise ApiError(422, "bad_hand", str(exc)) from None
    if best is None:
        return jsonify({"points": 0, "tiles": []})
    return jsonify({"points": best.points, "tiles": best.tiles_dicts()})


@bp.post("/games/<int:game_id>/photo")
def read_photo(game_id: int) -> Response:
    """Read the move a photo of the board shows (CONTRACT §12); nothing is stored:
    200 {"tiles", "matched", ...} for the page to propose, else 422 photo_unreadable."""
    _require_edit(game_id)
    with loaded(game_id) as row:
        game = row.game
        if game.is_over():
            raise engine.IllegalMove("game_over")
        stored_tiles = list(game.board.tiles())
        variant = game.variant
        seq = len(game.moves)
    # The move confirmed after the last photo teaches what its tiles looked like.
    photo_lessons.settle(game_id, lesson_sums)
    try:
        reading = photo_upload.read_upload(game_id, stored_tiles, variant,
                                           photo_lessons.lessons(game_id))
    except photo_upload.NoPhoto:
        _bad(_('Send the photo as the form field "image" (multipart/form-data).'))
    except photo_upload.PhotoBusy:
        response = error_response(503, "busy", text.photo_strings()["busy"])
        response.headers["Retry-After"] = str(photo_upload.RETRY_AFTER)
        return response
    except photo_upload.PhotoTooOften as exc:
        response = error_response(429, "busy", text.photo_too_often(exc.retry_after))
        response.headers["Retry-After"] = str(exc.retry_after)
        return response
    except PhotoUnreadable as exc:
        return error_response(
            422, "photo_unreadable", text.photo_unreadable(exc.reason, exc.params),
            reason=exc.reason, params=exc.params,
        )
    photo_lessons.keep_reading(game_id, seq, reading.looks)
    tiles = reading.tiles
    for tile in tiles:
        if tile["low"]:
            tile["label"] = text.photo_unsure_label(
                tile["color"], tile["shape"], tile["row"], tile["col"])
    conflicts = [
        (c["row"], c["col"], c["stored"]["color"], c["stored"]["shape"],
         c["seen"]["color"], c["seen"]["shape"])
        for c in reading.conflicts
    ]
    return jsonify({
        "tiles": tiles,
        "matched": reading.matched,
        "conflicts": reading.conflicts,
        "text": text.photo_summary(len(tiles), sum(t["low"] for t in tiles)),
        "glare": reading.glare,
        "unread": reading.unread,
        "warning": " ".join(filter(None, (
            text.photo_unread([(r, c) for r, c in reading.unread]),
            text.photo_glare([(r, c) for r, c in reading.glare]),
            text.photo_conflicts(conflicts)))) or None,
    })
