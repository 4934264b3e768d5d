"""A game: a board plus the stack of moves, with turns, bag, hands and the end
(RULES §2, §5, §6)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from .board import Board
from .discipline import PENALIZING, Consequence, Options, Reason, check_seconds
from .errors import BadInput, IllegalMove
from .moves import MAX_MOVES, Move
from .parse import MoveInput, Placement, TileInput, parse_move
from .results import CLOSING, END_BONUS, EndReason, Final
from .scoring import MoveScore
from .tiles import CLASSIC, Variant

MENDABLE = frozenset({"gap", "first_move_too_small"})
"""Refusals of a move that more tiles of the same move may still put right."""


@dataclass(frozen=True)
class _State:
    """Bookkeeping after a move, kept per move so that undo is a pop."""

    scores: tuple[int, ...]
    hands: tuple[int, ...]
    bag: int
    passes: int
    final: Final | None
    qwirkles: tuple[int, ...]
    current: int
    """The seat to move next."""
    excluded: frozenset[int]
    """The seats out of the game."""


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
    excluded: frozenset[int] = frozenset()
    """Seats out of the game by then (RULES §7)."""
    left: frozenset[int] = frozenset()
    """Those of them whose players left (RULES §7.5)."""


def _leavers(moves: Iterable[Move]) -> frozenset[int]:
    """Return the seats that left the game in these moves (RULES §7.5)."""
    return frozenset(move.player for move in moves if move.type == "leave")


class Game:
    """A game in progress or finished: a position plus a move stack."""

    def __init__(
        self, variant: Variant | None = None, players: int = 2, first_player: int = 0,
        options: Options | None = None, *, max_moves: int = MAX_MOVES,
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
        self.options: Options = options if options is not None else Options()
        """The table's discipline (RULES §7): thinking time, penalties."""
        self.max_moves: int = max_moves
        """The most moves this game takes (MAX_MOVES; more only for a game stored
        before the limit, which then takes no further move)."""
        self.board: Board = Board(variant)
        """The tiles on the table."""
        self.moves: list[Move] = []
        """Every move so far, oldest first."""
        self._states: list[_State] = [self._deal()]
        self._closed: Final | None = None

    def __repr__(self) -> str:
        options = "" if self.options.is_default else f" {self.options!r}"
        return (
            f"<Game {self.variant!r} players={self.players}{options}"
            f" turn={self.turn} status={self.status}>"
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
        return _State(
            zeros, hands, total - sum(hands), 0, None, zeros, self.first_player,
            frozenset(),
        )

    def _next_seat(self, seat: int, excluded: frozenset[int]) -> int:
        """Return the seat in play after `seat` (seat order, excluded ones skipped)."""
        players = self.players
        seat = (seat + 1) % players
        while seat in excluded:
            seat = (seat + 1) % players
        return seat

    # -- reading -------------------------------------------------------------

    @property
    def turn(self) -> int:
        """Number of moves recorded."""
        return len(self.moves)

    @property
    def current_player(self) -> int:
        """Seat whose move it is (seat order from the first player, skipping
        excluded seats)."""
        return self._states[-1].current

    @property
    def excluded(self) -> frozenset[int]:
        """Seats excluded from the game (RULES §7)."""
        return self._states[-1].excluded

    def in_play(self) -> list[int]:
        """Return the seats still in the game, in seat order."""
        excluded = self._states[-1].excluded
        return [seat for seat in range(self.players) if seat not in excluded]

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
        """Tiles left in the bag: max(0, set − board − hand size · players in
        play) while hands are full (RULES §6, §7)."""
        return self._states[-1].bag

    @property
    def qwirkles(self) -> list[int]:
        """Qwirkles each seat has made, in seat order."""
        return list(self._states[-1].qwirkles)

    @property
    def final(self) -> Final | None:
        """How the game ended, or None while it runs."""
        return self._states[-1].final or self._closed

    @property
    def status(self) -> str:
        """'active' or 'finished'."""
        return "finished" if self.final is not None else "active"

    def is_over(self) -> bool:
        """Return whether the game has ended."""
        return self.final is not None

    @property
    def closed(self) -> bool:
        """Whether the table ended or abandoned the game (close) before its end."""
        return self._closed is not None

    def close(self, reason: EndReason | str) -> Final:
        """End the running game as it stands ('ended': scored, no end bonus) or
        abandon it ('abandoned': no result); return its final.

        IllegalMove game_over when it has ended; BadInput for another reason.
        """
        if reason not in CLOSING:
            raise BadInput("close_reason", {"value": reason})
        state = self._states[-1]
        if state.final is not None or self._closed is not None:
            raise IllegalMove("game_over")
        self._closed = Final(
            state.scores, None, EndReason(reason), tuple(sorted(state.excluded))
        )
        return self._closed

    def reopen(self) -> None:
        """Take back close: the game runs on from where it stood."""
        self._closed = None

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

    def can_pass(self) -> bool:
        """Return whether the current player may pass (bag empty, game running)."""
        state = self._states[-1]
        return self.final is None and state.bag == 0 and self.variant.allows_pass

    def max_trade(self) -> int:
        """Return the most tiles the current player may trade now (0: none)."""
        state = self._states[-1]
        if (self.final is not None or not self.variant.allows_trade
                or self._first_move_next()):
            return 0
        return min(state.hands[state.current], state.bag)

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
            current_player=state.current,
            final=state.final,
            excluded=state.excluded,
            left=_leavers(self.moves[:step]),
        )

    def replayed_to(self, step: int) -> Game:
        """Return a new game holding this one's first `step` moves (0 to turn),
        to ask what could be played then; IndexError outside."""
        if type(step) is not int or not 0 <= step <= len(self.moves):
            raise IndexError(f"no step {step!r} in a game of {len(self.moves)} moves")
        game = Game(self.variant, self.players, self.first_player, self.options,
                    max_moves=self.max_moves)
        for move in self.moves[:step]:
            game.push(move.to_dict())
        return game

    # -- checking --------------------------------------------------------------

    def _first_move_next(self) -> bool:
        """Return whether the game's first move is still to come: no move yet, or
        only penalties and leaves (a player who lost the first turn leaves it to
        the next)."""
        return not self.board and all(
            move.type in ("penalty", "leave") for move in self.moves
        )

    def _check_running(self) -> _State:
        state = self._states[-1]
        if self.final is not None:
            raise IllegalMove("game_over")
        if len(self.moves) >= self.max_moves:
            raise IllegalMove("too_many_moves", None, {"max": self.max_moves})
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
        hands, bag = self._after_draw(state, seat, len(tiles), self.variant.hand_size)
        if hands[seat] == 0 and bag == 0:
            return Preview(breakdown.points, breakdown, True, END_BONUS)
        after = self.board.copy()
        after.play(tiles)
        stalled = not after.can_place_any(after.unplayed_mask())
        return Preview(breakdown.points, breakdown, stalled, 0)

    def cell_options(
        self, cell: tuple[int, int], pending: Sequence[tuple[int, int, str, str]] = ()
    ) -> dict[tuple[str, str], Preview | IllegalMove]:
        """Return each tile kind that may go on cell with the pending tiles, and
        what the move would then do.

        A kind maps to the move's Preview, or to the IllegalMove of a move that
        more tiles of the same move may still mend (MENDABLE: a gap to fill, a
        first move still too small; or a move that does not touch the board yet
        and may reach it along its line, Board.mend_fault).
        Kinds with no copy left beside the pending ones (counted by the set's
        supply key) are left out, as is everything once the game is over.
        """
        if self.is_over():
            return {}
        variant = self.variant
        unseen = self.unseen()
        used: dict[tuple[str, str], int] = {}
        for _row, _col, color, shape in pending:
            key = variant.supply_key(color, shape)
            used[key] = used.get(key, 0) + 1
        found: dict[tuple[str, str], Preview | IllegalMove] = {}
        for kind in variant.kinds:
            key = variant.supply_key(*kind)
            if unseen.get(key, 0) - used.get(key, 0) <= 0:
                continue
            try:
                found[kind] = self._option([*pending, (*cell, *kind)])
            except (IllegalMove, BadInput):
                continue
        return found

    def _option(self, tiles: list[TileInput]) -> Preview | IllegalMove:
        """Return the preview of a move being entered, or the refusal more tiles
        of it may still mend; raise the refusal they cannot mend.

        A gap may be filled and a move that touches no tile yet may reach the
        board with more tiles (Board.mend_fault), so a move's tiles may be
        entered in any order along their line.
        """
        try:
            return self.preview(tiles)
        except IllegalMove as exc:
            if exc.code in ("gap", "not_connected"):
                fault = self.board.mend_fault(tiles)
                if fault is not None:
                    raise fault from None
                return exc
            if exc.code in MENDABLE:
                return exc
            raise

    def refusal(
        self, cell: tuple[int, int], kind: tuple[str, str],
        pending: Sequence[tuple[int, int, str, str]] = (),
    ) -> IllegalMove | None:
        """Return why this kind may not go on cell with the pending tiles (the
        refusal no later tile can mend), or None if cell_options offers it."""
        try:
            self._option([*pending, (*cell, *kind)])
        except IllegalMove as exc:
            return exc
        return None

    def first_options(
        self,
    ) -> dict[tuple[int, int], dict[tuple[str, str], Preview | IllegalMove]]:
        """Return cell_options(cell) for every cell where a move's first tile may go.

        The same as asking cell_options(cell) with no pending tile for each free cell,
        without trying the kinds that cannot go there (the board's legal map).
        """
        if self.is_over():
            return {}
        variant = self.variant
        unseen = self.unseen()
        found: dict[tuple[int, int], dict[tuple[str, str], Preview | IllegalMove]] = {}
        for kind, cells in self.board.legal_map().items():
            if unseen.get(variant.supply_key(*kind), 0) <= 0:
                continue
            for cell in cells:
                try:
                    result: Preview | IllegalMove = self.preview([(*cell, *kind)])
                except IllegalMove as exc:
                    if exc.code not in MENDABLE:
                        continue
                    result = exc
                found.setdefault(cell, {})[kind] = result
        return found

    @staticmethod
    def _after_draw(
        state: _State, seat: int, placed: int, hand_size: int
    ) -> tuple[list[int], int]:
        """Return the hands and the bag after seat places tiles and draws back up
        to a full hand, as far as the bag allows.

        While the bag lasts every hand is full, so this draws as many as were
        placed; a hand left short once the bag ran out refills only when an
        exclusion has put tiles back into the bag (RULES §7).
        """
        hands = list(state.hands)
        kept = hands[seat] - placed
        draw = min(hand_size - kept, state.bag)
        hands[seat] = kept + draw
        return hands, state.bag - draw

    # -- moving ------------------------------------------------------------------

    def place(self, tiles: Iterable[TileInput], seconds: int | None = None) -> Move:
        """Record a placing move for the current player and return it; `seconds`
        is the thinking time, when known."""
        state = self._check_running()
        seconds = check_seconds(seconds)
        tiles = list(tiles)
        if tiles:
            self._check_hand(state, len(tiles), "hand_places")
        breakdown = self.board.play_scored(tiles)
        seat = state.current
        hands, bag = self._after_draw(state, seat, len(tiles), self.variant.hand_size)
        scores = list(state.scores)
        scores[seat] += breakdown.points
        final = None
        bonus = 0
        if hands[seat] == 0 and bag == 0:
            bonus = END_BONUS
            scores[seat] += bonus
            final = Final(
                tuple(scores), seat, EndReason.HAND_EMPTIED,
                tuple(sorted(state.excluded)),
            )
        elif not self.board.can_place_any(self.board.unplayed_mask()):
            final = Final(
                tuple(scores), None, EndReason.STALLED, tuple(sorted(state.excluded))
            )
        # The board has checked every tile's types and names by now.
        placements = tuple(Placement(*tile) for tile in tiles)
        move = Move(
            seat, "place", placements, 0, breakdown.points, breakdown, bonus,
            seconds=seconds,
        )
        qwirkles = state.qwirkles
        if breakdown.qwirkles:
            seats = list(qwirkles)
            seats[seat] += breakdown.qwirkles
            qwirkles = tuple(seats)
        self.moves.append(move)
        self._states.append(
            _State(
                tuple(scores), tuple(hands), bag, 0, final, qwirkles,
                self._next_seat(seat, state.excluded), state.excluded,
            )
        )
        return move

    def trade(self, count: int, seconds: int | None = None) -> Move:
        """Record a trade of `count` tiles for the current player and return it."""
        state = self._check_running()
        if type(count) is not int:
            raise BadInput("trade_count", {"value": count})
        seconds = check_seconds(seconds)
        if not self.variant.allows_trade:
            raise IllegalMove("trade_not_allowed")
        if self._first_move_next():
            raise IllegalMove("first_move_trade")
        if count < 1:
            raise IllegalMove("empty_move", "empty_trade")
        self._check_hand(state, count, "hand_trades")
        if count > state.bag:
            # An empty bag has nothing to trade for: "the bag holds 0 tiles; a
            # trade of 1 would need more" says it the long way round.
            raise IllegalMove(
                "trade_exceeds_bag", None if state.bag else "trade_bag_empty",
                {"num": state.bag, "count": count},
            )
        seat = state.current
        move = Move(seat, "trade", (), count, seconds=seconds)
        self.moves.append(move)
        self._states.append(
            _State(
                state.scores, state.hands, state.bag, 0, None, state.qwirkles,
                self._next_seat(seat, state.excluded), state.excluded,
            )
        )
        return move

    def pass_turn(self, seconds: int | None = None) -> Move:
        """Record a pass for the current player and return it."""
        state = self._check_running()
        seconds = check_seconds(seconds)
        if not self.variant.allows_pass:
            raise IllegalMove("pass_not_allowed", "pass_not_allowed_cubes")
        if state.bag > 0:
            raise IllegalMove("pass_not_allowed", None, {"num": state.bag})
        passes = state.passes + 1
        final = None
        if passes >= self.players - len(state.excluded):
            final = Final(
                state.scores, None, EndReason.ALL_PASSED, tuple(sorted(state.excluded))
            )
        seat = state.current
        move = Move(seat, "pass", seconds=seconds)
        self.moves.append(move)
        self._states.append(
            _State(
                state.scores, state.hands, 0, passes, final, state.qwirkles,
                self._next_seat(seat, state.excluded), state.excluded,
            )
        )
        return move

    def check_penalty(self, reason: str) -> Consequence:
        """Return what a penalty for `reason` would do to the current player;
        IllegalMove `no_penalty` when this table sets none (RULES §7)."""
        self._check_running()
        consequence = self.options.consequence(reason)
        if consequence not in PENALIZING:
            raise IllegalMove(
                "no_penalty", f"no_penalty_{reason}", {"consequence": consequence.value}
            )
        return consequence

    def penalty(self, reason: str) -> Move:
        """Record a penalty for the current player ('illegal' or 'timeout') and
        return it: the turn passes, and the table's consequence applies."""
        state = self._states[-1]
        consequence = self.check_penalty(reason)
        seat = state.current
        scores, hands, bag = state.scores, state.hands, state.bag
        excluded, final = state.excluded, None
        score = 0
        if consequence is Consequence.DEDUCT:
            score = -self.options.penalty_points
            changed = list(scores)
            changed[seat] += score
            scores = tuple(changed)
        elif consequence is Consequence.EXCLUDE:
            hands, bag, excluded, final = self._out_of_play(
                state, seat, EndReason.EXCLUDED
            )
        move = Move(
            seat, "penalty", (), 0, score, reason=Reason(reason).value,
            consequence=consequence.value,
        )
        self.moves.append(move)
        # A penalty is not a pass: "every player passed in turn" starts again.
        self._states.append(
            _State(
                scores, hands, bag, 0, final, state.qwirkles,
                self._next_seat(seat, excluded), excluded,
            )
        )
        return move

    def _out_of_play(
        self, state: _State, seat: int, reason: EndReason
    ) -> tuple[tuple[int, ...], int, frozenset[int], Final | None]:
        """Return the hands, bag, seats out of play and final once seat leaves
        play (RULES §7.3, §7.5): the hand goes back into the bag, the score stays
        on the sheet, and with one player left in play the game ends for
        `reason`, with no end bonus."""
        excluded = state.excluded | {seat}
        bag = state.bag + state.hands[seat]
        hands = tuple(0 if s == seat else n for s, n in enumerate(state.hands))
        final = None
        if self.players - len(excluded) == 1:
            final = Final(state.scores, None, reason, tuple(sorted(excluded)))
        return hands, bag, excluded, final

    def check_leave(self, seat: object) -> int:
        """Return the seat of a player who may leave the game now (RULES §7.5);
        BadInput for no seat of this game, IllegalMove `not_in_play` for a seat
        already out of play, `game_over` once the game has ended."""
        self._check_running()
        if type(seat) is not int or not 0 <= seat < self.players:
            raise BadInput("leave_player", {"last": self.players - 1, "value": seat})
        if seat in self._states[-1].excluded:
            raise IllegalMove("not_in_play", None, {"player": seat + 1})
        return seat

    def leave(self, seat: object) -> Move:
        """Record that the player at `seat` leaves the running game and return
        the move (RULES §7.5): any seat in play may leave, in turn or not; the
        others play on, and the turn passes on only if it was the leaver's."""
        seat = self.check_leave(seat)
        state = self._states[-1]
        hands, bag, excluded, final = self._out_of_play(state, seat, EndReason.LEFT)
        current = state.current
        if current == seat:
            current = self._next_seat(seat, excluded)
        move = Move(seat, "leave")
        self.moves.append(move)
        # Tiles went back into the bag: "every player passed in turn" starts again.
        self._states.append(
            _State(state.scores, hands, bag, 0, final, state.qwirkles, current,
                   excluded)
        )
        return move

    @property
    def left(self) -> frozenset[int]:
        """Seats whose players left the game (RULES §7.5), a part of `excluded`."""
        return _leavers(self.moves)

    def push(self, move: MoveInput | Mapping[str, object]) -> Move:
        """Record a move given as a record dict (CONTRACT §5, §10), read by
        parse.parse_move, or as the MoveInput it reads; 'player' and 'score'
        are not checked here (see records.from_record)."""
        move = parse_move(move)
        if move.type == "place":
            return self.place(move.tiles, move.seconds)
        if move.type == "trade":
            return self.trade(move.count, move.seconds)
        if move.type == "pass":
            return self.pass_turn(move.seconds)
        if move.type == "leave":
            return self.leave(move.player)
        return self.penalty(str(move.reason))

    def pop(self) -> Move:
        """Take back the last move and return it; reopens a finished game.

        IndexError when there is no move.
        """
        move = self.moves.pop()
        self._states.pop()
        self._closed = None
        if move.type == "place":
            self.board.pop()
        return move
