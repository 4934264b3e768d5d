"""The model behind tests/test_api_stateful.py: one game at a real table.

The engine (scorekeeper.engine.Game) judges legality and scores placements; the
rest is kept here independently: a physical bag of real tiles, each player's
actual hand, the move log with its scores, the end of the game (hand emptied,
stalled, all passed) and the end bonus. The API's state is compared with both.
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from scorekeeper import engine

Kind = tuple[str, str]
"""A tile as (color, shape)."""

Tile = tuple[int, int, str, str]
"""A placed tile as (row, col, color, shape)."""

END_BONUS = 6
"""The end bonus, in every variant (RULES §6, §7)."""


def all_kinds(variant: engine.Variant) -> list[Kind]:
    """Every tile kind of the variant, colour by colour."""
    return [(c, s) for c in variant.color_names for s in variant.shape_names]


def tiles_json(tiles: list[Tile]) -> list[dict[str, Any]]:
    """(row, col, color, shape) tuples as the API's tile objects."""
    return [{"row": r, "col": c, "color": color, "shape": shape}
            for r, c, color, shape in tiles]


@dataclass
class TableModel:
    """One game as it stands at the table, mirrored from the API calls made."""

    game_id: int
    token: str
    names: list[str]
    variant: engine.Variant
    first_player: int
    rng: random.Random
    hands: list[list[Kind]]
    """The tiles each seat really holds."""
    bag: list[Kind]
    """The tiles in the bag (drawn from the end)."""
    log: list[dict[str, Any]] = field(default_factory=list)
    """Moves as in a record, each with "score" and the model's own "bonus"."""
    finals: list[dict[str, Any] | None] = field(default_factory=list)
    """The final result after each move (None while the game runs)."""
    undo_stack: list[tuple[list[list[Kind]], list[Kind]]] = field(
        default_factory=list
    )
    """Hands and bag before each move, so that undo puts tiles back."""
    oracle: engine.Game | None = None
    """The engine's view of the same game: legality and points of placements."""

    # -- building --------------------------------------------------------------

    @classmethod
    def deal(
        cls, game_id: int, token: str, names: list[str],
        variant: engine.Variant, first_player: int, seed: int,
    ) -> TableModel:
        """Shuffle a full set and deal: H each, or round the table from seat 0
        when the set holds fewer than H per player."""
        rng = random.Random(seed)
        tiles = [kind for kind in all_kinds(variant) for _ in range(variant.copies)]
        rng.shuffle(tiles)
        players = len(names)
        if len(tiles) >= variant.hand_size * players:
            counts = [variant.hand_size] * players
        else:
            base, extra = divmod(len(tiles), players)
            counts = [base + (1 if seat < extra else 0) for seat in range(players)]
        hands = [[tiles.pop() for _ in range(n)] for n in counts]
        model = cls(game_id, token, names, variant, first_player, rng, hands, tiles)
        model.oracle = engine.Game(variant, players, first_player)
        return model

    def clone(self, game_id: int, token: str) -> TableModel:
        """The same table under another game id (an imported copy)."""
        copy = TableModel(
            game_id, token, list(self.names), self.variant, self.first_player,
            random.Random(), [list(h) for h in self.hands], list(self.bag),
            [dict(m) for m in self.log], list(self.finals),
            [([list(h) for h in hands], list(bag)) for hands, bag in self.undo_stack],
        )
        copy.rng.setstate(self.rng.getstate())
        copy.oracle = engine.Game(self.variant, self.players, self.first_player)
        for move in self.log:
            copy.oracle.push(move)
        return copy

    # -- reading -----------------------------------------------------------------

    @property
    def players(self) -> int:
        return len(self.names)

    @property
    def turn(self) -> int:
        return len(self.log)

    @property
    def current_player(self) -> int:
        return (self.first_player + self.turn) % self.players

    @property
    def hand(self) -> list[Kind]:
        """The current player's tiles."""
        return self.hands[self.current_player]

    @property
    def final(self) -> dict[str, Any] | None:
        return self.finals[-1] if self.finals else None

    @property
    def finished(self) -> bool:
        return self.final is not None

    @property
    def headers(self) -> dict[str, str]:
        return {"X-Edit-Token": self.token}

    @property
    def url(self) -> str:
        return f"/api/games/{self.game_id}"

    @property
    def board(self) -> list[Tile]:
        """Every tile placed, in the order placed."""
        return [
            (t["row"], t["col"], t["color"], t["shape"])
            for move in self.log if move["type"] == "place" for t in move["tiles"]
        ]

    def scores(self) -> list[int]:
        """Totals from the log: move points plus the end bonus."""
        totals = [0] * self.players
        for move in self.log:
            totals[move["player"]] += move["score"] + move["bonus"]
        return totals

    def placements(self, limit: int = 6) -> list[tuple[int | None, list[Tile]]]:
        """Legal placements the current hand really allows: the search's best
        few plus every single tile on every cell the board offers it."""
        assert self.oracle is not None
        board = self.oracle.board
        options: list[tuple[int | None, list[Tile]]] = [
            (points, list(tiles))
            for points, tiles in engine.best_moves(board, self.hand, limit=limit)
        ]
        for color, shape in sorted(set(self.hand)):
            for row, col in sorted(board.legal_cells(color, shape)):
                options.append((None, [(row, col, color, shape)]))
        return options

    # -- moving ------------------------------------------------------------------

    def _save(self) -> None:
        self.undo_stack.append(([list(h) for h in self.hands], list(self.bag)))

    def place(self, tiles: list[Tile]) -> tuple[int, int]:
        """Play tiles from the current hand; return (points, end bonus)."""
        assert self.oracle is not None and not self.finished
        seat = self.current_player
        move = self.oracle.place(tiles)  # the engine scores it (and must accept it)
        self._save()
        hand = self.hands[seat]
        for _, _, color, shape in tiles:
            hand.remove((color, shape))  # ValueError: the test played a tile not held
        for _ in range(min(len(tiles), len(self.bag))):
            hand.append(self.bag.pop())
        bonus = 0
        final = None
        if not hand and not self.bag:
            bonus = END_BONUS
            final = "hand_emptied"
        elif self._stalled():
            final = "stalled"
        self.log.append({"player": seat, "type": "place",
                         "tiles": tiles_json(tiles), "score": move.score,
                         "bonus": bonus})
        self._finish(final, seat if bonus else None)
        return move.score, bonus

    def _stalled(self) -> bool:
        """No tile off the board (in hands or bag) fits alone on any cell next to
        the board, each tried with the full move check (not the legal-cell masks
        the engine's own end test uses)."""
        assert self.oracle is not None
        board = self.oracle.board
        unplayed = {kind for hand in self.hands for kind in hand} | set(self.bag)
        cells = board.frontier()
        return not any(
            _fits(board, (row, col, *kind))
            for kind in sorted(unplayed) for row, col in cells
        )

    def trade(self, count: int) -> None:
        """Set count tiles aside, draw as many, put the traded ones back."""
        assert self.oracle is not None
        seat = self.current_player
        self.oracle.trade(count)
        self._save()
        hand = self.hands[seat]
        self.rng.shuffle(hand)
        aside = [hand.pop() for _ in range(count)]
        for _ in range(count):
            hand.append(self.bag.pop())
        self.bag.extend(aside)
        self.rng.shuffle(self.bag)
        self.log.append({"player": seat, "type": "trade", "count": count,
                         "score": 0, "bonus": 0})
        self._finish(None, None)

    def pass_turn(self) -> None:
        """Pass (the bag is empty)."""
        assert self.oracle is not None and not self.bag
        seat = self.current_player
        self.oracle.pass_turn()
        self._save()
        self.log.append({"player": seat, "type": "pass", "score": 0, "bonus": 0})
        passes = 0
        for move in reversed(self.log):
            if move["type"] != "pass":
                break
            passes += 1
        self._finish("all_passed" if passes >= self.players else None, None)

    def _finish(self, reason: str | None, bonus_player: int | None) -> None:
        final = None
        if reason is not None:
            final = {"scores": self.scores(), "end_bonus_player": bonus_player,
                     "reason": reason}
        self.finals.append(final)

    def undo(self) -> None:
        """Take back the last move, tiles and all."""
        assert self.oracle is not None
        self.oracle.pop()
        self.log.pop()
        self.finals.pop()
        self.hands, self.bag = self.undo_stack.pop()

    # -- what the API must show ---------------------------------------------------

    def record_moves(self) -> list[dict[str, Any]]:
        """The moves as a qwirkle-game/1 record writes them (CONTRACT §5)."""
        out = []
        for move in self.log:
            entry = {k: v for k, v in move.items() if k != "bonus"}
            if move["type"] != "place":
                del entry["score"]
            out.append(entry)
        return out

    def state_moves(self) -> list[dict[str, Any]]:
        """The moves as the game state lists them: each with its score."""
        return [{k: v for k, v in m.items() if k != "bonus"} for m in self.log]

    def score_sheet_rows(self) -> list[list[str]]:
        """The CSV rows CONTRACT §6 describes, as strings."""
        rows = [["Round", *self.names]]
        for index, move in enumerate(self.log):
            number = index // self.players + 1
            if number == len(rows):
                rows.append([str(number)] + [""] * self.players)
            rows[number][move["player"] + 1] = str(move["score"] + move["bonus"])
        rows.append(["Total", *(str(s) for s in self.scores())])
        return rows

    def check_physics(self) -> None:
        """The model's own table is consistent: every tile somewhere, once."""
        variant = self.variant
        total = variant.total_tiles
        board = self.board
        held = sum(len(h) for h in self.hands)
        assert held + len(self.bag) + len(board) == total, "model: tiles lost"
        where = Counter(kind for hand in self.hands for kind in hand)
        where.update(self.bag)
        where.update((color, shape) for _, _, color, shape in board)
        assert where == Counter({k: variant.copies for k in all_kinds(variant)}), \
            "model: a tile kind is miscounted"
        if all(len(h) == variant.hand_size for h in self.hands):
            expected = max(0, total - len(board) - variant.hand_size * self.players)
            assert len(self.bag) == expected, (len(self.bag), expected)
        # The engine keeps the same books.
        oracle = self.oracle
        assert oracle is not None
        assert oracle.hands == [len(h) for h in self.hands], "engine: hands"
        assert oracle.bag == len(self.bag), "engine: bag"
        assert oracle.scores == self.scores(), "engine: scores"
        oracle_final = oracle.final.to_dict() if oracle.final else None
        assert oracle_final == self.final, ("engine: final", oracle_final, self.final)


def assert_state_matches(state: dict[str, Any], model: TableModel) -> None:
    """Assert the API's game state is the model's (CONTRACT §4), field by field."""
    model.check_physics()
    where = f"game {model.game_id} at turn {model.turn}"
    assert state["id"] == model.game_id, where
    assert state["status"] == ("finished" if model.finished else "active"), where
    scores = model.scores()
    assert [p["name"] for p in state["players"]] == model.names, where
    assert [p["score"] for p in state["players"]] == scores, where
    assert [p["hand"] for p in state["players"]] == [len(h) for h in model.hands], \
        where
    assert state["turn"] == model.turn, where
    assert state["current_player"] == model.current_player, where
    assert state["first_player"] == model.first_player, where
    assert state["bag"] == len(model.bag), where
    assert state["final"] == model.final, where
    assert state["moves"] == model.state_moves(), where
    assert state["variant"] == model.variant.to_dict(), where
    board = [(t["row"], t["col"], t["color"], t["shape"]) for t in state["board"]]
    assert Counter(board) == Counter(model.board), where
    assert len({(r, c) for r, c, _, _ in board}) == len(board), where
    # Bookkeeping the API shows must add up on its own as well.
    total = model.variant.total_tiles
    assert sum(p["hand"] for p in state["players"]) + state["bag"] + len(board) \
        == total, where
    if all(p["hand"] == model.variant.hand_size for p in state["players"]):
        assert state["bag"] == max(
            0, total - len(board) - model.variant.hand_size * model.players
        ), where
    if state["final"] is not None:
        assert state["final"]["scores"] == [p["score"] for p in state["players"]]
    unseen = Counter(kind for hand in model.hands for kind in hand)
    unseen.update(model.bag)
    assert {(u["color"], u["shape"]): u["count"] for u in state["unseen"]} == {
        kind: unseen.get(kind, 0) for kind in all_kinds(model.variant)
    }, where


def _fits(board: engine.Board, tile: tuple[int, int, str, str]) -> bool:
    """Tell whether the full move check accepts one tile alone on the board."""
    try:
        board.check([tile])
    except engine.IllegalMove:
        return False
    return True
