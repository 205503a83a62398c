"""The searching bot: positions rebuilt from observations, and it plays better than the others.

``state_from_observation`` must rebuild a position that gives the same
observation and the same legal actions (so the searcher's determinizations
are possible worlds drawn from what it may know). The strength tests play
seeded games at a small budget and assert thresholds well below what the
seeded games give (the measured figures are in the comments), so a change
that breaks the search fails while ordinary tuning does not; the full win
matrices at budget 200 are in docs/design/*.md and benchmarks/search_strength.py.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from pnp.games import registered_games
from pnp.games.search import SearchBot, determinize
from pnp.sim.report import build_report
from pnp.sim.runner import simulate

from gamedata import build_game

GAMES = ("fortuna", "nine_peak", "fortune_clover", "episode2", "undecim")


@pytest.mark.parametrize("slug", GAMES)
def test_mcts_is_registered(slug: str) -> None:
    """Every game with the hook gets the searching bot without naming it."""
    assert registered_games()[slug].bots["mcts"] is SearchBot


@pytest.mark.parametrize("slug", GAMES)
def test_positions_rebuilt_from_observations(slug: str) -> None:
    """Along seeded random games: same observation, same legal actions, and the
    hidden cards really are redrawn (two generators give two worlds)."""
    game = build_game(slug)
    redrawn = 0
    for n in sorted({type(game).min_players, type(game).max_players}):
        for seed in range(2):
            state = game.new_initial_state(n, 100 + seed)
            rng = random.Random(seed)
            step = 0
            while not state.is_terminal():
                p = state.current_player()
                legal = state.legal_actions()
                if step % 2 == 0:
                    obs = state.observation(p)
                    a = determinize(game, obs, random.Random(1))
                    b = determinize(game, obs, random.Random(2))
                    assert a.observation(p) == obs, f"{slug} {n}p step {step}"
                    assert a.legal_actions() == legal, f"{slug} {n}p step {step}"
                    redrawn += a.to_notation() != b.to_notation()
                state.apply_action(legal[int(rng.random() * len(legal))])
                step += 1
    assert redrawn > 0


def _shares(slug: str, n: int, spec: str, field: str, games: int, seed: int) -> dict[str, Any]:
    game = build_game(slug)
    res = simulate(game, n, games, [spec] + [field] * (n - 1), seed, invariants="off")
    assert res.ok
    return build_report(res)["bots"]


@pytest.mark.parametrize("slug,games,seed,floor", [("fortuna", 6, 2, 0.7),
                                                   ("nine_peak", 4, 2, 0.7),
                                                   ("fortune_clover", 10, 3, 0.55),
                                                   ("undecim", 3, 2, 0.65)])
def test_mcts_beats_random(slug: str, games: int, seed: int, floor: float) -> None:
    """mcts:8 (the game's bot plays out) finishes ahead of random players more often than
    not (seeded, 3 players: 0.83, 1.0, 0.65 and 0.83 of seat pairs; Fortune Clover is the
    luckiest: its own heuristic bot finishes ahead of random in 62 % of pairs)."""
    bots = _shares(slug, 3, "mcts:8", "random", games, seed)
    assert bots["head_to_head"]["mcts:8"]["random"] >= floor


def test_mcts_beats_random_solo() -> None:
    """第2話: on the same runs, mcts:16 takes more bosses than random play
    (seeded: 8.0 against 1.7 bosses per run over 10 runs)."""
    game = build_game("episode2")
    mcts = simulate(game, 1, 10, ["mcts:16"], 4, invariants="off")
    rand = simulate(game, 1, 10, ["random"], 4, invariants="off")
    assert mcts.totals.score_sum[0] >= rand.totals.score_sum[0] + 40


@pytest.mark.parametrize("slug,budget,win,ahead", [("fortuna", 48, 0.5, 0.65),
                                                   ("nine_peak", 40, 0.45, 0.6)])
def test_mcts_beats_the_heuristic(slug: str, budget: int, win: float, ahead: float) -> None:
    """Against two copies of the game's own bot over 12 games, seats rotated, the
    searcher wins well above its 1/3 share (seeded: Fortuna 0.75 of its seats and 0.79
    of seat pairs; 9 Peak 0.50 and 0.71)."""
    spec = f"mcts:{budget}"
    bots = _shares(slug, 3, spec, "greedy", 12, 2)
    assert bots["win"][spec]["win_share"] >= win
    assert bots["head_to_head"][spec]["greedy"] >= ahead


def test_undecim_mcts_beats_the_heuristic() -> None:
    """Undecim: mcts:16 against two heuristic bots over 3 games, seats rotated, wins
    above its 1/3 share (seeded: 3 of 3 games and every seat pair, with whole playouts
    and with the default 16-move truncated ones alike). Each Undecim decision still
    plays heuristic playouts, so the test keeps to a small budget and few games;
    other seeds gave 2 of 3 and 1 of 4 at this budget with whole playouts, and the
    win matrix at 200 iterations is in docs/design/undecim.md."""
    spec = "mcts:16"
    bots = _shares("undecim", 3, spec, "heuristic", 3, 2)
    assert bots["win"][spec]["win_share"] >= 0.6
    assert bots["head_to_head"][spec]["heuristic"] >= 0.65


def test_undecim_search_sees_only_its_observation() -> None:
    """Two Undecim positions with one observation (hidden cards, hidden choices and
    future dice redealt) get the same searched move from equally seeded bots."""
    game = build_game("undecim")
    factory = registered_games()["undecim"].bots["mcts"].configure(
        "6", registered_games()["undecim"].bots)
    state = game.new_initial_state(4, 11)
    rng = random.Random(4)
    checked = 0
    while not state.is_terminal() and checked < 6:
        p = state.current_player()
        legal = state.legal_actions()
        if len(legal) > 1 and rng.random() < 0.2:
            other = state.resample_hidden(p, random.Random(checked))
            assert other.to_notation() != state.to_notation()
            assert other.observation(p) == state.observation(p)
            a = factory(game, p, random.Random(7)).act(state.observation(p), legal)
            b = factory(game, p, random.Random(7)).act(other.observation(p),
                                                        other.legal_actions())
            assert a == b
            checked += 1
        state.apply_action(legal[int(rng.random() * len(legal))])
    assert checked == 6
