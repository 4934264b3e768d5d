"""A game: a board plus the stack of moves, with turns, bag, hands and the end
(RULES §2, §5, §6)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from enum import StrEnum

from .board import Board, Placement, TileInput
from .errors import IllegalMove
from .scoring import MoveScore
from .tiles import CLASSIC, Variant

END_BONUS = 6
"""Points for the player who empties their hand once the bag is empty (RULES §6);
6 in every variant (RULES §7)."""


class EndReason(StrEnum):
    """Why a game ended (CONTRACT §5 final.reason)."""

    HAND_EMPTIED = "hand_emptied"
    """The bag was empty and a player placed their last tile (+6)."""
    STALLED = "stalled"
    """No unplayed tile fits anywhere on the board; no bonus."""
    ALL_PASSED = "all_passed"
    """Every player passed in turn; no bonus."""


@dataclass(frozen=True)
class Final:
    """How a game ended."""

    scores: tuple[int, ...]
    """Final totals in seat order, end bonus included."""
    end_bonus_player: int | None
    """Seat that earned the end bonus, or None."""
    reason: EndReason
    """Why the game ended."""

    @property
    def winners(self) -> tuple[int, ...]:
        """Seats with the highest total (ties are shared)."""
        best = max(self.scores)
        return tuple(seat for seat, score in enumerate(self.scores) if score == best)

    def to_dict(self) -> dict[str, object]:
        """Return the record's "final" object (CONTRACT §5)."""
        return {
            "scores": list(self.scores),
            "end_bonus_player": self.end_bonus_player,
            "reason": self.reason.value,
        }


@dataclass(frozen=True)
class Move:
    """One turn: a placing move, a trade or a pass."""

    player: int
    """Seat of the player who moved."""
    type: str
    """'place', 'trade' or 'pass'."""
    tiles: tuple[Placement, ...] = ()
    """The tiles placed (placing moves only), in the order given."""
    count: int = 0
    """Tiles traded (trades only)."""
    score: int = 0
    """Points of the move, end bonus excluded."""
    breakdown: MoveScore | None = None
    """The lines a placing move scored."""
    end_bonus: int = 0
    """End bonus this move earned (0 or 6)."""

    def to_dict(self, with_score: bool = False) -> dict[str, object]:
        """Return the move as in a game record (CONTRACT §5).

        Placing moves always carry their score; trades and passes only when
        `with_score` asks for it.
        """
        data: dict[str, object] = {"player": self.player, "type": self.type}
        if self.type == "place":
            data["tiles"] = [
                {"row": t.row, "col": t.col, "color": t.color, "shape": t.shape}
                for t in self.tiles
            ]
            data["score"] = self.score
        elif self.type == "trade":
            data["count"] = self.count
            if with_score:
                data["score"] = 0
        elif with_score:
            data["score"] = 0
        return data


@dataclass(frozen=True)
class _State:
    """Bookkeeping after a move, kept per move so that undo is a pop."""

    scores: tuple[int, ...]
    hands: tuple[int, ...]
    bag: int
    passes: int
    final: Final | None


def parse_tiles(raw: object) -> list[Placement]:
    """Turn a record's or request's tile list into Placements (ValueError if bad)."""
    if not isinstance(raw, list):
        raise ValueError("tiles must be a list of {row, col, color, shape} objects")
    tiles = []
    for item in raw:
        if not isinstance(item, Mapping):
            raise ValueError("each tile must be an object with row, col, color, shape")
        try:
            row, col, color, shape = (item["row"], item["col"], item["color"],
                                      item["shape"])
        except KeyError as missing:
            raise ValueError(f"a tile is missing {missing.args[0]!r}") from None
        if type(row) is not int or type(col) is not int:
            raise ValueError("a tile's row and col must be whole numbers")
        if not isinstance(color, str) or not isinstance(shape, str):
            raise ValueError("a tile's color and shape must be strings")
        tiles.append(Placement(row, col, color, shape))
    return tiles


class Game:
    """A game in progress or finished: a position plus a move stack."""

    def __init__(
        self, variant: Variant | None = None, players: int = 2, first_player: int = 0
    ) -> None:
        variant = variant if variant is not None else CLASSIC
        if type(players) is not int or not 2 <= players <= variant.max_players:
            raise ValueError(
                f"a {variant.name} game has 2 to {variant.max_players} players,"
                f" not {players!r}"
            )
        if type(first_player) is not int or not 0 <= first_player < players:
            raise ValueError(
                f"first_player must be a seat from 0 to {players - 1},"
                f" not {first_player!r}"
            )
        self.variant: Variant = variant
        """The tile set in play."""
        self.players: int = players
        """Number of players."""
        self.first_player: int = first_player
        """Seat that made (or makes) the first move."""
        self.board: Board = Board(variant)
        """The tiles on the table."""
        self.moves: list[Move] = []
        """Every move so far, oldest first."""
        self._states: list[_State] = [self._deal()]

    def __repr__(self) -> str:
        return (
            f"<Game {self.variant!r} players={self.players} turn={self.turn}"
            f" status={self.status}>"
        )

    def _deal(self) -> _State:
        variant = self.variant
        total = variant.total_tiles
        wanted = variant.hand_size * self.players
        if total >= wanted:
            hands = (variant.hand_size,) * self.players
        else:
            # Too few tiles for full hands: deal round the table from seat 0.
            base, extra = divmod(total, self.players)
            hands = tuple(base + (1 if seat < extra else 0)
                          for seat in range(self.players))
        return _State((0,) * self.players, hands, total - sum(hands), 0, None)

    # -- reading -------------------------------------------------------------

    @property
    def turn(self) -> int:
        """Number of moves recorded."""
        return len(self.moves)

    @property
    def current_player(self) -> int:
        """Seat whose move it is (seat order from the first player)."""
        return (self.first_player + len(self.moves)) % self.players

    @property
    def scores(self) -> list[int]:
        """Totals in seat order, end bonus included."""
        return list(self._states[-1].scores)

    @property
    def hands(self) -> list[int]:
        """Tiles each player holds, in seat order (RULES §6)."""
        return list(self._states[-1].hands)

    @property
    def bag(self) -> int:
        """Tiles left in the bag: max(0, set − board − hand size · players) while
        hands are full (RULES §6)."""
        return self._states[-1].bag

    @property
    def final(self) -> Final | None:
        """How the game ended, or None while it runs."""
        return self._states[-1].final

    @property
    def status(self) -> str:
        """'active' or 'finished'."""
        return "finished" if self._states[-1].final is not None else "active"

    def is_over(self) -> bool:
        """Return whether the game has ended."""
        return self._states[-1].final is not None

    def unseen(self) -> dict[tuple[str, str], int]:
        """Return, for every tile, the copies not on the board (in hands or bag)."""
        return self.board.unseen()

    def peek(self) -> Move:
        """Return the last move; IndexError when there is none."""
        return self.moves[-1]

    def can_pass(self) -> bool:
        """Return whether the current player may pass (bag empty, game running)."""
        state = self._states[-1]
        return state.final is None and state.bag == 0 and not self.variant.is_cubes

    def max_trade(self) -> int:
        """Return the most tiles the current player may trade now (0: none)."""
        state = self._states[-1]
        if state.final is not None or not self.moves or self.variant.is_cubes:
            return 0
        return min(state.hands[self.current_player], state.bag)

    # -- checking --------------------------------------------------------------

    def _check_running(self) -> _State:
        state = self._states[-1]
        if state.final is not None:
            raise IllegalMove(
                "game_over",
                "The game is over: no more moves can be recorded (undo the last"
                " move to reopen it).",
            )
        return state

    def _check_hand(self, state: _State, count: int, verb: str) -> None:
        hand = state.hands[self.current_player]
        if count > hand:
            raise IllegalMove(
                "too_many_tiles",
                f"Player {self.current_player + 1} holds {hand} tile"
                f"{'s' if hand != 1 else ''}; this move {verb} {count}.",
            )

    def check_place(self, tiles: Iterable[TileInput]) -> MoveScore:
        """Return what placing these tiles would score; IllegalMove if refused."""
        state = self._check_running()
        tiles = list(tiles)
        if tiles:
            self._check_hand(state, len(tiles), "places")
        return self.board.check(tiles)

    # -- moving ------------------------------------------------------------------

    def place(self, tiles: Iterable[TileInput]) -> Move:
        """Record a placing move for the current player and return it."""
        state = self._check_running()
        tiles = list(tiles)
        if tiles:
            self._check_hand(state, len(tiles), "places")
        breakdown = self.board.play_scored(tiles)
        seat = self.current_player
        k = len(tiles)
        hands = list(state.hands)
        draw = min(k, state.bag)
        hands[seat] += draw - k
        bag = state.bag - draw
        scores = list(state.scores)
        scores[seat] += breakdown.points
        final = None
        bonus = 0
        if hands[seat] == 0 and bag == 0:
            bonus = END_BONUS
            scores[seat] += bonus
            final = Final(tuple(scores), seat, EndReason.HAND_EMPTIED)
        elif not self.board.can_place_any(self.board.unplayed_mask()):
            final = Final(tuple(scores), None, EndReason.STALLED)
        # The board has checked every tile's types and names by now.
        placements = tuple(Placement(*tile) for tile in tiles)  # type: ignore[arg-type]
        move = Move(seat, "place", placements, 0, breakdown.points, breakdown, bonus)
        self.moves.append(move)
        self._states.append(_State(tuple(scores), tuple(hands), bag, 0, final))
        return move

    def trade(self, count: int) -> Move:
        """Record a trade of `count` tiles for the current player and return it."""
        state = self._check_running()
        if type(count) is not int:
            raise ValueError(f"a trade count is a whole number, not {count!r}")
        if self.variant.is_cubes:
            raise IllegalMove(
                "trade_not_allowed",
                "Qwirkle Cubes has no trading: a player who cannot place re-rolls"
                " their cubes until they can.",
            )
        if not self.moves:
            raise IllegalMove(
                "first_move_trade",
                "The first move of the game places tiles; it cannot be a trade.",
            )
        if count < 1:
            raise IllegalMove("empty_move", "A trade swaps at least one tile.")
        self._check_hand(state, count, "trades")
        if count > state.bag:
            raise IllegalMove(
                "trade_exceeds_bag",
                f"The bag holds {state.bag} tile{'s' if state.bag != 1 else ''};"
                f" a trade of {count} would need more.",
            )
        move = Move(self.current_player, "trade", (), count)
        self.moves.append(move)
        self._states.append(_State(state.scores, state.hands, state.bag, 0, None))
        return move

    def pass_turn(self) -> Move:
        """Record a pass for the current player and return it."""
        state = self._check_running()
        if self.variant.is_cubes:
            raise IllegalMove(
                "pass_not_allowed",
                "Qwirkle Cubes has no passing: a player who cannot place re-rolls"
                " their cubes until they can.",
            )
        if state.bag > 0:
            raise IllegalMove(
                "pass_not_allowed",
                f"The bag still holds {state.bag} tile"
                f"{'s' if state.bag != 1 else ''}: a player who cannot place must"
                " trade; passing is only allowed once the bag is empty.",
            )
        passes = state.passes + 1
        final = None
        if passes >= self.players:
            final = Final(state.scores, None, EndReason.ALL_PASSED)
        move = Move(self.current_player, "pass")
        self.moves.append(move)
        self._states.append(_State(state.scores, state.hands, 0, passes, final))
        return move

    def push(self, move: Mapping[str, object]) -> Move:
        """Record a move given as a record dict (CONTRACT §5); 'player' and
        'score' are not checked here (see records.from_record)."""
        if not isinstance(move, Mapping):
            raise ValueError("a move must be an object with a 'type'")
        kind = move.get("type")
        if kind == "place":
            return self.place(parse_tiles(move.get("tiles")))
        if kind == "trade":
            count = move.get("count")
            if type(count) is not int:
                raise ValueError("a trade needs a whole-number 'count'")
            return self.trade(count)
        if kind == "pass":
            return self.pass_turn()
        raise ValueError(f"a move's type is 'place', 'trade' or 'pass', not {kind!r}")

    def pop(self) -> Move:
        """Take back the last move and return it; reopens a finished game.

        IndexError when there is no move.
        """
        move = self.moves.pop()
        self._states.pop()
        if move.type == "place":
            self.board.pop()
        return move
