"""The one Jinja environment card templates are rendered with (sandboxed, strict)."""

from __future__ import annotations

import functools
import hashlib
import os
import pickle
import re
import sys
from pathlib import Path
from types import CodeType, TracebackType
from typing import Any, Callable

import jinja2
import jinja2.bccache
import markupsafe
from jinja2.loaders import split_template_path
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


#: markupsafe's C escaping of a plain string (what ``escape`` calls for one);
#: None where markupsafe has no such helper (then ``escape`` itself is used).
_escape_inner: Any = getattr(markupsafe, "_escape_inner", None)
#: ``str.__new__``: makes a :class:`Markup` of an already escaped plain string,
#: which is all ``Markup.__new__`` does with one (no ``__html__``, no encoding).
_new_str = str.__new__


def fast_escape(value: Any) -> Markup:
    """markupsafe's ``escape``, without its two Python calls for plain strings and numbers.

    Every ``{{ ... }}`` of an autoescaped template calls ``escape`` (33,000
    times in a build of the shipped games). For an exact ``str`` it returns
    ``Markup(_escape_inner(value))``, for an ``int`` or ``float``
    ``Markup(_escape_inner(str(value)))``: the same C escaping here, and the
    same ``Markup`` made directly (a number's text has nothing to escape).
    Anything else (``Markup``, objects with ``__html__``, subclasses, ``None``,
    ``bool``) goes to ``escape`` itself.
    """
    kind = type(value)
    if kind is str:
        return _new_str(Markup, _escape_inner(value))
    if kind is int or kind is float:
        return _new_str(Markup, _escape_inner(str(value)))
    return escape(value)


class PnpTemplate(jinja2.Template):
    """A card template whose compiled code escapes output with :func:`fast_escape`."""

    @classmethod
    def from_code(cls, environment: jinja2.Environment, code: CodeType,
                  globals: Any, uptodate: Any = None) -> jinja2.Template:
        """Jinja's ``from_code``, then the module's ``escape`` (imported from Jinja's runtime) swapped.

        The compiled module's functions (its root, blocks and macros) read
        ``escape`` from the module's namespace when they run, so replacing it
        there changes what every one of them calls, not the code (the
        compiled-template stores are untouched).
        """
        template = super().from_code(environment, code, globals, uptodate)
        namespace = template.root_render_func.__globals__
        if _escape_inner is not None and namespace.get("escape") is escape:
            namespace["escape"] = fast_escape
        return template


#: Called with each layout an environment's layout cache is given (each
#: distinct layout once per process; sides a build takes whole from its sheet
#: cache are not laid out). `pnp build` hangs its small-text count here
#: (:func:`pnp.render.srcmap.small_texts`) instead of walking the cards
#: again; empty, a put costs one test of an empty list.
LAYOUT_LISTENERS: list[Callable[[Any], None]] = []


class _LayoutMemo(BoundedMemo[str, Any]):
    """The layout cache: a :class:`BoundedMemo` that shows each new layout to the listeners."""

    __slots__ = ()

    def put(self, key: str, value: Any) -> Any:
        """Remember ``value`` (a layout) under ``key``, after the listeners have seen it."""
        if LAYOUT_LISTENERS:
            for listener in LAYOUT_LISTENERS:
                listener(value)
        return super().put(key, value)


class PnpEnvironment(BoundedSandbox):
    """A sandboxed, bounded environment that remembers its templates folder.

    The layout code needs the folder to find icons and images; caches that
    belong to one environment live here too.
    """

    templates_dir: Path
    template_class = PnpTemplate

    def __init__(self, templates_dir: Path, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.templates_dir = templates_dir
        #: Parsed layouts by key (:func:`pnp.render.layout.layout_of_markup`),
        #: bounded by an estimate of their bytes (long distinct paths are large).
        self.layout_cache: BoundedMemo[str, Any] = _LayoutMemo(LAYOUT_CACHE_BYTES,
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


#: Bump when the source preprocessing or the code generator changes in a way
#: the code digest (:func:`_codegen_digest`) cannot see (old compiled templates
#: are then ignored). "noopt": compiled without Jinja's optimizer.
TEMPLATE_CACHE_VERSION = "srcmap-1+bounded-2+noopt"

#: The modules whose code shapes a compiled template: the environment's
#: options (here), the bounded code generator and the source-line annotations.
_CODEGEN_MODULES = ("jinja_env.py", "sandbox.py", "srcmap.py")

#: pnp's store of its own shipped templates, compiled (a folder of pnp's
#: ``__pycache__``, beside the modules' own compiled code; see
#: :class:`TemplateCodeCache`). None: no such store.
SHIPPED_CODE_DIR: Path | None = Path(__file__).resolve().parent.parent / "__pycache__" / "templates"


@functools.lru_cache(maxsize=1)
def _codegen_digest() -> str:
    """What every compiled template depends on besides its own source.

    :data:`TEMPLATE_CACHE_VERSION`, Jinja's version (its code generator and
    runtime change together; Jinja's own bytecode header only names the
    Python) and the bytes of the modules that generate the code, so an
    edited code generator never runs code compiled by the old one.
    """
    h = hashlib.blake2b(digest_size=20)
    h.update(f"{TEMPLATE_CACHE_VERSION}\0{jinja2.__version__}\0".encode())
    here = Path(__file__).resolve().parent
    for name in _CODEGEN_MODULES:
        try:
            h.update((here / name).read_bytes())
        except OSError:    # cannot tell: a key no other process makes
            h.update(os.urandom(16))
    return h.hexdigest()


class _Bucket(jinja2.bccache.Bucket):
    """A bucket that knows which template it is for (where the code may come from)."""

    name: str
    filename: str | None
    source: str
    #: True when the code came from the shipped store (nothing to write back there).
    shipped: bool = False


def _refiled(code: CodeType, filename: str) -> CodeType:
    """``code`` (a compiled template: its macros are nested code) named as ``filename``.

    Compiled code carries the file it was compiled from; error messages find
    the template's line through it (:func:`_template_frame`), so code compiled
    from another copy of the same template must name this one.
    """
    consts = tuple(_refiled(c, filename) if isinstance(c, CodeType) else c
                   for c in code.co_consts)
    return code.replace(co_filename=filename, co_consts=consts)


class TemplateCodeCache(jinja2.BytecodeCache):
    """Compiled templates: the user's cache folder, then pnp's store of its shipped templates.

    Compiling is most of a first preview and ~0.6 s of a first build (the
    shipped templates: ~4.5 G instructions, Jinja's parser and code
    generator and Python's compiler). Two stores, each keyed by the
    template's source and :func:`_codegen_digest` (a changed template,
    Jinja or code generator is compiled again, never served stale):

    - the cache folder (``<cache>/jinja``), one entry per template file,
      as Jinja's own file cache keeps them;
    - the shipped store (:data:`SHIPPED_CODE_DIR`, like Python's own
      ``__pycache__``): one entry per template *name*, written only for a
      template whose bytes are those of the shipped template of that name,
      and read for any template of that name and source — wherever the
      project lives and whatever cache folder it uses (a project made by
      ``pnp init`` holds copies of the shipped templates). It holds at most
      one compiled copy of each shipped template per Python version; a
      folder that cannot be written is simply not used.
    """

    def __init__(self, folder: Path | None, shipped: Path | None) -> None:
        """Keep compiled templates in ``folder`` and ``shipped`` (either may be None)."""
        self.folder = folder
        self.shipped = shipped

    def get_source_checksum(self, source: str) -> str:
        """Checksum of the source and of what compiles it."""
        h = hashlib.blake2b(_codegen_digest().encode(), digest_size=20)
        h.update(source.encode("utf-8", "surrogatepass"))
        return h.hexdigest()

    def get_bucket(self, environment: jinja2.Environment, name: str, filename: str | None,
                   source: str) -> jinja2.bccache.Bucket:
        """The bucket of one template, its code loaded if either store has it."""
        bucket = _Bucket(environment, self.get_cache_key(name, filename),
                         self.get_source_checksum(source))
        bucket.name, bucket.filename, bucket.source = name, filename, source
        self.load_bytecode(bucket)
        return bucket

    def _shipped_path(self, name: str) -> Path | None:
        """The shipped store's entry for template ``name`` (this Python's)."""
        if self.shipped is None:
            return None
        key = hashlib.blake2b(name.encode("utf-8", "surrogatepass"), digest_size=16).hexdigest()
        return self.shipped / f"{key}.{sys.implementation.cache_tag}.j2c"

    def load_bytecode(self, bucket: jinja2.bccache.Bucket) -> None:
        """Load the bucket's code from the cache folder, else from the shipped store."""
        if self.folder is not None:
            _read_into(bucket, self.folder / f"__jinja2_{bucket.key}.cache")
        if bucket.code is None and isinstance(bucket, _Bucket):
            path = self._shipped_path(bucket.name)
            if path is not None and _read_into(bucket, path):
                bucket.shipped = True
                if bucket.filename is not None and bucket.code is not None \
                        and bucket.code.co_filename != bucket.filename:
                    bucket.code = _refiled(bucket.code, bucket.filename)
                if self.folder is not None:
                    # the cache folder holds every template its processes use
                    # (one small file each): it does not depend on the store
                    _write_from(bucket, self.folder / f"__jinja2_{bucket.key}.cache")

    def dump_bytecode(self, bucket: jinja2.bccache.Bucket) -> None:
        """Write a freshly compiled template to the cache folder and, if shipped, the store."""
        if self.folder is not None:
            _write_from(bucket, self.folder / f"__jinja2_{bucket.key}.cache")
        if isinstance(bucket, _Bucket) and not bucket.shipped:
            path = self._shipped_path(bucket.name)
            if path is not None and _is_shipped(bucket.name, bucket.source):
                try:
                    path.parent.mkdir(parents=True, exist_ok=True)
                except OSError:
                    return
                _write_from(bucket, path)


def _is_shipped(name: str, source: str) -> bool:
    """True if ``source`` is exactly the shipped template ``name`` (bytes compared)."""
    from pnp.project import shipped

    try:
        parts = split_template_path(name)
        data = shipped("templates").joinpath(*parts).read_bytes()
    except (OSError, jinja2.TemplateNotFound):
        return False
    return data == source.encode("utf-8", "surrogatepass")


def _read_into(bucket: jinja2.bccache.Bucket, path: Path) -> bool:
    """Load ``bucket``'s code from ``path``; True if it held the bucket's code."""
    try:
        with open(path, "rb") as handle:
            bucket.load_bytecode(handle)
    except (OSError, EOFError, ValueError, TypeError, pickle.UnpicklingError):
        bucket.reset()       # a damaged entry is a miss
    return bucket.code is not None


def _write_from(bucket: jinja2.bccache.Bucket, path: Path) -> None:
    """Write ``bucket``'s code to ``path`` atomically (errors only cost speed)."""
    tmp = path.with_name(f".{path.name}.{os.getpid()}-{os.urandom(4).hex()}.tmp")
    try:
        with open(tmp, "wb") as handle:
            bucket.write_bytecode(handle)
        os.replace(tmp, path)
    except OSError:
        try:
            tmp.unlink()
        except OSError:
            pass


def _bytecode_cache() -> jinja2.BytecodeCache:
    """Compiled templates: the cache folder's and pnp's shipped store (either may be missing).

    Compiling the templates was most of a cold ``pnp preview``; with the
    cache a template is compiled once per edit, not once per process.
    """
    from pnp.render.diskcache import cache_dir

    return TemplateCodeCache(cache_dir("jinja"), SHIPPED_CODE_DIR)


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
        # Jinja's optimizer folds constants at compile time: ~9 % of compiling
        # the shipped templates, for no measurable gain when rendering (the
        # sandbox's operators are never folded); the same output
        optimized=False,
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


def _opened(exc: jinja2.TemplateSyntaxError) -> tuple[str, int] | None:
    """The unclosed ``{%``/``{{`` a syntax error comes from (pnp.render.srcmap), if any."""
    from pnp.render.srcmap import unclosed_opener

    return unclosed_opener(exc.source, exc.lineno) if exc.source else None


def _syntax_line(exc: jinja2.TemplateSyntaxError) -> int:
    """The line to fix: where an unclosed tag opened, else where Jinja noticed the error."""
    opened = _opened(exc)
    return opened[1] if opened is not None else exc.lineno


def _syntax_message(exc: jinja2.TemplateSyntaxError) -> str:
    """Jinja's message, said from the line where an unclosed tag opened when that is the cause."""
    opened = _opened(exc)
    if opened is None:
        return str(exc.message)
    close = {"{%": "%}", "{{": "}}", "{#": "#}"}[opened[0]]
    return (f"the {opened[0]} opened on this line is not closed with {close} "
            f"(Jinja noticed on line {exc.lineno}: {exc.message})")


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
        raise PnpError(f"template syntax error: {_syntax_message(exc)}{suffix}",
                       path=display_path(env, name), line=_syntax_line(exc)) from None
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
