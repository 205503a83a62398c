"""Bounds on template evaluation: sizes of strings and sequences, rendered output, time.

Jinja's sandbox stops a template from reaching Python internals, but not
from asking for ``'a' * 10**10`` (46 s and 9.8 GB before these bounds) or
looping for ever. Card templates never need anything near these limits: the
largest shipped card renders 20 KB of markup, the slowest takes 0.1 s
including compiling its template.

- a string made by an operator, a call or a filter holds at most
  :data:`MAX_STRING` characters, a list/tuple/dict/set at most
  :data:`MAX_ITEMS` items (Jinja's own ``range`` limit), and a power's
  exponent is at most :data:`MAX_EXPONENT`; such a value is refused
  *before* it is built wherever its size is known in advance;
- everything a template renders (and every ``{% set %}`` block or macro
  output) is at most :data:`MAX_OUTPUT` characters;
- one card side renders in at most :data:`RENDER_SECONDS` seconds: checked
  at every step of every ``{% for %}`` loop, every call and attribute
  lookup, and every :data:`CHUNKS_PER_CHECK` chunks of output, in whatever
  thread renders (``pnp watch`` answers previews from a background thread,
  where no signal can reach), so even a
  loop that does nothing is stopped; in the main thread on POSIX a timer
  signal also interrupts Python code a template set going that never
  reaches a check (a filter grinding through a huge string).

Every refusal is a :class:`~pnp.errors.PnpError` raised inside the template,
so the message names the template file and line.
"""

from __future__ import annotations

import functools
import os
import re
import signal
import threading
import time
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Callable, Iterable, Iterator, Mapping

import jinja2
from jinja2 import nodes
from jinja2.compiler import CodeGenerator, Frame
from jinja2.environment import TemplateModule
from jinja2.loaders import split_template_path
from jinja2.runtime import LoopContext
from jinja2.utils import Namespace
from jinja2.sandbox import SandboxedEnvironment

from pnp.errors import PnpError
from pnp.fileio import decode_user_text, read_user_text

#: Characters in one string value.
MAX_STRING = 1_000_000
#: Items in one list, tuple, dict or set (Jinja's sandbox caps ``range`` at the same).
MAX_ITEMS = 100_000
#: Characters a template (or a block, or a macro) renders in all.
MAX_OUTPUT = 4_000_000
#: Largest exponent of ``**`` on a number other than -1, 0 and 1.
MAX_EXPONENT = 4096
#: Seconds one template render may take.
RENDER_SECONDS = 10.0

_WIDTH = re.compile(r"(\d{7,})")  # a width of a million or more in a format spec
#: Operand types whose ``*``, ``+`` and ``%`` need no size check.
_PLAIN_NUMBERS = frozenset({int, float})


class _Deadline(threading.local):
    """The current render's deadline (per thread; None outside a render)."""

    at: float | None = None


_deadline = _Deadline()


def _too_big(what: str, size: int, limit: int, unit: str) -> PnpError:
    """The one-line refusal for a value past a bound."""
    return PnpError(f"template made {what} of {size:,} {unit}; templates are limited to "
                    f"{limit:,} (is a number in a repeat, a width or a loop far too large?)")


def check_time() -> None:
    """Refuse to go on once the current render has used its time."""
    at = _deadline.at
    if at is not None and time.monotonic() > at:
        _deadline.at = None  # one error, not one per frame on the way out
        raise PnpError(f"template took longer than {RENDER_SECONDS:g} s to render "
                       "(an endless or very long loop?)")


def check_size(value: Any) -> Any:
    """Return ``value`` if it is within the size bounds, else raise."""
    if isinstance(value, str):
        if len(value) > MAX_STRING:
            raise _too_big("a string", len(value), MAX_STRING, "characters")
    elif isinstance(value, (list, tuple, dict, set, frozenset)):
        if len(value) > MAX_ITEMS:
            raise _too_big("a sequence", len(value), MAX_ITEMS, "items")
    return value


def _check_widths(fmt: Any) -> None:
    """Refuse a format string asking for a field a million characters wide."""
    if isinstance(fmt, str):
        match = _WIDTH.search(fmt)
        if match:
            raise _too_big("a format width", int(match.group(1)), MAX_STRING, "characters")


def _sized(value: Any) -> int | None:
    """len(value) for strings and sequences, else None."""
    return len(value) if isinstance(value, (str, list, tuple)) else None


def _precheck_binop(operator: str, left: Any, right: Any) -> None:
    """Refuse ``left <operator> right`` when its result is known to be too big."""
    if operator == "*":
        for seq, count in ((left, right), (right, left)):
            size = _sized(seq)
            if size is not None and isinstance(count, int) and size * count > (
                    MAX_STRING if isinstance(seq, str) else MAX_ITEMS):
                limit = MAX_STRING if isinstance(seq, str) else MAX_ITEMS
                raise _too_big("a repeat", size * count, limit,
                               "characters" if isinstance(seq, str) else "items")
    elif operator == "+":
        a, b = _sized(left), _sized(right)
        if a is not None and b is not None:
            text = isinstance(left, str)
            limit = MAX_STRING if text else MAX_ITEMS
            if a + b > limit:
                raise _too_big("a string" if text else "a sequence", a + b, limit,
                               "characters" if text else "items")
    elif operator == "**":
        if isinstance(left, (int, float)) and isinstance(right, (int, float)) and \
                abs(left) > 1 and right > MAX_EXPONENT:
            raise PnpError(f"template asked for a power with exponent {right:g}; templates "
                           f"are limited to {MAX_EXPONENT}")
    elif operator == "%":
        _check_widths(left)


def _precheck_call(obj: Any, args: tuple[Any, ...], kwargs: dict[str, Any]) -> None:
    """Refuse a str method call whose result is known to be too big."""
    target = getattr(obj, "__wrapped__", obj)  # the sandbox wraps str.format
    owner = getattr(target, "__self__", None)
    name = getattr(target, "__name__", "")
    if not isinstance(owner, str):
        return
    if name in ("ljust", "rjust", "center", "zfill") and args and isinstance(args[0], int):
        if args[0] > MAX_STRING:
            raise _too_big("a padded string", args[0], MAX_STRING, "characters")
    elif name == "expandtabs":
        size = args[0] if args else kwargs.get("tabsize", 8)
        if isinstance(size, int) and size * owner.count("\t") > MAX_STRING:
            raise _too_big("a string", size * owner.count("\t"), MAX_STRING, "characters")
    elif name == "replace" and len(args) >= 2 and isinstance(args[1], str) and args[0]:
        grown = len(owner) + owner.count(args[0]) * len(args[1])
        if grown > MAX_STRING:
            raise _too_big("a string", grown, MAX_STRING, "characters")
    elif name in ("format", "format_map"):
        _check_widths(owner)


def _bounded_filter(name: str, func: Callable[..., Any]) -> Callable[..., Any]:
    """Wrap a filter so its arguments and result stay within the bounds."""

    @functools.wraps(func)  # keeps jinja's pass_context/pass_environment marks
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        check_time()
        if name in ("center", "indent"):
            width = [a for a in args[1:2] if isinstance(a, int)] + [
                kwargs[k] for k in ("width",) if isinstance(kwargs.get(k), int)]
            if width and width[0] > MAX_STRING:
                raise _too_big("a padded string", width[0], MAX_STRING, "characters")
        elif name == "format":
            for arg in args[:2]:  # the value, after an eval context if any
                _check_widths(arg)
        return check_size(func(*args, **kwargs))

    return wrapper


def _bounded_lipsum(func: Callable[..., Any]) -> Callable[..., Any]:
    """``lipsum(n, …)``: at most 100 paragraphs of at most 1000 words."""

    @functools.wraps(func)
    def wrapper(n: int = 5, html: bool = True, min: int = 20, max: int = 100) -> Any:
        if n > 100 or max > 1000:
            raise _too_big("placeholder text", n * max, 100 * 1000, "words")
        return func(n, html, min, max)

    return wrapper


def bounded_concat(parts: Iterable[str], check_every: int = 0) -> str:
    """``"".join(parts)`` that stops once the text passes :data:`MAX_OUTPUT` characters.

    ``check_every`` (a power of two), if given: also check the render's time
    once per that many parts (:func:`render_bounded`).
    """
    if type(parts) is OutputBuffer:
        # a block's or macro's buffer (most calls: one per macro call) counted
        # its characters as they came and checks the time itself: nothing to bound
        return "".join(parts)
    if check_every & (check_every - 1):
        raise ValueError(f"check_every={check_every}: expected a power of two")
    # with no check, a mask of all ones: a non-empty list's length never masks to 0
    mask = check_every - 1 if check_every else -1
    collected: list[str] = []
    total = 0
    for part in parts:
        total += len(part)
        if total > MAX_OUTPUT:
            raise _too_big("output", total, MAX_OUTPUT, "characters")
        collected.append(part)
        if not len(collected) & mask:
            check_time()
    return "".join(collected)


class OutputBuffer(list[Any]):
    """The list a ``{% set %}`` block, macro or filter block collects its output in.

    Counts the characters appended and checks the time every 1024 appends,
    so a loop inside a block cannot pile up gigabytes before it is joined.
    """

    def __init__(self) -> None:
        """An empty buffer."""
        super().__init__()
        self.size = 0

    def _grow(self, size: int) -> None:
        """Account for ``size`` more characters."""
        self.size += size
        if self.size > MAX_OUTPUT:
            raise _too_big("output", self.size, MAX_OUTPUT, "characters")
        if not len(self) & 0x3FF:
            check_time()

    def append(self, item: Any) -> None:
        """Add one piece of output."""
        self._grow(len(item) if isinstance(item, str) else 0)
        super().append(item)

    def extend(self, items: Iterable[Any]) -> None:
        """Add several pieces of output."""
        items = tuple(items)
        try:
            size = sum(map(len, items))     # Jinja's pieces of output: all strings
        except TypeError:
            size = sum(len(i) for i in items if isinstance(i, str))
        self._grow(size)
        super().extend(items)


def timed_iter(iterable: Iterable[Any]) -> Iterator[Any]:
    """The items of ``iterable``, with the render's time checked before each.

    Every ``{% for %}`` loop of a compiled template iterates through this, so
    an endless or astronomically long loop (nested loops over big ranges,
    with nothing inside) stops at the time limit in any thread.
    """
    for item in iterable:
        check_time()
        yield item


def _is_timed(node: nodes.Node) -> bool:
    """True if ``node`` is already the call of :func:`timed_iter` made below."""
    return (isinstance(node, nodes.Call) and isinstance(node.node, nodes.EnvironmentAttribute)
            and node.node.name == "timed_iter")


class BoundedCodeGenerator(CodeGenerator):
    """Jinja's code generator: output buffers, ``~`` (concatenation) and loops bounded."""

    def visit_For(self, node: nodes.For, frame: Frame) -> None:
        """Compile the loop with its iterable wrapped in ``environment.timed_iter``.

        (Jinja allows no new node types; a call of an environment attribute
        is the form its extensions use for such hooks.)
        """
        if not _is_timed(node.iter):
            node.iter = nodes.Call(nodes.EnvironmentAttribute("timed_iter"), [node.iter], [],
                                   None, None, lineno=node.iter.lineno)
        super().visit_For(node, frame)

    def buffer(self, frame: Frame) -> None:
        """Collect the frame's output in an :class:`OutputBuffer` instead of a list."""
        frame.buffer = self.temporary_identifier()
        self.writeline(f"{frame.buffer} = environment.output_buffer()")

    def visit_Concat(self, node: nodes.Concat, frame: Frame) -> None:
        """Emit ``environment.check_size(<concatenation>)``."""
        self.write("environment.check_size(")
        super().visit_Concat(node, frame)
        self.write(")")


class BoundedSandbox(SandboxedEnvironment):
    """A sandboxed environment whose templates cannot take unbounded time or memory."""

    code_generator_class = BoundedCodeGenerator
    intercepted_binops = frozenset({"*", "+", "**", "%"})
    #: ``concat`` of every buffer: the whole output, ``{% set %}`` blocks, macros.
    concat = staticmethod(bounded_concat)

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        """Set up as Jinja does, then bound every filter and ``lipsum``."""
        super().__init__(*args, **kwargs)
        self.filters = _BoundedFilters(self.filters)
        lipsum = self.globals.get("lipsum")
        if callable(lipsum):
            self.globals["lipsum"] = _bounded_lipsum(lipsum)

    #: The buffer compiled templates collect block output in.
    output_buffer = OutputBuffer
    #: What compiled ``{% for %}`` loops iterate through (the time check).
    timed_iter = staticmethod(timed_iter)

    @staticmethod
    def check_size(value: Any) -> Any:
        """Return ``value`` if within the size bounds (called by compiled templates)."""
        return check_size(value)

    def call_binop(self, context: Any, operator: str, left: Any, right: Any) -> Any:
        """Apply an intercepted operator once its result is known to fit."""
        check_time()
        if operator != "**" and type(left) in _PLAIN_NUMBERS and type(right) in _PLAIN_NUMBERS:
            # layout arithmetic (most calls): a product, sum or remainder of two
            # numbers has no size to bound
            return self.binop_table[operator](left, right)
        _precheck_binop(operator, left, right)
        return check_size(super().call_binop(context, operator, left, right))

    def call(__self, __context: Any, __obj: Any, *args: Any, **kwargs: Any) -> Any:  # noqa: N805
        """Call from a template: time checked, known-large results refused up front."""
        check_time()
        _precheck_call(__obj, args, kwargs)
        return check_size(super().call(__context, __obj, *args, **kwargs))

    def getattr(self, obj: Any, attribute: str) -> Any:
        """Attribute lookup (a checkpoint of the render's time).

        The lookups a card template makes most (``card.name`` on a dict, ``s.THEMES``
        or ``s.badge`` on an imported module, ``ns.x``, ``loop.index``) take a
        short way to exactly what Jinja's sandbox answers: it tries the
        attribute, then the item, and checks the attribute's safety, where
        Jinja's check runs a dozen type tests and a dict key costs a caught
        AttributeError (a fifth of a card's render time).
        """
        check_time()
        kind = type(obj)
        if kind is dict:
            # a plain dict's attributes are its type's: a key that names none is
            # what Jinja's lookup falls back to (never through a safety check)
            if attribute in obj and not hasattr(dict, attribute):
                return obj[attribute]
        elif kind in _PLAIN_OBJECTS and attribute[:1] != "_":
            # none of Jinja's internal types: an attribute is safe unless private
            try:
                value = getattr(obj, attribute)
            except AttributeError:
                pass
            else:
                wrapped = self.wrap_str_format(value)
                return value if wrapped is None else wrapped
        return super().getattr(obj, attribute)

    def getitem(self, obj: Any, argument: Any) -> Any:
        """Item lookup (a checkpoint of the render's time)."""
        check_time()
        return super().getitem(obj, argument)


#: Jinja's own objects a template reads attributes of (imported templates,
#: ``namespace()``, ``loop``): for them the sandbox's only refusal is a name
#: starting with "_" (:meth:`BoundedSandbox.getattr`).
_PLAIN_OBJECTS = frozenset({TemplateModule, Namespace, LoopContext})


class _BoundedFilters(dict[str, Callable[..., Any]]):
    """The filter table; every filter put in it (now or later) is wrapped."""

    def __init__(self, filters: dict[str, Callable[..., Any]]) -> None:
        super().__init__()
        for name, func in filters.items():
            self[name] = func

    def __setitem__(self, name: str, func: Callable[..., Any]) -> None:
        super().__setitem__(name, _bounded_filter(name, func))


class _Timeout(Exception):
    """Raised by the timer signal; turned into the one-line time error."""


@contextmanager
def render_budget(seconds: float | None = None) -> Iterator[None]:
    """Limit the template render inside the block to ``seconds`` (default RENDER_SECONDS).

    The deadline is per thread and checked cooperatively at every loop step,
    call and attribute lookup, so it holds in any thread; in the main thread
    on POSIX a timer signal also interrupts Python code that never reaches a
    check. An outer budget already running is left in charge.
    """
    limit = RENDER_SECONDS if seconds is None else seconds
    if _deadline.at is not None:  # a render inside a render (a picture in a rulebook…)
        yield
        return
    _deadline.at = time.monotonic() + limit
    use_timer = (hasattr(signal, "setitimer")
                 and threading.current_thread() is threading.main_thread()
                 and signal.getitimer(signal.ITIMER_REAL) == (0.0, 0.0))
    previous: Any = None
    if use_timer:
        def on_alarm(_signum: int, _frame: Any) -> None:
            if _deadline.at is not None:
                check_time()  # raises: the deadline has passed

        previous = signal.signal(signal.SIGALRM, on_alarm)
        # a little after the deadline, so the cooperative check usually wins
        signal.setitimer(signal.ITIMER_REAL, limit + 0.05, 0.25)
    try:
        yield
    finally:
        _deadline.at = None
        if use_timer:
            signal.setitimer(signal.ITIMER_REAL, 0.0)
            signal.signal(signal.SIGALRM, previous)


#: The whole render checks the time once per this many chunks of output (a power of two).
CHUNKS_PER_CHECK = 256


def render_bounded(template: Any, context: dict[str, Any]) -> str:
    """Render ``template`` with ``context`` within the time and output bounds.

    One loop over the template's output counts its characters and, every
    :data:`CHUNKS_PER_CHECK` chunks, checks the time (a card yields thousands
    of chunks; each loop step, call and attribute lookup inside the template
    is checked anyway, so a chunk check only adds cost: without a loop or a
    call the number of chunks is bounded by the template's length).
    """
    with render_budget():
        return bounded_concat(template.generate(context), CHUNKS_PER_CHECK)


def confine(path: Path, root: Path, what: str) -> Path:
    """Return ``path`` if, with every symlink resolved, it is a file inside ``root``.

    A template, include or icon that is a link to a file elsewhere (say
    ``~/.ssh/id_rsa``) would otherwise print that file on a card.
    """
    real = path.resolve()
    if not real.is_relative_to(root.resolve()):
        try:
            name = path.relative_to(root).as_posix()
        except ValueError:
            name = path.name
        raise PnpError(f"{what} {name!r} is a link to {str(real)!r}, outside the "
                       f"templates folder {str(root)!r}: templates, includes and icons must "
                       "be real files inside it")
    return real


class ConfinedLoader(jinja2.FileSystemLoader):
    """Templates only from real files inside the templates folder, read as UTF-8.

    Like Jinja's file loader (no ``..``, no absolute names), and in addition
    a name that is a symlink leading out of the folder is refused, and a
    template that is not UTF-8 is a one-line error naming its likely
    encoding.
    """

    def __init__(self, root: Path) -> None:
        """Load templates from ``root``."""
        super().__init__(str(root))
        self.root = Path(root)
        #: When set (:meth:`pin`): per file name relative to ``root`` ("a/b.xml.j2"),
        #: the bytes to serve, or None for a file to read from disk as usual.
        self.snapshot: Mapping[str, bytes | None] | None = None

    def pin(self, snapshot: Mapping[str, bytes | None]) -> None:
        """Serve templates from ``snapshot`` from now on, never from the disk.

        A build keys its caches by the digest of the folder's files as read
        when it began (:func:`pnp.builder.markup_cache.folder_digest`), but
        Jinja loads each template the first time it is used; served from
        those very bytes, a template saved while the build runs cannot be
        rendered under the key of its old content. A name missing from the
        snapshot was not in the folder then: not found.
        """
        self.snapshot = snapshot

    def get_source(self, environment: jinja2.Environment,
                   template: str) -> tuple[str, str, Callable[[], bool]]:
        """Return (source, file name, up-to-date check) of ``template``."""
        parts = split_template_path(template)
        path = self.root.joinpath(*parts)
        pinned = self.snapshot
        data = None
        if pinned is not None:
            name = "/".join(parts)
            if name not in pinned:
                raise jinja2.TemplateNotFound(template)
            data = pinned[name]
        if data is None and not path.is_file():
            raise jinja2.TemplateNotFound(template)
        confine(path, self.root, "template")
        if data is None:
            source, _encoding = read_user_text(path, "template")
        else:
            source, _encoding = decode_user_text(data, path, "template")
        filename = os.path.normpath(path)
        if pinned is not None:
            # the source is what the snapshot holds, whatever the disk says now
            return source, filename, _always_current
        mtime = os.path.getmtime(filename)

        def uptodate() -> bool:
            try:
                return os.path.getmtime(filename) == mtime
            except OSError:
                return False

        return source, filename, uptodate


def _always_current() -> bool:
    """The up-to-date check of a pinned template (:meth:`ConfinedLoader.pin`): always."""
    return True
