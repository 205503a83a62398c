"""Reading user files with one-line errors."""

from __future__ import annotations

from pathlib import Path

from pnp.errors import PnpError


def read_user_file(path: Path, what: str) -> bytes:
    """Return the bytes of ``path``; a missing or unreadable file is a :class:`PnpError`."""
    try:
        return path.read_bytes()
    except FileNotFoundError:
        raise PnpError(f"{what} not found", path=path) from None
    except IsADirectoryError:
        raise PnpError(f"{what} is a folder, expected a file", path=path) from None
    except OSError as exc:
        raise PnpError(f"cannot read {what}: {exc.strerror or exc}", path=path) from None
