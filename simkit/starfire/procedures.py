"""Compiled Starfire fire resolution: one volley against one control sheet (starfire.txt (5.0)-(8.3)).

A *volley* is ``k`` weapons of one family fired together by one ship (or one DataLink group,
(12.2)) at one target. All to-hit rolls come first, then the hits take effect in order, as the
rulebook narrates (5.9): "He rolls two hits, and then for his secondary die rolls gets...".

Rules implemented here, each point by point on the target's sheet state ``hp`` (2 intact,
1 circled by a half hit, 0 destroyed):

* (5.3) hit if 2d6 <= the Probability of Hit number; a roll that cannot miss (12) or cannot hit
  (below 2) is not made.
* (5.4) half hits circle a system; a further half or full point on a circled system destroys it
  and a full point spent so does not carry over.
* (5.41) Guns, Missiles and Force Beams score from the left; (5.42) Energy Beams skip Armor and
  Holds; (5.43) Laser Beams skip Shields; (5.44)/(6.5) a Primary Beam's die picks the Nth
  remaining system other than Shields and Armor (and DataLink, (12.2)); a miss if there is none.
* (7.3) Point Defense engages missiles that hit, in rotation, each system counting its own
  missiles (stop on 1-5, 1-4, 1-3, 1-2, 1; then no more); hits land at once, so a Point Defense
  destroyed mid-volley stops engaging (5.10).
* (7.4) Overload Dampeners negate one Energy Beam point each per volley, or burn out absorbing
  four; the defender burns out the number that loses fewest systems (ties: keep dampeners).
* (8.1)/(8.2) a point destroying the first intact Hold of a run followed by more intact Holds
  collapses 1d6 Holds in all (a Bulkhead or any other system ends the run); a Hold hit behind an
  intact Hold of its run is lost alone.
* (8.3) the tractor range shift is applied by the caller to the hit lookup; ``auto_hit`` makes
  missiles hit without a roll (still subject to Point Defense).

All quantities are in half points so statistics stay integers.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from functools import lru_cache
from typing import NamedTuple

import numpy as np
import pandas as pd

from ..core import dice, exact, stats
from ..core._numba import jit
from ..core.blocks import sum_blocks
from ..core.errors import UserInputError
from .pieces.sheet import Sheet, hold_run_ends, parse_sheet
from .reference import volley as reference_volley
from .rules import (ARMOR, DAMPENER, ENERGY, FAMILIES, HOLD, MISSILE, POINT_DEFENSE, SHIELD,
                    combat_tables, rules_data)

# result slots of resolve_volley
R_HITS, R_LANDED, R_STOPPED = 0, 1, 2


class Tables(NamedTuple):
    """The combat tables compiled code reads (``rules.CombatTables``), passed as one argument.
    Defined at module level so numba's on-disk cache can name its type."""
    hit_number: np.ndarray      # int64[family, range]: Probability of Hit; -1 cannot fire
    effect_halves: np.ndarray   # int64[family, range]: half points per hit; -1 cannot fire
    skip: np.ndarray            # bool[family, code]
    nth: np.ndarray             # bool[family]
    intercept: np.ndarray       # int64[k]
    od_negate: int
    od_burnout: int


def kernel_tables(tables) -> Tables:
    """The :class:`Tables` of a ``rules.CombatTables``."""
    return Tables(tables.hit_number, tables.effect_halves, tables.skip, tables.nth,
                  tables.intercept, np.int64(tables.od_negate_halves),
                  np.int64(tables.od_burnout_halves))


@jit
def _destroy(codes, hp, run_end, i, st, script):
    """Destroy system i; a hit on the first (intact) Hold of its run with further intact Holds
    collapses 1d6 in all (8.1). A Hold hit behind an intact Hold of its run (a Primary Beam's
    Nth system) is lost alone: the book collapses Holds only from the first Hold in the series."""
    hp[i] = 0
    if codes[i] == HOLD:
        j = i - 1
        while j >= 0 and codes[j] == HOLD:
            if hp[j] > 0:
                return  # not the first Hold of the series
            j -= 1
        end = run_end[i]
        more = 0
        for j in range(i + 1, end + 1):
            if hp[j] > 0:
                more += 1
        if more > 0:
            extra = dice.roll(st, script, 1, 6) - 1
            j = i + 1
            while extra > 0 and j <= end:
                if hp[j] > 0:
                    hp[j] = 0
                    extra -= 1
                j += 1


@jit
def _hit_system(codes, hp, run_end, i, halves, st, script):
    """Score one full point (halves=2) or half point (halves=1) on system i (5.4)."""
    if halves >= 2 or hp[i] == 1:
        _destroy(codes, hp, run_end, i, st, script)
    else:
        hp[i] = 1


@jit
def _first_eligible(codes, hp, skip_row):
    for i in range(codes.shape[0]):
        if hp[i] > 0 and not skip_row[codes[i]]:
            return i
    return -1


@jit
def score_left(codes, hp, run_end, skip_row, halves, st, script):
    """Score ``halves`` half points from the left, passing over skipped systems (5.41)-(5.43).

    Full points go first, then a trailing half point; points with nothing left to hit are lost.
    """
    while halves > 0:
        i = _first_eligible(codes, hp, skip_row)
        if i < 0:
            return
        step = 2 if halves >= 2 else 1
        _hit_system(codes, hp, run_end, i, step, st, script)
        halves -= step


@jit
def score_nth(codes, hp, run_end, skip_row, halves, st, script):
    """Primary Beam (6.5): one die picks the Nth remaining eligible system; a miss past the end.

    Returns True if a system was hit.
    """
    n = dice.roll(st, script, 1, 6)
    seen = 0
    for i in range(codes.shape[0]):
        if hp[i] > 0 and not skip_row[codes[i]]:
            seen += 1
            if seen == n:
                _hit_system(codes, hp, run_end, i, halves, st, script)
                return True
    return False


@jit
def _dampen(codes, hp, total, negate, burnout):
    """Overload Dampeners against one Energy Beam volley of ``total`` half points (7.4).

    Burn out the number b of intact dampeners that minimises (half points scored + 2 per burnt
    dampener); ties keep dampeners. Burnt-out dampeners are destroyed, leftmost first.
    """
    k = 0
    for i in range(codes.shape[0]):
        if codes[i] == DAMPENER and hp[i] > 0:
            k += 1
    if k == 0:
        return total
    best_b = 0
    best_cost = max(0, total - negate * k)
    for b in range(1, k + 1):
        cost = max(0, total - burnout * b - negate * (k - b)) + 2 * b
        if cost < best_cost:
            best_cost = cost
            best_b = b
    left = best_b
    for i in range(codes.shape[0]):
        if left == 0:
            break
        if codes[i] == DAMPENER and hp[i] > 0:
            hp[i] = 0
            left -= 1
    return max(0, total - burnout * best_b - negate * (k - best_b))


class Shot(NamedTuple):
    """One volley's weapons, ``V``: ``k`` weapons of ``family``; ``hit_number``, the
    Probability of Hit number at the (shifted) range, or -1 when out of range; ``effect``, half
    points per hit at the true range; ``auto_hit``, every weapon hits (a tractor hold, 8.3)."""
    family: int
    k: int
    hit_number: int
    effect: int
    auto_hit: bool


@jit
def resolve_volley(codes, hp, run_end, pd_fired, V, T, st, script, out):
    """Resolve the volley ``V`` (a :class:`Shot`) against the sheet (``codes``, ``hp``) in place.

    ``pd_fired`` counts each Point Defense system's missiles this volley (reset by the caller).
    Writes hits, half points that reached the sheet and missiles stopped into ``out``. ``T``:
    the :class:`Tables`.
    """
    family, k, hit_number, effect, auto_hit = V
    skip, nth, intercept, od_negate, od_burnout = (T.skip, T.nth, T.intercept, T.od_negate,
                                                   T.od_burnout)
    out[R_HITS] = 0
    out[R_LANDED] = 0
    out[R_STOPPED] = 0
    if effect < 0 or k <= 0:
        return
    hits = 0
    for _ in range(k):
        if auto_hit or hit_number >= 12:
            hits += 1
        elif hit_number >= 2:
            if dice.roll(st, script, 2, 6) <= hit_number:  # the hot roll of every shot
                hits += 1
    out[R_HITS] = hits
    if hits == 0 or effect == 0:
        return
    skip_row = skip[family]
    if family == MISSILE:
        n_sys = codes.shape[0]
        last = -1
        for _ in range(hits):
            engaged = False
            for step in range(1, n_sys + 1):  # next Point Defense in rotation (7.3)
                i = (last + step) % n_sys
                if codes[i] == POINT_DEFENSE and hp[i] > 0 and pd_fired[i] < intercept.shape[0]:
                    engaged = True
                    last = i
                    break
            if engaged:
                threshold = intercept[pd_fired[last]]
                pd_fired[last] += 1
                if dice.roll(st, script, 1, 6) <= threshold:
                    out[R_STOPPED] += 1
                    continue
            out[R_LANDED] += effect
            score_left(codes, hp, run_end, skip_row, effect, st, script)
    elif family == ENERGY:
        landed = _dampen(codes, hp, hits * effect, od_negate, od_burnout)
        out[R_LANDED] = landed
        score_left(codes, hp, run_end, skip_row, landed, st, script)
    elif nth[family]:
        for _ in range(hits):
            if score_nth(codes, hp, run_end, skip_row, effect, st, script):
                out[R_LANDED] += effect
    else:
        for _ in range(hits):
            out[R_LANDED] += effect
            score_left(codes, hp, run_end, skip_row, effect, st, script)


# --- Python-facing wrapper: one volley against a live target, random or scripted ------------

class Target:
    """A ship's control sheet under fire: the state the rulebook examples write out."""

    def __init__(self, sheet):

        self.sheet = parse_sheet(sheet) if isinstance(sheet, str) else sheet
        self.codes = self.sheet.codes
        self.hp = np.full(len(self.codes), 2, dtype=np.int64)
        self.run_end = hold_run_ends(self.codes)

    def render(self) -> str:
        """The sheet as the rulebook prints it: ``x`` destroyed, ``(S)`` circled."""
        out = []
        for tok, h in zip(self.sheet.systems, self.hp):
            out.append("x" if h == 0 else f"[{tok}]" if h == 1 else tok)
        return " ".join(out)

    def intact(self) -> str:
        return " ".join(t for t, h in zip(self.sheet.systems, self.hp) if h > 0)


def hit_lookup(tables, family: int, rng: int, tractor: str = "none"):
    """(hit number at the shifted range, effect half points at the true range, auto_hit) (8.3)."""
    if rng < 0:
        raise ValueError("range must be >= 0")
    effect = int(tables.effect_halves[family, rng]) if rng <= tables.max_range else -1
    if tractor not in ("none", "firer_tractoring", "firer_held"):
        raise ValueError(f"unknown tractor state {tractor!r}")
    auto = tractor != "none" and family == MISSILE
    shift = 0 if tractor == "none" or family == MISSILE else tables.tractor_shift[tractor]
    hr = max(0, rng + shift)
    hit = int(tables.hit_number[family, hr]) if hr <= tables.max_range else -1
    if rng > tables.max_range or tables.hit_number[family, rng] == -1:
        effect = -1  # the weapon cannot fire at this range at all
    return hit, effect, auto


def fire_volley(target: Target, family: str, rng: int, k: int = 1, *, rolls=None,
                tractor: str = "none", tables=None, seed: int | None = None, trial: int = 0):
    """Fire ``k`` weapons of ``family`` at ``target`` at range ``rng``; mutate the target.

    With ``rolls`` the dice are scripted (one entry per roll, e.g. 2d6 totals for to-hit rolls)
    and every scripted roll must be used; otherwise trial ``trial`` of ``seed`` is drawn.
    Returns dict(hits, points, stopped) with points in (possibly half) hit points.
    """
    from .rules import combat_tables, family_index

    tables = tables or combat_tables()
    f = family_index(family)
    hit, effect, auto = hit_lookup(tables, f, rng, tractor)
    st = dice.new_state()
    if rolls is not None:
        script = dice.as_script(rolls)
        dice.set_scripted(st)
    else:
        script = dice.NO_SCRIPT
        dice.seed_trial(st, dice.stream_key(seed or 0), trial)
    out = np.zeros(3, dtype=np.int64)
    pd_fired = np.zeros(len(target.codes), dtype=np.int64)
    resolve_volley(target.codes, target.hp, target.run_end, pd_fired, Shot(f, k, hit, effect, auto),
                   kernel_tables(tables), st, script, out)
    if rolls is not None and dice.script_position(st) != len(script):
        from ..core.errors import ScriptedDiceError

        raise ScriptedDiceError(f"{len(script) - dice.script_position(st)} scripted rolls unused")
    return {"hits": int(out[R_HITS]), "points": int(out[R_LANDED]) / 2,
            "stopped": int(out[R_STOPPED])}


@jit
def resolve_volley_call(codes, hp, run_end, pd_fired, V, T, st, script, out):
    """``resolve_volley`` behind one real call: for the battle engine, where inlining it at
    every call site would multiply compile time for no measurable speed."""
    resolve_volley(codes, hp, run_end, pd_fired, V, T, st, script, out)


# --- weapon value by range: the volley above over trials, per family and range ----------------
#
# What is each Starfire weapon worth at each range? (starfire.txt (5.3)-(8.3))
#
# For each weapon family and range, a volley of ``k`` weapons is fired at a fresh copy of the
# target control sheet, ``n`` trials per cell. Trial *i* uses the stream (seed, *i*) in every
# cell (common random numbers: differences between ranges and weapons are sharper than either
# figure). Per cell the kernel sums integer statistics; :meth:`WeaponTable.summarise` turns them
# into rates and means with 95% intervals and puts the exact values from the reference
# enumeration (``reference.py`` + ``simkit.core.exact``) beside them.
#
# Figures per (weapon, range):
#
# * ``p_hit``: chance one weapon's to-hit roll succeeds (before Point Defense);
# * ``mean_damage``: hit points per volley that reach the sheet (after Point Defense and
#   Overload Dampeners; a Primary Beam whose die falls past the last system scores none);
# * ``mean_destroyed`` and its quantiles: systems destroyed per volley (burnt-out dampeners and
#   collapsed Holds included; a circled system is not destroyed);
# * ``p_internal``: chance at least one system other than Shield and Armor is destroyed.

HITS, LANDED, LANDED_SQ, DESTROYED, DESTROYED_SQ, INTERNAL, STOPPED, HIST = range(8)
EXACT_MAX_PATHS = 60_000
DEFAULT_TARGET = "wisconsin"


class Cells(NamedTuple):
    """The (weapon, range) cells of a :class:`WeaponTable`, one entry per cell."""
    fam: np.ndarray     # int64: weapon family
    hitn: np.ndarray    # int64: Probability of Hit number at the (shifted) range
    eff: np.ndarray     # int64: half points per hit
    auto: np.ndarray    # bool: hits without a roll


@jit
def _table_block(codes, run_end, C, k, T, key, lo, hi, n_stat, acc):
    fam, hitn, eff, auto = C.fam, C.hitn, C.eff, C.auto
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
            resolve_volley(codes, hp, run_end, pd_fired, Shot(fam[c], k, hitn[c], eff[c], auto[c]),
                           T, st, dice.NO_SCRIPT, out)
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


def _table_kernel(codes, run_end, C, k, T, key, first, n, n_stat):
    return sum_blocks(lambda lo, hi, acc: _table_block(
        codes, run_end, C, k, T, key, lo, hi, n_stat, acc), first, n, C.fam.shape[0] * n_stat)


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
        return _table_kernel(self.codes, self.run_end,
                             Cells(self.fam, self.hitn, self.eff, self.auto), self.volley,
                             kernel_tables(self.tables), np.uint64(key), first, n,
                             self.n_cell_stats)

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
