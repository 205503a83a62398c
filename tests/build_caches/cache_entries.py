"""Helpers shared by the build-cache tests: cache entries, damaging them, the duo game, editing it."""

from __future__ import annotations

import hashlib
import shutil
from pathlib import Path

from pnp import PROJECT_ROOT


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


#: The duo game's face and back templates (a name, an icon and a text; a shared back).
FACE = ('<card width="{{ width }}" height="{{ height }}" bleed="3mm">\n'
        '  <background fill="#f4ead5"/>\n'
        '  <text x="6" y="8" width="51" height="10" size="12" font="display">{{ card.name }}'
        '</text>\n'
        '  <icon name="bolt" x="21.5" y="25" width="20" height="20" color="#6b4f1d"/>\n'
        '  <text x="6" y="58" width="51" height="22" size="9" min-size="6.5">{{ card.text }}'
        '</text>\n</card>\n')
BACK = ('<card width="{{ width }}" height="{{ height }}" bleed="3mm">\n'
        '  <background fill="#203040"/>\n'
        '  <icon name="star" x="16.5" y="29" width="30" height="30" color="#c9a227"/>\n'
        '</card>\n')


def duo_game(folder: Path) -> tuple[Path, Path]:
    """A game with two decks, ``cards`` and ``chips``, sharing a back: (data, templates)."""
    data = folder / "card_data" / "duo"
    data.mkdir(parents=True)
    deck = """[components.{id}]
name = "{name}"
kind = "card"
size = "poker"
count = 3
table = "{id}.csv"
face = "duo/face.xml.j2"
back = "duo/back.xml.j2"
[components.{id}.columns]
id = {{ type = "id" }}
name = {{ type = "text" }}
text = {{ type = "text" }}
qty = {{ type = "qty" }}
"""
    (data / "manifest.toml").write_text(
        '[game]\nslug = "duo"\ntitle = "Duo"\nplayers = [2, 4]\n'
        + deck.format(id="cards", name="Cards") + deck.format(id="chips", name="Chips"),
        encoding="utf-8")
    for table in ("cards", "chips"):
        rows = ["id,name,text,qty"] + [f"{table}{i},{table} {i},{i}枚引く。,1" for i in (1, 2, 3)]
        (data / f"{table}.csv").write_text("\n".join(rows) + "\n", encoding="utf-8")
    templates = folder / "templates"
    shutil.copytree(PROJECT_ROOT / "templates" / "common", templates / "common")
    (templates / "duo").mkdir()
    (templates / "duo" / "face.xml.j2").write_text(FACE, encoding="utf-8")
    (templates / "duo" / "back.xml.j2").write_text(BACK, encoding="utf-8")
    return folder / "card_data", templates
