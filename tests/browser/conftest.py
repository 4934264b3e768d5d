"""Browser-test set-up: skipped where chromium is missing; a live server; a browser.

Where /usr/bin/chromium exists the test modules import playwright, so a missing
playwright is an error there, never a silent skip.

One Playwright driver and one chromium serve the whole session (starting them
took 1-2 s a test); each test still gets its own browser contexts (cookies,
storage, cache and service workers are per context), closed after it.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from conftest import fresh_database
from flask import Flask
from werkzeug.serving import make_server

from scorekeeper import create_app

from .helpers import CHROMIUM, LAN_HOST, launch


class _NeedsChromium(pytest.File):
    """A test module collected where chromium is missing: skipped, not imported."""

    def collect(self) -> list[pytest.Item]:
        pytest.skip("needs Debian's chromium (apt-get install chromium)")


@pytest.hookimpl(tryfirst=True)
def pytest_pycollect_makemodule(
    module_path: Path, parent: pytest.Collector
) -> pytest.Collector | None:
    """Skip every module here where chromium is missing (before it imports anything)."""
    if os.path.exists(CHROMIUM):
        return None
    return _NeedsChromium.from_parent(parent, path=module_path)


@pytest.fixture
def live_app(tmp_path: Path) -> Flask:
    """The app with CSRF on, as in production, on the test's own database file."""
    return create_app({
        "TESTING": True,
        "DATABASE": str(fresh_database(tmp_path / "live.sqlite3")),
        "SECRET_KEY": "browser-test-key",
        "WTF_CSRF_ENABLED": True,
    })


def files_read_at_once(app: Any) -> Any:
    """Wrap a WSGI app so that a static file is read (and closed) before its
    bytes are sent: werkzeug's test server leaves the file open when a browser
    drops the connection mid-answer (a closing context), which filterwarnings
    turns into an error in whichever test runs next. Streams stay streams."""

    def wsgi(environ: dict[str, Any], start_response: Any) -> Any:
        answer = app(environ, start_response)
        if not environ.get("PATH_INFO", "").startswith("/static/"):
            return answer
        try:
            return [b"".join(answer)]
        finally:
            close = getattr(answer, "close", None)
            if close is not None:
                close()

    return wsgi


@pytest.fixture
def live_server(live_app: Flask) -> Iterator[str]:
    """Serve live_app on 127.0.0.1 at a free port; yield its base address."""
    server = make_server(
        "127.0.0.1", 0, files_read_at_once(live_app), threaded=True
    )
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_port}"
    finally:
        server.shutdown()
        thread.join(5)


@pytest.fixture(scope="session")
def playwright() -> Iterator[Any]:
    """The session's Playwright driver (a test launching its own chromium with
    other flags closes that browser itself)."""
    # Imported here, not at the top: where chromium is missing nothing needs it.
    from playwright.sync_api import sync_playwright

    with sync_playwright() as driver:
        yield driver


@pytest.fixture(scope="session")
def _chromium(playwright: Any) -> Iterator[list[Any]]:
    """The session's headless chromium, in a list so that one that died can be
    replaced."""
    held = [launch(playwright)]
    try:
        yield held
    finally:
        if held[0].is_connected():
            held[0].close()


@pytest.fixture
def browser(playwright: Any, _chromium: list[Any]) -> Iterator[Any]:
    """Debian's chromium, headless; every context the test opened is closed
    after it, so the next test starts with none."""
    if not _chromium[0].is_connected():
        _chromium[0] = launch(playwright)
    browser = _chromium[0]
    for context in browser.contexts:  # left by a test that failed mid-teardown
        context.close()
    try:
        yield browser
    finally:
        if browser.is_connected():
            for context in browser.contexts:
                context.close()


@pytest.fixture
def lan_browser(playwright: Any) -> Iterator[Any]:
    """A chromium of its own that reaches LAN_HOST at 127.0.0.1 (closed after
    the test)."""
    browser = launch(playwright, f"--host-resolver-rules=MAP {LAN_HOST} 127.0.0.1")
    try:
        yield browser
    finally:
        browser.close()
