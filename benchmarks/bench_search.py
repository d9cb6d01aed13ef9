"""Build-search efficiency and overhead (benchmark, not a test).

Reports, in one run on this machine:
* efficiency (issue 4 section 5): on a reduced design space whose every candidate can be
  evaluated -- 4 fields at 0,2,...,10 costing their value, 20 to spend: 146 builds of the
  synthetic ``ToyRace`` with EXACT win rates as ground truth -- how many candidate-trials the
  search needs to put the true top 5 in its top 5, against giving every candidate the same
  number of trials (exhaustive), per budget and repeat (different seeds);
* the search's overhead: candidate-trials per second inside a search against the evaluator's
  own rate on one big batch (the difference is the Python GA, bookkeeping and small batches);
* the evaluator kernel against the bare random-number bound (the same d1000 draws, nothing
  else) and against ``NUMBA_DISABLE_JIT=1`` (small N, in a subprocess).

Usage: ``python benchmarks/bench_search.py [--repeats 5] [--budgets 25000,50000,...]``
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time

import numba
import numpy as np
import pandas as pd

from simkit.core import dice, search as S
from simkit.core._numba import jit

TOP = 5


def reduced_space():
    return S.IntBoxSpace([S.IntField(n, 0, 10, 2, cost=2) for n in "abcd"], 20)


def toy():
    # seed 7, roughness 60: the true 5th and 6th builds are 0.0096 apart in win rate
    return S.ToyRace(S.toy_table(4, 11, seed=7, rough=60), need=3)


@jit
def bare(key, n, fields):
    st = np.zeros(dice.STATE_SIZE, dtype=np.uint64)
    total = 0
    for t in range(n):
        dice.seed_trial(st, key, t)
        for _ in range(fields):
            total += dice.roll(st, dice.NO_SCRIPT, 1, 1000)
    return total


def kernel_rates(n):
    ev = toy()
    cands = np.array([[4, 6, 6, 4]], dtype=np.int64)
    key = dice.stream_key(1)
    ev.evaluate(cands, 0, 10, key)
    bare(key, 10, 4)
    numba.set_num_threads(1)
    t = time.perf_counter()
    ev.evaluate(cands, 0, n, key)
    k = n / (time.perf_counter() - t)
    t = time.perf_counter()
    bare(key, n, 4)
    b = n / (time.perf_counter() - t)
    return k, b


def nojit_rate(n):
    code = ("import time, numpy as np, sys; sys.path.insert(0, '.');"
            "from benchmarks.bench_search import toy; from simkit.core import dice;"
            "ev = toy(); c = np.array([[4, 6, 6, 4]]); t = time.perf_counter();"
            f"ev.evaluate(c, 0, {n}, dice.stream_key(1));"
            f"print({n} / (time.perf_counter() - t))")
    env = dict(os.environ, NUMBA_DISABLE_JIT="1")
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True,
                         cwd=os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    return float(out.stdout.strip().splitlines()[-1]) if out.returncode == 0 else float("nan")


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--budgets", default="25000,50000,100000,200000,400000,800000,1600000")
    p.add_argument("--repeats", type=int, default=5)
    p.add_argument("--threads", type=int, default=1)
    p.add_argument("--json", default=None, help="also write the figures to this JSON file")
    a = p.parse_args(argv)
    budgets = [int(x) for x in a.budgets.split(",")]
    pd.set_option("display.width", 160)

    space, ev = reduced_space(), toy()
    cands = space.enumerate()
    exact = ev.exact(cands).win_rate.to_numpy()
    order = np.argsort(-exact, kind="stable")
    print(f"reduced space: {len(cands)} builds; exact top {TOP + 1} win rates: "
          + ", ".join(f"{space.describe(cands[i])} {exact[i]:.4f}" for i in order[:TOP + 1]))

    t0 = time.perf_counter()
    frame = S.efficiency(space, ev, budgets=budgets, top=TOP, repeats=a.repeats, seed=2026,
                         truth=exact, threads=a.threads)
    elapsed = time.perf_counter() - t0
    per = (frame.groupby(["method", "trials_budget"], sort=False)
           .agg(found_all=("found_all", "mean"), top_recall=("top_recall", "mean"),
                best_found=("best_found", "mean"), trials_used=("trials_used", "mean"))
           .reset_index())
    print(f"\nefficiency: share of {a.repeats} repeats whose top {TOP} is the true top {TOP}"
          f" ({elapsed:.0f} s)")
    print(per.to_string(index=False, float_format=lambda x: f"{x:.2f}"))
    print("\nsmallest budget from which on every repeat found the true top 5:")
    for method, b in frame.attrs["summary"].items():
        print(f"  {method}: {b:,}" if b else f"  {method}: not reached within {budgets[-1]:,}")

    # overhead of the search machinery on a budget that is not cut short by exhaustion
    big = S.IntBoxSpace([S.IntField(n, 0, 10) for n in "abcdef"], 30)
    ev6 = S.ToyRace(S.toy_table(6, 11, seed=3, rough=40), need=4)
    S.search(big, ev6, trials_budget=60_000, seed=0, progress=False, threads=a.threads)
    t = time.perf_counter()
    board = S.search(big, ev6, trials_budget=1_000_000, seed=1, progress=False,
                     threads=a.threads)
    t_search = time.perf_counter() - t
    rate_search = board.attrs["trials_used"] / t_search
    numba.set_num_threads(a.threads)
    batch = np.array(big.enumerate()[:200], dtype=np.int64)
    t = time.perf_counter()
    ev6.evaluate(batch, 0, 5_000, dice.stream_key(0))
    rate_eval = batch.shape[0] * 5_000 / (time.perf_counter() - t)
    print(f"\nsearch overhead (6 fields, 30 to spend, {board.attrs['candidates']} builds raced): "
          f"{rate_search:,.0f} candidate-trials/s in the search vs {rate_eval:,.0f}/s for the "
          f"evaluator alone ({rate_search / rate_eval:.0%}); {t_search:.1f} s for "
          f"{board.attrs['trials_used']:,} trials, {len(board.attrs['progress'])} generations")

    k, b = kernel_rates(2_000_000)
    nj = nojit_rate(2_000)
    print(f"\nToyRace kernel, 1 thread: {k:,.0f} trials/s; bare bound (4 d1000 per trial) "
          f"{b:,.0f}/s (kernel at {k / b:.0%} of it); NUMBA_DISABLE_JIT: {nj:,.0f}/s "
          f"(jit {k / nj:,.0f}x faster)")
    if a.json:
        with open(a.json, "w") as f:
            json.dump({"efficiency": per.to_dict("records"),
                       "summary": frame.attrs["summary"],
                       "search_rate": rate_search, "eval_rate": rate_eval, "kernel_rate": k,
                       "bare_rate": b, "nojit_rate": nj}, f, indent=1, default=str)


if __name__ == "__main__":
    main()
