"""9 Peak's worked scoring example on the aids: unambiguous and true to ruling N6.

The English aid once wrote the same-suit score of 3 silk hats + the Persona
as "5 × (3 + 1)", one line under the all-one-suit bonus "× (cards + 1)", so
it read like that bonus. A "(n + 1)" may now appear only on a line about a
set of one suit; every figure is recomputed with the engine's own scoring.
"""

from __future__ import annotations

import html
import re

from pnp import PROJECT_ROOT
from pnp.builder.cards import component_rows
from pnp.builder.context import card_context
from pnp.data import load_game_data
from pnp.games.nine_peak.scoring import BLACK, PERSONA, score_set_full, score_set_simple
from pnp.render.jinja_env import make_environment

DATA = PROJECT_ROOT / "card_data"
TEMPLATES = PROJECT_ROOT / "templates"
#: Suit indices of the example set: 3 silk hats, 1 fedora, 1 Persona; then 6 bonnets.
SILK, FEDORA, BONNET = 0, 1, 2


def _back_lines(component: str) -> list[str]:
    """The aid's back as plain text, one entry per printed line break."""
    game = load_game_data(DATA, "nine_peak", strict=True)
    comp = game.manifest.components[component]
    assert comp.back is not None
    markup = make_environment(TEMPLATES).get_template(comp.back).render(
        **card_context(game, comp, component_rows(game, comp)[0] if comp.table else None,
                       "back"))
    lines = re.split(r"<br\b[^>]*>|</text>", markup)
    plain = (html.unescape(re.sub(r"<[^>]+>", "", line)).replace("\u00a0", " ")
             for line in lines)
    return [re.sub(r"\s+", " ", line).strip() for line in plain if line.strip()]


def _figures() -> dict[str, int]:
    """The example's scores by ruling N6, from the engine's scoring functions."""
    game = load_game_data(DATA, "nine_peak", strict=True)
    base = game.manifest.constants["base_points"]
    five = [SILK, SILK, SILK, FEDORA, PERSONA]
    return {"simple": score_set_simple([BLACK] * 4 + [2], base),   # the Persona joins black
            "same": base[4] * 4, "mixed": 5 * 3, "full": score_set_full(five, base),
            "bonnets": score_set_full([BONNET] * 6, base)}


def test_the_english_example_names_the_four_cards_not_a_plus_one() -> None:
    lines = _back_lines("aid_en")
    f = _figures()
    example = lines[next(i for i, t in enumerate(lines) if t.startswith("A set of 5")):]
    for line in example:
        for m in re.finditer(r"×\s*\((\d+)\s*\+\s*1\)", line):
            # the (cards + 1) bonus: only for a set all of one suit, of that many cards
            assert "one suit" in line and line.startswith(f"{m.group(1)} "), line
    text = " ".join(example)
    assert f"Simple (Persona as black): 5 × 5 = {f['simple']} VP" in text
    assert f"Full, same suit: 5 × 4 = {f['same']} (the 4: 3 silk hats + the Persona)" in text
    assert f"mixed: 5 cards × 3 suits = {f['mixed']} → {f['full']} VP" in text
    assert f"6 bonnets, one suit: 7 × (6 + 1) = {f['bonnets']} VP" in text
    assert f["full"] == max(f["same"], f["mixed"])


def test_the_japanese_example_has_the_same_figures() -> None:
    text = " ".join(_back_lines("aid"))
    f = _figures()
    assert f"黒5枚 → 5×5＝{f['simple']}VP" in text
    assert f"同スート5×4＝{f['same']}" in text
    # the only "(n＋1)" is the all-one-suit bonus of the six bonnets
    assert re.findall(r"×\s*[（(](\d+)\s*[＋+]\s*1[）)]", text) == ["6"]
    assert f"異スート5×3＝{f['mixed']} → {f['full']}VP" in text
    assert f"7×（6＋1）＝{f['bonnets']}VP" in text
