"""`pnp check` shows progress while it lints; `pnp list` heads read naturally."""

from __future__ import annotations

from pathlib import Path

import pytest

from pnp.check import run_check
from pnp.data import load_game_data
from pnp.lint import Linter

CORPUS = Path(__file__).parents[1] / "bad_input" / "project"


def test_lint_progress_counts_every_side() -> None:
    game = load_game_data(CORPUS / "card_data", "toy")
    linter = Linter(CORPUS / "templates", caches=False)
    steps: list[int] = []
    linter.lint_game(game, steps.append)
    # toy: three cards with a face and a back (its chips have no layout)
    assert linter.count_sides(game) == 3 * 2
    assert sum(steps) == linter.count_sides(game)


def test_check_names_the_game_it_lints_on_stderr(capsys: pytest.CaptureFixture[str]) -> None:
    _text, _report, code = run_check(["toy"], CORPUS / "card_data", simulate=False,
                                     progress=True, templates_dir=CORPUS / "templates")
    err = capsys.readouterr().err
    assert code == 0
    assert "Linting toy" in err


def test_check_json_lints_silently(capsys: pytest.CaptureFixture[str]) -> None:
    run_check(["toy"], CORPUS / "card_data", simulate=False, progress=False,
              templates_dir=CORPUS / "templates")
    assert capsys.readouterr().err == ""


def test_list_head_lines_read_naturally() -> None:
    """`pnp list`: a title given once is shown once, a one-player game is "1 player"."""
    from dataclasses import replace

    from pnp.data.report import list_lines

    game = load_game_data(CORPUS / "card_data", "toy")
    assert list_lines(game)[0] == "toy  Toy (トイ)  2–4 players"
    solo = replace(game, manifest=replace(game.manifest, title_ja="Toy", players=(1, 1),
                                          draft="v1"))
    assert list_lines(solo)[0] == "toy  Toy v1  1 player"
