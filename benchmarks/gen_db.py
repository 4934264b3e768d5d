"""Generate a SQLite database of N finished games for the history benchmarks.

Each game is a corpus game (tests/data/games or --corpus) replayed once through
the engine, stored with renamed players (from a pool of names) and shifted dates,
through store.backup.restore_backup, which writes the moves and the summary tables
exactly as the app does. Usage:

    python benchmarks/gen_db.py --games 10000 --out /tmp/history-10k.sqlite3
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from scorekeeper import create_app, engine  # noqa: E402
from scorekeeper.store import backup, connection  # noqa: E402

DEFAULT_CORPUS = Path(__file__).resolve().parents[1] / "tests" / "data" / "games"

NAMES = (
    "Anna Bram Chris Dana Eve Femke Gert Hanna Ivo Joke Kees Lotte Mila Noor Otto "
    "Pien Quinten Rosa Sem Tess Umut Vera Wim Xandra Yara Zoë Ahmed Birgit Carlos "
    "Dirk Elif Floor Guus Hugo Iris Jasper Kim Lars Maud Nina"
).split()
"""Player names the generated games draw from (40 names)."""


@dataclass
class Item:
    """One game to store (the shape store.backup.restore_backup reads)."""

    names: list[str]
    game: engine.Game
    created_at: str
    updated_at: str
    finished_at: str
    move_times: list[str]


def load_corpus(folder: Path) -> list[engine.Game]:
    """Return the finished games of the corpus folder, replayed by the engine."""
    games = []
    for path in sorted(folder.glob("*.json")):
        record = json.loads(path.read_text(encoding="utf-8"))
        if record.get("format") != engine.FORMAT or not record.get("final"):
            continue
        game, _names = engine.from_record(record)
        games.append(game)
    if not games:
        raise SystemExit(f"no finished qwirkle-game/1 records in {folder}")
    return games


def make_items(
    corpus: list[engine.Game],
    count: int,
    seed: int,
    start: datetime,
    pool: list[str] | None = None,
) -> list[Item]:
    """Return `count` games: corpus games with new names and spread-out dates."""
    rng = random.Random(seed)
    pool = pool or list(NAMES)
    items = []
    moment = start
    for _ in range(count):
        game = rng.choice(corpus)
        names = rng.sample(pool, game.players)
        moment += timedelta(minutes=rng.randint(60, 300))
        stamp = moment
        times = []
        for _move in game.moves:
            stamp += timedelta(seconds=rng.randint(10, 90))
            times.append(stamp.isoformat(timespec="microseconds"))
        last = times[-1] if times else moment.isoformat(timespec="microseconds")
        items.append(
            Item(
                names=names,
                game=game,
                created_at=moment.isoformat(timespec="microseconds"),
                updated_at=last,
                finished_at=last,
                move_times=times,
            )
        )
    return items


def main(argv: list[str] | None = None) -> None:
    """Parse the arguments and write the database."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=10_000)
    parser.add_argument("--out", default="instance/history-bench.sqlite3")
    parser.add_argument("--corpus", type=Path, default=DEFAULT_CORPUS)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--chunk", type=int, default=1000)
    parser.add_argument(
        "--names",
        type=int,
        default=len(NAMES),
        help="size of the name pool (a family table: 4 or 5, so each plays most games)",
    )
    args = parser.parse_args(argv)

    out = Path(args.out)
    if out.exists():
        raise SystemExit(f"{out} exists; remove it first")
    out.parent.mkdir(parents=True, exist_ok=True)
    began = time.perf_counter()
    corpus = load_corpus(args.corpus)
    start = datetime(2024, 1, 1, 18, 0, tzinfo=UTC)
    largest = max(game.players for game in corpus)
    pool = list(NAMES[: max(args.names, largest)])
    items = make_items(corpus, args.games, args.seed, start, pool)
    app = create_app({"DATABASE": str(out), "SECRET_KEY": "gen-db", "TESTING": True})
    with app.app_context():
        for first in range(0, len(items), args.chunk):
            backup.restore_backup(items[first : first + args.chunk])
        connection.get_db().execute("ANALYZE")
        counts = {
            table: connection.get_db()[table].count
            for table in ("games", "moves", "game_players")
        }
    took = time.perf_counter() - began
    print(f"wrote {out}: {counts} in {took:.1f} s")


if __name__ == "__main__":
    main()
