"""The runner: seeded results are bit-identical across thread counts, chunk sizes, resumes."""

import os
import subprocess
import sys

import numpy as np
import pytest

from simkit.core import runner, stats
from simkit.core.errors import UserInputError
from simkit.starfire.pieces.sheet import parse_sheet
from simkit.starfire.procedures import WeaponTable


def sim():
    return WeaponTable(parse_sheet("S S A D O H H H E I I"), [1, 3, 9], 3,
                       families=("missile", "energy_beam", "primary_beam", "force_beam"))


@pytest.mark.parametrize("chunk", [None, 1_000, 7_777, 50_000])
def test_any_chunk_size_gives_identical_totals(chunk):
    base = runner.run(sim(), 50_000, seed=5, chunk_size=50_000, progress=False).totals
    assert np.array_equal(runner.run(sim(), 50_000, seed=5, chunk_size=chunk, progress=False).totals, base)


def test_thread_count_does_not_change_the_result():
    a = runner.run(sim(), 30_000, seed=1, threads=1, chunk_size=4_000, progress=False).totals
    b = runner.run(sim(), 30_000, seed=1, threads=2, chunk_size=9_000, progress=False).totals
    assert np.array_equal(a, b)
    assert not np.array_equal(a, runner.run(sim(), 30_000, seed=2, progress=False).totals)


def test_runs_from_a_first_trial_add_up_to_one_run():
    whole = runner.run(sim(), 30_000, seed=4, chunk_size=7_000, progress=False)
    head = runner.run(sim(), 12_345, seed=4, progress=False)
    tail = runner.run(sim(), 17_655, seed=4, first=12_345, chunk_size=5_000, progress=False)
    assert tail.n_trials == 17_655
    assert np.array_equal(head.totals + tail.totals, whole.totals)
    # a later piece is not the first one again
    assert not np.array_equal(tail.totals, runner.run(sim(), 17_655, seed=4, progress=False).totals)


def test_numba_num_threads_environment_in_fresh_processes(tmp_path):
    """Separate interpreters with NUMBA_NUM_THREADS=1 and 2 write the same totals."""
    code = ("import numpy as np, sys; from tests.test_core_runner import sim; "
            "from simkit.core import runner; "
            "np.save(sys.argv[1], runner.run(sim(), 20_000, seed=3, progress=False).totals)")
    outs = []
    for n in ("1", "2"):
        out = tmp_path / f"t{n}.npy"
        env = dict(os.environ, NUMBA_NUM_THREADS=n)
        subprocess.run([sys.executable, "-c", code, str(out)], check=True, env=env,
                       cwd=os.path.dirname(os.path.dirname(__file__)))
        outs.append(np.load(out))
    assert np.array_equal(outs[0], outs[1])


def test_run_dir_resume_gives_the_uninterrupted_numbers(tmp_path):
    full = runner.run(sim(), 20_000, seed=4, chunk_size=3_000, progress=False)
    d = tmp_path / "run"
    runner.run(sim(), 20_000, seed=4, chunk_size=3_000, progress=False, run_dir=d)
    chunks = sorted(d.glob("*/chunk-*.npy"))
    assert len(chunks) == 7
    for p in chunks[3:]:  # as if the process died after three chunks
        p.unlink()
    resumed = runner.run(sim(), 20_000, seed=4, progress=False, run_dir=d)
    assert np.array_equal(resumed.totals, full.totals)
    with pytest.raises(UserInputError, match="different run"):
        runner.run(sim(), 20_000, seed=5, progress=False, run_dir=d)


def test_bad_trial_counts_and_seeds_are_user_errors():
    with pytest.raises(UserInputError, match="--trials"):
        runner.run(sim(), 0)
    with pytest.raises(UserInputError, match="--seed"):
        runner.run(sim(), 10, seed=-1)


def test_rate_and_mean_intervals_from_scipy():
    lo, hi = stats.rate_ci([0, 50, 100], 100)
    assert lo[0] == 0 and 0.40 < lo[1] < 0.41 and 0.59 < hi[1] < 0.60 and hi[2] == 1
    x = np.array([1, 2, 3, 4, 10], dtype=float)
    m, mlo, mhi = stats.mean_ci(x.sum(), (x * x).sum(), len(x))
    from scipy import stats as st
    want = st.t.interval(0.95, 4, loc=x.mean(), scale=st.sem(x))
    assert m == pytest.approx(4.0) and (mlo, mhi) == pytest.approx(want)
    q = stats.quantiles_from_histogram([[0, 5, 90, 5]])
    assert list(q[0]) == [1, 2, 2]  # inverse CDF: the 0.95 quantile is the first value with F >= 0.95
    assert list(stats.quantiles_from_histogram([[10, 80, 10]])[0]) == [0, 1, 2]
