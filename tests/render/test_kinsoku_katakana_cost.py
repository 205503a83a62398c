"""The katakana-word rule is soft: it never costs a line and never leaves a hole.

Review items of the rule (textlayout.break_lines): it used to move a word
down whenever the line had another break, so a text that fitted in 5 lines
could need 7 (and shrink, or fail with TextTooLong), and a line could end
5 em short. Now a word moves only where the paragraph keeps its line count
and the line is left at most ``_word_gap`` short (3 em, a quarter of a
narrow line), or ``_fragment_gap`` (5 em, the same quarter) where the
break would otherwise leave a fragment of one or two characters. Known answers in em (IPAexGothic: every kana is 1 em wide) and
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
    # does not: keeping it whole would leave "ボーナスを" 5 em short; it
    # splits as ゲーム|オーバー (2 em short, within the quarter of the line)
    # rather than leaving "バー" alone (test_kinsoku_katakana_fragments.py)
    assert lines_of(REVIEW, 10.0) == [
        "あいうえおカードを", "スートのチップで", "ボーナスをゲーム",
        "オーバーまでアタック", "するシャッフルして", "デッキからドローする"]
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

    The cap is 3 em (a quarter of a narrow line) for a word that moves down
    whole; up to 5 em only to avoid a one- or two-character fragment, and
    then the line ends outside a word or at a fair split. The line before
    a paragraph's last may be shorter (the short-last-line rule pulls words
    down), so it is left out.
    """
    checked = wide = 0
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
                assert gap <= min(5.0, width / 4) + 1e-9, (text, width, gap)
                if gap > min(3.0, width / 4) + 1e-9:
                    left, right = _text(line), _text(after)
                    assert not kinsoku.splits_word(left[-1], right[0]) or (
                        _run(left[::-1]) >= 3 and _run(right) >= 3 and right[0] != "ン"), \
                        (text, width, left, right)
                    wide += 1
                checked += 1
    assert checked > 50
    assert wide > 5          # the wider cap was used, so its check is not vacuous


def _text(line: list) -> str:
    """The characters of one broken line (no spaces: the made-up texts have none)."""
    return "".join(a.ch for chunk, _ in line for a in chunk.atoms)


def _run(text: str) -> int:
    """How many katakana characters ``text`` starts with."""
    n = 0
    while n < len(text) and text[n] in kinsoku.KATAKANA:
        n += 1
    return n


@pytest.mark.parametrize("text, width, expected", [
    # 12 em: the line is left 3 em short, the most the rule allows: it moves
    ("あいうえおかきくけゲームオーバーだ", 12.0, ["あいうえおかきくけ", "ゲームオーバーだ"]),
    # 12 em, 5 em short: the word does not move whole; greedy filling would
    # leave "バー" alone, so it splits fairly, ゲーム|オーバー (2 em short)
    ("あいうえおかきゲームオーバーだ", 12.0, ["あいうえおかきゲーム", "オーバーだ"]),
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
