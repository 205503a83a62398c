"""The skill ladder can climb a truncated (or otherwise configured) searcher.

``--ladder-search d16`` gives every rung ``mcts:B:d16``: the cheap search of
long games (issue 13: Undecim's whole-playout ladder takes hours at the
default budgets). Without it the rungs are plain ``mcts:B`` as before.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from pnp.cli import main
from pnp.data import load_game_data
from pnp.errors import PnpError
from pnp.sim import run_ladder
from pnp.sim.html import ladder_page

CARD_DATA = Path(__file__).resolve().parents[2] / "card_data"


def test_every_rung_carries_the_search_fields() -> None:
    """Rungs are mcts:B:d4, their budgets still B; the text and JSON say how it searched."""
    data = load_game_data(CARD_DATA, "fortuna", strict=True)
    text, doc, _code = run_ladder(data, 3, 2, "greedy", 1, 1, {}, budgets="2,4", search="d4")
    assert [r["bot"] for r in doc["rungs"]] == ["mcts:2:d4", "mcts:4:d4"]
    assert [r["budget"] for r in doc["rungs"]] == [2, 4]
    assert doc["search"] == "d4"
    assert "skill ladder — mcts (d4) at 2 budgets" in text
    assert "every rung mcts:B:d4" in ladder_page(doc)


def test_without_search_fields_the_rungs_are_plain() -> None:
    """No --ladder-search: mcts:B, and the JSON's search is null."""
    data = load_game_data(CARD_DATA, "fortuna", strict=True)
    text, doc, _code = run_ladder(data, 3, 2, "greedy", 1, 1, {}, budgets="2,4")
    assert [r["bot"] for r in doc["rungs"]] == ["mcts:2", "mcts:4"]
    assert doc["search"] is None
    assert "skill ladder — mcts at 2 budgets" in text
    assert "every rung" not in ladder_page(doc)


@pytest.mark.parametrize("search,words", [
    ("x9", "--ladder-search 'x9': --bots mcts:2:x9: no playout bot 'x9'"),
    (",", "--ladder-search ',': expected the searcher's fields"),
    (" ", "--ladder-search '': expected the searcher's fields"),
])
def test_bad_search_fields_are_one_line_before_play(search: str, words: str) -> None:
    """A bad field is refused in one line naming the option, before any game."""
    data = load_game_data(CARD_DATA, "fortuna", strict=True)
    with pytest.raises(PnpError) as err:
        run_ladder(data, 3, 2, "greedy", 1, 1, {}, budgets="2,4", search=search)
    assert words in str(err.value) and "\n" not in str(err.value)


def test_ladder_search_needs_the_ladder() -> None:
    """--ladder-search without --ladder is a usage error, not ignored."""
    result = CliRunner().invoke(main, ["simulate", "fortuna", "--ladder-search", "d16",
                                       "--data-dir", str(CARD_DATA), "-n", "2"])
    assert result.exit_code == 1
    assert result.stderr.strip() == "error: --ladder-search: only with --ladder"


def test_solo_ladder_keeps_its_field_baseline() -> None:
    """第2話 (one seat): the field's own baseline rung stays, the rungs carry d4."""
    data = load_game_data(CARD_DATA, "episode2", strict=True)
    _text, doc, _code = run_ladder(data, 1, 2, "heuristic", 1, 1, {}, budgets="2,4",
                                   search="d4")
    assert doc["baseline"]["bot"] == "heuristic" and doc["baseline"]["budget"] == 0
    assert [r["bot"] for r in doc["rungs"]] == ["mcts:2:d4", "mcts:4:d4"]
