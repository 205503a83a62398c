"""`pnp build` option handling: presets vs shorthands, --back-offset, --profiles, errors."""

from __future__ import annotations

from pathlib import Path

import pypdfium2 as pdfium
import pytest
from click.testing import CliRunner
from PIL import Image

from pnp import PROJECT_ROOT
from pnp.cli import main

DATA = PROJECT_ROOT / "card_data"


def run(*args: str) -> tuple[int, str]:
    """Run the CLI in-process; return (exit code, all output)."""
    result = CliRunner().invoke(main, list(args))
    return result.exit_code, result.output


def one_line_error(text: str) -> str:
    """Return the single error line of a failed run (and check there is no traceback)."""
    assert "Traceback" not in text
    lines = [l for l in text.splitlines() if l.startswith("error:")]
    assert len(lines) == 1, text
    return lines[0]


@pytest.mark.parametrize("offset", [("nan", "0"), ("0", "inf"), ("12", "0")])
def test_back_offset_must_be_finite_and_small(tmp_path: Path, offset: tuple[str, str]) -> None:
    code, text = run("build", "nine_peak", "--no-rulebook", "-q", "--out", str(tmp_path),
                     "--data-dir", str(DATA), "--back-offset", *offset)
    assert code == 1
    assert "--back-offset" in one_line_error(text)
    assert not list(tmp_path.rglob("*.pdf"))


def test_back_offset_that_pushes_backs_into_the_margin_is_refused(tmp_path: Path) -> None:
    """Letter poker has 2.7 mm bands top and bottom: a 3 mm DY moves a trim into the margin."""
    code, text = run("build", "nine_peak", "--paper", "letter", "--no-rulebook", "-q",
                     "--out", str(tmp_path), "--data-dir", str(DATA), "--back-offset", "0", "3")
    assert code == 1
    line = one_line_error(text)
    assert "printer margin" in line and "allows DX from" in line
    assert not list(tmp_path.rglob("*.pdf"))


def test_back_offset_clips_bleed_and_says_so(tmp_path: Path) -> None:
    code, text = run("build", "nine_peak", "--no-rulebook", "-q", "--out", str(tmp_path),
                     "--data-dir", str(DATA), "--back-offset", "1.5", "0")
    assert code == 0, text
    assert "--back-offset clips up to" in text
    back = pdfium.PdfDocument(tmp_path / "nine_peak" / "peaks-a4.pdf")[1]
    image = back.render(scale=1.0).to_pil().convert("L")
    m = round(5 * 72 / 25.4) - 1
    w, h = image.size
    for box in ((0, 0, w, m), (0, h - m, w, h), (0, 0, m, h), (w - m, 0, w, h)):
        assert image.crop(box).getextrema() == (255, 255)  # still nothing in the margin


def test_back_offset_with_only_gutterfold_is_an_error(tmp_path: Path) -> None:
    code, text = run("build", "nine_peak", "--preset", "gutterfold-a4", "--no-rulebook", "-q",
                     "--out", str(tmp_path), "--data-dir", str(DATA), "--back-offset", "1", "0")
    assert code == 1
    assert "gutter-fold" in one_line_error(text)


def test_unknown_preset_and_mixed_shorthand(tmp_path: Path) -> None:
    code, text = run("build", "--preset", "kinkos", "--out", str(tmp_path),
                     "--data-dir", str(DATA))
    assert code == 1
    line = one_line_error(text)
    assert "unknown preset 'kinkos'" in line and "tgc" in line and "home-a4" in line
    code, text = run("build", "--preset", "tgc", "--paper", "letter", "--out", str(tmp_path),
                     "--data-dir", str(DATA))
    assert code == 1
    assert "--paper is a shorthand" in one_line_error(text)


def test_shorthands_pick_their_presets(tmp_path: Path) -> None:
    code, text = run("build", "nine_peak", "--paper", "letter", "--layout", "gutterfold",
                     "--no-rulebook", "-q", "--out", str(tmp_path), "--data-dir", str(DATA))
    assert code == 0, text
    assert "for gutterfold-letter" in text
    assert (tmp_path / "nine_peak" / "peaks-letter-gutterfold.pdf").exists()


def test_a_new_service_is_one_table_row(tmp_path: Path) -> None:
    """A user's profiles file adds a print service; build and preflight both use it."""
    rows = tmp_path / "shops.toml"
    rows.write_text('''
[profiles.corner-shop]
summary = "A local print shop: 150 dpi PNGs, 2 mm bleed"
output = "card-png"
dpi = 150
bleed = "2mm"
kinds = ["card"]
products = [ { name = "poker", trim = "63mm x 88mm" } ]
''', encoding="utf-8")
    out = tmp_path / "out"
    code, text = run("build", "nine_peak", "--profiles", str(rows), "--preset", "corner-shop",
                     "--no-rulebook", "-q", "--out", str(out), "--data-dir", str(DATA))
    assert code == 0, text
    png = out / "nine_peak" / "corner-shop" / "numbers" / "number-1.png"
    pngs = sorted((out / "nine_peak" / "corner-shop" / "numbers").glob("*.png"))
    assert len(pngs) == 8  # 7 faces + the shared back
    with Image.open(pngs[0]) as im:
        # (63 + 4) x (88 + 4) mm at 150 dpi
        assert im.size == (round(67 / 25.4 * 150), round(92 / 25.4 * 150))
    code, text = run("preflight", "--profiles", str(rows), str(pngs[0].parent))
    assert code == 0, text
    assert "corner-shop" in text
    assert png.parent.is_dir()


@pytest.mark.parametrize("body, words", [
    ("[profiles.x]\noutput = 'laser'\n", "output: expected one of"),
    ("[profiles.x]\noutput = 'card-png'\nproducts = []\n", "products"),
    ("[profiles.x]\noutput = 'sheets'\npaper = 'a4'\nfile = 'x.pdf'\n", "file"),
    ("[profiles.x]\noutput = 'tts'\ncolour = 'cmyk'\n", "colour"),
    ("[profiles.x\n", "TOML syntax error"),
])
def test_bad_profiles_file_is_one_line(tmp_path: Path, body: str, words: str) -> None:
    rows = tmp_path / "bad.toml"
    rows.write_text(body, encoding="utf-8")
    code, text = run("build", "--profiles", str(rows), "--list-presets")
    assert code == 1
    line = one_line_error(text)
    assert words in line and "bad.toml" in line


def test_preview_writes_the_exact_service_image(tmp_path: Path) -> None:
    code, text = run("preview", "nine_peak", "peaks", "peak-1", "--preset", "tgc", "--out",
                     str(tmp_path), "--data-dir", str(DATA))
    assert code == 0, text
    with Image.open(tmp_path / "peak-1-face-tgc.png") as im:
        assert im.size == (825, 1125) and round(im.info["dpi"][0]) == 300
    assert (tmp_path / "peak-1-back-tgc.png").exists()
    code, text = run("preview", "nine_peak", "peaks", "peak-1", "--preset", "tts", "--out",
                     str(tmp_path), "--data-dir", str(DATA))
    assert code == 1 and "card-png" in one_line_error(text)


def test_a_template_error_in_a_later_game_writes_nothing(tmp_path: Path) -> None:
    """Every card is rendered before the first file is written."""
    import shutil

    templates = tmp_path / "templates"
    shutil.copytree(PROJECT_ROOT / "templates", templates)
    face = templates / "undecim" / "summary_face.xml.j2"
    face.write_text(face.read_text(encoding="utf-8") + "{% if %}\n", encoding="utf-8")
    out = tmp_path / "out"
    code, text = run("build", "fortuna", "undecim", "--preset", "tgc", "--preset", "home-a4",
                     "--no-rulebook", "-q", "--out", str(out), "--data-dir", str(DATA),
                     "--templates-dir", str(templates))
    assert code == 1
    assert "summary_face.xml.j2" in one_line_error(text)
    assert not out.exists() or not [p for p in out.rglob("*") if p.is_file()]


def test_tts_url_must_be_a_web_address(tmp_path: Path) -> None:
    code, text = run("build", "nine_peak", "--preset", "tts", "--tts-url", "C:\\images",
                     "--out", str(tmp_path), "--data-dir", str(DATA))
    assert code == 1 and "--tts-url" in one_line_error(text)
    assert not list(tmp_path.iterdir())
