"""Every form of the pages: starting a game, the buttons that change one, the
history's corrections, renames and uploads."""

from __future__ import annotations

import json
import re
from datetime import date as Date
from typing import Any

import wtforms
from flask import request
from flask_wtf import FlaskForm
from flask_wtf.file import FileField
from wtforms import (
    FieldList,
    Form,
    FormField,
    HiddenField,
    IntegerField,
    RadioField,
    SelectField,
    StringField,
)
from wtforms.validators import NumberRange, Optional, ValidationError

from .. import engine, text
from ..i18n import gettext as _
from ..i18n import lazy_gettext as _l

SUBMIT_METHODS = frozenset({"POST", "PUT", "PATCH", "DELETE"})
"""Methods whose request carries a form (as flask-wtf counts them)."""

# WTForms 3.3 deprecates (value, label) tuples in favour of SelectChoice.
SelectChoice = getattr(wtforms, "SelectChoice", None)


def choice(value: object, label: str) -> Any:
    """Return one select option in the form the installed WTForms prefers."""
    if SelectChoice is None:
        return (value, label)
    return SelectChoice(value, label)


MAX_SEATS = 8
"""Name rows on the new-game form: 4 for the classic set, up to 8 for a custom
set (RULES §7)."""

CLASSIC_SEATS = 4
"""Seats shown outside the "advanced" section."""

BOXES = {"classic": engine.CLASSIC, "cubes": engine.CUBES}
"""The boxed sets the new-game form offers by name (besides a custom set)."""


def _strip(value: str | None) -> str:
    """Return the value with surrounding white space removed ('' for None)."""
    return (value or "").strip()


class PageForm(FlaskForm):
    """A form a page posts: read from the posted form fields only.

    flask-wtf would read a JSON body too, and a JSON list or a nested value
    there raised deep inside WTForms (a 500); a page never posts JSON, so such
    a body counts as an empty form.
    """

    class Meta(FlaskForm.Meta):
        """flask-wtf's, minus JSON bodies."""

        def wrap_formdata(self, form: Any, formdata: Any) -> Any:
            """Return the posted form fields (no JSON) for the form to read."""
            if request.is_json and not request.files:
                return request.form if request.method in SUBMIT_METHODS else None
            return super().wrap_formdata(form, formdata)


# Lazy (_l): these are read once, at import, but shown in each reader's language.
CONSEQUENCE_CHOICES: dict[str, str] = {
    "retry": _l("Retry: the player takes it back and tries again"),
    "none": _l("Nothing"),
    "lose_turn": _l("The player loses the turn"),
    "deduct": _l("Deduct the penalty points"),
    "exclude": _l("Exclude the player"),
}
"""How the new-game form offers each table-discipline consequence (RULES §7)."""


class NamedForm(PageForm):
    """A form holding player names, which remembers the name rule's refusal."""

    name_error: str | None = None
    """The code of the name rule's refusal (engine.InvalidName.code), if any."""
    name_message: str | None = None
    """The refusal as the page says it."""

    def refuse_names(self, exc: engine.InvalidName) -> ValidationError:
        """Remember the refusal and its code; return it as a validation error."""
        self.name_error = exc.code
        self.name_message = text.invalid_name(exc)
        return ValidationError(self.name_message)


class NewGameForm(NamedForm):
    """Player names in seat order, optional opening-row lengths, optional custom set."""

    names = FieldList(
        StringField(_l("Name"), filters=[_strip]),
        min_entries=MAX_SEATS,
        max_entries=MAX_SEATS,
    )
    openings = FieldList(
        IntegerField(
            _l("Best opening row"),
            validators=[Optional(), NumberRange(min=1, max=8)],
        ),
        min_entries=MAX_SEATS,
        max_entries=MAX_SEATS,
    )
    tile_set = RadioField(
        _l("Game"),
        choices=[
            choice("classic", _l("Qwirkle (108 tiles)")),
            choice("cubes", _l("Qwirkle Cubes (90 cubes)")),
            choice("custom", _l("Custom tile set")),
        ],
        default="classic",
    )
    # "" lets the app decide from the opening rows; a seat number is the table's pick.
    starter = SelectField(_l("Who starts"), choices=[choice("", "")], default="")
    # A club night this device holds the token of (CONTRACT §14); "" for none. The
    # view offers the choices.
    event = SelectField(_l("Club night"), choices=[choice("", "")], default="")
    colors = IntegerField(
        _l("Colours (and shapes)"), validators=[Optional(), NumberRange(min=3, max=8)]
    )
    copies = IntegerField(
        _l("Copies of each tile"), validators=[Optional(), NumberRange(min=1, max=9)]
    )
    hand_size = IntegerField(
        _l("Tiles in a hand"), validators=[Optional(), NumberRange(min=1, max=12)]
    )
    # Table discipline (RULES §7, CONTRACT §10); the defaults are a friendly table.
    move_seconds = IntegerField(
        _l("Thinking time per move (seconds)"),
        validators=[Optional(), NumberRange(
            min=engine.MOVE_SECONDS[0], max=engine.MOVE_SECONDS[1],
            message=_l("The thinking time is %(low)d to %(high)d seconds, or empty"
                       " for none.", low=engine.MOVE_SECONDS[0],
                       high=engine.MOVE_SECONDS[1]),
        )],
    )
    on_illegal = SelectField(
        _l("On an illegal move"),
        choices=[choice(c.value, CONSEQUENCE_CHOICES[c]) for c in engine.ON_ILLEGAL],
        default=engine.Consequence.RETRY.value,
    )
    on_timeout = SelectField(
        _l("When the thinking time runs out"),
        choices=[choice(c.value, CONSEQUENCE_CHOICES[c]) for c in engine.ON_TIMEOUT],
        default=engine.Consequence.NONE.value,
    )
    penalty_points = IntegerField(
        _l("Penalty points"),
        validators=[Optional(), NumberRange(
            min=engine.PENALTY_POINTS[0], max=engine.PENALTY_POINTS[1],
            message=_l("Penalty points are a whole number from %(low)d to %(high)d.",
                       low=engine.PENALTY_POINTS[0], high=engine.PENALTY_POINTS[1]),
        )],
    )

    def __init__(self, *args: object, **kwargs: object) -> None:
        """Build the form and offer every seat as a possible starter, by the name
        typed there (a form sent back) or as "Player N" (static/newgame.js puts
        each name in as it is typed)."""
        super().__init__(*args, **kwargs)
        typed = [(entry.data or "").strip() for entry in self.names]
        self.starter.choices = [choice("", _("The app decides"))] + [
            choice(str(i), typed[i] if i < len(typed) and typed[i]
                   else _("Player %(n)s", n=i + 1))
            for i in range(MAX_SEATS)
        ]

    def set_name(self) -> str:
        """Return the chosen set: 'classic', 'cubes' or 'custom'.

        A post without the choice (an older page, a script) that fills the custom
        fields means a custom set, as before the choice existed.
        """
        if not self.tile_set.raw_data and any(
            f.data for f in (self.colors, self.copies, self.hand_size)
        ):
            return "custom"
        return str(self.tile_set.data or "classic")

    def variant(self) -> engine.Variant:
        """Return the chosen set (engine.BadInput for impossible custom numbers)."""
        chosen = self.set_name()
        if chosen == "custom":
            return engine.Variant(
                colors=self.colors.data or 6,
                copies=self.copies.data or 3,
                hand_size=self.hand_size.data or 6,
            )
        return BOXES.get(chosen, engine.CLASSIC)

    def options(self) -> engine.Options:
        """Return the table discipline chosen (engine.BadInput if impossible)."""
        return engine.Options(
            move_seconds=self.move_seconds.data,
            on_illegal=str(self.on_illegal.data or "retry"),
            on_timeout=str(self.on_timeout.data or "none"),
            penalty_points=(
                self.penalty_points.data if self.penalty_points.data is not None
                else engine.Options().penalty_points
            ),
        )

    def discipline_chosen(self) -> bool:
        """Return whether the table-discipline section holds anything but the
        defaults, or an error (then the page shows it open)."""
        fields = (self.move_seconds, self.on_illegal, self.on_timeout,
                  self.penalty_points)
        if any(field.errors for field in fields):
            return True
        typed = [
            field.raw_data[0] if field.raw_data else ""
            for field in (self.move_seconds, self.penalty_points)
        ]
        return any(typed) or self.on_illegal.data not in (None, "retry") or (
            self.on_timeout.data not in (None, "none")
        )

    def seats(self) -> list[tuple[int, str]]:
        """Return (row index, name) for every filled name row, in seat order."""
        return [(i, entry.data) for i, entry in enumerate(self.names) if entry.data]

    def player_names(self) -> list[str]:
        """Return the entered names in seat order (as the rule stores them)."""
        names = [name for _i, name in self.seats()]
        try:
            return [engine.normalise_name(name) for name in names]
        except engine.InvalidName:
            return names

    def validate_names(self, field: FieldList[StringField]) -> None:
        """Apply the one name rule to the table (CONTRACT §8)."""
        try:
            variant = self.variant()
        except engine.BadInput:
            return  # the custom fields report it
        try:
            engine.check_players([name for _i, name in self.seats()], variant)
        except engine.InvalidName as exc:
            raise self.refuse_names(exc) from None

    def validate_starter(self, field: SelectField) -> None:
        """Accept only a seat that has a name."""
        if not field.data:
            return
        seats = {str(i) for i, _n in self.seats()}
        # WTForms runs this even after the choice check failed: never int() it blind.
        if field.data not in seats:
            raise ValidationError(_("The starting player's seat has no name."))

    def opening_rows(self) -> list[tuple[int, int]]:
        """Return (name row, opening-row length) for the seats that gave one."""
        rows = []
        for i, _n in self.seats():
            length = self.openings[i].data
            if length:
                rows.append((i, length))
        return rows

    def tied_seats(self) -> list[int]:
        """Return the name rows (>= 2) sharing the longest opening row, else []."""
        rows = self.opening_rows()
        if not rows:
            return []
        best = max(length for _i, length in rows)
        tied = [i for i, length in rows if length == best]
        return tied if len(tied) > 1 else []

    def first_player(self) -> int | None:
        """Return the starting seat (index among the names), or None for an open tie.

        RULES §2: the longest opening row starts; a tie is the table's pick; with no
        lengths given the table's pick or else the first seat.
        """
        rows = [i for i, _n in self.seats()]
        if self.starter.data:
            return rows.index(int(self.starter.data))
        lengths = self.opening_rows()
        if not lengths:
            return 0
        if self.tied_seats():
            return None
        best = max(lengths, key=lambda pair: pair[1])[0]
        return rows.index(best)


class TradeForm(PageForm):
    """Trade a number of tiles (the player's turn passes)."""

    count = SelectField(_l("Tiles"), coerce=int, choices=[choice(1, "1")])
    turn = HiddenField()
    seconds = HiddenField()
    """The thinking time, filled in by static/countdown.js (CONTRACT §10)."""


class TurnForm(PageForm):
    """A bare button for a pass or an undo; `turn` guards against a double entry."""

    turn = HiddenField()
    seconds = HiddenField()
    """The thinking time of a pass, filled in by static/countdown.js."""


class PenaltyForm(PageForm):
    """Record a penalty (RULES §7): the button pressed gives the reason."""

    reason = HiddenField()
    turn = HiddenField()


class LeaveForm(PageForm):
    """A player leaves the game (RULES §7.5): `player` is their seat."""

    player = HiddenField()
    turn = HiddenField()


class CloseForm(PageForm):
    """End or abandon a game: the button pressed gives the reason."""

    reason = HiddenField()
    turn = HiddenField()


def thinking_seconds(form: TradeForm | TurnForm) -> int | None:
    """Return the thinking time a move form carries, or None when it carries
    none or something that is not whole seconds within a day (the move is
    still recorded: the time is a statistic, not part of the move)."""
    return engine.thinking_time(form.seconds.data)


class ConfirmForm(PageForm):
    """A bare CSRF-protected confirmation button (delete)."""


class RenameForm(NamedForm):
    """A new name for every seat (the name rule is applied when they are stored)."""

    names = FieldList(StringField(_l("Name")), min_entries=0)


class UploadForm(PageForm):
    """A JSON file upload (a game record or a backup)."""

    file = FileField(_l("File"))


PENALTY_CHOICES: dict[str, str] = {
    "illegal": _l("Penalty: illegal move"),
    "timeout": _l("Penalty: out of time"),
}
"""How the correction form names a penalty move, by its reason."""


class RestoreForm(UploadForm):
    """A backup upload, with the admin PIN a device other than the server sends."""

    admin_pin = StringField(_l("Admin PIN"))


class ClaimForm(PageForm):
    """The game PIN that gives this device the right to enter moves again."""

    pin = StringField(_l("Game PIN"))


class TileForm(Form):
    """One tile of a corrected placing move; an empty row is ignored."""

    # The API's bound (engine.MAX_COORDINATE): a tile at row 10^30 would leave no
    # cell beside it that a later move could name.
    row = IntegerField(_l("Row"), validators=[
        Optional(), NumberRange(-engine.MAX_COORDINATE, engine.MAX_COORDINATE)])
    col = IntegerField(_l("Column"), validators=[
        Optional(), NumberRange(-engine.MAX_COORDINATE, engine.MAX_COORDINATE)])
    color = SelectField(_l("Colour"), choices=[choice("", "")], default="")
    shape = SelectField(_l("Shape"), choices=[choice("", "")], default="")


class CorrectForm(PageForm):
    """The corrected version of one past move."""

    type = SelectField(
        _l("Move"),
        choices=[
            choice("place", _l("Place tiles")),
            choice("trade", _l("Trade")),
            choice("pass", _l("Pass")),
        ],
    )
    count = IntegerField(
        _l("Tiles traded"), validators=[Optional(), NumberRange(min=1, max=12)]
    )
    tiles = FieldList(FormField(TileForm), min_entries=0)

    def set_choices(
        self, variant: engine.Variant, options: engine.Options | None = None
    ) -> None:
        """Offer the set's colours and shapes in every tile row, and the
        penalties the table gives (RULES §7) as moves."""
        if options is not None:
            self.type.choices = list(self.type.choices or []) + [
                choice(f"penalty_{reason}", PENALTY_CHOICES[reason])
                for reason in options.penalties
            ]
        colors = [choice("", "–")] + [
            choice(c, text.color_name(c)) for c in variant.color_names
        ]
        shapes = [choice("", "–")] + [
            choice(s, text.shape_name(s)) for s in variant.shape_names
        ]
        for entry in self.tiles:
            entry.form.color.choices = colors
            entry.form.shape.choices = shapes

    def fill(self, move: engine.Move, hand_size: int) -> None:
        """Show a move as entered, with empty rows up to a full hand."""
        self.type.data = (
            f"penalty_{move.reason}" if move.type == "penalty" else move.type
        )
        self.count.data = move.count or None
        tiles = list(move.tiles)
        for index in range(max(hand_size, len(tiles))):
            entry: dict[str, Any] = {"row": None, "col": None, "color": "", "shape": ""}
            if index < len(tiles):
                t = tiles[index]
                entry = {"row": t.row, "col": t.col, "color": t.color, "shape": t.shape}
            self.tiles.append_entry(entry)

    def refusal(self) -> str:
        """Return the sentence for a post that failed validation."""
        if any(entry.form.row.errors or entry.form.col.errors for entry in self.tiles):
            return _(
                "A tile's row and column must be whole numbers from %(low)d to"
                " %(high)d.", low=-engine.MAX_COORDINATE, high=engine.MAX_COORDINATE,
            )
        return _("The form could not be read; please try again.")

    def move(self) -> dict[str, Any] | str:
        """Return the move dict the form describes, or an error sentence."""
        kind = self.type.data
        if kind == "trade":
            if not self.count.data:
                return _("Say how many tiles were traded.")
            return {"type": "trade", "count": int(self.count.data)}
        if kind == "pass":
            return {"type": "pass"}
        if kind in ("penalty_illegal", "penalty_timeout"):
            return {"type": "penalty", "reason": kind.removeprefix("penalty_")}
        tiles = []
        for number, entry in enumerate(self.tiles, start=1):
            f = entry.form
            row, col, color, shape = f.row.data, f.col.data, f.color.data, f.shape.data
            given = [v not in (None, "") for v in (row, col, color, shape)]
            if not any(given):
                continue
            if row is None or col is None or not color or not shape:
                return _(
                    "Tile %(n)d needs a row, a column, a colour and a shape.", n=number
                )
            tiles.append({"row": row, "col": col, "color": color, "shape": shape})
        if not tiles:
            return _("A placing move needs at least one tile.")
        return {"type": "place", "tiles": tiles}


class AdminLoginForm(PageForm):
    """The admin PIN, typed on the admin page by a device other than the server."""

    admin_pin = StringField(_l("Admin PIN"))


MAX_EVENT_NAME = 80
"""Longest name of a club night."""

MAX_PRESENT = 64
"""Most players the seating form takes at once (16 tables of four)."""


class EventForm(PageForm):
    """A new club night: its name and date (today when empty)."""

    name = StringField(_l("Name of the evening"), filters=[_strip])
    date = StringField(_l("Date"), filters=[_strip])


class SeasonForm(PageForm):
    """A new season: its name."""

    name = StringField(_l("Name of the season"), filters=[_strip])


class SeatingForm(PageForm):
    """The players present, one per line, and how to seat them."""

    present = wtforms.TextAreaField(_l("Players present (one per line)"))
    mode = RadioField(
        _l("Tables"),
        choices=[
            choice("balanced", _l("Balanced by rating")),
            choice("random", _l("At random")),
            choice("swiss", _l("Swiss: by tonight's standings, new opponents")),
        ],
        default="balanced",
    )

    def names(self) -> list[str]:
        """Return the names given, one per line, blank lines dropped."""
        lines = (self.present.data or "").splitlines()
        return [line.strip() for line in lines if line.strip()]


class TablesForm(PageForm):
    """The suggested tables to start: a JSON list of each table's names (the
    page writes it; a person never types it)."""

    tables = HiddenField()

    def table_names(self) -> list[list[str]] | None:
        """Return each table's names, or None when the field is malformed."""
        try:
            value = json.loads(self.tables.data or "")
        except ValueError:
            return None
        if not isinstance(value, list) or not all(
            isinstance(t, list) and all(isinstance(n, str) for n in t) for t in value
        ):
            return None
        return value


_DATE = re.compile(r"\d{4}-\d{2}-\d{2}")


def check_event_name(value: object) -> str:
    """Return an event's name, trimmed; raise ValueError with the page's sentence."""
    if not isinstance(value, str) or not value.strip():
        raise ValueError(_("Give the evening a name."))
    name = " ".join(value.split())
    if len(name) > MAX_EVENT_NAME:
        raise ValueError(_("A name is at most %(num)d characters.", num=MAX_EVENT_NAME))
    if any(not ch.isprintable() for ch in name):
        raise ValueError(_("The name holds characters that cannot be shown."))
    return name


def check_event_date(value: object) -> str:
    """Return an ISO date (today when empty); raise ValueError with a sentence."""
    if value is None or value == "":
        return Date.today().isoformat()
    if isinstance(value, str) and _DATE.fullmatch(value):
        try:
            return Date.fromisoformat(value).isoformat()
        except ValueError:
            pass
    raise ValueError(_("The date is written as year-month-day, e.g. 2026-12-04."))
