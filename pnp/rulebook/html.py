"""Rulebook blocks → one self-contained HTML page for reading on a screen.

The page carries its own style sheet, a linked table of contents, its
pictures inlined as PNG (``data:`` URLs) and the font its Japanese needs, so
it can be mailed or opened offline as a single file and reads the same on a
machine without Japanese fonts. The pictures are the same drawings as the
PDF's, rasterised at 2× for sharp screens. The font is a subset of the PDF's
IPAexGothic holding the characters the page shows (see
:mod:`pnp.webfont`: all of them in the Japanese edition, which is
drawn wholly in it as its PDF is; only kana, kanji and symbols in a Latin
edition, and nothing in a page without them).
"""

from __future__ import annotations

import base64
import html
import re
from typing import Mapping

from pnp.render.fonts import ipaex_path
from pnp.rulebook.markdown import (Block, Heading, ListBlock, Note, Para, Picture, TableBlock,
                                   strip_ruling_tags)
from pnp.rulebook.pdf import BookMeta, plain_text
from pnp.rulebook.pictures import Scene, pictures_to_png
from pnp.webfont import FAMILY, embedded_codepoints, font_face, shown_text

#: The reader's own fonts, after the embedded face (which, by its unicode-range, draws
#: only the characters it holds): what a page without an embedded face names.
SYSTEM_FONTS = '"Hiragino Sans", "Yu Gothic", "Noto Sans JP", "IPAexGothic", system-ui, sans-serif'

STYLE = """
:root { --ink: #222; --accent: #1f5c73; --muted: #5f5f5f; --rule: #b9c3c8; --tint: #eef3f5; }
html { font-size: 17px; }
body { margin: 0; color: var(--ink); background: #fff; line-height: 1.65; line-break: strict; }
/* Japanese: break between phrases, never inside a word such as スート (the PDF's
   katakana-word rule, pnp.render.kinsoku); browsers without auto-phrase ignore it. */
:lang(ja) body { word-break: auto-phrase; }
main { max-width: 44rem; margin: 0 auto; padding: 1.5rem 1.2rem 4rem; }
header.cover { text-align: center; padding: 2rem 0 1rem; border-bottom: 2px solid var(--accent); }
header.cover h1 { color: var(--accent); font-size: 2.3rem; margin: 0 0 .2rem; }
header.cover .subtitle { color: var(--muted); font-size: 1.2rem; margin: 0 0 1rem; }
nav.toc { background: var(--tint); padding: .8rem 1.2rem; margin: 1.5rem 0; border-radius: 6px; }
nav.toc h2 { margin: 0 0 .4rem; font-size: 1.1rem; border: 0; }
nav.toc ol { margin: 0; padding-left: 0; list-style: none; }
nav.toc ol ol { font-size: .92rem; padding-left: 1.2rem; }
nav.toc a { color: var(--ink); text-decoration: none; }
nav.toc a:hover { text-decoration: underline; }
h2 { color: var(--accent); border-bottom: 1px solid var(--accent); margin-top: 2.2rem;
  font-size: 1.45rem; }
h3 { color: var(--accent); font-size: 1.15rem; margin-top: 1.6rem; }
strong { color: var(--accent); }
blockquote { background: var(--tint); border-left: 4px solid var(--accent); margin: 1rem 0;
  padding: .5rem 1rem; }
table { border-collapse: collapse; margin: 1rem 0; width: 100%; font-size: .94rem; }
th { background: var(--tint); color: var(--accent); text-align: left; }
th, td { border-bottom: 1px solid var(--rule); padding: .3rem .5rem; vertical-align: top; }
td.r, th.r { text-align: right; } td.c, th.c { text-align: center; }
td.r { white-space: nowrap; }   /* "100 cards", "10 tokens" on one line */
figure { margin: 1.2rem 0; text-align: center; }
figure img { max-width: 100%; height: auto; }
figcaption { color: var(--muted); font-size: .9rem; }
@media (prefers-color-scheme: dark) {
  :root { --ink: #e6e6e6; --accent: #8cc8dc; --muted: #b0b0b0; --rule: #4a5358; --tint: #1e2a30; }
  body { background: #121212; }
  figure img { background: #fff; border-radius: 4px; }
}
"""


def _inline(text: str) -> str:
    """Inline Markdown → HTML (escaped; ``**x**`` strong; ``<br>`` kept; tags dropped)."""
    escaped = html.escape(strip_ruling_tags(text), quote=False)
    escaped = re.sub(r"&lt;br\s*/?&gt;", "<br>", escaped)
    return re.sub(r"\*\*(.+?)\*\*", r"<strong>\1</strong>", escaped)


def render_html(blocks: list[Block], meta: BookMeta, pictures: Mapping[str, Scene]) -> str:
    """The whole page as a string (deterministic for identical input)."""
    used = [b.ref for b in blocks if isinstance(b, Picture) and b.ref in pictures]
    pngs = dict(zip(used, pictures_to_png([pictures[r] for r in used], dpi=144)))
    sections = [b for b in blocks if isinstance(b, Heading) and b.level in (2, 3)]
    toc: list[str] = []
    open_sub = False
    for h in sections:
        anchor = h.anchor or f"h{h.line}"
        link = f'<a href="#{anchor}">{html.escape(plain_text(h.text))}</a>'
        if h.level == 2:
            if open_sub:
                toc.append("</ol></li>")
                open_sub = False
            elif toc:
                toc.append("</li>")
            toc.append(f"<li>{link}")
        else:
            if not open_sub:
                toc.append("<ol>")
                open_sub = True
            toc.append(f"<li>{link}</li>")
    if toc:
        toc.append("</ol></li>" if open_sub else "</li>")
    contents = "目次" if meta.lang == "ja" else "Contents"
    body: list[str] = []
    cover_done = False
    for block in blocks:
        if isinstance(block, Heading):
            if block.level == 1:
                continue
            if not cover_done:
                body.append(f'<nav class="toc"><h2>{contents}</h2><ol>{"".join(toc)}</ol></nav>')
                cover_done = True
            anchor = block.anchor or f"h{block.line}"
            body.append(f'<h{block.level} id="{anchor}">{_inline(block.text)}</h{block.level}>')
        elif isinstance(block, Para):
            body.append(f"<p>{_inline(block.text)}</p>")
        elif isinstance(block, Note):
            body.append(f"<blockquote>{_inline(block.text)}</blockquote>")
        elif isinstance(block, ListBlock):
            tag = "ol" if block.ordered else "ul"
            start = f' start="{block.start}"' if block.ordered and block.start != 1 else ""
            items = "".join(f"<li>{_inline(i)}</li>" for i in block.items)
            body.append(f"<{tag}{start}>{items}</{tag}>")
        elif isinstance(block, Picture):
            png = pngs.get(block.ref)
            if png is None:
                continue
            scene = pictures[block.ref]
            src = "data:image/png;base64," + base64.b64encode(png).decode("ascii")
            body.append(f'<figure><img src="{src}" width="{round(scene.width * 4 / 3)}" '
                        f'alt="{html.escape(plain_text(block.caption))}">'
                        f"<figcaption>{_inline(block.caption)}</figcaption></figure>")
        elif isinstance(block, TableBlock):
            cls = {"left": "", "right": ' class="r"', "center": ' class="c"'}
            head = "".join(f"<th{cls[a]}>{_inline(c)}</th>"
                           for c, a in zip(block.header, block.aligns))
            rows = "".join("<tr>" + "".join(f"<td{cls[a]}>{_inline(c)}</td>"
                                            for c, a in zip(row, block.aligns)) + "</tr>"
                           for row in block.rows)
            body.append(f"<table><thead><tr>{head}</tr></thead><tbody>{rows}</tbody></table>")
    if not cover_done:
        body.insert(0, f'<nav class="toc"><h2>{contents}</h2><ol>{"".join(toc)}</ol></nav>')
    title = html.escape(meta.title)
    shown = (f'<header class="cover"><h1>{title}</h1>'
             f'<p class="subtitle">{html.escape(meta.subtitle)}</p></header>\n'
             + "\n".join(body))
    font = ipaex_path()   # the PDFs' IPAexGothic (pnp.webfont takes the file from its caller)
    face = font_face(embedded_codepoints(shown_text(shown), japanese=meta.lang == "ja",
                                         font=font), font=font)
    fonts = f'"{FAMILY}", {SYSTEM_FONTS}' if face else SYSTEM_FONTS
    style = f"{face}{STYLE}body {{ font-family: {fonts}; }}\n"
    return (f'<!DOCTYPE html>\n<html lang="{meta.lang}">\n<head>\n<meta charset="utf-8">\n'
            f'<meta name="viewport" content="width=device-width, initial-scale=1">\n'
            f"<title>{title} — {html.escape(meta.subtitle)}</title>\n<style>{style}</style>\n"
            f"</head>\n<body>\n<main>\n{shown}\n</main>\n</body>\n</html>\n")
