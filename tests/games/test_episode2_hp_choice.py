"""第2話's rulebook says why its starting HP was chosen in words that follow the measured figures."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from pnp import PROJECT_ROOT
from pnp.cli import main
from pnp.games.episode2.examples import GAME_OVER_RARE, GAME_OVER_REAL


def _chosen(tmp_path: Path, hp: int, lang: str) -> str:
    """The rulebook's HP-choice paragraph when the data sets ``starting_hp = hp``."""
    data = tmp_path / "data"
    shutil.copytree(PROJECT_ROOT / "card_data" / "episode2", data / "episode2")
    manifest = data / "episode2" / "manifest.toml"
    text = manifest.read_text(encoding="utf-8")
    assert re.search(r"(?m)^starting_hp = \d+", text)
    manifest.write_text(re.sub(r"(?m)^starting_hp = \d+", f"starting_hp = {hp}", text),
                        encoding="utf-8")
    out = tmp_path / "out"
    result = CliRunner().invoke(main, ["rulebook", "episode2", "--format", "md", "--lang", lang,
                                       "--data-dir", str(data), "--out", str(out), "-j", "1"])
    assert result.exit_code == 0, result.output
    book = (out / "episode2" / ("rulebook-en.md" if lang == "en" else "rulebook.md"))
    lines = book.read_text(encoding="utf-8").splitlines()
    key = "We chose" if lang == "en" else "開始HPは"
    return next(x for x in lines if key in x or "starting HP is" in x)


@pytest.mark.parametrize("hp, lang, expected", [
    # the default: 14.4 % game over in the careful player's sweep row
    (8, "en", "We chose 8. For the careful player the true end is within reach but not easy "
              "(19.6% of runs), and game over remains a real danger (14.4%)."),
    # the review's case: 3.7 % game over at 12 no longer called a real danger
    (12, "en", "We chose 12. For the careful player the true end comes in a good share of runs "
               "(41.8%), and game over is possible but uncommon (3.7%)."),
    (12, "ja", "開始HPは12にしました。慎重なプレイヤーでは、トゥルーエンドにはかなりの割合で届き"
               "（41.8%）、ゲームオーバーは起こりうるものの多くはありません（3.7%）。"),
    # an HP the saved sweep did not play: no claim, the command to measure it
    (13, "en", "The starting HP is 13. The tables above do not include that value; to add it, "
               "run `pnp simulate episode2 --sweep starting_hp=…,13 --json "
               "sweeps/starting_hp-heuristic.json`."),
])
def test_hp_choice_follows_the_figures(tmp_path: Path, hp: int, lang: str, expected: str) -> None:
    """The sentence is chosen from the game-over and true-end rates at the chosen HP."""
    line = _chosen(tmp_path, hp, lang)
    assert line.split(" <!--")[0].rstrip() == expected


def test_thresholds_ordered() -> None:
    """"Hardly happens" lies below "possible", which lies below "a real danger"."""
    assert 0 < GAME_OVER_RARE < GAME_OVER_REAL < 1
