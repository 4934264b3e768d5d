"""The QR code `python -m scorekeeper` prints scans with a phone's camera:
the printed characters are drawn as a terminal draws them, on a dark and on a light
theme, and the picture is decoded with OpenCV."""

from __future__ import annotations

import re

import cv2
import numpy as np
import pytest

from scorekeeper.__main__ import terminal_qr

URL = "http://192.168.1.20:5000/"

THEMES = {
    # (the terminal's own foreground, its background)
    "dark theme": ((204, 204, 204), (0, 0, 0)),
    "light theme": ((0, 0, 0), (255, 255, 255)),
}

SGR = re.compile(r"\x1b\[([0-9;]*)m")


def xterm(n: int) -> tuple[int, int, int]:
    """xterm's 256-colour palette (the 16 system colours as xterm draws them)."""
    if n < 16:
        base = [(0, 0, 0), (205, 0, 0), (0, 205, 0), (205, 205, 0), (0, 0, 238),
                (205, 0, 205), (0, 205, 205), (229, 229, 229), (127, 127, 127),
                (255, 0, 0), (0, 255, 0), (255, 255, 0), (92, 92, 255),
                (255, 0, 255), (0, 255, 255), (255, 255, 255)]
        return base[n]
    if n < 232:
        n -= 16
        steps = [0, 95, 135, 175, 215, 255]
        return steps[n // 36], steps[n // 6 % 6], steps[n % 6]
    grey = 8 + (n - 232) * 10
    return grey, grey, grey


def render(text: str, theme: str) -> np.ndarray:
    """Draw terminal text as a terminal would: each character cell one pixel wide
    and two high (a half block fills one of them), colours from the escape codes."""
    default_fg, default_bg = THEMES[theme]
    rows: list[list[tuple[int, int, int]]] = [[], []]
    picture: list[list[tuple[int, int, int]]] = []
    for line in text.split("\n"):
        if not line:
            continue
        fg, bg, reverse = default_fg, default_bg, False
        top: list[tuple[int, int, int]] = []
        bottom: list[tuple[int, int, int]] = []
        pos = 0
        for match in [*SGR.finditer(line), None]:
            chunk = line[pos: match.start() if match else len(line)]
            for char in chunk:
                ink, paper = (bg, fg) if reverse else (fg, bg)
                top.append(ink if char in "\u2580\u2588" else paper)
                bottom.append(ink if char in "\u2584\u2588" else paper)
            if match is None:
                break
            pos = match.end()
            codes = [int(c) for c in match.group(1).split(";") if c] or [0]
            i = 0
            while i < len(codes):
                code = codes[i]
                if code == 0:
                    fg, bg, reverse = default_fg, default_bg, False
                elif code == 7:
                    reverse = True
                elif code in (38, 48) and codes[i + 1] == 5:
                    colour = xterm(codes[i + 2])
                    fg, bg = (colour, bg) if code == 38 else (fg, colour)
                    i += 2
                elif 30 <= code <= 37:
                    fg = xterm(code - 30)
                elif 40 <= code <= 47:
                    bg = xterm(code - 40)
                i += 1
        picture += [top, bottom]
    del rows
    width = max(len(row) for row in picture)
    # What lies beside the printed lines is the terminal's own background.
    grid = np.array([row + [default_bg] * (width - len(row)) for row in picture],
                    dtype=np.uint8)
    margin = np.full((grid.shape[0] + 8, width + 8, 3), default_bg, dtype=np.uint8)
    margin[4:-4, 4:-4] = grid
    return np.kron(margin, np.ones((8, 8, 1), dtype=np.uint8))


@pytest.mark.parametrize("theme", sorted(THEMES))
def test_the_printed_code_scans_on_a_dark_and_on_a_light_terminal(theme: str) -> None:
    text = terminal_qr(URL)
    picture = render(text, theme)
    found, _points, _code = cv2.QRCodeDetector().detectAndDecode(
        cv2.cvtColor(picture, cv2.COLOR_RGB2BGR))
    assert found == URL


def test_its_modules_are_dark_on_a_light_ground() -> None:
    picture = render(terminal_qr(URL), "dark theme")
    grey = picture.mean(axis=2)
    # The quiet zone (the code's first rows) is light, the finder's corner dark.
    inside = grey[4 * 8: -4 * 8, 4 * 8: -4 * 8]
    assert inside[:8].min() > 200
    assert inside[4 * 8 + 4, 4 * 8 + 4] < 50
