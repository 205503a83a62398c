"""Confidence intervals and tests used by every report (no third-party maths)."""

from __future__ import annotations

import math

#: z for a two-sided 95% interval.
Z95 = 1.959963984540054


def wilson_interval(share: float, n: float, z: float = Z95) -> tuple[float, float]:
    """95% Wilson score interval for a proportion ``share`` observed over ``n`` trials.

    ``share`` may be fractional-credit based (split ties); treating it as a
    binomial proportion is then slightly conservative. ``n`` may be an
    effective (fractional) sample size (:func:`ratio_share_interval`).
    """
    if n <= 0:
        return 0.0, 1.0
    z2 = z * z
    denom = 1.0 + z2 / n
    centre = (share + z2 / (2 * n)) / denom
    half = z / denom * math.sqrt(max(share * (1 - share), 0.0) / n + z2 / (4 * n * n))
    return max(0.0, centre - half), min(1.0, centre + half)


def mean_interval(total: float, total_sq: float, n: int) -> tuple[float, float, float, float]:
    """``(mean, sd, low, high)`` from a sum and a sum of squares over ``n`` values.

    The Student t 95 % interval on n − 1 degrees of freedom (:func:`t_interval`;
    the name is kept for the games' own figures that call it). It was the
    normal mean ± 1.96·sd/√n, which at 2 values is 6.5 times too narrow
    (t 12.71) and at 5 values 30 % too narrow (t 2.78). With n < 2 the
    interval is the mean itself and sd is 0.
    """
    return t_interval(total, total_sq, n)


def normal_quantile(p: float) -> float:
    """The standard normal quantile Φ⁻¹(p) for 0 < p < 1, to a few ulps for p ≥ 1e-300.

    Acklam's rational approximation (relative error below 1.2e-9 everywhere)
    as the start, then Newton steps on Φ(x) = erfc(−x/√2)/2: from that start
    two or three steps reach the root, far tails included (from 0, as this
    was, 100 steps stopped at −14.06 for p = 1e-100, whose quantile is −21.27).
    Raises ValueError if the steps do not settle (not seen for any double p).
    """
    if not 0.0 < p < 1.0:
        raise ValueError(f"normal_quantile: p = {p!r}, expected 0 < p < 1")
    x = _acklam(p)
    for _ in range(50):
        # Φ(x) − p for the lower tail; the upper tail through 1 − Φ(x) keeps
        # digits a difference of nearly-1 values would lose.
        if x <= 0:
            diff = 0.5 * math.erfc(-x / math.sqrt(2.0)) - p
        else:
            diff = (1.0 - p) - 0.5 * math.erfc(x / math.sqrt(2.0))
        pdf = math.exp(-0.5 * x * x) / math.sqrt(2.0 * math.pi)
        if pdf == 0.0:
            break
        step = diff / pdf
        x -= step
        if abs(step) <= 1e-15 * max(1.0, abs(x)):
            return x
    raise ValueError(f"normal_quantile: no convergence at p = {p!r}")


#: Acklam's coefficients (numerator a, denominator b of the central region;
#: c, d of the tails).
_ACKLAM_A = (-3.969683028665376e+01, 2.209460984245205e+02, -2.759285104469687e+02,
             1.383577518672690e+02, -3.066479806614716e+01, 2.506628277459239e+00)
_ACKLAM_B = (-5.447609879822406e+01, 1.615858368580409e+02, -1.556989798598866e+02,
             6.680131188771972e+01, -1.328068155288572e+01)
_ACKLAM_C = (-7.784894002430293e-03, -3.223964580411365e-01, -2.400758277161838e+00,
             -2.549732539343734e+00, 4.374664141464968e+00, 2.938163982698783e+00)
_ACKLAM_D = (7.784695709041462e-03, 3.224671290700398e-01, 2.445134137142996e+00,
             3.754408661907416e+00)


def _acklam(p: float) -> float:
    """Acklam's approximation of Φ⁻¹(p) (relative error < 1.2e-9), the Newton start."""
    a, b, c, d = _ACKLAM_A, _ACKLAM_B, _ACKLAM_C, _ACKLAM_D
    if 0.02425 <= p <= 1 - 0.02425:
        q = p - 0.5
        r = q * q
        return ((((((a[0] * r + a[1]) * r + a[2]) * r + a[3]) * r + a[4]) * r + a[5]) * q
                / (((((b[0] * r + b[1]) * r + b[2]) * r + b[3]) * r + b[4]) * r + 1))
    # tails: in √(−2 ln p) (or of 1 − p), which stays finite down to p = 5e-324
    q = math.sqrt(-2 * math.log(p if p < 0.5 else 1 - p))
    x = ((((((c[0] * q + c[1]) * q + c[2]) * q + c[3]) * q + c[4]) * q + c[5])
         / ((((d[0] * q + d[1]) * q + d[2]) * q + d[3]) * q + 1))
    return x if p < 0.5 else -x


#: Up to this many degrees of freedom the t quantile is solved on the exact
#: distribution function (a finite sum of df/2 terms); above, the
#: Cornish–Fisher series is exact to ~1e-13 and costs nothing.
_T_EXACT_DF = 1000


def _t_abs_cdf(t: float, df: int) -> float:
    """P(|T| ≤ t) for Student's t with a whole number ``df`` ≥ 1, t ≥ 0.

    The closed finite sums of Abramowitz & Stegun 26.7.3 (odd df) and 26.7.4
    (even df) in θ = atan(t/√df): elementary functions only, exact to
    rounding for every df (no series to truncate).
    """
    theta = math.atan(t / math.sqrt(df))
    s, c2 = math.sin(theta), math.cos(theta) ** 2
    if df % 2 == 0:
        term = total = 1.0
        for k in range(2, df, 2):
            term *= (k - 1) / k * c2
            total += term
        return s * total
    if df == 1:
        return 2.0 * theta / math.pi
    term = total = math.cos(theta)
    for k in range(3, df, 2):
        term *= (k - 1) / k * c2
        total += term
    return 2.0 / math.pi * (theta + s * total)


def _t_cornish_fisher(p: float, df: float) -> float:
    """The t quantile by the Cornish–Fisher expansion in 1/df (A&S 26.7.5, four terms)."""
    x = normal_quantile(p)
    x2 = x * x
    g1 = (x2 + 1) * x / 4
    g2 = ((5 * x2 + 16) * x2 + 3) * x / 96
    g3 = (((3 * x2 + 19) * x2 + 17) * x2 - 15) * x / 384
    g4 = ((((79 * x2 + 776) * x2 + 1482) * x2 - 1920) * x2 - 945) * x / 92160
    return x + g1 / df + g2 / df ** 2 + g3 / df ** 3 + g4 / df ** 4


def t_quantile(p: float, df: int) -> float:
    """Student's t quantile: the t with P(T ≤ t) = p, for ``df`` ≥ 1 degrees of freedom.

    df 1 and 2 have closed forms; up to :data:`_T_EXACT_DF` the exact
    distribution function is inverted (Newton from the Cornish–Fisher start,
    kept inside a bisection bracket); above it the Cornish–Fisher series
    itself is used (its error there is below 1e-13). ``t_quantile(0.975, df)``
    is the two-sided 95 % critical value (12.706 at df 1, 2.228 at df 10).
    """
    if not 0.0 < p < 1.0:
        raise ValueError(f"t_quantile: p = {p!r}, expected 0 < p < 1")
    if not isinstance(df, int) or df < 1:
        raise ValueError(f"t_quantile: df = {df!r}, expected a whole number ≥ 1")
    if p == 0.5:
        return 0.0
    sign = 1.0 if p > 0.5 else -1.0
    target = abs(2.0 * p - 1.0)  # P(|T| ≤ t) at the quantile
    q = max(p, 1.0 - p)
    if df == 1:
        return sign * math.tan(math.pi * (q - 0.5))
    if df == 2:
        return sign * (2.0 * q - 1.0) / math.sqrt(2.0 * q * (1.0 - q))
    if df > _T_EXACT_DF:
        return sign * _t_cornish_fisher(q, df)
    # density constant of |T|: 2·Γ((df+1)/2) / (√(df·π)·Γ(df/2))
    const = 2.0 * math.exp(math.lgamma((df + 1) / 2) - math.lgamma(df / 2)) / math.sqrt(
        df * math.pi)
    lo, hi = 0.0, max(1.0, 2.0 * _t_cornish_fisher(q, df))
    while _t_abs_cdf(hi, df) < target:
        hi *= 2.0
    t = min(max(_t_cornish_fisher(q, df), lo), hi)
    for _ in range(200):
        f = _t_abs_cdf(t, df) - target
        if f > 0:
            hi = t
        else:
            lo = t
        step = f / (const * (1.0 + t * t / df) ** (-(df + 1) / 2))
        nxt = t - step
        if not lo < nxt < hi:  # Newton left the bracket: bisect instead
            nxt = (lo + hi) / 2
        if abs(nxt - t) <= 1e-14 * max(1.0, t):
            t = nxt
            break
        t = nxt
    return sign * t


#: Two-sided 95 % (each tail 2.5 %).
_UPPER = 0.975


def t_interval(total: float, total_sq: float, n: int) -> tuple[float, float, float, float]:
    """``(mean, sd, low, high)``: the Student t 95 % interval of a mean from Σx, Σx² and n.

    mean ± t(0.975, n−1)·sd/√n: at small n the normal z (1.96) is too narrow
    (with 3 values the right factor is 4.30). With n < 2 the interval is the
    mean itself and sd is 0 (callers refuse or flag such runs).
    """
    if n <= 0:
        return 0.0, 0.0, 0.0, 0.0
    mean = total / n
    if n < 2:
        return mean, 0.0, mean, mean
    sd = math.sqrt(max(0.0, (total_sq - total * total / n) / (n - 1)))
    half = t_quantile(_UPPER, n - 1) * sd / math.sqrt(n)
    return mean, sd, mean - half, mean + half


def clip_to_range(low: float, high: float, floor: float | None = None,
                  ceiling: float | None = None) -> tuple[float, float]:
    """A mean's interval cut to the values the quantity can take (``floor``..``ceiling``).

    A symmetric t interval knows nothing of a count's or a score's lower
    bound: two runs of 0 and 2 spoils give (-0.18–2.18), a share can reach
    past 100 %. The part beyond a bound the quantity cannot cross holds no
    possible mean, so it is cut off; the mean itself is never moved. None
    leaves that side open (nothing known). Every report that prints a mean's
    interval clips it here, so text, JSON and chart page agree.
    """
    if floor is not None:
        low, high = max(low, floor), max(high, floor)
    if ceiling is not None:
        low, high = min(low, ceiling), min(high, ceiling)
    return low, high


def none_differ_bound(n: int) -> float:
    """The exact (Clopper–Pearson) 95 % upper limit of a rate seen 0 times in ``n`` trials.

    ``1 − 0.025^(1/n)``: 0.842 at n 2, 0.522 at n 5, 0.0362 at n 100 (the
    "rule of three", 3/n, is its large-n form).
    """
    if n <= 0:
        return 1.0
    return 1.0 - (1.0 - _UPPER) ** (1.0 / n)


def paired_interval(diff_total: float, diff_sq: float, n: int, smallest: float,
                    largest: float, *, lowest: float, highest: float
                    ) -> tuple[float, float, float, bool]:
    """``(mean difference, low, high, no_spread)`` of ``n`` paired differences.

    ``smallest`` and ``largest`` are the least and greatest difference seen.
    The Student t interval of the mean difference (:func:`t_interval`), except
    when every difference was the same value d: a t or normal interval then
    has zero width and would call the change certain from, say, three games.
    Instead the bound says what the data can: the share of games whose
    difference is *not* d is at most :func:`none_differ_bound` (``q``), and
    such a game's difference lies in ``[lowest, highest]`` (the range the
    caller takes a difference to have), so the mean lies in
    ``[d − q·(d − lowest), d + q·(highest − d)]``. ``no_spread`` says which
    was used. It is conservative: it assumes every unseen difference sits at
    the far end of the range. Both sides have width as long as ``lowest < d
    < highest`` (the caller's range must reach beyond the d it saw).

    "Every difference the same" is decided from ``smallest`` and
    ``largest``, not from the sd: Σd² − (Σd)²/n leaves a float residue
    (d = 1/3 over 10 games gives sd ≈ 3e-9, not 0), and any threshold on it
    misses some constant d. The seen values themselves differ by at most one
    rounding of ``y − x`` when every game is alike, hence the 1e-12 relative
    tolerance on their range.
    """
    if n <= 0:
        return 0.0, 0.0, 0.0, False
    mean, _sd, low, high = t_interval(diff_total, diff_sq, n)
    if largest - smallest > 1e-12 * max(1.0, abs(smallest), abs(largest)):
        return mean, low, high, False
    d = min(max(mean, smallest), largest)   # Σd/n may stray from d by a residue
    q = none_differ_bound(n)
    lowest, highest = min(lowest, d), max(highest, d)
    return d, d - q * (d - lowest), d + q * (highest - d), True


def welch_half_width(sd_a: float, sd_b: float, n: int) -> float:
    """95 % half-width of a difference of two independent means of ``n`` values each.

    Student t on the Welch–Satterthwaite degrees of freedom (rounded down,
    the conservative side): what two independent runs of ``n`` games would
    give, shown beside a paired interval to make its gain visible.
    """
    if n < 2:
        return 0.0
    va, vb = sd_a * sd_a / n, sd_b * sd_b / n
    if va + vb <= 0.0:
        return 0.0
    return _welch_half(va, vb, n, n)


def _welch_half(va: float, vb: float, n_a: int, n_b: int) -> float:
    """95 % half-width from two means' variances ``va``, ``vb`` (sd² / n) and counts.

    Student t on the Welch–Satterthwaite degrees of freedom, rounded down
    (the conservative side); ``va + vb`` must be positive, both counts ≥ 2.
    """
    df = (va + vb) ** 2 / (va * va / (n_a - 1) + vb * vb / (n_b - 1))
    # + 1e-9: a df of exactly 8 computed as 7.999… must not lose a degree
    return t_quantile(_UPPER, max(1, int(df + 1e-9))) * math.sqrt(va + vb)


def welch_interval(total_a: float, sq_a: float, n_a: int, total_b: float, sq_b: float,
                   n_b: int) -> tuple[float, float, float] | None:
    """``(difference, low, high)``: mean of group a minus mean of group b, 95 % Welch t interval.

    From each group's Σx, Σx² and count (two independent groups of games,
    e.g. the games a rule fired in and the others). Student t on the
    Welch–Satterthwaite degrees of freedom, rounded down (the conservative
    side). None when either group has fewer than 2 values or neither
    varied: there is no spread to measure, and a zero-width interval would
    read as certain.
    """
    if n_a < 2 or n_b < 2:
        return None
    mean_a, sd_a, _la, _ha = t_interval(total_a, sq_a, n_a)
    mean_b, sd_b, _lb, _hb = t_interval(total_b, sq_b, n_b)
    va, vb = sd_a * sd_a / n_a, sd_b * sd_b / n_b
    if va + vb <= 1e-18 * max(1.0, mean_a * mean_a, mean_b * mean_b):
        return None
    half = _welch_half(va, vb, n_a, n_b)
    diff = mean_a - mean_b
    return diff, diff - half, diff + half


def share_over_games(credit: float, seat_games: int, games: int) -> tuple[float, float]:
    """95 % interval of a per-seat win share of a player that may sit in several seats a game.

    One bot in three of four seats wins with at most one of them (or splits
    a shared win), so its seat results within a game are not independent:
    a Wilson interval over seat-games would treat 3n dependent results as 3n
    independent ones. Instead each *game* is one observation: the bot's
    share of that game's win, ``c`` (its seats' win credit, 0…1). The Wilson
    interval of the mean of ``c`` over ``games`` is honest for any
    dependence between the seats (a value in [0, 1] with mean μ has variance
    at most μ(1 − μ), the binomial one), and the per-seat share is that mean
    divided by the bot's mean seats per game, ``seat_games / games``, which
    the seat rotation fixes (it is not random). With one seat a game this is
    the seat-game Wilson interval unchanged.
    """
    if games <= 0 or seat_games <= 0:
        return 0.0, 1.0
    low, high = wilson_interval(min(1.0, credit / games), games)
    seats = seat_games / games
    return low / seats, high / seats


def ratio_mean_interval(total: float, units: float, clusters: int, units_sq: float,
                        total_sq: float, cross: float
                        ) -> tuple[float, float | None, float | None]:
    """``(mean, low, high)``: a mean per unit (Σ S / Σ m) with a 95 % interval over clusters.

    Each cluster (a game) gives a sum ``S`` over its ``m`` units (the seats
    one bot held); the sums of ``m²``, ``S²`` and ``S·m`` over clusters are
    ``units_sq``, ``total_sq`` and ``cross``. The standard error is the
    cluster-robust one of a ratio, √(Σ(S − R·m)² / (k(k − 1))) / m̄ with
    ``R`` the mean and ``k`` clusters, and the interval Student t on k − 1
    degrees of freedom: seats of one game are not counted as independent.
    With one unit per cluster it is the usual t interval of a mean.

    The bounds are None when there is no spread to measure: one cluster, or
    every cluster's sum exactly R times its units (every game alike). A
    zero-width interval would read as certain; callers say why there is
    none instead.
    """
    if units <= 0 or clusters <= 0:
        return 0.0, None, None
    mean = total / units
    if clusters < 2:
        return mean, None, None
    resid = max(0.0, total_sq - 2.0 * mean * cross + mean * mean * units_sq)
    # Σ(S − R·m)² from sums: a zero spread leaves a float residue of about
    # 1e-16 of Σ S²; a real spread that small is not one games produce.
    if resid <= 1e-12 * max(total_sq, 1e-300):
        return mean, None, None
    se = math.sqrt(resid / (clusters * (clusters - 1))) / (units / clusters)
    half = t_quantile(_UPPER, clusters - 1) * se
    return mean, mean - half, mean + half


def ratio_share_interval(credit: float, units: float, clusters: int, units_sq: float,
                         credit_sq: float, cross: float) -> tuple[float, float, float]:
    """``(share, low, high)``: a win share per unit (Σ c / Σ m), 95 % interval over clusters.

    For a card held by a varying number of seats a game: each cluster (a
    game) gives its ``m`` holders' win credit ``c`` (0…1: a game has one
    win to share), so the holders' results within a game are one
    observation. Unlike a bot's seats (:func:`share_over_games`) ``m`` is
    random, so the spread comes from the cluster-robust variance of the ratio
    (as :func:`ratio_mean_interval`, with ``units_sq`` = Σ m², ``credit_sq``
    = Σ c², ``cross`` = Σ c·m) and the interval is Wilson's on the
    *effective* number of seat-games that variance is worth, n* = R(1 − R)/var
    (Kish's design effect), scaled by (z/t)² on k − 1 degrees of freedom for
    k clusters (Korn & Graubard 1998): bounded in 0…1 like every share's
    interval, and honest at small k. n* never exceeds the seat-games (the
    one-winner dependence makes holders of one game *less* alike than
    independent ones; the interval does not claim that gain). When the
    variance is 0 (a share of 0 or 1, or every game alike) each game counts
    as one trial: n* = k, scaled the same way.
    """
    if units <= 0 or clusters <= 0:
        return 0.0, 0.0, 1.0
    share = credit / units
    n_eff = float(clusters)
    if clusters >= 2:
        resid = max(0.0, credit_sq - 2.0 * share * cross + share * share * units_sq)
        var = resid / (clusters * (clusters - 1)) / (units / clusters) ** 2
        binom = share * (1.0 - share)
        # a float residue (~1e-15 relative) of a zero spread is still zero
        if var > 1e-12 * max(binom, 1e-12) and binom > 0.0:
            n_eff = binom / var
        n_eff = min(n_eff, units) * (Z95 / t_quantile(_UPPER, clusters - 1)) ** 2
    low, high = wilson_interval(share, n_eff)
    return share, low, high


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
