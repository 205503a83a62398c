"""Paper sizes and the printer margin, in PDF points (pure geometry, no ReportLab)."""

from __future__ import annotations

from dataclasses import dataclass

from pnp.errors import PnpError
from pnp.printing.profiles import builtin_profiles
from pnp.units import mm, to_mm

#: Home printers rarely print closer than ~5 mm to the paper edge (REFERENCE
#: "Card and paper sizes"): nothing of ours (art, bleed, marks, text) goes there.
PRINTER_MARGIN: float = mm(5)

#: Portrait sizes (width, height) in points, from the ``[papers]`` table of
#: ``profiles.toml`` (the one list of papers; the CLI's choices come from it).
PAPER_SIZES: dict[str, tuple[float, float]] = {
    key: (p.width, p.height) for key, p in builtin_profiles().papers.items()}
PAPER_NAMES: dict[str, str] = {key: p.name for key, p in builtin_profiles().papers.items()}
#: The paper each paper folds in half into (``a4`` -> ``a5``, ``letter`` ->
#: ``half-letter``): a booklet's page on that sheet, a build's rulebook page.
PAPER_HALVES: dict[str, str] = {key: p.half for key, p in builtin_profiles().papers.items()
                                if p.half is not None}

ORIENTATIONS = ("portrait", "landscape")


@dataclass(frozen=True)
class Paper:
    """A sheet of paper in one orientation; lengths in points."""

    name: str
    width: float
    height: float

    @property
    def orientation(self) -> str:
        """Return "portrait" or "landscape" (a square counts as portrait)."""
        return "landscape" if self.width > self.height else "portrait"

    @property
    def size_mm(self) -> tuple[float, float]:
        """Return (width, height) in millimetres, for reports."""
        return (to_mm(self.width), to_mm(self.height))

    def rotated(self) -> "Paper":
        """Return the same paper turned by 90 degrees."""
        return Paper(self.name, self.height, self.width)


def get_paper(name: str | Paper, orientation: str = "portrait") -> Paper:
    """Return the paper called ``name`` ("A4", "Letter") in ``orientation``.

    A :class:`Paper` passes through (re-oriented if needed).
    """
    if orientation not in ORIENTATIONS:
        raise PnpError(f"bad paper orientation {orientation!r}: expected "
                       f"'portrait' or 'landscape'")
    if isinstance(name, Paper):
        paper = name
    else:
        key = str(name).strip().lower()
        if key not in PAPER_SIZES:
            raise PnpError(f"unknown paper {name!r}: expected one of "
                           f"{', '.join(sorted(PAPER_NAMES.values()))}")
        w, h = PAPER_SIZES[key]
        paper = Paper(PAPER_NAMES[key], w, h)
    if paper.orientation != orientation:
        paper = paper.rotated()
    return paper


def book_paper(paper: str, imposition: str = "none") -> str:
    """Return the page size (a ``[papers]`` key) of a rulebook asked for on ``paper``.

    A booklet is printed on the paper the user names: ``a4`` gives A5 pages
    two-up on A4 sheets, ``letter`` half-letter pages on Letter (the
    ``half`` column, :data:`PAPER_HALVES`); a page size (``a5``,
    ``half-letter``) stays and goes on the sheet it is half of. Without a
    booklet, ``paper`` is the page. Names are lower-cased; an unknown one
    passes through for the rulebook's own one-line error.
    """
    key = str(paper).strip().lower()
    if imposition == "booklet":
        return PAPER_HALVES.get(key, key)
    return key
