"""Names a new-user review found spelt or worded two ways stay single.

フォーチュンチップ was once printed フォーチュチップ (in the rulebook's component
table, the gallery caption and `pnp list`), and 第2話's component table said
六面体ダイス where every rule, the aid and the HP tracker say サイコロ. The
scans below read every file that can put Japanese on paper or screen.
"""

from __future__ import annotations

import re
from pathlib import Path

from pnp import PROJECT_ROOT
from pnp.data import load_game_data
from pnp.data.report import list_lines
from pnp.rulebook.export import rulebook_markdown

DATA = PROJECT_ROOT / "card_data"
#: Folders whose text reaches players or designers (data, layouts, code, books, docs).
SOURCES = ("card_data", "templates", "pnp", "rulebooks", "docs")
_TEXT = {".toml", ".csv", ".j2", ".py", ".md", ".svg"}


def _texts(*folders: str) -> list[tuple[Path, str]]:
    """(path, text) of every text file under the named project folders."""
    out = []
    for folder in folders:
        for path in sorted((PROJECT_ROOT / folder).rglob("*")):
            if path.suffix in _TEXT and path.is_file():
                out.append((path, path.read_text(encoding="utf-8")))
    return out


def test_fortune_is_spelt_fortune_or_fortuna_everywhere() -> None:
    # フォーチュン (fortune) and フォーチュナ (the game Fortuna) are the only words;
    # anything else after フォーチュ is a dropped or wrong kana.
    bad = re.compile(r"フォーチュ(?![ンナ])|フォーチン|フォチュン|ホーチュン")
    found = [f"{p.relative_to(PROJECT_ROOT)}:{text.count(chr(10), 0, m.start()) + 1}: "
             f"{text[m.start():m.start() + 8]}"
             for p, text in _texts(*SOURCES) for m in bad.finditer(text)]
    assert not found, found


def test_fortune_chips_are_named_in_full_where_they_print() -> None:
    game = load_game_data(DATA, "fortune_clover", strict=True)
    assert game.manifest.components["chips"].name_ja == "フォーチュンチップ"
    book = rulebook_markdown("fortune_clover", lang="ja")
    assert "| フォーチュンチップ | 30個 |" in book                # the component table
    assert re.search(r"!\[[^\]]*・フォーチュンチップ・", book)      # the gallery caption
    listed = "\n".join(list_lines(game))
    assert "フォーチュンチップ" in listed


def test_episode2_calls_its_dice_saikoro_everywhere() -> None:
    # One word for the dice: サイコロ; "six-sided" once, in the component table's size column.
    game = load_game_data(DATA, "episode2", strict=True)
    assert game.manifest.components["dice"].name_ja == "サイコロ"
    book = rulebook_markdown("episode2", lang="ja")
    assert "| サイコロ | 3個 | 6面 |" in book
    assert book.count("6面") == 1
    sources = _texts("templates/episode2", "pnp/games/episode2") + [
        (p, p.read_text(encoding="utf-8")) for p in
        (DATA / "episode2" / "manifest.toml", PROJECT_ROOT / "rulebooks" / "episode2.md")]
    for path, text in [(Path("rulebook (exported)"), book), *sources]:
        for word in ("ダイス", "六面体", "さいころ", "賽"):
            assert word not in text, f"{path}: says {word}, not サイコロ"
