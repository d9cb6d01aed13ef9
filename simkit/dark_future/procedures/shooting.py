"""One shot: the hit roll, the damage roll, critical hits, terminal damage and forced hazards.

Models dark-future.txt:

* the hit roll (p25-26): ranges in spaces, beyond six counted as six, beyond the weapon's range
  wasted; a natural 1 misses; d6 + accuracy + tactical factors (hood/turret +1, smoke -1 per
  marker to -3, firer or target at 81mph+ -1 each; p64 bikes as targets -1 with both lanes in
  the fire corridor, -2 with one) must reach the range;
* the damage roll (p28): d6 + damage - armour, nothing below zero; a natural six is a critical
  even when armour stops the damage (variant ``critical_trigger``: or a natural six on the hit
  roll, p32);
* critical hits (p32-35, bikes p68-69): facing (given, or an oblique hit's d6), the target
  matrix with its re-rolls, the result tables with their checks (d6 + the hit's damage), and
  the explosions they set off (engine +2HE on the side facing, fuel +8HE on the rear; bike fuel
  per variant ``bike_fuel_explosion``), each a further hit resolved in turn (p29 Multiple Hits);
  results on something already disabled (engine, fuel tank, driver) are wasted (p32);
* terminal damage (p35): the hit taking the last damage point disables the engine and sets
  handling to 0 (control loss, p40); on it and every later hit a d6 of 1 explodes the car once,
  a driver critical;
* the hazard rolls a shot forces (p38, p40): HE hits (+4 or less: 50mph; +5 or more: 30mph) and
  critical results, taken after damage in descending order of limit, none once control is lost
  (p42); bikes test these against reduced handling (p70).

The analysed target carries no weapons: weapons results and 'weapon link severed' are wasted
(the rulebook's rule for stations that are not fitted). Lasting effects (brakes halved, split
tyre, fuel leak, drive skill) matter only to the full-turn engine, not to one shot: the kernel
records each one it rolls (``ws[WS_NRES]`` and (code ``L_*``, station) pairs) for the engine to
apply, and only with the engine's longer parameter array (``S_LASTING``) does it roll the dice
that nothing but a lasting result needs (which weapon a severed link hits, which limb), so the
one-shot analyses make exactly the reference's rolls.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import NamedTuple

import numpy as np
import pandas as pd

from ...core import dice, stats
from ...core._numba import jit
from ...core.blocks import sum_blocks
from ...core.errors import UserInputError
from . import hazards as H
from .. import rules as R

FACINGS = ("front", "rear", "side", "floor", "roof")
LOCATIONS = ("bodywork", "front_wheels", "rear_wheels", "engine", "fuel", "driver", "weapons")
BODYWORK, FRONT_WHEELS, REAR_WHEELS, ENGINE, FUEL, DRIVER, WEAPONS = range(7)
REROLL = 100  # matrix codes >= REROLL name a re-roll list
GROUP_BASE = 20  # matrix codes GROUP_BASE + g name weapon group g (the station is found from it)
WEAPON_GROUPS = ("weapon_wings", "weapon_sides", "weapon_side_near", "weapon_passives",
                 "weapon_hood", "weapon_roof", "weapon_fairings", "weapon_fairing_near")
STATIONS = ("hood", "roof", "wing_left", "wing_right", "side_left", "side_right", "passive_left",
            "passive_right", "passive", "fairing_left", "fairing_right", "turret_a", "turret_b")
DISABLES = {"": 0, "engine": 1, "fuel": 2, "driver": 3}
# effect columns
(F_HAZARD, F_CONTROL, F_CHECK, F_THEN_HAZARD, F_THEN_CONTROL, F_THEN_DISABLES, F_EXPLOSION,
 F_EXPL_HE, F_EXPL_FACING, F_DISABLES, F_ROLLS, F_WEAPON, F_HANDLING, F_SKILL, F_THEN_HANDLING,
 F_ELSE_HANDLING, F_DESTROYS, F_HE_EXPLOSION) = range(18)
N_FIELDS = 20
# lasting results (p34-35) the road engine applies; the one-shot analyses ignore them
F_LASTING, F_THEN_LASTING = 18, 19
(L_NONE, L_CARB, L_BRK_CYL, L_GEN, L_BRK_HALF, L_SPLIT, L_TYRE, L_AXLE, L_HAND0, L_ACC0, L_VDU,
 L_LEAK, L_LINK, L_LIMB, L_W_DAMAGED, L_W_JAMMED, L_W_CMD, L_CARB3, L_CLUTCH) = range(19)
L_WHEEL_OFF = 19   # a bike's wheel falls off (p69): a crash at 81mph+, else a roll next move
LASTING_NAMES = ("-", "carburettor", "brake cylinder", "generator", "brakes halved",
                 "split tyre", "tyre destroyed", "broken axle", "handling 0", "acceleration 0",
                 "VDU destroyed", "fuel leak", "weapon link severed", "limb disabled",
                 "weapon damaged", "weapon jammed", "command link severed", "carburettor",
                 "clutch cable", "wheel off")
# result name -> lasting code (then_name for results behind a check)
_LASTING = {"carburettor": L_CARB, "brake_cylinder": L_BRK_CYL, "generator": L_GEN,
            "brake_pipe": L_BRK_HALF, "brake_line": L_BRK_HALF, "brake_cable": L_BRK_HALF,
            "split_tyre": L_SPLIT, "tyre_destroyed": L_TYRE, "broken_axle": L_AXLE,
            "handling_zero": L_HAND0, "acceleration_zero": L_ACC0, "vdu_destroyed": L_VDU,
            "fuel_line": L_LEAK, "holed": L_LEAK, "weapon_link_severed": L_LINK,
            "limb_disabled": L_LIMB, "damaged": L_W_DAMAGED, "jammed": L_W_JAMMED,
            "command_link_severed": L_W_CMD,
            # the bike's own results (p69)
            "weapons_link_severed": L_LINK, "accelerator_cable": L_ACC0,
            "clutch_cable": L_CLUTCH, "wheel_off": L_WHEEL_OFF}
MAX_HITS = 8
MAX_TESTS = 16
NO_HAZARD = 10 ** 6


@dataclass(frozen=True)
class CritTables:
    """A target kind's target matrix and critical result tables as arrays."""

    matrix: np.ndarray   # [facing, face] -> location or REROLL + list
    rerolls: np.ndarray  # [list, face] -> location or REROLL + list
    effects: np.ndarray  # [location, face, field]
    names: tuple         # [location][face] -> result name
    reroll_names: tuple


def _loc_code(name, reroll_index):
    if name in WEAPON_GROUPS:
        return GROUP_BASE + WEAPON_GROUPS.index(name)
    if name in LOCATIONS:
        return LOCATIONS.index(name)
    if name in reroll_index:
        return REROLL + reroll_index[name]
    raise ValueError(f"unknown target matrix entry {name!r}")


@lru_cache(maxsize=None)
def _crit_tables(kind: str, sel: tuple) -> CritTables:
    rules = R.rules_for(dict(sel))
    m = rules.table(f"{kind}_target_matrix")
    rer_names = tuple(m["rerolls"])
    idx = {n: i for i, n in enumerate(rer_names)}
    matrix = np.array([[_loc_code(x, idx) for x in m["rows"][f]] for f in FACINGS], np.int64)
    rerolls = np.array([[_loc_code(x, idx) for x in m["rerolls"][n]] for n in rer_names], np.int64)
    res = rules.table(f"{kind}_critical_results")["rows"]
    effects = np.zeros((len(LOCATIONS), 6, N_FIELDS), np.int64)
    names = []
    for li, loc in enumerate(LOCATIONS):
        row = res[loc]
        names.append(tuple(e["name"] for e in row))
        for f, e in enumerate(row):
            v = effects[li, f]
            v[F_HAZARD] = e.get("hazard", 0)
            v[F_CONTROL] = int(e.get("control_loss", False))
            v[F_CHECK] = e.get("check", 0)
            v[F_THEN_HAZARD] = e.get("then_hazard", 0)
            v[F_THEN_CONTROL] = int(e.get("then_control_loss", False))
            v[F_THEN_DISABLES] = DISABLES[e.get("then_disables", "")]
            v[F_EXPLOSION] = e.get("explosion", 0)
            v[F_EXPL_HE] = int(e.get("he", False))
            v[F_EXPL_FACING] = FACINGS.index(e.get("explosion_facing", "front")) \
                if "explosion" in e else 0
            v[F_DISABLES] = DISABLES[e.get("disables", "")]
            v[F_ROLLS] = e.get("rolls", 0)
            v[F_WEAPON] = int(e.get("weapon", False))
            v[F_HANDLING] = e.get("handling", 0)
            v[F_SKILL] = e.get("skill", 0)
            v[F_THEN_HANDLING] = e.get("then_handling", 0)
            v[F_ELSE_HANDLING] = e.get("else_handling", 0)
            v[F_DESTROYS] = int(e.get("destroys", False))
            v[F_HE_EXPLOSION] = e.get("he_explosion", 0)
            v[F_LASTING] = _LASTING.get(e["name"], 0)
            v[F_THEN_LASTING] = _LASTING.get(e.get("then_name", ""), 0)
            if kind == "bike" and e["name"] == "carburettor":
                v[F_LASTING] = L_CARB3   # a third, not a half (p69)
    return CritTables(matrix, rerolls, effects, tuple(names), rer_names)


def crit_tables(kind: str, chosen=None) -> CritTables:
    return _crit_tables(kind, tuple(sorted(R.selection(chosen).items())))


@dataclass(frozen=True)
class Shot:
    """Everything one shot needs, as plain numbers (the public functions build it)."""

    in_range: bool
    range_eff: int
    modifier: int          # accuracy + tactical factors
    damage: int            # the weapon's damage characteristic
    he: bool
    flat: bool             # damage is a fixed amount before armour (variant lightweight laser)
    armour: int
    target_damage: int     # damage points the target has left
    facing: int            # index into FACINGS
    oblique: bool          # roll: even = facing, odd = side
    crit_on_hit_roll: bool
    target_mph: int
    handling: int          # the target's handling before the shot (after damage levels passed)
    skill: int             # the target driver's drive skill before the shot
    reduced: int           # handling lost for these tests (bikes: 3, p70)
    levels: tuple          # the target's incremental damage levels (p28), 0-padded to three
    level_loss: int        # handling lost per level passed (p28)
    braking: int           # braking allowance the target has left
    he_small_max: int
    he_small_limit: int
    he_large_limit: int
    explode_face: int
    fit: tuple = (0,) * len(STATIONS)   # per station: 0 empty, 1 a weapon, 2 an HE weapon
    groups: tuple = ()                  # per weapon group: (station, second station or -1)

    def as_array(self) -> np.ndarray:
        return np.array([int(self.in_range), self.range_eff, self.modifier, self.damage,
                         int(self.he), int(self.flat), self.armour, self.target_damage,
                         self.facing, int(self.oblique), int(self.crit_on_hit_roll),
                         self.target_mph, self.handling, self.skill, self.reduced,
                         *self.levels, self.level_loss, self.braking, self.he_small_max,
                         self.he_small_limit, self.he_large_limit, self.explode_face], np.int64)


(S_IN_RANGE, S_RANGE, S_MOD, S_DAMAGE, S_HE, S_FLAT, S_ARMOUR, S_TDAMAGE, S_FACING, S_OBLIQUE,
 S_CRIT_HIT, S_MPH, S_HANDLING, S_SKILL, S_REDUCED, S_L1, S_L2, S_L3, S_LEVEL_LOSS, S_BRAKING,
 S_HE_SMALL_MAX, S_HE_SMALL, S_HE_LARGE, S_EXPLODE) = range(24)
# Read only when the parameter array is longer (the road engine's): 1 = roll the dice that only
# lasting results need (which weapon a severed link hits, which limb is disabled, p34-35). The
# one-shot analyses pass 24 cells, so their dice stay exactly those of the reference.
S_LASTING = 24
# Read only when the array is longer still: 1 = the critical of the first hit goes straight to
# the facing's Wheels entry (its third target-matrix cell) instead of a d6 on the matrix: the
# wheel critical of a spike hit (p30).
S_WHEELS = 25

# outcome of a shot: (hit, damage points, criticals, forced hazard roll, control lost directly,
# control lost (directly or by the forced hazard rolls), terminal damage)


# --- compiled kernel ---------------------------------------------------------------------------
@jit
def _d6(st, script):
    return dice.roll(st, script, 1, 6)


@jit
def _disable_k(flags, what):
    if what == 1:
        flags[0] = 1
    elif what == 2:
        flags[1] = 1
        flags[0] = 1
    elif what == 3:
        flags[2] = 1


@jit
def _weapon_k(st, script, effects, group, facing, fit, groups, q, qn, ws):
    """Kernel twin of :func:`..reference._weapon_ref`; records damaged / jammed / command link results with
    their station in ``ws`` (:func:`_record`)."""
    a = groups[group, 0]
    b = groups[group, 1]
    if b >= 0:
        if fit[a] == 0 and fit[b] == 0:
            return qn
        station = a if _d6(st, script) % 2 == 1 else b
    else:
        station = a
    if fit[station] == 0:
        return qn
    he = fit[station] == 2
    f = _d6(st, script) - 1
    if effects[WEAPONS, f, F_LASTING] > 0:
        _record(ws, effects[WEAPONS, f, F_LASTING], station)
    if effects[WEAPONS, f, F_DESTROYS]:
        fit[station] = 0
        if he and effects[WEAPONS, f, F_HE_EXPLOSION] > 0:
            if _d6(st, script) % 2 == 1:
                q[qn, 0] = effects[WEAPONS, f, F_HE_EXPLOSION]
                q[qn, 1] = 1
                q[qn, 2] = facing
                q[qn, 3] = 0
                qn += 1
    return qn


class Crit(NamedTuple):
    """Which critical result :func:`_result_k` resolves, ``CR``: scalars only, which cross a
    compiled call for free (an array in a tuple is counted like a separate one)."""
    loc: int          # the location code
    hit_damage: int   # the damage of the hit that caused it (the p34 checks add it)
    lasting: bool     # roll the dice only lasting results need


@jit
def _result_k(st, script, effects, CR, flags, limits, nlim, q, qn, ws):
    """Kernel twin of :func:`..reference._result_ref`; flags = [engine, fuel, driver, loss, handling
    change, skill change]. Lasting results are recorded in ``ws`` (:func:`_record`); with
    ``lasting`` the two dice of a Limb Disabled result are rolled (p34: the first even an arm,
    odd a leg; the second odd left, even right; recorded as limb 0-3 = 2 * arm + right)."""
    loc, hit_damage, lasting = CR.loc, CR.hit_damage, CR.lasting
    if (loc == ENGINE and flags[0]) or (loc == FUEL and flags[1]) or (loc == DRIVER and flags[2]):
        return nlim, qn
    f = _d6(st, script) - 1
    code = effects[loc, f, F_LASTING]
    if code == L_LIMB:
        if lasting:
            arm = 1 if _d6(st, script) % 2 == 0 else 0
            right = 1 if _d6(st, script) % 2 == 0 else 0
            _record(ws, L_LIMB, 2 * arm + right)
    elif code > 0:
        _record(ws, code, -1)
    if effects[loc, f, F_HAZARD] > 0:
        limits[nlim] = effects[loc, f, F_HAZARD]
        nlim += 1
    if effects[loc, f, F_CONTROL]:
        flags[3] = 1
    flags[4] += effects[loc, f, F_HANDLING]
    flags[5] += effects[loc, f, F_SKILL]
    if effects[loc, f, F_CHECK] > 0:
        if _d6(st, script) + hit_damage >= effects[loc, f, F_CHECK]:  # at_most twin
            if effects[loc, f, F_THEN_HAZARD] > 0:
                limits[nlim] = effects[loc, f, F_THEN_HAZARD]
                nlim += 1
            if effects[loc, f, F_THEN_CONTROL]:
                flags[3] = 1
            if effects[loc, f, F_THEN_LASTING] > 0:
                _record(ws, effects[loc, f, F_THEN_LASTING], -1)
            flags[4] += effects[loc, f, F_THEN_HANDLING]
            _disable_k(flags, effects[loc, f, F_THEN_DISABLES])
        else:
            flags[4] += effects[loc, f, F_ELSE_HANDLING]
    _disable_k(flags, effects[loc, f, F_DISABLES])
    if effects[loc, f, F_EXPLOSION] > 0:
        q[qn, 0] = effects[loc, f, F_EXPLOSION]
        q[qn, 1] = effects[loc, f, F_EXPL_HE]
        q[qn, 2] = effects[loc, f, F_EXPL_FACING]
        q[qn, 3] = 0
        qn += 1
    return nlim, qn


NFLAGS = 6
NSTATIONS = len(STATIONS)
# after the stations, cells report for the road engine the mph the forced hazard rolls braked off
# and whether one of them was a panic brake (a panicked driver loses the phase's action, p41),
# then the lasting results the shot rolled: a count and (code L_*, station or limb or -1) pairs
WS_BRAKED = NFLAGS + MAX_TESTS + MAX_HITS * 4 + NSTATIONS
WS_PANIC = WS_BRAKED + 1
WS_NRES = WS_BRAKED + 2
WS_RES = WS_BRAKED + 3
MAX_RES = 16
SCRATCH = WS_RES + 2 * MAX_RES


@jit
def _record(ws, code, where):
    n = ws[WS_NRES]
    if n < MAX_RES:
        ws[WS_RES + 2 * n] = code
        ws[WS_RES + 2 * n + 1] = where
        ws[WS_NRES] = n + 1


@jit
def _weapons_entry(matrix, rerolls, facing):
    """The facing's Weapons entry of the target matrix (a weapon group, or a re-roll list made
    only of weapon groups), looked for in its row and then one re-roll list deep; -1 if none."""
    for depth in range(2):
        for face in range(6):
            c = matrix[facing, face]
            if depth == 1:
                if c < REROLL:
                    continue
                for g in range(6):
                    cc = rerolls[c - REROLL, g]
                    if _all_groups(rerolls, cc):
                        return cc
                continue
            if _all_groups(rerolls, c):
                return c
    return -1


@jit
def _all_groups(rerolls, c):
    if GROUP_BASE <= c < REROLL:
        return True
    if c < REROLL:
        return False
    for g in range(6):
        x = rerolls[c - REROLL, g]
        if not (GROUP_BASE <= x < REROLL):
            return False
    return True


@jit
def _resolve_link(st, script, matrix, rerolls, facing, fit, groups, ws):
    """Weapon link severed (p35, bodywork 5): the facing's Weapons sub-table is rolled as for a
    Weapons hit (no second roll on the facing table); the weapon found is out of action, an
    empty mount wastes it (the record is dropped). Nothing fitted anywhere: no dice."""
    n = ws[WS_NRES]
    if n == 0 or ws[WS_RES + 2 * (n - 1)] != L_LINK or ws[WS_RES + 2 * (n - 1) + 1] != -1:
        return
    ws[WS_NRES] = n - 1
    anything = False
    for s in range(fit.shape[0]):
        if fit[s] != 0:
            anything = True
    if not anything:
        return
    code = _weapons_entry(matrix, rerolls, facing)
    if code < 0:
        return
    while code >= REROLL:
        code = rerolls[code - REROLL, _d6(st, script) - 1]
    group = code - GROUP_BASE
    a = groups[group, 0]
    b = groups[group, 1]
    if b >= 0:
        if fit[a] == 0 and fit[b] == 0:
            return
        station = a if _d6(st, script) % 2 == 1 else b
    else:
        station = a
    if fit[station] != 0:
        _record(ws, L_LINK, station)
AUTO_HIT = 2  # sp[S_IN_RANGE] == AUTO_HIT: a hit without a hit roll (mines, rams, crashes, rolls)


@jit
def shot(st, script, sp, matrix, rerolls, effects, hp, fit0, groups, out):
    """Kernel twin of :func:`..reference.shot_ref`; writes the outcome into ``out`` (7 ints)."""
    shot_ws(st, script, sp, matrix, rerolls, effects, hp, fit0, groups, out,
            np.zeros(SCRATCH, np.int64))


@jit
def shot_ws(st, script, sp, matrix, rerolls, effects, hp, fit0, groups, out, ws):
    """:func:`shot` with caller-owned scratch space (no allocation in the trial loop)."""
    for i in range(7):
        out[i] = 0
    ws[WS_BRAKED] = 0
    ws[WS_PANIC] = 0
    ws[WS_NRES] = 0
    lasting = sp.shape[0] > S_LASTING and sp[S_LASTING] != 0
    wheels = sp.shape[0] > S_WHEELS and sp[S_WHEELS] != 0
    if sp[S_IN_RANGE] == 0:
        return
    if sp[S_IN_RANGE] == AUTO_HIT:
        r = 0
    else:
        r = _d6(st, script)
        if r == 1 or r + sp[S_MOD] < sp[S_RANGE]:
            return
    six = r == 6
    out[0] = 1
    flags = ws[:NFLAGS]
    flags[:] = 0
    limits = ws[NFLAGS:NFLAGS + MAX_TESTS]
    nlim = 0
    q = ws[NFLAGS + MAX_TESTS:NFLAGS + MAX_TESTS + MAX_HITS * 4].reshape((MAX_HITS, 4))
    fit = ws[NFLAGS + MAX_TESTS + MAX_HITS * 4:NFLAGS + MAX_TESTS + MAX_HITS * 4 + NSTATIONS]
    fit[:] = fit0
    q[0, 0] = sp[S_DAMAGE]
    q[0, 1] = sp[S_HE]
    q[0, 2] = -1 if sp[S_OBLIQUE] else sp[S_FACING]
    q[0, 3] = 1
    qn = 1
    head = 0
    remaining = sp[S_TDAMAGE]
    terminal = False
    exploded = False
    while head < qn:
        dmg = q[head, 0]
        he = q[head, 1]
        facing = q[head, 2]
        from_shot = q[head, 3] == 1
        head += 1
        if he:
            limits[nlim] = sp[S_HE_SMALL] if dmg <= sp[S_HE_SMALL_MAX] else sp[S_HE_LARGE]
            nlim += 1
        rd = _d6(st, script)
        base = dmg if (sp[S_FLAT] and from_shot) else rd + dmg
        points = max(0, base - sp[S_ARMOUR])
        was_terminal = terminal
        if not was_terminal:
            take = min(points, remaining)
            remaining -= take
            out[1] += take
        crit = six if (from_shot and sp[S_CRIT_HIT]) else rd == 6
        if crit:
            out[2] += 1
            if facing < 0:
                facing = sp[S_FACING] if _d6(st, script) % 2 == 0 else 2
            if wheels and from_shot:
                code = matrix[facing, 2]
            else:
                code = matrix[facing, _d6(st, script) - 1]
            while code >= REROLL:
                code = rerolls[code - REROLL, _d6(st, script) - 1]
            if code >= GROUP_BASE:
                qn = _weapon_k(st, script, effects, code - GROUP_BASE, facing, fit, groups, q, qn,
                               ws)
            else:
                nlim, qn = _result_k(st, script, effects, Crit(code, dmg, lasting), flags, limits,
                                     nlim, q, qn, ws)
                if lasting:
                    _resolve_link(st, script, matrix, rerolls, facing, fit, groups, ws)
        if not was_terminal and remaining == 0:
            terminal = True
            flags[0] = 1
            flags[3] = 1
        if terminal and not exploded:
            if _d6(st, script) == sp[S_EXPLODE]:
                exploded = True
                nlim, qn = _result_k(st, script, effects, Crit(DRIVER, dmg, lasting), flags,
                                     limits, nlim, q, qn, ws)
    passed = 0
    for i in range(S_L1, S_L3 + 1):
        lv = sp[i]
        if lv > 0 and remaining < lv <= sp[S_TDAMAGE]:
            passed += 1
    handling = sp[S_HANDLING] + flags[4] - passed * sp[S_LEVEL_LOSS]
    skill = sp[S_SKILL] + flags[5]
    if handling <= 0 or skill <= 0:
        flags[3] = 1
    optimum = max(handling - sp[S_REDUCED], skill)
    direct = flags[3] == 1
    # forced tests: limits below the target's speed, highest first (p41)
    m = 0
    for i in range(nlim):
        if limits[i] < sp[S_MPH]:
            limits[m] = limits[i]
            m += 1
    for i in range(1, m):
        x = limits[i]
        j = i - 1
        while j >= 0 and limits[j] < x:
            limits[j + 1] = limits[j]
            j -= 1
        limits[j + 1] = x
    forced = m > 0 and not direct
    lost = direct
    if forced:
        speed = sp[S_MPH]
        left = sp[S_BRAKING]
        for i in range(m):
            o, mph = H.hazard_roll(st, script, speed, limits[i], optimum, left, hp)
            speed -= mph
            left -= mph
            ws[WS_BRAKED] += mph
            if o == H.PANIC:
                ws[WS_PANIC] = 1
            if o >= H.LOSS:
                lost = True
                break
    out[3] = 1 if forced else 0
    out[4] = 1 if direct else 0
    out[5] = 1 if lost else 0
    out[6] = 1 if terminal else 0


N_SHOT_STATS = 8  # shots hit, damage sum, damage^2 sum, shots with a critical, forced, direct, lost, terminal


class ShotTables(NamedTuple):
    """The read-only arrays of :func:`_shots_block`, ``ST``: passed once a block."""
    matrix: np.ndarray
    rerolls: np.ndarray
    effects: np.ndarray
    hp: np.ndarray
    fit0: np.ndarray
    groups: np.ndarray


@jit
def _shots_block(key, lo, hi, sps, ST, script, acc):
    matrix, rerolls, effects, hp, fit0, groups = (ST.matrix, ST.rerolls, ST.effects, ST.hp,
                                                  ST.fit0, ST.groups)
    st = np.zeros(dice.STATE_SIZE, dtype=np.uint64)
    o = np.zeros(7, np.int64)
    ws = np.zeros(SCRATCH, np.int64)
    for t in range(lo, hi):
        dice.seed_trial(st, key, t)
        for c in range(sps.shape[0]):
            shot_ws(st, script, sps[c], matrix, rerolls, effects, hp, fit0, groups, o, ws)
            base = c * N_SHOT_STATS
            acc[base] += o[0]
            acc[base + 1] += o[1]
            acc[base + 2] += o[1] * o[1]
            acc[base + 3] += 1 if o[2] > 0 else 0
            acc[base + 4] += o[3]
            acc[base + 5] += o[4]
            acc[base + 6] += o[5]
            acc[base + 7] += o[6]


def _shots_chunk(key, first, n, sps, matrix, rerolls, effects, hp, fit0, groups, script):
    ST = ShotTables(matrix, rerolls, effects, hp, fit0, groups)
    return sum_blocks(lambda lo, hi, acc: _shots_block(key, lo, hi, sps, ST, script, acc),
                      first, n, sps.shape[0] * N_SHOT_STATS)


# --- the weapons table ---------------------------------------------------------------------------
MOUNTS = ("hood", "wing", "side", "roof", "turret", "fairing")
_MOUNT_CLASSES = {"hood": ("heavy", "medium", "lightweight"), "roof": ("heavy", "medium", "lightweight"),
                  "turret": ("heavy", "medium", "lightweight"), "side": ("heavy", "medium", "lightweight"),
                  "wing": ("medium", "lightweight"), "fairing": ("lightweight",)}


@dataclass(frozen=True)
class Weapon:
    key: str
    name: str
    cls: str
    range: int
    accuracy: int
    damage: int
    he: bool
    shots: int
    cost: int
    weight: int
    flat: bool = False


def weapons(chosen=None) -> dict[str, Weapon]:
    """Every direct-fire weapon with its characteristics (variants applied)."""
    t = R.rules_for(chosen).table("weapons")
    flat_laser = R.selection(chosen)["lightweight_laser_damage"] == "flat_one"
    out = {}
    for key, (cls, rng, acc, dmg, he, shots, cost, weight) in t["rows"].items():
        out[key] = Weapon(key, t["names"][key], cls, rng, acc, dmg, bool(he), shots, cost, weight,
                          flat=flat_laser and key == "lw_laser")
    return out


def mount_allows(mount: str, w: Weapon, rules=None) -> bool:
    if w.cls not in _MOUNT_CLASSES[mount]:
        return False
    if mount == "turret":
        return w.key not in R.base_rules().table("turret")["forbidden"]
    return True


def tactical_modifier(rules, mount, firer_mph, target_mph, smoke, target_is_bike, bike_lanes):
    """Sum of the tactical factors (p26, p30 smoke, p64 bike targets)."""
    tf = rules.table("tactical_factors")
    mod = tf.get(mount, 0) if mount in ("hood", "turret") else 0
    mod += max(tf["smoke_max"], tf["smoke_per_marker"] * smoke)
    if firer_mph >= tf["fast_mph"]:
        mod += tf["fast_firer"]
    if target_mph >= tf["fast_mph"]:
        mod += tf["fast_target"]
    if target_is_bike:
        mod += tf["bike_two_lanes"] if bike_lanes == 2 else tf["bike_one_lane"]
    return mod


def effective_range(rules, spaces):
    return min(spaces, rules.table("hit_roll")["range_cap"])


class ShotSim:
    """One shot per (weapon, range) cell per trial; cells share the trial's stream."""

    name = "dark-future shots"

    def __init__(self, cells, shots: list[Shot], kind: str, chosen=None):
        self.cells = cells            # [(Weapon, range)]
        self.shots = shots
        self.kind = kind
        self.ct = crit_tables(kind, chosen)
        self.sps = np.array([s.as_array() for s in shots], dtype=np.int64)
        self.hp = R.hazard_params(R.rules_for(chosen)).as_array()
        self.fit = np.array(shots[0].fit, dtype=np.int64)
        self.groups = np.array(shots[0].groups, dtype=np.int64).reshape(len(WEAPON_GROUPS), 2)
        self.n_stats = len(cells) * N_SHOT_STATS

    def chunk(self, key, first, n):
        return _shots_chunk(key, first, n, self.sps, self.ct.matrix, self.ct.rerolls,
                            self.ct.effects, self.hp, self.fit, self.groups, dice.NO_SCRIPT)

    def summarise(self, totals, n_trials):
        from .. import reference as REF   # it imports this module's tables: fetched when used

        t = totals.reshape(len(self.cells), N_SHOT_STATS)
        rows = []
        for (w, rng), s, k in zip(self.cells, self.shots, t):
            ex = None  # None: Monte Carlo only, the *_exact columns are left empty (NaN)
            if sum(1 for f in s.fit if f == 2) <= REF.MAX_HE_STATIONS_EXACT:
                try:
                    ex = REF.exact_shot(s, self.ct)
                except REF.TooLargeToEnumerate:
                    pass
            # the hit roll alone is always exact
            p_hit_x = float(sum(q for (h, _), q in REF._hit_exact(s).items() if h))
            if ex is None:
                p = lambda pred: np.nan  # noqa: E731
                dmg_x = np.nan
            else:
                p = lambda pred, ex=ex: float(sum(q for o, q in ex.items() if pred(o)))  # noqa: E731
                dmg_x = float(sum(q * o[1] for o, q in ex.items()))
            n_hit = int(k[0])
            lo, hi = stats.rate_ci(n_hit, n_trials)
            mean_hit, mh_lo, mh_hi = stats.mean_ci(k[1], k[2], max(n_hit, 1))
            per_shot, ps_lo, ps_hi = stats.mean_ci(k[1], k[2], n_trials)
            row = {"weapon": w.key, "name": w.name, "class": w.cls, "cost": w.cost,
                   "range": rng, "in_range": s.in_range, "range_counted": s.range_eff,
                   "modifier": s.modifier, "trials": n_trials,
                   "p_hit": n_hit / n_trials, "p_hit_lo": float(lo), "p_hit_hi": float(hi),
                   "p_hit_exact": p_hit_x,
                   "mean_damage": float(mean_hit) if n_hit else np.nan,
                   "mean_damage_lo": float(mh_lo) if n_hit > 1 else np.nan,
                   "mean_damage_hi": float(mh_hi) if n_hit > 1 else np.nan,
                   "mean_damage_exact": dmg_x / p_hit_x if p_hit_x and p_hit_x == p_hit_x else np.nan,
                   "damage_per_shot": float(per_shot), "damage_per_shot_lo": float(ps_lo),
                   "damage_per_shot_hi": float(ps_hi), "damage_per_shot_exact": dmg_x}
            for col, idx, pred in (("p_critical", 3, lambda o: o[2] > 0),
                                   ("p_hazard", 4, lambda o: o[3]),
                                   ("p_control_loss_direct", 5, lambda o: o[4]),
                                   ("p_control_loss", 6, lambda o: o[5]),
                                   ("p_terminal", 7, lambda o: o[6])):
                lo, hi = stats.rate_ci(int(k[idx]), n_trials)
                row[col] = int(k[idx]) / n_trials
                row[f"{col}_lo"], row[f"{col}_hi"] = float(lo), float(hi)
                row[f"{col}_exact"] = p(pred)
            row["damage_per_kilodollar"] = float(per_shot) / (w.cost / 1000)
            row["damage_per_kilodollar_exact"] = dmg_x / (w.cost / 1000)
            rows.append(row)
        return pd.DataFrame(rows)


def station_layout(vehicle: str, car=None, chosen=None):
    """(fit, groups) of a target: which weapon stations carry a weapon (2 = an HE one: GLs,
    missiles, RAGs, mines, p35) and which stations each target-matrix weapons entry names.
    A 'side*' hit strikes the side nearest the firer (p33); with no geometry, the left."""
    rules = R.rules_for(chosen)
    fit = [0] * len(STATIONS)
    turret_n = 0
    if car is not None:
        w = rules.table("weapons")["rows"]
        explosive = set(rules.table("passives")["explosive"])
        from ..builds import catalogue
        cat = catalogue(chosen)
        for mount, value in car.mounts.items():
            keys = value if isinstance(value, list) else [value]
            for i, k in enumerate(keys):
                item = cat[str(k).lower()]
                he = (item.key in w and w[item.key][4]) or item.key in explosive
                station = f"turret_{'ab'[i]}" if mount == "turret" else mount
                fit[STATIONS.index(station)] = 2 if he else 1
            if mount == "turret":
                turret_n = len(keys)
    ix = STATIONS.index
    groups = {
        "weapon_wings": (ix("wing_left"), ix("wing_right")),
        "weapon_sides": (ix("side_left"), ix("side_right")),
        "weapon_side_near": (ix("side_left"), -1),
        "weapon_passives": ((ix("passive_left"), ix("passive_right")) if vehicle == "interceptor"
                            else (ix("passive"), -1)),
        "weapon_hood": (ix("hood"), -1),
        "weapon_roof": ((ix("turret_a"), ix("turret_b")) if turret_n == 2 else
                        (ix("turret_a"), -1) if turret_n == 1 else (ix("roof"), -1)),
        "weapon_fairings": (ix("fairing_left"), ix("fairing_right")),
        "weapon_fairing_near": (ix("fairing_left"), -1),
    }
    return tuple(fit), tuple(groups[g] for g in WEAPON_GROUPS)


def weapon_table_sim(target: str | None = None, mount: str = "hood", ranges=range(1, 31), *,
                     firer_mph=60, target_mph=60, smoke=0, bike_lanes=2, facing="rear",
                     target_skill=None, target_damage=None, weapon_keys=None, chosen=None,
                     target_build: str | None = None) -> ShotSim:
    """Validate the options and build the simulation of every legal weapon at every range.

    ``target_build`` (a car as a compact string or .toml file) arms the target, so Weapons
    criticals can strike its weapons; without it the target carries none."""
    rules = R.rules_for(chosen)
    sel = R.selection(chosen)
    car = None
    if target_build is not None:
        from ..builds import car_from, validate
        car = car_from(target_build)
        validate(car, chosen=chosen)
        if target is not None and target != car.vehicle:
            raise UserInputError(f"the target build is a {car.vehicle}, not a {target}",
                                 field="--target")
        target = car.vehicle
        if target_skill is None:
            target_skill = car.skill
    target = target or "renegade"
    target_skill = 3 if target_skill is None else target_skill
    prof = R.vehicle(target, rules, option="--target")
    if mount not in MOUNTS:
        raise UserInputError(f"unknown mount {mount!r} (known: {', '.join(MOUNTS)})", field="--mount")
    oblique = facing.startswith("oblique-")
    base_facing = facing.split("-", 1)[1] if oblique else facing
    if base_facing not in FACINGS or (oblique and base_facing not in ("front", "rear")):
        raise UserInputError(f"unknown facing {facing!r} (known: {', '.join(FACINGS)}, "
                             "oblique-front, oblique-rear)", field="--facing")
    for opt, v in (("--firer-mph", firer_mph), ("--target-mph", target_mph), ("--smoke", smoke),
                   ("--target-skill", target_skill)):
        if v is None or v < 0:
            raise UserInputError(f"must be 0 or more, got {v!r}", field=opt)
    if bike_lanes not in (1, 2):
        raise UserInputError(f"must be 1 or 2, got {bike_lanes!r}", field="--bike-lanes")
    if target_damage is None:
        target_damage = prof.damage
    if not 1 <= target_damage <= prof.damage:
        raise UserInputError(f"must be 1-{prof.damage} for a {prof.name}, got {target_damage!r}",
                             field="--target-damage")
    all_w = weapons(chosen=chosen)
    if weapon_keys:
        unknown = [k for k in weapon_keys if k not in all_w]
        if unknown:
            raise UserInputError(f"unknown weapon(s) {', '.join(unknown)} (known: {', '.join(all_w)})",
                                 field="--weapons")
        chosen_w = [all_w[k] for k in weapon_keys]
    else:
        chosen_w = list(all_w.values())
    chosen_w = [w for w in chosen_w if mount_allows(mount, w)]
    if not chosen_w:
        raise UserInputError(f"no chosen weapon may be fitted on a {mount} mount", field="--mount")
    mod_tac = tactical_modifier(rules, mount, firer_mph, target_mph, smoke, prof.is_bike, bike_lanes)
    reduced = rules.table("bike_hazards")["reduced_handling"] if prof.is_bike else 0
    levels = tuple(prof.increments) + (0,) * (3 - len(prof.increments))
    # levels the target has already fallen below cost it handling before the shot (p28)
    level_loss = rules.table("damage_increments")["handling_loss"]
    handling = prof.handling - sum(1 for lv in prof.increments if target_damage < lv) * level_loss
    sl = rules.table("safety_limits")
    fit, groups = station_layout(prof.name, car, chosen)
    cells, shots = [], []
    for w in chosen_w:
        for rng in ranges:
            cells.append((w, rng))
            shots.append(Shot(
                in_range=rng <= w.range, range_eff=effective_range(rules, rng),
                modifier=w.accuracy + mod_tac, damage=w.damage, he=w.he, flat=w.flat,
                armour=prof.armour, target_damage=int(target_damage),
                facing=FACINGS.index(base_facing), oblique=oblique,
                crit_on_hit_roll=sel["critical_trigger"] == "hit_roll",
                target_mph=int(target_mph), handling=handling, skill=int(target_skill),
                reduced=reduced, levels=levels, level_loss=level_loss,
                braking=prof.braking, he_small_max=sl["he_small_max_damage"],
                he_small_limit=sl["limits"]["he_small"], he_large_limit=sl["limits"]["he_large"],
                explode_face=rules.table("terminal_damage")["explode_face"],
                fit=fit, groups=groups))
    sim = ShotSim(cells, shots, "bike" if prof.is_bike else "car", chosen)
    sim.target_name = prof.name if car is None else f"{prof.name} ({target_build})"
    return sim
