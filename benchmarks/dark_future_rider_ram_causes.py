"""Why riders ram obstacle strips (issue 15, session 26): the position of each rider's obstacle
ram in the seeded games of the Dark Future Games with road hazards, sorted into classes.

    python benchmarks/dark_future_rider_ram_causes.py [--trials 500] [--seed 2026]
                                   [--games game-6,game-7,...] [--param strip_dodge=1] [--rows]

A game's log keeps no board, and the sections behind the road are gone at its end; so each game
with a rider's ram into an obstacle (p76; ``EV_BIKERAM`` with no target) is played again with its
turn limit cut to the turn before the ram (``max_turns``: the same dice, the game stopped there)
and the rider's position read at the start of the ram's turn: its speed, lanes, the spaces to the
first block in its lanes (``policies._first_static``), the fewest drifts to a lane pair clear of
blocks up to that space (``policies._pair_clear``, either side, curves not asked) and the
single lanes free of obstacles in the block's space. Classes: a control loss in the ram's turn
before the ram; nothing in its lanes at the turn's start (it drifted or skidded into it later);
a road shut edge to edge (no single lane free); no lane pair clear but a single lane; a clear
pair no further than the moves before the block (one drift a move, p13: it could have drifted
round); a clear pair too far, with a pair in reach from which one lane passes (a dodge, p62,
p64); a clear pair too far and no such pair in reach. Nothing is asserted: a survey, run before
and after a driver change. ``--param`` sets a driver parameter (``policies.PARAM_SPACE``) for
every side, ``--rows`` prints each ram with the rider's last actions.
"""

from __future__ import annotations

import argparse
import collections
import dataclasses
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from dark_future_deadlocks import games_arg  # noqa: E402

from simkit.core import eventlog as EL  # noqa: E402
from simkit.core.stats import rate_ci  # noqa: E402
from simkit.dark_future import engine as EG  # noqa: E402
from simkit.dark_future import policies as PO  # noqa: E402
from simkit.dark_future import scenario as GM  # noqa: E402
from simkit.dark_future.pieces import road as RD  # noqa: E402
from simkit.dark_future.pieces import vehicle as VH  # noqa: E402

SCEN = ROOT / "scenarios" / "dark-future"
GAMES = "game-6,game-7,game-8-gang-pursues"
CLASSES = ("control loss in the ram's turn", "nothing in its lanes at the turn's start",
           "shut edge to edge", "no pair clear, a single lane free", "pair in reach",
           "pair too far, a dodge pair in reach", "pair too far, no dodge pair in reach")


def _free_lanes(T, M, NM, V, v, sec, sp):
    """The single lanes (0-5) free of obstacles over space (sec, sp) of the rider's pair."""
    lane = V[v, VH.V_LANE]
    xlo, xhi = RD.rear_x(T, sec, lane, sp), RD.front_x(T, sec, lane, sp)
    return [q for q in range(6)
            if not any(M[i, RD.MK_ACTIVE] and M[i, RD.MK_KIND] == RD.OBSTACLE
                       and VH.marker_over(M, i, q, q, xlo, xhi) for i in range(NM[0]))]


def classify(sc, seed, trial, v, turn):
    """(class, what was read) for rider ``v``'s ram in ``turn`` of the seeded game."""
    _, _, world, _ = GM.play_one(dataclasses.replace(sc, max_turns=turn - 1), seed=seed,
                                 trial=trial)
    T, TM, M, NM, V = world[:5]
    n = V.shape[0]
    lane = int(V[v, VH.V_LANE])
    kb = int(PO._first_static(T, M, NM, V, n, v, 15))
    info = {"mph": int(V[v, VH.V_MPH]), "lane": lane, "block": kb}
    if kb == 0:
        return CLASSES[1], info
    nd = min((d for d in range(5) for p in (lane - d, lane + d)
              if 0 <= p <= 4 and PO._pair_clear(T, M, NM, V, n, v, p, kb, False)), default=99)
    sec, sp = PO._space_ahead(T, V, v, lane, kb)
    free = _free_lanes(T, M, NM, V, v, sec, sp)
    ndod = min((abs(p - lane) for p in range(5) if p in free or p + 1 in free), default=99)
    info.update(drifts=nd, dodge_drifts=ndod, free=free)
    if nd == 99:
        return CLASSES[2] if not free else CLASSES[3], info
    if nd <= kb - 1:
        return CLASSES[4], info
    return CLASSES[5] if ndod <= kb - 1 else CLASSES[6], info


def survey(name, trials, seed, params, rows):
    sc = GM.load_scenario(SCEN / f"{name}.toml")
    for side in sc.sides:
        side.params = dict(params)
    causes = collections.Counter()
    for t in range(trials):
        ev, _, _, sim = GM.play_one(sc, seed=seed, trial=t)
        recent = collections.defaultdict(list)   # rider -> [(turn, what)]
        for e in ev:
            k, v, turn = int(e[EL.KIND]), int(e[EL.ACTOR]), int(e[EL.TURN])
            if k == EG.EV_ACTION:
                a = int(e[EL.A])
                recent[v].append((turn, PO.ACTION_NAMES[a] if 0 <= a < len(PO.ACTION_NAMES)
                                  else str(a)))
            elif k == EG.EV_CUTUP:
                recent[v].append((turn, "drift refused (cut-up)"))
            elif k == EG.EV_CONTROL:
                recent[v].append((turn, "control loss"))
            elif k == EG.EV_BIKERAM and int(e[EL.A]) == -1:
                if any(x == (turn, "control loss") for x in recent[v]):
                    c, info = CLASSES[0], {}
                else:
                    c, info = classify(sc, seed, t, v, turn)
                causes[c] += 1
                if rows:
                    print(f"  {name} {t} turn {turn} {sim.a.names[v]}: {c} {info} "
                          f"{[w for x, w in recent[v] if x >= turn - 1][-8:]}")
    return causes


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--trials", type=int, default=500)
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--games", default=GAMES)
    ap.add_argument("--param", action="append", default=[], help="NAME=VALUE, every side")
    ap.add_argument("--rows", action="store_true", help="print every ram")
    a = ap.parse_args(argv)
    games = games_arg(a.games)
    if games is None:
        return 2
    params = {}
    for p in a.param:
        k, _, x = p.partition("=")
        if k not in PO.PARAM_SPACE or not x.lstrip("-").isdigit():
            print(f"error: --param {p!r}: NAME=VALUE of policies.PARAM_SPACE", file=sys.stderr)
            return 2
        params[k] = int(x)
    print(f"# Riders' obstacle rams by cause: {a.trials:,} seeded games of each Game "
          f"(seed {a.seed}){' ' + str(params) if params else ''}")
    print()
    print("Each class: rams, and its share of the Game's riders' rams (95% Wilson interval).")
    print()
    print("| Game | " + " | ".join(CLASSES) + " | rams |")
    print("|---|" + "---|" * len(CLASSES) + "---:|")

    def cell(k, n):
        if n == 0:
            return "0"
        lo, hi = rate_ci(k, n)
        return f"{k} ({100 * k / n:.0f}%, {100 * lo:.0f}-{100 * hi:.0f})"
    for g in games:
        c = survey(g, a.trials, a.seed, params, a.rows)
        n = sum(c.values())
        print(f"| {g} | " + " | ".join(cell(c[k], n) for k in CLASSES) + f" | {n} |",
              flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
