"""Statistical validity: the runner's 95% intervals cover the exact value 95% of the time.

A compiled dice kernel drawing through ``simkit.core.dice`` (the same streams every game
kernel uses) rolls, in every trial, its own dice for each cell: 19 rate cells ``2d6 <= t``
(t = 3..11) and ``3d6 <= t`` (t = 6..15), rates 0.08-0.97, exact values from
``simkit.core.exact``; and 8 mean cells (3d6, exact mean 10.5). ``runner.run`` does ``RUNS``
small runs of ``N`` trials with seeds 0..RUNS-1; ``summarise`` reports Wilson intervals
(``stats.rate_ci``) and t intervals (``stats.mean_ci``) as the games do.

Every cell of every run has its own dice, so the RUNS x 19 = 5700 rate coverages are
independent Bernoulli draws. The Wilson interval's own exact coverage at these (n, p),
computed below by summing the binomial law, averages 94.75% (it is not exactly 95% at finite
n); the observed fraction then has standard deviation sqrt(c(1-c)/5700) = 0.30%, and the
brief's band 95% +/- 1.5% lies 4.2 standard deviations below and 5.9 above it: a correct runner
fails this test with probability about 1e-5. The test also holds the observation to the
exact coverage within 4.5 standard deviations, which catches subtler faults (streams of
different seeds correlated, a biased die) than the band alone. The means' t intervals
(RUNS x 8 = 2400 independent coverages, sd 0.44%) are held to 95% +/- 2% (4.5 sd).
Fixed seeds make the test deterministic; the probabilities say how surprising a failure after
a change would be.
"""

from fractions import Fraction

import numpy as np
import pandas as pd
from scipy import stats as st

from simkit.core import dice, exact, runner, stats
from simkit.core._numba import jit

CELLS = np.array([(2, t) for t in range(3, 12)] + [(3, t) for t in range(6, 16)], np.int64)
N_MEANS = 8
N = 200
RUNS = 300


@jit(cache=False)  # a test module's cache entry would name the module as pytest imported it
def _dice_kernel(cells, n_means, key, first, n):
    n_rates = cells.shape[0]
    out = np.zeros(n_rates + 2 * n_means, dtype=np.int64)
    st_ = np.zeros(dice.STATE_SIZE, dtype=np.uint64)
    for t in range(first, first + n):
        dice.seed_trial(st_, key, t)
        for c in range(n_rates):
            if dice.roll(st_, dice.NO_SCRIPT, cells[c, 0], 6) <= cells[c, 1]:
                out[c] += 1
        for m in range(n_means):
            x = dice.roll(st_, dice.NO_SCRIPT, 3, 6)
            out[n_rates + 2 * m] += x
            out[n_rates + 2 * m + 1] += x * x
    return out


class DiceCells:
    """Rates and means of plain dice, one row per cell (``kind`` 0 = rate, 1 = mean)."""

    name = "validity dice"

    def __init__(self):
        self.n_stats = len(CELLS) + 2 * N_MEANS
        self.exact_rates = np.array([float(exact.p_at_most(int(d), 6, int(t))) for d, t in CELLS])
        self.exact = np.concatenate([self.exact_rates, np.full(N_MEANS, 10.5)])
        self.kind = np.repeat([0, 1], [len(CELLS), N_MEANS])

    def chunk(self, key, first, n):
        return _dice_kernel(CELLS, N_MEANS, np.uint64(key), first, n)

    def summarise(self, totals, n_trials):
        k = totals[:len(CELLS)]
        lo, hi = stats.rate_ci(k, n_trials)
        s = totals[len(CELLS):].reshape(N_MEANS, 2)
        m, mlo, mhi = stats.mean_ci(s[:, 0], s[:, 1], n_trials)
        return pd.DataFrame({"kind": self.kind,
                             "value": np.concatenate([k / n_trials, m]),
                             "value_lo": np.concatenate([lo, mlo]),
                             "value_hi": np.concatenate([hi, mhi]),
                             "value_exact": self.exact})


def wilson_coverage(n: int, p: float) -> float:
    """Exact coverage of the Wilson interval for Binomial(n, p): the chance of a k whose
    interval contains p."""
    k = np.arange(n + 1)
    lo, hi = stats.rate_ci(k, n)
    return float(st.binom.pmf(k, n, p)[(lo <= p) & (p <= hi)].sum())


def test_exact_rates_are_the_dice_law():
    assert exact.p_at_most(2, 6, 3) == Fraction(3, 36)
    assert exact.p_at_most(2, 6, 11) == Fraction(35, 36)  # 12 is the only miss
    assert exact.p_at_most(3, 6, 10) == Fraction(1, 2)


def test_intervals_cover_the_exact_values_95_percent_of_the_time():
    sim = DiceCells()
    hits = np.zeros(2, dtype=np.int64)
    for seed in range(RUNS):
        f = runner.run(sim, N, seed, chunk_size=N, threads=1, progress=False).frame
        inside = (f.value_lo.to_numpy() <= sim.exact) & (sim.exact <= f.value_hi.to_numpy())
        hits += np.bincount(sim.kind[inside], minlength=2)
    n_rate = RUNS * len(CELLS)
    cover = hits[0] / n_rate
    expected = np.mean([wilson_coverage(N, p) for p in sim.exact_rates])
    assert abs(expected - 0.95) < 0.01, expected  # the band below has room for Wilson's own bias
    assert abs(cover - 0.95) <= 0.015, (cover, expected)
    sd = np.sqrt(expected * (1 - expected) / n_rate)
    assert abs(cover - expected) <= 4.5 * sd, (cover, expected, sd)
    mean_cover = hits[1] / (RUNS * N_MEANS)
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
