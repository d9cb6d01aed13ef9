"""The one place that sets numba options for the whole project.

``cache=True`` keeps compiled kernels on disk so the CLI does not recompile on every start;
``error_model="numpy"`` lets integer/float division skip the Python zero-division check in
hot loops (our kernels never divide by a value that can be zero).
"""

from __future__ import annotations

import os

# numba's OpenMP threads spin while waiting for work; on a machine with other busy processes
# (a laptop, a shared CI box) two threads then ran 10-50x slower than one. Passive waiting costs
# little on an idle machine. libgomp reads this when the first parallel kernel loads it, so
# setting it here (before any kernel runs) is enough; a user's own setting wins.
os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")

import numba  # noqa: E402

_OPTIONS = dict(cache=True, error_model="numpy", nogil=True)


def jit(fn=None, **overrides):
    """``numba.njit`` with the project options; usable bare or with overrides."""
    opts = {**_OPTIONS, **overrides}
    if fn is None:
        return lambda f: numba.njit(**opts)(f)
    return numba.njit(**opts)(fn)


def pjit(fn=None, **overrides):
    """A parallel kernel: ``jit`` plus ``parallel=True`` so ``numba.prange`` spreads trials."""
    return jit(fn, parallel=True, **overrides)


prange = numba.prange
