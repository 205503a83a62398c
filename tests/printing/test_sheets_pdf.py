"""PDF-level tests of the sheet writers: pages, boxes, determinism, atomic output, modes."""

from __future__ import annotations

import os
import stat
from pathlib import Path
from typing import Any

import pypdfium2
import pytest
import reportlab
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont
from reportlab.pdfgen.canvas import Canvas

from pnp.errors import PnpError
from pnp.printing.sheets import SheetItem, write_sheets
from pnp.units import mm

POKER = (mm(63), mm(88))
FONT = "PnpTestVera"
A4_PT = (mm(210), mm(297))


@pytest.fixture(scope="module")
def kwargs() -> dict[str, Any]:
    """Canvas options naming ReportLab's bundled Vera (embedded), registered once."""
    if FONT not in pdfmetrics.getRegisteredFontNames():
        path = Path(reportlab.__file__).parent / "fonts" / "Vera.ttf"
        pdfmetrics.registerFont(TTFont(FONT, str(path)))
    return {"initialFontName": FONT}


def fill_place(bleed: float = mm(3)):  # type: ignore[no-untyped-def]
    """Return a place callback that fills trim + full bleed with the face's RGB colour."""
    def place(c: Canvas, face: Any, x: float, y: float) -> None:
        c.setFillColorRGB(*face)
        c.rect(x - bleed, y - bleed, POKER[0] + 2 * bleed, POKER[1] + 2 * bleed,
               stroke=0, fill=1)
    return place


def items(n: int) -> list[SheetItem]:
    """Return ``n`` items with red fronts and blue backs."""
    return [SheetItem((1, 0, 0), (0, 0, 1)) for _ in range(n)]


def test_78_cards_make_18_duplex_pages(tmp_path: Path, kwargs: dict[str, Any]) -> None:
    """78 poker cards on A4 duplex: 9 sheets, 18 pages, all of A4 size."""
    out = tmp_path / "deck.pdf"
    res = write_sheets(out, items(78), paper="A4", card_size=POKER, place=fill_place(),
                       canvas_kwargs=kwargs, label="Test deck")
    assert (res.sheets, res.pages) == (9, 18)
    pdf = pypdfium2.PdfDocument(out)
    assert len(pdf) == 18
    for i in (0, 17):
        assert pdf[i].get_mediabox() == pytest.approx((0, 0, *A4_PT), abs=0.01)
        assert pdf[i].get_trimbox() == pytest.approx((0, 0, *A4_PT), abs=0.01)


def test_seven_cards_one_sheet_and_gutterfold(tmp_path: Path, kwargs: dict[str, Any]) -> None:
    """7 cards make one duplex sheet (2 pages); 10 gutter-fold cards at 4 a page, 3 pages."""
    res = write_sheets(tmp_path / "a.pdf", items(7), card_size=POKER, place=fill_place(),
                       canvas_kwargs=kwargs)
    assert (res.sheets, res.pages) == (1, 2)
    assert len(pypdfium2.PdfDocument(tmp_path / "a.pdf")) == 2
    res = write_sheets(tmp_path / "g.pdf", items(10), layout="gutterfold", card_size=POKER,
                       place=fill_place(), canvas_kwargs=kwargs)
    assert (res.layout.per_sheet, res.pages) == (4, 3)
    page = pypdfium2.PdfDocument(tmp_path / "g.pdf")[0]
    w, h = page.get_mediabox()[2:]
    assert w > h  # gutter-fold poker goes landscape


def test_output_is_byte_identical(tmp_path: Path, kwargs: dict[str, Any]) -> None:
    """Two runs with the same input give the same bytes."""
    a, b = tmp_path / "a.pdf", tmp_path / "b.pdf"
    for path in (a, b):
        write_sheets(path, items(12), card_size=POKER, place=fill_place(),
                     canvas_kwargs=kwargs, label="Same", title="same")
    assert a.read_bytes() == b.read_bytes()


def test_back_offset_moves_back_pages_only(tmp_path: Path, kwargs: dict[str, Any]) -> None:
    """back_offset (dx, dy) moves everything on the back page by (+dx, +dy) points."""
    def fill_bounds(path: Path, page: int) -> tuple[float, float, float, float]:
        objs = list(pypdfium2.PdfDocument(path)[page].get_objects())
        fills = [o.get_bounds() for o in objs
                 if o.type == pypdfium2.raw.FPDF_PAGEOBJ_PATH]
        return max(fills, key=lambda b: (b[2] - b[0]) * (b[3] - b[1]))

    plain, moved = tmp_path / "plain.pdf", tmp_path / "moved.pdf"
    dx, dy = mm(1.5), mm(-0.8)
    for path, offset in ((plain, (0.0, 0.0)), (moved, (dx, dy))):
        write_sheets(path, items(1), card_size=POKER, place=fill_place(),
                     canvas_kwargs=kwargs, back_offset=offset)
    front0, front1 = fill_bounds(plain, 0), fill_bounds(moved, 0)
    assert front0 == pytest.approx(front1, abs=1e-3)
    back0, back1 = fill_bounds(plain, 1), fill_bounds(moved, 1)
    assert back1[0] - back0[0] == pytest.approx(dx, abs=1e-3)
    assert back1[2] - back0[2] == pytest.approx(dx, abs=1e-3)
    assert back1[1] - back0[1] == pytest.approx(dy, abs=1e-3)
    assert back1[3] - back0[3] == pytest.approx(dy, abs=1e-3)


def test_failed_place_leaves_nothing(tmp_path: Path, kwargs: dict[str, Any]) -> None:
    """If drawing fails, neither the PDF nor a temp file is left; an old PDF survives."""
    def boom(c: Canvas, face: Any, x: float, y: float) -> None:
        raise RuntimeError("art failed")

    with pytest.raises(RuntimeError):
        write_sheets(tmp_path / "deck.pdf", items(3), card_size=POKER, place=boom,
                     canvas_kwargs=kwargs)
    assert list(tmp_path.iterdir()) == []
    old = tmp_path / "deck.pdf"
    old.write_bytes(b"old")
    with pytest.raises(RuntimeError):
        write_sheets(old, items(1), card_size=POKER, place=boom, canvas_kwargs=kwargs)
    assert [p.name for p in tmp_path.iterdir()] == ["deck.pdf"]
    assert old.read_bytes() == b"old"


@pytest.mark.parametrize("where", ["missing/deck.pdf", "file.txt/deck.pdf", "folder"])
def test_unwritable_target_is_a_pnp_error(tmp_path: Path, kwargs: dict[str, Any],
                                          where: str) -> None:
    """A missing folder, a file used as a folder, or a folder as the target: PnpError."""
    (tmp_path / "file.txt").write_text("x")
    (tmp_path / "folder").mkdir()
    before = sorted(p.name for p in tmp_path.iterdir())
    with pytest.raises(PnpError) as info:
        write_sheets(tmp_path / where, items(1), card_size=POKER, place=fill_place(),
                     canvas_kwargs=kwargs)
    assert "\n" not in str(info.value)
    assert sorted(p.name for p in tmp_path.iterdir()) == before


def test_empty_deck_is_a_pnp_error(tmp_path: Path) -> None:
    """No items: PnpError, no file."""
    with pytest.raises(PnpError):
        write_sheets(tmp_path / "x.pdf", [], card_size=POKER, place=fill_place())
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("mask,mode", [(0o022, 0o644), (0o027, 0o640), (0o002, 0o664)])
def test_file_mode_follows_umask(tmp_path: Path, kwargs: dict[str, Any], mask: int,
                                 mode: int) -> None:
    """Written PDFs get 0666 less the umask, like any normally created file."""
    old = os.umask(mask)
    try:
        write_sheets(tmp_path / "s.pdf", items(1), card_size=POKER, place=fill_place(),
                     canvas_kwargs=kwargs)
        write_sheets(tmp_path / "c.pdf", items(1), card_size=POKER, layout="gutterfold",
                     place=fill_place(), canvas_kwargs=kwargs)
        (tmp_path / "plain.txt").write_text("x")  # what the OS itself does
    finally:
        os.umask(old)
    for name in ("s.pdf", "c.pdf", "plain.txt"):
        assert stat.S_IMODE((tmp_path / name).stat().st_mode) == mode, name


def _pixel(page: pypdfium2.PdfPage, x: float, y: float, scale: float = 2.0) -> tuple[int, ...]:
    """Return the RGB colour at PDF point (x, y) of ``page`` rendered at ``scale``."""
    image = page.render(scale=scale).to_pil().convert("RGB")
    h = page.get_mediabox()[3]
    return image.getpixel((round(x * scale), round((h - y) * scale)))


RED, GREEN, BLUE, YELLOW = (1, 0, 0), (0, 1, 0), (0, 0, 1), (1, 1, 0)
WHITE_PX, RED_PX, GREEN_PX = (255, 255, 255), (255, 0, 0), (0, 255, 0)
BLUE_PX, YELLOW_PX = (0, 0, 255), (255, 255, 0)


def test_rendered_backs_land_behind_fronts_and_art_is_clipped(
        tmp_path: Path, kwargs: dict[str, Any]) -> None:
    """Rendered A4 duplex: back i sits at the x-mirror of front i; art stops at the allowed bleed."""
    out = tmp_path / "two.pdf"
    res = write_sheets(out, [SheetItem(RED, BLUE), SheetItem(GREEN, YELLOW)], paper="A4",
                       card_size=POKER, place=fill_place(), canvas_kwargs=kwargs)
    lay = res.layout
    pdf = pypdfium2.PdfDocument(out)
    front, back = pdf[0], pdf[1]
    t0, t1 = lay.fronts[0].trim, lay.fronts[1].trim
    cy = t0.y + t0.h / 2
    width = lay.paper.width
    assert _pixel(front, t0.x + t0.w / 2, cy) == RED_PX
    assert _pixel(front, t1.x + t1.w / 2, cy) == GREEN_PX
    # Back of card 0 is behind card 0: at the mirrored x, not at the front's x.
    assert _pixel(back, width - (t0.x + t0.w / 2), cy) == BLUE_PX
    assert _pixel(back, width - (t1.x + t1.w / 2), cy) == YELLOW_PX
    assert _pixel(back, t0.x + t0.w / 2, cy) == WHITE_PX  # slot of the missing 3rd card
    # Between card 0 and 1 (a 2.47 mm gutter): card 0's full-bleed art stops
    # at its allowed bleed; just inside card 1 it is green.
    assert _pixel(front, t1.x + mm(0.5), cy) == GREEN_PX
    assert _pixel(front, t0.x1 + mm(0.5), cy) == RED_PX
    # Outer edge: the art runs to the bleed the layout allows (1.23 mm on A4:
    # the balanced column gutters), and 1 mm beyond it the paper is blank.
    left = lay.fronts[0].bleed.left
    assert left == pytest.approx(mm(1.2335), abs=mm(0.01))
    assert _pixel(front, t0.x - left / 2, cy) == RED_PX
    assert _pixel(front, t0.x - left - mm(1), cy) == WHITE_PX
    # Nothing at all inside the 5 mm printer margin of either page.
    for page in (front, back):
        image = page.render(scale=1.0).to_pil().convert("L")
        m = round(mm(5)) - 1
        w, h = image.size
        for box in ((0, 0, w, m), (0, h - m, w, h), (0, 0, m, h), (w - m, 0, w, h)):
            assert image.crop(box).getextrema() == (255, 255)


def test_rendered_gutterfold_back_below_its_front(tmp_path: Path, kwargs: dict[str, Any]) -> None:
    """Gutter-fold: card 0's back is drawn straight below its front, across the fold."""
    out = tmp_path / "gf.pdf"
    res = write_sheets(out, [SheetItem(RED, BLUE), SheetItem(GREEN, YELLOW)],
                       layout="gutterfold", card_size=POKER, place=fill_place(),
                       canvas_kwargs=kwargs)
    page = pypdfium2.PdfDocument(out)[0]
    for slot, colour in ((res.layout.fronts[0], RED_PX), (res.layout.backs[0], BLUE_PX),
                         (res.layout.fronts[1], GREEN_PX), (res.layout.backs[1], YELLOW_PX)):
        t = slot.trim
        assert _pixel(page, t.x + t.w / 2, t.y + t.h / 2) == colour
    assert res.layout.backs[0].trim.x == pytest.approx(res.layout.fronts[0].trim.x)
    assert res.layout.backs[0].trim.y1 < res.layout.paper.height / 2 < res.layout.fronts[0].trim.y


def test_no_unembedded_base14_font(tmp_path: Path, kwargs: dict[str, Any]) -> None:
    """With initialFontName given and a label drawn, the only font is the embedded TTF."""
    out = tmp_path / "f.pdf"
    write_sheets(out, items(9), card_size=POKER, place=fill_place(), canvas_kwargs=kwargs,
                 label="Deck")
    data = out.read_bytes()
    assert b"/Helvetica" not in data
    assert b"/FontFile2" in data  # the label font is embedded
