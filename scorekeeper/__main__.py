"""The command (CONTRACT §13): `scorekeeper` serves (see serve.py for the server
and its workers); `scorekeeper backup` and `scorekeeper restore FILE` copy every
game out and back in."""

from __future__ import annotations

import argparse
import os
import sqlite3
import sys
from collections.abc import Iterable, Iterator, Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import TypeVar

from flask import Flask

from . import config, serve
from .formats import backup
from .net import allowed_hosts, proxy_network, reachable_url, urls
from .store import snapshots
from .store.backup import (
    PROGRESS_EVERY,
    club_for_backup,
    iter_stored_games,
    restore_backup,
)

_T = TypeVar("_T")


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="scorekeeper",
        description="Serve the Qwirkle scorekeeper, or back its games up and"
        " restore them.",
    )
    instance_help = (
        "folder for the database, secret key, admin PIN and snapshots"
        f" (default: ${config.INSTANCE_ENV}, else instance/ beside the source"
        " checkout)"
    )
    parser.add_argument("--host", default="0.0.0.0",
                        help="address to listen on (default: all, so phones reach it;"
                        " 127.0.0.1: only this machine)")
    parser.add_argument("--port", type=int, default=5000, help="port (default 5000)")
    parser.add_argument("--instance", metavar="PATH", help=instance_help)
    parser.add_argument(
        "--allowed-host", action="append", default=[], metavar="NAME",
        help="a host name or address requests may be sent to (repeatable; default:"
        " this machine's addresses and names, and localhost); others get 400",
    )
    parser.add_argument(
        "--trusted-proxy", action="append", default=[], metavar="ADDR",
        type=_proxy_address,
        help="the address (or network) of a reverse proxy in front of the"
        " scorekeeper (repeatable): from it, the client's address is read from"
        " X-Forwarded-For or Forwarded; otherwise a request carrying those headers"
        " is never treated as this machine",
    )
    serve.add_arguments(parser)
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")
    save = commands.add_parser(
        "backup", help="write every game to a qwirkle-backup/1 file",
        description="Write every game to a qwirkle-backup/1 file (CONTRACT §8).",
    )
    save.add_argument("--instance", metavar="PATH", default=argparse.SUPPRESS,
                      help=instance_help)
    save.add_argument("--out", metavar="FILE",
                      help="file to write (default: qwirkle-backup-DATE.json here;"
                      " - for standard output)")
    load = commands.add_parser(
        "restore", help="add the games of a backup file, all or none",
        description="Add the games of a qwirkle-backup/1 file: every game is"
        " checked, a game already stored is skipped, and one bad game stores"
        " nothing (CONTRACT §8).",
    )
    load.add_argument("file", metavar="FILE", help="the backup file")
    load.add_argument("--instance", metavar="PATH", default=argparse.SUPPRESS,
                      help=instance_help)
    return parser


def _proxy_address(value: str) -> str:
    """Check a --trusted-proxy value: an IP address or network."""
    try:
        return str(proxy_network(value))
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"not an IP address or network: {value!r}"
        ) from None


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line: serve, or back up, or restore; return the exit code."""
    args = _parser().parse_args(argv)
    if args.instance:
        os.environ[config.INSTANCE_ENV] = args.instance
    if args.command == "backup":
        return backup_command(args.out)
    if args.command == "restore":
        return restore_command(args.file)
    return serve_command(args)


def _app() -> Flask:
    from . import create_app

    return create_app()


# --- serving ---


def serve_command(args: argparse.Namespace) -> int:
    """Create the app, say where it is reached, snapshot it, serve it until Ctrl+C.

    The app is created here, once, before any worker: that creates or migrates
    the database (ECOSYSTEM pitfall 5). The settings this command gives it
    (listen address, allowed hosts) reach every worker through serve.serve, and
    the snapshots are taken by this process alone, never once per worker.
    """
    app = _app()
    app.config.update(
        LISTEN_HOST=args.host, LISTEN_PORT=args.port,
        ALLOWED_HOSTS=allowed_hosts(args.host, args.allowed_host),
        TRUSTED_PROXIES=list(args.trusted_proxy),
    )
    if serve.port_in_use(args.host, args.port):
        print(serve.port_in_use_text(args.port), file=sys.stderr)
        return 1
    print(start_text(app, args.host, args.port), flush=True)
    scheduler = snapshots.SnapshotScheduler(
        app.config["DATABASE"], app.config["SNAPSHOT_DIR"]
    )
    scheduler.start()
    try:
        return serve.serve(app, args.host, args.port, args)
    finally:
        scheduler.stop()


def start_text(app: Flask, host: str, port: int) -> str:
    """Return what the terminal shows at start: where to open the app (with a QR
    code of the LAN address), the admin PIN and where snapshots go."""
    found = urls(host, port)
    lines = [f"Qwirkle scorekeeper: database {app.config['DATABASE']}"]
    lines.append(backup_reader())
    lan = reachable_url(host, port)
    if lan is None:
        lines.append(f"Open {found[0]} on this computer.")
        lines.append(
            "The scorekeeper is only reachable on this machine"
            + (f" (--host {host})" if host not in ("0.0.0.0", "", "::") else "")
            + ": start it with --host 0.0.0.0 on the table's network to let"
            " phones join."
        )
    else:
        if len(found) > 1:
            lines.append(f"Open {found[0]} on this computer, or from a phone or"
                         " tablet on the same network:")
            lines.extend(f"    {url}" for url in found[1:])
        else:
            lines.append(f"Open {found[0]} from any device on the same network.")
        qr = terminal_qr(lan)
        if qr:
            lines.append(f"Scan this code with a phone to open {lan}")
            lines.append(qr.rstrip("\n"))
    lines.append(
        f"Admin link: {admin_link(found[0], app.config['ADMIN_KEY'])} (the"
        " browser that opens it holds the admin right for a month: every running"
        " game's PIN, restoring backups; keep it to yourself)"
    )
    lines.append(
        f"Admin PIN: {app.config['ADMIN_PIN']} (type it on /admin to give"
        " another device the admin right)"
    )
    if app.config.get("TRUSTED_PROXIES"):
        lines.append(
            "Trusted reverse proxies (their X-Forwarded-For names the client): "
            + ", ".join(app.config["TRUSTED_PROXIES"])
        )
    lines.append(
        f"Snapshots: {app.config['SNAPSHOT_DIR']} (at start and once a day; the"
        f" newest {snapshots.KEEP} are kept)"
    )
    lines.append("Press Ctrl+C to stop.")
    return "\n".join(lines)


def admin_link(base: str, key: str) -> str:
    """Return the admin link at the address base (CONTRACT §15)."""
    return f"{base.rstrip('/')}/admin/key/{key}"


def backup_reader() -> str:
    """Say which ijson backend reads backups: its C one (yajl2_c, in the wheels)
    or, where no wheel fits, a slower pure-Python one."""
    import ijson  # type: ignore[import-untyped]

    if ijson.backend in ("yajl2_c", "yajl2_cffi", "yajl2", "yajl"):
        return f"Backups are read with ijson's {ijson.backend} backend (C)."
    return (f"Backups are read with ijson's {ijson.backend} backend (pure Python:"
            " restoring a large backup is several times slower).")


QR_COLORS = "\x1b[38;5;16;48;5;231m"
"""Black on white (xterm's 256 colours 16 and 231), whatever the terminal's own
scheme: a phone's camera reads dark modules on a light ground, and a code drawn in
the terminal's colours comes out inverted on a dark (or a light) theme."""

QR_RESET = "\x1b[0m"

_HALVES = {(False, False): " ", (True, False): "\u2580", (False, True): "\u2584",
           (True, True): "\u2588"}
"""A character for two modules one above the other (True: dark), drawn in the
foreground colour (black) on the background (white)."""


def terminal_qr(url: str) -> str:
    """Return a QR code of url drawn with half blocks, dark on light with its
    quiet zone ("" where the terminal cannot show the characters)."""
    import segno

    rows = [[bool(m) for m in row]
            for row in segno.make(url, error="l").matrix_iter(scale=1, border=4)]
    if len(rows) % 2:
        rows.append([False] * len(rows[0]))
    lines = [
        QR_COLORS + "".join(_HALVES[pair] for pair in zip(top, bottom, strict=True))
        + QR_RESET
        for top, bottom in zip(rows[::2], rows[1::2], strict=True)
    ]
    text = "\n".join(lines) + "\n"
    encoding = getattr(sys.stdout, "encoding", None) or "ascii"
    try:
        text.encode(encoding)
    except (UnicodeEncodeError, LookupError):
        return ""
    return text


# --- backup and restore ---


def _counted(items: Iterable[_T], what: str) -> Iterator[_T]:
    """Yield items, printing a progress line on stderr every PROGRESS_EVERY."""
    count = 0
    for item in items:
        yield item
        count += 1
        if count % PROGRESS_EVERY == 0:
            print(f"  {count:,} games {what}…", file=sys.stderr, flush=True)


def backup_command(out: str | None) -> int:
    """Write every game to a backup file (or stdout) and say how many."""
    stamp = datetime.now(UTC).isoformat(timespec="seconds")
    target = out or f"qwirkle-backup-{stamp[:10]}.json"
    app = _app()
    count = 0

    def games() -> Iterator[backup.StoredGame]:
        nonlocal count
        for stored in _counted(iter_stored_games(), "written"):
            count += 1
            yield stored

    try:
        with app.app_context():
            if target == "-":
                for piece in backup.stream(games(), stamp, club_for_backup):
                    sys.stdout.write(piece)
                sys.stdout.flush()
            else:
                partial = Path(target + ".part")
                fd = os.open(partial, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
                with os.fdopen(fd, "w", encoding="utf-8") as handle:
                    for piece in backup.stream(games(), stamp, club_for_backup):
                        handle.write(piece)
                os.replace(partial, target)
    except OSError as exc:
        print(f"scorekeeper backup: cannot write {target}: {exc.strerror or exc}",
              file=sys.stderr)
        return 1
    where = "standard output" if target == "-" else target
    print(f"Backed up {count:,} games to {where}.",
          file=sys.stderr if target == "-" else sys.stdout)
    return 0


def restore_command(file: str) -> int:
    """Restore a backup file by the rules of CONTRACT §8; exit 1 with the reason."""
    try:
        handle = open(file, "rb")
    except OSError as exc:
        print(f"scorekeeper restore: cannot read {file}: {exc.strerror or exc}",
              file=sys.stderr)
        return 1
    app = _app()

    def progress(restored: int, skipped: int) -> None:
        print(f"  {restored + skipped:,} games read ({restored:,} new)…",
              file=sys.stderr, flush=True)

    try:
        with handle, app.app_context():
            done = restore_backup(
                backup.read_backup(handle, limit=sys.maxsize), progress=progress
            )
    except backup.BackupError as exc:
        print(f"scorekeeper restore: nothing was restored: {exc}", file=sys.stderr)
        return 1
    except (sqlite3.Error, OSError) as exc:
        print(f"scorekeeper restore: nothing was restored: {exc}", file=sys.stderr)
        return 1
    print(f"Restored {len(done.ids):,} games; skipped {done.skipped:,} already"
          f" stored ({file}).")
    return 0


if __name__ == "__main__":
    sys.exit(main())
