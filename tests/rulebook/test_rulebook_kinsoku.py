"""Rulebook paragraphs and picture labels break Japanese with the cards' shared line breaker."""

from __future__ import annotations

from typing import Any

from reportlab.platypus import Paragraph

from pnp.render.fonts import FONT_JA, register_fonts
from pnp.rulebook.pdf import PAPERS, THEMES, JaParagraph, _Styles
from pnp.rulebook.pictures import wrap_text

from breaks import faults as _faults
from breaks import line_text as _text

#: A rulebook-like paragraph full of places ReportLab's own wrap gets wrong:
#: ー and small kana after a full line, 1〜3 ranges, 3枚 / 9VP pairs, closing marks.
TEXT = ("手札から3枚を選び、1〜3のどれかの値のセットにします。ゲームーの終わりに"
        "ボーナスとして9VPを得ます（ちょっとだけ）。残りは2枚ずつ、ディールの"
        "最後にチェックします。")



def _body() -> Any:
    register_fonts()
    return _Styles(PAPERS["a5"].body, THEMES["ja"]).body


def _lines(cls: type[Paragraph], markup: str, width: float) -> list[str]:
    return [_text(line) for line in cls(markup, _body()).breakLinesCJK([width]).lines]


def test_narrow_paragraph_keeps_the_shared_rules_where_reportlab_does_not() -> None:
    plain_faults = 0
    short_last = 0
    for width in range(60, 200, 2):
        lines = _lines(JaParagraph, TEXT, width)
        assert "".join(lines) == TEXT, width            # nothing lost, nothing added
        assert not _faults(lines), (width, _faults(lines))
        assert not any("3|枚" in f or "1〜|3" in f for f in _faults(lines))
        plain = _lines(Paragraph, TEXT, width)
        plain_faults += len(_faults(plain))
        short_last += len(plain[-1]) <= 2 and len(lines[-1]) > 2
    # The paragraph really is a bad case for ReportLab's own wrap: it starts
    # lines with ー or 〜 and splits 3枚 / 1〜3, and leaves 1–2 character last lines.
    assert plain_faults > 10
    assert short_last > 0


def test_three_mai_and_a_range_never_split_at_any_width() -> None:
    text = "山札から3枚引き、値は1〜3です。" * 3
    for width in range(40, 140):
        lines = _lines(JaParagraph, text, width)
        for a, b in zip(lines, lines[1:]):
            assert not (a.endswith("3") and b.startswith("枚")), (width, lines)
            assert not (a.endswith("1〜") or a.endswith("1") and b.startswith("〜")), (
                width, lines)


def test_no_short_last_line_when_another_break_exists() -> None:
    text = "次の人が手番を行い、全員が一度ずつ手番を終えたら次のラウンドに進みます。"
    seen = plain_short = 0
    for width in range(50, 250, 3):
        lines = _lines(JaParagraph, text, width)
        if len(lines) > 1:
            seen += 1
            assert len(lines[-1]) > 2, (width, lines)
        plain = _lines(Paragraph, text, width)
        plain_short += len(plain) > 1 and len(plain[-1]) <= 2
    assert seen > 10
    assert plain_short > 0          # ReportLab alone leaves "す。" on a line of its own


def test_styled_runs_breaks_and_anchors_map_back_to_the_right_characters() -> None:
    """Colour spans, <br/> and an anchor: every character once, in order, lines within width."""
    markup = ('<a name="x"/>手札を<font color="#1f5c73">3枚</font>選ぶ。<br/>'
              'ゲームー<font color="#1f5c73">（例）</font>では1〜3の値。<br/><br/>'
              'Latin words and 9VP stay whole.')
    plain = ("手札を3枚選ぶ。ゲームー（例）では1〜3の値。"
             "Latin words and 9VP stay whole.")
    for width in range(45, 220, 5):
        para = JaParagraph(markup, _body())
        result = para.breakLinesCJK([width])
        lines = [_text(line) for line in result.lines]
        assert "".join(lines).replace(" ", "") == plain.replace(" ", ""), (width, lines)
        assert not _faults(lines), (width, lines)
        for line in result.lines:
            assert line.currentWidth <= width + 1e-6, (width, _text(line))
            assert not _text(line).endswith(" ")
        # Each <br/> ends a line: the empty line between the two breaks is kept.
        assert "" in lines
        assert any(line.startswith("ゲーム") for line in lines)


def test_picture_labels_follow_the_same_rules() -> None:
    register_fonts()
    for width in range(20, 90, 2):
        lines = wrap_text("早見表カード（英語）・スコアマーカー3枚・1〜3", FONT_JA, 7.0, width)
        assert "".join(lines) == "早見表カード（英語）・スコアマーカー3枚・1〜3"
        assert not _faults(lines), (width, lines)
