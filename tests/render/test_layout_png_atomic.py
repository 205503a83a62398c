"""``layout_to_png`` writes through the atomic writer: a complete PNG or nothing at all."""

from __future__ import annotations

from pathlib import Path
from typing import Any, Callable

import pytest
from PIL import Image

from pnp.errors import PnpError
from pnp.render.layout import Layout
from pnp.render.preview import layout_to_png, rasterise

BODY = '<rect x="10" y="10" width="20" height="10" fill="#ff0000"/>'


def test_a_png_is_written_and_nothing_else(card: Callable[..., Layout], tmp_path: Path) -> None:
    out = tmp_path / "out"
    out.mkdir()
    layout_to_png(card(BODY), out / "c.png", dpi=36, show_bleed=False)
    assert [p.name for p in out.iterdir()] == ["c.png"]
    with Image.open(out / "c.png") as image:
        assert image.format == "PNG" and image.size == (90, 125)    # 63 x 88 mm at 36 dpi


def test_a_failed_write_leaves_the_old_file_and_no_temp(
        card: Callable[..., Layout], tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "out").mkdir()
    target = tmp_path / "out" / "c.png"
    target.write_bytes(b"the previous preview")

    def broken_save(self: Image.Image, fp: Any, *args: Any, **kwargs: Any) -> None:
        Path(fp).write_bytes(b"\x89PNG half")      # a write cut short
        raise OSError(28, "No space left on device", str(fp))

    monkeypatch.setattr(Image.Image, "save", broken_save)
    with pytest.raises(PnpError, match="cannot write .*c.png: No space left on device"):
        layout_to_png(card(BODY), target, dpi=36)
    assert target.read_bytes() == b"the previous preview"
    assert [p.name for p in target.parent.iterdir()] == ["c.png"]


def test_a_missing_folder_is_one_clear_error(card: Callable[..., Layout], tmp_path: Path) -> None:
    with pytest.raises(PnpError, match="c.png: the folder does not exist"):
        layout_to_png(card(BODY), tmp_path / "nowhere" / "c.png", dpi=36)
    assert not (tmp_path / "nowhere").exists()


def test_rasterise_refuses_bytes_that_are_not_a_pdf() -> None:
    with pytest.raises(PnpError, match="PDFium could not read the rendered page"):
        rasterise(b"not a PDF", 1.0)
