"""The rulebook --jobs default fits its own range on any machine."""

from __future__ import annotations

import os

import pytest
from click.testing import CliRunner

from pnp.cli import main


def test_jobs_default_on_a_machine_with_many_cpus(monkeypatch: pytest.MonkeyPatch) -> None:
    """With 96 CPUs the default is 64 (click refused every build without -j before)."""
    monkeypatch.setattr(os, "cpu_count", lambda: 96)
    result = CliRunner().invoke(main, ["rulebook", "nosuchgame"])
    assert "--jobs" not in result.output, result.output
    assert "nosuchgame" in result.output and result.exit_code == 1
