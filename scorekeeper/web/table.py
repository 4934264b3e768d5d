"""The table's pages: home, new game, the game page and its moves, the join link."""

from __future__ import annotations

import io
import json
from typing import Any

import segno
from flask import (
    Blueprint,
    abort,
    current_app,
    flash,
    jsonify,
    redirect,
    render_template,
    request,
    url_for,
)
from flask.typing import ResponseReturnValue
from werkzeug.wrappers import Response

from .. import engine, net, text
from ..i18n import gettext as _
from ..i18n import ngettext
from ..store import GameRow, NothingToUndo, TurnConflict, analysis, loaded, stats
from ..store import events as club
from ..store import games as stored
from . import quotas
from .auth import (
    PinRefusal,
    device_event_ids,
    game_pin_refusal,
    holds_event,
    remember_token,
    same_text,
)
from .forms import (
    CLASSIC_SEATS,
    MAX_SEATS,
    ClaimForm,
    CloseForm,
    LeaveForm,
    NewGameForm,
    PenaltyForm,
    TradeForm,
    TurnForm,
    choice,
    thinking_seconds,
)
from .pages import can_edit, require_edit, script_json, turn_elapsed
from .state import (
    cell_options_json,
    cells_options_json,
    refusal_answer_json,
    state_text,
)

RECENT = 5
"""How many of the last moves the game page lists for correction."""

bp = Blueprint("table", __name__)

KNOWN_NAMES = 40
"""Player names the new-game form suggests."""

MAX_PENDING = 12
"""Most pending tiles the options endpoint looks at (a hand holds at most 12)."""

MAX_CELLS = 8
"""Most cells one options request may ask about (the page asks for 4 at most)."""

MAX_PENDING_CHARS = 2000
"""Longest `tiles` query the options endpoint reads (12 tiles take ~500)."""




def _join_link(row: GameRow) -> str | None:
    """Return the join link, or None when the server is only reachable on this
    device.

    The address is the one the server listens on (the command puts it in the
    config), never the request's Host header, which a guest may set.
    """
    port = current_app.config.get("LISTEN_PORT") or request.environ.get("SERVER_PORT")
    base = net.reachable_url(
        current_app.config.get("LISTEN_HOST"), int(port) if port else None
    )
    if base is None:
        return None
    path = url_for("table.join", game_id=row.id, token=row.edit_token)
    return base.rstrip("/") + path


def discipline_context(row: GameRow, editable: bool) -> dict[str, Any]:
    """Return what the game page shows of the table discipline (RULES §7): the
    penalties it can record for the player to move, and the countdown."""
    game = row.game
    options = game.options
    active = game.status == "active"
    name = row.names[game.current_player]
    # Each penalty: its reason, its label naming the player to move, and the
    # label with a gap for the name (table.js names the next player after a move).
    penalties = [
        (reason.value, text.penalty_action(reason, name, options),
         text.penalty_action(reason, "%(name)s", options))
        for reason in options.penalties
    ] if active and editable else []
    labels = {reason: (label, template) for reason, label, template in penalties}
    countdown = None
    if active and options.move_seconds is not None:
        elapsed = turn_elapsed(row)
        countdown = {
            "seconds": options.move_seconds,
            "elapsed": elapsed,
            "left": text.thinking_time(max(0, options.move_seconds - elapsed)),
            # One tap at zero records the timeout penalty, where there is one:
            # the tap button's label, or "" for none.
            "tap": labels.get("timeout", ("", ""))[0],
            "tap_label": labels.get("timeout", ("", ""))[1],
            "strings": json.dumps(text.countdown_strings(), ensure_ascii=False),
        }
    return {
        "options": options,
        "penalties": penalties,
        "penalty_form": PenaltyForm(turn=game.turn),
        "countdown": countdown,
        "excluded": sorted(game.excluded),
        "left": game.left,
    }


def page_context(row: GameRow) -> dict[str, Any]:
    """Return everything the game page template needs."""
    game = row.game
    variant = game.variant
    editable = can_edit(row)
    final = game.final
    trade_form = TradeForm(turn=game.turn)
    trade_form.count.choices = [
        choice(n, str(n)) for n in range(1, game.max_trade() + 1)
    ]
    join_url = _join_link(row) if editable else None
    unseen = game.unseen_by_kind()
    supply = game.unseen()
    last = game.moves[-1] if game.moves else None
    return {
        "row": row,
        "game": game,
        "variant": variant,
        "names": row.names,
        "editable": editable,
        "active": game.status == "active",
        # The API's state (web/state.py), without its list of moves: the page's
        # scripts start from it and apply each answer's state the same way.
        "state_script": script_json(state_text(row, moves=False)),
        "text_json": json.dumps(text.board_strings(variant), ensure_ascii=False),
        "letters_json": json.dumps(text.color_letters(variant), ensure_ascii=False),
        "hints_json": json.dumps(text.hint_strings(variant), ensure_ascii=False),
        "last_points": text.last_points(game),
        "last_move": last,
        # The last few moves, newest first, each with a link to its correction.
        "recent": [
            (n, text.move_line(move, row.names))
            for n, move in list(enumerate(game.moves, 1))[-RECENT:][::-1]
        ],
        "show_hands": game.bag == 0,
        "tracker": [
            [(color, shape, unseen[(color, shape)]) for shape in variant.shape_names]
            for color in variant.color_names
        ],
        "color_left": [
            (color, supply[variant.supply_key(color, variant.shape_names[0])])
            for color in variant.color_names
        ] if variant.supply_per_color else [],
        "can_trade": game.max_trade() > 0,
        "can_pass": game.can_pass(),
        "trade_form": trade_form,
        "turn_form": TurnForm(turn=game.turn),
        "final": final,
        "ranking": final.ranking() if final is not None and final.scored else [],
        # Each seat's efficiency on the final screen (CONTRACT §11), stored as the
        # game ended.
        "efficiency": [
            text.percent(seat.ratio)
            for seat in analysis.game_analysis(row).efficiency
        ] if final is not None else [],
        "closed": game.closed,
        "close_form": CloseForm(turn=game.turn),
        "end_reason": (
            text.final_reason(final, row.names, variant) if final is not None else ""
        ),
        "join_url": join_url,
        "game_pin": row.pin if editable else None,
        # A finished game is not claimed by its PIN: renaming and deleting it
        # belong to the devices that hold the right, and the admin (claim).
        "claim_form": None if editable or final is not None else ClaimForm(),
        **discipline_context(row, editable),
    }


# --- pages ---


@bp.get("/")
def home() -> str:
    """Show the start button, the running games and the recent finished ones."""
    running = stats.list_games(status="active", limit=20)
    for listed in running:
        listed["set_name"] = text.set_name(engine.Variant.from_dict(listed["variant"]))
    finished = stats.list_games(status="finished", limit=10)
    seats = stats.game_players_for([listed["id"] for listed in finished])
    for listed in finished:
        # The stored winners: an excluded player is never one (RULES §7).
        listed["winners"] = [
            p["seat"] for p in seats.get(listed["id"], []) if p["is_winner"]
        ]
    return render_template("table/home.html", running=running, finished=finished)


@bp.route("/games/new", methods=["GET", "POST"])
def new() -> str | Response:
    """Show the new-game form; on a valid POST store the game and open it."""
    form = NewGameForm()
    offered = _events_offered()
    form.event.choices = [choice("", _("None"))] + [
        choice(str(e["id"]), f"{e['name']} · {text.day(e['date'])}") for e in offered
    ]
    if request.method == "GET" and request.args.get("event", "").isdigit():
        form.event.data = request.args["event"]
    tie: list[str] = []
    near: dict[str, list[str]] = {}
    # Names already played, most games first: the name fields suggest them.
    played = [p["name"] for p in stats.player_summaries()]
    if form.validate_on_submit():
        first = form.first_player()
        if first is None:
            tie = [form.names[i].data or "" for i in form.tied_seats()]
            # The table picks among the tied players only.
            form.starter.choices = [choice("", _("Pick who starts"))] + [
                choice(str(i), form.names[i].data or "") for i in form.tied_seats()
            ]
        elif (near := _near_known(form.player_names(), played)) and \
                request.form.get("names_checked") != "1":
            pass  # the page asks "did you mean" first (near)
        elif (refused := quotas.refusal(
                1, int(form.event.data) if form.event.data else None)) is not None:
            flash(refused.message, "error")
        else:
            try:
                game_id, token = stored.create_game(
                    form.player_names(), form.variant(), first, form.options()
                )
            except engine.EngineError as exc:
                flash(text.error(exc), "error")
            else:
                if form.event.data and not club.add_game(int(form.event.data), game_id):
                    # The club night was deleted after the form was drawn.
                    stored.delete_game(game_id)
                    abort(404)
                remember_token(game_id, token)
                flash(starter_text(form, first), "info")
                return redirect(url_for("table.game", game_id=game_id))
    known = played[:KNOWN_NAMES]
    return render_template(
        "table/new.html",
        form=form,
        near=near if form.is_submitted() else {},
        discipline_open=form.discipline_chosen(),
        tie=tie,
        known=known,
        classic_seats=CLASSIC_SEATS,
        max_seats=MAX_SEATS,
        max_name=engine.MAX_NAME_LENGTH,
        events=offered,
    )


def _near_known(names: list[str], known: list[str]) -> dict[str, list[str]]:
    """Return each typed name that no one has played under but that is near a
    name played before (known; "Chloe" beside "Chloé"), with the names it may
    mean."""
    keys = {engine.name_key(name) for name in known}
    return {
        name: found for name in names
        if engine.name_key(name) not in keys
        and (found := engine.near_names(name, known))
    }


def _events_offered() -> list[dict[str, Any]]:
    """Return the club nights this device may add a table to (it holds their
    token: it created them or followed their join link), newest first."""
    offered = []
    for event_id in device_event_ids():
        if holds_event(event_id, club.event_token(event_id)) \
                or holds_event(event_id, club.join_token(event_id)):
            offered.append(club.get_event(event_id))
    return sorted(offered, key=lambda e: (e["date"], e["id"]), reverse=True)


def starter_text(form: NewGameForm, first: int) -> str:
    """Return who starts and why (RULES §2), for the flash after creating a game."""
    name = form.player_names()[first]
    seat = form.seats()[first][0]
    length = form.openings[seat].data
    if form.starter.data:
        return _("%(name)s starts (the table's choice).", name=name)
    if length:
        return ngettext(
            "%(name)s starts: the longest opening row (%(num)d tile).",
            "%(name)s starts: the longest opening row (%(num)d tiles).",
            length, name=name,
        )
    return _("%(name)s starts (first seat).", name=name)


@bp.get("/games/<int:game_id>")
def game(game_id: int) -> str:
    """Show the game: board, scores, tracker, move entry (or the final screen)."""
    with loaded(game_id) as row:
        return render_template("table/game.html", **page_context(row))


@bp.get("/games/<int:game_id>/join.svg")
def join_code(game_id: int) -> Response:
    """Draw the join link as a QR code, for a device that may enter moves (the
    page loads it only when its share section is opened: bytes on the wire)."""
    with loaded(game_id) as row:
        allowed = can_edit(row)
        url = _join_link(row) if allowed else None
    if not allowed:
        abort(403)
    if url is None:
        abort(404)
    svg = io.BytesIO()
    # A file of its own needs the SVG namespace (svg_inline leaves it out, and an
    # <img> then shows a broken image); a viewBox, no size: the page sizes it.
    segno.make(url, error="m").save(
        svg, kind="svg", scale=3, dark="#000", light="#fff", omitsize=True,
        xmldecl=False, svgns=True, nl=False,
    )
    response = Response(svg.getvalue(), mimetype="image/svg+xml")
    # The code holds the edit token: never kept by a shared cache.
    response.cache_control.private = True
    response.cache_control.no_store = True
    return response


@bp.get("/games/<int:game_id>/join/<token>")
def join(game_id: int, token: str) -> Response:
    """Give this device the game's right (the join link), then open the game."""
    with loaded(game_id) as row:
        edit_token = row.edit_token
    # As bytes: a str holding non-ASCII characters makes compare_digest raise.
    if not same_text(token, edit_token):
        abort(404)
    remember_token(game_id, token)
    flash(_("This device can now enter moves for this game."), "info")
    return redirect(url_for("table.game", game_id=game_id))


@bp.post("/games/<int:game_id>/claim")
def claim(game_id: int) -> ResponseReturnValue:
    """Give this device the right to enter moves back, for the right game PIN.

    Wrong PINs count per address and per device (web.auth.check_pin): after
    a few, 429 with Retry-After, for the guesser only. A device that holds
    the right is never asked; a finished game is never claimed by its PIN
    (renaming and deleting it belong to the devices that hold the right, and
    the admin).
    """
    form = ClaimForm()
    with loaded(game_id) as row:
        token, pin = row.edit_token, row.pin
        finished = row.game.status == "finished"
        holds = can_edit(row)
    if not form.validate_on_submit():
        abort(400)
    if holds:
        return redirect(url_for("table.game", game_id=game_id))
    if finished:
        refusal: PinRefusal | None = PinRefusal(403)
    else:
        refusal = game_pin_refusal(game_id, form.pin.data, pin)
    if refusal is None:
        remember_token(game_id, token)
        flash(_("This device can now enter moves for this game."), "info")
        return redirect(url_for("table.game", game_id=game_id))
    with loaded(game_id) as row:
        context = page_context(row)
    if finished:
        message, headers = _(
            "This game is over: its PIN no longer gives the right to change it."
        ), {}
    elif refusal.status == 429:
        message = text.game_pins_refused(refusal.retry_after)
        headers = {"Retry-After": str(refusal.retry_after)}
    else:
        message, headers = _("That is not this game's PIN."), {}
    body = render_template("table/game.html", claim_error=message, **context)
    return body, refusal.status, headers


def _parse_cell(raw: str | None) -> tuple[int, int] | None:
    try:
        row, col = (int(part) for part in (raw or "")[:40].split(","))
    except ValueError:
        return None
    limit = engine.MAX_COORDINATE
    return (row, col) if abs(row) <= limit and abs(col) <= limit else None


def _parse_pending(raw: str | None) -> list[engine.Placement] | None:
    if raw is not None and len(raw) > MAX_PENDING_CHARS:
        return None
    try:
        items = json.loads(raw or "[]")
    except (ValueError, RecursionError):
        return None
    if not isinstance(items, list) or len(items) > MAX_PENDING:
        return None
    try:
        return engine.parse_tiles(items, as_lists=True)
    except engine.BadInput:
        return None


@bp.get("/games/<int:game_id>/options")
def options(game_id: int) -> Response | tuple[Response, int]:
    """Return the cell options of the game now (_options)."""
    return _options(game_id)


@bp.get("/games/<int:game_id>/moves/<int:number>/options")
def past_options(game_id: int, number: int) -> Response | tuple[Response, int]:
    """Return the cell options as they were for move `number` (1-based): the
    correction page's picker (static/correct.js), as _options answers."""
    return _options(game_id, before=number)


def _options(
    game_id: int, before: int | None = None
) -> Response | tuple[Response, int]:
    """Return the tile kinds that may go on `cell` with the pending tiles, and
    what each would score.

    Query: cell=r,c and tiles=[[r,c,color,shape],...] (JSON). Read-only. "kinds"
    lists the kinds that fit (the picker greys every other); "previews" gives,
    per kind, what the move would do with it (state.option_json: points, the
    breakdown's sentence, Qwirkle, end and bonus) or, for a move a later tile
    may still mend, its "error". The page shows a picked tile's score from
    here, without another request; the engine decides, as for the move itself.

    With cells=r,c;r,c;... instead of cell: the same for each of those cells,
    {"turn", "cells": {"r,c": previews}} (the page asks ahead for the cells a
    player may tap next). Without either (and without tiles): the same for a
    move's first tile on every cell where one may go; the page asks it once per
    turn, so that a first tap needs no request at all; it also lists under
    "dead" the cells beside the board where no tile may go.

    With why=colour+shape (and cell, tiles): why that kind may not go there,
    {"cell", "turn", "kind", "error": refusal or null}: the page's answer to a
    tap on a greyed tile.

    With `before`: the same for the game replayed to just before that move.
    """
    raw_cell, raw_cells = request.args.get("cell"), request.args.get("cells")
    cell = _parse_cell(raw_cell)
    pending = _parse_pending(request.args.get("tiles"))
    several = [_parse_cell(part) for part in (raw_cells or "").split(";") if part]
    raw_why = request.args.get("why")
    why = tuple(raw_why[:40].split(" ")) if raw_why is not None else None
    if (
        pending is None
        or (why is not None and (cell is None or len(why) != 2))
        or (raw_cell is not None and cell is None)
        or None in several or len(several) > MAX_CELLS
        or (raw_cells is not None and (not several or raw_cell is not None))
        or (raw_cell is None and raw_cells is None and pending)
    ):
        return jsonify({"error": {"code": "bad_request", "message": _(
            "Give cell=row,col and tiles as a JSON list of [row, col, colour, shape]."
        )}}), 400
    with loaded(game_id) as row:
        game = row.game
        if before is not None:
            if not 1 <= before <= game.turn:
                abort(404)
            game = game.replayed_to(before - 1)
        if why is not None and cell is not None:
            if why not in game.variant.kinds:
                return jsonify({"error": {"code": "bad_request", "message": _(
                    "Give why=colour shape, a tile of this game's set."
                )}}), 400
            return jsonify(refusal_answer_json(game, cell, (why[0], why[1]), pending))
        if cell is None:
            return jsonify(cells_options_json(
                game, [at for at in several if at is not None], pending))
        return jsonify(cell_options_json(game, cell, pending))


def _turn_from(form: TradeForm | TurnForm | PenaltyForm | LeaveForm) -> int | None:
    raw = form.turn.data
    try:
        return int(raw) if raw is not None else None
    except ValueError:
        return None


def _store(
    game_id: int, move: dict[str, Any], turn: int | None
) -> engine.Move | None:
    """Record a move from a form post, flashing what the engine or the store
    says; return the move recorded (None when refused)."""
    try:
        return stored.record_move(game_id, move, expected_turn=turn)
    except TurnConflict:
        flash(_("Another device entered a move first; here is the game now."), "error")
    except engine.IllegalMove as exc:
        flash(text.illegal_move(exc), "error")
    return None


def _timed(move: dict[str, Any], form: TradeForm | TurnForm) -> dict[str, Any]:
    """Return the move with the thinking time the form carries, if any."""
    seconds = thinking_seconds(form)
    return move if seconds is None else {**move, "seconds": seconds}


@bp.post("/games/<int:game_id>/trade")
def trade(game_id: int) -> Response:
    """Record a trade of the chosen number of tiles (the engine checks the count)."""
    require_edit(game_id)
    form = TradeForm()
    form.count.choices = [choice(n, str(n)) for n in range(1, 13)]
    if form.validate_on_submit():
        _store(
            game_id, _timed({"type": "trade", "count": form.count.data}, form),
            _turn_from(form),
        )
    else:
        flash(_("Choose how many tiles to trade."), "error")
    return redirect(url_for("table.game", game_id=game_id))


@bp.post("/games/<int:game_id>/pass")
def pass_turn(game_id: int) -> Response:
    """Record a pass (allowed only with the bag empty; the engine checks)."""
    require_edit(game_id)
    form = TurnForm()
    if form.validate_on_submit():
        _store(game_id, _timed({"type": "pass"}, form), _turn_from(form))
    return redirect(url_for("table.game", game_id=game_id))


@bp.post("/games/<int:game_id>/penalty")
def penalty(game_id: int) -> Response:
    """Record a penalty for the player to move (RULES §7): the button pressed
    says why, the table's options what it costs."""
    require_edit(game_id)
    form = PenaltyForm()
    if not form.validate_on_submit():
        flash(_("The penalty could not be recorded: reload the page and try again."),
              "error")
    elif form.reason.data not in ("illegal", "timeout"):
        flash(_("Say why the penalty is given: an illegal move or running out of"
                " time."), "error")
    else:
        move = _store(
            game_id, {"type": "penalty", "reason": form.reason.data},
            _turn_from(form),
        )
        if move is not None:
            with loaded(game_id) as row:
                flash(text.move_line(move, row.names), "info")
    return redirect(url_for("table.game", game_id=game_id))


def _seat(row: GameRow, raw: object) -> int:
    """Return the seat a leave names; 404 for no seat of the game."""
    seat = int(raw) if isinstance(raw, str) and raw.isdecimal() else -1
    if not 0 <= seat < row.game.players:
        abort(404)
    return seat


@bp.get("/games/<int:game_id>/leave")
def leave_page(game_id: int) -> ResponseReturnValue:
    """Ask who leaves the game, then to confirm it (RULES §7.5)."""
    require_edit(game_id)
    with loaded(game_id) as row:
        if row.game.is_over():
            return redirect(url_for("table.game", game_id=game_id))
        if "player" not in request.args:
            return render_template("table/leave.html", row=row, seat=None)
        seat = _seat(row, request.args.get("player"))
        if seat not in row.game.in_play():
            return redirect(url_for("table.game", game_id=game_id))
        return render_template(
            "table/leave.html", row=row, seat=seat, name=row.names[seat],
            form=LeaveForm(player=seat, turn=row.game.turn),
        )


@bp.post("/games/<int:game_id>/leave")
def leave(game_id: int) -> Response:
    """Record that a player leaves the game: their tiles go back into the bag
    and the others play on (RULES §7.5)."""
    require_edit(game_id)
    form = LeaveForm()
    with loaded(game_id) as row:
        seat = _seat(row, form.player.data)
        names = row.names
    if not form.validate_on_submit():
        flash(_("The player could not leave: reload the page and try again."),
              "error")
    else:
        move = _store(game_id, {"type": "leave", "player": seat}, _turn_from(form))
        if move is not None:
            flash(text.move_line(move, names), "info")
    return redirect(url_for("table.game", game_id=game_id))


@bp.post("/games/<int:game_id>/close")
def close(game_id: int) -> Response:
    """End the game as it stands, or abandon it (the button pressed says which);
    it stays in history, marked as such."""
    require_edit(game_id)
    form = CloseForm()
    reason = form.reason.data
    if not form.validate_on_submit() or reason not in engine.CLOSING:
        flash(_("The game could not be closed: reload the page and try again."),
              "error")
        return redirect(url_for("table.game", game_id=game_id))
    try:
        stored.close_game(game_id, reason, expected_turn=_turn_from(form))
    except TurnConflict:
        flash(_("The game changed meanwhile; it was not closed."), "error")
    except engine.IllegalMove:
        flash(_("The game is already over."), "error")
    else:
        flash(text.end_reason(reason), "info")
    return redirect(url_for("table.game", game_id=game_id))


@bp.post("/games/<int:game_id>/reopen")
def reopen(game_id: int) -> Response:
    """Take back ending or abandoning the game: it runs on from where it stood."""
    require_edit(game_id)
    form = TurnForm()
    if form.validate_on_submit():
        try:
            if stored.reopen_game(game_id, expected_turn=_turn_from(form)):
                flash(_("The game runs on."), "info")
        except TurnConflict:
            flash(_("The game changed meanwhile; nothing was changed."), "error")
    return redirect(url_for("table.game", game_id=game_id))


@bp.route("/games/<int:game_id>/undo", methods=["GET", "POST"])
def undo(game_id: int) -> str | Response:
    """Ask to confirm taking back the last move; on POST take it back."""
    if request.method == "POST":
        require_edit(game_id)
        form = TurnForm()
        if form.validate_on_submit():
            try:
                stored.undo_last_move(game_id, expected_turn=_turn_from(form))
            except TurnConflict:
                flash(_("The game changed meanwhile; nothing was undone."), "error")
            except NothingToUndo:
                flash(_("There is no move to undo."), "error")
            else:
                flash(_("The last move was taken back."), "info")
        return redirect(url_for("table.game", game_id=game_id))
    with loaded(game_id) as row:
        if not can_edit(row):
            abort(403)
        if not row.game.moves:
            flash(_("There is no move to undo."), "error")
            return redirect(url_for("table.game", game_id=game_id))
        return render_template(
            "table/undo.html",
            row=row,
            form=TurnForm(turn=row.game.turn),
            last=row.game.moves[-1],
        )
