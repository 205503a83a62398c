"""Card forms past a canvas's first megabyte wait in a temporary file (draw.FormSpool).

A build draws every sheet file before it writes any, so a deck of thousands
of distinct cards held all its compressed forms in memory. Past
``SPOOL_AFTER`` bytes each form's content goes to an unnamed temporary file
and is read back when the PDF is saved: the same bytes, less memory, and
where the file cannot be written, memory as before.
"""

from __future__ import annotations

import tempfile
from pathlib import Path

import pytest
from reportlab.pdfbase import pdfdoc

from pnp.render import draw
from pnp.render.draw import Spooled

from test_streaming_save import _canvas


def _in_memory(canvas: object) -> int:
    """Compressed form content the canvas's document holds in memory."""
    return sum(len(o.Contents.content) for o in canvas._doc.idToObject.values()  # type: ignore[attr-defined]
               if isinstance(o, pdfdoc.PDFFormXObject) and isinstance(o.Contents.content, bytes))


def test_spooled_forms_save_the_same_bytes(tmp_path: Path,
                                           monkeypatch: pytest.MonkeyPatch) -> None:
    held, spooled = tmp_path / "held.pdf", tmp_path / "spooled.pdf"
    _canvas(str(held), 30).save()
    monkeypatch.setattr(draw, "SPOOL_AFTER", 20_000)
    canvas = _canvas(str(spooled), 30)
    forms = [o for o in canvas._doc.idToObject.values() if isinstance(o, pdfdoc.PDFFormXObject)]
    assert sum(isinstance(f.Contents.content, Spooled) for f in forms) > 20
    # what stays in memory is the first SPOOL_AFTER bytes (and the form that passed it)
    assert 0 < _in_memory(canvas) < 20_000 + 8_000
    canvas.save()
    assert spooled.read_bytes() == held.read_bytes()


def test_a_small_canvas_never_spools(tmp_path: Path) -> None:
    canvas = _canvas(str(tmp_path / "a.pdf"), 30)     # ~0.1 MB of forms
    assert canvas._pnp_spool.file is None
    assert _in_memory(canvas) == canvas._pnp_spool.held > 50_000


def test_no_temporary_file_keeps_the_forms_in_memory(tmp_path: Path,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse(*args: object, **kwargs: object) -> None:
        raise OSError(28, "No space left on device")

    held = tmp_path / "held.pdf"
    _canvas(str(held), 12).save()
    monkeypatch.setattr(draw, "SPOOL_AFTER", 0)
    monkeypatch.setattr(tempfile, "TemporaryFile", refuse)
    out = tmp_path / "out.pdf"
    canvas = _canvas(str(out), 12)
    assert canvas._pnp_spool.broken and _in_memory(canvas) == canvas._pnp_spool.held
    canvas.save()
    assert out.read_bytes() == held.read_bytes()


def test_a_short_read_is_an_error_not_a_broken_pdf(tmp_path: Path,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(draw, "SPOOL_AFTER", 0)
    canvas = _canvas(str(tmp_path / "c.pdf"), 4)
    canvas._pnp_spool.file.truncate(10)          # the temporary file lost its content
    with pytest.raises(OSError, match="lost"):
        canvas.save()
