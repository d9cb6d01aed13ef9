"""Hazard, fire and recovery odds: ``simkit hazards|fire|recovery demons-run``.

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

The same runner simulation (:class:`ProcedureSim`, any list of kernel procedures) serves the
``fire`` table (206: Laser and Scrambler by range, against a ship, a Buoy or a Hell Hound) and
the ``recovery`` table (205: one attempt per Tractor Level).
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pandas as pd

from simkit.core import stats

from . import kernels as K
from ..builds import Build
from ..reference.oracle import (HAZARDS, hazard_summary, laser_distribution, p_hit_exact,
                     p_marker_destroyed_exact,
                     p_recovery_exact, p_scrambler_exact, summary)
from ..reference import recovery_modifier, ship_from_build
from ..rules import Rules

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


class ProcedureSim:
    """Runner simulation over a list of procedures (rows of ``specs``), each once per trial
    from that trial's stream; ``meta`` rows label the output and ``exact`` rows (dicts of
    exact figures, or None) go beside the Monte Carlo ones."""

    name = "demons-run procedures"

    def __init__(self, rules: Rules, ship0, specs, meta, exact=None):
        self.rules = rules
        self.ship0 = np.asarray(ship0, dtype=np.int64)
        self.specs = np.asarray(specs, dtype=np.int64)
        self.meta = list(meta)
        self.exact = exact
        self.arrays = K.kernel_arrays(rules)
        self.n_stats = len(self.meta) * K.N_STAT

    def chunk(self, key, first, n):
        crit, par, vturns = self.arrays
        return K.hazard_stats(key, first, n, self.specs, self.ship0, crit, par, vturns).ravel()

    def summarise(self, totals, n_trials) -> pd.DataFrame:
        t = np.asarray(totals, dtype=np.int64).reshape(len(self.meta), K.N_STAT)
        rows = []
        for i, meta in enumerate(self.meta):
            s = t[i]
            row = dict(meta)
            ex = self.exact[i] if self.exact else None
            for col, k in (("p_destroyed", K.S_DESTROYED), ("p_crisis", K.S_ANY_CRISIS),
                           ("p_effect", K.S_EFFECT)):
                lo, hi = stats.rate_ci(s[k], n_trials)
                row[col] = s[k] / n_trials
                row[col + "_lo"], row[col + "_hi"] = float(lo), float(hi)
                if ex is not None and col in ex:
                    row[col + "_exact"] = float(ex[col])
            for col, k, k2 in (("mean_si_loss", K.S_SI, K.S_SI2),
                               ("mean_criticals", K.S_CRIT, K.S_CRIT2),
                               ("mean_crises", K.S_CRISES, K.S_CRISES2),
                               ("mean_fuel_loss", K.S_FUEL, K.S_FUEL2)):
                m, lo, hi = stats.mean_ci(s[k], s[k2], n_trials)
                row[col], row[col + "_lo"], row[col + "_hi"] = float(m), float(lo), float(hi)
                if ex is not None and col in ex:
                    row[col + "_exact"] = float(ex[col])
            if ex is not None and "exact_error" in ex:
                # probability mass of the oracle's states too unlikely to follow (< 1e-14 each)
                row["exact_error"] = float(ex["exact_error"])
            row["trials"] = int(n_trials)
            rows.append(row)
        return pd.DataFrame(rows)


class HazardSim(ProcedureSim):
    """Every hazard of the course against one ship."""

    name = "demons-run hazards"

    def __init__(self, rules: Rules, build: Build, *, velocity: int, buoys: int = 0,
                 names=tuple(HAZARDS), exact: bool = True):
        self.build = build
        self.velocity = velocity
        self.names = list(names)
        self.pi_modifier = rules.pi_modifier(build.pi)
        ship0 = ship_from_build(build, buoys)
        specs = hazard_specs(self.names, screens=build.screens, velocity=velocity,
                             pi_modifier=self.pi_modifier)
        meta = [{"hazard": n, "si": build.si, "screens": build.screens, "pi": build.pi,
                 "pi_modifier": self.pi_modifier, "velocity": velocity} for n in self.names]
        ex = [hazard_summary(rules, ship0, n, velocity=velocity, pi_modifier=self.pi_modifier)
              for n in self.names] if exact else None
        super().__init__(rules, ship0, specs, meta, ex)


def ship_for(build: Build, *, si=None, screens=None, pi=None) -> Build:
    """The build with the given Levels overridden (a damaged or hypothetical ship)."""
    changes = {k: v for k, v in (("si", si), ("screens", screens), ("pi", pi)) if v is not None}
    return replace(build, **changes)


# --- Laser and Scrambler fire by range (206) ---------------------------------------------------

TARGETS = ("ship", "easy_buoy", "moving_buoy", "hell_hound")


def fire_sim(rules: Rules, defender: Build, *, laser: int, scrambler: int, pi: int,
             ranges, modifier: int = 0, target: str = "ship", buoys: int = 0) -> ProcedureSim:
    """Laser (and, against ships, Scrambler) fire at each range: to-hit 2d6 + PI + ``modifier``
    (the Line-of-Fire sum, 206 D) + the target modifier >= range; the Laser's damage and
    Critical Hits against the defender, or 2+ hits against a Buoy or Hell Hound's 2d6 Screen;
    the Scrambler's System Crisis. Under variant scrambler_level=laser the Scrambler's effect
    uses the Laser Level (Reference Card)."""
    pim = rules.pi_modifier(pi)
    mod = modifier + pim + rules.t("fire")["target"][target]
    ship0 = ship_from_build(defender, buoys)
    scr_level = laser if rules.scrambler_uses_laser else scrambler
    specs, meta, exact = [], [], []
    for rng in ranges:
        base = {"range": rng, "target": target, "laser": laser, "scrambler": scrambler,
                "pi": pi, "modifier": mod, "si": defender.si, "screens": defender.screens}
        sp = np.zeros(K.N_SPEC, dtype=np.int64)
        sp[K.SP_RANGE], sp[K.SP_MOD], sp[K.SP_SCREENS] = rng, mod, defender.screens
        if target == "ship":
            if laser > 0:
                sp[K.SP_KIND], sp[K.SP_LEVEL] = K.K_LASER, laser
                specs.append(sp.copy())
                meta.append({"weapon": "laser", **base})
                ex = summary(laser_distribution(rules, ship0, laser, rng, mod,
                                                screens=defender.screens, num=float))
                ex["p_hit"] = ex.pop("p_effect")
                exact.append({**ex, "p_effect": ex["p_hit"]})
            if scrambler > 0:
                sp[K.SP_KIND], sp[K.SP_LEVEL] = K.K_SCRAMBLER, scr_level
                specs.append(sp.copy())
                meta.append({"weapon": "scrambler", **base})
                p = float(p_scrambler_exact(rules, scr_level, rng, mod, defender.screens))
                exact.append({"p_effect": p, "p_crisis": p, "mean_crises": p, "p_destroyed": 0.0,
                              "mean_si_loss": 0.0, "mean_criticals": 0.0})
        elif laser > 0:
            sp[K.SP_KIND], sp[K.SP_LEVEL] = K.K_LASER_MARKER, laser
            specs.append(sp.copy())
            meta.append({"weapon": "laser", **base})
            exact.append({"p_destroyed": float(p_marker_destroyed_exact(rules, laser, rng, mod)),
                          "p_effect": float(p_hit_exact(rules, rng, mod))})
    sim = ProcedureSim(rules, ship0, np.array(specs).reshape(-1, K.N_SPEC), meta, exact)
    sim.name = "demons-run fire"
    return sim


# --- Buoy Recovery (205) -----------------------------------------------------------------------

def recovery_sim(rules: Rules, *, tractors, velocity: int, distance: int, terrain: str,
                 pi: int, attempt: int = 1) -> ProcedureSim:
    """One Buoy Recovery attempt per Tractor Level: d6 + Tractor + 205 B modifiers >= 5."""
    pim = rules.pi_modifier(pi)
    mod = recovery_modifier(rules, velocity=velocity, hexes_away=distance, terrain=terrain,
                            attempt=attempt, pi_modifier=pim)
    specs, meta, exact = [], [], []
    for t in tractors:
        sp = np.zeros(K.N_SPEC, dtype=np.int64)
        sp[K.SP_KIND], sp[K.SP_LEVEL], sp[K.SP_MOD] = K.K_RECOVERY, t, mod
        specs.append(sp)
        meta.append({"tractor": t, "velocity": velocity, "distance": distance,
                     "terrain": terrain, "pi": pi, "attempt": attempt, "modifier": mod})
        exact.append({"p_effect": float(p_recovery_exact(rules, t, mod))})
    sim = ProcedureSim(rules, ship_from_build(Build()), np.array(specs), meta, exact)
    sim.name = "demons-run recovery"
    return sim
