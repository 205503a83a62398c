"""Render a card template and parse its markup into an immutable Layout."""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass
from typing import Any

from pnp.render.icons import IconResolver, icon_dirs
from pnp.render.jinja_env import PnpEnvironment, display_path, render_template
from pnp.render.markup import parse_card
from pnp.render.nodes import IconUse, Node

#: How many parsed layouts an environment keeps (identical cards share one).
LAYOUT_CACHE_SIZE = 256
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
                  *, where: str) -> Layout:
    """Render ``template_name`` with ``context`` and parse it into a :class:`Layout`.

    ``where`` names the card in error messages (e.g. ``fortuna/reel reel-3-bolt``).
    Raises PnpError for template errors (file:line), bad markup, unknown icons
    and text that does not fit even at its min-size.
    """
    markup = render_template(env, template_name, context, where=where)
    dirs = icon_dirs(env.templates_dir, template_name)
    # Icon folders enter the key relative to the templates folder, so the key
    # (and whatever is named after it) is the same wherever the project lives.
    rel = tuple(d.relative_to(env.templates_dir).as_posix() for d in dirs)
    h = hashlib.blake2b(digest_size=12)
    # the key ignores where elements came from: identical cards share a form
    # even when two templates drew them
    h.update(_AT.sub("", markup).encode("utf-8"))
    h.update(b"\0")
    h.update("\0".join(rel).encode("utf-8"))
    key = h.hexdigest()
    cache: dict[str, Layout] = env.layout_cache
    hit = cache.get(key)
    if hit is not None:
        return hit
    resolver = env.resolvers.get(rel)
    if resolver is None:
        resolver = env.resolvers[rel] = IconResolver(dirs, template_name)
    width, height, bleed, nodes, icons, at = parse_card(
        markup, where, resolver, env.templates_dir,
        source=f"{display_path(env, template_name)}, rendered markup", template=template_name)
    layout = Layout(width, height, bleed, nodes, key, icons, template_name, at)
    if len(cache) >= LAYOUT_CACHE_SIZE:
        cache.pop(next(iter(cache)))
    cache[key] = layout
    return layout
