"""Runner tests with the toy game: determinism, invariants, traces, rotation."""

from __future__ import annotations

from collections import Counter

import pytest

from pnp.sim import build_report, check_state, replay, simulate
from pnp.sim.bots import seat_bots
from pnp.sim.runner import check_final
from toy_game import ToyGame, ToyState


def _sim(variant: str = "normal", **kw):
    """Simulate the toy game with test defaults overridable by ``kw``."""
    args = dict(num_players=4, games=60, bots=["random", "greedy"], seed=11,
                check_invariants=True, step_cap=300)
    args.update(kw)
    return simulate(ToyGame({"variant": variant}), **args)


def test_same_seed_same_report_for_any_jobs() -> None:
    """Same seed same report for any jobs."""
    one = _sim(games=240, jobs=1)
    two = _sim(games=240, jobs=2, start_method="spawn")
    assert two.jobs == 2
    assert build_report(one) == build_report(two)
    assert [r.returns for r in one.records] == [r.returns for r in two.records]


def test_same_seed_same_report_with_random_fast_path_and_fork() -> None:
    """Same seed same report with random fast path and fork."""
    kw = dict(games=300, bots=["random"], check_invariants=False)
    assert build_report(_sim(jobs=1, **kw)) == build_report(_sim(jobs=2, **kw))


def test_different_seeds_differ() -> None:
    """Different seeds differ."""
    a = build_report(_sim(seed=1, games=100))
    b = build_report(_sim(seed=2, games=100))
    assert a["seats"] != b["seats"]


def test_invariant_checks_do_not_change_the_games() -> None:
    # Fast loop (checks off) and traced loop (checks on) must play the same games.
    """Invariant checks do not change the games."""
    for bots in (["random"], ["greedy", "random"]):
        on = _sim(bots=bots, check_invariants=True)
        off = _sim(bots=bots, check_invariants=False)
        assert [(r.returns, r.winners, r.decisions, r.real_choices) for r in on.records] == \
               [(r.returns, r.winners, r.decisions, r.real_choices) for r in off.records]


def test_records_are_in_game_order_and_complete() -> None:
    """Records are in game order and complete."""
    res = _sim(games=97, jobs=2)
    assert [r.index for r in res.records] == list(range(97))
    assert all(r.completed for r in res.records)
    # 16 cards, one card per turn: the toy game always lasts 16 turns.
    assert {r.length for r in res.records} == {16}
    assert all(sum(r.decisions) == 16 for r in res.records)


@pytest.mark.parametrize("variant,needle", [
    ("lose_card", "card conservation"),
    ("no_action", "no legal action"),
    ("unsorted", "ascending"),
    ("bad_apply", "raised RuntimeError"),
    ("shallow_clone", "not independent"),
])
def test_invariant_failure_has_a_trace_that_replay_reproduces(variant: str,
                                                               needle: str) -> None:
    """Invariant failure has a trace that replay reproduces."""
    res = _sim(variant, games=6)
    assert not res.ok and len(res.failures) == 6
    game = ToyGame({"variant": variant})
    for f in res.failures:
        assert f.kind == "invariant" and needle in f.message
        assert f.seed == 11 and f.actions is not None
        assert len(f.action_texts) == len(f.actions)
        state = replay(game, 4, f.deal_seed, f.actions)
        msg = check_state(game, state)
        assert msg is not None and needle in msg


def test_error_without_invariants_is_reproduced_by_replay() -> None:
    """Error without invariants is reproduced by replay."""
    res = _sim("bad_apply", games=5, check_invariants=False)
    assert len(res.failures) == 5
    game = ToyGame({"variant": "bad_apply"})
    for f in res.failures:
        assert f.kind == "error" and "cursed" in f.message
        assert f.actions[-1] == 7
        with pytest.raises(RuntimeError, match="cursed"):
            replay(game, 4, f.deal_seed, f.actions)
        # The trace before the fatal action replays cleanly.
        replay(game, 4, f.deal_seed, f.actions[:-1])


def test_missing_action_caught_without_invariants() -> None:
    """Missing action caught without invariants."""
    res = _sim("no_action", games=3, check_invariants=False)
    assert [f.kind for f in res.failures] == ["invariant"] * 3
    state = replay(ToyGame({"variant": "no_action"}), 4, res.failures[0].deal_seed,
                   res.failures[0].actions)
    assert not state.is_terminal() and state.legal_actions() == []


@pytest.mark.parametrize("check", [True, False])
def test_step_cap_caught(check: bool) -> None:
    """Step cap caught."""
    res = _sim("never_end", games=4, step_cap=50, check_invariants=check)
    assert [f.kind for f in res.failures] == ["step_cap"] * 4
    assert not any(r.completed for r in res.records)
    rep = build_report(res)
    assert rep["completion"]["rate"] == 0.0 and rep["completion"]["failures"]["step_cap"] == 4
    f = res.failures[0]
    assert len(f.actions) == 50
    state = replay(ToyGame({"variant": "never_end"}), 4, f.deal_seed, f.actions)
    assert not state.is_terminal()


def test_traces_kept_for_first_failures_only_whatever_the_jobs() -> None:
    """Traces kept for first failures only whatever the jobs."""
    a = _sim("lose_card", games=30, max_traces=7, jobs=1)
    b = _sim("lose_card", games=30, max_traces=7, jobs=2)
    assert [f.actions is not None for f in a.failures] == [True] * 7 + [False] * 23
    assert build_report(a) == build_report(b)


def test_check_final_catches_non_replayable_state() -> None:
    """Check final catches non replayable state."""
    game = ToyGame()
    res = _sim(games=1, bots=["random"])
    assert res.ok
    state = game.new_initial_state(2, 5)
    while not state.is_terminal():
        state.apply_action(state.legal_actions()[0])
    assert check_final(game, state, [], 5) is not None  # empty history ≠ this state


def test_mixed_bots_rotate_evenly_over_seats() -> None:
    """Mixed bots rotate evenly over seats."""
    for bots, games in ((["random", "greedy"], 8), (["random", "greedy", "random"], 9),
                        (["a", "b", "c"], 12)):
        per_seat = [Counter(seat_bots(bots, 4, g)[s] for g in range(games))
                    for s in range(4)]
        total = Counter(b for b in bots)
        for counts in per_seat:
            # Each seat sees each bot in proportion to how often it is listed.
            assert {b: counts[b] * len(bots) for b in total} == \
                   {b: total[b] * games for b in total}
    res = _sim(games=10)
    seat0 = Counter(r.seats[0] for r in res.records)
    assert seat0 == {"random": 5, "greedy": 5}


def test_greedy_bot_sees_only_the_observation() -> None:
    """Greedy bot sees only the observation."""
    seen: list[object] = []

    class Spy(ToyGame):
        """Toy game recording what greedy_action receives."""

        def greedy_action(self, observation, legal_actions, rng):  # type: ignore[override]
            """Record the observation, then play the toy greedy move."""
            seen.append(observation)
            return super().greedy_action(observation, legal_actions, rng)

    simulate(Spy(), 3, 5, ["greedy"], 3)
    assert seen and all(isinstance(o, dict) and not isinstance(o, ToyState) for o in seen)


def test_greedy_beats_random_in_toy_game() -> None:
    """Greedy beats random in toy game."""
    rep = build_report(_sim(games=400))
    assert rep["bots"]["win"]["greedy"]["win_share"] > rep["bots"]["win"]["random"]["win_share"]
    h2h = rep["bots"]["head_to_head"]
    assert h2h["greedy"]["random"] + h2h["random"]["greedy"] == pytest.approx(1.0, abs=1e-5)


def test_progress_counts_every_game() -> None:
    """Progress counts every game."""
    for jobs in (1, 2):
        ticks: list[int] = []
        _sim(games=57, jobs=jobs, progress=ticks.append)
        assert sum(ticks) == 57 and len(ticks) > 1
