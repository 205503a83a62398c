"""Play a game many times with bots, checking rule invariants as it goes.

Game ``g`` of a run is fully determined by ``(seed, g)``: the deal seed and
every bot's rng seed are derived from them with a keyed hash
(:func:`derive_seed`), so results are identical for any number of processes
and on any machine. Workers get large contiguous chunks of game indices and
results are merged back in game order.

Two play loops exist on purpose:

* the *fast* loop (invariants off) is only ``legal_actions → bot →
  apply_action`` plus two counter bumps, and inlines the random bot;
* the *traced* loop records the action trace and, when asked, checks every
  invariant at every step. It also re-plays any game the fast loop could not
  finish (error or step cap) to capture a trace that reproduces the problem —
  possible because the game is a pure function of ``(seed, g)``.
"""

from __future__ import annotations

import hashlib
import multiprocessing
import os
import random
import time
import traceback
from collections import Counter
from dataclasses import dataclass, field
from typing import Any, Callable, NamedTuple, Sequence

from pnp.games.api import TERMINAL, Game, State
from pnp.sim.bots import BOTS, Bot, RandomBot, seat_bots

#: Default maximum number of actions in one game before it counts as endless.
DEFAULT_STEP_CAP = 10_000
#: Failures beyond this many keep their seed and message but not their trace.
DEFAULT_MAX_TRACES = 20

Progress = Callable[[int], None]


# --------------------------------------------------------------------------
# Results
# --------------------------------------------------------------------------

class GameRecord(NamedTuple):
    """What one game produced (only ``index``/``seats``/``completed`` are
    meaningful when the game did not complete).

    A named tuple because worker processes ship thousands of these back: plain
    tuples pickle about 4× faster than dataclass instances, and the parent
    competes with the workers for the same cores.
    """

    index: int
    seats: tuple[str, ...]
    completed: bool
    length: int = 0
    returns: tuple[float, ...] = ()
    winners: tuple[int, ...] = ()
    #: Counts in the order of ``game.event_names``.
    events: tuple[int, ...] = ()
    #: Per seat: decisions taken, and those with more than one legal action.
    decisions: tuple[int, ...] = ()
    real_choices: tuple[int, ...] = ()


@dataclass(slots=True)
class Failure:
    """A game that broke an invariant, raised, or hit the step cap.

    ``replay(game, num_players, deal_seed, actions)`` reproduces it: for an
    ``invariant`` failure the returned state fails :func:`check_state` (or the
    end-of-game checks), for an ``error`` the last action (or set-up, when
    ``actions`` is empty) raises again, and for ``step_cap`` the state is still
    not terminal.
    """

    #: "invariant", "error" or "step_cap".
    kind: str
    game_index: int
    seed: int
    deal_seed: int
    seats: tuple[str, ...]
    message: str
    #: Actions applied before the failure was seen (None when dropped).
    actions: list[int] | None = None
    #: ``action_to_string`` of each action, in the state it was taken in.
    action_texts: list[str] | None = None


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
    check_invariants: bool
    step_cap: int
    apply_check_limit: int | None
    records: list[GameRecord]
    failures: list[Failure]
    #: Not part of the deterministic report.
    jobs: int = 1
    elapsed_s: float = 0.0

    @property
    def ok(self) -> bool:
        """True when every game completed without a failure."""
        return not self.failures


# --------------------------------------------------------------------------
# Seeds, replay and invariant checks
# --------------------------------------------------------------------------

def derive_seed(seed: int, game_index: int, label: str) -> int:
    """Stable 64-bit seed for ``label`` ("deal", "bot0", …) of game ``game_index``.

    A keyed hash of the text ``"{seed}:{game_index}:{label}"``: independent of
    PYTHONHASHSEED, the process, the platform and the Python version.
    """
    digest = hashlib.blake2b(f"{seed}:{game_index}:{label}".encode(),
                             digest_size=8).digest()
    return int.from_bytes(digest, "big")


def make_bots(game: Game, seats: Sequence[str], seed: int, game_index: int) -> list[Bot]:
    """Fresh bots for game ``game_index``, each with its own derived rng."""
    return [BOTS[name](game, i, random.Random(derive_seed(seed, game_index, f"bot{i}")))
            for i, name in enumerate(seats)]


def replay(game: Game, num_players: int, seed: int, actions: Sequence[int]) -> State:
    """Replay ``actions`` from the deal with ``seed`` (a failure's ``deal_seed``).

    Each action is checked to be legal first; an illegal one raises
    :class:`~pnp.errors.PnpError`. Errors raised by the engine propagate.
    """
    from pnp.errors import PnpError
    state = game.new_initial_state(num_players, seed)
    for step, action in enumerate(actions):
        legal = state.legal_actions()
        if action not in legal:
            raise PnpError(f"replay step {step}: action {action} is not legal "
                           f"(legal: {legal[:20]}{'…' if len(legal) > 20 else ''})")
        state.apply_action(action)
    return state


def _zone_detail(game: Game, state: State) -> str:
    """Explain how the zones differ from the deck (slow; failures only)."""
    deck = Counter(game.deck())
    where: dict[int, list[str]] = {}
    for name, cards in state.zones():
        for c in cards:
            where.setdefault(c, []).append(str(name))
    seen = Counter({c: len(z) for c, z in where.items()})
    missing = sorted((deck - seen).elements())
    extra = sorted((seen - deck).elements())
    parts = []
    if missing:
        parts.append(f"missing {missing[:10]}")
    if extra:
        dup = {c: where[c] for c in sorted(set(extra))[:5]}
        parts.append(f"extra {extra[:10]} (zones: {dup})")
    return "; ".join(parts) or "zones differ from deck"


def check_state(game: Game, state: State, deck_sorted: Sequence[int] | None = None,
                apply_check_limit: int | None = None,
                rng: random.Random | None = None) -> str | None:
    """Check the per-step invariants of ``state``; return a message or None.

    Card conservation (every deck card in exactly one zone); ``is_terminal()``
    agrees with ``current_player() == TERMINAL``; a non-terminal state has a
    valid current player with ≥ 1 legal action, listed ascending without
    duplicates; every legal action (or ``apply_check_limit`` of them, drawn
    with ``rng``) applies without error on a ``clone()``, and doing so leaves
    the original untouched.
    """
    if deck_sorted is None:
        deck_sorted = sorted(game.deck())
    cards: list[int] = []
    for _name, zone in state.zones():
        cards.extend(zone)
    cards.sort()
    if cards != deck_sorted:
        return f"card conservation broken: {_zone_detail(game, state)}"
    player = state.current_player()
    terminal = state.is_terminal()
    if terminal != (player == TERMINAL):
        return (f"is_terminal() is {terminal} but current_player() is {player} "
                f"(TERMINAL is {TERMINAL})")
    if terminal:
        return None
    if not 0 <= player < state.num_players:
        return f"current_player() {player} is not a seat of {state.num_players}"
    legal = state.legal_actions()
    if not legal:
        return f"player {player} has no legal action in a non-terminal state"
    for a, b in zip(legal, legal[1:]):
        if not a < b:
            return f"legal_actions() not ascending without duplicates: … {a}, {b} …"
    to_try: Sequence[int] = legal
    if apply_check_limit is not None and len(legal) > apply_check_limit:
        to_try = sorted((rng or random.Random(0)).sample(legal, apply_check_limit))
    for i, action in enumerate(to_try):
        child = state.clone()
        if i == 0 and child.legal_actions() != legal:
            return "clone() has different legal actions from the original"
        try:
            child.apply_action(action)
        except Exception as exc:  # the engine's own bug, reported with the trace
            return (f"legal action {action} ({_safe_text(state, action)}) raised "
                    f"{_describe(exc)} when applied to a clone")
        if state.current_player() != player or state.legal_actions() != legal:
            return (f"clone() is not independent: applying {action} to the clone "
                    "changed the original")
    return None


def check_final(game: Game, state: State, actions: Sequence[int], seed: int) -> str | None:
    """End-of-game invariants: returns/winners/events are well formed, and
    replaying ``actions`` from ``seed`` reproduces the same final state."""
    n = state.num_players
    ret = state.returns()
    if len(ret) != n:
        return f"returns() has {len(ret)} values for {n} players"
    if not all(isinstance(v, (int, float)) for v in ret):
        return f"returns() holds non-numbers: {ret!r}"
    win = state.winners()
    if not win or len(set(win)) != len(win) or not all(0 <= w < n for w in win):
        return f"winners() {win!r} is not a non-empty set of seats"
    events = state.events()
    unknown = set(events) - set(game.event_names)
    if unknown:
        return f"events() has names missing from game.event_names: {sorted(unknown)}"
    if any(not isinstance(v, int) or v < 0 for v in events.values()):
        return f"events() has counts that are not non-negative ints: {dict(events)}"
    again = replay(game, n, seed, actions)
    if (list(again.returns()) != list(ret) or list(again.winners()) != list(win)
            or again.turns() != state.turns()
            or _zones_snapshot(again) != _zones_snapshot(state)):
        return "replaying the action history from the same seed gave a different final state"
    return None


def _zones_snapshot(state: State) -> list[tuple[str, list[int]]]:
    """Zones as plain lists, for equality tests."""
    return [(str(name), list(cards)) for name, cards in state.zones()]


def _describe(exc: BaseException) -> str:
    """``Type: message at file:line in function`` for the innermost frame."""
    tb = traceback.extract_tb(exc.__traceback__)
    where = ""
    if tb:
        frame = tb[-1]
        where = f" at {os.path.basename(frame.filename)}:{frame.lineno} in {frame.name}"
    return f"{type(exc).__name__}: {exc}{where}"


def _safe_text(state: State, action: int) -> str:
    """``action_to_string`` that never raises."""
    try:
        return state.action_to_string(action)
    except Exception as exc:
        return f"<action_to_string raised {type(exc).__name__}>"


# --------------------------------------------------------------------------
# Play loops
# --------------------------------------------------------------------------

def _play_fast(game: Game, num_players: int, deal: int, bots: list[Bot],
               step_cap: int) -> tuple[State, list[int], list[int], bool]:
    """Play one game as fast as possible; return (state, decisions, real, ended).

    Forced moves (one legal action) are applied without asking the bot. Any
    exception propagates; the caller re-plays the game with the traced loop.
    """
    state = game.new_initial_state(num_players, deal)
    cur = state.current_player
    legal_of = state.legal_actions
    apply = state.apply_action
    dec = [0] * num_players
    real = [0] * num_players
    if all(type(b) is RandomBot for b in bots):
        # Inlined RandomBot.act: same formula, same stream, same games.
        rnd = [b.rng.random for b in bots]
        for _ in range(step_cap):
            p = cur()
            if p < 0:
                break
            legal = legal_of()
            dec[p] += 1
            k = len(legal)
            if k > 1:
                real[p] += 1
                apply(legal[int(rnd[p]() * k)])
            else:
                apply(legal[0])
        else:
            if cur() >= 0:
                return state, dec, real, False
    else:
        acts = [b.act for b in bots]
        wants = [b.needs_observation for b in bots]
        observe = state.observation
        for _ in range(step_cap):
            p = cur()
            if p < 0:
                break
            legal = legal_of()
            dec[p] += 1
            if len(legal) > 1:
                real[p] += 1
                apply(acts[p](observe(p) if wants[p] else None, legal))
            else:
                apply(legal[0])
        else:
            if cur() >= 0:
                return state, dec, real, False
    return state, dec, real, True


@dataclass
class _Traced:
    """Outcome of :func:`_play_traced`."""

    status: str  # "ok", "invariant", "error", "step_cap"
    message: str = ""
    state: State | None = None
    dec: list[int] = field(default_factory=list)
    real: list[int] = field(default_factory=list)
    actions: list[int] = field(default_factory=list)
    texts: list[str] = field(default_factory=list)


def _play_traced(game: Game, num_players: int, deal: int, bots: list[Bot],
                 step_cap: int, check: bool, deck_sorted: Sequence[int] | None,
                 apply_check_limit: int | None, check_rng: random.Random) -> _Traced:
    """Play one game recording every action; with ``check``, test all invariants.

    Makes exactly the same bot calls as :func:`_play_fast`, so it reproduces
    the fast loop's game move for move.
    """
    out = _Traced("ok", dec=[0] * num_players, real=[0] * num_players)
    step = 0
    try:
        state = game.new_initial_state(num_players, deal)
    except Exception as exc:
        out.status, out.message = "error", f"new_initial_state raised {_describe(exc)}"
        return out
    out.state = state
    try:
        while True:
            if check:
                msg = check_state(game, state, deck_sorted, apply_check_limit, check_rng)
                if msg:
                    out.status, out.message = "invariant", f"step {step}: {msg}"
                    return out
            p = state.current_player()
            if p < 0:
                if not state.is_terminal():
                    out.status = "invariant"
                    out.message = (f"step {step}: current_player() is {p} but "
                                   "is_terminal() is False")
                    return out
                break
            if step >= step_cap:
                out.status = "step_cap"
                out.message = (f"no end after {step_cap} actions "
                               f"({state.turns()} turns)")
                return out
            if p >= num_players:
                out.status, out.message = "invariant", f"step {step}: current_player() is {p}"
                return out
            legal = state.legal_actions()
            if not legal:
                out.status = "invariant"
                out.message = f"step {step}: player {p} has no legal action (not terminal)"
                return out
            out.dec[p] += 1
            if len(legal) > 1:
                out.real[p] += 1
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
            out.texts.append(_safe_text(state, action))
            out.actions.append(action)
            state.apply_action(action)
            step += 1
        if check:
            msg = check_final(game, state, out.actions, deal)
            if msg:
                out.status, out.message = "invariant", f"end of game: {msg}"
                return out
    except Exception as exc:
        out.status = "error"
        out.message = f"step {step}: {_describe(exc)}"
    return out


def _record(game: Game, g: int, seats: tuple[str, ...], state: State,
            dec: Sequence[int], real: Sequence[int]) -> GameRecord:
    """Summarise a finished game."""
    ev = state.events()
    return GameRecord(
        index=g, seats=seats, completed=True, length=state.turns(),
        returns=tuple(state.returns()), winners=tuple(sorted(state.winners())),
        events=tuple(ev.get(name, 0) for name in game.event_names),
        decisions=tuple(dec), real_choices=tuple(real))


@dataclass(frozen=True)
class _Chunk:
    """A contiguous range of games for one worker task (small and picklable;
    the game itself reaches each worker once, through :func:`_init_worker`)."""

    num_players: int
    bots: tuple[str, ...]
    seed: int
    start: int
    stop: int
    check: bool
    step_cap: int
    apply_check_limit: int | None
    max_traces: int


#: The game a worker process plays, installed once by :func:`_init_worker` so
#: engine-side caches stay warm across chunks and are not re-pickled per task.
_WORKER_GAME: list[Game] = []


def _init_worker(game: Game) -> None:
    """Pool initializer: remember the game for this worker process."""
    _WORKER_GAME[:] = [game]


def _run_worker_chunk(job: _Chunk) -> tuple[int, list[tuple], list[Failure]]:
    """Pool task: play ``job`` with the worker's game (top-level: spawn-safe)."""
    return _run_chunk(_WORKER_GAME[0], job)


def _run_chunk(game: Game, job: _Chunk) -> tuple[int, list[tuple], list[Failure]]:
    """Play games ``job.start .. job.stop - 1`` of ``game``.

    Records come back as plain tuples (fast to pickle); the parent rebuilds
    :class:`GameRecord` with ``GameRecord._make``.
    """
    n = job.num_players
    deck_sorted = sorted(game.deck()) if job.check else None
    records: list[GameRecord] = []
    failures: list[Failure] = []
    for g in range(job.start, job.stop):
        seats = seat_bots(job.bots, n, g)
        deal = derive_seed(job.seed, g, "deal")
        fast_failed = False
        if not job.check:
            try:
                state, dec, real, ended = _play_fast(
                    game, n, deal, make_bots(game, seats, job.seed, g), job.step_cap)
                fast_failed = not (ended and state.is_terminal())
            except Exception:
                fast_failed = True  # re-played below with a trace to find the cause
            if not fast_failed:
                try:
                    records.append(_record(game, g, seats, state, dec, real))
                    continue
                except Exception:
                    pass  # the traced re-play below reports it with a trace
        out = _play_traced(game, n, deal, make_bots(game, seats, job.seed, g),
                           job.step_cap, job.check, deck_sorted, job.apply_check_limit,
                           random.Random(derive_seed(job.seed, g, "check")))
        if out.status == "ok" and fast_failed:
            out.status = "error"
            out.message = ("the fast loop failed but a traced re-play of the same "
                           "game did not: the engine is not deterministic")
        if out.status == "ok":
            assert out.state is not None
            try:
                records.append(_record(game, g, seats, out.state, out.dec, out.real))
                continue
            except Exception as exc:
                out.status, out.message = "error", f"end of game: {_describe(exc)}"
        keep = len(failures) < job.max_traces
        failures.append(Failure(
            kind=out.status, game_index=g, seed=job.seed, deal_seed=deal, seats=seats,
            message=out.message, actions=out.actions if keep else None,
            action_texts=out.texts if keep else None))
        records.append(GameRecord(index=g, seats=seats, completed=False,
                                  length=_safe_turns(out.state)))
    return job.start, [tuple(r) for r in records], failures


def _safe_turns(state: State | None) -> int:
    """``state.turns()`` or 0 if unavailable."""
    try:
        return state.turns() if state is not None else 0
    except Exception:
        return 0


def _chunks(games: int, parts: int) -> list[tuple[int, int]]:
    """Split ``range(games)`` into ``parts`` contiguous, near-equal ranges."""
    parts = max(1, min(parts, games))
    bounds = [games * i // parts for i in range(parts + 1)]
    return [(bounds[i], bounds[i + 1]) for i in range(parts)]


def simulate(game: Game, num_players: int, games: int, bots: Sequence[str], seed: int,
             jobs: int = 1, check_invariants: bool = True,
             step_cap: int = DEFAULT_STEP_CAP, progress: Progress | None = None, *,
             apply_check_limit: int | None = None, max_traces: int = DEFAULT_MAX_TRACES,
             start_method: str | None = None) -> SimResult:
    """Play ``games`` games of ``game`` and collect a :class:`SimResult`.

    ``bots`` are registry names assigned to seats cyclically and rotated by game
    index (:func:`~pnp.sim.bots.seat_bots`). ``progress`` is called with the
    number of games just finished. ``apply_check_limit`` caps how many legal
    actions are applied on clones per step (None: all). ``start_method`` picks
    the multiprocessing start method (None: the platform default); the worker
    code is spawn-safe. Arguments are assumed valid (see
    :func:`pnp.sim.run_simulation` for checked input).
    """
    bots = tuple(bots)
    started = time.perf_counter()
    records: list[GameRecord] = []
    failures: list[Failure] = []

    def job(a: int, b: int) -> _Chunk:
        """The task for games ``a .. b - 1``."""
        return _Chunk(num_players, bots, seed, a, b, check_invariants, step_cap,
                      apply_check_limit, max_traces)

    if jobs <= 1 or games < 2:
        # In-process; small chunks only so the progress bar moves.
        parts = 1 if progress is None else min(games, 100)
        for a, b in _chunks(games, parts):
            _, recs, fails = _run_chunk(game, job(a, b))
            records.extend(map(GameRecord._make, recs))
            failures.extend(fails)
            if progress is not None:
                progress(b - a)
        jobs = 1
    else:
        # Few, large chunks: 4 per process balances the tail without paying
        # per-task pickling; results are re-ordered by start index.
        tasks = [job(a, b) for a, b in _chunks(games, jobs * 4)]
        ctx = multiprocessing.get_context(start_method)
        done: dict[int, tuple[list[tuple], list[Failure]]] = {}
        with ctx.Pool(processes=min(jobs, len(tasks)), initializer=_init_worker,
                      initargs=(game,)) as pool:
            for start, recs, fails in pool.imap_unordered(_run_worker_chunk, tasks):
                done[start] = (recs, fails)
                if progress is not None:
                    progress(len(recs))
        for start in sorted(done):
            records.extend(map(GameRecord._make, done[start][0]))
            failures.extend(done[start][1])
    # Same traces kept whatever the chunking: the first max_traces in game order.
    for i, f in enumerate(failures):
        if i >= max_traces:
            f.actions = f.action_texts = None
    return SimResult(
        slug=game.slug, title=game.title, params=dict(game.params),
        event_names=tuple(game.event_names), num_players=num_players, games=games,
        bots=bots, seed=seed, check_invariants=check_invariants, step_cap=step_cap,
        apply_check_limit=apply_check_limit, records=records, failures=failures,
        jobs=jobs, elapsed_s=time.perf_counter() - started)
