"""Japanese line breaking (the shared kinsoku rules) and letter-spacing."""

from __future__ import annotations

import random

import pytest

from pnp.render import fonts, kinsoku
from pnp.render.textlayout import SHORT_LAST_LINE, TextTooLong, fit_text, plain_lines

SANS = fonts.family_fonts("sans")
BLACK = (0.0, 0.0, 0.0)


def lines_of(text: str, width_em: float) -> list[str]:
    """Break ``text`` (IPAexGothic) at ``width_em`` and return the lines."""
    return plain_lines((("t", SANS, BLACK, text, 0.0),), width_em)


@pytest.mark.parametrize("mark", ["ー", "っ", "ッ", "ゃ", "ょ", "〜", "～", "」", "）", "。", "、"])
def test_no_start_marks_never_begin_a_line(mark: str) -> None:
    text = f"あいうえ{mark}かきくけこさしすせそ"
    for width in (4.0, 5.0, 6.0):
        for line in lines_of(text, width)[1:]:
            assert line[0] != mark, (width, line)


@pytest.mark.parametrize("text", ["取った2〜5の札を数える", "山から1〜3枚引いてよい"])
def test_ranges_never_split(text: str) -> None:
    start = text.index("〜") - 1
    rng = text[start:start + 3]
    laid_out = 0
    for width in (3.0, 3.5, 4.0, 4.5, 5.0, 6.0, 7.0):
        try:
            lines = lines_of(text, width)
        except TextTooLong:        # a box narrower than the range itself
            continue
        laid_out += 1
        assert len(lines) > 1, (width, lines)   # the text did break somewhere
        assert any(rng in line for line in lines), (width, lines)
    # most widths fit: a breaker that raised everywhere must not pass vacuously
    assert laid_out >= 5


def test_number_and_unit_never_split() -> None:
    text = "入植地 2枚4・3枚9・4枚14・5枚20。手札は3枚まで引く。"
    for width in (4.0, 5.0, 6.0, 7.0, 8.0, 9.0):
        lines = lines_of(text, width)
        for i in range(len(lines) - 1):
            a, b = lines[i], lines[i + 1]
            assert not (a[-1:] in kinsoku.DIGITS and b[:1] in kinsoku.UNITS), (width, lines)
            # a value pair "3枚9": no break between the unit and the number after it
            assert not (len(a) >= 2 and a[-2] in kinsoku.DIGITS and a[-1] in kinsoku.UNITS
                        and b[:1] in kinsoku.DIGITS), (width, lines)


def test_prefix_signs_stay_with_their_number() -> None:
    for width in (3.0, 4.0, 5.0):
        lines = lines_of("合計に＋1する。回復は＋10まで", width)
        for line in lines[:-1]:
            assert not line.endswith("＋"), lines


def test_a_last_line_of_one_or_two_characters_is_avoided() -> None:
    # greedy filling at 5 em leaves "さし" alone on the last line
    greedy = ["あいうえお", "かきくけこ", "さし"]
    lines = lines_of("あいうえおかきくけこさし", 5.0)
    assert lines != greedy
    assert len(lines) == 3 and len(lines[-1]) > SHORT_LAST_LINE
    assert "".join(lines) == "あいうえおかきくけこさし"


def test_short_last_line_kept_when_nothing_can_move() -> None:
    # one long unbreakable Latin word on the first line: nothing to pull down
    lines = plain_lines((("t", fonts.family_fonts("latin"), BLACK, "abcdefghij ab", 0.0),), 6.0)
    assert lines == ["abcdefghij", "ab"]


def test_paragraphs_are_balanced_separately() -> None:
    pieces = (("t", SANS, BLACK, "あいうえおかきくけこさし", 0.0), ("b",),
              ("t", SANS, BLACK, "たちつてとなに", 0.0))
    lines = plain_lines(pieces, 5.0)
    assert lines[-1] == "なに" or len(lines[-1]) > SHORT_LAST_LINE
    assert "".join(lines) == "あいうえおかきくけこさしたちつてとなに"


def test_random_text_keeps_every_rule() -> None:
    rng = random.Random(20261122)
    alphabet = list("あいうかきくさ漢字山川枚人点") + list("0123") + list("。、」）ーっゃ〜「（＋")
    checked = 0
    for _ in range(300):
        text = "".join(rng.choice(alphabet) for _ in range(rng.randint(5, 40)))
        try:
            lines = lines_of(text, rng.choice([4.0, 5.0, 6.5, 9.0]))
        except TextTooLong:        # an unbreakable run wider than the box
            continue
        checked += 1
        assert "".join(lines) == text
        for a, b in zip(lines, lines[1:]):
            assert b[0] not in kinsoku.NO_START and a[-1] not in kinsoku.NO_END, lines
            assert not (a[-1] in kinsoku.DIGITS and b[0] in kinsoku.UNITS), lines
    # only an unbreakable run wider than the box is left out, and that is rare
    assert checked >= 250, checked


def test_break_points_for_plain_strings_match_the_card_rules() -> None:
    text = "手札は3枚まで。1〜3の札「ボス」"
    points = kinsoku.break_points(text)
    assert len(points) == len(text) and points[0] is False
    assert points[text.index("枚")] is False         # 3|枚
    assert points[text.index("〜")] is False         # 1|〜
    assert points[text.index("〜") + 1] is False     # 〜|3
    assert points[text.index("。")] is False         # no line starts with 。
    assert points[text.index("ボ")] is False         # 「 never ends a line
    assert points[text.index("ま")] is True


@pytest.mark.parametrize("pair", ["……", "‥‥", "——", "――"])
def test_a_doubled_dash_or_ellipsis_is_never_split(pair: str) -> None:
    """Two-em dashes and doubled ellipses stay on one line (分離禁止)."""
    text = f"あいう{pair}えお"
    points = kinsoku.break_points(text)
    assert points[text.index(pair) + 1] is False        # …|… never breaks
    assert points[text.index(pair)] is True             # but before the pair may
    for width in (3.0, 4.0, 4.5):
        for a, b in zip(lines := lines_of(text, width), lines[1:]):
            assert not (a[-1] == pair[0] and b[0] == pair[1]), (width, lines)


def test_letter_spacing_widens_the_run_and_stays_in_its_text_box(card) -> None:
    plain = card('<text x="0" y="0" width="60" height="10" font="latin" size="8pt">ABC</text>')
    spaced = card('<text x="0" y="0" width="60" height="10" font="latin" size="8pt" '
                  'letter-spacing="0.25em">ABC</text>')
    (r0,), (r1,) = plain.nodes[0].runs, spaced.nodes[0].runs
    assert r0.spacing == 0 and r1.spacing == pytest.approx(2.0)   # 0.25 em of 8 pt
    # a centred, tracked line is centred on its letters, not on the trailing space
    centred = card('<text x="0" y="0" width="60" height="10" font="latin" size="8pt" '
                   'align="center" letter-spacing="0.25em">ABC</text>')
    run = centred.nodes[0].runs[0]
    ink = sum(fonts.char_width(run.font, ord(c)) for c in "ABC") * 8 + 2 * run.spacing
    mm = 72 / 25.4
    assert run.x == pytest.approx((60 * mm - ink) / 2, abs=0.01)


def test_letter_spacing_is_reset_after_each_text_object(card) -> None:
    """Tc is graphics state: a tracked caption must not spread the next text."""
    import io

    from reportlab.pdfgen.canvas import Canvas

    from pnp.render.draw import draw_layout

    lay = card('<text x="0" y="0" width="60" height="10" letter-spacing="0.3em">A</text>'
               '<text x="0" y="20" width="60" height="10">B</text>')
    buf = io.BytesIO()
    c = Canvas(buf, pageCompression=0, **fonts.canvas_kwargs())
    draw_layout(c, lay)
    c.save()
    content = buf.getvalue()
    assert content.count(b" Tc") >= 2 and b"0 Tc" in content


def test_bad_letter_spacing_is_one_clear_error(card) -> None:
    from pnp.errors import PnpError

    with pytest.raises(PnpError, match="bad letter-spacing 'wide'"):
        card('<text x="0" y="0" width="60" height="10" letter-spacing="wide">A</text>')


def test_fit_text_with_tracking_needs_more_room() -> None:
    text = "ABCDEFGHIJ"
    latin = fonts.family_fonts("latin")
    width = sum(fonts.char_width(latin[0], ord(c)) for c in text) * 10 + 5   # points
    tight = fit_text((("t", latin, BLACK, text, 0.0),), width, 20, 10, 10, 1.2, "left", "top", 1)
    assert tight.lines == 1
    with pytest.raises(TextTooLong):
        fit_text((("t", latin, BLACK, text, 0.5),), width, 20, 10, 10, 1.2, "left", "top", 1)


def test_a_formula_sign_stays_with_the_term_before_it() -> None:
    """'n＋c' never breaks before its sign; after Japanese text (土地＋1) it may."""
    from pnp.render.kinsoku import break_points

    text = "値はnからn＋cまで"
    points = break_points(text)
    assert not points[text.index("＋")]               # no line starts with '＋c'
    assert not points[text.index("＋") + 1]           # nor with 'c' (＋ is a sign)
    assert not break_points("2＝2のとき")[1]
    assert not break_points("2＝2のとき")[2]            # nor after it
    text = "出目が1なら土地＋1"
    assert break_points(text)[text.index("＋")]       # the number's own sign
