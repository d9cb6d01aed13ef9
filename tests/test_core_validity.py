"""Statistical validity: the runner's 95% intervals cover the exact value 95% of the time.

A compiled dice kernel drawing through ``simkit.core.dice`` (the same streams every game
kernel uses) rolls, in every trial, one 2d6 per rate cell (``2d6 <= t`` for t = 3..11, exact
rates from ``simkit.core.exact``) and one 3d6 per mean cell. ``runner.run`` does ``RUNS`` small
runs of ``N`` trials with seeds 0..RUNS-1 and ``summarise`` reports Wilson intervals
(``stats.rate_ci``) and t intervals (``stats.mean_ci``) exactly as the games do.

Every cell of every run uses its own dice, so the RUNS x 9 = 5400 rate coverages are
independent Bernoulli draws: if the true coverage is c, the observed fraction has standard
deviation sqrt(c(1-c)/5400) = 0.30% near 95%. The brief's band 95% +/- 1.5% is then about
5 standard deviations away from an honest 95% (false-failure probability below 1e-6); the
Wilson interval's own exact coverage at these (n, p) is computed below by summing the
binomial law and is itself within 1% of 95%, so the band leaves room for it. The test also
holds the observation to that exact coverage within 4.5 standard deviations, which would catch
subtler faults (correlated streams between seeds, a biased die) than the band alone. The means'
t intervals (RUNS x 3 = 1800 independent coverages, sd 0.51%) are held to 95% +/- 2%.
Fixed seeds: the test is deterministic; the probabilities above say how surprising a failure
after a change would be.
"""

from fractions import Fraction

import numpy as np
import pandas as pd
from scipy import stats as st

from simkit.core import dice, exact, runner, stats
from simkit.core._numba import jit

THRESHOLDS = np.arange(3, 12, dtype=np.int64)  # P(2d6 <= t) from 3/36 to 33/36
N_MEANS = 3
N = 200
RUNS = 600


@jit
def _dice_kernel(thresholds, n_means, key, first, n):
    n_rates = thresholds.shape[0]
    out = np.zeros(n_rates + 2 * n_means, dtype=np.int64)
    st_ = np.zeros(dice.STATE_SIZE, dtype=np.uint64)
    for t in range(first, first + n):
        dice.seed_trial(st_, key, t)
        for c in range(n_rates):
            if dice.two_d6(st_, dice.NO_SCRIPT) <= thresholds[c]:
                out[c] += 1
        for m in range(n_means):
            x = dice.roll(st_, dice.NO_SCRIPT, 3, 6)
            out[n_rates + 2 * m] += x
            out[n_rates + 2 * m + 1] += x * x
    return out


class DiceCells:
    name = "validity dice"

    def __init__(self):
        self.n_stats = len(THRESHOLDS) + 2 * N_MEANS
        self.exact_rates = np.array([float(exact.p_at_most(2, 6, int(t))) for t in THRESHOLDS])

    def chunk(self, key, first, n):
        return _dice_kernel(THRESHOLDS, N_MEANS, np.uint64(key), first, n)

    def summarise(self, totals, n_trials):
        k = totals[:len(THRESHOLDS)]
        lo, hi = stats.rate_ci(k, n_trials)
        rates = pd.DataFrame({"cell": [f"2d6<={t}" for t in THRESHOLDS], "p": k / n_trials,
                              "p_lo": lo, "p_hi": hi, "p_exact": self.exact_rates})
        s = totals[len(THRESHOLDS):].reshape(N_MEANS, 2)
        m, mlo, mhi = stats.mean_ci(s[:, 0], s[:, 1], n_trials)
        means = pd.DataFrame({"cell": [f"3d6 #{i}" for i in range(N_MEANS)], "mean": m,
                              "mean_lo": mlo, "mean_hi": mhi, "mean_exact": 10.5})
        return pd.concat([rates, means], ignore_index=True)


def wilson_coverage(n: int, p: float) -> float:
    """Exact coverage of the Wilson interval for Binomial(n, p): the chance of a k whose
    interval contains p."""
    k = np.arange(n + 1)
    lo, hi = stats.rate_ci(k, n)
    return float(st.binom.pmf(k, n, p)[(lo <= p) & (p <= hi)].sum())


def test_exact_rates_are_the_2d6_law():
    assert exact.p_at_most(2, 6, 3) == Fraction(3, 36)
    assert exact.p_at_most(2, 6, 11) == Fraction(35, 36)  # 12 is the only miss


def test_intervals_cover_the_exact_values_95_percent_of_the_time():
    sim = DiceCells()
    rate_hits = mean_hits = 0
    for seed in range(RUNS):
        f = runner.run(sim, N, seed, chunk_size=N, threads=1, progress=False).frame
        r = f.iloc[:len(THRESHOLDS)]
        rate_hits += int(((r.p_lo <= r.p_exact) & (r.p_exact <= r.p_hi)).sum())
        m = f.iloc[len(THRESHOLDS):]
        mean_hits += int(((m.mean_lo <= m.mean_exact) & (m.mean_exact <= m.mean_hi)).sum())
    n_rate = RUNS * len(THRESHOLDS)
    cover = rate_hits / n_rate
    expected = np.mean([wilson_coverage(N, p) for p in sim.exact_rates])
    assert abs(expected - 0.95) < 0.01, expected  # the band below has room for Wilson's own bias
    assert abs(cover - 0.95) <= 0.015, (cover, expected)
    sd = np.sqrt(expected * (1 - expected) / n_rate)
    assert abs(cover - expected) <= 4.5 * sd, (cover, expected, sd)
    mean_cover = mean_hits / (RUNS * N_MEANS)
    assert abs(mean_cover - 0.95) <= 0.02, mean_cover


def test_wilson_bounds_are_scipys_bit_for_bit():
    """stats.rate_ci evaluates scipy's Wilson formula on arrays: same bits as binomtest."""
    for n in [1, 2, 3, 7, 36, 200, 999, 12_345, 10**6]:
        ks = sorted({k for k in (0, 1, 2, n // 3, n // 2, n - 1, n) if k <= n})
        lo, hi = stats.rate_ci(ks, n)
        for i, k in enumerate(ks):
            ci = st.binomtest(k, n).proportion_ci(method="wilson")
            assert (lo[i], hi[i]) == (ci.low, ci.high)
    lo, hi = stats.rate_ci([0, 3], [0, 10])
    assert np.isnan(lo[0]) and np.isnan(hi[0]) and 0 < lo[1] < 0.3 < hi[1] < 1
