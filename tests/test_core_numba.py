"""The project's numba wrapper (``simkit.core._numba``)."""

import numpy as np

from simkit.core import _numba


def _total(a):
    s = 0.0
    for x in a:
        s += x
    return s


def test_the_private_nrt_option_reaches_numba_when_it_knows_it():
    f = _numba.jit(_nrt=False)(_total)
    if "_nrt" in _numba._KNOWN_OPTIONS:
        assert f.targetoptions["_nrt"] is False
    assert f(np.arange(4.0)) == 6.0


def test_a_numba_without_the_private_nrt_option_compiles_with_reference_counting(monkeypatch):
    monkeypatch.setattr(_numba, "_KNOWN_OPTIONS", _numba._KNOWN_OPTIONS - {"_nrt"})
    f = _numba.jit(_nrt=False)(_total)
    assert "_nrt" not in f.targetoptions
    assert f(np.arange(4.0)) == 6.0
