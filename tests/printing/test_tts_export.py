"""Tabletop Simulator export units: grid sizes, several sheets for a big deck, keys, URLs."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest
from PIL import Image

from pnp import PROJECT_ROOT
from pnp.builder.decks import printable_components, render_cards
from pnp.data import load_game_data
from pnp.printing.profiles import builtin_profiles
from pnp.printing.service import ServiceCard
from pnp.printing.tts import UrlMaker, deck_key, export_deck, per_sheet, sheet_grid
from pnp.render.jinja_env import make_environment
from pnp.units import mm

POKER = (mm(63), mm(88))


def test_full_poker_sheet_is_10_by_7_within_4096() -> None:
    tts = builtin_profiles().get("tts")
    assert per_sheet(tts) == 69
    grid = sheet_grid(69, POKER, tts)
    assert (grid.columns, grid.rows) == (10, 7)
    assert grid.size[0] <= 4096 and grid.size[1] <= 4096
    assert abs(grid.cell_h / grid.cell_w - 88 / 63) < 0.01
    small = sheet_grid(7, POKER, tts)
    assert (small.columns, small.rows, small.cell_w) == (7, 1, 585)  # 4096 // 7
    with pytest.raises(Exception):
        sheet_grid(70, POKER, tts)


def test_deck_keys_are_stable_and_unique() -> None:
    used: set[int] = set()
    a = deck_key("g", "d", 1, used)
    b = deck_key("g", "d", 2, used)
    assert a != b and 1 <= a < 9999 and 1 <= b < 9999
    assert deck_key("g", "d", 1, set()) == a  # same inputs, same key
    again = deck_key("g", "d", 1, used)  # taken: the next free key
    assert again not in (a, b)


def test_a_deck_of_75_distinct_faces_takes_two_sheets(tmp_path: Path) -> None:
    env = make_environment(PROJECT_ROOT / "templates")
    game = load_game_data(PROJECT_ROOT / "card_data", "fortuna", strict=True)
    reel = printable_components(game)[0]
    base = render_cards(env, game, reel)
    cards = [ServiceCard(f"c{i}", 1 + i % 2, base[i % len(base)].front, base[0].back)
             for i in range(75)]
    tts = replace(builtin_profiles().get("tts"), max_card_px=40)  # small images: fast
    out = tmp_path / "out"
    files = export_deck(out / "g" / "tts", "g", "big", "Big deck", cards, POKER, tts,
                        two_sided=False, urls=UrlMaker(out, "https://example.org/pnp"),
                        used_keys=set())
    names = sorted(p.name for p in files)
    assert names == ["big-back.png", "big-faces-1.png", "big-faces-2.png", "big.json"]
    data = json.loads((out / "g" / "tts" / "big.json").read_text("utf-8"))
    (deck,) = data["ObjectStates"]
    sheets = deck["CustomDeck"]
    assert len(sheets) == 2
    grids = sorted((s["NumWidth"], s["NumHeight"]) for s in sheets.values())
    assert grids == [(6, 1), (10, 7)]
    assert len(deck["DeckIDs"]) == sum(c.qty for c in cards)
    for cid in deck["DeckIDs"]:
        key, cell = divmod(cid, 100)
        s = sheets[str(key)]
        assert cell < min(69, s["NumWidth"] * s["NumHeight"])
    for s in sheets.values():
        assert s["FaceURL"].startswith("https://example.org/pnp/g/tts/big-faces-")
        assert s["BackURL"] == "https://example.org/pnp/g/tts/big-back.png"
    with Image.open(out / "g" / "tts" / "big-faces-1.png") as im:
        assert im.size == (10 * 40, 7 * 56)
