"""The photo reader on tiles laid apart, table between every two (a printed
board whose cells are larger than its tiles): how many read right, unsure,
refused, or wrong in silence, by how much of the step a tile fills.

    python benchmarks/bench_apart.py [--seeds 24] [--count 90]

- **the tests' board**: eight stored tiles and a move of two, in realistic
  tiles (`tests/photo/synth_real.py`, `Real.apart`), each seed at its own
  size, turn and slant (`tests/photo/test_photo_apart.py`), a tile 1 to
  0.7 of its step; counted as `bench_slants.py` counts them.
- **the realistic conditions**: each condition's photos 0 to `--count` - 1
  (as `bench_photo.py` draws them) drawn again with their tiles at
  the tests' `APART` of the step; counted as `verdicts.verdict` counts them.
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from dataclasses import replace
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "tests"), str(ROOT / "benchmarks")]

SHARES = (1.0, 0.9, 0.85, 0.8, 0.75, 0.7)
"""A tile's size over the step it is laid at: 1 is touching."""

def main() -> None:
    from bench_photo import REAL_SEED, _expected
    from bench_slants import OUTCOMES, outcome
    from photo import synth_real
    from photo.test_photo_apart import APART, laid_apart
    from verdicts import KINDS, read_verdict

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, default=24)
    parser.add_argument("--count", type=int, default=90, help="photos a condition")
    args = parser.parse_args()
    print("| a tile over the step | " + " | ".join(OUTCOMES) + " |")
    print("|---|" + "---|" * len(OUTCOMES))
    for share in SHARES:
        counts = Counter(outcome(laid_apart(seed, share)) for seed in range(args.seeds))
        print(f"| {share:g} | " + " | ".join(str(counts[o]) for o in OUTCOMES) + " |",
              flush=True)
    print(f"\n| condition, a tile {APART:g} of the step | " + " | ".join(KINDS) + " |")
    print("|---|" + "---|" * len(KINDS))
    for condition in synth_real.CONDITIONS:
        counts = Counter()
        for rc in synth_real.real_cases(condition, REAL_SEED, args.count):
            rc = replace(rc, real=replace(rc.real, apart=APART))
            counts[read_verdict(synth_real.photo(rc), rc.case.stored,
                                _expected(rc.case))] += 1
        print(f"| {condition} | " + " | ".join(str(counts[k]) for k in KINDS) + " |",
              flush=True)


if __name__ == "__main__":
    main()
