"""Worked examples are played by the engines: they follow the data, in both editions."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

from pnp.data import DEFAULT_DATA_DIR, load_game_data
from pnp.errors import PnpError
from pnp.rulebook import rulebook_markdown
from pnp.rulebook.context import BookContext, CardArt, PictureStore
from pnp.games.book_hooks import KINDS, rulebook_hooks
from pnp.rulebook.lang import load_lang
from pnp.rulebook.export import rulebook_source
from rulebook_books import LANGS, SLUGS


def _copy(tmp_path: Path, slug: str) -> Path:
    data = tmp_path / "card_data"
    shutil.copytree(DEFAULT_DATA_DIR / slug, data / slug)
    return data


def _edit(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert text.count(old) == 1, old
    path.write_text(text.replace(old, new), encoding="utf-8")


def _section(markdown: str, heading: str) -> str:
    """The text from a heading to the next heading of the same or a higher level."""
    start = markdown.index(heading)
    level = len(heading) - len(heading.lstrip("#"))
    rest = markdown[start + len(heading):]
    end = re.search(rf"\n#{{1,{level}}} ", rest)
    return rest[:end.start()] if end else rest


def _run(slug: str, kind: str, name: str, lang: str, data_dir: Path = DEFAULT_DATA_DIR) -> str:
    game = load_game_data(data_dir, slug)
    book = BookContext(game, load_lang(lang, rulebook_source(slug, data_dir, lang)),
                       PictureStore(), CardArt(game, None), name=f"{kind}-{name}")
    rulebook_hooks(slug).of(kind)[name](book)
    return book.markdown()


def test_every_game_registers_builders_and_the_books_use_them_all() -> None:
    for slug in SLUGS:
        hooks = rulebook_hooks(slug)
        assert hooks.example, slug                     # every game has worked examples
        for lang in LANGS:
            source = rulebook_source(slug, DEFAULT_DATA_DIR, lang).read_text(encoding="utf-8")
            for kind in KINDS:
                for name in hooks.of(kind):
                    assert f"{{{{ {kind} {name} }}}}" in source, (slug, lang, kind, name)
    # The set-up diagrams the issue names.
    assert "area" in rulebook_hooks("nine_peak").figure
    assert "table" in rulebook_hooks("undecim").figure
    assert "setup" in rulebook_hooks("fortuna").figure
    assert "layout" in rulebook_hooks("episode2").figure


@pytest.mark.parametrize("slug", SLUGS)
def test_both_editions_of_an_example_print_the_same_numbers(slug: str) -> None:
    # Tables may quote the data's own card texts, whose translations are free.
    for kind in ("example", "figure"):
        for name in rulebook_hooks(slug).of(kind):
            ja = re.findall(r"\d+(?:\.\d+)?", _run(slug, kind, name, "ja"))
            en = re.findall(r"\d+(?:\.\d+)?", _run(slug, kind, name, "en"))
            assert sorted(ja) == sorted(en), (kind, name)


def test_nine_peak_base_points_change_the_scored_example(tmp_path: Path) -> None:
    before = _section(rulebook_markdown("nine_peak"), "### 得点計算の例")
    assert "| **合計** | **61** | **64** |" in before
    data = _copy(tmp_path, "nine_peak")
    _edit(data / "nine_peak" / "manifest.toml", "base_points = [1, 2, 3, 4, 5, 7, 9, 11, 13]",
          "base_points = [1, 2, 3, 5, 6, 8, 10, 12, 14]")
    after = _section(rulebook_markdown("nine_peak", data), "### 得点計算の例")
    # Simple: 5×4 + 8×6 + 5 − 2 = 71; full: max(5×3, 4×3) + 8×7 + 5 − 2 = 74.
    assert "| **合計** | **71** | **74** |" in after
    english = _section(rulebook_markdown("nine_peak", data, lang="en"), "### Scoring example")
    assert "| **Total** | **71** | **74** |" in english


def test_nine_peak_takeback_example_is_corrected() -> None:
    text = rulebook_markdown("nine_peak")
    assert "列は4枚で上限は9。9に届くので、やはりピークです。" in text
    assert "5が2枚のところで同じことをすると、上限は8でピークにはなりません。" in text
    english = rulebook_markdown("nine_peak", lang="en")
    assert "leaves 4 in the column: the limit is 9, and reaching 9 it still peaks." in english


def test_episode2_spade_bonus_changes_the_fight_the_odds_and_the_rules(tmp_path: Path) -> None:
    text = rulebook_markdown("episode2")
    assert "合計9＋1＝10" in text and "| 12（Q） | 37.5% | 50.0% |" in text
    data = _copy(tmp_path, "episode2")
    _edit(data / "episode2" / "manifest.toml", "spade_bonus = 1", "spade_bonus = 2")
    text = rulebook_markdown("episode2", data)
    assert "合計9＋2＝11" in text and "4＋3＋6＋2＝15" in text and "12−11＝1" in text
    assert "| 12（Q） | 37.5% | 62.5% |" in text
    assert "出目の合計に＋2（振り直しにも）" in text
    designer = rulebook_markdown("episode2", data, designer=True)
    assert "♠の攻撃は出目に＋2され" in designer and "（♠なら＋2）" in designer
    english = rulebook_markdown("episode2", data, lang="en")
    assert "9 + 2 = 11, short of 12" in english and "| 12 (Q) | 37.5% | 62.5% |" in english


def test_undecim_settlement_table_changes_the_final_score(tmp_path: Path) -> None:
    before = _section(rulebook_markdown("undecim"), "### 得点計算の例")
    assert "| 入植地（3枚） | 表より | 9 |" in before
    data = _copy(tmp_path, "undecim")
    _edit(data / "undecim" / "manifest.toml", "settlement_vp = [0, 0, 4, 9, 14, 20, 27]",
          "settlement_vp = [0, 0, 4, 10, 16, 20, 27]")
    after = _section(rulebook_markdown("undecim", data), "### 得点計算の例")
    assert "| 入植地（3枚） | 表より | 10 |" in after
    assert "| 入植地（4枚） | 表より | 16 |" in after
    total = int(re.search(r"\*\*合計\*\* \|  \| \*\*(\d+)\*\*", after).group(1))
    old = int(re.search(r"\*\*合計\*\* \|  \| \*\*(\d+)\*\*", before).group(1))
    assert total == old + 3


def test_fortune_card_row_changes_the_ranking_example_and_the_card_list(tmp_path: Path) -> None:
    data = _copy(tmp_path, "fortune_clover")
    _edit(data / "fortune_clover" / "fortune.csv", "1st:Y1W2;2nd:W2;3rd:W1,1st:Y1W2;2nd:W2;3rd:W1;4th:W1",
          "1st:Y1W2;2nd:W2;3rd:W3,1st:Y1W2;2nd:W2;3rd:W1;4th:W1")
    before = rulebook_markdown("fortune_clover")
    after = rulebook_markdown("fortune_clover", data)
    assert "| C | 3枚 | 3位 | 白1 |" in before
    assert "| C | 3枚 | 3位 | 白3 |" in after
    assert "4人：1位 黄1・白2、2位 白2、3位 白3" in after
    assert "| C | 3 | 3rd | 3 white |" in rulebook_markdown("fortune_clover", data, lang="en")


def test_fortuna_example_that_no_longer_fits_the_data_names_itself(tmp_path: Path) -> None:
    data = _copy(tmp_path, "fortuna")
    csv = data / "fortuna" / "reel.csv"
    _edit(csv, "reel-4-bolt,4,稲妻,3", "reel-4-bolt,4,稲妻,0")
    with pytest.raises(PnpError, match=r"fortuna\.md:\d+: example-set_score: the scripted "
                                        r"position does not fit the data"):
        rulebook_markdown("fortuna", data)


def test_fortuna_examples_are_the_engine_s_numbers() -> None:
    text = rulebook_markdown("fortuna")
    assert "6のカードは6・7・8・9・0・1のどれにもなります" in text      # F2: wraps after 9
    assert "5×4＝**20VP**" in text and "5×2＝**10VP**" in text
    assert "6＋4＝10になり、ホイールオブフォーチュンが起こります" in text
    assert "| **合計** |  |  | **41** |" in text
    english = rulebook_markdown("fortuna", lang="en")
    assert "a 6 may be 6, 7, 8, 9, 0 or 1" in english and "5 × 4 = **20 VP**" in english


def test_a_picture_not_drawn_on_the_books_scene_is_one_clear_error() -> None:
    """A builder that hands ``picture`` something else gets a PnpError naming the picture."""
    game = load_game_data(DEFAULT_DATA_DIR, "fortuna")
    book = BookContext(game, load_lang("en", rulebook_source("fortuna", DEFAULT_DATA_DIR, "en")),
                       PictureStore(), CardArt(game, None), name="example-odd")
    with pytest.raises(PnpError, match="picture 'example-odd': draw it on book.scene"):
        book.picture(object(), "caption")  # type: ignore[arg-type]
    assert book.picture(book.scene(), "caption").startswith("example-odd")
