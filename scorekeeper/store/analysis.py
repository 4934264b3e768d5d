"""Stored move analyses (CONTRACT §11): "same tiles, best spot" for each placing move.

The analysis lives beside its move in the moves table (best_same_tiles,
best_tiles), so an undo (the row goes) or a correction (the rows are
rewritten) takes it away with the move. A game is analysed as it ends (its
last move's write), when it is imported or corrected, and otherwise (a running
game, a restore, a database from before m420) the first time someone asks
(the replay, the analysis page, the API); the answer is kept. Each seat's
efficiency sums (eff_scored, eff_available) follow in game_players and, by
its triggers, in player_totals.
"""

from __future__ import annotations

import json
import logging
import sqlite3
from collections.abc import Iterable, Sequence

import sqlite_utils

from .. import engine
from .cache import GameRow
from .connection import get_db, immediate

log = logging.getLogger(__name__)


def columns(analysis: engine.MoveAnalysis, move: engine.Move) -> tuple[int, str | None]:
    """Return the moves-table values (best_same_tiles, best_tiles) of an analysis.

    best_tiles stays NULL when the move itself was the best: the row's own
    tiles say it, and most moves are stored without a second copy.
    """
    best = analysis.to_dict()["best"]
    same = best == [
        {"row": t.row, "col": t.col, "color": t.color, "shape": t.shape}
        for t in move.tiles
    ]
    tiles = None if same else json.dumps(best, separators=(",", ":"))
    return analysis.best_same_tiles, tiles


def stored(db: sqlite_utils.Database, game_id: int) -> dict[int, engine.MoveAnalysis]:
    """Return the game's stored analyses by move number (from 1)."""
    rows = db.conn.execute(
        "SELECT seq, player, score, tiles, best_same_tiles, best_tiles FROM moves"
        " WHERE game_id = ? AND type = 'place' AND best_same_tiles IS NOT NULL",
        [game_id],
    ).fetchall()
    found: dict[int, engine.MoveAnalysis] = {}
    for seq, player, score, tiles, best_points, best_tiles in rows:
        try:
            found[seq + 1] = engine.MoveAnalysis.from_dict({
                "number": seq + 1, "player": player, "score": score,
                "best_same_tiles": best_points,
                "best": json.loads(best_tiles if best_tiles is not None else tiles),
            })
        except ValueError:
            # A damaged row is worked out again rather than served.
            continue
    return found


def refresh_efficiency(
    db: sqlite_utils.Database, game_id: int, seats: Sequence[int] | None = None
) -> None:
    """Set the seats' eff_scored and eff_available from their analysed moves."""
    sums = (
        "coalesce((SELECT sum({column}) FROM moves WHERE moves.game_id ="
        " game_players.game_id AND moves.player = game_players.seat"
        " AND moves.type = 'place' AND moves.best_same_tiles IS NOT NULL), 0)"
    )
    where = "game_id = ?"
    params: list[int] = [game_id]
    if seats is not None:
        where += f" AND seat IN ({', '.join('?' for _ in seats)})"
        params.extend(seats)
    db.conn.execute(
        f"UPDATE game_players SET eff_scored = {sums.format(column='score')},"
        f" eff_available = {sums.format(column='best_same_tiles')} WHERE {where}",
        params,
    )


def write(
    db: sqlite_utils.Database, game_id: int, game: engine.Game,
    analyses: Iterable[engine.MoveAnalysis],
) -> None:
    """Store analyses of game's moves not yet analysed (in the caller's transaction)."""
    rows = []
    for analysis in analyses:
        move = game.moves[analysis.number - 1]
        rows.append((*columns(analysis, move), game_id, analysis.number - 1))
    db.conn.executemany(
        "UPDATE moves SET best_same_tiles = ?, best_tiles = ?"
        " WHERE game_id = ? AND seq = ? AND best_same_tiles IS NULL",
        rows,
    )


def complete(db: sqlite_utils.Database, game_id: int, game: engine.Game) -> None:
    """Analyse and store the placing moves of a game just written that are not
    yet analysed (in the caller's transaction), and its seats' efficiency."""
    known = stored(db, game_id)
    found = engine.analyse_game(game, known)
    write(db, game_id, game, [a for a in found.moves if a.number not in known])
    refresh_efficiency(db, game_id)


def game_analysis(row: GameRow) -> engine.GameAnalysis:
    """Return the analysis of a loaded game, computing and storing what is missing.

    The store keeps the new analyses only while the game's revision is the
    one they were computed for (no undo or correction came in between). When
    the database cannot take them (busy, read-only, full) the answer is
    served all the same and worked out again next time.
    """
    db = get_db()
    known = stored(db, row.id)
    result = engine.analyse_game(row.game, known)
    fresh = [a for a in result.moves if a.number not in known]
    if fresh:
        try:
            with immediate(db):
                current = db.conn.execute(
                    "SELECT revision, move_count FROM games WHERE id = ?", [row.id]
                ).fetchone()
                if current is not None and current[0] == row.revision and (
                    current[1] >= row.game.turn
                ):
                    write(db, row.id, row.game, fresh)
                    refresh_efficiency(db, row.id)
        except sqlite3.Error as exc:
            log.warning("analysis of game %d not stored: %s", row.id, exc)
    return result
