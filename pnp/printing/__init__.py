"""Imposition and sheet output: where card faces go on paper, and the sheet PDFs.

Pure geometry (no ReportLab): :mod:`pnp.printing.papers`,
:mod:`pnp.printing.geometry`, :mod:`pnp.printing.imposition`.
PDF writers (ReportLab): :mod:`pnp.printing.sheets` (duplex / gutter-fold
sheets, print-service pages) and :mod:`pnp.printing.calibration` (duplex
calibration sheet). Submodules are imported explicitly so the geometry stays
usable without loading ReportLab.
"""
