"""How many trials the build search needs (issue 14 item 5; a benchmark, never a test).

Two measurements:

* ``synthetic`` (default): the shared search on the synthetic race with an exact answer that
  ``benchmarks/run_all.py`` reports (``ToyRace``, 4 fields at 0,2,...,10 costing their value,
  20 to spend: 146 builds). For each trials budget: ``method="race"`` (paired elimination,
  what ``simkit builds demons-run`` uses), ``method="halving"`` (the GA with successive
  halving) and the exhaustive split of the same budget (every build the same trials on common
  random numbers). A method *needs* the smallest budget from which (at it and every larger one
  tried) at least ``--success`` (0.9) of ``--repeats`` (20) repeats found the whole true top
  3; the summary is that figure and its ratio to the exhaustive one. Asking every one of three
  repeats to succeed, as this benchmark once did, let the exhaustive split pass by luck at a
  budget where it fails one time in four.
* ``--races``: the Demon's Run race evaluator on the reduced space (``search.reduced_space()``:
  the worked ship with SI and Screens chosen, Fuel the rest), ground truth every build raced
  ``--truth-trials`` times (slow: minutes to hours depending on the race engine's speed).

Run: ``python benchmarks/bench_demons_run_search.py [--budgets 50000,...] [--repeats 20]
[--success 0.9] [--methods race,halving] [--races --truth-trials 2000]``. Times and counts are reported, never asserted.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

# doubling up to where the exhaustive split succeeds nine times in ten (about 6.4 million)
SYNTHETIC_BUDGETS = "50000,100000,200000,400000,800000,1600000,3200000,6400000,12800000"


def synthetic(budgets, repeats, seed, methods=("race", "halving"), success=0.9):
    """{method: (frame, summary)} on run_all.py's synthetic race (exact truth)."""
    from simkit.core import search as S

    space = S.IntBoxSpace([S.IntField(n, 0, 10, 2, cost=2) for n in "abcd"], 20)
    ev = S.ToyRace(S.toy_table(4, 11, seed=0), need=3)
    truth = ev.exact(space.enumerate())["win_rate"].to_numpy()
    out = {}
    for m in methods:
        t = time.perf_counter()
        fr = S.efficiency(space, ev, budgets=budgets, top=3, truth=truth, repeats=repeats,
                          seed=seed, success=success, progress=False, method=m)
        out[m] = (fr, fr.attrs["summary"], time.perf_counter() - t)
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--budgets", default=None)
    ap.add_argument("--repeats", type=int, default=20)
    ap.add_argument("--success", type=float, default=0.9,
                    help="share of repeats that must find the true top 3 (default 0.9)")
    ap.add_argument("--methods", default="race,halving")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--races", action="store_true",
                    help="also the Demon's Run races on the reduced space (slow)")
    ap.add_argument("--truth-trials", type=int, default=2000)
    args = ap.parse_args()

    budgets = [int(b) for b in (args.budgets or SYNTHETIC_BUDGETS).split(",")]
    res = synthetic(budgets, args.repeats, args.seed, tuple(args.methods.split(",")),
                    args.success)
    print(f"synthetic race (146 builds, exact truth, true top 3 in the top 3 in at least "
          f"{args.success:.0%} of {args.repeats} repeats), budgets {budgets}:")
    for m, (fr, summ, secs) in res.items():
        s, ex = summ.get("search"), summ.get("exhaustive")
        ratio = f"{s / ex:.2f}" if s and ex else "n/a"
        found = (fr[fr.method == "search"].groupby("trials_budget")["found_all"].mean())
        used = (fr[fr.method == "search"].groupby("trials_budget")["trials_used"].mean())
        print(f"  method={m}: search needs {s}, exhaustive needs {ex} (ratio {ratio}; "
              f"{secs:.0f} s)")
        print("    share of repeats that found the top 3, by budget: "
              + ", ".join(f"{b:,}: {v:.2f} ({used[b]:,.0f} used)" for b, v in found.items()))
        exh = fr[fr.method == "exhaustive"].groupby("trials_budget")["found_all"].mean()
        print("    exhaustive: " + ", ".join(f"{b:,}: {v:.2f}" for b, v in exh.items()))

    if args.races:
        from simkit.core import search as cs
        from simkit.demons_run.search import reduced_space, stat_evaluator

        space = reduced_space()
        n = len(space.enumerate())
        ev = stat_evaluator()
        t = time.perf_counter()
        eff = cs.efficiency(space, ev, budgets=[int(b) for b in "2000,5000,20000".split(",")],
                            top=3, truth_trials=args.truth_trials, repeats=args.repeats,
                            seed=args.seed, min_trials=25, finalists=6)
        print(f"reduced Demon's Run space: {n} builds; truth {args.truth_trials} races each; "
              f"{time.perf_counter() - t:.0f} s")
        print(eff.to_string(index=False))
        print(eff.attrs.get("summary"))


if __name__ == "__main__":
    main()
