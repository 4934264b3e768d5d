"""The outline of a large JSON object, scanned from its bytes with numpy.

The outline keeps every byte at depth 1 (the object's keys and plain values)
and the brackets of the values one level down, so that
`{"format": "…", "games": [ …thousands of games… ]}` outlines as
`{"format": "…", "games": []}`; and it tracks the deepest nesting. A backup is
framed from it (formats/backup.py, `read_sections`) before ijson reads a game.

ijson names every value by its path, so a file of 100,000 nested lists
(200 KB) would take it gigabytes: this scan refuses such a file before ijson
sees it, at about 20 MB/s, where letting ijson read it twice took five times
as long. Brackets inside strings do not count: a quote ends a string unless an
odd run of backslashes stands before it. Whether the rest is JSON is ijson's
to say, as it reads.
"""

from __future__ import annotations

SCAN_SIZE = 1024 * 1024
"""Bytes the outline scan looks at in one go."""

_BACKSLASH, _QUOTE = ord("\\"), ord('"')
_OPENS, _CLOSES = (ord("["), ord("{")), (ord("]"), ord("}"))


class TooDeep(ValueError):
    """The document nests deeper than the outline allows."""


class TooLarge(ValueError):
    """The outline grew past its limit (the top level holds too much)."""

    def __init__(self, size: int, limit: int) -> None:
        super().__init__(f"outline of {size:,} bytes, at most {limit:,}")
        self.size = size
        self.limit = limit


class Outline:
    """A JSON object's outline, fed its bytes a piece at a time (pieces may cut
    anywhere, in a string or an escape)."""

    def __init__(self, *, max_depth: int, max_size: int) -> None:
        self.max_depth = max_depth
        self.max_size = max_size
        self.depth = 0
        self.in_string = False
        self.backslashes = 0
        """Backslashes at the end of the bytes scanned so far."""
        self.kept: list[bytes] = []
        self.size = 0

    @property
    def complete(self) -> bool:
        """Whether every bracket and string opened so far was closed."""
        return self.depth == 0 and not self.in_string

    def text(self) -> bytes:
        """Return the outline so far, as JSON bytes."""
        return b"".join(self.kept)

    def feed(self, data: bytes) -> None:
        """Scan the next bytes of the file; TooDeep or TooLarge past the limits."""
        import numpy as np  # only while a backup is read: 20 MB an idle server spares

        a = np.frombuffer(data, np.uint8)
        backslash = a == _BACKSLASH
        quotes = a == _QUOTE
        run = self.backslashes
        if run or backslash.any():
            index = np.arange(len(a))
            last_other = np.maximum.accumulate(np.where(backslash, -1, index))
            before = np.empty(len(a), np.int64)
            before[0] = run
            before[1:] = index[:-1] - last_other[:-1] + np.where(
                last_other[:-1] < 0, run, 0)
            quotes &= before % 2 == 0
            run = int(len(a) - 1 - last_other[-1] + (run if last_other[-1] < 0 else 0))
        self.backslashes = run
        inside = np.logical_xor.accumulate(quotes)
        if self.in_string:
            inside = ~inside
        outside = ~inside
        opens = ((a == _OPENS[0]) | (a == _OPENS[1])) & outside
        closes = ((a == _CLOSES[0]) | (a == _CLOSES[1])) & outside
        depth = np.cumsum(opens.view(np.int8) - closes.view(np.int8), dtype=np.int64)
        depth += self.depth
        if int(depth.max()) > self.max_depth:
            raise TooDeep(f"nested more than {self.max_depth} deep")
        keep = depth <= 1
        keep |= opens & (depth == 2)
        part = a[keep].tobytes()
        self.size += len(part)
        if self.size > self.max_size:
            raise TooLarge(self.size, self.max_size)
        self.kept.append(part)
        self.depth = int(depth[-1])
        self.in_string = bool(inside[-1])
