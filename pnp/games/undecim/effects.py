"""Undecim's effect vocabulary: the card data read into plain specs, and its checker.

The designed cards (ruling U1) are data. An action card is a row of
``actions.csv`` whose effect columns say how many cards of each kind it gains
from the hand, how many time counters it removes, how many settles and
develops it adds to the auto action, which of those quantities the Red Moon
die raises and how (U1b), and which one gold may raise (U1d). A scenario card
is a row of ``scenarios.csv``: a condition with a threshold, a bonus, and a
lasting effect while it lies in the Story (U1h). The resource cards are rows
of ``resources.csv`` with a top half (a land or the enemy) and a bottom half
(a material or gold).

The vocabulary (docs/data-format.md, "Undecim effects"):

* **quantities** (columns of ``actions.csv`` and the values of
  ``die_scaling``, ``gold_boost`` and a scenario's ``effect_target``):
  ``gain_resource``, ``gain_land``, ``gain_gold``, ``gain_enemy``,
  ``gain_any``, ``time``, ``settle``, ``develop``, ``vp``;
* **die bonuses**: ``none``, ``half`` (+⌈die/2⌉), ``high`` (+1 on 4–6),
  ``low`` (+1 on 1–3), ``die`` (+die);
* **conditions**: ``settlements``, ``settlement_size``, ``settled_resources``,
  ``mixed_size``, ``lands``, ``land_types_each``, ``land_one_type``,
  ``gold``, ``enemies``, ``red_moon_discard``;
* **lasting effects**: ``none``, ``action_bonus``, ``enemy_limit``,
  ``enemy_vp``, ``counters``, ``land_vp``, ``gold_vp``, ``hand_size``.

:func:`check_effects` turns every way a row can ask for something the engine
cannot do (a word it does not know, a missing or stray argument, a number out
of reach) into one line naming the file, line, card and column, for
``pnp check``; the engine refuses to build from data with such a problem.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Mapping, Sequence

if TYPE_CHECKING:
    from pnp.data.inventory import GameData

#: Names of the two halves with a fixed meaning (every other top half is a
#: land, every other bottom half a material; rulebook ◇リソースカード).
ENEMY = "敵"
GOLD = "金"

#: Action quantities, in the order the engine resolves gains (ruling U1a):
#: named kinds first, then any, then time, then the extra builds; ``vp`` is an
#: immediate VP gain (our extension of the vocabulary, docs/data-format.md).
QUANTITIES = ("gain_resource", "gain_land", "gain_gold", "gain_enemy", "gain_any",
              "time", "settle", "develop", "vp")
(Q_RES, Q_LAND, Q_GOLD, Q_ENEMY, Q_ANY, Q_TIME, Q_SETTLE, Q_DEVELOP, Q_VP) = range(len(QUANTITIES))
#: The gain quantities (kinds a gained card may show).
GAIN_QUANTITIES = QUANTITIES[:5]

#: Die bonuses (ruling U1b) as the amount added for die faces 1–6.
DIE_BONUSES: Mapping[str, tuple[int, ...]] = {
    "none": (0, 0, 0, 0, 0, 0),
    "half": (1, 1, 2, 2, 3, 3),
    "high": (0, 0, 0, 1, 1, 1),
    "low": (1, 1, 1, 0, 0, 0),
    "die": (1, 2, 3, 4, 5, 6),
}

CONDITIONS = ("settlements", "settlement_size", "settled_resources", "lands",
              "land_types_each", "land_one_type", "gold", "enemies", "red_moon_discard",
              "mixed_size")
(C_SETTLEMENTS, C_SIZE, C_SETTLED_RES, C_LANDS, C_LAND_EACH, C_LAND_ONE, C_GOLD, C_ENEMIES,
 C_NIGHT_DISCARD, C_MIXED_SIZE) = range(len(CONDITIONS))

EFFECTS = ("none", "action_bonus", "enemy_limit", "enemy_vp", "counters", "land_vp",
           "gold_vp", "hand_size")
(E_NONE, E_ACTION_BONUS, E_ENEMY_LIMIT, E_ENEMY_VP, E_COUNTERS, E_LAND_VP, E_GOLD_VP,
 E_HAND_SIZE) = range(len(EFFECTS))

#: Columns of each table that describe the card rather than its effect.
_ACTION_META = {"id", "number", "name", "name_en", "text", "text_en", "provisional", "qty"}
_ACTION_EFFECT = set(QUANTITIES) | {"die_scaling", "die_bonus", "gold_boost", "gold_boost_max"}
_SCENARIO_META = {"id", "season", "name", "name_en", "text", "text_en", "provisional", "qty",
                  "unlocks_1", "unlocks_2"}
_SCENARIO_EFFECT = {"condition", "threshold", "bonus_vp", "effect", "effect_action",
                    "effect_target", "effect_value"}
_RESOURCE_COLUMNS = {"id", "kind", "top", "bottom", "qty"}

#: Manifest constants the engine reads, with their expected shape.
CONSTANTS: Mapping[str, str] = {
    "rounds": "int ≥ 1",
    "resource_hand": "int ≥ 1",
    "action_hand": "int ≥ 1",
    "round_start_gain": "int 0 or 1",
    "time_counters": "int ≥ 1",
    "red_moon_enemy_vp": "int ≥ 0",
    "land_kind_vp": "int ≥ 0",
    "land_full_set_min": "int ≥ 1",
    "land_full_set_vp": "int ≥ 0",
    "land_card_vp": "int ≥ 0",
    "settlement_vp": "list of ≥ 3 ints ≥ 0",
    "scenario_shared_divisor": "int ≥ 1",
    "campaign_start_vp_season2": "list of ints ≥ 0",
    "campaign_start_vp_season3": "list of ints ≥ 0",
    "die_sides": "int = 6",
}

#: Most materials the action encoding can name in a settlement (codec).
MAX_MATERIALS = 8
#: Most distinct resource cards (rows) the action encoding can name.
MAX_TYPES = 64
#: Most action cards the encoding can name.
MAX_ACTIONS = 16


@dataclass(frozen=True)
class ActionSpec:
    """One action card's effect, as the engine applies it."""

    id: str
    number: int
    name: str
    name_en: str
    #: Fixed amount of each quantity (index = Q_*).
    amounts: tuple[int, ...]
    #: Quantity the die raises (Q_*), or -1.
    die_target: int
    #: Amount added for die faces 1–6 (all 0 without die scaling).
    die_add: tuple[int, ...]
    #: Quantity each discarded gold raises (Q_*), or -1; and the most gold.
    boost_target: int
    boost_max: int


@dataclass(frozen=True)
class ScenarioSpec:
    """One scenario card: its goal, bonus, campaign links and lasting effect."""

    id: str
    season: int
    name: str
    name_en: str
    condition: int
    threshold: int
    bonus: int
    unlocks: tuple[str, ...]
    effect: int
    #: action_bonus: index of the action (number − 1) and quantity raised.
    effect_action: int
    effect_target: int
    effect_value: int


@dataclass(frozen=True)
class ResourceKinds:
    """The halves of the resource cards: lands, the enemy, materials, gold.

    Kind indices: lands ``0 … L−1``, the enemy ``L``, materials
    ``L+1 … L+M``, gold ``L+M+1``.
    """

    lands: tuple[str, ...]
    materials: tuple[str, ...]

    @property
    def enemy(self) -> int:
        """Kind index of the enemy half."""
        return len(self.lands)

    @property
    def gold(self) -> int:
        """Kind index of the gold half."""
        return len(self.lands) + len(self.materials) + 1

    @property
    def names(self) -> tuple[str, ...]:
        """Name of every kind, by kind index."""
        return (*self.lands, ENEMY, *self.materials, GOLD)

    def material(self, m: int) -> int:
        """Kind index of material ``m``."""
        return len(self.lands) + 1 + m

    def category(self, kind: int) -> int:
        """The gain quantity (Q_LAND, Q_ENEMY, Q_RES, Q_GOLD) a half of ``kind`` satisfies."""
        if kind < self.enemy:
            return Q_LAND
        if kind == self.enemy:
            return Q_ENEMY
        if kind < self.gold:
            return Q_RES
        return Q_GOLD


# --------------------------------------------------------------------------
# Reading (the engine) and checking (pnp check)
# --------------------------------------------------------------------------

class _Collector:
    """Problem lines with the file and line of the row they are about."""

    def __init__(self, data: "GameData") -> None:
        """Collect problems about ``data``."""
        self.data = data
        self.lines: list[str] = []

    def path(self, component: str) -> str:
        """The table's path as written in problem lines."""
        comp = self.data.manifest.components.get(component)
        if comp is None or comp.table is None:
            return str(self.data.manifest.path)
        return str(self.data.manifest.game_dir / comp.table)

    def add(self, component: str, line: int | None, card: str, column: str, reason: str) -> None:
        """One problem: ``<file>:<line>: <card> column <column>: <reason>``."""
        where = self.path(component) + (f":{line}" if line is not None else "")
        subject = f"{card} column {column}" if card else f"column {column}"
        self.lines.append(f"{where}: {subject}: {reason}")

    def constant(self, name: str, reason: str) -> None:
        """A problem with a manifest constant."""
        self.lines.append(f"{self.data.manifest.path}: [game.constants] {name}: {reason}")


def _int(value: Any) -> int:
    """``value`` as an int (None → 0), for optional int columns."""
    return 0 if value is None else int(value)


def resource_kinds(data: "GameData", out: _Collector | None = None) -> ResourceKinds:
    """The lands and materials of the data, in the manifest's enum order."""
    comp = data.manifest.components.get("resources")
    lands: list[str] = []
    materials: list[str] = []
    if comp is not None:
        top = comp.columns.get("top")
        bottom = comp.columns.get("bottom")
        rows = [r.values for r in data.rows.get("resources", [])]
        top_values = (top.values if top is not None and top.values else
                      tuple(dict.fromkeys(str(r["top"]) for r in rows)))
        bottom_values = (bottom.values if bottom is not None and bottom.values else
                         tuple(dict.fromkeys(str(r["bottom"]) for r in rows)))
        lands = [v for v in top_values if v not in (ENEMY, GOLD)]
        materials = [v for v in bottom_values if v not in (ENEMY, GOLD)]
        clash = set(lands) & set(materials)
        if out is not None and clash:
            out.add("resources", None, "", "top/bottom",
                    f"{', '.join(sorted(clash))} is both a land (top) and a material (bottom)")
    return ResourceKinds(tuple(lands), tuple(materials))


def _read_actions(data: "GameData", out: _Collector) -> list[ActionSpec]:
    """Action specs from ``actions.csv`` (problems go to ``out``)."""
    specs: list[ActionSpec] = []
    comp = data.manifest.components.get("actions")
    if comp is None:
        out.add("actions", None, "", "-", "the manifest has no component 'actions'")
        return specs
    for name in comp.columns:
        if name not in _ACTION_META and name not in _ACTION_EFFECT:
            out.add("actions", 1, "", name, "not an effect the undecim engine knows "
                    f"(effect columns: {', '.join(sorted(_ACTION_EFFECT))})")
    for row in data.rows.get("actions", []):
        v = row.values
        cid = row.id
        line = row.line
        amounts = []
        for q in QUANTITIES:
            amount = _int(v.get(q))
            if amount < 0:
                out.add("actions", line, cid, q, f"{amount}: an amount cannot be negative")
            amounts.append(max(0, amount))
        scaling = str(v.get("die_scaling") or "none")
        bonus = str(v.get("die_bonus") or "none")
        die_target = -1
        if scaling != "none":
            if scaling not in QUANTITIES:
                out.add("actions", line, cid, "die_scaling", f"unknown quantity {scaling!r} "
                        f"(the engine knows: none, {', '.join(QUANTITIES)})")
            else:
                die_target = QUANTITIES.index(scaling)
        if bonus not in DIE_BONUSES:
            out.add("actions", line, cid, "die_bonus", f"unknown die bonus {bonus!r} "
                    f"(the engine knows: {', '.join(DIE_BONUSES)})")
            bonus = "none"
        if scaling != "none" and bonus == "none":
            out.add("actions", line, cid, "die_bonus", f"die_scaling {scaling!r} needs a "
                    f"die bonus ({', '.join(b for b in DIE_BONUSES if b != 'none')})")
        elif scaling == "none" and bonus != "none":
            out.add("actions", line, cid, "die_bonus", f"die bonus {bonus!r} needs a "
                    "die_scaling quantity to add to (or set it to none)")
        boost = str(v.get("gold_boost") or "none")
        boost_max = _int(v.get("gold_boost_max"))
        boost_target = -1
        if boost != "none":
            if boost not in QUANTITIES:
                out.add("actions", line, cid, "gold_boost", f"unknown quantity {boost!r} "
                        f"(the engine knows: none, {', '.join(QUANTITIES)})")
            else:
                boost_target = QUANTITIES.index(boost)
        if (boost == "none") != (boost_max == 0):
            out.add("actions", line, cid, "gold_boost_max",
                    f"{boost_max} with gold_boost {boost!r}: a gold boost needs a maximum ≥ 1, "
                    "and a maximum needs a gold_boost")
        number = _int(v.get("number"))
        if not any(amounts) and die_target < 0 and boost_target < 0:
            out.add("actions", line, cid, "gain_*…vp", "the card has no effect at all")
        die_add = DIE_BONUSES[bonus] if die_target >= 0 else DIE_BONUSES["none"]
        specs.append(ActionSpec(cid, number, str(v.get("name", cid)),
                                str(v.get("name_en", cid)), tuple(amounts), die_target,
                                die_add, boost_target, boost_max if boost_target >= 0 else 0))
    numbers = sorted(s.number for s in specs)
    if numbers and numbers != list(range(1, len(numbers) + 1)):
        out.add("actions", None, "", "number", "action numbers must be exactly 1 … "
                f"{len(numbers)}, each once (found {numbers})")
    if len(specs) > MAX_ACTIONS:
        out.add("actions", None, "", "number", f"{len(specs)} action cards: the engine "
                f"encodes at most {MAX_ACTIONS}")
    return sorted(specs, key=lambda s: s.number)


def _read_scenarios(data: "GameData", out: _Collector, kinds: ResourceKinds,
                    n_actions: int, n_lands: int) -> list[ScenarioSpec]:
    """Scenario specs from ``scenarios.csv`` (problems go to ``out``)."""
    specs: list[ScenarioSpec] = []
    comp = data.manifest.components.get("scenarios")
    if comp is None:
        return specs
    for name in comp.columns:
        if name not in _SCENARIO_META and name not in _SCENARIO_EFFECT:
            out.add("scenarios", 1, "", name, "not a scenario column the undecim engine "
                    f"knows (it reads: {', '.join(sorted(_SCENARIO_EFFECT))})")
    rows = data.rows.get("scenarios", [])
    ids = {r.id: r.values for r in rows}
    for row in rows:
        v = row.values
        cid = row.id
        line = row.line
        cond_name = str(v.get("condition"))
        condition = CONDITIONS.index(cond_name) if cond_name in CONDITIONS else -1
        if condition < 0:
            out.add("scenarios", line, cid, "condition", f"unknown condition {cond_name!r} "
                    f"(the engine knows: {', '.join(CONDITIONS)})")
        threshold = _int(v.get("threshold"))
        if threshold < 1:
            out.add("scenarios", line, cid, "threshold", f"{threshold}: expected ≥ 1")
        limit = {C_SETTLED_RES: len(kinds.materials),
                 C_LAND_EACH: n_lands // max(1, len(kinds.lands))}
        if condition in limit and threshold > limit[condition]:
            out.add("scenarios", line, cid, "threshold", f"{threshold} can never be met by "
                    f"{cond_name} (at most {limit[condition]})")
        bonus = _int(v.get("bonus_vp"))
        if bonus < 0:
            out.add("scenarios", line, cid, "bonus_vp", f"{bonus}: expected ≥ 0")
        season = _int(v.get("season"))
        unlocks: list[str] = []
        for column in ("unlocks_1", "unlocks_2"):
            target = v.get(column)
            if target in (None, ""):
                continue
            target = str(target)
            if target not in ids:
                out.add("scenarios", line, cid, column, f"unknown scenario id {target!r}")
            elif _int(ids[target].get("season")) != season + 1:
                out.add("scenarios", line, cid, column, f"{target} is not a season-"
                        f"{season + 1} card")
            unlocks.append(target)
        eff_name = str(v.get("effect") or "none")
        effect = EFFECTS.index(eff_name) if eff_name in EFFECTS else -1
        if effect < 0:
            out.add("scenarios", line, cid, "effect", f"unknown lasting effect {eff_name!r} "
                    f"(the engine knows: {', '.join(EFFECTS)})")
        e_action = v.get("effect_action")
        e_target = v.get("effect_target")
        e_value = v.get("effect_value")
        action_idx = -1
        target_idx = -1
        value = _int(e_value)
        if effect == E_ACTION_BONUS:
            if e_action is None:
                out.add("scenarios", line, cid, "effect_action", "action_bonus needs the "
                        "number of the action it raises")
            elif not 1 <= int(e_action) <= n_actions:
                out.add("scenarios", line, cid, "effect_action", f"no action card numbered "
                        f"{e_action}")
            else:
                action_idx = int(e_action) - 1
            if e_target is None:
                out.add("scenarios", line, cid, "effect_target", "action_bonus needs the "
                        "quantity it raises")
            elif str(e_target) not in QUANTITIES:
                out.add("scenarios", line, cid, "effect_target", f"unknown quantity "
                        f"{e_target!r} (the engine knows: {', '.join(QUANTITIES)})")
            else:
                target_idx = QUANTITIES.index(str(e_target))
        else:
            if e_action is not None:
                out.add("scenarios", line, cid, "effect_action", f"effect {eff_name!r} takes "
                        "no action number (leave it empty)")
            if e_target is not None:
                out.add("scenarios", line, cid, "effect_target", f"effect {eff_name!r} takes "
                        "no quantity (leave it empty)")
        if effect == E_NONE and e_value is not None:
            out.add("scenarios", line, cid, "effect_value", "effect 'none' takes no value "
                    "(leave it empty)")
        elif effect > E_NONE and e_value is None:
            out.add("scenarios", line, cid, "effect_value", f"effect {eff_name!r} needs a value")
        elif effect > E_NONE and value < 1:
            out.add("scenarios", line, cid, "effect_value", f"{value}: expected ≥ 1")
        specs.append(ScenarioSpec(cid, season, str(v.get("name", cid)),
                                  str(v.get("name_en", cid)), max(condition, 0), threshold,
                                  bonus, tuple(unlocks), max(effect, 0), action_idx,
                                  target_idx, value))
    return specs


def _check_constants(data: "GameData", out: _Collector) -> dict[str, Any]:
    """The constants the engine reads, checked (problems go to ``out``)."""
    consts = data.manifest.constants
    good: dict[str, Any] = {}
    for name, shape in CONSTANTS.items():
        if name not in consts:
            out.constant(name, f"missing (expected {shape})")
            continue
        value = consts[name]
        if shape.startswith("list"):
            least = 3 if "≥ 3" in shape else 0
            if (not isinstance(value, list) or len(value) < least
                    or not all(isinstance(x, int) and not isinstance(x, bool) and x >= 0
                               for x in value)):
                out.constant(name, f"{value!r}: expected a {shape}")
                continue
        else:
            low = 6 if "= 6" in shape else (1 if "≥ 1" in shape else 0)
            high = 6 if "= 6" in shape else (1 if "0 or 1" in shape else None)
            if not isinstance(value, int) or isinstance(value, bool) or value < low or (
                    high is not None and value > high):
                out.constant(name, f"{value!r}: expected an {shape}")
                continue
        good[name] = value
    return good


@dataclass(frozen=True)
class UndecimData:
    """Everything the engine reads from the data, checked."""

    kinds: ResourceKinds
    #: (top kind, bottom kind) of every distinct resource card (row).
    types: tuple[tuple[int, int], ...]
    type_ids: tuple[str, ...]
    #: The type of every physical resource card (rows expanded by qty).
    card_types: tuple[int, ...]
    actions: tuple[ActionSpec, ...]
    scenarios: tuple[ScenarioSpec, ...]
    constants: Mapping[str, Any]


def read_data(data: "GameData") -> tuple[UndecimData, list[str]]:
    """The engine's view of ``data`` and every problem found (one line each)."""
    out = _Collector(data)
    kinds = resource_kinds(data, out)
    comp = data.manifest.components.get("resources")
    if comp is not None:
        for name in comp.columns:
            if name not in _RESOURCE_COLUMNS:
                out.add("resources", 1, "", name, "not a resource column the undecim engine "
                        f"knows (it reads: {', '.join(sorted(_RESOURCE_COLUMNS))})")
    names = kinds.names
    types: list[tuple[int, int]] = []
    type_ids: list[str] = []
    card_types: list[int] = []
    for row in data.rows.get("resources", []):
        top, bottom = str(row.values["top"]), str(row.values["bottom"])
        if top in kinds.materials or top == GOLD:
            out.add("resources", row.line, row.id, "top", f"{top!r} is a bottom half "
                    "(material or gold); a top half is a land or the enemy")
        if bottom in kinds.lands or bottom == ENEMY:
            out.add("resources", row.line, row.id, "bottom", f"{bottom!r} is a top half "
                    "(land or enemy); a bottom half is a material or gold")
        if top not in names or bottom not in names:
            continue
        t = len(types)
        types.append((names.index(top), names.index(bottom)))
        type_ids.append(row.id)
        card_types.extend([t] * row.qty)
    if len(types) > MAX_TYPES:
        out.add("resources", None, "", "id", f"{len(types)} distinct resource cards: the "
                f"engine encodes at most {MAX_TYPES}")
    if len(kinds.materials) > MAX_MATERIALS:
        out.add("resources", None, "", "bottom", f"{len(kinds.materials)} materials: the "
                f"engine encodes at most {MAX_MATERIALS}")
    actions = _read_actions(data, out)
    n_lands = sum(1 for t in card_types if types[t][0] < kinds.enemy)
    scenarios = _read_scenarios(data, out, kinds, len(actions), n_lands)
    constants = _check_constants(data, out)
    return (UndecimData(kinds, tuple(types), tuple(type_ids), tuple(card_types),
                        tuple(actions), tuple(scenarios), constants), out.lines)


def check_effects(data: "GameData") -> list[str]:
    """Every problem with the effects of Undecim's data, one line each, for ``pnp check``.

    Each line names the table (with the line of the card), the card id and
    the column: an unknown word (quantity, die bonus, condition, lasting
    effect), a missing or stray argument, a number the engine cannot apply,
    or a column the engine does not read. Data that loads with problems of
    its own (bad types, counts) is checked as far as its rows allow.
    """
    return read_data(data)[1]


def quantity_names() -> Sequence[str]:
    """The quantity words of the vocabulary (for documentation and tests)."""
    return QUANTITIES
