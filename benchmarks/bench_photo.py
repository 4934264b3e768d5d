"""Benchmark reading a move from a photo of the board.

Run from the repository root:

    python benchmarks/bench_photo.py            # 100 photos per set, 3 timing runs
    python benchmarks/bench_photo.py --quick    # 20 photos per set, 1 run
    python benchmarks/bench_photo.py --count 200 --runs 5
    python benchmarks/bench_photo.py --sets real --start 40 --count 80 --runs 1
                                                # photos 40..119: not tuned on
    python benchmarks/bench_photo.py --sets none --real DIR --teach-first --as-played
                                                # real photos of real games

Two fixed, seeded sets of synthetic photos of real corpus positions (the board
after move k-1 plus move k; a random game and k per photo):

- **own**: `tests/photo/synth.py`, the renderer the reader was developed on;
- **held-out**: `tests/photo/synth_alt.py`, a second renderer with a different
  look (bevelled tiles with shadows, other symbol drawings and paint, planks,
  a lamp, the camera's white balance and tone curve, lens distortion), written
  apart and not tuned against.

Tile sizes are drawn from 30–110 px, slants from 0–15°, any turn. Photos are
rendered once and kept in `benchmarks/out/photo-cache/` (ignored by git).
Each set is read in a fresh subprocess per run, so that its peak resident
memory (`ru_maxrss`, which sees OpenCV's native buffers) is the reader's own.

Reported: whole moves exactly right (every new tile's cell, colour and shape,
nothing more, nothing refused), tiles right, both by tile-size and slant band;
refusals by reason; median seconds per photo (the median over runs of each
run's median); peak RSS.

`--real DIR` (or the environment's SCOREKEEPER_REAL_PHOTOS) also reads a
folder of real photos of real games, annotated (`real_photos.py`: the format,
the cases, right / unsure / confident wrong / refused), at full size on one
core, with the load; `--fix` corrects an annotation as the folder's
`corrections` file would; `--teach-first` reads every game again after its
first photo taught the reader its set, `--as-played` in the order it was
played, each confirmed move teaching the photos after it; `--tight PAD`
reads every mode again on each photo cropped to its tiles with PAD of a
tile's edge of table round them (`real_photos.cropped`); `--vary` reads it
again as another table's phone might take it: another light, exposure,
haze, turn, distance or focus (`real_photos.changed`).
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path

from verdicts import exact, marks, verdict

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

CACHE = ROOT / "benchmarks" / "out" / "photo-cache"
VERSION = 3
"""Bump when a renderer changes, so cached photos are drawn again."""

SETS = {"own": ("synth", 2026), "held-out": ("synth_alt", 4049)}
"""Set name: (renderer module in tests/photo, seed of its cases)."""

REAL_SEED = 2020
"""Seed of the realistic sets (`tests/photo/synth_real.py`), one per condition."""

SIZE_BANDS = [(30, 50), (50, 70), (70, 90), (90, 110.5)]
SLANT_BANDS = [(0, 5), (5, 10), (10, 15.5)]


def _real(name: str) -> bool:
    from photo import synth_real

    return name in synth_real.CONDITIONS


def _cases(name: str, count: int, start: int = 0) -> list:
    """Cases start..start+count-1 of a set: each generator draws its cases one
    after another from one seed, so a case's index fixes it whatever the count."""
    from photo import synth

    if _real(name):
        return [rc.case for rc in _real_cases(name, count, start)]
    _, seed = SETS[name]
    return synth.cases(seed, start + count)[start:]


def _real_cases(name: str, count: int, start: int = 0) -> list:
    from photo import synth_real

    return synth_real.real_cases(name, REAL_SEED, start + count)[start:]


def ensure_photos(name: str, count: int, start: int = 0) -> list[Path]:
    """Render (or find cached) the set's photos; return their paths."""
    import importlib

    from photo import synth

    if _real(name):
        return _real_photos(name, count, start)
    module, _ = SETS[name]
    renderer = importlib.import_module(f"photo.{module}").render
    folder = CACHE / f"{name}-v{VERSION}"
    folder.mkdir(parents=True, exist_ok=True)
    paths = []
    for i, case in enumerate(_cases(name, count, start), start):
        path = folder / f"{i:04d}.{'png' if case.shot.jpeg is None else 'jpg'}"
        if not path.exists():
            path.write_bytes(synth.photo(case, renderer))
        paths.append(path)
    return paths


def _real_photos(name: str, count: int, start: int = 0) -> list[Path]:
    """Render (or find cached) a realistic condition's photos."""
    from photo import synth_real

    folder = CACHE / f"real-{name.replace(' ', '-')}-v{REAL_VERSION}"
    folder.mkdir(parents=True, exist_ok=True)
    paths = []
    for i, rc in enumerate(_real_cases(name, count, start), start):
        path = folder / f"{i:04d}.jpg"
        if not path.exists():
            path.write_bytes(synth_real.photo(rc))
        paths.append(path)
    return paths


REAL_VERSION = 3
"""Bump when the realistic renderer changes."""


def worker(name: str, count: int, start: int = 0) -> None:
    """Read the set's photos in this process; print one JSON line per photo,
    then the peak resident memory."""
    from scorekeeper.photo import PhotoUnreadable, read_move

    cases = _cases(name, count, start)
    paths = ensure_photos(name, count, start)
    for case, path in zip(cases, paths, strict=True):
        data = path.read_bytes()
        start = time.perf_counter()
        try:
            reading = read_move(data, list(case.stored))
            got, low, glare = marks(reading.tiles, reading)
            reason = None
        except PhotoUnreadable as exc:
            got, reason, low, glare = [], exc.reason, [], False
        seconds = time.perf_counter() - start
        print(json.dumps({"seconds": seconds, "got": got, "reason": reason,
                          "low": low, "glare": glare}))
    print(json.dumps({"peak_mb": peak_rss_mb()}))


def peak_rss_mb() -> float:
    """This process's peak resident memory. Linux keeps `ru_maxrss` across
    fork and exec (a child starts with its parent's peak), so read the
    high-water mark of this process's own address space where there is one."""
    try:
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 1024
    except OSError:
        pass
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def _expected(case) -> list[list[tuple]]:
    """The readings that count as right: the move itself; for a first move (an
    empty board has no frame) the tiles along row 0 from (0, 0), either way."""
    move = sorted(case.move)
    if case.stored:
        return [[tuple(t) for t in move]]
    seq = [(t[2], t[3]) for t in move]
    return [[(0, i, *x) for i, x in enumerate(s)] for s in (seq, seq[::-1])]


def _band(value: float, bands: list[tuple[float, float]]) -> str:
    for lo, hi in bands:
        if lo <= value < hi:
            return f"{lo:g}–{int(hi):g}"
    return "?"


def judged(case, row: dict) -> str:
    """What a reading counts as (`verdicts.KINDS`)."""
    return verdict(row["got"], row["low"], row["glare"], bool(row["reason"]),
                   _expected(case))


def confident_wrong(case, row: dict) -> bool:
    """True when a reading is wrong and says nothing of it (`verdicts`)."""
    return judged(case, row) == "confident wrong"


def score(name: str, count: int, rows: list[dict], start: int = 0) -> dict:
    """Accuracy of one run's readings, overall and by band."""
    cases = _cases(name, count, start)
    out = {"moves": [0, 0], "tiles": [0, 0], "size": {}, "slant": {}, "refused": {},
           "confident_wrong": 0, "flagged": 0, "right_unsure": 0, "no_doubt": 0}
    for case, row in zip(cases, rows, strict=True):
        want = _expected(case)
        right = exact(row["got"], want)
        kind = judged(case, row)
        sure_wrong = kind == "confident wrong"
        # As the real photos count right: no tile uncertain, no warning.
        out["no_doubt"] += kind == "right"
        out["confident_wrong"] += sure_wrong
        out["flagged"] += not right and not row["reason"] and not sure_wrong
        got = {tuple(t) for t in row["got"]}
        tiles_right = max(len(got & {tuple(t) for t in w}) for w in want)
        # The user's extra taps: tiles read right but marked uncertain.
        out["right_unsure"] += max(
            sum(1 for t, low in zip(row["got"], row.get("low", []), strict=False)
                if low and tuple(t) in {tuple(x) for x in w}) for w in want)
        for key in ("moves",):
            out[key][0] += right
            out[key][1] += 1
        out["tiles"][0] += tiles_right
        out["tiles"][1] += len(case.move)
        for table, band in (("size", _band(case.shot.tile_px, SIZE_BANDS)),
                            ("slant", _band(case.shot.slant, SLANT_BANDS))):
            cell = out[table].setdefault(band, [0, 0, 0, 0])
            cell[0] += right
            cell[1] += 1
            cell[2] += tiles_right
            cell[3] += len(case.move)
        if row["reason"]:
            out["refused"][row["reason"]] = out["refused"].get(row["reason"], 0) + 1
    return out


def run_set(name: str, count: int, start: int = 0) -> tuple[list[dict], float]:
    """Read a set in a fresh subprocess; return the rows and its peak RSS (MB)."""
    proc = subprocess.run(
        [sys.executable, __file__, "--worker", name, "--count", str(count),
         "--start", str(start)],
        capture_output=True, text=True, check=True, cwd=ROOT,
    )
    lines = [json.loads(line) for line in proc.stdout.splitlines() if line.strip()]
    return lines[:-1], lines[-1]["peak_mb"]


def pct(a: int, b: int) -> str:
    return f"{100 * a / b:.1f}% ({a}/{b})" if b else "—"


def examples(folder: Path) -> None:
    """Save three example photos (one per renderer, and a slanted one in warm
    light) with what was read from them, for a note or a review."""
    import importlib
    from dataclasses import replace

    from photo import synth

    from scorekeeper import text
    from scorekeeper.photo import PhotoUnreadable, read_move

    folder.mkdir(parents=True, exist_ok=True)
    picks = [("own", 3, {}), ("held-out", 5, {}),
             ("own", 11, {"slant": 14.0, "warmth": 0.9, "tile_px": 52.0})]
    for n, (name, index, change) in enumerate(picks, 1):
        module, seed = SETS[name]
        case = synth.cases(seed, index + 1)[index]
        case = replace(case, shot=replace(case.shot, jpeg=82, **change))
        renderer = importlib.import_module(f"photo.{module}").render
        data = synth.photo(case, renderer)
        path = folder / f"example-{n}-{name}.jpg"
        path.write_bytes(data)
        start = time.perf_counter()
        try:
            reading = read_move(data, list(case.stored))
            read = reading.to_dict()
        except PhotoUnreadable as exc:
            read = {"photo_unreadable": exc.reason,
                    "sentence": text.photo_unreadable(exc.reason, exc.params)}
        seconds = time.perf_counter() - start
        note = {
            "photo": path.name, "renderer": module, "game_and_move": case.name,
            "tile_px": round(case.shot.tile_px),
            "slant_degrees": round(case.shot.slant, 1),
            "turn_degrees": round(case.shot.angle), "stored_tiles": len(case.stored),
            "move_on_the_table": [dict(zip(("row", "col", "color", "shape"), t,
                                           strict=True)) for t in case.move],
            "read": read, "seconds": round(seconds, 2),
        }
        path.with_suffix(".json").write_text(json.dumps(note, indent=1) + "\n")
        print(f"{path}: {json.dumps(read)}")


def phone(runs: int) -> None:
    """Time one phone-sized photo of real tiles (4032 px wide, about 1 MB of
    JPEG): the median of `runs` readings in this process, after one to warm."""
    from dataclasses import replace

    from photo import synth_real

    from scorekeeper.photo import read_move

    rc = synth_real.real_cases("paint shifted", REAL_SEED, 8)[7]
    case = replace(rc.case, shot=replace(rc.case.shot, tile_px=150.0, jpeg=92,
                                         margin=0.2))
    path = CACHE / f"phone-v{REAL_VERSION}-q92.jpg"
    if not path.exists():
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(synth_real.photo(replace(rc, case=case)))
    data = path.read_bytes()
    import cv2
    import numpy as np

    h, w = cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_REDUCED_GRAYSCALE_8
                        ).shape
    read_move(data, list(case.stored))
    times, cpu = [], []
    for _ in range(runs):
        start, start_cpu = time.perf_counter(), time.process_time()
        reading = read_move(data, list(case.stored))
        times.append(time.perf_counter() - start)
        cpu.append(time.process_time() - start_cpu)
    right = sorted(t[:4] for t in reading.tiles) == sorted(case.move)
    print(f"phone photo: {len(data) / 1e6:.2f} MB, about {w * 8}×{h * 8} px, "
          f"{len(case.stored)} stored tiles, read right: {right}; median "
          f"{statistics.median(times):.2f} s over {runs} runs "
          f"({', '.join(f'{t:.2f}' for t in times)}); CPU median "
          f"{statistics.median(cpu):.2f} s; load average "
          f"{' '.join(f'{x:.1f}' for x in __import__('os').getloadavg())}")


def run_real(folder: Path, fixes: list[str], mode: str,
             tight: float | None = None, change: str | None = None) -> list[dict]:
    """Read a folder of real photos in a fresh subprocess (`real_photos`)."""
    command = [sys.executable, __file__, "--worker-real", str(folder),
               *(f"--fix={fix}" for fix in fixes), f"--mode={mode}",
               *(() if tight is None else (f"--tight={tight}",)),
               *(() if change is None else (f"--change={change}",))]
    proc = subprocess.run(command,
                          capture_output=True, text=True, check=True, cwd=ROOT)
    return [json.loads(line) for line in proc.stdout.splitlines() if line.strip()]


def real(folder: Path, fixes: list[str], modes: list[str], misses: bool,
         tight: float | None = None, vary: bool = False) -> None:
    """Print the real photos' table: each game as it comes, and taught; with
    `tight`, each mode again on the photos cropped to their tiles; with
    `vary`, each mode again on the photos as each of `real_photos.CHANGES`."""
    import real_photos

    print(f"\n## Real photos: {folder.name} ({len(real_photos.cases(folder, fixes))}"
          " cases, full size, one core)\n")
    print("| set | right | unsure | confident wrong | refused | median s/photo "
          "| max s | load before / after |")
    print("|---|---|---|---|---|---|---|---|")
    # Each view of the photos: (the pad it is cropped to, the change made).
    views: list[tuple[float | None, str | None]] = [(None, None)]
    views += [(tight, None)] * (tight is not None)
    views += [(None, change) for change in real_photos.CHANGES] * vary
    for mode, (crop, change) in ((m, v) for v in views for m in modes):
        before = " ".join(f"{x:.1f}" for x in os.getloadavg())
        rows = run_real(folder, fixes, mode, crop, change)
        after = " ".join(f"{x:.1f}" for x in os.getloadavg())
        got = real_photos.summary(rows)
        n = int(got["cases"])
        name = f"{folder.name}/: {mode}"
        if change is not None:
            name += f", {change}"
        elif crop is not None:
            name += f", cropped to {crop} of a tile round its tiles"
        print(f"| {name} | {pct(got['right'], n)} | {got['unsure']} "
              f"| {got['confident wrong']} | {got['refused']} | {got['median']:.2f} "
              f"| {got['max']:.2f} | {before} / {after} |")
        for row in rows if misses else ():
            if row["kind"] != "right":
                print(f"  {row['photo']} ({'move' if row['new'] else 'nothing new'}): "
                      f"{row['kind']}, want {row['want']} got {row['got']} "
                      f"refused {row['reason']}")


def _table(results: dict, count: int, start: int, runs: int) -> None:
    """Print the synthetic sets' tables."""
    print(f"\n## Photo reading: {count} photos per set (from #{start}), "
          f"{runs} run(s)\n")
    print("| set | whole moves right | right, no doubt or warning | confident wrong "
          "| wrong, flagged | refused | tiles right | right but uncertain "
          "| median s/photo (runs) | max s | peak RSS |")
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    for name, (acc, medians, peak, worst) in results.items():
        runs_text = ", ".join(f"{m:.2f}" for m in medians)
        n = acc["moves"][1]
        print(f"| {name} | {pct(*acc['moves'])} | {pct(acc['no_doubt'], n)} "
              f"| {acc['confident_wrong']} "
              f"| {acc['flagged']} | {sum(acc['refused'].values())} "
              f"| {pct(*acc['tiles'])} | {acc['right_unsure']} | "
              f"{statistics.median(medians):.2f} ({runs_text}) | {worst:.2f} "
              f"| {peak:.0f} MB |" if n else f"| {name} | — |")
    shown = [name for name in results if name in SETS]
    for table, title in (("size", "tile size, px"), ("slant", "slant, degrees")):
        if not shown:
            break
        print(f"\n| {title} | " + " | ".join(
            f"{name}: moves | {name}: tiles" for name in shown) + " |")
        print("|---|" + "---|---|" * len(shown))
        bands = SIZE_BANDS if table == "size" else SLANT_BANDS
        for band in [_band(lo, bands) for lo, _ in bands]:
            cells = []
            for name in shown:
                m = results[name][0][table].get(band, [0, 0, 0, 0])
                cells += [pct(m[0], m[1]), pct(m[2], m[3])]
            print(f"| {band} | " + " | ".join(cells) + " |")
    print()
    for name, (acc, *_) in results.items():
        refused = ", ".join(f"{k} {v}" for k, v in sorted(acc["refused"].items()))
        print(f"refused ({name}): {refused or 'none'}")

def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--examples", type=Path,
                        help="save three example photos and readings here, then stop")
    parser.add_argument("--quick", action="store_true", help="20 photos a set, 1 run")
    parser.add_argument("--count", type=int, default=100, help="photos per set")
    parser.add_argument("--start", type=int, default=0,
                        help="first photo's index: --start 40 --count 80 reads photos "
                             "40..119, a sample apart from the 0..39 tuned on")
    parser.add_argument("--runs", type=int, default=3, help="timing runs per set")
    parser.add_argument("--sets", choices=("all", "renders", "real", "none"),
                        default="all",
                        help="the two renderers, the realistic conditions, both, "
                             "or none (--real alone)")
    parser.add_argument("--only", help="one set or condition by name")
    parser.add_argument("--phone", action="store_true",
                        help="time one 1 MB phone photo of real tiles, then stop")
    parser.add_argument("--misses", action="store_true",
                        help="list every reading that was not right")
    parser.add_argument("--real", type=Path,
                        default=os.environ.get("SCOREKEEPER_REAL_PHOTOS") or None,
                        help="also read this folder of annotated real photos "
                             "(real_photos.py; default $SCOREKEEPER_REAL_PHOTOS)")
    parser.add_argument("--fix", action="append", default=[],
                        help="correct an annotation: '<game>_NN row col row col'")
    parser.add_argument("--teach-first", action="store_true",
                        help="read each real game again, taught by its first photo")
    parser.add_argument("--as-played", action="store_true",
                        help="read each real game again in its order, each confirmed"
                             " move teaching the photos after it")
    parser.add_argument("--mode", help=argparse.SUPPRESS)
    parser.add_argument("--tight", type=float,
                        help="also read each real photo cropped to its tiles, "
                             "this share of a tile's edge of table left round "
                             "them (a phone's photo of the tiles alone)")
    parser.add_argument("--vary", action="store_true",
                        help="also read each real photo as another table's "
                             "phone might take it (real_photos.CHANGES)")
    parser.add_argument("--change", help=argparse.SUPPRESS)
    parser.add_argument("--worker", help=argparse.SUPPRESS)
    parser.add_argument("--worker-real", type=Path, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker:
        worker(args.worker, args.count, args.start)
        return
    if args.worker_real:
        import real_photos

        real_photos.worker(args.worker_real, args.fix, args.mode, args.tight,
                           args.change)
        return
    if args.examples:
        examples(args.examples)
        return
    if args.phone:
        phone(args.runs)
        return
    count, runs = (20, 1) if args.quick else (args.count, args.runs)
    from photo import synth_real

    names = {"all": [*SETS, *synth_real.CONDITIONS], "renders": list(SETS),
             "real": list(synth_real.CONDITIONS), "none": []}[args.sets]
    if args.only:
        names = [args.only]
    for name in names:
        start = time.perf_counter()
        ensure_photos(name, count, args.start)
        print(f"[{name}: {count} photos ready in {time.perf_counter() - start:.0f} s]",
              file=sys.stderr)
    results = {}
    rows_of: dict[str, list[dict]] = {}
    for name in names:
        medians, peaks, first = [], [], None
        for _ in range(runs if name in SETS else 1):
            rows, peak = run_set(name, count, args.start)
            first = first or rows
            medians.append(statistics.median(r["seconds"] for r in rows))
            peaks.append(peak)
        results[name] = (score(name, count, first, args.start), medians, max(peaks),
                         max(r["seconds"] for r in first))
        rows_of[name] = first
    if results:
        _table(results, count, args.start, runs)
    if args.real:
        import real_photos

        modes = [real_photos.MODES[0], *real_photos.MODES[1:2] * args.teach_first,
                 *real_photos.MODES[2:] * args.as_played]
        real(args.real, args.fix, modes, args.misses, args.tight, args.vary)
    elif args.sets == "none":
        print("no real photos: pass --real DIR or set SCOREKEEPER_REAL_PHOTOS")
    if args.misses:
        for name in results:
            for i, (case, row) in enumerate(zip(_cases(name, count, args.start),
                                                rows_of[name], strict=True),
                                            args.start):
                if not exact(row["got"], _expected(case)):
                    tag = "CONFIDENT WRONG" if confident_wrong(case, row) else "flagged"
                    print(f"{name} #{i} {tag}: want {sorted(case.move)} got "
                          f"{row['got']} low {row['low']} glare {row['glare']} "
                          f"refused {row['reason']}")

if __name__ == "__main__":
    main()
