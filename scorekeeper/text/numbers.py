"""Numbers as the reader writes them: decimals and percentages."""

from __future__ import annotations

from babel import numbers

from .. import i18n


def decimal(value: float | None, digits: int = 1) -> str:
    """Return a number with `digits` decimals as the reader writes it ("12,5";
    "–" for None)."""
    if value is None:
        return "–"
    pattern = "0." + "0" * digits if digits else "0"
    return numbers.format_decimal(
        value, pattern, locale=i18n.current().locale, decimal_quantization=True
    )


def percent(value: float | None) -> str:
    """Return a fraction as a whole percentage in the reader's style ("50 %")."""
    if value is None:
        return "–"
    return numbers.format_percent(value, locale=i18n.current().locale)
