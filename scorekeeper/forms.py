"""The table app's forms: starting a game and the bare buttons that change a game."""

from __future__ import annotations

from flask_wtf import FlaskForm
from wtforms import (
    FieldList,
    HiddenField,
    IntegerField,
    RadioField,
    SelectField,
    StringField,
)
from wtforms.validators import NumberRange, Optional, ValidationError

from . import engine
from .i18n import _

try:  # WTForms 3.3 deprecates (value, label) tuples in favour of SelectChoice.
    from wtforms import SelectChoice
except ImportError:  # pragma: no cover - older WTForms
    SelectChoice = None


def choice(value: object, label: str) -> object:
    """Return one select option in the form the installed WTForms prefers."""
    if SelectChoice is None:
        return (value, label)
    return SelectChoice(value, label)

#: Longest player name the table accepts (fits a score column on a phone).
MAX_NAME_LENGTH = 40

#: Name rows on the form: 4 for the classic set, up to 8 for a custom set (RULES §7).
MAX_SEATS = 8

#: Seats shown outside the "advanced" section.
CLASSIC_SEATS = 4


def _strip(value: str | None) -> str:
    """Return the value with surrounding white space removed ('' for None)."""
    return (value or "").strip()


class NewGameForm(FlaskForm):
    """Player names in seat order, optional opening-row lengths, optional custom set."""

    names = FieldList(
        StringField(_("Name"), filters=[_strip]),
        min_entries=MAX_SEATS,
        max_entries=MAX_SEATS,
    )
    openings = FieldList(
        IntegerField(
            _("Best opening row"),
            validators=[Optional(), NumberRange(min=1, max=8)],
        ),
        min_entries=MAX_SEATS,
        max_entries=MAX_SEATS,
    )
    tile_set = RadioField(
        _("Game"),
        choices=[
            choice("classic", _("Qwirkle (108 tiles)")),
            choice("cubes", _("Qwirkle Cubes (90 cubes)")),
            choice("custom", _("Custom tile set")),
        ],
        default="classic",
    )
    # "" lets the app decide from the opening rows; a seat number is the table's pick.
    starter = SelectField(_("Who starts"), choices=[choice("", "")], default="")
    colors = IntegerField(
        _("Colours (and shapes)"), validators=[Optional(), NumberRange(min=3, max=8)]
    )
    copies = IntegerField(
        _("Copies of each tile"), validators=[Optional(), NumberRange(min=1, max=9)]
    )
    hand_size = IntegerField(
        _("Tiles in a hand"), validators=[Optional(), NumberRange(min=1, max=12)]
    )

    def __init__(self, *args: object, **kwargs: object) -> None:
        """Build the form and offer every seat as a possible starter."""
        super().__init__(*args, **kwargs)
        self.starter.choices = [choice("", _("The app decides"))] + [
            choice(str(i), _("Seat %(n)s", n=i + 1)) for i in range(MAX_SEATS)
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
        return self.tile_set.data or "classic"

    def variant(self) -> dict[str, int | str]:
        """Return the chosen set as keyword arguments for engine.Variant."""
        chosen = self.set_name()
        if chosen == "cubes":
            cubes = engine.CUBES
            return {
                "colors": cubes.colors,
                "copies": cubes.copies,
                "hand_size": cubes.hand_size,
                "system": cubes.system,
            }
        if chosen == "custom":
            return {
                "colors": self.colors.data or 6,
                "copies": self.copies.data or 3,
                "hand_size": self.hand_size.data or 6,
            }
        return {"colors": 6, "copies": 3, "hand_size": 6}

    def max_players(self) -> int:
        """Return how many players the chosen set allows (4 for a box, 8 otherwise)."""
        try:
            return engine.Variant(**self.variant()).max_players  # type: ignore[arg-type]
        except ValueError:
            return MAX_SEATS

    def seats(self) -> list[tuple[int, str]]:
        """Return (row index, name) for every filled name row, in seat order."""
        return [(i, entry.data) for i, entry in enumerate(self.names) if entry.data]

    def player_names(self) -> list[str]:
        """Return the entered names in seat order, empty rows skipped."""
        return [name for _i, name in self.seats()]

    def validate_names(self, field: FieldList) -> None:
        """Require 2 or more unique names of at most MAX_NAME_LENGTH characters."""
        names = self.player_names()
        if len(names) < 2:
            raise ValidationError(_("Enter at least two player names."))
        if len(names) > self.max_players():
            raise ValidationError(
                _("This set allows at most %(n)s players.", n=self.max_players())
            )
        for name in names:
            if len(name) > MAX_NAME_LENGTH:
                raise ValidationError(
                    _("A name may have at most %(n)s characters.", n=MAX_NAME_LENGTH)
                )
        keys = [name.casefold() for name in names]
        if len(set(keys)) != len(keys):
            raise ValidationError(_("Each player needs a different name."))

    def validate_starter(self, field: SelectField) -> None:
        """Accept only a seat that has a name."""
        if field.data and int(field.data) not in {i for i, _n in self.seats()}:
            raise ValidationError(_("The starting player's seat has no name."))

    def tied_seats(self) -> list[int]:
        """Return the name rows (>= 2) sharing the longest opening row, else []."""
        rows = [
            (i, self.openings[i].data)
            for i, _n in self.seats()
            if self.openings[i].data
        ]
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
        lengths = [(i, self.openings[i].data) for i in rows if self.openings[i].data]
        if not lengths:
            return 0
        if self.tied_seats():
            return None
        best = max(lengths, key=lambda pair: pair[1])[0]
        return rows.index(best)


class TradeForm(FlaskForm):
    """Trade a number of tiles (the player's turn passes)."""

    count = SelectField(_("Tiles"), coerce=int, choices=[choice(1, "1")])
    turn = HiddenField()


class TurnForm(FlaskForm):
    """A bare button for a pass or an undo; `turn` guards against a double entry."""

    turn = HiddenField()
