"""A synthetic evaluator with an exactly known answer (:class:`ToyRace`), for tests and
benchmarks, and the model of a game evaluator's kernel."""

from __future__ import annotations

import numpy as np
import pandas as pd

from .. import dice
from .._numba import jit, pjit, prange
from .evaluate import Mean, Rate, StatEvaluator


def toy_table(n_fields: int, levels: int, *, seed: int = 0, rough: int = 0) -> np.ndarray:
    """Per-mille event chances by field and level: diminishing returns, a different pace per
    field, plus a fixed random roughness of up to ``rough`` per mille (a rugged landscape)."""
    rng = np.random.default_rng([seed, 7])
    x = np.arange(levels)
    base = rng.integers(50, 250, n_fields)[:, None]
    top = rng.integers(600, 950, n_fields)[:, None]
    pace = rng.uniform(0.1, 0.4, n_fields)[:, None]
    table = base + (top - base) * (1 - np.exp(-pace * x[None, :]))
    if rough:
        table = table + rng.integers(-rough, rough + 1, table.shape)
    return np.clip(np.rint(table), 0, 1000).astype(np.int64)


@jit
def _toy_events(st, table, cands, c):
    """One trial of one candidate: how many of its events happen (one d1000 per field)."""
    events = 0
    for j in range(cands.shape[1]):
        if dice.roll(st, dice.NO_SCRIPT, 1, 1000) <= table[j, cands[c, j]]:
            events += 1
    return events


@pjit
def _toy_kernel(cands, table, need, key, first, n):
    k = cands.shape[0]
    n_blocks = min(n, 16)
    part = np.zeros((k * n_blocks, 4), dtype=np.int64)
    for job in prange(k * n_blocks):
        c = job // n_blocks
        b = job % n_blocks
        lo = first + (n * b) // n_blocks
        hi = first + (n * (b + 1)) // n_blocks
        st = np.zeros(dice.STATE_SIZE, dtype=np.uint64)
        # sums kept in locals and stored once: neighbouring rows of ``part`` share a cache
        # line, and threads incrementing them per trial ran 10x slower than one thread
        wins = 0
        vp = 0
        vp_sq = 0
        wrecked = 0
        for t in range(lo, hi):
            dice.seed_trial(st, key, t)  # the candidate is not in the stream: common random numbers
            events = _toy_events(st, table, cands, c)
            wins += events >= need
            vp += events
            vp_sq += events * events
            wrecked += events == 0
        part[job, 0] = wins
        part[job, 1] = vp
        part[job, 2] = vp_sq
        part[job, 3] = wrecked
    out = np.zeros((k, 4), dtype=np.int64)
    for job in range(k * n_blocks):  # fixed merge order
        out[job // n_blocks] += part[job]
    return out


@pjit
def _toy_trials(cands, table, need, which, key, first, n):
    """Per-trial objective values (``which``: 0 win, 1 events, 2 minus destroyed)."""
    k = cands.shape[0]
    out = np.empty((k, n), dtype=np.int64)
    for c in prange(k):
        st = np.zeros(dice.STATE_SIZE, dtype=np.uint64)
        for i in range(n):
            dice.seed_trial(st, key, first + i)
            events = _toy_events(st, table, cands, c)
            if which == 0:
                out[c, i] = events >= need
            elif which == 1:
                out[c, i] = events
            else:
                out[c, i] = -(events == 0)
    return out


class ToyRace(StatEvaluator):
    """A synthetic race with an exactly known answer, for tests, benchmarks and as the model
    of a game evaluator. Field ``j`` at value ``x`` makes an event of chance
    ``table[j, x] / 1000`` (one d1000 per field per trial, drawn in the same order for every
    candidate: common random numbers); the candidate "wins" with at least ``need`` events,
    scores one "vp" per event and is "destroyed" with none."""

    name = "toy race"
    stats = (Rate("win", 0), Mean("vp", 1, 2), Rate("destroyed", 3))
    objective = "win_rate"

    def __init__(self, table, need: int = 2, objective: str = "win_rate"):
        self.table = np.ascontiguousarray(table, dtype=np.int64)
        self.need = int(need)
        self.objective = objective
        self.calls: list[tuple[int, int, int, int]] = []  # (key, first, n, k): for tests

    def evaluate(self, candidates, first_trial, n_trials, key):
        cands = np.ascontiguousarray(candidates, dtype=np.int64)
        self.calls.append((int(key), int(first_trial), int(n_trials), len(cands)))
        return _toy_kernel(cands, self.table, self.need, np.uint64(key), np.int64(first_trial),
                           np.int64(n_trials))

    def trial_scores(self, candidates, first_trial, n_trials, key) -> np.ndarray:
        """Per-trial values of the objective (for paired gaps in the finals)."""
        which = {"win_rate": 0, "mean_vp": 1, "-destroyed_rate": 2}.get(self.objective)
        if which is None:
            raise ValueError(f"ToyRace has no per-trial values for {self.objective!r}")
        cands = np.ascontiguousarray(candidates, dtype=np.int64)
        return _toy_trials(cands, self.table, self.need, which, np.uint64(key),
                           np.int64(first_trial), np.int64(n_trials))

    def chances(self, candidates) -> np.ndarray:
        x = np.atleast_2d(np.asarray(candidates, dtype=np.int64))
        return self.table[np.arange(self.table.shape[0])[None, :], x] / 1000.0

    def exact(self, candidates) -> pd.DataFrame:
        """Exact win rate, mean vp and destroyed rate (Poisson-binomial by recursion)."""
        rows = []
        for p in self.chances(candidates):
            dist = np.array([1.0])
            for pj in p:
                dist = np.append(dist * (1 - pj), 0.0) + np.append(0.0, dist * pj)
            rows.append({"win_rate": dist[self.need:].sum(), "mean_vp": p.sum(),
                         "destroyed_rate": dist[0]})
        return pd.DataFrame(rows)
