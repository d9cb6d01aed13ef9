"""Obstacle rams in every seeded game of the Dark Future Games that have road hazards (issue 15:
drivers that do not beat themselves; 'steer round road hazards').

    python benchmarks/dark_future_obstacle_rams.py [--trials 5000] [--seed 2026]
                                                   [--games game-6,game-7,...] [--out FILE.json]

Each game is replayed with its log (``scenario.play_one``, the same dice as
``simkit scenario run``). For each Game and side, cars and bikes apart, it prints the rams into
an obstacle (p76; rammed as a wreck, p57: ``EV_RAM`` or ``EV_BIKERAM`` with no target), the
rams per 100 games with a 95% t interval over the games, the
speed-factor hits taken in them (a car's SF hits, a bike's one hit at +SF counted as its SF)
and, as a rough count of the pattern of session 25, the rams made with a vehicle on the move
within two lanes and two spaces of where the rammer last stood. With ``--out`` every ram is
written as (trial, turn, phase, rammer, SF, the vehicle beside or "-"), to compare two
drivers game by game. Nothing is asserted: it is a survey, run before and after a driver change.
"""

from __future__ import annotations

import argparse
import collections
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from dark_future_deadlocks import games_arg  # noqa: E402

from simkit.core import eventlog as EL  # noqa: E402
from simkit.core.stats import mean_ci  # noqa: E402
from simkit.dark_future import engine as EG  # noqa: E402
from simkit.dark_future import scenario as GM  # noqa: E402
from simkit.dark_future.pieces.vehicle import V_SIDE  # noqa: E402

SCEN = ROOT / "scenarios" / "dark-future"
GAMES = "game-6,game-7,game-8-gang-pursues,game-8-intercept"


def survey(name, trials, seed):
    """(rams, hits, beside, rows, rams_sq) for ``trials`` seeded games of Game ``name``; the
    counters count by "side/car" or "side/bike", ``rams_sq`` the sum over games of each game's
    rams squared (for the interval of the rams per game)."""
    sc = GM.load_scenario(SCEN / f"{name}.toml")
    rams, hits, beside = collections.Counter(), collections.Counter(), collections.Counter()
    rams_sq = collections.Counter()
    rows = []
    for t in range(trials):
        before = dict(rams)
        ev, res, world, sim = GM.play_one(sc, seed=seed, trial=t)
        V, names = world[4], sim.a.names
        side = [sc.sides[V[v, V_SIDE]].name for v in range(V.shape[0])]
        last = {}     # vehicle -> (section, lane, space, mph) after its last move
        for e in ev:
            k, v = e[EL.KIND], e[EL.ACTOR]
            if k == EG.EV_MOVE:
                last[v] = (e[EL.A], e[EL.B], e[EL.C], e[EL.D])
            elif (k == EG.EV_RAM or k == EG.EV_BIKERAM) and e[EL.A] == -1:
                sf = int(e[EL.C] if k == EG.EV_RAM else e[EL.D])
                key = side[v] + ("/bike" if k == EG.EV_BIKERAM else "/car")
                rams[key] += 1
                hits[key] += sf
                p = last.get(v)
                near = -1
                if p is not None:
                    for u, q in last.items():
                        if u != v and q[3] > 0 and q[0] == p[0] and abs(q[1] - p[1]) <= 2 \
                                and abs(q[2] - p[2]) <= 2:
                            near = u
                if near >= 0:
                    beside[key] += 1
                rows.append((t, int(e[EL.TURN]), int(e[EL.PHASE]), names[v], sf,
                             names[near] if near >= 0 else "-"))
        for key in rams:
            rams_sq[key] += (rams[key] - before.get(key, 0)) ** 2
    return rams, hits, beside, rows, rams_sq


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--trials", type=int, default=5000)
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--games", default=GAMES)
    ap.add_argument("--out", default=None, help="also write every ram to this JSON file")
    a = ap.parse_args(argv)
    games = games_arg(a.games)
    if games is None:
        return 2
    if a.trials < 1:
        print("error: --trials must be at least 1", file=sys.stderr)
        return 2
    print(f"# Obstacle rams: {a.trials:,} seeded games of each Game (seed {a.seed})")
    print()
    print("| Game | side/kind | rams | per 100 games (95%) | SF hits taken "
          "| with a moving vehicle beside |")
    print("|---|---|---:|---|---:|---:|")
    rec = {}
    for g in games:
        rams, hits, beside, rows, rams_sq = survey(g, a.trials, a.seed)
        for key in sorted(rams):
            m, lo, hi = (100 * x for x in mean_ci(rams[key], rams_sq[key], a.trials))
            print(f"| {g} | {key} | {rams[key]:,} | {m:.1f} ({lo:.1f}-{hi:.1f}) "
                  f"| {hits[key]:,} | {beside[key]:,} |", flush=True)
        rec[g] = {"rams": dict(rams), "hits": dict(hits), "beside": dict(beside), "rows": rows}
    if a.out:
        Path(a.out).write_text(json.dumps(rec))
    return 0


if __name__ == "__main__":
    sys.exit(main())
