"""Throughput of the Demo Derby crash kernel (simkit.demo_derby.procedures), and of whole derbies.

Prints crashes per second per core for the compiled kernel over all 48 cells (rammer speed
1-8 x six points of impact, fresh record sheets, fresh deck), the ratio to a bare loop that
seeds the same per-trial streams and makes the same number of dice rolls (the random-number
bound, measured in this run), and the ratio to the same kernel under NUMBA_DISABLE_JIT=1 (a
small N in a subprocess); then whole games per second per core for three scenario files (a
six-car derby with mixed policies, a four-car Figure-8 race, the six-car combined event), each
beside the same games under NUMBA_DISABLE_JIT=1. Run:
``python benchmarks/bench_demo_derby.py [N_TRIALS]``.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time

import numba
import numpy as np

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

from simkit.core import dice  # noqa: E402
from simkit.core._numba import jit  # noqa: E402
from simkit.demo_derby import procedures  # noqa: E402
from simkit.demo_derby.rules import build_tables  # noqa: E402


@jit
def _rolls_per_crash(key, n, speeds, t_cols, r_cols, T, deck0):
    st = np.zeros(dice.STATE_SIZE, np.uint64)
    out = np.zeros(procedures.OUT_SIZE, np.int64)
    rolls = 0
    for i in range(n):
        for c in range(speeds.shape[0]):
            dice.seed_trial(st, key, i)
            procedures.crash_once(st, dice.NO_SCRIPT,
                                  procedures.Impact(speeds[c], t_cols[c], r_cols[c]), T.damage,
                                  T.special, procedures.hit_tables(T), np.zeros(10, np.int64),
                                  np.zeros(10, np.int64), deck0.copy(), out)
            rolls += np.int64(st[dice.NROLLS])
    return rolls


@jit
def _bare(key, n, n_cells, rolls_each):
    """Seed every (trial, cell) and draw the same number of d6 as the kernel, nothing else."""
    st = np.zeros(dice.STATE_SIZE, np.uint64)
    acc = 0
    for i in range(n):
        for c in range(n_cells):
            dice.seed_trial(st, key, i)
            for _ in range(rolls_each):
                acc += dice.d6(st, dice.NO_SCRIPT)
    return acc


GAMES = ("six-car-derby", "figure8-race", "combined-event")


def _scenario_sim(name):
    from simkit.demo_derby.scenario import build_sim, load_scenario
    return build_sim(load_scenario(os.path.join(ROOT, "scenarios", "demo-derby", name + ".toml")))


def games_python(n_games: int):
    """Child process (NUMBA_DISABLE_JIT=1): games per second for each scenario."""
    key = dice.stream_key(1)
    for name in GAMES:
        sim = _scenario_sim(name)
        t0 = time.perf_counter()
        sim.chunk(key, 0, n_games)
        print(f"{name} {n_games / (time.perf_counter() - t0):.6g}")


def main(n_trials: int = 200_000, jit_disabled: bool = False):
    if jit_disabled:  # child process: time a small N in pure Python
        tables = build_tables()
        sim = procedures.CrashSimulation(tables)
        t0 = time.perf_counter()
        sim.chunk(dice.stream_key(1), 0, n_trials)
        print(f"{n_trials * len(sim.cells) / (time.perf_counter() - t0):.6g}")
        return
    crash_row, derby_row = rows(n_trials)
    r = crash_row
    print(f"Demo Derby crash kernel, 1 thread, {n_trials:,} trials x {r['cells']} cells")
    print(f"  compiled kernel     : {r['per_core']:,.0f} crashes/s per core "
          f"({r['mean_rolls']:.2f} dice rolls per crash)")
    print(f"  bare RNG loop       : {r['bare_per_core']:,.0f} crashes/s per core "
          f"(seed + {r['k']} d6 each)")
    print(f"  kernel / bare RNG   : {r['bare_ratio']:.2f}")
    print(f"  NUMBA_DISABLE_JIT=1 : {r['nojit_per_core']:,.0f} crashes/s "
          f"({r['nojit_n']} trials x {r['cells']} cells)")
    print(f"  speed-up over Python: {r['nojit_speedup']:,.0f}x")
    eff, derby_eff = r["two_thread_eff"], derby_row["two_thread_eff"]
    print(f"  two-thread efficiency: {'n/a' if eff is None else format(eff, '.2f')}")
    print(f"Six-car derby (hunter policy, default arena), 1 thread, {derby_row['n']:,} derbies")
    print(f"  compiled kernel     : {derby_row['per_core']:,.0f} derbies/s per core "
          f"(two-thread efficiency {'n/a' if derby_eff is None else format(derby_eff, '.2f')})")


def rows(n_trials: int = 200_000, n_py: int = 20):
    """Two rows: the crash kernel (throughput per core, bare random-number bound, speed-up over
    NUMBA_DISABLE_JIT=1, two-thread efficiency) and whole six-car derbies (throughput per core,
    two-thread efficiency)."""
    old = numba.get_num_threads()
    try:
        return _rows(n_trials, n_py)
    finally:
        numba.set_num_threads(old)


def _rows(n_trials, n_py):
    tables = build_tables()
    sim = procedures.CrashSimulation(tables)
    key = dice.stream_key(1)
    n_cells = len(sim.cells)
    numba.set_num_threads(1)
    sim.chunk(key, 0, 100)  # compile / load cache
    t0 = time.perf_counter()
    sim.chunk(key, 0, n_trials)
    dt = time.perf_counter() - t0
    rate = n_trials * n_cells / dt

    args = (sim._speeds, sim._tcols, sim._rcols, procedures.kernel_tables(tables),
            procedures.new_deck(tables))
    _rolls_per_crash(key, 10, *args)
    n_probe = max(1000, n_trials // 20)
    mean_rolls = _rolls_per_crash(key, n_probe, *args) / (n_probe * n_cells)
    k = int(round(mean_rolls))
    _bare(key, 10, n_cells, k)
    t0 = time.perf_counter()
    _bare(key, n_trials, n_cells, k)
    bare_rate = n_trials * n_cells / (time.perf_counter() - t0)

    env = dict(os.environ, NUMBA_DISABLE_JIT="1", PYTHONPATH=ROOT)
    py = subprocess.run([sys.executable, __file__, str(n_py), "--python"], env=env,
                        capture_output=True, text=True, check=True)
    py_rate = float(py.stdout.strip().splitlines()[-1])
    eff = None
    if numba.config.NUMBA_NUM_THREADS >= 2:  # NUMBA_NUM_THREADS=1 allows one thread only
        numba.set_num_threads(2)
        t0 = time.perf_counter()
        sim.chunk(key, 0, n_trials)
        eff = (n_trials * n_cells / (time.perf_counter() - t0)) / (2 * rate)
    crash_row = {"game": "demo-derby", "kernel": f"crash ({n_cells} cells: speed x impact)",
                 "unit": "crashes", "per_core": rate, "bare_per_core": bare_rate,
                 "bare_ratio": rate / bare_rate, "nojit_speedup": rate / py_rate,
                 "nojit_per_core": py_rate, "two_thread_eff": eff, "cells": n_cells,
                 "mean_rolls": mean_rolls, "k": k, "nojit_n": n_py}

    from simkit.demo_derby.pieces.arena import load_arena
    from simkit.demo_derby.engine import DerbySimulation
    dsim = DerbySimulation(tables, load_arena(), np.full((6, 1), 5, np.int64))
    numba.set_num_threads(1)
    dsim.chunk(key, 0, 10)
    n_d = max(1000, n_trials // 20)
    rates = {}
    for threads in (1, 2)[:numba.config.NUMBA_NUM_THREADS]:
        numba.set_num_threads(threads)
        t0 = time.perf_counter()
        dsim.chunk(key, 0, n_d)
        rates[threads] = n_d / (time.perf_counter() - t0)
    derby_row = {"game": "demo-derby", "kernel": "derby: six cars, hunter policy",
                 "unit": "derbies", "per_core": rates[1], "bare_ratio": None,
                 "nojit_speedup": None, "two_thread_eff": rates[2] / (2 * rates[1]) if 2 in rates else None,
                 "n": n_d}
    return [crash_row, derby_row]

    n_g = max(500, n_trials // 100)
    n_gpy = 2
    py = subprocess.run([sys.executable, __file__, str(n_gpy), "--python-games"], env=env,
                        capture_output=True, text=True, check=True)
    py_rates = dict(line.split() for line in py.stdout.strip().splitlines())
    print(f"Scenario games (simkit scenario run), 1 thread, {n_g:,} games each; "
          f"NUMBA_DISABLE_JIT=1: {n_gpy} games each")
    for name in GAMES:
        sim = _scenario_sim(name)
        sim.chunk(key, 0, 5)
        t0 = time.perf_counter()
        sim.chunk(key, 0, n_g)
        g_rate = n_g / (time.perf_counter() - t0)
        p_rate = float(py_rates[name])
        print(f"  {name:<16}: {g_rate:>9,.0f} games/s per core; un-jitted {p_rate:,.2f} games/s;"
              f" ratio {g_rate / p_rate:,.0f}x")


if __name__ == "__main__":
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 200_000
    if "--python-games" in sys.argv:
        games_python(n)
    else:
        main(n, jit_disabled="--python" in sys.argv)
