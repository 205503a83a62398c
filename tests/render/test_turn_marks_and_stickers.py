"""6/9 underlines from one macro, and 第2話 stickers that name their card (issue 10, m9, m3).

m9: a number that reads as another number turned 180° (6/9, "＋9" → "6＋")
is underlined by ``common/macros.xml.j2``'s ``turn_mark`` wherever a card
shows it: the standard deck's corner indices, 第2話's heal badges and
stickers, 9 Peak, Fortuna and Undecim; no template keeps its own copy.
m3: every 第2話 sticker shows the suit and rank of the card it goes on.
Cards are rendered from the shipped templates and data and read as markup.
"""

from __future__ import annotations

import re

import pytest
from jinja2 import Environment

from pnp import PROJECT_ROOT
from pnp.builder.cards import all_components, component_rows
from pnp.builder.context import card_context
from pnp.data import load_game_data
from pnp.render.jinja_env import make_environment

DATA = PROJECT_ROOT / "card_data"
TEMPLATES = PROJECT_ROOT / "templates"
_SUIT_ICON = {"♠": "std_spade", "♥": "std_heart", "♦": "std_diamond", "♣": "std_club"}


@pytest.fixture(scope="module")
def env() -> Environment:
    """The shipped templates' environment."""
    return make_environment(TEMPLATES)


def _markup(env: Environment, slug: str, component_id: str, card_id: str,
            side: str = "face") -> str:
    """The rendered markup of one side of one card."""
    game = load_game_data(DATA, slug, strict=True)
    component = next(c for c in all_components(game, TEMPLATES) if c.id == component_id)
    row = next(r for r in component_rows(game, component) if r.values["id"] == card_id)
    template = component.face if side == "face" else component.back
    assert template is not None
    return env.get_template(template).render(**card_context(game, component, row, side))


@pytest.mark.parametrize("label, turnable", [
    ("6", True), ("9", True), (6, True), ("＋9", True), ("+6", True), ("16", True),
    ("18", True), ("86", True), ("66", True),
    ("8", False), ("11", False), ("69", False), ("10", False), ("1", False), ("7", False),
    ("A", False), ("J", False), ("12", False), ("", False), ("＋1", False),
])
def test_turnable_known_answers(env: Environment, label: object, turnable: bool) -> None:
    macros = env.get_template("common/macros.xml.j2").module
    assert bool(str(macros.turnable(label)).strip()) is turnable  # type: ignore[attr-defined]


@pytest.mark.parametrize("slug, component, card, side, marks", [
    # standard deck: both corner indices of a 6 and a 9, none on a 7 or a 10
    ("fortune_clover", "deck", "S-6", "face", 2),
    ("fortune_clover", "deck", "D-9", "face", 2),
    ("fortune_clover", "deck", "S-7", "face", 0),
    ("fortune_clover", "deck", "H-10", "face", 0),
    # 第2話 player cards: the indices and, for ♥9 and ♥6, the turned "+9"/"+6" badge too
    ("episode2", "player", "H-9", "face", 4),
    ("episode2", "player", "H-6", "face", 4),
    ("episode2", "player", "S-9", "face", 2),
    ("episode2", "player", "H-8", "face", 0),
    # stickers: the card's rank, and a heal value that can be turned
    ("episode2", "player_stickers", "S-9", "face", 1),
    ("episode2", "player_stickers", "H-9", "face", 2),
    ("episode2", "player_stickers", "H-7", "face", 0),
    # 9 Peak (the convention's source), Fortuna, Undecim: now the same macro
    ("nine_peak", "numbers", "number-6", "face", 1),
    ("nine_peak", "peaks", "peak-6", "face", 1),
    ("nine_peak", "peaks", "peak-6", "back", 1),
    ("nine_peak", "peaks", "peak-5", "face", 0),
    ("nine_peak", "hats", "hat-6-silk", "face", 2),
    ("nine_peak", "hats", "hat-6-persona", "face", 4),
    ("fortuna", "reel", "reel-6-bolt", "face", 2),
    ("undecim", "actions", "act09", "face", 2),
    ("undecim", "actions", "act08", "face", 0),
])
def test_turnable_numbers_are_underlined(env: Environment, slug: str, component: str,
                                         card: str, side: str, marks: int) -> None:
    assert _markup(env, slug, component, card, side).count('id="turn-mark"') == marks


def test_no_template_keeps_its_own_six_nine_rule() -> None:
    """One shared way: the 6/9 test lives in common/macros.xml.j2 only."""
    own = re.compile(r"in \(6, 9|== 6 %|== 9 %|underline tells")
    offenders = [p.relative_to(TEMPLATES).as_posix() for p in TEMPLATES.rglob("*.xml.j2")
                 if p.name != "macros.xml.j2" and own.search(p.read_text(encoding="utf-8"))]
    assert offenders == []


def test_every_sticker_names_its_card(env: Environment) -> None:
    game = load_game_data(DATA, "episode2", strict=True)
    seen: dict[str, str] = {}
    for component_id in ("enemies_stickers", "player_stickers"):
        component = next(c for c in all_components(game, TEMPLATES) if c.id == component_id)
        rows = component_rows(game, component)
        assert len(rows) == (12 if component_id.startswith("enemies") else 35)
        for row in rows:
            card = row.values
            markup = env.get_template(component.face or "").render(
                **card_context(game, component, row, "face"))
            # the suit as the standard deck's mark, and the rank as text
            assert f'name="{_SUIT_ICON[card["suit"]]}"' in markup, card["id"]
            texts = re.findall(r"<text\b[^>]*>(.*?)</text>", markup, re.S)
            assert any(re.sub(r"<[^>]+>", "", t).strip() == card["rank"] for t in texts), \
                card["id"]
            seen[card["id"]] = markup
    # no two stickers alike: ♠ and ♣ attack cards differed by "+1" only before
    assert len(set(seen.values())) == len(seen)
    assert seen["S-5"].replace("std_spade", "std_club") != seen["C-5"]
