"""Icon lookup: ``templates/<slug>/icons/NAME.svg`` then ``templates/common/icons``."""

from __future__ import annotations

import hashlib
import re
from pathlib import Path
from typing import Mapping

from pnp.errors import PnpError
from pnp.render.markup import parse_icon_svg
from pnp.render.nodes import Icon
from pnp.render.reads import note_read

#: File signatures of pictures a designer may save under an icon's .svg name.
_PICTURES: tuple[tuple[bytes, str], ...] = (
    (b"\x89PNG\r\n\x1a\n", "PNG"), (b"\xff\xd8\xff", "JPEG"), (b"GIF87a", "GIF"),
    (b"GIF89a", "GIF"), (b"%PDF-", "PDF"), (b"II*\x00", "TIFF"), (b"MM\x00*", "TIFF"),
    (b"BM", "BMP"))
_NAME = re.compile(r"^[A-Za-z0-9_-]+$")
#: (path, mtime_ns, size) or (path, digest of given bytes) -> parsed icon; icons
#: are parsed once per process.
_parsed: dict[tuple[Path, int, int] | tuple[Path, str], Icon] = {}


def load_icon(path: Path, name: str, data: bytes | None = None) -> Icon:
    """Parse the icon file at ``path`` (cached while the file is unchanged).

    ``data``: the file's bytes as a build's templates snapshot holds them
    (:meth:`pnp.render.sandbox.ConfinedLoader.pin`), parsed instead of
    what the file holds now.
    """
    key: tuple[Path, int, int] | tuple[Path, str]
    if data is None:
        st = path.stat()
        key = (path, st.st_mtime_ns, st.st_size)
    else:
        key = (path, hashlib.blake2b(data, digest_size=16).hexdigest())
    note_read(path)      # read now or before: what a recording keys on (pnp.render.reads)
    icon = _parsed.get(key)
    if icon is None:
        if data is None:
            data = path.read_bytes()
        kind = next((name for magic, name in _PICTURES if data.startswith(magic)), None)
        if kind is not None:
            raise PnpError(f"icon file {path} is a {kind} picture, not SVG: expected an SVG "
                           "file (draw a picture with <image href=\"…\"> instead)")
        try:
            text = data.decode("utf-8-sig")
        except UnicodeDecodeError:
            raise PnpError(f"icon file {path} is not UTF-8 text: expected an SVG file "
                           "saved as UTF-8") from None
        digest = hashlib.blake2b(data, digest_size=8).hexdigest()
        icon = parse_icon_svg(text, name, path, digest)
        _parsed[key] = icon
    return icon


def icon_dirs(templates_dir: Path, template_name: str) -> tuple[Path, ...]:
    """Return the folders searched for icons used by ``template_name``."""
    parts = template_name.replace("\\", "/").split("/")
    dirs = []
    if len(parts) > 1 and parts[0] != "common":
        dirs.append(templates_dir / parts[0] / "icons")
    dirs.append(templates_dir / "common" / "icons")
    return tuple(dirs)


class IconResolver:
    """Resolves icon names for one template (per-name results are memoised)."""

    def __init__(self, dirs: tuple[Path, ...], what: str, root: Path | None = None,
                 snapshot: Mapping[str, bytes | None] | None = None) -> None:
        """Look in ``dirs``; icons must be real files inside ``root``, the templates folder.

        ``root`` defaults to the folder above ``common/icons``, the last of
        :func:`icon_dirs`. ``snapshot``: a pinned build's templates folder
        (names relative to ``root``: bytes), which icons are then found in
        and read from, as its caches' keys were made of them.
        """
        self.dirs = dirs
        self.what = what
        self.root = root if root is not None else (dirs[-1].parent.parent if dirs else None)
        self.snapshot = snapshot
        self._memo: dict[str, Icon] = {}

    def _find(self, path: Path) -> tuple[bool, bytes | None]:
        """Whether the icon file ``path`` exists, and its pinned bytes (None: read the file)."""
        if self.snapshot is not None and self.root is not None:
            try:
                name = path.relative_to(self.root).as_posix()
            except ValueError:
                pass
            else:
                return name in self.snapshot, self.snapshot.get(name)
        return path.is_file(), None

    def __call__(self, name: str) -> Icon:
        """Return the icon called ``name`` or raise PnpError naming the card."""
        icon = self._memo.get(name)
        if icon is not None:
            return icon
        if not _NAME.match(name):
            raise PnpError(f"bad icon name {name!r}: use letters, digits, '-' and '_'")
        for d in self.dirs:
            path = d / f"{name}.svg"
            found, data = self._find(path)
            if found:
                if self.root is not None:  # a symlink must not lead out of the folder
                    from pnp.render.sandbox import confine

                    confine(path, self.root, "icon")
                icon = load_icon(path, name, data)
                self._memo[name] = icon
                return icon
        known = sorted({p.stem for d in self.dirs if d.is_dir() for p in d.glob("*.svg")})
        raise PnpError(f"unknown icon {name!r}; looked in "
                       f"{', '.join(str(d) for d in self.dirs)}; known icons: "
                       f"{', '.join(known) or '(none)'}")
