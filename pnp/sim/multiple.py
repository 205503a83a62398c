"""Many figures tested together: p-values and Holm's step-down correction.

A report that tests 30 cards, 4 seats or 10 outcomes of a rule change at
95 % each will call something "clear" by chance in most runs: with 30
independent tests at 5 % the chance of at least one false flag is 79 %. A
finding sentence or a flag chosen from such a family is therefore decided
by Holm's step-down procedure (S. Holm, "A simple sequentially rejective
multiple test procedure", Scandinavian Journal of Statistics 6 (1979)
65–70): the family-wise error rate — the chance that *any* flag of the
family is false — stays at most :data:`FAMILY_ALPHA`, whatever the
dependence between the tests. That last point is why Holm and not
Benjamini–Hochberg: keys of one card table share games (and a key is part
of its own group average), seats of one game share its single win, and
Benjamini–Hochberg's false-discovery guarantee needs a positive dependence
between tests that nobody has shown here. With one test in the family Holm
is the plain 95 % test, so a lone figure reads as before.

The intervals printed beside the figures stay per-figure 95 %; only what a
flag or a sentence claims is corrected.

Each test is given as a two-sided p-value that matches the interval the
report prints: a Student t p-value for a t interval
(:func:`t_p_value`), the score-test p-value for a Wilson interval
(:func:`wilson_p_value`); the interval at 95 % excludes the tested value
exactly when its p-value is below 0.05.
"""

from __future__ import annotations

import math
from typing import Sequence

from pnp.intervals import _t_abs_cdf  # the exact |T| distribution t_quantile inverts

#: The family-wise error rate every corrected family is held to.
FAMILY_ALPHA = 0.05
#: Up to this many degrees of freedom the t tail is the exact finite sum
#: (as :func:`pnp.intervals.t_quantile` uses); above, a normal approximation.
_EXACT_DF = 1000
#: The name the reports and the JSON give the correction.
METHOD = "Holm step-down, family-wise error 5 %"


def t_p_value(t: float, df: int) -> float:
    """Two-sided P(|T| ≥ |t|) for Student's t on ``df`` ≥ 1 degrees of freedom.

    Exact (Abramowitz & Stegun 26.7.3/4, the sums behind the reports' t
    quantiles) up to 1000 degrees of freedom; above, the normal tail of
    A&S 26.7.8's transform z = t(1 − 1/(4 df)) / √(1 + t²/(2 df)), whose
    error there is far below any threshold a family uses.
    """
    if df < 1:
        raise ValueError(f"t_p_value: df = {df!r}, expected ≥ 1")
    t = abs(t)
    if math.isinf(t):
        return 0.0
    if df <= _EXACT_DF:
        return min(1.0, max(0.0, 1.0 - _t_abs_cdf(t, df)))
    z = t * (1.0 - 1.0 / (4.0 * df)) / math.sqrt(1.0 + t * t / (2.0 * df))
    return math.erfc(z / math.sqrt(2.0))


def one_sided_p(t: float, df: int, upper: bool) -> float:
    """P(T ≥ t) (``upper``) or P(T ≤ t), Student t on ``df`` degrees of freedom."""
    half = t_p_value(t, df) / 2.0
    return half if (t > 0) == upper else 1.0 - half


def wilson_p_value(share: float, null: float, n: float) -> float:
    """Two-sided score-test p-value of a share against ``null`` over ``n`` trials.

    The Wilson interval is the set of values this test does not reject, so
    the 95 % Wilson interval excludes ``null`` exactly when this is < 0.05.
    1.0 when ``null`` is 0 or 1 or there are no trials (nothing to test).
    """
    if n <= 0 or not 0.0 < null < 1.0:
        return 1.0
    z = (share - null) / math.sqrt(null * (1.0 - null) / n)
    return math.erfc(abs(z) / math.sqrt(2.0))


def holm_adjusted(p_values: Sequence[float]) -> list[float]:
    """Holm-adjusted p-values, in the order given: a test holds when its value is ≤ α.

    Sorted ascending, the i-th smallest (from 0) of m gets max over j ≤ i of
    (m − j)·p₍ⱼ₎, capped at 1; ties keep their given order. Rejecting every
    test whose adjusted value is ≤ α is Holm's procedure at level α.
    """
    m = len(p_values)
    order = sorted(range(m), key=lambda i: (p_values[i], i))
    out = [1.0] * m
    running = 0.0
    for rank, i in enumerate(order):
        running = max(running, min(1.0, (m - rank) * p_values[i]))
        out[i] = running
    return out


def holm(p_values: Sequence[float], alpha: float = FAMILY_ALPHA) -> list[bool]:
    """Which tests of the family Holm's procedure rejects at family-wise level ``alpha``.

    The smallest p-value is compared with α/m, the next with α/(m − 1), and
    so on; the first that fails stops the procedure (every larger p stays).
    """
    m = len(p_values)
    order = sorted(range(m), key=lambda i: (p_values[i], i))
    out = [False] * m
    for rank, i in enumerate(order):
        if p_values[i] > alpha / (m - rank):
            break
        out[i] = True
    return out


__all__ = ["FAMILY_ALPHA", "METHOD", "holm", "holm_adjusted", "one_sided_p", "t_p_value",
           "wilson_p_value"]
