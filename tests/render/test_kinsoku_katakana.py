"""Katakana words stay whole when a line can break elsewhere (the soft kinsoku rule).

Known answers at fixed widths in em (IPAexGothic: every kana is 1 em wide),
the rule's limits (a word longer than the line, a line with no other break),
its interplay with the short-last-line rule, the rulebook's path through the
same breaker, and the shipped aids where the words used to split.
"""

from __future__ import annotations

import pytest

from pnp import PROJECT_ROOT
from pnp.builder.cards import all_components, component_rows
from pnp.builder.preview import render_sides
from pnp.data import load_game_data
from pnp.render import fonts, kinsoku
from pnp.render.jinja_env import make_environment
from pnp.render.nodes import Group, Text
from pnp.render.textlayout import plain_lines

SANS = fonts.family_fonts("sans")
BLACK = (0.0, 0.0, 0.0)


def lines_of(text: str, width_em: float) -> list[str]:
    """Break ``text`` (IPAexGothic) at ``width_em`` and return the lines."""
    return plain_lines((("t", SANS, BLACK, text, 0.0),), width_em)


@pytest.mark.parametrize("ch, expected", [
    ("ス", True), ("ー", True), ("ッ", True), ("ヵ", True), ("ヴ", True), ("ヽ", True),
    ("ㇷ", True), ("ｶ", True), ("ｰ", True), ("ﾞ", True),
    ("・", False), ("゠", False), ("あ", False), ("ー"[:0], False), ("漢", False), ("A", False),
])
def test_which_characters_make_a_katakana_word(ch: str, expected: bool) -> None:
    assert (ch in kinsoku.KATAKANA) is expected


def test_splits_word_is_a_soft_rule_only() -> None:
    # the hard rules allow the break (ス|ト), the soft one would rather not
    assert kinsoku.break_points("スート")[2] is True
    assert kinsoku.splits_word("ー", "ト") and kinsoku.splits_word("ス", "ー")
    assert not kinsoku.splits_word("ト", "か") and not kinsoku.splits_word("ド", "・")


@pytest.mark.parametrize("text, width, expected", [
    # greedy filling gives "あいうえおかきくスー" / "トかきく"
    ("あいうえおかきくスートかきく", 10.0, ["あいうえおかきく", "スートかきく"]),
    # "チップ" would split as "チッ|プ" (the line is left 2 em short: the
    # most an 8 em line may be, WORD_GAP_SHARE)
    ("これは黄色のチップを取る合図", 8.0, ["これは黄色の", "チップを取る合図"]),
    # the middle dot ends a word: the line breaks after it
    ("カード・チップ・ボーナスを取る", 8.0, ["カード・チップ・", "ボーナスを取る"]),
    # katakana beside kanji breaks as before (ト|数 is outside the word)
    ("あいうえスート数値です", 7.0, ["あいうえスート", "数値です"]),
])
def test_a_katakana_word_moves_down_whole(text: str, width: float,
                                          expected: list[str]) -> None:
    lines = lines_of(text, width)
    assert lines == expected
    for a, b in zip(lines, lines[1:]):
        assert not (a[-1] in kinsoku.KATAKANA and b[0] in kinsoku.KATAKANA), lines


def test_a_word_longer_than_the_line_still_breaks() -> None:
    # an 11-character word in a 5 em line: it must split, and no text is refused
    assert lines_of("あいボーナスポイントカード", 5.0) == ["あいボーナ", "スポイント", "カード"]
    assert lines_of("ボーナスポイント", 5.0) == ["ボーナスポ", "イント"]


def test_a_line_with_no_other_break_splits_the_word() -> None:
    # 「 may not end a line, so "「ボーナス" offers no break before the word
    # ("ボーナス" alone would fit a 4 em line)
    assert lines_of("「ボーナス」です", 4.0) == ["「ボーナ", "ス」です"]


def test_avoiding_a_short_last_line_does_not_split_a_word() -> None:
    # greedy: "あいうえおかきくけダイス" / "３枚"; pulling down only "ス" would
    # leave "ダイ|ス３枚", so the whole word comes down (leaving the line
    # before 3 em short, the most the rule may; beyond that see
    # test_kinsoku_katakana_cost.py)
    assert lines_of("あいうえおかきくけダイス３枚", 12.0) == ["あいうえおかきくけ", "ダイス３枚"]
    # and the short-last-line rule still works around a word
    assert lines_of("あいうえおかきくけこスー", 10.0) == ["あいうえおかきくけ", "こスー"]


def test_spaces_are_breaks_outside_any_word() -> None:
    latin = fonts.family_fonts("latin")
    # greedy: "Fortune Clover ク" / "ローバー カード"; the word moves down to
    # the space, which is a break outside it
    lines = plain_lines((("t", latin, BLACK, "Fortune Clover クローバー カード", 0.0),), 9.0)
    assert lines == ["Fortune Clover", "クローバー カード"]


def test_the_rulebook_breaks_the_same_way() -> None:
    """Picture labels and JaParagraph go through the same line breaker."""
    from reportlab.lib.styles import ParagraphStyle

    from pnp.rulebook.pdf import JaParagraph
    from pnp.rulebook.pictures import wrap_text

    assert wrap_text("あいうえおかきくスートかきく", fonts.FONT_JA, 10.0, 100.0) == [
        "あいうえおかきく", "スートかきく"]
    style = ParagraphStyle("ja", fontName=fonts.FONT_JA, fontSize=10, leading=14,
                           wordWrap="CJK")
    para = JaParagraph("あいうえおかきくスートかきく", style)
    para.wrap(100.0, 200.0)
    assert ["".join(f.text for f in line.words) for line in para.blPara.lines] == [
        "あいうえおかきく", "スートかきく"]


def _line_texts(node: Text) -> list[str]:
    """The text of each line of a laid-out box (runs grouped by baseline)."""
    by_line: dict[float, list] = {}
    for run in node.runs:
        by_line.setdefault(round(run.y, 3), []).append(run)
    return ["".join(r.text for r in sorted(runs, key=lambda r: r.x))
            for _, runs in sorted(by_line.items())]


def _texts(nodes: tuple) -> list[Text]:
    """Every text box among ``nodes``, groups opened."""
    out: list[Text] = []
    for node in nodes:
        if isinstance(node, Text):
            out.append(node)
        elif isinstance(node, Group):
            out += _texts(node.children)
    return out


@pytest.mark.parametrize("slug, words", [
    ("fortune_clover", ["スートが勝つ"]),                 # was "…リードのスー" / "トが勝つ"
    ("episode2", ["ダメージの前後", "サイコロ"]),   # ゲームオーバー: test_kinsoku_katakana_cost.py
])
def test_shipped_aids_keep_the_words_that_used_to_split(slug: str, words: list[str]) -> None:
    templates = PROJECT_ROOT / "templates"
    game = load_game_data(PROJECT_ROOT / "card_data", slug, strict=True)
    aid = next(c for c in all_components(game, templates) if c.id == "aid")
    ids = [r.id for r in component_rows(game, aid)][:1]
    face = next(s for s in render_sides(make_environment(templates), game, aid, ids)
                if s.side == "face")
    lines = [line for t in _texts(face.layout.nodes) for line in _line_texts(t)]
    for word in words:
        assert any(word in line for line in lines), (word, lines)
