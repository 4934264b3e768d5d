"""The table app's pages: home, new game, game page, trade/pass/undo, join link."""

from __future__ import annotations

import hmac
import json
from typing import Any
from urllib.parse import urlsplit, urlunsplit

import segno
from flask import (
    Blueprint,
    abort,
    flash,
    jsonify,
    redirect,
    render_template,
    request,
    url_for,
)
from werkzeug.wrappers import Response

from . import db, engine
from .auth import remember_token
from .forms import (
    CLASSIC_SEATS,
    MAX_SEATS,
    NewGameForm,
    TradeForm,
    TurnForm,
    choice,
)
from .i18n import _
from .pages import can_edit, load_or_404, load_to_edit, loaded
from .timefmt import time_tag

bp = Blueprint("games", __name__)
# Every page's timestamps go through one helper (history and player pages too).
bp.add_app_template_global(time_tag, "time_tag")

#: Letters marking each colour in colour-blind mode (pink K, brown N: distinct).
COLOR_LETTERS = {
    "red": "R", "orange": "O", "yellow": "Y", "green": "G",
    "blue": "B", "purple": "P", "pink": "K", "brown": "N",
}



def end_reason_text(reason: str, names: list[str], bonus_player: int | None) -> str:
    """Return how the game ended, as the final screen says it (translated per call)."""
    if reason == "hand_emptied" and bonus_player is not None:
        return _(
            "%(name)s placed their last tile with the bag empty: +6 end bonus.",
            name=names[bonus_player],
        )
    if reason == "stalled":
        return _("No tile left in the game can be placed anywhere: no end bonus.")
    if reason == "all_passed":
        return _("Every player passed in turn: no end bonus.")
    return reason


# --- the edit token in the session ---


# --- what the pages show ---


def _tile_key(color: str, shape: str) -> str:
    return f"{color} {shape}"


def last_points(game: engine.Game) -> list[str | None]:
    """Return, per seat, a text of that player's latest move ("+7", "passed")."""
    out: list[str | None] = [None] * game.players
    for move in reversed(game.moves):
        if out[move.player] is not None:
            continue
        if move.type == "place":
            bonus = move.end_bonus or 0
            out[move.player] = f"+{move.score + bonus}"
        elif move.type == "trade":
            out[move.player] = _("traded %(n)s", n=move.count)
        else:
            out[move.player] = _("passed")
        if all(text is not None for text in out):
            break
    return out


def breakdown_text(move: Any) -> str:
    """Return a move's score as "red line 4 + square line 3 = 7" (Qwirkles named)."""
    if move.type != "place":
        return ""
    parts = []
    lines = move.breakdown.lines if move.breakdown else ()
    for line in lines:
        if line.kind == "tile":
            parts.append(_("single tile 1"))
            continue
        part = _("%(value)s line %(length)s", value=line.value, length=line.length)
        if line.qwirkle:
            part += " + " + _("QWIRKLE %(n)s", n=line.points - line.length)
        parts.append(part)
    if move.end_bonus:
        parts.append(_("end bonus %(n)s", n=move.end_bonus))
    total = move.score + (move.end_bonus or 0)
    return " + ".join(parts) + f" = {total}" if parts else str(total)


def unseen_by_kind(game: engine.Game) -> dict[tuple[str, str], int]:
    """Return, for every colour-and-shape the picker offers, how many are off the board.

    For Qwirkle Cubes a cube can show any face, so each face of a colour counts
    the cubes of that colour still off the board (RULES §7).
    """
    unseen = game.unseen()
    variant = game.variant
    if variant.is_cubes:
        return {
            (color, shape): unseen.get((color, ""), 0)
            for color in variant.color_names
            for shape in variant.shape_names
        }
    return unseen


def board_state(row: db.GameRow, editable: bool) -> dict[str, Any]:
    """Return the compact state board.js draws from (no move history)."""
    game = row.game
    last = game.moves[-1] if game.moves else None
    return {
        "cubes": game.variant.is_cubes,
        "id": row.id,
        "turn": game.turn,
        "status": game.status,
        "edit": editable and game.status == "active",
        "colors": list(game.variant.color_names),
        "shapes": list(game.variant.shape_names),
        "board": [[r, c, color, shape] for r, c, color, shape in game.board.tiles()],
        "last": [[p.row, p.col] for p in last.tiles] if last is not None else [],
        "unseen": {
            _tile_key(color, shape): n
            for (color, shape), n in unseen_by_kind(game).items()
        },
    }


def js_text(variant: engine.Variant) -> dict[str, str]:
    """Return the sentences board.js shows, in the page's language (gettext)."""
    cubes = variant.is_cubes
    text = {
        "single": _("single tile 1"),
        "line": _("%(value)s line %(length)s"),
        "qwirkle": _("QWIRKLE %(n)s"),
        "end_bonus": _("end bonus %(n)s"),
        "ends": _("ends the game"),
        "illegal": _("That move is not allowed."),
        "conflict": _("Another device entered a move first. Reloading…"),
        "forbidden": _("This device may not enter moves for this game: scan the "
                       "game's code from the device that started it."),
        "refused": _("The move was refused (%(status)s)."),
        "offline": _("No connection to the scorekeeper. Try again."),
        "ready": (
            _("%(n)s cube(s) ready: confirm to score.")
            if cubes
            else _("%(n)s tile(s) ready: confirm to score.")
        ),
    }
    # Colour and shape names as the breakdown names them.
    for name in (*variant.color_names, *variant.shape_names):
        text[name] = _(name)
    return text


LOOPBACK = {"127.0.0.1", "localhost", "[::1]", "::1"}
"""Host names another device cannot reach."""


def lan_url(url: str) -> str | None:
    """Return url with a loopback host replaced by this machine's LAN address, if any.

    The laptop serving the table often opens the page as localhost; the phone that
    scans the QR code needs the address it can reach.
    """
    from .__main__ import lan_addresses

    addresses = lan_addresses()
    if not addresses:
        return None
    parts = urlsplit(url)
    netloc = addresses[0] + (f":{parts.port}" if parts.port else "")
    return urlunsplit(parts._replace(netloc=netloc))


def page_context(row: db.GameRow) -> dict[str, Any]:
    """Return everything the game page template needs."""
    game = row.game
    editable = can_edit(row)
    final = game.final
    ranking = []
    if final is not None:
        order = sorted(range(game.players), key=lambda seat: -final.scores[seat])
        top = final.scores[order[0]]
        for place, seat in enumerate(order):
            rank = 1 + sum(1 for s in final.scores if s > final.scores[seat])
            ranking.append({
                "rank": rank,
                "seat": seat,
                "name": row.names[seat],
                "score": final.scores[seat],
                "winner": final.scores[seat] == top,
                "bonus": final.end_bonus_player == seat,
                "place": place,
            })
    cubes = game.variant.is_cubes
    hand = game.hands[game.current_player]
    # Qwirkle Cubes has no trading and no passing (RULES §7).
    trade_max = 0 if cubes else min(hand, game.bag)
    trade_form = TradeForm(turn=game.turn)
    trade_form.count.choices = [choice(n, str(n)) for n in range(1, trade_max + 1)]
    join_url = qr_svg = None
    loopback = request.host.rsplit(":", 1)[0] in LOOPBACK
    if editable:
        join_url = url_for(
            "games.join", game_id=row.id, token=row.edit_token, _external=True
        )
        if loopback:
            join_url = lan_url(join_url) or join_url
        qr_svg = segno.make(join_url, error="m").svg_inline(
            scale=3, dark="#000", light="#fff", omitsize=True
        )
    last = game.moves[-1] if game.moves else None
    unseen = unseen_by_kind(game)
    return {
        "row": row,
        "cubes": cubes,
        "color_left": [
            (color, unseen[(color, game.variant.shape_names[0])])
            for color in game.variant.color_names
        ] if cubes else [],
        "game": game,
        "names": row.names,
        "editable": editable,
        "active": game.status == "active",
        "state_json": json.dumps(board_state(row, editable), separators=(",", ":")),
        "text_json": json.dumps(js_text(game.variant), ensure_ascii=False),
        "last_points": last_points(game),
        "last_move": last,
        "last_text": breakdown_text(last) if last is not None else "",
        "show_hands": game.bag == 0,
        "tracker": [
            [(color, shape, unseen.get((color, shape), 0))
             for shape in game.variant.shape_names]
            for color in game.variant.color_names
        ],
        "can_trade": game.turn > 0 and trade_max > 0,
        "can_pass": not cubes and game.bag == 0 and game.turn > 0,
        "trade_form": trade_form,
        "turn_form": TurnForm(turn=game.turn),
        "final": final,
        "ranking": ranking,
        "end_reason": end_reason_text(
            final.reason.value, row.names, final.end_bonus_player
        ) if final else "",
        "join_url": join_url,
        "qr_svg": qr_svg,
        "loopback": loopback and join_url is not None and urlsplit(join_url).hostname
        in LOOPBACK,
        "letters": COLOR_LETTERS,
    }


# --- pages ---


@bp.get("/")
def home() -> str:
    """Show the start button, the running games and the recent finished ones."""
    running = db.list_games(status="active", limit=20)
    finished = db.list_games(status="finished", limit=10)
    return render_template("games/home.html", running=running, finished=finished)


#: Player names the new-game form suggests.
KNOWN_NAMES = 40


@bp.route("/games/new", methods=["GET", "POST"])
def new() -> str | Response:
    """Show the new-game form; on a valid POST store the game and open it."""
    form = NewGameForm()
    tie: list[str] = []
    if form.validate_on_submit():
        first = form.first_player()
        if first is None:
            tie = [form.names[i].data for i in form.tied_seats()]
            # The table picks among the tied players only.
            form.starter.choices = [choice("", _("Pick who starts"))] + [
                choice(str(i), form.names[i].data) for i in form.tied_seats()
            ]
        else:
            try:
                variant = engine.Variant(**form.variant())  # type: ignore[arg-type]
                game_id, token = db.create_game(form.player_names(), variant, first)
            except ValueError as exc:
                flash(str(exc), "error")
            else:
                remember_token(game_id, token)
                flash(starter_text(form, first), "info")
                return redirect(url_for("games.game", game_id=game_id))
    # Names already played, most games first: the name fields suggest them.
    known = [p["name"] for p in db.player_summaries()[:KNOWN_NAMES]]
    return render_template(
        "games/new.html",
        form=form,
        tie=tie,
        known=known,
        classic_seats=CLASSIC_SEATS,
        max_seats=MAX_SEATS,
    )


def starter_text(form: NewGameForm, first: int) -> str:
    """Return who starts and why (RULES §2), for the flash after creating a game."""
    name = form.player_names()[first]
    seat = form.seats()[first][0]
    length = form.openings[seat].data
    if form.starter.data:
        return _("%(name)s starts (the table's choice).", name=name)
    if length:
        return _(
            "%(name)s starts: the longest opening row (%(n)s tiles).",
            name=name, n=length,
        )
    return _("%(name)s starts (first seat).", name=name)


@bp.get("/games/<int:game_id>")
def game(game_id: int) -> str:
    """Show the game: board, scores, tracker, move entry (or the final screen)."""
    with loaded(game_id) as row:
        return render_template("games/game.html", **page_context(row))


@bp.get("/games/<int:game_id>/join/<token>")
def join(game_id: int, token: str) -> Response:
    """Take a game's edit token into this browser's session, then open the game."""
    with loaded(game_id) as row:
        edit_token = row.edit_token
    if not hmac.compare_digest(token, edit_token):
        abort(404)
    remember_token(game_id, token)
    flash(_("This device can now enter moves for this game."), "info")
    return redirect(url_for("games.game", game_id=game_id))


#: Most pending tiles the options endpoint looks at (a hand holds at most 12).
MAX_PENDING = 12


def _parse_cell(text: str | None) -> tuple[int, int] | None:
    try:
        row, col = (int(part) for part in (text or "").split(","))
    except ValueError:
        return None
    return row, col


def _parse_pending(text: str | None) -> list[tuple[int, int, str, str]] | None:
    try:
        items = json.loads(text or "[]")
    except ValueError:
        return None
    if not isinstance(items, list) or len(items) > MAX_PENDING:
        return None
    out = []
    for item in items:
        if not (isinstance(item, list) and len(item) == 4):
            return None
        r, c, color, shape = item
        if not (type(r) is int and type(c) is int
                and isinstance(color, str) and isinstance(shape, str)):
            return None
        out.append((r, c, color, shape))
    return out


@bp.get("/games/<int:game_id>/options")
def options(game_id: int) -> Response | tuple[Response, int]:
    """Return the tile kinds that may go on `cell` together with the pending tiles.

    Query: cell=r,c and tiles=[[r,c,color,shape],...] (JSON). Read-only: the picker
    greys out every other kind; the engine decides, as for the move itself.
    """
    cell = _parse_cell(request.args.get("cell"))
    pending = _parse_pending(request.args.get("tiles"))
    if cell is None or pending is None:
        return jsonify({"error": {"code": "bad_request", "message": _(
            "Give cell=row,col and tiles as a JSON list of [row, col, colour, shape]."
        )}}), 400
    row = load_or_404(game_id)
    try:
        game = row.game
        cubes = game.variant.is_cubes
        used: dict[tuple[str, str], int] = {}
        for _r, _c, color, shape in pending:
            # Cubes run out per colour, tiles per colour and shape.
            used_key = (color, "" if cubes else shape)
            used[used_key] = used.get(used_key, 0) + 1
        unseen = game.unseen()
        kinds = []
        if not game.is_over():
            for color, shape in unseen_by_kind(game):
                used_key = (color, "" if cubes else shape)
                if unseen.get(used_key, 0) - used.get(used_key, 0) <= 0:
                    continue
                try:
                    game.check_place([*pending, (*cell, color, shape)])
                except engine.IllegalMove as exc:
                    # A gap may still be filled by a later tile of the same move.
                    if exc.code != "gap":
                        continue
                kinds.append(f"{color} {shape}")
    finally:
        db.release(row)
    return jsonify({"cell": list(cell), "kinds": kinds})


def _turn_from(form: Any) -> int | None:
    try:
        return int(form.turn.data)
    except (TypeError, ValueError):
        return None


def _store(game_id: int, move: dict[str, Any], turn: int | None) -> None:
    """Record a move from a form post, flashing what the engine or the database says."""
    try:
        db.record_move(game_id, move, expected_turn=turn)
    except db.TurnConflict:
        flash(_("Another device entered a move first; here is the game now."), "error")
    except engine.IllegalMove as exc:
        flash(str(exc), "error")


@bp.post("/games/<int:game_id>/trade")
def trade(game_id: int) -> Response:
    """Record a trade of the chosen number of tiles."""
    load_to_edit(game_id)
    form = TradeForm()
    form.count.choices = [choice(n, str(n)) for n in range(1, 13)]
    if form.validate_on_submit():
        _store(game_id, {"type": "trade", "count": form.count.data}, _turn_from(form))
    else:
        flash(_("Choose how many tiles to trade."), "error")
    return redirect(url_for("games.game", game_id=game_id))


@bp.post("/games/<int:game_id>/pass")
def pass_turn(game_id: int) -> Response:
    """Record a pass (allowed only with the bag empty; the engine checks)."""
    load_to_edit(game_id)
    form = TurnForm()
    if form.validate_on_submit():
        _store(game_id, {"type": "pass"}, _turn_from(form))
    return redirect(url_for("games.game", game_id=game_id))


@bp.route("/games/<int:game_id>/undo", methods=["GET", "POST"])
def undo(game_id: int) -> str | Response:
    """Ask to confirm taking back the last move; on POST take it back."""
    # Read what the page needs while the game is taken out of the cache: once
    # released, another request may be moving it on.
    with loaded(game_id) as row:
        if not can_edit(row):
            abort(403)
        turn = row.game.turn
        last = row.game.moves[-1] if row.game.moves else None
    form = TurnForm(turn=turn)
    if request.method == "POST":
        if form.validate_on_submit():
            try:
                db.undo_last_move(game_id, expected_turn=_turn_from(form))
            except db.TurnConflict:
                flash(_("The game changed meanwhile; nothing was undone."), "error")
            except db.NothingToUndo:
                flash(_("There is no move to undo."), "error")
            else:
                flash(_("The last move was taken back."), "info")
        return redirect(url_for("games.game", game_id=game_id))
    if last is None:
        flash(_("There is no move to undo."), "error")
        return redirect(url_for("games.game", game_id=game_id))
    return render_template(
        "games/undo.html",
        row=row,
        form=form,
        last=last,
        last_text=breakdown_text(last),
        player=row.names[last.player],
        letters=COLOR_LETTERS,
    )
