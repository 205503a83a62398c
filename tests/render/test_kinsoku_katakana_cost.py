"""The katakana-word rule is soft: it never costs a line and never leaves a hole.

Review items of the rule (textlayout.break_lines): it used to move a word
down whenever the line had another break, so a text that fitted in 5 lines
could need 7 (and shrink, or fail with TextTooLong), and a line could end
5 em short. Now a word moves only where the paragraph keeps its line count
and the line is left at most ``_word_gap`` short (3 em, a quarter of a
narrow line). Known answers in em (IPAexGothic: every kana is 1 em wide) and
a seeded sweep of made-up text checked against the rule switched off.
"""

from __future__ import annotations

import random

import pytest

from pnp.render import fonts, kinsoku, textlayout
from pnp.render.textlayout import TextTooLong, fit_text, plain_lines

SANS = fonts.family_fonts("sans")
BLACK = (0.0, 0.0, 0.0)
#: The review's string: ordinary katakana words, one after another.
REVIEW = ("あいうえおカードをスートのチップでボーナスをゲームオーバーまで"
          "アタックするシャッフルしてデッキからドローする")


def pieces(text: str) -> tuple:
    """One IPAexGothic text piece."""
    return (("t", SANS, BLACK, text, 0.0),)


def lines_of(text: str, width_em: float) -> list[str]:
    """Break ``text`` at ``width_em`` and return the lines."""
    return plain_lines(pieces(text), width_em)


@pytest.fixture
def rule_off(monkeypatch: pytest.MonkeyPatch) -> None:
    """Switch the katakana-word rule off (no break splits a word): plain greedy lines."""
    monkeypatch.setattr(kinsoku, "splits_word", lambda a, b: False)


@pytest.mark.parametrize("width, count", [(9.0, 7), (10.0, 6), (11.0, 5), (12.0, 5)])
def test_the_review_string_keeps_its_line_count(width: float, count: int) -> None:
    # with the rule applied unconditionally these were 8, 7, 7 and 5 lines
    assert len(lines_of(REVIEW, width)) == count


def test_the_review_string_without_the_rule_has_the_same_counts(rule_off: None) -> None:
    assert [len(lines_of(REVIEW, w)) for w in (9.0, 10.0, 11.0, 12.0)] == [7, 6, 5, 5]


def test_each_paragraph_keeps_its_count() -> None:
    # the look-ahead stops at the paragraph's end (a hard break): 5 + 5 lines
    two = (("t", SANS, BLACK, REVIEW, 0.0), ("b",), ("t", SANS, BLACK, REVIEW, 0.0))
    assert len(plain_lines(two, 11.0)) == 10
    assert len(plain_lines(two, 10.0)) == 12


def test_words_stay_whole_where_it_costs_nothing() -> None:
    # 10 em, 6 lines either way: スート and チップ move down whole (the greedy
    # lines were "…カードを" / "スートのチップでボー" / "ナスを…"); ゲームオーバー
    # does not: keeping it whole would leave "ボーナスを" 5 em short
    assert lines_of(REVIEW, 10.0) == [
        "あいうえおカードを", "スートのチップで", "ボーナスをゲームオー",
        "バーまでアタックする", "シャッフルしてデッキ", "からドローする"]
    # 11 em: five full lines, no room to move anything: the greedy lines
    assert lines_of(REVIEW, 11.0)[:2] == ["あいうえおカードをスー", "トのチップでボーナスを"]


def test_fit_text_does_not_shrink_or_fail_for_the_rule() -> None:
    width = 11 * 8.0                     # 11 em at 8 pt
    for max_lines in (5, 6):
        fit = fit_text(pieces(REVIEW), width, 200.0, 8.0, 8.0, 1.3, "left", "top", max_lines)
        assert (fit.size, fit.lines) == (8.0, 5)
    # room for 7 lines of 7 pt: was 7.25 pt, the text fits at its own size
    fit = fit_text(pieces(REVIEW), width, 200.0, 8.0, 7.0, 1.3, "left", "top", 5)
    assert fit.size == 8.0
    with pytest.raises(TextTooLong, match="needs 5 lines, max-lines is 4"):
        fit_text(pieces(REVIEW), width, 200.0, 8.0, 8.0, 1.3, "left", "top", 4)


def _made_up_texts(count: int) -> list[str]:
    """Seeded Japanese-like text rich in katakana words, kana, kanji and marks."""
    rng = random.Random(20261123)
    words = ["スート", "チップ", "ボーナス", "ゲームオーバー", "ダメージ", "カード",
             "サイコロ", "ホイールオブフォーチュン", "リード", "ピーク", "ナンバー"]
    glue = ["を", "の", "で", "に", "は", "が", "、", "。", "する", "ごとに", "取る",
            "手札", "（", "）", "３枚", "1〜3", "あいう", "山札から", "・"]
    out = []
    for _ in range(count):
        parts = [rng.choice(words) if rng.random() < 0.45 else rng.choice(glue)
                 for _ in range(rng.randint(6, 22))]
        out.append("".join(parts))
    return out


TEXTS = _made_up_texts(120)
#: Each text alone, and neighbours as two paragraphs (a hard break between).
CASES = [pieces(text) for text in TEXTS] + [
    pieces(a) + (("b",),) + pieces(b) for a, b in zip(TEXTS[::2], TEXTS[1::2])]
WIDTHS = [w / 2 for w in range(8, 49)]      # 4 em … 24 em in half-em steps


def _layouts() -> list[tuple[int, ...] | None]:
    """Chunks per line of every case at every width (None: a word is wider than the line)."""
    out: list[tuple[int, ...] | None] = []
    for case in CASES:
        chs = textlayout.chunks(case)
        for width in WIDTHS:
            lines = textlayout.break_lines(chs, width)
            out.append(None if lines is None else tuple(len(line) for line, _ in lines))
    return out


def test_the_rule_never_adds_a_line(monkeypatch: pytest.MonkeyPatch) -> None:
    with_rule = _layouts()
    monkeypatch.setattr(kinsoku, "splits_word", lambda a, b: False)
    without = _layouts()
    assert [None if x is None else len(x) for x in with_rule] == \
        [None if x is None else len(x) for x in without]
    # the rule did act, so the sweep is not vacuous
    assert sum(x != y for x, y in zip(with_rule, without)) > 200


def test_every_break_is_greedy_or_leaves_at_most_the_gap() -> None:
    """A line ends where the next chunk does not fit, or by the rule within the cap.

    The line before a paragraph's last may be shorter (the short-last-line
    rule pulls words down), so it is left out.
    """
    checked = 0
    for text in TEXTS:
        chs = textlayout.chunks(pieces(text))
        for width in WIDTHS:
            lines = textlayout.break_lines(chs, width)
            if lines is None:
                continue
            for (line, lw), (after, _) in zip(lines[:-2], lines[1:-1]):
                nxt = after[0][0]
                if lw + nxt.glue + nxt.width > width + 1e-9:
                    continue                                  # greedy
                gap = width - lw
                assert gap <= min(3.0, width / 4) + 1e-9, (text, width, gap)
                checked += 1
    assert checked > 50


@pytest.mark.parametrize("text, width, expected", [
    # 12 em: the line is left 3 em short, the most the rule allows: it moves
    ("あいうえおかきくけゲームオーバーだ", 12.0, ["あいうえおかきくけ", "ゲームオーバーだ"]),
    # 12 em, 5 em short: the word splits where greedy filling puts the break
    ("あいうえおかきゲームオーバーだ", 12.0, ["あいうえおかきゲームオー", "バーだ"]),
    # 8 em: 2 em short is a quarter of the line: it moves
    ("あいうえおかスートだよね", 8.0, ["あいうえおか", "スートだよね"]),
    # 6 em: the same 2 em would be a third of the line: it splits
    ("あいうえスートだよね", 6.0, ["あいうえスー", "トだよね"]),
])
def test_the_gap_a_moved_word_may_leave(text: str, width: float,
                                        expected: list[str]) -> None:
    assert lines_of(text, width) == expected


@pytest.mark.parametrize("text, width, expected", [
    # the whole word would leave "あいうえおかきく" 3 em short of 11 em (cap 2.75):
    # only what the last line needs comes down, as without the rule
    ("あいうえおかきくダイス３枚", 11.0, ["あいうえおかきくダイ", "ス３枚"]),
    # "あいうえお" / "ボーナスだ" would leave 4 em of 9
    ("あいうえおボーナスだ", 9.0, ["あいうえおボー", "ナスだ"]),
])
def test_the_short_last_line_pull_keeps_to_the_gap(text: str, width: float,
                                                   expected: list[str]) -> None:
    assert lines_of(text, width) == expected
