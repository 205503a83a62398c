"""`pnp build` / `pnp preview` end to end on the shipped Fortuna and 9 Peak data."""

from __future__ import annotations

import math
import re
import shutil
import zlib
from pathlib import Path

import pypdfium2 as pdfium
import pytest
from click.testing import CliRunner
from PIL import Image, ImageStat

from pnp import PROJECT_ROOT
from pnp.cli import main
from golden_compare import BLOCK_TOLERANCE, worst_block  # tests/golden_compare.py

DATA = PROJECT_ROOT / "card_data"
TEMPLATES = PROJECT_ROOT / "templates"
GOLDEN = PROJECT_ROOT / "tests" / "golden"
#: Resolution of the golden sheets: 72 dpi, where the block comparison
#: (tests/golden_compare.py) catches a changed digit or a card moved 0.5 mm.
GOLDEN_DPI = 72
#: Physical cards per deck file: (slug, component) -> count.
DECKS = {("fortuna", "reel"): 78, ("nine_peak", "hats"): 78, ("nine_peak", "numbers"): 7,
         ("nine_peak", "peaks"): 6}


def run(*args: str) -> tuple[int, str]:
    """Run the CLI in-process; return (exit code, output)."""
    result = CliRunner().invoke(main, list(args))
    return result.exit_code, result.output


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """Build both games once on A4 and on Letter."""
    outs = {}
    for paper in ("a4", "letter"):
        out = tmp_path_factory.mktemp(paper)
        code, text = run("build", "fortuna", "nine_peak", "--paper", paper, "--out",
                         str(out), "-q", "--data-dir", str(DATA), "--templates-dir",
                         str(TEMPLATES))
        assert code == 0, text
        outs[paper] = out
    return outs


def pdf_fonts(path: Path) -> tuple[int, int]:
    """(font descriptors, embedded TrueType programs); ReportLab writes no object streams."""
    data = path.read_bytes()
    return data.count(b"/Type /FontDescriptor"), data.count(b"/FontFile2")


def drawn_forms(path: Path) -> set[bytes]:
    """Names of the form XObjects drawn (``/Name Do``) in any content stream."""
    names: set[bytes] = set()
    for match in re.finditer(rb"stream\r?\n(.*?)endstream", path.read_bytes(), re.S):
        try:
            content = zlib.decompress(match.group(1))
        except zlib.error:
            continue
        names.update(re.findall(rb"/(\S+) Do", content))
    return names


@pytest.mark.parametrize("paper", ["a4", "letter"])
@pytest.mark.parametrize("deck", sorted(DECKS))
def test_page_count_is_sheets_of_fronts_and_backs(built: dict[str, Path], paper: str,
                                                  deck: tuple[str, str]) -> None:
    slug, component = deck
    path = built[paper] / slug / f"{component}-{paper}.pdf"
    pdf = pdfium.PdfDocument(path)
    assert len(pdf) == 2 * math.ceil(DECKS[deck] / 9)  # 9 poker cards per sheet


@pytest.mark.parametrize("paper, size", [("a4", (595.28, 841.89)), ("letter", (612, 792))])
def test_page_boxes(built: dict[str, Path], paper: str, size: tuple[float, float]) -> None:
    page = pdfium.PdfDocument(built[paper] / "fortuna" / f"reel-{paper}.pdf")[0]
    box = page.get_mediabox()
    assert box[2] == pytest.approx(size[0], abs=0.01)
    assert box[3] == pytest.approx(size[1], abs=0.01)
    assert page.get_trimbox() == box


def test_every_font_is_embedded(built: dict[str, Path]) -> None:
    for path in sorted(built["a4"].rglob("*.pdf")):
        descriptors, programs = pdf_fonts(path)
        assert descriptors >= 1, path
        assert programs == descriptors, f"{path}: a font is not embedded"
        assert b"/Helvetica" not in path.read_bytes(), path


def test_shared_back_is_one_form(built: dict[str, Path]) -> None:
    forms = drawn_forms(built["a4"] / "fortuna" / "reel-a4.pdf")
    # 30 distinct faces + 1 shared back are card forms; 162 placements reuse them.
    card_forms = {name for name in forms if name.startswith(b"FormXob.pnpL_")}
    assert len(card_forms) == 31
    # The five colour icons are forms too, each defined once.
    assert len({name for name in forms if name.startswith(b"FormXob.pnpI_")}) >= 5


def test_two_builds_are_byte_identical(built: dict[str, Path], tmp_path: Path) -> None:
    code, text = run("build", "fortuna", "--paper", "a4", "--out", str(tmp_path), "-q",
                     "--data-dir", str(DATA), "--templates-dir", str(TEMPLATES))
    assert code == 0, text
    assert ((tmp_path / "fortuna" / "reel-a4.pdf").read_bytes()
            == (built["a4"] / "fortuna" / "reel-a4.pdf").read_bytes())


def test_back_lands_behind_front_in_duplex(built: dict[str, Path]) -> None:
    """A card's art colour on the front page is at the mirrored spot of the back page."""
    pdf = pdfium.PdfDocument(built["a4"] / "nine_peak" / "peaks-a4.pdf")
    front = pdf[0].render(scale=1).to_pil().convert("L")
    back = pdf[1].render(scale=1).to_pil().convert("L")
    # 6 peak cards fill the first two rows: on the front the third row is blank;
    # on the mirrored back page the blank third row must be the same row.
    w, h = front.size
    row3 = (int(w * 0.2), int(h * 0.72), int(w * 0.8), int(h * 0.9))
    row1 = (int(w * 0.2), int(h * 0.1), int(w * 0.8), int(h * 0.3))
    assert ImageStat.Stat(front.crop(row3)).mean[0] > 250
    assert ImageStat.Stat(back.crop(row3)).mean[0] > 250
    assert ImageStat.Stat(back.crop(row1)).mean[0] < 240


def test_gutterfold_and_print_service(tmp_path: Path) -> None:
    code, text = run("build", "nine_peak", "--layout", "gutterfold", "--print-service",
                     "--out", str(tmp_path), "-q", "--data-dir", str(DATA))
    assert code == 0, text
    fold = pdfium.PdfDocument(tmp_path / "nine_peak" / "peaks-a4-gutterfold.pdf")
    assert len(fold) >= 1
    # --print-service is the shorthand for --preset drivethru.
    service = pdfium.PdfDocument(tmp_path / "nine_peak" / "drivethru" / "peaks.pdf")
    assert len(service) == 12  # back, front for each of 6 cards
    page = service[0]
    trim = page.get_trimbox()
    # The 63 × 88 mm design scaled to the service's 2.5 × 3.5 in trim, 1/8 in bleed.
    assert trim[2] - trim[0] == pytest.approx(180, abs=0.01)
    assert page.get_mediabox()[2] == pytest.approx(198, abs=0.01)


def test_golden_first_sheet(built: dict[str, Path], bless: bool) -> None:
    """The first fronts page of each game must not drift (re-bless with --bless)."""
    for slug, name in (("fortuna", "reel"), ("nine_peak", "hats")):
        page = pdfium.PdfDocument(built["a4"] / slug / f"{name}-a4.pdf")[0]
        image = page.render(scale=GOLDEN_DPI / 72).to_pil().convert("RGB")
        golden = GOLDEN / f"{slug}-{name}-a4-page1.png"
        if bless or not golden.exists():
            if not bless:
                pytest.fail(f"missing golden {golden.name}: run pytest --bless once")
            golden.parent.mkdir(exist_ok=True)
            image.save(golden)
            continue
        expected = Image.open(golden).convert("RGB")
        assert expected.size == image.size
        worst = worst_block(expected, image)
        assert worst <= BLOCK_TOLERANCE, f"{slug} page 1 drifted: a block differs by {worst:.0f}"


def test_preview_writes_pngs(tmp_path: Path) -> None:
    code, text = run("preview", "fortuna", "reel", "reel-1-goddess", "--out",
                     str(tmp_path), "--dpi", "72", "--data-dir", str(DATA))
    assert code == 0, text
    face = Image.open(tmp_path / "reel-1-goddess-face.png")
    # 63 × 88 mm plus 3 mm bleed each side at 72 dpi.
    width, height = face.size
    assert abs(width - 69 / 25.4 * 72) <= 1 and abs(height - 94 / 25.4 * 72) <= 1
    assert (tmp_path / "reel-1-goddess-back.png").exists()


def test_preview_unknown_card(tmp_path: Path) -> None:
    code, text = run("preview", "fortuna", "reel", "reel-9-bolt", "--out", str(tmp_path),
                     "--data-dir", str(DATA))
    assert code == 1
    assert "fortuna/reel has no card 'reel-9-bolt'" in text


@pytest.fixture()
def templates(tmp_path: Path) -> Path:
    """A private copy of the templates to break."""
    target = tmp_path / "templates"
    shutil.copytree(TEMPLATES, target)
    return target


def build_with(templates: Path, tmp_path: Path) -> tuple[int, str, Path]:
    out = tmp_path / "out"
    code, text = run("build", "fortuna", "--out", str(out), "-q", "--data-dir", str(DATA),
                     "--templates-dir", str(templates))
    return code, text, out


def test_template_syntax_error_names_file_and_line(templates: Path, tmp_path: Path) -> None:
    path = templates / "fortuna" / "reel_face.xml.j2"
    lines = path.read_text(encoding="utf-8").splitlines()
    lines.append("{% if %}")
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    code, text, out = build_with(templates, tmp_path)
    assert code == 1
    assert f"reel_face.xml.j2:{len(lines)}:" in text
    assert "Traceback" not in text
    assert not list(out.rglob("*.pdf"))


def test_undefined_variable_names_file_and_line(templates: Path, tmp_path: Path) -> None:
    path = templates / "fortuna" / "reel_face.xml.j2"
    text_before = path.read_text(encoding="utf-8")
    path.write_text(text_before.replace("{{ card.icon }}", "{{ card.icn }}", 1),
                    encoding="utf-8")
    line = next(i for i, l in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
                if "card.icn" in l)
    code, text, _ = build_with(templates, tmp_path)
    assert code == 1
    assert f"reel_face.xml.j2:{line}:" in text and "icn" in text


def test_unknown_icon(templates: Path, tmp_path: Path) -> None:
    (templates / "fortuna" / "icons" / "helmet.svg").unlink()
    code, text, _ = build_with(templates, tmp_path)
    assert code == 1
    assert "helmet" in text and "icon" in text
    assert "Traceback" not in text


def test_text_that_does_not_fit(tmp_path: Path) -> None:
    data = tmp_path / "card_data"
    shutil.copytree(DATA, data)
    templates = tmp_path / "templates"
    shutil.copytree(TEMPLATES, templates)
    (templates / "tiny").mkdir()
    (templates / "tiny" / "face.xml.j2").write_text(
        '<card width="{{ width }}" height="{{ height }}" bleed="3mm">'
        '<text id="name" x="5" y="5" width="10" height="5" size="9pt" min-size="8pt">'
        "{{ card.icon }}{{ card.icon }}{{ card.icon }}{{ card.icon }}</text></card>",
        encoding="utf-8")
    manifest = data / "fortuna" / "manifest.toml"
    manifest.write_text(manifest.read_text(encoding="utf-8").replace(
        'face = "fortuna/reel_face.xml.j2"', 'face = "tiny/face.xml.j2"'), encoding="utf-8")
    code, text = run("build", "fortuna", "--out", str(tmp_path / "out"), "-q",
                     "--data-dir", str(data), "--templates-dir", str(templates))
    assert code == 1
    assert "fortuna/reel reel-1-bolt" in text and "name" in text
    assert not list((tmp_path / "out").rglob("*.pdf"))


def test_unwritable_output_folder(tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("not a folder")
    code, text = run("build", "fortuna", "--out", str(blocker / "sub"), "-q",
                     "--data-dir", str(DATA))
    assert code == 1
    assert "cannot create output folder" in text


def test_bad_data_stops_the_build(tmp_path: Path) -> None:
    data = tmp_path / "card_data"
    shutil.copytree(DATA, data)
    csv = data / "fortuna" / "reel.csv"
    csv.write_text(csv.read_text(encoding="utf-8").replace(",稲妻,", ",雷,", 1),
                   encoding="utf-8")
    code, text = run("build", "fortuna", "--out", str(tmp_path / "out"), "-q",
                     "--data-dir", str(data))
    assert code == 1
    assert "unknown value '雷'" in text


def test_rulebook_command_md_and_pdf(tmp_path: Path) -> None:
    code, text = run("rulebook", "fortuna", "--format", "md", "--out", str(tmp_path),
                     "--data-dir", str(DATA))
    assert code == 0, text
    markdown = (tmp_path / "fortuna" / "rulebook.md").read_text(encoding="utf-8")
    assert "F8" in markdown and "{{" not in markdown
    code, text = run("rulebook", "nine_peak", "--paper", "a4", "--out", str(tmp_path),
                     "--data-dir", str(DATA))
    assert code == 0, text
    assert len(pdfium.PdfDocument(tmp_path / "nine_peak" / "rulebook-a4.pdf")) >= 2


def test_build_exports_rulebooks_unless_told_not_to(tmp_path: Path) -> None:
    code, text = run("build", "fortuna", "--out", str(tmp_path), "-q", "--data-dir", str(DATA))
    assert code == 0, text
    assert (tmp_path / "fortuna" / "rulebook-a5.pdf").exists()
    code, text = run("build", "fortuna", "--no-rulebook", "--out", str(tmp_path / "n"), "-q",
                     "--data-dir", str(DATA))
    assert code == 0, text
    assert not (tmp_path / "n" / "fortuna" / "rulebook-a5.pdf").exists()


def test_deck_with_no_cards_is_skipped_not_crashed(tmp_path: Path) -> None:
    data = tmp_path / "card_data"
    shutil.copytree(DATA, data)
    peaks = data / "nine_peak" / "peaks.csv"
    lines = peaks.read_text(encoding="utf-8").splitlines()
    peaks.write_text("\n".join([lines[0]] + [l[: l.rfind(",")] + ",0" for l in lines[1:]])
                     + "\n", encoding="utf-8")
    manifest = data / "nine_peak" / "manifest.toml"
    text = manifest.read_text(encoding="utf-8")
    text = text.replace("count = 6\n", "count = 0\n", 1)
    text = text.replace('[[components.peaks.rules]]\ngroup_by = ["number"]\ncount = 1\n', "")
    manifest.write_text(text, encoding="utf-8")
    code, out = run("build", "nine_peak", "--no-rulebook", "--out", str(tmp_path / "o"), "-q",
                    "--data-dir", str(data))
    assert code == 0, out
    assert "skipped nine_peak/peaks: no cards" in out
    assert not (tmp_path / "o" / "nine_peak" / "peaks-a4.pdf").exists()
    assert (tmp_path / "o" / "nine_peak" / "hats-a4.pdf").exists()
