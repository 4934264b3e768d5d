"""The schema and its migrations (sqlite-utils): applied in order, each once.

The moves table is the source of truth; `games` and `game_players` carry a summary
that every write refreshes in the same transaction, so history lists never replay.
"""

from __future__ import annotations

import json
import sqlite3
import sys

import sqlite_utils
from sqlite_utils.migrations import Migrations

from .. import engine
from .connection import connect

_SCHEMA = """
        CREATE TABLE games (
            id INTEGER PRIMARY KEY,
            created_at TEXT NOT NULL,
            updated_at TEXT NOT NULL,
            players TEXT NOT NULL,
            variant TEXT NOT NULL,
            first_player INTEGER NOT NULL,
            edit_token TEXT NOT NULL,
            status TEXT NOT NULL DEFAULT 'active',
            end_reason TEXT,
            finished_at TEXT,
            move_count INTEGER NOT NULL DEFAULT 0,
            scores TEXT NOT NULL
        );
        CREATE INDEX games_updated_at ON games(updated_at);
        CREATE TABLE moves (
            id INTEGER PRIMARY KEY,
            game_id INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
            seq INTEGER NOT NULL,
            player INTEGER NOT NULL,
            type TEXT NOT NULL,
            tiles TEXT NOT NULL DEFAULT '[]',
            count INTEGER NOT NULL DEFAULT 0,
            score INTEGER NOT NULL DEFAULT 0,
            end_bonus INTEGER NOT NULL DEFAULT 0,
            qwirkles INTEGER NOT NULL DEFAULT 0,
            created_at TEXT NOT NULL,
            UNIQUE (game_id, seq)
        );
        CREATE INDEX moves_game_id ON moves(game_id);
        CREATE TABLE game_players (
            game_id INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
            seat INTEGER NOT NULL,
            name TEXT NOT NULL,
            name_key TEXT NOT NULL,
            score INTEGER NOT NULL DEFAULT 0,
            is_winner INTEGER,
            qwirkles INTEGER NOT NULL DEFAULT 0,
            turns INTEGER NOT NULL DEFAULT 0,
            best_move_score INTEGER NOT NULL DEFAULT 0,
            best_move_seq INTEGER,
            PRIMARY KEY (game_id, seat)
        );
        CREATE INDEX game_players_name_key ON game_players(name_key);
"""
"""The tables of the first migration."""

migrations = Migrations("scorekeeper")
"""Every migration, in the order they apply."""


@migrations()
def m001_initial(db: sqlite_utils.Database) -> None:
    """Create the games, moves and game_players tables."""
    # One statement at a time: executescript() would COMMIT the migration's
    # transaction half-way.
    for statement in _SCHEMA.split(";"):
        if statement.strip():
            db.execute(statement)


@migrations()
def m100_history_indexes(db: sqlite_utils.Database) -> None:
    """Add the indexes the history list and the player statistics rely on."""
    # Newest-first history pages walk this index instead of sorting all games.
    db.execute("CREATE INDEX IF NOT EXISTS games_created_at ON games(created_at, id)")
    # A player's statistics read only their own rows, covered by this index.
    db.execute(
        "CREATE INDEX IF NOT EXISTS game_players_stats ON game_players("
        "name_key, is_winner, score, qwirkles, turns, best_move_score)"
    )


@migrations()
def m200_one_name_rule(db: sqlite_utils.Database) -> None:
    """Store every player name by the one name rule (CONTRACT §8), logging changes.

    Games from before the rule may hold names it refuses (control or invisible
    characters, stray spaces) or two seats that are one player. Each such name
    is repaired (engine.names.repair_names), every change is kept in the
    name_changes table and printed once, and every name_key is rewritten by the
    rule's key, so that exports, backups and restores of those games work.
    """
    db.execute(
        "CREATE TABLE name_changes ("
        " id INTEGER PRIMARY KEY, game_id INTEGER NOT NULL, seat INTEGER NOT NULL,"
        " old TEXT NOT NULL, new TEXT NOT NULL, reason TEXT NOT NULL)"
    )
    changes: list[tuple[int, int, str, str, str]] = []
    seats: list[tuple[str, str, int, int]] = []
    rows = db.execute("SELECT id, players FROM games ORDER BY id").fetchall()
    for game_id, players in rows:
        names = json.loads(players)
        fixed = engine.repair_names(names)
        new_names = [name for name, _ in fixed]
        for seat, (old, (new, reason)) in enumerate(zip(names, fixed, strict=True)):
            if reason:
                changes.append((game_id, seat, old, new, reason))
            seats.append((new, engine.name_key(new), game_id, seat))
        if new_names != names:
            db.execute(
                "UPDATE games SET players = ? WHERE id = ?",
                [json.dumps(new_names, ensure_ascii=False), game_id],
            )
    db.conn.executemany(
        "UPDATE game_players SET name = ?, name_key = ? WHERE game_id = ? AND seat = ?",
        seats,
    )
    db.conn.executemany(
        "INSERT INTO name_changes (game_id, seat, old, new, reason)"
        " VALUES (?, ?, ?, ?, ?)",
        changes,
    )
    if changes:
        print(
            f"scorekeeper: {len(changes)} stored player name(s) changed by the"
            " name rule (kept in the table name_changes):",
            file=sys.stderr,
        )
        for game_id, seat, old, new, reason in changes:
            print(
                f"  game {game_id}, seat {seat + 1}: {old!r} -> {new!r} ({reason})",
                file=sys.stderr,
            )


_TOTALS_ADD = """
    INSERT INTO player_totals (name_key, games, finished, wins, finished_points,
                               qwirkles, turns, points)
    VALUES (NEW.name_key, 1, NEW.is_winner IS NOT NULL, coalesce(NEW.is_winner, 0),
            CASE WHEN NEW.is_winner IS NOT NULL THEN NEW.score ELSE 0 END,
            NEW.qwirkles, NEW.turns, NEW.score)
    ON CONFLICT (name_key) DO UPDATE SET
        games = games + 1, finished = finished + excluded.finished,
        wins = wins + excluded.wins,
        finished_points = finished_points + excluded.finished_points,
        qwirkles = qwirkles + excluded.qwirkles, turns = turns + excluded.turns,
        points = points + excluded.points;
"""
"""A trigger statement adding the NEW game_players row to its player's totals."""

_TOTALS_REMOVE = """
    UPDATE player_totals SET
        games = games - 1, finished = finished - (OLD.is_winner IS NOT NULL),
        wins = wins - coalesce(OLD.is_winner, 0),
        finished_points = finished_points
            - CASE WHEN OLD.is_winner IS NOT NULL THEN OLD.score ELSE 0 END,
        qwirkles = qwirkles - OLD.qwirkles, turns = turns - OLD.turns,
        points = points - OLD.score
    WHERE name_key = OLD.name_key;
    DELETE FROM player_totals WHERE name_key = OLD.name_key AND games = 0;
"""
"""Trigger statements taking the OLD game_players row out of its player's totals."""

_TOTALS_CHANGE = """
    UPDATE player_totals SET
        finished = finished + (NEW.is_winner IS NOT NULL) - (OLD.is_winner IS NOT NULL),
        wins = wins + coalesce(NEW.is_winner, 0) - coalesce(OLD.is_winner, 0),
        finished_points = finished_points
            + CASE WHEN NEW.is_winner IS NOT NULL THEN NEW.score ELSE 0 END
            - CASE WHEN OLD.is_winner IS NOT NULL THEN OLD.score ELSE 0 END,
        qwirkles = qwirkles + NEW.qwirkles - OLD.qwirkles,
        turns = turns + NEW.turns - OLD.turns,
        points = points + NEW.score - OLD.score
    WHERE name_key = NEW.name_key;
"""
"""A trigger statement moving a player's totals from the OLD row to the NEW one."""

_PLAYER_TOTALS = f"""
    CREATE TABLE player_totals (
        name_key TEXT PRIMARY KEY,
        games INTEGER NOT NULL DEFAULT 0,
        finished INTEGER NOT NULL DEFAULT 0,
        wins INTEGER NOT NULL DEFAULT 0,
        finished_points INTEGER NOT NULL DEFAULT 0,
        qwirkles INTEGER NOT NULL DEFAULT 0,
        turns INTEGER NOT NULL DEFAULT 0,
        points INTEGER NOT NULL DEFAULT 0
    ) WITHOUT ROWID;
    CREATE TRIGGER player_totals_insert AFTER INSERT ON game_players
    BEGIN {_TOTALS_ADD} END;
    CREATE TRIGGER player_totals_delete AFTER DELETE ON game_players
    BEGIN {_TOTALS_REMOVE} END;
    CREATE TRIGGER player_totals_update
    AFTER UPDATE OF score, is_winner, qwirkles, turns ON game_players
    WHEN OLD.name_key = NEW.name_key
    BEGIN {_TOTALS_CHANGE} END;
    CREATE TRIGGER player_totals_rename AFTER UPDATE OF name_key ON game_players
    WHEN OLD.name_key != NEW.name_key
    BEGIN {_TOTALS_REMOVE} {_TOTALS_ADD} END;
"""
"""The per-player totals, and the triggers keeping them in each write's transaction."""


@migrations()
def m300_player_totals(db: sqlite_utils.Database) -> None:
    """Keep each player's totals in a table and index the per-player pages.

    At 50,000 games the players list (a GROUP BY over every seat) took 0.2-0.4 s.
    player_totals holds the sums and counts per name key; triggers on
    game_players keep it in the same transaction as every write (a move, an
    undo, a correction, a rename, a delete, an import or a restore), so no code
    path can forget it. Maximums (best score, best move) and the latest name
    come from indexes instead, since a maximum cannot be taken back by a delta.
    game_players gains the game's created_at so that a player's recent games and
    a head-to-head read one index range, newest first, without a sort.
    """
    db.execute(
        "ALTER TABLE game_players ADD COLUMN created_at TEXT NOT NULL DEFAULT ''"
    )
    db.execute(
        "UPDATE game_players SET created_at ="
        " (SELECT created_at FROM games WHERE games.id = game_players.game_id)"
    )
    for statement in (
        "DROP INDEX IF EXISTS game_players_stats",
        "DROP INDEX IF EXISTS game_players_name_key",
        # A player's games newest first (their latest name, recent games), and
        # covering a head-to-head's first player...
        "CREATE INDEX game_players_by_player ON game_players("
        "name_key, created_at, game_id, seat, is_winner, score)",
        # ... and its second: the join reads two indexes, never the table.
        "CREATE INDEX game_players_by_game ON game_players("
        "game_id, name_key, seat, is_winner, score)",
        # Best finished score: one seek per player.
        "CREATE INDEX game_players_finished_score ON game_players(name_key, score)"
        " WHERE is_winner IS NOT NULL",
        # Best move: one seek per player.
        "CREATE INDEX game_players_best_move"
        " ON game_players(name_key, best_move_score DESC, game_id)",
    ):
        db.execute(statement)
    _create_statements(db, _PLAYER_TOTALS)
    db.execute(
        "INSERT INTO player_totals (name_key, games, finished, wins, finished_points,"
        " qwirkles, turns, points)"
        " SELECT name_key, count(*), count(is_winner), coalesce(sum(is_winner), 0),"
        " coalesce(sum(CASE WHEN is_winner IS NOT NULL THEN score END), 0),"
        " sum(qwirkles), sum(turns), sum(score) FROM game_players GROUP BY name_key"
    )


@migrations()
def m301_games_revision(db: sqlite_utils.Database) -> None:
    """Count, per game, the writes that take back or rewrite stored moves.

    Every write changes updated_at; only an undo or a correction changes the
    revision. A process whose cached game has the stored revision only lacks
    the moves added since (another process recorded them) and reads just those,
    instead of replaying the whole game.
    """
    db.execute("ALTER TABLE games ADD COLUMN revision INTEGER NOT NULL DEFAULT 0")


def _create_statements(db: sqlite_utils.Database, script: str) -> None:
    """Run each statement of script, triggers whole (they hold semicolons)."""
    statement = ""
    for part in script.split(";"):
        statement += part + ";"
        if sqlite3.complete_statement(statement):
            if statement.strip().strip(";").strip():
                db.execute(statement)
            statement = ""


def init_db(path: str) -> None:
    """Create or migrate the schema in the file at path (run once, before serving)."""
    db = connect(path)
    try:
        db.execute("PRAGMA journal_mode = WAL")
        migrations.apply(db)
    finally:
        db.close()
