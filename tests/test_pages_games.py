"""The table app's pages via the test client: what a player sees, what is stored."""

from __future__ import annotations

import json
from html.parser import HTMLParser
from typing import Any

import pytest
from conftest import new_game, tiles_json, token_of
from corpus import GAMES as CORPUS
from flask.testing import FlaskClient

SAMPLE = [
    [(0, 0, "red", "clover"), (0, 1, "red", "diamond"), (0, 2, "red", "circle")],
    [(0, 3, "red", "square"), (1, 3, "blue", "square"), (2, 3, "green", "square")],
    [(1, 2, "blue", "circle")],
    [(-1, 0, "green", "clover"), (-1, 1, "green", "diamond")],
]
"""The rulebook sample game's first four moves (002/004), scoring 3, 7, 4, 6."""


# --- a small parsed-HTML helper (standard library only) ---


class Node:
    """One element: tag, attributes, children and text."""

    def __init__(self, tag: str, attrs: dict[str, str], parent: Node | None) -> None:
        self.tag = tag
        self.attrs = attrs
        self.parent = parent
        self.children: list[Node] = []
        self.parts: list[str] = []

    @property
    def text(self) -> str:
        """The element's text, white space collapsed."""
        out: list[str] = []

        def walk(node: Node) -> None:
            out.extend(node.parts)
            for child in node.children:
                walk(child)

        walk(self)
        return " ".join(" ".join(out).split())

    def classes(self) -> set[str]:
        """The element's class names."""
        return set(self.attrs.get("class", "").split())

    def iter(self) -> list[Node]:
        """This element and all below it, in document order."""
        found = [self]
        for child in self.children:
            found.extend(child.iter())
        return found

    def find_all(self, selector: str) -> list[Node]:
        """Elements matching "tag", ".class", "[attr]" or "tag.class" (one level)."""
        tag, _, rest = selector.partition(".")
        attr = None
        if tag.startswith("["):
            attr, tag = tag.strip("[]"), ""
        return [
            n for n in self.iter()[1:]
            if (not tag or n.tag == tag)
            and (not rest or rest in n.classes())
            and (attr is None or attr in n.attrs)
        ]

    def find(self, selector: str) -> Node:
        """The first element matching selector (fails the test when there is none)."""
        found = self.find_all(selector)
        assert found, f"no element matches {selector!r}"
        return found[0]


VOID = {"meta", "link", "input", "br", "img", "hr", "use", "rect", "path",
        "circle", "polygon", "source", "col", "area", "base", "wbr"}


class _Builder(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.root = Node("#document", {}, None)
        self.cur = self.root

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        node = Node(tag, {k: v or "" for k, v in attrs}, self.cur)
        self.cur.children.append(node)
        if tag not in VOID:
            self.cur = node

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.cur.children.append(Node(tag, {k: v or "" for k, v in attrs}, self.cur))

    def handle_endtag(self, tag: str) -> None:
        node: Node | None = self.cur
        while node is not None and node.tag != tag:
            node = node.parent
        if node is not None and node.parent is not None:
            self.cur = node.parent

    def handle_data(self, data: str) -> None:
        self.cur.parts.append(data)


def parse(html: bytes | str) -> Node:
    """Parse a page into Nodes."""
    builder = _Builder()
    builder.feed(html.decode() if isinstance(html, bytes) else html)
    return builder.root


# --- helpers ---


def place(
    client: FlaskClient, game_id: int, tiles: list[tuple], status: int = 201
) -> Any:
    """Place tiles through the JSON API with the session's token."""
    response = client.post(
        f"/api/games/{game_id}/moves",
        json={"type": "place", "tiles": tiles_json(tiles)},
        headers={"X-Edit-Token": token_of(client, game_id)},
    )
    assert response.status_code == status, response.get_json()
    return response.get_json()


def state(client: FlaskClient, game_id: int) -> dict[str, Any]:
    """The game's API state."""
    return client.get(f"/api/games/{game_id}").get_json()


def page(client: FlaskClient, url: str) -> Node:
    """GET a page, assert 200 and parse it."""
    response = client.get(url)
    assert response.status_code == 200, response.status_code
    return parse(response.data)


def totals(doc: Node) -> list[str]:
    """The players' totals shown in the score strip."""
    return [n.text for n in doc.find("section.scores").find_all("[data-total]")]


def errors(doc: Node) -> str:
    """All error texts on a page."""
    return " ".join(n.text for n in doc.find_all(".error"))


# --- home and new game ---


def test_home_offers_a_new_game_and_lists_running_games(client: FlaskClient) -> None:
    doc = page(client, "/")
    assert any(a.attrs.get("href") == "/games/new" for a in doc.find_all("a"))
    assert "No game is running" in doc.text
    game_id = new_game(client, "Anna", "Chris")
    running = page(client, "/").find("[data-running]")
    link = running.find("a")
    assert link.attrs["href"] == f"/games/{game_id}"
    assert "Anna" in link.text and "Chris" in link.text


def test_base_page_has_csrf_meta_nav_and_no_inline_script(client: FlaskClient) -> None:
    doc = page(client, "/games/new")
    metas = [m for m in doc.find_all("meta") if m.attrs.get("name") == "csrf-token"]
    assert metas and metas[0].attrs["content"]
    hrefs = {a.attrs.get("href") for a in doc.find("nav").find_all("a")}
    assert {"/", "/games/new", "/history", "/players"} <= hrefs
    assert doc.find("[data-cb-toggle]").tag == "button"
    for script in doc.find_all("script"):
        assert script.attrs.get("src"), "inline scripts break the CSP"
        assert not script.text


def test_new_game_stores_names_in_seat_order_and_opens_the_game(
    client: FlaskClient,
) -> None:
    response = client.post(
        "/games/new",
        data={"names-0": "  Anna ", "names-1": "Chris", "names-2": "",
              "names-3": "Dave"},
    )
    assert response.status_code == 302
    game_id = int(response.headers["Location"].rsplit("/", 1)[1])
    got = state(client, game_id)
    assert [p["name"] for p in got["players"]] == ["Anna", "Chris", "Dave"]
    assert got["current_player"] == 0
    assert token_of(client, game_id)


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"names-0": "Anna"}, "at least two"),
        ({"names-0": "Anna", "names-1": " anna "}, "different name"),
        ({"names-0": "Anna", "names-1": "B" * 41}, "at most 40"),
        ({f"names-{i}": f"P{i}" for i in range(5)}, "at most 4 players"),
        ({"names-0": "Anna", "names-1": "Bo", "colors": "9"}, "between 3 and 8"),
        ({"names-0": "Anna", "names-1": "Bo", "starter": "3"}, "seat has no name"),
    ],
)
def test_new_game_refuses_bad_tables_with_a_message(
    client: FlaskClient, data: dict[str, str], message: str
) -> None:
    response = client.post("/games/new", data=data)
    assert response.status_code == 200
    assert message in errors(parse(response.data))
    assert "No game is running" in page(client, "/").text


def test_the_form_suggests_names_already_played(client: FlaskClient) -> None:
    new_game(client, "Anna", "Chris")
    doc = page(client, "/games/new")
    names = {o.attrs["value"] for o in doc.find("datalist").find_all("option")}
    assert names == {"Anna", "Chris"}
    inputs = [i for i in doc.find_all("input") if i.attrs.get("id") == "names-0"]
    assert inputs[0].attrs["list"] == "known-players"


def test_a_custom_set_allows_more_players(client: FlaskClient) -> None:
    names = {f"names-{i}": f"P{i}" for i in range(6)}
    game_id = new_game(client, **names, colors="5", copies="2", hand_size="5")
    got = state(client, game_id)
    assert len(got["players"]) == 6
    assert got["variant"]["colors"] == 5


def test_s2_the_longest_opening_row_starts(client: FlaskClient) -> None:
    game_id = new_game(
        client, "Anna", "Chris", "Sally", **{"openings-0": "2", "openings-1": "4"}
    )
    assert state(client, game_id)["current_player"] == 1
    flash = page(client, f"/games/{game_id}").find("p.flash-info").text
    assert flash == "Chris starts: the longest opening row (4 tiles)."


def test_s2_a_tie_for_the_longest_row_asks_the_table(client: FlaskClient) -> None:
    data = {"names-0": "Anna", "names-1": "Chris", "names-2": "Sally",
            "openings-0": "3", "openings-1": "3", "openings-2": "1"}
    response = client.post("/games/new", data=data)
    assert response.status_code == 200
    doc = parse(response.data)
    assert "Tie for the longest row: Anna, Chris" in errors(doc)
    options = [o.text for o in doc.find("select").find_all("option")]
    assert options[1:] == ["Anna", "Chris"]
    response = client.post("/games/new", data={**data, "starter": "1"})
    assert response.status_code == 302
    game_id = int(response.headers["Location"].rsplit("/", 1)[1])
    assert state(client, game_id)["current_player"] == 1


# --- the game page ---


def test_game_page_shows_totals_bag_tracker_and_entry(client: FlaskClient) -> None:
    # The join link needs an address other devices reach (the command sets it).
    client.application.config.update(LISTEN_HOST="192.168.1.20", LISTEN_PORT=5000)
    game_id = new_game(client, "Anna", "Chris", "Sally", "Dave")
    doc = page(client, f"/games/{game_id}")
    assert totals(doc) == ["0", "0", "0", "0"]
    current = doc.find("div.current")
    assert "Anna" in current.text
    assert doc.find("[data-bag]").text == "84"  # 108 - 4 hands of 6
    cells = doc.find("table.tracker-grid").find_all("td")
    assert len(cells) == 36 and all(c.find(".n").text == "3" for c in cells)
    assert doc.find("[data-entry]").find("[data-confirm]").tag == "button"
    assert len(doc.find("[data-picker]").find_all("[data-kind]")) == 36
    board = doc.find("[data-board]")
    # The page starts from the API's own state (web/state.py), but for its list
    # of moves, which no page script reads.
    board_state = json.loads(doc.find("[data-game-state]").text)
    api_state = client.get(f"/api/games/{game_id}").get_json()
    del api_state["moves"]
    assert board_state == api_state
    assert "data-edit" in board.attrs and board_state["board"] == []
    assert board.attrs["data-api"] == f"/api/games/{game_id}"
    # No trade on the first move, no pass while the bag holds tiles (RULES §5):
    # the forms wait hidden for the page's script to show them.
    assert "hidden" in doc.find("[data-trade]").attrs
    assert "hidden" in doc.find("[data-pass]").attrs
    # The join code is an image loaded when its section opens, for this device.
    code = doc.find("div.qr").find("img")
    assert code.attrs["loading"] == "lazy"
    drawn = client.get(code.attrs["src"])
    assert drawn.status_code == 200 and drawn.mimetype == "image/svg+xml"
    # html.parser lower-cases attribute names; a viewBox lets CSS size the code.
    assert b"viewBox" in drawn.data and b"no-store" in drawn.headers[
        "Cache-Control"].encode()


def test_sample_moves_show_scores_last_move_and_tracker(client: FlaskClient) -> None:
    game_id = new_game(client, "Anna", "Chris", "Sally", "Dave")
    for tiles in SAMPLE[:3]:
        place(client, game_id, tiles)
    doc = page(client, f"/games/{game_id}")
    assert totals(doc) == ["3", "7", "4", "0"]
    assert "Dave" in doc.find("div.current").text
    last = doc.find("[data-last-move]").text
    assert "Sally" in last and "circle line 2" in last and "blue line 2" in last
    assert last.endswith("= 4")
    assert [n.text for n in doc.find_all("span.last")][:3] == ["+3", "+7", "+4"]
    kinds = {td.attrs["data-kind"]: td.find(".n").text
             for td in doc.find("table.tracker-grid").find_all("td")}
    assert kinds["red clover"] == "2" and kinds["blue circle"] == "2"
    assert kinds["purple starburst"] == "3"
    assert doc.find("[data-bag]").text == "77"
    board_state = json.loads(doc.find("[data-game-state]").text)
    assert [(t["row"], t["col"]) for t in board_state["last_move"]["tiles"]] == [(1, 2)]
    assert len(board_state["board"]) == 7
    assert "hidden" not in doc.find("[data-trade]").attrs


def test_a_viewer_without_the_token_sees_no_entry(
    client: FlaskClient, app: Any
) -> None:
    game_id = new_game(client, "Anna", "Chris")
    other = app.test_client()
    doc = page(other, f"/games/{game_id}")
    assert not doc.find_all("[data-entry]")
    assert not doc.find_all("div.qr")
    assert other.get(f"/games/{game_id}/join.svg").status_code == 403
    assert "View only" in doc.text
    assert "data-edit" not in doc.find("[data-board]").attrs
    assert other.post(f"/games/{game_id}/undo", data={}).status_code == 403


def test_the_join_link_lets_a_second_device_edit(client: FlaskClient, app: Any) -> None:
    app.config.update(LISTEN_HOST="192.168.1.20", LISTEN_PORT=5000)
    game_id = new_game(client, "Anna", "Chris")
    token = token_of(client, game_id)
    other = app.test_client()
    assert other.get(f"/games/{game_id}/join/wrong-token").status_code == 404
    response = other.get(f"/games/{game_id}/join/{token}")
    assert response.status_code == 302
    assert response.headers["Location"] == f"/games/{game_id}"
    assert page(other, f"/games/{game_id}").find("[data-entry]")
    qr_link = page(client, f"/games/{game_id}").find("p.join-link").find("a")
    assert qr_link.attrs["href"] == (
        f"http://192.168.1.20:5000/games/{game_id}/join/{token}"
    )


def test_unknown_game_is_404(client: FlaskClient) -> None:
    assert client.get("/games/999").status_code == 404


# --- trade, pass, undo ---


def test_trade_by_form_records_the_move(client: FlaskClient) -> None:
    game_id = new_game(client, "Anna", "Chris")
    place(client, game_id, SAMPLE[0])
    response = client.post(f"/games/{game_id}/trade", data={"count": "2", "turn": "1"})
    assert response.status_code == 302
    moves = state(client, game_id)["moves"]
    assert moves[-1]["type"] == "trade" and moves[-1]["count"] == 2
    doc = page(client, f"/games/{game_id}")
    # The score sheet's mark on the card; the last-move line says it in words.
    assert doc.find_all("span.last")[1].text == "⇄ 2"
    assert "traded 2" in doc.find("[data-last-move]").text


def test_trade_on_the_first_move_is_refused_with_the_engines_message(
    client: FlaskClient,
) -> None:
    game_id = new_game(client, "Anna", "Chris")
    client.post(f"/games/{game_id}/trade", data={"count": "2", "turn": "0"})
    doc = page(client, f"/games/{game_id}")
    assert doc.find("p.flash-error").text
    assert state(client, game_id)["turn"] == 0


def test_pass_is_refused_while_the_bag_holds_tiles(client: FlaskClient) -> None:
    game_id = new_game(client, "Anna", "Chris")
    place(client, game_id, SAMPLE[0])
    client.post(f"/games/{game_id}/pass", data={"turn": "1"})
    assert page(client, f"/games/{game_id}").find("p.flash-error").text
    assert state(client, game_id)["turn"] == 1


def actions(client: FlaskClient, game_id: int) -> set[str]:
    """The move forms the game page offers: "trade", "pass"."""
    forms = page(client, f"/games/{game_id}").find_all("form")
    return {
        kind for form in forms for kind in ("trade", "pass")
        if form.attrs.get("action", "").endswith(f"/{game_id}/{kind}")
        and "hidden" not in form.attrs  # there for the page's script, not offered
    }


def test_s5_the_page_offers_pass_and_trade_when_the_engine_allows_them(
    client: FlaskClient,
) -> None:
    classic = new_game(client, "Anna", "Chris")
    assert actions(client, classic) == set()  # the first move places tiles
    place(client, classic, SAMPLE[0])
    assert actions(client, classic) == {"trade"}  # the bag holds tiles: no pass


def test_s5_a_set_too_small_for_full_hands_may_pass_on_turn_0(
    client: FlaskClient,
) -> None:
    # 3 colours, 1 copy, hands of 6: nine tiles dealt 5 and 4, the bag empty from
    # the start. The engine allows a pass at once; the page must offer it.
    game_id = new_game(client, "Anna", "Chris", tile_set="custom", colors="3",
                       copies="1", hand_size="6")
    assert state(client, game_id)["bag"] == 0

    assert actions(client, game_id) == {"pass"}
    response = client.post(f"/games/{game_id}/pass", data={"turn": "0"})

    assert response.status_code == 302
    assert state(client, game_id)["moves"] == [
        {"player": 0, "type": "pass", "score": 0}
    ]


def test_a_stale_turn_is_a_conflict_and_stores_nothing(client: FlaskClient) -> None:
    game_id = new_game(client, "Anna", "Chris")
    place(client, game_id, SAMPLE[0])
    place(client, game_id, SAMPLE[1])
    client.post(f"/games/{game_id}/trade", data={"count": "1", "turn": "1"})
    assert "Another device" in page(client, f"/games/{game_id}").find(
        "p.flash-error").text
    assert state(client, game_id)["turn"] == 2


def test_undo_asks_first_then_takes_the_move_back(client: FlaskClient) -> None:
    game_id = new_game(client, "Anna", "Chris")
    place(client, game_id, SAMPLE[0])
    place(client, game_id, SAMPLE[1])
    doc = page(client, f"/games/{game_id}/undo")
    assert "Chris" in doc.text and "= 7" in doc.text
    assert state(client, game_id)["turn"] == 2  # asking changes nothing
    response = client.post(f"/games/{game_id}/undo", data={"turn": "2"})
    assert response.status_code == 302
    assert state(client, game_id)["turn"] == 1
    assert totals(page(client, f"/games/{game_id}")) == ["3", "0"]


def test_undo_reopens_a_finished_game(client: FlaskClient) -> None:
    record = json.loads((CORPUS / "classic-10001.json").read_text())
    response = client.post("/api/games/import", json=record)
    created = response.get_json()
    game_id = created["id"]
    joined = client.get(f"/games/{game_id}/join/{created['edit_token']}")
    assert joined.status_code == 302
    doc = page(client, f"/games/{game_id}")
    ranking = doc.find("ol.ranking").find_all("li")
    final = record["final"]
    assert [int(li.find("span.total").text) for li in ranking] == sorted(
        final["scores"], reverse=True)
    winner = ranking[0]
    assert "winner" in winner.classes()
    finisher = record["players"][final["end_bonus_player"]]
    assert doc.find("[data-reason]").text == (
        f"{finisher} placed their last tile with the bag empty: +6 end bonus."
    )
    assert "end bonus" in doc.find("ol.ranking").text
    assert not doc.find_all("[data-entry]")
    client.post(f"/games/{game_id}/undo", data={"turn": str(len(record["moves"]))})
    assert state(client, game_id)["status"] == "active"
    assert page(client, f"/games/{game_id}").find("[data-entry]")


def test_hand_sizes_show_once_the_bag_is_empty(client: FlaskClient) -> None:
    record = json.loads((CORPUS / "classic-10001.json").read_text())
    created = client.post("/api/games/import", json=record).get_json()
    doc = page(client, f"/games/{created['id']}")
    assert doc.find("[data-bag]").text == "0"
    assert len(doc.find_all("[data-hand]")) == len(record["players"])


# --- CSRF ---


def test_form_posts_need_the_csrf_token(csrf_client: FlaskClient) -> None:
    response = csrf_client.post("/games/new", data={"names-0": "A", "names-1": "B"})
    assert response.status_code == 400
    doc = page(csrf_client, "/games/new")
    token = doc.find("input").attrs["value"]
    response = csrf_client.post(
        "/games/new", data={"csrf_token": token, "names-0": "A", "names-1": "B"}
    )
    assert response.status_code == 302


def test_the_join_link_names_the_address_the_server_listens_on(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from scorekeeper import net

    monkeypatch.setattr(net, "lan_addresses", lambda: ["192.168.1.20"])
    assert net.reachable_url("0.0.0.0", 5000) == "http://192.168.1.20:5000/"
    assert net.reachable_url("192.168.7.7", 8000) == "http://192.168.7.7:8000/"
    assert net.reachable_url("127.0.0.1", 5000) is None
    assert net.reachable_url("::1", 5000) is None
    monkeypatch.setattr(net, "lan_addresses", lambda: [])
    assert net.reachable_url("0.0.0.0", 5000) is None


# --- the picker's options with tiles pending ---


def options(client: FlaskClient, game_id: int, cell: str, tiles: list) -> Any:
    """GET the kinds that fit `cell` together with the pending tiles."""
    return client.get(
        f"/games/{game_id}/options",
        query_string={"cell": cell, "tiles": json.dumps(tiles)},
    )


def test_options_grey_what_cannot_join_the_pending_tiles(client: FlaskClient) -> None:
    game_id = new_game(client, "Anna", "Chris", "Sally", "Dave")
    place(client, game_id, SAMPLE[0])
    place(client, game_id, SAMPLE[1])
    response = options(client, game_id, "2,2", [[1, 2, "blue", "circle"]])
    assert response.status_code == 200
    kinds = set(response.get_json()["kinds"])
    # Under a blue circle and left of a green square: green circle only.
    assert kinds == {"green circle"}
    # A gap may be filled later in the same move: not greyed.
    gap = options(client, game_id, "1,0", [[1, 2, "blue", "circle"]]).get_json()
    assert "blue clover" in gap["kinds"]


def test_options_offer_only_tiles_that_keep_the_line_valid(
    client: FlaskClient,
) -> None:
    game_id = new_game(client, "Anna", "Chris")
    place(client, game_id, [(0, 0, "red", "circle")])
    pending = [[1, 0, "blue", "circle"], [2, 0, "green", "circle"]]
    kinds = options(client, game_id, "3,0", pending).get_json()["kinds"]
    assert "red circle" not in kinds  # duplicate in the line
    assert "yellow circle" in kinds


@pytest.mark.parametrize(
    "query",
    [
        {"cell": "x", "tiles": "[]"},
        {"cell": "1,2", "tiles": "not json"},
        {"cell": "1,2", "tiles": '[[1, 2, "red"]]'},
        {"cell": "1,2", "tiles": '[["1", 2, "red", "circle"]]'},
        {"cell": "1,2", "tiles": '{"a": 1}'},
    ],
)
def test_options_refuse_malformed_queries(
    client: FlaskClient, query: dict[str, str]
) -> None:
    game_id = new_game(client, "Anna", "Chris")
    response = client.get(f"/games/{game_id}/options", query_string=query)
    assert response.status_code == 400
    assert response.get_json()["error"]["code"] == "bad_request"


def test_options_for_an_unknown_game_are_404(client: FlaskClient) -> None:
    assert options(client, 99, "0,0", []).status_code == 404


def answer(client: FlaskClient, game_id: int, query: str) -> Any:
    """GET the options with a raw query; return (status, JSON)."""
    response = client.get(f"/games/{game_id}/options?{query}")
    return response.status_code, response.get_json()


def test_a_cells_options_carry_each_kinds_preview_as_the_preview_call_gives_it(
    client: FlaskClient,
) -> None:
    game_id = new_game(client, "Anna", "Chris", "Sally", "Dave")
    place(client, game_id, SAMPLE[0])
    pending = [[0, 3, "red", "square"]]
    status, got = answer(client, game_id, f"cell=1,3&tiles={json.dumps(pending)}")
    assert status == 200 and got["cell"] == [1, 3] and got["turn"] == 1
    assert "blue square" in got["kinds"] and "blue circle" not in got["kinds"]
    assert set(got["previews"]) == set(got["kinds"])
    for kind in got["kinds"]:
        color, shape = kind.split()
        tiles = [(0, 3, "red", "square"), (1, 3, color, shape)]
        alone = client.post(f"/api/games/{game_id}/preview",
                            json={"type": "place", "tiles": tiles_json(tiles)})
        full = alone.get_json()
        assert got["previews"][kind] == {
            "score": full["score"], "text": full["text"],
            "qwirkles": full["breakdown"]["qwirkles"],
            "ends_game": full["ends_game"], "end_bonus": full["end_bonus"],
        }, kind
    # A gap a later tile may fill: offered, with the refusal the page shows.
    status, gap = answer(client, game_id, f"cell=0,5&tiles={json.dumps(pending)}")
    assert gap["previews"]["red starburst"]["error"]["code"] == "gap"


def test_the_first_tiles_options_for_every_cell_come_in_one_answer(
    client: FlaskClient,
) -> None:
    game_id = new_game(client, "Anna", "Chris")
    place(client, game_id, SAMPLE[0])
    status, everywhere = answer(client, game_id, "tiles=[]")
    assert status == 200 and everywhere["turn"] == 1
    assert answer(client, game_id, "")[1] == everywhere
    assert set(everywhere["cells"]) >= {"0,3", "0,-1", "1,0", "-1,2"}
    for cell, previews in everywhere["cells"].items():
        assert answer(client, game_id, f"cell={cell}&tiles=[]")[1]["previews"] == (
            previews
        ), cell
    assert answer(client, game_id, "tiles=[[0,3,\"red\",\"square\"]]")[0] == 400
    # Several cells with the pending tiles in one answer: each as asked alone.
    pending = json.dumps([[0, 3, "red", "square"]])
    status, several = answer(client, game_id, f"cells=1,3;0,4;-1,3&tiles={pending}")
    assert status == 200 and set(several["cells"]) == {"1,3", "0,4", "-1,3"}
    for cell, previews in several["cells"].items():
        alone = answer(client, game_id, f"cell={cell}&tiles={pending}")[1]
        assert alone["previews"] == previews, cell
    assert answer(client, game_id, "cells=1,3;x&tiles=[]")[0] == 400
    assert answer(client, game_id, "cells=" + ";".join(["1,3"] * 9))[0] == 400
    assert answer(client, game_id, "cells=&tiles=[]")[0] == 400
    assert answer(client, game_id, "cell=x&tiles=[]")[0] == 400


def test_options_say_why_a_greyed_tile_may_not_go_on_a_cell(
    client: FlaskClient,
) -> None:
    game_id = new_game(client, "Anna", "Chris", "Sally", "Dave")
    place(client, game_id, SAMPLE[0])
    status, got = answer(client, game_id, "cell=0,3&tiles=[]&why=blue%20clover")
    assert status == 200
    assert got["kind"] == "blue clover"
    assert got["error"]["code"] == "mixed_line"
    assert "blue clover" in got["error"]["message"]
    # A kind that fits has no refusal.
    status, got = answer(client, game_id, "cell=0,3&tiles=[]&why=red%20square")
    assert (status, got["error"]) == (200, None)
    # A tile not in the set, or why without a cell, is a clear 400.
    for bad in ("cell=0,3&why=gold%20star", "why=red%20square", "cell=0,3&why=red"):
        status, got = answer(client, game_id, bad)
        assert status == 400
        assert got["error"]["code"] == "bad_request"


def test_the_first_tiles_options_list_the_dead_cells(client: FlaskClient) -> None:
    game_id = new_game(client, "Anna", "Chris")
    place(client, game_id, [(0, 0, "red", "circle"), (0, 1, "red", "square")])
    status, got = answer(client, game_id, "tiles=[]")
    assert (status, got["dead"]) == (200, [])
    place(client, game_id, [(-1, 1, "red", "diamond")])
    place(client, game_id, [(1, 0, "blue", "circle")])
    place(client, game_id, [(1, -1, "blue", "clover")])
    status, got = answer(client, game_id, "tiles=[]")
    # (1, 1): its column asks for red, its row for blue; (-1, 0): a circle
    # (column) that is red or a diamond (row) is the red circle, already there.
    assert got["dead"] == [[-1, 0], [1, 1]]
    assert "1,1" not in got["cells"]
    # Asked ahead for some cells, the answer carries no dead list.
    status, got = answer(client, game_id, "cells=1,1;2,0&tiles=[]")
    assert "dead" not in got
