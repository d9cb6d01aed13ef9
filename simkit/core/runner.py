"""The trial runner: chunks of trials on numba threads or a Dask cluster, merged in a fixed order.

A :class:`Simulation` turns (run key, first trial, count) into a vector of ``int64`` sufficient
statistics (counts, sums of integer-valued outcomes and of their squares, histograms). Integer
sums are associative, so merging chunks in any grouping gives the same totals: together with
per-trial random streams this makes a seeded run bit-identical for any thread count, any chunk
size and any backend. Floating-point accumulation would not be (its rounding depends on the
grouping), so kernels count half-points or other integer units and the summary converts at the
end.

Where chunks run (``backend``, see :mod:`simkit.core.backends`): ``"local"`` (this process,
``threads`` numba threads) or a Dask cluster (``backends.dask_backend(workers=N)`` for a local
cluster of N single-threaded processes, ``"tcp://HOST:PORT"`` for a running scheduler).

Chunks are sized to run ~0.1-1 s (DESIGN.md) from two short calibration chunks, whose
statistics are kept; a progress bar appears for runs longer than a couple of seconds.

Checkpoints (``run_dir``): every finished chunk is written atomically to
``run_dir/<sim name>-<hash>/chunk-<first>-<n>.npy``, where ``<hash>`` is a hash of the
simulation's identity (:func:`fingerprint`: its class and every attribute, arrays by content),
so a command that does several runs (one per policy pairing, per variant...) keeps each in its
own subdirectory. ``manifest.json`` beside the chunks records the run (simulation fingerprint,
seed, code identity: below) and the chunk plan. Running the same call again with the same
``run_dir`` loads the finished chunks and computes only the missing ones, so an interrupted run
ends with the numbers of an uninterrupted one. Since a chunk's statistics depend only on (code,
simulation, seed, first trial, count), a later run of the same simulation with more trials or
another ``target_ci`` reuses them too; another seed in the same directory is refused.
(``simkit resume DIR`` re-runs the saved command line: see ``cli``.)

What computed the chunks is part of the run's identity too (:func:`code_identity`): a result is
a function of the code and rules data as much as of its inputs, so chunks of two code versions
must never be summed into one total. Each manifest records a digest of every ``.py`` file of
the simkit package and every file in its ``data/`` folders (the rules tables), the source
digests of the modules outside simkit and outside the installed libraries that define the
simulation's class or a function it holds (a test's or a user's own simulation), and the numba
and numpy versions (a compiler upgrade may change floating-point code). A run directory belongs
to one code version: resuming a subdirectory, or adding a new one beside others, after any of
these changed is refused with one message naming what changed (start a new run dir). The
subdirectory name stays the hash of the simulation's inputs alone, so changed code finds its
old subdirectory and is refused there.

Why the whole package and not only the files a game's kernels reach: finding those would need
an import analysis (parsing every module, ~0.5 s) where hashing ~1 MB takes ~10 ms, and a
needless refusal costs a re-run where a missed dependency would cost a silently wrong number.
So any edit to simkit, even to code a run does not use, ends its resumability. The package
digest is taken once per process, when first needed: a long command keeps writing its run dir
while someone edits the checkout, and a process that reloads edited modules (IPython
``autoreload``) must start a new run dir. Code that is not in a file (a notebook cell, the
REPL) cannot be hashed: only its qualified name is.

Adaptive stopping (``target_ci=W``): ``n_trials`` becomes the *cap*. Trials are added in blocks
ending at checkpoints; at each checkpoint the frame is summarised and the run stops once every
reported rate's 95% interval has half-width ``(hi - lo) / 2 <= W`` (or the cap is reached).
The first checkpoint is ``max(2000, 0.25 / W^2)`` trials (a quarter of what a rate of 1/2
needs), rounded up to a multiple of 1000; each next one is the current count times
``1.1 * (widest half-width / W)^2`` (half-widths shrink as 1/sqrt(n)), clamped to 1.25x-16x,
rounded up to a multiple of 1000 and to the cap. Checkpoints depend only on the merged
integer totals, never on timing, chunk sizes, threads or backend, so the stopping point and
the result are reproducible for a seed (chunks are cut inside blocks). Rows whose rate is
undefined (a NaN interval, e.g. a conditional rate whose condition never happened) do not
hold the run open.

Which columns are "reported rates": the simulation may list them in an optional attribute
``reported_rates`` (column names); otherwise every column named ``p_*`` or ``*_rate`` that
has a 95% interval in the frame. A rate's interval columns are ``<col>_lo``/``<col>_hi``, or
for ``<x>_rate`` also ``<x>_lo``/``<x>_hi`` (the scenario frames' ``win_rate``,
``win_lo``, ``win_hi``). Means (``mean_*``) are not rates: their interval width is in the
figure's own units, which one W cannot bound across figures.
"""

from __future__ import annotations

import functools
import hashlib
import json
import math
import os
import re
import sys
import sysconfig
import time
import types
from dataclasses import dataclass, field
from pathlib import Path
from typing import Protocol, runtime_checkable

import numpy as np
import pandas as pd
from tqdm.auto import tqdm

from . import backends
from .dice import stream_key
from .errors import UserInputError
from .files import atomic_path, atomic_write, write_frame  # noqa: F401  (write_frame is API)


@runtime_checkable
class Simulation(Protocol):
    """What the runner needs from a game's simulation (and what Dask needs: it must pickle).

    Optional: ``reported_rates`` (column names the ``target_ci`` rule watches) and
    ``identity()`` (what :func:`fingerprint` hashes instead of the attributes)."""

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
    #: with ``target_ci``: the widest rate half-width at the end, and whether it met the target
    half_width: float | None = None
    target_met: bool | None = None


TARGET_CHUNK_SECONDS = 0.5
MIN_CHUNK = 1_000
MAX_CHUNK = 50_000_000
CHECK_STEP = 1_000
TASKS_PER_WORKER = (4, 64)  # Dask: chunks per worker per block, at least / at most



def plan_chunks(n_trials: int, chunk_size: int, start: int = 0) -> list[tuple[int, int]]:
    """(first, n) pairs covering ``start .. n_trials-1`` in order."""
    return [(s, min(chunk_size, n_trials - s)) for s in range(start, n_trials, chunk_size)]


def _validate(n_trials, seed, chunk_size, target_ci=None):
    if not isinstance(n_trials, (int, np.integer)) or isinstance(n_trials, bool) or n_trials < 1:
        raise UserInputError(f"must be a positive whole number, got {n_trials!r}",
                             field="--trials")
    if not isinstance(seed, (int, np.integer)) or isinstance(seed, bool) or seed < 0:
        raise UserInputError(f"must be a non-negative whole number, got {seed!r}", field="--seed")
    if chunk_size is not None and chunk_size < 1:
        raise UserInputError(f"must be a positive whole number, got {chunk_size!r}",
                             field="chunk_size")
    if target_ci is not None and not (isinstance(target_ci, (int, float, np.floating))
                                      and 0 < target_ci <= 0.5):
        raise UserInputError(f"must be a half-width in (0, 0.5], got {target_ci!r}",
                             field="--target-ci")


def run(sim: Simulation, n_trials: int, seed: int = 0, *, chunk_size: int | None = None,
        backend="local", threads: int | None = None, progress: bool | None = None,
        run_dir: str | Path | None = None, target_ci: float | None = None,
        first: int = 0) -> RunResult:
    """Run ``n_trials`` trials of ``sim`` with ``seed`` and return the summarised frame.

    ``chunk_size=None`` sizes chunks from a short calibration chunk; it changes how work is
    cut, never the result. ``backend``: ``"local"``, ``"tcp://HOST:PORT"`` or a backend object
    (:mod:`simkit.core.backends`). ``threads`` sets numba's thread count of the local backend.
    ``progress=None`` shows a bar only when the run lasts more than ~2 s. ``run_dir``: keep
    finished chunks there and reuse them (module docstring). ``target_ci``: stop once every
    reported rate's 95% half-width is at most this; ``n_trials`` is then the cap.
    ``first``: run trials ``first .. first+n_trials-1`` of the seed's stream instead of
    ``0 .. n_trials-1``; the totals of consecutive pieces add up to those of one run over all
    of them, so a caller that already holds the first trials' totals plays only the rest.
    """
    _validate(n_trials, seed, chunk_size, target_ci)
    if first and (target_ci is not None or run_dir is not None):
        # a checkpoint plan and a stopping rule are laid out from trial 0
        raise ValueError("first is for plain runs (no target_ci, no run_dir)")
    be = backends.resolve(backend, threads)
    key = stream_key(int(seed))
    t0 = time.perf_counter()
    store = _ChunkStore(run_dir, sim, n_trials, seed, target_ci) if run_dir is not None else None
    stored = store.load() if store is not None else {}
    ready: dict[tuple[int, int], np.ndarray] = {}  # computed while calibrating
    size = [chunk_size if chunk_size is not None else (store.chunk_size if store else None)]

    def plan_block(a: int, b: int) -> list[tuple[int, int]]:
        out, pos = [], a
        for f, n in (store.plan if store is not None else []):  # resuming: the saved cuts
            if f == pos and f + n <= b:
                out.append((f, n))
                pos += n
        if pos < b:
            if size[0] is None:
                size[0] = calibrate(pos, b)
                for c in sorted(ready):  # the calibration chunks open the plan
                    if c[0] == pos:
                        out.append(c)
                        pos += c[1]
            cs = size[0]
            if chunk_size is None and be.n_workers > 1:
                # calibrated: enough tasks to share, not so many that overhead dominates
                lo = math.ceil((b - pos) / (TASKS_PER_WORKER[1] * be.n_workers))
                hi = math.ceil((b - pos) / (TASKS_PER_WORKER[0] * be.n_workers))
                cs = min(max(cs, lo), max(hi, MIN_CHUNK))
            out += plan_chunks(b, cs, start=pos) if pos < b else []
            if store is not None:
                store.extend_plan(out, size[0])
        return out

    def calibrate(pos: int, b: int) -> int:
        # Two small chunks (the first may include compilation); their statistics are kept,
        # so nothing is wasted and the result does not depend on the timing.
        n0 = min(b - pos, MIN_CHUNK)
        n1 = min(b - pos - n0, MIN_CHUNK)
        cal = [(0, pos, n0)] + ([(1, pos + n0, n1)] if n1 else [])
        secs = {}
        for i, res, dt in be.run_chunks(sim, key, cal):
            _, f, n = cal[i]
            ready[(f, n)] = _checked(sim, res)
            secs[i] = dt
            if store is not None:
                store.save_chunk(f, n, ready[(f, n)])
        if not n1:
            return MIN_CHUNK
        dt = max(min(secs.values()) if be.n_workers > 1 else secs[1], 1e-6)
        return int(np.clip(n1 * TARGET_CHUNK_SECONDS / dt, MIN_CHUNK, MAX_CHUNK))

    totals = np.zeros(sim.n_stats, dtype=np.int64)
    all_chunks: list[tuple[int, int]] = []
    done = first
    end = first + n_trials if target_ci is None else _first_check(target_ci, n_trials)
    frame, hw = None, None
    show = progress if progress is not None else True
    with tqdm(total=end - first, unit="trial", unit_scale=True, delay=0 if progress else 2.0,
              disable=not show, desc=sim.name, leave=False) as bar:
        while True:
            block = plan_block(done, end)
            results: dict[tuple[int, int], np.ndarray] = {}
            todo = []
            for idx, c in enumerate(block):
                got = stored.get(c)
                if got is None:
                    got = ready.pop(c, None)
                if got is not None:
                    results[c] = got
                    bar.update(c[1])
                else:
                    todo.append((idx, c[0], c[1]))
            for idx, res, _ in be.run_chunks(sim, key, todo):
                c = block[idx]
                results[c] = _checked(sim, res)
                if store is not None:
                    store.save_chunk(c[0], c[1], results[c])
                bar.update(c[1])
            for c in block:  # fixed merge order
                totals += results[c]
            all_chunks += block
            done = end
            if target_ci is None:
                break
            frame = sim.summarise(totals, done)
            hw = max_rate_half_width(sim, frame)
            if hw <= target_ci or done >= n_trials:
                break
            end = _next_check(done, hw, target_ci, n_trials)
            bar.total = end
            bar.refresh()
    if frame is None:
        frame = sim.summarise(totals, done - first)
    met = None
    if target_ci is not None:
        met = bool(hw <= target_ci)
        frame.attrs["target_ci"] = {"target": float(target_ci), "half_width": float(hw),
                                    "met": met, "trials": int(done)}
        if not met:
            print(f"simkit: note: {sim.name}: widest rate interval is +/-{hw:.4g} after "
                  f"{done:,} trials (the --trials cap), above --target-ci {target_ci:g}",
                  file=sys.stderr)
    return RunResult(frame, totals, done - first, int(seed), time.perf_counter() - t0, all_chunks,
                     half_width=hw, target_met=met)


def _checked(sim, res) -> np.ndarray:
    res = np.asarray(res)
    if res.shape != (sim.n_stats,) or res.dtype != np.int64:
        raise RuntimeError(f"{sim.name}: chunk returned {res.dtype} {res.shape}, "
                           f"expected int64 ({sim.n_stats},)")
    return res


# --- adaptive stopping -----------------------------------------------------------------------

def _round_up(x: float) -> int:
    return int(math.ceil(x / CHECK_STEP) * CHECK_STEP)


def _first_check(target: float, cap: int) -> int:
    return min(cap, max(2 * MIN_CHUNK, _round_up(0.25 / (target * target))))


def _next_check(n: int, hw: float, target: float, cap: int) -> int:
    want = n * 1.1 * (hw / target) ** 2
    return min(cap, _round_up(min(max(want, 1.25 * n), 16.0 * n)))


def rate_columns(sim, frame: pd.DataFrame) -> list[tuple[str, str, str]]:
    """(rate, lo, hi) column names of the reported rates (module docstring)."""
    named = getattr(sim, "reported_rates", None)
    cols = list(named) if named is not None else [
        c for c in frame.columns
        if isinstance(c, str) and (c.startswith("p_") or c.endswith("_rate"))]
    out = []
    for c in cols:
        pairs = [(f"{c}_lo", f"{c}_hi")]
        if c.endswith("_rate"):
            pairs.append((f"{c[:-5]}_lo", f"{c[:-5]}_hi"))
        for lo, hi in pairs:
            if lo in frame.columns and hi in frame.columns:
                out.append((c, lo, hi))
                break
        else:
            if named is not None:
                raise RuntimeError(f"{sim.name}: reported rate {c!r} has no _lo/_hi columns")
    return out


def max_rate_half_width(sim, frame: pd.DataFrame) -> float:
    """The widest 95% half-width ``(hi - lo) / 2`` over every reported rate and row."""
    cols = rate_columns(sim, frame)
    if not cols:
        raise UserInputError(f"{sim.name} reports no rates with intervals to aim at",
                             field="--target-ci")
    widest = 0.0
    for _, lo, hi in cols:
        w = (frame[hi].to_numpy(dtype=float) - frame[lo].to_numpy(dtype=float)) / 2
        w = w[~np.isnan(w)]
        if w.size:
            widest = max(widest, float(w.max()))
    return widest


# --- checkpoints -----------------------------------------------------------------------------

def fingerprint(sim) -> str:
    """A hex digest of a simulation's identity, stable across processes and sessions.

    Hashes ``sim.identity()`` when the simulation defines it, else its class and attributes
    recursively (arrays by dtype, shape and bytes; functions and numba kernels by qualified
    name; other objects by class and attributes; last resort ``repr`` without addresses).
    ``pickle`` bytes would not do: they vary with set order and string hashing per process.
    This is the simulation's inputs only: the code behind the names is :func:`code_identity`.
    """
    return _fingerprint(sim)[0]


def _fingerprint(sim) -> tuple[str, set]:
    """(:func:`fingerprint`, names of the modules defining the classes and functions met)."""
    h = hashlib.sha256()
    mods = {type(sim).__module__}
    ident = getattr(sim, "identity", None)
    _feed(h, ident() if callable(ident) else sim, set(), 0, mods)
    return h.hexdigest(), mods


_ADDR = re.compile(r" at 0x[0-9a-fA-F]+")


def _feed(h, x, seen: set, depth: int, mods: set | None = None):
    put = h.update
    if x is None or isinstance(x, (bool, int, float, complex, str, bytes, np.generic)):
        put(f"{type(x).__name__}:{x!r};".encode())
        return
    if depth > 50 or id(x) in seen:
        put(b"<cycle>;")
        return
    seen = seen | {id(x)}
    if isinstance(x, np.ndarray):
        put(f"nd:{x.dtype.str}:{x.shape}:".encode())
        put(np.ascontiguousarray(x).tobytes() if x.dtype != object else repr(x.tolist()).encode())
    elif isinstance(x, (pd.DataFrame, pd.Series)):
        put(f"pd:{type(x).__name__}:".encode())
        _feed(h, x.to_dict() if isinstance(x, pd.Series) else x.to_dict("list"), seen, depth + 1,
              mods)
    elif isinstance(x, dict):
        put(b"{")
        items = sorted(x.items(), key=lambda kv: _sub(kv[0]))
        for k, v in items:
            _feed(h, k, seen, depth + 1, mods)
            _feed(h, v, seen, depth + 1, mods)
        put(b"}")
    elif isinstance(x, (list, tuple)):
        put(f"{type(x).__name__}[".encode())
        for v in x:
            _feed(h, v, seen, depth + 1, mods)
        put(b"]")
    elif isinstance(x, (set, frozenset)):
        put(b"set[" + "".join(sorted(_sub(v, mods) for v in x)).encode() + b"]")
    elif hasattr(x, "py_func"):  # a numba dispatcher
        _feed(h, x.py_func, seen, depth + 1, mods)
    elif isinstance(x, (type, types.FunctionType, types.BuiltinFunctionType, types.MethodType,
                        types.ModuleType)):
        if mods is not None:
            mods.add(x.__name__ if isinstance(x, types.ModuleType)
                     else getattr(x, "__module__", None))
        put(f"fn:{getattr(x, '__module__', '')}.{getattr(x, '__qualname__', x.__name__)};"
            .encode())
    elif hasattr(x, "__dict__") or hasattr(x, "__slots__"):
        if mods is not None:
            mods.add(type(x).__module__)
        put(f"obj:{type(x).__module__}.{type(x).__qualname__}".encode())
        attrs = dict(getattr(x, "__dict__", {}))
        for s in getattr(type(x), "__slots__", ()):
            if hasattr(x, s):
                attrs[s] = getattr(x, s)
        _feed(h, attrs, seen, depth + 1, mods)
    else:
        put(f"repr:{type(x).__qualname__}:{_ADDR.sub('', repr(x))};".encode())


def _sub(x, mods: set | None = None) -> str:
    h = hashlib.sha256()
    _feed(h, x, set(), 0, mods)
    return h.hexdigest()


# --- the code behind a run (module docstring) --------------------------------------------------

#: the simkit package whose sources :func:`code_identity` hashes
_CODE_ROOT = Path(__file__).resolve().parent.parent


def _file_digest(path) -> str:
    # line endings normalised: a Windows checkout of the same commit is the same code
    return hashlib.sha256(Path(path).read_bytes().replace(b"\r\n", b"\n")).hexdigest()[:16]


@functools.lru_cache(maxsize=None)
def _package_files(root: str) -> dict:
    """{"simkit/core/runner.py": digest, ...}: every ``.py`` file of the package and every file
    under a ``data/`` folder, caches and hidden files left out. Once per process (docstring)."""
    base = Path(root)
    out = {}
    for d, dirs, names in os.walk(base):
        dirs[:] = sorted(x for x in dirs if x != "__pycache__" and not x.startswith("."))
        rel = Path(d).relative_to(base)
        for n in sorted(names):
            if not n.startswith(".") and (n.endswith(".py") or "data" in rel.parts):
                out[(Path(base.name) / rel / n).as_posix()] = _file_digest(Path(d) / n)
    return out


@functools.lru_cache(maxsize=1)
def _library_dirs() -> tuple:
    import site

    paths = sysconfig.get_paths()
    dirs = [paths.get(k) for k in ("stdlib", "platstdlib", "purelib", "platlib")]
    dirs += site.getsitepackages() if hasattr(site, "getsitepackages") else []
    dirs.append(site.getusersitepackages())
    return tuple({Path(d).resolve() for d in dirs if d})


_MODULE_DIGESTS: dict = {}  # module name -> (the module object hashed, digest)


def _module_digest(name) -> str | None:
    """The source digest of a module outside simkit and the installed libraries (a test's or a
    user's simulation), taken when this process first meets that module object; ``None`` for
    simkit's own modules (hashed whole), libraries (versions) and code without a file."""
    if not isinstance(name, str) or name == "simkit" or name.startswith("simkit."):
        return None
    mod = sys.modules.get(name)
    f = getattr(mod, "__file__", None)
    if not f or not f.endswith(".py"):
        return None
    path = Path(f).resolve()
    if path.is_relative_to(_CODE_ROOT) or any(path.is_relative_to(d) for d in _library_dirs()):
        return None
    seen = _MODULE_DIGESTS.get(name)
    if seen is None or seen[0] is not mod:  # a re-imported module is hashed again
        seen = _MODULE_DIGESTS[name] = (mod, _file_digest(path))
    return seen[1]


def code_identity(sim=None) -> dict:
    """What computes a simulation's chunks, as JSON-ready data: a digest of the simkit
    package's code and rules data, the digests of the modules outside simkit that define the
    simulation's class or the functions it holds, and the numba and numpy versions. Cheap
    (hashlib over ~1 MB, once per process); it imports nothing."""
    return _code_identity(_fingerprint(sim)[1] if sim is not None else set())


def _code_identity(mods) -> dict:
    files = _package_files(str(_CODE_ROOT))
    h = hashlib.sha256()
    for k in sorted(files):
        h.update(f"{k}\0{files[k]}\n".encode())
    numba = sys.modules.get("numba")  # imported with the kernels (``dice``)
    outside = {m: d for m in sorted(x for x in mods if isinstance(x, str))
               if (d := _module_digest(m)) is not None}
    return {"simkit": h.hexdigest(), "modules": outside,
            "numba": getattr(numba, "__version__", None), "numpy": np.__version__}


def _what_changed(old, old_files, new, new_files) -> str:
    """Which of the code identities' parts differ, in a few words."""
    if not isinstance(old, dict):
        return "the run was started by a simkit that did not record its code"
    out = []
    if old.get("simkit") != new["simkit"]:
        if isinstance(old_files, dict):
            diff = sorted(k for k in set(old_files) | set(new_files)
                          if old_files.get(k) != new_files.get(k))
            more = len(diff) - 3
            out += diff[:3] + ([f"{more} more file{'s' * (more > 1)}"] if more > 0 else [])
        else:
            out.append("simkit's sources")
    om, nm = old.get("modules") or {}, new["modules"]
    out += [f"module {m}" for m in sorted(set(om) | set(nm)) if om.get(m) != nm.get(m)]
    out += [f"{k} {old.get(k)} -> {new[k]}" for k in ("numba", "numpy") if old.get(k) != new[k]]
    return ", ".join(out) or "the code identity"


_SAVED_CODE: dict = {}  # manifest path -> ((mtime, size), its code identity and files)


def _saved_code(manifest: Path):
    """(code identity, file digests) a manifest records, or ``None`` if unreadable; each
    manifest is parsed once per change, so a command adding its hundredth simulation to a run
    dir does not read the ninety-nine others again."""
    try:
        st = manifest.stat()
        stamp = (st.st_mtime_ns, st.st_size)
        hit = _SAVED_CODE.get(str(manifest))
        if hit is None or hit[0] != stamp:
            m = json.loads(manifest.read_text())
            # no "code": written by a simkit from before code identities, so other code
            hit = _SAVED_CODE[str(manifest)] = (stamp, (m["ident"].get("code"), m.get("files")))
    except (ValueError, KeyError, TypeError, AttributeError, OSError):
        return None
    return hit[1]


def _slug(name: str) -> str:
    return re.sub(r"[^A-Za-z0-9_.-]+", "-", str(name)).strip("-")[:40] or "sim"


class _ChunkStore:
    """Finished chunks of one run on disk, each written atomically (write, fsync, rename).

    Lives in ``run_dir/<sim name>-<hash of fingerprint>/``; chunk files are keyed by their
    trial range, so a plan cut differently on resume still finds every finished range. The
    manifest is written before the first chunk, so every chunk has a recorded code identity;
    chunk files found in a subdirectory without a manifest are recomputed, not trusted."""

    def __init__(self, run_dir, sim, n_trials, seed, target_ci=None):
        fp, mods = _fingerprint(sim)
        self.code = _code_identity(mods)
        self.files = _package_files(str(_CODE_ROOT))
        self.run_dir = Path(run_dir)
        self.dir = self.run_dir / f"{_slug(sim.name)}-{fp[:12]}"
        self.manifest = self.dir / "manifest.json"
        self.n_stats = int(sim.n_stats)
        # A chunk's statistics depend only on (code, simulation, seed, first, n): trial counts
        # and targets may differ between runs sharing the directory, so they are not part of it.
        self.ident = {"sim": sim.name, "fingerprint": fp, "seed": int(seed),
                      "n_stats": self.n_stats, "code": self.code}
        self.plan: list[tuple[int, int]] = []
        self.chunk_size = None
        self.trusted = self.manifest.exists()
        if self.trusted:
            try:
                m = json.loads(self.manifest.read_text())
                ident, plan, cs = m["ident"], m["plan"], m.get("chunk_size")
                if not isinstance(ident, dict):
                    raise TypeError
            except (ValueError, KeyError, TypeError):
                raise UserInputError("is not a simkit run manifest", where=str(self.manifest))
            self._same_code(ident.get("code"), m.get("files"))
            if ident != self.ident:
                diff = sorted(k for k in self.ident if ident.get(k) != self.ident[k])
                raise UserInputError(f"holds a different run ({', '.join(diff)} differ)",
                                     where=str(self.dir), field="manifest.json")
            self.plan = [(int(f), int(n)) for f, n in plan]
            self.chunk_size = cs
        else:
            # a new simulation in a run dir: the dir's other runs must come from this code too
            for other in sorted(self.run_dir.glob("*/manifest.json")):
                saved = _saved_code(other)
                if saved is not None:  # (an unreadable one is refused when it is resumed)
                    self._same_code(*saved)
            self.dir.mkdir(parents=True, exist_ok=True)
            self._write_manifest()

    def _same_code(self, code, files):
        if code != self.code:
            raise UserInputError(
                "the code or rules data changed since the run started ("
                + _what_changed(code, files, self.code, self.files)
                + "); its finished chunks will not be merged with new ones: start a new run dir",
                where=str(self.run_dir))

    def _write_manifest(self):
        atomic_write(self.manifest, json.dumps({"ident": self.ident, "files": self.files,
                                                "chunk_size": self.chunk_size,
                                                "plan": self.plan}))

    def extend_plan(self, chunks, chunk_size):
        known = set(self.plan)
        new = [c for c in chunks if c not in known]
        if new or self.chunk_size != chunk_size:
            self.plan = sorted(set(self.plan) | set(new))
            self.chunk_size = chunk_size
            self._write_manifest()

    def _path(self, first, n) -> Path:
        return self.dir / f"chunk-{first:012d}-{n:010d}.npy"

    def load(self) -> dict[tuple[int, int], np.ndarray]:
        out = {}
        if not self.trusted:  # written before this manifest: by unknown code
            return out
        for p in self.dir.glob("chunk-*.npy"):
            parts = p.stem.split("-")
            try:
                first, n = int(parts[1]), int(parts[2])
                arr = np.load(p, allow_pickle=False)
            except (ValueError, IndexError, OSError):
                continue  # not one of ours: recomputed rather than trusted
            if arr.shape == (self.n_stats,) and arr.dtype == np.int64:
                out[(first, n)] = arr
        return out

    def save_chunk(self, first, n, res):
        with atomic_path(self._path(first, n)) as tmp:
            with open(tmp, "wb") as f:
                np.save(f, res)
