"""Rulebook paper: a booklet prints on the paper asked for, and Letter builds get half-letter books.

A new-user review found `pnp rulebook --imposition booklet --paper letter`
writing 11 x 17 in sheets (and `--paper a4` A3 ones), `--format html`
ignoring `--imposition` without a word, and `pnp build --paper letter`
writing A5 books. Page and sheet sizes come from the one ``[papers]`` table.
"""

from __future__ import annotations

from pathlib import Path

import pikepdf
import pytest
from click.testing import CliRunner

from pnp.cli import main
from pnp.printing.papers import PAPER_SIZES, book_paper
from pnp.printing.profiles import builtin_profiles
from pnp.rulebook.booklet import sheet_size
from pnp.rulebook.pdf import PAPERS
from pnp.units import mm

INCH = 72.0


def boxes(path: Path) -> set[tuple[float, float]]:
    """Every page's MediaBox size (points, to 0.01), as ``pdfinfo -box`` reads it."""
    with pikepdf.open(path) as pdf:
        return {(round(float(p.mediabox[2]) - float(p.mediabox[0]), 2),
                 round(float(p.mediabox[3]) - float(p.mediabox[1]), 2)) for p in pdf.pages}


def test_booklet_page_is_half_the_sheet_asked_for() -> None:
    """a4/a5 -> A5 pages, letter/half-letter -> half-letter; without a booklet, unchanged."""
    assert [book_paper(p, "booklet") for p in ("a4", "A5", "letter", "half-letter")] == \
        ["a5", "a5", "half-letter", "half-letter"]
    assert [book_paper(p) for p in ("a4", "letter")] == ["a4", "letter"]
    # the sheets two pages go on: the papers they are half of, landscape
    assert sheet_size(PAPERS["a5"].size) == pytest.approx((mm(297), mm(210)))
    assert sheet_size(PAPERS["half-letter"].size) == pytest.approx((11 * INCH, 8.5 * INCH))
    # one table: the rulebook's page sizes are the [papers] rows
    for key, spec in PAPERS.items():
        assert spec.size == PAPER_SIZES[key]
    assert PAPER_SIZES["half-letter"] == pytest.approx((5.5 * INCH, 8.5 * INCH))


def test_build_rulebook_paper_follows_the_sheets() -> None:
    """Letter sheets -> half-letter books, A4 -> A5, no home sheet -> A5."""
    table = builtin_profiles()
    pick = table.rulebook_paper
    assert pick([table.get("home-letter")]) == "half-letter"
    assert pick([table.get("gutterfold-letter")]) == "half-letter"
    assert pick([table.get("home-a4-bleed")]) == "a5"
    assert pick([table.get("tts"), table.get("tgc")]) == "a5"
    assert pick([table.get("tts"), table.get("home-letter"), table.get("home-a4")]) \
        == "half-letter"


@pytest.mark.parametrize("paper, name, sheet", [
    ("letter", "rulebook-en-half-letter-booklet.pdf", (792.0, 612.0)),
    ("a4", "rulebook-en-a5-booklet.pdf", (841.89, 595.28))])
def test_booklet_sheets_are_the_paper_asked_for(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                paper: str, name: str,
                                                sheet: tuple[float, float]) -> None:
    """`--imposition booklet --paper letter` writes Letter sheets (was 11 x 17 in)."""
    monkeypatch.setenv("PNP_CACHE_DIR", str(tmp_path / "cache"))
    result = CliRunner().invoke(main, ["rulebook", "fortuna", "--lang", "en", "--imposition",
                                       "booklet", "--paper", paper, "--out",
                                       str(tmp_path / "out"), "-j", "1"])
    assert result.exit_code == 0, result.output
    written = sorted(p.name for p in (tmp_path / "out" / "fortuna").iterdir())
    assert written == [name]
    assert boxes(tmp_path / "out" / "fortuna" / name) == {sheet}


def test_booklet_without_a_pdf_is_one_line(tmp_path: Path) -> None:
    """`--imposition booklet --format html` is refused in one line; nothing is written."""
    result = CliRunner().invoke(main, ["rulebook", "fortuna", "--imposition", "booklet",
                                       "--format", "html", "--out", str(tmp_path / "out")])
    assert result.exit_code == 1
    lines = result.output.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: --imposition booklet")
    assert "--format pdf" in lines[0]
    assert not (tmp_path / "out").exists()
    # with a PDF among the formats the booklet has pages to impose
    ok = CliRunner().invoke(main, ["rulebook", "fortuna", "--imposition", "booklet",
                                   "--format", "md", "--format", "pdf", "--lang", "en",
                                   "--paper", "letter", "--out", str(tmp_path / "both"),
                                   "-j", "1"])
    assert ok.exit_code == 0, ok.output
    assert (tmp_path / "both" / "fortuna" / "rulebook-en-half-letter-booklet.pdf").is_file()


def test_letter_build_writes_half_letter_rulebooks(tmp_path: Path,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    """`pnp build --paper letter` writes 5.5 x 8.5 in books beside its Letter sheets."""
    monkeypatch.setenv("PNP_CACHE_DIR", str(tmp_path / "cache"))
    result = CliRunner().invoke(main, ["build", "fortuna", "--paper", "letter", "--out",
                                       str(tmp_path / "out"), "-q", "-j", "1"])
    assert result.exit_code == 0, result.output
    folder = tmp_path / "out" / "fortuna"
    books = sorted(p.name for p in folder.glob("rulebook*"))
    assert books == ["rulebook-en-half-letter.pdf", "rulebook-half-letter.pdf"]
    assert boxes(folder / books[0]) == {(396.0, 612.0)}
