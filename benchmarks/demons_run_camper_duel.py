"""The worked ship (buoy hunter) against the Main Engines 0 camper of docs/rules/demons-run.md
("What the Main Engines 0 leaders are"), both seatings (A/D and D/A), raced the way the fairness
tests race: win, destroyed and shot rates with 95% Wilson intervals.

    python benchmarks/demons_run_camper_duel.py [RACES_PER_SEATING=1000] [SEED=2026] [NAME=VALUE ...]

NAME=VALUE pairs override the worked ship's pilot parameters (policies.PARAM_SPACE), to
measure a parameter's effect against the default on the same races.
"""
import sys
import time

import numpy as np

from simkit.core import dice
from simkit.demons_run import engine as RK
from simkit.demons_run.builds import parse_build, worked_ship
from simkit.demons_run.scenario import RaceScenario, RaceSim, ShipEntry

CAMPER = "fuel=210,si=11,pi=5,me=0,mn=6,tractor=10,screens=5,laser=10,scrambler=2"
SHOTS = RK.S_COUNT0 + RK.COUNT_NAMES.index("shots")


def wilson(k, n, z=1.96):
    p = k / n
    d = 1 + z * z / n
    c = (p + z * z / (2 * n)) / d
    h = z * np.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / d
    return p, c - h, c + h


def main(n=1000, seed=2026, params=None):
    tot = np.zeros((2, 4), np.int64)          # per ship: wins, destroyed, finished, shots
    for wc, cc in (("A", "D"), ("D", "A")):
        ships = [ShipEntry("worked", wc, worked_ship(), "buoy_hunter", dict(params or {})),
                 ShipEntry("camper", cc, parse_build(CAMPER), "buoy_hunter")]
        sim = RaceSim(RaceScenario("<camp>", "camp", "ORIGINAL", "", None, ships, {}))
        t0 = time.process_time()
        st = RK.race_stats(np.uint64(dice.stream_key(seed)), 0, n, *sim.args())
        for i in range(2):
            base = RK.N_GLOBAL + i * RK.N_SHIP_STATS
            tot[i] += [st[base + k] for k in (RK.S_WINS, RK.S_DESTROYED, RK.S_FINISHED, SHOTS)]
        print(f"worked in {wc}: {n} races, {time.process_time() - t0:.1f} s CPU", flush=True)
    N = 2 * n
    for i, name in enumerate(("worked", "camper")):
        for j, what in enumerate(("win", "destroyed", "finished")):
            print("%s %s %.3f (%.3f-%.3f)" % ((name, what) + wilson(int(tot[i, j]), N)))
        print(f"{name} shots a race {tot[i, 3] / N:.2f}")


if __name__ == "__main__":
    nums = [int(a) for a in sys.argv[1:3] if "=" not in a]
    over = dict(a.split("=", 1) for a in sys.argv[1:] if "=" in a)
    over = {k: float(v) if "." in v else int(v) for k, v in over.items()}
    main(*nums, params=over)
