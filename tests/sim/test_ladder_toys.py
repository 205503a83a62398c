"""The skill ladder rises where skill provably matters and stays flat where it cannot."""

from __future__ import annotations

from pnp.games.registry import registered_games
from pnp.sim.findings import ladder_sentences
from pnp.sim.ladder import ladder_text, skill_ladder

from skill_toys import toy_game

BUDGETS = [1, 4, 16, 64]


def _ladder(slug: str) -> dict:
    return skill_ladder(toy_game(slug), 2, 200, 3, BUDGETS, "random",
                        dict(registered_games()[slug].bots))


def test_ladder_rises_on_nim() -> None:
    """Nim against a random player: each doubling of search wins more, and the top
    rung's interval lies above the bottom rung's."""
    doc = _ladder("nim")
    shares = [r["win_share"] for r in doc["rungs"]]
    assert shares == sorted(shares) and len(set(shares)) == len(shares), shares
    assert doc["rungs"][0]["ci_high"] < doc["rungs"][-1]["ci_low"]
    assert doc["rungs"][-1]["win_share"] >= 0.9  # near-perfect play wins almost always
    assert [r["seat_games"] for r in doc["rungs"]] == [200] * 4  # one searcher per game
    assert ladder_sentences(doc)[0].startswith("Skill pays")


def test_ladder_flat_on_coin() -> None:
    """A coin decides: every rung wins the same share, near 50 %."""
    doc = _ladder("coin")
    shares = {r["win_share"] for r in doc["rungs"]}
    assert len(shares) == 1
    share = shares.pop()
    assert abs(share - 0.5) < 0.08
    assert "flat" in ladder_sentences(doc)[0]
    text = ladder_text(doc, ladder_sentences(doc))
    assert "luck = 50.0%" in text and text.count("%") >= 4
