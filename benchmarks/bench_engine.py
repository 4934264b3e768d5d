"""Benchmark the rules engine on boards from real-length games (issues 2 and 12).

Run from the repository root:

    python benchmarks/bench_engine.py            # both tables
    python benchmarks/bench_engine.py --quick    # fewer samples, a few seconds
    python benchmarks/bench_engine.py --profile  # cProfile: where the time goes

Positions come from the recorded classic games in tests/data/games, read
through tests/corpus.py (or, when that folder is missing, from games a seeded
bot plays): a mid-game board of about 60 tiles and a late one of about 100.
Measured:

- `play` (validate + score + apply) of the move the record really played next,
  timed per call, undone with `pop` outside the timed region (the garbage
  collector is paused while timing, as `timeit` does);
- `legal_map()` (all kinds at once) and `legal_cells` for every kind, on late
  boards, each on a freshly replayed board so that no cache is warm;
- `best_moves` for 6-tile hands drawn from the tiles not on the board;
- `from_record` of each whole corpus game (replay with every check);
- issue 12's ratios: `play` and the best-move search against
  benchmarks/independent.py, a second engine written from RULES.md alone, on
  the same positions and hands, after checking that both give the same scores
  (and, for the search, the same best scores and the same set of legal moves).
"""

from __future__ import annotations

import argparse
import cProfile
import gc
import io
import pstats
import random
import statistics
import sys
import time
from functools import partial
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import independent  # noqa: E402  (benchmarks/, first on sys.path)

from scorekeeper import engine  # noqa: E402
from tests import corpus  # noqa: E402

GAMES = corpus.GAMES

Tile = tuple[int, int, str, str]
Sample = tuple[list[list[Tile]], list[Tile]]  # (moves before, the next move)


def record_games() -> list[list[list[Tile]]]:
    """The placing moves of every classic game of the corpus."""
    games = []
    for path in corpus.game_files("classic-"):
        record = corpus.load(path)
        games.append([
            [(t["row"], t["col"], t["color"], t["shape"]) for t in move["tiles"]]
            for move in record["moves"] if move["type"] == "place"
        ])
    return games


def bot_games(count: int, seed: int) -> list[list[list[Tile]]]:
    """Classic games of a greedy seeded bot, when the corpus is not at hand."""
    rng = random.Random(seed)
    games = []
    for _ in range(count):
        bag = [(c, s) for c in engine.CLASSIC.color_names
               for s in engine.CLASSIC.shape_names for _ in range(3)]
        rng.shuffle(bag)
        hand = [bag.pop() for _ in range(6)]
        board = engine.Board()
        moves: list[list[Tile]] = []
        stuck = 0
        while hand and stuck < 10:
            found = engine.best_moves(board, hand, limit=3)
            if not found:
                stuck += 1
                bag.extend(hand)
                rng.shuffle(bag)
                hand = [bag.pop() for _ in range(min(6, len(bag)))]
                continue
            stuck = 0
            move = list(rng.choice(found)[1])
            board.play(move)
            moves.append(move)
            for _, _, color, shape in move:
                hand.remove((color, shape))
            while len(hand) < 6 and bag:
                hand.append(bag.pop())
        games.append(moves)
    return games


def samples(games: list[list[list[Tile]]], low: int, high: int) -> list[Sample]:
    """Every (position, next move) whose board holds low..high tiles."""
    found = []
    for moves in games:
        tiles = 0
        for index, move in enumerate(moves):
            if low <= tiles <= high:
                found.append((moves[:index], move))
            tiles += len(move)
    return found


def build(moves: list[list[Tile]], kind=engine.Board):
    """A fresh board (no warm cache) with the given moves played.

    `kind` is the board's class: ours, or independent.Board.
    """
    board = kind()
    for move in moves:
        board.play(move)
    return board


def no_gc(function):
    """Run a timing function with the garbage collector paused, as timeit does."""

    def timed(*args, **kwargs):
        gc.collect()
        gc.disable()
        try:
            return function(*args, **kwargs)
        finally:
            gc.enable()

    return timed


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


@no_gc
def time_play(batch: list[Sample], repeats: int) -> list[float]:
    """Seconds per `play` call: the real next move on its real position."""
    times = []
    clock = time.perf_counter
    for before, move in batch:
        board = build(before)
        for _ in range(repeats):
            start = clock()
            board.play(move)
            times.append(clock() - start)
            board.pop()
    return times


@no_gc
def time_legal(batch: list[Sample]) -> tuple[list[float], list[float]]:
    """Seconds for legal_map() and for legal_cells of every kind, cold boards."""
    kinds = [(c, s) for c in engine.CLASSIC.color_names
             for s in engine.CLASSIC.shape_names]
    all_at_once, one_by_one = [], []
    for before, _ in batch:
        board = build(before)
        start = time.perf_counter()
        board.legal_map()
        all_at_once.append(time.perf_counter() - start)
        board = build(before)
        start = time.perf_counter()
        for kind in kinds:
            board.legal_cells(*kind)
        one_by_one.append(time.perf_counter() - start)
    return all_at_once, one_by_one


@no_gc
def time_best(batch: list[Sample], hands: int, rng: random.Random) -> list[float]:
    """Seconds per best_moves call for 6-tile hands of unseen tiles, cold boards."""
    times = []
    per_board = max(1, hands // max(1, len(batch)))
    for before, _ in batch:
        for _ in range(per_board):
            board = build(before)
            pool = [kind for kind, n in board.unseen().items() for _ in range(n)]
            hand = rng.sample(pool, min(6, len(pool)))
            start = time.perf_counter()
            engine.best_moves(board, hand, limit=10)
            times.append(time.perf_counter() - start)
    return times


@no_gc
def time_replay(repeats: int) -> list[float]:
    """Seconds per from_record of each corpus game (validate, score, end checks)."""
    records = [corpus.load(path) for path in corpus.game_files("classic-")]
    times = []
    for record in records:
        for _ in range(repeats):
            start = time.perf_counter()
            engine.from_record(record)
            times.append(time.perf_counter() - start)
    return times


class Disagreement(Exception):
    """The two engines answered differently, so their times are not comparable."""


Pair = tuple[float, float]  # (our seconds, the independent engine's seconds)


@no_gc
def compare_play(batch: list[Sample], repeats: int, interleave: bool = False
                 ) -> list[Pair]:
    """Per position, the median seconds of `play` in each engine.

    Each engine's repeats run one after another (as timeit does), so each
    times its own warm path; with `interleave` the two alternate call by call,
    and each call finds the caches full of the other engine's data.
    """
    pairs = []
    clock = time.perf_counter
    for before, move in batch:
        board, other = build(before), build(before, independent.Board)
        ours, theirs = board.play(move), other.play(move)
        board.pop()
        other.undo(move)
        if ours != theirs:
            raise Disagreement(f"play {move}: {ours} here, {theirs} independent")
        mine: list[float] = []
        its: list[float] = []
        calls = [(board.play, board.pop, mine),
                 (other.play, partial(other.undo, move), its)]
        if interleave:
            schedule = calls * repeats
        else:
            schedule = [calls[0]] * repeats + [calls[1]] * repeats
        for play, undo, times in schedule:
            start = clock()
            play(move)
            times.append(clock() - start)
            undo()
        pairs.append((statistics.median(mine), statistics.median(its)))
    return pairs


@no_gc
def compare_best(batch: list[Sample], rng: random.Random, limit: int = 10
                 ) -> list[Pair]:
    """Per position and seeded hand, seconds of the best-move search in each engine.

    Both start cold. The independent engine has no early stop, so its search
    lists every legal move; ours is then checked to list the same set.
    """
    pairs = []
    clock = time.perf_counter
    for before, _ in batch:
        board, other = build(before), build(before, independent.Board)
        pool = [kind for kind, n in board.unseen().items() for _ in range(n)]
        hand = rng.sample(pool, min(6, len(pool)))
        start = clock()
        found = engine.best_moves(board, hand, limit=limit)
        mine = clock() - start
        start = clock()
        every = independent.best_moves(other, hand, limit=10**9)
        its = clock() - start
        top = [points for points, _ in found]
        if top != [points for points, _ in every[:limit]]:
            raise Disagreement(f"best_moves {hand} after {len(before)} moves")
        listed = {frozenset(move) for _, move in engine.legal_moves(board, hand)}
        if listed != {frozenset(move) for _, move in every}:
            raise Disagreement(f"legal_moves {hand} after {len(before)} moves")
        pairs.append((mine, its))
    return pairs


def ratio_row(name: str, pairs: list[Pair], unit: str, goal: str) -> str:
    scale = {"µs": 1e6, "ms": 1e3}[unit]
    mine = statistics.median(p[0] for p in pairs) * scale
    its = statistics.median(p[1] for p in pairs) * scale
    total = sum(p[0] for p in pairs) / sum(p[1] for p in pairs)
    each = statistics.median(p[0] / p[1] for p in pairs)
    return (f"| {name:<28} | {len(pairs):>4} | {mine:>8.2f} {unit} "
            f"| {its:>8.2f} {unit} | {total:>6.3f} | {each:>6.3f} | {goal:<6} |")


def row(name: str, values: list[float], unit: str, goal: str) -> str:
    scale = {"µs": 1e6, "ms": 1e3}[unit]
    med = statistics.median(values) * scale
    p90 = percentile(values, 0.9) * scale
    top = max(values) * scale
    return (f"| {name:<34} | {len(values):>6} | {med:>8.2f} {unit} "
            f"| {p90:>8.2f} {unit} | {top:>8.2f} {unit} | {goal:<19} |")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer samples")
    parser.add_argument("--profile", action="store_true",
                        help="run the workload under cProfile and print the hot spots")
    parser.add_argument("--seed", type=int, default=2026)
    args = parser.parse_args(argv)
    rng = random.Random(args.seed)

    games = record_games() if GAMES.is_dir() else []
    source = f"{len(games)} corpus games"
    if not games:
        games = bot_games(6 if args.quick else 12, args.seed)
        source = f"{len(games)} seeded bot games (corpus not found)"
    mid = samples(games, 55, 65)
    late = samples(games, 95, 106)
    if args.quick:
        mid, late = mid[:10], late[:10]
    repeats = 50 if args.quick else 300
    hands = 40 if args.quick else 200

    if args.profile:
        # One profile per workload, so that each one's hot spots stand apart
        # (the board replays that set up each sample are counted as `build`).
        workloads = [
            ("play (mid and late boards)", lambda: time_play(mid + late, repeats)),
            ("legal_map and legal_cells (late boards)", lambda: time_legal(late)),
            ("best_moves (6-tile hands)", lambda: time_best(mid + late, hands, rng)),
            ("independent engine: play and best moves", lambda: (
                compare_play(mid + late, repeats // 10),
                compare_best((mid + late)[::4], rng),
            )),
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

    print(f"Engine benchmark: {source}; mid boards {len(mid)} positions of 55-65"
          f" tiles, late boards {len(late)} of 95-106 tiles; Python"
          f" {sys.version.split()[0]}")
    print()
    print(f"| {'what':<34} | {'n':>6} | {'median':>11} | {'p90':>11} | {'max':>11} "
          f"| {'goal (issue 2)':<19} |")
    print(f"|{'-' * 36}|{'-' * 8}|{'-' * 13}|{'-' * 13}|{'-' * 13}|{'-' * 21}|")
    print(row("play, mid-game (~60 tiles)", time_play(mid, repeats), "µs",
              "median < 10 µs"))
    print(row("play, late (~100 tiles)", time_play(late, repeats), "µs",
              "median < 10 µs"))
    all_at_once, one_by_one = time_legal(late)
    print(row("legal_map(), late, 36 kinds", all_at_once, "ms", "< 5 ms"))
    print(row("legal_cells x 36 kinds, late", one_by_one, "ms", "< 5 ms"))
    print(row("best_moves 6-tile hand, mid", time_best(mid, hands, rng), "ms",
              "med < 20, max < 200"))
    print(row("best_moves 6-tile hand, late", time_best(late, hands, rng), "ms",
              "med < 20, max < 200"))
    if GAMES.is_dir():
        print(row("from_record, a whole classic game", time_replay(3 if args.quick
                                                                    else 20),
                  "ms", "-"))
    print()
    print("Against benchmarks/independent.py on the same positions (issue 12):"
          " ratio = our total time / its total time; 'each' = median of the"
          " per-position ratios. Each engine's repeats of a play run in a row;"
          " 'interleaved' alternates the engines call by call.")
    print()
    print(f"| {'what':<28} | {'n':>4} | {'ours, med':>11} | {'indep., med':>11} "
          f"| {'ratio':>6} | {'each':>6} | {'goal':<6} |")
    print(f"|{'-' * 30}|{'-' * 6}|{'-' * 13}|{'-' * 13}|{'-' * 8}|{'-' * 8}|"
          f"{'-' * 8}|")
    print(ratio_row("play, mid and late", compare_play(mid + late, repeats // 2),
                    "µs", "≤ 0.20"))
    print(ratio_row("play, calls interleaved", compare_play(
        mid + late, repeats // 2, interleave=True), "µs", "-"))
    batch = mid + late if not args.quick else (mid + late)[::2]
    print(ratio_row("best moves, 6-tile hand", compare_best(batch, rng), "ms",
                    "≤ 0.15"))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
