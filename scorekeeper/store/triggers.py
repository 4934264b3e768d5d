"""The SQL that keeps summaries in step with the games, written once and
used by the migrations of store/schema.py: each player's totals, the marks
that make the ratings stale, and a finished game's place in the rating order.
"""

from __future__ import annotations

import re

TOTALS = {
    "games": "1",
    "finished": "({r}.is_winner IS NOT NULL)",
    "wins": "coalesce({r}.is_winner, 0)",
    "finished_points": "CASE WHEN {r}.is_winner IS NOT NULL THEN {r}.score ELSE 0 END",
    "qwirkles": "{r}.qwirkles",
    "turns": "{r}.turns",
    "points": "{r}.score",
}
"""Each column of player_totals as of m320, and what one game_players row {r}
adds to it."""

DISCIPLINE_TOTALS = {
    **TOTALS,
    "exclusions": "{r}.excluded",
    "penalties": "{r}.penalties",
    "timed_moves": "{r}.timed_moves",
    "think_seconds": "{r}.think_seconds",
}
"""player_totals since m340: the table discipline a player's page shows, too."""


def player_totals(totals: dict[str, str]) -> str:
    """Return the statements creating player_totals with the given columns, and
    the triggers keeping it in step with game_players in each write's transaction."""
    names = list(totals)
    # The game_players columns the totals read: an update of any of them counts.
    sources = sorted({
        column for expr in totals.values()
        for column in re.findall(r"\{r\}\.(\w+)", expr)
    })

    def of(row: str, name: str) -> str:
        return totals[name].format(r=row)

    add = (
        f"INSERT INTO player_totals (name_key, {', '.join(names)})"
        f" VALUES (NEW.name_key, {', '.join(of('NEW', n) for n in names)})"
        " ON CONFLICT (name_key) DO UPDATE SET "
        + ", ".join(f"{n} = {n} + excluded.{n}" for n in names) + ";"
    )
    remove = (
        "UPDATE player_totals SET "
        + ", ".join(f"{n} = {n} - {of('OLD', n)}" for n in names)
        + " WHERE name_key = OLD.name_key;"
        " DELETE FROM player_totals WHERE name_key = OLD.name_key AND games = 0;"
    )
    change = (
        "UPDATE player_totals SET "
        + ", ".join(
            f"{n} = {n} + {of('NEW', n)} - {of('OLD', n)}"
            for n in names if n != "games"
        )
        + " WHERE name_key = NEW.name_key;"
    )
    columns = ", ".join(f"{n} INTEGER NOT NULL DEFAULT 0" for n in names)
    return f"""
    CREATE TABLE player_totals (name_key TEXT PRIMARY KEY, {columns}) WITHOUT ROWID;
    CREATE TRIGGER player_totals_insert AFTER INSERT ON game_players
    BEGIN {add} END;
    CREATE TRIGGER player_totals_delete AFTER DELETE ON game_players
    BEGIN {remove} END;
    CREATE TRIGGER player_totals_update
    AFTER UPDATE OF {', '.join(sources)} ON game_players
    WHEN OLD.name_key = NEW.name_key
    BEGIN {change} END;
    CREATE TRIGGER player_totals_rename AFTER UPDATE OF name_key ON game_players
    WHEN OLD.name_key != NEW.name_key
    BEGIN {remove} {add} END;
    INSERT INTO player_totals (name_key, {', '.join(names)})
    SELECT name_key, {', '.join(f"sum({of('game_players', n)})" for n in names)}
    FROM game_players GROUP BY name_key;
"""


INSIGHT_TOTALS = {
    **DISCIPLINE_TOTALS,
    "eff_scored": "{r}.eff_scored",
    "eff_available": "{r}.eff_available",
}
"""player_totals since m420: the points a player's analysed moves scored and
the points the same tiles could have scored (efficiency, CONTRACT §11)."""


RATING_TRIGGERS = """
    CREATE TRIGGER ratings_game_changed
    AFTER UPDATE OF {place}, end_reason, scores, revision ON games
    WHEN (OLD.{place} IS NOT NULL OR NEW.{place} IS NOT NULL)
     AND (OLD.{place} IS NOT NEW.{place}
          OR OLD.end_reason IS NOT NEW.end_reason
          OR OLD.scores IS NOT NEW.scores OR OLD.revision IS NOT NEW.revision)
    BEGIN
        {{mark_old}}
        {{mark_new}}
    END;
    CREATE TRIGGER ratings_game_deleted AFTER DELETE ON games
    WHEN OLD.{place} IS NOT NULL
    BEGIN {{mark_old}} END;
    CREATE TRIGGER ratings_player_renamed AFTER UPDATE OF name_key ON game_players
    WHEN OLD.name_key != NEW.name_key
    BEGIN
        INSERT INTO rating_dirty (id, finished_at, game_id)
        SELECT 1, {place}, id FROM games
        WHERE id = NEW.game_id AND {place} IS NOT NULL
        ON CONFLICT (id) DO UPDATE SET finished_at = excluded.finished_at,
            game_id = excluded.game_id
        WHERE (excluded.finished_at, excluded.game_id)
              < (rating_dirty.finished_at, rating_dirty.game_id);
    END;
"""
"""The triggers that mark the ratings stale (store/schema.py, m600_club_nights), by a
finished game's place in the rating order: games.{place}."""


def rating_triggers(place: str) -> str:
    """Return the rating triggers for the rating order held in games.`place`."""
    return RATING_TRIGGERS.format(place=place).format(
        mark_old=mark("OLD", place), mark_new=mark("NEW", place))


def mark(row: str, place: str = "finished_at") -> str:
    """Return the statement that marks ratings stale from game `row` (OLD/NEW)
    on, by its place in the rating order (column `place` of games)."""
    return (
        "INSERT INTO rating_dirty (id, finished_at, game_id)"
        f" SELECT 1, {row}.{place}, {row}.id WHERE {row}.{place} IS NOT NULL"
        " ON CONFLICT (id) DO UPDATE SET finished_at = excluded.finished_at,"
        " game_id = excluded.game_id"
        " WHERE (excluded.finished_at, excluded.game_id)"
        " < (rating_dirty.finished_at, rating_dirty.game_id);"
    )


RATED_AT = (
    "coalesce((SELECT date FROM events WHERE id = {row}.event_id),"
    " substr({row}.finished_at, 1, 10)) || ' ' || {row}.finished_at"
)
"""A finished game's place in the rating order (CONTRACT §14): its night's
date (a game in no night: the day it finished), then when it finished."""


RATED_BY_DATE = """
    ALTER TABLE games ADD COLUMN rated_at TEXT;
    CREATE INDEX games_rated ON games(rated_at, id) WHERE rated_at IS NOT NULL;
    DROP TRIGGER ratings_game_changed;
    DROP TRIGGER ratings_game_deleted;
    DROP TRIGGER ratings_player_renamed;
    CREATE TRIGGER games_rated_at AFTER UPDATE OF finished_at, event_id ON games
    WHEN OLD.finished_at IS NOT NEW.finished_at OR OLD.event_id IS NOT NEW.event_id
    BEGIN
        UPDATE games SET rated_at = CASE WHEN NEW.finished_at IS NULL THEN NULL
            ELSE {rated_new} END WHERE id = NEW.id;
    END;
    CREATE TRIGGER events_date_moved AFTER UPDATE OF date ON events
    WHEN OLD.date IS NOT NEW.date
    BEGIN
        UPDATE games SET rated_at = NEW.date || ' ' || finished_at
        WHERE event_id = NEW.id AND finished_at IS NOT NULL;
    END;
    {triggers}
"""
"""Games rated in the order of their night's date (CONTRACT §14): games.rated_at
holds each finished game's place, kept by triggers when it finishes, joins or
leaves a night, or its night's date moves; the rating triggers of m600 mark
the ratings stale by that place. rating_steps and rating_dirty keep their
column finished_at, which now holds rated_at."""
