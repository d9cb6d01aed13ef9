"""What is each Starfire weapon worth at each range? (starfire.txt (5.3)-(8.3))

For each weapon family and range, a volley of ``k`` weapons is fired at a fresh copy of the
target control sheet, ``n`` trials per cell. Trial *i* uses the stream (seed, *i*) in every
cell (common random numbers: differences between ranges and weapons are sharper than either
figure). Per cell the kernel sums integer statistics; :meth:`WeaponTable.summarise` turns them
into rates and means with 95% intervals and puts the exact values from the reference
enumeration (``reference.py`` + ``simkit.core.exact``) beside them.

Figures per (weapon, range):

* ``p_hit``: chance one weapon's to-hit roll succeeds (before Point Defense);
* ``mean_damage``: hit points per volley that reach the sheet (after Point Defense and
  Overload Dampeners; a Primary Beam whose die falls past the last system scores none);
* ``mean_destroyed`` and its quantiles: systems destroyed per volley (burnt-out dampeners and
  collapsed Holds included; a circled system is not destroyed);
* ``p_internal``: chance at least one system other than Shield and Armor is destroyed.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from functools import lru_cache

import numpy as np
import pandas as pd

from ..core import dice, exact, stats
from ..core._numba import jit
from ..core.blocks import sum_blocks
from ..core.errors import UserInputError
from .fire import hit_lookup, resolve_volley
from .reference import volley as reference_volley
from .rules import ARMOR, FAMILIES, SHIELD, combat_tables, rules_data
from .sheet import Sheet, hold_run_ends, parse_sheet

HITS, LANDED, LANDED_SQ, DESTROYED, DESTROYED_SQ, INTERNAL, STOPPED, HIST = range(8)
EXACT_MAX_PATHS = 60_000
DEFAULT_TARGET = "wisconsin"


@jit
def _table_block(codes, run_end, fam, hitn, eff, auto, k, skip, nth, intercept, od_negate,
                 od_burnout, key, lo, hi, n_stat, acc):
    n_cells = fam.shape[0]
    n_sys = codes.shape[0]
    st = np.zeros(dice.STATE_SIZE, dtype=np.uint64)
    hp = np.empty(n_sys, dtype=np.int64)
    pd_fired = np.empty(n_sys, dtype=np.int64)
    out = np.zeros(3, dtype=np.int64)
    for t in range(lo, hi):
        for c in range(n_cells):
            dice.seed_trial(st, key, t)  # same stream in every cell: common random numbers
            hp[:] = 2
            pd_fired[:] = 0
            resolve_volley(codes, hp, run_end, pd_fired, fam[c], k, hitn[c], eff[c], auto[c],
                           skip, nth, intercept, od_negate, od_burnout, st, dice.NO_SCRIPT,
                           out)
            destroyed = 0
            internal = 0
            for i in range(n_sys):
                if hp[i] == 0:
                    destroyed += 1
                    if codes[i] != SHIELD and codes[i] != ARMOR:
                        internal = 1
            base = c * n_stat
            acc[base + HITS] += out[0]
            acc[base + LANDED] += out[1]
            acc[base + LANDED_SQ] += out[1] * out[1]
            acc[base + DESTROYED] += destroyed
            acc[base + DESTROYED_SQ] += destroyed * destroyed
            acc[base + INTERNAL] += internal
            acc[base + STOPPED] += out[2]
            acc[base + HIST + destroyed] += 1


def _table_kernel(codes, run_end, fam, hitn, eff, auto, k, skip, nth, intercept, od_negate,
                  od_burnout, key, first, n, n_stat):
    return sum_blocks(lambda lo, hi, acc: _table_block(
        codes, run_end, fam, hitn, eff, auto, k, skip, nth, intercept, od_negate, od_burnout,
        key, lo, hi, n_stat, acc), first, n, fam.shape[0] * n_stat)


@lru_cache(maxsize=4096)
def exact_cell(systems: tuple, family: str, k: int, hit: int, effect: int, auto: bool):
    """Exact outcome distribution of one cell, or None when it has too many dice paths."""
    try:
        return exact.distribution(reference_volley, systems, family, k, hit, effect, auto,
                                  max_paths=EXACT_MAX_PATHS)
    except RuntimeError:
        return None


@dataclass
class WeaponTable:
    """The Simulation behind ``simkit weapons starfire`` (see module docstring)."""

    target: Sheet
    ranges: list
    volley: int = 1
    variants: dict = field(default_factory=dict)
    tractor: str = "none"
    families: tuple = FAMILIES
    name: str = "starfire weapons"

    def __post_init__(self):
        self.tables = combat_tables(self.variants)
        self.codes = self.target.codes
        self.run_end = hold_run_ends(self.codes)
        cells = []
        for fname in self.families:
            f = FAMILIES.index(fname)
            for r in self.ranges:
                if self.tables.can_fire(f, r):
                    hit, eff, auto = hit_lookup(self.tables, f, r, self.tractor)
                    cells.append((fname, f, r, hit, eff, auto))
        if not cells:
            raise UserInputError("no weapon can fire at the ranges asked for", field="--ranges")
        self.cells = cells
        self.fam = np.array([c[1] for c in cells], dtype=np.int64)
        self.hitn = np.array([c[3] for c in cells], dtype=np.int64)
        self.eff = np.array([c[4] for c in cells], dtype=np.int64)
        self.auto = np.array([c[5] for c in cells], dtype=np.bool_)
        self.n_hist = len(self.codes) + 1
        self.n_cell_stats = HIST + self.n_hist
        self.n_stats = len(cells) * self.n_cell_stats

    def chunk(self, key, first, n):
        t = self.tables
        return _table_kernel(self.codes, self.run_end, self.fam, self.hitn, self.eff, self.auto,
                             self.volley, t.skip, t.nth, t.intercept, t.od_negate_halves,
                             t.od_burnout_halves, np.uint64(key), first, n, self.n_cell_stats)

    def cell_totals(self, totals):
        return np.asarray(totals).reshape(len(self.cells), self.n_cell_stats)

    def exact(self, cell_index: int):
        fname, _, _, hit, eff, auto = self.cells[cell_index]
        return exact_cell(self.target.systems, fname, self.volley, hit, eff, auto)

    def summarise(self, totals, n_trials):
        tot = self.cell_totals(totals)
        k = self.volley
        n = n_trials
        p_hit = tot[:, HITS] / (n * k)
        ph_lo, ph_hi = stats.rate_ci(tot[:, HITS], n * k)
        dmg, dmg_lo, dmg_hi = (x / 2 for x in stats.mean_ci(tot[:, LANDED], tot[:, LANDED_SQ], n))
        des, des_lo, des_hi = stats.mean_ci(tot[:, DESTROYED], tot[:, DESTROYED_SQ], n)
        pin_lo, pin_hi = stats.rate_ci(tot[:, INTERNAL], n)
        q = stats.quantiles_from_histogram(tot[:, HIST:], (0.05, 0.5, 0.95))
        rows = []
        for i, (fname, f, r, hit, eff, auto) in enumerate(self.cells):
            ex = self.exact(i)
            p_hit_exact = 1.0 if (auto or hit >= 12) else float(exact.p_at_most(2, 6, hit)) if hit >= 2 else 0.0
            if ex is not None:
                e_dmg = float(exact.expectation(ex, lambda o: Fraction(o[1], 2)))
                e_des = float(exact.expectation(ex, lambda o: o[2]))
                e_int = float(exact.probability(ex, lambda o: o[3]))
            else:
                e_dmg = e_des = e_int = np.nan
            rows.append({
                "weapon": fname, "range": r, "volley": k, "tractor": self.tractor,
                "p_hit": p_hit[i], "p_hit_lo": ph_lo[i], "p_hit_hi": ph_hi[i],
                "p_hit_exact": p_hit_exact,
                "mean_damage": dmg[i], "mean_damage_lo": dmg_lo[i], "mean_damage_hi": dmg_hi[i],
                "mean_damage_exact": e_dmg,
                "mean_destroyed": des[i], "mean_destroyed_lo": des_lo[i],
                "mean_destroyed_hi": des_hi[i], "mean_destroyed_exact": e_des,
                "destroyed_q05": int(q[i, 0]), "destroyed_q50": int(q[i, 1]),
                "destroyed_q95": int(q[i, 2]),
                "p_internal": tot[i, INTERNAL] / n, "p_internal_lo": pin_lo[i],
                "p_internal_hi": pin_hi[i], "p_internal_exact": e_int,
                "missiles_stopped": tot[i, STOPPED] / n,
                "trials": n,
            })
        return pd.DataFrame(rows)


def resolve_target(text: str | None) -> Sheet:
    """A named ship from data/ships.toml, or a control sheet string."""
    text = text or DEFAULT_TARGET
    rules = rules_data()
    for tname in ("ships", "scenario_one_ships"):
        sheets = rules.table(tname)["sheets"]
        if text.lower() in sheets:
            return parse_sheet(sheets[text.lower()], where=f"--target {text}")
    return parse_sheet(text, where="--target")
