"""The history area: past games, replay, corrections, renames, deletes, the sheet."""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from typing import Any

from flask import (
    Blueprint,
    abort,
    current_app,
    flash,
    redirect,
    render_template,
    request,
    url_for,
)
from flask.typing import ResponseReturnValue
from markupsafe import Markup

from .. import engine, text, timestamps
from ..formats import bgstats, chart
from ..formats.scoresheet import LEFT_MARK, sheet_view
from ..i18n import gettext as _
from ..store import GameRow, TurnConflict, analysis, loaded, snapshots, stats
from ..store import games as stored
from .auth import is_admin, names_game
from .forms import CloseForm, ConfirmForm, CorrectForm, RenameForm
from .pages import can_edit, game_file, is_stale, rendered, require_edit, script_json

bp = Blueprint("history", __name__)

PER_PAGE = 25
"""Games per history page."""

MAX_PAGE = 10**6
"""The last history page asked for that is looked up (25 million games)."""

CELL = 40
"""Size of a board cell in SVG units."""


# --- the history list ---


def _list_row(row: dict[str, Any]) -> dict[str, Any]:
    """Add what the list shows of a stored game's summary row."""
    variant = engine.Variant.from_dict(row["variant"])
    names = [p["name"] for p in row["players"]]
    finished = row["status"] == "finished"
    # The stored winners: an excluded player is never one (RULES §7).
    row["winners"] = tuple(p["seat"] for p in row["players"] if p["is_winner"])
    row["duration"] = text.duration(
        timestamps.duration_minutes(row["first_move_at"], row["last_move_at"])
    )
    bonus = row["bonus_player"]
    row["reason"] = (
        text.end_reason(
            row["end_reason"], names[bonus] if bonus is not None else None, variant
        )
        if finished and row["end_reason"] else ""
    )
    row["set_name"] = text.set_name(variant)
    # A running game nobody touched for a day: offered for ending (admin.py).
    row["stale"] = not finished and is_stale(
        row.get("last_move_at") or row.get("created_at")
    )
    row["url"] = (
        url_for(".replay", game_id=row["id"])
        if finished
        else url_for("table.game", game_id=row["id"])
    )
    return row


@bp.get("/history")
def index() -> str:
    """List every game, newest first, searchable by player name, paginated."""
    search = request.args.get("q", "").strip()[: engine.MAX_NAME_LENGTH]
    # Bounded before it becomes an SQL offset (page=10**20 would overflow).
    page = min(max(1, request.args.get("page", 1, type=int) or 1), MAX_PAGE)
    rows, total = stats.history_page(search or None, page, PER_PAGE)
    return render_template(
        "history/index.html",
        rows=[_list_row(row) for row in rows],
        total=total,
        page=page,
        pages=max(1, math.ceil(total / PER_PAGE)),
        search=search,
        max_name=engine.MAX_NAME_LENGTH,
        last_snapshot=_last_snapshot(),
        admin=is_admin(),
        holds=names_game,
        close_form=CloseForm(),
    )


def _last_snapshot() -> str | None:
    """Return when the newest automatic snapshot was made (ISO, UTC), or None."""
    moment = snapshots.latest(current_app.config["SNAPSHOT_DIR"])
    return moment.isoformat() if moment is not None else None


# --- replay ---


@dataclass
class BoardTile:
    """A tile drawn on the replay board."""

    x: int
    y: int
    row: int
    col: int
    color: str
    shape: str
    placed: bool
    qwirkle: bool


def board_view(
    game: engine.Game, position: engine.Position,
    extra: list[tuple[int, int]] | None = None,
) -> dict[str, Any]:
    """Return the replay board at a position, framed by the final board's extent
    and the `extra` cells (the better placements the replay draws).

    Framing every step like the last keeps the board still while stepping.
    """
    cells_all = [(t.row, t.col) for t in game.board.tiles()] + (extra or [])
    cells_all = cells_all or [(0, 0)]
    rows = [r for r, _c in cells_all]
    cols = [c for _r, c in cells_all]
    top, left = min(rows) - 1, min(cols) - 1
    height, width = max(rows) - top + 2, max(cols) - left + 2
    current = position.step - 1
    qwirkle_cells: set[tuple[int, int]] = set()
    if current >= 0:
        breakdown = game.moves[current].breakdown
        for line in breakdown.lines if breakdown is not None else ():
            if line.qwirkle:
                qwirkle_cells.update(line.cells)
    tiles = [
        BoardTile(
            x=(t.col - left) * CELL,
            y=(t.row - top) * CELL,
            row=t.row,
            col=t.col,
            color=t.color,
            shape=t.shape,
            placed=t.move == current,
            qwirkle=(t.row, t.col) in qwirkle_cells,
        )
        for t in position.tiles
    ]
    return {
        "tiles": tiles,
        "width": width * CELL,
        "height": height * CELL,
        "cell": CELL,
        "top": top,
        "left": left,
    }


@dataclass(frozen=True)
class Insight:
    """What the replay shows of the moves' analysis (CONTRACT §11)."""

    moves: dict[int, engine.MoveAnalysis]
    """The analysis of each placing move, by move number (from 1)."""

    @classmethod
    def of(cls, row: GameRow) -> Insight:
        """Return the analysis of a loaded game, computing and storing what is
        missing (a running game, a restored one)."""
        found = analysis.game_analysis(row)
        return cls({move.number: move for move in found.moves})

    def extra_cells(self) -> list[tuple[int, int]]:
        """Return the cells of every better placement, to frame the board by."""
        return [(t.row, t.col) for move in self.moves.values() if move.missed
                for t in move.best]

    def at(self, step: int, view: dict[str, Any]) -> dict[str, Any]:
        """Return step's better placement, as [x, y, row, col, colour, shape] in
        view's frame (none when the move scored the most), and its sentence."""
        move = self.moves.get(step)
        if move is None:
            return {"best": [], "best_line": ""}
        best = [
            [(t.col - view["left"]) * CELL, (t.row - view["top"]) * CELL,
             t.row, t.col, t.color, t.shape]
            for t in move.best
        ] if move.missed else []
        return {"best": best,
                "best_line": text.best_spot_line(move.score, move.best_same_tiles)}


def replay_context(
    row: GameRow, step: int, insight: Insight | None = None
) -> dict[str, Any]:
    """Return everything the replay page shows at `step` (0 = before any move)."""
    game = row.game
    insight = insight or Insight({})
    step = max(0, min(step, game.turn))
    position = game.at(step)
    move = game.moves[step - 1] if step > 0 else None
    final = position.final
    return {
        "row": row,
        "names": row.names,
        "step": step,
        "last": game.turn,
        "move": move,
        "move_summary": text.move_summary(move, game.variant) if move else "",
        "mover": row.names[move.player] if move is not None else None,
        "round": (
            engine.move_rounds(m.mover for m in game.moves[:step])[-1]
            if step else 0
        ),
        "lines": [
            {"label": text.line_label(line), "points": line.points,
             "qwirkle": line.qwirkle}
            for line in (move.breakdown.lines if move and move.breakdown else ())
        ],
        "position": position,
        "board": (view := board_view(game, position, insight.extra_cells())),
        **insight.at(step, view),
        "winners": final.winners if final is not None else (),
        "final": final,
        "reason": (
            text.final_reason(final, row.names, game.variant)
            if final is not None else ""
        ),
        "next_player": (
            row.names[position.current_player] if step < game.turn else None
        ),
        "excluded": position.excluded,
        "left": position.left,
        "penalty": text.penalty_cost(move) if move and move.type == "penalty" else "",
    }


def replay_steps(row: GameRow, insight: Insight | None = None) -> dict[str, Any]:
    """Return every step of the replay at once, for the page to step in place.

    "tiles": each tile of the final board in the order placed, as [x, y, row,
    col, colour, shape, move index] in the frame of board_view; "steps": per
    step (0 = before any move) what the page shows, every sentence from text.py
    (a penalty's cost, who is out of the game: RULES §7).
    """
    game = row.game
    insight = insight or Insight({})
    final_view = board_view(game, game.at(game.turn), insight.extra_cells())
    moves_of = {(t.row, t.col): t.move for t in game.at(game.turn).tiles}
    tiles = [
        [t.x, t.y, t.row, t.col, t.color, t.shape, moves_of[(t.row, t.col)]]
        for t in final_view["tiles"]
    ]
    rounds = engine.move_rounds(m.mover for m in game.moves)
    steps = []
    for step in range(game.turn + 1):
        position = game.at(step)
        move = game.moves[step - 1] if step else None
        final = position.final
        qwirkle_cells = sorted({
            cell
            for line in (move.breakdown.lines if move and move.breakdown else ())
            if line.qwirkle for cell in line.cells
        })
        points = move.score if move is not None else 0
        steps.append({
            "title": text.replay_title(
                step, rounds[step - 1] if step else 0,
                row.names[move.player] if move is not None else "",
            ),
            "type": move.type if move is not None else None,
            "summary": text.move_summary(move, game.variant) if move else "",
            "penalty": (
                text.penalty_cost(move) if move and move.type == "penalty" else ""
            ),
            "points": points,
            "points_word": text.points_word(points),
            "end_bonus": move.end_bonus if move is not None else 0,
            "lines": [
                [text.line_label(line), line.points, line.qwirkle]
                for line in (move.breakdown.lines if move and move.breakdown else ())
            ],
            "qwirkle_cells": [list(cell) for cell in qwirkle_cells],
            "scores": list(position.scores),
            "qwirkles": list(position.qwirkles),
            "mover": move.player if move is not None else None,
            "winners": list(final.winners) if final is not None else [],
            "excluded": sorted(position.excluded),
            "left": sorted(position.left),
            "bag": position.bag,
            "on_board": len(position.tiles),
            "next": (
                row.names[position.current_player] if step < game.turn else None
            ),
            "reason": (
                text.final_reason(final, row.names, game.variant)
                if final is not None else ""
            ),
            **insight.at(step, final_view),
        })
    return {"tiles": tiles, "steps": steps}


def chart_markup(row: GameRow) -> Markup:
    """Return the game's running-total chart as inline SVG markup (cached)."""
    svg = rendered(row, "chart.svg", lambda: chart.chart_svg(game_file(row)))
    return Markup(svg)  # built from escaped parts only


@bp.get("/games/<int:game_id>/replay")
def replay(game_id: int) -> str:
    """Show one step of a game's replay; ?move=N is the step (0 = empty board)."""
    with loaded(game_id) as row:
        step = request.args.get("move", type=int)
        insight = Insight.of(row)
        context = replay_context(row, row.game.turn if step is None else step,
                                 insight)
        return render_template(
            "history/replay.html", chart=chart_markup(row), can_edit=can_edit(row),
            steps_script=script_json(json.dumps(replay_steps(row, insight),
                                                separators=(",", ":"))),
            replay_text=json.dumps(text.replay_strings(row.variant)),
            **context,
        )


# --- the analysis of a game (CONTRACT §11) ---


def analysis_context(row: GameRow) -> dict[str, Any]:
    """Return what the analysis page shows: each seat's efficiency, thinking
    time and missed Qwirkles, the biggest moves, and every placing move's
    score against the best the same tiles could have made."""
    game = row.game
    found = analysis.game_analysis(row)
    by_number = {move.number: move for move in found.moves}
    board = engine.Board(game.variant)
    moves: list[dict[str, Any]] = []
    missed_qwirkles = [0] * game.players
    for number, move in enumerate(game.moves, start=1):
        mine = by_number.get(number)
        if move.type != "place" or mine is None:
            continue
        best_qwirkles = (
            board.check(mine.best).qwirkles
            if mine.missed else move.qwirkles
        )
        if best_qwirkles > move.qwirkles:
            missed_qwirkles[move.player] += best_qwirkles - move.qwirkles
        board.play(move.tiles)
        moves.append({
            "number": number, "player": move.player, "name": row.names[move.player],
            "summary": text.move_summary(move, game.variant), "score": move.score,
            "best": mine.best_same_tiles, "missed": mine.missed,
            "qwirkles": move.qwirkles, "missed_qwirkle": best_qwirkles > move.qwirkles,
            "best_tiles": ", ".join(text.tile_name(t.color, t.shape)
                                    for t in mine.best) if mine.missed else "",
        })
    seats = []
    for seat, eff in enumerate(found.efficiency):
        timed = [m.seconds for m in game.moves
                 if m.player == seat and m.seconds is not None]
        seats.append({
            "seat": seat, "name": row.names[seat], "scored": eff.scored,
            "available": eff.available, "efficiency": text.percent(eff.ratio),
            "missed": eff.available - eff.scored,
            "qwirkles": game.qwirkles[seat], "missed_qwirkles": missed_qwirkles[seat],
            "think": text.thinking_time(round(sum(timed) / len(timed)))
            if timed else None,
        })
    biggest = sorted(moves, key=lambda m: (-m["score"], m["number"]))[:5]
    return {
        "row": row, "names": row.names, "seats": seats, "moves": moves,
        "biggest": biggest, "timed": any(s["think"] for s in seats),
        "missed_total": sum(m["missed"] for m in moves),
    }


@bp.get("/games/<int:game_id>/analysis")
def analysis_page(game_id: int) -> str:
    """Show a game's analysis: efficiency, missed points and Qwirkles, the race."""
    with loaded(game_id) as row:
        return render_template("history/analysis.html", chart=chart_markup(row),
                               **analysis_context(row))


# --- correcting a past move ---


def _correction_error(
    exc: engine.IllegalMove, number: int, names: list[str], moves: list[engine.Move]
) -> str:
    failed = exc.move_number or number
    reason = text.illegal_move(exc)
    if failed == number:
        return _("This move is not legal: %(reason)s", reason=reason)
    who = names[moves[failed - 1].player] if failed <= len(moves) else ""
    return _(
        "Move %(n)d (%(who)s) would no longer be legal: %(reason)s"
        " Nothing was changed.",
        n=failed, who=who, reason=reason,
    )


@bp.route("/games/<int:game_id>/moves/<int:number>/edit", methods=["GET", "POST"])
def correct(game_id: int, number: int) -> ResponseReturnValue:
    """Correct move `number` (1-based); every later move is rescored, or refused."""
    with loaded(game_id) as row:
        moves = list(row.game.moves)
        names, variant, editable = list(row.names), row.variant, can_edit(row)
        options = row.game.options
        if not 1 <= number <= len(moves):
            abort(404)
        # The board as it was before the move: the page's board to tap on.
        before = [[t.row, t.col, t.color, t.shape]
                  for t in row.game.at(number - 1).tiles]
    if not editable:
        abort(403)
    original = moves[number - 1]
    # Started from the game page (?back=game): saved or cancelled, the table
    # goes back there, to the corrected totals; else to the replay at the move.
    from_game = request.args.get("back") == "game"
    back_url = (url_for("table.game", game_id=game_id) if from_game
                else url_for(".replay", game_id=game_id, move=number))
    if original.type == "leave":
        # No turn to enter differently: a leave stands, or undo takes it back.
        flash(_("A player leaving is not corrected: Undo takes it back, as the"
                " last move."), "error")
        return redirect(back_url)
    form = CorrectForm()
    if request.method == "GET":
        form.fill(original, variant.hand_size)
    form.set_choices(variant, options)
    error = None
    if form.validate_on_submit():
        new_move = form.move()
        if isinstance(new_move, str):
            error = new_move
        else:
            dicts: list[dict[str, Any]] = [m.to_dict() for m in moves]
            dicts[number - 1] = new_move
            try:
                stored.replace_moves(game_id, dicts, expected_turn=len(moves))
            except engine.IllegalMove as exc:
                error = _correction_error(exc, number, names, moves)
            except engine.BadInput as exc:
                error = text.error(exc)
            except TurnConflict:
                error = _(
                    "The game has moved on since this page was opened; "
                    "nothing was changed."
                )
            else:
                flash(
                    _("Move %(n)d corrected; later moves were rescored.", n=number),
                    "success",
                )
                return redirect(back_url)
    elif request.method == "POST":
        error = form.refusal()
    return render_template(
        "history/correct.html",
        game_id=game_id,
        number=number,
        original=original,
        mover=names[original.player],
        form=form,
        error=error,
        board_json=script_json(json.dumps({"board": before})),
        kinds=[(color, shape) for color in variant.color_names
               for shape in variant.shape_names],
        variant=variant,
        back_url=back_url,
    ), 422 if error else 200


# --- deleting and renaming ---


@bp.route("/games/<int:game_id>/delete", methods=["GET", "POST"])
def delete(game_id: int) -> ResponseReturnValue:
    """Ask, then delete a game (needs this browser's edit token and CSRF)."""
    require_edit(game_id)
    form = ConfirmForm()
    if form.validate_on_submit():
        stored.delete_game(game_id)
        flash(_("Game %(id)d was deleted.", id=game_id), "success")
        return redirect(url_for(".index"))
    with loaded(game_id) as row:
        return render_template("history/delete.html", row=row, form=form)


@bp.route("/games/<int:game_id>/rename", methods=["GET", "POST"])
def rename(game_id: int) -> ResponseReturnValue:
    """Correct the players' names of a game (needs the edit token)."""
    require_edit(game_id)
    form = RenameForm()
    with loaded(game_id) as row:
        names = list(row.names)
    if request.method == "GET":
        for name in names:
            form.names.append_entry(name)
    if form.validate_on_submit():
        new_names = [entry.data or "" for entry in form.names]
        if len(new_names) != len(names):
            abort(400)
        try:
            stored.rename_players(game_id, new_names)
        except engine.InvalidName as exc:
            form.refuse_names(exc)
        else:
            flash(_("Names saved."), "success")
            return redirect(url_for(".replay", game_id=game_id))
    return render_template(
        "history/rename.html", game_id=game_id, form=form,
        max_name=engine.MAX_NAME_LENGTH,
    )


# --- the printable sheet and BG Stats ---


@bp.get("/games/<int:game_id>/scoresheet")
def scoresheet(game_id: int) -> str:
    """Show the printable paper-like score sheet."""
    with loaded(game_id) as row:
        drawn = chart_markup(row)
        paper = rendered(row, "scoresheet.html", lambda: Markup(render_template(
            "history/_sheet.html", row=row, view=sheet_view(game_file(row)),
            chart=drawn, left_mark=LEFT_MARK,
        )))
        return render_template("history/scoresheet.html", row=row, paper=paper)


@bp.get("/games/<int:game_id>/bgstats")
def bgstats_page(game_id: int) -> str:
    """Offer the BG Stats push-play links of a finished game."""
    with loaded(game_id) as row:
        source = game_file(row)
        url = url_for(".replay", game_id=row.id, _external=True)
        link = bgstats.play_link(source, url)
        if link is None:
            abort(404)
        return render_template(
            "history/bgstats.html", row=row, link=link,
            scheme_link=bgstats.play_link(source, url, scheme=True),
        )
