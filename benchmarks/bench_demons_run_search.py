"""How many races the build search needs (issue 4 section 5): on a reduced design space where
every candidate can be raced (the worked ship with SI and Screens chosen, Fuel the rest), the
ground truth is every candidate raced ``--truth-trials`` times; for each trials budget the
search (``simkit.core.search``) and the exhaustive split of the same budget are scored by how
many of the true top 5 they put in their top 5.

Run: ``python benchmarks/bench_demons_run_search.py [--budgets 2000,5000,20000] [--truth-trials
2000] [--repeats 3]``. Needs ``simkit/core/search.py``. Times and counts are reported, never
asserted.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--budgets", default="2000,5000,20000")
    ap.add_argument("--truth-trials", type=int, default=2000)
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--population", type=int, default=8)
    ap.add_argument("--min-trials", type=int, default=25)
    ap.add_argument("--finalists", type=int, default=6)
    args = ap.parse_args()
    from simkit.core import search as cs
    from simkit.demons_run.search import reduced_space, stat_evaluator

    space = reduced_space()
    n = len(space.enumerate())
    ev = stat_evaluator()
    t = time.perf_counter()
    eff = cs.efficiency(space, ev, budgets=[int(b) for b in args.budgets.split(",")], top=5,
                        truth_trials=args.truth_trials, repeats=args.repeats, seed=args.seed,
                        population=args.population, min_trials=args.min_trials,
                        finalists=args.finalists)
    print(f"reduced space: {n} builds (si, screens chosen, fuel the rest); truth {args.truth_trials} "
          f"races each; {time.perf_counter() - t:.0f} s")
    print(eff.to_string(index=False))
    print(eff.attrs.get("summary"))


if __name__ == "__main__":
    main()
