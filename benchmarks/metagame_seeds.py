"""Is the Demon's Run build metagame's answer the same from any seed? (issue 17)

    python benchmarks/metagame_seeds.py run SEED [--trials-budget N] [--threads 1]
                                        [--out FILE.json] [--run-dir DIR]
    python benchmarks/metagame_seeds.py cross [--races 3000] [--build BUILD ...] FILE.json ...

``run``: one seed of ``simkit builds demons-run --metagame`` (the library call), with its wall
and CPU time, rounds, why it stopped, the support and the payoff matrix printed, and the
support (builds, weights) written to ``--out`` as JSON. Run the seeds as separate processes.

``cross``: every seed's mixture against every other seed's, on fresh races (seed 7777, the
corners rotated, ``--races`` races per pairing of support builds): utility (a win plus half a
draw) with a 95% normal interval. Stable here means every such interval covers 0.5: no seed's
answer beats another's. ``--build``: each such build raced against every seed's mixture the
same way (a build an earlier run found must not beat the answer beyond the interval). Times
are measured here, never asserted in a test.
"""

from __future__ import annotations

import argparse
import itertools
import json
import math
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))


def run(seed, budget, threads, out, run_dir):
    import pandas as pd

    import simkit.analysis.metagame as M
    from simkit.demons_run.analyses import metagame

    seen = {}
    search = M.search

    def spy(*a, **k):   # the search's rounds and why it stopped are not in the frame
        seen["out"] = search(*a, **k)
        return seen["out"]

    M.search = spy
    t, c = time.perf_counter(), time.process_time()
    f = metagame(trials=budget, seed=seed, threads=threads, progress=True, run_dir=run_dir)
    wall, cpu = time.perf_counter() - t, time.process_time() - c
    o = seen["out"]
    pd.set_option("display.width", 250)
    pd.set_option("display.max_colwidth", 90)
    print(f"seed {seed} budget {budget:,} wall {wall:.0f}s cpu {cpu:.0f}s")
    print(pd.DataFrame(o.rounds).to_string())
    print("stopped:", o.stopped)
    print(f.drop(columns=["utility_lo", "utility_hi"]).to_string())
    print(f.attrs["payoffs"].round(3).to_string())
    sup = f[f.role == "support"]
    if out:
        Path(out).write_text(json.dumps({
            "seed": seed, "budget": budget, "wall": wall, "cpu": cpu, "stopped": o.stopped,
            "rounds": len(o.rounds), "trials_used": int(f.trials_used.iloc[0]),
            "support": [[b, float(w)] for b, w in zip(sup.build, sup.weight)]}, indent=1))


def cross(races, files, builds=()):
    from simkit.demons_run import _metagame
    from simkit.demons_run.builds import parse_build
    from simkit.demons_run.search import candidate_of

    runs = [json.loads(Path(f).read_text()) for f in files]
    bg = _metagame(threads=1)
    cache = {}

    def pair(a, b):
        if (a, b) not in cache:
            wa, wb = (int(v) for v in bg.duel(candidate_of(parse_build(a)),
                                              candidate_of(parse_build(b)), races, 7777))
            u = (wa + (races - wa - wb) / 2) / races
            var = ((wa + (races - wa - wb) / 4) / races - u * u) / races
            cache[(a, b)], cache[(b, a)] = (u, var), (1 - u, var)
        return cache[(a, b)]

    for r in runs:
        print(f"seed {r['seed']}: " + "; ".join(f"{b} {w:.2f}" for b, w, *_ in r["support"]))
    stable = True
    for ri, rj in itertools.permutations(runs, 2):
        u = var = 0.0
        for (a, wa, *_), (b, wb, *_) in itertools.product(ri["support"], rj["support"]):
            x, v = pair(a, b)
            u += wa * wb * x
            var += (wa * wb) ** 2 * v
        h = 1.96 * math.sqrt(var)
        covers = u - h <= 0.5 <= u + h
        stable &= covers
        print(f"seed {ri['seed']} against seed {rj['seed']}: {u:.3f} ({u - h:.3f}-{u + h:.3f})"
              + ("" if covers else "  does not cover 0.5"))
    print(f"stable (every interval covers 0.5): {stable}; {races:,} races a pairing")
    for b in builds:
        for r in runs:
            u = var = 0.0
            for a, w, *_ in r["support"]:
                x, v = pair(b, a)
                u += w * x
                var += w * w * v
            h = 1.96 * math.sqrt(var)
            print(f"{b} against seed {r['seed']}: {u:.3f} ({u - h:.3f}-{u + h:.3f})"
                  + ("  beats it" if u - h > 0.5 else ""))


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = p.add_subparsers(dest="what", required=True)
    r = sub.add_parser("run")
    r.add_argument("seed", type=int)
    r.add_argument("--trials-budget", type=int, default=None)
    r.add_argument("--threads", type=int, default=1)
    r.add_argument("--out", default=None)
    r.add_argument("--run-dir", default=None)
    c = sub.add_parser("cross")
    c.add_argument("--races", type=int, default=3000)
    c.add_argument("--build", action="append", default=[],
                   help="a build raced against every seed's mixture (repeatable)")
    c.add_argument("files", nargs="+")
    a = p.parse_args(argv)
    if a.what == "run":
        from simkit.demons_run.commands import METAGAME_BUDGET

        run(a.seed, a.trials_budget or METAGAME_BUDGET, a.threads, a.out, a.run_dir)
    else:
        cross(a.races, a.files, a.build)


if __name__ == "__main__":
    main()
