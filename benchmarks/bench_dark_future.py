"""Throughput of the Dark Future hazard-roll and shot kernels and of whole games (per core).

Run: ``python benchmarks/bench_dark_future.py [--n N]``. Prints, for each kernel, procedures per
second on one thread, the ratio to a bare loop making the same dice draws with the same
per-trial streams in the same run (the random-number bound), and the ratio to the same kernel
under ``NUMBA_DISABLE_JIT=1`` (a small N run in a subprocess). Nothing here is asserted.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from pathlib import Path

import numba
import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from simkit.core import dice  # noqa: E402
from simkit.core._numba import jit  # noqa: E402
from simkit.dark_future.procedures import hazards as H  # noqa: E402
from simkit.dark_future.procedures import shooting as S  # noqa: E402


@jit
def _bare(key, first, n, draws_per_trial):
    """The same number of d6 per trial from the same streams, and nothing else."""
    st = np.zeros(dice.STATE_SIZE, np.uint64)
    acc = 0
    for t in range(first, first + n):
        dice.seed_trial(st, key, t)
        for _ in range(draws_per_trial):
            acc += dice.roll(st, dice.NO_SCRIPT, 1, 6)
    return acc


@jit
def _count_shot_draws(key, n, sps, matrix, rerolls, effects, hp, fit, groups):
    st = np.zeros(dice.STATE_SIZE, np.uint64)
    o = np.zeros(7, np.int64)
    total = 0
    for t in range(n):
        dice.seed_trial(st, key, t)
        for c in range(sps.shape[0]):
            S.shot(st, dice.NO_SCRIPT, sps[c], matrix, rerolls, effects, hp, fit, groups, o)
        total += np.int64(st[dice.NROLLS])
    return total


def make_sims():
    hz = H.HazardSim(list(range(10, 90, 10)), list(range(1, 7)), braking=30)
    sh = S.weapon_table_sim("renegade", "hood", range(1, 7),
                            target_build="renegade: hood=gl40, wings=lw_mg, passive=mines")
    return hz, sh


def timed(fn, *a):
    fn(*a)  # compile / warm
    t0 = time.perf_counter()
    fn(*a)
    return time.perf_counter() - t0


def _game_sim():
    from simkit.dark_future import scenario as G
    return G.GameSim(G.load_scenario(ROOT / "scenarios" / "dark-future" / "game-2.toml"))


def measure(n, games):
    hz, sh = make_sims()
    key = dice.stream_key(1)
    out = {}
    # hazard rolls: one d6 per cell per trial (every cell is over its limit)
    cells = len(hz.cells)
    dt = timed(hz.chunk, key, 0, n)
    out["hazard"] = {"procs": n * cells, "seconds": dt, "draws_per_trial": cells}
    # shots: measure the draws they make, then time them
    draws = _count_shot_draws(key, n, sh.sps, sh.ct.matrix, sh.ct.rerolls, sh.ct.effects, sh.hp,
                              sh.fit, sh.groups)
    dt = timed(sh.chunk, key, 0, n)
    out["shot"] = {"procs": n * len(sh.cells), "seconds": dt,
                   "draws_per_trial": int(round(draws / n))}
    # whole games of Game Two (two Renegades, standard drivers)
    gs = _game_sim()
    dt = timed(gs.chunk, key, 0, games)
    out["game"] = {"procs": games, "seconds": dt, "draws_per_trial": _rolls_per_game(gs, key, 200)}
    return out


def _rolls_per_game(gs, key, n):
    """Dice rolls per game, counted in recording mode on n games."""
    from simkit.dark_future import engine as EG
    from simkit.dark_future.pieces.vehicle import MAXW, V_W, W_W
    a = gs.a
    nv = a.G[EG.G_NV]
    total = 0
    for t in range(n):
        st = dice.new_state()
        dice.seed_trial(st, key, t)
        args = [EG.new_board(), np.zeros((nv, V_W), np.int64),
                np.zeros((nv, MAXW, W_W), np.int64), np.zeros((nv, a.LFIT.shape[2]), np.int64)]
        EG.play_game(st, dice.NO_SCRIPT, *args, EG.rules_buffer(*gs.args()),
                     np.zeros((0, EG.LOG_W), np.int64), np.zeros(1, np.int64),
                     np.zeros(EG.R_W, np.int64))
        total += int(st[dice.NROLLS])
    return max(1, round(total / n))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--n", type=int, default=200_000, help="trials per kernel (default 200,000)")
    ap.add_argument("--games", type=int, default=20_000, help="games of Game Two (default 20,000)")
    ap.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = ap.parse_args()
    numba.set_num_threads(1)
    if args.child:  # runs under NUMBA_DISABLE_JIT=1
        print(json.dumps(measure(args.n, args.games)))
        return
    small = max(200, args.n // 2000)
    print(f"Dark Future kernels, 1 thread, {args.n:,} trials, {args.games:,} games "
          f"(pure Python: {small:,})")
    for r in rows(args.n, args.games):
        eff = r["two_thread_eff"]
        print(f"  {r['name']:7s} {r['per_core']:14,.0f} procedures/s  "
              f"({r['draws_per_proc']:.2f} rolls each); "
              f"bare RNG loop {r['bare_seconds']:.3f}s vs kernel {r['seconds']:.3f}s = "
              f"{r['seconds'] / r['bare_seconds']:.2f}x the random-number bound; "
              f"{r['nojit_speedup']:,.0f}x NUMBA_DISABLE_JIT; "
              f"two-thread efficiency {'n/a' if eff is None else format(eff, '.2f')}")


_KERNELS = {"hazard": "hazard rolls (8 excesses x 6 control levels)",
            "shot": "shots (renegade hood, 6 weapons x ranges)",
            "game": "whole games of Game Two (two Renegades, standard drivers)"}


def rows(n, games=None):
    """One row per kernel (hazard rolls, shots, whole games): procedures per second on one
    thread, ratio to the bare random-number bound, speed-up over NUMBA_DISABLE_JIT=1, and
    two-thread efficiency of the kernel's chunk (2-thread rate / twice the 1-thread rate)."""
    games = games or max(200, n // 10)
    old = numba.get_num_threads()
    numba.set_num_threads(1)
    try:
        res = measure(n, games)
        key = dice.stream_key(1)
        small = max(200, n // 2000)
        small_games = max(5, games // 2000)
        env = dict(os.environ, NUMBA_DISABLE_JIT="1")
        child = subprocess.run([sys.executable, __file__, "--child", "--n", str(small),
                                "--games", str(small_games)], env=env,
                               capture_output=True, text=True, check=True)
        nojit = json.loads(child.stdout.strip().splitlines()[-1])
        hz, sh = make_sims()
        sims = {"hazard": hz, "shot": sh, "game": _game_sim()}
        out = []
        for name, r in res.items():
            per = games if name == "game" else n
            bare = timed(_bare, key, 0, per, r["draws_per_trial"])
            rate = r["procs"] / r["seconds"]
            py_rate = nojit[name]["procs"] / nojit[name]["seconds"]
            two = None
            if numba.config.NUMBA_NUM_THREADS >= 2:  # NUMBA_NUM_THREADS=1 allows one only
                numba.set_num_threads(2)
                two = timed(sims[name].chunk, key, 0, per)
                numba.set_num_threads(1)
            out.append({"game": "dark-future", "name": name, "kernel": _KERNELS[name],
                        "unit": "games" if name == "game" else "procedures",
                        "per_core": rate, "seconds": r["seconds"],
                        "bare_seconds": bare, "bare_ratio": bare / r["seconds"],
                        "draws_per_proc": r["draws_per_trial"] / (r["procs"] / per),
                        "nojit_speedup": rate / py_rate,
                        "two_thread_eff": r["seconds"] / (2 * two) if two else None})
        return out
    finally:
        numba.set_num_threads(old)


if __name__ == "__main__":
    main()
