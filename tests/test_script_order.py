"""Each script in static/ names the scripts it uses (`/// <reference path>`:
.ci/check-scripts.mjs fails a script that uses another's function without
naming it); here, every page loads those before it: earlier in its bundle
(web/assets.py), or in the bundle the page has already run."""

from __future__ import annotations

import re
from pathlib import Path

from scorekeeper.web import assets

STATIC = Path(__file__).resolve().parents[1] / "static"

FETCHED_LATER = {"hints.js": "game.js", "photo.js": "game.js", "speech.js": "game.js"}
"""The bundles static/later.js fetches on the game page, after its own bundle."""


def named(script: str) -> list[str]:
    """Return the scripts a script names, in its own order."""
    text = (STATIC / script).read_text(encoding="utf-8")
    return re.findall(r'^/// <reference path="([^"]+)" />$', text, flags=re.M)


def test_every_script_names_only_scripts_that_exist() -> None:
    scripts = {path.name for path in STATIC.glob("*.js")}
    named_somewhere = {name for script in scripts for name in named(script)}
    assert named_somewhere <= scripts
    # The scripts that give others their functions are named (not a vacuous check).
    assert {"core.js", "net.js", "board-hooks.js", "live.js"} <= named_somewhere


def test_every_bundle_loads_what_each_script_names_before_it() -> None:
    for bundle, files in assets.BUNDLES.items():
        if not bundle.endswith(".js"):
            continue
        after = FETCHED_LATER.get(bundle)
        before = set(assets.BUNDLES[after]) if after else set()
        for script in files:
            missing = [name for name in named(script) if name not in before]
            assert not missing, f"{bundle}: {script} runs before {missing}"
            before.add(script)
    assert set(FETCHED_LATER) <= set(assets.BUNDLES)

