"""pnp's PDF number formatter: ReportLab's pure-Python output, pinned on every machine."""

from __future__ import annotations

import math
import random
import sys

import pytest
from reportlab.lib import rl_accel

from pnp.render import rlspeed
from pnp.render.rlspeed import pdf_number


def _reportlab_formatter():  # type: ignore[no-untyped-def]
    """ReportLab's own pure-Python fp_str (this venv has no C accelerator)."""
    from reportlab.lib.rl_accel import _py_fp_str
    return _py_fp_str


def test_pdf_number_writes_what_reportlab_writes() -> None:
    """Same text as ReportLab's pure-Python formatter over every magnitude, sign and edge."""
    reference = _reportlab_formatter()
    rng = random.Random(20261123)
    values: list[float] = [0, -0.0, 1, -1, True, 1e-7, 1.1e-7, -1.5e-7, 0.5, 1 / 3, 10, 100,
                           1000, 1e4, 1e5, 1e6, 1e7, 0.001, 131.90879, 2.5, 0.125, 595.2756,
                           841.8898, 12345678.9, -0.0000004, 99.99995, 9.999995, 7]
    values += [rng.uniform(-1, 1) * 10 ** rng.randint(-8, 8) for _ in range(4000)]
    values += [round(rng.uniform(0, 1000), 5) for _ in range(2000)]   # many exact halves
    values += [rng.randint(-5000, 5000) for _ in range(500)]
    for v in values:
        assert pdf_number(v) == reference(v), v
    assert pdf_number(*values[:40]) == reference(*values[:40])
    assert pdf_number(values[:40]) == reference(values[:40])            # one list argument
    assert pdf_number(tuple(values[:5])) == reference(tuple(values[:5]))


def test_install_replaces_an_accelerated_formatter(monkeypatch: pytest.MonkeyPatch) -> None:
    """A C formatter that writes some numbers differently is replaced everywhere it was bound.

    (With ``rl_accel`` installed a rulebook had ``131.9087`` where the
    pure-Python formatter writes ``131.9088``; pnp's PDFs must not depend on
    whether a user installed it.)
    """
    from reportlab.pdfbase import pdfdoc
    from reportlab.pdfgen import canvas

    def accelerated(*args: object) -> str:
        """Stand-in for the C formatter: truncates instead of rounding."""
        return " ".join(str(math.floor(float(str(a)) * 10_000) / 10_000) for a in args)

    for module in (rl_accel, pdfdoc, canvas):
        monkeypatch.setattr(module, "fp_str", accelerated)
    assert pdfdoc.fp_str(131.90879) == "131.9087"
    rlspeed.install()
    for module in (rl_accel, pdfdoc, canvas):
        assert module.fp_str(131.90879) == "131.9088"
        assert getattr(module.fp_str, "__wrapped__", None) is pdf_number
    before = pdfdoc.fp_str
    rlspeed.install()                                                # idempotent
    assert pdfdoc.fp_str is before
    assert sys.modules["reportlab.lib.rl_accel"].fp_str is before
