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
