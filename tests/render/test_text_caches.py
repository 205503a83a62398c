"""The line breaker's caches are bounded by what they hold, oldest first.

The chunk cache counts measured characters (a rulebook paragraph holds a
thousand, a card title ten), the fit cache entries; a build of thousands of
distinct card texts keeps them at their limits.
"""

from __future__ import annotations

import pytest

from pnp.render import fonts, textlayout

SANS = fonts.family_fonts("sans")
BLACK = (0.0, 0.0, 0.0)


def pieces(text: str) -> tuple:
    """One IPAexGothic text piece."""
    return (("t", SANS, BLACK, text, 0.0),)


@pytest.fixture
def empty(monkeypatch: pytest.MonkeyPatch) -> None:
    """Fresh caches (the module's own are shared with the rest of the suite)."""
    monkeypatch.setattr(textlayout, "_atom_cache", {})
    monkeypatch.setattr(textlayout, "_atoms_held", 0)
    monkeypatch.setattr(textlayout, "_fit_cache", {})


def test_the_chunk_cache_is_bounded_by_characters(empty: None) -> None:
    texts = [f"カード{i}を引く。" * 20 for i in range(200)]     # ~180 characters each
    for text in texts:
        textlayout.chunks(pieces(text))
    held = sum(len(c.lead) + len(c.atoms) for v in textlayout._atom_cache.values() for c in v)
    assert held == textlayout._atoms_held <= textlayout._ATOM_LIMIT
    assert len(textlayout._atom_cache) > 30                # not emptied: only the oldest went
    assert pieces(texts[0]) not in textlayout._atom_cache
    last = textlayout.chunks(pieces(texts[-1]))
    assert textlayout.chunks(pieces(texts[-1])) is last   # the newest is a hit


def test_a_text_longer_than_the_limit_is_kept_alone(empty: None,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(textlayout, "_ATOM_LIMIT", 50)
    textlayout.chunks(pieces("あいう"))
    long = textlayout.chunks(pieces("あ" * 80))
    assert list(textlayout._atom_cache.values()) == [long] and textlayout._atoms_held == 80
    textlayout.chunks(pieces("いう"))
    assert textlayout._atoms_held == 2


def test_the_fit_cache_keeps_its_entry_limit(empty: None) -> None:
    for i in range(textlayout._FIT_LIMIT + 50):
        textlayout.fit_text(pieces(f"第{i}話"), 100.0, 20.0, 9.0, 9.0, 1.2, "left", "top", None)
    assert len(textlayout._fit_cache) == textlayout._FIT_LIMIT


def test_each_character_is_measured_once_with_its_fallback_font(
        empty: None, monkeypatch: pytest.MonkeyPatch) -> None:
    """_char_atom is the one memo of a character's font: measured once, then only looked up."""
    monkeypatch.setattr(textlayout, "_char_atom", {})
    latin = (fonts.FONT_LATIN,)                # has no kana: カ falls back to IPAexGothic
    asked: list[str] = []
    real = textlayout._font_for
    monkeypatch.setattr(textlayout, "_font_for",
                        lambda chain, ch: asked.append(ch) or real(chain, ch))
    textlayout.chunks(pieces("カカA"))
    textlayout.chunks((("t", latin, BLACK, "カ", 0.0),))
    assert asked == ["カ", "A", "カ"]          # once per (chain, character)
    assert textlayout._char_atom[(latin, "カ")][1] == fonts.FONT_JA


def test_a_character_no_font_has_fails_every_time(empty: None,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    """Not remembered as a failure nor as a font: each text with it gets the same one line."""
    monkeypatch.setattr(textlayout, "_char_atom", {})
    for _ in range(2):
        with pytest.raises(textlayout.PnpError, match=r"U\+E000\) is in none of the fonts"):
            textlayout.chunks(pieces("a\ue000"))
