"""Fortuna's English player aid says what the rules, the data and the Japanese aid say.

Both sides are rendered from the shipped templates and data, laid out (so
the text read is the text printed) and read as plain text. The aid must be
English throughout (it names the game as the English rulebook does,
"Fortuna", so no Japanese at all), use the English rulebook's terms and the
English icon names of ``rulebooks/fortuna.terms.toml``, and print worked
numbers equal to what the game's own code computes: the card values of the
engine (ruling F2) and the set scores of ``pnp.games.fortuna.scoring``
(ruling F8), for the same example sets as the Japanese aid.

Fortuna's manifest has no ``[game.constants]`` and its engine reads none
(``params_from_manifest`` is empty), so neither aid prints a rule parameter;
what the aids take from the manifest (the game's name, the component's
count) is checked to follow it, and a guard fails once the manifest gains
constants the aids ought to print.
"""

from __future__ import annotations

import html
import re
import shutil
import tomllib
from pathlib import Path

import pytest

from pnp import PROJECT_ROOT
from pnp.builder.context import card_context
from pnp.data import load_game_data
from pnp.data.inventory import GameData
from pnp.games import make_game
from pnp.games.fortuna import FortunaGame
from pnp.games.fortuna.engine import card_values
from pnp.games.fortuna.scoring import set_score
from pnp.lint import MIN_BODY_PT, MIN_LABEL_PT, Linter
from pnp.render.jinja_env import make_environment
from pnp.render.layout import render_layout
from pnp.render.nodes import Group, Node, Text

DATA = PROJECT_ROOT / "card_data"
TEMPLATES = PROJECT_ROOT / "templates"
RULEBOOKS = PROJECT_ROOT / "rulebooks"

_BR = re.compile(r"<br\b[^>]*>")
_TAG = re.compile(r"<[^>]+>")
#: Kana, kanji, CJK punctuation and full-width forms (＋, （, ：, ・).
_JAPANESE = re.compile("[\u3000-\u30ff\u4e00-\u9fff\uff00-\uffef]")
#: The English rulebook's words for Fortuna's things; the aid must say them.
TERMS = ("end deck", "discard slots", "d(n)", "All-in set", "Wheel of Fortune", "goddess",
         "turn order", "face down", "face-up", "set")


@pytest.fixture(scope="module")
def game() -> GameData:
    """The shipped Fortuna data."""
    return load_game_data(DATA, "fortuna", strict=True)


@pytest.fixture(scope="module")
def english_icons() -> dict[str, str]:
    """Japanese icon value → the English rulebook's name for it."""
    terms = tomllib.loads((RULEBOOKS / "fortuna.terms.toml").read_text(encoding="utf-8"))
    return dict(terms["en"])


def _texts(nodes: tuple[Node, ...]) -> list[Text]:
    """Every text box of a laid-out side, in drawing order."""
    out: list[Text] = []
    for n in nodes:
        if isinstance(n, Text):
            out.append(n)
        elif isinstance(n, Group):
            out += _texts(n.children)
    return out


def _laid_out(game: GameData, deck: str) -> dict[str, dict[str, Text]]:
    """Per side ("face", "back"): the laid-out text boxes of one aid, by id."""
    component = game.manifest.components[deck]
    env = make_environment(TEMPLATES)
    out = {}
    for side, template in (("face", component.face), ("back", component.back)):
        assert template is not None, f"{deck} has no {side}"
        layout = render_layout(env, template, card_context(game, component, None, side),
                               where=f"fortuna/{deck} {side}")
        out[side] = {t.id or "": t for t in _texts(layout.nodes)}
    return out


def _plain(box: Text) -> str:
    """The printed text of a box, its runs joined, spaces folded."""
    return re.sub(r"\s+", " ", " ".join(r.text for r in box.runs).replace("\u00a0", " ")).strip()


def _box_lines(game: GameData, deck: str, side: str, box_id: str) -> list[str]:
    """One text box of an aid as written (markup lines, tags dropped, no-break spaces plain)."""
    component = game.manifest.components[deck]
    template = component.face if side == "face" else component.back
    assert template is not None
    markup = make_environment(TEMPLATES).get_template(template).render(
        **card_context(game, component, None, side))
    found = re.search(rf'<text\b[^>]*\bid="{box_id}"[^>]*>(.*?)</text>', markup, re.S)
    assert found, f"{deck} {side}: no text box {box_id!r}"
    # A source line break is a space; only <br/> breaks a line.
    text = _BR.sub("\n", re.sub(r"\s+", " ", found.group(1)))
    text = html.unescape(_TAG.sub("", text)).replace("\u00a0", " ")
    return [re.sub(r"[ \t]+", " ", line).strip() for line in text.splitlines() if line.strip()]


def test_both_sides_render_in_english(game: GameData) -> None:
    """Face and back lay out with their titles, readable sizes and no Japanese."""
    sides = _laid_out(game, "aid_en")
    assert _plain(sides["face"]["aid-title"]) == "Your turn"
    assert _plain(sides["back"]["aid-title"]) == "Wheel and scoring"
    assert [_plain(sides[s]["aid-side"]) for s in ("face", "back")] == ["1/2", "2/2"]
    for side, boxes in sides.items():
        # The English rulebook calls the game "Fortuna" (not フォーチュナ).
        assert _plain(boxes["aid-game"]) == game.manifest.title == "Fortuna"
        for box_id in ("body", "example", "example-head"):
            assert box_id in boxes, f"{side}: no {box_id!r} box"
        for box in boxes.values():
            text = _plain(box)
            assert text, f"{side} {box.id}: empty"
            assert not _JAPANESE.search(text), f"{side} {box.id}: Japanese in {text!r}"
            floor = MIN_LABEL_PT if box.max_lines == 1 else MIN_BODY_PT
            assert box.size >= floor, f"{side} {box.id}: {box.size} pt"


def test_the_english_aid_uses_the_rulebooks_terms(game: GameData,
                                                 english_icons: dict[str, str]) -> None:
    """Every term is the English rulebook's, and the icons carry its English names."""
    book = (RULEBOOKS / "fortuna.en.md").read_text(encoding="utf-8")
    aid = " ".join(_plain(b) for side in _laid_out(game, "aid_en").values()
                   for b in side.values())
    for term in TERMS:
        assert term in book, f"the English rulebook no longer says {term!r}"
        assert term in aid, f"the English aid does not say {term!r}"
    # The worked example names all five icons, each as the rulebook does.
    named = {en for en in english_icons.values() if re.search(rf"\b{en}s?\b", aid)}
    assert named == {"lightning", "goddess", "wheat", "helmet", "wheel"}
    for en in named:
        assert en in book, en
    # The reel table's icons are the ones the terms file translates.
    columns = game.manifest.components["reel"].columns
    assert set(columns["icon"].values or ()) == set(english_icons)


def _english_sets(lines: list[str], icons: dict[str, str]) -> list[tuple[dict[str, int], int,
                                                                         int, int, str]]:
    """The worked sets: (icon counts by Japanese value, size, factor, VP, value note)."""
    to_ja = {en: ja for ja, en in icons.items()}
    out = []
    for head, result in zip(lines[0::2], lines[1::2]):
        m = re.fullmatch(r"(\d+)-card set( \(value (\d)\))?: (.+)", head)
        assert m, f"not a set line: {head!r}"
        counts = {}
        for part in m.group(4).split(", "):
            name, n = part.rsplit(" ", 1)
            counts[to_ja[name]] = int(n)
        r = re.fullmatch(r"→ (\d+) (\w+?)s?( \(goddess too\))?: (\d+) × (\d+) = (\d+) VP", result)
        assert r, f"not a result line: {result!r}"
        size, factor, vp = int(r.group(4)), int(r.group(5)), int(r.group(6))
        assert int(m.group(1)) == size == sum(counts.values()), head
        assert int(r.group(1)) == factor, result
        assert to_ja[r.group(2)] in counts, result
        # "(goddess too)" is said exactly when a goddess joins the counted icon.
        assert bool(r.group(3)) == ("女神" in counts and to_ja[r.group(2)] != "女神"), result
        out.append((counts, size, factor, vp, m.group(3) or ""))
    return out


def test_worked_example_is_what_the_scoring_code_computes(
        game: GameData, english_icons: dict[str, str]) -> None:
    """Each worked set scores what ruling F8's code says, and the total adds up."""
    engine = make_game(game)
    assert isinstance(engine, FortunaGame)
    lines = _box_lines(game, "aid_en", "back", "example")
    *set_lines, total = lines
    sets = _english_sets(set_lines, english_icons)
    assert len(sets) == 2
    for counts, size, factor, vp, value in sets:
        face_up = [engine.icons.index(ja) for ja, n in counts.items() for _ in range(n)]
        assert set_score(face_up, size, engine.n_icons, engine.goddess) == vp == size * factor
        if value:
            # Ruling F3: a value-0 set takes 1 to 6 cards.
            assert value == "0" and 1 <= size <= 6
    t = re.fullmatch(r"Total (\d+) \+ (\d+) = (\d+) VP", total)
    assert t, total
    assert [int(t.group(1)), int(t.group(2))] == [s[3] for s in sets]
    assert int(t.group(3)) == sum(s[3] for s in sets)


def test_worked_example_is_the_japanese_aids(game: GameData,
                                            english_icons: dict[str, str]) -> None:
    """Both editions work the same sets through to the same VP."""
    *set_lines, total = _box_lines(game, "aid_en", "back", "example")
    english = [(s[0], s[1], s[3]) for s in _english_sets(set_lines, english_icons)]
    japanese = []
    ja_lines = _box_lines(game, "aid", "back", "example")
    for head, result in zip(ja_lines[0:-1:2], ja_lines[1:-1:2]):
        m = re.fullmatch(r"(\d+)枚のセット(?:（値\d）)?：(.+)", head)
        assert m, head
        counts = {part[:-1]: int(part[-1]) for part in m.group(2).split("・")}
        vp = re.search(r"＝(\d+)VP$", result)
        assert vp, result
        japanese.append((counts, int(m.group(1)), int(vp.group(1))))
    assert english == japanese
    ja_total = re.search(r"＝(\d+)VP$", ja_lines[-1])
    assert ja_total and total.endswith(f"= {ja_total.group(1)} VP")


def test_card_values_example_is_what_the_engine_allows(game: GameData) -> None:
    """"d cards in slot n: …" lists the engine's values for n, counted up from n (F2)."""
    text = " ".join(_box_lines(game, "aid_en", "face", "example"))
    m = re.search(r"\((\d+) cards in slot (\d): ([\d, ]+)\)", text)
    assert m, text
    d, n = int(m.group(1)), int(m.group(2))
    shown = [int(v) for v in m.group(3).split(", ")]
    assert sorted(shown) == card_values(n, d)
    assert shown == sorted(shown, key=lambda v: (v - n) % 10)      # from n up, wrapping
    assert 0 in shown and max(shown) == 9                             # the example wraps
    # The Japanese aid works the same slot through.
    ja = " ".join(_box_lines(game, "aid", "face", "example"))
    assert f"{n}の置き場に{d}枚 → {'・'.join(map(str, shown))}" in ja


def test_the_aid_en_component_matches_the_japanese_one(game: GameData) -> None:
    """Same kind, supply, size, count and sides as the Japanese aid: one per player."""
    ja, en = (game.manifest.components[c] for c in ("aid", "aid_en"))
    assert (en.name, en.name_ja) == ("Player aid (English)", "サマリーカード（英語）")
    for field in ("kind", "supply", "size", "count", "two_sided"):
        assert getattr(en, field) == getattr(ja, field), field
    assert en.count == max(game.manifest.players)
    assert (en.face, en.back) == ("fortuna/aid_en_face.xml.j2", "fortuna/aid_en_back.xml.j2")


def test_both_aids_follow_the_manifest(tmp_path: Path) -> None:
    """A renamed game prints on both editions; no manifest constant goes unprinted.

    The guard: Fortuna's rules numbers are engine parameters, not manifest
    constants. Once the manifest gains ``[game.constants]`` (or the engine
    reads any), the aids must print them from ``game.constants`` and this
    test must check it, as tests/games/test_params_from_manifest.py does
    for Fortune Clover.
    """
    shipped = load_game_data(DATA, "fortuna", strict=True)
    assert not shipped.manifest.constants and not FortunaGame.params_from_manifest
    data = tmp_path / "card_data"
    shutil.copytree(DATA / "fortuna", data / "fortuna")
    manifest = data / "fortuna" / "manifest.toml"
    text = manifest.read_text(encoding="utf-8")
    manifest.write_text(text.replace('title = "Fortuna"', 'title = "Fortuna Deluxe"', 1),
                        encoding="utf-8")
    renamed = load_game_data(data, "fortuna", strict=True)
    en = _laid_out(renamed, "aid_en")
    ja = _laid_out(renamed, "aid")
    for side in ("face", "back"):
        assert _plain(en[side]["aid-game"]) == "Fortuna Deluxe"
        assert _plain(ja[side]["aid-game"]).endswith("Fortuna Deluxe")


def test_the_english_aid_passes_the_linter(game: GameData) -> None:
    """No finding, error or warning, on either side of the English aid."""
    findings = [f for f in Linter(TEMPLATES).lint_game(game) if f.deck == "aid_en"]
    assert findings == []
