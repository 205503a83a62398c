"""Count rules: the rulebook's promised numbers checked against the tables."""

from __future__ import annotations

import itertools
from collections import Counter
from pathlib import Path
from typing import Any, Iterable

from pnp.data.manifest import Component, CountRule
from pnp.data.tables import Problem, Row


def _matches(row: Row, rule: CountRule) -> bool:
    return all(row.values.get(col) in allowed for col, allowed in rule.where.items())


def _cards(n: int) -> str:
    return f"{n} card" if n == 1 else f"{n} cards"


def _describe(rule: CountRule) -> str:
    parts = []
    if rule.where:
        parts.append(" and ".join(f"{c} in {'/'.join(map(str, v))}" if len(v) > 1
                                  else f"{c}={v[0]}" for c, v in rule.where.items()))
    return f"rule {rule.index}" + (f" ({parts[0]})" if parts else "")


def check_rule(component: Component, rule: CountRule, rows: Iterable[Row],
               table_path: Path) -> list[Problem]:
    """Problems with ``rule`` over ``rows`` (one per group whose count is off)."""
    matching = [row for row in rows if _matches(row, rule)]
    label = f"count {_describe(rule)} of manifest components.{component.id}"
    if not rule.group_by:
        total = sum(r.qty for r in matching)
        expected = rule.count
        assert isinstance(expected, int)  # a mapping count needs group_by (manifest check)
        return ([] if total == expected else
                [Problem(table_path, None, f"{label}: expected {_cards(expected)}, "
                         f"found {total}")])
    totals: Counter[tuple[Any, ...]] = Counter()
    for row in matching:
        totals[tuple(row.values.get(c) for c in rule.group_by)] += row.qty
    if isinstance(rule.count, dict):
        groups = [(key,) for key in rule.count]
        expect = {(key,): value for key, value in rule.count.items()}
        # A count table may name int groups as strings ("2" = 2): compare as text.
        totals = Counter({tuple(str(v) for v in k): n for k, n in totals.items()})
    else:
        domains = []
        for col in rule.group_by:
            allowed = rule.where.get(col)
            domain = component.columns[col].domain() or ()
            domains.append([v for v in domain if allowed is None or v in allowed])
        groups = list(itertools.product(*domains))
        expect = {g: rule.count for g in groups}
    problems = []
    for group in groups:
        found = totals.get(group, 0)
        if found != expect[group]:
            name = ", ".join(f"{c}={v}" for c, v in zip(rule.group_by, group))
            problems.append(Problem(table_path, None, f"{label}: {name}: expected "
                                    f"{_cards(expect[group])}, found {found}"))
    return problems
