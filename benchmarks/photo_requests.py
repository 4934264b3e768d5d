"""What the server benchmarks send: one request at a time, a phone's photo
form, and a corpus game imported to send photos of (bench_server.py,
bench_photo_api.py)."""

from __future__ import annotations

import http.client
import json
import time
from pathlib import Path
from typing import Any

from bench_club import HOST

ROOT = Path(__file__).resolve().parents[1]
PHOTO = ROOT / "tests" / "data" / "photos" / "example-2-held-out.jpg"
"""The default photo; its JSON beside it names the corpus game and move."""
BOUNDARY = "bench-photo-boundary"


def request(port: int, method: str, path: str, body: bytes = b"",
            headers: dict[str, str] | None = None,
            timeout: float = 60) -> tuple[int, bytes, float]:
    """One request on a fresh connection; return (status, body, seconds)."""
    conn = http.client.HTTPConnection(HOST, port, timeout=timeout)
    start = time.perf_counter()
    try:
        conn.request(method, path, body=body or None, headers=headers or {})
        response = conn.getresponse()
        data = response.read()
        return response.status, data, time.perf_counter() - start
    finally:
        conn.close()


def admin_cookie(port: int, instance: Path) -> dict[str, str]:
    """Open the admin link the command printed (its key is in the instance
    folder) and return the Cookie header of the device that holds the admin
    right: its photos have no rate (CONTRACT §15)."""
    key = (instance / "admin_key").read_text(encoding="ascii").strip()
    conn = http.client.HTTPConnection(HOST, port, timeout=30)
    try:
        conn.request("GET", f"/admin/key/{key}")
        response = conn.getresponse()
        response.read()
        cookie = response.headers["Set-Cookie"].split(";", 1)[0]
    finally:
        conn.close()
    return {"Cookie": cookie}


def photo_body(data: bytes, kind: str = "jpeg") -> bytes:
    """The multipart body a phone's form sends with the photo in `image`."""
    return (f'--{BOUNDARY}\r\nContent-Disposition: form-data; name="image";'
            f' filename="photo.{kind}"\r\nContent-Type: image/{kind}\r\n\r\n'
            ).encode() + data + f"\r\n--{BOUNDARY}--\r\n".encode()


def import_game(port: int, record: dict[str, Any]
                ) -> tuple[dict[str, Any], dict[str, str]]:
    """Import a game record; return the answer and the headers that send it
    a photo (its edit token, the multipart type)."""
    status, answer, _ = request(port, "POST", "/api/games/import",
                                json.dumps(record).encode(),
                                {"Content-Type": "application/json"})
    assert status == 201, answer
    game = json.loads(answer)
    return game, {"X-Edit-Token": game["edit_token"],
                  "Content-Type": f"multipart/form-data; boundary={BOUNDARY}"}
