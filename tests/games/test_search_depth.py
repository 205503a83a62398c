"""Truncated playouts: the searching bot stops each playout after ``dDEPTH`` moves.

``mcts:ITER:dDEPTH`` plays at most DEPTH moves past the expanded node and
scores the position with the game's ``evaluate`` hook (early playout
termination). Checked here: the spec grammar (old specs unchanged), that a
playout really stops at its depth (counted on nim, a toy game long enough to
count), that the evaluation is what the search then uses (a perfect nim
evaluation at depth 0 plays perfectly), that each game's hook gives one
finite value per seat in the reward's range and favours the leader, that a
truncated searcher sees only its observation, and that it beats random
players in every game.
"""

from __future__ import annotations

import math
import random
import sys
from functools import partial
from pathlib import Path
from typing import Any

import pytest

import pnp.games.search as search
from pnp.errors import PnpError
from pnp.games import registered_games
from pnp.games.bots import bot_factory
from pnp.games.search import (FULL, MAX_DEPTH, SCORE_WEIGHT, SearchBot, evaluation_of,
                              standing_rewards)
from pnp.sim.report import build_report
from pnp.sim.runner import simulate

from gamedata import build_game

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "sim"))
from skill_toys import NimGame, NimState, toy_game  # noqa: E402

GAMES = ("fortuna", "nine_peak", "fortune_clover", "episode2", "undecim")


class _EvalNim(NimGame):
    """Nim with a perfect evaluation (registered below, as register_game does)."""


def _perfect(state: NimState) -> list[float]:
    """1 for the seat that wins with perfect play (the mover unless the pile is a
    multiple of 4), 0 for the other."""
    mover_wins = state.left % 4 != 0
    return [float((s == state.player) == mover_wins) for s in range(2)]


search.register_evaluation(_EvalNim, _perfect)


def _evaluate(game: Any, state: Any) -> list[float]:
    """The game's registered position evaluation of ``state``."""
    evaluate = evaluation_of(game)
    assert evaluate is not None, game.slug
    return evaluate(state)


def _eval_nim(tokens: int) -> _EvalNim:
    base = toy_game("nim")
    return _EvalNim(base.data, {"tokens": tokens})


def _factory(spec: str, slug: str = "fortuna") -> partial[Any]:
    factory = bot_factory(spec, registered_games()[slug].bots)
    assert isinstance(factory, partial)
    return factory


# -- the spec ----------------------------------------------------------------------

@pytest.mark.parametrize("spec,budget,playout,depth", [
    ("mcts", 100, "greedy", None),
    ("mcts:200", 200, "greedy", None),
    ("mcts:200:random", 200, "random", FULL),
    ("mcts:200:greedy", 200, "greedy", FULL),
    ("mcts:200:d20", 200, "greedy", 20),
    ("mcts:200:d0", 200, "greedy", 0),
    ("mcts:200:random:d8", 200, "random", 8),
    ("mcts:200:d8:random", 200, "random", 8),
    ("mcts:200:full", 200, "greedy", FULL),
    ("mcts::d5", 100, "greedy", 5),
])
def test_spec_grammar(spec: str, budget: int, playout: str, depth: int | None) -> None:
    """The old specs mean what they meant (a named playout bot plays to the end even
    where a game's default truncates); a depth and ``full`` come after ITERATIONS."""
    kw = _factory(spec).keywords
    assert kw["budget"] == budget
    assert kw["playout"].name == playout
    assert kw["depth"] == depth


@pytest.mark.parametrize("spec,words", [
    ("mcts:200:d5:d6", "two depths"),
    ("mcts:200:d5:full", "two depths"),
    ("mcts:200:random:greedy", "two playout bots"),
    ("mcts:200:dx", "no playout bot 'dx'"),
    (f"mcts:200:d{MAX_DEPTH + 1}", "0 ≤ DEPTH ≤"),
    ("mcts:0:d5", "1 ≤ ITERATIONS"),
])
def test_bad_specs_are_one_line(spec: str, words: str) -> None:
    """A bad field is refused with the spec and what is expected, on one line."""
    with pytest.raises(PnpError) as err:
        _factory(spec)
    text = str(err.value)
    assert words in text and spec in text and "\n" not in text


def test_depth_needs_an_evaluation() -> None:
    """A game without ``evaluate`` refuses a depth and keeps whole playouts by default."""
    nim = toy_game("nim")
    assert SearchBot(nim, 0, random.Random(1), 8).depth is None
    with pytest.raises(PnpError, match="no position evaluation"):
        SearchBot(nim, 0, random.Random(1), 8, depth=4)


def test_game_default_depth_and_full() -> None:
    """A game's ``search_depth`` is its mcts default; ``full`` overrides it."""
    game = _eval_nim(60)
    game.search_depth = 6  # type: ignore[attr-defined]
    assert SearchBot(game, 0, random.Random(1), 8).depth == 6
    assert SearchBot(game, 0, random.Random(1), 8, depth=FULL).depth is None
    assert SearchBot(game, 0, random.Random(1), 8, depth=2).depth == 2


def test_no_game_truncates_by_default() -> None:
    """Every game's plain mcts plays to the end (measured: a truncated default
    flattened Undecim's skill ladder, and Fortune Clover's ``d32`` saves only 2.2× in
    whole games, under the 3× asked for); a depth is asked for, and ``:full`` or a
    named playout bot plays to the end whatever a game's ``search_depth``."""
    for slug in GAMES:
        game = build_game(slug)
        assert _factory("mcts:200", slug)(game, 0, random.Random(1)).depth is None, slug
        assert _factory("mcts:200:d16", slug)(game, 0, random.Random(1)).depth == 16, slug
    game = _eval_nim(60)
    game.search_depth = 6  # type: ignore[attr-defined]
    nim_bots = {"random": search.RandomBot, "greedy": _Greedy, "mcts": SearchBot}
    for spec in ("full", "random", "greedy"):
        factory = SearchBot.configure(f"8:{spec}", nim_bots)
        assert factory(game, 0, random.Random(1)).depth is None, spec
    assert SearchBot.configure("8", nim_bots)(game, 0, random.Random(1)).depth == 6
    assert SearchBot.configure("8:random:d4", nim_bots)(game, 0, random.Random(1)).depth == 4


# -- the depth is respected ---------------------------------------------------------

@pytest.mark.parametrize("depth,playout", [(0, None), (3, None), (7, None), (5, "greedy")])
def test_playouts_stop_at_the_depth(monkeypatch: pytest.MonkeyPatch, depth: int,
                                    playout: str | None) -> None:
    """Every playout of a truncated search makes exactly ``depth`` moves on a pile
    too big to finish, and each one ends in an evaluation, never a terminal reward."""
    game = _eval_nim(200)
    made: list[int] = []
    real = search._playout

    def counted(state: Any, *args: Any) -> None:
        before = state.n
        real(state, *args)
        made.append(state.n - before)

    evaluated: list[int] = []
    real_eval = evaluation_of(game)
    assert real_eval is _perfect

    def spy(state: NimState) -> list[float]:
        evaluated.append(state.n)
        return real_eval(state)

    monkeypatch.setattr(search, "_playout", counted)
    monkeypatch.setitem(search._EVALUATIONS, _EvalNim, spy)
    cls = None
    if playout == "greedy":
        cls = _Greedy
    bot = SearchBot(game, 0, random.Random(3), 40, playout=cls, depth=depth)
    state = game.new_initial_state(2, 1)
    bot.act(state.observation(0), state.legal_actions())
    assert made and set(made) == {depth}
    assert len(evaluated) == 40


def test_whole_playouts_reach_the_end(monkeypatch: pytest.MonkeyPatch) -> None:
    """Without a depth the same search plays every playout to the end (the check above
    would pass for a search that never stops otherwise)."""
    game = _eval_nim(30)
    ends: list[bool] = []
    real = search._playout

    def counted(state: Any, *args: Any) -> None:
        real(state, *args)
        ends.append(state.is_terminal())

    monkeypatch.setattr(search, "_playout", counted)
    SearchBot(game, 0, random.Random(3), 20, depth=FULL).act(
        game.new_initial_state(2, 1).observation(0), [1, 2, 3])
    assert ends and all(ends)


class _Greedy(search.Bot):
    """Takes as many tokens as it may (a playout bot for the toy)."""

    name = "greedy"

    def act(self, observation: Any, legal_actions: Any) -> int:
        """The largest take."""
        return int(max(legal_actions))


def test_evaluation_steers_the_search() -> None:
    """With a perfect evaluation at depth 0, nim's searcher leaves a multiple of 4 from
    every winning pile; with random whole playouts on a long pile it does not."""
    game = _eval_nim(200)
    exact = 0
    noisy = 0
    for left in (199, 198, 197, 103, 102, 101):
        st = NimState(game, left)
        want = left % 4
        exact += SearchBot(game, 0, random.Random(left), 60, depth=0).act(
            st.observation(0), st.legal_actions()) == want
        noisy += SearchBot(game, 0, random.Random(left), 60, depth=FULL).act(
            st.observation(0), st.legal_actions()) == want
    assert exact == 6
    assert noisy <= 4


# -- the games' hooks ---------------------------------------------------------------

def test_standing_rewards() -> None:
    """Softmax win credit summing to 1, the score term of ``rewards``, ties shared."""
    r = standing_rewards([10.0, 4.0, 4.0], 2.0)
    credit = [r[0] - SCORE_WEIGHT, r[1], r[2]]
    assert math.isclose(sum(credit), 1.0)
    assert credit[0] > 0.9 and math.isclose(credit[1], credit[2])
    assert standing_rewards([3.0, 3.0], 0.0) == [0.5 + SCORE_WEIGHT * 0.5] * 2
    assert standing_rewards([5.0, 1.0], 0.0) == [1.0 + SCORE_WEIGHT, 0.0]
    # A huge lead at a tiny scale must not overflow.
    assert standing_rewards([1e6, 0.0], 1e-3)[0] == 1.0 + SCORE_WEIGHT


@pytest.mark.parametrize("slug", GAMES)
def test_evaluations_are_rewards(slug: str) -> None:
    """Along seeded random games at every player count: one finite value per seat,
    within the reward's range, and (several seats) the seat ahead on the game's
    own standing never valued below one behind."""
    game = build_game(slug)
    lo_n, hi_n = type(game).min_players, type(game).max_players
    checked = 0
    for n in sorted({lo_n, hi_n}):
        state = game.new_initial_state(n, 7)
        rng = random.Random(n)
        while not state.is_terminal():
            values = _evaluate(game, state)
            assert len(values) == n
            assert all(math.isfinite(v) and 0.0 <= v <= 1.0 + SCORE_WEIGHT for v in values)
            if n > 1:
                ev = sys.modules[f"pnp.games.{slug}.evaluate"]
                stand = ev.standing(state)  # type: ignore[attr-defined]
                top = max(range(n), key=lambda s: (stand[s], -s))
                assert values[top] == max(values)
            checked += 1
            legal = state.legal_actions()
            state.apply_action(legal[int(rng.random() * len(legal))])
    assert checked > 20


def test_episode2_evaluation_follows_hp_and_spoils() -> None:
    """第2話: more HP or more bosses taken is worth more; at 0 HP the spoils are halved."""
    game = build_game("episode2")
    state = game.new_initial_state(1, 3)
    full = _evaluate(game, state)[0]
    state.hp = state.max_hp // 2
    half = _evaluate(game, state)[0]
    assert 0.0 < half < full <= 1.0
    state.spoils = (state.enemies[0],)
    assert _evaluate(game, state)[0] > half
    state.hp = 0
    assert _evaluate(game, state)[0] == pytest.approx(0.5 / game.num_bosses)  # type: ignore


# -- the truncated searcher in play -------------------------------------------------

@pytest.mark.parametrize("slug", GAMES)
def test_truncated_search_sees_only_its_observation(slug: str) -> None:
    """Two positions with one observation get the same truncated-search move."""
    game = build_game(slug)
    n = type(game).max_players if slug != "undecim" else 3
    factory = _factory("mcts:6:d4", slug)
    rng = random.Random(5)
    checked = 0
    seed = 21
    while checked < 3:  # 第2話's random runs are short: deal again until three checks
        state = game.new_initial_state(n, seed)
        seed += 1
        while not state.is_terminal() and checked < 3:
            p = state.current_player()
            legal = state.legal_actions()
            if len(legal) > 1 and rng.random() < 0.3:
                other = state.resample_hidden(p, random.Random(checked))
                assert other.observation(p) == state.observation(p)
                a = factory(game, p, random.Random(9)).act(state.observation(p), legal)
                b = factory(game, p, random.Random(9)).act(other.observation(p),
                                                            other.legal_actions())
                assert a == b
                checked += 1
            state.apply_action(legal[int(rng.random() * len(legal))])
    assert seed < 40


@pytest.mark.parametrize("slug,games,seed,floor", [("fortuna", 6, 2, 0.7),
                                                   ("nine_peak", 4, 2, 0.7),
                                                   ("fortune_clover", 10, 3, 0.55),
                                                   ("undecim", 3, 2, 0.65)])
def test_truncated_mcts_beats_random(slug: str, games: int, seed: int, floor: float) -> None:
    """mcts:8:d8 (the game's bot plays 8 moves, then the position is scored) finishes
    ahead of random players in most seat pairs, 3 players, seats rotated (seeded:
    0.92, 1.0, 0.70 and 1.0 of seat pairs; Fortune Clover is the luckiest, its own
    heuristic bot finishing ahead of random in 62 % of pairs)."""
    game = build_game(slug)
    spec = "mcts:8:d8"
    res = simulate(game, 3, games, [spec, "random", "random"], seed, invariants="off")
    assert res.ok
    assert build_report(res)["bots"]["head_to_head"][spec]["random"] >= floor


def test_truncated_mcts_beats_random_solo() -> None:
    """第2話: on the same runs, mcts:16:d4 takes more bosses than random play
    (seeded: 65 against 17 bosses over 10 runs)."""
    game = build_game("episode2")
    mcts = simulate(game, 1, 10, ["mcts:16:d4"], 4, invariants="off")
    rand = simulate(game, 1, 10, ["random"], 4, invariants="off")
    assert mcts.totals.score_sum[0] >= rand.totals.score_sum[0] + 30


def test_truncated_runs_agree_for_any_jobs() -> None:
    """Same seed, same results on one process and on two."""
    game = build_game("fortuna")
    bots = ["mcts:6:d4", "greedy", "greedy"]
    one = build_report(simulate(game, 3, 4, bots, 5, jobs=1, invariants="off"))
    two = build_report(simulate(game, 3, 4, bots, 5, jobs=2, invariants="off"))
    one.pop("timing", None), two.pop("timing", None)
    assert one["bots"] == two["bots"] and one["seats"] == two["seats"]
