"""9 Peak's number and peak cards and Undecim's score card carry English text (issue 10, m5).

The English rulebook pictures these cards, which printed Japanese only. Each
Japanese rule line now has an English line (our words, the English
rulebook's terms), with the card's own numbers from the data. The cards are
rendered from the shipped templates and read as plain text.
"""

from __future__ import annotations

import html
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
RULEBOOK_9P = (PROJECT_ROOT / "rulebooks" / "nine_peak.en.md").read_text(encoding="utf-8")


@pytest.fixture(scope="module")
def env() -> Environment:
    """The shipped templates' environment."""
    return make_environment(TEMPLATES)


def _text(env: Environment, slug: str, component_id: str, card_id: str, side: str) -> str:
    """One side of one card as plain text (tags dropped, a line break read as a space)."""
    game = load_game_data(DATA, slug, strict=True)
    component = next(c for c in all_components(game, TEMPLATES) if c.id == component_id)
    row = next(r for r in component_rows(game, component) if r.values["id"] == card_id)
    template = component.face if side == "face" else component.back
    assert template is not None
    markup = env.get_template(template).render(**card_context(game, component, row, side))
    markup = re.sub(r"<br\b[^>]*>|</text>", " ", markup)
    text = html.unescape(re.sub(r"<[^>]+>", "", markup)).replace("\u00a0", " ")
    return re.sub(r"\s+", " ", text)


@pytest.mark.parametrize("card", ["number-2", "number-8"])
def test_nine_peak_number_card_in_english(env: Environment, card: str) -> None:
    text = _text(env, "nine_peak", "numbers", card, "face")
    assert "枚数 Cards" in text and "基礎点 Base" in text
    assert "Simple: base × cards of larger colour" in text
    assert "Full: best of same suit or mixed suits" in text
    # the English rulebook's names for the two ways to score
    assert "### Simple method" in RULEBOOK_9P and "### Full method" in RULEBOOK_9P


@pytest.mark.parametrize("n", [1, 6])
def test_nine_peak_peak_card_in_english(env: Environment, n: int) -> None:
    face = _text(env, "nine_peak", "peaks", f"peak-{n}", "face")
    assert f"Range {n} to {n} + cards in the column" in face
    assert "Flip when the highest value reaches 9" in face
    back = _text(env, "nine_peak", "peaks", f"peak-{n}", "back")
    assert f"A hat of {n} may be any value 1–9" in back


def test_undecim_score_card_lap_rule_in_english(env: Environment) -> None:
    text = _text(env, "undecim", "score_cards", "score_red", "face")
    assert "Past 49: on from 0, turn the card 90° right (+50)" in text
    assert "49の次は0へ" in text  # the Japanese stays
