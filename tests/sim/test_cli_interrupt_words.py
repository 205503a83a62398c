"""Ctrl-C in `pnp simulate` ends with one line saying what was written (issue 13).

A Ctrl-C before the worker pool or the Dask cluster takes over (loading the
data, a one-process run) printed the CLI's bare "interrupted"; it now says
"error: interrupted: nothing was written" like the pool and the cluster, and
names the file when one report was already written. The interrupt is raised
from inside the code (no signal, no race).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from pnp import PROJECT_ROOT
from pnp.cli import main
from pnp.errors import Interrupted
from pnp.sim.stopped import interrupted

DATA = str(PROJECT_ROOT / "card_data")


def _press(*_args: Any, **_kwargs: Any) -> Any:
    """Stand-in for whatever was running when Ctrl-C came."""
    raise KeyboardInterrupt


def _run(tmp_path: Path) -> tuple[int, list[str], Path, Path]:
    """``pnp simulate fortuna`` with --json and --html into ``tmp_path``."""
    js, page = tmp_path / "r.json", tmp_path / "r.html"
    result = CliRunner().invoke(main, ["simulate", "fortuna", "-n", "3", "-q", "--no-invariants",
                                       "--data-dir", DATA, "--json", str(js),
                                       "--html", str(page)])
    return result.exit_code, result.output.strip().splitlines(), js, page


@pytest.mark.parametrize("where", ["pnp.data.load_game_data", "pnp.sim.runner.run_chunk"])
def test_nothing_written_yet(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                             where: str) -> None:
    """While the card data loads, or mid-play in one process: exit 130, one line."""
    module, _, name = where.rpartition(".")
    monkeypatch.setattr(module + "." + name, _press)
    code, lines, js, page = _run(tmp_path)
    assert code == 130
    assert lines == ["error: interrupted: nothing was written"]
    assert not js.exists() and not page.exists()
    assert list(tmp_path.iterdir()) == []  # no temp file left either


def test_after_the_json_was_written(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Ctrl-C while the chart page is drawn: the JSON is complete and named, no page."""
    monkeypatch.setattr("pnp.sim.html.report_page", _press)
    code, lines, js, page = _run(tmp_path)
    assert code == 130
    assert lines == [f"error: interrupted after writing 1 complete file(s) ({js}); "
                     "nothing else was written"]
    assert js.exists() and not page.exists()


def test_one_wording_for_every_backend() -> None:
    """The pool's and the cluster's lines are built from the same words."""
    assert str(interrupted()) == "interrupted: nothing was written"
    assert str(interrupted("worker processes stopped")) == (
        "interrupted: worker processes stopped; nothing was written")
    err = interrupted("cluster tasks cancelled")
    assert isinstance(err, Interrupted) and err.exit_code == 130
    assert str(err) == "interrupted: cluster tasks cancelled; nothing was written"
