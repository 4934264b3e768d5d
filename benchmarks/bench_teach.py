"""Benchmark teaching the colours: a photo of one tile of each colour.

Run from the repository root:

    python benchmarks/bench_teach.py            # 10 seeds × 3 lights × 2 layouts
    python benchmarks/bench_teach.py --seeds 4  # quicker

Fixed, seeded photos rendered by `tests/photo/synth_real.py` (real paint:
the real game's shifted set, orange ~16° beside red, purple ~245° beside
blue, dark symbols), six tiles apart or in a row, in cool, plain and warm
light. Reported:

- teaching photos: six colours named right (each taught hue nearer its
  own paint's than any other's), refused (by reason: a retake), named
  wrong (the one that matters: a teaching kept with a wrong name misleads
  every later photo); and among those named right, how many measured a
  hue more than `FAR_OFF` from its paint (the photo's light, not a name);
- first moves (three tiles of one colour on an empty board, the same paint
  and light, the far end of real paint: orange 8°, red 352°) read right with
  nothing taught and after the teaching;
- median seconds per teaching photo (the reader's call, no server).
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

LIGHTS = {"cool": -0.8, "plain": 0.0, "warm": 0.8}
LAYOUTS = ("apart", "in a row")

FAR_OFF = 12.0
"""Degrees of hue a taught colour may lie from its paint before it is
reported as measured far off (the limit this benchmark once judged names
by): under half the 27° between blue and purple, the nearest paints of the
shifted set past red and orange."""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seeds", type=int, default=10)
    args = parser.parse_args()

    from photo import synth_real
    from photo.teaching import APART, FAR_SHIFTED, IN_A_ROW, gap, photo, six

    from scorekeeper.engine.tiles import CLASSIC
    from scorekeeper.photo import PhotoUnreadable, read_move
    from scorekeeper.photo.color_lessons import lessons, read_colors
    from scorekeeper.photo.lessons import Taught

    right = wrong = far = 0
    refused: Counter[str] = Counter()
    seconds: list[float] = []
    for seed in range(args.seeds):
        paint = synth_real.paint(random.Random(seed), shifted=True)
        for light, warmth in LIGHTS.items():
            for layout in LAYOUTS:
                cells = APART if layout == "apart" else IN_A_ROW
                data = photo(six(cells, seed), seed, warmth, paint)
                start = time.perf_counter()
                try:
                    taught = read_colors(data)
                except PhotoUnreadable as exc:
                    refused[exc.reason] += 1
                    continue
                finally:
                    seconds.append(time.perf_counter() - start)
                hues = {c: h for c, h, _, _ in paint.hsv}
                nearest = {c: min(hues, key=lambda p: gap(taught.hues[c], hues[p]))
                           for c in hues}
                if any(nearest[c] != c for c in hues):
                    wrong += 1
                    print(f"  wrong: seed {seed}, {light}, {layout}: {taught.hues}")
                    continue
                right += 1
                if any(gap(taught.hues[c], hues[c]) > FAR_OFF for c in hues):
                    far += 1
                    print(f"  far off: seed {seed}, {light}, {layout}: {taught.hues}")
    total = right + wrong + sum(refused.values())
    print(f"teaching photos: {right} of {total} named right ({far} with a hue "
          f"over {FAR_OFF:.0f}° off its paint), "
          f"{sum(refused.values())} refused {dict(refused) or ''}, "
          f"{wrong} named wrong".replace(" {}", ""))
    print(f"teaching photo: median {statistics.median(seconds):.2f} s "
          f"(max {max(seconds):.2f} s) over {len(seconds)}")

    before = after = moves = 0
    for seed in range(args.seeds):
        for warmth in LIGHTS.values():
            color = ("orange", "red", "purple", "blue")[seed % 4]
            move = tuple((0, i, color, shape) for i, shape in
                         enumerate(("circle", "clover", "diamond")))
            first = photo(move, seed + 100, warmth, FAR_SHIFTED)
            try:
                taught = read_colors(photo(six(APART, seed), seed, warmth,
                                            FAR_SHIFTED))
            except PhotoUnreadable:
                continue
            moves += 1
            kept = lessons(taught.hues, paints=taught.paints)
            for lessons_, count in ((Taught(), "before"),
                                    (Taught.from_rows(kept), "after")):
                try:
                    read = read_move(first, [], CLASSIC, lessons_)
                except PhotoUnreadable:
                    continue
                ok = [t.color for t in read.tiles] == [color] * 3
                if count == "before":
                    before += ok
                else:
                    after += ok
    print(f"first moves of far-shifted paint: {before} of {moves} right with "
          f"nothing taught, {after} of {moves} after teaching")
    print(f"load average: {' / '.join(f'{x:.1f}' for x in os.getloadavg())}")


if __name__ == "__main__":
    main()
