"""`pnp preflight` on damaged or unusual PDFs: a failed check naming the fault, no traceback."""

from __future__ import annotations

from pathlib import Path
from typing import Callable

import pikepdf
import pytest
from click.testing import CliRunner
from PIL import Image

from pnp.cli import main
from pnp.printing.preflight import Report, preflight_files


def _base(tmp_path: Path) -> Path:
    """A one-page PDF with one image (Pillow's writer: no TrimBox, no fonts)."""
    path = tmp_path / "base.pdf"
    Image.new("RGB", (300, 300), "red").save(path)
    return path


def _edit(tmp_path: Path, name: str, change: Callable[[pikepdf.Pdf], None]) -> Path:
    """A copy of the base PDF changed by ``change``."""
    out = tmp_path / f"{name}.pdf"
    with pikepdf.open(_base(tmp_path)) as pdf:
        change(pdf)
        pdf.save(out)
    return out


def _set(key: str, value: object) -> Callable[[pikepdf.Pdf], None]:
    """Set ``key`` of the first page to ``value``."""
    def change(pdf: pikepdf.Pdf) -> None:
        pdf.pages[0].obj[key] = value
    return change


def _resource(group: str, value: object) -> Callable[[pikepdf.Pdf], None]:
    """Add an entry ``/X1 = value`` to the first page's resource ``group``."""
    def change(pdf: pikepdf.Pdf) -> None:
        res = pdf.pages[0].obj["/Resources"]
        res[group] = pikepdf.Dictionary({"/X1": value})
    return change


def _check(report: Report, name: str) -> str:
    """The detail of the failed check ``name``."""
    found = [c for c in report.checks if c.name == name and not c.ok]
    assert found, report.checks
    return found[0].detail


def test_no_pages(tmp_path: Path) -> None:
    path = tmp_path / "empty.pdf"
    pikepdf.new().save(path)
    (report,) = preflight_files([path])
    assert _check(report, "pages") == "no pages"


def test_encrypted(tmp_path: Path) -> None:
    path = tmp_path / "locked.pdf"
    with pikepdf.open(_base(tmp_path)) as pdf:
        pdf.save(path, encryption=pikepdf.Encryption(owner="o", user="u", R=4))
    (report,) = preflight_files([path])
    assert _check(report, "open").startswith("encrypted (needs a password)")


@pytest.mark.parametrize("value", [5, pikepdf.Array([0, 0, "x", 1]), pikepdf.Array([0, 0, 1])])
def test_a_box_that_is_not_four_numbers(tmp_path: Path, value: object) -> None:
    path = _edit(tmp_path, "box", _set("/TrimBox", value))
    (report,) = preflight_files([path])
    assert _check(report, "boxes") == "page 1: TrimBox is not four numbers"


def test_a_font_entry_that_is_not_a_font(tmp_path: Path) -> None:
    path = _edit(tmp_path, "font", _resource("/Font", 5))
    (report,) = preflight_files([path])
    assert _check(report, "fonts") == "not embedded: X1 (not a font dictionary)"


@pytest.mark.parametrize("group", ["/XObject", "/Shading"])
def test_a_resource_entry_of_the_wrong_kind_is_passed_over(tmp_path: Path, group: str) -> None:
    path = _edit(tmp_path, "res", _resource(group, 7))
    (report,) = preflight_files([path])
    assert {c.name for c in report.checks} >= {"fonts", "boxes", "colour"}


def test_the_cli_says_fail_and_exits_1(tmp_path: Path) -> None:
    path = tmp_path / "empty.pdf"
    pikepdf.new().save(path)
    result = CliRunner().invoke(main, ["preflight", str(path)])
    assert result.exit_code == 1
    assert result.exception is None or isinstance(result.exception, SystemExit)
    assert "ERR  pages: no pages" in result.stdout
    assert "do not match" not in result.stdout
