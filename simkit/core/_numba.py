"""The one place that sets numba options for the whole project.

``cache=True`` keeps compiled kernels on disk so the CLI does not recompile on every start;
``error_model="numpy"`` lets integer/float division skip the Python zero-division check in
hot loops (our kernels never divide by a value that can be zero).
"""

from __future__ import annotations

import numba

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
