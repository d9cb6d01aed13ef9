"""Evaluators: the ``Evaluator`` protocol a game supplies (a compiled kernel playing trials),
:class:`StatEvaluator` which derives ``summarise``/``score`` from a declared statistics row,
and :func:`evaluate_batch`, which cuts a large evaluation into calls."""

from __future__ import annotations

import abc
from dataclasses import dataclass
from typing import Protocol, runtime_checkable

import numpy as np

from .. import stats


@runtime_checkable
class Evaluator(Protocol):
    """What the search needs from a game's evaluator (see the module docstring)."""

    name: str
    n_stats: int

    def evaluate(self, candidates: np.ndarray, first_trial: int, n_trials: int,
                 key: np.uint64) -> np.ndarray: ...

    def summarise(self, totals_row: np.ndarray, n_trials: int) -> dict: ...

    def score(self, totals: np.ndarray, n_trials: int) -> np.ndarray: ...


@dataclass(frozen=True)
class Rate:
    """A count of trials: figures ``<name>_rate, <name>_lo, <name>_hi``."""

    name: str
    column: int

    @property
    def figure(self) -> str:
        return f"{self.name}_rate"


@dataclass(frozen=True)
class Mean:
    """A per-trial integer quantity summed (``sum``) and summed squared (``sum_sq``):
    figures ``mean_<name>, <name>_lo, <name>_hi``, in units of ``scale`` per integer unit."""

    name: str
    sum: int
    sum_sq: int
    scale: float = 1.0

    @property
    def figure(self) -> str:
        return f"mean_{self.name}"


class StatEvaluator(abc.ABC):
    """Base class: ``summarise`` and ``score`` from a declared layout of the statistics row.

    Subclasses set ``name``, ``stats`` (a tuple of :class:`Rate` / :class:`Mean`) and
    ``objective`` (one figure name, e.g. ``"win_rate"`` or ``"mean_vp"``; a leading ``-``
    minimises it), and implement ``evaluate``.
    """

    name: str = "evaluator"
    stats: tuple = ()
    objective: str | None = None

    @property
    def n_stats(self) -> int:
        cols = [c for s in self.stats
                for c in ((s.column,) if isinstance(s, Rate) else (s.sum, s.sum_sq))]
        return max(cols) + 1

    def _objective(self):
        name = self.objective or self.stats[0].figure
        sign = -1.0 if name.startswith("-") else 1.0
        for s in self.stats:
            if s.figure == name.lstrip("-"):
                return s, sign
        raise ValueError(f"objective {name!r} is none of the figures "
                         f"{[s.figure for s in self.stats]}")

    @property
    def objective_interval(self) -> tuple[str, str, str]:
        s, _ = self._objective()
        return s.figure, f"{s.name}_lo", f"{s.name}_hi"

    @abc.abstractmethod
    def evaluate(self, candidates, first_trial, n_trials, key):
        """int64 totals, one row per candidate, of ``n_trials`` trials from ``first_trial``."""

    def score(self, totals, n_trials) -> np.ndarray:
        s, sign = self._objective()
        totals = np.atleast_2d(np.asarray(totals))
        col = s.column if isinstance(s, Rate) else s.sum
        scale = 1.0 if isinstance(s, Rate) else s.scale
        return sign * totals[:, col].astype(float) * scale / n_trials

    def summarise(self, totals_row, n_trials) -> dict:
        row = np.asarray(totals_row)
        out: dict[str, float] = {}
        for s in self.stats:
            if isinstance(s, Rate):
                lo, hi = stats.rate_ci(row[s.column], n_trials)
                out[s.figure] = float(row[s.column]) / n_trials
                out[f"{s.name}_lo"], out[f"{s.name}_hi"] = float(lo), float(hi)
            else:
                m, lo, hi = stats.mean_ci(row[s.sum] * s.scale, row[s.sum_sq] * s.scale ** 2,
                                          n_trials)
                out[s.figure] = float(m)
                out[f"{s.name}_lo"], out[f"{s.name}_hi"] = float(lo), float(hi)
        return out


DEFAULT_CHUNK = 100_000


def evaluate_batch(evaluator, candidates, first, n, key, chunk_size=DEFAULT_CHUNK, bar=None):
    """``evaluator.evaluate`` over many candidates and trials, cut into calls of about
    ``chunk_size`` candidate-trials; integer totals, so the cut never changes the result."""
    arr = np.asarray(candidates, dtype=np.int64).reshape(len(candidates), -1)
    out = np.zeros((len(arr), int(evaluator.n_stats)), dtype=np.int64)
    group = max(1, chunk_size // max(n, 1))
    piece = n if group > 1 else max(1, min(n, chunk_size))
    for g in range(0, len(arr), group):
        block = arr[g:g + group]
        for t in range(first, first + n, piece):
            m = min(piece, first + n - t)
            res = np.asarray(evaluator.evaluate(block, t, m, key))
            if res.shape != (len(block), out.shape[1]) or not np.issubdtype(res.dtype, np.integer):
                raise TypeError(f"{evaluator.name}: evaluate() must return integer totals of shape "
                                f"{(len(block), out.shape[1])}, got {res.dtype} {res.shape}")
            out[g:g + group] += res
            if bar is not None:
                bar.update(len(block) * m)
    return out


def _objective_name(evaluator) -> str:
    oi = getattr(evaluator, "objective_interval", None)
    return oi[0] if oi else "score"
