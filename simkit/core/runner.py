"""The trial runner: chunks of trials on numba threads, merged in a fixed order.

A :class:`Simulation` turns (run key, first trial, count) into a vector of ``int64`` sufficient
statistics (counts, sums of integer-valued outcomes and of their squares, histograms). Integer
sums are associative, so merging chunks in any grouping gives the same totals: together with
per-trial random streams this makes a seeded run bit-identical for any thread count and any
chunk size. Floating-point accumulation would not be (its rounding depends on the grouping), so
kernels count half-points or other integer units and the summary converts at the end.

Chunks are sized to run ~0.1-1 s (DESIGN.md), a progress bar appears for runs longer than a
couple of seconds, and with ``run_dir`` every finished chunk is written atomically so an
interrupted run resumes to the same final numbers.
"""

from __future__ import annotations

import json
import os
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Protocol, runtime_checkable

import numba
import numpy as np
import pandas as pd
from tqdm.auto import tqdm

from .dice import stream_key
from .errors import UserInputError


@runtime_checkable
class Simulation(Protocol):
    """What the runner needs from a game's simulation."""

    name: str
    n_stats: int

    def chunk(self, key: np.uint64, first: int, n: int) -> np.ndarray:
        """int64 statistics summed over trials ``first .. first+n-1``."""

    def summarise(self, totals: np.ndarray, n_trials: int) -> pd.DataFrame:
        """The tidy result frame from the merged totals."""


@dataclass
class RunResult:
    frame: pd.DataFrame
    totals: np.ndarray
    n_trials: int
    seed: int
    elapsed: float
    chunks: list = field(default_factory=list)


TARGET_CHUNK_SECONDS = 0.5
MIN_CHUNK = 1_000


def plan_chunks(n_trials: int, chunk_size: int) -> list[tuple[int, int]]:
    """(first, n) pairs covering ``0 .. n_trials-1`` in order."""
    return [(s, min(chunk_size, n_trials - s)) for s in range(0, n_trials, chunk_size)]


def _validate(n_trials, seed, chunk_size):
    if not isinstance(n_trials, (int, np.integer)) or n_trials < 1:
        raise UserInputError(f"must be a positive whole number, got {n_trials!r}",
                             field="--trials")
    if not isinstance(seed, (int, np.integer)) or seed < 0:
        raise UserInputError(f"must be a non-negative whole number, got {seed!r}", field="--seed")
    if chunk_size is not None and chunk_size < 1:
        raise UserInputError(f"must be a positive whole number, got {chunk_size!r}",
                             field="chunk_size")


def run(sim: Simulation, n_trials: int, seed: int = 0, *, chunk_size: int | None = None,
        backend: str = "local", threads: int | None = None, progress: bool | None = None,
        run_dir: str | Path | None = None) -> RunResult:
    """Run ``n_trials`` trials of ``sim`` with ``seed`` and return the summarised frame.

    ``chunk_size=None`` sizes chunks from a short calibration chunk; it changes how work is
    cut, never the result. ``threads`` sets numba's thread count for this run.
    ``progress=None`` shows a bar only when the run lasts more than ~2 s.
    """
    _validate(n_trials, seed, chunk_size)
    if backend != "local":
        raise UserInputError(f"unknown backend {backend!r} (available: local)", field="backend")
    key = stream_key(int(seed))
    old_threads = numba.get_num_threads()
    if threads is not None:
        numba.set_num_threads(max(1, min(int(threads), numba.config.NUMBA_NUM_THREADS)))
    t0 = time.perf_counter()
    try:
        store = _ChunkStore(run_dir, sim, n_trials, seed) if run_dir is not None else None
        done: dict[int, np.ndarray] = {} if store is None else store.load()
        first_result = None
        if store is not None and store.chunks is not None:
            chunks = store.chunks  # resuming: keep the interrupted run's plan
        elif chunk_size is None:
            # Calibrate on two small chunks (the first may include compilation); their
            # statistics are kept, so nothing is wasted and the result does not depend on it.
            n0 = min(n_trials, MIN_CHUNK)
            first_result = [np.asarray(sim.chunk(key, 0, n0), dtype=np.int64)]
            n1 = min(n_trials - n0, MIN_CHUNK)
            dt = 1.0
            if n1 > 0:
                tc = time.perf_counter()
                first_result.append(np.asarray(sim.chunk(key, n0, n1), dtype=np.int64))
                dt = max(time.perf_counter() - tc, 1e-6)
            chunk_size = int(np.clip(n1 * TARGET_CHUNK_SECONDS / dt, MIN_CHUNK, 50_000_000))
            head = [(0, n0)] + ([(n0, n1)] if n1 else [])
            rest = plan_chunks(n_trials - n0 - n1, chunk_size) if n_trials > n0 + n1 else []
            chunks = head + [(s + n0 + n1, n) for s, n in rest]
        else:
            chunks = plan_chunks(n_trials, chunk_size)
        if store is not None:
            store.save_plan(chunks)
        totals = np.zeros(sim.n_stats, dtype=np.int64)
        show = progress if progress is not None else True
        with tqdm(total=n_trials, unit="trial", unit_scale=True, delay=0 if progress else 2.0,
                  disable=not show, desc=sim.name, leave=False) as bar:
            results: list[np.ndarray] = []
            for i, (first, n) in enumerate(chunks):
                if i in done:
                    res = done[i]
                elif first_result is not None and i < len(first_result):
                    res = first_result[i]
                else:
                    res = np.asarray(sim.chunk(key, first, n), dtype=np.int64)
                if store is not None and i not in done:
                    store.save_chunk(i, res)
                results.append(res)
                bar.update(n)
        for res in results:  # fixed merge order
            totals += res
        frame = sim.summarise(totals, n_trials)
        return RunResult(frame, totals, n_trials, int(seed), time.perf_counter() - t0, chunks)
    finally:
        if threads is not None:
            numba.set_num_threads(old_threads)


class _ChunkStore:
    """Finished chunks on disk, each written atomically (write then rename)."""

    def __init__(self, run_dir, sim, n_trials, seed):
        self.dir = Path(run_dir)
        self.dir.mkdir(parents=True, exist_ok=True)
        self.manifest = self.dir / "manifest.json"
        self.ident = {"sim": sim.name, "n_trials": int(n_trials), "seed": int(seed),
                      "n_stats": int(sim.n_stats)}
        self.chunks = None
        if self.manifest.exists():
            m = json.loads(self.manifest.read_text())
            if m.get("ident") != self.ident:
                raise UserInputError("holds a different run (simulation, trials or seed differ)",
                                     where=str(self.dir), field="manifest.json")
            self.chunks = [tuple(c) for c in m["chunks"]]

    def save_plan(self, chunks):
        if self.chunks is None:
            self.chunks = [tuple(c) for c in chunks]
            _atomic_write(self.manifest, json.dumps({"ident": self.ident,
                                                     "chunks": self.chunks}).encode())

    def load(self):
        out = {}
        for p in self.dir.glob("chunk-*.npy"):
            out[int(p.stem.split("-")[1])] = np.load(p)
        return out

    def save_chunk(self, i, res):
        tmp = self.dir / f".chunk-{i:06d}.npy.tmp"
        with open(tmp, "wb") as f:
            np.save(f, res)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, self.dir / f"chunk-{i:06d}.npy")


def _atomic_write(path: Path, data: bytes):
    tmp = path.with_name("." + path.name + ".tmp")
    with open(tmp, "wb") as f:
        f.write(data)
        f.flush()
        os.fsync(f.fileno())
    os.replace(tmp, path)


def write_frame(frame: pd.DataFrame, path: str | Path) -> Path:
    """Write a result frame as CSV or Parquet (by extension), atomically."""
    path = Path(path)
    suffix = path.suffix.lower()
    if suffix not in (".csv", ".parquet"):
        raise UserInputError("output must end in .csv or .parquet", where=str(path),
                             field="--out")
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name("." + path.name + ".tmp")
    if suffix == ".csv":
        frame.to_csv(tmp, index=False)
    else:
        try:
            frame.to_parquet(tmp, index=False)
        except ImportError:
            raise UserInputError("Parquet output needs pyarrow (pip install 'simkit[parquet]')",
                                 where=str(path), field="--out") from None
    os.replace(tmp, path)
    return path
