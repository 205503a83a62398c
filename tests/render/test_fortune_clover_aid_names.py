"""Fortune Clover's player aids name the game in both scripts, the edition's own first.

The shared header's game line has room for one of the two names only, so the
game's aid header (templates/fortune_clover/aid_style.xml.j2) sets the other
one beside it, right-aligned. Checked here on the laid-out sides: both names
whole on one line each, at least 6.5 pt, the second clear of the first and
inside the safe area; the linter (test_shipped_cards) checks their contrast.
"""

from __future__ import annotations

import pytest

from pnp import PROJECT_ROOT
from pnp.builder.cards import all_components, component_rows
from pnp.builder.preview import render_sides
from pnp.data import load_game_data
from pnp.render import fonts
from pnp.render.jinja_env import make_environment
from pnp.render.nodes import Text, TextRun
from pnp.units import mm

MIN_PT = 6.5


def ink_width(run: TextRun) -> float:
    """Width of a run's ink in points (letter-spacing between its characters only)."""
    chars = sum(fonts.char_width(run.font, ord(c)) for c in run.text) * run.size
    return chars + run.spacing * (len(run.text) - 1)


def header_names(deck: str) -> list[tuple[str, list[Text], float]]:
    """(side, [game-name box, other-name box], card width) of each side of an aid deck."""
    game = load_game_data(PROJECT_ROOT / "card_data", "fortune_clover", strict=True)
    templates = PROJECT_ROOT / "templates"
    aid = next(c for c in all_components(game, templates) if c.id == deck)
    ids = [r.id for r in component_rows(game, aid)][:1]
    out = []
    for side in render_sides(make_environment(templates), game, aid, ids):
        boxes = {n.id: n for n in side.layout.nodes if isinstance(n, Text)}
        out.append((side.side, [boxes["aid-game"], boxes["aid-game-other"]],
                    side.layout.width))
    return out


@pytest.mark.parametrize("deck, first, second", [
    ("aid", "フォーチュンクローバー", "Fortune Clover"),
    ("aid_en", "Fortune Clover", "フォーチュンクローバー"),
])
def test_both_names_on_every_side(deck: str, first: str, second: str) -> None:
    sides = header_names(deck)
    assert sorted(s for s, _, _ in sides) == ["back", "face"]
    for side, (one, other), width in sides:
        assert [r.text for r in one.runs] == [first], side
        assert [r.text for r in other.runs] == [second], side      # one line, whole
        (a,), (b,) = one.runs, other.runs
        assert a.size >= MIN_PT and b.size >= MIN_PT, (a.size, b.size)
        assert a.y == pytest.approx(b.y)                           # the same line
        # the second name starts at least 2 mm after the first one's ink ends …
        assert b.x >= a.x + ink_width(a) + mm(2), side
        # … and ends inside the 3 mm safe area, under the side number's right edge
        assert b.x + ink_width(b) <= width - mm(3.9), side
