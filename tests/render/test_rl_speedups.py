"""pnp's faster stand-ins for ReportLab internals give exactly ReportLab's bytes."""

from __future__ import annotations

import zlib

import pytest
from reportlab.pdfbase import pdfdoc
from reportlab.pdfbase.ttfonts import TTFontFace

from pnp.render import fonts, rlspeed
from pnp.render.memo import BoundedMemo
from pnp.render.rlspeed import pdfdoc_encode


def _reportlab_encode(x: object) -> object:
    """ReportLab's own ``pdfdocEnc`` (pdfdoc.py), whatever is installed now."""
    return x.encode("extpdfdoc") if isinstance(x, str) else x


@pytest.mark.parametrize("text", [
    "", "q 1 0 0 1 10.5 20 cm /pnpL_ab12 Do Q\n", "".join(chr(i) for i in range(32, 127)),
    "\t\r\n(\\) <> [] {} /#%", "(\\001\\002) Tj", "Café € • – “quoted”", "ÿ", "\x7f",
])
def test_encoder_gives_reportlabs_bytes(text: str) -> None:
    """ASCII (the fast path) and PDFDocEncoding text beyond it: the same bytes."""
    assert pdfdoc_encode(text) == _reportlab_encode(text)


@pytest.mark.parametrize("text", ["\x18", "ab\x1fcd", "日本", "x\x19"])
def test_encoder_refuses_what_reportlab_refuses(text: str) -> None:
    """U+0018–U+001F have no PDFDocEncoding byte: ASCII though they are, they raise."""
    with pytest.raises(UnicodeEncodeError):
        _reportlab_encode(text)
    with pytest.raises(UnicodeEncodeError):
        pdfdoc_encode(text)


def test_encoder_passes_bytes_through() -> None:
    """Bytes (already encoded content) come back as they are."""
    data = b"\x00\xff stream"
    assert pdfdoc_encode(data) is data


def test_install_gives_pdfdoc_the_encoder() -> None:
    """After install every pdfdoc object is formatted through pnp's encoder."""
    rlspeed.install()
    assert pdfdoc.pdfdocEnc is pdfdoc_encode
    assert pdfdoc.format(pdfdoc.PDFName("Name"), None) == b"/Name"   # type: ignore[arg-type]


def test_glyph_table_is_read_once_and_subsets_are_reportlabs(monkeypatch: pytest.MonkeyPatch
                                                             ) -> None:
    """The glyf table is one shared copy; a subset is byte for byte ReportLab's own."""
    monkeypatch.setattr(fonts, "_subset_store", None)      # no subset cache: made here
    path = fonts.ipaex_path()
    face = fonts._cached_face(path)
    plain = TTFontFace(str(path))
    glyf = face.get_table("glyf")
    assert glyf == plain.get_table("glyf")
    assert face.get_table("glyf") is glyf
    assert face.get_table("head") == plain.get_table("head")
    subset = [ord(c) for c in "カードを1枚引く。山札ABC★"]
    assert face.makeSubset(subset) == plain.makeSubset(subset)


def test_names_are_reportlabs_and_remembered() -> None:
    """PDFName's escaping (spaces, delimiters, non-ASCII) is ReportLab's, made once per name."""
    calls: list[str] = []

    def original(data: str) -> str:
        calls.append(data)
        return pdfdoc.PDFName.__wrapped__(data)  # type: ignore[attr-defined]

    rlspeed.install()
    name = rlspeed.memoised_name(original)
    for data in ("Type", "Font Name", "A#(b)/c", "Café", "Type"):
        assert name(data) == pdfdoc.PDFName.__wrapped__(data)  # type: ignore[attr-defined]
    assert name("Font Name") == "/Font#20Name"
    assert calls == ["Type", "Font Name", "A#(b)/c", "Café"]
    assert pdfdoc.PDFName("Font Name") == "/Font#20Name"


def test_a_glyph_set_is_subset_once_per_process(monkeypatch: pytest.MonkeyPatch) -> None:
    """The same font and characters again (another PDF file): ReportLab's bytes, made once."""
    monkeypatch.setattr(fonts, "_subset_store", None)      # no disk cache: only the process
    memo = BoundedMemo(fonts.MADE_SUBSETS_LIMIT, fonts._made_subsets.size_of)
    monkeypatch.setattr(fonts, "_made_subsets", memo)
    made: list[int] = []
    real = TTFontFace.makeSubset

    def spy(self: TTFontFace, subset: list[int]) -> bytes:
        made.append(len(subset))
        return real(self, subset)

    monkeypatch.setattr(TTFontFace, "makeSubset", spy)
    face = fonts._cached_face(fonts.ipaex_path())
    latin = list(range(32, 127))
    first = face.makeSubset(latin)
    again = face.makeSubset(latin)
    other = face.makeSubset(latin[:-1])
    assert made == [95, 94]
    assert again == first == real(TTFontFace(str(fonts.ipaex_path())), latin)
    assert other != first
    assert face._packed[0] is other                        # what addSubsetObjects swaps in
    memo.limit = len(first) + len(zlib.compress(first))      # room for this one, not two
    face.makeSubset(list(range(40, 60)))
    assert len(fonts._made_subsets) == 1                   # forgotten all at once, then kept
