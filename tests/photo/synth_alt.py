"""A second photo renderer with a different look, standing in for photos the
reader was not tuned to.

Written apart from `synth` and not tuned against the reader: bevelled tiles
casting soft shadows, other symbol proportions and line weights, another
paint, a plank table, a point light with a colour temperature, the camera's
own white balance and tone curve, barrel or pincushion lens distortion, a
defocus (disc) blur and intensity-dependent sensor noise. Only the board
position and the shot's tile size, turn, slant and JPEG quality come from
the case; everything else is drawn from its seed.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence

import cv2
import numpy as np

from .synth import Shot, Tile

PAINT: dict[str, tuple[int, int, int]] = {
    "red": (226, 30, 40),
    "orange": (255, 146, 8),
    "yellow": (252, 226, 20),
    "green": (18, 150, 84),
    "blue": (10, 118, 226),
    "purple": (150, 46, 196),
}
"""This renderer's symbol paint (sRGB), not the other renderer's."""


def _kelvin_gains(kelvin: float) -> np.ndarray:
    """Approximate RGB of a black body at this temperature, green = 1."""
    t = kelvin / 100
    r = 255.0 if t <= 66 else 329.7 * (t - 60) ** -0.1332
    g = 99.47 * math.log(t) - 161.1 if t <= 66 else 288.1 * (t - 60) ** -0.0755
    b = 255.0 if t >= 66 else (0.0 if t <= 19 else 138.5 * math.log(t - 10) - 305.0)
    rgb = np.clip(np.array([r, g, b]), 1, 255) / 255.0
    return rgb / rgb[1]


def _symbol(img: np.ndarray, shape: str, centre: np.ndarray, size: float,
            turn: float, paint: tuple[int, int, int]) -> None:
    """Draw one symbol in this renderer's own proportions."""
    c, s = math.cos(turn), math.sin(turn)
    rot = np.array([[c, -s], [s, c]])
    sh = 3

    def to_px(points: Sequence[tuple[float, float]]) -> np.ndarray:
        pts = (np.array(points) @ rot.T) * size + centre
        return np.round(pts * (1 << sh)).astype(np.int32)

    def disc(x: float, y: float, r: float) -> None:
        p = to_px([(x, y)])[0]
        cv2.circle(img, (int(p[0]), int(p[1])), int(r * size * (1 << sh)), paint,
                   -1, cv2.LINE_AA, sh)

    if shape == "circle":
        disc(0, 0, 0.23)
    elif shape == "square":
        cv2.fillPoly(img, [to_px([(-0.26, -0.26), (0.26, -0.26), (0.26, 0.26),
                                  (-0.26, 0.26)])], paint, cv2.LINE_AA, sh)
    elif shape == "diamond":
        cv2.fillPoly(img, [to_px([(0, -0.37), (0.29, 0), (0, 0.37), (-0.29, 0)])],
                     paint, cv2.LINE_AA, sh)
    elif shape == "crisscross":
        # Two strokes with round caps, thinner than the other renderer's bars.
        for a in (math.pi / 4, 3 * math.pi / 4):
            p0 = to_px([(-0.3 * math.cos(a), -0.3 * math.sin(a))])[0]
            p1 = to_px([(0.3 * math.cos(a), 0.3 * math.sin(a))])[0]
            cv2.line(img, (int(p0[0]), int(p0[1])), (int(p1[0]), int(p1[1])), paint,
                     max(1, int(0.12 * size)), cv2.LINE_AA, sh)
    elif shape == "starburst":
        pts = [((0.38 if k % 2 == 0 else 0.15) * math.cos(k * math.pi / 8),
                (0.38 if k % 2 == 0 else 0.15) * math.sin(k * math.pi / 8))
               for k in range(16)]
        cv2.fillPoly(img, [to_px(pts)], paint, cv2.LINE_AA, sh)
    elif shape == "clover":
        # Four leaves on the diagonals around a small heart.
        for k in range(4):
            a = math.pi / 4 + k * math.pi / 2
            disc(0.14 * math.cos(a), 0.14 * math.sin(a), 0.13)
        disc(0, 0, 0.08)
    else:
        raise ValueError(f"no drawing for shape {shape!r}")


def _table(h: int, w: int, unit: float, rng: np.random.Generator) -> np.ndarray:
    """Oak planks with seams, linear RGB."""
    plank = unit * rng.uniform(2.5, 4.5)
    a = rng.uniform(0, math.pi)
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    across = -xx * math.sin(a) + yy * math.cos(a)
    along = xx * math.cos(a) + yy * math.sin(a)
    index = np.floor(across / plank)
    tone = (np.sin(index * 12.9898) * 43758.5453) % 1.0
    small = rng.normal(0, 1, (max(2, h // 16), max(2, w // 16))).astype(np.float32)
    wobble = cv2.resize(small, (w, h), interpolation=cv2.INTER_CUBIC)
    fibres = np.sin(across * 2 * math.pi / (unit * 0.13) + 2.5 * wobble)
    seam = np.abs((across % plank) - plank / 2) > plank / 2 - max(1.0, unit * 0.04)
    base = np.array(rng.choice([(0.8, 0.66, 0.46), (0.72, 0.55, 0.36),
                                (0.86, 0.75, 0.6)]), np.float32)
    shade = 0.85 + 0.2 * tone + 0.04 * fibres + 0.03 * np.sin(along / (unit * 0.9))
    rgb = base * shade[..., None]
    rgb[seam] *= 0.45
    return np.clip(rgb, 0, 1).astype(np.float32) ** 2.2


def render(tiles: Sequence[Tile], shot: Shot, seed: int) -> np.ndarray:
    """Return a photo (BGR uint8) of these tiles, drawn in this renderer's look."""
    rng = random.Random(seed ^ 0x5EED)
    nrng = np.random.default_rng(seed ^ 0x5EED)
    rows = [r for r, _, _, _ in tiles]
    cols = [c for _, c, _, _ in tiles]
    extent = max(max(rows) - min(rows), max(cols) - min(cols)) + 1
    # The table plane, drawn flat at `u` pixels per tile edge.
    u = float(min(100.0, max(28.0, shot.tile_px * 1.15)))
    # Table enough around the board for the frame (at least 540 pixels a side).
    pad = 0.5 * extent + 3 + 420 / shot.tile_px
    pw = int((max(cols) - min(cols) + 1 + 2 * pad) * u)
    ph = int((max(rows) - min(rows) + 1 + 2 * pad) * u)
    ox, oy = (min(cols) - pad) * u, (min(rows) - pad) * u
    layer = np.zeros((ph, pw, 3), np.float32)
    alpha = np.zeros((ph, pw), np.float32)
    shadow = np.zeros((ph, pw), np.float32)
    light_dir = rng.uniform(0, 2 * math.pi)
    gap = rng.uniform(0.02, 0.07)
    m = int(u)
    for r, c, color, shape in tiles:
        cx = (c + 0.5) * u - ox + rng.gauss(0, 0.015 * u)
        cy = (r + 0.5) * u - oy + rng.gauss(0, 0.015 * u)
        turn = math.radians(rng.uniform(-4, 4)) + rng.randrange(4) * math.pi / 2
        half = (1 - gap) / 2 * u
        # Work in a window around the tile.
        x0, y0 = int(cx) - m, int(cy) - m
        win = (slice(y0, y0 + 2 * m), slice(x0, x0 + 2 * m))
        lx, ly = cx - x0, cy - y0
        box = cv2.boxPoints(((lx, ly), (2 * half, 2 * half), math.degrees(turn)))
        sx, sy = 0.06 * u * math.cos(light_dir), 0.06 * u * math.sin(light_dir)
        cv2.fillPoly(shadow[win], [np.round((box + (sx, sy)) * 8).astype(np.int32)],
                     1.0, cv2.LINE_AA, 3)
        tile = np.zeros((2 * m, 2 * m), np.uint8)
        cv2.fillPoly(tile, [np.round(box * 8).astype(np.int32)], 255, cv2.LINE_AA, 3)
        # Bevel: the tile's edge is lighter on the side facing the light.
        inner = cv2.erode(tile, np.ones((3, 3), np.uint8),
                          iterations=max(1, int(0.05 * u)))
        edge = (tile.astype(np.float32) - inner.astype(np.float32)) / 255.0
        yy, xx = np.mgrid[0:2 * m, 0:2 * m].astype(np.float32)
        facing = (xx - lx) * -math.cos(light_dir) + (yy - ly) * -math.sin(light_dir)
        bevel = 0.06 * np.clip(facing / half, -1, 1)
        body = rng.uniform(0.03, 0.05)
        value = body * (1 + 0.2 * nrng.normal(0, 1, tile.shape)) + edge * (0.04 + bevel)
        value = np.clip(value, 0.005, 1).astype(np.float32)
        a = tile.astype(np.float32) / 255.0
        colour = value[..., None] * np.array([1.0, 0.97, 0.95], np.float32)
        sym = np.zeros((2 * m, 2 * m, 3), np.uint8)
        _symbol(sym, shape, np.array([lx, ly]), u * (1 - gap), turn, PAINT[color])
        cover = np.clip(sym.max(axis=2).astype(np.float32)
                        / max(1, max(PAINT[color])), 0, 1)[..., None]
        paint = (np.array(PAINT[color], np.float32) / 255.0) ** 2.2 * 0.92
        colour = colour * (1 - cover) + paint * cover
        layer[win] = layer[win] * (1 - a[..., None]) + colour * a[..., None]
        alpha[win] = np.maximum(alpha[win], a)
    shadow = cv2.GaussianBlur(shadow, (0, 0), 0.08 * u)
    table = _table(ph, pw, u, nrng) * (1 - 0.55 * shadow)[..., None]
    plane = table * (1 - alpha[..., None]) + layer * alpha[..., None]
    plane = _point_light(plane, u, rng)
    corners = np.array([((c + dx) * u - ox, (r + dy) * u - oy)
                        for r, c, _, _ in tiles for dx in (0, 1) for dy in (0, 1)])
    photo = _camera(plane, u, extent, corners, shot, rng)
    return _sensor(photo, rng, nrng)


def _point_light(plane: np.ndarray, u: float, rng: random.Random) -> np.ndarray:
    """A lamp above the table: inverse-square falloff, a colour temperature, and
    an ambient fill of another temperature."""
    h, w = plane.shape[:2]
    lx, ly = rng.uniform(-0.3, 1.3) * w, rng.uniform(-0.3, 1.3) * h
    height = rng.uniform(0.6, 1.5) * max(w, h)
    yy, xx = np.mgrid[0:h:8, 0:w:8].astype(np.float32)
    d2 = (xx - lx) ** 2 + (yy - ly) ** 2 + height ** 2
    lamp = (height ** 3) / d2 ** 1.5
    lamp = cv2.resize(lamp, (w, h))
    key = _kelvin_gains(rng.uniform(2700, 6500))
    fill = _kelvin_gains(rng.uniform(4500, 9000))
    share = rng.uniform(0.15, 0.5)
    gains = lamp[..., None] * key * (1 - share) + fill * share
    return plane * gains * rng.uniform(0.7, 1.4)


def _camera(plane: np.ndarray, u: float, extent: int, corners: np.ndarray,
            shot: Shot, rng: random.Random) -> np.ndarray:
    """Photograph the table plane: turn, tilt, perspective, lens distortion;
    the frame is made large enough to show every tile corner given (plane
    pixels)."""
    ph, pw = plane.shape[:2]
    room = rng.uniform(1.15, 1.45)
    aspect = rng.random() < 0.5
    f_share = rng.uniform(0.8, 1.3)
    k1 = rng.uniform(-0.09, 0.04)
    offset = (rng.uniform(-0.03, 0.03), rng.uniform(-0.03, 0.03))
    a = math.radians(shot.angle)
    tilt = math.radians(shot.slant)
    b = math.radians(shot.slant_axis)
    # Rotation: turn about the optical axis, then tilt about an axis in the plane.
    rz = np.array([[math.cos(a), -math.sin(a), 0], [math.sin(a), math.cos(a), 0],
                   [0, 0, 1]])
    k = np.array([math.cos(b), math.sin(b), 0.0])
    kx = np.array([[0, -k[2], k[1]], [k[2], 0, -k[0]], [-k[1], k[0], 0]])
    rt = np.eye(3) + math.sin(tilt) * kx + (1 - math.cos(tilt)) * kx @ kx
    rot = rt @ rz
    centre = np.array([[1, 0, -pw / 2], [0, 1, -ph / 2], [0, 0, 1]])
    short = max(540.0, extent * shot.tile_px * room)
    # Grow the frame until every tile, through the lens, is well inside it.
    for _ in range(30):
        long = short * 4 / 3
        w, h = (int(long), int(short)) if aspect else (int(short), int(long))
        f = f_share * max(w, h)
        dist = f / shot.tile_px * u
        cam = np.array([[f, 0, w / 2 + offset[0] * w], [0, f, h / 2 + offset[1] * h],
                        [0, 0, 1]])
        hom = cam @ np.column_stack([rot[:, 0], rot[:, 1], [0, 0, dist]]) @ centre
        seen = cv2.perspectiveTransform(corners[None].astype(np.float64), hom)[0]
        half = max(w, h) / 2
        n = (seen - (w / 2, h / 2)) / half
        n = n / (1 + k1 * (n * n).sum(axis=1, keepdims=True))
        px = n * half + (w / 2, h / 2)
        if (px.min(axis=0) > 0.04 * np.array([w, h])).all() and \
                (px.max(axis=0) < 0.96 * np.array([w, h])).all():
            break
        short *= 1.08
    # Lens: r_distorted = r (1 + k1 r^2); sample the ideal image through it.
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    nx, ny = (xx - w / 2) / (max(w, h) / 2), (yy - h / 2) / (max(w, h) / 2)
    r2 = nx * nx + ny * ny
    factor = 1 + k1 * r2
    ux = (nx * factor * (max(w, h) / 2) + w / 2).astype(np.float32)
    uy = (ny * factor * (max(w, h) / 2) + h / 2).astype(np.float32)
    inv = np.linalg.inv(hom)
    den = inv[2, 0] * ux + inv[2, 1] * uy + inv[2, 2]
    mx = ((inv[0, 0] * ux + inv[0, 1] * uy + inv[0, 2]) / den).astype(np.float32)
    my = ((inv[1, 0] * ux + inv[1, 1] * uy + inv[1, 2]) / den).astype(np.float32)
    src = plane
    shrink = 1.0
    while shot.tile_px < u / (2 * shrink):
        src = cv2.pyrDown(src)
        shrink *= 2
    # Beyond the drawn table, more of its average colour (never a mirrored
    # copy of the tiles).
    fill = tuple(float(v) for v in np.median(src[:8].reshape(-1, 3), axis=0))
    return cv2.remap(src.astype(np.float32), mx / shrink, my / shrink, cv2.INTER_LINEAR,
                     borderMode=cv2.BORDER_CONSTANT, borderValue=fill)


def _sensor(lin: np.ndarray, rng: random.Random, nrng: np.random.Generator
            ) -> np.ndarray:
    """Camera processing: partial auto white balance, tone curve, saturation,
    defocus blur, shot noise, chroma noise; returns BGR uint8."""
    mean = lin.reshape(-1, 3).mean(axis=0)
    awb = (mean.mean() / np.maximum(mean, 1e-4)) ** rng.uniform(0.2, 0.7)
    exposure = 0.45 / max(float(np.percentile(lin.max(axis=2), 95)), 1e-3)
    lin = lin * awb * exposure * rng.uniform(0.8, 1.2)
    radius = rng.uniform(0.5, 2.2)
    size = int(math.ceil(radius)) * 2 + 1
    disc = np.zeros((size, size), np.float32)
    cv2.circle(disc, (size // 2, size // 2), max(1, int(round(radius))), 1.0, -1,
               cv2.LINE_AA)
    lin = cv2.filter2D(lin, -1, disc / disc.sum())
    photons = rng.uniform(300, 2500)
    lin = nrng.poisson(np.clip(lin, 0, 4) * photons).astype(np.float32) / photons
    srgb = np.where(lin <= 0.0031308, 12.92 * lin,
                    1.055 * np.power(np.clip(lin, 0, None), 1 / 2.4) - 0.055)
    # A gentle S-curve and a saturation boost, as phones do.
    srgb = np.clip(srgb, 0, 1)
    srgb = srgb + rng.uniform(0.0, 0.25) * (srgb - 0.5) * (1 - np.abs(2 * srgb - 1))
    grey = srgb.mean(axis=2, keepdims=True)
    srgb = grey + (srgb - grey) * rng.uniform(1.0, 1.35)
    out = np.clip(srgb * 255 + nrng.normal(0, 1.2, srgb.shape), 0, 255)
    return out.astype(np.uint8)[..., ::-1].copy()
