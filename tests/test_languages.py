"""Choosing the language (CONTRACT §9) and speaking it everywhere a person reads.

Pages: ?lang= (remembered in a cookie), else Accept-Language, else English;
<html lang> says which. The API's error messages follow Accept-Language, its
codes never change. Form errors (WTForms' own too), flash messages, the PDF
and the numbers follow the page's language.
"""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

import pytest
from flask.testing import FlaskClient
from pypdf import PdfReader
from test_history_helpers import corpus_record, parse

from scorekeeper import i18n

LANGS = i18n.LANGUAGES


def html_lang(client: FlaskClient, url: str = "/", **kwargs: Any) -> str:
    """Return the <html lang> of a page."""
    response = client.get(url, **kwargs)
    assert response.status_code == 200
    return str(parse(response.data).find("html").attrs["lang"])


# --- choosing ---


def test_a_page_without_any_choice_is_english(client: FlaskClient) -> None:
    assert html_lang(client) == "en"
    assert parse(client.get("/").data).find("h1").text() == "Qwirkle Scorekeeper"


@pytest.mark.parametrize("code", LANGS)
def test_lang_chooses_the_language_and_a_cookie_remembers_it(
    client: FlaskClient, code: str
) -> None:
    response = client.get(f"/history?lang={code}")
    assert "lang=" + code in response.headers["Set-Cookie"]
    assert parse(response.data).find("html").attrs["lang"] == code

    assert html_lang(client, "/players") == code


def test_the_cookie_wins_over_accept_language(client: FlaskClient) -> None:
    client.get("/?lang=fr")
    assert html_lang(client, headers={"Accept-Language": "de"}) == "fr"


@pytest.mark.parametrize(
    ("header", "code"),
    [
        ("de-DE,de;q=0.9,en;q=0.8", "de"),
        ("nl-BE", "nl"),
        ("pt-BR, es;q=0.5", "es"),
        ("ja", "en"),
        ("fr;q=0.2, nl;q=0.8", "nl"),
    ],
)
def test_accept_language_chooses_when_nothing_else_does(
    client: FlaskClient, header: str, code: str
) -> None:
    assert html_lang(client, headers={"Accept-Language": header}) == code


def test_a_long_accept_language_chooses_as_a_short_one_does(
    client: FlaskClient,
) -> None:
    # Matches of short headers are kept (web/language.py); a long one is
    # matched afresh, to the same answer.
    short = "de;q=0.8, fr"
    long = short + "".join(f", x{i}-yy;q=0.1" for i in range(40))
    assert len(long) > 200
    for header in (short, short, long):
        assert html_lang(client, headers={"Accept-Language": header}) == "fr"


@pytest.mark.parametrize("bad", ["xx", "", "EN", "nl-NL", "../de"])
def test_an_unknown_lang_is_ignored_and_not_remembered(
    client: FlaskClient, bad: str
) -> None:
    response = client.get("/", query_string={"lang": bad},
                          headers={"Accept-Language": "es"})
    assert response.status_code == 200
    assert "lang=" not in response.headers.get("Set-Cookie", "")
    assert parse(response.data).find("html").attrs["lang"] == "es"


def test_every_page_offers_the_five_languages_as_plain_links(
    client: FlaskClient, table: Any
) -> None:
    game = table.new(["Ann", "Bob"])
    for url in ("/", "/games/new", f"/games/{game.id}", f"/games/{game.id}/replay",
                "/history?q=Ann&page=1", "/players", "/nowhere"):
        sep = "&" if "?" in url else "?"
        page = parse(client.get(url + sep + "lang=de").data)
        menu = page.find("details", data_lang_menu=True)
        links = {a.attrs["lang"]: a for a in menu.find_all("a")}
        assert sorted(links) == sorted(LANGS), url
        assert links["de"].attrs.get("aria-current") == "true"
        assert links["nl"].text() == "Nederlands"
        assert links["fr"].text() == "Français"
        href = links["es"].attrs["href"]
        assert href.startswith(url.split("?")[0] + "?") and href.endswith("lang=es")
        assert "lang=de" not in href
        if url.startswith("/history"):
            assert "q=Ann" in href and "page=1" in href


def test_the_language_link_switches_the_page(client: FlaskClient) -> None:
    page = parse(client.get("/games/new?lang=nl").data)
    link = page.find("details", data_lang_menu=True).find("a", lang="es")
    again = parse(client.get(link.attrs["href"]).data)
    assert again.find("html").attrs["lang"] == "es"
    assert again.find("h1").text() == "Nueva partida"


# --- the JSON API ---


@pytest.mark.parametrize(
    ("call", "status", "code"),
    [
        (lambda c, h: c.post("/api/games", data="nope", headers=h,
                             content_type="application/json"), 400, "bad_request"),
        (lambda c, h: c.get("/api/games/999", headers=h), 404, "not_found"),
        (lambda c, h: c.post("/api/games", json={"players": ["Ann"]}, headers=h),
         400, "invalid_players"),
        (lambda c, h: c.get("/api/games?limit=0", headers=h), 400, "bad_request"),
    ],
)
def test_api_errors_follow_accept_language_with_the_same_code(
    client: FlaskClient, call: Any, status: int, code: str
) -> None:
    said = {}
    for language in LANGS:
        response = call(client, {"Accept-Language": language})
        body = response.get_json()
        assert response.status_code == status
        assert body["error"]["code"] == code
        said[language] = body["error"]["message"]
    assert len(set(said.values())) == len(LANGS), said


def test_the_api_ignores_the_pages_language_cookie(client: FlaskClient) -> None:
    client.get("/?lang=nl")
    english = client.get("/api/games/999").get_json()["error"]["message"]
    french = client.get("/api/games/999", headers={"Accept-Language": "fr"})
    assert english == "There is no game 999."
    assert french.get_json()["error"]["message"] == "Il n'y a pas de partie 999."


def test_an_illegal_move_is_refused_in_the_callers_language(table: Any) -> None:
    game = table.new(["Ann", "Bob"])
    game.place((0, 0, "red", "circle"))
    response = game.client.post(
        f"{game.url}/moves", headers={**game.headers, "Accept-Language": "de"},
        json={"type": "place", "tiles": [
            {"row": 0, "col": 0, "color": "blue", "shape": "circle"}]},
    )
    error = response.get_json()["error"]
    assert (response.status_code, error["code"]) == (422, "occupied")
    assert error["message"] == (
        "Auf diesem Feld liegt schon ein Stein: roter Kreis."
    )


def test_a_preview_speaks_the_callers_language(table: Any) -> None:
    game = table.new(["Ann", "Bob"])
    answer = game.client.post(
        f"{game.url}/preview", headers={**game.headers, "Accept-Language": "es"},
        json={"type": "place", "tiles": [
            {"row": 0, "col": 0, "color": "red", "shape": "circle"},
            {"row": 0, "col": 1, "color": "red", "shape": "square"}]},
    ).get_json()
    assert answer["text"] == "línea roja 2 = 2"


# --- pages, forms and flashes ---


def test_wtforms_own_messages_are_translated(client: FlaskClient) -> None:
    response = client.post("/games/new?lang=nl", data={
        "names-0": "Ann", "names-1": "Bob", "openings-0": "vier",
    })
    errors = [e.text() for e in parse(response.data).find_all("p", class_="error")]
    assert "Ongeldig getal." in errors
    assert "Not a valid integer value." not in errors


def test_the_name_rule_refuses_in_the_pages_language(client: FlaskClient) -> None:
    response = client.post("/games/new?lang=fr", data={"names-0": "Ann"})
    assert "Saisissez au moins deux noms de joueurs." in response.get_data(True)


def test_a_flash_message_is_in_the_pages_language(
    client: FlaskClient, table: Any
) -> None:
    client.get("/?lang=es")
    game = table.new(["Ann", "Bob"])
    client.get(f"/games/{game.id}/join/{game.token}")
    page = parse(client.get(f"/games/{game.id}").data)
    assert page.find("p", class_="flash").text() == (
        "Este dispositivo ya puede introducir jugadas en esta partida."
    )


def test_numbers_are_written_as_the_language_writes_them(
    client: FlaskClient, table: Any
) -> None:
    record = corpus_record("classic-10001.json")
    table.import_record(record)
    name = record["players"][0]
    english = parse(client.get(f"/players/{name}?lang=en").data)
    dutch = parse(client.get(f"/players/{name}?lang=nl").data)
    per_turn = english.find("dd", data_stat="per_turn").text()
    assert "." in per_turn
    assert dutch.find("dd", data_stat="per_turn").text() == per_turn.replace(".", ",")


def test_a_count_meets_its_noun_in_the_singular(
    client: FlaskClient, table: Any
) -> None:
    game = table.new(["Ann", "Bob"])
    game.place((0, 0, "red", "circle"))
    home = parse(client.get("/?lang=en").data).find("ul", data_running=True).text()
    assert "1 move" in home and "1 moves" not in home
    replay = parse(client.get(f"/games/{game.id}/replay?lang=de").data)
    assert replay.find("p", class_="replay-move").text().startswith(
        "1 Stein gelegt: 1 Punkt"
    )


# --- the PDF ---


def pdf_text(data: bytes) -> str:
    """Return the text of every page of a PDF."""
    return "\n".join(page.extract_text() for page in PdfReader(io.BytesIO(data)).pages)


def test_the_pdf_prints_greek_and_cyrillic_names_in_the_pages_language(
    client: FlaskClient, table: Any
) -> None:
    record = corpus_record("classic-10001.json")
    record["players"] = ["Σοφία", "Дмитрий"]
    game = table.import_record(record)
    client.set_cookie("tz", "Europe/Amsterdam")
    client.get("/?lang=nl")

    data = client.get(f"/games/{game.id}/scoresheet.pdf").data
    said = pdf_text(data)

    assert "Σοφία" in said and "Дмитрий" in said
    assert f"Qwirkle-scoreblad – spel {game.id}" in said
    assert "Ronde" in said and "Totaal" in said
    assert "UTC" not in said  # the zone is the device's, named by its cookie
    assert PdfReader(io.BytesIO(data)).trailer["/Root"]["/Lang"] == "nl"
    english = pdf_text(client.get(
        f"/games/{game.id}/scoresheet.pdf?lang=en").data)
    assert "Round" in english and "Ronde" not in english


def test_the_pdf_uses_the_font_shipped_in_the_package() -> None:
    import scorekeeper
    from scorekeeper.formats import pdf

    package = Path(scorekeeper.__file__).resolve().parent
    assert pdf.FONT.is_file() and pdf.FONT.is_relative_to(package)
    assert (pdf.FONT.parent / "DejaVuSans-LICENSE.txt").is_file()


def test_the_csv_keeps_its_english_header_row(
    client: FlaskClient, table: Any
) -> None:
    game = table.import_record(corpus_record("classic-10001.json"))
    client.get("/?lang=de")
    csv = client.get(f"/games/{game.id}/scoresheet.csv",
                     headers={"Accept-Language": "de"}).get_data(True)
    assert csv.lstrip("\ufeff").splitlines()[0].startswith("Round,")
    assert "Total" in csv


def test_board_js_gets_one_ready_sentence_per_count_in_the_pages_language(
    client: FlaskClient, table: Any
) -> None:
    game = table.new(["Ann", "Bob"])
    client.get(f"/games/{game.id}/join/{game.token}")
    board = parse(client.get(f"/games/{game.id}?lang=nl").data).find(
        "svg", data_board=True)
    ready = json.loads(board.attrs["data-text"])["ready"]
    assert ready[1] == "1 blokje klaar: bevestig om te scoren."
    assert ready[2] == "2 blokjes klaar: bevestig om te scoren."
    assert len(ready) == 7  # 0 unused, then up to a full hand


def test_a_requests_language_ends_with_the_request(app: Any) -> None:
    dutch, other = app.test_client(), app.test_client()
    assert html_lang(dutch, "/?lang=nl") == "nl"
    # The same worker thread next serves someone else, and code outside requests.
    assert html_lang(other, headers={"Accept-Language": "fr"}) == "fr"
    assert i18n.current().code == "en"
    assert html_lang(dutch) == "nl"
