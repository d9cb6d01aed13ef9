"""Hazard odds: ``simkit hazards demons-run``.

For one ship (SI, Screens, PI, Velocity; the other Levels from a build, by default the
rulebook's worked ship) and every hazard of the course -- Hell Hole, Hell2 and Hell3 attacks
(209), Hell Fire of each class at the ship's Velocity (208), a Hell Hound detonating at 0, 1 or
2 hexes (207), a Null attack (206/207 errata) -- the chance the ship is destroyed, the SI it
loses, the Critical Hits (210 C) and System Crises it suffers, each as a Monte Carlo figure with
its 95% interval beside the exact value from :mod:`.oracle`.

Screens are taken as allocated at the ship's full Screen Level for the Turn, and the hazard is
met once (criticals and crises are those of this one attack). ``p_effect`` is the chance the
hazard takes hold at all: damage done (hole, hound), at least one crisis roll (fire), lost in
Null.
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pandas as pd

from simkit.core import stats

from . import kernels as K
from .builds import Build
from .oracle import HAZARDS, hazard_distribution, summary
from .reference import ship_from_build
from .rules import Rules

_KIND = {"hole": K.K_HOLE, "fire": K.K_FIRE, "hound": K.K_HOUND, "null": K.K_NULL}


def hazard_specs(names, *, screens: int, velocity: int, pi_modifier: int) -> np.ndarray:
    specs = np.zeros((len(names), K.N_SPEC), dtype=np.int64)
    for i, name in enumerate(names):
        kind, arg = HAZARDS[name]
        specs[i, K.SP_KIND] = _KIND[kind]
        specs[i, K.SP_ARG] = arg
        specs[i, K.SP_SCREENS] = screens
        specs[i, K.SP_VELOCITY] = velocity
        specs[i, K.SP_PI] = pi_modifier
    return specs


class HazardSim:
    """Runner simulation: every hazard once per trial, from that trial's stream."""

    def __init__(self, rules: Rules, build: Build, *, velocity: int, buoys: int = 0,
                 names=tuple(HAZARDS), exact: bool = True):
        self.rules = rules
        self.build = build
        self.velocity = velocity
        self.names = list(names)
        self.pi_modifier = rules.pi_modifier(build.pi)
        self.ship0 = np.asarray(ship_from_build(build, buoys), dtype=np.int64)
        self.specs = hazard_specs(self.names, screens=build.screens, velocity=velocity,
                                  pi_modifier=self.pi_modifier)
        self.arrays = K.kernel_arrays(rules)
        self.name = "demons-run hazards"
        self.n_stats = len(self.names) * K.N_STAT
        self.exact = {n: summary(hazard_distribution(rules, self.ship0, n, velocity=velocity,
                                                     pi_modifier=self.pi_modifier, num=float))
                      for n in self.names} if exact else None

    def chunk(self, key, first, n):
        crit, par, vturns = self.arrays
        return K.hazard_stats(key, first, n, self.specs, self.ship0, crit, par, vturns).ravel()

    def summarise(self, totals, n_trials) -> pd.DataFrame:
        t = np.asarray(totals, dtype=np.int64).reshape(len(self.names), K.N_STAT)
        rows = []
        for i, name in enumerate(self.names):
            s = t[i]
            row = {"hazard": name, "si": self.build.si, "screens": self.build.screens,
                   "pi": self.build.pi, "pi_modifier": self.pi_modifier,
                   "velocity": self.velocity}
            for col, k in (("p_destroyed", K.S_DESTROYED), ("p_crisis", K.S_ANY_CRISIS),
                           ("p_effect", K.S_EFFECT)):
                lo, hi = stats.rate_ci(s[k], n_trials)
                row[col] = s[k] / n_trials
                row[col + "_lo"], row[col + "_hi"] = float(lo), float(hi)
                if self.exact:
                    row[col + "_exact"] = float(self.exact[name][col])
            for col, k, k2 in (("mean_si_loss", K.S_SI, K.S_SI2),
                               ("mean_criticals", K.S_CRIT, K.S_CRIT2),
                               ("mean_crises", K.S_CRISES, K.S_CRISES2),
                               ("mean_fuel_loss", K.S_FUEL, K.S_FUEL2)):
                m, lo, hi = stats.mean_ci(s[k], s[k2], n_trials)
                row[col], row[col + "_lo"], row[col + "_hi"] = float(m), float(lo), float(hi)
                if self.exact and col in self.exact[name]:
                    row[col + "_exact"] = float(self.exact[name][col])
            row["trials"] = int(n_trials)
            rows.append(row)
        return pd.DataFrame(rows)


def ship_for(build: Build, *, si=None, screens=None, pi=None) -> Build:
    """The build with the given Levels overridden (a damaged or hypothetical ship)."""
    changes = {k: v for k, v in (("si", si), ("screens", screens), ("pi", pi)) if v is not None}
    return replace(build, **changes)
