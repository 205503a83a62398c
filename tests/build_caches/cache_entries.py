"""Helpers shared by the build-cache tests: a cache's entry files, and damaging them."""

from __future__ import annotations

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
