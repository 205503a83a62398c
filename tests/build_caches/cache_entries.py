"""Helpers shared by the build-cache tests: cache entries, damaging them, editing the toy games."""

from __future__ import annotations

import hashlib
from pathlib import Path


def entries(cache: Path, sub: str) -> list[Path]:
    """The entry files of one cache (``sheets``, ``rulebooks``, ``layouts`` …), sorted."""
    return sorted((cache / sub).glob("*.entry"))


def damage(first: Path, second: Path) -> None:
    """Damage two entries the two ways a disk does: ``first`` truncated, ``second`` one byte flipped."""
    raw = first.read_bytes()
    first.write_bytes(raw[: len(raw) // 2])
    raw = second.read_bytes()
    second.write_bytes(raw[:-1] + bytes([raw[-1] ^ 0xFF]))


def file_hashes(root: Path, paths: list[Path] | None = None) -> dict[str, str]:
    """sha256 of every file under ``root`` (or of ``paths``), by path relative to ``root``."""
    files = paths if paths is not None else [p for p in sorted(root.rglob("*")) if p.is_file()]
    return {p.relative_to(root).as_posix(): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in files}


def replace_in(path: Path, old: str, new: str, count: int = -1) -> None:
    """Edit a text file in place: ``old`` → ``new`` (the first ``count`` times; all if -1)."""
    path.write_text(path.read_text(encoding="utf-8").replace(old, new, count), encoding="utf-8")


def shadow_icon(templates: Path, game: str, name: str) -> None:
    """Give ``game`` its own icon ``name`` (a square), shadowing the common one of that name.

    The markup that names the icon stays the same; only the picture changes.
    """
    folder = templates / game / "icons"
    folder.mkdir(exist_ok=True)
    (folder / f"{name}.svg").write_text(
        '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10">'
        '<rect x="1" y="1" width="8" height="8" fill="currentColor"/></svg>', encoding="utf-8")
