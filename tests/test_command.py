"""Running it at home for years (CONTRACT §13): the terminal at start,
`scorekeeper backup` and `scorekeeper restore`, automatic snapshots."""

from __future__ import annotations

import json
import os
import shutil
import sqlite3
import stat
import subprocess
import sys
import threading
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from conftest import as_admin, make_app
from test_history_helpers import corpus_names, corpus_record, parse

from scorekeeper import __main__ as command
from scorekeeper import net, serve
from scorekeeper.store import snapshots

ROOT = Path(__file__).resolve().parents[1]


def instance_with_games(folder: Path, names: list[str] | None = None) -> Path:
    """Return an instance folder whose database holds the given corpus games."""
    folder.mkdir(parents=True, exist_ok=True)
    client = make_app(folder / "scorekeeper.sqlite3").test_client()
    for name in names or corpus_names()[:3]:
        response = client.post("/api/games/import", json=corpus_record(name))
        assert response.status_code == 201
    return folder


def run(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    """Run `python -m scorekeeper ARGS` as cron would: no terminal, no instance set."""
    env = {k: v for k, v in os.environ.items()
           if k not in ("SCOREKEEPER_INSTANCE", "SCOREKEEPER_SECRET_KEY")}
    env["PYTHONPATH"] = str(ROOT)
    return subprocess.run(
        [sys.executable, "-m", "scorekeeper", *args], cwd=cwd, env=env,
        capture_output=True, text=True, timeout=120, check=False,
    )


def stored_count(folder: Path) -> int:
    with sqlite3.connect(folder / "scorekeeper.sqlite3") as conn:
        count: int = conn.execute("SELECT count(*) FROM games").fetchone()[0]
    return count


# --- the terminal at start ---


@pytest.fixture
def served(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> dict[str, Any]:
    """Run main() with the server replaced; return what serve() was given."""
    served: dict[str, Any] = {}

    def fake_serve(app: Any, host: str, port: int, args: Any) -> int:
        served.update(app=app, host=host, port=port, args=args)
        return 0

    monkeypatch.setattr(serve, "serve", fake_serve)
    monkeypatch.setattr(serve, "port_in_use", lambda host, port: False)
    monkeypatch.setattr(net, "lan_addresses", lambda: ["192.168.1.20"])
    monkeypatch.setenv("SCOREKEEPER_INSTANCE", str(tmp_path / "unused"))
    monkeypatch.delenv("SCOREKEEPER_SECRET_KEY", raising=False)
    return served


def test_c13_the_start_shows_the_lan_address_as_a_qr_code_and_the_admin_pin(
    tmp_path: Path, served: dict[str, Any], capsys: pytest.CaptureFixture[str]
) -> None:
    status = command.main(["--port", "5123", "--instance", str(tmp_path / "inst")])

    out = capsys.readouterr().out
    app = served["app"]
    assert status == 0
    assert "http://127.0.0.1:5123/" in out and "http://192.168.1.20:5123/" in out
    assert "Scan this code with a phone to open http://192.168.1.20:5123/" in out
    assert "Backups are read with ijson's yajl2_c backend (C)." in out
    qr_lines = [line for line in out.splitlines() if "█" in line]
    assert len(qr_lines) >= 10
    assert f"Admin PIN: {app.config['ADMIN_PIN']}" in out
    pin_file = tmp_path / "inst" / "admin_pin"
    assert pin_file.read_text().strip() == app.config["ADMIN_PIN"]
    assert (app.config["LISTEN_HOST"], app.config["LISTEN_PORT"]) == ("0.0.0.0", 5123)
    assert {"localhost", "127.0.0.1", "192.168.1.20"} <= set(
        app.config["ALLOWED_HOSTS"]
    )


def test_c13_with_host_127_0_0_1_it_says_only_this_machine_reaches_it(
    tmp_path: Path, served: dict[str, Any], capsys: pytest.CaptureFixture[str]
) -> None:
    command.main(["--host", "127.0.0.1", "--instance", str(tmp_path / "inst")])

    out = capsys.readouterr().out
    assert "only reachable on this machine" in out
    assert "192.168.1.20" not in out
    assert "█" not in out
    assert served["app"].config["ALLOWED_HOSTS"] == ["127.0.0.1", "::1", "localhost"]


def test_allowed_hosts_from_the_command_line_replace_the_default(
    tmp_path: Path, served: dict[str, Any], capsys: pytest.CaptureFixture[str]
) -> None:
    command.main(["--instance", str(tmp_path / "inst"),
                  "--allowed-host", "scores.home", "--allowed-host", "10.0.0.5"])

    allowed = served["app"].config["ALLOWED_HOSTS"]
    assert {"scores.home", "10.0.0.5", "localhost"} <= set(allowed)
    assert "192.168.1.20" not in allowed


def test_c13_serving_makes_a_snapshot_at_start(
    tmp_path: Path, served: dict[str, Any], capsys: pytest.CaptureFixture[str]
) -> None:
    instance = instance_with_games(tmp_path / "inst", corpus_names()[:2])

    command.main(["--instance", str(instance)])

    found = snapshots.list_snapshots(instance / "snapshots")
    assert len(found) == 1
    with sqlite3.connect(found[0][1]) as conn:
        assert conn.execute("SELECT count(*) FROM games").fetchone()[0] == 2
    assert "Snapshot written" in capsys.readouterr().out


# --- backup and restore on the command line ---


def test_c13_backup_and_restore_move_every_game_to_a_new_machine(
    tmp_path: Path,
) -> None:
    old = instance_with_games(tmp_path / "old")
    new = tmp_path / "new"

    saved = run("backup", "--instance", str(old), "--out", "games.json", cwd=tmp_path)
    restored = run("restore", "games.json", "--instance", str(new), cwd=tmp_path)
    again = run("--instance", str(new), "restore", "games.json", cwd=tmp_path)

    assert saved.returncode == 0, saved.stderr
    assert "Backed up 3 games to games.json." in saved.stdout
    document = json.loads((tmp_path / "games.json").read_text(encoding="utf-8"))
    assert document["format"] == "qwirkle-backup/1" and len(document["games"]) == 3
    assert stat.S_IMODE(os.stat(tmp_path / "games.json").st_mode) == 0o600
    assert restored.returncode == 0, restored.stderr
    assert "Restored 3 games; skipped 0 already stored" in restored.stdout
    assert again.returncode == 0
    assert "Restored 0 games; skipped 3 already stored" in again.stdout
    assert stored_count(new) == 3


def test_c13_backup_names_a_dated_file_by_default_or_writes_to_stdout(
    tmp_path: Path,
) -> None:
    old = instance_with_games(tmp_path / "old", corpus_names()[:1])

    dated = run("backup", "--instance", str(old), cwd=tmp_path)
    piped = run("backup", "--instance", str(old), "--out", "-", cwd=tmp_path)

    assert dated.returncode == piped.returncode == 0
    written = list(tmp_path.glob("qwirkle-backup-*.json"))
    assert len(written) == 1 and written[0].name in dated.stdout
    assert json.loads(piped.stdout)["games"][0]["players"]
    assert "Backed up 1 games to standard output." in piped.stderr


def test_c13_a_bad_backup_restores_nothing_and_exits_1_with_the_reason(
    tmp_path: Path,
) -> None:
    old = instance_with_games(tmp_path / "old", corpus_names()[:2])
    run("backup", "--instance", str(old), "--out", "games.json", cwd=tmp_path)
    document = json.loads((tmp_path / "games.json").read_text(encoding="utf-8"))
    document["games"][1]["moves"][3]["score"] += 1
    (tmp_path / "bad.json").write_text(json.dumps(document), encoding="utf-8")
    target = instance_with_games(tmp_path / "target", corpus_names()[2:3])

    bad = run("restore", "bad.json", "--instance", str(target), cwd=tmp_path)
    missing = run("restore", "nowhere.json", "--instance", str(target), cwd=tmp_path)

    assert bad.returncode == 1
    assert "nothing was restored" in bad.stderr and "Game 2" in bad.stderr
    assert missing.returncode == 1 and "cannot read nowhere.json" in missing.stderr
    assert stored_count(target) == 1


def test_c13_long_backups_and_restores_print_a_progress_count(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    from scorekeeper.store import backup as store_backup

    monkeypatch.setattr(command, "PROGRESS_EVERY", 2)
    monkeypatch.setattr(store_backup, "PROGRESS_EVERY", 2)
    monkeypatch.setenv("SCOREKEEPER_INSTANCE", str(tmp_path / "unused"))
    old = instance_with_games(tmp_path / "old", corpus_names()[:5])
    out = tmp_path / "five.json"

    assert command.main(["backup", "--instance", str(old), "--out", str(out)]) == 0
    written = capsys.readouterr().err
    assert command.main(["restore", str(out), "--instance", str(tmp_path / "n")]) == 0
    read = capsys.readouterr().err

    assert "  2 games written…" in written and "  4 games written…" in written
    assert "  2 games read (2 new)…" in read and "  4 games read (4 new)…" in read


def test_the_restore_page_says_how_many_games_it_restored_and_skipped(
    tmp_path: Path,
) -> None:
    from test_export_backup import restore

    old = instance_with_games(tmp_path / "old", corpus_names()[:3])
    body = make_app(old / "scorekeeper.sqlite3").test_client().get("/backup").data
    client = as_admin(make_app(tmp_path / "new.sqlite3").test_client())

    first = restore(client, body)
    again = restore(client, body)

    assert first.status_code == again.status_code == 302
    flashes = [n.text() for n in parse(client.get("/history").data).find_all(
        "p", class_="flash")]
    assert any("Restored 3 games" in f for f in flashes)
    assert any("Restored 0 games" in f and "3 games were already here" in f
               for f in flashes)


# --- snapshots ---


def test_c13_a_snapshot_is_a_consistent_private_copy_made_while_moves_go_on(
    tmp_path: Path,
) -> None:
    instance = instance_with_games(tmp_path / "inst", corpus_names()[:4])
    database = instance / "scorekeeper.sqlite3"
    stop = threading.Event()
    written = [0]

    def moves() -> None:
        conn = sqlite3.connect(database, timeout=10)
        while not stop.is_set():
            conn.execute("UPDATE games SET updated_at = ? WHERE id = 1",
                         [datetime.now(UTC).isoformat()])
            conn.commit()
            written[0] += 1
        conn.close()

    writer = threading.Thread(target=moves)
    writer.start()
    try:
        path = snapshots.take_snapshot(str(database), instance / "snapshots",
                                       pages=1, pause=0.001)
    finally:
        stop.set()
        writer.join()

    assert written[0] > 0
    assert stat.S_IMODE(os.stat(path).st_mode) == 0o600
    assert stat.S_IMODE(os.stat(path.parent).st_mode) == 0o700
    with sqlite3.connect(path) as conn:
        assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        assert conn.execute("SELECT count(*) FROM games").fetchone()[0] == 4
        assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "delete"
    assert not list(path.parent.glob("*.part"))


def test_c13_the_newest_14_snapshots_are_kept(tmp_path: Path) -> None:
    instance = instance_with_games(tmp_path / "inst", corpus_names()[:1])
    start = datetime(2026, 1, 1, 3, 0, tzinfo=UTC)
    for day in range(20):
        snapshots.take_snapshot(str(instance / "scorekeeper.sqlite3"),
                                instance / "snapshots", now=start + timedelta(days=day))

    kept = snapshots.list_snapshots(instance / "snapshots")

    assert len(kept) == snapshots.KEEP == 14
    assert kept[0][0] == start + timedelta(days=6)
    assert snapshots.latest(instance / "snapshots") == start + timedelta(days=19)


def test_c13_a_snapshot_is_due_when_the_newest_is_a_day_old(tmp_path: Path) -> None:
    instance = instance_with_games(tmp_path / "inst", corpus_names()[:1])
    scheduler = snapshots.SnapshotScheduler(
        str(instance / "scorekeeper.sqlite3"), str(instance / "snapshots")
    )
    made = datetime(2026, 1, 1, 3, 0, tzinfo=UTC)

    assert scheduler.due()
    snapshots.take_snapshot(scheduler.database, scheduler.folder, now=made)

    assert not scheduler.due(made + timedelta(hours=23))
    assert scheduler.due(made + timedelta(hours=24))


def test_c13_the_scheduler_snapshots_at_start_and_again_when_due(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    instance = instance_with_games(tmp_path / "inst", corpus_names()[:1])
    scheduler = snapshots.SnapshotScheduler(
        str(instance / "scorekeeper.sqlite3"), str(instance / "snapshots"),
        every=timedelta(0), check=0.05,
    )
    scheduler.start()
    try:
        deadline = datetime.now(UTC) + timedelta(seconds=10)
        while (len(capsys.readouterr().out.split("Snapshot written")) < 3
               and datetime.now(UTC) < deadline):
            threading.Event().wait(0.05)
    finally:
        scheduler.stop()
    assert snapshots.list_snapshots(instance / "snapshots")


def test_c13_the_history_page_says_when_the_last_snapshot_was_made(
    tmp_path: Path,
) -> None:
    instance = instance_with_games(tmp_path / "inst", corpus_names()[:1])
    app = make_app(instance / "scorekeeper.sqlite3",
                   SNAPSHOT_DIR=str(instance / "snapshots"))
    client = app.test_client()
    before = parse(client.get("/history").data).find("p", class_="history-snapshot")
    snapshots.take_snapshot(str(instance / "scorekeeper.sqlite3"),
                            instance / "snapshots",
                            now=datetime(2026, 2, 3, 4, 5, tzinfo=UTC))

    after = parse(client.get("/history").data).find("p", class_="history-snapshot")

    assert "No automatic snapshot yet" in before.text()
    assert after.attrs["data-last-snapshot"].startswith("2026-02-03T04:05")
    # The time as every page writes one (time_tag): in the page's language,
    # in UTC and saying so until the device's zone is known.
    moment = after.find("time")
    assert moment.attrs["datetime"] == "2026-02-03T04:05:00Z"
    assert "Feb 3, 2026" in moment.text() and "UTC" in moment.text()


def test_c13_the_documented_way_of_restoring_a_snapshot_brings_every_game_back(
    tmp_path: Path,
) -> None:
    serving = (ROOT / "docs" / "SERVING.md").read_text(encoding="utf-8")
    assert "### Restoring from a snapshot" in serving
    instance = instance_with_games(tmp_path / "inst", corpus_names()[:3])
    path = snapshots.take_snapshot(str(instance / "scorekeeper.sqlite3"),
                                   instance / "snapshots")
    # A change after the snapshot, then the documented steps: the server stopped,
    # the database and its -wal and -shm moved away, the snapshot in its place.
    with sqlite3.connect(instance / "scorekeeper.sqlite3") as conn:
        conn.execute("UPDATE games SET players = '[\"Late\", \"Change\"]'")
    kept = tmp_path / "kept"
    kept.mkdir()
    for name in ("scorekeeper.sqlite3", "scorekeeper.sqlite3-wal",
                 "scorekeeper.sqlite3-shm"):
        if (instance / name).exists():
            shutil.move(instance / name, kept / name)
    shutil.copyfile(path, instance / "scorekeeper.sqlite3")

    client = make_app(instance / "scorekeeper.sqlite3").test_client()

    listed = client.get("/api/games").get_json()
    assert listed["total"] == 3
    assert all(game["players"] != ["Late", "Change"] for game in listed["games"])
