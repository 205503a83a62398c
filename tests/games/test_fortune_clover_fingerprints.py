"""Fortune Clover plays the same seeded games as before its hot paths were reworked.

The hashes were taken with the engine and heuristic bot of commit 1003bde
(before the speed work of issue 13, item 7): 200 games per case, each
game's actions, returns, winners, length and rule counters, with the
simulator's seeding (deal and bot seeds from ``derive_seed``, bots rotated by
game index, forced moves not asked). A change that alters any seeded game,
or what the heuristic bot chooses, fails here.
"""

from __future__ import annotations

import pytest

from gamedata import fingerprint

EXPECTED: dict[str, str] = {
    "3/random": "9a4036c8e4f719f5a81c998f4fc8b97d53d818a905cb0af0bc3ebd5d716a97e0",
    "3/heuristic": "88195cc258ad031f7790a846e4ca49db71f72baf608cf2a78e15c1355f28fc6f",
    "3/heuristic,random": "7a9e4f22384ae33ed33463ef29bfc9a620bdaf4e32d91d044b2ecdf873ff3d6d",
    "4/random": "e02e573cd5678ed4a848aafbc0a37b07644b04f40d806ce3a6e9c926cc6780fa",
    "4/heuristic": "736644f0a54df3770d063b9d2ee338567acb04590cad0b471da86b22c897b373",
    "4/heuristic,random": "f14aa2ab6852152dfb344c96510900709272041311a765b6728222c019123b8a",
    "5/random": "b3f39dfd5f919a7a227053b6d68dd42deb2d2e853e31e3f10e4c6429ab0bd883",
    "5/heuristic": "b496fea7cfa2bb4f7e926c7cb1c4714a0727c7bef5dfa2bab00fb44fd23acb75",
    "5/heuristic,random": "d9193ad72c88f35856bf2315745fa3ed8f78c495c26d82af8909a5db7faa6a8e",
    "6/random": "ec96a23f34da63275bea5cd44e1b14490ceffd716c236f574a5bdea85b1b1b72",
    "6/heuristic": "95ee26db510b5fe6dc1d5e98962480df2cfb8767dd205641738f3c76c6dfc98a",
    "6/heuristic,random": "837270391a82e9a0de4f31260758968f1755d274d1abdaeb5886a0a3f1bf3be6",
}
GAMES = 200


def _fingerprint(n: int, bots: tuple[str, ...]) -> str:
    """Hash of ``GAMES`` seeded games at ``n`` seats with ``bots`` rotated round the table."""
    return fingerprint("fortune_clover", n, bots, GAMES, events=True)


@pytest.mark.parametrize("case", sorted(EXPECTED))
def test_same_games_as_before(case: str) -> None:
    """Every seeded game is move-for-move the game the engine played before the rework."""
    n, bots = case.split("/")
    assert _fingerprint(int(n), tuple(bots.split(","))) == EXPECTED[case]


if __name__ == "__main__":  # print the table (only when the rules change on purpose)
    for n in range(3, 7):
        for bots in ("random", "heuristic", "heuristic,random"):
            print(f'    "{n}/{bots}": "{_fingerprint(n, tuple(bots.split(",")))}",')
