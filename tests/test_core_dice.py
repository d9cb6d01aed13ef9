"""Per-trial streams, exact uniform dice and scripted replay (simkit.core.dice)."""

import numpy as np
import pytest
from scipy import stats

from simkit.core import dice
from simkit.core._numba import jit
from simkit.core.errors import ScriptedDiceError
from simkit.core.exact import sum_distribution


@jit
def _histogram_2d6(key, first, n):
    st = np.zeros(dice.STATE_SIZE, np.uint64)
    h = np.zeros(13, np.int64)
    for i in range(first, first + n):
        dice.seed_trial(st, key, i)
        h[dice.two_d6(st, dice.NO_SCRIPT)] += 1
    return h


@jit
def _first_draws(key, trial, k):
    st = np.zeros(dice.STATE_SIZE, np.uint64)
    dice.seed_trial(st, key, trial)
    out = np.empty(k, np.int64)
    for j in range(k):
        out[j] = dice.roll(st, dice.NO_SCRIPT, 1, 6)
    return out


@jit
def _replay(st, script, spec):
    out = np.empty(spec.shape[0], np.int64)
    for j in range(spec.shape[0]):
        out[j] = dice.roll(st, script, spec[j, 0], spec[j, 1])
    return out


def test_stream_depends_only_on_seed_and_trial():
    k = dice.stream_key(7)
    a = _first_draws(k, 12345, 50)
    # the same trial reached after other trials were drawn gives the same dice
    _histogram_2d6(k, 0, 1000)
    assert np.array_equal(a, _first_draws(k, 12345, 50))
    assert not np.array_equal(a, _first_draws(k, 12346, 50))
    assert not np.array_equal(a, _first_draws(dice.stream_key(8), 12345, 50))


def test_2d6_matches_exact_distribution():
    """G-test at a fixed seed against icepool's exact 2d6 (alpha = 1e-3)."""
    h = _histogram_2d6(dice.stream_key(2026), 0, 2_000_000)[2:]
    p = np.array([float(q) for _, q in sum_distribution(2, 6)])
    res = stats.power_divergence(h, p * h.sum(), lambda_="log-likelihood")
    assert res.pvalue > 1e-3


@pytest.mark.parametrize("sides", [2, 3, 6, 10, 20])
def test_dice_of_any_size_are_uniform(sides):
    @jit
    def draw(key, n, sides):
        st = np.zeros(dice.STATE_SIZE, np.uint64)
        h = np.zeros(sides + 1, np.int64)
        dice.seed_trial(st, key, 0)
        for _ in range(n):
            h[dice.roll(st, dice.NO_SCRIPT, 1, sides)] += 1
        return h

    h = draw(dice.stream_key(sides), 600_000, sides)[1:]
    assert h.min() > 0
    assert stats.chisquare(h).pvalue > 1e-3


def test_streams_of_neighbouring_trials_are_uncorrelated():
    k = dice.stream_key(3)
    a = np.array([_first_draws(k, i, 1)[0] for i in range(20000)])
    b = np.array([_first_draws(k, i + 1, 1)[0] for i in range(20000)])
    assert abs(np.corrcoef(a, b)[0, 1]) < 0.03


def test_scripted_rolls_replay_in_order():
    st = dice.scripted_state()
    spec = np.array([[2, 6], [1, 6], [2, 6]])
    assert list(_replay(st, dice.as_script([5, 4, 11]), spec)) == [5, 4, 11]


def test_scripted_dice_running_out_is_a_clear_error():
    with pytest.raises(ScriptedDiceError, match="ran out"):
        _replay(dice.scripted_state(), dice.as_script([5]), np.array([[2, 6], [2, 6]]))


def test_scripted_roll_the_dice_cannot_show_is_refused():
    with pytest.raises(ScriptedDiceError, match="outside"):
        _replay(dice.scripted_state(), dice.as_script([1]), np.array([[2, 6]]))


def test_seed_must_be_non_negative_int():
    with pytest.raises(ValueError):
        dice.stream_key(-1)


def test_cached_kernels_go_stale_when_simkit_code_they_may_call_changes(monkeypatch):
    """numba keys a cached kernel to its own file only; an edit in a callee's file (kernels.py
    under race.py) once left a stale compiled race in the cache. The project cache adds the
    digest of simkit.core and the kernel's game package to the key."""
    from simkit.core import _numba

    st = dice.new_state()
    dice.seed_trial(st, dice.stream_key(1), 0)
    dice.roll(st, dice.NO_SCRIPT, 1, 6)  # compiled and saved to the cache
    fresh = _numba._Cache(dice.roll.py_func)
    assert fresh._cache_file._source_stamp[1] == _numba.sources_digest("core")
    assert fresh._cache_file._load_index(), "the saved kernel is found while nothing changed"
    monkeypatch.setattr(_numba, "sources_digest", lambda package: "edited elsewhere")
    edited = _numba._Cache(dice.roll.py_func)
    assert edited._cache_file._load_index() == {}, "a change in simkit makes the entry stale"
