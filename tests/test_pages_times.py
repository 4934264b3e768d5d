"""Times on pages: <time datetime="…Z"> with text in the page's language (UTC until
the device's zone is known), localised further by localtime.js."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from flask import Flask
from flask.testing import FlaskClient
from test_history_helpers import Node, Stored, corpus_record, parse

from scorekeeper.store import backup
from scorekeeper.timestamps import parse_utc
from scorekeeper.web.pages import time_tag

START = datetime(2025, 1, 1, 20, 5, tzinfo=UTC)


def store(app: Flask) -> int:
    with app.test_request_context():
        stored = Stored(corpus_record(), ["Anna", "Chris"], START)
        return backup.restore_backup([stored]).ids[0]


def times(page: Node) -> list[Node]:
    return page.find_all("time", data_localtime=True)


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        ("2025-01-01T20:05:00+00:00", "2025-01-01T20:05:00Z"),
        ("2025-01-01T20:05:09.123Z", "2025-01-01T20:05:09Z"),
        ("2025-01-01T20:05:00", "2025-01-01T20:05:00Z"),  # naive means UTC
        ("2025-01-01T21:05:00+01:00", "2025-01-01T20:05:00Z"),
    ],
)
def test_a_time_tag_carries_the_utc_instant_and_utc_text(
    value: str, expected: str
) -> None:
    tag = parse(str(time_tag(value))).find("time")
    assert tag.attrs["datetime"] == expected
    assert tag.attrs["data-localtime"] == "datetime"
    assert tag.text() == "Jan 1, 2025, 8:05 PM UTC"


@pytest.mark.parametrize("value", [None, "", "yesterday", "2025-13-01T00:00:00"])
def test_a_missing_or_bad_time_shows_a_dash_and_no_time_tag(
    value: str | None,
) -> None:
    assert str(time_tag(value)) == "–"
    assert parse_utc(value) is None


def test_a_date_only_tag_says_the_day() -> None:
    tag = parse(str(time_tag("2025-01-01T20:05:00Z", style="date"))).find("time")
    assert tag.attrs["data-localtime"] == "date"
    assert tag.text() == "Jan 1, 2025"


@pytest.mark.parametrize(
    "url",
    [
        "/",
        "/history",
        "/players/Anna",
        "/head-to-head?a=Anna&b=Chris",
        "/games/{id}/scoresheet",
    ],
)
def test_pages_render_times_as_time_tags_and_load_the_localiser(
    app: Flask, client: FlaskClient, url: str
) -> None:
    game_id = store(app)
    page = parse(client.get(url.format(id=game_id)).data)
    tags = times(page)
    assert tags, url
    for tag in tags:
        assert parse_utc(tag.attrs["datetime"]) is not None
        assert tag.attrs["datetime"].endswith("Z")
        assert tag.text().endswith("UTC")
    scripts = [s.attrs.get("src", "") for s in page.find_all("script")]
    assert any(src.endswith("/localtime.js") for src in scripts)
    assert "Date (UTC)" not in page.text()


def test_the_history_row_shows_when_the_game_was_created(
    app: Flask, client: FlaskClient
) -> None:
    store(app)
    row = parse(client.get("/history").data).find("tr", data_game_id=True)
    assert row.find("time").attrs["datetime"] == "2025-01-01T20:05:00Z"


def test_the_home_page_dates_a_finished_game_by_its_end(
    app: Flask, client: FlaskClient
) -> None:
    store(app)
    recent = parse(client.get("/").data).find("ul", data_finished=True)
    # 60 moves, one a minute from 20:06: the last at 21:05.
    assert recent.find("time").attrs["datetime"] == "2025-01-01T21:05:00Z"


def test_the_localiser_is_served(client: FlaskClient) -> None:
    with client.get("/static/localtime.js") as response:
        assert response.status_code == 200
        assert b"data-localtime" in response.data


def test_dates_with_another_offset_are_written_in_utc() -> None:
    # A restored backup may carry timestamps with an offset; the score sheet and
    # PDF label their times UTC, so they must be converted, not shown as written.
    from scorekeeper import text

    assert text.date("2026-01-01T10:00:00+02:00") == "Jan 1, 2026, 8:00\u202fAM UTC"
    assert text.date("2026-01-01T10:00:00Z") == "Jan 1, 2026, 10:00\u202fAM UTC"
    assert text.date(None) == ""


def test_dates_are_written_in_the_readers_language_and_zone() -> None:
    from zoneinfo import ZoneInfo

    from scorekeeper import i18n, text

    with i18n.language("nl", ZoneInfo("Europe/Amsterdam")):
        assert text.date("2026-01-01T10:00:00Z") == "1 jan 2026, 11:00"
    with i18n.language("de"):
        assert text.date("2026-01-01T10:00:00Z") == "01.01.2026, 10:00 UTC"
    with i18n.language("fr", ZoneInfo("America/New_York")):
        assert text.local_time("2026-01-01T10:00:00Z", "date") == "1 janv. 2026"
