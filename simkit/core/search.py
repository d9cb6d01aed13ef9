"""Build search: which designs are strong, found by a genetic algorithm whose trials are spent
by successive halving on common random numbers, with finalists re-run on fresh seeds.

Shared by every "spend a budget" question (issue 4 section 5: Demon's Run 80-point ships;
issue 5 section 7: Dark Future cars on a budget). Game-agnostic: a game supplies a *design
space* (what a legal candidate is) and an *evaluator* (a compiled kernel that plays trials);
this module proposes candidates, spends trials, and returns a leaderboard with intervals.

Public API
==========

Candidates
----------
A candidate is a ``tuple`` of ``int`` (one per field of the space, e.g. the nine Function
Levels of a Demon's Run ship, or one catalogue index per Dark Future mount). Evaluators get a
batch of candidates as an ``int64`` array of shape ``(k, n_fields)``.

``DesignSpace`` (protocol; supplied by the game, or use :class:`IntBoxSpace`)
    ``columns: tuple[str, ...]``            names of the candidate fields (leaderboard columns)
    ``sample(rng) -> tuple``                a random LEGAL candidate (``rng``: numpy Generator)
    ``mutate(c, rng) -> tuple``             a legal neighbour of ``c``
    ``crossover(a, b, rng) -> tuple``       a legal child mixing ``a`` and ``b``
    ``describe(c) -> str``                  how a user writes it (``"fuel=210,si=14,..."``)
    ``is_legal(c) -> bool``                 (used on ``include=`` candidates and in tests)
    optional ``enumerate() -> list[tuple]`` every candidate (small spaces; :func:`efficiency`)

``IntBoxSpace(fields, budgets, *, legal=None, fill=True, describe=None)``
    Integer fields, each ``IntField(name, lo, hi, step=1, cost=...)``; its allowed values are
    ``lo, lo+step, ..., hi`` or an explicit ``values=(...)`` tuple (e.g. catalogue indices).
    ``cost`` is the price of a VALUE: an int is the price of every started ``step`` counted
    from 0 (``cost * ceil(value / step)``: ``cost=3`` PI at 3 points per Level; Fuel
    ``step=10, cost=1``; a field pinned with ``lo == hi`` pays for its value), a sequence
    aligned with the values, a callable ``value -> int``, or a dict ``{resource: any of
    those}`` when there are several budgets
    (Dark Future: ``{"dollars": ..., "weight": ...}``). ``budgets`` is ``{resource: limit}``
    (or one int for a single resource named ``"cost"``). ``legal(c) -> bool`` is an optional
    extra rule (turret combinations, links...). Sampling, mutation and crossover repair every
    child back inside the budgets (lowering random fields) and, with ``fill=True``, then raise
    random fields while any still fits, so candidates spend the budget ("maximal" builds).
    ``IntBoxSpace.cost(c) -> dict``; ``enumerate()`` lists every legal (maximal if ``fill``)
    candidate for small spaces.

``Evaluator`` (protocol; supplied by the game)
    ``name: str``; ``n_stats: int``
    ``evaluate(candidates, first_trial, n_trials, key) -> int64 array (k, n_stats)``
        integer statistics summed over trials ``first_trial .. first_trial+n_trials-1`` for
        every candidate (counts, integer sums and sums of squares: never floats, so results
        are bit-identical for any thread count and chunking). ``key`` is a ``np.uint64``
        stream key: trial ``t`` of EVERY candidate must draw from
        ``dice.seed_trial(st, key, t)`` (common random numbers: candidates are compared on
        identical races; never mix the candidate index into the stream).
    ``summarise(totals_row, n_trials) -> dict[str, float]``  figures with 95% intervals
    ``score(totals, n_trials) -> float array (k,)``           what the search maximises
    optional ``trial_scores(candidates, first_trial, n_trials, key) -> int64 (k, n_trials)``
        the objective's value in every single trial (same streams as ``evaluate``; its mean
        times optional ``trial_scale`` (default 1) is ``score``). With it the leaderboard
        gains ``gap, gap_lo, gap_hi``: the leader's score minus each row's, with a PAIRED
        95% interval over the finals' common trials (DESIGN.md: comparisons use common
        random numbers; report paired intervals for differences).

``StatEvaluator`` (base class implementing ``summarise`` and ``score``)
    Subclass it, set ``name``, ``stats`` and ``objective``, implement ``evaluate``::

        class RaceEvaluator(StatEvaluator):
            name = "demons-run race"
            stats = (Rate("win", 0), Mean("vp", 1, 2), Rate("destroyed", 3))
            objective = "win_rate"            # or "mean_vp"
            def evaluate(self, candidates, first_trial, n_trials, key): ...

    ``Rate(name, column)`` gives ``<name>_rate, <name>_lo, <name>_hi`` (Wilson interval,
    ``stats.rate_ci``); ``Mean(name, sum_column, sq_column, scale=1.0)`` gives
    ``mean_<name>, <name>_lo, <name>_hi`` (t interval, ``stats.mean_ci``; ``scale`` turns
    integer units such as half-points into the reported unit). ``n_stats`` is derived.

Search
------
``search(space, evaluator, *, trials_budget, seed=0, population=32, generations=None,
min_trials=100, eta=3, max_trials=None, finalists=10, final_trials=None, include=(),
progress=None, threads=None, chunk_size=None, **run_opts) -> pandas.DataFrame``

    * proposals: a small genetic algorithm (tournament selection among the current leaders,
      crossover, mutation; every proposal new, legal by construction); ``population`` new
      candidates per generation; ``include`` = candidates always raced (a user's own build).
    * racing: successive halving on common random numbers (asynchronous, ASHA-style). Rung
      ``r`` = racing trials ``0 .. min_trials*eta**r - 1`` of the racing stream; a candidate
      is promoted to rung ``r+1`` while it is in the top ``1/eta`` of all candidates that
      reached rung ``r``, compared on exactly the same trials. Rungs stop at ``max_trials``.
      When the space runs dry (every candidate raced, nobody left to promote), every rung
      promotes ``2/eta`` instead once (a second look for candidates one unlucky rung
      dropped); after that the racing stops and the finals get the rest of the budget.
    * racing stops when its share of ``trials_budget`` (candidate-trials, racing AND
      finals) is spent, after ``generations``, or when the space has run dry (above).
    * finals: the ``finalists`` best (deepest rung, then score) are re-run for
      ``final_trials`` trials each on a FRESH stream (a key independent of the racing key;
      trial ``t`` the same for every finalist), and the leaderboard reports those figures.
      Unset, ``final_trials`` is whatever the racing left of the budget shared out equally
      (at least 20% of the budget is kept for it).
    * ``method="race"`` (``keep=3``, ``polish=True``; the default when the evaluator sets
      ``search_method = "race"``; needs ``trial_scores``): the pool is the whole space when
      it has at most ``ENUMERATE_POOL`` candidates, else the best the GA with successive
      halving finds with 40% of the racing budget; the pool is raced by successive
      elimination on paired per-trial values (every round the same further trials for all
      still in play; dropped when each of the top ``keep`` beats it beyond a one-sided paired
      interval of z ``RACE_Z``, accepted when it beats every outsider so); the leader is then
      polished: its one-move neighbours (``space.neighbours``) raced against it on a fresh
      stream per round, moving while one is better beyond the interval
      (``attrs["local_optimum"]``, ``attrs["polish"]``). Finals as above with 10% of the
      budget; rank = the racing's order, figures = the finals', ``gap`` = paired to rank 1.
    * deterministic given ``seed``: the same leaderboard, bit for bit, for any thread count
      and any ``chunk_size`` (candidate-trials per ``evaluate`` call; it only cuts work).
    * ``**run_opts`` are the CLI run flags (``cliutil.run_options(args)``); ``threads`` and
      ``progress`` are used, unknown flags left at ``None`` are ignored.

    Returns the leaderboard, one row per finalist, best first: ``rank``, the space's
    ``columns``, ``build`` (``space.describe``), the evaluator's figures (with
    ``StatEvaluator`` e.g. ``win_rate, win_lo, win_hi, mean_vp, vp_lo, vp_hi,
    destroyed_rate, destroyed_lo, destroyed_hi``), ``trials`` (final trials, fresh seeds),
    ``search_trials`` and ``search_score`` (racing trials and score on the racing stream),
    ``included`` (True for ``include=`` rows, which are always in the finals).
    ``board.attrs`` (plain data only: pandas compares attrs when it concatenates or groups
    frames, and a DataFrame there makes that raise): ``"progress"`` (a dict of lists, one
    entry per generation: ``generation, trials_used, candidates, best_score, best_build,
    best_trials, best_lo, best_hi``; ``progress_frame(board)`` gives it as a DataFrame),
    ``"seed"``, ``"racing_key"``, ``"final_key"``, ``"trials_used"``, ``"trials_budget"``,
    ``"objective"``, ``"candidates"`` (how many were raced), ``"rungs"``.

    ``"columns"``: the columns to print (``cliutil.emit(board, args, columns=...)``).

``progress_frame(board) -> DataFrame``   the search's progress, one row per generation.

``add_search_options(parser)`` / ``search_options(args) -> dict``
    The command-line flags every ``simkit builds GAME`` search shares (``--trials-budget``,
    ``--population``, ``--generations``, ``--min-trials``, ``--finalists``,
    ``--final-trials``), and the matching keyword arguments for :func:`search` (defined in
    ``simkit.cliutil``, so the ``simkit`` parser is built without importing numba); with
    ``cliutil.add_run_options`` for ``--seed``/``--threads``/``--no-progress``::

        board = search(space, ev, seed=args.seed, **search_options(args),
                       **cliutil.run_options(args))

``versus(space, evaluator_against, opponent, **search_kwargs) -> DataFrame``
    The strongest answer to a given build: ``evaluator_against(opponent)`` must return an
    evaluator racing each candidate against the fixed ``opponent`` (the game writes that
    kernel); this runs :func:`search` on it, includes the mirror match (``opponent`` itself,
    when legal in ``space``) as a reference row, and sets ``board.attrs["versus"]``.

``plot_leaderboard(board, path, *, figure=None, title="") -> Path``
    Each finalist's objective with its 95% interval (``included`` builds in orange), the
    paired gap to the leader when the board has ``gap`` columns, and the search's progress:
    the leader's racing score against trials spent (``progress_frame(board)``).

``efficiency(space, evaluator, *, budgets, top=5, truth_trials=..., repeats=3, seed=0,
truth=None, progress=False, **search_kwargs) -> DataFrame``
    On a small space whose every candidate can be evaluated (``space.enumerate()``), the
    ground truth is every candidate evaluated with ``truth_trials`` trials on its own stream
    (or ``truth``: exact scores aligned with ``enumerate()``). For each trials budget, rows
    for ``method="search"`` (this module) and ``method="exhaustive"`` (every candidate given
    budget//len(space) trials, ranked by that): ``method, trials_budget, repeat,
    trials_used, top_recall`` (share of the true top ``top`` in the method's top ``top``),
    ``found_all`` (bool), ``best_found`` (true best is ranked first). ``attrs["summary"]``:
    ``{method: smallest budget from which on (at it and every larger budget tried) every
    repeat found the whole true top, or None}``;
    ``attrs["true_top"]`` (their descriptions), ``attrs["truth_scores"]``.

Helpers
-------
``evaluate_batch(evaluator, candidates, first, n, key, chunk_size=100_000, bar=None)``
    ``evaluate`` over many candidates, cut into calls of ~``chunk_size`` candidate-trials.
``ToyRace(table, need=2)`` and ``toy_table(n_fields, levels, seed=, rough=)``
    a synthetic evaluator whose exact answer is known (``ToyRace.exact(candidates)``); it is
    also the model of a game evaluator: ``prange`` over (candidate, block of trials) pairs,
    ``dice.seed_trial(st, key, t)`` per trial whatever the candidate, per-block sums kept in
    local variables and stored once (threads writing neighbouring rows of one array every
    trial share cache lines: 10x slower on two threads), merged in a fixed order.
    In a whole race, a candidate's different choices shift every later roll of a single
    stream, and the common random numbers drift apart; giving each independent source of
    chance its own stream (e.g. one dice state per ship or per hazard, seeded from ``key``
    mixed with the source's number) keeps the races comparable for longer.
"""

from __future__ import annotations

import abc
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Protocol, Sequence, runtime_checkable

import numba
import numpy as np
import pandas as pd
from tqdm.auto import tqdm

from ..cliutil import add_search_options, search_options  # noqa: F401  (CLI flags; kept here)
from . import stats
from . import dice
from ._numba import jit, pjit, prange
from .dice import _mix64_py, stream_key
from .errors import UserInputError
from .files import save_figure

__all__ = ["DesignSpace", "IntField", "IntBoxSpace", "Evaluator", "Rate", "Mean",
           "StatEvaluator", "search", "progress_frame", "versus", "efficiency",
           "plot_leaderboard", "evaluate_batch", "add_search_options", "search_options",
           "ToyRace", "toy_table"]

Candidate = tuple


# --- design spaces ------------------------------------------------------------------------------
@runtime_checkable
class DesignSpace(Protocol):
    """What the search needs from a game's design space (see the module docstring)."""

    columns: tuple[str, ...]

    def sample(self, rng: np.random.Generator) -> Candidate: ...

    def mutate(self, c: Candidate, rng: np.random.Generator) -> Candidate: ...

    def crossover(self, a: Candidate, b: Candidate, rng: np.random.Generator) -> Candidate: ...

    def describe(self, c: Candidate) -> str: ...

    def is_legal(self, c: Candidate) -> bool: ...


@dataclass(frozen=True)
class IntField:
    """One integer field: values ``lo, lo+step, ..., hi`` (or explicit ``values``), each with a
    price (see :class:`IntBoxSpace`). Later values count as "more" when the budget is filled."""

    name: str
    lo: int = 0
    hi: int = 0
    step: int = 1
    cost: Any = 1
    values: tuple | None = None

    def value_list(self) -> list[int]:
        if self.values is not None:
            vals = [int(v) for v in self.values]
            if not vals or len(set(vals)) != len(vals):
                raise ValueError(f"field {self.name!r}: values must be distinct and non-empty")
            return vals
        if self.step < 1 or self.hi < self.lo:
            raise ValueError(f"field {self.name!r}: need lo <= hi and step >= 1")
        return list(range(int(self.lo), int(self.hi) + 1, int(self.step)))


def _price_table(spec, field: IntField, values: list[int]) -> np.ndarray:
    if callable(spec):
        out = [int(spec(v)) for v in values]
    elif isinstance(spec, (int, np.integer)) and not isinstance(spec, bool):
        # an int prices every started step counted from 0, as 102 A prices Fuel by the 10
        # Levels; a field pinned to one value (lo == hi) still pays for it
        step = max(1, int(field.step))
        out = [int(spec) * -(-v // step) for v in values]
    else:
        out = [int(x) for x in spec]
        if len(out) != len(values):
            raise ValueError(f"field {field.name!r}: {len(out)} prices for {len(values)} values")
    return np.asarray(out, dtype=np.int64)


class IntBoxSpace:
    """Integer fields bought from one or more budgets; legal by construction.

    ``fields``: :class:`IntField` s. ``budgets``: ``{resource: limit}`` or an int (resource
    ``"cost"``). A field's ``cost`` is an int per step, a sequence per value, a callable of the
    value, or a dict ``{resource: ...}`` of those (a resource it does not name costs nothing).
    ``legal``: optional extra rule ``candidate -> bool``. With ``fill`` every candidate the
    space hands out is maximal: no single field can go one value up within the budgets.
    """

    def __init__(self, fields: Sequence[IntField], budgets, *, legal: Callable | None = None,
                 fill: bool = True, describe: Callable | None = None, max_tries: int = 200):
        if not fields:
            raise ValueError("an IntBoxSpace needs at least one field")
        self.fields = tuple(fields)
        self.columns = tuple(f.name for f in self.fields)
        if len(set(self.columns)) != len(self.columns):
            raise ValueError("field names must be distinct")
        if isinstance(budgets, (int, np.integer)):
            budgets = {"cost": int(budgets)}
        self.budgets = {str(k): int(v) for k, v in budgets.items()}
        self.resources = tuple(self.budgets)
        self.limit = np.array([self.budgets[r] for r in self.resources], dtype=np.int64)
        self.values = [f.value_list() for f in self.fields]
        self._pos = [{v: i for i, v in enumerate(vals)} for vals in self.values]
        # price[f] has shape (n_resources, n_values_f)
        self.price = []
        for f, vals in zip(self.fields, self.values):
            spec = f.cost if isinstance(f.cost, dict) else {self.resources[0]: f.cost}
            unknown = set(spec) - set(self.resources)
            if unknown:
                raise ValueError(f"field {f.name!r} prices unknown resources {sorted(unknown)}")
            self.price.append(np.stack([
                _price_table(spec[r], f, vals) if r in spec else np.zeros(len(vals), np.int64)
                for r in self.resources]))
        self.legal = legal
        self.fill = fill
        self._describe = describe
        self.max_tries = max_tries
        # the same prices as plain tuples: the GA's repair loops run on these, and numpy calls
        # on two-element arrays cost more than the arithmetic
        self._pv = [[tuple(int(x) for x in p[:, i]) for i in range(p.shape[1])]
                    for p in self.price]
        self._lim = tuple(int(x) for x in self.limit)
        floor = self._spent([0] * len(self.fields))
        if any(a > b for a, b in zip(floor, self._lim)):
            raise ValueError(f"even the lowest value of every field costs {floor}, "
                             f"over the budgets {self.budgets}")
        # cheapest value of each field per resource, to keep room for fields still to choose
        self._cheapest = np.stack([p.min(axis=1) for p in self.price])  # (n_fields, n_res)

    # -- positions (value indices) <-> candidates
    def _spent(self, pos) -> list[int]:
        total = [0] * len(self._lim)
        for f, i in enumerate(pos):
            for r, x in enumerate(self._pv[f][i]):
                total[r] += x
        return total

    def _to_candidate(self, pos) -> Candidate:
        return tuple(int(self.values[f][i]) for f, i in enumerate(pos))

    def _to_pos(self, c) -> list[int] | None:
        if len(c) != len(self.fields):
            return None
        try:
            return [self._pos[f][int(v)] for f, v in enumerate(c)]
        except (KeyError, TypeError, ValueError):
            return None

    def cost(self, c) -> dict[str, int]:
        """What ``c`` spends of each budget."""
        pos = self._to_pos(c)
        if pos is None:
            raise ValueError(f"{c!r} is not a point of this space")
        return dict(zip(self.resources, self._spent(pos)))

    def _fits(self, pos) -> bool:
        return all(a <= b for a, b in zip(self._spent(pos), self._lim)) and (
            self.legal is None or bool(self.legal(self._to_candidate(pos))))

    def is_legal(self, c) -> bool:
        pos = self._to_pos(c)
        return pos is not None and self._fits(pos)

    def is_maximal(self, c) -> bool:
        """No field can take its next value within the budgets (and the extra rule)."""
        pos = self._to_pos(c)
        if pos is None:
            return False
        for f in range(len(pos)):
            if pos[f] + 1 < len(self.values[f]):
                up = list(pos)
                up[f] += 1
                if self._fits(up):
                    return False
        return True

    def describe(self, c) -> str:
        if self._describe is not None:
            return self._describe(c)
        return ",".join(f"{n}={v}" for n, v in zip(self.columns, c))

    # -- repair and fill
    def _repair(self, pos, rng, keep=()) -> list[int] | None:
        """Lower random fields one value at a time until every budget holds; ``keep`` fields
        are lowered only when nothing else can help."""
        pos = list(pos)
        for _ in range(sum(len(v) for v in self.values) + 1):
            over = [r for r, (a, b) in enumerate(zip(self._spent(pos), self._lim)) if a > b]
            if not over:
                return pos
            helps = [f for f in range(len(pos)) if pos[f] > 0
                     and any(self._pv[f][pos[f] - 1][r] < self._pv[f][pos[f]][r] for r in over)]
            pick = [f for f in helps if f not in keep] or helps
            if not pick:
                return None
            pos[pick[rng.integers(len(pick))]] -= 1
        return None

    def _fill(self, pos, rng, hold=()) -> list[int]:
        """Raise random fields one value at a time while any still fits (``hold`` last)."""
        pos = list(pos)
        for held in (True, False):
            while True:
                can = []
                for f in range(len(pos)):
                    if (held and f in hold) or pos[f] + 1 >= len(self.values[f]):
                        continue
                    pos[f] += 1
                    if self._fits(pos):
                        can.append(f)
                    pos[f] -= 1
                if not can:
                    break
                pos[can[rng.integers(len(can))]] += 1
            if not hold:
                break
        return pos

    def _finish(self, pos, rng, keep=()) -> list[int] | None:
        pos = self._repair(pos, rng, keep)
        if pos is None:
            return None
        if self.fill:
            pos = self._fill(pos, rng, hold=keep)
        return pos if self._fits(pos) else None

    # -- the DesignSpace protocol
    def sample(self, rng) -> Candidate:
        n = len(self.fields)
        for _ in range(self.max_tries):
            pos = [0] * n
            spent = np.asarray(self._spent(pos), dtype=np.int64)
            for f in rng.permutation(n):
                f = int(f)
                rest = spent - self.price[f][:, 0]
                ok = np.flatnonzero(np.all(rest[:, None] + self.price[f] <= self.limit[:, None],
                                           axis=0))
                pos[f] = int(ok[rng.integers(len(ok))])
                spent = rest + self.price[f][:, pos[f]]
            pos = self._finish(pos, rng)
            if pos is not None:
                return self._to_candidate(pos)
        raise ValueError("could not sample a legal candidate: the extra `legal` rule rejects "
                         f"every one of {self.max_tries} tries")

    def mutate(self, c, rng) -> Candidate:
        start = self._to_pos(c)
        if start is None:
            raise ValueError(f"{c!r} is not a point of this space")
        n = len(self.fields)
        for _ in range(self.max_tries):
            pos = list(start)
            k = 1 if n == 1 or rng.random() < 0.7 else 2
            moved = [int(f) for f in rng.choice(n, size=k, replace=False)]
            for f in moved:
                m = len(self.values[f])
                if m == 1:
                    continue
                if rng.random() < 0.25:  # a jump anywhere, else a few steps
                    pos[f] = int(rng.integers(m))
                else:
                    d = int(rng.integers(1, 4)) * (1 if rng.random() < 0.5 else -1)
                    pos[f] = int(np.clip(pos[f] + d, 0, m - 1))
            pos = self._finish(pos, rng, keep=tuple(moved))
            if pos is not None and pos != start:
                return self._to_candidate(pos)
        return tuple(c)

    def crossover(self, a, b, rng) -> Candidate:
        pa, pb = self._to_pos(a), self._to_pos(b)
        if pa is None or pb is None:
            raise ValueError("crossover of a candidate that is not a point of this space")
        for _ in range(self.max_tries):
            mask = rng.random(len(pa)) < 0.5
            pos = self._finish([x if m else y for x, y, m in zip(pa, pb, mask)], rng)
            if pos is not None:
                return self._to_candidate(pos)
        return tuple(a)

    def enumerate(self, limit: int = 200_000) -> list[Candidate]:
        """Every legal candidate (only maximal ones with ``fill``), in lexicographic order."""
        n = len(self.fields)
        cheapest_rest = np.zeros((n + 1, len(self.resources)), dtype=np.int64)
        for f in range(n - 1, -1, -1):
            cheapest_rest[f] = cheapest_rest[f + 1] + self._cheapest[f]
        out: list[Candidate] = []
        pos = [0] * n

        def walk(f, spent):
            if f == n:
                if (self.legal is None or self.legal(self._to_candidate(pos))) and (
                        not self.fill or self.is_maximal(self._to_candidate(pos))):
                    out.append(self._to_candidate(pos))
                    if len(out) > limit:
                        raise ValueError(f"the space has more than {limit} candidates")
                return
            for i in range(len(self.values[f])):
                s = spent + self.price[f][:, i]
                if np.all(s + cheapest_rest[f + 1] <= self.limit):
                    pos[f] = i
                    walk(f + 1, s)
            pos[f] = 0

        walk(0, np.zeros(len(self.resources), dtype=np.int64))
        return out

    def neighbours(self, c, rng=None) -> list[Candidate]:
        """Every legal candidate one move of points away from ``c``: one field one value
        down, another one value up (then, with ``fill``, anything left over spent by raising
        fields, at random with ``rng``, else in field order). The polish of
        :func:`search` (``method="race"``) walks these."""
        start = self._to_pos(c)
        if start is None:
            raise ValueError(f"{c!r} is not a point of this space")
        out: list[Candidate] = []
        for down in range(len(start)):
            if start[down] == 0:
                continue
            for up in range(len(start)):
                if up == down or start[up] + 1 >= len(self.values[up]):
                    continue
                pos = list(start)
                pos[down] -= 1
                pos[up] += 1
                if not self._fits(pos):
                    continue
                if self.fill:
                    pos = (self._fill(pos, rng, hold=(down,)) if rng is not None
                           else self._fill_in_order(pos, hold=(down,)))
                cand = self._to_candidate(pos)
                if pos != start and cand not in out:
                    out.append(cand)
        return out

    def _fill_in_order(self, pos, hold=()) -> list[int]:
        pos = list(pos)
        for f in [f for f in range(len(pos)) if f not in hold] + list(hold):
            while pos[f] + 1 < len(self.values[f]):
                pos[f] += 1
                if not self._fits(pos):
                    pos[f] -= 1
                    break
        return pos


# --- evaluators ---------------------------------------------------------------------------------
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


# --- the search ---------------------------------------------------------------------------------
_FINAL_SALT = 0x46494E414C5F5345  # the finals' stream: independent of the racing stream
_TRUTH_SALT = 0x5452555448534545  # efficiency(): the ground truth's stream
_GA_SALT = 0x47415F50524F504F  # proposals' numpy generator

DEFAULT_CHUNK = 100_000
IMMIGRANTS = 0.1  # share of fresh random samples among proposals (keeps diversity)
CROSSOVER = 0.5
SECOND_LOOKS = 1


def _derived_key(key, salt: int) -> np.uint64:
    return np.uint64(_mix64_py((int(key) ^ salt) & 0xFFFFFFFFFFFFFFFF))


def _check_int(value, name, lo):
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < lo:
        raise UserInputError(f"must be a whole number >= {lo}, got {value!r}", field=name)
    return int(value)


class _Ledger:
    """Every candidate raced so far, its cumulative totals at each rung it reached, and the
    trials spent. Trials are counted per candidate: ``k`` candidates x ``n`` trials = ``k*n``."""

    def __init__(self, evaluator, key, rungs, chunk_size, bar):
        self.evaluator, self.key, self.rungs = evaluator, key, rungs
        self.chunk_size, self.bar = chunk_size, bar
        self.cands: list[Candidate] = []
        self.index: dict[Candidate, int] = {}
        self.cum: list[list[np.ndarray]] = []
        self.members: list[list[int]] = []  # per rung: the candidates that reached it
        self.used = 0

    def add(self, c) -> int:
        c = tuple(int(x) for x in c)
        if c not in self.index:
            self.index[c] = len(self.cands)
            self.cands.append(c)
            self.cum.append([])
        return self.index[c]

    def depth(self, i) -> int:
        return len(self.cum[i])

    def race(self, ids, rung, budget_left) -> int:
        """Take ``ids`` (all at depth ``rung``) through rung ``rung``; returns how many fit."""
        first = 0 if rung == 0 else self.rungs[rung - 1]
        n = self.rungs[rung] - first
        ids = list(ids)[:max(0, budget_left // n)]
        if ids:
            res = evaluate_batch(self.evaluator, [self.cands[i] for i in ids], first, n,
                                 self.key, self.chunk_size, self.bar)
            while len(self.members) <= rung:
                self.members.append([])
            for i, r in zip(ids, res):
                self.cum[i].append(r if rung == 0 else self.cum[i][-1] + r)
                self.members[rung].append(i)
            self.used += len(ids) * n
        return len(ids)

    def scores_at(self, ids, rung) -> np.ndarray:
        if not ids:
            return np.zeros(0)
        tot = np.stack([self.cum[i][rung] for i in ids])
        return np.asarray(self.evaluator.score(tot, self.rungs[rung]), dtype=float)

    def standing(self) -> tuple[list[int], np.ndarray]:
        """Raced candidates best first: deepest rung, then score there, then age."""
        ids = [i for i in range(len(self.cands)) if self.cum[i]]
        if not ids:
            return [], np.zeros(0)
        depth = np.array([self.depth(i) for i in ids])
        score = np.empty(len(ids))
        for d in np.unique(depth):
            sel = np.flatnonzero(depth == d)
            score[sel] = self.scores_at([ids[j] for j in sel], d - 1)
        order = np.lexsort((np.array(ids), -score, -depth))
        return [ids[j] for j in order], score[order]


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


def _run_options(run_opts):
    threads = run_opts.pop("threads", None)
    progress = run_opts.pop("progress", None)
    for k, v in run_opts.items():
        if v is not None and v is not False:
            raise UserInputError(f"is not supported by the build search (got {v!r})",
                                 field="--" + k.replace("_", "-"))
    return threads, progress


def search(space, evaluator, *, trials_budget: int, seed: int = 0, population: int = 32,
           generations: int | None = None, min_trials: int = 100, eta: int = 3,
           max_trials: int | None = None, finalists: int = 10, final_trials: int | None = None,
           include: Sequence = (), progress: bool | None = None, threads: int | None = None,
           chunk_size: int | None = None, method: str | None = None, keep: int = 3,
           polish: bool = True, **run_opts) -> pd.DataFrame:
    """Search ``space`` for the candidates ``evaluator`` scores highest; see the module
    docstring for the method. Returns the leaderboard (a DataFrame, best first)."""
    t_opt, p_opt = _run_options(dict(run_opts))
    threads = threads if threads is not None else t_opt
    progress = progress if progress is not None else p_opt
    budget = _check_int(trials_budget, "--trials-budget", 1)
    seed = _check_int(seed, "--seed", 0)
    population = _check_int(population, "--population", 2)
    min_trials = _check_int(min_trials, "--min-trials", 1)
    eta = _check_int(eta, "eta", 2)
    finalists = _check_int(finalists, "--finalists", 1)
    if generations is not None:
        generations = _check_int(generations, "--generations", 1)
    chunk_size = DEFAULT_CHUNK if chunk_size is None else _check_int(chunk_size, "chunk_size", 1)
    max_trials = (min_trials * eta ** 4 if max_trials is None
                  else _check_int(max_trials, "max_trials", min_trials))
    include = [tuple(int(x) for x in c) for c in include]
    for c in include:
        if not space.is_legal(c):
            raise UserInputError(f"{space.describe(c)} is not a legal candidate", field="include")
    if method is None:   # the evaluator may ask for one (Demon's Run races pair: "race")
        method = getattr(evaluator, "search_method", "halving")
    if method not in ("halving", "race"):
        raise UserInputError(f"must be 'halving' or 'race', got {method!r}", field="method")
    if method == "race":
        keep = _check_int(keep, "keep", 1)
        if final_trials is not None:
            final_trials = _check_int(final_trials, "--final-trials", 1)
        old_threads = numba.get_num_threads()
        if threads is not None:
            numba.set_num_threads(max(1, min(int(threads), numba.config.NUMBA_NUM_THREADS)))
        try:
            with tqdm(total=budget, unit="trial", unit_scale=True, leave=False,
                      desc=f"search {getattr(evaluator, 'name', '')}".strip(),
                      disable=progress is False, delay=0 if progress else 2.0) as bar:
                return _search_race(space, evaluator, budget=budget, seed=seed,
                                    population=population, generations=generations,
                                    min_trials=min_trials, eta=eta, max_trials=max_trials,
                                    finalists=finalists, final_trials=final_trials,
                                    include=include, keep=keep, polish=polish,
                                    chunk_size=chunk_size, bar=bar)
        finally:
            if threads is not None:
                numba.set_num_threads(old_threads)
    n_final = finalists + len(include)
    spread = final_trials is None
    if spread:
        final_trials = max(min_trials, budget // 5 // n_final)
    final_trials = _check_int(final_trials, "--final-trials", 1)
    racing_budget = budget - n_final * final_trials
    if racing_budget < population * min_trials:
        need = n_final * final_trials + population * min_trials
        raise UserInputError(f"{budget:,} trials is too small for {population} candidates x "
                             f"{min_trials} trials plus {n_final} finalists x {final_trials:,} "
                             f"fresh trials: give at least {need:,}", field="--trials-budget")
    rungs = [min_trials]
    while rungs[-1] * eta <= max_trials:
        rungs.append(rungs[-1] * eta)

    racing_key = stream_key(seed)
    final_key = _derived_key(racing_key, _FINAL_SALT)
    rng = np.random.default_rng([seed, _GA_SALT])
    old_threads = numba.get_num_threads()
    if threads is not None:
        numba.set_num_threads(max(1, min(int(threads), numba.config.NUMBA_NUM_THREADS)))
    try:
        with tqdm(total=budget, unit="trial", unit_scale=True, leave=False,
                  desc=f"search {getattr(evaluator, 'name', '')}".strip(),
                  disable=progress is False, delay=0 if progress else 2.0) as bar:
            led = _Ledger(evaluator, racing_key, rungs, chunk_size, bar)
            history = _race(space, evaluator, led, rng, racing_budget, population, eta,
                            generations, include)
            order, score = led.standing()
            chosen = order[:finalists]
            for c in include:
                if led.index[c] not in chosen:
                    chosen.append(led.index[c])
            if spread:  # what racing left (a small space runs dry) sharpens the finals
                final_trials = (budget - led.used) // len(chosen)
            final = evaluate_batch(evaluator, [led.cands[i] for i in chosen], 0, final_trials,
                                   final_key, chunk_size, bar)
            paired = (_paired_sums(evaluator, [led.cands[i] for i in chosen], final_trials,
                                   final_key, chunk_size)
                      if hasattr(evaluator, "trial_scores") else None)
    finally:
        if threads is not None:
            numba.set_num_threads(old_threads)

    racing_score = dict(zip(order, score))
    final_score = np.asarray(evaluator.score(final, final_trials), dtype=float)
    rank = np.lexsort((np.arange(len(chosen)), -final_score))
    gaps = (_gaps(paired, rank[0], final_trials, float(getattr(evaluator, "trial_scale", 1.0)))
            if paired is not None else None)
    rows = []
    for r, j in enumerate(rank, start=1):
        i = chosen[j]
        c = led.cands[i]
        row = {"rank": r, **dict(zip(space.columns, c)), "build": space.describe(c)}
        row.update(evaluator.summarise(final[j], final_trials))
        raced = led.depth(i) > 0  # an include= build beyond the first generation's budget
        row.update(trials=final_trials,
                   search_trials=led.rungs[led.depth(i) - 1] if raced else 0,
                   search_score=racing_score.get(i, np.nan), included=c in include)
        if gaps is not None:
            row.update(gap=gaps[0][j], gap_lo=gaps[1][j], gap_hi=gaps[2][j])
        rows.append(row)
    board = pd.DataFrame(rows)
    board.attrs.update(progress=pd.DataFrame(history).to_dict("list"), seed=seed,
                       racing_key=int(racing_key), final_key=int(final_key),
                       trials_used=led.used + len(chosen) * final_trials,
                       trials_budget=budget, objective=_objective_name(evaluator),
                       candidates=len(led.cands), rungs=list(led.rungs),
                       columns=[c for c in board.columns if c not in ("build", "included")])
    return board


def _paired_sums(evaluator, candidates, n, key, chunk_size):
    """Sums of each finalist's per-trial objective and of every pair's products, over the
    finals' trials: enough for a paired interval of any difference (common random numbers
    make a difference far sharper than two independent intervals suggest)."""
    arr = np.asarray(candidates, dtype=np.int64)
    k = len(arr)
    s1 = np.zeros(k, dtype=np.int64)
    cross = np.zeros((k, k), dtype=np.int64)
    piece = max(1, chunk_size // k)
    for t in range(0, n, piece):
        m = min(piece, n - t)
        ts = np.asarray(evaluator.trial_scores(arr, t, m, key), dtype=np.int64)
        if ts.shape != (k, m):
            raise TypeError(f"{evaluator.name}: trial_scores() must return shape {(k, m)}, "
                            f"got {ts.shape}")
        s1 += ts.sum(axis=1)
        cross += ts @ ts.T
    return s1, cross


def _gaps(paired, lead, n, scale):
    """Leader minus each finalist, with a paired t interval, in per-trial objective units."""
    s1, cross = paired
    d = s1[lead] - s1
    d2 = cross[lead, lead] + np.diag(cross) - 2 * cross[lead]
    mean, lo, hi = stats.mean_ci(d, d2, n)
    return mean * scale, lo * scale, hi * scale


def _objective_name(evaluator) -> str:
    oi = getattr(evaluator, "objective_interval", None)
    return oi[0] if oi else "score"


def _race(space, evaluator, led, rng, racing_budget, population, eta, generations, include):
    """The generations: propose, race new candidates through rung 0, promote (ASHA)."""
    history = []
    interval = getattr(evaluator, "objective_interval", None)
    gen = 0
    lenient = 0  # promotions per rung: (1 + lenient) / eta of its candidates
    while generations is None or gen < generations:
        left = racing_budget - led.used
        if left < led.rungs[0]:
            break
        new = _propose(space, led, rng, population, include if gen == 0 else ())
        ids = [led.add(c) for c in new]
        raced = led.race(ids, 0, left)
        promoted = 0
        exhausted = raced < len(ids)
        for r in range(len(led.rungs) - 1):
            if exhausted:
                break
            at = led.members[r] if r < len(led.members) else []
            k = min(len(at), len(at) * (1 + lenient) // eta)
            if k == 0:
                continue
            sc = led.scores_at(at, r)
            top = [at[j] for j in np.lexsort((np.array(at), -sc))[:k]]
            up = [i for i in top if led.depth(i) == r + 1]
            done = led.race(up, r + 1, racing_budget - led.used)
            promoted += done
            exhausted = done < len(up)
        gen += 1
        order, score = led.standing()
        if order:
            b = order[0]
            d = led.depth(b) - 1
            row = {"generation": gen, "trials_used": led.used, "candidates": len(led.cands),
                   "best_score": float(score[0]), "best_build": space.describe(led.cands[b]),
                   "best_trials": led.rungs[d]}
            if interval:
                summ = evaluator.summarise(led.cum[b][d], led.rungs[d])
                row["best_lo"], row["best_hi"] = summ[interval[1]], summ[interval[2]]
            history.append(row)
        if exhausted:
            break
        if raced == 0 and promoted == 0:
            # Nothing new to propose (a small space, all raced) and nobody left to promote:
            # once, every rung promotes twice as many, a second look for candidates one
            # unlucky rung dropped; then the finals get the rest. (bench_search.py: on the
            # 146-build space this found the true top 5 in 5 of 5 repeats at 400,000 trials,
            # against 3 of 5 without the second look, and 4 of 5 spending the rest instead on
            # more looks and deeper rungs.)
            if lenient < SECOND_LOOKS:
                lenient += 1
            else:
                break
    return history


def _propose(space, led, rng, m, include):
    """``m`` candidates never raced before: ``include`` first, then GA children."""
    out: list[Candidate] = []
    seen = set(led.index)
    for c in include:
        if c not in seen and c not in out:
            out.append(c)
    parents, _ = led.standing()
    parents = [led.cands[i] for i in parents[:m]]

    def pick():
        a, b = rng.integers(len(parents), size=2)
        return parents[min(a, b)]  # binary tournament on the standing

    tries = 0
    while len(out) < m and tries < 20 * m:
        tries += 1
        u = rng.random()
        if not parents or u < IMMIGRANTS:
            child = space.sample(rng)
        elif u < IMMIGRANTS + CROSSOVER and len(parents) > 1:
            child = space.crossover(pick(), pick(), rng)
            if rng.random() < 0.5:
                child = space.mutate(child, rng)
        else:
            child = space.mutate(pick(), rng)
        child = tuple(int(x) for x in child)
        if child not in seen and child not in out:
            out.append(child)
    return out


# --- racing on paired per-trial values (method="race", issue 14 item 5) -----------------------
_RACE_SALT = 0x524143455F534545   # the elimination race's stream
_POLISH_SALT = 0x504F4C4953485F53  # the polish rounds' streams (one per round)
ENUMERATE_POOL = 2_000  # spaces this small are raced whole (no GA)
RACE_Z = 2.5            # one-sided z of every elimination and acceptance (repeated looks)


class _Paired:
    """Per-trial objective values of candidates on the common trials ``0..n-1`` of one stream
    (``evaluator.trial_scores``, higher is better), and the candidate-trials spent."""

    def __init__(self, evaluator, key, chunk_size, bar, spend):
        self.ev, self.key, self.chunk, self.bar, self.spend = evaluator, key, chunk_size, bar, spend
        self.x: dict = {}

    def n(self, c) -> int:
        return sum(len(a) for a in self.x.get(c, ()))

    def extend(self, cands, n_to):
        """Bring every candidate of ``cands`` to ``n_to`` trials (same trials for all)."""
        by_n: dict = {}
        for c in cands:
            have = self.n(c)
            if have < n_to:
                by_n.setdefault(have, []).append(c)
        for have, group in sorted(by_n.items()):
            arr = np.asarray(group, dtype=np.int64)
            piece = max(1, self.chunk // len(group))
            for t in range(have, n_to, piece):
                m = min(piece, n_to - t)
                ts = np.asarray(self.ev.trial_scores(arr, t, m, self.key), dtype=np.int64)
                if ts.shape != (len(group), m):
                    raise TypeError(f"{self.ev.name}: trial_scores() must return shape "
                                    f"{(len(group), m)}, got {ts.shape}")
                for c, row in zip(group, ts):
                    self.x.setdefault(c, []).append(row)
                self.spend(len(group) * m)
                if self.bar is not None:
                    self.bar.update(len(group) * m)

    def matrix(self, cands, n) -> np.ndarray:
        out = np.empty((len(cands), n), dtype=np.int64)
        for i, c in enumerate(cands):
            a = self.x[c]
            if len(a) > 1:
                self.x[c] = a = [np.concatenate(a)]
            out[i] = a[0][:n]
        return out


def _surely_better(xa, xb, z) -> bool:
    """Paired one-sided test on common trials: is ``a`` better than ``b`` beyond the noise?
    (The variance is floored at one discordant trial: two identical runs prove nothing.)"""
    d = (xa - xb).astype(np.float64)
    n = len(d)
    if n < 2:
        return False
    var = max(float(d.var(ddof=1)), 1.0 / n)
    return float(d.mean()) - z * np.sqrt(var / n) > 0


def _eliminate(paired, cands, *, keep, budget_left, start, z, grow=2.0):
    """Successive elimination for the top ``keep`` on common random numbers: every round all
    candidates still in play get the same further trials; a candidate is dropped when each of
    the ``keep`` best (by mean) beats it beyond a paired interval. Stops when ``keep`` are
    left or the budget is out. Returns (order best first, {cand: (trials, mean)}, history)."""
    alive = list(dict.fromkeys(cands))
    dropped: list = []  # rounds of dropped candidates, worst round first
    accepted: list = []  # surely in the top ``keep``: they stop racing (LUCB-style focus)
    info: dict = {}
    history = []
    n = 0
    step = max(2, int(start))
    while alive and len(alive) + len(accepted) > keep:
        k = keep - len(accepted)
        m = min(step, budget_left() // len(alive))
        if m < 1:
            break
        paired.extend(alive, n + m)
        n += m
        x = paired.matrix(alive, n)
        means = x.mean(axis=1)
        order = np.lexsort((np.arange(len(alive)), -means))
        top, rest = order[:k], order[k:]
        gone = [j for j in rest if all(_surely_better(x[t], x[j], z) for t in top)]
        for j in range(len(alive)):
            info[alive[j]] = (n, float(means[j]))
        if gone:
            dropped.append([alive[j] for j in sorted(gone, key=lambda j: -means[j])])
        gone_set = set(gone)
        still = [j for j in rest if j not in gone_set]
        sure = [t for t in top if still and all(_surely_better(x[t], x[j], z) for j in still)]
        accepted += [alive[t] for t in sure]
        sure_set = set(sure)
        alive = [alive[j] for j in order if j not in gone_set and j not in sure_set]
        history.append({"trials": n, "alive": len(alive) + len(accepted),
                        "best": (accepted + alive)[0], "best_score": float(means[order[0]])})
        step = int(np.ceil(step * grow))
    for c in alive:
        info.setdefault(c, (n, float("nan")))
    alive = sorted(accepted, key=lambda c: -info[c][1]) + sorted(alive, key=lambda c: -info[c][1])
    return alive + [c for rnd in reversed(dropped) for c in rnd], info, history


def _search_race(space, evaluator, *, budget, seed, population, generations, min_trials, eta,
                 max_trials, finalists, final_trials, include, keep, polish, chunk_size, bar):
    """method="race" (see :func:`search`): a pool (the whole space when small, else the GA
    with successive halving), successive elimination on paired per-trial values, the
    leader's polish over its one-move neighbours, finals on a fresh stream."""
    if not hasattr(evaluator, "trial_scores"):
        raise UserInputError(f"{evaluator.name} has no per-trial values (trial_scores): use "
                             "method='halving'", field="method")
    used = [0]

    def spend(k):
        used[0] += k

    def left(share_end):
        return lambda: max(0, share_end - used[0])

    n_final = finalists + len(include)
    if final_trials is None:
        final_trials = max(min_trials, budget // 10 // n_final)
    race_end = budget - n_final * final_trials
    if race_end < 2 * min_trials * 2:
        raise UserInputError(f"{budget:,} trials leave nothing to race after {n_final} "
                             f"finalists x {final_trials:,} fresh trials", field="--trials-budget")
    racing_key = stream_key(seed)
    race_key = _derived_key(racing_key, _RACE_SALT)
    final_key = _derived_key(racing_key, _FINAL_SALT)
    rng = np.random.default_rng([seed, _GA_SALT])
    pool = None
    enum = getattr(space, "enumerate", None)
    values = getattr(space, "values", None)
    if values is not None and np.prod([float(len(v)) for v in values]) > 50 * ENUMERATE_POOL:
        enum = None   # walking a big space only to find it too big takes minutes
    if enum is not None:
        try:
            every = enum(limit=ENUMERATE_POOL)
            if len(every) <= ENUMERATE_POOL:
                pool = list(dict.fromkeys(include + [tuple(int(v) for v in c) for c in every]))
        except (ValueError, TypeError):
            pool = None
    explored = 0
    ga_history: list = []
    if pool is None:
        # a big space: the GA with successive halving (the racing stream) finds the region
        explore_end = race_end * 2 // 5
        led = _Ledger(evaluator, racing_key, _rungs(min_trials, eta, max_trials), chunk_size, bar)
        ga_history = _race(space, evaluator, led, rng, explore_end, population, eta, generations,
                           include)
        explored = led.used
        spend(led.used)
        order, _ = led.standing()
        pool = list(dict.fromkeys(include + [led.cands[i] for i in order[:max(3 * finalists, 24)]]))
    paired = _Paired(evaluator, race_key, chunk_size, bar, spend)
    whole = explored == 0
    # the elimination gets what polishing leaves (a whole small space needs no polish: every
    # neighbour of the leader is in the race already)
    polish_share = 0 if (whole or not polish or not hasattr(space, "neighbours")) else \
        (race_end - used[0]) // 3
    order, info, history = _eliminate(paired, pool, keep=keep,
                                      budget_left=left(race_end - polish_share),
                                      start=min_trials, z=RACE_Z)
    polish_rows: list = []
    local_optimum = None
    if polish_share:
        leader = order[0]
        seen = {leader}
        for rnd in range(1, 10 ** 6):
            near = [c for c in space.neighbours(leader, rng) if space.is_legal(c)]
            if not near:
                local_optimum = True
                break
            pk = _derived_key(racing_key, _POLISH_SALT + rnd)
            pp = _Paired(evaluator, pk, chunk_size, bar, spend)
            group = [leader] + near
            ordr, pinfo, _ = _eliminate(pp, group, keep=1, budget_left=left(race_end),
                                        start=min_trials, z=RACE_Z)
            n_common = min(pp.n(c) for c in group) if group else 0
            best = ordr[0]
            moved = False
            if best != leader and n_common > 1 and pp.n(best) >= 2:
                nb = min(pp.n(best), pp.n(leader))
                xb, xl = pp.matrix([best, leader], nb)
                moved = _surely_better(xb, xl, RACE_Z)
            # no neighbour surely better: a local optimum within the trials' resolution;
            # "confirmed" when every neighbour was also shown worse than the survivor
            survivors = [c for c in group if pp.n(c) == pp.n(ordr[0])]
            polish_rows.append({"round": rnd, "leader": space.describe(leader),
                                "neighbours": len(near), "trials": pp.n(leader),
                                "moved_to": space.describe(best) if moved else "",
                                "confirmed": (not moved) and len(survivors) == 1})
            if moved and best not in seen:
                seen.add(best)
                leader = best
                continue
            local_optimum = not moved
            break
        order = [leader] + [c for c in order if c != leader]
    chosen = order[:finalists]
    for c in include:
        if c not in chosen:
            chosen.append(c)
    final = evaluate_batch(evaluator, chosen, 0, final_trials, final_key, chunk_size, bar)
    spend(len(chosen) * final_trials)
    paired_f = _paired_sums(evaluator, chosen, final_trials, final_key, chunk_size)
    final_score = np.asarray(evaluator.score(final, final_trials), dtype=float)
    gaps = _gaps(paired_f, 0, final_trials, float(getattr(evaluator, "trial_scale", 1.0)))
    scale = float(getattr(evaluator, "trial_scale", 1.0))
    rows = []
    for r, c in enumerate(chosen, start=1):
        j = r - 1
        row = {"rank": r, **dict(zip(space.columns, c)), "build": space.describe(c)}
        row.update(evaluator.summarise(final[j], final_trials))
        n_c, mean_c = info.get(c, (0, float("nan")))
        row.update(trials=final_trials, search_trials=n_c, search_score=mean_c * scale,
                   included=c in include, gap=gaps[0][j], gap_lo=gaps[1][j], gap_hi=gaps[2][j])
        rows.append(row)
    board = pd.DataFrame(rows)
    prog = [{"generation": g["generation"], "trials_used": g["trials_used"],
             "candidates": g["candidates"], "best_score": g["best_score"],
             "best_build": g["best_build"], "best_trials": g["best_trials"]} for g in ga_history]
    for i, h in enumerate(history, start=len(prog) + 1):
        prog.append({"generation": i, "trials_used": explored + h["trials"],
                     "candidates": h["alive"], "best_score": h["best_score"] * scale,
                     "best_build": space.describe(h["best"]), "best_trials": h["trials"]})
    board.attrs.update(progress=pd.DataFrame(prog).to_dict("list"), seed=seed,
                       racing_key=int(racing_key), race_key=int(race_key),
                       final_key=int(final_key), trials_used=used[0], trials_budget=budget,
                       objective=_objective_name(evaluator), candidates=len(pool),
                       rungs=_rungs(min_trials, eta, max_trials) if explored else [],
                       method="race", keep=keep, polish=pd.DataFrame(polish_rows).to_dict("list"),
                       local_optimum=local_optimum, final_score=final_score.tolist(),
                       columns=[c for c in board.columns if c not in ("build", "included")])
    return board


def _rungs(min_trials, eta, max_trials):
    rungs = [min_trials]
    while rungs[-1] * eta <= max_trials:
        rungs.append(rungs[-1] * eta)
    return rungs


def progress_frame(board: pd.DataFrame) -> pd.DataFrame:
    """The search's progress (``board.attrs["progress"]``), one row per generation."""
    return pd.DataFrame(board.attrs.get("progress", {}))


def versus(space, evaluator_against: Callable, opponent, **search_kwargs) -> pd.DataFrame:
    """The strongest answer to ``opponent``: :func:`search` with the evaluator
    ``evaluator_against(opponent)`` (the game's kernel racing each candidate against the fixed
    build). The mirror match is raced and kept as a reference row when ``opponent`` is legal."""
    opponent = tuple(int(x) for x in opponent)
    include = list(search_kwargs.pop("include", ()))
    if space.is_legal(opponent) and opponent not in include:
        include.append(opponent)
    board = search(space, evaluator_against(opponent), include=include, **search_kwargs)
    board.attrs["versus"] = space.describe(opponent)
    return board


def plot_leaderboard(board: pd.DataFrame, path, *, figure: str | None = None,
                     title: str = "") -> Path:
    """Each finalist's objective with its 95% interval (fresh trials), the paired gap to the
    leader when the board has one, and the search's progress (the leader's racing score)."""
    from ..plots import plt

    figure = figure or board.attrs.get("objective", "score")
    name = figure[:-5] if figure.endswith("_rate") else figure.removeprefix("mean_")
    lo, hi = f"{name}_lo", f"{name}_hi"
    prog = progress_frame(board)
    panels = 3 if "gap" in board else 2
    fig, axes = plt.subplots(1, panels, figsize=(5 * panels + 2, 0.38 * len(board) + 2.5),
                             gridspec_kw={"width_ratios": [3] + [2] * (panels - 1)})
    ax = axes[0]
    y = np.arange(len(board))
    included = board.get("included", pd.Series(False, index=board.index)).to_numpy(bool)
    colors = np.where(included, "tab:orange", "tab:blue")

    def dots(ax, v, l, h):
        # points and bars, not bars from zero: the builds differ by a few points in the
        # third decimal, which bars from zero would hide
        for yi, vi, li, hi_, col in zip(y, v, l, h, colors):
            ax.errorbar(vi, yi, xerr=[[vi - li], [hi_ - vi]], fmt="o", color=col, capsize=3,
                        markersize=4)

    val = board[figure].to_numpy(float)
    if lo in board and hi in board:
        dots(ax, val, board[lo].to_numpy(float), board[hi].to_numpy(float))
    else:
        dots(ax, val, val, val)
    ax.set_yticks(y, [f"{r}. {b}" for r, b in zip(board["rank"], board["build"])], fontsize=7)
    ax.invert_yaxis()
    ax.set_xlabel(f"{figure}: 95% interval, {int(board['trials'].iloc[0]):,} fresh trials each"
                  + (" (orange: given builds)" if included.any() else ""), fontsize=8)
    ax.grid(axis="x", alpha=0.3)
    if panels == 3:
        axg = axes[1]
        dots(axg, board["gap"].to_numpy(float), board["gap_lo"].to_numpy(float),
             board["gap_hi"].to_numpy(float))
        axg.axvline(0, color="grey", linewidth=0.8)
        axg.set_yticks(y, [str(r) for r in board["rank"]], fontsize=7)
        axg.invert_yaxis()
        axg.set_xlabel(f"leader's {figure} minus this build's\n(paired 95% interval, "
                       "same trials)", fontsize=8)
        axg.grid(axis="x", alpha=0.3)
    ax2 = axes[-1]
    if len(prog):
        ax2.plot(prog["trials_used"], prog["best_score"], marker=".", color="tab:blue")
        if "best_lo" in prog:
            ax2.fill_between(prog["trials_used"], prog["best_lo"], prog["best_hi"], alpha=0.25,
                             color="tab:blue", linewidth=0)
        ax2.set_xlabel("racing trials spent", fontsize=8)
        ax2.set_ylabel(f"leader's {figure} (racing stream, 95% band)", fontsize=8)
        ax2.grid(alpha=0.3)
    else:
        ax2.axis("off")
    vs = board.attrs.get("versus")
    fig.suptitle(title or ("strongest builds" + (f" against {vs}" if vs else "")
                           + f": {board.attrs.get('candidates', '?')} candidates raced, "
                           f"{board.attrs.get('trials_used', 0):,} trials"))
    fig.tight_layout()
    path = Path(path)
    save_figure(fig, path, dpi=110)
    plt.close(fig)
    return path


def efficiency(space, evaluator, *, budgets: Sequence[int], top: int = 5,
               truth_trials: int = 100_000, repeats: int = 3, seed: int = 0, truth=None,
               progress: bool | None = False, **search_kwargs) -> pd.DataFrame:
    """How many trials the search needs to put the true top ``top`` in its top ``top``,
    against evaluating every candidate equally (see the module docstring)."""
    cands = space.enumerate()
    n = len(cands)
    if n <= top:
        raise ValueError(f"the space has only {n} candidates; need more than top={top}")
    seed = _check_int(seed, "--seed", 0)
    if truth is None:
        key = _derived_key(stream_key(seed), _TRUTH_SALT)
        with tqdm(total=n * truth_trials, unit="trial", unit_scale=True, leave=False,
                  desc="ground truth", disable=progress is False) as bar:
            tot = evaluate_batch(evaluator, cands, 0, truth_trials, key, DEFAULT_CHUNK, bar)
        truth = evaluator.score(tot, truth_trials)
    truth = np.asarray(truth, dtype=float)
    order = np.lexsort((np.arange(n), -truth))
    true_top = {cands[i] for i in order[:top]}
    best = cands[order[0]]
    rows = []
    for b in budgets:
        for rep in range(repeats):
            s = seed + 1 + rep
            board = search(space, evaluator, trials_budget=int(b), seed=s, progress=progress,
                           **search_kwargs)
            found = [tuple(int(x) for x in r) for r in board[list(space.columns)].to_numpy()]
            rows.append(_eff_row("search", b, rep, board.attrs["trials_used"], found, true_top,
                                 best, top))
            per = int(b) // n
            if per >= 1:
                tot = evaluate_batch(evaluator, cands, 0, per, stream_key(s), DEFAULT_CHUNK)
                sc = evaluator.score(tot, per)
                ex = [cands[i] for i in np.lexsort((np.arange(n), -sc))[:top]]
                rows.append(_eff_row("exhaustive", b, rep, per * n, ex, true_top, best, top))
    frame = pd.DataFrame(rows)
    summary = {}
    for method, g in frame.groupby("method", sort=False):
        ok = g.groupby("trials_budget")["found_all"].all().sort_index()
        # the smallest budget from which every larger one tried also always succeeded
        fails = ok.index[~ok.to_numpy()]
        good = ok.index[ok.to_numpy()] if not len(fails) else ok.index[ok.index > fails.max()]
        summary[method] = int(good.min()) if len(good) else None
    frame.attrs.update(summary=summary, candidates=n, top=top,
                       true_top=[space.describe(cands[i]) for i in order[:top]],
                       truth_scores=truth[order[:top]].tolist())
    return frame


def _eff_row(method, budget, rep, used, found, true_top, best, top):
    hit = len(true_top & set(found[:top]))
    return {"method": method, "trials_budget": int(budget), "repeat": rep,
            "trials_used": int(used), "top_recall": hit / top, "found_all": hit == top,
            "best_found": bool(found) and found[0] == best}


# --- a synthetic evaluator with a known answer ----------------------------------------------------
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
