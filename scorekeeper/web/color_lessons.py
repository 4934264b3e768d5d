"""Teach the colours: a page where a household photographs one tile
of each colour once, sees the six colours read, and keeps them as the
installation's colours (or retakes the photo); and forgets them.

A device that may change a running game reaches it from the game's photo
section. The photo goes through the same guards as a move's photo (size,
rates, queue: `photo_upload.guarded_upload`) and is read in the helper
process (`photo.color_lessons`); nothing is stored until the household keeps what
was read, which waits in the session meanwhile (signed: a client cannot
make it up)."""

from __future__ import annotations

import colorsys
from typing import Any

from flask import Blueprint, abort, flash, redirect, render_template, session, url_for
from flask.typing import ResponseReturnValue
from werkzeug.wrappers import Response

from .. import text
from ..i18n import gettext as _
from ..photo import PhotoUnreadable
from ..photo.lessons import Taught
from ..store import photo_lessons
from . import photo_upload
from .forms import ConfirmForm
from .helper import in_helper
from .pages import require_edit

bp = Blueprint("color_lessons", __name__)

SWATCH = (0.45, 0.75)
"""A hue's swatch's lightness and saturation (HLS): the hue shown plainly,
whatever the paint's own darkness."""

PENDING = "taught_colours"
"""The session key of the hues read and not yet kept."""


def read_teaching(data: bytes) -> dict[str, Any]:
    """Read a teaching photo (in the helper process): {"hues": {colour: deg},
    "paints": {colour: [saturation, value]}}, or {"unreadable": reason,
    "params": {...}}."""
    from ..photo.color_lessons import read_colors

    try:
        taught = read_colors(data)
    except PhotoUnreadable as exc:
        return {"unreadable": exc.reason,
                "params": {k: v if isinstance(v, int | str) else str(v)
                           for k, v in exc.params.items()}}
    return {"hues": {color: float(hue) for color, hue in taught.hues.items()},
            "paints": {color: [float(x) for x in paint]
                       for color, paint in taught.paints.items()}}


def _swatches(hues: dict[str, float], pale: dict[str, float]
              ) -> list[dict[str, object]]:
    """Each colour's name and a swatch of its hue, in wheel order; a
    colourless paint's (`pale`: its value) is grey, without a hue."""
    from ..photo.color_lessons import COLORS  # photo.hues holds numpy: not at rest

    out: list[dict[str, object]] = []
    for color in COLORS:
        if color in pale:
            r = g = b = min(1.0, max(0.0, pale[color]))
        elif color in hues:
            r, g, b = colorsys.hls_to_rgb((hues[color] % 360) / 360, *SWATCH)
        else:
            continue
        # A fill, not a style: the CSP allows no inline style.
        out.append({"color": color, "name": text.color_name(color),
                    "hue": None if color in pale else round(hues[color]),
                    "fill": f"#{round(r * 255):02x}{round(g * 255):02x}"
                            f"{round(b * 255):02x}"})
    return out


def _pending_pale(pending: dict[str, Any]) -> dict[str, float]:
    """The colourless paints of a teaching read: colour -> value."""
    from ..photo.lessons import PALE

    out = {}
    for color, paint in (pending.get("paints") or {}).items():
        try:
            sat, val = (float(x) for x in paint)
        except (TypeError, ValueError):
            continue
        if sat < PALE:
            out[str(color)] = val
    return out


def _known() -> list[dict[str, object]]:
    """The installation's colours as it knows them now (taught or learnt)."""
    taught = Taught.from_rows(photo_lessons.installation_colors())
    return _swatches(taught.hues(),
                     {color: val for color, (_sat, val) in taught.pale().items()})


def _page(game_id: int, status: int = 200, error: str | None = None
          ) -> ResponseReturnValue:
    pending = session.get(PENDING)
    read = None
    if isinstance(pending, dict) and pending.get("game") == game_id:
        read = _swatches(pending.get("hues", {}), _pending_pale(pending))
    body = render_template(
        "table/color_lessons.html", game_id=game_id, known=_known(),
        read=read, error=error, form=ConfirmForm(),
        photo_text=text.photo_strings())
    return body, status


@bp.get("/games/<int:game_id>/colours")
def page(game_id: int) -> ResponseReturnValue:
    """The teaching page: what is known, the photo form, forget."""
    require_edit(game_id)
    return _page(game_id)


@bp.post("/games/<int:game_id>/colours")
def read(game_id: int) -> ResponseReturnValue:
    """Read a teaching photo and show the six colours read; nothing is stored
    (422 with the reason when it does not show one tile of each colour)."""
    require_edit(game_id)
    if not ConfirmForm().validate_on_submit():
        abort(400)
    session.pop(PENDING, None)
    try:
        answer = photo_upload.guarded_upload(
            game_id, lambda load: in_helper(read_teaching, load()))
    except photo_upload.NoPhoto:
        return _page(game_id, 400, _("Choose a photo first."))
    except photo_upload.PhotoBusy:
        return _page(game_id, 503, text.photo_strings()["busy"])
    except photo_upload.PhotoTooOften as exc:
        return _page(game_id, 429, text.photo_too_often(exc.retry_after))
    except PhotoUnreadable as exc:
        return _page(game_id, 422, text.photo_unreadable(exc.reason, exc.params))
    if "unreadable" in answer:
        return _page(game_id, 422, text.photo_unreadable(
            answer["unreadable"], answer["params"]))
    session[PENDING] = {"game": game_id, "hues": answer["hues"],
                        "paints": answer["paints"]}
    return _page(game_id)


@bp.post("/games/<int:game_id>/colours/keep")
def keep(game_id: int) -> Response:
    """Keep the colours read as the installation's (replacing those before)."""
    require_edit(game_id)
    if not ConfirmForm().validate_on_submit():
        abort(400)
    pending = session.pop(PENDING, None)
    hues = pending.get("hues") if isinstance(pending, dict) else None
    if not isinstance(hues, dict) or pending.get("game") != game_id:
        flash(_("Take the photo of the colours first."), "error")
        return redirect(url_for(".page", game_id=game_id))
    from ..photo.color_lessons import COLORS, lessons

    paints = pending.get("paints") or {}
    try:
        # The helper named them (`read_teaching`): a number for each colour.
        values = {color: float(hues[color]) for color in COLORS}
        # A teaching kept before paints were read: hues alone, as then.
        seen = {c: (float(paints[c][0]), float(paints[c][1])) for c in COLORS} \
            if paints else None
    except (KeyError, TypeError, ValueError, IndexError):
        abort(400)
    photo_lessons.teach_colors(lessons(values, paints=seen))
    flash(_("The colours are kept: every photo now reads them as on this table."),
          "info")
    return redirect(url_for("table.game", game_id=game_id))


@bp.post("/games/<int:game_id>/colours/forget")
def forget(game_id: int) -> Response:
    """Forget the installation's colours: photos read paint as usual again."""
    require_edit(game_id)
    if not ConfirmForm().validate_on_submit():
        abort(400)
    session.pop(PENDING, None)
    photo_lessons.forget_colors()
    flash(_("The colours are forgotten: photos read the usual paint again."), "info")
    return redirect(url_for(".page", game_id=game_id))
