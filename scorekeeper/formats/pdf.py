"""The printable score sheet as a PDF file (fpdf2), laid out like the paper pad."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from fpdf import FPDF

from .. import text
from .base import GameFile
from .scoresheet import ScoreSheet
from .sheet import cell_text, legend, sheet_view

# A Unicode TTF lets names such as "Zoë" or "Łukasz" print as typed; where none
# is installed the core font is used and characters outside Latin-1 become "?".
_FONT_CANDIDATES = (
    "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf",
    "/usr/share/fonts/dejavu/DejaVuSans.ttf",
    "/Library/Fonts/Arial Unicode.ttf",
    "C:/Windows/Fonts/arial.ttf",
)


def _unicode_font() -> str | None:
    """Return the path of an installed Unicode TTF font, or None."""
    for candidate in _FONT_CANDIDATES:
        if Path(candidate).is_file():
            return candidate
    return None


def scoresheet_pdf(
    sheet: ScoreSheet,
    *,
    winners: Sequence[int],
    title: str,
    date: str,
    winner_line: str,
    legend: str | None = None,
    round_label: str = "Round",
    total_label: str = "Total",
) -> bytes:
    """Return an A4 PDF of `sheet` laid out like the paper score pad.

    legend None prints none; a legend should match the font (unicode_font()).
    """
    pdf = FPDF(orientation="P", unit="mm", format="A4")
    pdf.set_auto_page_break(auto=True, margin=15)
    pdf.set_title(title)
    pdf.set_creator("Qwirkle Scorekeeper")
    font_path = _unicode_font()
    if font_path:
        pdf.add_font("Sheet", "", font_path)
        family, unicode_ok = "Sheet", True
    else:
        family, unicode_ok = "Helvetica", False

    def latin(value: str) -> str:
        if unicode_ok:
            return value
        return value.encode("latin-1", "replace").decode("latin-1")

    players = len(sheet.names)
    usable = pdf.w - pdf.l_margin - pdf.r_margin
    first_w = 18.0
    col_w = min(40.0, (usable - first_w) / max(players, 1))
    row_h = 7.0

    def header() -> None:
        pdf.set_font(family, size=10)
        pdf.set_fill_color(235, 235, 235)
        pdf.cell(first_w, row_h, latin(round_label), border=1, align="C", fill=True)
        for name in sheet.names:
            pdf.cell(col_w, row_h, latin(name[:18]), border=1, align="C", fill=True)
        pdf.ln(row_h)

    pdf.add_page()
    pdf.set_font(family, size=16)
    pdf.cell(0, 9, latin(title), new_x="LMARGIN", new_y="NEXT")
    pdf.set_font(family, size=10)
    pdf.cell(0, 6, latin(date), new_x="LMARGIN", new_y="NEXT")
    if winner_line:
        pdf.cell(0, 6, latin(winner_line), new_x="LMARGIN", new_y="NEXT")
    pdf.ln(2)
    header()
    for round_ in sheet.rounds:
        if pdf.will_page_break(row_h):
            pdf.add_page()
            header()
        pdf.cell(first_w, row_h, str(round_.number), border=1, align="C")
        for cell in round_.cells:
            label = cell_text(cell, unicode_ok=unicode_ok)
            pdf.cell(col_w, row_h, latin(label), border=1, align="C")
        pdf.ln(row_h)
    pdf.set_font(family, size=11)
    pdf.cell(first_w, row_h + 1, latin(total_label), border=1, align="C", fill=True)
    for seat, total in enumerate(sheet.totals):
        mark = " *" if seat in winners else ""
        if seat in sheet.excluded:
            mark = " " + ("✕" if unicode_ok else "X")
        pdf.cell(col_w, row_h + 1, f"{total}{mark}", border=1, align="C", fill=True)
    pdf.ln(row_h + 4)
    if legend:
        pdf.set_font(family, size=8)
        pdf.multi_cell(0, 4, latin(legend))
    return bytes(pdf.output())


def pdf_file(source: GameFile) -> bytes:
    """Build the score sheet PDF of a stored game, in the page's language."""
    view = sheet_view(source)
    date = f"{view.date} UTC · {view.duration}" if view.date else view.duration
    return scoresheet_pdf(
        view.sheet,
        winners=view.winners,
        title=text.sheet_title(source.id),
        date=date,
        winner_line=view.winner_line,
        legend=legend(
            source.game.variant, unicode_ok=_unicode_font() is not None,
            penalties=view.sheet.has_penalties,
        ),
        round_label=text.round_label(),
        total_label=text.total_label(),
    )
