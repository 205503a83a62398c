"""Runner tests with the toy game: determinism, invariant levels, traces, rotation."""

from __future__ import annotations

import pickle
from collections import Counter
from typing import Any, Sequence

import pytest

from pnp.games.api import TERMINAL, State
from pnp.games.stats import GameStats
from pnp.sim import build_report, check_state, replay, simulate
from pnp.sim.bots import seat_bots
from pnp.sim.runner import CHUNK_GAMES, check_final
from toy_game import ToyObservation, toy


def _sim(variant: str = "normal", **kw: Any) -> Any:
    """Simulate the toy game with test defaults overridable by ``kw``."""
    args: dict[str, Any] = dict(num_players=4, games=60, bots=["random", "greedy"], seed=11,
                                invariants="full", step_cap=300)
    args.update(kw)
    return simulate(toy({"variant": variant}), **args)


def _games_view(res: Any) -> tuple:
    """What the games produced, independent of how they were checked."""
    t = res.totals
    return (t.completed, dict(t.lengths), t.score_sum, t.score_sq, t.wins, t.top,
            t.decisions, t.real, dict(t.phases), t.events, t.bot_games, t.bot_wins,
            dict(t.pairs))


def test_same_seed_same_report_for_any_jobs() -> None:
    """Same seed, same report for 1 or 2 spawned processes (chunks merge in game order)."""
    one = _sim(games=3 * CHUNK_GAMES + 17, jobs=1, invariants="sample")
    two = _sim(games=3 * CHUNK_GAMES + 17, jobs=2, invariants="sample", start_method="spawn")
    assert two.jobs == 2
    assert build_report(one) == build_report(two)


def test_same_seed_same_report_with_random_fast_path_and_fork() -> None:
    """The inlined random bot gives the same games on 1 and 2 forked processes."""
    kw = dict(games=600, bots=["random"], invariants="off")
    assert build_report(_sim(jobs=1, **kw)) == build_report(_sim(jobs=2, **kw))


def test_different_seeds_differ() -> None:
    """Different seeds give different games."""
    a = build_report(_sim(seed=1, games=100))
    b = build_report(_sim(seed=2, games=100))
    assert a["seats"] != b["seats"]


@pytest.mark.parametrize("bots", [["random"], ["greedy", "random"]])
def test_invariant_levels_do_not_change_the_games(bots: list[str]) -> None:
    """Fast loop (off), sample and full checks play exactly the same games."""
    views = {level: _games_view(_sim(bots=bots, games=80, invariants=level))
             for level in ("full", "sample", "off")}
    assert views["full"] == views["sample"] == views["off"]


def test_every_game_counted_once() -> None:
    """Totals cover every game; the toy game always lasts 16 turns of 1 decision."""
    res = _sim(games=97, jobs=2)
    assert res.totals.games == res.totals.completed == 97
    assert dict(res.totals.lengths) == {16: 97}
    assert sum(res.totals.decisions) == 16 * 97


@pytest.mark.parametrize("variant,needle", [
    ("lose_card", "card conservation"),
    ("no_action", "no legal action"),
    ("unsorted", "ascending"),
    ("bad_apply", "raised RuntimeError"),
    ("shallow_clone", "not independent"),
])
@pytest.mark.parametrize("level", ["full", "sample"])
def test_invariant_failure_has_a_trace_that_replay_reproduces(variant: str, needle: str,
                                                               level: str) -> None:
    """Both checked levels catch each broken toy variant with a replayable trace."""
    res = _sim(variant, games=6, invariants=level)
    assert not res.ok and len(res.failures) == 6
    game = toy({"variant": variant})
    for f in res.failures:
        assert f.kind == "invariant" and needle in f.message
        assert f.seed == 11 and f.actions is not None
        assert len(f.action_texts) == len(f.actions)
        state = replay(game, 4, f.deal_seed, f.actions)
        msg = check_state(game, state)
        assert msg is not None and needle in msg


def test_sample_level_checks_one_clone_per_step_after_the_first_games() -> None:
    """After the fully checked games, sample mode still catches a clone that shares state.

    One step in 8 is clone-checked, so a 16-step toy game escapes with
    chance (7/8)^16 ≈ 12%: most games must be caught, and only for that reason.
    """
    from pnp.sim import invariants
    old = invariants.FULL_GAMES
    try:
        invariants.FULL_GAMES = 0
        import pnp.sim.runner as runner
        runner.FULL_GAMES = 0
        res = _sim("shallow_clone", games=100, invariants="sample")
    finally:
        invariants.FULL_GAMES = old
        runner.FULL_GAMES = old
    assert len(res.failures) >= 75
    assert all(f.kind == "invariant" and "not independent" in f.message
               for f in res.failures)


def test_error_without_invariants_is_reproduced_by_replay() -> None:
    """An engine error in the fast loop is re-played to a trace that raises again."""
    res = _sim("bad_apply", games=5, invariants="off")
    assert len(res.failures) == 5
    game = toy({"variant": "bad_apply"})
    for f in res.failures:
        assert f.kind == "error" and "cursed" in f.message
        assert f.actions[-1] == 7
        with pytest.raises(RuntimeError, match="cursed"):
            replay(game, 4, f.deal_seed, f.actions)
        replay(game, 4, f.deal_seed, f.actions[:-1])


def test_missing_action_caught_without_invariants() -> None:
    """A state with no legal action is caught even with invariants off."""
    res = _sim("no_action", games=3, invariants="off")
    assert [f.kind for f in res.failures] == ["invariant"] * 3
    state = replay(toy({"variant": "no_action"}), 4, res.failures[0].deal_seed,
                   res.failures[0].actions)
    assert not state.is_terminal() and state.legal_actions() == []


@pytest.mark.parametrize("level", ["full", "sample", "off"])
def test_step_cap_caught(level: str) -> None:
    """A game that never ends hits the step cap at every level."""
    res = _sim("never_end", games=4, step_cap=50, invariants=level)
    assert [f.kind for f in res.failures] == ["step_cap"] * 4
    assert res.totals.completed == 0
    rep = build_report(res)
    assert rep["completion"]["rate"] == 0.0 and rep["completion"]["failures"]["step_cap"] == 4
    f = res.failures[0]
    assert len(f.actions) == 50
    state = replay(toy({"variant": "never_end"}), 4, f.deal_seed, f.actions)
    assert not state.is_terminal()


def test_traces_kept_for_first_failures_only_whatever_the_jobs() -> None:
    """The first max_traces failures in game order keep traces, for any jobs."""
    a = _sim("lose_card", games=CHUNK_GAMES + 30, max_traces=7, jobs=1)
    b = _sim("lose_card", games=CHUNK_GAMES + 30, max_traces=7, jobs=2)
    assert [f.actions is not None for f in a.failures] == [True] * 7 + [False] * (CHUNK_GAMES + 23)
    assert build_report(a) == build_report(b)


def test_check_final_catches_non_replayable_state() -> None:
    """The end-of-game replay check fails when the history does not give the state."""
    game = toy()
    state = game.new_initial_state(2, 5)
    while not state.is_terminal():
        state.apply_action(state.legal_actions()[0])
    assert check_final(game, state, [], 5) is not None  # empty history ≠ this state


def test_mixed_bots_rotate_evenly_over_seats() -> None:
    """Every bot sits at every seat equally often."""
    for bots, games in ((["random", "greedy"], 8), (["random", "greedy", "random"], 9),
                        (["a", "b", "c"], 12)):
        per_seat = [Counter(seat_bots(bots, 4, g)[s] for g in range(games))
                    for s in range(4)]
        total = Counter(b for b in bots)
        for counts in per_seat:
            assert {b: counts[b] * len(bots) for b in total} == \
                   {b: total[b] * games for b in total}
    res = _sim(games=10)
    assert res.totals.bot_games == {"random": 20, "greedy": 20}


def test_greedy_bot_sees_only_the_observation() -> None:
    """Bots are handed the frozen observation, never the state."""
    from toy_game import ToyGreedy
    seen: list[object] = []

    class Spy(ToyGreedy):
        """Greedy bot that records what it is given."""

        def act(self, observation: Any, legal_actions: Sequence[int]) -> int:
            """Record, then play greedily."""
            seen.append(observation)
            return super().act(observation, legal_actions)

    simulate(toy(), 3, 5, ["greedy"], 3, bot_classes={"greedy": Spy})
    assert seen and all(isinstance(o, ToyObservation) and not isinstance(o, State)
                        for o in seen)


def test_greedy_beats_random_in_toy_game() -> None:
    """The head-to-head table is consistent and favours the greedy bot."""
    rep = build_report(_sim(games=400))
    assert rep["bots"]["win"]["greedy"]["win_share"] > rep["bots"]["win"]["random"]["win_share"]
    h2h = rep["bots"]["head_to_head"]
    assert h2h["greedy"]["random"] + h2h["random"]["greedy"] == pytest.approx(1.0, abs=1e-5)


def test_progress_counts_every_game() -> None:
    """Progress ticks add up to the number of games, chunk by chunk."""
    for jobs in (1, 2):
        ticks: list[int] = []
        _sim(games=2 * CHUNK_GAMES + 7, jobs=jobs, progress=ticks.append, invariants="off")
        assert sum(ticks) == 2 * CHUNK_GAMES + 7 and len(ticks) == 3


def test_memory_stays_flat_as_games_grow() -> None:
    """The run's totals do not grow with the number of games."""
    small = _sim(games=CHUNK_GAMES, invariants="off", bots=["random"])
    large = _sim(games=12 * CHUNK_GAMES, invariants="off", bots=["random"])
    assert large.totals.completed == 12 * small.totals.completed
    # Histograms (lengths, scores per seat) are bounded by the step cap and the
    # score range, not by the number of games: a few new values may appear.
    assert len(pickle.dumps(large.totals)) <= len(pickle.dumps(small.totals)) + 256


class _BeatStats(GameStats):
    """Counts beats per game, to test the game-figures hook."""

    title = "Beats"

    def __init__(self, game: Any, num_players: int) -> None:
        super().__init__(game, num_players)
        self.games = 0
        self.beats = 0

    def add(self, state: State[Any], seats: Sequence[str]) -> None:
        self.games += 1
        self.beats += state.events()["beat"]

    def merge(self, other: Any) -> None:
        self.games += other.games
        self.beats += other.beats

    def to_dict(self) -> dict[str, Any]:
        return {"games": self.games, "beats": self.beats}

    def format(self, figures: dict[str, Any]) -> list[str]:
        return [f"  beats {figures['beats']} in {figures['games']} games"]


def test_game_stats_stream_and_merge_in_order() -> None:
    """A game's own figures see every completed game, for any jobs."""
    for jobs in (1, 2):
        res = simulate(toy(), 3, CHUNK_GAMES + 40, ["random"], 4, jobs=jobs,
                       invariants="off", stats=_BeatStats)
        rep = build_report(res)
        figs = rep["game_figures"]["figures"]
        assert figs["games"] == CHUNK_GAMES + 40
        assert figs["beats"] == rep["events"]["beat"]["total"]


def test_conservation_on_zone_masks_catches_a_duplicate_and_a_loss() -> None:
    """The bit-set path of the conservation check fails on overlap and on a missing card."""
    from pnp.sim.invariants import Deck
    deck = Deck(range(6))
    assert deck.holds_masks([("a", 0b000111), ("b", 0b111000)])
    assert not deck.holds_masks([("a", 0b001111), ("b", 0b111000)])  # card 3 twice
    assert not deck.holds_masks([("a", 0b000111), ("b", 0b011000)])  # card 5 lost
    assert deck.holds(list(range(6))) and not deck.holds([0, 1, 2, 3, 4, 4])


class _Fake:
    """Just enough of a state for :func:`pnp.sim.invariants.check_cheap` (no zone masks)."""

    def __init__(self, player: int, terminal: bool, num_players: int = 4) -> None:
        self.player, self.terminal, self.num_players = player, terminal, num_players

    def zones(self) -> list[tuple[str, list[int]]]:
        """Every card of the deck range(6), once."""
        return [("deck", [0, 1, 2]), ("hand:0", [3, 4, 5])]

    def current_player(self) -> int:
        """The seat given to the constructor."""
        return self.player

    def is_terminal(self) -> bool:
        """The flag given to the constructor."""
        return self.terminal


@pytest.mark.parametrize("player, terminal, legal, fault", [
    (0, False, [1, 2, 5], None),
    (TERMINAL, True, None, None),
    (0, False, [1, 2, 2], "not ascending without duplicates: … 2, 2 …"),
    (0, False, [1, 5, 3], "not ascending without duplicates: … 5, 3 …"),
    (0, True, None, "is_terminal() is True but current_player() is 0"),
    (TERMINAL, False, [1], "is_terminal() is False but current_player() is"),
    (4, False, [1], "current_player() 4 is not a seat of 4"),
    (1, False, [], "player 1 has no legal action in a non-terminal state"),
])
def test_per_step_checks_name_each_fault(player: int, terminal: bool,
                                         legal: list[int] | None, fault: str | None) -> None:
    """Duplicate or unsorted actions, a terminal/player mismatch, a bad seat, no action."""
    from pnp.sim.invariants import Deck, check_cheap
    msg = check_cheap(_Fake(player, terminal), Deck(range(6)), legal)  # type: ignore[arg-type]
    if fault is None:
        assert msg is None
    else:
        assert msg is not None and fault in msg, msg
