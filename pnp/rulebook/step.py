"""The rulebook step of ``pnp build`` and ``pnp rulebook``: kept books reused, the rest typeset in parallel.

A run asks for every game's PDF books in some editions (paper, imposition,
designer switch: :class:`BookOptions`). Books whose inputs did not change
come from the rulebook cache (:mod:`pnp.rulebook.cache`); with ``jobs`` ≥ 2
the others are typeset by that many worker processes while the run goes on
(``pnp build`` draws its sheets meanwhile). Each book is written into the
output folder by the parent, when its game's turn comes, so the files, their
order and what is left after an error are those of a serial run (a build
that fails on a card writes no book at all).
"""

from __future__ import annotations

import multiprocessing
import signal
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol, Sequence

from pnp.errors import PnpError
from pnp.fileio import make_folder, write_bytes_atomic
from pnp.render.reads import recording
from pnp.rulebook.cache import open_rulebook_store, templates_read
from pnp.rulebook.lang import LANGS


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
             options: BookOptions) -> tuple[bool, bytes | str, list[str] | None]:
    """Worker task: one rulebook's PDF bytes and the template files it read, or the error.

    Top-level, so it pickles. The book is written into a folder of the
    worker's own and read back: the parent writes it into the output folder,
    so a run that stops writes no book at all.
    """
    from pnp.rulebook.export import export_rulebook

    try:
        with tempfile.TemporaryDirectory(prefix="pnp-book-") as folder, recording() as reads:
            path = export_rulebook(slug, Path(folder) / "book.pdf", data_dir=data_dir,
                                   paper=options.paper, lang=lang,
                                   imposition=options.imposition, designer=options.designer,
                                   templates_dir=templates_dir)
            return True, path.read_bytes(), templates_read(reads, templates_dir)
    except PnpError as exc:
        return False, str(exc), []


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
    the files, their order and what an error leaves are those of a serial
    run. The card pictures come from the run's templates
    folder, as its sheets do.
    """

    def __init__(self, out_dir: Path, data_dir: Path | None, templates_dir: Path | None,
                 jobs: int = 1, options: BookOptions = BookOptions(), *,
                 skip_missing: bool = False) -> None:
        """Export into ``out_dir`` from ``data_dir`` and ``templates_dir``; ``jobs`` processes.

        ``skip_missing`` (``pnp build``): a book whose rules text is not
        there yet is left out and listed in :attr:`skipped` (the game's other
        editions are still written); without it the export stops with the
        error naming the folders searched (``pnp rulebook``).
        """
        self.out_dir = out_dir
        self.data_dir = data_dir
        self.templates_dir = templates_dir
        self.jobs = jobs
        self.options = options
        self.store = open_rulebook_store()
        self._pool: Any = None
        #: (slug, edition) -> the book's cache key (None: not kept), and its PDF
        #: when the cache had it, or the worker's pending result; filled by start.
        self._books: dict[tuple[str, str], tuple[str | None, bytes | Any]] = {}
        self.skip_missing = skip_missing
        #: (slug, edition) of each book left out for want of its rules text, in order.
        self.skipped: list[tuple[str, str]] = []
        self._root: Path | None = None

    def _data_root(self) -> Path:
        """The run's data folder, resolved once."""
        if self._root is None:
            from pnp.data import resolve_data_dir

            self._root = resolve_data_dir(self.data_dir)
        return self._root

    def _langs(self, slug: str) -> tuple[str, ...]:
        """The editions of ``slug`` to write: all asked for, or (``skip_missing``) those
        whose rules text is there, the others noted in :attr:`skipped`."""
        if not self.skip_missing:
            return self.options.langs
        from pnp.rulebook.sources import rulebook_source

        langs = []
        for code in self.options.langs:
            if rulebook_source(slug, self._data_root(), code).is_file():
                langs.append(code)
            elif (slug, code) not in self.skipped:
                self.skipped.append((slug, code))
        return tuple(langs)

    def start(self, games: Sequence[Named]) -> None:
        """Begin typesetting, in worker processes, every book of ``games`` not kept (jobs ≥ 2).

        The kept ones are read from the cache here, once; each is written at
        its game's turn.
        """
        if self.jobs < 2:
            return
        root = self._data_root()
        misses = []
        for game in games:
            for code in self._langs(game.slug):
                key = self._key(game.slug, root, code)
                pdf = (self.store.lookup(key, self.templates_dir)
                       if key is not None and self.store is not None else None)
                if pdf is not None:
                    self._books[game.slug, code] = (key, pdf)
                else:
                    misses.append((game.slug, code, key))
        if len(misses) < 2:
            return           # one book: typesetting it here costs no more
        ctx = multiprocessing.get_context()
        try:
            self._pool = ctx.Pool(min(self.jobs, len(misses)), initializer=_ignore_interrupts)
        except OSError:
            return           # no processes here (a sandbox): the books are typeset in turn
        for slug, code, key in misses:
            self._books[slug, code] = (key, self._pool.apply_async(
                _typeset, (slug, code, root, self.templates_dir, self.options)))
        self._pool.close()   # no more tasks; the workers exit when done

    def _key(self, slug: str, root: Path, lang: str) -> str | None:
        """The cache key of one of the run's books (None: not kept, or no cache)."""
        if self.store is None:
            return None
        o = self.options
        return self.store.key(slug, root, paper=o.paper, lang=lang, imposition=o.imposition,
                              designer=o.designer, templates_dir=self.templates_dir)

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
        from pnp.rulebook.cli import check_target, output_name

        o = self.options
        langs = self._langs(game.slug)
        if not langs:
            return []
        if not any((game.slug, code) in self._books for code in langs):
            return self._serial(game.slug, langs)
        written = []
        for code in langs:
            book = self._books.pop((game.slug, code), None)
            if book is None:
                written += self._serial(game.slug, [code])
                continue
            key, found = book
            reads: list[str] | None = None          # a kept book: nothing to keep anew
            if not isinstance(found, bytes):
                ok, payload, reads = found.get()
                if not ok:
                    raise PnpError(str(payload))
                assert isinstance(payload, bytes)
                found = payload
            target = self.out_dir / game.slug / output_name(code, "pdf", o.paper, o.imposition)
            make_folder(target.parent)
            check_target(target)
            write_bytes_atomic(target, found)
            if key is not None and self.store is not None and reads is not None:
                self.store.keep(key, self.templates_dir, reads, found)
            written.append(target)
        return written

    def close(self) -> None:
        """Stop the workers (those still typesetting, after a failure, are ended)."""
        if self._pool is not None:
            if any(not isinstance(found, bytes) for _, found in self._books.values()):
                self._pool.terminate()
            self._pool.join()
            self._pool = None
        self._books.clear()


def rulebook_step(out_dir: Path, data_dir: Path | None, templates_dir: Path | None,
                  jobs: int = 1, options: BookOptions = BookOptions(), *,
                  skip_missing: bool = False) -> RulebookStep:
    """A :class:`RulebookStep` (``pnp build``'s: A5, both editions), typesetting in ``jobs`` processes."""
    return RulebookStep(out_dir, data_dir, templates_dir, jobs, options,
                        skip_missing=skip_missing)
