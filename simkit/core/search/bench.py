"""How efficient the search is: on a small space whose every candidate can be evaluated,
:func:`efficiency` compares it with evaluating every candidate equally."""

from __future__ import annotations

from typing import Sequence

import numpy as np
import pandas as pd
from tqdm.auto import tqdm

from ..dice import stream_key
from .driver import _check_int, search
from .evaluate import DEFAULT_CHUNK, evaluate_batch
from .streams import _TRUTH_SALT, _derived_key


def efficiency(space, evaluator, *, budgets: Sequence[int], top: int = 5,
               truth_trials: int = 100_000, repeats: int = 3, seed: int = 0, truth=None,
               success: float = 1.0, progress: bool | None = False,
               **search_kwargs) -> pd.DataFrame:
    """How many trials the search needs to put the true top ``top`` in its top ``top``,
    against evaluating every candidate equally (see the module docstring).

    A method "needs" the smallest budget from which, at it and every larger budget tried, at
    least a share ``success`` of the repeats found the whole true top. With ``success`` 1.0 and
    a few repeats a method can pass by luck at a budget where it fails one time in three, so
    a benchmark should ask for many repeats and a share below 1."""
    cands = space.enumerate()
    n = len(cands)
    if n <= top:
        raise ValueError(f"the space has only {n} candidates; need more than top={top}")
    seed = _check_int(seed, "--seed", 0)
    if not 0 < success <= 1:
        raise ValueError(f"success must be in (0, 1], not {success!r}")
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
    summary = {method: budget_needed(g.groupby("trials_budget")["found_all"].mean(), success)
               for method, g in frame.groupby("method", sort=False)}
    frame.attrs.update(summary=summary, success=success, candidates=n, top=top,
                       true_top=[space.describe(cands[i]) for i in order[:top]],
                       truth_scores=truth[order[:top]].tolist())
    return frame


def budget_needed(share: pd.Series, success: float) -> int | None:
    """The smallest budget (``share``'s index) from which, at it and every larger budget, the
    share of repeats that found the whole top is at least ``success``; None if there is none."""
    share = share.sort_index()
    ok = share.to_numpy() >= success - 1e-12
    if not ok[-1]:
        return None
    i = len(ok) - 1
    while i > 0 and ok[i - 1]:
        i -= 1
    return int(share.index[i])


def _eff_row(method, budget, rep, used, found, true_top, best, top):
    hit = len(true_top & set(found[:top]))
    return {"method": method, "trials_budget": int(budget), "repeat": rep,
            "trials_used": int(used), "top_recall": hit / top, "found_all": hit == top,
            "best_found": bool(found) and found[0] == best}
