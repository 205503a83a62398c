"""Every Undecim scenario condition the data may name has a face on the scenario card."""

from __future__ import annotations

from dataclasses import replace
from types import MappingProxyType

import pytest

from pnp import PROJECT_ROOT
from pnp.data import load_game_data
from pnp.data.inventory import GameData
from pnp.data.tables import Row
from pnp.lint import Linter

TEMPLATES = PROJECT_ROOT / "templates"


def _one_card_per_condition() -> tuple[GameData, list[str]]:
    """Undecim's data with the scenario table replaced by one card per allowed condition."""
    game = load_game_data(PROJECT_ROOT / "card_data", "undecim", strict=True)
    conditions = list(game.manifest.components["scenarios"].columns["condition"].values)
    template = next(r for r in game.rows["scenarios"] if r.values["season"] == 3)
    rows = []
    for n, condition in enumerate(conditions):
        values = dict(template.values)
        values.update(id=f"cond-{n}", condition=condition, threshold=6,
                      text=f"条件:{condition}の条件文。ボーナス14VP。常時:効果。")
        rows.append(Row(line=template.line, values=MappingProxyType(values)))
    return replace(game, rows={**game.rows, "scenarios": rows}), conditions


def test_mixed_size_is_an_allowed_condition() -> None:
    _, conditions = _one_card_per_condition()
    assert "mixed_size" in conditions


@pytest.fixture(scope="module")
def findings() -> list[str]:
    """Lint of the game with one scenario card per condition."""
    game, _ = _one_card_per_condition()
    return [f.text() for f in Linter(TEMPLATES).lint_game(game)]


def test_every_condition_renders_cleanly(findings: list[str]) -> None:
    # A condition missing from CONDITIONS in templates/undecim/style.xml.j2 is an
    # undefined-variable error on the card (it was, for mixed_size).
    assert findings == []
