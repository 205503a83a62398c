"""The build's caches across runs: what a card side's template rendered, and its layout.

A rebuild after an edit renders the same card sides as the last build,
except those the edit touched. Two caches under the pnp cache folder
(:mod:`pnp.render.diskcache`) let ``pnp build`` skip the work for the rest:

- **markup** (this module): the text a template rendered for one card side,
  keyed by everything the render reads — the context the template gets
  (the card's row, the component, the game, and all its tables if the
  template may read them: :func:`pnp.builder.decks.reads_card`), the
  template's name, the content of every file in the templates folder (a
  template may include or import any of them), pnp's code stamp and the
  fonts (the ``text_width`` filter measures with them). Templates that use
  Jinja's ``random`` filter or ``lipsum`` do not render the same text twice,
  so a templates folder that mentions them is not cached.
- **layouts** (:class:`pnp.render.layout.LayoutStore`): the fitted layout of
  a rendered markup, kept only for markup seen before (the first render of
  a card side lands in a sheet file the sheet cache keeps whole; see
  :func:`pnp.builder.decks.render_side`).

Both give exactly what rendering anew gives (the tests build cold, warm and
with damaged entries and compare every byte). ``PNP_BUILD_CACHE=0`` turns
them off. Whole sheet files are kept too, keyed by these markup keys
(:mod:`pnp.builder.sheet_cache`), and rulebook PDFs (:mod:`pnp.rulebook.cache`).
"""

from __future__ import annotations

import hashlib
import os
import re
import sys
from pathlib import Path
from typing import Any, Callable

from pnp.data.inventory import GameData
from pnp.render.diskcache import DiskCache, digest, open_cache
from pnp.render.jinja_env import PnpEnvironment
from pnp.render.layout import use_layout_store
from pnp.render.sandbox import ConfinedLoader

#: Most bytes the markup cache keeps on disk.
MARKUP_DISK_LIMIT = 32 * 2**20
#: Bump when the key's parts change.
MARKUP_FORMAT = "markup-1"
#: The same for the kept answers of :meth:`MarkupStore.reads`.
READS_FORMAT = "reads-tables-1"
#: Most bytes those answers keep on disk (a few dozen bytes each).
READS_DISK_LIMIT = 2**20
#: Image files enter the templates digest by size and date (they are read only
#: when drawn, never by a template); every other file by its content, unless
#: it is larger than any template.
_BY_STAT = (".png", ".jpg", ".jpeg")
#: Files larger than this (no template is) enter the digest by size and date too.
_BY_STAT_SIZE = 2**20
#: Uses of Jinja's ``random`` filter or ``lipsum`` global, whose output differs
#: from one render to the next (a comment that says "random" is no use).
_UNSTABLE = re.compile(rb"(\|\s*random\b|\bfilter\s+random\b|\blipsum\s*\()")


def layout_salt(env: PnpEnvironment) -> str:
    """What every kept layout of this process depends on besides its markup.

    pnp's code stamp (its render and layout code and the libraries it uses;
    the engines, simulator, rulebook and print code do not shape a layout),
    the font files (text fitting measures with them), the Python (pickles)
    and the templates folder's real path (layouts hold absolute icon paths).
    """
    from pnp.builder.serve import NOT_IN_PREVIEWS, code_stamp
    from pnp.render.fonts import FONT_DISPLAY, FONT_JA, FONT_LATIN, font_tag

    return "|".join([code_stamp(NOT_IN_PREVIEWS), sys.version,
                     str(env.templates_dir.resolve()),
                     *(font_tag(name) for name in (FONT_JA, FONT_DISPLAY, FONT_LATIN))])


def folder_digest(folder: Path, *, by_content: bool = False, names_only: bool = False,
                  keep: dict[str, bytes | None] | None = None) -> str | None:
    """A digest of every file under ``folder`` (names and contents); None if unstable.

    None when a template uses the ``random`` filter or ``lipsum`` (its output
    changes from render to render), when the folder holds a linked folder
    (its files are read through the link, which the walk does not follow)
    or when it cannot be read. Images and very large files enter by size and
    date unless ``by_content`` (what a rulebook draws: the pixels count).
    ``names_only``: the file names alone (which files exist: what a lookup
    that tries several places finds), the same checks made. ``keep``, if
    given, receives every file's name relative to ``folder`` ("a/b.xml.j2")
    and the bytes the digest read (None for a file that entered by size and
    date): what :meth:`pnp.render.sandbox.ConfinedLoader.pin` serves.
    """
    h = hashlib.blake2b(digest_size=20)
    try:
        if not os.path.isdir(folder):
            return None
        # a folder the walk cannot list would silently be left out: an error instead
        for top, dirs, files in os.walk(folder, onerror=_raise):
            if any(os.path.islink(os.path.join(top, d)) for d in dirs):
                return None
            dirs.sort()
            for name in sorted(files):
                path = os.path.join(top, name)
                relative = os.path.relpath(path, folder)
                h.update(relative.encode("utf-8", "surrogateescape"))
                h.update(b"\0")
                if names_only:
                    if name.endswith(".j2"):
                        with open(path, "rb") as handle:
                            if _UNSTABLE.search(handle.read()):
                                return None
                    continue
                if not by_content and (name.lower().endswith(_BY_STAT)
                                       or os.path.getsize(path) > _BY_STAT_SIZE):
                    st = os.stat(path)
                    h.update(f"{st.st_size}:{st.st_mtime_ns}".encode())
                    if keep is not None:
                        keep[relative.replace(os.sep, "/")] = None
                else:
                    with open(path, "rb") as handle:
                        data = handle.read()
                    if name.endswith(".j2") and _UNSTABLE.search(data):
                        return None
                    h.update(len(data).to_bytes(8, "little"))
                    h.update(data)
                    if keep is not None:
                        keep[relative.replace(os.sep, "/")] = data
    except OSError:
        return None
    return h.hexdigest()


def _raise(error: OSError) -> None:
    """Make :func:`os.walk` fail on a folder it cannot list (it skips it by default)."""
    raise error


class MarkupStore:
    """Rendered card markup kept on disk, keyed by everything the render reads."""

    def __init__(self, cache: DiskCache, salt: str, answers: DiskCache | None = None) -> None:
        """Keep markup in ``cache``; ``salt`` covers the code, the fonts and the templates.

        ``answers`` keeps what :meth:`reads` found out (a folder of its own:
        one tiny entry per template, kept apart from the card sides).
        """
        self.cache = cache
        self.salt = salt
        self.answers = answers
        #: Per game (held, so its id stays unique): the digest of all its tables.
        self._tables: dict[int, tuple[GameData, str]] = {}
        #: Per template: whether it (or what it includes) may read ``tables``.
        self._reads_tables: dict[str, bool] = {}
        #: Per (id of a card row, side): the row and component (held, so the id
        #: stays theirs) and the side's key (:func:`pnp.builder.decks._side_key`).
        self.sides: dict[tuple[int, str], tuple[Any, Any, str]] = {}

    def _tables_digest(self, game: GameData) -> str:
        """A digest of every row of every table of ``game`` (what ``tables`` can show)."""
        hit = self._tables.get(id(game))
        if hit is None or hit[0] is not game:
            text = repr([(cid, [dict(r.values) for r in rows])
                         for cid, rows in sorted(game.rows.items())])
            hit = self._tables[id(game)] = (game, digest(text))
        return hit[1]

    def reads(self, template_name: str, ask: Callable[[], bool]) -> bool:
        """Whether ``template_name`` may read ``tables`` (``ask`` answers; once per build).

        The answer is kept on disk too: it depends only on the templates
        folder's files and pnp's code, which the salt covers, and asking
        means loading the template and all it pulls in, which a build whose
        sheets all come from the sheet cache would otherwise not do at all.
        """
        hit = self._reads_tables.get(template_name)
        if hit is None:
            key = digest(READS_FORMAT, self.salt, template_name)
            kept = self.answers.get(key) if self.answers is not None else None
            if kept in (b"0", b"1"):
                hit = kept == b"1"
            else:
                hit = ask()
                if self.answers is not None:
                    self.answers.put(key, b"1" if hit else b"0")
            self._reads_tables[template_name] = hit
        return hit

    def key(self, game: GameData, template_name: str, context: dict[str, Any], *,
            tables: bool = True) -> str:
        """The key of one render: the template, its context, the salt.

        ``tables``: whether the template may read the game's tables (then a
        digest of all of them is part of the key; a card template that never
        reads them keeps its entries when another card's row changes).
        """
        # repr tells 1 from 1.0 from "1"; a value whose repr varies between runs
        # (a set of strings) only costs a miss
        shown = repr({k: v for k, v in context.items() if k != "tables"})
        return digest(MARKUP_FORMAT, self.salt, template_name, shown,
                      self._tables_digest(game) if tables else "-")

    def get(self, key: str) -> str | None:
        """The markup stored under ``key``, or None."""
        data = self.cache.get(key)
        if data is None:
            return None
        try:
            return data.decode("utf-8")
        except UnicodeDecodeError:
            return None

    def put(self, key: str, markup: str) -> None:
        """Keep ``markup`` under ``key``."""
        self.cache.put(key, markup.encode("utf-8"))


def use_build_caches(env: PnpEnvironment) -> None:
    """Give ``env`` the build's on-disk caches (layouts; markup where templates are stable).

    With markup kept, ``env`` loads its templates from then on from the very
    bytes the templates digest (part of every key) was made of
    (:meth:`ConfinedLoader.pin`): Jinja loads a template when it is first
    used, and one saved in between would otherwise be rendered, and kept,
    under the key of what it held before. ``env`` no longer sees template
    edits: it serves one build (or one lint run).
    """
    cache = open_cache("markup", MARKUP_DISK_LIMIT)
    if cache is None:     # no cache folder, or PNP_BUILD_CACHE=0
        return
    salt = layout_salt(env)
    use_layout_store(env, salt)
    files: dict[str, bytes | None] = {}
    folder = folder_digest(env.templates_dir, keep=files)
    if folder is not None:
        if isinstance(env.loader, ConfinedLoader):
            env.loader.pin(files)
            if env.cache is not None:   # any template loaded before is loaded again
                env.cache.clear()
            env.resolvers.clear()       # icons too are then found in the snapshot
        else:   # a loader that cannot be pinned would let an edit in under an old key
            return
        env.markup_store = MarkupStore(cache, digest(salt, folder),
                                       open_cache("template-reads", READS_DISK_LIMIT))
