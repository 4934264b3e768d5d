"""Tile sets: colours, shapes, variants and the compact tile codes the engine uses."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

COLOR_NAMES: tuple[str, ...] = (
    "red", "orange", "yellow", "green", "blue", "purple", "pink", "brown",
)
"""Colour names in set order; a variant with N colours uses the first N."""

SHAPE_NAMES: tuple[str, ...] = (
    "circle", "crisscross", "diamond", "square", "starburst", "clover", "heart",
    "triangle",
)
"""Shape names in set order; a variant with N shapes uses the first N."""

STRIDE = 8
"""Tile code = colour index * STRIDE + shape index, so every variant shares one
table of codes and a set of tiles fits in a 64-bit mask."""

COLOR_BIT: tuple[int, ...] = tuple(1 << (code // STRIDE) for code in range(64))
"""For each tile code, a mask with one bit for its colour."""

SHAPE_BIT: tuple[int, ...] = tuple(1 << (code % STRIDE) for code in range(64))
"""For each tile code, a mask with one bit for its shape."""

PACKED: tuple[int, ...] = tuple(
    COLOR_BIT[code] | SHAPE_BIT[code] << 8 for code in range(64)
)
"""For each tile code, its colour bit and its shape bit (shifted by 8) in one
int, so a line's masks gather with one OR per tile."""

TILE_NAME: tuple[str, ...] = tuple(
    f"{COLOR_NAMES[code // STRIDE]} {SHAPE_NAMES[code % STRIDE]}" for code in range(64)
)
"""For each tile code, its name as a player says it ("blue square")."""


def color_of(code: int) -> str:
    """Return the colour name of a tile code."""
    return COLOR_NAMES[code // STRIDE]


def shape_of(code: int) -> str:
    """Return the shape name of a tile code."""
    return SHAPE_NAMES[code % STRIDE]


def plural(shape: str) -> str:
    """Return the plural of a shape name ("crisscross" -> "crisscrosses")."""
    return shape + ("es" if shape.endswith("ss") else "s")


SYSTEMS = ("tiles", "cubes")
"""Game systems: the tile game, and Qwirkle Cubes (RULES §7)."""


@dataclass(frozen=True)
class Variant:
    """A tile set: N colours and N shapes, `copies` of each tile, hands of H.

    With system 'cubes' (Qwirkle Cubes, RULES §7) `copies` counts the cubes of
    each colour: a cube shows any shape, so supply is checked per colour.
    """

    colors: int = 6
    """Number of colours, which is also the number of shapes (3 to 8)."""
    copies: int = 3
    """Copies of each colour-and-shape tile (1 to 9); for cubes, cubes per
    colour (1 to 30)."""
    hand_size: int = 6
    """Tiles a player holds while the bag lasts (1 to 12)."""
    system: str = "tiles"
    """'tiles' for Qwirkle, 'cubes' for Qwirkle Cubes."""

    def __post_init__(self) -> None:
        if self.system not in SYSTEMS:
            raise ValueError(
                f"variant system must be one of {', '.join(SYSTEMS)},"
                f" not {self.system!r}"
            )
        max_copies = 30 if self.system == "cubes" else 9
        for field, low, high in (
            ("colors", 3, 8), ("copies", 1, max_copies), ("hand_size", 1, 12),
        ):
            value = getattr(self, field)
            if type(value) is not int or not low <= value <= high:
                raise ValueError(
                    f"variant {field} must be a whole number from {low} to {high},"
                    f" not {value!r}"
                )

    @property
    def shapes(self) -> int:
        """Number of shapes (always equal to the number of colours)."""
        return self.colors

    @property
    def name(self) -> str:
        """'classic' for the 108-tile box, 'cubes' for Qwirkle Cubes,
        'generalised' for any other set."""
        if self.system == "cubes":
            return "cubes"
        return "classic" if self == CLASSIC else "generalised"

    @property
    def is_cubes(self) -> bool:
        """True for Qwirkle Cubes: no trades, no passes, supply per colour."""
        return self.system == "cubes"

    @property
    def color_names(self) -> tuple[str, ...]:
        """The colour names this set uses, in order."""
        return COLOR_NAMES[: self.colors]

    @property
    def shape_names(self) -> tuple[str, ...]:
        """The shape names this set uses, in order."""
        return SHAPE_NAMES[: self.colors]

    @property
    def total_tiles(self) -> int:
        """Number of tiles (or cubes) in the whole set."""
        if self.system == "cubes":
            return self.colors * self.copies
        return self.colors * self.colors * self.copies

    @property
    def max_players(self) -> int:
        """Largest table: 4 with a box (RULES §1, §7), 8 with a custom set."""
        return 4 if self in (CLASSIC, CUBES) else 8

    @cached_property
    def codes(self) -> tuple[int, ...]:
        """Every tile code of this set, colour by colour."""
        n = self.colors
        return tuple(c * STRIDE + s for c in range(n) for s in range(n))

    @cached_property
    def all_mask(self) -> int:
        """A mask with one bit per tile code of this set."""
        mask = 0
        for code in self.codes:
            mask |= 1 << code
        return mask

    @cached_property
    def code_of(self) -> dict[tuple[str, str], int]:
        """Map (colour, shape) names to tile codes, for the names this set uses."""
        return {(color_of(code), shape_of(code)): code for code in self.codes}

    def to_dict(self) -> dict[str, object]:
        """Return the variant as written in a game record (CONTRACT §5).

        'system' appears only for cubes, so tile records keep the contract's shape.
        """
        data: dict[str, object] = {
            "name": self.name,
            "colors": self.colors,
            "shapes": self.shapes,
            "copies": self.copies,
            "hand_size": self.hand_size,
        }
        if self.system != "tiles":
            data["system"] = self.system
        return data

    @classmethod
    def from_dict(cls, data: object) -> Variant:
        """Build a variant from a record's or request's dict; ValueError if invalid."""
        if data is None:
            return CLASSIC
        if not isinstance(data, dict):
            raise ValueError("variant must be an object with colors, copies, hand_size")
        values = {}
        system = data.get("system", "cubes" if data.get("name") == "cubes" else "tiles")
        for field, default in (
            ("colors", 6), ("copies", 15 if system == "cubes" else 3),
            ("hand_size", 6),
        ):
            values[field] = data.get(field, default)
        values["system"] = system
        variant = cls(**values)
        shapes = data.get("shapes", variant.colors)
        if shapes != variant.colors:
            raise ValueError(
                f"variant shapes must equal colors ({variant.colors}), not {shapes!r}"
            )
        name = data.get("name", variant.name)
        if name != variant.name:
            raise ValueError(
                f"variant name {name!r} does not match its numbers"
                f" (expected {variant.name!r})"
            )
        return variant


CLASSIC = Variant()
"""The classic box: 6 colours, 6 shapes, 3 copies, hands of 6 (108 tiles)."""

CUBES = Variant(colors=6, copies=15, hand_size=6, system="cubes")
"""The Qwirkle Cubes box: 90 cubes, 15 of each of 6 colours, hands of 6."""
