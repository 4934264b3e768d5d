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
- ratios, on the same positions and hands, after checking that both sides
  give the same answers: `play` against the plain reference implementation
  the tests judge the engine by (tests/engine/reference.py: it checks and
  scores a move cell by cell, without applying it); and `play`, the best-move
  search and `from_record` against the previous release's engine
  (`--previous REV`, default d53bd9c, v0.2.0's engine:
  its scorekeeper/engine is taken from git into a temporary folder and
  imported under another name).
"""

from __future__ import annotations

import argparse
import cProfile
import gc
import importlib.util
import io
import pstats
import random
import statistics
import subprocess
import sys
import tarfile
import tempfile
import time
from functools import partial
from pathlib import Path
from types import ModuleType

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from scorekeeper import engine  # noqa: E402
from tests import corpus  # noqa: E402
from tests.engine import reference  # noqa: E402

PREVIOUS = "d53bd9c"
"""The last commit of v0.2.0: the previous release's engine."""

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

    `kind` is the board's class: this engine's, or the previous release's.
    """
    board = kind()
    for move in moves:
        board.play(move)
    return board


def load_previous(rev: str) -> ModuleType:
    """Import scorekeeper/engine as it was at `rev`, as the module `previous`.

    The files come from `git archive` into a temporary folder; the engine
    imports only itself (relative imports) and the standard library, so it
    loads beside today's without touching it.
    """
    folder = Path(tempfile.mkdtemp(prefix="engine-"))
    archive = subprocess.run(
        ["git", "archive", "--format=tar", rev, "scorekeeper/engine"],
        cwd=ROOT, capture_output=True, check=True,
    ).stdout
    with tarfile.open(fileobj=io.BytesIO(archive)) as tar:
        tar.extractall(folder, filter="data")
    package = folder / "scorekeeper" / "engine"
    spec = importlib.util.spec_from_file_location(
        "previous", package / "__init__.py",
        submodule_search_locations=[str(package)],
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["previous"] = module
    spec.loader.exec_module(module)
    return module


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
    """The two sides answered differently, so their times are not comparable."""


Pair = tuple[float, float]  # (this engine's seconds, the other side's seconds)


def median_of(action, repeats: int, undo=None) -> float:
    """The median seconds of `repeats` calls of action (undo outside the clock)."""
    clock = time.perf_counter
    times = []
    for _ in range(repeats):
        start = clock()
        action()
        times.append(clock() - start)
        if undo is not None:
            undo()
    return statistics.median(times)


@no_gc
def compare_play_reference(batch: list[Sample], repeats: int) -> list[Pair]:
    """Per position, the median seconds of `play` here and of the reference's
    `judge` (check and score, nothing applied) on the same move."""
    pairs = []
    colors, shapes = engine.CLASSIC.color_names, engine.CLASSIC.shape_names
    for before, move in batch:
        board = build(before)
        tiles = {(r, c): (color, shape) for r, c, color, shape in board.tiles()}
        ours = board.play(move)
        board.pop()
        broken, theirs = reference.judge(tiles, move, colors, shapes, 3, 6)
        if broken or ours != theirs:
            raise Disagreement(f"play {move}: {ours} here, {theirs} in the reference")
        pairs.append((
            median_of(partial(board.play, move), repeats, board.pop),
            median_of(partial(reference.judge, tiles, move, colors, shapes, 3, 6),
                      repeats),
        ))
    return pairs


@no_gc
def compare_play_previous(batch: list[Sample], repeats: int, previous: ModuleType
                          ) -> list[Pair]:
    """Per position, the median seconds of `play` here and in the previous
    release, each engine's repeats in a row (as timeit does)."""
    pairs = []
    for before, move in batch:
        board, other = build(before), build(before, previous.Board)
        ours, theirs = board.play(move), other.play(move)
        board.pop()
        other.pop()
        if ours != theirs:
            raise Disagreement(f"play {move}: {ours} here, {theirs} before")
        pairs.append((
            median_of(partial(board.play, move), repeats, board.pop),
            median_of(partial(other.play, move), repeats, other.pop),
        ))
    return pairs


@no_gc
def compare_best_previous(batch: list[Sample], rng: random.Random,
                          previous: ModuleType, limit: int = 10) -> list[Pair]:
    """Per position and seeded hand, seconds of best_moves here and in the
    previous release, both on cold boards, after checking the same answer."""
    pairs = []
    clock = time.perf_counter
    for before, _ in batch:
        board, other = build(before), build(before, previous.Board)
        pool = [kind for kind, n in board.unseen().items() for _ in range(n)]
        hand = rng.sample(pool, min(6, len(pool)))
        runs = [(engine.best_moves, board), (previous.best_moves, other)]
        if len(pairs) % 2:  # alternate who goes first: neither always runs cold
            runs.reverse()
        answers, seconds = {}, {}
        for search, on in runs:
            start = clock()
            answers[search] = search(on, hand, limit=limit)
            seconds[search] = clock() - start
        found, theirs = answers[engine.best_moves], answers[previous.best_moves]
        mine, its = seconds[engine.best_moves], seconds[previous.best_moves]
        if [p for p, _ in found] != [p for p, _ in theirs]:
            raise Disagreement(f"best_moves {hand} after {len(before)} moves")
        pairs.append((mine, its))
    return pairs


@no_gc
def compare_replay_previous(repeats: int, previous: ModuleType) -> list[Pair]:
    """Per corpus game, the median seconds of from_record here and before."""
    pairs = []
    for path in corpus.game_files("classic-"):
        record = corpus.load(path)
        if (engine.from_record(record)[0].scores
                != previous.from_record(record)[0].scores):
            raise Disagreement(f"from_record {path.name}")
        pairs.append((
            median_of(partial(engine.from_record, record), repeats),
            median_of(partial(previous.from_record, record), repeats),
        ))
    return pairs


def ratio_row(name: str, pairs: list[Pair], unit: str, goal: str) -> str:
    scale = {"µs": 1e6, "ms": 1e3}[unit]
    mine = statistics.median(p[0] for p in pairs) * scale
    its = statistics.median(p[1] for p in pairs) * scale
    total = sum(p[0] for p in pairs) / sum(p[1] for p in pairs)
    each = statistics.median(p[0] / p[1] for p in pairs)
    return (f"| {name:<34} | {len(pairs):>4} | {mine:>8.2f} {unit} "
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
    parser.add_argument("--previous", default=PREVIOUS, metavar="REV",
                        help="the release to compare with (default %(default)s)")
    args = parser.parse_args(argv)
    previous = load_previous(args.previous)
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
            ("the reference's judge on the same moves", lambda: (
                compare_play_reference(mid + late, repeats // 10),
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
          f"| {'goal':<19} |")
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
    print(f"Against the plain reference of the tests (tests/engine/reference.py)"
          f" and the previous release ({args.previous}), on the same positions:"
          " ratio = this engine's total time / the other's; 'each' = median of"
          " the per-position ratios. Each side's repeats run in a row.")
    print()
    print(f"| {'what':<34} | {'n':>4} | {'ours, med':>11} | {'other, med':>11} "
          f"| {'ratio':>6} | {'each':>6} | {'goal':<6} |")
    print(f"|{'-' * 36}|{'-' * 6}|{'-' * 13}|{'-' * 13}|{'-' * 8}|{'-' * 8}|"
          f"{'-' * 8}|")
    print(ratio_row("play / reference judge", compare_play_reference(
        mid + late, repeats // 2), "µs", "-"))
    print(ratio_row(f"play / {args.previous}", compare_play_previous(
        mid + late, repeats // 2, previous), "µs", "≈ 1"))
    batch = mid + late if not args.quick else (mid + late)[::2]
    print(ratio_row(f"best moves / {args.previous}", compare_best_previous(
        batch, rng, previous), "ms", "≈ 1"))
    if GAMES.is_dir():
        print(ratio_row(f"from_record / {args.previous}", compare_replay_previous(
            3 if args.quick else 10, previous), "ms", "≈ 1"))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
