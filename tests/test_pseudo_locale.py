"""A pseudo-locale renders every page: no English that a person reads escapes it.

The pseudo catalog is built here from the source's msgids (never shipped):
each msgstr is its msgid with every letter swapped for an accented look-alike
("Bag" → "⟦ƀȧǧ⟧"), placeholders kept. WTForms' own messages get the same
treatment. The pages are then rendered in it and every text node and every
attribute a person reads (title, aria-label, placeholder, alt, a button's
value) plus the sentences handed to JavaScript must hold no run of two ASCII
letters: anything left is English that did not pass through a catalog. The
players' names are Greek and Cyrillic, so names need no exemption; dates
(<time>, formatted by Babel and the browser), values quoted as the input had
them, and text marked translate="no" or lang="…" of another language (the
language menu) are skipped.
"""

from __future__ import annotations

import io
import json
import re
from collections.abc import Iterator
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import pytest
from babel.messages.catalog import Catalog
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from conftest import as_admin, make_app, new_game, tiles_json, token_of
from flask import Flask
from flask.testing import FlaskClient
from test_history_helpers import corpus_record

from scorekeeper import catalogs, i18n

PSEUDO = "eo"
"""A locale Babel knows and the app does not ship, standing in for the pseudo-locale."""

LETTERS = dict(zip(
    "abcdefghijklmnopqrstuvwxyz",
    "ȧƀçđȩƒǧħįĵķŀɱñǫƥʠŗşŧųṽŵẋýž", strict=True,
))

PLACEHOLDER = re.compile(r"%\(\w+\)[-#0 +]*\d*(?:\.\d+)?[sdifr]|\{\w+\}|%%")

NAMES = ["Σοφία", "Дмитрий", "Ἀλέξανδρος", "Ольга"]
"""Players, none written in Latin letters."""

ENGLISH = re.compile(r"[A-Za-z]{2,}")
"""What escaped: two ASCII letters in a row."""

READ_ATTRIBUTES = ("title", "aria-label", "placeholder", "alt")


def pseudo(message: str) -> str:
    """Return the pseudo translation of a msgid (placeholders unchanged)."""
    out, last = [], 0
    for match in PLACEHOLDER.finditer(message):
        out.append(_accent(message[last:match.start()]))
        out.append(match.group())
        last = match.end()
    out.append(_accent(message[last:]))
    return "⟦" + "".join(out) + "⟧"


def _accent(part: str) -> str:
    return "".join(
        LETTERS.get(ch, LETTERS[ch.lower()].upper() if ch.lower() in LETTERS else ch)
        for ch in part
    )


def compile_pseudo(template: Catalog, path: Path) -> None:
    """Write the pseudo .mo of every message of template to path."""
    catalog = Catalog(locale=PSEUDO, fuzzy=False)
    for message in template:
        if not message.id:
            continue
        if isinstance(message.id, (tuple, list)):
            string: Any = tuple(pseudo(form) for form in message.id)
        else:
            string = pseudo(message.id)
        catalog.add(message.id, string, context=message.context)
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("wb") as handle:
        write_mo(handle, catalog)


@pytest.fixture(scope="module")
def pseudo_dirs(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """The pseudo catalogs: the app's messages and WTForms' own."""
    import wtforms.i18n

    root = tmp_path_factory.mktemp("pseudo")
    compile_pseudo(catalogs.extract(), root / "app" / PSEUDO / "LC_MESSAGES"
                   / "messages.mo")
    pot = Path(wtforms.i18n.messages_path()) / "wtforms.pot"
    with pot.open("rb") as handle:
        wtf = read_po(handle)
    compile_pseudo(wtf, root / "wtforms" / PSEUDO / "LC_MESSAGES" / "wtforms.mo")
    return root / "app", root / "wtforms"


@pytest.fixture
def app(
    tmp_path: Path, pseudo_dirs: tuple[Path, Path], monkeypatch: pytest.MonkeyPatch
) -> Flask:
    """The app speaking the pseudo-locale as a sixth language."""
    import flask_wtf.i18n

    messages, wtforms_dir = pseudo_dirs
    monkeypatch.setattr(flask_wtf.i18n, "messages_path", lambda: str(wtforms_dir))
    app = make_app(
        tmp_path / "db.sqlite3",
        LANGUAGES=(*i18n.LANGUAGES, PSEUDO),
        BABEL_TRANSLATION_DIRECTORIES=str(messages),
        PROPAGATE_EXCEPTIONS=False,
    )

    def boom() -> str:
        raise RuntimeError("boom")

    app.add_url_rule("/boom", "boom", boom)
    return app


@pytest.fixture
def client(app: Flask) -> FlaskClient:
    """A browser that chose the pseudo-locale (the host's: it opened the
    admin link)."""
    client = as_admin(app.test_client())
    client.get(f"/?lang={PSEUDO}")
    return client


# --- reading a page as a person does ---


class Reader(HTMLParser):
    """Collects (where, text) for every text and read attribute of a page."""

    SKIP = {"script", "style", "time"}
    VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link",
            "meta", "source", "track", "wbr", "use", "rect", "circle", "polygon",
            "path"}

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.page_lang = ""
        self.stack: list[tuple[str, bool]] = []
        self.found: list[tuple[str, str]] = []
        self.block: str | None = None  # a JSON data block being read, by kind
        self.block_text = ""

    @property
    def skipping(self) -> bool:
        return any(skip for _tag, skip in self.stack)

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = {k: v or "" for k, v in attrs}
        if tag == "html":
            self.page_lang = values.get("lang", "")
        other_lang = "lang" in values and values["lang"] != self.page_lang
        if tag == "script" and values.get("type") == "application/json":
            # The game's state or the replay's steps: their sentences are shown
            # by the page's scripts.
            self.block = "replay" if "data-replay-steps" in values else "state"
            self.block_text = ""
        skip = (tag in self.SKIP or values.get("translate") == "no" or other_lang)
        if not (skip or self.skipping):
            self._read_attributes(tag, values)
        if tag not in self.VOID and not tag.endswith("/"):
            self.stack.append((tag, skip))

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if not self.skipping:
            self._read_attributes(tag, {k: v or "" for k, v in attrs})

    def _read_attributes(self, tag: str, values: dict[str, str]) -> None:
        for name in READ_ATTRIBUTES:
            if values.get(name):
                self.found.append((f"<{tag} {name}>", values[name]))
        if tag == "input" and values.get("type") in ("submit", "button", "reset"):
            self.found.append(("<input value>", values.get("value", "")))
        if values.get("data-text"):
            for sentence in _strings(json.loads(values["data-text"])):
                self.found.append(("board.js text", sentence))
        if values.get("data-label"):
            self.found.append((f"<{tag} data-label>", values["data-label"]))

    def handle_endtag(self, tag: str) -> None:
        if tag == "script" and self.block is not None:
            for sentence in block_sentences(self.block, json.loads(self.block_text)):
                self.found.append((f"{self.block} data", sentence))
            self.block = None
        for index in range(len(self.stack) - 1, -1, -1):
            if self.stack[index][0] == tag:
                del self.stack[index:]
                break

    def handle_data(self, data: str) -> None:
        if self.block is not None:
            self.block_text += data
            return
        if data.strip() and not self.skipping:
            where = self.stack[-1][0] if self.stack else "?"
            self.found.append((f"<{where}>", data.strip()))


def state_sentences(state: dict[str, Any]) -> Iterator[str]:
    """Yield the sentences of a game state (web/state.py) that a page shows."""
    last = state.get("last_move") or {}
    if last:
        yield last["text"]
        yield last["spoken"]  # said aloud by static/speech.js
        for line in (last.get("breakdown") or {}).get("lines", []):
            yield line["label"]


def block_sentences(kind: str, data: Any) -> Iterator[str]:
    """Yield the sentences of a page's JSON data block: the state, or every
    replay step's title, move, penalty, points word, lines and end."""
    if kind == "state":
        yield from state_sentences(data)
        return
    for step in data["steps"]:
        yield from (step["title"], step["summary"], step["penalty"],
                    step["points_word"], step["reason"])
        yield from (line[0] for line in step["lines"])


def _strings(value: Any) -> Iterator[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, list):
        for item in value:
            yield from _strings(item)
    elif isinstance(value, dict):
        for item in value.values():
            yield from _strings(item)


def escaped(html: str) -> list[str]:
    """Return every piece of English a person would read on the page."""
    reader = Reader()
    reader.feed(html)
    assert reader.page_lang == PSEUDO
    bad = []
    for where, text in reader.found:
        # Addresses, and values quoted as the input had them ('pink', the file's
        # format), are data, not words.
        plain = re.sub(r"https?://\S+|'[^']*'", "", text)
        plain = PLACEHOLDER.sub("", plain)
        if ENGLISH.search(plain):
            bad.append(f"{where} {text!r}")
    return bad


def read(client: FlaskClient, url: str, status: int = 200, **kwargs: Any) -> str:
    """GET (or POST with data=…) a page and return its HTML, checking the status."""
    if "data" in kwargs:
        response = client.post(url, **kwargs)
    else:
        response = client.get(url, **kwargs)
    assert response.status_code == status, (url, response.status_code)
    return response.get_data(as_text=True)


# --- the games the pages show ---


SAMPLE = [
    [(0, 0, "red", "clover"), (1, 0, "red", "diamond"), (2, 0, "red", "circle")],
    [(3, 0, "red", "square"), (3, 1, "blue", "square"), (3, 2, "green", "square")],
    [(2, 1, "blue", "circle")],
    [(0, -1, "green", "clover"), (1, -1, "green", "diamond")],
]
"""The rule book's first four moves."""


def play(client: FlaskClient, game_id: int, moves: list[list[Any]]) -> None:
    """Place moves through the API with the session's token."""
    token = token_of(client, game_id)
    for tiles in moves:
        response = client.post(
            f"/api/games/{game_id}/moves", headers={"X-Edit-Token": token},
            json={"type": "place", "tiles": tiles_json(tiles)},
        )
        assert response.status_code == 201, response.get_json()


@pytest.fixture
def games(client: FlaskClient) -> dict[str, int]:
    """An active classic game, a finished one, and a Qwirkle Cubes game, all
    editable from this browser."""
    active = new_game(client, *NAMES)
    play(client, active, SAMPLE)
    record = corpus_record("classic-10001.json")
    record["players"] = NAMES[: len(record["players"])]
    upload = {"file": (io.BytesIO(json.dumps(record).encode()), "game.json")}
    response = client.post("/import", data=upload,
                           content_type="multipart/form-data")
    assert response.status_code == 302, response.get_data(True)
    found = re.search(r"/games/(\d+)", response.headers["Location"])
    assert found is not None
    final = int(found.group(1))
    cubes = new_game(client, NAMES[0], NAMES[1], tile_set="cubes")
    play(client, cubes, [[(0, 0, "red", "circle"), (0, 1, "red", "square")]])
    return {"active": active, "final": final, "cubes": cubes}


# --- the pages ---


PAGES = [
    "/",
    "/games/new",
    "/games/{active}",
    "/games/{final}",
    "/games/{cubes}",
    "/games/{active}/undo",
    "/games/{active}/replay?move=0",
    "/games/{active}/replay?move=2",
    "/games/{final}/replay",
    "/games/{active}/moves/2/edit",
    "/games/{active}/rename",
    "/games/{final}/delete",
    "/history",
    "/history?q=Σοφ",
    "/history?q=Ζωή",
    "/players",
    "/players/Σοφία",
    "/head-to-head?a=Σοφία&b=Дмитрий",
    "/head-to-head?a=Σοφία&b=Σοφία",
    "/import",
    "/restore",
    "/games/{final}/scoresheet",
    "/games/{active}/scoresheet",
    "/games/{final}/bgstats",
]


@pytest.mark.parametrize("url", PAGES)
def test_no_english_escapes_on_a_page(
    client: FlaskClient, games: dict[str, int], url: str
) -> None:
    assert escaped(read(client, url.format(**games))) == []


@pytest.mark.parametrize(
    ("url", "status"),
    [("/nowhere", 404), ("/games/999", 404), ("/boom", 500)],
)
def test_no_english_escapes_on_an_error_page(
    client: FlaskClient, url: str, status: int
) -> None:
    assert escaped(read(client, url, status)) == []


def test_no_english_escapes_on_a_wrong_method_page(client: FlaskClient) -> None:
    response = client.delete("/history")
    assert response.status_code == 405
    assert escaped(response.get_data(as_text=True)) == []


def test_no_english_escapes_on_a_refusal_to_another_device(
    app: Flask, client: FlaskClient, games: dict[str, int]
) -> None:
    stranger = app.test_client()
    stranger.get(f"/?lang={PSEUDO}")
    html = read(stranger, f"/games/{games['active']}/undo", 403)
    assert escaped(html) == []
    assert escaped(read(stranger, f"/games/{games['active']}")) == []


NEW_GAME_ERRORS = [
    {"names-0": NAMES[0]},
    {"names-0": NAMES[0], "names-1": NAMES[0]},
    {"names-0": NAMES[0], "names-1": NAMES[1], "openings-0": "ἕξ"},
    {"names-0": NAMES[0], "names-1": NAMES[1], "openings-0": "3", "openings-1": "3"},
    {"names-0": NAMES[0], "names-1": NAMES[1], "tile_set": "custom", "colors": "20"},
    {"names-0": NAMES[0], "names-1": NAMES[1], "starter": "5"},
    {"names-0": NAMES[0], "names-1": "ξ" * 200},
]


@pytest.mark.parametrize("data", NEW_GAME_ERRORS)
def test_no_english_escapes_in_the_new_game_forms_errors(
    client: FlaskClient, data: dict[str, str]
) -> None:
    html = read(client, "/games/new", data=data)
    assert escaped(html) == []


def test_no_english_escapes_in_flashes_and_refused_moves(
    client: FlaskClient, games: dict[str, int]
) -> None:
    game = games["active"]
    token = token_of(client, game)
    client.post(f"/games/{game}/pass", data={"turn": "4"})
    client.post(f"/games/{game}/trade", data={"turn": "3", "count": "2"})
    client.get(f"/games/{game}/join/{token}")
    html = read(client, f"/games/{game}")
    assert html.count('class="flash') >= 3
    assert escaped(html) == []


def test_no_english_escapes_in_correction_and_rename_errors(
    client: FlaskClient, games: dict[str, int]
) -> None:
    game = games["active"]
    corrected = read(client, f"/games/{game}/moves/2/edit", 422, data={
        "type": "place", "tiles-0-row": "0", "tiles-0-col": "0",
        "tiles-0-color": "red", "tiles-0-shape": "square",
    })
    assert "data-error" in corrected
    assert escaped(corrected) == []
    renamed = read(client, f"/games/{game}/rename", data={
        "names-0": NAMES[0], "names-1": NAMES[0], "names-2": NAMES[2],
        "names-3": NAMES[3],
    })
    assert escaped(renamed) == []


@pytest.mark.parametrize("upload", [b"{", b'{"format": "qwirkle-game/0"}', b"[]"])
def test_no_english_escapes_in_import_and_restore_errors(
    client: FlaskClient, upload: bytes
) -> None:
    for url in ("/import", "/restore"):
        html = read(client, url, 422, data={
            "file": (io.BytesIO(upload), "bad.json")
        }, content_type="multipart/form-data")
        assert "data-error" in html
        assert escaped(html) == []


def test_the_pseudo_locale_sees_english_that_escapes(client: FlaskClient) -> None:
    # The check itself: a page with an unmarked word fails, a translated one not.
    page = f'<html lang="{PSEUDO}"><p title="{pseudo("Bag")}">{pseudo("Bag")} 3</p>'
    assert escaped(page) == []
    assert escaped(page.replace("</p>", " Bag</p>")) == [
        f"<p> '{pseudo('Bag')} 3 Bag'"
    ]
    assert escaped(page + '<button aria-label="Close">×</button>') == [
        "<button aria-label> 'Close'"
    ]
    assert escaped(page + '<span translate="no">EO</span><time>Jan 1</time>') == []
    state = json.dumps({"last_move": {"text": "red line 3 = 3", "breakdown": None,
                                      "spoken": "Ann: 3 points."}})
    assert escaped(page + f'<script type="application/json">{state}</script>') == [
        "state data 'red line 3 = 3'", "state data 'Ann: 3 points.'"
    ]


def english_in(sentences: Iterator[str]) -> list[str]:
    """Return the sentences holding English (as escaped() judges a page's text)."""
    return [text for text in sentences
            if ENGLISH.search(PLACEHOLDER.sub("", text))]


def test_no_english_escapes_in_the_answers_the_game_pages_scripts_show(
    client: FlaskClient, games: dict[str, int]
) -> None:
    # The JSON the game page's scripts put on screen: the options with each
    # tile's score sentence, a move's answer and the state, in the language
    # the scripts ask for (Accept-Language, the page's own).
    game = games["active"]
    asked = {"Accept-Language": PSEUDO}
    options = client.get(f"/games/{game}/options?tiles=[]").get_json()
    previews = [
        kind["text"] for cell in options["cells"].values() for kind in cell.values()
        if "text" in kind
    ]
    refused = [
        kind["error"]["message"] for cell in options["cells"].values()
        for kind in cell.values() if "error" in kind
    ]
    assert previews and english_in(iter(previews + refused)) == []
    answer = client.post(
        f"/api/games/{game}/moves",
        headers={"X-Edit-Token": token_of(client, game), **asked},
        json={"type": "place", "tiles": tiles_json([(4, 0, "red", "starburst")])},
    ).get_json()
    assert "text" in answer, answer
    assert english_in(iter([answer["text"], *state_sentences(answer["game"])])) == []
    state = client.get(f"/api/games/{game}", headers=asked).get_json()
    assert english_in(state_sentences(state)) == []
