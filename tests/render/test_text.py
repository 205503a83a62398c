"""Line breaking (kinsoku, Latin words), shrink-to-fit, inline icons, fallback."""

from __future__ import annotations

import random

import pytest

from pnp.errors import PnpError
from pnp.render import fonts
from pnp.render.nodes import Text
from pnp.render.textlayout import NO_END, NO_START, TextTooLong, fit_text, plain_lines

fonts.register_fonts()
SANS = fonts.family_fonts("sans")
BLACK = (0.0, 0.0, 0.0)


def lines_of(text: str, width_em: float, chain: tuple[str, ...] = SANS) -> list[str]:
    """Break ``text`` at ``width_em`` and return the lines."""
    return plain_lines((("t", chain, BLACK, text),), width_em)


def test_full_stop_never_starts_a_line() -> None:
    # 5 kana fill a 5 em line exactly, so a naive break puts 。 first on line 2
    lines = lines_of("あいうえお。かきくけこ", 5.0)
    assert lines[0] == "あいうえ"
    assert lines[1].startswith("お。")
    assert "".join(lines) == "あいうえお。かきくけこ"


def test_prolonged_sound_mark_and_small_kana_never_start_a_line() -> None:
    for text in ("あいうえカードゲーム", "あいうえおっと", "あいうえお」です"):
        for width in (3.0, 4.0, 5.0, 6.0):
            for line in lines_of(text, width)[1:]:
                assert line[0] not in NO_START, (text, width, line)


def test_opening_bracket_never_ends_a_line() -> None:
    lines = lines_of("あいうえ「かきくけこ」", 5.0)
    assert lines[0] == "あいうえ"
    assert lines[1].startswith("「か")


def test_random_japanese_respects_kinsoku() -> None:
    rng = random.Random(20240601)
    alphabet = list("あいうかきくさしすたちつ漢字山川") + list("。、」）ーっゃ！？「（")
    for _ in range(300):
        text = "".join(rng.choice(alphabet) for _ in range(rng.randint(5, 40)))
        width = rng.choice([4.0, 5.0, 6.5, 9.0])
        try:
            lines = lines_of(text, width)
        except TextTooLong:
            continue       # an unbreakable run (e.g. many closing marks) wider than the box
        assert "".join(lines) == text
        for i, line in enumerate(lines):
            if i > 0:
                assert line[0] not in NO_START, (text, lines)
            if i < len(lines) - 1:
                assert line[-1] not in NO_END, (text, lines)


def test_latin_words_are_not_split() -> None:
    text = "Draw two cards, then discard one card of your choice at random."
    lines = lines_of(text, 8.0, fonts.family_fonts("latin"))
    assert len(lines) > 2
    words = set(text.split())
    for line in lines:
        assert line == line.strip()
        for word in line.split(" "):
            assert word in words, (word, lines)
    assert " ".join(lines) == text


def test_mixed_japanese_and_latin_breaks_between_them() -> None:
    lines = lines_of("カードをDrawする", 4.5)
    assert "Draw" in "".join(lines)
    assert all("Dr" not in line or "Draw" in line for line in lines)


def test_shrink_to_fit_picks_a_smaller_size(card) -> None:
    long = "長い効果テキストがここに入る。" * 6
    lay = card(f'<text id="rules" x="0" y="0" width="40" height="15" size="12pt" '
               f'min-size="5pt">{long}</text>'
               f'<text id="short" x="0" y="20" width="40" height="15" size="12pt" '
               f'min-size="5pt">短い</text>')
    rules, short = lay.nodes
    assert isinstance(rules, Text) and 5 <= rules.size < 12
    assert short.size == 12
    # every run of the shrunk box uses the chosen size and stays inside the box
    mm = 72 / 25.4
    assert all(r.size == rules.size for r in rules.runs)
    assert max(r.y for r in rules.runs) <= 15 * mm


def test_shrink_chooses_the_largest_size_that_fits() -> None:
    pieces = (("t", SANS, BLACK, "あ" * 30),)
    fit = fit_text(pieces, 100.0, 30.0, 20.0, 4.0, 1.0, "left", "top", None)
    # at size s: 100/s chars per line, 30/s lines -> capacity floor(100/s)*floor(30/s)
    cap = lambda s: int(100 / s + 1e-9) * int(30 / s + 1e-9)
    assert cap(fit.size) >= 30
    assert cap(fit.size + 0.25) < 30


def test_text_that_does_not_fit_names_card_and_box(card) -> None:
    long = "とても長いテキスト。" * 40
    with pytest.raises(PnpError) as err:
        card(f'<text id="rules" x="2" y="3" width="30" height="8" size="9pt" '
             f'min-size="7pt">{long}</text>', where="fortuna/reel reel-3-bolt")
    msg = str(err.value)
    assert msg.startswith("fortuna/reel reel-3-bolt")
    assert "text box 'rules' does not fit" in msg and "7pt" in msg
    with pytest.raises(PnpError, match=r"text box at x=2 y=3 does not fit"):
        card(f'<text x="2" y="3" width="30" height="8">{long}</text>')


def test_max_lines_forces_one_line_titles(card) -> None:
    lay = card('<text x="0" y="0" width="30" height="20" size="20pt" min-size="4pt" '
               'max-lines="1" font="display">Wheel of Fortune</text>')
    assert lay.nodes[0].lines == 1 and lay.nodes[0].size < 20


def test_inline_icons_from_tokens_and_elements(card) -> None:
    lay = card('<text x="0" y="0" width="50" height="20" size="10pt">'
               '{{ card.text }} <icon name="star"/></text>',
               {"card": {"text": "稲妻{icon:bolt}を得る。"}})
    t = lay.nodes[0]
    assert [u.icon.name for u in t.icons] == ["bolt", "star"]
    # inline icons are 1 em (10 pt) tall
    bolt = t.icons[0]
    assert bolt.matrix[0] * bolt.icon.viewbox[3] == pytest.approx(10.0)
    assert "".join(r.text for r in t.runs) == "稲妻を得る。 "  # space before <icon> kept


def test_unknown_inline_icon_names_card(card) -> None:
    with pytest.raises(PnpError, match=r"test/card c-1.*unknown icon 'nope'"):
        card('<text x="0" y="0" width="50" height="20">{{ t }}</text>', {"t": "a{icon:nope}"})


def test_latin_font_falls_back_to_japanese_per_character(card) -> None:
    lay = card('<text x="0" y="0" width="60" height="20" font="display">WILD 女神 card</text>')
    runs = lay.nodes[0].runs
    assert [(r.font, r.text) for r in runs] == [
        (fonts.FONT_DISPLAY, "WILD "), (fonts.FONT_JA, "女神"), (fonts.FONT_DISPLAY, " card")]


def test_data_with_markup_characters_is_escaped(card) -> None:
    lay = card('<text x="0" y="0" width="60" height="20">{{ name }}</text>',
               {"name": "Salt & <Pepper>"})
    assert "".join(r.text for r in lay.nodes[0].runs) == "Salt & <Pepper>"


def test_whitespace_collapses_and_br_breaks(card) -> None:
    lay = card('<text x="0" y="0" width="60" height="30">\n   one\n   two  <br/>  three\n</text>')
    t = lay.nodes[0]
    assert t.lines == 2
    assert [r.text for r in t.runs] == ["one two", "three"]


def test_alignment_right_and_center(card) -> None:
    mm = 72 / 25.4
    lay = card('<text x="0" y="0" width="50" height="10" align="right" font="latin">ab</text>'
               '<text x="0" y="10" width="50" height="10" align="center" font="latin">ab</text>')
    right, center = lay.nodes
    w = right.runs[0].size * (fonts.char_width(fonts.FONT_LATIN, ord("a"))
                              + fonts.char_width(fonts.FONT_LATIN, ord("b")))
    assert right.runs[0].x == pytest.approx(50 * mm - w)
    assert center.runs[0].x == pytest.approx((50 * mm - w) / 2)


def test_character_missing_from_every_font_is_an_error(card) -> None:
    with pytest.raises(PnpError, match=r"U\+1F600"):
        card('<text x="0" y="0" width="60" height="20">smile \U0001F600</text>')
