"""The record of moves: one turn as the game keeps it and as a game record
writes it (CONTRACT §5), and the rounds they make."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from .discipline import Consequence
from .parse import Placement
from .scoring import MoveScore

MAX_MOVES = 1000
"""The most moves a game holds (CONTRACT §8): a real game has about 50, and every
path that adds moves (API, forms, import, restore, correction) stops here."""


@dataclass(frozen=True)
class Move:
    """One turn: a placing move, a trade, a pass or a penalty (RULES §7), or a
    player leaving the game (RULES §7.5), which is no turn of theirs."""

    player: int
    """Seat of the player who moved (or left)."""
    type: str
    """'place', 'trade', 'pass', 'penalty' or 'leave'."""
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
    reason: str = ""
    """Why a penalty was given: 'illegal' or 'timeout' (penalties only)."""
    consequence: str = ""
    """What the penalty did: 'lose_turn', 'deduct' or 'exclude' (penalties only)."""
    seconds: int | None = None
    """The player's thinking time in whole seconds, when the move carried it."""

    @property
    def excludes(self) -> bool:
        """Whether this move took its player out of the game."""
        return self.consequence == Consequence.EXCLUDE

    @property
    def mover(self) -> int | None:
        """The seat whose turn this move was; None for a leave, which is no
        turn (RULES §7.5): move_rounds keeps it in the round under way."""
        return None if self.type == "leave" else self.player

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

        Placing moves always carry their score; trades, passes and penalties
        only when `with_score` asks for it.
        """
        return move_record(
            self.player, self.type,
            [
                {"row": t.row, "col": t.col, "color": t.color, "shape": t.shape}
                for t in self.tiles
            ],
            self.count, self.score, with_score, reason=self.reason,
            seconds=self.seconds,
        )


def move_record(
    player: int, kind: str, tiles: Sequence[Mapping[str, object]], count: int,
    score: int, with_score: bool = False, *, reason: str = "",
    seconds: int | None = None,
) -> dict[str, object]:
    """Return one move of a game record (CONTRACT §5, §10); the one writer of its
    keys.

    tiles are {row, col, color, shape} dicts (placing moves); count the tiles
    traded; reason why a penalty was given; seconds the thinking time, written
    only when known. Placing moves carry their score; the others only
    with_score (a penalty's is 0, or minus the points it deducted).
    """
    data: dict[str, object] = {"player": player, "type": kind}
    if kind == "place":
        data["tiles"] = list(tiles)
        data["score"] = score
    elif kind == "trade":
        data["count"] = count
        if with_score:
            data["score"] = 0
    elif kind == "penalty":
        data["reason"] = reason
        if with_score:
            data["score"] = score
    elif with_score:
        data["score"] = 0
    if seconds is not None:
        data["seconds"] = seconds
    return data


def move_rounds(movers: Iterable[int | None]) -> list[int]:
    """Return the round of each move, from 1, given the seat that made each
    (Move.mover): a round is one turn of every seat in play, so a new one starts
    when a seat that has moved in it moves again (with nobody excluded, every
    `players` moves); a move that is no turn (None) is in the round under way."""
    rounds: list[int] = []
    number, seen = 1, set[int]()
    for seat in movers:
        if seat in seen:
            number, seen = number + 1, set()
        if seat is not None:
            seen.add(seat)
        rounds.append(number)
    return rounds
