"""The one Jinja environment card templates are rendered with (sandboxed, strict)."""

from __future__ import annotations

import re
import sys
from pathlib import Path
from types import TracebackType
from typing import Any

import jinja2
from jinja2.sandbox import SecurityError
from markupsafe import Markup, escape

from pnp.errors import PnpError
from pnp.render.colors import darken, lighten, mix
from pnp.render.memo import BoundedMemo
from pnp.render.sandbox import BoundedSandbox, ConfinedLoader, render_bounded
from pnp.render.srcmap import SourceLines


#: Most bytes (estimated) of parsed layouts an environment keeps (a full build of
#: the shipped games: 279 layouts, ~7 MB; the 256 entries kept before could hold
#: 33 MB of long distinct paths).
LAYOUT_CACHE_BYTES = 8 * 2**20


def _layout_bytes(_key: str, layout: Any) -> int:
    """A rough estimate of a kept layout's memory (its nodes' paths dominate)."""
    from pnp.render.markup import node_bytes   # loaded by then: it made the layout

    return sum(node_bytes(node) for node in layout.nodes)


class PnpEnvironment(BoundedSandbox):
    """A sandboxed, bounded environment that remembers its templates folder.

    The layout code needs the folder to find icons and images; caches that
    belong to one environment live here too.
    """

    templates_dir: Path

    def __init__(self, templates_dir: Path, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.templates_dir = templates_dir
        #: Parsed layouts by key (:func:`pnp.render.layout.layout_of_markup`),
        #: bounded by an estimate of their bytes (long distinct paths are large).
        self.layout_cache: BoundedMemo[str, Any] = BoundedMemo(LAYOUT_CACHE_BYTES,
                                                                _layout_bytes)
        self.resolvers: dict[tuple[str, ...], Any] = {}
        #: Layouts kept on disk across builds (:func:`pnp.render.layout.use_layout_store`).
        self.layout_store: Any = None
        #: Rendered markup kept on disk across builds (:mod:`pnp.builder.markup_cache`).
        self.markup_store: Any = None
        #: Per template name: its icon folders, and those relative to the folder
        #: (:func:`pnp.render.layout.layout_of_markup`; a few per environment).
        self.icon_folders: dict[str, tuple[tuple[Path, ...], tuple[str, ...]]] = {}


def _br(value: object) -> Markup:
    """Filter: escape a data string and turn its newlines into ``<br/>``."""
    text = str(value)
    return Markup("<br/>").join(escape(part) for part in text.split("\n"))


class _BytecodeCache(jinja2.FileSystemBytecodeCache):
    """Compiled templates on disk, keyed also by how pnp preprocesses them.

    Jinja keys cached bytecode by the template's source; pnp adds source-line
    annotations before compiling (:mod:`pnp.render.srcmap`), so the key also
    carries :data:`TEMPLATE_CACHE_VERSION` — a changed preprocessor never
    reuses old bytecode.
    """

    def get_source_checksum(self, source: str) -> str:
        """Checksum of the source plus the preprocessing version."""
        return super().get_source_checksum(f"{TEMPLATE_CACHE_VERSION}\0{source}")


#: Bump when the source preprocessing or the code generator changes (old compiled
#: templates are ignored).
TEMPLATE_CACHE_VERSION = "srcmap-1+bounded-2"


def _bytecode_cache() -> jinja2.BytecodeCache | None:
    """The on-disk cache of compiled templates, or None when no cache folder can be made.

    Compiling the templates was most of a cold ``pnp preview``; with the
    cache a template is compiled once per edit, not once per process.
    """
    from pnp.render.diskcache import cache_dir

    folder = cache_dir("jinja")
    return _BytecodeCache(str(folder)) if folder is not None else None


def _text_width(value: object, size: float = 9.0, font: str = "sans") -> float:
    """Filter: the width in mm of a one-line text at ``size`` pt in font family ``font``.

    For sizing a pill or a tab to its label; line breaking and shrink-to-fit
    stay with ``<text>``.
    """
    from pnp.render.fonts import FONT_JA, char_width, family_fonts, has_glyph

    chain = family_fonts(str(font)) + (FONT_JA,)
    total = 0.0
    for ch in str(value):
        cp = ord(ch)
        face = next((f for f in chain if has_glyph(f, cp)), FONT_JA)
        total += char_width(face, cp)
    return round(total * float(size) * 25.4 / 72.0, 3)


def make_environment(templates_dir: Path) -> PnpEnvironment:
    """Return the Jinja environment for card templates under ``templates_dir``.

    Sandboxed (no ``__class__`` tricks) and bounded in sizes and time
    (:mod:`pnp.render.sandbox`), StrictUndefined (a misspelt field is an
    error, not an empty string), a loader confined to the folder (includes
    cannot leave it, not even through a symlink), autoescaping on (data with
    ``&`` or ``<`` cannot break the markup) and trim_blocks/lstrip_blocks.
    """
    env = PnpEnvironment(
        Path(templates_dir),
        loader=ConfinedLoader(Path(templates_dir)),
        # element start tags get their template line (pnp.render.srcmap)
        extensions=[SourceLines],
        undefined=jinja2.StrictUndefined,
        autoescape=True,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=False,
        auto_reload=True,   # live preview picks up edited templates
        bytecode_cache=_bytecode_cache(),
    )
    env.filters["lighten"] = lighten
    env.filters["darken"] = darken
    env.filters["mix"] = mix
    env.filters["br"] = _br
    env.filters["text_width"] = _text_width
    return env


def display_path(env: PnpEnvironment, template_name: str) -> str:
    """Return the template's path as shown in messages: ``templates/slug/x.xml.j2``."""
    return f"{env.templates_dir.name}/{template_name}"


def _template_frame(tb: TracebackType | None, env: PnpEnvironment) -> tuple[str, int] | None:
    """Return (template name, line) of the innermost template frame in ``tb``."""
    root = str(env.templates_dir.resolve())
    found = None
    while tb is not None:
        filename = tb.tb_frame.f_code.co_filename
        if filename.endswith(".j2") or filename.startswith(root):
            try:
                rel = Path(filename).resolve().relative_to(root).as_posix()
            except ValueError:
                rel = filename
            found = (rel, tb.tb_lineno)
        tb = tb.tb_next
    return found


_NO_ATTR = re.compile(r"has no attribute '([^']+)'")
_IS_UNDEF = re.compile(r"^'([^']+)' is undefined")


def _undefined_name(message: str, source_line: str) -> str:
    """Turn Jinja's undefined message into ``undefined variable 'card.nmber'``."""
    m = _IS_UNDEF.match(message)
    if m:
        return f"undefined variable {m.group(1)!r}"
    m = _NO_ATTR.search(message)
    if m:
        attr = m.group(1)
        chain = re.search(r"([A-Za-z_][\w]*(?:\.[A-Za-z_]\w*|\[[^\]]*\])*?)\s*"
                          r"(?:\.|\[\s*['\"])" + re.escape(attr) + r"\b", source_line)
        if chain:
            return f"undefined variable '{chain.group(1)}.{attr}'"
        return f"undefined variable (no field {attr!r}): {message}"
    return f"undefined variable: {message}"


def render_template(env: PnpEnvironment, template_name: str, context: dict[str, Any],
                    *, where: str) -> str:
    """Render ``template_name``; every failure becomes a one-line PnpError.

    Messages name the template file and line, e.g.
    ``templates/fortuna/reel_face.xml.j2:12: undefined variable 'card.nmber'``.
    """
    suffix = f" (rendering {where})" if where else ""
    try:
        template = env.get_template(template_name)
        return render_bounded(template, context)
    except jinja2.TemplateSyntaxError as exc:
        name = exc.name or template_name
        raise PnpError(f"template syntax error: {exc.message}{suffix}",
                       path=display_path(env, name), line=exc.lineno) from None
    except PnpError as exc:
        frame = _template_frame(sys.exc_info()[2], env)
        if frame is None:
            raise
        raise PnpError(f"{exc.message}{suffix}", path=display_path(env, frame[0]),
                       line=frame[1]) from None
    except Exception as exc:  # any runtime error in a template is a user error
        frame = _template_frame(sys.exc_info()[2], env)
        if isinstance(exc, jinja2.TemplateNotFound):
            msg = (f"template {exc.name!r} not found under {env.templates_dir} "
                   f"(includes must stay inside the templates folder)")
        elif isinstance(exc, SecurityError):
            msg = f"unsafe access blocked by the template sandbox: {exc}"
        elif isinstance(exc, jinja2.UndefinedError):
            line = ""
            if frame is not None:
                try:
                    src = (env.templates_dir / frame[0]).read_text(encoding="utf-8")
                    line = src.splitlines()[frame[1] - 1]
                except (OSError, IndexError, UnicodeDecodeError):
                    line = ""
            msg = _undefined_name(str(exc.message or exc), line)
        else:
            msg = f"{type(exc).__name__}: {exc}"
        if frame is None:
            raise PnpError(f"{display_path(env, template_name)}: {msg}{suffix}") from None
        raise PnpError(f"{msg}{suffix}", path=display_path(env, frame[0]),
                       line=frame[1]) from None
