"""The public entry: :func:`search` checks its settings, runs successive halving (or hands
``method="race"`` to :mod:`.racing`), re-runs the finalists on a fresh stream and assembles the
leaderboard; :func:`versus` and :func:`progress_frame` build on it."""

from __future__ import annotations

from typing import Callable, Sequence

import numba
import numpy as np
import pandas as pd
from tqdm.auto import tqdm

from ..dice import stream_key
from ..errors import UserInputError
from .evaluate import DEFAULT_CHUNK, _objective_name, evaluate_batch
from .halving import _Ledger, _race
from .racing import STARTS, _gaps, _paired_sums, _search_race
from .streams import _FINAL_SALT, _GA_SALT, _derived_key


def _check_int(value, name, lo):
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < lo:
        raise UserInputError(f"must be a whole number >= {lo}, got {value!r}", field=name)
    return int(value)


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
           polish: bool = True, starts: int | None = None, seeds: Sequence = (),
           breed_include: bool = True, **run_opts) -> pd.DataFrame:
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
    seeds = [tuple(int(x) for x in c) for c in seeds]
    for c in seeds:
        if not space.is_legal(c):
            raise UserInputError(f"{space.describe(c)} is not a legal candidate", field="seeds")
    if seeds and method != "race":
        raise UserInputError("seeds are started from by method='race' only", field="seeds")
    if method == "race":
        keep = _check_int(keep, "keep", 1)
        starts = STARTS if starts is None else _check_int(starts, "starts", 1)
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
                                    chunk_size=chunk_size, bar=bar, starts=starts,
                                    seeds=seeds, breed_include=breed_include)
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
