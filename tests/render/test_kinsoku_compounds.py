"""A katakana compound of known words splits between its words (スタート|プレイヤー).

The line breaker knew where a katakana run starts and ends, not where the
words inside it meet, so a compound split fairly but anywhere
(スター|トプレイヤー, ホイールオブフォー|チュン). Now a run made wholly of words in
pnp/render/katakana_words.txt (kinsoku.word_boundaries) prefers a fair
break between two of its words, or before it, within the fragment gap
(5 em, a quarter of the line) and at no cost of a line. Single words and
runs with an unlisted part break as before. Known answers in em
(IPAexGothic: every kana is 1 em wide); each layout test names the lines
without the preference, and the ``no_boundaries`` fixture shows they are
what the breaker made before.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from reportlab.lib.styles import ParagraphStyle

from pnp.errors import PnpError
from pnp.render import fonts, kinsoku, textlayout
from pnp.render.textlayout import fit_text, plain_lines
from pnp.rulebook.pdf import JaParagraph

SANS = fonts.family_fonts("sans")
BLACK = (0.0, 0.0, 0.0)
#: Sixteen kana of filler: a line's start that offers breaks everywhere.
FILL = "あいうえおかきくけこさしすせそた"
#: 15 em of filler, スタートプレイヤー: at 20 em greedy filling ends the line
#: at スタートプ|レイヤー (fair: 5 | 4); moving the word whole would leave 5 em.
START = FILL[:15] + "スタートプレイヤーから順に出します。あいう"


def pieces(text: str) -> tuple:
    """One IPAexGothic text piece."""
    return (("t", SANS, BLACK, text, 0.0),)


def lines_of(text: str, width_em: float) -> list[str]:
    """Break ``text`` at ``width_em`` and return the lines."""
    return plain_lines(pieces(text), width_em)


@pytest.fixture
def no_boundaries(monkeypatch: pytest.MonkeyPatch) -> None:
    """The breaker as it was: it knows no compound."""
    monkeypatch.setattr(kinsoku, "word_boundaries", lambda run: frozenset())


# -- the word list and the segmentation ------------------------------------

@pytest.mark.parametrize("run, cuts", [
    ("スタートプレイヤー", {4}),
    ("ホイールオブフォーチュン", {4, 6}),
    ("ゲームオーバー", {3}),
    ("フォーチュンクローバー", {6}),
    ("プレイヤー", set()),              # one word (プレイ + ヤー: ヤー is no word)
    ("キャンペーン", set()),            # one word
    ("カードル", set()),                # カード + an unlisted rest: left whole
    ("ドラゴンスレイヤー", set()),      # nothing listed
])
def test_a_run_splits_into_known_words(run: str, cuts: set[int]) -> None:
    assert kinsoku.word_boundaries(run) == cuts


@pytest.mark.parametrize("words, run, cuts", [
    ({"アイ", "アイウ", "ウエオ", "エオ"}, "アイウエオ", {3}),        # the longest first word
    ({"アイ", "アイウ", "ウエオ", "エオ"}, "アイウエオエオ", {3, 5}),
    ({"アイ", "アイウ", "ウエオ"}, "アイウエオ", {2}),        # アイウ leaves エオ: back off
    ({"アイ", "アイウ", "ウエオ"}, "アイウカ", set()),
])
def test_the_longest_word_wins_unless_the_rest_cannot_split(
        monkeypatch: pytest.MonkeyPatch, words: set[str], run: str, cuts: set[int]) -> None:
    monkeypatch.setattr(kinsoku, "known_words", lambda: frozenset(words))
    kinsoku.word_boundaries.cache_clear()
    try:
        assert kinsoku.word_boundaries(run) == cuts
    finally:
        kinsoku.word_boundaries.cache_clear()


def test_the_shipped_list_holds_short_units_only() -> None:
    """No listed word is a compound of other listed words (it would hide their boundary)."""
    words = kinsoku.known_words()
    assert {"スタート", "プレイヤー", "カード", "ボーナス", "フォーチュン", "チップ"} <= words
    for word in words:
        others = words - {word}
        ends = {len(word)}
        for i in range(len(word) - 1, -1, -1):
            if any(word[i:e] in others and e in ends for e in range(i + 1, len(word) + 1)):
                ends.add(i)
        assert 0 not in ends, f"{word} is a compound of listed words"


@pytest.mark.parametrize("line, message", [
    ("カード 2", "'カード 2' is not a katakana word"),
    ("card", "'card' is not a katakana word"),
    ("ｶｰﾄﾞ", "'ｶｰﾄﾞ' is not a katakana word"),
    ("ーカ", "'ーカ' starts with 'ー', which never starts a word"),
    ("ッカ", "'ッカ' starts with 'ッ', which never starts a word"),
    ("カード", "'カード' is listed twice (first on line 2)"),
])
def test_a_bad_line_is_one_line_naming_file_and_line(tmp_path: Path, line: str,
                                                     message: str) -> None:
    path = tmp_path / "words.txt"
    path.write_text(f"# a comment\nカード\n\n{line}\nチップ\n", encoding="utf-8")
    with pytest.raises(PnpError) as info:
        kinsoku.load_words(path)
    text = str(info.value)
    assert text.startswith(f"{path}:4: {message}")
    assert "\n" not in text and "expected" in text


def test_a_good_list_loads(tmp_path: Path) -> None:
    path = tmp_path / "words.txt"
    path.write_text("# header\n\n  カード  \nチップ\n", encoding="utf-8")
    assert kinsoku.load_words(path) == {"カード", "チップ"}


def test_an_unreadable_list_is_one_line(tmp_path: Path) -> None:
    with pytest.raises(PnpError, match=r"missing\.txt: cannot read the katakana word list"):
        kinsoku.load_words(tmp_path / "missing.txt")


# -- the line breaker ------------------------------------------------------

def test_the_compound_splits_between_its_words() -> None:
    assert lines_of(START, 20.0) == [FILL[:15] + "スタート", "プレイヤーから順に出します。あいう"]


def test_without_the_word_list_it_split_where_the_line_was_full(no_boundaries: None) -> None:
    assert lines_of(START, 20.0) == [FILL[:15] + "スタートプ", "レイヤーから順に出します。あいう"]


# 20.5 em: "FILL[:17] スター" fills 20 em and ト does not fit; moving the word
# whole leaves 3.5 em, over the 3 em the word rule takes for a single word,
# and no break between its words is on the line: the compound moves down
# whole (within the 5 em fragment gap) rather than split as スター|トプレイヤー
MISREAD = FILL + "あスタートプレイヤーから順に出します。"


def test_a_compound_moves_down_rather_than_split_off_its_words() -> None:
    assert lines_of(MISREAD, 20.5) == [FILL + "あ", "スタートプレイヤーから順に出します。"]


def test_a_compound_split_off_its_words_before(no_boundaries: None) -> None:
    assert lines_of(MISREAD, 20.5) == [FILL + "あスター", "トプレイヤーから順に出します。"]


@pytest.mark.parametrize("text, width, expected, before", [
    # at a boundary already: kept (トゥルー|エンド)
    (FILL + "トゥルーエンドだ。あいうえお", 20.0,
     [FILL + "トゥルー", "エンドだ。あいうえお"], [FILL + "トゥルー", "エンドだ。あいうえお"]),
    # greedy: ホイールオブフォーチュ|ン (a fragment); the fragment rule alone took
    # the latest fair break, フォー|チュン; the break between words is 5 em back
    (FILL[:9] + "ホイールオブフォーチュンが起きる。あいう", 20.0,
     [FILL[:9] + "ホイールオブ", "フォーチュンが起きる。あいう"],
     [FILL[:9] + "ホイールオブフォー", "チュンが起きる。あいう"]),
    # the same with a longer paragraph: フォーチュン… would need a third line,
    # so the compound splits as before
    (FILL[:9] + "ホイールオブフォーチュンが起きる。あいうえおかきくけこ", 20.0,
     [FILL[:9] + "ホイールオブフォー", "チュンが起きる。あいうえおかきくけこ"],
     [FILL[:9] + "ホイールオブフォー", "チュンが起きる。あいうえおかきくけこ"]),
])
def test_known_answers(text: str, width: float, expected: list[str], before: list[str],
                       monkeypatch: pytest.MonkeyPatch) -> None:
    assert lines_of(text, width) == expected
    monkeypatch.setattr(kinsoku, "word_boundaries", lambda run: frozenset())
    assert lines_of(text, width) == before


def test_the_boundary_is_not_taken_at_the_cost_of_a_line() -> None:
    # 20 em, two lines: "スタート" / "プレイヤーから…" would need a third
    tail = "から順に出しますあいうえおかきく"            # "レイヤー" + 16 fill 20 em
    text = FILL[:15] + "スタートプレイヤー" + tail
    assert lines_of(text, 20.0) == [FILL[:15] + "スタートプ", "レイヤー" + tail]


def test_unknown_words_break_as_before(monkeypatch: pytest.MonkeyPatch) -> None:
    texts = [FILL[:15] + "ドラゴンスレイヤーを倒す。あいう", FILL[:15] + "キャンペーンで使う。あいう",
             FILL[:14] + "カードルールブックを読む。", FILL[:12] + "ハット・フェドーラです。"]
    now = [lines_of(t, w) for t in texts for w in (12.0, 16.0, 20.0)]
    monkeypatch.setattr(kinsoku, "word_boundaries", lambda run: frozenset())
    assert now == [lines_of(t, w) for t in texts for w in (12.0, 16.0, 20.0)]


def test_cards_and_rulebooks_break_the_same_way() -> None:
    """fit_text (card text boxes) and JaParagraph (rulebook body) share the rule."""
    fit = fit_text(pieces(START), 200.0, 100.0, 10.0, 10.0, 1.3, "left", "top", None)
    assert [run.text for run in fit.runs][:2] == [FILL[:15] + "スタート", "プレイヤーから順に出します。あいう"]
    style = ParagraphStyle("ja", fontName=fonts.FONT_JA, fontSize=10, leading=14,
                           wordWrap="CJK")
    para = JaParagraph(START, style)
    para.wrap(200.0, 400.0)                  # 20 em at 10 pt
    assert ["".join(f.text for f in line.words) for line in para.blPara.lines] == [
        FILL[:15] + "スタート", "プレイヤーから順に出します。あいう"]


# -- a sweep of made-up text -------------------------------------------------

def _made_up_texts(count: int) -> list[str]:
    """Seeded Japanese-like text rich in known compounds, single and unknown words."""
    rng = random.Random(20261123)
    words = ["スタートプレイヤー", "ホイールオブフォーチュン", "フォーチュンカード", "ゲームオーバー",
             "シナリオボーナス", "アクションフェイズ", "ルールブック", "キャンペーン", "チップ",
             "ドラゴンスレイヤー", "スート"]
    glue = ["を", "の", "で", "に", "は", "が", "、", "。", "する", "ごとに", "取る",
            "手札", "（", "）", "３枚", "1〜3", "あいう", "山札から", "・"]
    return ["".join(rng.choice(words) if rng.random() < 0.45 else rng.choice(glue)
                    for _ in range(rng.randint(6, 22))) for _ in range(count)]


TEXTS = _made_up_texts(100)
WIDTHS = [w / 2 for w in range(8, 49)]      # 4 em … 24 em in half-em steps


def _layouts() -> list[list[str] | None]:
    """The lines of every text at every width (None: a word is wider than the line)."""
    out: list[list[str] | None] = []
    for text in TEXTS:
        for width in WIDTHS:
            try:
                out.append(lines_of(text, width))
            except textlayout.TextTooLong:
                out.append(None)
    return out


def test_the_preference_never_adds_a_line_nor_breaks_a_hard_rule(
        monkeypatch: pytest.MonkeyPatch) -> None:
    now = _layouts()
    monkeypatch.setattr(kinsoku, "word_boundaries", lambda run: frozenset())
    before = _layouts()
    assert [None if x is None else len(x) for x in now] == \
        [None if x is None else len(x) for x in before]
    changed = [(a, b) for a, b in zip(now, before) if a != b]
    assert len(changed) > 20                # the preference acted: the sweep is not vacuous
    for lines, _ in changed:
        assert lines is not None
        for prev, line in zip(lines, lines[1:]):
            assert line[0] not in kinsoku.NO_START and prev[-1] not in kinsoku.NO_END
            assert not (prev[-1].isdigit() and line[0] in "枚〜")     # 3枚, 1〜3 stay whole
