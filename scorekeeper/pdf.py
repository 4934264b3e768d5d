"""The printable score sheet as a PDF file (fpdf2), laid out like the paper pad."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from fpdf import FPDF

from .scoresheet import Cell, ScoreSheet


def cell_text(cell: Cell | None, *, unicode_ok: bool = True) -> str:
    """Return a score-sheet cell as written on paper, e.g. "18 Q" or "9 +6"."""
    if cell is None:
        return ""
    if cell.type == "trade":
        text = "0 ⇄" if unicode_ok else "0 T"
    elif cell.type == "pass":
        text = "0 –" if unicode_ok else "0 P"
    else:
        text = str(cell.points)
    if cell.qwirkles:
        text += " Q" * cell.qwirkles
    if cell.end_bonus:
        text += f" (+{cell.end_bonus})"
    return text


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
    legend: str,
    round_label: str = "Round",
    total_label: str = "Total",
) -> bytes:
    """Return an A4 PDF of `sheet` laid out like the paper score pad."""
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

    def text(value: str) -> str:
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
        pdf.cell(first_w, row_h, text(round_label), border=1, align="C", fill=True)
        for name in sheet.names:
            pdf.cell(col_w, row_h, text(name[:18]), border=1, align="C", fill=True)
        pdf.ln(row_h)

    pdf.add_page()
    pdf.set_font(family, size=16)
    pdf.cell(0, 9, text(title), new_x="LMARGIN", new_y="NEXT")
    pdf.set_font(family, size=10)
    pdf.cell(0, 6, text(date), new_x="LMARGIN", new_y="NEXT")
    if winner_line:
        pdf.cell(0, 6, text(winner_line), new_x="LMARGIN", new_y="NEXT")
    pdf.ln(2)
    header()
    for round_ in sheet.rounds:
        if pdf.will_page_break(row_h):
            pdf.add_page()
            header()
        pdf.cell(first_w, row_h, str(round_.number), border=1, align="C")
        for cell in round_.cells:
            label = cell_text(cell, unicode_ok=unicode_ok)
            pdf.cell(col_w, row_h, text(label), border=1, align="C")
        pdf.ln(row_h)
    pdf.set_font(family, size=11)
    pdf.cell(first_w, row_h + 1, text(total_label), border=1, align="C", fill=True)
    for seat, total in enumerate(sheet.totals):
        mark = " *" if seat in winners else ""
        pdf.cell(col_w, row_h + 1, f"{total}{mark}", border=1, align="C", fill=True)
    pdf.ln(row_h + 4)
    pdf.set_font(family, size=8)
    pdf.multi_cell(0, 4, text(legend))
    return bytes(pdf.output())
