"""Never a 500 from any route: every registered URL rule, walked with
hostile path values, query strings, form fields and bodies, from this machine
and from another one."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import quote

import pytest
from conftest import make_app
from flask import Flask
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_history_helpers import corpus_record
from werkzeug.routing import Rule

HOSTILE_TEXT = [
    "../../backup", "..", ".", "%2e%2e", "é", "\u202e\u0000", "x" * 5000, " ", "",
    "\ud7ff", "名前", "1e309", "NaN", "-1", "0", "[" * 5000, "{}", "null",
    "<script>alert(1)</script>", "'; DROP TABLE games; --",
]
"""Strings every kind of field gets tried with."""

HOSTILE_INTS = [
    "0", "1", "2", "3", "-1", str(2**63 - 1), str(2**63), str(2**64 + 5),
    "1" + "0" * 30, "00001", "1.5", "１",
]
"""Ids and numbers: real ones, negative, beyond SQLite's integers, not ASCII."""

PARAMS = [
    "page", "q", "move", "cell", "cells", "tiles", "limit", "offset", "status",
    "turn", "a", "b", "name", "lang",
]
"""Query parameters the pages and the API read."""

FIELDS = [
    "names-0", "names-1", "names-2", "openings-0", "tile_set", "starter", "colors",
    "copies", "hand_size", "count", "turn", "type", "tiles-0-row", "tiles-0-col",
    "tiles-0-color", "tiles-0-shape", "pin", "admin_pin", "csrf_token",
]
"""Form fields the pages read."""

ARGUMENT = re.compile(r"<(?:(?P<converter>[a-zA-Z_]+)(?:\((?P<args>[^)]*)\))?:)?"
                      r"(?P<name>\w+)>")


@pytest.fixture(scope="module")
def walked(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Flask]:
    """An app holding a running, a finished and an empty game, by this client."""
    app = make_app(tmp_path_factory.mktemp("walk") / "walk.sqlite3")
    client = app.test_client()
    record = corpus_record()
    client.post("/api/games/import", json=record)
    running = dict(record, moves=record["moves"][:9], final=None)
    client.post("/api/games/import", json=running)
    client.post("/api/games", json={"players": ["Ann", "Bob"]})
    yield app


def _value(rule: Rule, converter: str, args: str) -> st.SearchStrategy[str]:
    if converter == "int":
        return st.sampled_from(HOSTILE_INTS)
    if converter == "any":
        items = [item.strip() for item in args.split(",")]
        return st.sampled_from(items) | st.sampled_from(HOSTILE_TEXT)
    return st.sampled_from(HOSTILE_TEXT) | st.text(max_size=20)


def _path(rule: Rule, data: st.DataObject) -> str:
    """Return the rule's path with every argument replaced by a hostile value."""

    def fill(match: re.Match[str]) -> str:
        value = data.draw(_value(rule, match.group("converter") or "default",
                                 match.group("args") or ""))
        return quote(value, safe="")

    return ARGUMENT.sub(fill, rule.rule)


def _rules(app: Flask) -> list[Rule]:
    return sorted(
        (rule for rule in app.url_map.iter_rules() if rule.endpoint != "static"),
        key=lambda rule: rule.rule,
    )


values = st.sampled_from(HOSTILE_TEXT) | st.sampled_from(HOSTILE_INTS) | st.text(
    max_size=12
)


header_values = st.text(
    st.characters(min_codepoint=32, max_codepoint=126), max_size=20
) | st.sampled_from(["12345678", "", " " * 50])
"""What a header may carry (the test client refuses newlines)."""


@settings(
    max_examples=400, deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(data=st.data())
def test_no_route_answers_500_to_hostile_input(walked: Flask, data: Any) -> None:
    rule = data.draw(st.sampled_from(_rules(walked)), label="rule")
    methods = sorted((rule.methods or set()) - {"HEAD", "OPTIONS"})
    method = data.draw(st.sampled_from(methods), label="method")
    path = _path(rule, data)
    query = data.draw(st.dictionaries(st.sampled_from(PARAMS), values, max_size=3))
    remote = data.draw(st.sampled_from(["127.0.0.1", "192.168.1.50"]))
    # Answers are gzipped for a client that asks (web/compress.py), or not.
    encoding = data.draw(st.sampled_from(["", "gzip", "gzip;q=0", "br, gzip"])
                         | header_values)
    kwargs: dict[str, Any] = {
        "query_string": query, "environ_base": {"REMOTE_ADDR": remote},
        "headers": {"Accept-Encoding": encoding},
    }
    if method != "GET":
        body = data.draw(st.sampled_from(["form", "json", "raw"]))
        if body == "form":
            kwargs["data"] = data.draw(
                st.dictionaries(st.sampled_from(FIELDS), values, max_size=5)
            )
        elif body == "json":
            kwargs["json"] = data.draw(st.sampled_from([
                {"type": "place", "tiles": [{"row": 10**30, "col": 0,
                                             "color": "red", "shape": "circle"}]},
                {"players": ["Ann", "x" * 500]},
                json.loads("[" * 100 + "]" * 100),
                {"format": "qwirkle-backup/1", "games": [{"created_at": "0001-01-01"}]},
                "text",
            ]))
            kwargs["headers"]["X-Admin-Pin"] = data.draw(header_values)
        else:
            kwargs["data"] = data.draw(st.binary(max_size=64))
            kwargs["content_type"] = "application/json"

    response = walked.test_client().open(path, method=method, **kwargs)

    assert response.status_code < 500, (method, path, query, response.status_code)


def test_the_walk_covers_every_rule_of_every_blueprint(walked: Flask) -> None:
    endpoints = {rule.endpoint.split(".")[0] for rule in _rules(walked)}
    assert endpoints >= {"api", "table", "history", "players", "files"}


@pytest.mark.parametrize("url", [
    f"/games/{2**63}", f"/games/{2**64}/replay", f"/games/{10**30}/scoresheet.pdf",
    f"/games/{2**63}/moves/1/edit", f"/api/games/{2**63}",
    "/history?page=100000000000000000000", "/history?page=-5",
    "/games/1/options?cell=0,1&tiles=" + "[" * 5000 + "]" * 5000,
    "/games/1/options?cell=" + "9" * 400 + ",0",
    "/games/1/options?cells=" + "0,0;" * 2000, "/games/1/options?cells=;;;",
    "/games/1/options?cells=0,0&cell=0,1", "/games/1/options?tiles=[[0,0,1,2]]",
    "/games/1/join/t%C3%B6ken", "/games/1/join/%F0%9F%98%80",
])
def test_the_urls_of_the_issue_answer_without_a_server_error(
    walked: Flask, url: str
) -> None:
    response = walked.test_client().get(url)
    assert response.status_code in (200, 400, 404), response.status_code


def test_a_player_named_like_a_path_links_to_their_own_page(tmp_path: Path) -> None:
    from urllib.parse import urljoin

    from test_history_helpers import parse

    client = make_app(tmp_path / "names.sqlite3").test_client()
    for names in (["../../backup", "Bob"], ["..", "."]):
        response = client.post("/api/games", json={"players": names})
        assert response.status_code == 201, response.get_json()
    links = {
        a.text(): a.attrs["href"]
        for a in parse(client.get("/players").data).find_all("a")
        if a.attrs.get("href", "").startswith("/players/")
    }

    for name in ("../../backup", "..", "."):
        resolved = urljoin("http://table.example/players", links[name])
        assert resolved.startswith("http://table.example/players/"), resolved
        page = client.get(resolved.removeprefix("http://table.example"))
        assert page.status_code == 200
        assert name in page.get_data(as_text=True)
