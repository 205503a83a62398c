"""Undecim's effect checker: every bad effect is one line naming the file, card and column.

Each test copies ``card_data/undecim`` to a temporary folder, breaks one thing
the way a designer might (a word the engine does not know, a missing or stray
argument, a number it cannot apply), and checks the line
:func:`pnp.games.undecim.effects.check_effects` gives, and that the engine
refuses to build from such data.
"""

from __future__ import annotations

import csv
import shutil
from pathlib import Path
from typing import Callable

import pytest

from pnp.data import load_game_data
from pnp.errors import PnpError
from pnp.games import make_game
from pnp.games.undecim.effects import check_effects

from gamedata import DATA, game_data


def _copy(tmp_path: Path) -> Path:
    """A copy of the Undecim data folder; returns its game folder."""
    shutil.copytree(DATA / "undecim", tmp_path / "undecim")
    return tmp_path / "undecim"


def _edit_csv(path: Path, row_id: str, **values: str) -> None:
    """Set columns of the row ``row_id`` in a CSV table."""
    with path.open(encoding="utf-8", newline="") as fh:
        rows = list(csv.reader(fh))
    header = rows[0]
    for row in rows[1:]:
        if row[0] == row_id:
            for key, value in values.items():
                row[header.index(key)] = value
    with path.open("w", encoding="utf-8", newline="") as fh:
        csv.writer(fh, lineterminator="\n").writerows(rows)


def _add_column(path: Path, name: str, value: str) -> None:
    """Append a column to a CSV table (the same value in every row)."""
    with path.open(encoding="utf-8", newline="") as fh:
        rows = list(csv.reader(fh))
    rows[0].append(name)
    for row in rows[1:]:
        row.append(value)
    with path.open("w", encoding="utf-8", newline="") as fh:
        csv.writer(fh, lineterminator="\n").writerows(rows)


def _manifest(game: Path, old: str, new: str) -> None:
    """Replace text in the manifest."""
    path = game / "manifest.toml"
    text = path.read_text(encoding="utf-8")
    assert old in text, old
    path.write_text(text.replace(old, new), encoding="utf-8")


def _row_with(table: str, test: Callable[[dict[str, str]], bool]) -> str:
    """Id of the first row of ``table`` (the shipped data) passing ``test``."""
    with (DATA / "undecim" / f"{table}.csv").open(encoding="utf-8", newline="") as fh:
        return next(r["id"] for r in csv.DictReader(fh) if test(r))


BOOSTED = _row_with("actions", lambda r: r["gold_boost"] != "none")
UNSCALED = _row_with("actions", lambda r: r["die_scaling"] == "none")
QUANTITY_COLUMNS = ("gain_any", "gain_resource", "gain_land", "gain_gold", "gain_enemy", "time",
                    "settle", "develop")


def _problems(tmp_path: Path) -> list[str]:
    """check_effects on the edited copy."""
    return check_effects(load_game_data(tmp_path, "undecim"))


def test_shipped_data_has_no_effect_problem() -> None:
    """The project's own cards are all understood by the engine."""
    assert check_effects(game_data("undecim")) == []


def _one_line(problems: list[str], *parts: str) -> str:
    """The single problem line holding every one of ``parts``."""
    hits = [p for p in problems if all(x in p for x in parts)]
    assert len(hits) == 1, problems
    assert "\n" not in hits[0]
    return hits[0]


CASES: list[tuple[str, Callable[[Path], None], tuple[str, ...]]] = [
    ("unknown die quantity",
     lambda d: (_manifest(d, 'die_scaling = { type = "enum", values = ["none", ',
                          'die_scaling = { type = "enum", values = ["none", "gain_luck", '),
                _edit_csv(d / "actions.csv", "act02", die_scaling="gain_luck")),
     ("actions.csv:3", "act02 column die_scaling", "unknown quantity 'gain_luck'")),
    ("unknown die bonus",
     lambda d: (_manifest(d, 'values = ["none", "half", "high", "low"]',
                          'values = ["none", "half", "high", "low", "double"]'),
                _edit_csv(d / "actions.csv", "act04", die_bonus="double")),
     ("actions.csv:5", "act04 column die_bonus", "unknown die bonus 'double'")),
    ("die bonus without a quantity",
     lambda d: _edit_csv(d / "actions.csv", UNSCALED, die_bonus="half"),
     (f"{UNSCALED} column die_bonus", "die bonus 'half' needs a die_scaling quantity")),
    ("gold boost without a maximum",
     lambda d: _edit_csv(d / "actions.csv", BOOSTED, gold_boost_max="0"),
     (f"{BOOSTED} column gold_boost_max", "needs a maximum")),
    ("a card that does nothing",
     lambda d: _edit_csv(d / "actions.csv", "act01", die_scaling="none", die_bonus="none",
                         gold_boost="none", gold_boost_max="0",
                         **{q: "0" for q in QUANTITY_COLUMNS}),
     ("act01", "has no effect at all")),
    ("an effect column the engine does not read",
     lambda d: (_manifest(d, 'develop = { type = "int", min = 0, max = 3 }',
                          'develop = { type = "int", min = 0, max = 3 }\n'
                          'steal = { type = "int", min = 0, max = 3 }'),
                _add_column(d / "actions.csv", "steal", "0")),
     ("actions.csv:1", "column steal", "not an effect the undecim engine knows")),
    ("unknown condition",
     lambda d: (_manifest(d, '"enemies", "red_moon_discard"]',
                          '"enemies", "red_moon_discard", "wonders"]'),
                _edit_csv(d / "scenarios.csv", "s1_a", condition="wonders")),
     ("scenarios.csv:2", "s1_a column condition", "unknown condition 'wonders'")),
    ("unknown lasting effect",
     lambda d: (_manifest(d, '"gold_vp", "hand_size"]', '"gold_vp", "hand_size", "weather"]'),
                _edit_csv(d / "scenarios.csv", "s3_b2b", effect="weather")),
     ("s3_b2b column effect", "unknown lasting effect 'weather'")),
    ("action bonus without its action",
     lambda d: _edit_csv(d / "scenarios.csv", "s2_a1", effect_action=""),
     ("s2_a1 column effect_action", "needs the number of the action")),
    ("action bonus without its quantity",
     lambda d: _edit_csv(d / "scenarios.csv", "s2_a2", effect_target=""),
     ("s2_a2 column effect_target", "needs the quantity")),
    ("a stray argument",
     lambda d: _edit_csv(d / "scenarios.csv", "s3_b2a", effect_action="3"),
     ("s3_b2a column effect_action", "takes no action number")),
    ("a value on a card without effect",
     lambda d: _edit_csv(d / "scenarios.csv", "s1_b", effect_value="2"),
     ("s1_b column effect_value", "effect 'none' takes no value")),
    ("a lasting effect without its value",
     lambda d: _edit_csv(d / "scenarios.csv", "s3_a2b", effect_value=""),
     ("s3_a2b column effect_value", "needs a value")),
    ("a goal that can never be met",
     lambda d: _edit_csv(d / "scenarios.csv", "s3_a2b", condition="settled_resources",
                         threshold="5"),
     ("s3_a2b column threshold", "can never be met")),
    ("an unlock naming no card",
     lambda d: _edit_csv(d / "scenarios.csv", "s1_a", unlocks_1="s2_zz"),
     ("s1_a column unlocks_1", "unknown scenario id 's2_zz'")),
    ("an unlock of the wrong season",
     lambda d: _edit_csv(d / "scenarios.csv", "s1_b", unlocks_2="s3_b2a"),
     ("s1_b column unlocks_2", "not a season-2 card")),
    ("a constant of the wrong shape",
     lambda d: _manifest(d, "settlement_vp = [0, 0, 4, 9, 14, 20, 27]", "settlement_vp = 27"),
     ("manifest.toml", "settlement_vp", "expected a list")),
    ("a round-start gain the engine cannot play",
     lambda d: _manifest(d, "round_start_gain = 1 ", "round_start_gain = 2 "),
     ("round_start_gain", "int 0 or 1")),
]


@pytest.mark.parametrize("name, edit, parts", CASES, ids=[c[0] for c in CASES])
def test_bad_effect_is_one_clear_line(tmp_path: Path, name: str,
                                      edit: Callable[[Path], None],
                                      parts: tuple[str, ...]) -> None:
    """The problem names the table (and line), the card and the column."""
    edit(_copy(tmp_path))
    line = _one_line(_problems(tmp_path), *parts)
    assert line.startswith(str(tmp_path)), line


def test_engine_refuses_bad_effects(tmp_path: Path) -> None:
    """make_game stops at a bad effect with its line (and points at pnp check)."""
    game = _copy(tmp_path)
    _edit_csv(game / "scenarios.csv", "s2_a1", effect_action="")
    data = load_game_data(tmp_path, "undecim")
    assert not data.problems                      # the table itself is well formed
    with pytest.raises(PnpError) as info:
        make_game(data)
    assert "s2_a1 column effect_action" in str(info.value)
    assert "pnp check undecim" in str(info.value)


def test_a_changed_row_changes_the_game(tmp_path: Path) -> None:
    """Effects are data: a card edited in its CSV row plays differently, no Python change."""
    game = _copy(tmp_path)
    _edit_csv(game / "actions.csv", "act01", gain_any="3")
    g = make_game(load_game_data(tmp_path, "undecim"))
    assert g.actions[0].amounts[4] == 3          # type: ignore[attr-defined]
