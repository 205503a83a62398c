"""The HTML rulebook embeds the IPAexGothic subset it needs: complete, deterministic, offline.

The Japanese page carries every character it shows (and printable ASCII);
a Latin page only the kana, kanji and symbols a Latin system font may lack;
a page without those embeds nothing. Checked on the bytes (the font's cmap
read back from the ``data:`` URL) and in a real headless Chromium (the
``chromium`` fixture of tests/conftest.py, flags and :func:`browse` from
tests/browser_support.py, shared with the chart-page test).
"""

from __future__ import annotations

import base64
import html
import io
import re
import subprocess
from pathlib import Path
from typing import Callable

import pytest
from fontTools.misc import timeTools
from fontTools.ttLib import TTFont

from browser_support import FLAGS, browse  # tests/browser_support.py
from pnp.render.fonts import ipaex_path
from pnp.webfont import FAMILY, unicode_range, woff_subset
from pnp.rulebook import export_html
from pnp.rulebook.html import render_html
from pnp.rulebook.markdown import Heading, Para
from pnp.rulebook.pdf import BookMeta
from rulebook_books import SLUGS

_FACE = re.compile(r"url\(data:font/woff;base64,([A-Za-z0-9+/=]+)\)")


Book = Callable[..., str]


@pytest.fixture(scope="module")
def book(tmp_path_factory: pytest.TempPathFactory) -> Book:
    """``book(lang, slug="episode2", folder="a")``: an HTML rulebook, exported once."""
    root = tmp_path_factory.mktemp("books")
    pages: dict[tuple[str, str, str], str] = {}

    def export(lang: str, slug: str = "episode2", folder: str = "a") -> str:
        if (lang, slug, folder) not in pages:
            out = root / folder / slug / lang
            out.mkdir(parents=True)
            pages[lang, slug, folder] = export_html(slug, out,
                                                    lang=lang).read_text(encoding="utf-8")
        return pages[lang, slug, folder]

    return export


def _shown(page: str) -> set[int]:
    """Code points of the text the page shows (body text and alt text), by plain regexes."""
    body = page.split("<body>", 1)[1]
    alts = "".join(re.findall(r' alt="([^"]*)"', body))
    text = html.unescape(re.sub(r"<[^>]+>", "", body)) + html.unescape(alts)
    return {ord(ch) for ch in text if ord(ch) >= 0x20}


def _font(page: str) -> TTFont:
    """The embedded font, read back from the page's only ``data:font/woff`` URL."""
    faces = _FACE.findall(page)
    assert len(faces) == 1, f"{len(faces)} embedded fonts"
    return TTFont(io.BytesIO(base64.b64decode(faces[0])))


def _meta(lang: str, title: str = "Nine Peak") -> BookMeta:
    """A book's metadata for a page rendered from hand-made blocks."""
    return BookMeta(title=title, subtitle="Rulebook", running_head="", subject="", lang=lang)


@pytest.mark.parametrize("slug", SLUGS)
def test_every_book_carries_every_character_it_shows(book: Book, slug: str) -> None:
    """Each book's subset holds every character its edition embeds, named by unicode-range.

    Japanese: every shown character and printable ASCII; Latin: every one
    from U+2190 (the minus sign excepted), or no face at all. The subset may
    hold a few more that the font's features reach (＜ from <), which the
    range leaves unused.
    """
    ja = book("ja", slug)
    needed = _shown(ja) | set(range(0x20, 0x7F))
    cmap = set(_font(ja).getBestCmap())
    assert needed <= cmap and len(cmap - needed) < 5
    assert f"unicode-range: {unicode_range(sorted(needed))};" in ja
    en = book("en", slug)
    needed = {c for c in _shown(en) if c >= 0x2190 and c != 0x2212}
    if needed:
        assert needed <= set(_font(en).getBestCmap())
        assert f"unicode-range: {unicode_range(sorted(needed))};" in en
    else:
        assert "@font-face" not in en


def test_japanese_book_font_details(book: Book) -> None:
    """WOFF, the face first in the stack, the font's own timestamps, a modest size."""
    page = book("ja")
    font = _font(page)
    assert font.flavor == "woff"
    # the embedded face comes first, the reader's fonts after it
    assert re.search(r'body \{ font-family: "pnp-ipaex", "Hiragino Sans", [^}]*sans-serif; \}',
                     page)
    # the font's own timestamps, not the time of the export
    with TTFont(str(ipaex_path()), lazy=True) as original:
        assert font["head"].modified == original["head"].modified
        assert font["head"].created == original["head"].created
    assert len(_FACE.search(page).group(1)) < 300_000  # type: ignore[union-attr]


def test_english_book_embeds_only_what_latin_fonts_lack(book: Book) -> None:
    """The title's 第2話 and the suits are embedded; Latin punctuation (’ – × …) is not."""
    page = book("en")
    assert {"’", "–", "×", "—"} <= {chr(c) for c in _shown(page)}
    cmap = set(_font(page).getBestCmap())
    assert cmap == {ord(ch) for ch in "第話♠♣♥♦"}
    assert f'font-family: "{FAMILY}", "Hiragino Sans"' in page


def test_same_bytes_on_every_run_and_in_any_folder(book: Book) -> None:
    """Two exports into different folders give byte-identical pages."""
    assert book("ja", "episode2", "a") == book("ja", "episode2", "elsewhere/deeper")


def test_the_clock_does_not_reach_the_font(monkeypatch: pytest.MonkeyPatch) -> None:
    """Subsets made at two different clock times are byte-identical, dated as the font is.

    Two exports in one test run fall in the same second, so the clock is
    moved for real: fontTools takes "now" from ``SOURCE_DATE_EPOCH`` when it
    is set (the reproducible-builds convention), and a subset saved with its
    timestamp recalculated would carry it in head.modified.
    """
    codepoints = [ord(ch) for ch in "第2話 A♠"]
    subsets = []
    for epoch in (1_000_000_000, 2_000_000_000):
        monkeypatch.setenv("SOURCE_DATE_EPOCH", str(epoch))
        assert timeTools.timestampNow() == epoch - timeTools.epoch_diff   # the clock moved
        subsets.append(woff_subset(codepoints, font=ipaex_path()))
    assert subsets[0] == subsets[1]
    with TTFont(str(ipaex_path()), lazy=True) as original:
        assert (TTFont(io.BytesIO(subsets[0]))["head"].modified
                == original["head"].modified)


def test_the_page_fetches_nothing(book: Book) -> None:
    """Every url() is a data: URL; no src or href leaves the page; no @import."""
    for lang in ("ja", "en"):
        page = book(lang)
        assert re.findall(r"url\((?!data:)", page) == []
        assert not re.search(r"(src|href)=\"(?!#|data:)", page)
        head = _FACE.sub("", page).split("<body>")[0]
        assert "@import" not in head and not re.search(r"https?:|//", head)


def test_pages_without_japanese_embed_nothing() -> None:
    """Pure ASCII, or Latin punctuation only: system fonts, no @font-face, no family named."""
    blocks = [Heading(2, "Setup", 1, "setup"), Para("Deal 5 cards to each player.", 2)]
    for text in ("Deal 5 cards.", "Don’t – 3 × 4 … “go”"):
        page = render_html(blocks + [Para(text, 3)], _meta("en"), {})
        assert "@font-face" not in page and FAMILY not in page
        assert 'font-family: "Hiragino Sans"' in page
    page = render_html(blocks + [Para("Play 第2話 first.", 3)], _meta("en"), {})
    assert set(_font(page).getBestCmap()) == {ord("第"), ord("話")}
    assert "unicode-range: U+7B2C, U+8A71;" in page


def test_unicode_range_joins_runs() -> None:
    """Consecutive code points become one range; lone ones stay single."""
    assert (unicode_range([0x20, 0x21, 0x22, 0x3042, 0x3044, 0x3045])
            == "U+20-22, U+3042, U+3044-3045")


def _fonts_after_load(chromium: str, page: Path, tmp: Path) -> str:
    """``family=status`` of each face once the page and its fonts loaded, and word-break.

    A copy of the page gets a probe script that writes them into the DOM;
    ``--virtual-time-budget`` lets the promise settle before ``--dump-dom``.
    """
    probe = ('<script>window.addEventListener("load", () => document.fonts.ready.then(() => '
             'document.body.setAttribute("data-fonts", [...document.fonts].map('
             'f => f.family + "=" + f.status).join(";") + " word-break:" + '
             'getComputedStyle(document.querySelector("main p")).wordBreak)));</script>')
    probed = tmp / f"probed-{page.name}"
    probed.write_text(page.read_text(encoding="utf-8").replace("</body>", probe + "</body>"),
                      encoding="utf-8")
    dom = subprocess.run([chromium, *FLAGS, f"--user-data-dir={tmp / 'profile'}",
                          "--virtual-time-budget=10000", "--dump-dom", probed.as_uri()],
                         capture_output=True, text=True, timeout=120)
    found = re.search(r'<body data-fonts="([^"]*)"', dom.stdout)
    assert found, dom.stderr[-2000:]
    return html.unescape(found.group(1))


def test_embedded_face_loads_in_a_browser(chromium: str, book: Book, tmp_path: Path) -> None:
    """Chromium loads the embedded face (status "loaded"), logs nothing, draws the page."""
    for lang in ("ja", "en"):
        page = tmp_path / f"rulebook-{lang}.html"
        page.write_text(book(lang), encoding="utf-8")
        # Japanese paragraphs break between phrases (no スー/ト); English as usual.
        breaks = "auto-phrase" if lang == "ja" else "normal"
        assert (_fonts_after_load(chromium, page, tmp_path)
                == f"{FAMILY}=loaded word-break:{breaks}")
    _dom, log, img = browse(chromium, tmp_path / "rulebook-ja.html", tmp_path)
    console = [line for line in log.splitlines() if ":CONSOLE" in line or "net::ERR" in line]
    assert console == [], console
    colours = img.resize((200, 450)).getcolors(maxcolors=100_000)
    assert colours is not None and len(colours) > 20, "the screenshot looks blank"
