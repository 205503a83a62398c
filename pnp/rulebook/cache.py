"""Rulebook PDFs kept across builds: a rulebook whose inputs did not change is not typeset again.

``pnp build`` exports every game's rulebook in both editions. Typesetting
them was most of a warm build's time (the card sheets come from the sheet
cache, :mod:`pnp.builder.sheet_cache`), though a rebuild rarely touches what a
rulebook shows. This cache keeps each rulebook PDF's bytes under a key that
covers everything they are made from (read off :mod:`pnp.rulebook`):

- a **salt** computed once per build: pnp's whole code stamp (the rulebook
  code, and the game engines and ``examples.py`` builders that play the
  worked examples and draw the diagrams), ReportLab's version, the zlib that
  compresses the streams, the Python, the fonts (``font_tag``) and the
  canvas options;
- the **rules text**: the bytes of the file the export reads (the data
  folder's sibling ``rulebooks/``, the project's or the shipped one,
  whichever it picks now) and of the terms table beside it (or that there is
  none);
- the game's **data folder**, every file by content (the manifest, the
  tables its component lists and card lists show, saved sweeps);
- the **templates folder** the card pictures are rendered from: the names
  of all its files (which exist decides where a lookup lands: a game icon
  shadows a common one), and the contents of the files the book read when
  it was typeset (templates and what they include, icons, images), as
  :mod:`pnp.render.reads` recorded them. The list of those files is kept
  beside the PDF under the key of everything else; a lookup hashes the
  listed files as they are now. An export reads the same files again as
  long as they and every other input are unchanged, so a template only
  another game pictures, or none, can be edited without typesetting this
  book again;
- the **options**: game, edition, paper, imposition (with pikepdf's version
  for a booklet) and the designer switch.

Paths are not part of the key: the bytes do not depend on where the project
lives, so a copied project finds its books kept too.

A rulebook is not kept when one of its inputs cannot be pinned: a templates
folder using Jinja's ``random`` or ``lipsum``, a linked folder inside the
data or templates folder, a ``{{ sweep }}`` whose file lies outside the
game's folder, a rules text that cannot be read (the export then reports the
problem), or a caller's own page layout. Entries carry a digest (a damaged
one is a miss and is rewritten) and the folder is bounded
(:mod:`pnp.render.diskcache`); ``PNP_BUILD_CACHE=0`` turns it off. Exporting
a rulebook prints nothing, so a hit shows exactly what a miss does.
"""

from __future__ import annotations

import json
import os
import re
import shlex
import sys
import zlib
from contextlib import AbstractContextManager, nullcontext
from pathlib import Path
from typing import Any, Sequence

from pnp.builder.markup_cache import folder_digest
from pnp.errors import PnpError
from pnp.fileio import write_bytes_atomic
from pnp.render.diskcache import DiskCache, digest, open_cache
from pnp.render.reads import recording

#: Most bytes the rulebook cache keeps on disk (the ten shipped books are ~1.8 MB).
RULEBOOK_DISK_LIMIT = 32 * 2**20
#: Bump when the key's parts or the entry's layout change.
RULEBOOK_FORMAT = "rulebook-2"
#: A placeholder of a rules text (as :mod:`pnp.rulebook.placeholders` finds them).
_PLACEHOLDER = re.compile(r"\{\{(.*?)\}\}")


def rulebook_salt() -> str:
    """What every rulebook PDF of this process depends on besides its sources and options."""
    import reportlab

    from pnp.builder.serve import code_stamp
    from pnp.render.fonts import FONT_DISPLAY, FONT_JA, FONT_LATIN, canvas_kwargs, font_tag

    return "|".join([RULEBOOK_FORMAT, code_stamp(), reportlab.Version,
                     zlib.ZLIB_RUNTIME_VERSION, sys.version,
                     repr(sorted(canvas_kwargs().items())),
                     *(font_tag(name) for name in (FONT_JA, FONT_DISPLAY, FONT_LATIN))])


def sweeps_inside(text: bytes, game_dir: Path) -> bool:
    """Whether every ``{{ sweep FILE }}`` of a rules text reads a file inside ``game_dir``.

    The data folder's digest covers only what lies inside it; a rules text
    that cannot be read here (the export reports it) counts as outside.
    """
    try:
        source = text.decode("utf-8-sig")
    except UnicodeDecodeError:
        return False
    root = game_dir.resolve()
    for match in _PLACEHOLDER.finditer(source):
        try:
            words = shlex.split(match.group(1))
        except ValueError:
            return False
        args = [w for w in words[1:] if "=" not in w]
        if words and words[0] == "sweep" and args:
            if not (root / args[0]).resolve().is_relative_to(root):
                return False
    return True


class RulebookStore:
    """Rulebook PDFs kept on disk, keyed by every input of their bytes."""

    def __init__(self, cache: DiskCache, salt: str) -> None:
        """Keep rulebooks in ``cache``; ``salt`` is :func:`rulebook_salt`'s."""
        self.cache = cache
        self.salt = salt
        #: Per (resolved folder, names only): its digest (one walk per build).
        self._folders: dict[tuple[Path, bool], str | None] = {}

    def _folder(self, folder: Path, names_only: bool = False) -> str | None:
        """The digest of ``folder`` (None: not cacheable), computed once per build."""
        if (folder, names_only) not in self._folders:
            self._folders[folder, names_only] = folder_digest(folder, by_content=True,
                                                              names_only=names_only)
        return self._folders[folder, names_only]

    def key(self, slug: str, data_dir: Path, *, paper: str, lang: str, imposition: str,
            designer: bool, templates_dir: Path | None = None,
            source: Path | None = None) -> str | None:
        """The base key of one rulebook PDF, or None when one of its inputs cannot be pinned.

        It covers every input but the contents of the templates folder, of
        which it holds the file names; :meth:`lookup` adds the contents of
        the files the book read when it was typeset. ``data_dir`` is the
        resolved data folder (as the export gets it).
        """
        from pnp.rulebook.lang import check_lang, terms_file
        from pnp.rulebook.sources import rulebook_source

        try:
            code = check_lang(lang)
            game_dir = (Path(data_dir) / slug).resolve()
            templates = templates_root(templates_dir)
            text_path = (Path(source) if source is not None
                         else rulebook_source(slug, Path(data_dir), code))
            text = text_path.read_bytes()
            # beside the path the export reads (a linked text keeps its own terms)
            terms = terms_file(text_path)
            terms_text = terms.read_bytes() if terms.is_file() else b"-"
            booklet = ""
            if imposition == "booklet":
                from importlib.metadata import version

                booklet = "pikepdf " + version("pikepdf")
        except (PnpError, OSError, ValueError):
            return None      # the export reports what is wrong, or it is not pinned
        if not sweeps_inside(text, game_dir):
            return None
        data_digest = self._folder(game_dir)
        templates_names = self._folder(templates, names_only=True)
        if data_digest is None or templates_names is None:
            return None
        # contents, not paths: the bytes do not depend on where the project lives
        return digest(self.salt, booklet, slug, code, paper, imposition, repr(designer),
                      data_digest, templates_names, text, terms_text)

    def _full(self, base: str, root: Path, reads: Sequence[str]) -> str | None:
        """The key of the PDF: ``base`` and the content of each file of ``reads`` now."""
        parts: list[str | bytes] = [base]
        try:
            for rel in reads:
                parts += [rel, (root / rel).read_bytes()]
        except OSError:
            return None      # gone since (then the names changed too): a miss
        return digest(*parts)

    def lookup(self, base: str, templates_dir: Path | None) -> bytes | None:
        """The kept PDF of the book whose base key is ``base``, if the files it read are unchanged."""
        kept = self.cache.get(digest(base, "reads"))
        if kept is None:
            return None
        try:
            reads = json.loads(kept)
        except ValueError:
            return None
        if not isinstance(reads, list) or not all(isinstance(r, str) for r in reads):
            return None
        full = self._full(base, templates_root(templates_dir), reads)
        pdf = self.cache.get(full) if full is not None else None
        return pdf if pdf is not None and pdf.startswith(b"%PDF-") else None

    def keep(self, base: str, templates_dir: Path | None, reads: Sequence[str],
             pdf: bytes) -> None:
        """Keep ``pdf`` under ``base`` and the files of the templates folder it ``reads``."""
        root = templates_root(templates_dir)
        full = self._full(base, root, reads)
        if full is None:
            return
        self.cache.put(digest(base, "reads"), json.dumps(sorted(reads)).encode("utf-8"))
        self.cache.put(full, pdf)

    def export(self, slug: str, out: Path, *, data_dir: Path, paper: str = "a5",
               lang: str = "ja", imposition: str = "none", designer: bool = False,
               source: Path | None = None, templates_dir: Path | None = None,
               layout: Any = None) -> Path:
        """:func:`pnp.rulebook.export.export_rulebook`, from the kept bytes where nothing changed.

        A miss exports the rulebook, noting which files of the templates
        folder it read, and keeps the written file; a caller's own
        ``layout`` is never cached.
        """
        base = (self.key(slug, data_dir, paper=paper, lang=lang, imposition=imposition,
                         designer=designer, templates_dir=templates_dir, source=source)
                if layout is None else None)
        if base is not None:
            pdf = self.lookup(base, templates_dir)
            if pdf is not None:
                target = Path(out)
                if target.is_dir():      # as the export names a file inside a folder
                    target = target / f"{slug}_rulebook.pdf"
                target.parent.mkdir(parents=True, exist_ok=True)
                write_bytes_atomic(target, pdf)
                return target
        from pnp.rulebook.export import export_rulebook

        # nothing to keep without a key (a caller's own layout): nothing to record
        watch: AbstractContextManager[set[str]] = (
            recording() if base is not None else nullcontext(set()))
        with watch as reads:
            target = export_rulebook(slug, out, data_dir=data_dir, paper=paper, lang=lang,
                                     imposition=imposition, designer=designer, source=source,
                                     templates_dir=templates_dir, layout=layout)
        read = templates_read(reads, templates_dir) if base is not None else None
        if base is not None and read is not None:
            try:
                self.keep(base, templates_dir, read, target.read_bytes())
            except OSError:
                pass         # only speed is lost
        return target


def templates_root(templates_dir: Path | None) -> Path:
    """The resolved templates folder a book's pictures come from."""
    from pnp.builder.cards import resolve_templates_dir

    return resolve_templates_dir(templates_dir).resolve()


def templates_read(reads: set[str], templates_dir: Path | None) -> list[str] | None:
    """The files of the templates folder among ``reads`` (absolute paths), relative to it.

    None when one of them is a link to a file outside the folder: its
    content would not be in the key, so the book is not kept.
    """
    from pnp.builder.cards import resolve_templates_dir

    root = templates_root(templates_dir)
    given = Path(os.path.abspath(resolve_templates_dir(templates_dir)))
    out = []
    for name in reads:
        path = Path(name).resolve()
        if path.is_relative_to(root):
            if path.is_file():
                out.append(path.relative_to(root).as_posix())
        elif Path(name).is_relative_to(given) or Path(name).is_relative_to(root):
            return None      # inside the folder by name, elsewhere by content
    return sorted(out)


def open_rulebook_store() -> RulebookStore | None:
    """The build's rulebook cache, or None (no cache folder, or ``PNP_BUILD_CACHE=0``)."""
    cache = open_cache("rulebooks", RULEBOOK_DISK_LIMIT)
    return RulebookStore(cache, rulebook_salt()) if cache is not None else None
