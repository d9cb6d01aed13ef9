"""Starfire fire-resolution throughput (benchmark, not a test).

Reports, in one run on this machine:
* single-shot resolutions per second on one core (seed the trial's stream, reset the sheet,
  roll to hit, score the damage), for each weapon family at range 4 against the WISCONSIN;
* the bare random-number bound: the same loop drawing the same dice and doing nothing else,
  and the kernel's ratio to it;
* the ratio to the same Python code with ``NUMBA_DISABLE_JIT=1`` (small N, in a subprocess);
* wall time of the full default table (6 families x 21 ranges, 10^6 trials per cell) on all
  cores, kernels already compiled.

and for whole battles (issue 3), per scenario file: battles per second on one core, the ratio to
``NUMBA_DISABLE_JIT=1``, and two-thread efficiency (2-thread rate / twice the 1-thread rate).

Usage: ``python benchmarks/bench_starfire.py [--n 20000000] [--skip-table] [--skip-battles]``
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

from simkit.core import dice
from simkit.core._numba import jit
from simkit.starfire.procedures import Shot, hit_lookup, kernel_tables, resolve_volley
from simkit.starfire.rules import FAMILIES, combat_tables
from simkit.starfire.pieces.sheet import hold_run_ends
from simkit.starfire.procedures import resolve_target

RANGE = 4


@jit
def shots(codes, run_end, fam, hit, eff, T, key, n):
    st = np.zeros(dice.STATE_SIZE, dtype=np.uint64)
    hp = np.empty(codes.shape[0], dtype=np.int64)
    pdf = np.zeros(codes.shape[0], dtype=np.int64)
    out = np.zeros(3, dtype=np.int64)
    total = 0
    for t in range(n):
        dice.seed_trial(st, key, t)
        hp[:] = 2
        resolve_volley(codes, hp, run_end, pdf, Shot(fam, 1, hit, eff, False), T, st,
                       dice.NO_SCRIPT, out)
        total += out[1]
    return total


@jit
def bare(key, n, draws):
    """Seed each trial's stream and draw ``draws`` d6 -- the random-number bound."""
    st = np.zeros(dice.STATE_SIZE, dtype=np.uint64)
    total = 0
    for t in range(n):
        dice.seed_trial(st, key, t)
        for _ in range(draws):
            total += dice.roll(st, dice.NO_SCRIPT, 1, 6)
    return total


def setup(family):
    tables = combat_tables()
    sheet = resolve_target("wisconsin")
    f = FAMILIES.index(family)
    hit, eff, _ = hit_lookup(tables, f, RANGE)
    return (sheet.codes, hold_run_ends(sheet.codes), f, hit, eff, kernel_tables(tables))



def measure(n, family):
    key = dice.stream_key(1)
    args = setup(family)
    shots(*args, key, 1000)  # compile / load from cache
    t = time.perf_counter()
    shots(*args, key, n)
    kernel = n / (time.perf_counter() - t)
    draws = 2 + (1 if family == "primary_beam" else 0)  # 2d6 to hit (+ the Primary's die)
    bare(key, 1000, draws)
    t = time.perf_counter()
    bare(key, n, draws)
    bound = n / (time.perf_counter() - t)
    return kernel, bound


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--n", type=int, default=20_000_000)
    ap.add_argument("--nojit-n", type=int, default=20_000)
    ap.add_argument("--skip-table", action="store_true")
    ap.add_argument("--skip-battles", action="store_true")
    ap.add_argument("--battles", type=int, default=4000)
    ap.add_argument("--_nojit_battle", default=None, help=argparse.SUPPRESS)
    ap.add_argument("--_nojit", default=None, help=argparse.SUPPRESS)
    a = ap.parse_args()
    if a._nojit_battle:  # child process under NUMBA_DISABLE_JIT=1
        from simkit.starfire.engine import BattleSim
        from simkit.starfire.scenario import load_scenario

        sim = BattleSim(load_scenario(a._nojit_battle))
        t = time.perf_counter()
        sim.chunk(dice.stream_key(1), 0, 3)
        print(json.dumps(3 / (time.perf_counter() - t)))
        return
    if a._nojit:  # child process under NUMBA_DISABLE_JIT=1
        args = setup(a._nojit)
        t = time.perf_counter()
        shots(*args, dice.stream_key(1), a.nojit_n)
        print(json.dumps(a.nojit_n / (time.perf_counter() - t)))
        return
    print(f"machine: {os.cpu_count()} cores, numba {numba.__version__}, numpy {np.__version__}")
    print(f"{'family (range 4)':18s} {'resolutions/s/core':>20s} {'bare RNG/s':>14s} "
          f"{'ratio':>7s} {'vs no-JIT':>10s}")
    for r in fire_rows(a.n, a.nojit_n):
        print(f"{r['family']:18s} {r['per_core']:20,.0f} {r['bare_per_core']:14,.0f} "
              f"{r['bare_ratio']:7.2f} {r['nojit_speedup']:9,.0f}x")
    if not a.skip_table:
        from simkit.starfire import weapon_table

        numba.set_num_threads(numba.config.NUMBA_NUM_THREADS)
        weapon_table(trials=10_000, progress=False)  # warm: compile or load the cache
        t = time.perf_counter()
        weapon_table(trials=1_000_000, progress=False)
        print(f"full default table, 10^6 trials x 120 cells, {numba.get_num_threads()} threads: "
              f"{time.perf_counter() - t:.2f} s wall")
    if not a.skip_battles:
        bench_battles(a.battles)


def fire_rows(n, nojit_n, families=FAMILIES):
    """One row per weapon family: single-shot resolutions per second on one core, the bare
    random-number bound in the same run, and the speed-up over NUMBA_DISABLE_JIT=1."""
    old = numba.get_num_threads()
    numba.set_num_threads(1)
    rows = []
    try:
        for family in families:
            kernel, bound = measure(n, family)
            env = dict(os.environ, NUMBA_DISABLE_JIT="1")
            out = subprocess.run([sys.executable, __file__, "--_nojit", family, "--nojit-n",
                                  str(nojit_n)], env=env, capture_output=True, text=True,
                                 check=True)
            nojit = json.loads(out.stdout.strip().splitlines()[-1])
            rows.append({"game": "starfire", "kernel": f"fire: {family} at range 4",
                         "family": family, "unit": "resolutions", "per_core": kernel,
                         "bare_per_core": bound, "bare_ratio": kernel / bound,
                         "nojit_speedup": kernel / nojit, "two_thread_eff": None})
    finally:
        numba.set_num_threads(old)
    return rows


def battle_rows(n, paths=None):
    """One row per scenario file: battles per second on one core, speed-up over
    NUMBA_DISABLE_JIT=1 (3 battles), two-thread efficiency (2-thread rate / twice 1-thread)."""
    from pathlib import Path

    from simkit.starfire.engine import BattleSim
    from simkit.starfire.scenario import load_scenario

    root = Path(__file__).resolve().parent.parent / "scenarios" / "starfire"
    key = dice.stream_key(1)
    old = numba.get_num_threads()
    rows = []
    try:
        for path in paths or sorted(root.glob("*.toml")):
            sim = BattleSim(load_scenario(path))
            sim.chunk(key, 0, 8)  # compile or load
            rates = {}
            # two threads only where numba was started with them (NUMBA_NUM_THREADS=1 caps it)
            for threads in (1, 2)[:numba.config.NUMBA_NUM_THREADS]:
                numba.set_num_threads(threads)
                t = time.perf_counter()
                sim.chunk(key, 0, n)
                rates[threads] = n / (time.perf_counter() - t)
            env = dict(os.environ, NUMBA_DISABLE_JIT="1")
            out = subprocess.run([sys.executable, __file__, "--_nojit_battle", str(path)],
                                 env=env, capture_output=True, text=True, check=True)
            nojit = json.loads(out.stdout.strip().splitlines()[-1])
            rows.append({"game": "starfire", "kernel": f"battle: {Path(path).stem}",
                         "unit": "battles", "per_core": rates[1], "bare_ratio": None,
                         "nojit_speedup": rates[1] / nojit,
                         "two_thread_eff": rates[2] / (2 * rates[1]) if 2 in rates else None})
    finally:
        numba.set_num_threads(old)
    return rows


def bench_battles(n):
    print(f"{'scenario':28s} {'battles/s/core':>15s} {'vs no-JIT':>10s} {'2-thread eff.':>14s}")
    for r in battle_rows(n):
        eff = r["two_thread_eff"]
        print(f"{r['kernel'][8:]:28s} {r['per_core']:15,.0f} {r['nojit_speedup']:9,.0f}x "
              f"{'n/a' if eff is None else format(eff, '.2f'):>14s}")


if __name__ == "__main__":
    main()
