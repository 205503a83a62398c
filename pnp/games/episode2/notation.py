"""One-line position notation of 第2話 (writer and reader).

Grammar (fields separated by single spaces; the writer emits every field in
this order, the reader accepts them in any order and fills the optional ones
marked * with the defaults shown)::

    episode2 <phase> hp=<hp>/<max> hand=<cards> deck=<cards> pool=<cards>
        discard=<cards> boss=<boss> enemies=<bosses> spoils=<bosses>
        roll=<dice>* attack=<card>* rerolls=<n>* window=<0|1>* last=<result>*
        end=<cause>* turns=<n>* rng=<token>:<draws>* dice=<dice>* events=<counts>*

    phase    mulligan | main | pre_roll | damage | over
    cards    comma-separated player cards (♠7, ♥A, ♦3, ♣10; ASCII S7, HA, D3,
             C10 are read too) or - for none. ``deck`` lists the top card
             first; ``pool``, ``discard`` and ``spoils`` the oldest first;
             ``hand`` is written in card-id order.
    bosses   comma-separated bosses (♠J, ♥Q, ♦K …) or -; ``enemies`` lists
             the next boss first. ``boss`` is the face-up boss (- after the
             true end).
    dice     comma-separated die faces 1–6 or -. ``roll`` is the pending
             attack roll (damage phase), positions 1, 2, 3 in order.
             ``dice`` is a queue of FIXED results the engine uses for its
             next dice, first listed first, before drawing from the
             generator: scripted tests fix the dice with it (default -).
    attack   the attack card of the roll in progress (- outside a fight).
    rerolls  ♦ rerolls already used on this roll (default 0).
    window   1 when the current main phase is inside a draw window (discards
             allowed, 2-2-6), 0 at the opening hand (default 1).
    last     result of the last finished attack: none | defeat | fail
             (default none); it decides how a run that runs dry ends (E6).
    end      why the game ended (- while it runs): all_bosses | retreat |
             run_end_won | hp_zero | run_end_lost (default -).
    turns    attacks declared so far (default 0).
    rng      the dice generator: ``random.Random(token)`` after ``draws``
             calls of ``random()`` (one per die; default 0:0).
    events   rule-event counters ``name:n`` joined by commas, or -
             (default -): history carried so stats read the same.

Example (a fresh main phase with the dice fixed to 3, 4, 2)::

    episode2 main hp=20/20 hand=♠7,♥3,♦2 deck=♣5,… pool=- discard=- boss=♦Q
        enemies=♠K,… spoils=- dice=3,4,2
"""

from __future__ import annotations

from typing import Mapping, NamedTuple, Sequence

from pnp.games.api import NotationError
from pnp.games.episode2.codec import SUIT_ALIASES
from pnp.games.episode2.scoring import CAUSE_NAMES, LAST_NAMES

TAG = "episode2"
REQUIRED = ("hp", "hand", "deck", "pool", "discard", "boss", "enemies", "spoils")
OPTIONAL = ("roll", "attack", "rerolls", "window", "last", "end", "turns", "rng", "dice",
            "events")


class Position(NamedTuple):
    """Every field of a position, as card ids and ints (lists top/oldest first)."""

    phase: str
    hp: int
    max_hp: int
    hand: list[int]
    deck: list[int]
    pool: list[int]
    discard: list[int]
    boss: int
    enemies: list[int]
    spoils: list[int]
    roll: list[int]
    attack: int
    rerolls: int
    window: bool
    last: int
    cause: int
    turns: int
    token: int
    draws: int
    dice: list[int]
    events: dict[str, int]


def _cards(ids: Sequence[int], names: Sequence[str]) -> str:
    """Comma-joined names of ``ids``, or ``-``."""
    return ",".join([names[c] for c in ids]) if ids else "-"


def _ints(values: Sequence[int]) -> str:
    """Comma-joined ints, or ``-``."""
    return ",".join(map(str, values)) if values else "-"


def write(pos: Position, names: Sequence[str], event_names: Sequence[str]) -> str:
    """The one-line text of ``pos``; ``names`` names every card id (players and bosses)."""
    events = ",".join(f"{name}:{pos.events[name]}" for name in event_names
                      if pos.events.get(name))
    return " ".join((
        TAG, pos.phase,
        f"hp={pos.hp}/{pos.max_hp}",
        f"hand={_cards(pos.hand, names)}",
        f"deck={_cards(pos.deck, names)}",
        f"pool={_cards(pos.pool, names)}",
        f"discard={_cards(pos.discard, names)}",
        f"boss={names[pos.boss] if pos.boss >= 0 else '-'}",
        f"enemies={_cards(pos.enemies, names)}",
        f"spoils={_cards(pos.spoils, names)}",
        f"roll={_ints(pos.roll)}",
        f"attack={names[pos.attack] if pos.attack >= 0 else '-'}",
        f"rerolls={pos.rerolls}",
        f"window={int(pos.window)}",
        f"last={LAST_NAMES[pos.last]}",
        f"end={CAUSE_NAMES[pos.cause]}",
        f"turns={pos.turns}",
        f"rng={pos.token}:{pos.draws}",
        f"dice={_ints(pos.dice)}",
        f"events={events or '-'}",
    ))


def _int(text: str, key: str, low: int = 0) -> int:
    """A non-negative (≥ ``low``) decimal int, or NotationError naming ``key``."""
    if not text.isdigit() or int(text) < low:
        raise NotationError(f"{key}={text!r}: expected an integer ≥ {low}")
    return int(text)


def _read_dice(text: str, key: str) -> list[int]:
    """Die faces 1–6, or NotationError."""
    if text == "-":
        return []
    faces = []
    for part in text.split(","):
        if part not in ("1", "2", "3", "4", "5", "6"):
            raise NotationError(f"{key}: bad die face {part!r} (expected 1–6)")
        faces.append(int(part))
    return faces


def _name_index(names: Mapping[str, int], name: str, key: str) -> int:
    """Card id of ``name`` (ASCII suit letters accepted), or NotationError."""
    if name in names:
        return names[name]
    alias = SUIT_ALIASES.get(name[:1])
    if alias is not None and alias + name[1:] in names:
        return names[alias + name[1:]]
    raise NotationError(f"{key}: unknown card {name!r}")


def _read_cards(text: str, names: Mapping[str, int], key: str) -> list[int]:
    """Card ids of a comma list (or ``-``)."""
    if text == "-":
        return []
    return [_name_index(names, part, key) for part in text.split(",")]


def read(text: str, players: Mapping[str, int], bosses: Mapping[str, int],
         phases: Sequence[str], event_names: Sequence[str]) -> Position:
    """Parse one line of notation; card names are looked up in ``players``/``bosses``.

    Checks the syntax only; the engine checks that the position is consistent.
    """
    words = text.split()
    if len(words) < 2 or words[0] != TAG:
        raise NotationError(f"notation must start with '{TAG} <phase>': {text[:40]!r}")
    phase = words[1]
    if phase not in phases:
        raise NotationError(f"unknown phase {phase!r} (expected one of {', '.join(phases)})")
    fields: dict[str, str] = {}
    for word in words[2:]:
        key, eq, value = word.partition("=")
        if not eq or not value:
            raise NotationError(f"expected key=value, found {word!r}")
        if key not in REQUIRED and key not in OPTIONAL:
            raise NotationError(f"unknown field {key!r}")
        if key in fields:
            raise NotationError(f"field {key!r} given twice")
        fields[key] = value
    missing = [k for k in REQUIRED if k not in fields]
    if missing:
        raise NotationError(f"missing field(s): {', '.join(missing)}")
    hp_text, slash, max_text = fields["hp"].partition("/")
    if not slash:
        raise NotationError(f"hp={fields['hp']!r}: expected <hp>/<max>")
    hp, max_hp = _int(hp_text, "hp"), _int(max_text, "hp", 1)
    boss_text = fields["boss"]
    boss = -1 if boss_text == "-" else _name_index(bosses, boss_text, "boss")
    attack_text = fields.get("attack", "-")
    attack = -1 if attack_text == "-" else _name_index(players, attack_text, "attack")
    window = fields.get("window", "1")
    if window not in ("0", "1"):
        raise NotationError(f"window={window!r}: expected 0 or 1")
    last_text = fields.get("last", "none")
    if last_text not in LAST_NAMES:
        raise NotationError(f"last={last_text!r}: expected one of {', '.join(LAST_NAMES)}")
    end_text = fields.get("end", "-")
    if end_text not in CAUSE_NAMES:
        raise NotationError(f"end={end_text!r}: expected one of {', '.join(CAUSE_NAMES)}")
    token_text, colon, draws_text = fields.get("rng", "0:0").partition(":")
    if not colon:
        raise NotationError(f"rng={fields['rng']!r}: expected <token>:<draws>")
    events: dict[str, int] = {}
    if fields.get("events", "-") != "-":
        for part in fields["events"].split(","):
            name, colon2, count = part.partition(":")
            if not colon2 or name not in event_names:
                raise NotationError(f"events: bad counter {part!r}")
            if name in events:
                raise NotationError(f"events: {name!r} given twice")
            events[name] = _int(count, f"events {name}")
    return Position(
        phase=phase, hp=hp, max_hp=max_hp,
        hand=_read_cards(fields["hand"], players, "hand"),
        deck=_read_cards(fields["deck"], players, "deck"),
        pool=_read_cards(fields["pool"], players, "pool"),
        discard=_read_cards(fields["discard"], players, "discard"),
        boss=boss,
        enemies=_read_cards(fields["enemies"], bosses, "enemies"),
        spoils=_read_cards(fields["spoils"], bosses, "spoils"),
        roll=_read_dice(fields.get("roll", "-"), "roll"),
        attack=attack,
        rerolls=_int(fields.get("rerolls", "0"), "rerolls"),
        window=window == "1",
        last=LAST_NAMES.index(last_text),
        cause=CAUSE_NAMES.index(end_text),
        turns=_int(fields.get("turns", "0"), "turns"),
        token=_int(token_text, "rng"),
        draws=_int(draws_text, "rng"),
        dice=_read_dice(fields.get("dice", "-"), "dice"),
        events=events,
    )
