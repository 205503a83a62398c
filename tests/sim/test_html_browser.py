"""Chart pages: self-contained, deterministic, and rendered by a real headless browser.

The browser is Debian's Chromium, driven by its command-line flags; the
``chromium`` fixture (tests/conftest.py) and :func:`browse` come from
tests/browser_support.py, which says how it is found or installed.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from PIL import Image

from browser_support import browse  # tests/browser_support.py
from pnp.data import load_game_data
from pnp.sim import run_compare, run_simulation
from pnp.sim.html import ladder_page, sweep_page

DATA = Path(__file__).resolve().parents[2] / "card_data"


def _check(chromium: str, html: str, tmp: Path, name: str, min_svgs: int) -> Image.Image:
    page = tmp / f"{name}.html"
    page.write_text(html, encoding="utf-8")
    assert not re.search(r"(src|href)=\"(https?:)?//", html), "the page must fetch nothing"
    dom, log, img = browse(chromium, page, tmp)
    console = [line for line in log.splitlines() if ":CONSOLE" in line or "net::ERR" in line]
    assert console == [], console
    assert dom.count("<svg") == html.count("<svg") >= min_svgs
    assert "<h1>" in dom and "</html>" in dom
    colours = img.resize((200, 450)).getcolors(maxcolors=100_000)
    assert colours is not None and len(colours) > 20, "the screenshot looks blank"
    return img


def test_report_page_in_a_browser(chromium: str, tmp_path: Path) -> None:
    """A simulation report page: findings, seats, scores, lengths, bots, cards."""
    data = load_game_data(DATA, "fortuna", strict=True)
    _text, rep, _code = run_simulation(data, 4, 400, "greedy,random", 3, 1, {},
                                       invariants="off")
    from pnp.sim.html import report_page
    html = report_page(rep)
    for heading in ("Findings", "Win shares by seat", "Score distribution by seat",
                    "Game length", "Win shares by bot", "Cards: played"):
        assert f"<h2>{heading}" in html
    img = _check(chromium, html, tmp_path, "report", 8)
    assert img.size == (800, 1800)


def test_ladder_sweep_compare_pages_in_a_browser(chromium: str, tmp_path: Path) -> None:
    """Ladder curve, sweep curves and comparison bars render without console errors."""
    ladder: dict[str, Any] = {
        "slug": "nim", "title": "Nim (toy)", "players": 2, "games": 200, "seed": 3,
        "field": "random", "fair_share": 0.5, "sentences": ["Skill pays."],
        "rungs": [{"budget": b, "seat_games": 200, "win_share": w, "ci_low": w - 0.07,
                   "ci_high": min(1.0, w + 0.07), "score_mean": w, "score_ci_low": w - 0.07,
                   "score_ci_high": w + 0.07} for b, w in ((1, 0.46), (4, 0.75), (16, 0.87))]}
    _check(chromium, ladder_page(ladder), tmp_path, "ladder", 1)
    data = load_game_data(DATA, "fortuna", strict=True)
    _t, doc, _c = run_compare(data, ["end_deck_size=3"], 4, 200, "greedy", 5, 1, {},
                              invariants="off")
    from pnp.sim.html import compare_page
    _check(chromium, compare_page(doc), tmp_path, "compare", 2)
    sweep = {"title": "Fortuna", "swept": ["hand_size"], "players": 4, "games": 10, "seed": 1,
             "bots": ["random"], "rows": [
                 {"values": {"hand_size": v}, "figures": [
                     {"name": "seat0_wins", "value": w, "low": w - 0.05, "high": w + 0.05},
                     {"name": "mean_turns", "value": t, "low": t - 1, "high": t + 1}]}
                 for v, w, t in ((6, 0.24, 30.0), (7, 0.26, 32.0), (8, 0.27, 33.5))]}
    _check(chromium, sweep_page(sweep), tmp_path, "sweep", 2)


def test_pages_are_deterministic() -> None:
    """The same report gives the same bytes (no dates, paths or random ids)."""
    data = load_game_data(DATA, "fortuna", strict=True)
    from pnp.sim.html import report_page
    pages = []
    for jobs in (1, 2):
        _t, rep, _c = run_simulation(data, 4, 300, "greedy", 9, jobs, {}, invariants="off")
        pages.append(report_page(rep))
    assert pages[0] == pages[1]


def test_japanese_text_gets_its_font_embedded() -> None:
    """A page with Japanese embeds an IPAexGothic subset (a few kB), the same bytes each
    time; a page without needs none."""
    from pnp.sim.html import font_face, ladder_page
    doc: dict[str, Any] = {
        "slug": "episode2", "title": "第2話", "players": 1, "games": 10, "seed": 1,
        "field": "heuristic", "fair_share": 1.0, "sentences": [],
        "rungs": [{"budget": 8, "seat_games": 10, "win_share": 3.0, "ci_low": 2.0,
                   "ci_high": 4.0, "score_mean": 3.0, "score_ci_low": 2.0,
                   "score_ci_high": 4.0}]}
    page = ladder_page(doc)
    assert '@font-face { font-family: "pnp-ipaex"' in page and page == ladder_page(doc)
    face = font_face("第2話 ♠A")
    assert 1_000 < len(face) < 20_000
    assert font_face("Fortuna – 25 % …") == ""
