"""Interval estimates and goodness-of-fit tests, all from scipy.

Rates use the Wilson score interval (``scipy.stats.binomtest(...).proportion_ci``): it keeps
its coverage near 95% for rates close to 0 or 1, where the normal interval collapses. Means use
Student's t interval from the running sums of x and x^2 that kernels return.
"""

from __future__ import annotations

import numpy as np
from scipy import special, stats

LEVEL = 0.95


def rate_ci(k, n, level: float = LEVEL, method: str = "wilson"):
    """Interval for a binomial rate ``k/n``; vectorised over array-like ``k`` (and ``n``).

    ``method="wilson"`` evaluates scipy's own Wilson formula (``scipy.stats._binomtest.
    _binom_wilson_conf_int``) on whole arrays, operation for operation, so the bounds are
    bit-identical to ``binomtest(k, n).proportion_ci(method="wilson")`` (tested) without
    building a ``binomtest`` per cell, which also computes an unused p-value and cost ~5 ms a
    cell: summaries are re-done at every ``--target-ci`` checkpoint.
    """
    k = np.asarray(k, dtype=np.int64)
    n = np.broadcast_to(np.asarray(n, dtype=np.int64), k.shape)
    if method == "wilson":
        return _wilson(k, n, level)
    lo = np.empty(k.shape, dtype=float)
    hi = np.empty(k.shape, dtype=float)
    for idx in np.ndindex(k.shape):
        if n[idx] <= 0:
            lo[idx] = hi[idx] = np.nan
            continue
        ci = stats.binomtest(int(k[idx]), int(n[idx])).proportion_ci(
            confidence_level=level, method=method)
        lo[idx], hi[idx] = ci.low, ci.high
    return lo, hi


def _wilson(k, n, level):
    if np.any((k < 0) | (k > n)):
        raise ValueError("rate_ci needs 0 <= k <= n")
    ok = n > 0
    nn = np.where(ok, n, 1)
    with np.errstate(invalid="ignore", divide="ignore"):
        p = k / nn
        z = special.ndtri(0.5 + 0.5 * level)
        denom = 2 * (nn + z ** 2)
        center = (2 * nn * p + z ** 2) / denom
        q = 1 - p
        delta = z / denom * np.sqrt(4 * nn * p * q + z ** 2)
        lo = np.where(k == 0, 0.0, center - delta)
        hi = np.where(k == nn, 1.0, center + delta)
    lo = np.where(ok, lo, np.nan)
    hi = np.where(ok, hi, np.nan)
    return lo.astype(float), hi.astype(float)


def mean_ci(total, total_sq, n, level: float = LEVEL):
    """Mean and t interval from sums of x and x^2 over ``n`` observations (vectorised)."""
    total = np.asarray(total, dtype=float)
    total_sq = np.asarray(total_sq, dtype=float)
    n = np.asarray(n, dtype=float)
    with np.errstate(invalid="ignore", divide="ignore"):
        mean = total / n
        var = np.maximum(total_sq / n - mean * mean, 0.0) * n / np.maximum(n - 1, 1)
        se = np.sqrt(var / n)
        half = stats.t.ppf(0.5 + level / 2, np.maximum(n - 1, 1)) * se
    return mean, mean - half, mean + half


def quantiles_from_histogram(hist, qs=(0.05, 0.5, 0.95)):
    """Quantiles of an integer variable from its histogram (index = value), per row."""
    hist = np.atleast_2d(np.asarray(hist, dtype=float))
    cum = np.cumsum(hist, axis=1)
    tot = cum[:, -1:]
    out = np.empty((hist.shape[0], len(qs)))
    for j, q in enumerate(qs):
        out[:, j] = np.argmax(cum >= q * tot, axis=1)
    return out


def g_test(observed, expected_probs, min_expected: float = 5.0):
    """G-test of observed counts against exact probabilities.

    Cells with tiny expected counts are pooled (a chi-square-family test is unreliable there);
    returns scipy's ``Power_divergenceResult`` (statistic, pvalue).
    """
    observed = np.asarray(observed, dtype=float)
    probs = np.asarray(expected_probs, dtype=float)
    if abs(probs.sum() - 1) > 1e-9:
        raise ValueError("expected probabilities must sum to 1")
    expected = probs * observed.sum()
    keep = expected >= min_expected
    obs = np.append(observed[keep], observed[~keep].sum())
    exp = np.append(expected[keep], expected[~keep].sum())
    if exp[-1] == 0:
        if obs[-1] != 0:  # something observed that cannot happen at all
            return stats.power_divergence([1.0, 0.0], [1.0, 1e-300], lambda_="log-likelihood")
        obs, exp = obs[:-1], exp[:-1]
    if len(obs) < 2:
        return stats.power_divergence([1.0, 1.0], [1.0, 1.0], lambda_="log-likelihood")
    return stats.power_divergence(obs, exp, lambda_="log-likelihood")


def z_score(mean, exact, total_sq, n):
    """How many standard errors a Monte Carlo mean lies from an exact value."""
    var = total_sq / n - mean * mean
    se = np.sqrt(max(var, 1e-300) / n)
    return (mean - exact) / se
