"""Play a game many times with bots, checking rule invariants as it goes.

Game ``g`` of a run is fully determined by ``(seed, g)``: the deal seed and
every bot's rng seed are derived from them with a keyed hash
(:func:`derive_seed`). Games are played in chunks of :data:`CHUNK_GAMES`
consecutive indices whatever the number of processes, each chunk is reduced to
an :class:`~pnp.sim.aggregate.Aggregate` where it was played, and the parent
merges chunks in game order: results are identical for any ``jobs`` and memory
stays flat however many games are played.

Two play loops exist on purpose:

* the *fast* loop (invariants off) is only ``legal_actions → bot →
  apply_action`` plus counters, and inlines the random bot;
* the *checked* loop records the action history and checks invariants at the
  level :mod:`pnp.sim.invariants` gives the game. It also re-plays any game
  the fast loop could not finish (error or step cap) to find the cause and a
  trace that reproduces it — possible because a game is a pure function of
  ``(seed, g)``.
"""

from __future__ import annotations

import hashlib
import multiprocessing
import random
import signal
import time
from dataclasses import dataclass, field
from types import FrameType
from typing import TYPE_CHECKING, Any, Callable, Iterator, Mapping, Sequence

from pnp.errors import Interrupted
from pnp.games.api import TERMINAL, Game, State
from pnp.games.bots import Bot, BotFactory, RandomBot, bot_factory
from pnp.games.stats import GameStats
from pnp.sim.aggregate import Aggregate, Failure
from pnp.sim.bots import seat_bots
from pnp.sim.stopped import interrupted
from pnp.sim.invariants import (CLONE_EVERY, FULL_GAMES, REPLAY_EVERY, Deck, check_cheap,
                                check_clones, check_final, check_state, describe, replay,
                                safe_text)

if TYPE_CHECKING:
    from pnp.sim.paired import Paired

#: Default maximum number of actions in one game before it counts as endless.
DEFAULT_STEP_CAP = 10_000
#: Failures beyond this many keep their seed and message but not their trace.
DEFAULT_MAX_TRACES = 20
#: Games per task: fixed, so chunk boundaries (and results) never depend on jobs.
CHUNK_GAMES = 250
#: Games per task when a bot searches (a game takes seconds, not microseconds,
#: so smaller tasks keep every worker busy); also independent of jobs.
SEARCH_CHUNK_GAMES = 5

Progress = Callable[[int], None]
#: A game's ``standing(state)`` hook: each seat's standing mid-game (e.g. VP so far).
Standing = Callable[[State[Any]], Sequence[float]]


@dataclass
class SimResult:
    """Everything :func:`simulate` measured; turned into a report by
    :mod:`pnp.sim.report`."""

    slug: str
    title: str
    params: dict[str, Any]
    event_names: tuple[str, ...]
    num_players: int
    games: int
    bots: tuple[str, ...]
    seed: int
    invariants: str
    step_cap: int
    totals: Aggregate
    #: Not part of the deterministic report.
    jobs: int = 1
    jobs_asked: int = 1
    elapsed_s: float = 0.0

    @property
    def failures(self) -> list[Failure]:
        """Kept failures, in game order."""
        return self.totals.failures

    @property
    def ok(self) -> bool:
        """True when every game completed without a failure."""
        return self.totals.completed == self.games


# --------------------------------------------------------------------------
# Seeds and replay
# --------------------------------------------------------------------------

def derive_seed(seed: int, game_index: int, label: str) -> int:
    """Stable 64-bit seed for ``label`` ("deal", "bot0", …) of game ``game_index``.

    A keyed hash of the text ``"{seed}:{game_index}:{label}"``: independent of
    PYTHONHASHSEED, the process, the platform and the Python version.
    """
    digest = hashlib.blake2b(f"{seed}:{game_index}:{label}".encode(),
                             digest_size=8).digest()
    return int.from_bytes(digest, "big")


def make_bots(classes: Sequence[BotFactory], game: Game[Any], seed: int,
              game_index: int) -> list[Bot]:
    """Fresh bots for game ``game_index`` (factories by seat), each with its own rng."""
    return [cls(game, i, random.Random(derive_seed(seed, game_index, f"bot{i}")))
            for i, cls in enumerate(classes)]


def action_texts(game: Game[Any], num_players: int, seed: int,
                 actions: Sequence[int]) -> list[str]:
    """``action_to_string`` of each action in the state it was taken in (for traces)."""
    texts: list[str] = []
    try:
        state = game.new_initial_state(num_players, seed)
        for action in actions:
            texts.append(safe_text(state, action))
            state.apply_action(action)
    except Exception as exc:
        texts.append(f"<replay stopped: {describe(exc)}>")
    return texts


# --------------------------------------------------------------------------
# Play loops
# --------------------------------------------------------------------------

def _play_fast(game: Game[Any], num_players: int, deal: int, bots: list[Bot],
               step_cap: int, phases: dict[str, list[int]],
               standing: Standing | None = None,
               standings: list[Sequence[float]] | None = None
               ) -> tuple[State[Any], list[int], list[int], bool]:
    """Play one game as fast as possible; return (state, decisions, real, ended).

    Forced moves (one legal action) are applied without asking the bot. Any
    exception propagates; the caller re-plays the game with the checked loop.
    ``phases`` receives this game's per-phase decision counts only when the
    game ends cleanly (the caller passes a scratch dict). With ``standing``
    (the game's hook), ``standings`` receives one snapshot per turn begun.
    """
    state = game.new_initial_state(num_players, deal)
    if standing is not None and standings is not None:
        return _play_followed(state, num_players, bots, step_cap, phases, standing, standings)
    cur = state.current_player
    legal_of = state.legal_actions
    apply = state.apply_action
    phase = state.phase
    dec = [0] * num_players
    real = [0] * num_players
    all_random = all(type(b) is RandomBot for b in bots)
    rnd = [b.rng.random for b in bots]
    acts = [b.act for b in bots]
    wants = [b.needs_observation for b in bots]
    observe = state.observation
    phase_row = phases.get
    for _ in range(step_cap):
        p = cur()
        if p < 0:
            break
        legal = legal_of()
        k = len(legal)
        dec[p] += 1
        row = phase_row(ph := phase())
        if row is None:
            row = phases[ph] = [0, 0, 0]
        row[0] += 1
        row[1] += k
        if k > 1:
            real[p] += 1
            row[2] += 1
            if all_random:
                # Inlined RandomBot.act: same formula, same stream, same games.
                apply(legal[int(rnd[p]() * k)])
            else:
                apply(acts[p](observe(p) if wants[p] else None, legal))
        else:
            apply(legal[0])
    else:
        if cur() >= 0:
            return state, dec, real, False
    return state, dec, real, True


def _play_followed(state: State[Any], num_players: int, bots: list[Bot], step_cap: int,
                   phases: dict[str, list[int]], standing: Standing,
                   standings: list[Sequence[float]]) -> tuple[State[Any], list[int], list[int],
                                                               bool]:
    """:func:`_play_fast` that also snapshots ``standing(state)`` whenever a turn begins.

    A separate loop so that runs without the hook pay nothing for it; it makes
    the same bot calls, so it plays the same game.
    """
    dec = [0] * num_players
    real = [0] * num_players
    turns = state.turns
    last = -1
    for _ in range(step_cap):
        t = turns()
        if t != last:
            last = t
            standings.append(tuple(standing(state)))
        p = state.current_player()
        if p < 0:
            break
        legal = state.legal_actions()
        k = len(legal)
        dec[p] += 1
        ph = state.phase()
        row = phases.get(ph)
        if row is None:
            row = phases[ph] = [0, 0, 0]
        row[0] += 1
        row[1] += k
        if k > 1:
            real[p] += 1
            row[2] += 1
            bot = bots[p]
            state.apply_action(bot.act(state.observation(p) if bot.needs_observation else None,
                                       legal))
        else:
            state.apply_action(legal[0])
    else:
        if state.current_player() >= 0:
            return state, dec, real, False
    return state, dec, real, True


@dataclass
class _Checked:
    """Outcome of :func:`_play_checked`."""

    status: str  # "ok", "invariant", "error", "step_cap"
    message: str
    state: State[Any] | None
    dec: list[int]
    real: list[int]
    actions: list[int]
    phases: dict[str, list[int]]
    standings: list[Sequence[float]] = field(default_factory=list)


def _play_checked(game: Game[Any], num_players: int, deal: int, bots: list[Bot],
                  step_cap: int, level: str, deck: Deck | None,
                  check_rng: random.Random, replay_at_end: bool,
                  standing: Standing | None = None, length_unit: str = "turns") -> _Checked:
    """Play one game recording every action and checking invariants at ``level``.

    ``length_unit`` names what ``State.turns`` counts in the step-cap message
    (the game registers it: 第2話 counts attacks).

    ``level`` is ``"full"`` (every legal action on a clone), ``"sample"`` (on
    one step in CLONE_EVERY at random, one randomly drawn legal action on a clone)
    or ``"off"`` (no checks; used to
    re-play a game the fast loop could not finish). Makes exactly the same bot
    calls as :func:`_play_fast`, so it reproduces the fast loop's game.
    """
    out = _Checked("ok", "", None, [0] * num_players, [0] * num_players, [], {})
    step = 0
    check = level != "off"
    try:
        state = game.new_initial_state(num_players, deal)
    except Exception as exc:
        out.status, out.message = "error", f"new_initial_state raised {describe(exc)}"
        return out
    out.state = state
    last_turn = -1
    try:
        while True:
            if standing is not None and state.turns() != last_turn:
                last_turn = state.turns()
                out.standings.append(tuple(standing(state)))
            p = state.current_player()
            terminal = state.is_terminal()
            legal = None if p < 0 else state.legal_actions()
            if check:
                assert deck is not None
                msg = check_cheap(state, deck, None if terminal else legal, p, terminal)
                if msg is None and legal and not terminal:
                    if level == "full":
                        msg = check_clones(state, legal, legal)
                    elif check_rng.random() * CLONE_EVERY < 1.0:
                        msg = check_clones(
                            state, legal, [legal[int(check_rng.random() * len(legal))]])
                if msg:
                    out.status, out.message = "invariant", f"step {step}: {msg}"
                    return out
            if p < 0:
                if not terminal:
                    out.status = "invariant"
                    out.message = (f"step {step}: current_player() is {p} but "
                                   "is_terminal() is False")
                    return out
                break
            if step >= step_cap:
                out.status = "step_cap"
                out.message = (f"no end after {step_cap} actions ({state.turns()} "
                               f"{length_unit})")
                return out
            if p >= num_players:
                out.status, out.message = "invariant", f"step {step}: current_player() is {p}"
                return out
            if not legal:
                out.status = "invariant"
                out.message = f"step {step}: player {p} has no legal action (not terminal)"
                return out
            out.dec[p] += 1
            k = len(legal)
            row = out.phases.setdefault(state.phase(), [0, 0, 0])
            row[0] += 1
            row[1] += k
            if k > 1:
                out.real[p] += 1
                row[2] += 1
                bot = bots[p]
                action = bot.act(state.observation(p) if bot.needs_observation else None,
                                 legal)
                if check and action not in legal:
                    out.status = "invariant"
                    out.message = (f"step {step}: bot {bot.name!r} at seat {p} chose "
                                   f"illegal action {action}")
                    return out
            else:
                action = legal[0]
            out.actions.append(action)
            state.apply_action(action)
            step += 1
        if check and replay_at_end:
            msg = check_final(game, state, out.actions, deal)
            if msg:
                out.status, out.message = "invariant", f"end of game: {msg}"
                return out
    except Exception as exc:
        out.status = "error"
        out.message = f"step {step}: {describe(exc)}"
    return out


# --------------------------------------------------------------------------
# Chunks
# --------------------------------------------------------------------------

@dataclass(frozen=True)
class _Chunk:
    """A contiguous range of games of one variant for one task (small and
    picklable; games and bot factories reach each worker once, as setups)."""

    num_players: int
    bots: tuple[str, ...]
    seed: int
    start: int
    stop: int
    invariants: str
    step_cap: int
    max_traces: int
    #: Index of the variant (its setup) this chunk plays.
    variant: int = 0
    #: Keep per-game outcomes for paired comparisons.
    paired: bool = False


@dataclass(frozen=True)
class _Setup:
    """What every chunk of one variant shares: the game, bot factories by spec, stats."""

    game: Game[Any]
    bot_classes: dict[str, BotFactory]
    stats: type[GameStats] | None
    #: What the game's ``State.turns`` counts, for messages ("turns", "attacks").
    length_unit: str = "turns"


#: The variants a worker process plays, installed once by :func:`_init_worker`
#: so engine-side caches stay warm across chunks and are not re-pickled per task.
_WORKER: list[_Setup] = []


def _init_worker(setups: Sequence[_Setup]) -> None:
    """Pool initializer: remember the run; leave Ctrl-C and SIGTERM to the parent."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    _WORKER[:] = list(setups)


def _run_worker_chunk(job: _Chunk) -> Aggregate:
    """Pool task: play ``job`` with the worker's run (top-level: spawn-safe)."""
    return run_chunk(_WORKER[job.variant], job)


def run_task(setups: Sequence[_Setup], job: _Chunk) -> Aggregate:
    """A cluster task: play ``job`` with its variant of ``setups`` (top-level: picklable)."""
    return run_chunk(setups[job.variant], job)


def _level_for(invariants: str, g: int) -> tuple[str, bool]:
    """The check level and whether to replay at the end, for game ``g``."""
    if invariants == "full":
        return "full", True
    if invariants == "sample":
        if g < FULL_GAMES:
            return "full", True
        return "sample", g % REPLAY_EVERY == 0
    return "off", False


def _positions(k: int, num_players: int, g: int) -> list[int]:
    """Index in the ``--bots`` list of the bot at each seat of game ``g`` (see seat_bots)."""
    return [(i + g) % k for i in range(num_players)]


def run_chunk(setup: _Setup, job: _Chunk) -> Aggregate:
    """Play games ``job.start .. job.stop - 1`` and reduce them to an aggregate."""
    game = setup.game
    n = job.num_players
    stats = setup.stats(game, n) if setup.stats else None
    agg = Aggregate(n, tuple(game.event_names), job.bots, stats=stats)
    if job.paired:
        agg.outcomes = []
    standing: Standing | None = getattr(stats, "standing", None) if n > 1 else None
    deck = Deck(game.deck()) if job.invariants != "off" else None
    traces = 0
    k = len(job.bots)
    for g in range(job.start, job.stop):
        seats = seat_bots(job.bots, n, g)
        classes = [setup.bot_classes[name] for name in seats]
        deal = derive_seed(job.seed, g, "deal")
        level, replay_at_end = _level_for(job.invariants, g)
        fast_failed = False
        if level == "off":
            scratch: dict[str, list[int]] = {}
            followed: list[Sequence[float]] = []
            try:
                state, dec, real, ended = _play_fast(
                    game, n, deal, make_bots(classes, game, job.seed, g), job.step_cap,
                    scratch, standing, followed)
                fast_failed = not (ended and state.is_terminal())
            except Exception:
                fast_failed = True  # re-played below with a trace to find the cause
            if not fast_failed:
                try:
                    agg.add_game(state, seats, dec, real, followed, _positions(k, n, g))
                    _merge_phases(agg.phases, scratch)
                    continue
                except Exception:
                    agg.games -= 1  # counted again as a failure below
                    fast_failed = True
        out = _play_checked(game, n, deal, make_bots(classes, game, job.seed, g),
                            job.step_cap, level, deck,
                            random.Random(derive_seed(job.seed, g, "check")),
                            replay_at_end or fast_failed, standing, setup.length_unit)
        if out.status == "ok" and fast_failed:
            out.status = "error"
            out.message = ("the fast loop failed but a checked re-play of the same "
                           "game did not: the engine is not deterministic")
        if out.status == "ok":
            assert out.state is not None
            try:
                agg.add_game(out.state, seats, out.dec, out.real, out.standings,
                             _positions(k, n, g))
                _merge_phases(agg.phases, out.phases)
                continue
            except Exception as exc:
                agg.games -= 1
                out.status, out.message = "error", f"end of game: {describe(exc)}"
        keep = traces < job.max_traces
        traces += keep
        if agg.outcomes is not None:
            agg.outcomes.append(())  # a failed game: no outcome, but its place is kept
        agg.add_failure(Failure(
            kind=out.status, game_index=g, seed=job.seed, deal_seed=deal, seats=seats,
            message=out.message, actions=out.actions if keep else None,
            action_texts=action_texts(game, n, deal, out.actions) if keep else None))
    return agg


def _merge_phases(into: dict[str, list[int]], more: dict[str, list[int]]) -> None:
    """Add per-phase decision counts."""
    for name, row in more.items():
        mine = into.setdefault(name, [0, 0, 0])
        mine[0] += row[0]
        mine[1] += row[1]
        mine[2] += row[2]


def chunk_bounds(games: int, size: int = CHUNK_GAMES) -> list[tuple[int, int]]:
    """``range(games)`` in consecutive pieces of ``size`` (the last may be shorter)."""
    return [(a, min(a + size, games)) for a in range(0, games, size)]


def chunk_size(factories: Sequence[BotFactory]) -> int:
    """Games per task: :data:`CHUNK_GAMES`, or :data:`SEARCH_CHUNK_GAMES` when a bot searches.

    A function of the bots alone (never of ``jobs`` or the cluster), so chunk
    boundaries, and therefore results, stay the same however the run is spread.
    """
    def searches(f: BotFactory) -> bool:
        target = getattr(f, "func", f)
        return bool(getattr(target, "searches", False))

    return SEARCH_CHUNK_GAMES if any(searches(f) for f in factories) else CHUNK_GAMES


class _TermAsInterrupt:
    """While active, SIGTERM raises KeyboardInterrupt in the parent (then restored)."""

    def __enter__(self) -> "_TermAsInterrupt":
        self.old = signal.getsignal(signal.SIGTERM)
        try:
            signal.signal(signal.SIGTERM, self._raise)
        except ValueError:  # not the main thread: leave SIGTERM alone
            self.old = None
        return self

    @staticmethod
    def _raise(signum: int, frame: FrameType | None) -> None:
        raise KeyboardInterrupt

    def __exit__(self, *exc: object) -> None:
        if self.old is not None:
            signal.signal(signal.SIGTERM, self.old)


def _pool_results(setups: Sequence[_Setup], tasks: list[_Chunk], jobs: int,
                  start_method: str | None) -> Iterator[Aggregate]:
    """Chunk aggregates in task order from ``jobs`` worker processes.

    On Ctrl-C or SIGTERM the workers are terminated and joined before
    :class:`Interrupted` is raised, so none is left running and none prints
    a traceback (they ignore SIGINT).
    """
    ctx = multiprocessing.get_context(start_method)
    pool = ctx.Pool(processes=jobs, initializer=_init_worker, initargs=(list(setups),))
    try:
        with _TermAsInterrupt():
            yield from pool.imap(_run_worker_chunk, tasks, chunksize=1)
        pool.close()
    except KeyboardInterrupt:
        pool.terminate()
        pool.join()
        raise interrupted("worker processes stopped") from None
    except BaseException:
        pool.terminate()
        raise
    finally:
        pool.join()


def run_tasks(setups: Sequence[_Setup], tasks: list[_Chunk], jobs: int = 1,
              start_method: str | None = None, cluster: str | None = None
              ) -> Iterator[Aggregate]:
    """Every task's aggregate, in task order: in this process, a pool, or on Dask.

    ``cluster`` is None (local: one process, or a pool of ``jobs``), ``"local"``
    (a Dask ``LocalCluster`` of ``jobs`` worker processes) or a scheduler
    address (``tcp://host:8786``). Every backend runs the same tasks and the
    parent merges them in the same order, so results are identical.
    """
    if cluster:
        from pnp.sim.cluster import dask_results
        return dask_results(setups, tasks, jobs, cluster, run_task)
    used = max(1, min(jobs, len(tasks)))
    if used == 1:
        return (run_chunk(setups[t.variant], t) for t in tasks)
    return _pool_results(setups, tasks, used, start_method)


@dataclass(frozen=True)
class Variant:
    """One configuration of a multi-variant run: a game (with its parameters) and bots."""

    game: Game[Any]
    bots: tuple[str, ...]
    bot_classes: Mapping[str, type[Bot]]
    stats: type[GameStats] | None = None
    #: What the game's length counts (:attr:`pnp.games.registry.GameEntry.length_unit`).
    length_unit: str = "turns"


def _result(game: Game[Any], num_players: int, games: int, bots: tuple[str, ...], seed: int,
            invariants: str, step_cap: int, total: Aggregate, jobs: int, asked: int,
            started: float) -> SimResult:
    return SimResult(
        slug=game.slug, title=game.title, params=dict(game.params),
        event_names=tuple(game.event_names), num_players=num_players, games=games,
        bots=bots, seed=seed, invariants=invariants, step_cap=step_cap, totals=total,
        jobs=jobs, jobs_asked=asked, elapsed_s=time.perf_counter() - started)


def simulate_variants(variants: Sequence[Variant], num_players: int, games: int, seed: int,
                      jobs: int = 1, invariants: str = "sample",
                      step_cap: int = DEFAULT_STEP_CAP, progress: Progress | None = None, *,
                      max_traces: int = DEFAULT_MAX_TRACES, start_method: str | None = None,
                      cluster: str | None = None, paired: bool = False
                      ) -> tuple[list[SimResult], "Paired | None"]:
    """Play games ``0 .. games-1`` (the same deals) for every variant.

    Tasks are ordered chunk by chunk, every variant of a chunk together, so a
    paired comparison needs only one chunk's per-game outcomes at a time:
    with ``paired``, each variant's outcomes are differenced against variant
    0's for the same games (:class:`~pnp.sim.paired.Paired`) and then dropped.
    Deal and bot seeds depend on ``(seed, game index)`` only — never on the
    variant, the chunk's worker or the backend — which is what pairs them.
    """
    from pnp.sim.paired import Paired

    setups = [_Setup(v.game, {name: bot_factory(name, v.bot_classes)
                              for name in sorted(set(v.bots))}, v.stats, v.length_unit)
              for v in variants]
    started = time.perf_counter()
    size = min(chunk_size(list(s.bot_classes.values())) for s in setups)
    bounds = chunk_bounds(games, size)
    tasks = [_Chunk(num_players, tuple(v.bots), seed, a, b, invariants, step_cap, max_traces,
                    i, paired)
             for a, b in bounds for i, v in enumerate(variants)]
    totals = [Aggregate(num_players, tuple(v.game.event_names), tuple(v.bots),
                        stats=v.stats(v.game, num_players) if v.stats else None)
              for v in variants]
    pairs = Paired(num_players, [tuple(v.bots) for v in variants]) if paired else None
    traces = [0] * len(variants)
    base: list[tuple[float, ...]] = []
    for task, part in zip(tasks, run_tasks(setups, tasks, jobs, start_method, cluster)):
        i = task.variant
        # The first max_traces failures in game order keep their traces.
        for f in part.failures:
            if f.actions is not None:
                if traces[i] >= max_traces:
                    f.actions = f.action_texts = None
                else:
                    traces[i] += 1
        if pairs is not None and part.outcomes is not None:
            if i == 0:
                base = part.outcomes
            else:
                pairs.add(i, base, part.outcomes)
            part.outcomes = None
        totals[i].merge(part)
        if progress is not None:
            progress(part.games)
    used = 1 if cluster is None and min(jobs, len(tasks)) <= 1 else (
        jobs if cluster else min(jobs, len(tasks)))
    results = [_result(v.game, num_players, games, tuple(v.bots), seed, invariants, step_cap,
                       totals[i], used, jobs, started) for i, v in enumerate(variants)]
    return results, pairs


def simulate(game: Game[Any], num_players: int, games: int, bots: Sequence[str],
             seed: int, jobs: int = 1, invariants: str = "sample",
             step_cap: int = DEFAULT_STEP_CAP, progress: Progress | None = None, *,
             bot_classes: Mapping[str, type[Bot]] | None = None,
             stats: type[GameStats] | None = None,
             max_traces: int = DEFAULT_MAX_TRACES,
             start_method: str | None = None,
             cluster: str | None = None, length_unit: str | None = None) -> SimResult:
    """Play ``games`` games of ``game`` and collect a :class:`SimResult`.

    ``bots`` are names (looked up in ``bot_classes``; default: the game's
    registered bots; ``name:option`` allowed) assigned to seats cyclically and
    rotated by game index (:func:`~pnp.sim.bots.seat_bots`). ``invariants`` is
    a level of :mod:`pnp.sim.invariants`. ``progress`` is called with the
    number of games just finished. ``start_method`` picks the multiprocessing
    start method (None: the platform default); the worker code is spawn-safe.
    ``cluster`` runs the chunks on Dask (see :func:`run_tasks`).
    ``length_unit`` (what the game's length counts, for messages) defaults to
    the game's registered one. Arguments are assumed valid (see
    :func:`pnp.sim.run_simulation`).
    """
    if bot_classes is None or length_unit is None:
        from pnp.games.registry import registered_games
        entry = registered_games().get(game.slug)
        if bot_classes is None:
            bot_classes = dict(entry.bots) if entry else {RandomBot.name: RandomBot}
            stats = stats if stats is not None else (entry.stats if entry else None)
        if length_unit is None:
            length_unit = entry.length_unit if entry else "turns"
    results, _ = simulate_variants(
        [Variant(game, tuple(bots), bot_classes, stats, length_unit)], num_players, games,
        seed, jobs, invariants, step_cap, progress, max_traces=max_traces,
        start_method=start_method, cluster=cluster)
    return results[0]


__all__ = ["CHUNK_GAMES", "DEFAULT_MAX_TRACES", "DEFAULT_STEP_CAP", "Failure", "Interrupted",
           "SEARCH_CHUNK_GAMES", "SimResult", "TERMINAL", "Variant", "action_texts",
           "check_final", "check_state", "chunk_bounds", "chunk_size", "derive_seed",
           "make_bots", "replay", "run_chunk", "run_task", "run_tasks", "simulate",
           "simulate_variants"]
