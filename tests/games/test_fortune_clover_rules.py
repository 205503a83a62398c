"""Fortune Clover known-answer tests: scripted positions in the notation, rulings C1–C9."""

from __future__ import annotations

import random
from typing import Any

import pytest

from gamedata import build_game
from pnp.games.api import TERMINAL, IllegalAction, NotationError
from pnp.games.fortune_clover.engine import FortuneCloverGame, FortuneCloverState

SLUG = "fortune_clover"
FORT = "F01,F02,F03,F04,F05,F06,F07,F08,F09,F10"


@pytest.fixture(scope="module")
def game() -> FortuneCloverGame:
    """The engine built from the project's card data."""
    g = build_game(SLUG)
    assert isinstance(g, FortuneCloverGame)
    return g


def cards(g: FortuneCloverGame, text: str) -> list[int]:
    """Card ids of a run of names such as ``♠A♥10``."""
    state_text = text.replace(" ", "")
    out: list[int] = []
    i = 0
    while i < len(state_text):
        j = i + 1
        while j < len(state_text) and state_text[j] not in "♠♥♦♣":
            j += 1
        out.append(g.ids[state_text[i:j]])
        i = j
    return out


def position(g: FortuneCloverGame, hands: list[str], *, lead: int = 0, trick: str = "",
             fortune: str = "F01", deal: int = 1, chips: str | None = None,
             won: list[list[str]] | None = None, void: str | None = None,
             log: str = "-", centre: str | None = None) -> FortuneCloverState:
    """A play-phase position: the given hands/trick/won, every other card in the centre.

    ``fortune`` is the Fortune card of deal ``deal`` (the pile's ``deal``-th card).

    Exchange records are filled in consistently (each discard in the centre,
    each pass two cards outside the passer's hand and the centre).
    """
    n = len(hands)
    won = won or [[] for _ in range(n)]
    used: set[int] = set()
    for text in [*hands, trick, *(t for s in won for t in s)]:
        used.update(cards(g, text))
    if centre is None:
        centre_ids = [c for c in range(g.n_cards) if c not in used]
    else:
        centre_ids = cards(g, centre)
    names = g.names
    ex = []
    for s in range(n):
        others = sorted(c for c in range(g.n_cards)
                        if c not in centre_ids and c not in cards(g, hands[s]))
        ex.append(names[centre_ids[s]] + ":" + names[others[0]] + names[others[1]])
    pile = [f for f in FORT.split(",") if f != fortune]
    pile.insert(deal - 1, fortune)
    fort = ",".join(pile)
    seeds = ",".join(str(11 + k) for k in range(3 - deal)) or "-"
    log_text = log
    if deal > 1 and log == "-":
        log_text = ",".join(".".join("0" * n) for _ in range(deal - 1))
    text = " ".join([
        "fortune_clover", f"p={n}", f"deal={deal}", f"fort={fort}", f"seeds={seeds}",
        "chips=" + (chips or ",".join(["Y0W0"] * n)), f"lead={lead}",
        "hands=" + "/".join(h or "-" for h in hands),
        "centre=" + ("".join(names[c] for c in sorted(centre_ids)) or "-"),
        "ex=" + "/".join(ex), "trick=" + (trick or "-"),
        "won=" + "/".join(",".join(t) or "-" for t in won),
        "void=" + (void or "/".join(["-"] * n)), f"log={log_text}", "ret=-", "t=0"])
    return g.state_from_notation(text)


def play(state: FortuneCloverState, *names: str) -> None:
    """Play cards by name for the players on turn, in order."""
    for name in names:
        state.apply_action(state.string_to_action(f"play {name}"))


def legal_names(state: FortuneCloverState) -> list[str]:
    """Legal plays of the player on turn as card names."""
    return sorted(state.game.names[a] for a in state.legal_actions())


# -- C3: the lead --------------------------------------------------------------------

def test_leader_may_not_lead_a_club_while_holding_a_non_club(game: FortuneCloverGame) -> None:
    """C3: with any non-club in hand, clubs are not legal leads, and trying changes nothing."""
    st = position(game, ["♣A♥2", "♠3♠4", "♦5♦6", "♥7♥8"])
    assert legal_names(st) == ["♥2"]
    before = st.to_notation()
    with pytest.raises(IllegalAction):
        st.apply_action(game.ids["♣A"])
    with pytest.raises(IllegalAction):
        st.string_to_action("play ♣A")
    assert st.to_notation() == before


def test_only_clubs_leader_passes_the_lead_on(game: FortuneCloverGame) -> None:
    """C3: an only-clubs leader plays any club, sets no led suit; the next seat leads."""
    st = position(game, ["♣2♣5", "♥K♣3", "♥2♠4", "♥A♣A"])
    assert legal_names(st) == ["♣2", "♣5"]
    play(st, "♣5")
    assert st.phase() == "lead" and st.led == -1 and st.current_player() == 1
    # Seat 1 now leads under the same restriction: its club is not legal.
    assert legal_names(st) == ["♥K"]
    play(st, "♥K")
    assert st.phase() == "follow" and game.names[st.trick[1]] == "♥K"
    # C4: seat 2 holds the led suit (♥) and no club: ♥2 only.
    assert legal_names(st) == ["♥2"]
    play(st, "♥2")
    # Seat 3 may follow with the led suit or a club.
    assert legal_names(st) == ["♣A", "♥A"]
    play(st, "♣A")
    # C5: ♣A beats ♥K and the only-clubs leader's ♣5; seat 3 wins and leads.
    assert st.current_player() == 3 and st.lead == 3
    assert st.ntricks == [0, 0, 0, 1]
    assert st.events()["only_clubs_lead"] == 1
    assert st.events()["club_wins_trick"] == 1
    # The only-clubs lead showed seat 0 holds nothing but clubs.
    assert st.voids[0] == 0b0111


def test_only_clubs_leaders_club_competes_as_a_club(game: FortuneCloverGame) -> None:
    """C3/C5: the club of an only-clubs leader stays in the trick and can win it."""
    st = position(game, ["♣K♣2", "♦3♦4", "♦5♦6", "♠7♠8"])
    play(st, "♣K", "♦3", "♦5", "♠7")
    assert st.lead == 0 and st.ntricks[0] == 1
    assert st.events()["club_wins_trick"] == 1


def test_all_club_trick_led_suit_is_clubs(game: FortuneCloverGame) -> None:
    """C3: if every card is a club the led suit is clubs; the highest club wins."""
    st = position(game, ["♣2♣3", "♣9♣4", "♣Q♣5", "♣J♣6"])
    play(st, "♣2", "♣9", "♣Q")
    assert st.phase() == "lead"
    play(st, "♣J")
    assert st.lead == 2 and st.ntricks[2] == 1
    ev = st.events()
    assert ev["all_club_trick"] == 1 and ev["only_clubs_lead"] == 4


def test_last_player_must_lead_a_non_club(game: FortuneCloverGame) -> None:
    """C3: after only-clubs leads, the last player holding a non-club must play it."""
    st = position(game, ["♣2♣3", "♣9♣4", "♣Q♣5", "♣K♦2"])
    play(st, "♣2", "♣9", "♣Q")
    assert st.current_player() == 3 and st.phase() == "lead"
    assert legal_names(st) == ["♦2"]
    with pytest.raises(IllegalAction):
        st.apply_action(game.ids["♣K"])
    play(st, "♦2")
    # The ♦2 sets the led suit; the earlier clubs compete and ♣Q wins.
    assert st.lead == 2
    assert st.events()["last_player_sets_lead"] == 1


# -- C4 and C5: following and winning ------------------------------------------------

def test_follow_with_club_while_holding_led_suit(game: FortuneCloverGame) -> None:
    """C4: a seat holding the led suit may play a club instead, never a third suit."""
    st = position(game, ["♥9♠2♠J", "♥3♣2♦8", "♠3♠4♠10", "♠5♠6♠Q"])
    play(st, "♥9")
    assert legal_names(st) == ["♣2", "♥3"]
    with pytest.raises(IllegalAction):
        st.apply_action(game.ids["♦8"])
    play(st, "♣2")
    assert st.events()["club_follow_holding_led"] == 1


def test_void_in_led_suit_and_clubs_may_play_anything(game: FortuneCloverGame) -> None:
    """C4: holding neither the led suit nor a club, any card is legal (and shows the void)."""
    st = position(game, ["♥9♠2", "♠3♦8", "♠4♠5", "♠6♠7"])
    play(st, "♥9")
    assert legal_names(st) == ["♠3", "♦8"]
    play(st, "♦8")
    assert st.voids[1] == (1 << 1) | (1 << 3)  # ♥ and ♣
    assert st.events()["void_discard"] == 1


def test_led_suit_beats_club_of_equal_rank(game: FortuneCloverGame) -> None:
    """C5: on equal rank the led-suit card beats the club; a higher club still wins."""
    st = position(game, ["♥10♠2", "♣10♠3", "♥4♠4", "♥5♠5"])
    play(st, "♥10", "♣10", "♥4", "♥5")
    assert st.lead == 0 and st.ntricks[0] == 1
    assert st.events()["led_beats_equal_club"] == 1
    st = position(game, ["♥10♠2", "♣J♠3", "♥4♠4", "♥5♠5"])
    play(st, "♥10", "♣J", "♥4", "♥5")
    assert st.lead == 1


def test_ace_is_high_and_off_suit_never_wins(game: FortuneCloverGame) -> None:
    """C5: A is the highest rank; a card of a third suit cannot win."""
    st = position(game, ["♠K♥2", "♠A♥3", "♦A♥4", "♠2♥5"])
    play(st, "♠K", "♠A", "♦A", "♠2")
    assert st.lead == 1


# -- C5, C6a, C7: the end of a deal ----------------------------------------------------

def test_centre_goes_to_last_trick_winner_and_counts(game: FortuneCloverGame) -> None:
    """C5: the last trick's winner takes the centre; F07 (all cards) counts it."""
    fortune = "F07"
    st = position(game, ["♠2", "♠3", "♠4", "♠A"], fortune=fortune, deal=3,
                  log="0.0.0.0,0.0.0.0",
                  won=[["♥2♥3♥4♥5", "♥6♥7♥8♥9"], [], [], []])
    centre = st.centre.bit_count()
    play(st, "♠2", "♠3", "♠4", "♠A")
    assert st.is_terminal() and st.current_player() == TERMINAL
    # Seat 3: its trick (4) plus every centre card; seat 0: its 8 won cards.
    assert st.log[-1] == (8, 0, 0, 4 + centre)
    assert st.events()["centre_taken"] == 1
    zones = dict(st.zones())
    assert len(zones["won:3"]) == 4 + centre and "centre" not in zones


def test_trick_unit_fortune_ignores_the_centre(game: FortuneCloverGame) -> None:
    """C6a: F04 counts tricks won; the centre pile is not a trick."""
    fortune = "F04"
    st = position(game, ["♠2", "♠3", "♠4", "♠A"], fortune=fortune, deal=3,
                  log="0.0.0.0,0.0.0.0",
                  won=[["♥2♥3♥4♥5", "♥6♥7♥8♥9"], ["♦2♦3♦4♦5"], [], []])
    play(st, "♠2", "♠3", "♠4", "♠A")
    assert st.log[-1] == (2, 1, 0, 1)


def test_ranking_ties_and_zero_card_exclusion_in_play(game: FortuneCloverGame) -> None:
    """C7 through the engine: tied 1st both paid, next is 3rd, zero counted pays nothing.

    F01 (clubs) at 4 players pays 1st Y1W2, 2nd W2, 3rd W1. Seats 0 and 1 take
    5 clubs, seat 2 takes 3, seat 3 none: 0 and 1 get Y1W2, seat 2 gets 3rd's W1,
    2nd pays nobody, seat 3 (zero) gets nothing.
    """
    st = position(game, ["♠2", "♠3", "♠A", "♠4"], deal=3, log="0.0.0.0,0.0.0.0",
                  won=[["♣2♣3♣4♣5", "♣6♥2♥3♥4"], ["♣7♣8♣9♣10", "♣J♥5♥6♥7"],
                       ["♣Q♣K♣A♥8"], []])
    play(st, "♠2", "♠3", "♠A", "♠4")
    assert st.log[-1] == (5, 5, 3, 0)
    assert st.ret_y == [1, 1, 0, 0] and st.ret_w == [1, 1, 0, 0]  # C8: tied yellow leaders
    assert (st.yellow, st.white) == ((0, 0, 0, 0), (1, 1, 1, 0))
    ev = st.events()
    assert ev["tied_place"] == 1 and ev["nobody_paid_place"] == 1
    assert ev["zero_card_excluded"] == 0  # 4th is not a paying place on F01
    assert st.winners() == [0, 1, 2]  # C8: a shared win
    assert ev["shared_win"] == 1


def test_zero_card_seat_is_not_paid_at_a_listed_place(game: FortuneCloverGame) -> None:
    """C7: F05 at 4 players lists 4th (Y2); with counts 7, 5, 2, 0 it pays nobody."""
    fortune = "F05"
    st = position(game, ["♠2", "♠3", "♠A", "♠4"], fortune=fortune, deal=3,
                  log="0.0.0.0,0.0.0.0",
                  won=[["♥2♥3♥4♥5", "♥6♥7♥8♦2"], ["♥9♥10♥J♥Q", "♥K♦3♦4♦5"],
                       ["♥A♠Q♦6♦7"], []], chips="Y0W5,Y0W5,Y0W5,Y0W5")
    play(st, "♠2", "♠3", "♠A", "♠4")
    assert st.log[-1] == (7, 5, 2, 0)
    # 1st W3, 2nd W1, 3rd Y1; 4th's Y2 is paid to nobody.
    assert st.ret_y == [0, 0, 1, 0] and st.ret_w == [0, 0, 1, 0]  # C8: seat 2 holds most
    assert st.white == (8, 6, 4, 5) and st.yellow == (0, 0, 0, 0)
    assert st.winners() == [0]
    ev = st.events()
    assert ev["zero_card_excluded"] == 1 and ev["nobody_paid_place"] == 1


# -- C9 and the deal cycle --------------------------------------------------------------

def test_last_trick_winner_leads_next_deal(game: FortuneCloverGame) -> None:
    """C9: the winner of a deal's last trick leads the next deal (and its exchange, C2a)."""
    st = position(game, ["♠2", "♠3", "♠A", "♠4"])
    play(st, "♠2", "♠3", "♠A", "♠4")
    assert st.deal == 1 and st.phase() == "exchange_discard"
    assert st.lead == 2 and st.current_player() == 2
    assert all(h.bit_count() == 13 for h in st.hands) and st.centre == 0
    # Run the exchange: the choices go round from seat 2, then seat 2 leads the first trick.
    order = []
    while st.phase().startswith("exchange"):
        order.append(st.current_player())
        st.apply_action(st.legal_actions()[0])
    assert order == [2, 3, 0, 1, 2, 3, 0, 1]
    assert st.phase() == "lead" and st.current_player() == 2


def test_first_deal_is_led_by_seat_zero_and_remainder_goes_to_centre(
        game: FortuneCloverGame) -> None:
    """C1, C9: 52 cards dealt evenly, 52 mod N to the centre; seat 0 starts."""
    for n in (3, 4, 5, 6):
        st = game.new_initial_state(n, 7)
        assert st.current_player() == 0 and st.lead == 0
        assert [h.bit_count() for h in st.hands] == [52 // n] * n
        assert st.centre.bit_count() == 52 % n
        # The first Fortune card of the shuffled pile is turned up (rulebook).
        assert st.fortune == st.fortune_order[0]
        obs = st.observation(1)
        assert obs.fortune == st.fortune and obs.fortunes_seen == (st.fortune,)


def test_three_deals_then_the_end(game: FortuneCloverGame) -> None:
    """The game is three deals; each deal turns up a different Fortune card."""
    rng = random.Random(3)
    st = game.new_initial_state(5, 99)
    fortunes = []
    while not st.is_terminal():
        if st.phase() == "exchange_discard" and st.discards == [-1] * 5:
            fortunes.append(st.fortune)
        legal = st.legal_actions()
        st.apply_action(legal[int(rng.random() * len(legal))])
    assert len(fortunes) == 3 and len(set(fortunes)) == 3 and len(st.log) == 3
    assert st.events()["deal"] == 3 and st.events()["trick"] == 3 * (52 // 5 - 1)


def test_deals_parameter(game: FortuneCloverGame) -> None:
    """``--param deals=1`` ends the game after one deal."""
    g = build_game(SLUG, {"deals": 1})
    rng = random.Random(1)
    st = g.new_initial_state(4, 1)
    while not st.is_terminal():
        legal = st.legal_actions()
        st.apply_action(legal[int(rng.random() * len(legal))])
    assert len(st.log) == 1


# -- C2: the exchange ---------------------------------------------------------------------

def _obs_all(st: FortuneCloverState, seats: range) -> list[Any]:
    return [st.observation(s) for s in seats]


def test_exchange_choices_are_hidden_and_simultaneous(game: FortuneCloverGame) -> None:
    """C2: choices are hidden from the others and cards move only when all have chosen."""
    st = game.new_initial_state(4, 5)
    hand0 = game.ids_of(st.hands[0])
    a, b = st.clone(), st.clone()
    a.apply_action(100 + hand0[0])
    b.apply_action(100 + hand0[1])
    # Other seats cannot tell which discard seat 0 chose.
    assert _obs_all(a, range(1, 4)) == _obs_all(b, range(1, 4))
    # The card stays in seat 0's hand until every seat has chosen; seat 0 sees its choice.
    assert a.hands[0] == st.hands[0] and a.observation(0).discard == hand0[0]
    for _ in range(3):
        a.apply_action(a.legal_actions()[0])
    assert a.phase() == "exchange_pass"
    assert a.centre.bit_count() == 4 and a.hands[0].bit_count() == 12
    # Passing: seat 0 chooses a pair; seat 1 still holds its own 12 cards and
    # may only pass from them (chosen before receiving), and learns nothing.
    h0 = game.ids_of(a.hands[0])
    p1, p2 = a.clone(), a.clone()
    p1.apply_action(1000 + h0[0] * 100 + h0[1])
    p2.apply_action(1000 + h0[2] * 100 + h0[3])
    assert _obs_all(p1, range(1, 4)) == _obs_all(p2, range(1, 4))
    own1 = set(game.ids_of(p1.hands[1]))
    assert all({x // 100 - 10, x % 100} <= own1 for x in p1.legal_actions())
    for _ in range(3):
        p1.apply_action(p1.legal_actions()[0])
    # Now everything moves at once: seat 1 received seat 0's pair (C2: i → i + 1).
    assert p1.phase() == "lead"
    obs1 = p1.observation(1)
    assert obs1.received == (h0[0], h0[1]) and {h0[0], h0[1]} <= set(obs1.hand)
    assert p1.observation(0).passed == (h0[0], h0[1])
    assert all(h.bit_count() == 12 for h in p1.hands)
    assert p1.events()["exchange"] == 1


def test_discard_may_be_a_club(game: FortuneCloverGame) -> None:
    """C2: any card may be discarded, clubs included."""
    st = game.new_initial_state(4, 5)
    clubs = [c for c in game.ids_of(st.hands[0]) if game.names[c].startswith("♣")]
    assert clubs, "seed 5 deals seat 0 a club"
    assert 100 + clubs[0] in st.legal_actions()


# -- observation and resampling ------------------------------------------------------------

def test_resample_keeps_known_passes_voids_and_own_discard(game: FortuneCloverGame) -> None:
    """Cards seat 0 passed stay with seat 1, voids are respected, the observation is equal."""
    st = position(game, ["♠2♠5♥2", "♠A♠K♥3", "♠3♠4♠6", "♠7♠8♠9"],
                  void="-/-/♥♦♣/-")
    # The helper's records: rewrite seat 0's pass as ♠A♠K (now in seat 1's hand).
    st.passes[0] = (1 << game.ids["♠A"]) | (1 << game.ids["♠K"])
    obs = st.observation(0)
    rng = random.Random(5)
    for _ in range(50):
        other = st.resample_hidden(0, rng)
        assert other.observation(0) == obs
        assert other.hands[1] >> game.ids["♠A"] & 1 and other.hands[1] >> game.ids["♠K"] & 1
        assert not other.hands[2] & (game.suit_mask[1] | game.suit_mask[2] | game.suit_mask[3])
        assert other.centre >> st.discards[0] & 1
        again = game.state_from_notation(other.to_notation())
        assert again.to_notation() == other.to_notation()


def test_resample_redeals_other_hands_and_future(game: FortuneCloverGame) -> None:
    """Hidden cards and future chance change under resampling; the player's view does not."""
    st = game.new_initial_state(4, 21)
    rng = random.Random(0)
    hands = set()
    for _ in range(10):
        other = st.resample_hidden(0, rng)
        assert other.hands[0] == st.hands[0]
        assert other.fortune_order[0] == st.fortune_order[0]
        hands.add(other.hands[1])
        assert other.future_seeds != st.future_seeds
    assert len(hands) > 1


def _observation_by_field(st: FortuneCloverState, seat: int) -> dict[str, Any]:
    """Every observation field computed plainly from the state (rulings C2a, C5a)."""
    g = st.game
    over = st.is_terminal()
    exchanged = st.phase() not in ("exchange_discard", "exchange_pass")
    deal = g.deals if over else st.deal + 1
    ids = g.ids_of
    return {
        "seat": seat, "current_player": st.current_player(), "phase": st.phase(),
        "num_players": st.num_players, "deal": deal, "fortune": -1 if over else st.fortune,
        "fortunes_seen": tuple(st.fortune_order[:deal]), "hand": tuple(ids(st.hands[seat])),
        "discard": st.discards[seat], "passed": tuple(ids(st.passes[seat])),
        "received": tuple(ids(st.passes[seat - 1])) if exchanged else (),
        "leader": st.lead, "trick": tuple(st.trick), "led_suit": st.led,
        "won": tuple(tuple(ids(m)) for m in st.won), "tricks_won": tuple(st.ntricks),
        "counted": tuple(st.counted), "voids": tuple(st.voids),
        "centre_count": st.centre.bit_count(),
        "hand_sizes": tuple(h.bit_count() for h in st.hands),
        "yellow": tuple(st.yellow), "white": tuple(st.white), "past_counts": tuple(st.log),
        "returned": tuple(zip(st.ret_y, st.ret_w)),
    }


def test_observation_fields_at_every_step(game: FortuneCloverGame) -> None:
    """The fast observation (a template with the per-trick fields shared) holds every
    field, in order and nothing else, equal to the plain computation at every step,
    for every seat, after clones too; observations taken earlier do not change."""
    from dataclasses import fields

    from pnp.games.fortune_clover.engine import FortuneCloverObservation
    names = [f.name for f in fields(FortuneCloverObservation)]
    for n, seed in ((3, 1), (4, 2), (6, 3)):
        st = game.new_initial_state(n, seed)
        rng = random.Random(seed)
        kept: list[tuple[FortuneCloverObservation, dict[str, Any]]] = []
        while True:
            for seat in range(n):
                obs = st.observation(seat)
                want = _observation_by_field(st, seat)
                assert list(vars(obs)) == names
                assert vars(obs) == want
                assert obs == FortuneCloverObservation(**want)
                if rng.random() < 0.05:
                    kept.append((obs, want))
            if st.is_terminal():
                break
            legal = st.legal_actions()
            if rng.random() < 0.2:
                st = st.clone()
            st.apply_action(legal[int(rng.random() * len(legal))])
        assert kept and all(vars(obs) == want for obs, want in kept)


# -- notation -------------------------------------------------------------------------------

def test_notation_round_trip_and_fields(game: FortuneCloverGame) -> None:
    """A fresh deal writes and reads back; the text names its parts."""
    st = game.new_initial_state(6, 3)
    text = st.to_notation()
    assert text.startswith("fortune_clover p=6 deal=1 fort=")
    assert game.state_from_notation(text).to_notation() == text
    assert " ex=.:./.:./.:./.:./.:./.:. " in text


@pytest.mark.parametrize("mutate, reason", [
    (lambda t: t.replace("p=4", "p=2"), "players"),
    (lambda t: t.replace("fortune_clover", "fortuna"), "start"),
    (lambda t: t.replace(" t=0", ""), "fields"),
    (lambda t: t.replace("lead=0", "lead=7"), "lead"),
    (lambda t: t.replace("hands=♠2", "hands=♠3"), "exactly once"),
    (lambda t: t.replace("hands=♠2", "hands=♠Z"), "unknown card"),
    (lambda t: t.replace("seeds=11,12", "seeds=11"), "seeds"),
])
def test_notation_errors(game: FortuneCloverGame, mutate: Any, reason: str) -> None:
    """Bad text raises NotationError with a one-line reason."""
    text = position(game, ["♠2♠5", "♠A♠K", "♠3♠4", "♠7♠8"]).to_notation()
    with pytest.raises(NotationError) as err:
        game.state_from_notation(mutate(text))
    assert reason in str(err.value) and "\n" not in str(err.value)


def test_codec_text(game: FortuneCloverGame) -> None:
    """Action texts are short and invert exactly; unknown text raises."""
    st = game.new_initial_state(4, 1)
    a = st.legal_actions()[0]
    assert st.action_to_string(a).startswith("discard ")
    assert st.string_to_action(st.action_to_string(a)) == a
    with pytest.raises(IllegalAction):
        st.string_to_action("play ♠Z")
    with pytest.raises(IllegalAction):
        st.string_to_action("play ♠2")  # a well-formed play, but it is exchange time
    with pytest.raises(IllegalAction):
        st.string_to_action("discard")
    play_st = position(game, ["♠2♠5", "♠A♠K", "♠3♠4", "♠7♠8"])
    assert play_st.action_to_string(game.ids["♠5"]) == "play ♠5"
    assert play_st.action_to_string(1000 + game.ids["♠2"] * 100 + game.ids["♠5"]) \
        == "pass ♠2 ♠5"


def test_clone_copies_every_slot_and_shares_no_list(game: FortuneCloverGame) -> None:
    """The hand-written clone sets every slot of the state and copies every list.

    A slot the clone forgot would raise AttributeError on first use; a list
    it shared would let a search's playout change the position it came from.
    """
    st = game.new_initial_state(4, 11)
    for _ in range(30):  # mid-trick in the first deal, every list non-trivial
        st.apply_action(st.legal_actions()[-1])
    st.observation(0)  # fills the won-ids cache too
    twin = st.clone()
    for name in FortuneCloverState.__slots__:
        mine, theirs = getattr(st, name), getattr(twin, name)
        assert mine == theirs, name
        if isinstance(mine, list):
            assert mine is not theirs, f"clone shares the list {name}"
    assert twin.to_notation() == st.to_notation()
    # Playing the copy to the end leaves the original as it was.
    before = st.to_notation()
    while not twin.is_terminal():
        twin.apply_action(twin.legal_actions()[0])
    assert st.to_notation() == before
