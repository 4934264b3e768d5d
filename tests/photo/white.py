"""A set whose sixth colour is white: real paint for five colours and a
colourless paint for purple, rendered by `synth_real`."""

from __future__ import annotations

import colorsys
import random
from dataclasses import dataclass

from . import synth_real


@dataclass(frozen=True)
class WhitePaint(synth_real.Paint):
    """A paint set; a colour of saturation under `synth_real`'s least (0.3)
    is printed as it is: a white keeps no colour, tile to tile."""

    def rgb(self, color: str, rng: random.Random) -> tuple[int, int, int]:
        for name, h, s, v in self.hsv:
            if name == color and s < WHITE_SATURATION:
                v2 = min(1.0, max(0.25, v + rng.gauss(0, 0.03)))
                r, g, b = colorsys.hsv_to_rgb(h / 360, s, v2)
                return int(r * 255), int(g * 255), int(b * 255)
        return super().rgb(color, rng)


WHITE_SATURATION = 0.3
"""Below this a paint is printed without `synth_real`'s spread of saturation."""

WHITE_FOR_PURPLE = WhitePaint((
    ("red", 352.0, 0.85, 0.6), ("orange", 14.0, 0.85, 0.65),
    ("yellow", 55.0, 0.85, 0.8), ("green", 140.0, 0.85, 0.6),
    ("blue", 207.0, 0.9, 0.6), ("purple", 200.0, 0.07, 0.85),
))
"""Paint as the real development set's (an orange 22° from red, a blue) with
a bluish white in purple's place: a white's hue is its light's, so it lies
close to blue."""
