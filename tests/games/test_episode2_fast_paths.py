"""第2話's fast paths (issue 13, item 7) agree with what they shortcut.

``clone`` rebuilds the dice generator from ``(token, draws)`` instead of
copying its state, and ``resample_hidden`` does not copy a generator it
replaces; both are checked here against the generator a state actually
carries, on every position of seeded random runs. The seeded runs
themselves are pinned in ``test_episode2_fingerprints.py``.
"""

from __future__ import annotations

import random

from pnp.games.episode2 import Episode2Game, Episode2State
from pnp.games.episode2 import engine

from gamedata import build_game


def _game() -> Episode2Game:
    """The 第2話 engine built from the project's data."""
    game = build_game("episode2")
    assert isinstance(game, Episode2Game)
    return game


GAME = _game()


def _positions(runs: int) -> list[Episode2State]:
    """Every position of ``runs`` seeded random runs (the originals, not copies)."""
    out = []
    for seed in range(runs):
        state = GAME.new_initial_state(1, seed)
        rng = random.Random(seed)
        out.append(state)
        while not state.is_terminal():
            state = state.clone()
            state.apply_action(rng.choice(state.legal_actions()))
            out.append(state)
    return out


def test_one_call_advance_is_the_calls() -> None:
    """getrandbits(64·k) leaves the generator where k calls of random() do, here."""
    assert engine._ADVANCE_MATCHES  # else the fast path below is never taken
    for token in (0, 5, 2 ** 63 + 11):
        for draws in (0, 1, 3, 46, 200):
            fast = engine._advance_by_words(token, draws)
            slow = engine._advance_by_calls(token, draws)
            assert fast.getstate() == slow.getstate()
            assert fast.random() == slow.random()


def test_clone_carries_the_same_generator_state() -> None:
    """At every position the clone's generator is in the original's state."""
    checked = 0
    for state in _positions(60):
        copy = state.clone()
        assert copy.rng is not state.rng
        assert copy.rng.getstate() == state.rng.getstate(), state.to_notation()
        checked += 1
    assert checked > 600


def test_clone_plays_on_exactly_like_the_original() -> None:
    """A clone taken mid-run rolls the same dice and ends the same way."""
    for seed in range(40):
        state = GAME.new_initial_state(1, seed)
        rng = random.Random(seed)
        for _ in range(4):
            if state.is_terminal():
                break
            state.apply_action(rng.choice(state.legal_actions()))
        copy = state.clone()
        for s in (state, copy):
            pick = random.Random(seed + 1)  # the same moves for both
            while not s.is_terminal():
                s.apply_action(pick.choice(s.legal_actions()))
        assert copy.to_notation() == state.to_notation()


def test_resample_hidden_is_unchanged_by_the_shortcut() -> None:
    """resample_hidden redeals as the plain clone-then-reshuffle would."""
    for state in _positions(10):
        if state.is_terminal():
            continue
        got = state.resample_hidden(0, random.Random(3))
        want = state.clone()
        rng = random.Random(3)
        engine._shuffle(want.deck, rng.random)
        engine._shuffle(want.enemies, rng.random)
        want.token = rng.getrandbits(64)
        want.rng = random.Random(want.token)
        want.draws = 0
        want.fixed = []
        assert got.to_notation() == want.to_notation()
        assert got.rng.getstate() == want.rng.getstate()
        # the original keeps its own generator
        assert state.rng is not got.rng
