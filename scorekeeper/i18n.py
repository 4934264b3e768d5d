"""The gettext wrapper for all user-facing text (identity until translations land)."""

from __future__ import annotations


def gettext(message: str, **variables: object) -> str:
    """Return the message translated (for now unchanged) with %(name)s filled in."""
    return message % variables if variables else message


def ngettext(singular: str, plural: str, num: int, **variables: object) -> str:
    """Return the singular or plural message for num, with variables filled in."""
    message = singular if num == 1 else plural
    return message % {"num": num, **variables}


_ = gettext
