"""`pnp build --no-rulebook` loads no module it does not use (start-up is a build's floor).

Every build pays its imports (about half of a warm build's instructions), so
the rulebook, the simulator, the game engines and importlib.resources (with
zipfile and its readers, for one TOML file beside the code) stay unloaded.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from pnp import PROJECT_ROOT

#: Runs the CLI, then prints the names of the loaded modules.
SCRIPT = """
import runpy, sys
sys.argv = ["pnp"] + sys.argv[1:]
try:
    runpy.run_module("pnp.cli", run_name="__main__")
finally:
    print("MODULES", " ".join(sorted(sys.modules)))
"""

#: Module name prefixes a sheets-only build must not load.
UNUSED = ("pnp.rulebook", "pnp.sim", "pnp.games", "zipfile", "importlib.resources")


def test_a_sheets_only_build_loads_no_rulebook_engine_or_resource_reader(tmp_path: Path) -> None:
    env = dict(os.environ, PNP_CACHE_DIR=str(tmp_path / "cache"), PYTHONPATH=str(PROJECT_ROOT))
    done = subprocess.run([sys.executable, "-c", SCRIPT, "build", "nine_peak", "--no-rulebook",
                           "-q", "--out", str(tmp_path / "out")], cwd=PROJECT_ROOT, env=env,
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    line = next(x for x in done.stdout.splitlines() if x.startswith("MODULES "))
    loaded = line.split()[1:]
    assert "pnp.builder.decks" in loaded and "pnp.printing.profiles" in loaded
    assert [m for m in loaded if m.startswith(UNUSED)] == []
    assert (tmp_path / "out" / "nine_peak" / "hats-a4.pdf").exists()
