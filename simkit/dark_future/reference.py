"""Dark Future's plain-Python references: every dice procedure written the way the rule text
reads, taking a dice object (``roll(n, sides)``), and the exact oracles that enumerate them
through :func:`simkit.core.exact.distribution`.

The compiled kernels in :mod:`.procedures` are their twins; tests hold each kernel to its
reference (scripted rolls for the rulebook's examples, exact distributions for everything else).
Hazard rolls, braking, control loss, skids and spins follow p38-45; a shot, the hits it sets off
and the hazard rolls it forces follow p28-35 and p68-69.
"""

from __future__ import annotations

from fractions import Fraction
from functools import lru_cache

from ..core.exact import EnumeratingDice, distribution
from . import rules as R
from .procedures.hazards import LOSS, LOSS_BRAKES, OK, PANIC
from .procedures.shooting import (CritTables, DRIVER, ENGINE, FACINGS, FUEL, F_CHECK, F_CONTROL,
                                     F_DESTROYS, F_DISABLES, F_ELSE_HANDLING, F_EXPLOSION,
                                     F_EXPL_FACING, F_EXPL_HE, F_HANDLING, F_HAZARD,
                                     F_HE_EXPLOSION, F_SKILL, F_THEN_CONTROL,
                                     F_THEN_DISABLES, F_THEN_HANDLING, F_THEN_HAZARD, GROUP_BASE,
                                     REROLL, WEAPONS, Shot)


# --- hazards (p38-45) -------------------------------------
def hazard_roll_ref(dice_, speed, limit, optimum, braking_left, hp: R.HazardParams):
    """One hazard roll (p39) -> (outcome, mph braked). No roll at or below the limit."""
    if speed <= limit:
        return OK, 0
    excess = -(-(speed - limit) // hp.mph_per_point)
    score = dice_.roll(1, hp.die) + excess - optimum
    if score <= hp.ok_max:
        return OK, 0
    if score >= hp.loss_min:
        return LOSS, 0
    wanted = hp.panic_mph_per_point * score
    if wanted > braking_left:  # 'brakes as far as it can and then suffers Control Loss'
        return LOSS_BRAKES, max(0, min(braking_left, speed))
    return PANIC, min(wanted, speed)


def order_tests(tests):
    """Tests as (limit, is_oil): higher limits first, oil always last (p41, p30)."""
    return sorted(tests, key=lambda t: (bool(t[1]), -t[0]))


def hazard_sequence_ref(dice_, speed, tests, optimum, braking_left, hp: R.HazardParams,
                        oil_panic_limit=None):
    """Several tests in one move (p41) -> (final speed, braking left, lost control, outcomes).

    ``tests`` are (limit, is_oil). Oil is tested last, and against ``oil_panic_limit`` (the
    30mph 'any other move' limit) once another test of the move forced a panic brake (p30)."""
    if oil_panic_limit is None:
        oil_panic_limit = R.safety_limit("oil_other")
    outcomes = []
    for limit, oil in order_tests(tests):
        if oil and PANIC in outcomes:
            limit = min(limit, oil_panic_limit)
        out, mph = hazard_roll_ref(dice_, speed, limit, optimum, braking_left, hp)
        speed -= mph
        braking_left -= mph
        outcomes.append(out)
        if out >= LOSS:  # 'won't take any more hazard rolls until the driver regains control'
            break
    return speed, braking_left, any(o >= LOSS for o in outcomes), tuple(outcomes)


def control_loss_ref(dice_, sf, adverse, no_control_penalty, lows, codes):
    """One control-loss test (p42 / p70) -> outcome code (index of rules.CONTROL_OUTCOMES)."""
    score = dice_.roll(1, 6) + sf - adverse + no_control_penalty
    out = codes[0]
    for lo, code in zip(lows, codes):
        if score >= lo:
            out = code
    return int(out)


def skid_test_ref(dice_, on_curve, straight_mph, drift_mph):
    """Skid test (p43) -> (kind, side, mph lost): kind 0 straight / 1 drift; side -1 left,
    +1 right, 2 outwards (curve), 0 none."""
    if dice_.roll(1, 6) % 2 == 0:
        return 0, 0, straight_mph
    if on_curve:
        return 1, 2, drift_mph
    return 1, (1 if dice_.roll(1, 6) % 2 == 0 else -1), drift_mph


def spin_ref(dice_, sf, first_spin, direction, template):
    """Spin test (p44) -> (direction, rotation degrees, mph deduction): direction +1 clockwise,
    -1 anticlockwise (rolled on the first spin only); rotation by d6 + speed factor."""
    if first_spin:
        direction = 1 if dice_.roll(1, 6) % 2 == 0 else -1
    total = dice_.roll(1, 6) + sf
    for lo, hi, rot, mph in template:
        if lo <= total <= hi:
            return direction, rot, mph
    raise AssertionError(f"spin total {total} is not on the template")


# --- a shot (p28-35, p68-69) --------------------------------------------------------------------
def d6_lookup(dice_, f):
    """``f(face)`` of one d6 roll. Under exact enumeration, faces giving the same value are one
    branch (a roll read through a table rarely needs all six), which keeps whole shots small
    enough to enumerate; scripted and random dice roll one d6 as usual."""
    if isinstance(dice_, EnumeratingDice):
        groups: dict = {}
        for face in range(1, 7):
            v = f(face)
            groups[v] = groups.get(v, 0) + Fraction(1, 6)
        if len(groups) == 1:
            return next(iter(groups))  # the face cannot matter, but the die is still cast
        return dice_._choose(tuple(groups.items()))
    return f(dice_.roll(1, 6))


def hit_roll_ref(dice_, s: Shot):
    """-> (hit, natural six)."""
    if not s.in_range:  # 'the shot must be fired - the ammunition is wasted'
        return False, False
    return d6_lookup(dice_, lambda r: (r != 1 and r + s.modifier >= s.range_eff,
                                        r != 1 and r + s.modifier >= s.range_eff and r == 6))


def _critical_ref(dice_, s, ct, facing, hit_damage, st, pending):
    if facing < 0:  # oblique: even = the front/rear facing, odd = the side (p32)
        facing = d6_lookup(dice_, lambda r: s.facing if r % 2 == 0 else FACINGS.index("side"))
    code = d6_lookup(dice_, lambda r: int(ct.matrix[facing, r - 1]))
    while code >= REROLL:
        code = d6_lookup(dice_, lambda r, c=code: int(ct.rerolls[c - REROLL, r - 1]))
    if code >= GROUP_BASE:
        _weapon_ref(dice_, s, ct, code - GROUP_BASE, facing, st, pending)
    else:
        _result_ref(dice_, ct, code, hit_damage, st, pending)


def _weapon_ref(dice_, s, ct, group, facing, st, pending):
    """A Weapons result (p32, p35): find the station, then roll on the Weapons table."""
    a, b = s.groups[group]
    fit = st["fit"]
    if b >= 0:  # a pair of stations: odd = the first (left), even = the second (right)
        if not fit[a] and not fit[b]:
            return  # nothing fitted there: wasted, and no roll can change that
        station = d6_lookup(dice_, lambda r: a if r % 2 == 1 else b)
    else:
        station = a
    if not fit[station]:
        return  # not fitted, or already destroyed: wasted (p32)
    he = fit[station] == 2
    e = ct.effects[WEAPONS, d6_lookup(dice_, lambda r: _first_face(ct, WEAPONS, r)) - 1]
    if e[F_DESTROYS]:
        fit[station] = 0
        if he and e[F_HE_EXPLOSION] and d6_lookup(dice_, lambda r: r % 2 == 1):
            # its criticals strike the same facing (the rulebook names none)
            pending.append((int(e[F_HE_EXPLOSION]), True, facing, False))


def _result_ref(dice_, ct, loc, hit_damage, st, pending):
    if (loc == ENGINE and st["engine"]) or (loc == FUEL and st["fuel"]) or \
            (loc == DRIVER and st["driver"]):
        return  # already disabled: wasted (p32)
    # faces with identical effects are one branch under enumeration (names differ, effects not)
    e = ct.effects[loc, d6_lookup(dice_, lambda r: _first_face(ct, loc, r)) - 1]
    if e[F_HAZARD]:
        st["limits"].append(int(e[F_HAZARD]))
    if e[F_CONTROL]:
        st["loss"] = True
    st["handling"] += int(e[F_HANDLING])
    st["skill"] += int(e[F_SKILL])
    # e[F_ROLLS] (which limb) changes nothing one shot reports, so those dice are not rolled
    if e[F_CHECK]:
        if not dice_.at_most(1, 6, int(e[F_CHECK]) - hit_damage - 1):
            if e[F_THEN_HAZARD]:
                st["limits"].append(int(e[F_THEN_HAZARD]))
            if e[F_THEN_CONTROL]:
                st["loss"] = True
            st["handling"] += int(e[F_THEN_HANDLING])
            _disable(st, int(e[F_THEN_DISABLES]))
        else:
            st["handling"] += int(e[F_ELSE_HANDLING])
    _disable(st, int(e[F_DISABLES]))
    if e[F_EXPLOSION]:
        pending.append((int(e[F_EXPLOSION]), bool(e[F_EXPL_HE]), int(e[F_EXPL_FACING]), False))


def _first_face(ct, loc, r):
    row = ct.effects[loc]
    for f in range(6):
        if (row[f] == row[r - 1]).all():
            return f + 1
    return r


def _disable(st, what):
    if what == 1:
        st["engine"] = True
    elif what == 2:
        st["fuel"] = True
        st["engine"] = True  # an exploding tank also disables the engine (p35, p69)
    elif what == 3:
        st["driver"] = True


def hits_ref(dice_, s: Shot, ct: CritTables, natural_six_on_hit: bool):
    """The hit and every hit it sets off (p29 Multiple Hits), then the forced hazard rolls."""
    st = {"engine": False, "fuel": False, "driver": False, "loss": False, "limits": [],
          "remaining": s.target_damage, "terminal": False, "exploded": False,
          "handling": 0, "skill": 0, "fit": list(s.fit)}
    damage_total = 0
    crits = 0
    pending = [(s.damage, s.he, -1 if s.oblique else s.facing, True)]
    while pending:
        dmg, he, facing, from_shot = pending.pop(0)
        if he:
            st["limits"].append(s.he_small_limit if dmg <= s.he_small_max else s.he_large_limit)
        flat = s.flat and from_shot
        was_terminal = st["terminal"]
        crit_on_damage = not (from_shot and s.crit_on_hit_roll)
        points, r = d6_lookup(dice_, lambda r: (
            0 if was_terminal else min(st["remaining"], max(0, (dmg if flat else r + dmg) - s.armour)),
            6 if (r == 6 and crit_on_damage) else 0))
        if not was_terminal:  # after terminal damage only the critical six matters (p35)
            take = min(points, st["remaining"])
            st["remaining"] -= take
            damage_total += take
        crit = natural_six_on_hit if not crit_on_damage else r == 6
        if crit:
            crits += 1
            _critical_ref(dice_, s, ct, facing, dmg, st, pending)
        if not was_terminal and st["remaining"] == 0:
            st["terminal"] = True
            st["engine"] = True
            st["loss"] = True  # handling 0: the vehicle loses control at once (p40)
        if st["terminal"] and not st["exploded"]:
            if dice_.at_most(1, 6, s.explode_face):
                st["exploded"] = True
                _result_ref(dice_, ct, DRIVER, dmg, st, pending)
    # hazard rolls come after the damage is recorded, so they see the handling lost to damage
    # levels passed (p28), to tyres and axles, and the drive skill lost to injury (p38, p40)
    passed = sum(1 for lv in s.levels if lv and st["remaining"] < lv <= s.target_damage)
    handling = s.handling + st["handling"] - passed * s.level_loss
    skill = s.skill + st["skill"]
    if handling <= 0 or skill <= 0:
        st["loss"] = True  # zero handling or no (conscious) driver: control lost (p34, p40)
    direct = st["loss"]
    limits = tuple(sorted((x for x in st["limits"] if x < s.target_mph), reverse=True))
    if direct:
        limits = ()  # out of control: no hazard rolls (p42)
    optimum = max(handling - s.reduced, skill)
    return damage_total, crits, limits, direct, st["terminal"], optimum


def forced_tests_ref(dice_, s: Shot, limits, optimum):
    """The hazard rolls a shot forces, highest limit first (p41) -> control lost?"""
    speed, left = s.target_mph, s.braking
    for lim in limits:
        out, mph = hazard_roll_ref(dice_, speed, lim, optimum, left, _HP)
        speed -= mph
        left -= mph
        if out >= LOSS:
            return True
    return False


_HP = R.hazard_params()


def shot_ref(dice_, s: Shot, ct: CritTables):
    """A whole shot -> (hit, damage, criticals, forced hazard, direct loss, loss, terminal)."""
    hit, six = hit_roll_ref(dice_, s)
    if not hit:
        return MISS
    damage, crits, limits, direct, terminal, optimum = hits_ref(dice_, s, ct, six)
    lost = direct or forced_tests_ref(dice_, s, limits, optimum)
    return True, damage, crits, bool(limits), direct, lost, terminal


MISS = (False, 0, 0, False, False, False, False)


# A target with several HE weapons can chain explosions (each may strike another weapon): its
# shots have too many dice paths to enumerate quickly, so only Monte Carlo figures are given.
MAX_HE_STATIONS_EXACT = 1
EXACT_MAX_PATHS = 5_000  # unarmed targets need at most ~1,100 (a bike, oblique 40mm GL hit)


class TooLargeToEnumerate(RuntimeError):
    """The shot's chain of hits has too many dice paths to enumerate in reasonable time."""


def exact_shot(s: Shot, ct: CritTables, max_paths: int = EXACT_MAX_PATHS) -> dict:
    """Exact outcome distribution of :func:`shot_ref`, by composing its independent stages:
    the hit roll, the chain of hits it sets off, and the hazard rolls that chain forces (each
    stage enumerated exactly; tests check the composition against whole-shot enumeration).

    Raises :class:`TooLargeToEnumerate` when the chain of hits needs more than ``max_paths``
    dice paths (heavily armed targets whose HE weapons can set each other off)."""
    out: dict = {}
    for (hit, six), p in distribution(hit_roll_ref, s).items():
        if not hit:
            out[MISS] = out.get(MISS, 0) + p
            continue
        base = s.__class__(**{**s.__dict__, "range_eff": 0, "modifier": 0})
        for (damage, crits, limits, direct, terminal, optimum), q in _hits_exact(
                base, ct, bool(six and s.crit_on_hit_roll), max_paths).items():
            for lost, r in _tests_exact(base, limits, optimum).items():
                k = (True, damage, crits, bool(limits), direct, direct or lost, terminal)
                out[k] = out.get(k, 0) + p * q * r
    return out


_HITS_CACHE: dict = {}


@lru_cache(maxsize=None)
def _hit_exact(s):
    return distribution(hit_roll_ref, s)


def _hits_exact(s, ct, six, max_paths):
    key = (s, id(ct), six)
    if key not in _HITS_CACHE:
        try:
            _HITS_CACHE[key] = distribution(hits_ref, s, ct, six, max_paths=max_paths)
        except RuntimeError as e:
            _HITS_CACHE[key] = TooLargeToEnumerate(str(e))
    if isinstance(_HITS_CACHE[key], Exception):
        raise _HITS_CACHE[key]
    return _HITS_CACHE[key]


@lru_cache(maxsize=None)
def _tests_exact(s, limits, optimum):
    return distribution(forced_tests_ref, s, limits, optimum)


