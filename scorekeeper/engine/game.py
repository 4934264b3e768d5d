"""A game: a board plus the stack of moves, with turns, bag, hands and the end
(RULES §2, §5, §6)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum

from .board import Board, Placement, TileInput
from .errors import BadInput, IllegalMove
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


def ranks(scores: Sequence[int]) -> list[int]:
    """Return each seat's rank, 1 for the best; seats with equal totals share a
    rank and the next rank counts them (1, 1, 3)."""
    return [1 + sum(1 for other in scores if other > own) for own in scores]


def winners(scores: Sequence[int]) -> tuple[int, ...]:
    """Return the seats with the highest total (ties are shared, RULES §6)."""
    if not scores:
        return ()
    best = max(scores)
    return tuple(seat for seat, score in enumerate(scores) if score == best)


@dataclass(frozen=True)
class Standing:
    """One seat's place in a finished game's ranking."""

    rank: int
    """1 for the winner(s); tied seats share a rank."""
    seat: int
    """The seat."""
    score: int
    """The final total, end bonus included."""
    end_bonus: bool
    """Whether this seat earned the end bonus."""


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
        return winners(self.scores)

    def ranking(self) -> list[Standing]:
        """Return every seat's standing, best first (seat order among ties)."""
        places = ranks(self.scores)
        return sorted(
            (
                Standing(rank, seat, score, seat == self.end_bonus_player)
                for seat, (rank, score) in enumerate(
                    zip(places, self.scores, strict=True)
                )
            ),
            key=lambda standing: (standing.rank, standing.seat),
        )

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

    @property
    def qwirkles(self) -> int:
        """Lines this move completed (0 for a trade or pass)."""
        return self.breakdown.qwirkles if self.breakdown is not None else 0

    @property
    def points(self) -> int:
        """Everything the move earned: its score plus the end bonus."""
        return self.score + self.end_bonus

    def to_dict(self, with_score: bool = False) -> dict[str, object]:
        """Return the move as in a game record (CONTRACT §5).

        Placing moves always carry their score; trades and passes only when
        `with_score` asks for it.
        """
        return move_record(
            self.player, self.type,
            [
                {"row": t.row, "col": t.col, "color": t.color, "shape": t.shape}
                for t in self.tiles
            ],
            self.count, self.score, with_score,
        )


def move_record(
    player: int, kind: str, tiles: Sequence[Mapping[str, object]], count: int,
    score: int, with_score: bool = False,
) -> dict[str, object]:
    """Return one move of a game record (CONTRACT §5); the one writer of its keys.

    tiles are {row, col, color, shape} dicts (placing moves); count the tiles
    traded. Placing moves carry their score; trades and passes only with_score.
    """
    data: dict[str, object] = {"player": player, "type": kind}
    if kind == "place":
        data["tiles"] = list(tiles)
        data["score"] = score
    elif kind == "trade":
        data["count"] = count
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
    qwirkles: tuple[int, ...]


@dataclass(frozen=True)
class Preview:
    """What a placing move would do, worked out without recording it."""

    score: int
    """Points of the move, end bonus excluded."""
    breakdown: MoveScore
    """The lines it would score."""
    ends_game: bool
    """Whether the game would end with it."""
    end_bonus: int
    """The end bonus it would earn (0 or 6)."""


@dataclass(frozen=True)
class PlacedTile:
    """A tile on the board, with the move that put it there."""

    row: int
    """Row of the cell."""
    col: int
    """Column of the cell."""
    color: str
    """Colour name."""
    shape: str
    """Shape name."""
    move: int
    """0-based index of the move that placed it."""


@dataclass(frozen=True)
class Position:
    """The game as it stood after `step` moves (0: before the first)."""

    step: int
    """Moves played so far."""
    tiles: tuple[PlacedTile, ...]
    """The board, in the order the tiles were placed."""
    scores: tuple[int, ...]
    """Totals in seat order, end bonus included."""
    hands: tuple[int, ...]
    """Tiles each seat holds."""
    bag: int
    """Tiles in the bag."""
    qwirkles: tuple[int, ...]
    """Qwirkles each seat has made."""
    current_player: int
    """Seat to move next."""
    final: Final | None
    """How the game ended, when step is the last move of a finished game."""


def parse_tiles(raw: object) -> list[Placement]:
    """Turn a record's or request's tile list into Placements (ValueError if bad)."""
    if not isinstance(raw, list):
        raise BadInput("tiles_not_list")
    tiles = []
    for item in raw:
        if not isinstance(item, Mapping):
            raise BadInput("tile_not_object")
        try:
            row, col, color, shape = (item["row"], item["col"], item["color"],
                                      item["shape"])
        except KeyError as missing:
            raise BadInput("tile_missing", {"value": missing.args[0]}) from None
        if type(row) is not int or type(col) is not int:
            raise BadInput("tile_cell_type")
        if not isinstance(color, str) or not isinstance(shape, str):
            raise BadInput("tile_name_type")
        tiles.append(Placement(row, col, color, shape))
    return tiles


class Game:
    """A game in progress or finished: a position plus a move stack."""

    def __init__(
        self, variant: Variant | None = None, players: int = 2, first_player: int = 0
    ) -> None:
        variant = variant if variant is not None else CLASSIC
        if type(players) is not int or not 2 <= players <= variant.max_players:
            raise BadInput(
                "game_players",
                {"variant": variant.name, "max": variant.max_players, "value": players},
            )
        if type(first_player) is not int or not 0 <= first_player < players:
            raise BadInput(
                "game_first_player", {"last": players - 1, "value": first_player}
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
        zeros = (0,) * self.players
        return _State(zeros, hands, total - sum(hands), 0, None, zeros)

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
    def qwirkles(self) -> list[int]:
        """Qwirkles each seat has made, in seat order."""
        return list(self._states[-1].qwirkles)

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
        """Return, for every supply key, the copies not on the board (in hands or
        bag); keyed by variant.supply_key, so (colour, "") for cubes."""
        return self.board.unseen()

    def unseen_by_kind(self) -> dict[tuple[str, str], int]:
        """Return, for every (colour, shape) of the set, how many could still be
        placed as that kind: copies off the board (for cubes, of its colour)."""
        unseen = self.board.unseen()
        supply_key = self.variant.supply_key
        return {
            kind: unseen[supply_key(*kind)] for kind in self.variant.kinds
        }

    def peek(self) -> Move:
        """Return the last move; IndexError when there is none."""
        return self.moves[-1]

    def can_pass(self) -> bool:
        """Return whether the current player may pass (bag empty, game running)."""
        state = self._states[-1]
        return state.final is None and state.bag == 0 and self.variant.allows_pass

    def max_trade(self) -> int:
        """Return the most tiles the current player may trade now (0: none)."""
        state = self._states[-1]
        if state.final is not None or not self.moves or not self.variant.allows_trade:
            return 0
        return min(state.hands[self.current_player], state.bag)

    def at(self, step: int) -> Position:
        """Return the position after `step` moves (0 to turn); IndexError outside."""
        if type(step) is not int or not 0 <= step <= len(self.moves):
            raise IndexError(f"no step {step!r} in a game of {len(self.moves)} moves")
        state = self._states[step]
        tiles = tuple(
            PlacedTile(tile.row, tile.col, tile.color, tile.shape, index)
            for index, move in enumerate(self.moves[:step])
            for tile in move.tiles
        )
        return Position(
            step=step,
            tiles=tiles,
            scores=state.scores,
            hands=state.hands,
            bag=state.bag,
            qwirkles=state.qwirkles,
            current_player=(self.first_player + step) % self.players,
            final=state.final,
        )

    # -- checking --------------------------------------------------------------

    def _check_running(self) -> _State:
        state = self._states[-1]
        if state.final is not None:
            raise IllegalMove("game_over")
        return state

    def _check_hand(self, state: _State, count: int, key: str) -> None:
        hand = state.hands[self.current_player]
        if count > hand:
            raise IllegalMove(
                "too_many_tiles", key,
                {"player": self.current_player + 1, "num": hand, "count": count},
            )

    def check_place(self, tiles: Iterable[TileInput]) -> MoveScore:
        """Return what placing these tiles would score; IllegalMove if refused."""
        state = self._check_running()
        tiles = list(tiles)
        if tiles:
            self._check_hand(state, len(tiles), "hand_places")
        return self.board.check(tiles)

    def preview(self, tiles: Iterable[TileInput]) -> Preview:
        """Return what placing these tiles would do, recording nothing.

        The game is left as it was (nothing pushed or popped); IllegalMove if the
        move is refused.
        """
        tiles = list(tiles)
        breakdown = self.check_place(tiles)
        state = self._states[-1]
        seat = self.current_player
        hands, bag = self._after_draw(state, seat, len(tiles))
        if hands[seat] == 0 and bag == 0:
            return Preview(breakdown.points, breakdown, True, END_BONUS)
        after = self.board.copy()
        after.play(tiles)
        stalled = not after.can_place_any(after.unplayed_mask())
        return Preview(breakdown.points, breakdown, stalled, 0)

    @staticmethod
    def _after_draw(state: _State, seat: int, placed: int) -> tuple[list[int], int]:
        """Return the hands and the bag after seat places tiles and draws."""
        hands = list(state.hands)
        draw = min(placed, state.bag)
        hands[seat] += draw - placed
        return hands, state.bag - draw

    # -- moving ------------------------------------------------------------------

    def place(self, tiles: Iterable[TileInput]) -> Move:
        """Record a placing move for the current player and return it."""
        state = self._check_running()
        tiles = list(tiles)
        if tiles:
            self._check_hand(state, len(tiles), "hand_places")
        breakdown = self.board.play_scored(tiles)
        seat = self.current_player
        hands, bag = self._after_draw(state, seat, len(tiles))
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
        placements = tuple(Placement(*tile) for tile in tiles)
        move = Move(seat, "place", placements, 0, breakdown.points, breakdown, bonus)
        qwirkles = state.qwirkles
        if breakdown.qwirkles:
            seats = list(qwirkles)
            seats[seat] += breakdown.qwirkles
            qwirkles = tuple(seats)
        self.moves.append(move)
        self._states.append(
            _State(tuple(scores), tuple(hands), bag, 0, final, qwirkles)
        )
        return move

    def trade(self, count: int) -> Move:
        """Record a trade of `count` tiles for the current player and return it."""
        state = self._check_running()
        if type(count) is not int:
            raise BadInput("trade_count", {"value": count})
        if not self.variant.allows_trade:
            raise IllegalMove("trade_not_allowed")
        if not self.moves:
            raise IllegalMove("first_move_trade")
        if count < 1:
            raise IllegalMove("empty_move", "empty_trade")
        self._check_hand(state, count, "hand_trades")
        if count > state.bag:
            raise IllegalMove(
                "trade_exceeds_bag", None, {"num": state.bag, "count": count}
            )
        move = Move(self.current_player, "trade", (), count)
        self.moves.append(move)
        self._states.append(
            _State(state.scores, state.hands, state.bag, 0, None, state.qwirkles)
        )
        return move

    def pass_turn(self) -> Move:
        """Record a pass for the current player and return it."""
        state = self._check_running()
        if not self.variant.allows_pass:
            raise IllegalMove("pass_not_allowed", "pass_not_allowed_cubes")
        if state.bag > 0:
            raise IllegalMove("pass_not_allowed", None, {"num": state.bag})
        passes = state.passes + 1
        final = None
        if passes >= self.players:
            final = Final(state.scores, None, EndReason.ALL_PASSED)
        move = Move(self.current_player, "pass")
        self.moves.append(move)
        self._states.append(
            _State(state.scores, state.hands, 0, passes, final, state.qwirkles)
        )
        return move

    def push(self, move: Mapping[str, object]) -> Move:
        """Record a move given as a record dict (CONTRACT §5); 'player' and
        'score' are not checked here (see records.from_record)."""
        if not isinstance(move, Mapping):
            raise BadInput("move_not_object")
        kind = move.get("type")
        if kind == "place":
            return self.place(parse_tiles(move.get("tiles")))
        if kind == "trade":
            count = move.get("count")
            if type(count) is not int:
                raise BadInput("move_trade_count")
            return self.trade(count)
        if kind == "pass":
            return self.pass_turn()
        raise BadInput("move_type", {"value": kind})

    def pop(self) -> Move:
        """Take back the last move and return it; reopens a finished game.

        IndexError when there is no move.
        """
        move = self.moves.pop()
        self._states.pop()
        if move.type == "place":
            self.board.pop()
        return move
