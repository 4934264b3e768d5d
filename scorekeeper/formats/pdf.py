"""The printable score sheet as a PDF file (fpdf2), laid out like the paper pad."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from .. import i18n, text
from .base import GameFile
from .scoresheet import (
    EXCLUDED_MARK,
    LEFT_MARK,
    ScoreSheet,
    cell_text,
    legend,
    sheet_view,
)

FONT = Path(__file__).resolve().parent.parent / "fonts" / "DejaVuSans.ttf"
"""The sheet's font, shipped in the package (DejaVu Sans, from Debian's
fonts-dejavu-core; its licence is beside it): Latin, Greek and Cyrillic names
print as typed on any machine."""


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
    language: str = "en",
    reason: str = "",
    qwirkles: Sequence[int] | None = None,
    qwirkles_label: str = "Qwirkles",
) -> bytes:
    """Return an A4 PDF of `sheet` laid out like the paper score pad (legend None
    prints none): as the printable page, the winner line with how the game ended
    (`reason`, e.g. "ended early") and, under the totals, each player's Qwirkles."""
    # fpdf (with Pillow and fontTools, 50 MB) is imported where a sheet is
    # drawn, in the helper process (web/helper.py): never by an idle server.
    from fpdf import FPDF

    pdf = FPDF(orientation="P", unit="mm", format="A4")
    pdf.set_auto_page_break(auto=True, margin=15)
    pdf.set_title(title)
    pdf.set_creator("Qwirkle Scorekeeper")
    pdf.set_lang(language)
    pdf.add_font("Sheet", "", str(FONT))
    family = "Sheet"

    players = len(sheet.names)
    usable = pdf.w - pdf.l_margin - pdf.r_margin
    # Wide enough for the round column's words in every language ("Tour de table").
    pdf.set_font(family, size=11)
    first_w = max(
        18.0, *(pdf.get_string_width(label) + 4 for label in (round_label, total_label))
    )
    col_w = min(40.0, (usable - first_w) / max(players, 1))
    row_h = 7.0

    def header() -> None:
        pdf.set_font(family, size=10)
        pdf.set_fill_color(235, 235, 235)
        pdf.cell(first_w, row_h, round_label, border=1, align="C", fill=True)
        for name in sheet.names:
            pdf.cell(col_w, row_h, name[:18], border=1, align="C", fill=True)
        pdf.ln(row_h)

    pdf.add_page()
    pdf.set_font(family, size=16)
    pdf.cell(0, 9, title, new_x="LMARGIN", new_y="NEXT")
    pdf.set_font(family, size=10)
    pdf.cell(0, 6, date, new_x="LMARGIN", new_y="NEXT")
    # As the printable page joins them.
    line = ". ".join(part for part in (winner_line, reason) if part)
    if line:
        pdf.multi_cell(0, 6, line, new_x="LMARGIN", new_y="NEXT")
    pdf.ln(2)
    header()
    for round_ in sheet.rounds:
        if pdf.will_page_break(row_h):
            pdf.add_page()
            header()
        pdf.cell(first_w, row_h, str(round_.number), border=1, align="C")
        for cell in round_.cells:
            label = cell_text(cell)
            pdf.cell(col_w, row_h, label, border=1, align="C")
        pdf.ln(row_h)
    pdf.set_font(family, size=11)
    pdf.cell(first_w, row_h + 1, total_label, border=1, align="C", fill=True)
    for seat, total in enumerate(sheet.totals):
        mark = " *" if seat in winners else ""
        if seat in sheet.left:
            mark = " " + LEFT_MARK
        elif seat in sheet.excluded:
            mark = " " + EXCLUDED_MARK
        pdf.cell(col_w, row_h + 1, f"{total}{mark}", border=1, align="C", fill=True)
    pdf.ln(row_h + 1)
    if qwirkles is not None:
        pdf.set_font(family, size=10)
        pdf.cell(first_w, row_h, qwirkles_label, border=1, align="C")
        for count in qwirkles:
            pdf.cell(col_w, row_h, str(count), border=1, align="C")
        pdf.ln(row_h)
    pdf.ln(3)
    if legend:
        pdf.set_font(family, size=8)
        pdf.multi_cell(0, 4, legend)
    return bytes(pdf.output())


def pdf_file(source: GameFile) -> bytes:
    """Build the score sheet PDF of a stored game, in the page's language."""
    view = sheet_view(source)
    date = f"{view.date} · {view.duration}" if view.date else view.duration
    return scoresheet_pdf(
        view.sheet,
        winners=view.winners,
        title=text.sheet_title(source.id),
        date=date,
        winner_line=view.winner_line,
        legend=legend(source.game.variant, penalties=view.sheet.has_penalties,
                      left=bool(view.sheet.left)),
        round_label=text.round_label(),
        total_label=text.total_label(),
        language=i18n.current().code,
        reason=view.reason,
        qwirkles=view.qwirkles,
        qwirkles_label=text.qwirkles_label(),
    )
