"""Trials spread over threads: compiled block kernels, each summing its own block of trials.

Every Monte Carlo entry point has the same shape: cut trials ``first .. first + n - 1`` into
contiguous blocks, let a compiled ``nogil`` function sum each block's integer statistics into its
own row, and add the rows. :func:`sum_blocks` runs the blocks on a small pool of Python threads
(the kernels release the GIL, so the threads run truly in parallel), as many as numba's thread
setting (``numba.set_num_threads``, which ``LocalBackend(threads=...)`` and the Dask workers set).

Why not ``numba.prange``: a ``parallel=True`` entry point compiles the whole game engine twice
more (the parfor body becomes a gufunc, and each links and optimises every callee again). In a
cold first run the four games' parallel entry points took about 70 of 270 seconds of compiling
(measured with ``benchmarks/bench_compile.py``); a thread pool costs no compilation at all.

Reproducibility is unchanged: a block's statistics depend only on its trials, each trial on its
own stream (seed, trial), and integer sums do not depend on the order they are added in, so the
result is bit-identical for any thread count, block count or chunk size.
"""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from typing import Callable

import numpy as np

#: blocks per call: enough to balance uneven trials over a few threads
N_BLOCKS = 64

_pools: dict[int, ThreadPoolExecutor] = {}


def _pool(threads: int) -> ThreadPoolExecutor:
    pool = _pools.get(threads)
    if pool is None:
        pool = _pools[threads] = ThreadPoolExecutor(threads, thread_name_prefix="simkit-block")
    return pool


def threads() -> int:
    """The thread count in force: numba's setting for this thread."""
    import numba

    return max(1, int(numba.get_num_threads()))


def bounds(first: int, n: int, n_blocks: int = N_BLOCKS) -> list[tuple[int, int]]:
    """``n_blocks`` (at most ``n``) contiguous ``(lo, hi)`` blocks covering the trials."""
    k = max(1, min(int(n), n_blocks))
    return [(first + n * b // k, first + n * (b + 1) // k) for b in range(k)]


def sum_blocks(block: Callable[[int, int, np.ndarray], None], first: int, n: int,
               shape: int | tuple[int, ...], n_blocks: int = N_BLOCKS) -> np.ndarray:
    """``sum(acc_b)`` over the blocks, where ``block(lo, hi, acc_b)`` adds trials ``lo..hi-1``
    into the zeroed ``int64`` array ``acc_b`` of ``shape``; blocks run on :func:`threads`."""
    shape = (shape,) if isinstance(shape, (int, np.integer)) else tuple(shape)
    spans = bounds(int(first), int(n), n_blocks)
    acc = np.zeros((len(spans),) + shape, dtype=np.int64)
    t = min(threads(), len(spans))
    if t == 1:
        for b, (lo, hi) in enumerate(spans):
            block(lo, hi, acc[b])
    else:
        futures = [_pool(t).submit(block, lo, hi, acc[b]) for b, (lo, hi) in enumerate(spans)]
        for f in futures:
            f.result()   # re-raises a block's error (a scripted-dice fault, say) here
    return acc.sum(axis=0)
