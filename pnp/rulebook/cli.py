"""Rulebook export for several games at once (what `pnp rulebook` and `pnp build` call)."""

from __future__ import annotations

from pathlib import Path
from typing import Callable, Sequence

from pnp.data import resolve_data_dir, resolve_slugs
from pnp.errors import PnpError
from pnp.fileio import make_folder
from pnp.printing.papers import book_paper
from pnp.rulebook.lang import LANGS, check_lang
from pnp.rulebook.sources import require_rulebook_source

#: Writes one PDF rulebook: :func:`pnp.rulebook.export.export_rulebook`'s signature.
PdfWriter = Callable[..., Path]

#: Output formats of ``pnp rulebook``.
FORMATS: tuple[str, ...] = ("pdf", "html", "md")


def output_name(lang: str, fmt: str, paper: str = "a5", imposition: str = "none") -> str:
    """File name inside ``<out>/<game>/``.

    The Japanese edition (the original) keeps the plain names
    (``rulebook-a5.pdf``, ``rulebook.md``); other editions add their code
    (``rulebook-en-a5.pdf``). A booklet adds ``-booklet``.
    """
    stem = "rulebook" if lang == "ja" else f"rulebook-{lang}"
    if fmt == "pdf":
        return f"{stem}-{paper}" + ("-booklet" if imposition == "booklet" else "") + ".pdf"
    return f"{stem}.{fmt}"


def check_target(path: Path) -> None:
    """One-line error when a rulebook's file name is taken by a folder.

    The exporters take a folder as "write ``<slug>_rulebook.md`` in it": a
    folder left where ``rulebook.md`` goes got a second file inside it.
    """
    if path.is_dir():
        raise PnpError(f"cannot write {path}: it is a folder, expected the rulebook file "
                       "(remove the folder, or choose another --out)")


def export_rulebooks(slugs: list[str], *, fmt: str | Sequence[str] = "pdf", paper: str = "a5",
                     out_dir: Path = Path("output"), data_dir: Path | None = None,
                     langs: Sequence[str] = LANGS, imposition: str = "none",
                     designer: bool = False,
                     templates_dir: Path | None = None,
                     pdf_writer: PdfWriter | None = None) -> list[Path]:
    """Write each game's rulebooks to ``out_dir/<slug>/``, every language and format asked for.

    Returns the files written (Markdown's pictures included). ``pnp build``
    calls this with the defaults: an A5 PDF per language, each through the
    build's rulebook cache (``pdf_writer``: a stand-in for
    :func:`~pnp.rulebook.export.export_rulebook` that writes a PDF whose
    inputs did not change from the kept bytes).
    """
    root = resolve_data_dir(data_dir)
    formats = [fmt] if isinstance(fmt, str) else list(fmt)
    for name in formats:
        if name not in FORMATS:
            raise PnpError(f"unknown rulebook format {name!r}: expected one of "
                           f"{', '.join(FORMATS)}")
    codes = [check_lang(code) for code in langs]
    # a booklet on A4 is A5 pages: its files are named after the page, as the PDF's size
    paper = book_paper(paper, imposition)
    games = resolve_slugs(root, slugs)
    # every rules text and target is checked before anything is written: a
    # game without one stops the run with one line, not after an empty folder
    for slug in games:
        for code in codes:
            require_rulebook_source(slug, root, code)
            for name in formats:
                check_target(out_dir / slug / output_name(code, name, paper.lower(),
                                                           imposition))
    written: list[Path] = []
    for slug in games:
        folder = out_dir / slug
        make_folder(folder)
        for code in codes:
            for name in formats:
                path = folder / output_name(code, name, paper.lower(), imposition)
                # the exporter is imported here: a build whose rulebooks all come
                # from its cache never loads it and its PDF and drawing libraries
                if name == "md":
                    from pnp.rulebook.export import export_markdown

                    written += export_markdown(slug, path, data_dir=root, lang=code,
                                               designer=designer, templates_dir=templates_dir)
                elif name == "html":
                    from pnp.rulebook.export import export_html

                    written.append(export_html(slug, path, data_dir=root, lang=code,
                                               designer=designer, templates_dir=templates_dir))
                else:
                    if pdf_writer is None:
                        from pnp.rulebook.export import export_rulebook

                        pdf_writer = export_rulebook
                    written.append(pdf_writer(slug, path, data_dir=root, paper=paper,
                                              lang=code, imposition=imposition,
                                              designer=designer, templates_dir=templates_dir))
    return written
