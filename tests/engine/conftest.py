"""Engine test set-up.

When a hypothesis test fails, its pytest plugin imports its patch writer, which
imports libcst, which (where installed) warns a DeprecationWarning from
mypy_extensions; under `filterwarnings = ["error"]` that turns a clean test
failure into a pytest INTERNALERROR.  Importing the patch writer once here,
with that warning silenced, keeps failures readable.
"""

from __future__ import annotations

import warnings

with warnings.catch_warnings():
    warnings.simplefilter("ignore", DeprecationWarning)
    try:
        import hypothesis.extra._patching  # noqa: F401
    except Exception:  # pragma: no cover - optional dependency chain
        pass
