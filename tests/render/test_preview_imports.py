"""`pnp preview` imports only what one card needs (so a cold preview stays quick).

Other commands' heavy packages (the simulator, the engines, the print
profiles and services, the rulebook, the linter), pypdfium2's object layer
(previews use PDFium's raw API) and modules imported only on an error path
must not be imported by a one-card preview. The list is checked in a fresh
process, since the test session itself has imported everything. (What a
preview answered by the preview server imports, even less, is checked in
test_preview_server.py.)
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

from pnp import PROJECT_ROOT

PROJECT = Path(__file__).resolve().parent.parent / "bad_input" / "project"
#: Modules a one-card preview must not import (prefixes match sub-modules too).
NOT_IMPORTED = ("pnp.sim", "pnp.games", "pnp.printing", "pnp.rulebook", "pnp.check",
                "pnp.lint", "pnp.builder.decks", "pnp.builder.watch", "pnp.builder.preview_server",
                "pikepdf", "dask", "matplotlib", "pypdfium2", "pypdfium2_cfg", "difflib",
                "secrets")
#: Modules it does need (the check above would pass vacuously if nothing ran).
IMPORTED = ("jinja2", "reportlab.pdfgen.canvas", "pypdfium2_raw", "PIL.PngImagePlugin",
            "pnp.builder.preview", "pnp.render.preview")

SCRIPT = """
import json, sys
from pnp.cli import main
try:
    main(sys.argv[2:])
except SystemExit as exc:
    code = exc.code
json.dump({"code": code, "modules": sorted(sys.modules)}, open(sys.argv[1], "w"))
"""


def test_a_one_card_preview_imports_little(tmp_path: Path) -> None:
    project = tmp_path / "project"
    shutil.copytree(PROJECT, project)
    env = dict(os.environ, PNP_CACHE_DIR=str(tmp_path / "cache"),
               PYTHONPATH=str(PROJECT_ROOT))
    report = tmp_path / "modules.json"
    subprocess.run([sys.executable, "-c", SCRIPT, str(report), "preview", "toy", "cards",
                    "star-1", "--dpi", "36"], cwd=project, env=env, check=True,
                   capture_output=True)
    result = json.loads(report.read_text(encoding="utf-8"))
    assert result["code"] in (0, None)
    assert sorted(p.name for p in (project / "output" / "toy" / "preview").iterdir()) == [
        "star-1-back.png", "star-1-face.png"]
    modules = set(result["modules"])
    assert set(IMPORTED) <= modules
    unwanted = sorted(m for m in modules
                      if any(m == name or m.startswith(name + ".") for name in NOT_IMPORTED))
    assert unwanted == []
