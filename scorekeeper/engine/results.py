"""How a game ends and who wins: the end reasons, the end bonus, the ranking
(RULES §6, §7)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from enum import StrEnum

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
    EXCLUDED = "excluded"
    """Every player but one was excluded (RULES §7); no bonus."""
    LEFT = "left"
    """Every player but one left the game (RULES §7.5); no bonus."""
    ENDED = "ended"
    """The table ended the game before its end: scored as it stood; no bonus."""
    ABANDONED = "abandoned"
    """The table abandoned the game: kept, but with no result."""


CLOSING = frozenset({EndReason.ENDED, EndReason.ABANDONED})
"""End reasons the table chooses (Game.close) rather than the moves."""


def ranks(scores: Sequence[int]) -> list[int]:
    """Return each seat's rank, 1 for the best; seats with equal totals share a
    rank and the next rank counts them (1, 1, 3)."""
    return [1 + sum(1 for other in scores if other > own) for own in scores]


def winners(
    scores: Sequence[int], excluded: Iterable[int] = ()
) -> tuple[int, ...]:
    """Return the seats with the highest total (ties are shared, RULES §6);
    excluded seats are not ranked (RULES §7)."""
    out = set(excluded)
    ranked = [score for seat, score in enumerate(scores) if seat not in out]
    if not ranked:
        return ()
    best = max(ranked)
    return tuple(
        seat for seat, score in enumerate(scores) if score == best and seat not in out
    )


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
    excluded: tuple[int, ...] = ()
    """Seats excluded from the game (RULES §7): on the sheet, not in the ranking."""

    @property
    def winners(self) -> tuple[int, ...]:
        """Seats in play with the highest total (ties are shared); none for an
        abandoned game."""
        return winners(self.scores, self.excluded) if self.scored else ()

    def ranking(self) -> list[Standing]:
        """Return the standing of every seat in play, best first (seat order among
        ties); excluded seats are listed apart (`excluded`)."""
        seats = [seat for seat in range(len(self.scores)) if seat not in self.excluded]
        places = ranks([self.scores[seat] for seat in seats])
        return sorted(
            (
                Standing(rank, seat, self.scores[seat], seat == self.end_bonus_player)
                for seat, rank in zip(seats, places, strict=True)
            ),
            key=lambda standing: (standing.rank, standing.seat),
        )

    @property
    def scored(self) -> bool:
        """Whether the game has a result (an abandoned game has none)."""
        return self.reason is not EndReason.ABANDONED

    def to_dict(self) -> dict[str, object]:
        """Return the record's "final" object (CONTRACT §5)."""
        return {
            "scores": list(self.scores),
            "end_bonus_player": self.end_bonus_player,
            "reason": self.reason.value,
        }
