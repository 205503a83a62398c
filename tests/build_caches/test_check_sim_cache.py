"""`pnp check` keeps its seeded simulation results: unchanged code and data are not played again."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import pytest

import pnp.sim
from pnp import PROJECT_ROOT
from pnp.builder import serve
from pnp.check import run_check

from cache_entries import entries, replace_in


@pytest.fixture()
def played(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The player counts the check simulated in this test."""
    counts: list[int] = []
    real = pnp.sim.run_simulation

    def run_simulation(game: Any, players: int, *args: Any, **kwargs: Any) -> Any:
        counts.append(players)
        return real(game, players, *args, **kwargs)

    monkeypatch.setattr(pnp.sim, "run_simulation", run_simulation)
    return counts


def _data(tmp_path: Path) -> Path:
    """A copy of the shipped Fortuna data (3–4 players)."""
    root = tmp_path / "card_data"
    shutil.copytree(PROJECT_ROOT / "card_data" / "fortuna", root / "fortuna")
    return root


def _check(root: Path) -> dict[str, Any]:
    """The check's JSON report of Fortuna (5 games per player count, no lint)."""
    text, report, code = run_check(["fortuna"], root, sim_games=5, progress=False, lint=False)
    assert code == 0, text
    return report


def test_a_warm_check_reports_the_kept_results_without_playing(tmp_path: Path, cache: Path,
                                                              played: list[int],
                                                              monkeypatch: pytest.MonkeyPatch
                                                              ) -> None:
    """Cold and warm reports are equal; warm plays nothing; caches off plays again."""
    root = _data(tmp_path)
    cold = _check(root)
    assert played == [3, 4] and len(entries(cache, "check-sims")) == 1
    played.clear()
    assert _check(root) == cold
    assert played == []
    with monkeypatch.context() as m:
        m.setenv("PNP_BUILD_CACHE", "0")
        assert _check(root) == cold
    assert played == [3, 4]


def test_data_code_and_damage_play_again(tmp_path: Path, cache: Path, played: list[int],
                                        monkeypatch: pytest.MonkeyPatch) -> None:
    """A data edit, a code change or a damaged entry each make the check play again."""
    root = _data(tmp_path)
    _check(root)
    played.clear()
    replace_in(root / "fortuna" / "manifest.toml", 'title = "Fortuna"', 'title = "Fortuna 2"')
    _check(root)
    assert played == [3, 4]
    played.clear()
    monkeypatch.setattr(serve, "code_stamp", lambda skip=(): "another pnp")
    _check(root)
    assert played == [3, 4]
    played.clear()
    # an entry whose payload is not the results (as another version might write)
    for entry in entries(cache, "check-sims"):
        entry.unlink()
    from pnp.check import _sim_store

    store, key = _sim_store(root / "fortuna", 5)
    assert store is not None and key is not None
    store.put(key, b"not json")
    _check(root)
    assert played == [3, 4]
    played.clear()
    store.put(key, b'{"players": 3}')          # JSON, but not a list of results
    _check(root)
    assert played == [3, 4]
