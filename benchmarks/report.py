"""Run the benchmarks and rewrite benchmarks/README.md's table from their output.

Usage:
    python benchmarks/report.py                 # every benchmark, then the table
    python benchmarks/report.py --only server tv   # these rows again, then the table
    python benchmarks/report.py --table         # the table from the stored results
    python benchmarks/report.py --list

Each benchmark is one `Bench` line in BENCHMARKS below: a name, the command
(run from the repository root with this interpreter), what it measures, its
target, and `pick`, a regular expression choosing the lines of its output that
go into the table (all of them when none). A benchmark that needs a prepared
file names the command that makes it (`setup`), run only when the file is
missing. Each run's output is kept whole in benchmarks/results/<name>.txt and
its summary in benchmarks/results/results.json, with the machine, the date and
the load average before and after (the machine is shared: a figure means
little without its load); the table between benchmarks/README.md's markers is
rewritten from those, so rows measured on different days say so.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import re
import subprocess
import sys
import time
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "benchmarks" / "README.md"
"""The page whose table this rewrites (the project's README links to it)."""
RESULTS = ROOT / "benchmarks" / "results"
BEGIN = "<!-- benchmarks:begin (python benchmarks/report.py rewrites this table) -->"
END = "<!-- benchmarks:end -->"
H50K = "/tmp/scorekeeper-bench-h50k.sqlite3"
H10K = "/tmp/scorekeeper-bench-h10k.sqlite3"


@dataclass(frozen=True)
class Bench:
    """One benchmark: one row of the table."""

    name: str
    command: list[str]
    what: str
    target: str = "—"
    pick: str | None = None
    setup: tuple[str, list[str]] | None = None
    """(file, command making it): run when the file is missing."""
    timeout: float = 900.0
    env: dict[str, str] = field(default_factory=dict)


def gen_db(games: int, out: str) -> tuple[str, list[str]]:
    return out, ["benchmarks/gen_db.py", "--games", str(games), "--out", out]


BENCHMARKS = [
    Bench("server", ["benchmarks/bench_server.py"],
          "the household's server: PSS of the whole tree idle / after a photo,"
          " pixel bombs, 64 slow clients, 64 busy clients",
          "≤ 150 MB idle, ≤ 400 MB after a photo; bomb ≤ 3 s, ≤ 200 MB;"
          " slow clients: others ≤ 2 s", r"^(idle|after|PNG|baseline|64)"),
    Bench("server-workers", ["benchmarks/bench_server.py",
                             "--server-arg=--workers=4"],
          "the same with `--workers 4` (waitress in 4 processes)", "—",
          r"^(idle|after|PNG|baseline|64)"),
    Bench("home", ["benchmarks/bench_home.py", "--db", H50K],
          "home page at 50,000 games (test client)", "≤ 5 ms", r"^home",
          setup=gen_db(50_000, H50K)),
    Bench("club-cpu", ["benchmarks/bench_club.py", "--cpu"],
          "server CPU per recorded move, the real `python -m scorekeeper`"
          " (every process of its tree)", "—", r"^server CPU"),
    Bench("club", ["benchmarks/bench_club.py", "--seconds", "30"],
          "club night: 200 tables + 200 screens polling, default server",
          "p99 ≤ 50 ms", r"^(\d+ requests|kind |all |statuses)"),
    Bench("club-workers", ["benchmarks/bench_club.py", "--seconds", "30",
                           "--server-arg=--workers=4"],
          "the same with `--workers 4`", "p99 ≤ 50 ms",
          r"^(\d+ requests|kind |all |statuses)"),
    Bench("tv", ["benchmarks/bench_tv.py", "--screens", "200", "--moves", "10"],
          "a move → 200 table views (event streams, the rest polling), default"
          " server", "p90 ≤ 1.5 s", r"^(move|GET|server CPU)"),
    Bench("tv-workers", ["benchmarks/bench_tv.py", "--screens", "200", "--moves",
                         "10", "--server-arg=--workers=4"],
          "the same with `--workers 4`", "p90 ≤ 1.5 s", r"^(move|GET|server CPU)"),
    Bench("engine", ["benchmarks/bench_engine.py", "--quick"],
          "rules engine: `play`, legal maps, best moves on corpus boards",
          "play < 10 µs; best_moves < 20 ms", r"^\| (play|legal_map\(|best_moves)"),
    Bench("api", ["benchmarks/bench_api.py", "--rounds", "2"],
          "POST a move vs a no-op request, test client, real SQLite file",
          "< 3×", r"^(median server time|ratio)"),
    Bench("page", ["benchmarks/bench_page.py"],
          "game page with a 100-tile board: bytes, on the wire, board drawn",
          "≤ 150 KB; ≤ 30 KB on the wire", r"^(HTML|on the wire|board drawn)"),
    Bench("table", ["benchmarks/bench_table.py"],
          "the table in chromium, CPU throttled 4×: taps, previews, Confirm",
          "picker p90 ≤ 80 ms; Confirm p90 ≤ 100 ms", r"median|page loads"),
    Bench("history", ["benchmarks/bench_history.py", "--db", H50K],
          "players list, head-to-head, name search, statistics; history pages,"
          " 50,000 games", "≤ 50 ms each", r"^(?!case|\d+ games)\S.*\d",
          setup=gen_db(50_000, H50K)),
    Bench("photo", ["benchmarks/bench_photo.py", "--count", "100", "--runs", "1"],
          "a move read from synthetic photos, 100 a set: the two renderers and"
          " the realistic conditions; whole moves right (and with no doubt or"
          " warning), confident wrong, time, memory",
          "renders 100%, realistic ≥ 96% each; 0 confident wrong; < 1.5 s;"
          " < 500 MB",
          # Every set's row (a name, then its share right): the sets are
          # bench_photo.py's and tests/photo/synth_real.py's to name.
          r"^\| [a-z][a-z -]* \| \d", timeout=2400.0),
    Bench("photo-real", ["benchmarks/bench_photo.py", "--sets", "none",
                         "--teach-first", "--as-played"],
          "real photos of real games (the folder SCOREKEEPER_REAL_PHOTOS names,"
          " with its corrections file; not in the repository): cases right,"
          " unsure, confident wrong, refused; as they come, taught by each"
          " game's first photo, and as played (each confirmed move teaching"
          " the photos after it); full size, one core",
          "≥ 95% right; 0 confident wrong", r"^(\| .*/: |no real)"),
    Bench("white-set", ["benchmarks/bench_white_set.py"],
          "the realistic conditions' photos 0-99 drawn again with a white for"
          " purple and read untaught: right, unsure, confident wrong, refused,"
          " and the moves holding a white tile, per condition",
          "0 confident wrong", r"^\| [a-z][a-z -]* \| \d", timeout=1800.0),
    Bench("slants", ["benchmarks/bench_slants.py"],
          "the tests' board photographed at a slant: drawn tilted 40-60°,"
          " real-looking tiles tilted 40-55°, and close up keystoned; readings"
          " right, unsure, refused, broken (a tile missing or wrong unsaid)",
          "0 broken", r"^\| all \|"),
    Bench("apart", ["benchmarks/bench_apart.py"],
          "tiles laid apart: the tests' board, a tile 1 to 0.7 of the step it"
          " lies at (right, unsure, refused, broken); the realistic conditions'"
          " photos 0-89 drawn again at 0.75 (right, unsure, confident wrong,"
          " refused)", "0 broken; 0 confident wrong",
          r"^\| ([0-9.]+|[a-z][a-z -]*) \| \d", timeout=1800.0),
    Bench("photo-api", ["benchmarks/bench_photo_api.py"],
          "the photo endpoint end to end; other routes while photos are read",
          "< 1.5 s", r"^(photo end|other|photos)"),
    Bench("teach", ["benchmarks/bench_teach.py"],
          "teaching the colours: six tiles of real shifted paint,"
          " apart / in a row, cool / plain / warm light; first moves of"
          " far-shifted paint before / after teaching",
          "0 named wrong; first moves all right after", r"^(teaching|first)"),
    Bench("insights-web", ["benchmarks/bench_insights_web.py"],
          "hints, analysis cold / stored, the analysis page", "≤ 30 ms / ≤ 1 s"),
    Bench("restore", ["benchmarks/bench_restore.py", "--db", H10K],
          "restore a backup: peak memory above baseline, time", "≤ 100 MB",
          r"^(backup|\w+, )", setup=gen_db(10_000, H10K)),
    Bench("renders", ["benchmarks/bench_renders.py"],
          "a move's p99 while 8 clients ask for PDFs", "≤ 100 ms",
          r"^(moves|PDF)"),
    Bench("snapshot", ["benchmarks/bench_snapshot.py", "--db", H10K],
          "a snapshot of 10,000 games; the longest move during it", "a moment",
          r"^(snapshot|moves)", setup=gen_db(10_000, H10K)),
]
"""Every benchmark of the table, in its order. A new benchmark: one line here."""


def load_average() -> str:
    return " / ".join(f"{x:.1f}" for x in os.getloadavg())


def machine() -> str:
    cpus = os.cpu_count() or 0
    try:
        model = next(line.split(":", 1)[1].strip() for line in
                     Path("/proc/cpuinfo").read_text().splitlines()
                     if line.startswith("model name"))
    except (OSError, StopIteration):
        model = platform.processor() or platform.machine()
    return f"{cpus} CPUs ({model}), {platform.system()} {platform.release()}," \
        f" Python {platform.python_version()}"


def run(bench: Bench) -> dict[str, object]:
    """Run one benchmark (and its setup when needed); return its summary."""
    env = {**os.environ, "PYTHONPATH": str(ROOT), **bench.env}
    before = load_average()
    if bench.setup and not Path(bench.setup[0]).exists():
        print(f"[{bench.name}: preparing {bench.setup[0]}]", flush=True)
        made = subprocess.run([sys.executable, *bench.setup[1]], cwd=ROOT, env=env,
                              check=False, timeout=bench.timeout)
        if made.returncode:
            return {"lines": [f"(setup failed: exit {made.returncode})"],
                    "status": made.returncode, "machine": machine(),
                    "date": datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC"),
                    "load_before": before, "load_after": load_average()}
    started = time.monotonic()
    print(f"[{bench.name}: {' '.join(bench.command)}; load {before}]", flush=True)
    try:
        done = subprocess.run([sys.executable, *bench.command], cwd=ROOT, env=env,
                              capture_output=True, text=True, timeout=bench.timeout)
        output, status = done.stdout + done.stderr, done.returncode
    except subprocess.TimeoutExpired as exc:
        output = (exc.stdout or b"").decode() if isinstance(exc.stdout, bytes) \
            else (exc.stdout or "")
        status = -1
    RESULTS.mkdir(exist_ok=True)
    (RESULTS / f"{bench.name}.txt").write_text(output, encoding="utf-8")
    return {
        "lines": picked(bench, output, status),
        "status": status,
        "date": datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC"),
        "load_before": before,
        "load_after": load_average(),
        "seconds": round(time.monotonic() - started),
        "machine": machine(),
    }


def picked(bench: Bench, output: str, status: int) -> list[str]:
    """Return the lines of a benchmark's output that go into the table."""
    every = [line.rstrip() for line in output.splitlines() if line.strip()]
    lines = [line for line in every if re.search(bench.pick, line)] \
        if bench.pick else every
    if status == 0:
        return lines
    # A script exits 1 when a figure misses its target: its lines still say
    # which.
    return [f"(exit {status})", *(lines or every[-3:])]


def repick(results: dict[str, dict[str, object]]) -> None:
    """Choose the lines again from each kept output (a `pick` changed)."""
    for bench in BENCHMARKS:
        got, kept = results.get(bench.name), RESULTS / f"{bench.name}.txt"
        if got is None or not kept.exists():
            continue
        lines = got.get("lines")
        status = got.get("status")
        if not isinstance(status, int):
            first = lines[0] if isinstance(lines, list) and lines else ""
            found = re.match(r"\((?:exit|failed \(exit) (-?\d+)\)", str(first))
            status = int(found.group(1)) if found else 0
        got["lines"] = picked(bench, kept.read_text(encoding="utf-8"), status)


def cell(lines: list[str]) -> str:
    """Lines of output as one table cell (a markdown table's own pipes kept out)."""
    parts = []
    for line in lines:
        if line.startswith("|"):
            line = " · ".join(c.strip() for c in line.strip("|").split("|"))
        parts.append(re.sub(r"\s{2,}", " ", line.strip()).replace("|", "/"))
    return "<br>".join(parts) or "—"


def table(results: dict[str, dict[str, object]]) -> str:
    machines = sorted({str(r["machine"]) for r in results.values()})
    rows = [
        f"Generated by `python benchmarks/report.py` on {'; '.join(machines) or '—'};"
        " each row says when it ran and the load average (1 / 5 / 15 min) before"
        " it: the machine is shared, and figures taken under load are slower.",
        "",
        "| command | what | result | target | ran (load before) |",
        "|---|---|---|---|---|",
    ]
    for bench in BENCHMARKS:
        got = results.get(bench.name)
        command = "python " + " ".join(bench.command)
        if got is None:
            rows.append(f"| `{command}` | {bench.what} | not run yet | {bench.target}"
                        " | — |")
            continue
        lines = got["lines"]
        assert isinstance(lines, list)
        rows.append(f"| `{command}` | {bench.what} | {cell(lines)} | {bench.target}"
                    f" | {got['date']} ({got['load_before']}) |")
    return "\n".join(rows)


def rewrite_readme(results: dict[str, dict[str, object]]) -> None:
    text = README.read_text(encoding="utf-8")
    if BEGIN not in text or END not in text:
        raise SystemExit(f"{README.relative_to(ROOT)} has no markers"
                         f" {BEGIN!r} ... {END!r}")
    head, rest = text.split(BEGIN, 1)
    _old, tail = rest.split(END, 1)
    README.write_text(f"{head}{BEGIN}\n{table(results)}\n{END}{tail}",
                      encoding="utf-8")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", nargs="+", metavar="NAME",
                        help="run these benchmarks only (the others' rows stay)")
    parser.add_argument("--table", action="store_true",
                        help="run nothing: rewrite the table from stored results")
    parser.add_argument("--list", action="store_true", help="list the benchmarks")
    args = parser.parse_args()
    if args.list:
        for bench in BENCHMARKS:
            print(f"{bench.name:15} python {' '.join(bench.command)}")
        return 0
    stored = RESULTS / "results.json"
    results: dict[str, dict[str, object]] = (
        json.loads(stored.read_text(encoding="utf-8")) if stored.exists() else {})
    if not args.table:
        names = {b.name for b in BENCHMARKS}
        unknown = set(args.only or ()) - names
        if unknown:
            raise SystemExit(f"no benchmark named {', '.join(sorted(unknown))}")
        for bench in BENCHMARKS:
            if args.only and bench.name not in args.only:
                continue
            results[bench.name] = run(bench)
            print("\n".join(results[bench.name]["lines"]), flush=True)  # type: ignore[arg-type]
            RESULTS.mkdir(exist_ok=True)
            stored.write_text(json.dumps(results, indent=1, ensure_ascii=False) + "\n",
                              encoding="utf-8")
    repick(results)
    rewrite_readme(results)
    print(f"{README.relative_to(ROOT)}'s table rewritten ({len(results)} of"
          f" {len(BENCHMARKS)} rows measured)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
