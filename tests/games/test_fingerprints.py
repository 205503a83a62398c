"""Fortuna and 9 Peak play the same seeded games as before the move into packages.

The hashes were taken with the engines as they were before the game-package
restructure (commit b67f803): 300 games per case, each game's actions,
returns, winners and length, with the simulator's seeding (deal and bot seeds
from ``derive_seed``, bots rotated by game index, forced moves not asked).
A change that alters any seeded game of these two engines fails here.
"""

from __future__ import annotations

import pytest

from gamedata import fingerprint

EXPECTED = {
    "fortuna/3/random": "235151f7d8fdd1163df25d6e5d53f6df63e74b0ab9fd165f1d3b0d80db0cce57",
    "fortuna/3/greedy": "1c154a28879ff5e0ae159f42b5e66265a5d8b2daa40ee19dbaa98161def67193",
    "fortuna/3/greedy,random": "65fb4fe516f916fa54875d146c931b1b4c047a820ac1bcc45f54565ec167ddb4",
    "fortuna/4/random": "1e49a77cdcb7e01b2e59e31603483dba274c84431543ebeaedf14c30ff2ff1cb",
    "fortuna/4/greedy": "55b26861ab7520afab9a7779c38e8111c140aaee7431b0e38ec3cfea3d3c47bc",
    "fortuna/4/greedy,random": "c7ba1968b6578366acb949c74c9f55c867092d6cdb674b34cbc7e95d3ec7bd27",
    "nine_peak/3/random": "07b6a9ff93717d01afe7997cc7e51ed7b6736ced604052a7f3be59d73c1a4f03",
    "nine_peak/3/greedy": "4188d76683e578de5079ac7b471f2aa1686c1d948fb2623344363edf59872917",
    "nine_peak/3/greedy,random": "60405787c27cd02ee2852de13c6e06bba02e09679ac857e4f4dcf33adb585cc2",
    "nine_peak/4/random": "6824e7789c8c02fbd7cd762f1aff7842b5d3d281e15ce5a0a4a39113bed79273",
    "nine_peak/4/greedy": "b620860e5fa811379ab34c916c118a3b6e03492fef59d8416d1f24ec20688443",
    "nine_peak/4/greedy,random": "0afc868ab1376b45dc0a52e5ee221f3d5f7008c9d55d7292d9afe9f92d1fa63f",
    "nine_peak/5/random": "f0f13d30d17b876961c6427e3bbcba0cb2baa1b6561a0a803cebb35233fe3b59",
    "nine_peak/5/greedy": "4e47889b116c9646e55f733038b8253a1ef7d1c156f5373442e51de5daf7883b",
    "nine_peak/5/greedy,random": "03d9883ebf2ceea4297e7195cb2e2a59e27d8e34576d4e32364a7019c0a17627"
}
GAMES = 300


def _fingerprint(slug: str, n: int, bots: tuple[str, ...]) -> str:
    """Hash of ``GAMES`` seeded games of ``slug`` at ``n`` seats."""
    return fingerprint(slug, n, bots, GAMES)


@pytest.mark.parametrize("case", sorted(EXPECTED))
def test_same_games_as_before(case: str) -> None:
    """Every seeded game is move-for-move the game the old engine played."""
    slug, n, bots = case.split("/")
    assert _fingerprint(slug, int(n), tuple(bots.split(","))) == EXPECTED[case]
