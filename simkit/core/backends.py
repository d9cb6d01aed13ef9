"""Where chunks of trials run: this process on numba threads, or a Dask cluster.

A backend takes a simulation, the run key and a list of chunks ``(index, first, n)`` and yields
``(index, statistics, seconds)`` as chunks finish, in any order; the runner merges them in
chunk order, so which backend ran a chunk never changes a result (integer statistics,
per-trial streams: see ``runner``).

* :class:`LocalBackend`: chunks one after another in this process, each spread over numba's
  threads (``threads`` sets how many).
* :class:`DaskBackend`: every chunk is a Dask task. ``DaskBackend(workers=N)`` starts a
  ``distributed.LocalCluster`` of ``N`` single-threaded worker *processes* on this machine;
  ``DaskBackend(address="tcp://HOST:PORT")`` uses an existing scheduler. The cluster is
  started on first use and kept (one per address/worker count, see :func:`dask_backend`)
  until the interpreter exits, so a command that does many runs starts it once.

Workers run numba single-threaded (DESIGN.md: processes, not threads, give the parallelism;
numba threads inside each would oversubscribe the cores). numba fixes its thread pool size
from ``NUMBA_NUM_THREADS`` when it is first imported, so the variable has to be in the worker's
environment before anything imports numba there. The local cluster passes
:data:`WORKER_ENV` through the nannies' ``env``, which distributed applies in the worker
process right after start-up -- early enough as long as the main module, which
multiprocessing re-imports in every spawned process, does not import numba: the ``simkit``
command line keeps numba out of its import-time chain for that reason (tested).
For a cluster you start yourself, start the workers with that environment::

    NUMBA_NUM_THREADS=1 OMP_NUM_THREADS=1 dask worker tcp://HOST:PORT --nthreads 1

Each task also calls ``numba.set_num_threads(1)`` as a backstop (a worker started without the
environment still uses one numba thread per task, though it keeps idle pool threads).

A task whose worker dies (killed, out of memory) is re-run elsewhere by the Dask scheduler
(up to ``distributed.scheduler.allowed-failures`` times); since a chunk's statistics depend only
on (seed, first, n), the retried chunk gives the same numbers.

``dask[distributed]`` is an optional extra (``pip install 'simkit[dask]'``); without it, asking
for a Dask backend raises one :class:`~simkit.core.errors.UserInputError`.
"""

from __future__ import annotations

import atexit
import logging
import os
import sys
import time
from typing import Iterable, Iterator

import numpy as np

from .errors import UserInputError

#: Environment of local-cluster worker processes: one thread for numba and the BLAS/OpenMP
#: pools, so N workers use N cores.
WORKER_ENV = {"NUMBA_NUM_THREADS": "1", "OMP_NUM_THREADS": "1", "MKL_NUM_THREADS": "1",
              "OPENBLAS_NUM_THREADS": "1"}

DASK_MISSING = "needs Dask: pip install 'simkit[dask]' (dask[distributed])"


class LocalBackend:
    """Chunks in this process, each over ``threads`` numba threads (default: all)."""

    name = "local"
    n_workers = 1

    def __init__(self, threads: int | None = None):
        self.threads = threads

    def run_chunks(self, sim, key, chunks: Iterable[tuple[int, int, int]]) -> Iterator:
        import numba

        old = numba.get_num_threads()
        if self.threads is not None:
            numba.set_num_threads(max(1, min(int(self.threads), numba.config.NUMBA_NUM_THREADS)))
        try:
            for i, first, n in chunks:
                t = time.perf_counter()
                res = np.asarray(sim.chunk(key, first, n), dtype=np.int64)
                yield i, res, time.perf_counter() - t
        finally:
            numba.set_num_threads(old)


def _chunk_task(sim, key, first, n):
    """One chunk on a Dask worker (module-level so it pickles by reference)."""
    import numba

    if numba.get_num_threads() != 1:
        numba.set_num_threads(1)
    t = time.perf_counter()
    res = np.asarray(sim.chunk(np.uint64(key), first, n), dtype=np.int64)
    return res, time.perf_counter() - t


def _same(x):
    return x


def worker_threads() -> dict:
    """numba's view of threads in this process (run on workers to check :data:`WORKER_ENV`)."""
    import numba
    from numba.np.ufunc import parallel

    return {"pid": os.getpid(), "env": os.environ.get("NUMBA_NUM_THREADS"),
            "config": int(numba.config.NUMBA_NUM_THREADS), "pool": int(parallel.NUM_THREADS)}


def require_dask(option: str = "--workers"):
    try:
        import distributed  # noqa: F401
    except ImportError:
        raise UserInputError(DASK_MISSING, field=option) from None


class DaskBackend:
    """Chunks as tasks on a Dask cluster: a local one of ``workers`` processes, or the
    scheduler at ``address``. Connects on first use."""

    name = "dask"

    def __init__(self, workers: int | None = None, address: str | None = None,
                 timeout: float = 30.0):
        if (workers is None) == (address is None):
            raise UserInputError("give either a worker count or a scheduler address, not both",
                                 field="--workers/--cluster")
        if workers is not None and (not isinstance(workers, (int, np.integer)) or workers < 1):
            raise UserInputError(f"must be a positive whole number, got {workers!r}",
                                 field="--workers")
        if address is not None and "://" not in str(address):
            raise UserInputError(f"expected a scheduler address like tcp://HOST:PORT, got "
                                 f"{address!r}", field="--cluster")
        require_dask("--workers" if workers is not None else "--cluster")
        self.workers = None if workers is None else int(workers)
        self.address = address
        self.timeout = timeout
        self.cluster = None
        self._client = None

    def __repr__(self):
        where = f"workers={self.workers}" if self.workers else f"address={self.address!r}"
        return f"DaskBackend({where})"

    @property
    def client(self):
        if self._client is None:
            from distributed import Client, LocalCluster

            if self.workers is not None:
                self.cluster = LocalCluster(n_workers=self.workers, threads_per_worker=1,
                                            processes=True, dashboard_address=None,
                                            # the scheduler's HTTP server (health, metrics)
                                            # runs without the dashboard too, on 8787 by
                                            # default: two clusters at once (a second run,
                                            # parallel tests) fought over it
                                            scheduler_kwargs={"dashboard_address":
                                                              "127.0.0.1:0"},
                                            env=dict(WORKER_ENV),
                                            silence_logs=logging.ERROR)
                self._client = Client(self.cluster)
            else:
                try:
                    self._client = Client(self.address, timeout=self.timeout)
                except (OSError, TimeoutError) as e:
                    raise UserInputError(f"cannot reach a Dask scheduler at {self.address} "
                                         f"({type(e).__name__})", field="--cluster") from None
            self._warn_if_multithreaded()
        return self._client

    def _warn_if_multithreaded(self):
        """Say so once if a worker's numba pool is not single-threaded (numba imported before
        the environment arrived, or a worker started without it); tasks still use 1 thread."""
        try:
            views = self._client.run(worker_threads)
        except Exception:  # a worker without simkit/numba shows itself on the first task
            return
        wide = sorted({v["pool"] for v in views.values() if v["pool"] != 1})
        if wide:
            print(f"simkit: note: Dask workers' numba pools have {wide} threads, not 1 (start "
                  "workers with NUMBA_NUM_THREADS=1, and keep numba out of your main script's "
                  "top-level imports); each task still runs numba on one thread",
                  file=sys.stderr)

    @property
    def n_workers(self) -> int:
        if self.workers is not None:
            return self.workers
        try:
            info = self.client.scheduler_info(n_workers=-1)
        except TypeError:  # distributed before 2025 lists every worker by default
            info = self.client.scheduler_info()
        return max(1, len(info["workers"]))

    def worker_threads(self) -> dict:
        """{worker address: numba thread view} (see :func:`worker_threads`)."""
        return self.client.run(worker_threads)

    def run_chunks(self, sim, key, chunks) -> Iterator:
        from distributed import as_completed

        chunks = list(chunks)
        if not chunks:  # everything came from a run dir: no need to start a cluster
            return
        client = self.client
        # The simulation goes to the cluster once, as the result of a task: tasks that need it
        # fetch it from a peer, and if its holder dies the scheduler recomputes it.
        sim_f = client.submit(_same, sim, pure=False)
        futures = {}
        for i, first, n in chunks:
            futures[client.submit(_chunk_task, sim_f, int(key), int(first), int(n),
                                  pure=False)] = i
        try:
            for fut, (res, secs) in as_completed(list(futures), with_results=True):
                yield futures[fut], res, secs
        finally:
            client.cancel(list(futures) + [sim_f])

    def close(self):
        if self._client is not None:
            self._client.close()
            self._client = None
        if self.cluster is not None:
            self.cluster.close()
            self.cluster = None


_DASK: dict[tuple, DaskBackend] = {}


def dask_backend(workers: int | None = None, address: str | None = None) -> DaskBackend:
    """The process-wide Dask backend for these settings (started once, closed at exit)."""
    k = (workers, address)
    if k not in _DASK:
        _DASK[k] = DaskBackend(workers=workers, address=address)
    return _DASK[k]


@atexit.register
def _close_all():
    for b in list(_DASK.values()):
        try:
            b.close()
        except Exception:  # shutting down: nothing useful to do with a failure here
            pass
    _DASK.clear()


def resolve(backend, threads: int | None = None):
    """A backend object from ``run(backend=...)``: ``"local"``, ``"tcp://..."``, or a backend."""
    if backend is None or backend == "local":
        return LocalBackend(threads)
    if isinstance(backend, str):
        if "://" in backend:
            return dask_backend(address=backend)
        raise UserInputError(f"unknown backend {backend!r} (available: local, tcp://HOST:PORT)",
                             field="backend")
    if hasattr(backend, "run_chunks"):
        return backend
    raise UserInputError(f"unknown backend {backend!r}", field="backend")
