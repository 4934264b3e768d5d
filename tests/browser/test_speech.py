"""Say the score aloud: with the browser's speech replaced by a
recorder, a device that turned the switch on says a move another device
entered, in the page's language; the switch is remembered; a device with no
voice for the language says so once and uses the nearest."""

from __future__ import annotations

import json
from typing import Any

import pytest
from corpus import GAMES as CORPUS
from flask import Flask
from playwright.sync_api import expect

from .helpers import PHONE, open_menu

pytestmark = pytest.mark.browser

RECORDER = """
(function () {
  var voices = %s;
  window.__spoken = [];
  function Utterance(text) { this.text = text; this.lang = ""; this.voice = null; }
  window.SpeechSynthesisUtterance = Utterance;
  var synth = {
    speak: function (u) {
      var voice = u.voice && u.voice.name;
      window.__spoken.push({text: u.text, lang: u.lang, voice: voice});
      // Kept across a reload too (the TV reloads for its final screen).
      var kept = JSON.parse(sessionStorage.getItem("spoken") || "[]");
      sessionStorage.setItem("spoken", JSON.stringify(kept.concat([u.text])));
      setTimeout(function () { if (u.onend) { u.onend({}); } }, 10);
    },
    cancel: function () {}, pause: function () {}, resume: function () {},
    getVoices: function () { return voices; },
    addEventListener: function () {}, speaking: false, pending: false
  };
  Object.defineProperty(window, "speechSynthesis", {value: synth, configurable: true});
})();
"""
"""An init script: window.speechSynthesis and SpeechSynthesisUtterance become
recorders of what the page says (with the voices given)."""

DUTCH_AND_ENGLISH = [{"name": "Xander", "lang": "nl-NL", "default": False},
                     {"name": "Daniel", "lang": "en-GB", "default": True}]
NO_ENGLISH = [{"name": "Xander", "lang": "nl-NL", "default": True},
              {"name": "Anna", "lang": "de-DE", "default": False}]


def spoken(page: Any) -> list[dict[str, Any]]:
    return page.evaluate("window.__spoken")


def wait_spoken(page: Any, count: int) -> list[dict[str, Any]]:
    """Wait (up to 12 s: the page polls every 3 s) until `count` things were said."""
    page.wait_for_function(f"() => window.__spoken.length >= {count}",
                           timeout=12_000)
    return spoken(page)


@pytest.mark.parametrize(("lang", "voices", "switch", "on", "move", "voice", "note"), [
    ("nl", DUTCH_AND_ENGLISH, "Score hardop voorlezen",
     "De score wordt hardop voorgelezen.", "Anna: 2 punten.", "Xander", None),
    ("en", NO_ENGLISH, "Say the score aloud", "The score will be said aloud.",
     "Anna: 2 points.", "Xander",
     "This device has no English voice: it uses the nearest one (Xander (nl-NL))."),
])
def test_a_move_from_another_device_is_said_in_the_pages_language(
    live_app: Flask, live_server: str, browser: Any, lang: str, voices: list[Any],
    switch: str, on: str, move: str, voice: str, note: str | None,
) -> None:
    api = live_app.test_client()
    created = api.post("/api/games", json={"players": ["Anna", "Bob"]}).get_json()
    context = browser.new_context(**PHONE, locale=lang)
    context.add_init_script(RECORDER % json.dumps(voices))
    page = context.new_page()
    page.goto(f"{live_server}/games/{created['id']}?lang={lang}")
    page.wait_for_selector("[data-board][data-drawn]")
    open_menu(page)
    button = page.locator("[data-speech]")
    expect(button).to_have_text(switch)
    expect(button).to_have_attribute("aria-pressed", "false")  # off by default

    # The switch's own tap speaks (Chrome speaks only after a gesture).
    button.tap()
    expect(button).to_have_attribute("aria-pressed", "true")
    said = wait_spoken(page, 1)
    assert said == [{"text": on, "lang": f"{lang}-{'NL' if lang == 'nl' else 'GB'}",
                     "voice": voice}]
    if note:
        expect(page.locator("[data-speech-note]")).to_have_text(note)
    else:
        expect(page.locator("[data-speech-note]")).to_be_hidden()

    # Another device (the API, with the game's edit token) enters a move.
    answer = api.post(
        f"/api/games/{created['id']}/moves",
        headers={"X-Edit-Token": created["edit_token"]},
        json={"type": "place", "tiles": [
            {"row": 0, "col": 0, "color": "red", "shape": "circle"},
            {"row": 0, "col": 1, "color": "red", "shape": "square"}]})
    assert answer.status_code == 201
    said = wait_spoken(page, 2)
    assert [s["text"] for s in said] == [on, move]
    assert said[1]["voice"] == voice

    # Remembered on this device: on after a reload, and the missing voice is
    # not announced twice.
    page.reload()
    page.wait_for_selector("[data-board][data-drawn]")
    expect(page.locator("[data-speech]")).to_have_attribute("aria-pressed", "true")
    api.post(f"/api/games/{created['id']}/moves",
             headers={"X-Edit-Token": created["edit_token"]},
             json={"type": "trade", "count": 2})
    said = wait_spoken(page, 1)
    assert [s["text"] for s in said] == [
        "Bob ruilde 2 blokjes." if lang == "nl" else "Bob traded 2 tiles."]
    expect(page.locator("[data-speech-note]")).to_be_hidden()
    context.close()


def test_the_switch_off_says_nothing(
    live_app: Flask, live_server: str, browser: Any
) -> None:
    api = live_app.test_client()
    created = api.post("/api/games", json={"players": ["Anna", "Bob"]}).get_json()
    context = browser.new_context(**PHONE)
    context.add_init_script(RECORDER % json.dumps(DUTCH_AND_ENGLISH))
    page = context.new_page()
    page.goto(f"{live_server}/games/{created['id']}")
    page.wait_for_selector("[data-board][data-drawn]")
    api.post(f"/api/games/{created['id']}/moves",
             headers={"X-Edit-Token": created["edit_token"]},
             json={"type": "place", "tiles": [
                 {"row": 0, "col": 0, "color": "red", "shape": "circle"}]})
    expect(page.locator("section.scores [data-total]").first).to_have_text(
        "1", timeout=12_000)
    assert spoken(page) == []
    context.close()


def test_the_tv_says_the_last_move_then_the_winner_and_totals(
    live_app: Flask, live_server: str, browser: Any
) -> None:
    record = json.loads((CORPUS / "classic-10001.json").read_text())
    last = record["moves"].pop()
    record["final"] = None
    api = live_app.test_client()
    created = api.post("/api/games/import", json=record).get_json()
    context = browser.new_context(viewport={"width": 1280, "height": 720})
    context.add_init_script(RECORDER % json.dumps(DUTCH_AND_ENGLISH))
    page = context.new_page()
    page.goto(f"{live_server}/games/{created['id']}/tv")
    page.locator("[data-speech]").click()
    wait_spoken(page, 1)
    answer = api.post(f"/api/games/{created['id']}/moves",
                      headers={"X-Edit-Token": created["edit_token"]},
                      json={"type": "place", "tiles": last["tiles"]})
    assert answer.status_code == 201
    state = api.get(f"/api/games/{created['id']}").get_json()
    names = record["players"]
    mover = names[state["moves"][-1]["player"]]
    points = state["moves"][-1]["score"] + state["last_move"]["end_bonus"]
    winner = max(range(len(names)), key=lambda seat: state["final"]["scores"][seat])
    # The final screen comes after the sentence (a reload: the recorder keeps
    # what was said in sessionStorage).
    expect(page.locator("main.tv.finished")).to_have_count(1, timeout=15_000)
    said = json.loads(page.evaluate("sessionStorage.getItem('spoken')"))
    assert said[0] == "The score will be said aloud."
    assert said[1].startswith(f"{mover}: {points} points")
    assert f"Game over. The winner is {names[winner]}. Totals: {names[winner]} " in (
        said[1])
    context.close()


def test_a_page_nobody_tapped_says_what_lets_it_speak(
    live_app: Flask, live_server: str, browser: Any
) -> None:
    api = live_app.test_client()
    created = api.post("/api/games", json={"players": ["Anna", "Bob"]}).get_json()
    context = browser.new_context(viewport={"width": 1280, "height": 720})
    # The switch was turned on earlier on this device; Chrome refuses speech
    # on a page without a gesture ("not-allowed").
    context.add_init_script(
        (RECORDER % json.dumps(DUTCH_AND_ENGLISH)).replace(
            "setTimeout(function () { if (u.onend) { u.onend({}); } }, 10);",
            "setTimeout(function () { u.onerror({error: 'not-allowed'}); }, 10);")
        + "localStorage.setItem('scorekeeper.speech', 'on');")
    page = context.new_page()
    page.goto(f"{live_server}/games/{created['id']}/tv")
    expect(page.locator("[data-speech]")).to_have_attribute("aria-pressed", "true")
    api.post(f"/api/games/{created['id']}/moves",
             headers={"X-Edit-Token": created["edit_token"]},
             json={"type": "place", "tiles": [
                 {"row": 0, "col": 0, "color": "red", "shape": "circle"}]})
    note = page.locator("[data-speech-note]")
    expect(note).to_have_text(
        "The browser speaks only once the page has been tapped: tap anywhere on it.",
        timeout=12_000)
    assert [s["text"] for s in spoken(page)] == ["Anna: 1 point."]
    page.mouse.click(600, 600)
    expect(note).to_be_hidden()
    context.close()


def test_the_switch_on_survives_a_browser_restart_and_speech_js_waits_for_it(
    live_app: Flask, live_server: str, browser: Any
) -> None:
    """speech.js is fetched only once the switch is on (the game page's 30 KB,
    bench_page.py): off, a page and a move later nobody asked for it; tapped,
    it comes and speaks; after a browser restart (a new context with this one's
    storage) the next move another device enters is said without a tap on the
    switch."""
    api = live_app.test_client()
    created = api.post("/api/games", json={"players": ["Anna", "Bob"]}).get_json()
    game = f"{live_server}/games/{created['id']}"

    def move(tiles: list[dict[str, Any]]) -> None:
        answer = api.post(f"/api/games/{created['id']}/moves",
                          headers={"X-Edit-Token": created["edit_token"]},
                          json={"type": "place", "tiles": tiles})
        assert answer.status_code == 201

    def opened(context: Any) -> tuple[Any, list[str]]:
        context.add_init_script(RECORDER % json.dumps(DUTCH_AND_ENGLISH))
        page = context.new_page()
        fetched: list[str] = []
        page.on("request", lambda request: fetched.append(request.url))
        page.goto(game)
        page.wait_for_selector("[data-board][data-drawn]")
        return page, fetched

    def speech_js(fetched: list[str]) -> list[str]:
        return [url for url in fetched if "/assets/speech.js" in url]

    first = browser.new_context(**PHONE)
    page, fetched = opened(first)
    open_menu(page)
    button = page.locator("[data-speech]")
    expect(button).to_be_visible()
    expect(button).to_have_attribute("aria-pressed", "false")
    move([{"row": 0, "col": 0, "color": "red", "shape": "circle"}])
    expect(page.locator("section.scores [data-total]").first).to_have_text(
        "1", timeout=12_000)
    assert any("/assets/game.js" in url for url in fetched)
    assert speech_js(fetched) == []
    assert spoken(page) == []

    button.tap()
    expect(button).to_have_attribute("aria-pressed", "true")
    said = wait_spoken(page, 1)
    assert [s["text"] for s in said] == ["The score will be said aloud."]
    assert len(speech_js(fetched)) == 1
    stored = first.storage_state()
    first.close()

    second = browser.new_context(**PHONE, storage_state=stored)
    page, fetched = opened(second)
    expect(page.locator("[data-speech]")).to_have_attribute("aria-pressed", "true")
    assert len(speech_js(fetched)) == 1
    move([{"row": 0, "col": 1, "color": "red", "shape": "square"}])
    assert [s["text"] for s in wait_spoken(page, 1)] == ["Bob: 2 points."]
    second.close()
