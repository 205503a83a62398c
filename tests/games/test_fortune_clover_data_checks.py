"""`pnp check` on Fortune card cells: every bad cell listed at its line, chip supply, 2-digit chips.

A bad ``reward_Np`` or ``counts`` cell once stopped the check at the first
one with no line number (and `pnp check --no-sim` passed it); now each bad
cell is a ``fortune.csv:<line>:`` problem like any other CSV error, all of
them listed, and the simulation is skipped. A reward beyond the chips in
the box (ruling C6: 10 yellow, 20 white, from chips.csv) is a data error;
a legal two-digit count (1st:Y10) draws inside its chip and lints clean.
"""

from __future__ import annotations

import csv
import re
import shutil
from pathlib import Path

import pytest

from pnp import PROJECT_ROOT
from pnp.builder.cards import component_rows
from pnp.builder.context import card_context
from pnp.check import run_check
from pnp.data import load_game_data
from pnp.errors import PnpError
from pnp.games import make_game
from pnp.games.fortune_clover import check_data
from pnp.games.fortune_clover.fortunes import chip_supply
from pnp.lint import Linter
from pnp.render.jinja_env import make_environment

DATA = PROJECT_ROOT / "card_data"
TEMPLATES = PROJECT_ROOT / "templates"


def _copy(tmp_path: Path, **edits: dict[str, str]) -> Path:
    """A copy of the Fortune Clover data with ``edits[card_id][column] = value``; its fortune.csv."""
    shutil.copytree(DATA / "fortune_clover", tmp_path / "fortune_clover")
    path = tmp_path / "fortune_clover" / "fortune.csv"
    with path.open(encoding="utf-8", newline="") as f:
        rows = list(csv.reader(f))
    header = rows[0]
    for row in rows[1:]:
        for column, value in edits.get(row[0], {}).items():
            row[header.index(column)] = value
    with path.open("w", encoding="utf-8", newline="") as f:
        csv.writer(f, lineterminator="\n").writerows(rows)
    return path


def _line_of(path: Path, card_id: str) -> int:
    """The file line of ``card_id``'s row (header = line 1; no cell spans lines here)."""
    lines = path.read_text(encoding="utf-8").splitlines()
    return next(i for i, text in enumerate(lines, start=1) if text.startswith(card_id + ","))


BAD = {"F01": {"reward_3p": "1st:Y1W2;2nd:X2"},
       "F04": {"reward_4p": "1th:W4;2nd:W2;3rd:W1"},
       "F06": {"counts": "2-Z", "reward_5p": "1st:W1;7th:Y1"}}


@pytest.mark.parametrize("simulate", [True, False])
def test_every_bad_cell_is_listed_at_its_line(tmp_path: Path, simulate: bool) -> None:
    path = _copy(tmp_path, **BAD)
    text, report, code = run_check(["fortune_clover"], tmp_path, simulate=simulate,
                                   lint=False, progress=False)
    assert code == 1
    lines = [t for t in text.splitlines() if "Fortune card" in t]
    want = [(_line_of(path, "F01"), "F01", "reward_3p", "cannot read entry '2nd:X2'"),
            (_line_of(path, "F04"), "F04", "reward_4p", "bad place '1th'"),
            (_line_of(path, "F06"), "F06", "counts", "unexpected character 'Z'"),
            (_line_of(path, "F06"), "F06", "reward_5p", "place 7th beyond 5 players")]
    assert len(lines) == len(want), text
    for line, (number, card, column, reason) in zip(lines, want):
        assert line.startswith(f"{path}:{number}: Fortune card {card}, column {column}: "), line
        assert reason in line and "\n" not in line
    assert f"{len(want)} problem(s) found" in text
    assert "simulation" not in report["games"]["fortune_clover"]     # not played on bad data


def test_the_engine_stops_at_the_first_with_its_line_and_the_count(tmp_path: Path) -> None:
    path = _copy(tmp_path, **BAD)
    with pytest.raises(PnpError) as err:
        make_game(load_game_data(tmp_path, "fortune_clover", strict=True))
    msg = str(err.value)
    assert msg.startswith(f"{path}:{_line_of(path, 'F01')}: Fortune card F01, column reward_3p")
    assert "(and 3 more)" in msg and "pnp check fortune_clover" in msg


def test_the_supply_is_the_chips_table() -> None:
    game = load_game_data(DATA, "fortune_clover", strict=True)
    assert chip_supply(game) == {"yellow": 10, "white": 20}        # ruling C6
    assert check_data(game) == []                                  # the shipped cards fit


@pytest.mark.parametrize("cell, problem", [
    ("1st:Y10;2nd:W1", None),                      # all ten yellow to one place: legal (C6)
    ("1st:Y10W20", None),
    ("1st:Y11;2nd:W1", "pays 11 yellow chips in one deal (1st Y11), more than the 10 yellow"),
    ("1st:Y10;2nd:Y1", "pays 11 yellow chips in one deal (1st Y10 + 2nd Y1)"),
    ("1st:W15;2nd:W6", "pays 21 white chips in one deal (1st W15 + 2nd W6), more than the 20"),
])
def test_a_reward_beyond_the_supply_is_a_data_error(tmp_path: Path, cell: str,
                                                    problem: str | None) -> None:
    path = _copy(tmp_path, F03={"reward_3p": cell})
    found = check_data(load_game_data(tmp_path, "fortune_clover", strict=True))
    if problem is None:
        assert found == []
        return
    assert len(found) == 1, found
    assert found[0].startswith(f"{path}:{_line_of(path, 'F03')}: Fortune card F03, "
                               "column reward_3p: "), found[0]
    assert problem in found[0] and "chips.csv" in found[0] and "C6" in found[0]


def _fortune_lint(data: Path) -> list[str]:
    """Lint findings (errors and warnings) on the Fortune cards of the data in ``data``."""
    game = load_game_data(data, "fortune_clover", strict=True)
    return [f.text() for f in Linter(TEMPLATES, caches=False).lint_game(game)
            if f.deck == "fortune"]


def test_two_digit_chip_counts_lint_clean(tmp_path: Path) -> None:
    # the F03 (a "10" spilled onto the chip's ring: contrast 4.13:1), then the
    # widest legal cells, four different columns side by side on a six-place table
    _copy(tmp_path, F03={"reward_3p": "1st:Y10;2nd:W1"},
          F09={"reward_3p": "1st:Y10W20", "reward_4p": "1st:Y10W19",
               "reward_5p": "1st:Y9W11;2nd:W1;3rd:W1;4th:W1;5th:W1",
               "reward_6p": "1st:Y10W15;2nd:W1;3rd:W1;4th:W1;5th:W1;6th:W1"})
    assert _fortune_lint(tmp_path) == []


def test_a_two_digit_chip_is_wider_than_a_one_digit_one(tmp_path: Path) -> None:
    _copy(tmp_path, F03={"reward_3p": "1st:Y10;2nd:W1"})
    game = load_game_data(tmp_path, "fortune_clover", strict=True)
    component = game.manifest.components["fortune"]
    row = next(r for r in component_rows(game, component) if r.id == "F03")
    markup = make_environment(TEMPLATES).get_template(str(component.face)).render(
        **card_context(game, component, row, "face"))

    def width(box: str) -> float:
        found = re.search(rf'<text [^>]*id="{box}"[^>]* width="([\d.]+)"', markup)
        assert found, box
        return float(found.group(1))

    # 1st place: "10" at 3 players, "3" merged over 4-6 players
    assert width("rw-1-0-y") > width("rw-1-1-y") + 1.0
