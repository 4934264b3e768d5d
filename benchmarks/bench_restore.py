"""Time and peak memory of restoring a 20 MB backup, valid or with its last game bad.

    python benchmarks/gen_db.py --games 10000 --out /tmp/h10k.sqlite3
    python benchmarks/bench_restore.py --db /tmp/h10k.sqlite3

Cuts a backup of about --mb megabytes from the database's games (a valid one,
and the same with the last game's last placing move mis-scored), then restores
each into a fresh database in a subprocess of its own, through the restore
page (a multipart upload) or `POST /api/restore` (the body streamed), and
prints the median wall time and the peak RSS above the subprocess's baseline
(its RSS just before; the peak reset there through /proc/self/clear_refs).
The target: at most 100 MB above the baseline for a 20 MB backup.
`--source PATH` measures another checkout (for a before/after comparison; the
API did not exist before v0.1.0, so use --via page there). `--via reader`
times the backup reader alone (`formats.backup.read_backup` with the replay of
each game left out): the JSON parsing (ijson).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

TARGET_MB = 100.0
"""Peak memory above the baseline allowed for a 20 MB backup."""


def cut_backups(db: str, megabytes: float, folder: Path) -> tuple[Path, Path, int]:
    """Write valid.json and bad-last.json of about `megabytes` MB; return them and
    the number of games."""
    sys.path.insert(0, str(ROOT))
    from scorekeeper import create_app
    from scorekeeper.formats import backup
    from scorekeeper.store.backup import iter_stored_games

    app = create_app({"DATABASE": db, "SECRET_KEY": "bench", "TESTING": True})
    limit = int(megabytes * 1024 * 1024)
    entries: list[str] = []
    size = 0
    with app.app_context():
        for piece in backup.stream(iter_stored_games(), "2026-01-01T00:00:00+00:00"):
            if piece.startswith(","):
                entries.append(piece[1:])
            elif piece.startswith("{\"format\""):
                continue  # the head: written below
            elif piece.startswith("]}"):
                break
            else:
                entries.append(piece)
            size += len(piece.encode("utf-8"))
            if size >= limit:
                break
    head = '{"format":"qwirkle-backup/1","exported_at":"2026-01-01T00:00:00+00:00",'
    valid = folder / "valid.json"
    valid.write_text(head + '"games":[' + ",".join(entries) + "]}\n", encoding="utf-8")
    last = json.loads(entries[-1])
    placing = [m for m in last["moves"] if m["type"] == "place"]
    placing[-1]["score"] += 1
    bad = folder / "bad-last.json"
    bad.write_text(
        head + '"games":[' + ",".join([*entries[:-1], json.dumps(last)]) + "]}\n",
        encoding="utf-8",
    )
    return valid, bad, len(entries)


def _status_kb(field: str) -> int:
    """Return a VmRSS / VmHWM figure of this process in KB (Linux)."""
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith(field + ":"):
            return int(line.split()[1])
    raise SystemExit("this benchmark reads /proc/self/status (Linux)")


def _reset_peak() -> int:
    """Reset this process's peak RSS to its current RSS; return that (KB).

    Writing 5 to clear_refs resets VmHWM (Linux); the import of the app may
    have peaked above what it holds now, and that peak is not the restore's.
    """
    Path("/proc/self/clear_refs").write_text("5")
    return _status_kb("VmRSS")


def _peak() -> int:
    """Return this process's peak RSS since the reset (KB)."""
    return _status_kb("VmHWM")


def worker(path: str, via: str) -> None:
    """Restore one file into a fresh database; print seconds, status and peak MB."""
    import gc
    import time

    from scorekeeper import create_app

    folder = tempfile.mkdtemp()
    app = create_app({
        "DATABASE": os.path.join(folder, "restore.sqlite3"), "SECRET_KEY": "bench",
        "TESTING": True, "WTF_CSRF_ENABLED": False, "ADMIN_PIN": "00000000",
    })
    client = app.test_client()
    client.get("/restore")
    if via == "reader":
        from scorekeeper.formats import backup

        backup.check_record = lambda document, number=None: number  # type: ignore
    gc.collect()
    base = _reset_peak()
    began = time.perf_counter()
    with open(path, "rb") as handle:
        if via == "reader":
            read = len(list(backup.read_backup(handle, limit=1 << 40)))
            response = type("Read", (), {"status_code": 200 if read else 0})()
        elif via == "api":
            response = client.post(
                "/api/restore", input_stream=handle, content_type="application/json",
                content_length=os.path.getsize(path),
            )
        else:
            response = client.post(
                "/restore", data={"file": (handle, "backup.json")},
                content_type="multipart/form-data",
            )
    seconds = time.perf_counter() - began
    peak = _peak()
    print(json.dumps({
        "status": response.status_code, "seconds": seconds,
        "peak_mb": (peak - base) / 1024,
    }))


def run(path: Path, via: str, source: Path) -> dict[str, float]:
    env = dict(os.environ, PYTHONPATH=str(source))
    done = subprocess.run(
        [sys.executable, __file__, "--worker", str(path), "--via", via],
        capture_output=True, text=True, env=env, check=True, cwd=source,
    )
    result: dict[str, float] = json.loads(done.stdout.strip().splitlines()[-1])
    return result


def main(argv: list[str] | None = None) -> int:
    """Run the benchmark; return 1 when the peak memory misses the target."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--db", help="a database from gen_db.py")
    parser.add_argument("--mb", type=float, default=20.0)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--via", choices=["page", "api", "both", "reader"],
                        default="both")
    parser.add_argument("--source", type=Path, default=ROOT,
                        help="the checkout whose code restores (default: this one)")
    parser.add_argument("--worker", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.worker:
        worker(args.worker, args.via)
        return 0
    if not args.db or not Path(args.db).exists():
        raise SystemExit("give --db, a database from benchmarks/gen_db.py")
    ways = ["page", "api"] if args.via == "both" else [args.via]
    failed = False
    with tempfile.TemporaryDirectory() as tmp:
        valid, bad, games = cut_backups(args.db, args.mb, Path(tmp))
        size = valid.stat().st_size / 1024 / 1024
        # A folder's name, never its path: the output is committed (results/).
        source = "this checkout" if args.source == ROOT else args.source.name
        print(f"backup: {games} games, {size:.1f} MB; {args.repeat} runs each,"
              f" code from {source}")
        print(f"{'case':<26} {'status':>6} {'median s':>9} {'peak MB':>8}")
        for via in ways:
            for label, path in (("valid", valid), ("last game bad", bad)):
                runs = [run(path, via, args.source) for _ in range(args.repeat)]
                seconds = statistics.median(r["seconds"] for r in runs)
                peak = statistics.median(r["peak_mb"] for r in runs)
                status = int(runs[0]["status"])
                print(f"{via + ', ' + label:<26} {status:>6} {seconds:>9.2f}"
                      f" {peak:>8.1f}")
                failed = failed or peak > TARGET_MB * args.mb / 20
    print(f"target: peak ≤ {TARGET_MB:.0f} MB above the baseline for 20 MB")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
