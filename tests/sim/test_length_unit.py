"""A game's length is named in the unit the game counts (issue 13, limit 3).

第2話's ``State.turns`` counts attacks and registers "attacks"; Fortuna counts
turns and registers nothing (the default). The generic report names neither.
"""

from __future__ import annotations

import re
from pathlib import Path

from pnp.data import load_game_data
from pnp.games.registry import game_entry
from pnp.sim import run_compare, run_simulation, run_sweep
from pnp.sim.html import compare_page, report_page, sweep_page

DATA = Path(__file__).resolve().parents[2] / "card_data"


def test_each_game_registers_what_its_length_counts() -> None:
    """第2話 counts attacks, every other shipped game turns."""
    assert game_entry("episode2").length_unit == "attacks"
    for slug in ("fortuna", "fortune_clover", "nine_peak", "undecim"):
        assert game_entry(slug).length_unit == "turns"


def test_episode2_report_says_attacks_and_fortuna_turns() -> None:
    """Text, JSON and chart page: 第2話's length in attacks, Fortuna's in turns."""
    e2 = load_game_data(DATA, "episode2", strict=True)
    text, rep, code = run_simulation(e2, None, 40, "heuristic", 1, 1, {}, invariants="off")
    assert code == 0 and rep["config"]["length_unit"] == "attacks"
    assert re.search(r"^Length \(attacks\): min", text, re.M)
    assert " turns" not in text.split("Length (attacks)")[1].split("\n")[0]
    assert "(mean attacks; score; " in text      # the rules table
    page = report_page(rep)
    assert "Game length (attacks)" in page and "attacks (fired)" in page
    assert "Game length (turns)" not in page

    fortuna = load_game_data(DATA, "fortuna", strict=True)
    text, rep, code = run_simulation(fortuna, 4, 20, "random", 1, 1, {}, invariants="off")
    assert code == 0 and rep["config"]["length_unit"] == "turns"
    assert re.search(r"^Length \(turns\): min", text, re.M) and "attacks" not in text
    assert "Game length (turns)" in report_page(rep)


def test_episode2_comparison_and_sweep_count_attacks() -> None:
    """The change sentence, the difference rows, the sweep columns and their pages."""
    e2 = load_game_data(DATA, "episode2", strict=True)
    text, doc, _code = run_compare(e2, ["starting_hp=12"], None, 30, "heuristic", 1, 1, {},
                                   invariants="off")
    assert doc["length_unit"] == "attacks"
    assert re.search(r"games run \d+\.\d\d attacks longer", doc["rows"][1]["sentence"])
    assert re.search(r"^  attacks +\d", text, re.M) and "  turns " not in text
    page = compare_page(doc)
    assert "<td>attacks</td>" in page and "<td>turns</td>" not in page
    text, doc, _code = run_sweep(e2, ["starting_hp=8,12"], None, 10, "heuristic", 1, 1, {},
                                 invariants="off")
    assert "mean_attacks" in text and "mean_turns" not in text
    assert ">mean attacks<" in sweep_page(doc) and "<th>attacks</th>" in sweep_page(doc)
