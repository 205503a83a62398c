"""The starting-HP choice (ruling E3): the saved sweeps re-run exactly, and the
rulebook shows them.

``card_data/episode2/sweeps/starting_hp-<bot>.json`` are the sweeps the
default was chosen from (``pnp simulate episode2 --sweep starting_hp=6:20:2
--bots <bot> --games 1000 --seed 1 --no-invariants --json …``). Re-running
them must give the same rows: if the engine, the bots or the data change the
figures, this fails until the sweeps (and with them the rulebook's tables) are
re-made and the choice re-checked.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from gamedata import DATA, game_data
from pnp.rulebook.export import rulebook_markdown
from pnp.sim import run_sweep

SWEEPS = DATA / "episode2" / "sweeps"
BOTS = ("heuristic", "no_retreat")


def _saved(bot: str) -> dict[str, Any]:
    return json.loads((SWEEPS / f"starting_hp-{bot}.json").read_text(encoding="utf-8"))


@pytest.mark.parametrize("bot", BOTS)
def test_saved_sweep_reruns_exactly(bot: str) -> None:
    """Same seed, same games, same values: the same table, row for row."""
    saved = _saved(bot)
    assert saved["swept"] == ["starting_hp"] and saved["bots"] == [bot]
    values = ",".join(str(r["values"]["starting_hp"]) for r in saved["rows"])
    fixed = {k: str(v) for k, v in saved["fixed_params"].items()}
    _text, doc, code = run_sweep(game_data("episode2"), [f"starting_hp={values}"],
                                 players=saved["players"], games=saved["games"],
                                 bots=bot, seed=saved["seed"], jobs=1, params=fixed,
                                 invariants="off")
    assert code == 0

    def shown(rows: list[dict[str, Any]]) -> list[tuple[Any, Any]]:
        return [(r["values"], r["figures"]) for r in rows]  # what the rulebook prints
    assert shown(doc["rows"]) == shown(saved["rows"])


def _figures(bot: str, hp: int) -> dict[str, float]:
    for row in _saved(bot)["rows"]:
        if row["values"]["starting_hp"] == hp:
            return {f["name"]: f["value"] for f in row["figures"]}
    raise AssertionError(f"the saved {bot} sweep has no row for starting_hp={hp}")


def test_default_meets_the_e3_choice() -> None:
    """The default HP keeps the true end reachable but rare and game over a real threat.

    For the careful player the true end is reached but in under a quarter of
    runs, and game over happens in at least 10 %; the player who never
    retreats also reaches the true end and risks game over more often.
    """
    hp = game_data("episode2").manifest.constants["starting_hp"]
    careful = _figures("heuristic", hp)
    reckless = _figures("no_retreat", hp)
    assert 0.05 <= careful["true_end"] < 0.25
    assert careful["game_over"] >= 0.10
    assert reckless["true_end"] > careful["true_end"]
    assert reckless["game_over"] > careful["game_over"]
    assert "starting_hp_status" not in game_data("episode2").manifest.constants


def test_rulebook_shows_the_saved_sweeps_and_the_default() -> None:
    """Every saved row appears in the exported rulebook, and the default is stated."""
    text = rulebook_markdown("episode2", DATA)
    hp = game_data("episode2").manifest.constants["starting_hp"]
    assert f"**{hp}**" in text and "仮の値" not in text and "暫定" not in text.split("## 開始HP")[0]
    for bot in BOTS:
        for row in _saved(bot)["rows"]:
            fig = {f["name"]: f["value"] for f in row["figures"]}
            line = (f"| {row['values']['starting_hp']} | {100 * fig['true_end']:.1f}% | "
                    f"{100 * fig['normal_clear']:.1f}% | {100 * fig['game_over']:.1f}% | "
                    f"{fig['mean_spoils']:.2f} |")
            assert line in text
