"""User files: reading with one-line errors, decoding without guessing wrong, writing atomically.

Every file pnp writes goes through :func:`atomic_path` (or the helpers built on
it): the bytes go to a temp file beside the target, named
``.<name>.pnp<pid>-<random>.tmp``, which replaces the target only once it is
complete. A run killed part-way leaves at most such a temp file, never a
truncated file under the final name, and the next run that writes into that
folder removes temps whose process is gone (:func:`sweep_stale_temps`).
"""

from __future__ import annotations

import os
import re
import sys
import threading
import time
import unicodedata
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator

from pnp.errors import PnpError

# --------------------------------------------------------------------------
# reading
# --------------------------------------------------------------------------


def read_user_file(path: Path, what: str) -> bytes:
    """Return the bytes of ``path``; a missing or unreadable file is a :class:`PnpError`."""
    try:
        return path.read_bytes()
    except FileNotFoundError:
        raise PnpError(f"{what} not found", path=path) from None
    except IsADirectoryError:
        raise PnpError(f"{what} is a folder, expected a file", path=path) from None
    except NotADirectoryError:
        raise PnpError(f"{what} not found (a part of the path is a file, not a folder)",
                       path=path) from None
    except OSError as exc:
        raise PnpError(f"cannot read {what}: {exc.strerror or exc}", path=path) from None


def how_to_save_utf8(what: str) -> str:
    """How to fix a file that is not UTF-8, said the same way in every such error."""
    if what == "table":
        return ("save the table as 'CSV UTF-8' (Excel: File > Save As > 'CSV UTF-8 (Comma "
                "delimited)'; a text editor: encoding UTF-8)")
    return f"save the {what} as UTF-8 (in your text editor: encoding UTF-8)"


_UTF8_BOM = b"\xef\xbb\xbf"

# Characters a Windows-1252 ("Western European") reading of the bytes may hold
# when the file really is Western text: accented letters and the typographic
# punctuation Excel and Word insert. Anything else (symbols, C1 bytes) means
# the bytes are not Western text. Left out on purpose: ‚ ƒ ˆ ‰ Š ‹ Ž š › ž Ÿ,
# rare in Western card text but the first bytes of every kana and of most
# kanji in Shift_JIS, so Japanese text never reads as plausible Western.
_WESTERN_EXTRA = set("Œœ‘’“”„–—…•€™«»°¿¡")


def _western_char(ch: str) -> bool:
    """True for a non-ASCII character plausible in Western European text."""
    code = ord(ch)
    return (0xC0 <= code <= 0xFF and ch not in "×÷") or ch in _WESTERN_EXTRA


def _japanese_char(ch: str) -> bool:
    """True for a character that Shift_JIS text written by a person plausibly holds.

    Everything CP932's two-byte table decodes to qualifies (kana, kanji, full-
    width forms, JIS symbols), except what a mis-read Western file produces:
    half-width katakana (CP932's single bytes 0xA1-0xDF, which are Windows-1252's
    accented capitals), private-use and C1 characters.
    """
    code = ord(ch)
    if 0xFF61 <= code <= 0xFF9F:  # half-width katakana
        return False
    if 0xE000 <= code <= 0xF8FF or 0x80 <= code <= 0xA0:  # private use, C1, NBSP
        return False
    return unicodedata.category(ch)[0] != "C"


def _has_japanese_script(text: str) -> bool:
    """True if ``text`` holds at least one kana or kanji (evidence of Japanese)."""
    return any(0x3040 <= ord(ch) <= 0x30FF or 0x4E00 <= ord(ch) <= 0x9FFF for ch in text)


def _plausible_cp932(data: bytes) -> str | None:
    """``data`` decoded as CP932 if that reads as Japanese text, else None."""
    try:
        text = data.decode("cp932")
    except UnicodeDecodeError:
        return None
    if not _has_japanese_script(text):
        return None
    if all(ch < "\x80" or _japanese_char(ch) for ch in text):
        return text
    return None


def _plausible_cp1252(data: bytes) -> str | None:
    """``data`` decoded as Windows-1252 if that reads as Western text, else None."""
    try:
        text = data.decode("cp1252")
    except UnicodeDecodeError:
        return None
    if all(ch < "\x80" or _western_char(ch) for ch in text):
        return text
    return None


def _plausible_eucjp(data: bytes) -> bool:
    """True if ``data`` reads as Japanese in EUC-JP (old Unix and Mac tools)."""
    try:
        text = data.decode("euc_jp")
    except UnicodeDecodeError:
        return False
    return _has_japanese_script(text) and all(ch < "\x80" or _japanese_char(ch) for ch in text)


def _sample(text: str, line: int) -> str:
    """Line ``line`` of ``text`` around its first non-ASCII character, to quote in a message."""
    lines = text.splitlines() or [""]
    sample = lines[min(line, len(lines)) - 1].strip()
    if len(sample) <= 40:
        return sample
    first = next((i for i, ch in enumerate(sample) if ch >= "\x80"), 0)
    start = max(0, first - 15)
    return ("..." if start else "") + sample[start:start + 37] + "..."


def decode_user_text(data: bytes, path: Path, what: str, *,
                     shift_jis: bool = False) -> tuple[str, str]:
    """Decode a user file's bytes; return (text, encoding name).

    UTF-8 is the format, with or without a byte-order mark (Excel's "CSV
    UTF-8" writes one). With ``shift_jis`` a file that is not UTF-8 is read as
    Shift_JIS/CP932 (Japanese Excel's plain "CSV") only when those bytes read
    as Japanese *and* do not also read as Western European text; anything else
    is a one-line :class:`PnpError` naming the file, the line, the encoding
    the bytes most likely are, and how to re-save them. Nothing is ever
    decoded by a guess that might be wrong.
    """
    fix = how_to_save_utf8(what)
    if data.startswith(_UTF8_BOM):
        body, encoding = data[len(_UTF8_BOM):], "utf-8-sig"
    else:
        body, encoding = data, "utf-8"
    if data.startswith((b"\xff\xfe", b"\xfe\xff")):
        raise PnpError(f"{what} is UTF-16 (Excel's 'Unicode Text'), not UTF-8: "
                       + fix, path=path, line=1)
    if b"\x00" in body:  # UTF-16 without a byte-order mark, or not text at all
        line = body[:body.index(b"\x00")].count(b"\n") + 1
        raise PnpError(f"{what} contains NUL bytes (UTF-16 or a binary file?), not UTF-8 "
                       "text: " + fix, path=path, line=line)
    try:
        text = body.decode("utf-8")
    except UnicodeDecodeError as exc:
        bad = exc.start
    else:
        return text, encoding
    line = body[:bad].count(b"\n") + 1
    if any(b >= 0x80 for b in body[:bad]):  # valid UTF-8 text up to here, then not
        raise PnpError(f"{what} is UTF-8 up to this line, where byte 0x{body[bad]:02X} is not "
                       "UTF-8 (a paste from another file or a damaged save?): " + fix,
                       path=path, line=line)
    japanese = _plausible_cp932(body)
    western = _plausible_cp1252(body)
    if shift_jis and japanese is not None and western is None:
        return japanese, "cp932"
    if japanese is not None and western is not None:
        raise PnpError(f"{what} is not UTF-8 and its bytes are ambiguous: as Shift_JIS they "
                       f"read {_sample(japanese, line)!r}, as Windows-1252 "
                       f"{_sample(western, line)!r}; " + fix, path=path, line=line)
    if western is not None:
        source = "a Western European Excel's plain 'CSV'" if what == "table" else \
            "Western European"
        raise PnpError(f"{what} is not UTF-8: it looks like Windows-1252 ({source}), e.g. "
                       f"{_sample(western, line)!r}; " + fix, path=path, line=line)
    if japanese is not None:  # Shift_JIS where only UTF-8 is read (manifests, templates)
        raise PnpError(f"{what} is not UTF-8: it looks like Shift_JIS/CP932, e.g. "
                       f"{_sample(japanese, line)!r}; " + fix, path=path, line=line)
    if _plausible_eucjp(body):
        raise PnpError(f"{what} is not UTF-8: it looks like EUC-JP; " + fix,
                       path=path, line=line)
    if shift_jis and _has_japanese_script(body.decode("cp932", errors="replace")):
        raise PnpError(f"{what} is not UTF-8; it may be Shift_JIS, but it also holds bytes "
                       "Japanese text does not use (half-width katakana or unassigned "
                       "codes), so it cannot be read safely: " + fix,
                       path=path, line=line)
    raise PnpError(f"{what} is not UTF-8 (byte {bad} is 0x{body[bad]:02X}) and not a known "
                   "encoding either: " + fix, path=path, line=line)


def read_user_text(path: Path, what: str, *, shift_jis: bool = False) -> tuple[str, str]:
    """Read and decode a user file (see :func:`decode_user_text`); return (text, encoding)."""
    return decode_user_text(read_user_file(path, what), path, what, shift_jis=shift_jis)


# --------------------------------------------------------------------------
# folders
# --------------------------------------------------------------------------


def make_folder(path: Path, what: str = "output folder") -> Path:
    """Create ``path`` (and its parents) if needed; a clear :class:`PnpError` if impossible."""
    path = Path(path)
    if path.is_dir():
        return path
    if path.exists():
        raise PnpError(f"{what} {str(path)!r} is a file, expected a folder")
    try:
        path.mkdir(parents=True, exist_ok=True)
    except (FileExistsError, NotADirectoryError):
        blocker = next((p for p in path.parents if p.exists() and not p.is_dir()), path)
        raise PnpError(f"cannot create {what} {str(path)!r}: {str(blocker)!r} is a file, "
                       "expected a folder") from None
    except OSError as exc:
        raise PnpError(f"cannot create {what} {str(path)!r}: {exc.strerror or exc}") from None
    return path


# --------------------------------------------------------------------------
# writing
# --------------------------------------------------------------------------

_UMASK_LOCK = threading.Lock()


def current_umask() -> int:
    """Return the process umask without changing it for other threads.

    Linux reports it in /proc/self/status; elsewhere it is read by setting and
    restoring it under a lock (the only portable way).
    """
    try:
        with open("/proc/self/status", encoding="ascii") as status:
            for line in status:
                if line.startswith("Umask:"):
                    return int(line.split()[1], 8)
    except (OSError, ValueError, IndexError):
        pass
    with _UMASK_LOCK:
        mask = os.umask(0o022)
        os.umask(mask)
    return mask


#: Our temp files: ``.<target name>.pnp<pid>-<random>.tmp``.
_TEMP = re.compile(r"^\..+\.pnp(?P<pid>\d+)-[0-9a-f]{8}\.tmp$")
#: Temps of pnp versions before the pid was in the name (``tempfile.mkstemp``).
_OLD_TEMP = re.compile(r"^\..+\.(pdf|png|jpg|json|md|html|csv|txt)\.[a-z0-9_]{8}\.tmp$")
#: A temp whose process cannot be asked (another host, Windows, an old name) is
#: stale once it is this old; no pnp write takes anywhere near that long.
STALE_AFTER_S = 600.0

_SWEPT: set[Path] = set()
_SWEPT_LOCK = threading.Lock()


def _process_alive(pid: int) -> bool | None:
    """True/False if process ``pid`` on this machine is running; None if we cannot tell."""
    if os.name != "posix":  # os.kill(pid, 0) would signal on Windows
        return None
    if pid == os.getpid():
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # someone else's running process
        return True
    except OSError:
        return None
    return True


def _is_stale(entry: os.DirEntry[str], now: float) -> bool:
    """True if ``entry`` is a temp file left by a pnp run that is no longer writing it."""
    match = _TEMP.match(entry.name)
    if match is None and _OLD_TEMP.match(entry.name) is None:
        return False
    try:
        age = now - entry.stat(follow_symlinks=False).st_mtime
    except OSError:
        return False
    if match is not None:
        alive = _process_alive(int(match.group("pid")))
        if alive is False:
            return True
        if alive is True and age < 24 * 3600:  # after a day the pid was surely reused
            return False
    return age > STALE_AFTER_S


def sweep_stale_temps(folder: Path, *, recursive: bool = False) -> list[Path]:
    """Remove temp files that killed pnp runs left in ``folder``; return what was removed.

    Only names pnp itself makes are touched, and only when the process that
    made them has ended (or, where that cannot be asked, after
    :data:`STALE_AFTER_S`), so a concurrent run's temps are left alone. A
    folder that does not exist or cannot be listed is skipped silently.
    """
    removed: list[Path] = []
    now = time.time()
    try:
        entries = list(os.scandir(folder))
    except OSError:
        return removed
    for entry in sorted(entries, key=lambda e: e.name):
        try:
            is_dir = entry.is_dir(follow_symlinks=False)
        except OSError:
            continue
        if is_dir:
            if recursive:
                removed.extend(sweep_stale_temps(Path(entry.path), recursive=True))
            continue
        if _is_stale(entry, now):
            try:
                os.unlink(entry.path)
            except OSError:
                continue
            removed.append(Path(entry.path))
    return removed


def _sweep_once(folder: Path) -> None:
    """Sweep ``folder`` for stale temps the first time this process writes into it."""
    try:
        key = folder.resolve()
    except OSError:
        return
    with _SWEPT_LOCK:
        if key in _SWEPT:
            return
        _SWEPT.add(key)
    sweep_stale_temps(folder)


_JOURNALS: list[list[Path]] = []
_JOURNAL_LOCK = threading.Lock()


@contextmanager
def recording_writes() -> Iterator[list[Path]]:
    """Yield a list that collects every file :func:`atomic_path` completes meanwhile.

    The CLI uses it to say which files a failing run did write.
    """
    written: list[Path] = []
    with _JOURNAL_LOCK:
        _JOURNALS.append(written)
    try:
        yield written
    finally:
        with _JOURNAL_LOCK:
            _JOURNALS.remove(written)


def _record(path: Path) -> None:
    with _JOURNAL_LOCK:
        for journal in _JOURNALS:
            journal.append(path)


@contextmanager
def atomic_path(path: Path) -> Iterator[Path]:
    """Yield a temp path beside ``path``; on success it replaces ``path``, else vanishes.

    A failed write never leaves a half-written file, and a killed one leaves
    only a temp that the next write into the folder removes. The finished
    file gets the mode a normally created file would have (0666 less the
    umask), not a private 0600. A missing, unwritable or non-folder parent,
    or a target that is a folder, is a :class:`PnpError`.
    """
    path = Path(path)
    folder = path.parent if str(path.parent) else Path(".")
    if path.is_dir():
        raise PnpError(f"cannot write {path}: it is a folder")
    _sweep_once(folder)
    # (os.urandom is what secrets.token_hex reads; importing secrets slows start-up)
    tmp = folder / f".{path.name}.pnp{os.getpid()}-{os.urandom(4).hex()}.tmp"
    try:
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except OSError as exc:
        reason = ("the folder does not exist" if isinstance(exc, FileNotFoundError)
                  else f"{str(folder)!r} is not a folder" if isinstance(exc, NotADirectoryError)
                  else exc.strerror or str(exc))
        raise PnpError(f"cannot write {path}: {reason}") from None
    os.close(fd)
    try:
        yield tmp
        os.chmod(tmp, 0o666 & ~current_umask())
        try:
            os.replace(tmp, path)
        except OSError as exc:  # e.g. ``path`` became a folder meanwhile
            raise PnpError(f"cannot write {path}: {exc.strerror or exc}") from None
    except OSError as exc:
        tmp.unlink(missing_ok=True)
        if exc.filename not in (None, str(tmp), tmp):
            raise  # about another file (a font, an image): not ours to rephrase
        # writing the temp itself failed: disk full, quota, permission …
        raise PnpError(f"cannot write {path}: {exc.strerror or exc}") from None
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise
    _record(path)


def write_bytes_atomic(path: Path, data: bytes) -> None:
    """Write ``data`` to ``path`` atomically (see :func:`atomic_path`)."""
    with atomic_path(path) as tmp:
        tmp.write_bytes(data)


def write_text_atomic(path: Path, text: str) -> None:
    """Write UTF-8 ``text`` to ``path`` atomically (see :func:`atomic_path`)."""
    write_bytes_atomic(path, text.encode("utf-8"))


def is_stdout(path: Path | str | None) -> bool:
    """True if ``path`` is ``-``, the usual name for standard output (``--json -``)."""
    return path is not None and str(path) == "-"


def write_text_output(path: Path | str, text: str) -> None:
    """Write ``text`` to ``path`` atomically, or to standard output when ``path`` is ``-``."""
    if is_stdout(path):
        sys.stdout.write(text)
        sys.stdout.flush()
    else:
        write_text_atomic(Path(path), text)
