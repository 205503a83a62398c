"""The 9 Peak greedy bot: registered, observation-only, and stronger than random."""

from __future__ import annotations

import random

import pytest

from pnp.games import registered_games
from pnp.games.bots import RandomBot
from pnp.games.nine_peak import GreedyBot, NinePeakGame, NinePeakState

from gamedata import build_game

GAME = build_game("nine_peak")
assert isinstance(GAME, NinePeakGame)
SIMPLE = build_game("nine_peak", {"scoring": "simple"})
assert isinstance(SIMPLE, NinePeakGame)


def greedy(state: NinePeakState, seat: int | None = None) -> str:
    """The greedy bot's choice in ``state`` as action text."""
    p = state.current_player() if seat is None else seat
    bot = GreedyBot(state.game, p, random.Random(0))
    return state.action_to_string(bot.act(state.observation(p), state.legal_actions()))


def test_registered_with_the_game() -> None:
    """The package registers the greedy bot (and the random bot) for nine_peak."""
    entry = registered_games()["nine_peak"]
    assert entry.game is NinePeakGame
    # The random and searching bots are registered for every game; greedy is 9 Peak's own.
    assert entry.bots["random"] is RandomBot and entry.bots["greedy"] is GreedyBot
    assert set(entry.bots) - {"random", "mcts"} == {"greedy"}
    assert GreedyBot.needs_observation and GreedyBot.name == "greedy"


def _play(game: NinePeakGame, bots: str, seed: int) -> NinePeakState:
    """Play one game with bots given as letters (g = greedy, r = random)."""
    s = game.new_initial_state(len(bots), seed)
    rngs = [random.Random(seed * 7 + i) for i in range(len(bots))]
    players = [GreedyBot(game, i, rngs[i]) if b == "g" else RandomBot(game, i, rngs[i])
               for i, b in enumerate(bots)]
    while not s.is_terminal():
        p = s.current_player()
        legal = s.legal_actions()
        if len(legal) == 1:
            a = legal[0]
        else:
            a = players[p].act(s.observation(p), legal)
            assert a in legal
        s.apply_action(a)
    return s


@pytest.mark.parametrize("game", [GAME, SIMPLE], ids=["full", "simple"])
def test_greedy_beats_random(game: NinePeakGame) -> None:
    """The greedy bot wins far more than a quarter of games against random bots."""
    wins = 0
    games = 120
    for i in range(games):
        seat = i % 4
        bots = ["r"] * 4
        bots[seat] = "g"
        s = _play(game, "".join(bots), i)
        wins += s.winners() == [seat]
    assert wins / games > 0.5  # random alone would win about 25%


def test_greedy_grabs_a_peak() -> None:
    """The greedy bot passes the card that peaks a column for it."""
    s = GAME.state_from_notation("n=4 hands=5S1F2C3B4S/6B/6B/6B area=5F5F5C")
    assert greedy(s) == "pass 5S"


def test_greedy_plays_last_turn() -> None:
    """On its last turn the greedy bot plays a set rather than passing."""
    # trigger pulled: playing four 4s beats passing
    s = GAME.state_from_notation("n=4 to=1 trigger=0 hands=1S/4S4F4C4B/6B/6B")
    assert greedy(s) == "declare 4"


def test_greedy_completes_the_best_set() -> None:
    """Picking, the greedy bot builds the one-suit set (base × (4 + 1) beats mixed)."""
    # declared 4; 1 is peaked (usable as 4): 4S 4S 4S 1S = 4 × (4 + 1) beats 4S 4S 4S 4F
    s = GAME.state_from_notation("n=4 phase=pick:4:- peaked=1 "
                                 "hands=4S4S4S4F1S/6B/6B/6B area=-")
    assert greedy(s) == "pick 1S"


def test_greedy_ignores_its_generator() -> None:
    """The greedy choice depends on the observation only, not on the bot's rng."""
    s = GAME.new_initial_state(4, 9)
    for _ in range(40):
        if s.is_terminal():
            break
        p = s.current_player()
        legal = s.legal_actions()
        if len(legal) > 1:
            obs = s.observation(p)
            picks = {GreedyBot(GAME, p, random.Random(k)).act(obs, legal) for k in range(3)}
            assert len(picks) == 1
        s.apply_action(legal[0])
