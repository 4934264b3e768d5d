"""Table discipline (ahoi, seed 003; RULES §7, CONTRACT §10): a thinking time per
move and what an illegal move or an overrun costs."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum

from .errors import BadInput


class Consequence(StrEnum):
    """What a penalty does to the player who earned it."""

    RETRY = "retry"
    """Nothing is recorded: the app refuses the move and the player tries again."""
    NONE = "none"
    """Nothing happens (an overrun goes unpunished)."""
    LOSE_TURN = "lose_turn"
    """The move is void and the turn passes (the seed's "nothing", 8.1)."""
    DEDUCT = "deduct"
    """The turn passes and `penalty_points` come off the player's total."""
    EXCLUDE = "exclude"
    """The player leaves the game: their hand goes back into the bag."""


class Reason(StrEnum):
    """Why a penalty is recorded."""

    ILLEGAL = "illegal"
    """The player made a move the rules refuse."""
    TIMEOUT = "timeout"
    """The player's thinking time ran out."""


ON_ILLEGAL: tuple[Consequence, ...] = (
    Consequence.RETRY, Consequence.LOSE_TURN, Consequence.DEDUCT, Consequence.EXCLUDE,
)
"""What a table may choose for an illegal move (seed 003, 8.1–8.3, plus retry)."""

ON_TIMEOUT: tuple[Consequence, ...] = (
    Consequence.NONE, Consequence.LOSE_TURN, Consequence.DEDUCT, Consequence.EXCLUDE,
)
"""What a table may choose for an overrun (seed 003, 9.2–9.3, plus none)."""

PENALIZING: frozenset[Consequence] = frozenset({
    Consequence.LOSE_TURN, Consequence.DEDUCT, Consequence.EXCLUDE,
})
"""The consequences a penalty move records; retry and none record nothing."""

MOVE_SECONDS = (10, 3600)
"""Shortest and longest thinking time a table may set, in seconds."""

PENALTY_POINTS = (1, 100)
"""Smallest and largest deduction a table may set."""

MAX_THINKING_SECONDS = 86_400
"""Longest thinking time a move may carry (a day: a game left overnight)."""

FIELDS = ("move_seconds", "on_illegal", "on_timeout", "penalty_points")
"""The settings, in the order a record writes them."""


def _whole(value: object) -> bool:
    return type(value) is int


@dataclass(frozen=True)
class Options:
    """A table's discipline: thinking time and the cost of an illegal move or an
    overrun. The defaults are a friendly table's: no clock, no penalties."""

    move_seconds: int | None = None
    """Thinking time per move in seconds (10 to 3600), or None for no clock."""
    on_illegal: str = Consequence.RETRY.value
    """What an illegal move costs: retry, lose_turn, deduct or exclude."""
    on_timeout: str = Consequence.NONE.value
    """What an overrun costs: none, lose_turn, deduct or exclude."""
    penalty_points: int = 5
    """Points a deduction takes off (1 to 100)."""

    def __post_init__(self) -> None:
        low, high = MOVE_SECONDS
        seconds = self.move_seconds
        if seconds is not None and not (_whole(seconds) and low <= seconds <= high):
            raise BadInput(
                "options_move_seconds", {"low": low, "high": high, "value": seconds}
            )
        for field, allowed in (("on_illegal", ON_ILLEGAL),
                               ("on_timeout", ON_TIMEOUT)):
            value = getattr(self, field)
            if value not in allowed:
                raise BadInput(
                    "options_choice",
                    {"field": field, "choices": ", ".join(allowed), "value": value},
                )
        low, high = PENALTY_POINTS
        points = self.penalty_points
        if not (_whole(points) and low <= points <= high):
            raise BadInput(
                "options_penalty_points", {"low": low, "high": high, "value": points}
            )
        # Enum members compare equal to their values; store plain strings so
        # that two equal Options are equal and hash alike however they were made.
        object.__setattr__(self, "on_illegal", str(Consequence(self.on_illegal)))
        object.__setattr__(self, "on_timeout", str(Consequence(self.on_timeout)))

    def consequence(self, reason: str) -> Consequence:
        """Return what a penalty for `reason` ('illegal' or 'timeout') does."""
        if reason == Reason.ILLEGAL:
            return Consequence(self.on_illegal)
        if reason == Reason.TIMEOUT:
            return Consequence(self.on_timeout)
        raise BadInput("penalty_reason", {"value": reason})

    @property
    def penalties(self) -> tuple[Reason, ...]:
        """The reasons for which a penalty can be recorded at this table."""
        return tuple(
            reason for reason in Reason if self.consequence(reason) in PENALIZING
        )

    @property
    def is_default(self) -> bool:
        """Whether these are the friendly defaults (written in no record)."""
        return self == DEFAULT

    def to_dict(self) -> dict[str, object]:
        """Return the options as CONTRACT §10 writes them (every setting)."""
        return {field: getattr(self, field) for field in FIELDS}

    @classmethod
    def from_dict(cls, data: object) -> Options:
        """Build options from a request's or record's dict (None: the defaults);
        BadInput for anything else."""
        if data is None:
            return DEFAULT
        if not isinstance(data, Mapping):
            raise BadInput("options_not_object", {"names": ", ".join(FIELDS)})
        unknown = [key for key in data if key not in FIELDS]
        if unknown:
            raise BadInput(
                "options_unknown", {"value": unknown[0], "names": ", ".join(FIELDS)}
            )
        values = {key: data[key] for key in FIELDS if key in data}
        return cls(**values)


DEFAULT = Options()
"""A friendly table: no thinking time, an illegal move is retried, no penalties."""


def check_seconds(value: object) -> int | None:
    """Return a move's thinking time (None when absent); BadInput if not a whole
    number of seconds from 0 to MAX_THINKING_SECONDS."""
    if value is None:
        return None
    if type(value) is not int or not 0 <= value <= MAX_THINKING_SECONDS:
        raise BadInput("move_seconds", {"high": MAX_THINKING_SECONDS, "value": value})
    return value
