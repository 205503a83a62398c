"""The step-cap failure names the game's length in the game's own unit (issue 13).

第2話 counts attacks, so "no end after 5 actions (3 turns)" misnamed its
length. The unit travels with each variant's set-up to wherever a chunk is
played (this process, a worker pool, a Dask task); the runner names no game.
"""

from __future__ import annotations

import pickle
import re
from pathlib import Path

from pnp.data import load_game_data
from pnp.games.bots import RandomBot, bot_factory
from pnp.sim import run_simulation, simulate
from pnp.sim.runner import _Chunk, _Setup, run_task
from toy_game import toy

DATA = Path(__file__).resolve().parents[2] / "card_data"


def test_episode2_step_cap_counts_attacks_and_fortuna_turns() -> None:
    """Through the CLI's entry point: the registered unit reaches the message."""
    e2 = load_game_data(DATA, "episode2", strict=True)
    _text, rep, code = run_simulation(e2, None, 2, "heuristic", 1, 1, {}, invariants="off",
                                      step_cap=5)
    assert code == 1 and rep["failures"]
    for f in rep["failures"]:
        assert f["kind"] == "step_cap"
        assert re.fullmatch(r"no end after 5 actions \(\d+ attacks\)", f["message"]), f
    fortuna = load_game_data(DATA, "fortuna", strict=True)
    _text, rep, code = run_simulation(fortuna, 4, 1, "random", 1, 1, {}, invariants="sample",
                                      step_cap=5)
    assert code == 1
    assert re.fullmatch(r"no end after 5 actions \(\d+ turns\)", rep["failures"][0]["message"])


def test_any_unit_reaches_a_pickled_task() -> None:
    """A set-up pickled as a worker or a Dask task receives it keeps its unit; the
    default, for a game that registers none, is turns."""
    game = toy({"variant": "never_end"})
    setup = _Setup(game, {"random": bot_factory("random", {"random": RandomBot})}, None,
                   "rounds")
    job = _Chunk(4, ("random",), 3, 0, 2, "off", 20, 5)
    agg = run_task(pickle.loads(pickle.dumps([setup])), job)
    assert len(agg.failures) == 2
    for f in agg.failures:
        assert re.fullmatch(r"no end after 20 actions \(\d+ rounds\)", f.message), f.message
    res = simulate(game, 4, 1, ["random"], 3, invariants="off", step_cap=20)
    assert re.fullmatch(r"no end after 20 actions \(\d+ turns\)", res.failures[0].message)
