"""Undecim position notation: one line that round-trips every reachable state.

Grammar (fields separated by one space, in this order; ``/`` separates seats)::

    undecim p=<n> s=<season> r=<round> ph=<phase> ctr=<counters> die=<die>
            dice=<d,d,…> rs=<seed> deck=<types> disc=<types> hands=<types>/…
            drawn=<type|->/… play=<cards>/… setl=<settlement,…|->/… vp=<v.v.v.v.v>/…
            acts=<nums>/… known=<nums>/… council=<nums> chosen=<num|->/…
            log=<round,…|-> story=<entry,…|-> markers=<id,…|-> done=<season,…|->
            i=<k> gq=<letters|-> tl=<k> b=<s.d.a> night=<-|o.most.k.d.d…> t=<turns>

    season, round  1-based (round = the round in progress; after the last
                   round of a finished game it is rounds + 1)
    phase          mulligan | start_gain | choose_action | red_moon_night |
                   gold_boost | gain | build | pick_action | campaign_marker | over
    die            this round's roll, 0 before the Red Moon phase
    dice           the season's rolls, one per round, drawn at set-up (chance);
                   a round's die is rolled from this list
    rs             seed of the next reshuffle (deck from the discard pile, U3b,
                   and a campaign season's set-up)
    types          "-" or a run of resource cards, two characters each: the
                   codes of the top and the bottom half (草石 = grassland/stone);
                   deck lists the bottom card first (the last is drawn next)
    cards          cards in play: the code of the half that is up, then the
                   other (石草 = the grassland/stone card with stone up)
    setl           settlements, each a run of cards (materials or gold up)
    vp             banked VP by source: round-end lands, enemies, scenarios,
                   action VP, campaign start
    nums           action numbers "." separated, "-" for none; known = the
                   cards of a seat's hand everyone has seen it take
    chosen         a face-down choice not yet revealed
    log            the action numbers played by seat in each revealed round
    story entry    id (not achieved) or id@round#seq:seat.seat (achieved in that
                   round, seq-th of the season, by those seats)
    done           each finished campaign season: per seat (/-separated) its VP
                   by source, "."-separated: the five banked sources as in vp,
                   then the end VP for lands, settlements and gold
    i              position in the phase's order (mulligan seat, acting or
                   picking index in action order)
    gq             gains still to take: R material, L land, G gold, E enemy, A any
    tl             time still to pass after the gains
    b              extra settles, extra develops, auto action left
    night          origin m (Red Moon phase) or a (an action), most enemies at
                   its start, index of the next decider in action order, and the
                   discards so far by seat
    t              decisions taken so far

What is derived rather than written: the seat to act (from the phase and
``i``), the action order (from the current round's log entry), the counts by
half (from the cards), the lasting effects (from the Story). Event counters
are not part of a position. Copies of one resource row are interchangeable, so
the notation names rows, not copies.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from pnp.games.api import NotationError

HEADER = "undecim"
FIELDS = ("p", "s", "r", "ph", "ctr", "die", "dice", "rs", "deck", "disc", "hands", "drawn",
          "play", "setl", "vp", "acts", "known", "council", "chosen", "log", "story",
          "markers", "done", "i", "gq", "tl", "b", "night", "t")
GAIN_LETTERS = "RLGEA"
#: Numbers per seat of a finished season (``done``): 5 banked sources, 3 end sources.
SEASON_FIELDS = 8
PHASES = ("mulligan", "start_gain", "choose_action", "red_moon_night", "gold_boost", "gain",
          "build", "pick_action", "campaign_marker", "over")


@dataclass
class Position:
    """A position as plain values (resource cards as types; actions as indices)."""

    num_players: int
    season: int
    rnd: int
    phase: int
    counters: int
    die: int
    dice: list[int]
    rs: int
    deck: list[int]
    discard: list[int]
    hands: list[list[int]]
    drawn: list[int]
    #: Loose cards per seat as (type, half up).
    loose: list[list[tuple[int, int]]]
    settlements: list[list[list[tuple[int, int]]]]
    vp: list[list[int]]
    ahand: list[int]
    known: list[int]
    council: int
    chosen: list[int]
    log: list[list[int]]
    story: list[int]
    #: Per Story card: [round achieved or -1, sequence, achievers mask].
    ach: list[list[int]]
    ach_seq: int
    markers: list[int]
    #: Per finished campaign season, per seat: VP by source (SEASON_FIELDS numbers).
    season_vp: list[list[list[int]]]
    idx: int
    gq: list[int]
    time_left: int
    builds: list[int]
    night_origin: int
    night_most: int
    night_idx: int
    night_disc: list[int]
    turns: int


def _codes(game: Any) -> tuple[list[str], dict[str, int], dict[str, tuple[int, int]]]:
    """Per type its code; code → type; placed code → (type, half)."""
    kc = game.kind_codes
    type_code = [kc[a] + kc[b] for a, b in game.types]
    by_type = {code: t for t, code in enumerate(type_code)}
    placed: dict[str, tuple[int, int]] = {}
    for t, (a, b) in enumerate(game.types):
        placed[kc[a] + kc[b]] = (t, 0)
        placed[kc[b] + kc[a]] = (t, 1)
    return type_code, by_type, placed


def _mask_nums(mask: int) -> str:
    """Action numbers of a bit mask of action indices."""
    nums = [str(a + 1) for a in range(mask.bit_length()) if mask >> a & 1]
    return ".".join(nums) or "-"


def write(pos: Position, game: Any) -> str:
    """The one-line notation of ``pos`` for ``game`` (an :class:`UndecimGame`)."""
    type_code, _, _ = _codes(game)
    kc = game.kind_codes
    types = game.types

    def run(ts: list[int]) -> str:
        return "".join(type_code[t] for t in ts) or "-"

    def placed(cards: list[tuple[int, int]]) -> str:
        return "".join(kc[types[t][h]] + kc[types[t][1 - h]] for t, h in cards) or "-"

    def story_entry(j: int) -> str:
        sid = game.scenarios[pos.story[j]].id
        rnd, seq, mask = pos.ach[j]
        if rnd < 0:
            return sid
        seats = ".".join(str(p) for p in range(pos.num_players) if mask >> p & 1)
        return f"{sid}@{rnd + 1}#{seq}:{seats}"

    night = "-"
    if pos.night_origin >= 0:
        night = ".".join(["m" if pos.night_origin == 0 else "a", str(pos.night_most),
                          str(pos.night_idx), *map(str, pos.night_disc)])
    parts = [
        HEADER,
        f"p={pos.num_players}",
        f"s={pos.season + 1}",
        f"r={pos.rnd + 1}",
        f"ph={PHASES[pos.phase]}",
        f"ctr={pos.counters}",
        f"die={pos.die}",
        "dice=" + (",".join(map(str, pos.dice)) or "-"),
        f"rs={pos.rs}",
        "deck=" + run(pos.deck),
        "disc=" + run(pos.discard),
        "hands=" + "/".join(run(h) for h in pos.hands),
        "drawn=" + "/".join(type_code[t] if t >= 0 else "-" for t in pos.drawn),
        "play=" + "/".join(placed(x) for x in pos.loose),
        "setl=" + "/".join(",".join(placed(s) for s in x) or "-" for x in pos.settlements),
        "vp=" + "/".join(".".join(map(str, v)) for v in pos.vp),
        "acts=" + "/".join(_mask_nums(m) for m in pos.ahand),
        "known=" + "/".join(_mask_nums(m) for m in pos.known),
        "council=" + _mask_nums(pos.council),
        "chosen=" + "/".join(str(c + 1) if c >= 0 else "-" for c in pos.chosen),
        "log=" + (",".join(".".join(str(a + 1) for a in r) for r in pos.log) or "-"),
        "story=" + (",".join(story_entry(j) for j in range(len(pos.story))) or "-"),
        "markers=" + (",".join(game.scenarios[i].id for i in pos.markers) or "-"),
        "done=" + (",".join("/".join(".".join(map(str, row)) for row in season)
                            for season in pos.season_vp) or "-"),
        f"i={pos.idx}",
        "gq=" + ("".join(GAIN_LETTERS[q] for q in pos.gq) or "-"),
        f"tl={pos.time_left}",
        "b=" + ".".join(map(str, pos.builds)),
        f"night={night}",
        f"t={pos.turns}",
    ]
    return " ".join(parts)


class _Reader:
    """Field readers sharing the error format."""

    def __init__(self, text: str) -> None:
        """Read ``text``."""
        self.text = text

    def fail(self, reason: str) -> NotationError:
        """The error for this text (for ``raise``)."""
        short = self.text if len(self.text) <= 60 else self.text[:57] + "…"
        return NotationError(f"undecim notation: {reason} (in {short!r})")

    def int_(self, key: str, text: str, lo: int = 0) -> int:
        """A decimal int ≥ ``lo`` (a leading minus allowed when ``lo`` < 0)."""
        body = text[1:] if text.startswith("-") and lo < 0 else text
        if not body.isdigit():
            raise self.fail(f"{key}: expected a number, got {text!r}")
        value = int(text)
        if value < lo:
            raise self.fail(f"{key}: expected ≥ {lo}, got {value}")
        return value

    def seats(self, key: str, text: str, n: int) -> list[str]:
        """``/``-separated per-seat parts, exactly ``n``."""
        parts = text.split("/")
        if len(parts) != n:
            raise self.fail(f"{key}: expected {n} seats, got {len(parts)}")
        return parts

    def pairs(self, key: str, text: str, table: dict[str, Any]) -> list[Any]:
        """A run of two-character codes looked up in ``table`` (``-`` for none)."""
        if text == "-":
            return []
        if len(text) % 2:
            raise self.fail(f"{key}: cards are two characters each, got {text!r}")
        out = []
        for i in range(0, len(text), 2):
            code = text[i:i + 2]
            if code not in table:
                raise self.fail(f"{key}: unknown card {code!r}")
            out.append(table[code])
        return out

    def nums(self, key: str, text: str, n_actions: int) -> int:
        """Action numbers as a bit mask of indices."""
        if text == "-":
            return 0
        mask = 0
        for part in text.split("."):
            a = self.int_(key, part, 1) - 1
            if a >= n_actions or mask >> a & 1:
                raise self.fail(f"{key}: bad action number {part}")
            mask |= 1 << a
        return mask


def read(text: str, game: Any) -> Position:
    """Parse one line into a :class:`Position` (syntax and shape; the engine checks rules)."""
    r = _Reader(text)
    words = text.split()
    if not words or words[0] != HEADER:
        raise r.fail(f"expected it to start with {HEADER!r}")
    if len(words) != len(FIELDS) + 1:
        raise r.fail(f"expected {len(FIELDS)} fields ({' '.join(FIELDS)}), got {len(words) - 1}")
    v: dict[str, str] = {}
    for word, key in zip(words[1:], FIELDS):
        name, eq, value = word.partition("=")
        if name != key or not eq:
            raise r.fail(f"expected field {key}=…, got {word[:20]!r}")
        v[key] = value
    _, by_type, placed = _codes(game)
    na = game.n_actions
    n = r.int_("p", v["p"], 1)
    if n > 16:
        raise r.fail(f"p: bad player count {n}")
    season = r.int_("s", v["s"], 1) - 1
    if season >= game.seasons:
        raise r.fail(f"s: season {season + 1} beyond the game's {game.seasons}")
    rnd = r.int_("r", v["r"], 1) - 1
    if rnd > game.rounds:
        raise r.fail(f"r: round {rnd + 1} beyond the game's {game.rounds}")
    if v["ph"] not in PHASES:
        raise r.fail(f"ph: unknown phase {v['ph']!r} (one of {', '.join(PHASES)})")
    phase = PHASES.index(v["ph"])
    if (rnd == game.rounds) != (phase in (PHASES.index("over"),
                                          PHASES.index("campaign_marker"))):
        raise r.fail(f"r: round {rnd + 1} does not fit phase {v['ph']}")
    counters = r.int_("ctr", v["ctr"])
    die = r.int_("die", v["die"])
    dice = [] if v["dice"] == "-" else [r.int_("dice", d, 1) for d in v["dice"].split(",")]
    if len(dice) != game.rounds or any(d > 6 for d in dice):
        raise r.fail(f"dice: expected {game.rounds} rolls of 1–6")
    if die and (rnd >= game.rounds or die != dice[rnd]):
        raise r.fail("die: this round's roll must be its entry of dice")
    rs = r.int_("rs", v["rs"])
    deck = r.pairs("deck", v["deck"], by_type)
    disc = r.pairs("disc", v["disc"], by_type)
    hands = [sorted(r.pairs("hands", h, by_type)) for h in r.seats("hands", v["hands"], n)]
    drawn = [-1 if d == "-" else r.pairs("drawn", d, by_type)[0] if len(d) == 2
             else _bad(r, "drawn", d) for d in r.seats("drawn", v["drawn"], n)]
    loose = [sorted(r.pairs("play", x, placed)) for x in r.seats("play", v["play"], n)]
    setl = [[] if x == "-" else [r.pairs("setl", s, placed) for s in x.split(",")]
            for x in r.seats("setl", v["setl"], n)]
    vp = []
    for part in r.seats("vp", v["vp"], n):
        values = [r.int_("vp", x) for x in part.split(".")]
        if len(values) != 5:
            raise r.fail(f"vp: expected 5 sources per seat, got {part!r}")
        vp.append(values)
    ahand = [r.nums("acts", x, na) for x in r.seats("acts", v["acts"], n)]
    known = [r.nums("known", x, na) for x in r.seats("known", v["known"], n)]
    council = r.nums("council", v["council"], na)
    chosen = [-1 if x == "-" else r.int_("chosen", x, 1) - 1
              for x in r.seats("chosen", v["chosen"], n)]
    log: list[list[int]] = []
    if v["log"] != "-":
        for part in v["log"].split(","):
            row = [r.int_("log", x, 1) - 1 for x in part.split(".")]
            if len(row) != n:
                raise r.fail(f"log: expected {n} actions per round, got {part!r}")
            log.append(row)
    story: list[int] = []
    ach: list[list[int]] = []
    seq_max = 0
    if v["story"] != "-":
        for entry in v["story"].split(","):
            sid, at, rest = entry.partition("@")
            if sid not in game.scen_index:
                raise r.fail(f"story: unknown scenario {sid!r}")
            story.append(game.scen_index[sid])
            if not at:
                ach.append([-1, 0, 0])
                continue
            head, colon, seats = rest.partition(":")
            rd, hash_, seq = head.partition("#")
            if not colon or not hash_:
                raise r.fail(f"story: expected id@round#seq:seats, got {entry!r}")
            mask = 0
            for s in seats.split("."):
                p = r.int_("story", s)
                if p >= n:
                    raise r.fail(f"story: seat {p} out of range")
                mask |= 1 << p
            k = r.int_("story", seq, 1)
            seq_max = max(seq_max, k)
            ach.append([r.int_("story", rd, 1) - 1, k, mask])
    markers = []
    if v["markers"] != "-":
        for sid in v["markers"].split(","):
            if sid not in game.scen_index:
                raise r.fail(f"markers: unknown scenario {sid!r}")
            markers.append(game.scen_index[sid])
    done = [] if v["done"] == "-" else [
        [[r.int_("done", x) for x in row.split(".")] for row in r.seats("done", season_text, n)]
        for season_text in v["done"].split(",")]
    if any(len(row) != SEASON_FIELDS for season_rows in done for row in season_rows):
        raise r.fail(f"done: each seat's season is {SEASON_FIELDS} numbers (VP by source)")
    idx = r.int_("i", v["i"])
    gq = []
    if v["gq"] != "-":
        for ch in v["gq"]:
            if ch not in GAIN_LETTERS:
                raise r.fail(f"gq: unknown gain letter {ch!r}")
            gq.append(GAIN_LETTERS.index(ch))
    time_left = r.int_("tl", v["tl"])
    builds = [r.int_("b", x) for x in v["b"].split(".")]
    if len(builds) != 3:
        raise r.fail("b: expected settles.develops.auto")
    origin, most, nidx, ndisc = -1, -1, 0, [0] * n
    if v["night"] != "-":
        parts = v["night"].split(".")
        if len(parts) != 3 + n or parts[0] not in ("m", "a"):
            raise r.fail("night: expected m|a.most.index.discards by seat")
        origin = 0 if parts[0] == "m" else 1
        most = r.int_("night", parts[1])
        nidx = r.int_("night", parts[2])
        ndisc = [r.int_("night", x) for x in parts[3:]]
    turns = r.int_("t", v["t"])
    return Position(n, season, rnd, phase, counters, die, dice, rs, deck, disc, hands, drawn,
                    loose, setl, vp, ahand, known, council, chosen, log, story, ach, seq_max,
                    markers, done, idx, gq, time_left, builds, origin, most, nidx, ndisc, turns)


def _bad(r: _Reader, key: str, text: str) -> int:
    """Raise the error for a bad single card."""
    raise r.fail(f"{key}: expected one card or '-', got {text!r}")
