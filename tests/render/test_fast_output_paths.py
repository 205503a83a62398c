"""Short ways through template escaping and PDF formatting give exactly the long ways' results.

``fast_escape`` (pnp.render.jinja_env) stands in for markupsafe's ``escape``
in every compiled card template; ``quick_format`` (pnp.render.rlspeed) for
ReportLab's ``pdfdoc.format``. Both must return what the originals return,
value and type, for every input, and must really be in use.
"""

from __future__ import annotations

import math
from pathlib import Path

import pytest
from markupsafe import Markup, escape
from reportlab.pdfbase import pdfdoc

from pnp.render import rlspeed
from pnp.render.jinja_env import fast_escape, make_environment, render_template


class _Html:
    """An object that renders itself as markup (``__html__``)."""

    def __html__(self) -> str:
        return "<b>safe</b>"


class _Text(str):
    """A str subclass: not the short way's exact ``str``."""


class _Whole(int):
    """An int subclass whose text is not a plain number's."""

    def __str__(self) -> str:
        return "<whole>"


ESCAPE_CASES: list[object] = [
    "", "plain", "a & b < c > d", "\"quoted\" 'single'", "&amp; already", "日本語 ♠♥",
    "<card width=\"1\"/>", 0, -3, 10**30, 1.5, -0.25, 1e-05, math.inf, -math.inf,
    True, False, None, Markup("<i>kept</i>"), _Html(), _Text("<sub & class>"), _Whole(4),
    [1, "<2>"], ("a", "&"),
]


@pytest.mark.parametrize("value", ESCAPE_CASES, ids=lambda v: type(v).__name__ + ":" + str(v)[:12])
def test_fast_escape_is_markupsafes_escape(value: object) -> None:
    """The same text and the same type (Markup) as markupsafe's own escape."""
    ours, theirs = fast_escape(value), escape(value)
    assert type(ours) is type(theirs) is Markup
    assert str(ours) == str(theirs)


def test_fast_escape_nan() -> None:
    """A NaN float: the text markupsafe gives (compared as text, NaN != NaN)."""
    assert str(fast_escape(math.nan)) == str(escape(math.nan)) == "nan"


def test_compiled_templates_escape_with_fast_escape(tmp_path: Path) -> None:
    """Every template the environment loads calls fast_escape, and escapes as before."""
    (tmp_path / "t.xml.j2").write_text(
        "{% macro m(v) %}[{{ v }}]{% endmacro %}{{ a }}|{{ n }}|{{ m(a) }}|{{ s }}",
        encoding="utf-8")
    env = make_environment(tmp_path)
    template = env.get_template("t.xml.j2")
    assert template.root_render_func.__globals__["escape"] is fast_escape
    out = render_template(env, "t.xml.j2", {"a": "<&>", "n": 2.5, "s": Markup("<ok/>")},
                          where="test")
    assert out == "&lt;&amp;&gt;|2.5|[&lt;&amp;&gt;]|<ok/>"


FORMAT_CASES: list[object] = [
    "", "/Name", "(text) Tj", "Café", b"", b"\x00\xffbytes", 0, 1, -7, 12345678901,
    0.5, -0.000001, 595.2756, 1e-9, 3.0, True, False,
]


@pytest.mark.parametrize("element", FORMAT_CASES, ids=lambda v: type(v).__name__ + ":" + repr(v)[:12])
def test_quick_format_is_reportlabs_format(element: object) -> None:
    """Plain strings, bytes, numbers and bools: ReportLab's bytes, through pdfdoc's encoder."""
    rlspeed.install()
    original = pdfdoc.format.__wrapped__
    assert pdfdoc.format(element, None) == original(element, None)   # type: ignore[arg-type]


def test_quick_format_leaves_objects_to_reportlab() -> None:
    """PDF objects (arrays, dictionaries, streams by reference) are ReportLab's own work."""
    rlspeed.install()
    original = pdfdoc.format.__wrapped__
    doc = pdfdoc.PDFDocument(invariant=1)
    array = pdfdoc.PDFArray([1, 2.5, "/N", b"raw"])
    dictionary = pdfdoc.PDFDictionary({"Type": pdfdoc.PDFName("XObject"), "Size": [1, 0.25]})
    for element in (array, dictionary, pdfdoc.PDFString("hello (world)")):
        assert pdfdoc.format(element, doc) == original(element, doc)
    stream = pdfdoc.PDFStream(content=b"q Q", filters=[])
    assert stream.__RefOnly__    # inside another object: written as a reference
    assert pdfdoc.format(stream, doc) == original(stream, doc)


def test_install_wraps_format_once() -> None:
    """install() puts the quick format in pdfdoc, once (a second install keeps it)."""
    rlspeed.install()
    installed = pdfdoc.format
    assert getattr(installed, "__wrapped__", None) is not None
    assert installed.__name__ == "format" and installed.__module__ == rlspeed.__name__
    rlspeed.install()
    assert pdfdoc.format is installed


def test_text_atoms_measured_once_per_chain_and_character(monkeypatch: pytest.MonkeyPatch
                                                          ) -> None:
    """Each (font chain, character) is measured once; atoms keep each chain's own font and width."""
    from pnp.render import fonts, textlayout

    monkeypatch.setattr(textlayout, "_char_atom", {})
    measured: list[tuple[tuple[str, ...], str]] = []
    original = textlayout._measure_char

    def counting(chain: tuple[str, ...], ch: str) -> tuple[int, str, float]:
        measured.append((chain, ch))
        return original(chain, ch)

    monkeypatch.setattr(textlayout, "_measure_char", counting)
    black = (0.0, 0.0, 0.0)
    latin, display = fonts.FAMILIES["latin"], fonts.FAMILIES["display"]
    pieces = (("t", latin, black, "Aa A日", 0.1), ("t", display, black, "AA"))
    atoms = textlayout._atoms(pieces)
    assert sorted(set(measured)) == sorted(measured)          # nothing measured twice
    assert len(measured) == 5   # A, a, space and 日 in latin; A in display
    for atom, ch, chain, track in zip(atoms, "Aa A日AA", [latin] * 5 + [display] * 2,
                                      [0.1] * 5 + [0.0] * 2):
        font = next(f for f in chain + (fonts.FONT_JA,) if fonts.has_glyph(f, ord(ch)))
        assert (atom.ch, atom.font, atom.track) == (ch, font, track)
        assert atom.width == fonts.char_width(font, ord(ch)) + track
    assert atoms[0].font != atoms[5].font      # Vera's A, then VeraBold's
    assert [a.kind for a in atoms[:5]] == [textlayout._LATIN, textlayout._LATIN,
                                           textlayout._SPACE, textlayout._LATIN,
                                           textlayout._CJK]


POSITIONS = [(0.0, 0.0), (12.5, 30.25), (-3.1234567, 1e-8), (595.2756, 841.8898),
             (0.1, -0.000123456), (1234.56789, 7.0)]


def test_text_matrix_is_what_set_text_transform_writes() -> None:
    """Each run's Tm line and cursor are what ReportLab's setTextTransform gives them."""
    import io

    from reportlab.pdfgen.canvas import Canvas

    from pnp.render import draw, fonts
    from pnp.render.nodes import Text, TextRun

    fonts.ensure_font(fonts.FONT_LATIN)      # installs pnp's formatter too
    canvas = Canvas(io.BytesIO(), invariant=1)
    runs = tuple(TextRun(x, y, fonts.FONT_LATIN, 9.0, (0.0, 0.0, 0.0), "Ab")
                 for x, y in POSITIONS)
    drawn: list[object] = []
    canvas.drawText = drawn.append           # type: ignore[method-assign]
    draw._Drawer(canvas, None).text(Text(runs, (), 9.0, 1))
    (obj,) = drawn
    ours = [line for line in obj._code if line.endswith(" Tm")]
    reference = canvas.beginText()
    for x, y in POSITIONS:
        reference.setTextTransform(1, 0, 0, -1, x, y)
    # (both start with beginText's own "1 0 0 1 0 0 Tm")
    assert ours == [line for line in reference._code if line.endswith(" Tm")]
    assert len(ours) == len(POSITIONS) + 1
    assert (obj._x0, obj._x, obj._y0, obj._y) == (reference._x0, reference._x,
                                                  reference._y0, reference._y)


LONG = "q 1 0 0 1 10.5 20 cm /pnpL_ab12 Do Q\n" * 4    # past the length scanned char by char


@pytest.mark.parametrize("text", [LONG, LONG + "é", "(\\001) Tj " * 10])
def test_long_text_encodes_as_reportlab_does(text: str) -> None:
    """Long content, ASCII and beyond: ReportLab's bytes."""
    from pnp.render.rlspeed import pdfdoc_encode

    assert len(text) >= rlspeed._SCAN_AFTER
    assert pdfdoc_encode(text) == text.encode("extpdfdoc")


@pytest.mark.parametrize("code", range(0x18, 0x20))
@pytest.mark.parametrize("where", [0, 40, -1])
def test_long_text_refuses_what_reportlab_refuses(code: int, where: int) -> None:
    """U+0018–U+001F anywhere in a long ASCII string raise, as ReportLab's codec does."""
    from pnp.render.rlspeed import pdfdoc_encode

    chars = list(LONG)
    chars[where] = chr(code)
    text = "".join(chars)
    with pytest.raises(UnicodeEncodeError):
        text.encode("extpdfdoc")
    with pytest.raises(UnicodeEncodeError):
        pdfdoc_encode(text)
