"""Tabletop Simulator export: face sheets, back images and saved-object JSON.

Per card deck: the distinct faces on sheets of at most ``max_columns`` x
``max_rows`` cells (10 x 7) and ``max_sheet_px`` (4096) pixels a side, at
most 69 faces a sheet (TTS keeps the 70th cell for the "hidden" face; we set
``BackIsHidden`` so the back is shown instead); the shared back as one image
(or, for two-sided cards, a back sheet per face sheet, ``UniqueBack``); and
a saved object: a ``DeckCustom`` whose ``CustomDeck`` has one entry per
sheet, ``DeckIDs`` one id per physical card (quantities honoured; id = sheet
key x 100 + cell) and ``ContainedObjects`` one ``Card`` per physical card.
Tokens become round (or square) ``Custom_Tile`` objects in a ``Bag``; a
board is one tile. Dice (a manifest component of ``kind = "die"``) are TTS's
own standard dice (``Die_6`` …), no image needed: one saved object holds the
component's ``count`` dice side by side. Images are referenced by
``file:///`` URLs (local play) or under ``base_url`` once uploaded (see
docs/printing.md).
"""

from __future__ import annotations

import hashlib
import json
import math
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Sequence

from PIL import Image

from pnp.errors import PnpError
from pnp.fileio import write_text_atomic
from pnp.printing.geometry import Rect
from pnp.printing.staging import staged_files
from pnp.printing.png_store import PngStore
from pnp.printing.profiles import Profile
from pnp.printing.service import (RasterJob, ServiceCard, render_images, save_png, shared_back,
                                  write_pngs)
from pnp.render.layout import Layout

Progress = Callable[[int], None]

#: TTS Custom_Tile shapes (Box, Hex, Circle, Rounded).
TILE_BOX = 0
TILE_CIRCLE = 2
#: Card ids are key * 100 + cell, so a key must stay below this.
MAX_KEY = 9999
#: TTS's built-in dice by number of sides (its object names; no image needed).
STANDARD_DICE = {4: "Die_4", 6: "Die_6", 8: "Die_8", 10: "Die_10", 12: "Die_12", 20: "Die_20"}
#: Space between dice laid out side by side, in TTS units (inches).
_DIE_GAP = 1.5
#: The grey TTS gives new objects.
_DIFFUSE = {"r": 0.713235259, "g": 0.713235259, "b": 0.713235259}


@dataclass(frozen=True)
class Grid:
    """One face sheet's grid: columns, rows, cell size in pixels."""

    columns: int
    rows: int
    cell_w: int
    cell_h: int

    @property
    def size(self) -> tuple[int, int]:
        """Return the sheet's pixel size."""
        return (self.columns * self.cell_w, self.rows * self.cell_h)


def per_sheet(profile: Profile) -> int:
    """Return how many faces one sheet holds: every cell but the hidden-face cell."""
    return profile.max_columns * profile.max_rows - 1


def sheet_grid(n: int, size: tuple[float, float], profile: Profile) -> Grid:
    """Return the grid for ``n`` faces of a card of ``size`` (points) on one sheet.

    Columns fill first (at most ``max_columns``); cells keep the card's
    aspect, as wide as ``max_card_px`` allows and small enough that the
    sheet stays within ``max_sheet_px`` both ways.
    """
    if not 1 <= n <= per_sheet(profile):
        raise PnpError(f"a TTS sheet holds 1 to {per_sheet(profile)} faces, not {n}")
    cols = min(profile.max_columns, n)
    rows = math.ceil(n / cols)
    aspect = size[1] / size[0]
    cell_w = min(profile.max_card_px, profile.max_sheet_px // cols,
                 int(profile.max_sheet_px // rows / aspect))
    cell_h = min(round(cell_w * aspect), profile.max_sheet_px // rows)
    return Grid(cols, rows, cell_w, cell_h)


def _guid(*parts: str) -> str:
    """Return a stable 6-hex-digit TTS GUID for ``parts``."""
    return hashlib.blake2b("/".join(parts).encode("utf-8"), digest_size=3).hexdigest()


def deck_key(slug: str, deck: str, sheet: int, used: set[int]) -> int:
    """Return a CustomDeck key for a sheet: stable per (game, deck, sheet), unique in ``used``."""
    h = int.from_bytes(hashlib.blake2b(f"{slug}/{deck}/{sheet}".encode("utf-8"),
                                       digest_size=4).digest(), "big")
    key = 1 + h % (MAX_KEY - 1)
    while key in used:
        key = key % (MAX_KEY - 1) + 1
    used.add(key)
    return key


def _transform(scale: float = 1.0, y: float = 1.0) -> dict[str, float]:
    """Return a TTS Transform at the table centre, face up."""
    return {"posX": 0.0, "posY": y, "posZ": 0.0, "rotX": 0.0, "rotY": 180.0, "rotZ": 0.0,
            "scaleX": scale, "scaleY": 1.0, "scaleZ": scale}


def _saved_object(obj: dict[str, Any] | list[dict[str, Any]], name: str) -> dict[str, Any]:
    """Wrap ``obj`` (or several objects) as a TTS saved-object file (Saves/Saved Objects/NAME.json)."""
    return {"SaveName": name, "GameMode": "", "Date": "", "VersionNumber": "",
            "Gravity": 0.5, "PlayArea": 0.5, "Table": "", "Sky": "", "Note": "",
            "Rules": "", "XmlUI": "", "LuaScript": "", "LuaScriptState": "",
            "ObjectStates": obj if isinstance(obj, list) else [obj], "TabStates": {}}


class UrlMaker:
    """Turns written image paths into URLs: ``file:///`` or under a base URL."""

    def __init__(self, out_dir: Path, base_url: str | None) -> None:
        """Keep the output root (for relative URLs) and the optional base URL."""
        self.out_dir = out_dir
        self.base_url = base_url.rstrip("/") if base_url else None

    def __call__(self, path: Path) -> str:
        """Return the URL TTS should load ``path`` from."""
        if self.base_url:
            rel = path.resolve().relative_to(self.out_dir.resolve()).as_posix()
            return f"{self.base_url}/{rel}"
        return path.resolve().as_uri()


def _ensure(folder: Path) -> None:
    """Create ``folder`` or raise a one-line PnpError."""
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise PnpError(f"cannot create output folder {folder}: {exc.strerror or exc}") from None


def _sheet_image(grid: Grid, faces: Sequence[Image.Image]) -> Image.Image:
    """Return a sheet with ``faces`` in reading order (empty cells dark grey)."""
    sheet = Image.new("RGB", grid.size, (40, 40, 40))
    for i, face in enumerate(faces):
        sheet.paste(face, ((i % grid.columns) * grid.cell_w, (i // grid.columns) * grid.cell_h))
    return sheet


def _require_backs(slug: str, deck: str, cards: Sequence[ServiceCard]) -> None:
    """Raise a one-line PnpError unless every card has a back (TTS shows one for each)."""
    missing = [c.id for c in cards if c.back is None]
    if not missing:
        return
    which = ("no card has one" if len(missing) == len(cards) else
             "no back for " + ", ".join(missing[:3]) + (" …" if len(missing) > 3 else ""))
    raise PnpError(f"{slug}/{deck}: Tabletop Simulator needs a back for every card "
                   f"({which}): give the component a back template (back = \"…\") in "
                   f"card_data/{slug}/manifest.toml")


def _write_sheet(path: Path, grid: Grid, layouts: Sequence[Layout],
                 keys: Sequence[str | None], store: PngStore | None,
                 progress: Progress | None = None) -> None:
    """Write one sheet image of ``layouts`` in ``grid`` cells (a one-cell grid: a lone back).

    Copied from ``store`` when it keeps the sheet; otherwise drawn (each
    card covering its cell) and kept there.
    """
    key = store.key("tts-sheet", keys, grid) if store is not None else None
    if store is not None and store.write(key, path):
        return
    cell = Rect(0, 0, grid.cell_w, grid.cell_h)
    images = list(render_images([RasterJob(layout, grid.cell_w, grid.cell_h, cell)
                                 for layout in layouts], progress))
    save_png(_sheet_image(grid, images), path)
    if store is not None:
        store.keep(key, path)


def export_deck(folder: Path, slug: str, deck: str, nickname: str,
                cards: Sequence[ServiceCard], size: tuple[float, float], profile: Profile,
                *, two_sided: bool, urls: UrlMaker, used_keys: set[int],
                progress: Progress | None = None, store: PngStore | None = None
                ) -> list[Path]:
    """Write a deck's face sheets, back image(s) and saved object; return the files.

    The saved object is ``<deck>.json`` (a ``CardCustom`` for a one-card
    deck, else a ``DeckCustom``). Images kept in ``store`` are copied from
    it; the others are drawn and kept there.
    """
    if not cards:
        raise PnpError(f"nothing to export for {slug}/{deck}: the deck has no cards")
    back = shared_back(cards, two_sided)
    if back is None:
        # Checked before anything is written: finding it at the second sheet
        # would leave the first sheet's images behind for a deck TTS cannot load.
        _require_backs(slug, deck, cards)
    _ensure(folder)
    # all of the export or none of it: images without their saved object
    # (a run stopped half-way) would be a deck TTS cannot load
    with staged_files(folder, deck) as stage:
        cap = per_sheet(profile)
        chunks = [list(cards[i:i + cap]) for i in range(0, len(cards), cap)]
        written: list[Path] = []
        custom: dict[str, dict[str, Any]] = {}
        ids: dict[str, tuple[int, str]] = {}
        back_url = ""
        if back is not None:
            grid = sheet_grid(1, size, profile)
            path = folder / f"{deck}-back.png"
            _write_sheet(stage(path), grid, [back], [cards[0].keys[1]], store)
            written.append(path)
            back_url = urls(path)
        for k, chunk in enumerate(chunks, start=1):
            grid = sheet_grid(len(chunk), size, profile)
            path = folder / f"{deck}-faces-{k}.png"
            _write_sheet(stage(path), grid, [c.front for c in chunk],
                         [c.keys[0] for c in chunk], store, progress)
            written.append(path)
            key = deck_key(slug, deck, k, used_keys)
            sheet_back = back_url
            if back is None:
                backs = [c.back for c in chunk if c.back is not None]  # all: _require_backs
                bpath = folder / f"{deck}-backs-{k}.png"
                _write_sheet(stage(bpath), grid, backs, [c.keys[1] for c in chunk], store)
                written.append(bpath)
                sheet_back = urls(bpath)
            custom[str(key)] = {"FaceURL": urls(path), "BackURL": sheet_back,
                                "NumWidth": grid.columns, "NumHeight": grid.rows,
                                "BackIsHidden": True, "UniqueBack": back is None, "Type": 0}
            for i, c in enumerate(chunk):
                ids[c.id] = (key * 100 + i, str(key))
        contained = []
        deck_ids = []
        n = 0
        for c in cards:
            cid, key_text = ids[c.id]
            for _ in range(c.qty):
                n += 1
                deck_ids.append(cid)
                contained.append({
                    "Name": "Card", "Transform": _transform(), "Nickname": c.id,
                    "Description": "", "CardID": cid, "Hands": True, "SidewaysCard": False,
                    "CustomDeck": {key_text: custom[key_text]},
                    "GUID": _guid(slug, deck, "card", str(n))})
        if len(contained) == 1:
            obj = dict(contained[0])
            obj.update({"Name": "CardCustom", "Nickname": nickname})
        else:
            obj = {"Name": "DeckCustom", "Transform": _transform(), "Nickname": nickname,
                   "Description": f"{len(contained)} cards", "ColorDiffuse": _DIFFUSE,
                   "Locked": False, "Grid": True, "Snap": True, "Autoraise": True,
                   "Sticky": True, "Tooltip": True, "Hands": False, "SidewaysCard": False,
                   "DeckIDs": deck_ids, "CustomDeck": custom, "ContainedObjects": contained,
                   "GUID": _guid(slug, deck, "deck")}
        jpath = folder / f"{deck}.json"
        write_text_atomic(stage(jpath), json.dumps(_saved_object(obj, nickname),
                                                   ensure_ascii=False, indent=2) + "\n")
        written.append(jpath)
    return written


def export_tiles(folder: Path, slug: str, component: str, nickname: str,
                 pieces: Sequence[ServiceCard], size: tuple[float, float], round_: bool,
                 profile: Profile, *, urls: UrlMaker,
                 progress: Progress | None = None, store: PngStore | None = None
                 ) -> list[Path]:
    """Write tokens or a board as TTS tiles: images per distinct piece and a saved object.

    Round tokens are ``Custom_Tile`` circles, square tokens and boards boxes;
    several pieces go in a ``Bag``. Tile scale follows the physical size
    (1.0 = one inch, TTS's unit), so chips, markers and boards keep their
    proportions.
    """
    if not pieces:
        raise PnpError(f"nothing to export for {slug}/{component}: no pieces")
    _ensure(folder)
    k = profile.tile_dpi / 72.0
    px_w = max(16, min(profile.max_sheet_px, round(size[0] * k)))
    px_h = max(16, min(profile.max_sheet_px, round(size[1] * k)))
    jobs: list[tuple[str, RasterJob, str | None]] = []
    for p in pieces:
        for side, layout, side_key in (("face", p.front, p.keys[0]), ("back", p.back, p.keys[1])):
            if layout is not None:
                key = (store.key("tile", [side_key], px_w, px_h)
                       if store is not None else None)
                jobs.append((f"{component}-{p.id}-{side}.png",
                             RasterJob(layout, px_w, px_h, Rect(0, 0, px_w, px_h)), key))
    written = [folder / name for name, _, _ in jobs]
    url_of = {name: urls(path) for (name, _, _), path in zip(jobs, written)}
    # images and saved object all together or not at all (see export_deck)
    with staged_files(folder, component) as stage:
        write_pngs([(stage(path), job, key) for path, (_, job, key) in zip(written, jobs)],
                   store, progress=progress)
        _write_tiles_object(folder / f"{component}.json", stage, slug, component, nickname,
                            pieces, size, round_, url_of)
    written.append(folder / f"{component}.json")
    return written


def _write_tiles_object(jpath: Path, stage: Callable[[Path], Path], slug: str,
                        component: str, nickname: str, pieces: Sequence[ServiceCard],
                        size: tuple[float, float], round_: bool,
                        url_of: dict[str, str]) -> None:
    """Write the tiles' saved object (a tile, or a ``Bag`` of them) to ``stage(jpath)``."""
    scale = size[0] / 72.0  # inches
    tiles: list[dict[str, Any]] = []
    n = 0
    for p in pieces:
        face = url_of[f"{component}-{p.id}-face.png"]
        back = url_of.get(f"{component}-{p.id}-back.png", face)
        for _ in range(p.qty):
            n += 1
            tiles.append({
                "Name": "Custom_Tile", "Transform": _transform(scale), "Nickname": p.id,
                "Description": "", "ColorDiffuse": {"r": 1.0, "g": 1.0, "b": 1.0},
                "CustomImage": {"ImageURL": face, "ImageSecondaryURL": back,
                                "ImageScalar": 1.0, "WidthScale": 0.0,
                                "CustomTile": {"Type": TILE_CIRCLE if round_ else TILE_BOX,
                                               "Thickness": 0.1, "Stackable": round_,
                                               "Stretch": round_}},
                "GUID": _guid(slug, component, "tile", str(n))})
    if len(tiles) == 1:
        obj = dict(tiles[0])
        obj["Nickname"] = nickname
    else:
        obj = {"Name": "Bag", "Transform": _transform(), "Nickname": nickname,
               "Description": f"{len(tiles)} pieces", "ColorDiffuse": _DIFFUSE,
               "ContainedObjects": tiles, "GUID": _guid(slug, component, "bag")}
    write_text_atomic(stage(jpath), json.dumps(_saved_object(obj, nickname),
                                               ensure_ascii=False, indent=2) + "\n")


def export_dice(folder: Path, slug: str, component: str, nickname: str, sides: int,
                count: int, note: str = "") -> list[Path]:
    """Write ``count`` standard TTS dice of ``sides`` sides as ``<component>.json``; return it.

    The dice are TTS's own (``Die_6`` for a d6; see :data:`STANDARD_DICE`),
    laid side by side so they can be picked up and rolled together; ``note``
    (the manifest's) becomes each die's description. A number of sides TTS
    has no standard die for is a one-line PnpError, raised before anything
    is written.
    """
    name = STANDARD_DICE.get(sides)
    if name is None:
        raise PnpError(f"{slug}/{component}: Tabletop Simulator has no standard die with "
                       f"{sides} sides (expected sides = "
                       f"{', '.join(map(str, STANDARD_DICE))} in card_data/{slug}/manifest.toml)")
    if count < 1:
        raise PnpError(f"nothing to export for {slug}/{component}: count is {count}")
    _ensure(folder)
    dice: list[dict[str, Any]] = []
    for n in range(count):
        transform = _transform()
        # centred on the table's middle, one gap apart (x only: a row)
        transform["posX"] = round((n - (count - 1) / 2) * _DIE_GAP, 4)
        dice.append({"Name": name, "Transform": transform,
                     "Nickname": nickname if count == 1 else f"{nickname} {n + 1}",
                     "Description": note, "ColorDiffuse": {"r": 1.0, "g": 1.0, "b": 1.0},
                     "Locked": False, "Grid": True, "Snap": True, "Autoraise": True,
                     "Sticky": True, "Tooltip": True,
                     "GUID": _guid(slug, component, "die", str(n + 1))})
    jpath = folder / f"{component}.json"
    write_text_atomic(jpath, json.dumps(_saved_object(dice, nickname),
                                        ensure_ascii=False, indent=2) + "\n")
    return [jpath]
