"""Reading what callers hand the engine: the bounds of a cell."""

from __future__ import annotations

MAX_COORDINATE = 10_000
"""Cells further out than this cannot occur in a real game (108 tiles): every path
that takes a cell (API, forms, records) refuses them."""
