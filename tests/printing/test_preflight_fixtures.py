"""`pnp preflight` on hand-made bad (and good) files: each failure is caught and named."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import reportlab
from click.testing import CliRunner
from PIL import Image
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont
from reportlab.pdfgen.canvas import Canvas

from pnp.cli import main
from pnp.printing.preflight import preflight_files
from pnp.units import mm

A4 = (mm(210), mm(297))
FONT = "PnpPreflightVera"


def vera() -> str:
    """Register ReportLab's bundled Vera (an embeddable TTF) once."""
    if FONT not in pdfmetrics.getRegisteredFontNames():
        pdfmetrics.registerFont(TTFont(FONT, str(Path(reportlab.__file__).parent / "fonts"
                                                 / "Vera.ttf")))
    return FONT


def sheet(path: Path, *, font: str | None, boxes: bool = True, ink_at: float = 20.0,
          text: str = "Deck") -> Path:
    """Write a one-page A4 'home sheet': a grey square ``ink_at`` mm from the corner."""
    kwargs = {"initialFontName": font} if font else {}
    c = Canvas(str(path), pagesize=A4, invariant=1, **kwargs)
    if boxes:
        c.setTrimBox((0, 0, *A4))
        c.setBleedBox((0, 0, *A4))
    c.setFillColorRGB(0.5, 0.5, 0.5)
    c.rect(mm(ink_at), mm(ink_at), mm(50), mm(50), stroke=0, fill=1)
    c.setFont(font or "Helvetica", 10)
    c.drawString(mm(60), mm(150), text)
    c.showPage()
    c.save()
    return path


def checks(path: Path) -> dict[str, tuple[bool, str]]:
    """Return name -> (ok, detail) of the checks run on ``path``."""
    (report,) = preflight_files([path])
    return {c.name: (c.ok, c.detail) for c in report.checks}


def test_good_sheet_passes(tmp_path: Path) -> None:
    (report,) = preflight_files([sheet(tmp_path / "good.pdf", font=vera())])
    assert report.ok, report.checks
    assert report.profile == "home-a4"


def test_unembedded_font_fails(tmp_path: Path) -> None:
    """A canvas that draws in (and refers to) base-14 Helvetica is not print-ready."""
    path = sheet(tmp_path / "helvetica.pdf", font=None)
    ok, detail = checks(path)["fonts"]
    assert not ok and "Helvetica" in detail
    (report,) = preflight_files([path])
    assert not report.ok


def test_referenced_but_unused_font_fails(tmp_path: Path) -> None:
    """ReportLab's default page preamble names Helvetica even when no text is drawn."""
    c = Canvas(str(tmp_path / "silent.pdf"), pagesize=A4, invariant=1)
    c.setTrimBox((0, 0, *A4))
    c.setBleedBox((0, 0, *A4))
    c.rect(mm(20), mm(20), mm(10), mm(10), fill=1)
    c.showPage()
    c.save()
    assert not checks(tmp_path / "silent.pdf")["fonts"][0]


def test_missing_trimbox_and_ink_in_margin_fail(tmp_path: Path) -> None:
    assert not checks(sheet(tmp_path / "nobox.pdf", font=vera(), boxes=False))["boxes"][0]
    ok, detail = checks(sheet(tmp_path / "edge.pdf", font=vera(), ink_at=2.0))["margin"]
    assert not ok and "5 mm" in detail


def test_unknown_page_size_fails(tmp_path: Path) -> None:
    path = tmp_path / "odd.pdf"
    c = Canvas(str(path), pagesize=(mm(100), mm(100)), invariant=1, initialFontName=vera())
    c.setTrimBox((0, 0, mm(100), mm(100)))
    c.setBleedBox((0, 0, mm(100), mm(100)))
    c.showPage()
    c.save()
    ok, detail = checks(path)["size"]
    assert not ok and "100.0 x 100.0 mm" in detail


def test_low_resolution_image_fails(tmp_path: Path) -> None:
    """A 100 px image placed 50 mm wide is about 51 ppi."""
    img = tmp_path / "low.png"
    Image.new("RGB", (100, 100), (200, 30, 30)).save(img)
    path = tmp_path / "raster.pdf"
    c = Canvas(str(path), pagesize=A4, invariant=1, initialFontName=vera())
    c.setTrimBox((0, 0, *A4))
    c.setBleedBox((0, 0, *A4))
    c.drawImage(str(img), mm(40), mm(40), mm(50), mm(50))
    c.showPage()
    c.save()
    ok, detail = checks(path)["images"]
    assert not ok and "ppi" in detail


@pytest.mark.parametrize("size, ok", [((825, 1125), True), ((800, 1100), False),
                                      ((822, 1122), True)])
def test_png_size_must_match_a_profile(tmp_path: Path, size: tuple[int, int], ok: bool) -> None:
    path = tmp_path / "card.png"
    Image.new("RGB", size, (120, 40, 90)).save(path, dpi=(300, 300))
    (report,) = preflight_files([path])
    assert report.ok is ok
    if ok:
        assert report.profile in ("tgc", "mpc")


def test_cmyk_png_and_white_corners(tmp_path: Path) -> None:
    path = tmp_path / "cmyk.png"
    Image.new("RGB", (825, 1125), (255, 255, 255)).save(path, dpi=(300, 300))
    result = checks(path)
    assert not result["corners"][0]  # a warning: art may not reach the bleed
    jpg = tmp_path / "cmyk.jpg"
    Image.new("CMYK", (10, 10)).save(jpg)
    (report,) = preflight_files([jpg])
    assert not report.ok


def test_broken_tts_object_fails(tmp_path: Path) -> None:
    face = tmp_path / "faces.png"
    Image.new("RGB", (400, 200), (10, 10, 10)).save(face)
    deck = {"FaceURL": face.resolve().as_uri(), "BackURL": face.resolve().as_uri(),
            "NumWidth": 2, "NumHeight": 1, "BackIsHidden": True, "UniqueBack": False,
            "Type": 0}
    obj = {"Name": "DeckCustom", "DeckIDs": [100, 101, 105],
           "CustomDeck": {"1": deck},
           "ContainedObjects": [{"Name": "Card", "CardID": i, "CustomDeck": {"1": deck}}
                                for i in (100, 101, 105)]}
    path = tmp_path / "deck.json"
    path.write_text(json.dumps({"ObjectStates": [obj]}), encoding="utf-8")
    ok, detail = checks(path)["objects"]
    assert not ok and "cell 5" in detail
    obj["DeckIDs"] = [100, 101]
    obj["ContainedObjects"] = obj["ContainedObjects"][:2]  # type: ignore[index]
    path.write_text(json.dumps({"ObjectStates": [obj]}), encoding="utf-8")
    (report,) = preflight_files([path])
    assert report.ok, report.checks
    (image_report,) = preflight_files([face])  # the sheet is a TTS image of that object
    assert image_report.ok and image_report.profile == "tts"


def test_cli_exit_code_and_json(tmp_path: Path) -> None:
    bad = sheet(tmp_path / "bad.pdf", font=None)
    good = sheet(tmp_path / "good.pdf", font=vera())
    result = CliRunner().invoke(main, ["preflight", "--json", str(good), str(bad)])
    assert result.exit_code == 1
    data = json.loads(result.output)
    assert [d["ok"] for d in data] == [True, False]
    result = CliRunner().invoke(main, ["preflight", str(good)])
    assert result.exit_code == 0 and "PASS" in result.output
    result = CliRunner().invoke(main, ["preflight", str(tmp_path / "missing.pdf")])
    assert result.exit_code == 1 and "not found" in result.output


def _raster_sheet(path: Path, pixels: int, width_mm: float) -> Path:
    """A4 sheet with one square image ``pixels`` wide placed ``width_mm`` wide."""
    img = path.with_suffix(".png")
    Image.new("RGB", (pixels, pixels), (30, 90, 160)).save(img)
    c = Canvas(str(path), pagesize=A4, invariant=1, initialFontName=vera())
    c.setTrimBox((0, 0, *A4))
    c.setBleedBox((0, 0, *A4))
    c.drawImage(str(img), mm(40), mm(40), mm(width_mm), mm(width_mm))
    c.showPage()
    c.save()
    return path


@pytest.mark.parametrize("pixels, ok", [(591, True), (580, False)])
def test_image_resolution_at_the_300_ppi_floor(tmp_path: Path, pixels: int, ok: bool) -> None:
    """50 mm is 1.9685 in: 591 px there is 300.2 ppi (passes), 580 px 294.6 ppi (fails)."""
    passed, detail = checks(_raster_sheet(tmp_path / "r.pdf", pixels, 50))["images"]
    assert passed is ok, detail
    if not ok:
        assert detail == "1 image(s) under 300 ppi, e.g. page 1 at 295 ppi"


def test_bleedbox_inside_the_trimbox_fails(tmp_path: Path) -> None:
    """A BleedBox smaller than the TrimBox is not nested (Trim ⊂ Bleed ⊂ Media)."""
    path = tmp_path / "boxes.pdf"
    c = Canvas(str(path), pagesize=A4, invariant=1, initialFontName=vera())
    c.setTrimBox((mm(5), mm(5), A4[0] - mm(5), A4[1] - mm(5)))
    c.setBleedBox((mm(8), mm(8), A4[0] - mm(8), A4[1] - mm(8)))
    c.setFont(vera(), 10)
    c.drawString(mm(60), mm(150), "Deck")
    c.showPage()
    c.save()
    ok, detail = checks(path)["boxes"]
    assert not ok and "not nested" in detail
