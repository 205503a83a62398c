"""A two-parameter sweep on a Dask LocalCluster gives exactly the local result."""

from __future__ import annotations

from pathlib import Path

import pytest

from pnp.data import load_game_data
from pnp.errors import PnpError
from pnp.sim import run_sweep, simulate

DATA = Path(__file__).resolve().parents[2] / "card_data"
SWEEPS = ["hand_size=6,7", "end_deck_size=5,7"]


def test_two_parameter_sweep_on_local_cluster_equals_local() -> None:
    """Same seed, same grid: the sweep JSON (paired differences included) is identical."""
    data = load_game_data(DATA, "fortuna", strict=True)
    kwargs = dict(players=4, games=300, bots="greedy,random", seed=11, params={},
                  invariants="off")
    _text, local, code = run_sweep(data, SWEEPS, jobs=2, **kwargs)  # type: ignore[arg-type]
    _text2, dask, code2 = run_sweep(data, SWEEPS, jobs=2, cluster="local",
                                    **kwargs)  # type: ignore[arg-type]
    assert code == code2 == 0
    assert len(local["rows"]) == 4 and all("paired" in r for r in local["rows"][1:])
    assert dask == local


def test_bad_cluster_is_one_line() -> None:
    """--cluster nonsense: a PnpError naming the expected forms, before any game."""
    from pnp.games import make_game
    game = make_game(load_game_data(DATA, "fortuna", strict=True))
    with pytest.raises(PnpError, match="expected 'local' or a scheduler address"):
        simulate(game, 4, 10, ["random"], 1, invariants="off", cluster="my-scheduler")
