"""The schema and its migrations (sqlite-utils): applied in order, each once.

The moves table is the source of truth; `games` and `game_players` carry a summary
that every write refreshes in the same transaction, so history lists never replay.
"""

from __future__ import annotations

import json
import re
import sqlite3
import sys

import sqlite_utils
from sqlite_utils.migrations import Migrations

from .. import engine
from . import fingerprints
from .cache import options_of
from .connection import connect, private_file
from .games import new_pin
from .triggers import (
    DISCIPLINE_TOTALS,
    INSIGHT_TOTALS,
    RATED_AT,
    RATED_BY_DATE,
    TOTALS,
    player_totals,
    rating_triggers,
)

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


@migrations()
def m300_table_discipline(db: sqlite_utils.Database) -> None:
    """Store table discipline (CONTRACT §10): each game's options, each move's
    thinking time and penalty reason, and per seat whether the player was
    excluded plus the totals the player statistics read (penalties, timed moves
    and their seconds), so that no statistic replays a game."""
    # NULL options: the friendly defaults, as every game stored before.
    db.execute("ALTER TABLE games ADD COLUMN options TEXT")
    db.execute("ALTER TABLE moves ADD COLUMN reason TEXT")
    db.execute("ALTER TABLE moves ADD COLUMN seconds INTEGER")
    for column in ("excluded", "penalties", "timed_moves", "think_seconds"):
        db.execute(
            f"ALTER TABLE game_players ADD COLUMN {column} INTEGER NOT NULL DEFAULT 0"
        )
    # The statistics index covers the new totals too, so a player's page and
    # the players list still read the index alone.
    db.execute("DROP INDEX IF EXISTS game_players_stats")
    db.execute(
        "CREATE INDEX game_players_stats ON game_players(name_key, is_winner,"
        " score, qwirkles, turns, best_move_score, excluded, penalties,"
        " timed_moves, think_seconds)"
    )


@migrations()
def m310_restore_guards(db: sqlite_utils.Database) -> None:
    """Add what a network guest cannot break: fingerprints, game PINs, try limits.

    Runs after m300_table_discipline, whose options, penalty reasons and thinking
    times the fingerprints cover. (A database from the release that had it alone
    applied it as m300_restore_guards: see RENAMED.)

    - games.fingerprint (indexed): the content fingerprint a restore looks up to
      skip games already stored (store.fingerprints), filled for every game;
    - games.pin: the short code that gives a device its edit right back;
    - attempts: wrong PIN tries per scope, shared by every server process.
    """
    db.execute("ALTER TABLE games ADD COLUMN fingerprint TEXT")
    db.execute("ALTER TABLE games ADD COLUMN pin TEXT")
    db.execute(
        "CREATE TABLE attempts ("
        " scope TEXT PRIMARY KEY, failures INTEGER NOT NULL,"
        " locked_until REAL NOT NULL, last_at REAL NOT NULL)"
    )
    # One pass over the moves in game order, chaining each game's fingerprint
    # (a 10,000-game database holds half a million moves: never all at once).
    values = {}
    for game_id, created, players, variant, first, stored in db.conn.execute(
        "SELECT id, created_at, players, variant, first_player, options FROM games"
    ):
        options = options_of(stored)
        values[game_id] = fingerprints.head(
            created, json.loads(players), json.loads(variant), first,
            None if options.is_default else options.to_dict(),
        )
    for game_id, kind, tiles, count, reason, seconds in db.conn.execute(
        "SELECT game_id, type, tiles, count, reason, seconds FROM moves"
        " ORDER BY game_id, seq"
    ):
        if game_id in values:
            values[game_id] = fingerprints.chain(
                values[game_id], (kind, tiles, count, reason, seconds)
            )
    updates = [
        (value, new_pin(), game_id)
        for game_id, value in values.items()
    ]
    db.conn.executemany(
        "UPDATE games SET fingerprint = ?, pin = ? WHERE id = ?", updates
    )
    db.execute("CREATE INDEX games_fingerprint ON games(fingerprint)")


@migrations()
def m320_player_totals(db: sqlite_utils.Database) -> None:
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
    _create_statements(db, player_totals(TOTALS))


@migrations()
def m330_games_revision(db: sqlite_utils.Database) -> None:
    """Count, per game, the writes that take back or rewrite stored moves.

    Every write changes updated_at; only an undo or a correction changes the
    revision. A process whose cached game has the stored revision only lacks
    the moves added since (another process recorded them) and reads just those,
    instead of replaying the whole game.
    """
    db.execute("ALTER TABLE games ADD COLUMN revision INTEGER NOT NULL DEFAULT 0")


@migrations()
def m340_player_totals_discipline(db: sqlite_utils.Database) -> None:
    """Count table discipline in player_totals, and excluded seats in the indexes.

    A player's page shows their exclusions, penalties and thinking time (RULES
    §7): player_totals gains them, kept by the same triggers, so that page
    reads one row instead of summing every seat. The head-to-head ranks an
    excluded player after one in play, so the two indexes it reads cover the
    excluded column too. A database from the release that had player totals
    before table discipline applied m320 first (as m300_player_totals, see
    RENAMED), and m300_table_discipline then brought back the older statistics
    index: it goes again.
    """
    for statement in (
        "DROP TRIGGER IF EXISTS player_totals_insert",
        "DROP TRIGGER IF EXISTS player_totals_delete",
        "DROP TRIGGER IF EXISTS player_totals_update",
        "DROP TRIGGER IF EXISTS player_totals_rename",
        "DROP TABLE IF EXISTS player_totals",
        "DROP INDEX IF EXISTS game_players_stats",
        "DROP INDEX IF EXISTS game_players_by_player",
        "DROP INDEX IF EXISTS game_players_by_game",
        "CREATE INDEX game_players_by_player ON game_players("
        "name_key, created_at, game_id, seat, is_winner, score, excluded)",
        "CREATE INDEX game_players_by_game ON game_players("
        "game_id, name_key, seat, is_winner, score, excluded)",
    ):
        db.execute(statement)
    _create_statements(db, player_totals(DISCIPLINE_TOTALS))


@migrations()
def m420_move_analysis(db: sqlite_utils.Database) -> None:
    """Store each placing move's "same tiles, best spot" and sum it per seat.

    moves gains best_same_tiles (NULL until the move is analysed) and
    best_tiles (the better placement as tile JSON; NULL when the move itself
    was best). An undo deletes the move's row and a correction rewrites the
    rows, so a stale analysis cannot outlive the move it was made for.
    game_players gains eff_scored and eff_available (the seat's analysed
    moves: what they scored, what their tiles offered), and player_totals sums
    them through the same triggers, so a player's efficiency is one row away.
    """
    for statement in (
        "ALTER TABLE moves ADD COLUMN best_same_tiles INTEGER",
        "ALTER TABLE moves ADD COLUMN best_tiles TEXT",
        "ALTER TABLE game_players ADD COLUMN eff_scored INTEGER NOT NULL DEFAULT 0",
        "ALTER TABLE game_players ADD COLUMN eff_available INTEGER NOT NULL"
        " DEFAULT 0",
        "DROP TRIGGER IF EXISTS player_totals_insert",
        "DROP TRIGGER IF EXISTS player_totals_delete",
        "DROP TRIGGER IF EXISTS player_totals_update",
        "DROP TRIGGER IF EXISTS player_totals_rename",
        "DROP TABLE IF EXISTS player_totals",
    ):
        db.execute(statement)
    _create_statements(db, player_totals(INSIGHT_TOTALS))


@migrations()
def m500_pin_tries(db: sqlite_utils.Database) -> None:
    """Count wrong PIN tries as leaking buckets per client, per target and in
    all (store.limits), instead of per scope with locks that only grew.

    attempts held a count that never fell and a lock time; pin_tries holds each
    bucket's level and when it was last filled: the level drains with time, so
    locks decay. What attempts counted is dropped (at worst a guest's lock ends).
    """
    db.execute("DROP TABLE IF EXISTS attempts")
    db.execute(
        "CREATE TABLE pin_tries ("
        " scope TEXT PRIMARY KEY, level REAL NOT NULL, at REAL NOT NULL)"
    )


_CLUB_NIGHTS = """
    CREATE TABLE events (
        id INTEGER PRIMARY KEY,
        name TEXT NOT NULL,
        date TEXT NOT NULL,
        edit_token TEXT NOT NULL,
        created_at TEXT NOT NULL
    );
    ALTER TABLE games ADD COLUMN event_id INTEGER
        REFERENCES events(id) ON DELETE SET NULL;
    CREATE INDEX games_event ON games(event_id, id);
    CREATE INDEX games_finished ON games(finished_at, id)
        WHERE finished_at IS NOT NULL;
    CREATE TABLE rating_steps (
        game_id INTEGER NOT NULL,
        seat INTEGER NOT NULL,
        finished_at TEXT NOT NULL,
        name_key TEXT NOT NULL,
        mu REAL NOT NULL,
        sigma REAL NOT NULL,
        PRIMARY KEY (game_id, seat)
    ) WITHOUT ROWID;
    CREATE INDEX rating_steps_order ON rating_steps(finished_at, game_id);
    CREATE INDEX rating_steps_player
        ON rating_steps(name_key, finished_at, game_id, mu, sigma);
    CREATE TABLE player_ratings (
        name_key TEXT PRIMARY KEY,
        mu REAL NOT NULL,
        sigma REAL NOT NULL,
        ordinal REAL NOT NULL,
        games INTEGER NOT NULL
    ) WITHOUT ROWID;
    CREATE INDEX player_ratings_ordinal ON player_ratings(ordinal DESC, name_key);
    CREATE TABLE rating_dirty (
        id INTEGER PRIMARY KEY CHECK (id = 1),
        finished_at TEXT NOT NULL,
        game_id INTEGER NOT NULL
    );
    {triggers}
"""
"""The tables of club nights (CONTRACT §14): events, each game's event, and the
ratings kept for every player (see store/ratings.py)."""


@migrations()
def m600_club_nights(db: sqlite_utils.Database) -> None:
    """Add club nights (events, each game's event) and stored ratings (CONTRACT §14).

    Ratings are a chain: each finished game rates its players from their ratings
    after the games that finished before it. rating_steps keeps each seat's
    rating after each rated game, player_ratings the latest per player, so the
    players list and a player's chart read rows instead of re-rating. Triggers
    mark, in the same transaction as any write that changes a finished game's
    result, order or names (a move, a close, an undo, a correction, a rename, a
    delete, an import, a restore), the earliest game whose rating is stale;
    store.ratings re-rates from there before anything reads the ratings. The
    whole history is marked stale here, so the first read rates every game.
    """
    _create_statements(
        db, _CLUB_NIGHTS.format(triggers=rating_triggers("finished_at"))
    )
    db.execute(
        "INSERT INTO rating_dirty (id, finished_at, game_id)"
        " SELECT 1, finished_at, id FROM games WHERE finished_at IS NOT NULL"
        " ORDER BY finished_at, id LIMIT 1"
    )


@migrations()
def m700_photo_lessons(db: sqlite_utils.Database) -> None:
    """Keep what photos of confirmed moves teach the photo reader.

    photo_readings holds each game's last read photo's new tiles (their cell
    and measures) until the move after it is stored; photo_lessons a few sums
    per colour and shape, per game and (game_id NULL) for the installation.
    """
    _create_statements(db, """
        CREATE TABLE photo_readings (
            game_id INTEGER PRIMARY KEY REFERENCES games(id) ON DELETE CASCADE,
            seq INTEGER NOT NULL,
            looks TEXT NOT NULL,
            created_at TEXT NOT NULL
        );
        CREATE TABLE photo_lessons (
            game_id INTEGER REFERENCES games(id) ON DELETE CASCADE,
            what TEXT NOT NULL,
            name TEXT NOT NULL,
            count INTEGER NOT NULL,
            a REAL NOT NULL,
            b REAL NOT NULL
        );
        CREATE UNIQUE INDEX photo_lessons_kind
            ON photo_lessons(coalesce(game_id, 0), what, name);
    """)


@migrations()
def m800_games_by_status(db: sqlite_utils.Database) -> None:
    """Index the games by status, newest change first.

    The home page lists the running games and the last finished ones; without
    it, "status = 'active' ORDER BY updated_at" walks the whole updated_at
    index to find the few running games (22 ms at 50,000 games).
    """
    db.execute("CREATE INDEX IF NOT EXISTS games_by_status"
               " ON games(status, updated_at, id)")


@migrations(transactional=False)
def m810_event_ids_never_reused(db: sqlite_utils.Database) -> None:
    """Give club nights ids that are never handed out again.

    A plain INTEGER PRIMARY KEY gives the newest night's id to the next one
    once that night is deleted: a screen still following the deleted night
    would then show the new one as if it had been renamed. AUTOINCREMENT
    never reuses an id. SQLite cannot change a key in place, so the table is
    copied; foreign keys are off while it is (only possible outside a
    transaction), or dropping the old table would unlink every game from its
    night (ON DELETE SET NULL). Safe to run again after a crash part-way.
    """
    row = db.execute(
        "SELECT sql FROM sqlite_master WHERE type = 'table' AND name = 'events'"
    ).fetchone()
    if row is None or "AUTOINCREMENT" in row[0].upper():
        return
    db.execute("PRAGMA foreign_keys = OFF")
    # Triggers on games name events (m850): the rename leaves them be rather
    # than refusing while events is gone (it is back under its name at once).
    db.execute("PRAGMA legacy_alter_table = ON")
    try:
        with db.atomic():
            db.execute("DROP TABLE IF EXISTS events_kept")
            db.execute(
                "CREATE TABLE events_kept ("
                " id INTEGER PRIMARY KEY AUTOINCREMENT,"
                " name TEXT NOT NULL, date TEXT NOT NULL,"
                " edit_token TEXT NOT NULL, created_at TEXT NOT NULL)"
            )
            db.execute(
                "INSERT INTO events_kept (id, name, date, edit_token, created_at)"
                " SELECT id, name, date, edit_token, created_at FROM events"
            )
            db.execute("DROP TABLE events")
            db.execute("ALTER TABLE events_kept RENAME TO events")
            if db.execute("PRAGMA foreign_key_check(games)").fetchall():
                raise RuntimeError("a game lost its club night while copying")
    finally:
        db.execute("PRAGMA legacy_alter_table = OFF")
        db.execute("PRAGMA foreign_keys = ON")


_GAME_REFERENCES = (
    ("name_changes", "game_id"), ("rating_steps", "game_id"),
    ("rating_dirty", "game_id"),
)
"""Tables that name a game by id with no foreign key, so a row may outlive
its game: an id one of them still names is not handed out again either."""


@migrations(transactional=False)
def m820_game_ids_never_reused(db: sqlite_utils.Database) -> None:
    """Give games ids that are never handed out again.

    A plain INTEGER PRIMARY KEY gives the newest game's id to the next game
    once that game is deleted: a table view still polling the deleted game
    (/api/games/<id>), or a device's saved link, would then follow the new
    game as if it were the old one. AUTOINCREMENT never reuses an id. As for
    the club nights (m810) the table is copied, with foreign keys off (only
    possible outside a transaction), or dropping the old table would delete
    every move, seat and photo lesson (ON DELETE CASCADE). The copy is made
    from the table's own CREATE statement with AUTOINCREMENT added, so every
    column, default and reference stays as it was; its indexes and triggers,
    and every other trigger or view that names games (SQLite refuses the
    rename while one names a missing table), are dropped and made again from
    their stored SQL. sqlite_sequence starts at the highest game id stored or
    still named by a table without a foreign key. One transaction: a crash
    part-way leaves the old table, and the migration runs again.
    """
    row = db.execute(
        "SELECT sql FROM sqlite_master WHERE type = 'table' AND name = 'games'"
    ).fetchone()
    if row is None or "AUTOINCREMENT" in row[0].upper():
        return
    create, count = re.subn(
        r"^\s*CREATE\s+TABLE\s+(?:\"games\"|games)\s*\(",
        "CREATE TABLE games_kept (", row[0], flags=re.IGNORECASE,
    )
    create, keys = re.subn(
        r"\bid\s+INTEGER\s+PRIMARY\s+KEY\b", "id INTEGER PRIMARY KEY AUTOINCREMENT",
        create, count=1, flags=re.IGNORECASE,
    )
    if count != 1 or keys != 1:
        raise RuntimeError(f"unexpected games table: {row[0]}")
    # Everything made again after the copy, in the order it was first made.
    kept = _named_games(db)
    columns = [r[1] for r in db.execute("PRAGMA table_info(games)").fetchall()]
    names = ", ".join(f'"{c}"' for c in columns)
    broken_before = db.execute("PRAGMA foreign_key_check").fetchall()
    db.execute("PRAGMA foreign_keys = OFF")
    try:
        with db.atomic():
            for kind, name, _sql in kept:
                if kind != "index":
                    db.execute(f'DROP {kind.upper()} IF EXISTS "{name}"')
            db.execute("DROP TABLE IF EXISTS games_kept")
            db.execute(create)
            if (db.execute("PRAGMA table_xinfo(games_kept)").fetchall()
                    != db.execute("PRAGMA table_xinfo(games)").fetchall()
                    or db.execute("PRAGMA foreign_key_list(games_kept)").fetchall()
                    != db.execute("PRAGMA foreign_key_list(games)").fetchall()):
                raise RuntimeError("the copy of games would not be the same table")
            db.execute(
                f"INSERT INTO games_kept ({names}) SELECT {names} FROM games"
                " ORDER BY id"
            )
            db.execute("DROP TABLE games")
            db.execute("ALTER TABLE games_kept RENAME TO games")
            for _kind, _name, sql in kept:
                db.execute(sql)
            highest = max(
                db.execute(f"SELECT coalesce(max({column}), 0) FROM {table}"
                           ).fetchone()[0]
                for table, column in (("games", "id"), *_GAME_REFERENCES)
            )
            db.execute("DELETE FROM sqlite_sequence WHERE name = 'games'")
            db.execute("INSERT INTO sqlite_sequence (name, seq) VALUES ('games', ?)",
                       [highest])
            if db.execute("PRAGMA foreign_key_check").fetchall() != broken_before:
                raise RuntimeError("a row lost its game while copying")
    finally:
        db.execute("PRAGMA foreign_keys = ON")


@migrations()
def m830_pin_tries_since(db: sqlite_utils.Database) -> None:
    """Remember when each PIN-try bucket began to fill (store.limits): a full
    address bucket holds back only the devices that appeared after its wrong
    tries began, never a phone that was there before (CONTRACT §15)."""
    if "since" not in db["pin_tries"].columns_dict:
        db.execute("ALTER TABLE pin_tries ADD COLUMN since REAL")
    db.execute("DELETE FROM pin_tries")


@migrations()
def m840_club_organiser(db: sqlite_utils.Database) -> None:
    """Split a club night's right (CONTRACT §14, §15): the join token its QR
    code carries adds tables and nothing else, the edit token stays the
    organiser's. A night stored before gets a join token of its own (128
    random bits), so its old QR code, which carried the edit token, keeps
    the organiser's right for whoever already holds it. Seasons group nights;
    count_ended is the organiser's choice whether a game ended early counts;
    deleted_events keeps a deleted night a while, so that it can be undone.
    """
    _create_statements(db, """
        CREATE TABLE seasons (
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            name TEXT NOT NULL,
            created_at TEXT NOT NULL
        );
        ALTER TABLE events ADD COLUMN join_token TEXT;
        ALTER TABLE events ADD COLUMN season_id INTEGER
            REFERENCES seasons(id) ON DELETE SET NULL;
        ALTER TABLE events ADD COLUMN count_ended INTEGER NOT NULL DEFAULT 1;
        CREATE INDEX events_season ON events(season_id, date, id);
        CREATE TABLE deleted_events (
            id INTEGER PRIMARY KEY,
            name TEXT NOT NULL,
            date TEXT NOT NULL,
            edit_token TEXT NOT NULL,
            join_token TEXT NOT NULL,
            created_at TEXT NOT NULL,
            season_id INTEGER,
            count_ended INTEGER NOT NULL,
            games TEXT NOT NULL,
            deleted_at TEXT NOT NULL
        );
        CREATE TABLE event_rounds (
            event_id INTEGER NOT NULL REFERENCES events(id) ON DELETE CASCADE,
            number INTEGER NOT NULL,
            tables TEXT NOT NULL,
            created_at TEXT NOT NULL,
            PRIMARY KEY (event_id, number)
        );
    """)
    db.execute("UPDATE events SET join_token = lower(hex(randomblob(16)))"
               " WHERE join_token IS NULL")


@migrations()
def m850_rated_by_night_date(db: sqlite_utils.Database) -> None:
    """Rate games in the order of their night's date, then as before (see
    RATED_BY_DATE); every rating is computed again on the first read."""
    _create_statements(db, RATED_BY_DATE.format(
        rated_new=RATED_AT.format(row="NEW"), triggers=rating_triggers("rated_at")))
    db.execute(f"UPDATE games SET rated_at = {RATED_AT.format(row='games')}"
               " WHERE finished_at IS NOT NULL")
    db.execute("DELETE FROM rating_steps")
    db.execute("INSERT OR REPLACE INTO rating_dirty (id, finished_at, game_id)"
               " VALUES (1, '', 0)")


@migrations()
def m860_club_rosters(db: sqlite_utils.Database) -> None:
    """Keep a season's roster, its merged names and a deleted season a while
    (CONTRACT §14). rosters holds each season's players, present or not (a
    new night in the season starts from them); merged_names each name the
    admin merged into another, so a backup carries it; deleted_seasons a
    deleted season with its nights and roster until it is undone or stale.
    """
    _create_statements(db, """
        CREATE TABLE rosters (
            season_id INTEGER NOT NULL REFERENCES seasons(id) ON DELETE CASCADE,
            name TEXT NOT NULL,
            name_key TEXT NOT NULL,
            added_at TEXT NOT NULL,
            PRIMARY KEY (season_id, name_key)
        );
        CREATE TABLE merged_names (
            old_key TEXT PRIMARY KEY,
            old TEXT NOT NULL,
            new TEXT NOT NULL,
            new_key TEXT NOT NULL,
            merged_at TEXT NOT NULL
        );
        CREATE TABLE deleted_seasons (
            id INTEGER PRIMARY KEY,
            name TEXT NOT NULL,
            created_at TEXT NOT NULL,
            events TEXT NOT NULL,
            roster TEXT NOT NULL,
            deleted_at TEXT NOT NULL
        );
    """)


@migrations()
def m870_photo_lesson_paint(db: sqlite_utils.Database) -> None:
    """Keep a colour lesson's saturation and value as well as its hue
    (store.photo_lessons): a set whose sixth colour is white has a colourless
    paint, which a hue cannot teach. `measured` counts the examples whose
    saturation and value were kept; a lesson kept before counts none and
    teaches its hue as before."""
    columns = db["photo_lessons"].columns_dict
    for column, kind in (("measured", "INTEGER"), ("saturation", "REAL"),
                         ("value", "REAL")):
        if column not in columns:
            db.execute(f"ALTER TABLE photo_lessons ADD COLUMN {column} {kind}"
                       " NOT NULL DEFAULT 0")


@migrations()
def m880_leavers(db: sqlite_utils.Database) -> None:
    """count_leavers is the organiser's choice how a player who left a game
    counts (CONTRACT §14, RULES §7.5): placed last (1, as before leaving
    existed: an excluded player), or the game counts without them (0).
    moves_leaves holds the few leave moves alone, so that asking whether a
    seat left (store.games.LEFT_SEAT) is one seek, not a walk of the game's
    moves: a player's statistics over 5,904 games (gen_db, 10,000 games) took
    154 ms (median) without it, 2.6 ms with it."""
    _create_statements(db, """
        ALTER TABLE events ADD COLUMN count_leavers INTEGER NOT NULL DEFAULT 1;
        ALTER TABLE deleted_events ADD COLUMN count_leavers INTEGER NOT NULL
            DEFAULT 1;
        CREATE INDEX IF NOT EXISTS moves_leaves ON moves(game_id, player)
            WHERE type = 'leave';
    """)


@migrations()
def m890_moves_one_game_index(db: sqlite_utils.Database) -> None:
    """Drop moves_game_id: UNIQUE (game_id, seq) is an index whose first
    column is game_id, so every query on a game's moves (and the cascade when
    a game is deleted) seeks that one instead, and each move stored writes one
    index fewer (benchmarks/bench_api.py)."""
    db.execute("DROP INDEX IF EXISTS moves_game_id")


def _named_games(db: sqlite_utils.Database) -> list[tuple[str, str, str]]:
    """Return (type, name, sql) of every index on games, and of every trigger
    or view that is on games or names it, in the order they were made."""
    word = re.compile(r"\bgames\b", re.IGNORECASE)
    return [
        (kind, name, sql)
        for kind, name, table, sql in db.execute(
            "SELECT type, name, tbl_name, sql FROM sqlite_master"
            " WHERE sql IS NOT NULL AND type IN ('index', 'trigger', 'view')"
            " ORDER BY rowid"
        ).fetchall()
        if table == "games" or (kind != "index" and word.search(sql))
    ]


def _create_statements(db: sqlite_utils.Database, script: str) -> None:
    """Run each statement of script, triggers whole (they hold semicolons)."""
    statement = ""
    for part in script.split(";"):
        statement += part + ";"
        if sqlite3.complete_statement(statement):
            if statement.strip().strip(";").strip():
                db.execute(statement)
            statement = ""


RENAMED = {
    "m300_restore_guards": "m310_restore_guards",
    "m300_player_totals": "m320_player_totals",
    "m301_games_revision": "m330_games_revision",
}
"""Migrations a database may have applied under an earlier name: the restore
guards were m300 in the release before table discipline took that number; the
player totals and the games' revision were m300 and m301 in the release that
served with worker processes, before either was merged."""


def _rename_applied(db: sqlite_utils.Database) -> None:
    """Give the migrations a database applied under an earlier name today's name,
    so that none runs twice."""
    if not db[migrations.migrations_table].exists():
        return
    with db.conn:
        db.conn.executemany(
            f"UPDATE {migrations.migrations_table} SET name = ?"
            " WHERE migration_set = ? AND name = ?",
            [(new, migrations.name, old) for old, new in RENAMED.items()],
        )


def init_db(path: str) -> None:
    """Create or migrate the schema in the file at path (run once, before serving)."""
    private_file(path)
    db = connect(path)
    try:
        db.execute("PRAGMA journal_mode = WAL")
        _rename_applied(db)
        migrations.apply(db)
    finally:
        db.close()
