"""The Racing Season (212) as a campaign of races, played with the compiled race.

A season file is a race scenario (``races.load_scenario``): each ``[[ship]]`` is a *player*
with its design, corner and pilot. Modelled, race after race (``race.toml racing_season``):

* 212 D rosters: each player owns up to three ships of its design; no ship races twice in a row
  (the player rotates through its roster); a destroyed ship never races again and the player
  designs a replacement (the same design, no experience) for the next race.
* 212 A-B experience: a ship's VP go into one pool (VP not used carry over, 212 A): with 200
  or more it first buys a PI Level, then every 75 buys one Level (the order of preference
  below), beyond the 80 points and up to each maximum. Reading: 212 B's "every 75" and
  "every 200" spend the same points, not two separate counts.
* 212 C repairs: every race starts from the design plus experience with all damage repaired,
  except the PI Function: PI Levels lost in a race stay lost, and one is repaired after each
  later race the ship enters and finishes (reading: the race in which the damage is taken does
  not repair it, since the rule sets PI apart from damage "repaired for the next race").
* 212 D victory: the player (team) with the most season VP, and the single ship with the most.

Not modelled: experience choices follow one fixed order
(10 Fuel Levels while Fuel is below its maximum, then SI, Screens, Main Engines) rather than a
player's judgement.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import numpy as np
import pandas as pd

from simkit.core import stats
from simkit.core.errors import UserInputError

from .builds import Build
from .pieces.layout import DESTROYED, FINISHED
from .scenario import RaceScenario, RaceSim, load_scenario, play_one
from .rules import make_rules

GROWTH_ORDER = ("fuel", "si", "screens", "me")


@dataclass
class Ship:
    player: int
    number: int          # 1.. within the player's roster (replacements continue the count)
    build: Build
    vp_total: int = 0
    vp_unspent: int = 0
    destroyed: bool = False
    raced_last: bool = False
    pi_damage: int = 0   # PI Levels lost and not yet repaired (212 C)

    def race_build(self) -> Build:
        return replace(self.build, pi=max(0, self.build.pi - self.pi_damage))


def _grow(ship: Ship, rules) -> None:
    """212 A-B: spend the ship's VP on Levels (every 75) and PI Levels (every 200)."""
    rs = rules.t("racing_season")
    per, per_pi, fuel10 = rs["points_per_level"], rs["points_per_pi"], rs["fuel_levels_per_award"]
    b = ship.build
    if ship.vp_unspent >= per_pi and b.pi < rules.max_level("pi"):
        ship.vp_unspent -= per_pi
        b = replace(b, pi=b.pi + 1)
    while ship.vp_unspent >= per:
        for name in GROWTH_ORDER:
            step = fuel10 if name == "fuel" else 1
            if getattr(b, name) + step <= rules.max_level(name):
                b = replace(b, **{name: getattr(b, name) + step})
                ship.vp_unspent -= per
                break
        else:
            break
    ship.build = b


def play_season(sc: RaceScenario, *, races: int, seed: int, season: int, entries_log=None):
    """One season (race r is trial ``season * races + r`` of ``seed``); returns (per-player
    season VP, rosters). ``entries_log`` (a list) receives each race's (player, ship number)."""
    rules = make_rules(sc.variants)
    max_ships = rules.t("racing_season")["max_ships"]
    rosters = [[Ship(i, n + 1, s.build) for n in range(max_ships)] for i, s in enumerate(sc.ships)]
    made = [max_ships] * len(sc.ships)
    player_vp = np.zeros(len(sc.ships), np.int64)
    for r in range(races):
        entries = []
        for i, roster in enumerate(rosters):
            ship = next((s for s in roster if not s.destroyed and not s.raced_last), None)
            if ship is None:          # every ship destroyed or just raced: a new design
                made[i] += 1
                ship = Ship(i, made[i], sc.ships[i].build)
                roster.append(ship)
            entries.append(ship)
        for roster in rosters:
            for s in roster:
                s.raced_last = False
        if entries_log is not None:
            entries_log.append([(s.player, s.number) for s in entries])
        race_sc = replace(sc, ships=[replace(e, build=s.race_build())
                                      for e, s in zip(sc.ships, entries)])
        sim = RaceSim(race_sc)
        _, res, _, _ = play_one(sim, seed, season * races + r)
        for i, s in enumerate(entries):
            s.raced_last = True
            vp = int(res[i, 1])
            player_vp[i] += vp
            s.vp_total += vp
            if res[i, 0] == DESTROYED:
                s.destroyed = True          # 212 C: never races again, scores nothing
            else:
                # 212 C: one earlier PI Level repaired per race finished, then this race's losses
                lost = max(0, race_sc.ships[i].build.pi - int(res[i, 6]))
                if res[i, 0] == FINISHED:
                    s.pi_damage = max(0, s.pi_damage - 1)
                s.pi_damage += lost
                s.vp_unspent += vp
                _grow(s, rules)
            if s.destroyed:
                rosters[i] = [x for x in rosters[i] if not x.destroyed] or []
    return player_vp, rosters


def season_table(path, *, seasons=50, races=None, seed=2026, policies=None, variants=None):
    """Per player over ``seasons`` seasons: team wins (most season VP), mean season VP with a
    95% interval, and the best single ship's mean VP."""
    sc = load_scenario(path, policies=policies, variants=variants)
    rules = make_rules(sc.variants)
    races = races or rules.t("racing_season")["min_races"]
    if seasons < 1 or races < 1:
        raise UserInputError("must be positive", field="--seasons")
    n = len(sc.ships)
    wins = np.zeros(n, np.int64)
    vp_sum = np.zeros(n, np.int64)
    vp_sq = np.zeros(n, np.int64)
    for k in range(seasons):
        pv, _ = play_season(sc, races=races, seed=seed, season=k)
        vp_sum += pv
        vp_sq += pv * pv
        top = pv.max()
        if (pv == top).sum() == 1:
            wins[int(np.argmax(pv))] += 1
    rows = []
    for i, s in enumerate(sc.ships):
        lo, hi = stats.rate_ci(int(wins[i]), seasons)
        m, mlo, mhi = stats.mean_ci(int(vp_sum[i]), int(vp_sq[i]), seasons)
        rows.append({"scenario": sc.name, "side": s.name, "policy": s.pilot, "seasons": seasons,
                     "races": races, "team_wins": int(wins[i]), "win_rate": wins[i] / seasons,
                     "win_lo": float(lo), "win_hi": float(hi), "mean_season_vp": float(m),
                     "mean_season_vp_lo": float(mlo), "mean_season_vp_hi": float(mhi)})
    return pd.DataFrame(rows)
