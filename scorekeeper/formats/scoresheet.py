"""The score sheet (CONTRACT §6): a row per round, a column per seat, a total;
its CSV; and what the printed sheet (its page and its PDF) shows."""

from __future__ import annotations

import csv
import io
from collections.abc import Sequence
from dataclasses import dataclass

from .. import engine, text, timestamps
from .base import GameFile

FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
"""Cell openings a spreadsheet runs as a formula; such cells get a leading quote."""

HEADER, FOOTER = "Round", "Total"
"""The CSV's first cells of the header and the last row, in English whatever the
page's language, for spreadsheets (CONTRACT §9)."""


@dataclass(frozen=True)
class Cell:
    """One player's entry in one round."""

    points: int
    """Points of the move, end bonus included (0 for a trade or pass)."""
    type: str
    """The move's type: "place", "trade" or "pass"."""
    seq: int
    """0-based index of the move in the game."""
    qwirkles: int = 0
    """Qwirkles the move completed."""
    end_bonus: int = 0
    """The end bonus earned by the move (0 or 6)."""
    excludes: bool = False
    """Whether the move was a penalty that took its player out (RULES §7)."""


@dataclass(frozen=True)
class Round:
    """One round: a move by each seat, starting at the first player."""

    number: int
    """1-based round number."""
    cells: tuple[Cell | None, ...]
    """Per seat in seat order; None where that seat has not moved in this round."""


@dataclass(frozen=True)
class ScoreSheet:
    """The whole sheet: player names, rounds and totals."""

    names: tuple[str, ...]
    """Player names in seat order."""
    rounds: tuple[Round, ...]
    """Rounds in play order."""
    totals: tuple[int, ...]
    """Each seat's total, end bonus included."""
    excluded: tuple[int, ...] = ()
    """Seats excluded from the game: their totals stand, unranked (RULES §7)."""
    left: tuple[int, ...] = ()
    """Seats whose players left the game, a part of `excluded` (RULES §7.5)."""

    @property
    def has_penalties(self) -> bool:
        """Whether any cell is a penalty (the sheet's key then explains it)."""
        return any(
            cell is not None and cell.type == "penalty"
            for round_ in self.rounds for cell in round_.cells
        )

    def rows(self) -> list[list[str | int]]:
        """Return the sheet as CSV rows: header, one row per round, then Total."""
        out: list[list[str | int]] = [[HEADER, *self.names]]
        for round_ in self.rounds:
            row: list[str | int] = [round_.number]
            row.extend("" if cell is None else cell.points for cell in round_.cells)
            out.append(row)
        out.append([FOOTER, *self.totals])
        return out


def score_sheet(names: Sequence[str], game: engine.Game) -> ScoreSheet:
    """Return the score sheet of game for the given player names."""
    seats = game.players
    rounds: list[list[Cell | None]] = []
    numbers = engine.move_rounds(move.mover for move in game.moves)
    for seq, (move, number) in enumerate(zip(game.moves, numbers, strict=True)):
        if move.mover is None:
            continue  # a leave is no turn: the sheet marks the leaver's column
        if number > len(rounds):
            rounds.append([None] * seats)
        rounds[number - 1][move.player] = Cell(
            points=move.points,
            type=move.type,
            seq=seq,
            qwirkles=move.qwirkles,
            end_bonus=move.end_bonus,
            excludes=move.excludes,
        )
    return ScoreSheet(
        names=tuple(names),
        rounds=tuple(Round(i + 1, tuple(cells)) for i, cells in enumerate(rounds)),
        totals=tuple(game.scores),
        excluded=tuple(sorted(game.excluded)),
        left=tuple(sorted(game.left)),
    )


def neutralise(value: str | int) -> str | int:
    """Return a cell value a spreadsheet will not evaluate as a formula."""
    if isinstance(value, str) and value.startswith(FORMULA_STARTS):
        return "'" + value
    return value


def to_csv(sheet: ScoreSheet) -> str:
    """Return the sheet as CSV text with a UTF-8 byte-order mark for spreadsheets."""
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\r\n")
    for row in sheet.rows():
        writer.writerow([neutralise(value) for value in row])
    return "\ufeff" + buffer.getvalue()


def csv_file(source: GameFile) -> str:
    """Build the score sheet CSV of a stored game."""
    return to_csv(score_sheet(source.names, source.game))


@dataclass(frozen=True)
class SheetView:
    """Everything a printed score sheet shows."""

    sheet: ScoreSheet
    """Rounds and totals."""
    winners: tuple[int, ...]
    """Winning seats (empty while the game runs)."""
    winner_line: str
    """"Winner: Ann", or that the game still runs."""
    qwirkles: tuple[int, ...]
    """Qwirkles per seat."""
    started_at: str
    """When play started (ISO timestamp)."""
    date: str
    """That moment in the reader's language and zone ("26 nov. 2026 14:05")."""
    duration: str
    """How long the game took: "1 h 05 min"."""
    reason: str
    """How the game ended ("" while it runs)."""
    set_description: str
    """The set, when it is not the classic box."""


def sheet_view(source: GameFile) -> SheetView:
    """Return the printed sheet of a stored game."""
    game = source.game
    final = game.final
    winners = final.winners if final is not None else ()
    return SheetView(
        sheet=score_sheet(source.names, game),
        winners=winners,
        winner_line=(
            text.end_reason(final.reason.value)
            if final is not None and not final.scored
            else text.winners_line(source.names, winners)
        ),
        qwirkles=tuple(game.qwirkles),
        started_at=source.started_at,
        date=text.date(source.started_at),
        duration=text.duration(
            timestamps.duration_minutes(source.first_move_at, source.last_move_at)
        ),
        reason=(
            text.final_reason(final, source.names, game.variant)
            if final is not None else ""
        ),
        set_description=text.set_description(game.variant),
    )


PENALTY_MARK = "!"
"""How a sheet marks a penalty (RULES §7), beside its 0 or deduction."""

EXCLUDED_MARK = "✕"
"""How a sheet marks the penalty that excluded a player."""


LEFT_MARK = "↗"
"""How a sheet marks the total of a player who left the game (RULES §7.5)."""


def cell_text(cell: Cell | None) -> str:
    """Return a score-sheet cell as written on paper, e.g. "18 Q" or "9 (+6)"."""
    if cell is None:
        return ""
    if cell.type == "trade":
        written = "0 ⇄"
    elif cell.type == "pass":
        written = "0 –"
    elif cell.type == "penalty":
        written = f"{cell.points} {PENALTY_MARK}"
        if cell.excludes:
            written += " " + EXCLUDED_MARK
    else:
        written = str(cell.points)
    if cell.qwirkles:
        written += " Q" * cell.qwirkles
    if cell.end_bonus:
        written += f" (+{cell.end_bonus})"
    return written


def legend(
    variant: engine.Variant, penalties: bool = False, left: bool = False
) -> str:
    """Return the key to cell_text's marks, as the PDF prints it (with the
    penalty marks when the sheet has penalties, and the mark of a player who
    left when one did)."""
    key = text.sheet_legend(
        variant, trade="0 ⇄", passed="0 –", bonus=f"(+{engine.END_BONUS})",
        winner="*",
    )
    if penalties:
        key += " " + text.penalty_legend(
            penalty=PENALTY_MARK, excluded=EXCLUDED_MARK
        )
    if left:
        key += " " + text.left_legend(LEFT_MARK)
    return key
