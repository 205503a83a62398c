"""The run's wording about players and processes, and the one --jobs limit.

"Simulating episode2, 1 players" was plural; "(asked for 2; …)" appeared
when the user never passed --jobs (the default is one process per CPU); and
``simulate --jobs`` took 1–256 while its help said "at most 64" and ``build
-j`` stopped at 64. One constant (:data:`pnp.options.MAX_JOBS`) now sets the
limits, the defaults and the help of every command.
"""

from __future__ import annotations

import os
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator

import pytest
from click.testing import CliRunner

import pnp.sim
from pnp import PROJECT_ROOT
from pnp.cli import main
from pnp.data import load_game_data
from pnp.errors import PnpError
from pnp.options import MAX_JOBS
from pnp.sim import run_simulation

DATA = PROJECT_ROOT / "card_data"


def test_progress_label_counts_players(monkeypatch: pytest.MonkeyPatch) -> None:
    """One player reads "1 player", four "4 players" (the bar's label)."""
    labels: list[str] = []

    @contextmanager
    def bar(enabled: bool, length: int, label: str) -> Iterator[None]:
        labels.append(label)
        yield None

    monkeypatch.setattr(pnp.sim, "_progress_bar", bar)
    for slug, players in (("episode2", 1), ("fortuna", 4)):
        run_simulation(load_game_data(DATA, slug, strict=True), players, 4, "random", 1, 1,
                       {}, progress=True)
    assert labels == ["Simulating episode2, 1 player", "Simulating fortuna, 4 players"]


def test_fewer_processes_than_asked_is_worded_for_who_asked() -> None:
    """20 games make one chunk: "asked for 2" only when --jobs was given."""
    data = load_game_data(DATA, "fortuna", strict=True)
    given, _r, _c = run_simulation(data, 4, 20, "random", 1, 2, {})
    default, _r, _c = run_simulation(data, 4, 20, "random", 1, 2, {}, jobs_given=False)
    assert "on 1 process (asked for 2; 20 games make too few chunks)" in given
    assert "asked" not in default.splitlines()[-1]
    assert "on 1 process (20 games make too few chunks for one per CPU, 2)" in default


def test_cli_default_jobs_is_not_called_asked(monkeypatch: pytest.MonkeyPatch) -> None:
    """Without --jobs (4 CPUs) the line says the default; with --jobs 4 it says asked."""
    monkeypatch.setattr(os, "cpu_count", lambda: 4)
    runner = CliRunner()
    plain = runner.invoke(main, ["simulate", "fortuna", "-n", "20", "-q"])
    asked = runner.invoke(main, ["simulate", "fortuna", "-n", "20", "-q", "--jobs", "4"])
    assert plain.exit_code == 0 and asked.exit_code == 0, plain.output + asked.output
    assert "(20 games make too few chunks for one per CPU, 4)" in plain.output
    assert "asked for" not in plain.output
    assert "(asked for 4; 20 games make too few chunks)" in asked.output


@pytest.mark.parametrize("command", [["simulate", "fortuna"], ["build"], ["rulebook"]])
def test_help_states_the_one_limit(command: list[str]) -> None:
    """Every --jobs help gives 1–MAX_JOBS and a default capped at MAX_JOBS."""
    result = CliRunner().invoke(main, [*command, "--help"])
    text = " ".join(result.output.split())
    assert f"1–{MAX_JOBS}" in text and f"at most {MAX_JOBS}" in text
    assert "at most 64" not in text


def test_limits_agree(tmp_path: Path) -> None:
    """build refuses MAX_JOBS + 1 and simulate's check refuses it too, in one line;
    MAX_JOBS itself passes simulate's check. (The build names no game that exists and
    writes to a temporary folder, should its -j ever be taken.)"""
    assert pnp.sim.MAX_JOBS == MAX_JOBS
    result = CliRunner().invoke(main, ["build", "--out", str(tmp_path / "out"), "-j",
                                       str(MAX_JOBS + 1), "no_such_game"])
    assert result.exit_code != 0 and f"1<=x<={MAX_JOBS}" in result.output
    with pytest.raises(PnpError) as err:
        pnp.sim._check_ints(10, MAX_JOBS + 1, 100, 1)
    assert err.value.message == (f"--jobs {MAX_JOBS + 1}: expected a whole number from 1 to "
                                 f"{MAX_JOBS}")
    pnp.sim._check_ints(10, MAX_JOBS, 100, 1)


