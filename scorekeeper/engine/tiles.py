"""Tile sets: colours, shapes, variants and the compact tile codes the engine uses."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

from .errors import BadInput

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

def color_of(code: int) -> str:
    """Return the colour name of a tile code."""
    return COLOR_NAMES[code // STRIDE]


def shape_of(code: int) -> str:
    """Return the shape name of a tile code."""
    return SHAPE_NAMES[code % STRIDE]


@dataclass(frozen=True)
class System:
    """How one game system plays: everything in which it differs from another,
    as data. The rest of the code asks a Variant these questions, never which
    system it is."""

    name: str
    """As records write it in the variant's "system" ("tiles" is left out)."""
    unit: str
    """What a player holds and places: 'tile' or 'cube'."""
    allows_trade: bool
    """Whether a player may trade (RULES §5)."""
    allows_pass: bool
    """Whether a player may pass once the bag is empty (RULES §5)."""
    min_first_move: int
    """Fewest tiles the first move places (RULES §2, §7)."""
    supply_per_color: bool
    """Whether supply is counted per colour (a cube shows any shape) rather
    than per colour and shape (RULES §1, §7)."""
    open_hands: bool
    """Whether hands are played open, so that the app may suggest a move."""
    copies: tuple[int, int, int]
    """Copies: the fewest, the most, and the default."""
    box: str | None
    """The variant's name for every set of this system ('cubes'), or None:
    'classic' for the classic box, 'generalised' for any other set."""


TILES = System(
    name="tiles", unit="tile", allows_trade=True, allows_pass=True,
    min_first_move=1, supply_per_color=False, open_hands=False,
    copies=(1, 9, 3), box=None,
)
"""Qwirkle (RULES §1-§6, and sets of any size, §7.2)."""

CUBES_SYSTEM = System(
    name="cubes", unit="cube", allows_trade=False, allows_pass=False,
    min_first_move=2, supply_per_color=True, open_hands=True,
    copies=(1, 30, 15), box="cubes",
)
"""Qwirkle Cubes (RULES §7.1): no trades, no passes, a first move of at least
2, supply counted per colour, hands open."""

SYSTEM_TABLE: dict[str, System] = {
    system.name: system for system in (TILES, CUBES_SYSTEM)
}
"""Every game system by the name records give it; a new one is one more entry."""

SYSTEMS = tuple(SYSTEM_TABLE)
"""Game systems' names: the tile game, and Qwirkle Cubes (RULES §7)."""


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
        if not isinstance(self.system, str) or self.system not in SYSTEM_TABLE:
            raise BadInput(
                "variant_system", {"systems": ", ".join(SYSTEMS), "value": self.system}
            )
        fewest, most, _ = SYSTEM_TABLE[self.system].copies
        for field, low, high in (
            ("colors", 3, 8), ("copies", fewest, most), ("hand_size", 1, 12),
        ):
            value = getattr(self, field)
            if type(value) is not int or not low <= value <= high:
                raise BadInput(
                    "variant_range",
                    {"field": field, "low": low, "high": high, "value": value},
                )

    @property
    def shapes(self) -> int:
        """Number of shapes (always equal to the number of colours)."""
        return self.colors

    @property
    def rules(self) -> System:
        """How this set's system plays (one description per system)."""
        return SYSTEM_TABLE[self.system]

    @property
    def name(self) -> str:
        """'classic' for the 108-tile box, 'cubes' for Qwirkle Cubes,
        'generalised' for any other set."""
        box = self.rules.box
        if box is not None:
            return box
        return "classic" if self == CLASSIC else "generalised"

    @property
    def allows_trade(self) -> bool:
        """Whether a player may trade tiles (not in Qwirkle Cubes, RULES §7)."""
        return self.rules.allows_trade

    @property
    def allows_pass(self) -> bool:
        """Whether a player may pass once the bag is empty (not in Qwirkle Cubes)."""
        return self.rules.allows_pass

    @property
    def unit(self) -> str:
        """What a player holds and places: 'tile', or 'cube' in Qwirkle Cubes."""
        return self.rules.unit

    @property
    def min_first_move(self) -> int:
        """Fewest tiles the first move places: 2 for Qwirkle Cubes, else 1."""
        return self.rules.min_first_move

    @property
    def supply_per_color(self) -> bool:
        """Whether the supply is counted per colour (a cube shows any shape)
        rather than per colour and shape."""
        return self.rules.supply_per_color

    @property
    def open_hands(self) -> bool:
        """Whether hands are played open (Qwirkle Cubes), so that the app may
        suggest a player's best move."""
        return self.rules.open_hands

    def supply_key(self, color: str, shape: str) -> tuple[str, str]:
        """Return the key under which the supply of this kind is counted.

        (color, shape) for tiles; (color, "") for cubes, counted per colour.
        """
        return (color, "") if self.supply_per_color else (color, shape)

    @cached_property
    def supply_keys(self) -> tuple[tuple[str, str], ...]:
        """Every supply key of the set, in order (the keys of Board.unseen())."""
        if self.supply_per_color:
            return tuple((color, "") for color in self.color_names)
        return tuple(
            (color, shape) for color in self.color_names for shape in self.shape_names
        )

    @cached_property
    def kinds(self) -> tuple[tuple[str, str], ...]:
        """Every (colour, shape) of the set, colour by colour."""
        return tuple(
            (color, shape) for color in self.color_names for shape in self.shape_names
        )

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
        if self.supply_per_color:  # a cube is any shape of its colour
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

        'system' appears only outside the tile game, so tile records keep the
        contract's shape.
        """
        data: dict[str, object] = {
            "name": self.name,
            "colors": self.colors,
            "shapes": self.shapes,
            "copies": self.copies,
            "hand_size": self.hand_size,
        }
        if self.rules is not TILES:
            data["system"] = self.system
        return data

    @classmethod
    def from_dict(cls, data: object) -> Variant:
        """Build a variant from a record's or request's dict; ValueError if invalid."""
        if data is None:
            return CLASSIC
        if not isinstance(data, dict):
            raise BadInput("variant_not_object")
        values = {}
        # A record may name the box alone ("name": "cubes"): its system.
        boxes = {rules.box: name for name, rules in SYSTEM_TABLE.items() if rules.box}
        named = data.get("name")
        system = data.get("system", boxes.get(named, TILES.name)
                          if isinstance(named, str) else TILES.name)
        rules = SYSTEM_TABLE.get(system) if isinstance(system, str) else None
        for field, default in (
            ("colors", 6), ("copies", rules.copies[2] if rules else 3),
            ("hand_size", 6),
        ):
            values[field] = data.get(field, default)
        values["system"] = system
        variant = cls(**values)
        shapes = data.get("shapes", variant.colors)
        if shapes != variant.colors:
            raise BadInput(
                "variant_shapes", {"count": variant.colors, "value": shapes}
            )
        name = data.get("name", variant.name)
        if name != variant.name:
            raise BadInput(
                "variant_name", {"value": name, "expected": repr(variant.name)}
            )
        return variant


CLASSIC = Variant()
"""The classic box: 6 colours, 6 shapes, 3 copies, hands of 6 (108 tiles)."""

CUBES = Variant(colors=6, copies=15, hand_size=6, system=CUBES_SYSTEM.name)
"""The Qwirkle Cubes box: 90 cubes, 15 of each of 6 colours, hands of 6."""
