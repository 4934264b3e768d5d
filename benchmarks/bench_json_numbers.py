"""What refusing huge JSON numbers costs: parsing a backup-sized
document with the number checks of scorekeeper/formats/numbers.py against
plain json.loads.

Run from the repository root: `python benchmarks/bench_json_numbers.py`.
The document is a qwirkle-backup/1 of the corpus games repeated to ~17 MB;
each parser runs --repeats times, the median is reported with the ratio and
the load average (the machine's other work moves both parsers alike).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from scorekeeper.formats import numbers  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--repeats", type=int, default=5)
    args = parser.parse_args()
    folder = ROOT / "tests" / "data" / "games"
    games = [json.loads(path.read_text(encoding="utf-8"))
             for path in sorted(folder.glob("*.json"))]
    repeated = (games * (args.games // len(games) + 1))[:args.games]
    document = json.dumps({"format": "qwirkle-backup/1", "games": repeated})

    def median(parse: object) -> float:
        times = []
        for _ in range(args.repeats):
            began = time.perf_counter()
            parse(document)  # type: ignore[operator]
            times.append(time.perf_counter() - began)
        return statistics.median(times)

    plain, checked = median(json.loads), median(numbers.loads)
    print(f"document: {len(document) / 1e6:.1f} MB, {args.games} games")
    print(f"json.loads     median {plain * 1000:.0f} ms")
    print(f"numbers.loads  median {checked * 1000:.0f} ms  ({checked / plain:.2f}x)")
    print(f"load average: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")


if __name__ == "__main__":
    main()
