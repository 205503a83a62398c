"""No katakana word split into a one- or two-character fragment where a better break exists.

The katakana-word rule moves a word down whole only within 3 em; wide
rulebook columns then still split long words where the line is full
(キャンペー|ン, ノーマル・クリ|ア, フェドー|ラ, オールイ|ンセット). Where the greedy
break is not fair (fewer than ``MIN_WORD_PART`` characters on a side, or
``ン`` starting the line), the line breaker takes the latest fair break
within ``FRAGMENT_GAP_EM`` (5 em, and a quarter of the line): before the
word, after its ``・``, or inside it. Known answers in em (IPAexGothic:
every kana is 1 em wide); the sweep in test_kinsoku_katakana_cost.py checks
that no paragraph gains a line.
"""

from __future__ import annotations

import pytest
from reportlab.lib.styles import ParagraphStyle

from pnp.render import fonts, textlayout
from pnp.render.textlayout import plain_lines
from pnp.rulebook.pdf import JaParagraph

SANS = fonts.family_fonts("sans")
BLACK = (0.0, 0.0, 0.0)
#: Sixteen kana of filler: a line's start that offers breaks everywhere.
FILL = "あいうえおかきくけこさしすせそた"


def lines_of(text: str, width_em: float) -> list[str]:
    """Break ``text`` (IPAexGothic) at ``width_em`` and return the lines."""
    return plain_lines((("t", SANS, BLACK, text, 0.0),), width_em)


@pytest.mark.parametrize("text, expected", [
    # greedy: FILL[:15] + "キャンペー" / "ンで使う。…": the whole word would leave
    # 5 em; キャン|ペーン leaves 2 em and three characters on each side
    (FILL[:15] + "キャンペーンで使う。あいうえお",
     [FILL[:15] + "キャン", "ペーンで使う。あいうえお"]),
    # greedy: … + "ハット・フェドー" / "ラです。": after the ・ (4 em short)
    (FILL[:12] + "ハット・フェドーラです。あいうえお",
     [FILL[:12] + "ハット・", "フェドーラです。あいうえお"]),
    # greedy: … + "ゲームオー" / "バーだ": ゲーム|オーバー
    (FILL[:15] + "ゲームオーバーだ。あいうえお", [FILL[:15] + "ゲーム", "オーバーだ。あいうえお"]),
    # a fair split is kept: 4 | 3 characters, the whole word would leave 4 em
    (FILL + "トゥルーエンドだ。あいうえお", [FILL + "トゥルー", "エンドだ。あいうえお"]),
    # ン never starts the line inside a word: オールイ|ンセット becomes オール|インセット
    (FILL + "オールインセットだ。あいうえお", [FILL + "オール", "インセットだ。あいうえお"]),
])
def test_a_wide_line_breaks_at_a_fair_place(text: str, expected: list[str]) -> None:
    assert lines_of(text, 20.0) == expected


def test_the_greedy_split_where_nothing_fair_is_within_the_gap() -> None:
    # 12 em: the quarter of the line (3 em) caps the gap, so フェドーラ cannot
    # move whole (4 em) and has no fair place inside: it splits as before
    assert lines_of("あいうえおかきくフェドーラです", 12.0) == [
        "あいうえおかきくフェドー", "ラです"]


def test_the_wider_gap_has_its_own_cap(monkeypatch: pytest.MonkeyPatch) -> None:
    text = FILL[:12] + "ハット・フェドーラです。あいうえお"
    monkeypatch.setattr(textlayout, "FRAGMENT_GAP_EM", 3.9)
    # moving フェドーラ leaves 4 em, over the cap: the greedy split stays
    assert lines_of(text, 20.0) == [FILL[:12] + "ハット・フェドー", "ラです。あいうえお"]


def test_the_fair_break_never_costs_a_line() -> None:
    # 21 em, two lines: "…ゲーム" / "オーバーだ" would need a third line
    # ("オーバーだ" + 17 characters), so the greedy split stays
    text = FILL[:16] + "ゲームオーバーだ" + "あいうえおかきくけこさしすせそたち"
    greedy = [FILL[:16] + "ゲームオー", "バーだ" + "あいうえおかきくけこさしすせそたち"]
    assert len(greedy[1]) == 20
    assert lines_of(text, 21.0) == greedy


def test_the_rulebook_paragraph_breaks_the_same_way() -> None:
    """JaParagraph (the rulebook's Japanese body text) goes through the same rule."""
    style = ParagraphStyle("ja", fontName=fonts.FONT_JA, fontSize=10, leading=14,
                           wordWrap="CJK")
    para = JaParagraph(FILL[:15] + "キャンペーンで使う。あいうえお", style)
    para.wrap(200.0, 400.0)                  # 20 em at 10 pt
    assert ["".join(f.text for f in line.words) for line in para.blPara.lines] == [
        FILL[:15] + "キャン", "ペーンで使う。あいうえお"]


def test_a_word_longer_than_the_line_moves_down_rather_than_leave_two() -> None:
    # 8 em: greedy "あいうえおかボー" / "ナスポイントカード" leaves ボー alone; the
    # word moves down (2 em, the quarter of the line) and splits fairly there
    assert lines_of("あいうえおかボーナスポイントカードです", 8.0) == [
        "あいうえおか", "ボーナスポイント", "カードです"]
