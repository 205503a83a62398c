"""ReportLab's number formatting, remembered and pinned: the same bytes everywhere.

ReportLab formats every number it writes into a PDF (text matrices, colours,
crop-mark lines, the width arrays of every font subset, bounding boxes) with
``fp_str``. Without its optional C accelerator (the separate ``rl_accel``
package, which pnp does not require) that is a pure-Python loop of a few
microseconds per call, and a build of every game made ~40,000 calls — about
a tenth of its CPU. The numbers repeat (glyph widths, card positions, the
same colours), so :func:`install` gives ReportLab's modules a memoised
formatter.

The same goes for ``pdfdocEnc``, which turns every string ReportLab writes
(each card form's and page's content, every name and number of every PDF
object) into bytes through a pure-Python charmap codec, ~20 µs a kilobyte:
:func:`pdfdoc_encode` gives plain ASCII the C ``ascii`` codec, the same
bytes, and leaves everything else to ReportLab's codec; and ``PDFName``,
which escapes a dictionary key character by character every time an object
is written, is remembered (:func:`memoised_name`); ``pdfdoc.format``, which every
element of every object goes through, takes a short way for plain strings,
bytes and numbers (:func:`quick_format`).

Pinned, too: with the C accelerator installed a user got a rulebook whose
bytes differed from everyone else's (a table column at ``131.9087`` against
``131.9088``), because the accelerator's text width sums a string's glyph
widths in another order and its formatter is its own code. :func:`install`
therefore replaces both, accelerated or not, with pnp's own
:func:`pdf_number` and :func:`text_width`, which give exactly what
ReportLab's pure-Python versions give: every output is byte-identical
whether or not ``rl_accel`` is present.

And memory: ReportLab's ``save()`` formats every object of the document into
a list of byte strings, joins the list into one more copy of the file and
only then writes it, while the document still holds every page's and form's
content. A sheet file of 2,500 distinct cards (16 MB) thus took three copies
of itself at once, the build's peak. :func:`install` makes ``save()`` to a
file name write each object to the file as it is formatted (the same bytes
in the same order, so the same offsets and cross-reference table) and drop
the content of each page and form once it is written (:func:`streaming_save`).
"""

from __future__ import annotations

import re
import sys
import threading
from math import log
from typing import Any, Callable

from pnp.render.memo import BoundedMemo

#: ReportLab modules that bound ``fp_str`` at import time.
_MODULES = ("reportlab.pdfbase.pdfdoc", "reportlab.pdfgen.canvas", "reportlab.pdfgen.pathobject",
            "reportlab.pdfgen.textobject", "reportlab.pdfbase.ttfonts",
            "reportlab.pdfgen.pdfimages", "reportlab.lib.colors", "reportlab.pdfbase.acroform",
            "reportlab.platypus.flowables", "reportlab.platypus.tables",
            "reportlab.platypus.para", "reportlab.graphics.shapes", "reportlab.lib.rl_accel")
#: Remembered results kept at most (then forgotten all at once: the set is tiny).
MEMO_LIMIT = 100_000
#: ReportLab modules that bound ``pdfdocEnc`` at import time (pdfdoc itself looks it up).
_ENC_MODULES = ("reportlab.pdfbase.acroform", "reportlab.pdfbase.pdfpattern")
#: ASCII characters ReportLab's PDFDocEncoding codec has no byte for (it raises).
_UNMAPPED = re.compile("[\x18-\x1f]")
#: The same characters one by one: in a long string (a card form's or page's
#: content, kilobytes) eight ``in`` tests, each a C memchr-like scan, take a
#: fortieth of the regular expression's time (10 ms against 0.27 ms for the
#: 3 MB a build writes); in a short one (a name, a number) one regular
#: expression search is quicker. They cross at ~40 characters.
_UNMAPPED_CHARS = tuple(chr(c) for c in range(0x18, 0x20))
_SCAN_AFTER = 40
#: ln 10, for the decimal magnitude as ReportLab computes it (see pdf_number).
_LN10 = log(10.0)


def pdf_number(*values: Any) -> str:
    """Numbers as PDF operands, space-separated, as ReportLab's pure-Python ``fp_str`` writes them.

    One list or tuple argument stands for its items. A number within 1e-7 of
    zero is ``0``; otherwise it gets six significant places (six decimals at
    most, none below zero), loses trailing zeros and a bare point, and a
    leading ``0`` before the point (``.5``). The magnitude is taken as
    ln|x| / ln 10, the way ReportLab takes it.
    """
    if len(values) == 1 and isinstance(values[0], (list, tuple)):
        values = tuple(values[0])
    out = []
    for value in values:
        size = abs(value)
        if size <= 1e-7:
            out.append("0")
            continue
        places = 6 if size <= 1 else min(max(0, 6 - int(log(size) / _LN10)), 6)
        text = "%.*f" % (places, value)
        if places:
            text = text.rstrip("0").rstrip(".")
        if text[0] == "0" and len(text) > 1:
            text = text[1:]
        out.append(text)
    return " ".join(out)


def text_width(font: Any, text: str | bytes, size: float, encoding: str = "utf8") -> float:
    """Width in points of ``text`` at ``size`` in TrueType ``font``, as ReportLab's pure-Python code sums it.

    Glyph widths (1/1000 em; a character without one takes the face's
    default) are added in text order, then scaled by ``0.001 * size``: the
    same operations in the same order, so the same float to the last bit.
    """
    if not isinstance(text, str):
        text = text.decode(encoding or "utf8")
    widths = font.face.charWidths.get
    default = font.face.defaultWidth
    return 0.001 * size * sum([widths(ord(ch), default) for ch in text])


def pdfdoc_encode(x: Any) -> Any:
    """ReportLab's ``pdfdocEnc``: a str in PDFDocEncoding as bytes, anything else unchanged.

    PDFDocEncoding maps every ASCII character to its own byte except
    U+0018–U+001F, which it cannot encode; such text, and any text beyond
    ASCII, goes through ReportLab's own codec (same bytes, same errors).
    """
    if isinstance(x, str):
        if x.isascii():
            if len(x) < _SCAN_AFTER:
                if _UNMAPPED.search(x) is None:
                    return x.encode("ascii")
            elif not any(ch in x for ch in _UNMAPPED_CHARS):
                return x.encode("ascii")
        return x.encode("extpdfdoc")
    return x


def quick_format(original: Callable[..., bytes], module: Any) -> Callable[..., bytes]:
    """Return ReportLab's ``pdfdoc.format`` with a short way for plain strings, bytes and numbers.

    ``format`` turns every element of every PDF object into bytes (~55,000
    calls in a build of the shipped games, most of them dictionary keys,
    names and numbers); for those it runs an ``isinstance`` against
    ``PDFObject``, a type test and two helper calls before encoding. An
    element whose type is exactly ``str``, ``bytes``, ``int`` or ``float`` is
    never a ``PDFObject``, so it is encoded here the way ``format`` would
    (``pdfdocEnc``, ``fp_str`` for a number, bytes as they are), with the
    module's current ``pdfdocEnc`` and ``fp_str`` as ``format`` reads them;
    everything else (objects, references, subclasses, ``bool``) goes to
    ReportLab's own code.
    """
    space = module.__dict__

    def format(element: Any, document: Any, toplevel: int = 0) -> bytes:
        """ReportLab's ``pdfdoc.format``, quicker for plain values (see :func:`quick_format`)."""
        kind = type(element)
        if kind is str:
            return space["pdfdocEnc"](element)
        if kind is bytes:
            return element
        if kind is float or kind is int:
            return space["pdfdocEnc"](space["fp_str"](element))
        return original(element, document, toplevel)

    format.__wrapped__ = original  # type: ignore[attr-defined]
    return format


def memoised_name(original: Callable[[str], str]) -> Callable[[str], str]:
    """Return ReportLab's ``PDFName`` with its results remembered.

    ``PDFName`` escapes a dictionary key character by character in Python
    each time an object is written; a PDF file has a few dozen distinct keys
    written thousands of times.
    """
    memo: BoundedMemo[str, str] = BoundedMemo(MEMO_LIMIT)
    get, put = memo.get, memo.put

    def pdf_name(data: str) -> str:
        """ReportLab's ``PDFName``, remembered (see :mod:`pnp.render.rlspeed`)."""
        if type(data) is not str:
            return original(data)
        hit = get(data)
        return hit if hit is not None else put(data, original(data))

    pdf_name.__wrapped__ = original  # type: ignore[attr-defined]
    return pdf_name


def memoised(original: Callable[..., str]) -> Callable[..., str]:
    """Return ``fp_str`` with its results remembered per argument tuple.

    Keys are the argument tuples themselves. Equal numbers of different types
    (``1`` and ``1.0``) share a key, which is sound because ``fp_str`` formats
    both the same way; a list argument (unhashable) goes straight through.
    """
    memo: BoundedMemo[tuple[Any, ...], str] = BoundedMemo(MEMO_LIMIT)
    get, put = memo.get, memo.put

    def fp_str(*args: Any) -> str:
        """ReportLab's ``fp_str``, remembered (see :mod:`pnp.render.rlspeed`)."""
        try:
            hit = get(args)
        except TypeError:  # a list or another unhashable argument
            return original(*args)
        return hit if hit is not None else put(args, original(*args))

    fp_str.__wrapped__ = original  # type: ignore[attr-defined]
    return fp_str


#: The file a :func:`streaming_save` in this thread writes to (None: none).
_SINK = threading.local()


def streaming_file(base: Any) -> Any:
    """ReportLab's ``PDFFile`` (the formatted file's collector), writing through to a sink.

    ``PDFDocument.format`` adds each formatted object to one ``PDFFile`` and
    returns its ``format()``, all the pieces joined. While a
    :func:`streaming_save` runs in this thread, the pieces go straight to its
    file instead (offsets counted as before) and ``format()`` returns nothing
    left to write; otherwise it is ReportLab's own class, unchanged.
    """

    class StreamingFile(base):
        """A ``PDFFile`` that writes its pieces to the saving thread's file, if any."""

        def __init__(self, *args: Any, **kwargs: Any) -> None:
            """ReportLab's collector; with a sink, its header written and the rest passed on."""
            super().__init__(*args, **kwargs)
            sink = getattr(_SINK, "file", None)
            if sink is not None:
                pieces: list[bytes] = self.strings
                for piece in pieces:
                    sink.write(piece)
                self.strings: list[bytes] = []
                self.write = sink.write

    StreamingFile.__name__ = StreamingFile.__qualname__ = base.__name__
    return StreamingFile


def releasing_format(original: Callable[[Any, Any], bytes], page: Any, form: Any
                     ) -> Callable[[Any, Any], bytes]:
    """``PDFIndirectObject.format`` that, while streaming, drops a page's or form's content once formatted.

    Each object is formatted once, in order, and written at once (see
    :func:`streaming_file`), so after that its content (a card form's
    compressed operators, a page's stream) is never read again; dropping it
    lets a document of thousands of forms shrink as it is written instead
    of holding all of them until the end.
    """

    def format(self: Any, document: Any) -> bytes:
        """Format the indirect object; release its content if a streaming save runs."""
        out = original(self, document)
        if getattr(_SINK, "file", None) is not None:
            obj: Any = self.content
            if isinstance(obj, (page, form)):
                obj.Contents = None
                obj.stream = None
        return out

    format.__wrapped__ = original  # type: ignore[attr-defined]
    return format


def streaming_save(original: Callable[[Any, Any, Any], None]) -> Callable[[Any, Any, Any], None]:
    """``PDFDocument.SaveToFile`` that writes each object as it is formatted.

    For a file name (what pnp's canvases save to) the file is opened first,
    as ReportLab does, and the document formatted straight into it (see
    :func:`streaming_file`); the bytes are the very bytes ReportLab writes.
    A file object, or a document with digital signatures (which sign the
    pieces kept in memory), goes to ReportLab's own code.
    """

    def save_to_file(self: Any, filename: Any, canvas: Any) -> None:
        """Save the document to ``filename``, streaming (see :func:`streaming_save`)."""
        from reportlab.lib.utils import makeFileName

        if not isinstance(filename, str) or getattr(self, "_digiSigs", None) \
                or getattr(_SINK, "file", None) is not None:
            original(self, filename, canvas)
            return
        if getattr(self, "_savedToFile", False):
            raise RuntimeError(f"class {self.__class__.__name__} instances can only be "
                               "saved once")
        self._savedToFile = True
        filename = makeFileName(filename)
        with open(filename, "wb") as f:
            _SINK.file = f
            try:
                rest = self.GetPDFData(canvas)
            finally:
                _SINK.file = None
            f.write(rest if isinstance(rest, bytes) else rest.encode("latin1"))
        if getattr(canvas, "_verbosity", None):
            print(f"saved {filename}")

    save_to_file.__wrapped__ = original  # type: ignore[attr-defined]
    return save_to_file


def install() -> None:
    """Give ReportLab pnp's number formatter, text width, encoder, name memo and streaming save (once).

    The formatter and the width replace ReportLab's whichever they are, the
    pure-Python ones or the C accelerator's, so every PDF has the same bytes
    on every machine; the encoder gives the bytes ReportLab's codec gives;
    ``save()`` writes the same bytes without holding the whole file.
    """
    from reportlab.lib import rl_accel
    from reportlab.pdfbase import pdfdoc, ttfonts

    ttfonts.instanceStringWidthTTF = text_width  # what TTFont.stringWidth calls
    if pdfdoc.pdfdocEnc is not pdfdoc_encode:
        original = pdfdoc.pdfdocEnc
        pdfdoc.pdfdocEnc = pdfdoc_encode       # pdfdoc's own functions look it up each call
        for name in _ENC_MODULES:
            module = sys.modules.get(name)
            if module is not None and getattr(module, "pdfdocEnc", None) is original:
                module.pdfdocEnc = pdfdoc_encode  # type: ignore[attr-defined]
    if not hasattr(pdfdoc.PDFName, "__wrapped__"):
        pdfdoc.PDFName = memoised_name(pdfdoc.PDFName)   # pdfdoc looks it up each call
    if not hasattr(pdfdoc.format, "__wrapped__"):
        pdfdoc.format = quick_format(pdfdoc.format, pdfdoc)  # so do the objects' format methods
    if not hasattr(pdfdoc.PDFDocument.SaveToFile, "__wrapped__"):
        # PDFDocument.format looks PDFFile up in pdfdoc each time it saves
        pdfdoc.PDFFile = streaming_file(pdfdoc.PDFFile)
        pdfdoc.PDFIndirectObject.format = releasing_format(
            pdfdoc.PDFIndirectObject.format, pdfdoc.PDFPage, pdfdoc.PDFFormXObject)
        pdfdoc.PDFDocument.SaveToFile = streaming_save(pdfdoc.PDFDocument.SaveToFile)
    current = rl_accel.fp_str
    if getattr(current, "__wrapped__", None) is pdf_number:
        return  # installed already
    fast = memoised(pdf_number)
    # modules imported later bind it from rl_accel; loaded ones are rebound here
    for name in _MODULES:
        module = sys.modules.get(name)
        if module is not None and getattr(module, "fp_str", None) is current:
            module.fp_str = fast  # type: ignore[attr-defined]
