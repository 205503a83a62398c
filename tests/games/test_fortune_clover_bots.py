"""Fortune Clover heuristic bot and report figures."""

from __future__ import annotations

import random

import pytest

from gamedata import build_game
from pnp.games.bots import RandomBot
from pnp.games.fortune_clover.bots import HeuristicBot
from pnp.games.fortune_clover.engine import FortuneCloverGame, FortuneCloverObservation, \
    FortuneCloverState
from pnp.games.fortune_clover.stats import FortuneCloverStats


@pytest.fixture(scope="module")
def game() -> FortuneCloverGame:
    """The engine built from the project's card data."""
    g = build_game("fortune_clover")
    assert isinstance(g, FortuneCloverGame)
    return g


def _with_fortune(g: FortuneCloverGame, state: FortuneCloverState, fid: str) -> None:
    """Make ``fid`` the current deal's Fortune card (test set-up only)."""
    f = g.fortune_ids.index(fid)
    i = state.fortune_order.index(f)
    order = state.fortune_order
    order[i], order[state.deal] = order[state.deal], order[i]
    state.fortune = f
    state.fmask = g.fortune_mask[f]
    state.ftrick = g.fortune_by_trick[f]


def _trick_position(g: FortuneCloverGame, fid: str, hands: list[str], void: str = "-/-/-/-",
                    chips: str = "Y0W0,Y0W0,Y0W0,Y0W0") -> FortuneCloverState:
    """Seat 0 to lead in deal 1 of ``fid``; every card not in ``hands`` is in the centre."""
    pile = [fid] + [f for f in g.fortune_ids if f != fid]
    used = {g.ids[n] for h in hands for n in _names(h)}
    rest = [c for c in range(g.n_cards) if c not in used]
    ex = "/".join(f"{g.names[rest[s]]}:{_two_outside(g, hands, s, rest)}" for s in range(4))
    text = (f"fortune_clover p=4 deal=1 fort={','.join(pile)} seeds=1,2 chips={chips} lead=0 "
            f"hands={'/'.join(hands)} centre={''.join(g.names[c] for c in rest)} ex={ex} "
            f"trick=- won=-/-/-/- void={void} log=- ret=- t=0")
    return g.state_from_notation(text)


def _names(hand: str) -> list[str]:
    """Split ``♥K♥A`` into ``["♥K", "♥A"]``."""
    out: list[str] = []
    for ch in hand:
        if ch in "♠♥♦♣":
            out.append(ch)
        else:
            out[-1] += ch
    return out


def _two_outside(g: FortuneCloverGame, hands: list[str], seat: int, centre: list[int]) -> str:
    """Two cards held by other seats (a consistent pass record for ``seat``)."""
    others = [n for s, h in enumerate(hands) if s != seat for n in _names(h)]
    return others[0] + others[1]


def test_knows_the_yellow_penalty(game: FortuneCloverGame) -> None:
    """C8: a yellow-only Fortune card is wanted when behind in yellow, avoided when leading."""
    st = game.new_initial_state(4, 3)
    _with_fortune(game, st, "F10")
    bot = HeuristicBot(game, 0, random.Random(0))
    st.yellow = (0, 3, 2, 0)  # chips are tuples in the state
    assert bot.want(st.observation(0)) == 1.0
    st.yellow = (4, 1, 0, 0)
    st.white = (9, 5, 5, 5)
    assert bot.want(st.observation(0)) == -1.0
    _with_fortune(game, st, "F02")  # white only: always worth winning
    assert bot.want(st.observation(0)) == 1.0
    _with_fortune(game, st, "F06")  # 2nd pays best: lukewarm
    assert bot.want(st.observation(0)) == pytest.approx(0.3)


def test_wins_counted_trick_with_cheapest_sure_winner(game: FortuneCloverGame) -> None:
    """F02 (red cards): the bot takes ♥Q with ♥A, or ♥K when nobody after it can beat ♥K."""
    hands = ["♥Q♠2♠3", "♥K♥A♥2", "♠4♠5♠6", "♠7♠8♠9"]
    st = _trick_position(game, "F02", hands)
    st.apply_action(game.ids["♥Q"])
    bot = HeuristicBot(game, 1, random.Random(0))
    # ♣A is unseen and seats 2 and 3 may hold it: only ♥A is sure (C5: equal rank, led wins).
    assert bot.act(st.observation(1), st.legal_actions()) == game.ids["♥A"]
    st = _trick_position(game, "F02", hands, void="-/-/♥♣/♥♣")
    st.apply_action(game.ids["♥Q"])
    assert bot.act(st.observation(1), st.legal_actions()) == game.ids["♥K"]


def test_ducks_a_trick_it_does_not_want(game: FortuneCloverGame) -> None:
    """F10 (diamonds pay yellow) while leading the yellow race: follow low and lose."""
    hands = ["♦5♠2♠3", "♦3♦K♠4", "♠5♠6♠7", "♠8♠9♠10"]
    st = _trick_position(game, "F10", hands, chips="Y0W0,Y4W9,Y0W0,Y0W0")
    st.apply_action(game.ids["♦5"])
    bot = HeuristicBot(game, 1, random.Random(0))
    assert bot.want(st.observation(1)) == -1.0
    assert bot.act(st.observation(1), st.legal_actions()) == game.ids["♦3"]
    # The same trick when the diamonds are welcome: win it.
    st = _trick_position(game, "F10", hands)
    st.apply_action(game.ids["♦5"])
    assert bot.act(st.observation(1), st.legal_actions()) == game.ids["♦K"]


def test_exchange_gives_away_unwanted_cards(game: FortuneCloverGame) -> None:
    """Wanting red cards, the bot keeps them and discards/passes its low black cards."""
    st = game.new_initial_state(4, 8)
    _with_fortune(game, st, "F02")
    bot = HeuristicBot(game, 0, random.Random(0))
    obs = st.observation(0)
    discard = bot.act(obs, st.legal_actions()) - 100
    red = game.fortune_mask[st.fortune]
    hand = list(obs.hand)
    black = [c for c in hand if not red >> c & 1]
    assert not red >> discard & 1
    assert game.strength[discard] == min(game.strength[c] for c in black if game.suit[c] != 3)


def _play_games(g: FortuneCloverGame, n: int, games: int, heuristic_seats: int,
                stats: FortuneCloverStats | None = None) -> float:
    """Win share (ties split) of the heuristic seats, seats rotated over games."""
    share = 0.0
    for gi in range(games):
        kinds = [(s - gi) % n < heuristic_seats for s in range(n)]
        bots = [(HeuristicBot if k else RandomBot)(g, s, random.Random(gi * 10 + s))
                for s, k in enumerate(kinds)]
        st = g.new_initial_state(n, 5000 + gi)
        while not st.is_terminal():
            legal = st.legal_actions()
            p = st.current_player()
            if len(legal) == 1:
                st.apply_action(legal[0])
                continue
            b = bots[p]
            st.apply_action(b.act(st.observation(p) if b.needs_observation else None, legal))
        winners = st.winners()
        share += sum(1 for s in winners if kinds[s]) / len(winners)
        if stats is not None:
            stats.add(st, ["heuristic" if k else "random" for k in kinds])
    return share / games


def test_heuristic_beats_random(game: FortuneCloverGame) -> None:
    """One heuristic seat among three random ones wins far more than its 1/4 share."""
    assert _play_games(game, 4, 240, 1) > 0.32


def test_stats_figures_add_up(game: FortuneCloverGame) -> None:
    """Per-card chips by place sum to what the games paid; merge adds; intervals bracket."""
    a = FortuneCloverStats(game, 4)
    b = FortuneCloverStats(game, 4)
    rng = random.Random(4)
    paid_y = paid_w = 0
    for gi in range(40):
        st = game.new_initial_state(4, gi)
        while not st.is_terminal():
            legal = st.legal_actions()
            st.apply_action(legal[int(rng.random() * len(legal))])
        paid_y += sum(st.yellow) + sum(st.ret_y)
        paid_w += sum(st.white) + sum(st.ret_w)
        (a if gi < 25 else b).add(st, ["random"] * 4)
    a.merge(b)
    fig = a.to_dict()
    assert fig["games"] == 40
    cards = fig["fortunes"]
    assert sum(c["deals"] for c in cards.values()) == 120
    total_y = sum(sum(c["yellow_per_deal_by_place"]) * c["deals"] for c in cards.values())
    total_w = sum(sum(c["white_per_deal_by_place"]) * c["deals"] for c in cards.values())
    assert round(total_y) == paid_y and round(total_w) == paid_w
    # F08 pays only 1st place.
    assert cards["F08"]["white_per_deal_by_place"][1:] == [0.0, 0.0, 0.0]
    keys = a.key_figures(fig)
    assert [k[0] for k in keys] == ["yellow return", "shared win", "unpaid place per deal"]
    assert all(lo <= v <= hi for _, v, lo, hi in keys)
    lines = a.format(fig)
    assert any("F03 Golden Egg" in line for line in lines)


def test_folded_sort_keys_order_as_the_heuristic_tuples(game: FortuneCloverGame) -> None:
    """The bot's one-int sort keys order cards exactly as its (value, id) tuples would.

    min/max over the folded keys must pick the card the tuple keys pick, for
    every Fortune card and every want class, or the bot would play differently.
    """
    from itertools import combinations

    from pnp.games.fortune_clover.bots import _keep_value, _tables_of, want_class
    from pnp.games.fortune_clover.engine import CLUB
    t = _tables_of(game)
    cards = range(game.n_cards)
    strength, suit = game.strength, game.suit
    for fmask in game.fortune_mask:
        for want in (1.0, 0.3, -1.0):
            keep, shed = t.keep_keys(fmask, want), t.shed_keys(fmask, want)
            bonus = 8 if want > 0.5 else (-8 if want < 0 else 0)
            cls = want_class(want)
            for a, b in combinations(cards, 2):
                ka = (_keep_value(strength[a], suit[a] == CLUB, bool(fmask >> a & 1), cls), a)
                kb = (_keep_value(strength[b], suit[b] == CLUB, bool(fmask >> b & 1), cls), b)
                assert (keep[a] < keep[b]) == (ka < kb)
                sa = (strength[a] + 5 * (suit[a] == CLUB) + bonus * (fmask >> a & 1), a)
                sb = (strength[b] + 5 * (suit[b] == CLUB) + bonus * (fmask >> b & 1), b)
                assert (shed[a] < shed[b]) == (sa < sb)
        avoid = t.avoid_keys(fmask)
        for a, b in combinations(cards, 2):
            assert (avoid[a] > avoid[b]) == ((fmask >> a & 1, strength[a], -a)
                                             > (fmask >> b & 1, strength[b], -b))
    for row, low, high in zip(t.keys, t.key_low, t.key_high):
        for a, b in combinations(cards, 2):
            assert (low[a] < low[b]) == ((row[a], a) < (row[b], b))
            assert (high[a] > high[b]) == ((row[a], -a) > (row[b], -b))


def _reference_play(bot: HeuristicBot, obs: FortuneCloverObservation, legal: list[int], want: float,
                    fmask: int) -> int:
    """The card play as first written, card by card (the mask version must choose as it does)."""
    from pnp.games.fortune_clover.bots import _trick_key
    from pnp.games.fortune_clover.engine import CLUB
    g = bot.g
    suit, led_key, club_key = g.suit, g.led_key, g.club_key
    trick_cards, hand, won = obs.trick, obs.hand, obs.won
    led = obs.led_suit
    n, seat, voids = obs.num_players, obs.seat, obs.voids
    trick = sum(1 << c for c in trick_cards)
    known = trick | sum(1 << c for c in hand) | sum(1 << c for cards in won for c in cards)
    if obs.discard >= 0:
        known |= 1 << obs.discard
    playable = 0
    for k in range(1, n - len(trick_cards)):
        playable |= sum(m for s, m in enumerate(g.suit_mask) if not voids[(seat + k) % n] >> s & 1)
    threat = (1 << g.n_cards) - 1 & ~known & playable
    best, cur = -1, -1
    for c in trick_cards:  # replayed in play order (C3: clubs before the led suit is set)
        if cur < 0 and suit[c] != CLUB:
            cur = suit[c]
        best = max(best, _trick_key(c, cur, suit, led_key, club_key))

    def beaten(c: int) -> bool:
        """Some threat card beats ``c`` (C5; a leader's card sets the led suit)."""
        lead = suit[c] if led < 0 and suit[c] != CLUB else led
        mine = _trick_key(c, lead, suit, led_key, club_key)
        return any(threat >> u & 1 and _trick_key(u, lead, suit, led_key, club_key) > mine
                   for u in range(g.n_cards))

    by_trick = g.fortune_by_trick[obs.fortune]
    in_trick = (trick & fmask).bit_count()
    all_cards = (1 << g.n_cards) - 1

    def stakes(c: int) -> float:
        k = in_trick + (1 if fmask >> c & 1 else 0)
        if by_trick:
            return 1.0 if (k or fmask == all_cards) else 0.0
        return float(k)

    def key(c: int) -> int:
        return _trick_key(c, led, suit, led_key, club_key)

    strength = g.strength
    winners = [c for c in legal if key(c) > best]
    losers = [c for c in legal if key(c) <= best]
    safe = [c for c in winners if not beaten(c)]
    leading = not trick_cards
    cls = 1 if want > 0.5 else (-1 if want < 0 else 0)

    def shed(c: int) -> tuple[int, int]:
        return (strength[c] + 5 * (suit[c] == CLUB) + 8 * cls * (fmask >> c & 1), c)

    if want > 0:
        worth = [c for c in safe if stakes(c) * want > 0 or (leading and want > 0.5)]
        if worth:
            pool = [c for c in worth if fmask >> c & 1] or worth
            return min(pool, key=lambda c: (key(c), c))
        if not leading and winners and in_trick and want > 0.5:
            return max(winners, key=lambda c: (key(c), -c))
    if want < 0 and losers:
        return max(losers, key=lambda c: (fmask >> c & 1, strength[c], -c))
    if losers:
        return min(losers, key=shed)
    if not [c for c in winners if beaten(c)] and want <= 0:
        return max(winners, key=lambda c: (strength[c], -c))
    return min(winners, key=shed)


def test_card_play_matches_the_card_by_card_reference(game: FortuneCloverGame) -> None:
    """The mask-based card play picks what the card-by-card reference picks.

    Positions come from random and heuristic play at every seat count and
    every want class (the Fortune card decides what the bot wants), so leads,
    follows, voids and trick-unit cards all occur.
    """
    checked = 0
    for n in range(3, 7):
        for g_ in range(6):
            st = game.new_initial_state(n, 100 * n + g_)
            rng = random.Random(g_)
            bots = [HeuristicBot(game, s, random.Random(s)) for s in range(n)]
            while not st.is_terminal():
                p = st.current_player()
                legal = st.legal_actions()
                obs = st.observation(p)
                if legal[0] < 100 and len(legal) > 1:
                    fmask = game.fortune_mask[obs.fortune]
                    for want in (1.0, 0.3, -1.0, bots[p].want(obs)):
                        assert (bots[p]._play(obs, legal, want, fmask)
                                == _reference_play(bots[p], obs, legal, want, fmask))
                        checked += 1
                    if len(legal) > 2:  # a caller's subset: the bot keeps to it
                        some = legal[1:]
                        assert (bots[p]._play(obs, some, 1.0, fmask)
                                == _reference_play(bots[p], obs, some, 1.0, fmask))
                heuristic = g_ % 2 == 0
                st.apply_action(bots[p].act(obs, legal) if heuristic
                                else legal[int(rng.random() * len(legal))])
    assert checked > 2000
