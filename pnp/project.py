"""The project folder: where a run reads card data, templates and rulebooks, and writes output.

One rule for every command, resolved once by the CLI (:meth:`Project.resolve`)
and passed down:

- the **project folder** is ``--project DIR``, else the current directory;
- ``card_data/``, ``templates/`` and ``rulebooks/`` are the project folder's
  own when it has them, else the copies shipped inside pnp (the five
  games), so ``pnp list`` works from any folder; ``--data-dir`` and
  ``--templates-dir`` override one folder each;
- ``output/`` is always in the project folder (``--out`` overrides it).

``pnp init DIR`` (:func:`init_project`) copies the shipped games into a new
project folder for a designer to edit.

The shipped games live beside the package: in a checkout (or an editable
install) they are the repository's own ``card_data/``, ``templates/`` and
``rulebooks/``; a built wheel carries copies under ``pnp/_shipped/`` (see
``setup.py``), so a non-editable ``pip install`` works from any folder.
"""

from __future__ import annotations

import shutil
from contextlib import contextmanager, suppress
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Iterator

from pnp import PROJECT_ROOT
from pnp.errors import PnpError

#: The folders a project holds (output/ aside), in the order ``pnp init`` copies them.
SHIPPED_FOLDERS: tuple[str, ...] = ("card_data", "templates", "rulebooks")
#: Where a built wheel keeps its copies of the shipped folders.
PACKAGE_COPY = Path(__file__).resolve().parent / "_shipped"


def shipped(name: str) -> Path:
    """The shipped copy of ``name`` (``card_data``, ``templates`` or ``rulebooks``).

    A wheel's copy inside the package wins; otherwise the checkout's folder
    (an editable install reads the repository directly, so edits show at once).
    """
    if name not in SHIPPED_FOLDERS:
        raise ValueError(f"not a shipped folder: {name!r}")
    packaged = PACKAGE_COPY / name
    return packaged if packaged.is_dir() else PROJECT_ROOT / name


@dataclass(frozen=True)
class Project:
    """The folders one run works with, resolved once."""

    #: The project folder (``--project`` or the current directory).
    root: Path
    #: Card data: one sub-folder per game.
    data_dir: Path
    #: Layout templates and icons.
    templates_dir: Path
    #: Rules texts, ``<slug>.md``.
    rulebooks_dir: Path
    #: Where generated files go.
    out_dir: Path

    @classmethod
    def resolve(cls, root: Path | str | None = None, *, data_dir: Path | str | None = None,
                templates_dir: Path | str | None = None,
                rulebooks_dir: Path | str | None = None,
                out_dir: Path | str | None = None) -> "Project":
        """Apply the rules above; explicit folders win over the project's and the shipped.

        Folders are kept as given (relative stays relative), so messages and
        the "wrote …" lines show the paths the designer typed.
        """
        base = Path(root) if root is not None else Path(".")
        if not base.is_dir():
            what = "is a file" if base.exists() else "not found"
            raise PnpError(f"project folder {str(base)!r} {what}: expected a folder holding "
                           "card_data/, templates/, rulebooks/ (see `pnp init`)")

        def pick(name: str, given: Path | str | None) -> Path:
            if given is not None:
                return Path(given)
            own = base / name if root is not None else Path(name)
            return own if own.is_dir() else shipped(name)

        return cls(root=base, data_dir=pick("card_data", data_dir),
                   templates_dir=pick("templates", templates_dir),
                   rulebooks_dir=pick("rulebooks", rulebooks_dir),
                   out_dir=Path(out_dir) if out_dir is not None else (
                       base / "output" if root is not None else Path("output")))

    def enclosing_project(self) -> Path | None:
        """The nearest folder above this one that holds ``card_data/``, when this one has none.

        Run from inside a project (``my-games/templates``), pnp would otherwise
        read the shipped games and write ``output/`` where it stands; the CLI
        says so, naming this folder. None when this folder has a project
        folder of its own, or none is above it.
        """
        base = self.root.resolve()
        if any((base / name).is_dir() for name in SHIPPED_FOLDERS):
            return None
        for parent in base.parents:
            if (parent / "card_data").is_dir():
                return parent
        return None

    def folder(self, name: str) -> Path:
        """One of this project's folders by its name (``card_data``, ``templates`` …)."""
        return {"card_data": self.data_dir, "templates": self.templates_dir,
                "rulebooks": self.rulebooks_dir, "output": self.out_dir}[name]

    @contextmanager
    def activated(self) -> Iterator["Project"]:
        """Make this the project that library defaults use while the block runs.

        Code paths that take no folder argument (an engine loading its cards,
        a rulebook looking for its text) then read the same folders as the
        command that called them.
        """
        _ACTIVE.append(self)
        try:
            yield self
        finally:
            _ACTIVE.remove(self)


_ACTIVE: list[Project] = []


def current() -> Project:
    """The project of the running command, or the current directory's by the rules above."""
    return _ACTIVE[-1] if _ACTIVE else Project.resolve()


def default_folder(name: str) -> Path:
    """The folder ``name`` a library function uses when its caller names none."""
    return current().folder(name)


def init_project(target: Path | str,
                 progress: Callable[[int], object] | None = None) -> list[Path]:
    """Create the project folder ``target`` with copies of the shipped games; return its folders.

    The folders are ``card_data/``, ``templates/``, ``rulebooks/`` (copies)
    and an empty ``output/``.

    ``target`` may exist only as an empty folder: an existing project is
    never overwritten. The copy is made in a hidden folder first (inside an
    existing empty ``target``, else beside it) and moved into place at the
    end, so a failed or interrupted init (Ctrl-C) leaves ``target`` as it
    was, and no parent folder it made on the way. ``progress(1)`` is called
    after each folder is copied and once more when the project is in place
    (the CLI's ``PNP_INTERRUPT_AFTER`` test hook counts these).
    """
    if not str(target).strip():
        raise PnpError(f"cannot create project {str(target)!r}: the folder name is blank; "
                       "expected a folder name (pnp init my-game), or . for the current, "
                       "empty folder")
    target = Path(target)
    if target.exists() and not target.is_dir():
        raise PnpError(f"cannot create project {str(target)!r}: it is a file, expected a new "
                       "or empty folder")
    if target.is_dir() and any(target.iterdir()):
        raise PnpError(f"cannot create project {str(target)!r}: the folder is not empty "
                       "(pnp init never overwrites a project; choose a new folder)")
    names = SHIPPED_FOLDERS + ("output",)
    # An existing (empty) folder is filled, not replaced: it may be the
    # working folder (`pnp init .`), or the only place the user may write.
    inside = target.is_dir()
    where = target.resolve()
    staging = (where / ".pnp-init.tmp" if inside
               else where.parent / f".{where.name}.pnp-init.tmp")
    made_parents = [] if inside else missing_parents(where)
    moved: list[Path] = []
    try:
        shutil.rmtree(staging, ignore_errors=True)        # a killed init's leftovers
        staging.mkdir(parents=True)
        for name in SHIPPED_FOLDERS:
            source = shipped(name)
            if not source.is_dir():
                raise PnpError(f"the shipped {name}/ is missing from this installation "
                               f"({source}); reinstall pnp")
            shutil.copytree(source, staging / name, ignore=shutil.ignore_patterns(
                "__pycache__", "*.pyc", ".*"))
            if progress is not None:
                progress(1)
        (staging / "output").mkdir()
        if inside:
            for name in names:
                moved.append(where / name)       # first: a Ctrl-C after the rename undoes it
                (staging / name).rename(where / name)
            staging.rmdir()
        else:
            staging.rename(where)
    except BaseException as exc:
        # stopped or failed half-way: take back what this run put there
        for path in moved:
            shutil.rmtree(path, ignore_errors=True)
        shutil.rmtree(staging, ignore_errors=True)
        for parent in made_parents:
            with suppress(OSError):
                parent.rmdir()               # only ever an empty folder
        if isinstance(exc, OSError):
            raise PnpError(f"cannot create project {str(target)!r}: "
                           # the folder as the user typed it
                           f"{_why_not_here(target if inside else target.parent, exc)}") from None
        raise
    if progress is not None:
        progress(1)                          # the project is whole from here on
    return [target / name for name in names]


def _why_not_here(place: Path, exc: OSError) -> str:
    """Why the project could not be made in ``place``, naming no hidden staging folder."""
    blocker = next((p for p in (place, *place.parents) if p.exists() and not p.is_dir()), None)
    if blocker is not None:
        return f"{str(blocker)!r} is a file, expected a folder"
    return f"cannot write in {str(place)!r}: {exc.strerror or exc}"


def missing_parents(path: Path) -> list[Path]:
    """The parents of ``path`` that do not exist yet, deepest first (what ``mkdir -p`` makes)."""
    missing = []
    for parent in path.parents:
        if parent.exists():
            break
        missing.append(parent)
    return missing
