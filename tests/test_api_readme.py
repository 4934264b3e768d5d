"""The README's promises: its engine example runs, its commands are the real ones."""

from __future__ import annotations

import doctest
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_the_readme_engine_example_runs_as_written() -> None:
    result = doctest.testfile(str(ROOT / "README.md"), module_relative=False)

    assert result.attempted >= 5
    assert result.failed == 0


def test_the_readme_gives_the_run_and_test_commands_ci_uses() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")

    assert "pip install -e . && python -m scorekeeper" in readme
    assert "pip install -e '.[test]' && pytest" in readme
    assert "pip install --quiet -e '.[test]'" in ci
    assert "pytest -q" in ci
