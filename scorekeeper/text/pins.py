"""What the PIN guards say when too many wrong PINs were tried."""

from __future__ import annotations

from ..i18n import ngettext


def admin_pins_refused(seconds: int) -> str:
    """Return why the admin PIN is not checked now, and for how long (429)."""
    return ngettext(
        "Too many wrong admin PINs: wait %(num)d second, then try again.",
        "Too many wrong admin PINs: wait %(num)d seconds, then try again.",
        seconds,
    )


def game_pins_refused(seconds: int) -> str:
    """Return why a game PIN is not checked now, and for how long (429)."""
    return ngettext(
        "Too many wrong game PINs: wait %(num)d second, then try again.",
        "Too many wrong game PINs: wait %(num)d seconds, then try again.",
        seconds,
    )
