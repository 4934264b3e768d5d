"""Benchmark the insights: hints on late boards, a whole game's analysis.

Run from the repository root:

    python benchmarks/bench_insights.py            # the table
    python benchmarks/bench_insights.py --quick    # fewer repeats, a few seconds
    python benchmarks/bench_insights.py --profile  # cProfile: where the time goes

Games are the recorded corpus games in tests/data/games, read through
tests/corpus.py. Measured, with the garbage collector paused as `timeit` does:

- `hints(board).to_dict()` (threats, dead cells, 5 hot cells) on every late board
  (95-106 tiles) of the classic games, each board replayed afresh so that
  no cache is warm, then once more on the same board (warm);
- `analyse_game(game)`: every placing move's "same tiles, best spot" and the
  seats' efficiency, for each whole corpus game;
- `analyse_last_move(game)` after each placing move of the classic games:
  what the app pays when it analyses a move as it is written.
"""

from __future__ import annotations

import argparse
import cProfile
import gc
import io
import pstats
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

from corpus import game_files, load  # noqa: E402

from scorekeeper import engine  # noqa: E402

T = TypeVar("T")


def no_gc(function: Callable[..., T]) -> Callable[..., T]:
    """Run a timing function with the garbage collector paused, as timeit does."""

    def timed(*args: object, **kwargs: object) -> T:
        gc.collect()
        gc.disable()
        try:
            return function(*args, **kwargs)
        finally:
            gc.enable()

    return timed


def corpus_games(prefix: str = "") -> list[engine.Game]:
    """Every corpus game whose file name starts so, replayed."""
    return [engine.from_record(load(path))[0] for path in game_files(prefix)]


def late_boards(games: list[engine.Game], low: int, high: int) -> list[list[tuple]]:
    """The placing moves leading to every board of low..high tiles."""
    found = []
    for game in games:
        moves = [m.tiles for m in game.moves if m.type == "place"]
        tiles = 0
        for index, move in enumerate(moves):
            tiles += len(move)
            if low <= tiles <= high:
                found.append(moves[: index + 1])
    return found


def build(variant: engine.Variant, moves: list[tuple]) -> engine.Board:
    """A fresh board (no warm cache) with the given moves played."""
    board = engine.Board(variant)
    for move in moves:
        board.play(move)
    return board


@no_gc
def time_hints(positions: list[list[tuple]]) -> tuple[list[float], list[float]]:
    """Seconds per hints().to_dict() on late boards: cold, then warm."""
    cold, warm = [], []
    clock = time.perf_counter
    for moves in positions:
        board = build(engine.CLASSIC, moves)
        start = clock()
        engine.hints(board).to_dict()
        cold.append(clock() - start)
        start = clock()
        engine.hints(board).to_dict()
        warm.append(clock() - start)
    return cold, warm


@no_gc
def time_games(games: list[engine.Game], repeats: int) -> list[float]:
    """Seconds per analyse_game() of each whole game."""
    times = []
    clock = time.perf_counter
    for game in games:
        for _ in range(repeats):
            start = clock()
            engine.analyse_game(game)
            times.append(clock() - start)
    return times


@no_gc
def time_last_move(games: list[engine.Game]) -> list[float]:
    """Seconds per analyse_last_move() right after each placing move."""
    times = []
    clock = time.perf_counter
    for played in games:
        game = engine.Game(played.variant, played.players, played.first_player)
        for move in played.moves:
            game.push(move.to_dict())
            if move.type != "place":
                continue
            start = clock()
            engine.analyse_last_move(game)
            times.append(clock() - start)
    return times


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def row(name: str, values: list[float], goal: str) -> str:
    med = statistics.median(values) * 1e3
    p90 = percentile(values, 0.9) * 1e3
    top = max(values) * 1e3
    return (f"| {name:<36} | {len(values):>5} | {med:>8.2f} ms | {p90:>8.2f} ms "
            f"| {top:>8.2f} ms | {goal:<10} |")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer repeats")
    parser.add_argument("--profile", action="store_true",
                        help="run the workload under cProfile and print the hot spots")
    args = parser.parse_args(argv)

    classic = corpus_games("classic-")
    every = corpus_games()
    late = late_boards(classic, 95, 106)
    repeats = 1 if args.quick else 5
    if args.quick:
        late = late[:20]

    if args.profile:
        workloads = [
            ("hints (late boards, cold)", lambda: time_hints(late)),
            ("analyse_game (whole games)", lambda: time_games(every, 1)),
        ]
        for title, work in workloads:
            profiler = cProfile.Profile()
            profiler.runcall(work)
            out = io.StringIO()
            stats = pstats.Stats(profiler, stream=out).strip_dirs()
            stats.sort_stats("tottime").print_stats(12)
            print(f"=== {title} ===")
            print(out.getvalue())
        return 0

    places = sum(1 for g in every for m in g.moves if m.type == "place")
    print(f"Insights benchmark: {len(every)} corpus games ({len(classic)} classic,"
          f" {places} placing moves); {len(late)} late boards of 95-106 tiles;"
          f" Python {sys.version.split()[0]}")
    print()
    print(f"| {'what':<36} | {'n':>5} | {'median':>11} | {'p90':>11} | {'max':>11} "
          f"| {'goal':<10} |")
    print(f"|{'-' * 38}|{'-' * 7}|{'-' * 13}|{'-' * 13}|{'-' * 13}|{'-' * 12}|")
    cold, warm = time_hints(late)
    print(row("hints, late board, cold", cold, "≤ 30 ms"))
    print(row("hints, late board, warm", warm, "≤ 30 ms"))
    print(row("analyse_game, a whole classic game", time_games(classic, repeats),
              "≤ 1 s"))
    print(row("analyse_game, every corpus game", time_games(every, repeats),
              "≤ 1 s"))
    print(row("analyse_last_move, per placing move", time_last_move(classic),
              "-"))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
