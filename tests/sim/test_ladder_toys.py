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


def _rung(budget: int, share: float, lo: float, hi: float) -> dict[str, float]:
    """One hand-made rung of a ladder dict."""
    return {"budget": budget, "win_share": share, "ci_low": lo, "ci_high": hi}


def test_ladder_sentence_follows_the_direction() -> None:
    """Overlapping intervals: the sentence says rises or falls as the shares do (Undecim 64 → 128)."""
    down = {"fair_share": 0.25, "rungs": [_rung(64, 0.75, 0.531, 0.888),
                                          _rung(128, 0.65, 0.433, 0.819)]}
    assert ladder_sentences(down) == [
        "The ladder falls from 75 % at 64 iterations to 65 % at 128, but the intervals "
        "overlap: play more games to tell."]
    up = {"fair_share": 0.25, "rungs": [_rung(8, 0.15, 0.052, 0.36), _rung(32, 0.45, 0.258,
                                                                           0.658)]}
    assert ladder_sentences(up)[0].startswith("The ladder rises from 15 % at 8 iterations")
    worse = {"fair_share": 0.25, "rungs": [_rung(8, 0.7, 0.6, 0.8), _rung(64, 0.3, 0.2, 0.4)]}
    assert ladder_sentences(worse)[0].startswith("More search does worse")
