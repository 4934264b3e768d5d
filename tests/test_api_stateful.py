"""The JSON API driven by a hypothesis state machine against a model of the table.

Each run opens one app on its own SQLite file and plays real games through the
test client: tiles come from a simulated bag and hands (tests/stateful_model.py),
legal placements from the engine's move search, and illegal moves, refused
trades and passes, undos, stale turns, bad edit tokens, a second app on the same
file, export/import and the score sheet are mixed in. After every step the API's
state must equal the model's, the tile books must balance, and no answer is 5xx.
"""

from __future__ import annotations

import csv
import io
import json
import shutil
import tempfile
import warnings
from pathlib import Path
from typing import Any

import pytest
from conftest import make_app
from flask import Flask
from hypothesis import HealthCheck, event, settings
from hypothesis import strategies as st
from hypothesis.stateful import (
    RuleBasedStateMachine,
    initialize,
    invariant,
    rule,
)
from stateful_model import TableModel, Tile, all_kinds, assert_state_matches, tiles_json
from werkzeug.test import TestResponse

from scorekeeper import engine

with warnings.catch_warnings():
    # As in tests/engine/conftest.py: keep a failing example readable.
    warnings.simplefilter("ignore", DeprecationWarning)
    try:
        import hypothesis.extra._patching  # noqa: F401
    except Exception:  # pragma: no cover - optional dependency chain
        pass

NAMES = ("Ann", "Bob", "Zoë", "Dee, Jr.")
"""Seat names; one non-ASCII, one needing CSV quotes."""

STATE_VOLATILE = ("id", "created_at", "updated_at", "edit_token")
"""State fields that differ between a game and its imported copy."""


@st.composite
def game_specs(draw: st.DrawFn) -> dict[str, Any]:
    """A new game: 2-4 players, mostly a small set so that games end quickly."""
    players = draw(st.integers(2, 4))
    kind = draw(st.integers(0, 5))
    if kind == 0:
        variant = None  # classic
    elif kind == 1:
        # Three colours twice over, hands of six: played to block, most stall.
        variant = {"colors": 3, "copies": 2, "hand_size": 6}
    else:
        variant = {
            "colors": draw(st.integers(3, 5)),
            "copies": draw(st.integers(1, 2)),
            "hand_size": draw(st.integers(2, 6)),
        }
    return {
        "players": list(NAMES[:players]),
        "variant": variant,
        "spell_variant": draw(st.booleans()),
        "first_player": draw(st.integers(0, players - 1)),
        "seed": draw(st.integers(0, 2**32 - 1)),
    }


ILLEGAL_KINDS = ("empty", "unknown", "occupied", "far", "same_cell", "too_many",
                 "exhausted")
"""The refused placements place_illegal builds, one rule broken each."""


def openness(model: TableModel, tiles: list[Tile]) -> int:
    """Cells left open to the unplayed tiles once tiles are placed."""
    board = model.oracle.board.copy()
    board.play(tiles)
    unplayed = {kind for hand in model.hands for kind in hand} | set(model.bag)
    return sum(len(board.legal_cells(*kind)) for kind in unplayed)


def without(state: dict[str, Any], keys: tuple[str, ...]) -> dict[str, Any]:
    return {k: v for k, v in state.items() if k not in keys}


class ApiMachine(RuleBasedStateMachine):
    """Games played through the API, checked against TableModel after each step."""

    def __init__(self) -> None:
        super().__init__()
        self.folder = Path(tempfile.mkdtemp(prefix="qwirkle-stateful-"))
        self.database = self.folder / "scorekeeper.sqlite3"
        self.apps: list[Flask] = [make_app(self.database)]
        self.serving = 0
        self.games: list[TableModel] = []
        self.current = 0
        self.answered: dict[str, Any] | None = None
        """The state a write answered with: the next GET must show the same."""

    # -- plumbing ----------------------------------------------------------------------

    def call(
        self, method: str, url: str, *, body: Any = None,
        headers: dict[str, str] | None = None, expect: int | None = None,
        app: Flask | None = None,
    ) -> TestResponse:
        """Send one request (no cookies: only the header authorises writes)."""
        client = (app or self.apps[self.serving]).test_client(use_cookies=False)
        response = client.open(url, method=method, json=body, headers=headers)
        assert response.status_code < 500, (method, url, body, response.data[:800])
        if expect is not None:
            assert response.status_code == expect, (
                method, url, body, response.status_code, response.get_json()
            )
        return response

    @property
    def model(self) -> TableModel:
        return self.games[self.current]

    def state_text(self, model: TableModel, app: Flask | None = None) -> bytes:
        return self.call("GET", model.url, expect=200, app=app).data

    def post_move(
        self, model: TableModel, body: dict[str, Any], turn: int | None = None,
        headers: dict[str, str] | None = None,
    ) -> TestResponse:
        if turn is not None:
            body = {**body, "turn": turn}
        return self.call("POST", f"{model.url}/moves", body=body,
                         headers=model.headers if headers is None else headers)

    def refused(
        self, response: TestResponse, before: bytes, status: int, codes: set[str],
    ) -> dict[str, Any]:
        """Assert a refusal with one of codes, and that nothing was stored."""
        body = response.get_json()
        assert response.status_code == status, (status, codes, body)
        assert set(body) >= {"error"}, body
        assert body["error"]["code"] in codes, (codes, body)
        event(f"refused {status} {body['error']['code']}")
        assert isinstance(body["error"]["message"], str) and body["error"]["message"]
        assert self.state_text(self.model) == before, "a refused write changed the game"
        return body

    def accepted(self, response: TestResponse, points: int, bonus: int) -> None:
        """Check a 201 move answer against the move the model just made."""
        answer = response.get_json()
        assert response.status_code == 201, answer
        assert answer["score"] == points, (answer["score"], points)
        assert answer.get("end_bonus", bonus) == bonus
        assert_state_matches(answer["game"], self.model)
        self.answered = answer["game"]
        if self.model.final is not None:
            event(f"ended {self.model.final['reason']}")

    # -- moves -------------------------------------------------------------------------

    def place(self, tiles: list[Tile], with_turn: bool,
              points: int | None = None) -> None:
        """Post a placement the model knows to be legal and play it on the model."""
        model = self.model
        first = model.turn == 0
        response = self.post_move(
            model, {"type": "place", "tiles": tiles_json(tiles)},
            turn=model.turn if with_turn else None,
        )
        score, bonus = model.place(tiles)
        if points is not None:
            assert score == points, "the move search and the board disagree"
        if first:  # RULES §2: k tiles score k; a full line of N scores 2N
            n = model.variant.colors
            assert score == (2 * n if len(tiles) == n else len(tiles))
        self.accepted(response, score, bonus)

    def play_one(self, data: st.DataObject, block: bool = False) -> None:
        """A sensible turn: place if the hand can, else trade, else pass.

        Now and then a wrong entry comes first (refused, nothing stored). With
        `block` the player picks the placement that leaves the unplayed tiles
        the fewest cells, which is how games stall.
        """
        model = self.model
        mischief = data.draw(st.integers(0, 5), label="mischief")
        if mischief == 0:
            self.try_illegal_place(data.draw(st.sampled_from(ILLEGAL_KINDS)), data)
        elif mischief == 1 and model.turn and 0 < len(model.bag) < len(model.hand):
            before = self.state_text(model)
            response = self.post_move(
                model, {"type": "trade", "count": len(model.bag) + 1})
            self.refused(response, before, 422, {"trade_exceeds_bag"})
        with_turn = data.draw(st.booleans(), label="with_turn")
        options = model.placements()
        if (not block and not model.bag and model.turn
                and data.draw(st.integers(0, 3)) == 0):
            options = []  # the bag is empty: now and then pass although one could place
        if options and block:
            points, tiles = min(options, key=lambda option: openness(model, option[1]))
            self.place(tiles, with_turn, points)
        elif options:
            index = data.draw(st.integers(0, len(options) - 1), label="option")
            points, tiles = options[index]
            self.place(tiles, with_turn, points)
        elif model.bag and model.turn:
            count = data.draw(st.integers(1, min(len(model.hand), len(model.bag))))
            response = self.post_move(model, {"type": "trade", "count": count},
                                      turn=model.turn if with_turn else None)
            model.trade(count)
            self.accepted(response, 0, 0)
        else:
            response = self.post_move(model, {"type": "pass"},
                                      turn=model.turn if with_turn else None)
            model.pass_turn()
            self.accepted(response, 0, 0)

    def reopen(self) -> None:
        """Undo the last move of a finished game, so that play can go on."""
        if self.model.finished:
            self.undo("none")
            self.state_matches_model()

    # -- rules: games ------------------------------------------------------------------

    @initialize(spec=game_specs())
    def first_game(self, spec: dict[str, Any]) -> None:
        self.create_game(spec)

    @rule(spec=game_specs())
    def create_game(self, spec: dict[str, Any]) -> None:
        if len(self.games) >= 4:
            return
        body: dict[str, Any] = {"players": spec["players"]}
        variant = engine.Variant(**(spec["variant"] or {}))
        if spec["variant"] is not None or spec["spell_variant"]:
            body["variant"] = {"colors": variant.colors, "copies": variant.copies,
                               "hand_size": variant.hand_size}
        if spec["first_player"] or spec["spell_variant"]:
            body["first_player"] = spec["first_player"]
        state = self.call("POST", "/api/games", body=body, expect=201).get_json()
        token = state["edit_token"]
        assert isinstance(token, str) and len(token) >= 16
        model = TableModel.deal(state["id"], token, spec["players"], variant,
                                spec["first_player"], spec["seed"])
        assert all(state["id"] != other.game_id for other in self.games)
        self.games.append(model)
        self.current = len(self.games) - 1
        assert_state_matches(state, model)

    @rule(data=st.data())
    def switch_game(self, data: st.DataObject) -> None:
        self.current = data.draw(st.integers(0, len(self.games) - 1), label="game")

    # -- rules: legal play -------------------------------------------------------------

    @rule(turns=st.integers(1, 12), data=st.data())
    def play_turns(self, turns: int, data: st.DataObject) -> None:
        """Play a few sensible turns in a row (games must reach their end)."""
        self.reopen()
        for _ in range(turns):
            if self.model.finished:
                break
            self.play_one(data)
            self.state_matches_model()

    @rule(data=st.data())
    def play_to_the_end(self, data: st.DataObject) -> None:
        """Play a small set to its end: hand emptied, stalled or all passed."""
        if self.model.variant == engine.CLASSIC:
            return
        self.reopen()
        block = data.draw(st.integers(0, 3), label="block") > 0
        for _ in range(200):
            if self.model.finished:
                break
            self.play_one(data, block)
            self.state_matches_model()
        assert self.model.finished

    @rule(data=st.data())
    def place_legal(self, data: st.DataObject) -> None:
        self.reopen()
        options = self.model.placements()
        if not options:
            return
        points, tiles = options[data.draw(st.integers(0, len(options) - 1))]
        self.place(tiles, data.draw(st.booleans(), label="with_turn"), points)

    @rule(data=st.data())
    def trade(self, data: st.DataObject) -> None:
        """A trade, mostly a legal one; too many, first move, empty bag refused."""
        model = self.model
        hand, bag = len(model.hand), len(model.bag)
        if data.draw(st.integers(0, 3), label="legal?") and min(hand, bag) >= 1:
            count = data.draw(st.integers(1, min(hand, bag)), label="count")
        else:
            counts = {1, hand + 1, hand + 2} | ({bag + 1} if bag < hand + 2 else set())
            count = data.draw(st.sampled_from(sorted(counts)), label="count")
        wrong = set()
        if model.finished:
            wrong = {"game_over"}
        else:
            if model.turn == 0:
                wrong.add("first_move_trade")
            if count > hand:
                wrong.add("too_many_tiles")
            if count > bag:
                wrong.add("trade_exceeds_bag")
        before = self.state_text(model)
        with_turn = data.draw(st.booleans(), label="with_turn")
        response = self.post_move(model, {"type": "trade", "count": count},
                                  turn=model.turn if with_turn else None)
        if wrong:
            self.refused(response, before, 422, wrong)
            return
        model.trade(count)
        self.accepted(response, 0, 0)
        assert response.get_json()["game"]["bag"] == bag  # a trade keeps the bag

    @rule(with_turn=st.booleans())
    def everyone_passes(self, with_turn: bool) -> None:
        """The bag is empty and every player passes in turn: the game ends."""
        model = self.model
        if model.finished or not model.turn or model.bag:
            return
        for _ in range(model.players):
            if model.finished:
                break
            response = self.post_move(model, {"type": "pass"},
                                      turn=model.turn if with_turn else None)
            model.pass_turn()
            self.accepted(response, 0, 0)
            self.state_matches_model()
        assert model.final is not None and model.final["reason"] == "all_passed"

    @rule(with_turn=st.booleans())
    def pass_turn(self, with_turn: bool) -> None:
        """A pass: allowed only once the bag is empty."""
        model = self.model
        before = self.state_text(model)
        response = self.post_move(model, {"type": "pass"},
                                  turn=model.turn if with_turn else None)
        if model.finished:
            self.refused(response, before, 422, {"game_over"})
        elif model.bag:
            self.refused(response, before, 422, {"pass_not_allowed"})
        else:
            model.pass_turn()
            self.accepted(response, 0, 0)

    @rule(guard=st.sampled_from(["none", "query", "body"]))
    def undo(self, guard: str) -> None:
        """DELETE moves/last: the model takes the move back, tiles and all."""
        model = self.model
        url = f"{model.url}/moves/last"
        body = None
        if guard == "query":
            url += f"?turn={model.turn}"
        elif guard == "body":
            body = {"turn": model.turn}
        before = self.state_text(model)
        response = self.call("DELETE", url, body=body, headers=model.headers)
        if model.turn == 0:
            self.refused(response, before, 409, {"nothing_to_undo"})
            return
        finished = model.finished
        assert response.status_code == 200, response.get_json()
        model.undo()
        state = response.get_json()
        assert_state_matches(state, model)
        assert state["status"] == "active"  # a finished game is active again
        event("undo" + (" reopened a finished game" if finished else ""))
        self.answered = state

    # -- rules: refused placements -----------------------------------------------------

    @rule(kind=st.sampled_from(ILLEGAL_KINDS), data=st.data())
    def place_illegal(self, kind: str, data: st.DataObject) -> None:
        """A placement the rules refuse, each with the code CONTRACT §7 names."""
        self.try_illegal_place(kind, data)

    def try_illegal_place(self, kind: str, data: st.DataObject) -> None:
        model = self.model
        board = model.board
        hand = model.hand
        if kind in ("occupied", "far") and not (board and hand):
            kind = "empty"
        if kind == "same_cell" and len(hand) < 2:
            kind = "too_many"
        exhausted: list[tuple[Tile, ...]] = []
        if kind == "exhausted":
            # A tile whose copies are all on the board, on a cell where it would
            # otherwise fit: only the supply is wrong.
            oracle_board = model.oracle.board
            kinds = all_kinds(model.variant)
            for cell in sorted(oracle_board.frontier()):
                row_mask, _, col_mask, _ = oracle_board.cross_masks(cell)
                for color, shape in kinds:
                    bit = 1 << model.variant.code_of[(color, shape)]
                    if (row_mask & col_mask & bit
                            and oracle_board.count(color, shape)
                            == model.variant.copies):
                        exhausted.append((*cell, color, shape))
            if not exhausted:
                kind = "empty"
        tiles: list[Tile]
        if kind == "empty":
            tiles, code = [], "empty_move"
        elif kind == "exhausted":
            tiles = [data.draw(st.sampled_from(exhausted), label="tile")]
            code = "tile_exhausted"
        elif kind == "unknown":
            color = data.draw(st.sampled_from(
                ["black", *engine.COLOR_NAMES[model.variant.colors:]]))
            tiles, code = [(0, 0, color, model.variant.shape_names[0])], "unknown_tile"
        elif kind == "occupied":
            r, c, _, _ = data.draw(st.sampled_from(board), label="cell")
            tiles, code = [(r, c, *data.draw(st.sampled_from(hand)))], "occupied"
        elif kind == "far":
            bottom = max(r for r, _, _, _ in board)
            tiles, code = [(bottom + 2, 0, *data.draw(st.sampled_from(hand)))], \
                "not_connected"
        elif kind == "same_cell":
            one, two = hand[0], hand[1]
            cells = sorted(model.oracle.board.legal_cells(*one)) or [(50, 50)]
            r, c = data.draw(st.sampled_from(cells), label="cell")
            tiles, code = [(r, c, *one), (r, c, *two)], "same_cell_twice"
        else:
            kinds = all_kinds(model.variant)
            tiles = [(90, col, *kinds[col % len(kinds)])
                     for col in range(len(hand) + 1)]
            code = "too_many_tiles"
        if model.finished:
            code = "game_over"
        before = self.state_text(model)
        with_turn = data.draw(st.booleans(), label="with_turn")
        response = self.post_move(model, {"type": "place", "tiles": tiles_json(tiles)},
                                  turn=model.turn if with_turn else None)
        self.refused(response, before, 422, {code})

    @rule(data=st.data())
    def place_random(self, data: st.DataObject) -> None:
        """Tiles from the hand on cells near the board: the engine judges, the API
        (preview, then the move) must answer as it does."""
        model = self.model
        hand = model.hand
        if not hand:
            return
        k = data.draw(st.integers(1, min(3, len(hand))), label="k")
        picked = data.draw(st.lists(st.integers(0, len(hand) - 1), min_size=k,
                                    max_size=k, unique=True), label="picked")
        near = sorted({(r, c) for r, c, _, _ in model.board} |
                      set(model.oracle.board.frontier())) or [(0, 0)]
        row, col = data.draw(st.sampled_from(near), label="anchor")
        across = data.draw(st.booleans(), label="across")
        tiles: list[Tile] = []
        for index in picked:
            step = data.draw(st.integers(-2, 2), label="offset")
            cell = (row, col + step) if across else (row + step, col)
            if data.draw(st.integers(0, 7), label="skew") == 0:
                cell = (cell[0] + 1, cell[1] + 1)  # off the line now and then
            tiles.append((*cell, *hand[index]))
        try:
            expected = model.oracle.check_place(tiles)
            code = None
        except engine.IllegalMove as exc:
            code = exc.code
        before = self.state_text(model)
        preview = self.call("POST", f"{model.url}/preview",
                            body={"tiles": tiles_json(tiles)})
        if code is None:
            assert preview.status_code == 200, preview.get_json()
            assert preview.get_json()["score"] == expected.points
        else:
            self.refused(preview, before, 422, {code})
        assert self.state_text(model) == before, "a preview changed the game"
        response = self.post_move(model, {"type": "place", "tiles": tiles_json(tiles)})
        if code is not None:
            self.refused(response, before, 422, {code})
            return
        score, bonus = model.place(tiles)
        self.accepted(response, score, bonus)

    # -- rules: refused writes ---------------------------------------------------------

    @rule(what=st.sampled_from(["place", "trade", "pass", "undo"]),
          back=st.integers(1, 3), data=st.data())
    def stale_turn(self, what: str, back: int, data: st.DataObject) -> None:
        """A client that saw an old turn: 409 with the game as it is; nothing stored."""
        model = self.model
        if not model.turn:
            return
        seen = max(0, model.turn - back)
        before = self.state_text(model)
        if what == "undo":
            response = self.call("DELETE", f"{model.url}/moves/last?turn={seen}",
                                 headers=model.headers)
        else:
            body: dict[str, Any] = {"type": what}
            if what == "trade":
                body["count"] = 1
            elif what == "place":
                options = model.placements(limit=1)
                tiles = options[0][1] if options else []
                body["tiles"] = tiles_json(tiles)
            response = self.post_move(model, body, turn=seen)
        answer = self.refused(response, before, 409, {"turn_conflict"})
        assert_state_matches(answer["game"], model)

    @rule(how=st.sampled_from(["missing", "wrong", "empty", "other_game", "case"]),
          what=st.sampled_from(["move", "undo"]))
    def bad_token(self, how: str, what: str) -> None:
        """Writes without the game's own edit token: 403, nothing stored."""
        model = self.model
        others = [g for g in self.games if g.game_id != model.game_id]
        headers = {
            "missing": {},
            "wrong": {"X-Edit-Token": "0" * len(model.token)},
            "empty": {"X-Edit-Token": ""},
            "other_game": {"X-Edit-Token": others[0].token if others else "nope"},
            "case": {"X-Edit-Token": model.token.swapcase()},
        }[how]
        if how == "case" and model.token.swapcase() == model.token:
            headers = {"X-Edit-Token": model.token + "x"}
        before = self.state_text(model)
        if what == "undo":
            response = self.call("DELETE", f"{model.url}/moves/last", headers=headers)
        else:
            options = model.placements(limit=1)
            body = ({"type": "place", "tiles": tiles_json(options[0][1])}
                    if options else {"type": "pass"})
            response = self.post_move(model, body, headers=headers)
        code = "missing_edit_token" if how == "missing" else "bad_edit_token"
        self.refused(response, before, 403, {code})

    # -- rules: persistence, records, sheets -------------------------------------------

    @rule(keep=st.booleans())
    def second_app(self, keep: bool) -> None:
        """A second app instance on the same database file shows the same games."""
        fresh = make_app(self.database)
        for model in self.games:
            assert self.state_text(model, app=fresh) == self.state_text(model)
        if keep:  # from now on both instances serve, each with its own cache
            self.apps = [self.apps[self.serving], fresh]
            self.serving = 1

    @rule()
    def switch_app(self) -> None:
        self.serving = (self.serving + 1) % len(self.apps)

    @rule(follow=st.booleans())
    def export_import(self, follow: bool) -> None:
        """Export the record, import it: the same record bytes and the same state."""
        model = self.model
        if len(self.games) >= 6:
            return
        exported = self.call("GET", f"{model.url}/record", expect=200)
        assert exported.mimetype == "application/json"
        text = exported.data
        record = json.loads(text)
        expected = {
            "format": "qwirkle-game/1", "variant": model.variant.to_dict(),
            "players": model.names, "moves": model.record_moves(),
            "final": model.final,
        }
        if not model.log:  # the starter is named only while no move shows it
            expected["first_player"] = model.first_player
        assert record == expected
        answer = self.call("POST", "/api/games/import", body=record, expect=201)
        copy_state = answer.get_json()
        copy = model.clone(copy_state["id"], copy_state["edit_token"])
        self.games.append(copy)
        original = json.loads(self.state_text(model))
        assert without(copy_state, STATE_VOLATILE) == without(original, STATE_VOLATILE)
        assert_state_matches(copy_state, copy)
        again = self.call("GET", f"{copy.url}/record", expect=200).data
        assert again == text
        if follow:
            self.current = len(self.games) - 1

    @rule()
    def score_sheet(self) -> None:
        """The CSV's rounds are the moves' points, its totals the state's scores."""
        model = self.model
        response = self.call("GET", f"{model.url}/scoresheet.csv", expect=200)
        assert response.mimetype == "text/csv"
        rows = list(csv.reader(io.StringIO(response.data.decode("utf-8-sig"))))
        assert rows == model.score_sheet_rows()
        state = json.loads(self.state_text(model))
        assert rows[-1][1:] == [str(p["score"]) for p in state["players"]]

    # -- invariants --------------------------------------------------------------------

    @invariant()
    def state_matches_model(self) -> None:
        if not self.games:
            return
        state = json.loads(self.state_text(self.model))
        assert_state_matches(state, self.model)
        if self.answered is not None:
            assert state == self.answered, "a GET differs from the write's answer"
            self.answered = None

    def teardown(self) -> None:
        event(f"games {len(self.games)}, longest "
              f"{max((m.turn for m in self.games), default=0) // 10 * 10}+ moves")
        try:
            for model in self.games:
                texts = {self.state_text(model, app=app) for app in self.apps}
                assert len(texts) == 1, "two app instances disagree"
                assert_state_matches(json.loads(texts.pop()), model)
        finally:
            self.apps.clear()
            shutil.rmtree(self.folder, ignore_errors=True)


ApiMachine.TestCase.settings = settings(
    max_examples=40,
    stateful_step_count=50,
    deadline=None,
    derandomize=True,
    database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)
TestApiStateMachine = pytest.mark.long(ApiMachine.TestCase)


def test_a_new_game_keeps_its_first_player_through_a_record(tmp_path: Path) -> None:
    """CONTRACT §5: export then import gives the same game, also before any move
    (found by this machine: the copy used to start at seat 0; fixed in 06d5cec)."""
    app = make_app(tmp_path / "scorekeeper.sqlite3")
    client = app.test_client(use_cookies=False)
    state = client.post("/api/games", json={
        "players": ["Ann", "Bob", "Cas"], "first_player": 2}).get_json()
    record = client.get(f"/api/games/{state['id']}/record").get_json()

    copy = client.post("/api/games/import", json=record).get_json()

    assert (copy["first_player"], copy["current_player"]) == (2, 2)
