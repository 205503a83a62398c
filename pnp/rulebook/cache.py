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
- the **templates folder** the card pictures are rendered from, every file
  by content (templates, icons, images);
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

import multiprocessing
import re
import shlex
import signal
import sys
import tempfile
import zlib
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol, Sequence

from pnp.builder.markup_cache import folder_digest
from pnp.errors import PnpError
from pnp.fileio import write_bytes_atomic
from pnp.render.diskcache import DiskCache, digest, open_cache
from pnp.rulebook.lang import LANGS

#: Most bytes the rulebook cache keeps on disk (the ten shipped books are ~1.8 MB).
RULEBOOK_DISK_LIMIT = 32 * 2**20
#: Bump when the key's parts or the entry's layout change.
RULEBOOK_FORMAT = "rulebook-1"
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
        #: Per resolved folder: its content digest (one walk per build).
        self._folders: dict[Path, str | None] = {}

    def _folder(self, folder: Path) -> str | None:
        """The content digest of ``folder`` (None: not cacheable), computed once per build."""
        if folder not in self._folders:
            self._folders[folder] = folder_digest(folder, by_content=True)
        return self._folders[folder]

    def key(self, slug: str, data_dir: Path, *, paper: str, lang: str, imposition: str,
            designer: bool, templates_dir: Path | None = None,
            source: Path | None = None) -> str | None:
        """The key of one rulebook PDF, or None when one of its inputs cannot be pinned.

        ``data_dir`` is the resolved data folder (as the export gets it).
        """
        from pnp.builder.cards import resolve_templates_dir
        from pnp.rulebook.lang import check_lang, terms_file
        from pnp.rulebook.sources import rulebook_source

        try:
            code = check_lang(lang)
            game_dir = (Path(data_dir) / slug).resolve()
            templates = resolve_templates_dir(templates_dir).resolve()
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
        templates_digest = self._folder(templates)
        if data_digest is None or templates_digest is None:
            return None
        # contents, not paths: the bytes do not depend on where the project lives
        return digest(self.salt, booklet, slug, code, paper, imposition, repr(designer),
                      data_digest, templates_digest, text, terms_text)

    def export(self, slug: str, out: Path, *, data_dir: Path, paper: str = "a5",
               lang: str = "ja", imposition: str = "none", designer: bool = False,
               source: Path | None = None, templates_dir: Path | None = None,
               layout: Any = None) -> Path:
        """:func:`pnp.rulebook.export.export_rulebook`, from the kept bytes where nothing changed.

        A miss exports the rulebook and keeps the written file; a caller's own
        ``layout`` is never cached.
        """
        key = (self.key(slug, data_dir, paper=paper, lang=lang, imposition=imposition,
                        designer=designer, templates_dir=templates_dir, source=source)
               if layout is None else None)
        if key is not None:
            pdf = self.cache.get(key)
            if pdf is not None and pdf.startswith(b"%PDF-"):
                target = Path(out)
                if target.is_dir():      # as the export names a file inside a folder
                    target = target / f"{slug}_rulebook.pdf"
                target.parent.mkdir(parents=True, exist_ok=True)
                write_bytes_atomic(target, pdf)
                return target
        from pnp.rulebook.export import export_rulebook

        target = export_rulebook(slug, out, data_dir=data_dir, paper=paper, lang=lang,
                                 imposition=imposition, designer=designer, source=source,
                                 templates_dir=templates_dir, layout=layout)
        if key is not None:
            try:
                self.cache.put(key, target.read_bytes())
            except OSError:
                pass         # only speed is lost
        return target


def open_rulebook_store() -> RulebookStore | None:
    """The build's rulebook cache, or None (no cache folder, or ``PNP_BUILD_CACHE=0``)."""
    cache = open_cache("rulebooks", RULEBOOK_DISK_LIMIT)
    return RulebookStore(cache, rulebook_salt()) if cache is not None else None


def _ignore_interrupts() -> None:
    """Worker initializer: Ctrl-C and SIGTERM are the parent's to handle (it stops the pool)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)


class Named(Protocol):
    """A game as the step needs it: its slug (a :class:`GameData` is one)."""

    @property
    def slug(self) -> str:
        """The game's slug."""


@dataclass(frozen=True)
class Slug:
    """A game named by its slug alone (``pnp rulebook`` loads no data before exporting)."""

    slug: str


@dataclass(frozen=True)
class BookOptions:
    """How the PDF books of a run are made: paper, imposition, edition(s), designer switch."""

    paper: str = "a5"
    imposition: str = "none"
    designer: bool = False
    langs: tuple[str, ...] = LANGS


def _typeset(slug: str, lang: str, data_dir: Path, templates_dir: Path | None,
             options: BookOptions) -> tuple[bool, bytes | str]:
    """Worker task: one rulebook's PDF bytes, or the one-line error (top-level: picklable).

    The book is written into a folder of the worker's own and read back: the
    parent writes it into the output folder, so a run that stops writes no
    book at all.
    """
    from pnp.rulebook.export import export_rulebook

    try:
        with tempfile.TemporaryDirectory(prefix="pnp-book-") as folder:
            path = export_rulebook(slug, Path(folder) / "book.pdf", data_dir=data_dir,
                                   paper=options.paper, lang=lang,
                                   imposition=options.imposition, designer=options.designer,
                                   templates_dir=templates_dir)
            return True, path.read_bytes()
    except PnpError as exc:
        return False, str(exc)


class RulebookStep:
    """Each game's PDF rulebooks, kept ones reused, the others typeset in worker processes.

    ``pnp build`` hands one (A5, both editions) to
    :func:`pnp.builder.decks.build`, which calls :meth:`start` once its input
    is checked, calls the step after each game's sheets are written, and
    :meth:`close` at the end; ``pnp rulebook`` runs one the same way for the
    books it is asked for. Kept books are written from the rulebook cache.
    With ``jobs`` ≥ 2, :meth:`start` hands the books that are not kept to
    that many worker processes, which typeset them while the build draws its
    sheets; each book is written (and kept) when its game's turn comes, so
    the files and their order are those of a serial run and a run that
    fails writes none. The card pictures come from the run's templates
    folder, as its sheets do.
    """

    def __init__(self, out_dir: Path, data_dir: Path | None, templates_dir: Path | None,
                 jobs: int = 1, options: BookOptions = BookOptions()) -> None:
        """Export into ``out_dir`` from ``data_dir`` and ``templates_dir``; ``jobs`` processes."""
        self.out_dir = out_dir
        self.data_dir = data_dir
        self.templates_dir = templates_dir
        self.jobs = jobs
        self.options = options
        self.store = open_rulebook_store()
        self._pool: Any = None
        #: (slug, edition) -> the worker's pending result.
        self._pending: dict[tuple[str, str], Any] = {}

    def start(self, games: Sequence[Named]) -> None:
        """Begin typesetting, in worker processes, every book of ``games`` not kept (jobs ≥ 2)."""
        if self.jobs < 2:
            return
        from pnp.data import resolve_data_dir

        root = resolve_data_dir(self.data_dir)
        misses = [(game.slug, code) for game in games for code in self.options.langs
                  if not self._kept(game.slug, root, code)]
        if len(misses) < 2:
            return           # one book: typesetting it here costs no more
        ctx = multiprocessing.get_context()
        self._pool = ctx.Pool(min(self.jobs, len(misses)), initializer=_ignore_interrupts)
        for slug, code in misses:
            self._pending[slug, code] = self._pool.apply_async(
                _typeset, (slug, code, root, self.templates_dir, self.options))
        self._pool.close()   # no more tasks; the workers exit when done

    def _key(self, slug: str, root: Path, lang: str) -> str | None:
        """The cache key of one of the run's books (None: not kept, or no cache)."""
        if self.store is None:
            return None
        o = self.options
        return self.store.key(slug, root, paper=o.paper, lang=lang, imposition=o.imposition,
                              designer=o.designer, templates_dir=self.templates_dir)

    def _kept(self, slug: str, root: Path, lang: str) -> bool:
        """Whether the cache keeps this book (a run then writes it from there)."""
        key = self._key(slug, root, lang)
        return key is not None and self.store is not None and self.store.cache.get(key) is not None

    def _serial(self, slug: str, langs: Sequence[str]) -> list[Path]:
        """Export ``slug``'s books in ``langs`` here, through the cache."""
        from pnp.rulebook.cli import export_rulebooks

        o = self.options
        return export_rulebooks([slug], out_dir=self.out_dir, data_dir=self.data_dir,
                                paper=o.paper, imposition=o.imposition, designer=o.designer,
                                langs=langs, templates_dir=self.templates_dir,
                                pdf_writer=self.store.export if self.store else None)

    def __call__(self, game: Named) -> list[Path]:
        """Write ``game``'s rulebooks: from the cache, from a worker, or typeset here."""
        from pnp.data import resolve_data_dir
        from pnp.rulebook.cli import output_name

        o = self.options
        if not any((game.slug, code) in self._pending for code in o.langs):
            return self._serial(game.slug, o.langs)
        root = resolve_data_dir(self.data_dir)
        written = []
        for code in o.langs:
            pending = self._pending.pop((game.slug, code), None)
            if pending is None:
                written += self._serial(game.slug, [code])
                continue
            ok, payload = pending.get()
            if not ok:
                raise PnpError(str(payload))
            assert isinstance(payload, bytes)
            target = self.out_dir / game.slug / output_name(code, "pdf", o.paper, o.imposition)
            try:
                target.parent.mkdir(parents=True, exist_ok=True)
            except OSError as exc:
                raise PnpError(f"cannot create output folder {target.parent}: "
                               f"{exc.strerror or exc}") from None
            write_bytes_atomic(target, payload)
            key = self._key(game.slug, root, code)
            if key is not None and self.store is not None:
                self.store.cache.put(key, payload)
            written.append(target)
        return written

    def close(self) -> None:
        """Stop the workers (those still typesetting, after a failure, are ended)."""
        if self._pool is not None:
            if self._pending:
                self._pool.terminate()
            self._pool.join()
            self._pool = None
            self._pending.clear()


def rulebook_step(out_dir: Path, data_dir: Path | None, templates_dir: Path | None,
                  jobs: int = 1, options: BookOptions = BookOptions()) -> RulebookStep:
    """A :class:`RulebookStep` (``pnp build``'s: A5, both editions), typesetting in ``jobs`` processes."""
    return RulebookStep(out_dir, data_dir, templates_dir, jobs, options)
