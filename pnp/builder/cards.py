"""Which components a game prints, their rows, sizes and one card side rendered.

This is the light half of the build (no print profiles, no sheet code), so
``pnp preview``, ``pnp watch`` and the card linter import little.

The **kit** of a game (:func:`kit_components`) is what ``pnp build``
prints:

- every manifest component with a face template (:func:`printable_components`),
  what players may buy (``supply = "buy"``, e.g. a standard deck) included
  unless the build leaves it out (``--no-bought``);
- its **player aids**: a game whose templates folder holds
  ``aid_face.xml.j2`` (and ``aid_back.xml.j2`` for the second side) gets one
  aid per player, the manifest's largest player count, unless the manifest
  declares a component with that face itself (then the manifest's name and
  count rule); ``aid_en_face.xml.j2`` adds the English edition the same way;
- **stickers for a bought deck**: when the buyable decks are left out and
  the game has ``sticker_face.xml.j2``, one sticker per card of each left-out
  deck that has a table (the sticker template gets the deck's row as
  ``card`` and the deck as ``component``), so a bought deck can carry what the
  printed cards would have shown.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from pathlib import Path
from types import MappingProxyType
from typing import Any

from pnp.data.inventory import GameData
from pnp.data.manifest import Component
from pnp.data.tables import Row
from pnp.errors import PnpError
from pnp.sizes import parse_size

#: Player aids found by template name: (component id, file stem, name, name_ja).
AIDS = (("aid", "aid", "Player aid", "サマリーカード"),
        ("aid_en", "aid_en", "Player aid (English)", "サマリーカード（英語）"))
#: Size of a sticker for a bought card (fits on a poker card's face beside its pips).
STICKER_SIZE = "24mm x 15mm"
#: Template (in a game's templates folder) that makes a game print stickers.
STICKER_FACE = "sticker_face.xml.j2"
#: A sticker set's component id is the bought deck's id plus this.
STICKER_SUFFIX = "_stickers"


def resolve_templates_dir(templates_dir: Path | None) -> Path:
    """The templates folder: the option, else the project's (see :mod:`pnp.project`)."""
    if templates_dir is not None:
        path = Path(templates_dir)
    else:
        from pnp.project import default_folder

        path = default_folder("templates")
    if not path.is_dir():
        raise PnpError(f"templates folder {str(path)!r} not found")
    return path


def missing_templates(game: GameData, templates_dir: Path | None = None) -> list[PnpError]:
    """One error per ``face``/``back`` the manifest names that is not a file of the templates.

    Found before anything is rendered, so the designer reads the manifest
    line to fix (and the closest template name there is) rather than the
    renderer's message about a template it could not load.
    """
    root = resolve_templates_dir(templates_dir)
    manifest = game.manifest
    errors: list[PnpError] = []
    lines = None
    for component in manifest.components.values():
        for key in ("face", "back"):
            name = getattr(component, key)
            if name is None or (root / name).is_file():
                continue
            if lines is None:
                from pnp.data.manifest import TomlLines
                from pnp.fileio import read_user_text

                lines = TomlLines(read_user_text(manifest.path, "manifest")[0])
            errors.append(PnpError(
                f"components.{component.id}.{key}: template {name!r} not found in "
                f"{root}{_closest_template(root, name) or _no_folder(root, name)}",
                path=manifest.path, line=lines.line(("components", component.id, key))))
    return errors


def _no_folder(root: Path, name: str) -> str:
    """Why a whole folder of templates is missing: ``""`` if the template's folder exists.

    A project with its own card_data/ but no templates/ reads the shipped
    templates; a new game's templates are then looked for there.
    """
    folder = Path(name).parent
    if folder == Path(".") or (root / folder).is_dir():
        return ""
    from pnp.project import shipped

    why = ("; the project has no templates/ folder of its own, so the shipped ones are read"
           if root.resolve() == shipped("templates").resolve() else "")
    return f" (no {folder.as_posix()}/ folder there{why})"


def check_templates(game: GameData, templates_dir: Path | None = None) -> None:
    """Raise the first of :func:`missing_templates` (a build or preview cannot go on)."""
    errors = missing_templates(game, templates_dir)
    if errors:
        raise errors[0]


def _closest_template(root: Path, name: str) -> str:
    """``"; did you mean 'slug/x.xml.j2'?"`` for the nearest template file, or ``""``."""
    from pnp.data.suggest import closest

    def stem(file_name: str) -> str:
        # compared without the folder and the shared '.xml.j2', which would make
        # every template of the folder look close
        return file_name.split(".", 1)[0]

    wanted = Path(name)
    try:
        known = {stem(p.name): p.name for p in (root / wanted).parent.glob("*.j2")
                 if p.is_file()}
    except OSError:
        return ""
    hit = closest(stem(wanted.name), known)
    return "" if hit is None else f"; did you mean {(wanted.parent / known[hit]).as_posix()!r}?"


def aid_components(game: GameData, templates_dir: Path | None = None) -> list[Component]:
    """The player aids found in ``templates/<slug>/`` that the manifest does not declare."""
    root = resolve_templates_dir(templates_dir)
    manifest = game.manifest
    faces = {c.face for c in manifest.components.values()}
    size = parse_size("poker", what="player aid size")
    out = []
    for cid, stem, name, name_ja in AIDS:
        face = f"{manifest.slug}/{stem}_face.xml.j2"
        if cid in manifest.components or face in faces or not (root / face).is_file():
            continue
        back = f"{manifest.slug}/{stem}_back.xml.j2"
        two_sided = (root / back).is_file()
        out.append(Component(
            id=cid, name=name, name_ja=name_ja, kind="card", supply="print",
            count=manifest.players[1], table=None, size=size, size_text="poker",
            diameter=None, sides=None, face=face, back=back if two_sided else None,
            two_sided=two_sided, provisional=False,
            note="One per player: the turn, what each action does, and scoring with "
                 "worked numbers (found in the templates folder).",
            columns=MappingProxyType({}), rules=()))
    return out


def sticker_components(game: GameData, templates_dir: Path | None = None
                       ) -> list[Component]:
    """Stickers for each buyable deck with a table, if the game has a sticker template."""
    root = resolve_templates_dir(templates_dir)
    face = f"{game.manifest.slug}/{STICKER_FACE}"
    if not (root / face).is_file():
        return []
    size = parse_size(STICKER_SIZE, what="sticker size")
    out = []
    for c in game.manifest.components.values():
        if c.supply != "buy" or c.table is None or c.face is None:
            continue
        out.append(Component(
            id=f"{c.id}{STICKER_SUFFIX}", name=f"Stickers for the {c.name.lower()}",
            name_ja=f"{c.name_ja}用シール", kind="token", supply="print", count=c.count,
            table=c.table, size=size, size_text=STICKER_SIZE, diameter=None, sides=None,
            face=face, back=None, two_sided=False, provisional=False,
            note=f"One per card of a bought {c.name.lower()}, stuck on its face.",
            columns=c.columns, rules=()))
    return out


def printable_components(game: GameData, templates_dir: Path | None = None, *,
                         bought: bool = True) -> list[Component]:
    """The manifest's components that have a face template (the table-backed kit).

    ``bought=False`` leaves out what a player can buy (``supply = "buy"``).
    """
    return [c for c in game.manifest.components.values()
            if c.face and (bought or c.supply == "print")]


def kit_components(game: GameData, templates_dir: Path | None = None, *,
                   bought: bool = True) -> list[Component]:
    """Everything a build prints: the manifest's components, player aids, and — when
    the bought decks are left out — stickers for them (see the module notes)."""
    out = printable_components(game, templates_dir, bought=bought)
    out += aid_components(game, templates_dir)
    if not bought:
        out += sticker_components(game, templates_dir)
    return out


def is_sticker(component: Component) -> bool:
    """Return True for a sticker set (:func:`sticker_components`): printed on label paper."""
    return (component.id.endswith(STICKER_SUFFIX) and component.face is not None
            and component.face.endswith(f"/{STICKER_FACE}"))


def print_kind(component: Component) -> str:
    """The kind a print profile sees: a printed standard deck is cards."""
    return "card" if component.kind == "deck" else component.kind


def all_components(game: GameData, templates_dir: Path | None = None) -> list[Component]:
    """Every component with a layout, whatever a build would choose: for previews and lint."""
    return (printable_components(game, templates_dir) + aid_components(game, templates_dir)
            + sticker_components(game, templates_dir))


def component_rows(game: GameData, component: Component) -> list[Row]:
    """The component's rows; a table-less component (identical counters) is one row.

    Stickers read the rows of the deck they are for.
    """
    if component.table is not None:
        rows = game.rows.get(component.id)
        if rows is None and is_sticker(component):
            rows = game.rows.get(component.id[:-len(STICKER_SUFFIX)])
        if rows is None:
            raise PnpError(f"{game.slug}: no table loaded for {component.id!r}")
        return rows
    return [Row(line=0, values=MappingProxyType({"id": component.id,
                                                 "qty": component.count}))]


def component_size(component: Component) -> tuple[float, float]:
    """Return the component's trim size in points (a round token: its diameter square)."""
    size = component.size or (component.diameter, component.diameter)
    if size[0] is None or size[1] is None:
        raise PnpError(f"component {component.id!r} has a face template but no size: "
                       "give it size = \"poker\" (or \"W x H\") in the manifest")
    return (float(size[0]), float(size[1]))


def is_round(component: Component) -> bool:
    """Return True for a round token (cut along a circle)."""
    return component.size is None and component.diameter is not None


class Tables(Mapping[str, list[dict[str, Any]]]):
    """A game's tables for templates: ``tables.summary[0].text_en``.

    Rows are turned into plain dicts only when a template asks for a table,
    so passing this to every card costs nothing.
    """

    def __init__(self, game: GameData) -> None:
        self._game = game
        self._done: dict[str, list[dict[str, Any]]] = {}

    def __getitem__(self, key: str) -> list[dict[str, Any]]:
        """The rows of component ``key`` as dicts (KeyError if it has no table)."""
        hit = self._done.get(key)
        if hit is None:
            rows = self._game.rows.get(key)
            if rows is None:
                raise KeyError(key)
            hit = self._done[key] = [dict(r.values) for r in rows]
        return hit

    def __iter__(self) -> Iterator[str]:
        """Component ids that have a table."""
        return iter(self._game.rows)

    def __len__(self) -> int:
        """Number of tables."""
        return len(self._game.rows)
