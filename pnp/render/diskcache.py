"""A small on-disk store of build results that are costly and deterministic.

``pnp build`` and ``pnp check`` keep eight kinds of entries here, each in
its own folder under the pnp cache (:func:`cache_dir`):

- ``markup``: what a card side's template rendered (:mod:`pnp.builder.markup_cache`);
- ``layouts``: a card side's fitted layout, keyed by its rendered markup and
  everything else the layout depends on (:mod:`pnp.render.layout`);
- ``font-subsets``: ReportLab's subset of a font for one set of glyphs,
  compressed as ReportLab would compress it (:mod:`pnp.render.fonts`);
- ``sheets``: whole home sheet PDFs (:mod:`pnp.builder.sheet_cache`);
- ``rulebooks``: whole rulebook PDFs (:mod:`pnp.rulebook.cache`);
- ``images``: whole PNGs of the print-service and Tabletop Simulator
  presets (:mod:`pnp.printing.png_store`);
- ``lint``: the card linter's findings per card side (:mod:`pnp.lint`);
- ``check-sims``: the results of ``pnp check``'s seeded simulations
  (:mod:`pnp.check`).

Entries are addressed by a key that hashes every input of the value, so an
entry is never stale: a changed input is a different key. Each file carries
a digest of its payload; a truncated, corrupted or foreign file is treated
as missing (and removed), never as an error. A folder is **bounded in
size**: when a process first writes to it, the least recently used entries
(by modification time, which a hit renews) are removed until the folder is
under its limit, so it holds at most the limit plus what one build adds.
Every failure to read or write only costs speed.
"""

from __future__ import annotations

import hashlib
import os
import time
from pathlib import Path

#: First bytes of every entry (a changed format is a different magic).
MAGIC = b"pnp-cache-1\n"
_DIGEST = 16
#: Entry file suffix (anything else in the folder is left alone).
SUFFIX = ".entry"
#: A hit renews an entry's date only when it is older than this (seconds):
#: pruning needs no finer order, and a warm build then writes nothing.
RENEW_AFTER = 3600.0


def digest(*parts: bytes | str) -> str:
    """A hex key for ``parts`` (joined unambiguously)."""
    h = hashlib.blake2b(digest_size=20)
    for part in parts:
        data = part.encode("utf-8") if isinstance(part, str) else part
        h.update(len(data).to_bytes(8, "little"))
        h.update(data)
    return h.hexdigest()


class DiskCache:
    """Entries ``<folder>/<key>.entry``, at most about ``limit`` bytes in all."""

    def __init__(self, folder: Path, limit: int) -> None:
        """Use ``folder`` (it must exist) and keep it under ``limit`` bytes."""
        self.folder = folder
        self.limit = limit
        self._pruned = False
        #: Entries found valid, entries written, bad entries dropped (for tests).
        self.hits = self.writes = self.dropped = 0

    def _path(self, key: str) -> Path:
        return self.folder / f"{key}{SUFFIX}"

    def get(self, key: str) -> bytes | None:
        """The payload stored under ``key``, or None (missing, damaged or unreadable)."""
        path = self._path(key)
        try:
            with open(path, "rb") as handle:
                data = handle.read()
                used = os.fstat(handle.fileno()).st_mtime
        except OSError:
            return None
        head = len(MAGIC) + _DIGEST
        payload = data[head:]
        if (len(data) < head or not data.startswith(MAGIC)
                or hashlib.blake2b(payload, digest_size=_DIGEST).digest()
                != data[len(MAGIC):head]):
            self.dropped += 1
            try:
                path.unlink()
            except OSError:
                pass
            return None
        if time.time() - used > RENEW_AFTER:
            try:
                os.utime(path)  # recently used: kept longest when the folder is pruned
            except OSError:
                pass
        self.hits += 1
        return payload

    def put(self, key: str, payload: bytes | bytearray) -> None:
        """Store ``payload`` under ``key`` (atomically; errors are ignored)."""
        if not self._pruned:
            self._pruned = True
            self.prune()
        path = self._path(key)
        tmp = self.folder / f".{key}.{os.getpid()}-{os.urandom(4).hex()}.tmp"
        try:
            with open(tmp, "wb") as handle:
                handle.write(MAGIC)
                handle.write(hashlib.blake2b(payload, digest_size=_DIGEST).digest())
                handle.write(payload)
            os.replace(tmp, path)
            self.writes += 1
        except OSError:
            try:
                tmp.unlink()
            except OSError:
                pass

    def prune(self) -> None:
        """Remove the least recently used entries until the folder is under its limit.

        Temp files a killed process left behind (older than a minute) go too.
        """
        entries: list[tuple[float, int, str]] = []
        now = time.time()
        try:
            with os.scandir(self.folder) as it:
                for entry in it:
                    try:
                        st = entry.stat()
                    except OSError:
                        continue
                    if entry.name.endswith(SUFFIX):
                        entries.append((st.st_mtime, st.st_size, entry.path))
                    elif entry.name.endswith(".tmp") and now - st.st_mtime > 60:
                        _remove(entry.path)
        except OSError:
            return
        total = sum(size for _, size, _ in entries)
        for _, size, path in sorted(entries):
            if total <= self.limit:
                break
            if _remove(path):
                total -= size


def _remove(path: str) -> bool:
    """Remove a file; False if it could not be removed."""
    try:
        os.unlink(path)
    except FileNotFoundError:
        return True
    except OSError:
        return False
    return True


def cache_dir(sub: str) -> Path | None:
    """Return ``<user cache>/pnp/<sub>`` (created), or None if it cannot be made.

    ``$PNP_CACHE_DIR`` overrides the location; ``$XDG_CACHE_HOME`` (else
    ``~/.cache``) is the default. The cache only holds things pnp can
    rebuild (compiled templates, parsed font tables).
    """
    base = os.environ.get("PNP_CACHE_DIR")
    if base:
        root = Path(base)
    else:
        xdg = os.environ.get("XDG_CACHE_HOME")
        root = (Path(xdg) if xdg else Path.home() / ".cache") / "pnp"
    folder = root / sub
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError:
        return None
    return folder


def open_cache(sub: str, limit: int) -> DiskCache | None:
    """The cache folder ``sub`` of the pnp cache, or None when there is none.

    ``PNP_BUILD_CACHE=0`` (or false/no/off) turns the build caches off.
    """
    if os.environ.get("PNP_BUILD_CACHE", "").strip().lower() in ("0", "false", "no", "off"):
        return None

    folder = cache_dir(sub)
    return DiskCache(folder, limit) if folder is not None else None
