"""Every game's own key figures print under the designer's name, not a machine key.

9 Peak's ladder printed ``mean_peak_pile_cards 9.00``; Fortune Clover's
figures were named in words from the start. A game's stats now give each
snake_case key figure a label (``figure_label``, its labels module) that the
ladder, sweep and comparison print, while the JSON keeps the machine name
(rulebook placeholders and saved sweeps read it).
"""

from __future__ import annotations

import re

import pytest

from pnp import PROJECT_ROOT
from pnp.data import load_game_data
from pnp.games.registry import game_entry, make_game
from pnp.sim import run_compare, run_ladder, run_sweep, simulate
from pnp.sim.html import compare_page, sweep_page

DATA = PROJECT_ROOT / "card_data"
GAMES = ("fortuna", "fortune_clover", "undecim", "episode2", "nine_peak")
#: A machine key: lower-case words joined by underscores.
RAW = re.compile(r"\b[a-z]+(?:_[a-z0-9]+)+\b")


@pytest.mark.parametrize("slug", GAMES)
def test_every_key_figure_has_words(slug: str) -> None:
    """Each of the game's key figures is words already or has a label in words."""
    entry = game_entry(slug)
    game = make_game(load_game_data(DATA, slug, strict=True), {})
    result = simulate(game, type(game).max_players, 3, ["random"], 1, jobs=1,
                      bot_classes=dict(entry.bots), stats=entry.stats,
                      length_unit=entry.length_unit)
    stats = result.totals.stats
    assert stats is not None
    label = getattr(stats, "figure_label", lambda _n: None)
    for name, *_rest in stats.key_figures(stats.to_dict()):
        shown = label(name) or name
        assert not RAW.search(shown), f"{slug}: key figure {name!r} prints as {shown!r}"
        # a label keeps the mean/rate reading of its name (pnp.sim.sweep.is_rate)
        assert shown.startswith("mean") == name.startswith("mean")


def test_nine_peak_ladder_prints_the_label() -> None:
    """The reported case: the ladder's extra row reads words, the JSON the machine key."""
    text, doc, _c = run_ladder(load_game_data(DATA, "nine_peak", strict=True), None, 2,
                               "greedy", 1, 1, {}, budgets="1:2")
    assert "mean peak-pile cards per game" in text and "mean_peak_pile_cards" not in text
    assert doc["rungs"][0]["game_figures"][0]["name"] == "mean_peak_pile_cards"
    assert doc["figure_labels"] == {"mean_peak_pile_cards": "mean peak-pile cards per game"}


def test_sweep_and_compare_print_labels() -> None:
    """第2話's sweep columns and page headings, and 9 Peak's comparison line and page."""
    ep2 = load_game_data(DATA, "episode2", strict=True)
    text, doc, _c = run_sweep(ep2, ["starting_hp=10,12"], None, 3, "random", 1, 1, {})
    head = next(line for line in text.splitlines() if line.strip().startswith("value"))
    for label in ("true end", "normal clear", "game over", "mean bosses taken"):
        assert label in head and f"<h2>{label}</h2>" in sweep_page(doc)
    assert not RAW.search(head.replace("mean_attacks", ""))
    assert {f["name"] for f in doc["rows"][0]["figures"]} >= {"true_end", "mean_spoils"}
    peak = load_game_data(DATA, "nine_peak", strict=True)
    text, doc, _c = run_compare(peak, ["setup_cards=4"], None, 3, "random", 1, 1, {})
    assert "  mean peak-pile cards per game " in text and "mean_peak_pile_cards" not in text
    assert "<td>mean peak-pile cards per game</td>" in compare_page(doc)
