"""9 Peak's fast paths (issue 13, item 7) agree with the rules they shortcut.

The engine counts declarable set sizes in int lanes, checks only the grown
columns for peaks, shuffles with its own copy of ``random.shuffle`` and
caches the legal actions of a position; each is checked here against the
plain definition on positions from seeded random games.
"""

from __future__ import annotations

import random

from pnp.games.api import IllegalAction
from pnp.games.chance import seeded_shuffle, shuffle_with
from pnp.games.nine_peak import NinePeakGame, NinePeakState

from gamedata import build_game



def _game() -> NinePeakGame:
    """The 9 Peak engine built from the project's data."""
    game = build_game("nine_peak")
    assert isinstance(game, NinePeakGame)
    return game


GAME = _game()


def _positions(games: int, players: int = 4) -> list[NinePeakState]:
    """Every position of ``games`` seeded random games."""
    out = []
    for seed in range(games):
        state = GAME.new_initial_state(players, seed)
        rng = random.Random(seed)
        while not state.is_terminal():
            out.append(state.clone())
            state.apply_action(rng.choice(state.legal_actions()))
    return out


def _declarable(state: NinePeakState) -> list[int]:
    """Set sizes X the seat on turn may declare, by the rulebook (N1, N2, N4)."""
    p = state.player
    hand = state.hands[p]
    out = []
    for x in range(max(1, state.prev[p]), min(len(hand), 9) + 1):
        usable = 0
        for c in hand:
            i = GAME.card_number[c] - 1
            # N1: number n covers n … n + c(n); N2: a peaked number covers 1 … 9
            if state.peaked[i] or i + 1 <= x <= i + 1 + len(state.area[i]):
                usable += 1
        if usable >= x:
            out.append(x)
    return out


def test_declare_actions_match_the_rulebook_count() -> None:
    """The lane arithmetic offers exactly the X with at least X usable hand cards."""
    checked = 0
    for state in _positions(30, players=3) + _positions(30, players=5):
        if state.phase() != "main":
            continue
        declared = [a - GAME.A_PLAY + 1 for a in state.legal_actions()
                    if GAME.A_PLAY <= a < GAME.A_PLAY + 9]
        assert declared == _declarable(state), state.to_notation()
        checked += 1
    assert checked > 500


def test_inline_shuffle_is_the_library_shuffle() -> None:
    """The set-up shuffle gives random.shuffle's order for any seed and size."""
    for seed in (0, 7, 2 ** 40 + 3):
        for size in (0, 1, 2, 3, 60, 78, 300, 2000):
            mine, lib = list(range(size)), list(range(size))
            seeded_shuffle(mine, seed)
            random.Random(seed).shuffle(lib)
            assert mine == lib


def test_redeal_draws_as_random_shuffle() -> None:
    """resample_hidden consumes its generator exactly as random.shuffle would."""
    pool, lib = list(range(50)), list(range(50))
    a, b = random.Random(5), random.Random(5)
    shuffle_with(pool, a.getrandbits)
    b.shuffle(lib)
    assert pool == lib and a.random() == b.random()


def test_peak_check_scans_every_column_after_notation() -> None:
    """A column already at 9 in a position read from notation peaks at the next check.

    Play keeps every unpeaked column below 9, so the engine checks only the
    columns that grew; a written position may break that, and then the next
    check scans them all, as the rulebook's check after every pass does (N2).
    """
    s = GAME.state_from_notation("n=4 hands=1S/6B/6B/6B area=5F5F5C5S")
    assert not s.peaked[4]
    s.apply_action(GAME.codec.from_string("pass 1S"))
    assert s.peaked[4] and len(s.piles[0]) == 4 and s.events()["peak_by_pass"] == 1


def test_cached_legal_actions_follow_the_position() -> None:
    """Legal actions (and the types a pick may use) follow every move, and a
    caller's list is its own."""
    s = GAME.new_initial_state(4, 11)
    first = s.legal_actions()
    first.clear()  # the caller's copy: the position's own list is untouched
    assert s.legal_actions()
    rng = random.Random(3)
    picks = 0
    for _ in range(400):
        if s.is_terminal():
            s = GAME.new_initial_state(4, rng.randrange(1000))
        legal = s.legal_actions()
        picks += s.phase() == "pick"
        before = s.to_notation()
        bad = next(a for a in range(GAME.num_distinct_actions) if a not in legal)
        try:
            s.apply_action(bad)
        except IllegalAction:
            pass
        else:
            raise AssertionError(f"illegal action {bad} accepted")
        assert s.to_notation() == before
        s.apply_action(rng.choice(legal))
        fresh = GAME.state_from_notation(s.to_notation())
        assert s.legal_actions() == fresh.legal_actions()
    assert picks > 20


def test_clone_shares_nothing_that_changes() -> None:
    """Moves in a clone leave the original's zones and legal actions as they were."""
    for state in _positions(3)[::7]:
        if state.is_terminal():
            continue
        text, legal = state.to_notation(), state.legal_actions()
        twin = state.clone()
        rng = random.Random(1)
        while not twin.is_terminal():
            twin.apply_action(rng.choice(twin.legal_actions()))
        assert state.to_notation() == text and state.legal_actions() == legal


def test_column_values_follow_the_area() -> None:
    """The per-column value lanes kept on the state equal the area's at every position.

    ``cv[i][1]`` stands for the values hand cards of number i + 1 may take (N1:
    i + 1 … i + 1 + c, N2: 1 … 9 once peaked), ``cv[i][k]`` for k such cards
    capped at 9; the declare and pick paths
    read it instead of the area, so every move that changes a column or a
    peak must keep it in step.
    """
    checked = 0
    for state in _positions(20, players=3) + _positions(20, players=5):
        want = [GAME.all_values if state.peaked[i] else GAME.lanes[i][len(state.area[i])]
                for i in range(6)]
        assert state.cv == want, state.to_notation()
        for x in range(1, 10):
            usable = [state.peaked[i] or i + 1 <= x <= i + 1 + len(state.area[i])
                      for i in range(6)]
            assert [bool(v[1] >> (GAME.lane_bits * (x - 1)) & 1) for v in state.cv] == usable
        # entry k of a column's table: min(k, 9) cards in each covered lane
        for v in state.cv:
            assert all(v[k] == min(k, 9) * v[1] for k in range(len(v)))
        checked += 1
    assert checked > 2000


def test_kept_pass_actions_follow_the_hand() -> None:
    """The per-seat pass actions kept as types enter and leave a hand (``hm``) are
    the held types, then their 2-for-1 first-card actions, at every position, and
    the main-phase legal list built from them drops the highest type's 2-for-1
    exactly when only one copy of it is held (ruling N3a)."""
    checked = 0
    for state in _positions(20, players=3) + _positions(20, players=5):
        for p in range(state.num_players):
            held = sorted({GAME.card_type[c] for c in state.hands[p]})
            assert state.hm[p] == held + [GAME.A_PASS2 + t for t in held], state.to_notation()
        if state.phase() == "main":
            hc = state.hc[state.player]
            passes = [a for a in state.legal_actions() if a < GAME.A_PLAY]
            held = [t for t in range(GAME.num_types) if hc[t]]
            second_ok = [t for t in held if hc[t] >= 2 or t < held[-1]]
            assert passes == held + [GAME.A_PASS2 + t for t in second_ok]
            checked += 1
    assert checked > 500
