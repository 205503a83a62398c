"""Confidence intervals and tests used by every report (no third-party maths)."""

from __future__ import annotations

import math

#: z for a two-sided 95% interval.
Z95 = 1.959963984540054


def wilson_interval(share: float, n: int, z: float = Z95) -> tuple[float, float]:
    """95% Wilson score interval for a proportion ``share`` observed over ``n`` trials.

    ``share`` may be fractional-credit based (split ties); treating it as a
    binomial proportion is then slightly conservative.
    """
    if n <= 0:
        return 0.0, 1.0
    z2 = z * z
    denom = 1.0 + z2 / n
    centre = (share + z2 / (2 * n)) / denom
    half = z / denom * math.sqrt(max(share * (1 - share), 0.0) / n + z2 / (4 * n * n))
    return max(0.0, centre - half), min(1.0, centre + half)


def mean_interval(total: float, total_sq: float, n: int,
                  z: float = Z95) -> tuple[float, float, float, float]:
    """``(mean, sd, low, high)`` from a sum and a sum of squares over ``n`` values.

    Normal-approximation interval mean ± z·sd/√n; with n < 2 the interval is
    the mean itself and sd is 0.
    """
    if n <= 0:
        return 0.0, 0.0, 0.0, 0.0
    mean = total / n
    if n < 2:
        return mean, 0.0, mean, mean
    var = max(0.0, (total_sq - total * total / n) / (n - 1))
    sd = math.sqrt(var)
    half = z * sd / math.sqrt(n)
    return mean, sd, mean - half, mean + half


def paired_interval(diff_total: float, diff_sq: float, n: int,
                    z: float = Z95) -> tuple[float, float, float]:
    """``(mean difference, low, high)`` of paired differences (same seeds per pair)."""
    mean, _sd, low, high = mean_interval(diff_total, diff_sq, n, z)
    return mean, low, high


def _gamma_q(a: float, x: float) -> float:
    """Regularised upper incomplete gamma Q(a, x) (series / continued fraction)."""
    if x <= 0:
        return 1.0
    gln = math.lgamma(a)
    if x < a + 1:
        term = total = 1.0 / a
        ap = a
        for _ in range(1000):
            ap += 1
            term *= x / ap
            total += term
            if abs(term) < abs(total) * 1e-15:
                break
        return max(0.0, 1.0 - total * math.exp(-x + a * math.log(x) - gln))
    tiny = 1e-300
    b = x + 1 - a
    c = 1 / tiny
    d = 1 / b
    h = d
    for i in range(1, 1000):
        an = -i * (i - a)
        b += 2
        d = an * d + b
        d = tiny if abs(d) < tiny else d
        c = b + an / c
        c = tiny if abs(c) < tiny else c
        d = 1 / d
        delta = d * c
        h *= delta
        if abs(delta - 1) < 1e-15:
            break
    return min(1.0, math.exp(-x + a * math.log(x) - gln) * h)


def chi_square_uniform(counts: list[float]) -> tuple[float, int, float]:
    """Chi-square goodness-of-fit of ``counts`` against equal expected counts.

    Returns ``(statistic, degrees of freedom, p-value)``; fractional counts
    (shared wins split) are allowed.
    """
    k = len(counts)
    total = sum(counts)
    if k < 2 or total <= 0:
        return 0.0, max(0, k - 1), 1.0
    expected = total / k
    stat = sum((c - expected) ** 2 / expected for c in counts)
    df = k - 1
    return stat, df, _gamma_q(df / 2.0, stat / 2.0)
