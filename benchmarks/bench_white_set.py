"""Measure the reader on a set whose sixth colour is white, untaught.

Run from the repository root:

    python benchmarks/bench_white_set.py                 # photos 0-99
    python benchmarks/bench_white_set.py --count 40      # a quicker look

Each realistic condition's cases (`tests/photo/synth_real.py`, seed
`bench_photo.REAL_SEED`) are drawn again with a white for purple
(`tests/photo/white.py`, as the real development set's) and read with no
lesson: as a table reads its first photos before anyone teaches the set.
Reported per condition: moves right, unsure, confident wrong and refused
(`verdicts.verdict`), and the moves that hold a white tile.
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from dataclasses import replace
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))
sys.path.insert(0, str(ROOT / "benchmarks"))

def main() -> None:
    from bench_photo import REAL_SEED, _expected
    from photo import synth_real
    from photo.white import WHITE_FOR_PURPLE, WHITE_SATURATION
    from verdicts import KINDS, read_verdict

    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--count", type=int, default=100, help="photos per condition")
    args = parser.parse_args()
    print(f"## A white-for-purple set, untaught ({args.count} photos a condition)\n")
    print("| condition | " + " | ".join(KINDS) + " | moves with a white tile |")
    print("|---|" + "---|" * (len(KINDS) + 1))
    white = {color for color, _, saturation, _ in WHITE_FOR_PURPLE.hsv
             if saturation < WHITE_SATURATION}
    for condition in synth_real.CONDITIONS:
        counts: Counter[str] = Counter()
        whites = 0
        for rc in synth_real.real_cases(condition, REAL_SEED, args.count):
            rc = replace(rc, real=replace(rc.real, paint=WHITE_FOR_PURPLE))
            whites += any(t[2] in white for t in rc.case.move)
            counts[read_verdict(synth_real.photo(rc), rc.case.stored,
                                _expected(rc.case))] += 1
        print(f"| {condition} | " + " | ".join(str(counts[k]) for k in KINDS)
              + f" | {whites} |")


if __name__ == "__main__":
    main()
