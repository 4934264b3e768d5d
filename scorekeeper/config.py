"""Configuration defaults and the secret key's source for the scorekeeper app."""

from __future__ import annotations

import os
import secrets
from pathlib import Path

#: Largest request body the app reads (an exported game is a few dozen KB).
MAX_CONTENT_LENGTH = 2 * 1024 * 1024

#: Environment variable holding the secret key for deployments that set one.
SECRET_KEY_ENV = "SCOREKEEPER_SECRET_KEY"

#: Environment switch for HTTPS deployments; plain-HTTP LAN play must leave it off.
SECURE_COOKIE_ENV = "SCOREKEEPER_SECURE_COOKIES"

#: Environment variable naming the instance folder (database, secret key).
INSTANCE_ENV = "SCOREKEEPER_INSTANCE"


def defaults(instance_path: str) -> dict[str, object]:
    """Return the default configuration for an app whose instance folder is given."""
    return {
        "DATABASE": os.path.join(instance_path, "scorekeeper.sqlite3"),
        "TESTING": False,
        "WTF_CSRF_ENABLED": True,
        # A game lasts longer than flask-wtf's default hour (ECOSYSTEM pitfall 1).
        "WTF_CSRF_TIME_LIMIT": None,
        "MAX_CONTENT_LENGTH": MAX_CONTENT_LENGTH,
        # Secure cookies over http://<LAN address> drop the session (pitfall 2).
        "SESSION_COOKIE_SECURE": os.environ.get(SECURE_COOKIE_ENV, "") in {"1", "true"},
        "SESSION_COOKIE_HTTPONLY": True,
        "SESSION_COOKIE_SAMESITE": "Lax",
        # Heavy renders (a PDF) run in worker processes, not the server's threads.
        "RENDER_IN_PROCESS": True,
        # Where automatic snapshots go (CONTRACT §13).
        "SNAPSHOT_DIR": os.path.join(instance_path, "snapshots"),
        # The address the server listens on, set by the command (join links);
        # None where another server runs the app.
        "LISTEN_HOST": None,
        "LISTEN_PORT": None,
        # Reverse proxies whose X-Forwarded-For / Forwarded is believed
        # (--trusted-proxy): addresses or networks, none by default.
        "TRUSTED_PROXIES": [],
    }


ADMIN_PIN_FILE = "admin_pin"
"""The file in the instance folder holding the admin PIN (CONTRACT §8)."""

ADMIN_PIN_DIGITS = 8
"""Digits of a new admin PIN."""


def secure_folder(path: str) -> None:
    """Create the folder if needed and let only its owner in (mode 700)."""
    os.makedirs(path, mode=0o700, exist_ok=True)
    try:
        os.chmod(path, 0o700)
    except OSError:
        pass  # a folder owned by someone else: leave it as its owner set it


def _write_private(path: Path, text: str) -> None:
    """Write a file only its owner may read (created with mode 600 from the start)."""
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w", encoding="ascii") as handle:
        handle.write(text + "\n")


def _read_private(path: Path) -> str:
    """Return a private file's stripped text ("" when missing), making it mode 600."""
    try:
        text = path.read_text(encoding="ascii").strip()
    except (FileNotFoundError, UnicodeDecodeError):
        return ""
    try:
        os.chmod(path, 0o600)  # one written by an older release may be 644
    except OSError:
        pass
    return text


def load_admin_pin(instance_path: str) -> str:
    """Return the admin PIN from instance/admin_pin, creating it on first start."""
    path = Path(instance_path) / ADMIN_PIN_FILE
    pin = _read_private(path)
    if pin.isdigit() and len(pin) >= 6:
        return pin
    pin = "".join(str(secrets.randbelow(10)) for _ in range(ADMIN_PIN_DIGITS))
    _write_private(path, pin)
    return pin


ADMIN_KEY_FILE = "admin_key"
"""The file in the instance folder holding the admin link's key (CONTRACT §15):
removing it (and restarting) ends every device's admin right."""


def load_admin_key(instance_path: str) -> str:
    """Return the admin link's key from instance/admin_key, creating it on first
    start: 256 random bits, so the link needs no try counting."""
    path = Path(instance_path) / ADMIN_KEY_FILE
    key = _read_private(path)
    if len(key) >= 32:
        return key
    key = secrets.token_urlsafe(32)
    _write_private(path, key)
    return key


def load_secret_key(instance_path: str) -> str:
    """Return the secret key from the environment, else from or into instance/."""
    from_env = os.environ.get(SECRET_KEY_ENV)
    if from_env:
        return from_env
    path = Path(instance_path) / "secret_key"
    key = _read_private(path)
    if key:
        return key
    key = secrets.token_hex(32)
    _write_private(path, key)
    return key
