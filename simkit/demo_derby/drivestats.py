"""How the drivers drive, read from the logs of many seeded games (issue 16, item 2): wall, pole
and wreck hits per game (by cars holding no steering card, and by cars holding one), the share
of car-to-car crashes that hit the target's front, mud and ditch entries, and how games end.

The games are exactly the Monte Carlo's trials (``scenario.playthrough`` plays trial t of the
seed the same way); the figures are integer counts, each rate with a 95% Wilson interval
(``simkit.core.stats.rate_ci``), means with a t interval.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from ..core import dice
from ..core.stats import mean_ci, rate_ci
from .pieces import arena as A
from . import engine as D
from . import policies as P
from .rules import FRONT, FRONT_LEFT, FRONT_RIGHT


def _one_game(sim, sc, seed, trial):
    n = sim.n_cars
    st = dice.new_state()
    dice.seed_trial(st, dice.stream_key(seed), trial)
    spot_of = np.zeros(sim.pool.shape[0], np.int64)
    D.deal_spots(st, dice.NO_SCRIPT, sim.pool, n, 1 if sim.random_spots else 0, spot_of)
    starts = np.ascontiguousarray(sim.pool[spot_of[:n]])
    starts2 = np.ascontiguousarray(sim.pool2[spot_of[:n]])
    g = D.DerbyGame(sim.tables, sc.arena, n, starts=starts, params=sim.params, lim=sim.lim,
                    log_size=50_000)
    out = np.zeros(6, np.int64)
    D.play_event(st, dice.NO_SCRIPT, sim.params, g.S, g.G, g.T,
                 D.Stages(sim.lim, sim.lim2.copy(), starts2), g.L, -1, out)
    return g, out


def driving_stats(path_or_scenario, n_games: int = 1000, seed: int = 2026) -> pd.DataFrame:
    """One row per measure: count, games, per-game rate or share with its 95% interval."""
    from .scenario import Scenario, build_sim, load_scenario
    sc = (path_or_scenario if isinstance(path_or_scenario, Scenario)
          else load_scenario(path_or_scenario))
    sim = build_sim(sc)
    walls = poles = wrecks = steering = muds = 0
    crashes = front = front_any = 0
    aimed = aimed_front = 0  # crashes by drivers other than the hunter (who rams any side)
    tie64 = 0
    per_game = []
    straight = D.E_STRAIGHT
    for t in range(n_games):
        g, out = _one_game(sim, sc, seed, t)
        ev = g.event_rows(where=f"{sc.path}, trial {t} of seed {seed}")
        hits = 0
        # cards held per car, replayed from the log, to tell steering-card wall hits apart
        held_straight = np.zeros(sim.n_cars, np.int64)
        for rnd, _phase, car, e, a, b in ev[:, :6]:
            if e == D.EV_CARD and sim.tables.card_effect[a] == straight:
                held_straight[car] = 1
            elif e == D.EV_OBSTACLE:
                hits += 1
                if a == A.WALL:
                    walls += 1
                elif a in (A.POLE, A.F8_POLE):
                    poles += 1
                else:
                    wrecks += 1
                steering += held_straight[car]
            elif e == D.EV_STUCK:
                muds += 1
            elif e == D.EV_CRASH:
                crashes += 1
                front += b == FRONT
                front_any += b in (FRONT, FRONT_LEFT, FRONT_RIGHT)
                if sim.params[car, P.P_POLICY] != P.POL_HUNTER:
                    aimed += 1
                    aimed_front += b == FRONT
        per_game.append(hits)
        tie64 += int(out[3])
    n = n_games
    rows = []

    def rate(name, k, of):
        lo, hi = rate_ci(k, of)
        rows.append({"measure": name, "count": k, "of": of, "value": k / of if of else 0.0,
                     "lo": float(lo), "hi": float(hi)})

    def per(name, k, data=None):
        if data is None:
            rows.append({"measure": name, "count": k, "of": n, "value": k / n, "lo": np.nan,
                         "hi": np.nan})
            return
        x = np.asarray(data, np.int64)
        m, lo, hi = mean_ci(int(x.sum()), int((x * x).sum()), n)
        rows.append({"measure": name, "count": k, "of": n, "value": float(m), "lo": float(lo),
                     "hi": float(hi)})

    per("obstacle hits per game (wall, pole, wreck)", walls + poles + wrecks, per_game)
    per("wall hits per game", walls)
    per("pole hits per game", poles)
    per("wreck hits per game", wrecks)
    per("obstacle hits by cars holding a straight-only card, per game", int(steering))
    per("mud or ditch entries per game", muds)
    per("car-to-car crashes per game", crashes)
    rate("share of crashes on the target's front", int(front), crashes)
    rate("share of crashes on the target's front, front-left or front-right", int(front_any),
         crashes)
    rate("share of crashes by non-hunters on the target's front", int(aimed_front), aimed)
    rate("games tied at the 64-round limit", tie64, n)
    return pd.DataFrame(rows)


if __name__ == "__main__":  # python -m simkit.demo_derby.drivestats FILE [N] [SEED]
    import sys
    f = driving_stats(sys.argv[1], int(sys.argv[2]) if len(sys.argv) > 2 else 1000,
                      int(sys.argv[3]) if len(sys.argv) > 3 else 2026)
    with pd.option_context("display.width", 200, "display.max_colwidth", 80):
        print(f.to_string(index=False))
