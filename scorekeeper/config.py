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
    }


def load_secret_key(instance_path: str) -> str:
    """Return the secret key from the environment, else from or into instance/."""
    from_env = os.environ.get(SECRET_KEY_ENV)
    if from_env:
        return from_env
    path = Path(instance_path) / "secret_key"
    try:
        key = path.read_text(encoding="ascii").strip()
        if key:
            return key
    except FileNotFoundError:
        pass
    key = secrets.token_hex(32)
    # Created with mode 600 from the start so no other user ever can read it.
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w", encoding="ascii") as handle:
        handle.write(key + "\n")
    return key
