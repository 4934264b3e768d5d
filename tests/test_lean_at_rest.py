"""The server at rest holds none of the heavy libraries: fpdf (with Pillow and
fontTools), numpy and OpenCV are imported where a photo is read or a PDF drawn,
in the helper process (web/helper.py; benchmarks/bench_server.py measures the
memory this keeps free)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

HEAVY = ("fpdf", "PIL", "numpy", "cv2", "fontTools")
"""Libraries of tens of MB each that an idle server must not import."""

PLAY_A_LITTLE = """
import json, sys
from scorekeeper import create_app

app = create_app({"TESTING": True, "DATABASE": sys.argv[1]})
client = app.test_client()
game = client.post("/api/games", json={"players": ["Ann", "Bob"]}).get_json()
move = {"type": "place", "tiles": [
    {"row": 0, "col": 0, "color": "red", "shape": "circle"}]}
client.post(f"/api/games/{game['id']}/moves", json=move,
            headers={"X-Edit-Token": game["edit_token"]})
for path in ("/", f"/games/{game['id']}", f"/api/games/{game['id']}", "/history",
             "/events", f"/games/{game['id']}/scoresheet.csv"):
    assert client.get(path).status_code < 500, path
print(json.dumps(sorted(name for name in sys.argv[2:] if name in sys.modules)))
"""


def test_creating_the_app_and_playing_imports_no_heavy_library(tmp_path: Path) -> None:
    env = {**os.environ, "PYTHONPATH": str(ROOT),
           "SCOREKEEPER_INSTANCE": str(tmp_path / "instance")}
    done = subprocess.run(
        [sys.executable, "-c", PLAY_A_LITTLE, str(tmp_path / "db.sqlite3"), *HEAVY],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=120, check=False,
    )
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout.splitlines()[-1]) == []
