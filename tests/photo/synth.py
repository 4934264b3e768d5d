"""Synthetic photos of a Qwirkle board on a wooden table (the photo tests' data).

Our own drawing code (numpy and OpenCV), independent of the page's SVG sprite:
black rounded tiles with a coloured symbol, laid out from real positions of the
corpus games, photographed from above at any rotation, with a slant of up to
about 15°, uneven and coloured light, blur, sensor noise and JPEG compression.

`render` draws one photo; `cases` makes a fixed, seeded set of (stored board,
move, photo) cases; `random_shot` draws the camera and light of one photo.
`synth_alt` is a second renderer with a different look, written separately.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace

import cv2
import numpy as np
from corpus import game_files, load

Tile = tuple[int, int, str, str]

COLORS_RGB: dict[str, tuple[int, int, int]] = {
    "red": (214, 38, 46),
    "orange": (244, 132, 32),
    "yellow": (246, 214, 44),
    "green": (58, 168, 72),
    "blue": (38, 108, 212),
    "purple": (134, 62, 170),
    "pink": (240, 118, 178),
    "brown": (138, 84, 44),
}
"""Symbol paint of this renderer (sRGB); pink and brown for a variant's
seven or eight colours."""


@dataclass(frozen=True)
class Shot:
    """The camera, light and processing of one synthetic photo."""

    tile_px: float = 60.0
    """Tile edge in photo pixels at the board's centre."""
    angle: float = 0.0
    """Turn of the board in the photo, degrees."""
    slant: float = 0.0
    """Tilt of the camera away from straight down, degrees."""
    slant_axis: float = 0.0
    """Direction of the tilt axis, degrees."""
    light: float = 1.0
    """Overall exposure."""
    gradient: float = 0.0
    """Relative brightness change across the board."""
    vignette: float = 0.0
    """Darkening towards the photo's corners."""
    warmth: float = 0.0
    """Colour of the light: > 0 warm (tungsten), < 0 cool (shade)."""
    warmth_shift: float = 0.0
    """Change of warmth from one side of the photo to the other."""
    tint: float = 0.0
    """Green (> 0) or magenta (< 0) cast."""
    glare: float = 0.0
    """Strength of a soft bright spot."""
    blur: float = 0.5
    """Gaussian blur sigma, photo pixels."""
    noise: float = 2.0
    """Sensor noise sigma, in 0–255 levels."""
    jpeg: int | None = 85
    """JPEG quality, or None for PNG."""
    jitter: float = 0.02
    """Tile position jitter, in tile edges."""
    turn: float = 2.0
    """Tile rotation jitter, degrees."""
    margin: float = 0.25
    """Table around the board, as a share of the photo."""


def random_shot(rng: random.Random, tile_px: tuple[float, float] = (30, 110),
                slant: tuple[float, float] = (0, 15)) -> Shot:
    """Return a random camera and light within the issue's ranges."""
    return Shot(
        tile_px=rng.uniform(*tile_px),
        angle=rng.uniform(0, 360),
        slant=rng.uniform(*slant),
        slant_axis=rng.uniform(0, 360),
        light=rng.uniform(0.55, 1.25),
        gradient=rng.uniform(-0.45, 0.45),
        vignette=rng.uniform(0, 0.45),
        warmth=rng.uniform(-1, 1),
        warmth_shift=rng.uniform(-0.5, 0.5),
        tint=rng.uniform(-0.4, 0.4),
        glare=rng.choice([0.0, 0.0, rng.uniform(0.04, 0.18)]),
        blur=rng.uniform(0.3, 1.5),
        noise=rng.uniform(1, 6),
        jpeg=None if rng.random() < 0.15 else rng.randint(55, 92),
        jitter=rng.uniform(0, 0.03),
        turn=rng.uniform(0, 3),
        margin=rng.uniform(0.05, 0.22),
    )


# --- geometry -------------------------------------------------------------------

def camera(cells: Sequence[tuple[int, int]], shot: Shot,
           rng: random.Random) -> tuple[np.ndarray, tuple[int, int]]:
    """Return the homography from table units (x = col, y = row) to photo pixels,
    and the photo's size (width, height)."""
    rows = [r for r, _ in cells]
    cols = [c for _, c in cells]
    cx = (min(cols) + max(cols)) / 2
    cy = (min(rows) + max(rows)) / 2
    extent = max(max(cols) - min(cols), max(rows) - min(rows)) + 1
    approx = max(640.0, extent * shot.tile_px / (1 - 2 * shot.margin) * 1.1)
    f = 0.85 * approx
    dist = f / shot.tile_px
    a = math.radians(shot.angle)
    rz = np.array([[math.cos(a), -math.sin(a), 0], [math.sin(a), math.cos(a), 0],
                   [0, 0, 1]])
    b = math.radians(shot.slant_axis)
    axis = np.array([math.cos(b), math.sin(b), 0.0])
    rt, _ = cv2.Rodrigues(axis * math.radians(shot.slant))
    rot = rt @ rz
    k = np.array([[f, 0, 0], [0, f, 0], [0, 0, 1]])
    centre = np.array([[1, 0, -cx], [0, 1, -cy], [0, 0, 1]])
    h = k @ np.column_stack([rot[:, 0], rot[:, 1], [0, 0, dist]]) @ centre
    corners = np.array([(c + dx, r + dy) for r, c in cells
                        for dx in (-0.6, 0.6) for dy in (-0.6, 0.6)], dtype=np.float64)
    pts = cv2.perspectiveTransform(corners[None], h)[0]
    lo, hi = pts.min(axis=0), pts.max(axis=0)
    span = hi - lo
    width = max(span[0] / (1 - 2 * shot.margin), 480.0)
    height = max(span[1] / (1 - 2 * shot.margin), 480.0)
    # A camera's 4:3 frame, in whichever orientation fits the board better.
    if width >= height:
        width, height = max(width, height * 4 / 3), max(height, width * 3 / 4)
    else:
        width, height = max(width, height * 3 / 4), max(height, width * 4 / 3)
    w, h_px = int(width), int(height)
    ox = rng.uniform(0, max(0.0, w - span[0])) - lo[0]
    oy = rng.uniform(0, max(0.0, h_px - span[1])) - lo[1]
    shift = np.array([[1, 0, ox], [0, 1, oy], [0, 0, 1]])
    return shift @ h, (w, h_px)


def _poly_circle(cx: float, cy: float, r: float, n: int = 48) -> np.ndarray:
    t = np.linspace(0, 2 * math.pi, n, endpoint=False)
    return np.column_stack([cx + r * np.cos(t), cy + r * np.sin(t)])


def _rounded_square(half: float, radius: float, n: int = 8) -> np.ndarray:
    pts = []
    for sx, sy, start in ((1, 1, 0), (-1, 1, 90), (-1, -1, 180), (1, -1, 270)):
        ccx, ccy = sx * (half - radius), sy * (half - radius)
        for i in range(n + 1):
            t = math.radians(start + 90 * i / n)
            pts.append((ccx + radius * math.cos(t), ccy + radius * math.sin(t)))
    return np.array(pts)


def _bar(angle: float, length: float, width: float) -> np.ndarray:
    """A bar with pointed ends through the centre, as one polygon."""
    half, w = length / 2, width / 2
    pts = np.array([(-half, 0), (-half + w, -w), (half - w, -w), (half, 0),
                    (half - w, w), (-half + w, w)])
    c, s = math.cos(angle), math.sin(angle)
    return pts @ np.array([[c, s], [-s, c]])


def symbol_polygons(shape: str) -> list[np.ndarray]:
    """Return the polygons (tile units, centred, y down) of one symbol; their
    union is the symbol."""
    if shape == "circle":
        return [_poly_circle(0, 0, 0.27)]
    if shape == "square":
        return [_rounded_square(0.23, 0.03)]
    if shape == "diamond":
        return [np.array([(0, -0.34), (0.25, 0), (0, 0.34), (-0.25, 0)])]
    if shape == "crisscross":
        return [_bar(math.pi / 4, 0.74, 0.17), _bar(-math.pi / 4, 0.74, 0.17)]
    if shape == "starburst":
        t = np.arange(16) * math.pi / 8 + math.pi / 16
        r = np.where(np.arange(16) % 2 == 0, 0.35, 0.17)
        return [np.column_stack([r * np.cos(t), r * np.sin(t)])]
    if shape == "clover":
        parts = [_poly_circle(0, 0, 0.12)]
        for dx, dy in ((0, -1), (1, 0), (0, 1), (-1, 0)):
            parts.append(_poly_circle(0.15 * dx, 0.15 * dy, 0.125))
        return parts
    raise ValueError(f"no drawing for shape {shape!r}")


# --- textures and light --------------------------------------------------------

def value_noise(shape: tuple[int, int], cell: float, rng: np.random.Generator
                ) -> np.ndarray:
    """Smooth noise in [-1, 1] with features about `cell` pixels apart."""
    h, w = shape
    small = rng.uniform(-1, 1, (max(2, int(h / cell) + 2), max(2, int(w / cell) + 2)))
    return cv2.resize(small.astype(np.float32), (w, h), interpolation=cv2.INTER_CUBIC)


def wood(size: tuple[int, int], unit: float, rng: np.random.Generator) -> np.ndarray:
    """A wooden table top (linear RGB, float32), `unit` pixels per tile edge."""
    w, h = size
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    a = rng.uniform(0, math.pi)
    along = xx * math.cos(a) + yy * math.sin(a)
    across = -xx * math.sin(a) + yy * math.cos(a)
    warp = value_noise((h, w), unit * 4, rng) * unit * 0.8
    period = unit * rng.uniform(0.25, 0.6)
    rings = np.sin((across + warp + 0.02 * along) / period * 2 * math.pi)
    fine = value_noise((h, w), max(2.0, unit * 0.08), rng)
    grain = 0.5 + 0.25 * rings + 0.1 * fine + 0.15 * value_noise((h, w), unit * 6, rng)
    base = np.array(rng.choice([(0.55, 0.36, 0.2), (0.7, 0.5, 0.3), (0.42, 0.26, 0.14),
                                (0.78, 0.62, 0.42)]), dtype=np.float32)
    dark = base * 0.55
    rgb = dark + (base - dark) * grain[..., None]
    return np.clip(rgb, 0, 1) ** 2.2


def to_linear(img: np.ndarray) -> np.ndarray:
    """sRGB uint8 to linear float32."""
    return (img.astype(np.float32) / 255.0) ** 2.2


def to_srgb(lin: np.ndarray) -> np.ndarray:
    """Linear float32 to sRGB uint8."""
    return (np.clip(lin, 0, 1) ** (1 / 2.2) * 255 + 0.5).astype(np.uint8)


# --- the photo -----------------------------------------------------------------

def draw_tiles(tiles: Sequence[Tile], scale: float, origin: tuple[float, float],
               size: tuple[int, int], shot: Shot, rng: random.Random,
               colors: dict[str, tuple[int, int, int]] = COLORS_RGB,
               polygons: Callable[[str], list[np.ndarray]] = symbol_polygons,
               ) -> tuple[np.ndarray, np.ndarray]:
    """Draw tiles on a flat raster: return (sRGB image, alpha mask)."""
    w, h = size
    img = np.zeros((h, w, 3), np.uint8)
    alpha = np.zeros((h, w), np.uint8)
    shift = 4
    for row, col, color, shape in tiles:
        dx, dy = rng.gauss(0, shot.jitter), rng.gauss(0, shot.jitter)
        turn = math.radians(rng.gauss(0, shot.turn) + 90 * rng.randrange(4))
        c, s = math.cos(turn), math.sin(turn)
        m = np.array([[c, s], [-s, c]])
        centre = np.array([(col - origin[0] + dx) * scale,
                           (row - origin[1] + dy) * scale])

        def px(poly: np.ndarray, m: np.ndarray = m, centre: np.ndarray = centre
               ) -> np.ndarray:
            return np.round((poly @ m * scale + centre) * (1 << shift)).astype(np.int32)

        body = px(_rounded_square(0.47, 0.09))
        shade = rng.randint(18, 34)
        cv2.fillPoly(img, [body], (shade, shade, shade + 2), cv2.LINE_AA, shift)
        cv2.fillPoly(alpha, [body], 255, cv2.LINE_AA, shift)
        # The rim catches a little light: a slightly lighter edge.
        cv2.polylines(img, [body], True, (shade + 14,) * 3, max(1, int(scale * 0.02)),
                      cv2.LINE_AA, shift)
        paint = colors[color]
        for poly in polygons(shape):
            cv2.fillPoly(img, [px(poly)], paint, cv2.LINE_AA, shift)
    return img, alpha


def render(tiles: Sequence[Tile], shot: Shot, seed: int) -> np.ndarray:
    """Return a photo (BGR uint8) of these tiles on a wooden table."""
    rng = random.Random(seed)
    nrng = np.random.default_rng(seed)
    cells = [(r, c) for r, c, _, _ in tiles]
    hom, (w, h) = camera(cells, shot, rng)
    rows = [r for r, _ in cells]
    cols = [c for _, c in cells]
    origin = (min(cols) - 1.0, min(rows) - 1.0)
    scale = float(min(160.0, max(24.0, shot.tile_px * 1.3)))
    bw = int((max(cols) - min(cols) + 3) * scale)
    bh = int((max(rows) - min(rows) + 3) * scale)
    board, alpha = draw_tiles(tiles, scale, origin, (bw, bh), shot, rng)
    to_board = np.array([[1 / scale, 0, origin[0]], [0, 1 / scale, origin[1]],
                         [0, 0, 1]])
    flags = cv2.INTER_LINEAR
    board_photo = cv2.warpPerspective(board, hom @ to_board, (w, h), flags=flags)
    alpha_photo = cv2.warpPerspective(alpha, hom @ to_board, (w, h), flags=flags)
    # The table: a wooden texture in table units, seen through the same camera.
    inv = np.linalg.inv(hom)
    corners = cv2.perspectiveTransform(
        np.array([[[0, 0], [w, 0], [w, h], [0, h]]], np.float64), inv)[0]
    lo = corners.min(axis=0) - 1
    hi = corners.max(axis=0) + 1
    unit = 14.0
    tw, th = int((hi[0] - lo[0]) * unit), int((hi[1] - lo[1]) * unit)
    table = wood((tw, th), unit, nrng)
    to_table = np.array([[1 / unit, 0, lo[0]], [0, 1 / unit, lo[1]], [0, 0, 1]])
    table_photo = cv2.warpPerspective(table, hom @ to_table, (w, h), flags=flags,
                                      borderMode=cv2.BORDER_REFLECT)
    a = alpha_photo.astype(np.float32)[..., None] / 255.0
    lin = table_photo * (1 - a) + to_linear(board_photo) * a
    lin = light(lin, shot, nrng)
    img = to_srgb(lin)
    if shot.blur > 0:
        img = cv2.GaussianBlur(img, (0, 0), shot.blur)
    noisy = img.astype(np.float32) + nrng.normal(0, shot.noise, img.shape).astype(
        np.float32)
    return np.clip(noisy, 0, 255).astype(np.uint8)[..., ::-1].copy()


def light(lin: np.ndarray, shot: Shot, nrng: np.random.Generator) -> np.ndarray:
    """Apply uneven, coloured light to a linear RGB image."""
    h, w = lin.shape[:2]
    # Light varies slowly: compute it on a coarse grid, then enlarge.
    sh, sw = max(2, h // 8), max(2, w // 8)
    yy, xx = np.mgrid[0:sh, 0:sw].astype(np.float32)
    u, v = (xx * w / sw - w / 2) / max(w, h), (yy * h / sh - h / 2) / max(w, h)
    a = nrng.uniform(0, 2 * math.pi)
    along = u * math.cos(a) + v * math.sin(a)
    field = (shot.light * (1 + shot.gradient * 2 * along)
             * (1 - shot.vignette * 2 * (u * u + v * v)))
    warm = shot.warmth + shot.warmth_shift * 2 * (u * math.sin(a) - v * math.cos(a))
    gains = np.stack([1 + 0.3 * warm, 1 + 0.12 * shot.tint + 0 * warm,
                      1 - 0.35 * warm], axis=-1)
    gain = cv2.resize((field[..., None] * gains).astype(np.float32), (w, h))
    out = lin * gain
    if shot.glare:
        gx, gy = nrng.uniform(-0.3, 0.3), nrng.uniform(-0.3, 0.3)
        spot = np.exp(-((u - gx) ** 2 + (v - gy) ** 2) / (2 * 0.08 ** 2))
        out += shot.glare * cv2.resize(spot.astype(np.float32), (w, h))[..., None]
    return out


def keystone(img: np.ndarray, inset: float,
             fill: Sequence[int] | None = None) -> np.ndarray:
    """The photo as a camera tilted towards its top would take it: its top
    corners moved in by `inset` of its width, so the far side shows smaller;
    the corners it uncovers filled with `fill` (BGR), else its edge's own
    pixels."""
    h, w = img.shape[:2]
    corners = np.float32([[0, 0], [w, 0], [w, h], [0, h]])
    moved = corners + np.float32([[inset * w, 0], [-inset * w, 0], [0, 0], [0, 0]])
    border = cv2.BORDER_REPLICATE if fill is None else cv2.BORDER_CONSTANT
    return cv2.warpPerspective(img, cv2.getPerspectiveTransform(corners, moved),
                               (w, h), borderMode=border,
                               borderValue=tuple(fill or (0, 0, 0)))


def encode(img: np.ndarray, jpeg: int | None) -> bytes:
    """Return the photo as JPEG (quality given) or PNG bytes."""
    if jpeg is None:
        ok, buf = cv2.imencode(".png", img)
    else:
        ok, buf = cv2.imencode(".jpg", img, [cv2.IMWRITE_JPEG_QUALITY, jpeg])
    if not ok:
        raise RuntimeError("encoding failed")
    return buf.tobytes()


# --- cases from the corpus -----------------------------------------------------

@dataclass(frozen=True)
class Case:
    """One photo to read: the stored board, the move on the table, the photo."""

    name: str
    stored: tuple[Tile, ...]
    move: tuple[Tile, ...]
    shot: Shot
    seed: int


def positions(prefix: str = "classic-") -> list[tuple[str, list[list[Tile]]]]:
    """Return each corpus game's placing moves, by game name."""
    games = []
    for path in game_files(prefix):
        record = load(path)
        games.append((path.stem, [
            [(t["row"], t["col"], t["color"], t["shape"]) for t in move["tiles"]]
            for move in record["moves"] if move["type"] == "place"
        ]))
    return games


def cases(seed: int, count: int, **ranges: tuple[float, float]) -> list[Case]:
    """Return a fixed set of cases: a random game and move, a random shot."""
    rng = random.Random(seed)
    games = positions()
    out = []
    for i in range(count):
        name, moves = rng.choice(games)
        k = rng.randrange(len(moves))
        stored = tuple(t for move in moves[:k] for t in move)
        shot = random_shot(rng, **ranges)
        if shot.jpeg is None and shot.tile_px > 70:
            shot = replace(shot, jpeg=90)  # a large noisy PNG would pass 15 MB
        out.append(Case(f"{name}#{k + 1}", stored, tuple(moves[k]), shot,
                        seed * 100_003 + i))
    return out


def photo(case: Case, renderer: Callable[[Sequence[Tile], Shot, int], np.ndarray]
          = render) -> bytes:
    """Return the encoded photo of a case's board after its move."""
    img = renderer(case.stored + case.move, case.shot, case.seed)
    return encode(img, case.shot.jpeg)
