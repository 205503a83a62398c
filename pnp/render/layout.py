"""Render a card template and parse its markup into an immutable Layout."""

from __future__ import annotations

import hashlib
import io
import pickle
import re
import threading
from dataclasses import dataclass
from typing import Any, Callable

from pnp.render.icons import IconResolver, icon_dirs
from pnp.render.jinja_env import PnpEnvironment, display_path, render_template
from pnp.render.markup import parse_card
from pnp.render.nodes import Icon, IconUse, Node, draws_image

_AT = re.compile(r' _at="[^"]*"')


@dataclass(frozen=True, eq=False)
class Layout:
    """One card side, ready to draw.

    ``width``, ``height`` and ``bleed`` are in points; ``nodes`` are in points
    with the origin at the trim box's top-left and y pointing down. ``key`` is
    a stable hash of the rendered markup (plus the icon folders it was resolved
    against, relative to the templates folder, so the key does not depend on
    where the project lives), so identical cards share a key and one PDF form.
    ``icons`` lists one use of each distinct icon (for defining icon forms).
    """

    width: float
    height: float
    bleed: float
    nodes: tuple[Node, ...]
    key: str
    icons: tuple[IconUse, ...]
    template: str
    #: Template location ("name:line") of the ``<card>`` element, if known.
    at: str | None = None


def render_markup(env: PnpEnvironment, template_name: str, context: dict[str, Any],
                  *, where: str) -> str:
    """Return the rendered markup text of a template (for debugging and tests)."""
    return render_template(env, template_name, context, where=where)


def render_layout(env: PnpEnvironment, template_name: str, context: dict[str, Any],
                  *, where: str, on_markup: Callable[[str], None] | None = None,
                  keep: bool = True) -> Layout:
    """Render ``template_name`` with ``context`` and parse it into a :class:`Layout`.

    ``where`` names the card in error messages (e.g. ``fortuna/reel reel-3-bolt``).
    Raises PnpError for template errors (file:line), bad markup, unknown icons
    and text that does not fit even at its min-size. ``on_markup`` is called
    with the rendered markup once it parsed (the build keeps it: see
    :mod:`pnp.builder.markup_cache`). ``keep``: look the layout up in, and add
    it to, the environment's on-disk layout store (:class:`LayoutStore`).
    """
    markup = render_template(env, template_name, context, where=where)
    layout = layout_of_markup(env, template_name, markup, where=where, keep=keep)
    if on_markup is not None:
        on_markup(markup)
    return layout


def layout_of_markup(env: PnpEnvironment, template_name: str, markup: str, *,
                     where: str, keep: bool = True) -> Layout:
    """Parse markup that ``template_name`` rendered into a :class:`Layout` (see render_layout).

    ``keep=False`` leaves the on-disk layout store alone (the build's choice
    for markup it has never seen: see :func:`pnp.builder.decks.render_side`).
    """
    folders = env.icon_folders.get(template_name)
    if folders is None:
        dirs = icon_dirs(env.templates_dir, template_name)
        # Icon folders enter the key relative to the templates folder, so the key
        # (and whatever is named after it) is the same wherever the project lives.
        rel = tuple(d.relative_to(env.templates_dir).as_posix() for d in dirs)
        folders = env.icon_folders[template_name] = (dirs, rel)
    dirs, rel = folders
    h = hashlib.blake2b(digest_size=12)
    # the key ignores where elements came from: identical cards share a form
    # even when two templates drew them
    h.update(_AT.sub("", markup).encode("utf-8"))
    h.update(b"\0")
    h.update("\0".join(rel).encode("utf-8"))
    key = h.hexdigest()
    cache = env.layout_cache     # bounded by bytes (PnpEnvironment)
    hit = cache.get(key)
    if hit is not None:
        return hit
    resolver = env.resolvers.get(rel)
    if resolver is None:
        # a build pinned to its templates snapshot reads its icons from it too
        resolver = env.resolvers[rel] = IconResolver(
            dirs, template_name, snapshot=getattr(env.loader, "snapshot", None))
    store: LayoutStore | None = getattr(env, "layout_store", None) if keep else None
    layout = store.load(template_name, rel, markup, resolver) if store is not None else None
    if layout is None or layout.key != key:
        width, height, bleed, nodes, icons, at = parse_card(
            markup, where, resolver, env.templates_dir,
            source=f"{display_path(env, template_name)}, rendered markup",
            template=template_name)
        layout = Layout(width, height, bleed, nodes, key, icons, template_name, at)
        if store is not None:
            store.save(template_name, rel, markup, layout)
    return cache.put(key, layout)


#: Most bytes the layout cache keeps on disk (see :mod:`pnp.render.diskcache`).
LAYOUT_DISK_LIMIT = 64 * 2**20
#: Bump when :class:`Layout` or the nodes change shape (old entries are then ignored).
LAYOUT_FORMAT = "layout-3"


class LayoutStore:
    """Fitted layouts kept across processes, keyed by everything a layout depends on.

    Parsing a card's markup and fitting its text is a quarter of a build's
    CPU and gives the same layout for the same inputs, so ``pnp build``
    keeps each layout on disk. The key hashes the full rendered markup
    (template lines included), the template's name and icon folders, and a
    ``salt`` the caller computes once per process: pnp's code stamp, the
    font files, the Python version and the templates folder's real path
    (layouts hold absolute icon paths). Icons are stored by reference and
    resolved on every load: the icon the folder resolves the name to now
    must be the same file with the same content digest, else the entry is a
    miss. Layouts that draw raster images are not kept (they depend on the
    image file's pixel size). Anything unreadable is a miss.
    """

    def __init__(self, cache: Any, salt: str) -> None:
        """Keep layouts in ``cache`` (a :class:`pnp.render.diskcache.DiskCache`)."""
        self.cache = cache
        self.salt = salt

    def _key(self, template_name: str, rel: tuple[str, ...], markup: str) -> str:
        from pnp.render.diskcache import digest

        return digest(LAYOUT_FORMAT, self.salt, template_name, "\0".join(rel), markup)

    def load(self, template_name: str, rel: tuple[str, ...], markup: str,
             resolver: IconResolver) -> Layout | None:
        """The stored layout of ``markup``, or None (missing, unreadable or an icon changed)."""
        data = self.cache.get(self._key(template_name, rel, markup))
        if data is None:
            return None
        try:
            layout = _load_layout(data, resolver)
        except Exception:  # a damaged entry, or an icon that changed or is gone: parse instead
            return None
        return layout if isinstance(layout, Layout) else None

    def save(self, template_name: str, rel: tuple[str, ...], markup: str,
             layout: Layout) -> None:
        """Keep ``layout`` unless it draws a raster image."""
        if draws_image(layout.nodes):
            return
        buf = io.BytesIO()
        try:
            _IconsAsNames(buf, protocol=pickle.HIGHEST_PROTOCOL).dump(layout)
        except Exception:  # something unpicklable: only costs speed
            return
        self.cache.put(self._key(template_name, rel, markup), buf.getvalue())


class _IconsAsNames(pickle.Pickler):
    """Pickles a layout with each icon as its name, file and content digest.

    Icons are the bulk of a layout's shapes and are loaded once per process
    anyway; storing them by reference halves the time to load a layout.
    (``reducer_override`` rather than ``persistent_id``: it is not called
    for the many numbers and tuples of a layout.)
    """

    def reducer_override(self, obj: Any) -> Any:
        """An icon as a call of :func:`_stored_icon`; NotImplemented for everything else."""
        if type(obj) is Icon:
            return _stored_icon, (obj.name, obj.key, str(obj.path))
        return NotImplemented


#: The icon resolver of the layout being loaded in this thread.
_loading = threading.local()


def _stored_icon(name: str, key: str, path: str) -> Icon:
    """The icon the folder resolves ``name`` to now, if it is the same file and content."""
    icon = _loading.resolver(name)
    if icon.key != key or str(icon.path) != path:
        raise pickle.UnpicklingError(f"icon {name!r} changed")
    return icon


def _load_layout(data: bytes, resolver: IconResolver) -> Any:
    """Unpickle a stored layout, resolving its icons with ``resolver``."""
    _loading.resolver = resolver
    try:
        return pickle.loads(data)
    finally:
        _loading.resolver = None


def use_layout_store(env: PnpEnvironment, salt: str) -> bool:
    """Give ``env`` an on-disk layout cache (:class:`LayoutStore`); False if there is none."""
    from pnp.render.diskcache import open_cache

    cache = open_cache("layouts", LAYOUT_DISK_LIMIT)
    if cache is None:
        return False
    # (a loaded layout's fonts are registered when it is drawn: pnp.render.draw)
    env.layout_store = LayoutStore(cache, salt)
    return True
