"""Every page a person can reach, at the table and after: what axe-core
finds in the light and the dark scheme, tap targets of at least 44 CSS px, and
no page that scrolls sideways on a 360 px phone."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from corpus import GAMES as CORPUS
from flask import Flask
from playwright.sync_api import expect

from .helpers import PHONE, tap_cell

pytestmark = pytest.mark.browser

SMALL_PHONE = {
    "viewport": {"width": 360, "height": 640}, "is_mobile": True, "has_touch": True
}


def imported(app: Flask, name: str, moves: int | None = None) -> dict[str, Any]:
    """Import a corpus game (its first `moves` moves); return the API's answer."""
    record = json.loads((CORPUS / name).read_text())
    if moves is not None:
        record["moves"] = record["moves"][:moves]
        record["final"] = None
    return app.test_client().post("/api/games/import", json=record).get_json()


def closed(app: Flask, name: str, moves: int, reason: str) -> dict[str, Any]:
    """Import the start of a corpus game, then end or abandon it there."""
    created = imported(app, name, moves)
    answer = app.test_client().post(
        f"/api/games/{created['id']}/close", json={"reason": reason},
        headers={"X-Edit-Token": created["edit_token"]},
    )
    assert answer.status_code == 200
    return created


def strict(app: Flask) -> dict[str, Any]:
    """A game with table discipline (RULES §7): a clock, and its first player
    excluded for an illegal move."""
    client = app.test_client()
    created = client.post("/api/games", json={
        "players": ["Ann", "Bob", "Cy"],
        "options": {"move_seconds": 60, "on_illegal": "exclude",
                    "on_timeout": "deduct", "penalty_points": 5},
    }).get_json()
    answer = client.post(
        f"/api/games/{created['id']}/moves",
        json={"type": "penalty", "reason": "illegal"},
        headers={"X-Edit-Token": created["edit_token"]},
    )
    assert answer.status_code == 201
    return created


def club_night(app: Flask) -> dict[str, Any]:
    """A club night with a finished table (a corpus game) and a running one."""
    client = app.test_client()
    event = client.post("/api/events", json={"name": "Club night"}).get_json()
    token = {"X-Event-Token": event["edit_token"]}
    record = json.loads((CORPUS / "classic-10005.json").read_text())
    answer = client.post(f"/api/games/import?event={event['id']}", json=record,
                         headers=token)
    assert answer.status_code == 201
    answer = client.post("/api/games", headers=token, json={
        "players": ["Anna", "Chris", "Dana"], "event": event["id"]})
    assert answer.status_code == 201
    # In a season with a roster: its page, TV view and change page too.
    season = client.post("/api/seasons", json={"name": "Winter"}).get_json()
    assert client.patch(f"/api/events/{event['id']}", json={"season": season["id"]},
                        headers=token).status_code == 200
    assert client.post(f"/api/seasons/{season['id']}/roster", headers=token,
                       json={"add": ["Anna", "Chris", "Dana"]}).status_code == 200
    return {**event, "season": season["id"]}


def opened(page: Any) -> None:
    """Open every fold on the page (menus, advanced options) so that what they
    hold is checked too, and wait until the page has settled."""
    page.wait_for_load_state("load")
    page.evaluate("document.querySelectorAll('details').forEach(d => d.open = true)")
    page.wait_for_timeout(50)


def every_page(page: Any, app: Flask, base: str) -> Iterator[str]:
    """Bring `page` to each page and state a person can reach, in turn; yield
    its name once it is there."""
    playing = imported(app, "classic-10001.json", 30)
    over = imported(app, "classic-10002.json")
    ended = closed(app, "classic-10003.json", 20, "ended")
    abandoned = closed(app, "classic-10004.json", 12, "abandoned")
    timed = strict(app)
    # This browser may enter moves in every game (the join link's cookie).
    for game in (timed, over, ended, abandoned, playing):
        page.goto(f"{base}/games/{game['id']}/join/{game['edit_token']}")
        page.wait_for_selector("[data-board][data-drawn]")
    # The game page, as it is playing, then with the picker open for a cell.
    opened(page)
    yield "game"
    page.goto(f"{base}/games/{playing['id']}")
    page.wait_for_selector("[data-board][data-drawn]")
    # A cell some tile may go to, as the server says: the page marks the dead
    # ones only once its first answer is in, later on a loaded machine.
    options = page.request.get(f"{base}/games/{playing['id']}/options?tiles=[]").json()
    cell = max(sorted(options["cells"]), key=lambda at: len(options["cells"][at]))
    tap_cell(page, *(int(x) for x in cell.split(",")))
    expect(page.locator("[data-picker]")).to_be_visible()
    yield "game, picker open"
    # Colour-blind mode puts a letter on every tile (and on the picker's).
    page.tap("[data-cb-toggle]")
    yield "game, picker open, colour-blind"
    page.tap("[data-cb-toggle]")
    # A tile picked: the pending move and what it would score, once the
    # picker has the server's answer for the cell (a loaded machine is slow).
    expect(page.locator("[data-picker][data-ready]")).to_be_visible()
    page.tap("[data-picker] .picker-grid [data-kind]:not(.off)")
    expect(page.locator("[data-preview]")).not_to_be_empty()
    yield "game, a tile picked"
    # The clock running, and a player out of the game.
    page.goto(f"{base}/games/{timed['id']}")
    page.wait_for_selector("[data-board][data-drawn]")
    expect(page.locator("[data-excluded-players]")).to_be_visible()
    opened(page)
    yield "game with table discipline"
    # A club night (CONTRACT §14) this browser joined by its link: its page with
    # the seating form and the join code, then with tables suggested.
    event = club_night(app)
    page.goto(f"{base}/events/{event['id']}/join/{event['edit_token']}")
    opened(page)
    yield "club night"
    page.tap("[data-suggest]")
    page.wait_for_selector("[data-suggestion]")
    opened(page)
    yield "club night, tables suggested"
    playing_id, over_id = playing["id"], over["id"]
    pages = {
        "home": "/",
        "new game": "/games/new",
        "final screen": f"/games/{over_id}",
        "ended game": f"/games/{ended['id']}",
        "abandoned game": f"/games/{abandoned['id']}",
        "undo": f"/games/{playing_id}/undo",
        "who leaves": f"/games/{playing_id}/leave",
        "a player leaves": f"/games/{playing_id}/leave?player=1",
        "teach the colours": f"/games/{playing_id}/colours",
        "table view": f"/games/{playing_id}/tv",
        "table view, game over": f"/games/{over_id}/tv",
        "history": "/history",
        "replay": f"/games/{over_id}/replay?move=5",
        "replay, start": f"/games/{over_id}/replay?move=0",
        "analysis": f"/games/{over_id}/analysis",
        "score sheet": f"/games/{over_id}/scoresheet",
        "BG Stats": f"/games/{over_id}/bgstats",
        "correction": f"/games/{over_id}/moves/3/edit",
        "rename": f"/games/{over_id}/rename",
        "delete": f"/games/{over_id}/delete",
        "players": "/players",
        "player": "/players/Anna",
        "head-to-head": "/head-to-head?a=Anna&b=Chris",
        "head-to-head, empty": "/head-to-head",
        "club nights": "/events",
        "club night TV view": f"/events/{event['id']}/tv",
        "club night standings": f"/events/{event['id']}/standings",
        "club night, rename or delete": f"/events/{event['id']}/edit",
        "seasons": "/seasons",
        "season": f"/seasons/{event['season']}",
        "season TV view": f"/seasons/{event['season']}/tv",
        "season, rename or delete": f"/seasons/{event['season']}/edit",
        "import": "/import",
        "restore": "/restore",
        "admin, asking for the PIN": "/admin",
        "admin, opened by the admin link": f"/admin/key/{app.config['ADMIN_KEY']}",
        "not found": "/no-such-page",
        "game not found": "/games/999999",
    }
    for name, path in pages.items():
        page.goto(base + path)
        opened(page)
        yield name
    # A club night deleted on another device while its TV view, then another
    # night's page, is open: each says so (they poll every 100 ms here).
    app.config["LIVE_POLL_MS"] = 100
    client = app.test_client()
    bare = client.post("/api/events", json={"name": "Short night"}).get_json()
    for night, path in ((event, "/tv"), (bare, "")):
        page.goto(f"{base}/events/{night['id']}{path}")
        page.wait_for_load_state("load")
        client.delete(f"/api/events/{night['id']}",
                      headers={"X-Event-Token": night["edit_token"]})
        expect(page.locator("[data-event-gone]")).to_be_visible()
        yield f"club night{path.replace('/', ' ')}, deleted meanwhile"
    # Another phone at the table, without the right to enter moves.
    page.context.clear_cookies()
    page.goto(f"{base}/games/{playing_id}")
    page.wait_for_selector("[data-board][data-drawn]")
    opened(page)
    yield "game, watching"
    page.goto(f"{base}/games/{over_id}/delete")
    opened(page)
    yield "not allowed"


AXE = Path(__file__).parent / "axe" / "axe.min.js"
"""axe-core from npm, newer than axe-playwright-python's copy (axe/README.md)."""

AXE_VERSION = "4.14.1"


def axe_violations(page: Any) -> list[tuple[str, str, str]]:
    """Run axe-core (the vendored copy) on the page; return the serious and
    critical violations as (rule, impact, count, first element)."""
    page.add_script_tag(path=str(AXE))
    assert page.evaluate("axe.version") == AXE_VERSION
    found = page.evaluate("""async () => (await axe.run(document, {
        resultTypes: ['violations'],
        // Experimental in axe, and the one the issue reported on the picker.
        rules: {'label-content-name-mismatch': {enabled: true}},
    })).violations.map(v => [v.id, v.impact, v.nodes.length,
                             v.nodes[0].html.slice(0, 120)])""")
    return [tuple(v) for v in found if v[1] in ("serious", "critical")]


@pytest.mark.long
@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_axe_finds_no_serious_violation_on_any_page(
    live_app: Flask, live_server: str, browser: Any, scheme: str
) -> None:
    context = browser.new_context(**PHONE, bypass_csp=True, color_scheme=scheme)
    page = context.new_page()
    found = {}
    for name in every_page(page, live_app, live_server):
        assert page.evaluate("matchMedia('(prefers-color-scheme: dark)').matches") \
            == (scheme == "dark")
        found[name] = axe_violations(page)
    assert len(found) >= 25
    bad = {name: v for name, v in found.items() if v}
    assert not bad, json.dumps(bad, indent=1)


SMALL_TARGETS = """() => [...document.querySelectorAll(
    'a[href], button, summary, input:not([type=hidden]), select, textarea,'
    + ' [role=button], [tabindex]:not(svg)')]
  .filter(e => {
    const r = e.getBoundingClientRect();
    return r.width > 0 && r.height > 0 && getComputedStyle(e).visibility !== 'hidden';
  })
  .map(e => {
    // A radio, a checkbox or a (hidden) file input is tapped through its label.
    const t = ['radio', 'checkbox', 'file'].includes(e.type) && e.closest('label') || e;
    const r = t.getBoundingClientRect();
    return [t.tagName + ' ' + (t.textContent || t.name || '').trim().slice(0, 30),
            Math.round(r.width * 10) / 10, Math.round(r.height * 10) / 10];
  })
  .filter(([, w, h]) => w < 44 || h < 44)"""

WIDER_THAN_SCREEN = """() => {
    // The phone's width: innerWidth grows with what sticks out (a phone zooms
    // out to show it), the root's clientWidth stays.
    const screen = document.documentElement.clientWidth;
    const wide = document.documentElement.scrollWidth;
    if (wide <= screen) return null;
    // What sticks out, for the failure's message.
    const out = [...document.body.querySelectorAll('*')]
      .filter(e => e.getBoundingClientRect().right > screen + 0.5)
      .map(e => e.tagName + '.' + e.className);
    return [wide, out.slice(0, 3)];
}"""


@pytest.mark.long
@pytest.mark.parametrize("phone", [PHONE, SMALL_PHONE], ids=["390x844", "360x640"])
def test_every_control_and_link_is_at_least_44_px_and_no_page_scrolls_sideways(
    live_app: Flask, live_server: str, browser: Any, phone: dict[str, Any]
) -> None:
    page = browser.new_context(**phone).new_page()
    small, wide = {}, {}
    for name in every_page(page, live_app, live_server):
        small[name] = page.evaluate(SMALL_TARGETS)
        wide[name] = page.evaluate(WIDER_THAN_SCREEN)
    assert len(small) >= 25
    too_small = {name: found for name, found in small.items() if found}
    too_wide = {name: found for name, found in wide.items() if found}
    assert not too_small, json.dumps(too_small, indent=1)
    assert not too_wide, json.dumps(too_wide, indent=1)
