"""Known answers for typed table cells and the manifest's player range, at their edges.

Hand mutations that let a value one past a column's maximum through, or a
player range with min above max, survived the suite before: the bad-input
cases use values far out of range. These tests sit on the boundaries.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from pnp.data.manifest import MAX_COUNT, ColumnSpec, load_manifest
from pnp.data.tables import convert_cell
from pnp.errors import PnpError

LEVEL = ColumnSpec("level", "int", minimum=1, maximum=5)


@pytest.mark.parametrize("text, value", [("1", 1), ("5", 5), ("+3", 3), ("３", 3)])
def test_an_int_cell_within_its_range(text: str, value: int) -> None:
    assert convert_cell(LEVEL, text) == value


@pytest.mark.parametrize("text, reason", [
    ("0", "0: expected ≥ 1"), ("6", "6: expected ≤ 5"), ("3_0", "expected a whole number"),
    ("2.0", "expected a whole number"), ("", "a value is required"),
])
def test_an_int_cell_one_past_its_range_or_not_a_number(text: str, reason: str) -> None:
    with pytest.raises(ValueError, match=reason):
        convert_cell(LEVEL, text)


def test_qty_runs_from_zero_to_the_count_limit() -> None:
    qty = ColumnSpec("qty", "qty")
    assert convert_cell(qty, "0") == 0 and convert_cell(qty, str(MAX_COUNT)) == MAX_COUNT
    with pytest.raises(ValueError, match=f"{MAX_COUNT + 1}: expected ≤ {MAX_COUNT}"):
        convert_cell(qty, str(MAX_COUNT + 1))
    with pytest.raises(ValueError, match="-1: expected ≥ 0"):
        convert_cell(qty, "-1")


@pytest.mark.parametrize("text, value", [("yes", True), ("YES", True), ("Y", True),
                                         ("1", True), ("No", False), ("false", False),
                                         ("0", False)])
def test_bool_words_in_any_case(text: str, value: bool) -> None:
    assert convert_cell(ColumnSpec("promo", "bool"), text) is value


def test_colours_are_kept_in_lower_case_and_optional_cells_may_be_empty() -> None:
    colour = ColumnSpec("ink", "color", required=False)
    assert convert_cell(colour, "#1A2B3C") == "#1a2b3c"
    assert convert_cell(colour, "") is None
    with pytest.raises(ValueError, match="expected a colour"):
        convert_cell(colour, "#12345")


MANIFEST = """[game]
slug = "duo"
title = "Duo"
players = {players}

[components.tokens]
name = "Tokens"
kind = "token"
count = 4
diameter = "20mm"
"""


@pytest.mark.parametrize("players, ok", [("[1, 1]", True), ("[2, 5]", True), ("[1, 100]", True),
                                         ("[5, 2]", False), ("[0, 2]", False),
                                         ("[2, 101]", False), ("[2]", False),
                                         ("[true, 2]", False)])
def test_player_range_is_min_up_to_max(tmp_path: Path, players: str, ok: bool) -> None:
    """game.players is [min, max] with 1 ≤ min ≤ max ≤ 100."""
    path = tmp_path / "duo" / "manifest.toml"
    path.parent.mkdir()
    path.write_text(MANIFEST.format(players=players), encoding="utf-8")
    if ok:
        low, high = load_manifest(path).players
        assert [low, high] == [int(x) for x in players.strip("[]").split(",")]
    else:
        with pytest.raises(PnpError, match=r"game\.players: expected \[min, max\]"):
            load_manifest(path)
