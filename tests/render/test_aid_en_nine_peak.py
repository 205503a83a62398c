"""9 Peak's English player aid says what the English rulebook and the engine say.

The aid (``aid_en``) is rendered from the shipped templates and data and read
as plain text per text box: it is English (no kana or kanji outside the game
name in the header band), uses the English rulebook's terms, prints the
manifest's base points, and its worked numbers are the ones the engine's
scoring (ruling N6) and hat ranges (ruling N1) give. A changed base-point
table changes the English aid's numbers as it changes the Japanese aid's,
and the changed aid still passes the card linter.
"""

from __future__ import annotations

import html
import re
import shutil
from pathlib import Path

import pytest

from pnp import PROJECT_ROOT
from pnp.builder.context import card_context
from pnp.data import load_game_data
from pnp.data.inventory import GameData
from pnp.games import make_game
from pnp.games.nine_peak.codec import SUITS
from pnp.games.nine_peak.engine import NinePeakGame
from pnp.games.nine_peak.examples import limit
from pnp.lint import lint_game
from pnp.render.jinja_env import make_environment

DATA = PROJECT_ROOT / "card_data"
TEMPLATES = PROJECT_ROOT / "templates"
RULEBOOK = PROJECT_ROOT / "rulebooks" / "nine_peak.en.md"

#: Kana, kanji and full-width forms: none may appear in the English aid's text.
_JA = re.compile("[\u3040-\u30ff\u3400-\u9fff\uff00-\uffef]")
_TEXT = re.compile(r'<text\b[^>]*\sid="([^"]+)"[^>]*>(.*?)</text>', re.S)
_TAG = re.compile(r"<[^>]+>")
_BR = re.compile(r"<br\s*/?>")

#: The English rulebook's word for a thing, and what the aid must not say
#: instead (ピーク札 is the peak pile; "peak cards" are the six 1–6 cards).
TERMS: list[tuple[str, tuple[str, ...]]] = [
    ("area", ("field", "tableau")),
    ("peak pile", ("peak cards", "peak card pile")),
    ("peak card", ()),
    ("end trigger", ()),
    ("Play a set", ()),
    ("Pass", ()),
    ("base points", ("base score",)),
    ("Simple method", ("easy",)),
    ("Full method", ("thorough",)),
    ("mixed suits", ()),
    ("Persona", ()),
    ("column", ()),
]


def _boxes(game: GameData, deck: str, side: str) -> dict[str, str]:
    """Each text box of one side of an aid, by id, as plain text (spaces folded)."""
    component = game.manifest.components[deck]
    template = component.face if side == "face" else component.back
    assert template is not None
    markup = make_environment(TEMPLATES).get_template(template).render(
        **card_context(game, component, None, side))
    out = {}
    for box, inner in _TEXT.findall(markup):
        # a line break reads as a space, any other tag (spans) as nothing
        text = html.unescape(_TAG.sub("", _BR.sub(" ", inner))).replace("\u00a0", " ")
        out[box] = re.sub(r"\s+", " ", text).strip()
    return out


def _copy_with_base_points(tmp_path: Path, points: list[int]) -> Path:
    """A copy of 9 Peak's card data whose manifest sets ``base_points = points``."""
    data = tmp_path / "card_data"
    shutil.copytree(DATA / "nine_peak", data / "nine_peak")
    manifest = data / "nine_peak" / "manifest.toml"
    text = manifest.read_text(encoding="utf-8")
    changed = re.sub(r"(?m)^base_points = \[.*\]$", f"base_points = {points}", text)
    assert changed != text, "the manifest has no base_points line"
    manifest.write_text(changed, encoding="utf-8")
    return data


def _cards(game: NinePeakGame, suits: list[str]) -> list[int]:
    """Distinct hat card ids of the given suits (numbers do not change a set's score)."""
    free = list(range(game.num_cards))
    out = []
    for suit in suits:
        card = next(c for c in free if game.card_suit[c] == SUITS.index(suit))
        free.remove(card)
        out.append(card)
    return out


def _expected(data: Path) -> dict[str, int]:
    """The worked example's values as the engine scores them (ruling N6)."""
    loaded = load_game_data(data, "nine_peak", strict=True)
    simple = make_game(loaded, {"scoring": "simple"})
    full = make_game(loaded, {"scoring": "full"})
    assert isinstance(simple, NinePeakGame) and isinstance(full, NinePeakGame)
    five = ["シルクハット"] * 3 + ["フェドーラ", "ペルソナ"]
    return {"base5": full.base_points[4], "base6": full.base_points[5],
            "simple": simple.score_set(_cards(simple, five)),
            "full": full.score_set(_cards(full, five)),
            "bonnets": full.score_set(_cards(full, ["ボンネット"] * 6))}


def _check_numbers(en: str, want: dict[str, int]) -> None:
    """The English worked example prints the engine's numbers, step by step."""
    b5, b6 = want["base5"], want["base6"]
    assert f"A set of 5 (base points {b5}):" in en
    assert f"Simple (Persona as black): {b5} × 5 = {want['simple']} VP" in en
    # same suit: silk hats + the Persona, 4 cards (named in words, not "(3 + 1)",
    # which read like the all-one-suit bonus); mixed: 3 suits with the Persona
    assert f"same suit: {b5} × 4 = {b5 * 4}" in en
    assert "(the 4: 3 silk hats + the Persona);" in en
    assert f"mixed: 5 cards × 3 suits = 15 → {want['full']} VP" in en
    assert want["full"] == max(b5 * 4, 15)
    assert f"6 bonnets, one suit: {b6} × (6 + 1) = {want['bonnets']} VP" in en


@pytest.fixture(scope="module")
def shipped() -> GameData:
    """The shipped 9 Peak data."""
    return load_game_data(DATA, "nine_peak", strict=True)


def test_manifest_pairs_the_english_aid_with_the_japanese(shipped: GameData) -> None:
    """aid_en is printed like the Japanese aid: same kind, supply, size, count, two sides."""
    ja, en = shipped.manifest.components["aid"], shipped.manifest.components["aid_en"]
    for field in ("kind", "supply", "size", "count", "two_sided"):
        assert getattr(en, field) == getattr(ja, field), field
    assert (en.face, en.back) == ("nine_peak/aid_en_face.xml.j2", "nine_peak/aid_en_back.xml.j2")
    order = list(shipped.manifest.components)
    assert order.index("aid_en") == order.index("aid") + 1


def test_both_sides_are_english(shipped: GameData) -> None:
    """Every text box of both sides is English; only the header's game name is bilingual."""
    title = f"{shipped.manifest.title}  {shipped.manifest.title_ja}"
    for side, heading, page in (("face", "Your turn", "1/2"), ("back", "End and scoring", "2/2")):
        boxes = _boxes(shipped, "aid_en", side)
        assert boxes["aid-title"] == heading and boxes["aid-side"] == page
        assert re.sub(r"\s+", " ", title) == boxes.pop("aid-game")
        assert {"body", "example", "example-head"} <= set(boxes), side
        for box, text in boxes.items():
            assert text and not _JA.search(text), f"{side}/{box}: {text!r}"


def test_the_english_aid_uses_the_rulebooks_terms(shipped: GameData) -> None:
    """Each term is the English rulebook's (case aside) and the aid says it, not a variant."""
    book = RULEBOOK.read_text(encoding="utf-8").lower()
    aid = " ".join(t for side in ("face", "back")
                   for t in _boxes(shipped, "aid_en", side).values())
    for term, avoided in TERMS:
        assert term.lower() in book, f"the English rulebook no longer says {term!r}"
        assert term in aid, f"the English aid does not say {term!r}"
        for variant in avoided:
            assert variant not in aid.lower(), f"the aid says {variant!r}, not {term!r}"


def test_turn_side_hat_values_match_the_engine(shipped: GameData) -> None:
    """The hat-values example: the values a 5 may take with two 5s in the area (N1)."""
    game = make_game(shipped)
    assert isinstance(game, NinePeakGame)
    state = game.state_from_notation("n=4 area=5S5F hands=5C/3F/3C/3B")
    values = list(range(5, limit(state, 5) + 1))
    said = ", ".join(map(str, values[:-1])) + f" or {values[-1]}"
    example = _boxes(shipped, "aid_en", "face")["example"]
    assert f"With {len(state.area[4])} cards in column 5, a 5 hat is {said}." in example
    body = _boxes(shipped, "aid_en", "face")["body"]
    for head in ("Pass:", "Play a set:", "Peaks:"):
        assert head in body


def test_worked_numbers_are_the_engines(shipped: GameData) -> None:
    """Base points and every worked number on side 2 equal what the engine scores."""
    back = _boxes(shipped, "aid_en", "back")
    game = make_game(shipped)
    assert isinstance(game, NinePeakGame)
    points = list(game.base_points)
    assert points == shipped.manifest.constants["base_points"]
    listed = ", ".join(f"{n}→{p}" for n, p in enumerate(points, start=1))
    assert f"Base points by set size: {listed} " in back["body"] + " "
    want = _expected(DATA)
    assert (want["simple"], want["full"], want["bonnets"]) == (25, 20, 49)   # the shipped rules
    _check_numbers(back["example"], want)


def test_changed_base_points_change_both_aids(tmp_path: Path) -> None:
    """A new base-point table prints on the English aid as on the Japanese one, and still lints.

    A 5-card base of 3 makes the mixed-suit score (15) beat the same-suit one
    (3 × 4 = 12), so the example must pick the higher of the two.
    """
    points = [1, 2, 3, 4, 3, 8, 10, 12, 14]
    data = _copy_with_base_points(tmp_path, points)
    game = load_game_data(data, "nine_peak", strict=True)
    want = _expected(data)
    assert (want["simple"], want["full"], want["bonnets"]) == (15, 15, 56)
    en = _boxes(game, "aid_en", "back")
    _check_numbers(en["example"], want)
    assert "5→3, 6→8, 7→10, 8→12, 9→14" in en["body"]
    ja = _boxes(game, "aid", "back")
    assert "5枚3・6枚8" in ja["body"] and "＝56VP" in ja["example"]
    assert "= 56 VP" in en["example"] and "49" not in en["example"]
    problems = [f.text() for f in lint_game(game, TEMPLATES) if f.deck == "aid_en"]
    assert problems == []


def test_shipped_english_aid_passes_the_linter(shipped: GameData) -> None:
    """Both sides render and fit at ≥ 6.5 pt with enough contrast (no finding at all)."""
    problems = [f.text() for f in lint_game(shipped, TEMPLATES) if f.deck == "aid_en"]
    assert problems == []
