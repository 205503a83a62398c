"""Every game's rule events print under the designer's name, not a machine key.

The Events and Rules tables printed ``club_follow_holding_led`` and
``zero_card_excluded``. A game's stats now name each event in its
``event_names`` in words, citing the ruling it counts (``event_label``,
the game's labels module); the text and the chart page print the label
(the Events table and the page keep the machine name beside it, to search
for), the JSON keeps the machine names and adds ``event_labels``.
"""

from __future__ import annotations

import re
from typing import Any

import pytest

from pnp import PROJECT_ROOT
from pnp.data import load_game_data
from pnp.games.registry import game_entry, make_game
from pnp.sim import build_report, format_report, simulate
from pnp.sim.html import report_page

DATA = PROJECT_ROOT / "card_data"
GAMES = ("fortuna", "fortune_clover", "undecim", "episode2", "nine_peak")
#: A machine key: lower-case words joined by underscores.
RAW = re.compile(r"\b[a-z]+(?:_[a-z0-9]+)+\b")
#: A ruling cited at the end of a label: "(C4)", "(N5a)", "(N2, N3)".
RULING = re.compile(r"\(([CEFNU]\d+[a-z]?)(, [CEFNU]\d+[a-z]?)*\)$")
#: The rulings each game's labels may cite: its own letter.
LETTER = {"fortuna": "F", "fortune_clover": "C", "undecim": "U", "episode2": "E",
          "nine_peak": "N"}


def _run(slug: str, games: int = 3) -> tuple[Any, dict[str, Any]]:
    """A few random games of ``slug`` at its most players: (the game, the report dict)."""
    entry = game_entry(slug)
    game = make_game(load_game_data(DATA, slug, strict=True), {})
    result = simulate(game, type(game).max_players, games, ["random"], 1, jobs=1,
                      bot_classes=dict(entry.bots), stats=entry.stats,
                      length_unit=entry.length_unit)
    return game, build_report(result, entry.length_unit)


@pytest.mark.parametrize("slug", GAMES)
def test_every_event_has_a_label(slug: str) -> None:
    """Each name in the game's event_names has a label in words, its own, citing the
    game's rulings only; the report's map holds exactly them."""
    game, rep = _run(slug)
    labels = rep["event_labels"]
    missing = [name for name in game.event_names if name not in labels]
    assert not missing, f"{slug}: rule events without a label: {missing}"
    assert set(labels) == set(game.event_names)
    for name, label in labels.items():
        assert not RAW.search(label), f"{slug}: {name!r} is labelled {label!r}"
        cited = RULING.search(label)
        ids = re.findall(r"[A-Z]\d+[a-z]?", cited.group(0)) if cited else []
        assert all(i[0] == LETTER[slug] for i in ids), f"{slug}: {label!r} cites another game"
    # two events under one name would merge two rows in the designer's eyes
    assert len(set(labels.values())) == len(labels), f"{slug}: labels repeat"
    # the JSON keeps the machine names as keys
    assert list(rep["events"]) == list(game.event_names)
    assert [r["event"] for r in rep["findings"]["rules"]] == list(game.event_names)


def test_reports_print_the_labels() -> None:
    """The reported case (Fortune Clover): the text's Events and Rules tables and the
    chart page's Rules table print the label; the raw name only beside it."""
    _game, rep = _run("fortune_clover", 4)
    label = "club played though holding the led suit (C4)"
    assert rep["event_labels"]["club_follow_holding_led"] == label
    text = format_report(rep)
    events = text[text.index("\nEvents"):text.index("\nCards and rules")]
    rules = text[text.index("\nRules:"):text.index("\nDrama")]
    line = next(x for x in events.splitlines() if "club_follow_holding_led" in x)
    # the label leads the row, the machine name closes it (the one to search for)
    assert line.strip().startswith(label) and line.endswith("  club_follow_holding_led")
    # the Events table is aligned: every row's count column ends at one place
    head, *rows = [x for x in events.splitlines()[2:] if x.strip()]
    end = head.index("total") + len("total")
    assert all(x[:end].split()[-1].isdigit() and x[end] == " " for x in rows), events
    assert f"  {label} " in rules and not RAW.search(rules.replace("vs —", ""))
    page = report_page(rep)
    assert (f"<td>{label}<span class=\"key\">club_follow_holding_led</span></td>"
            in page)
    assert "<td>club_follow_holding_led</td>" not in page


def test_missing_hook_prints_the_machine_name() -> None:
    """A game whose stats name no event still prints each row, under its machine name."""
    _game, rep = _run("fortune_clover")
    rep = {**rep, "event_labels": {}}
    text = format_report(rep)
    assert "\n  club_follow_holding_led " in text
    assert "<td>club_follow_holding_led</td>" in report_page(rep)
