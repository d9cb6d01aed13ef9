"""Compiled hazard kernels: the 205-210 dice procedures over many trials.

Every kernel draws through :mod:`simkit.core.dice` with the dice state ``st`` and ``script``
passed explicitly, so the same code runs seeded Monte Carlo trials and replays the rulebook's
examples. The procedures mirror :mod:`.reference` roll for roll (same rolls, same order, same
skipped certain rolls), and are held to the exact oracle (:mod:`.oracle`) in the tests.

Arrays the kernels read (built from the rules tables by :func:`kernel_arrays`):

* ``crit``  int64[13, 3]: Critical Hit table by 2d6 total -> (effect code, ship column, amount)
* ``par``   int64[N_PAR]: scalar rules numbers and variant switches (``P_*`` indices)
* ``vturns`` int64[21]: turning movements allowed by Velocity (208 A modifier)

A hazard is one row of a ``spec`` int64[N_SPEC] (``K_*`` kinds, ``SP_*`` fields); a ship is an
int64[SHIP_SIZE] in the columns of :mod:`.rules`. Per-trial outcomes go to ``out``
int64[OUT_SIZE] (``O_*`` columns).
"""

from __future__ import annotations

import numpy as np

from simkit.core import dice
from simkit.core._numba import jit
from simkit.core.blocks import sum_blocks

from ..rules import BUOYS, CRIT_CRISIS, FUEL, SI, Rules

# --- outcome columns ---------------------------------------------------------------------------
O_DESTROYED, O_SI_LOSS, O_CRITS, O_CRISES, O_EFFECT, O_FUEL_LOSS, O_BUOYS_LOST = range(7)
O_CRISIS_HIST = 7                    # 11 counts: System Crisis results 2..12
OUT_SIZE = O_CRISIS_HIST + 11

# --- hazard kinds and spec fields ------------------------------------------------------------
K_HOLE, K_FIRE, K_HOUND, K_NULL, K_LASER, K_SCRAMBLER, K_RECOVERY, K_LASER_MARKER = range(8)
SP_KIND, SP_ARG, SP_SCREENS, SP_VELOCITY, SP_PI, SP_LEVEL, SP_RANGE, SP_MOD = range(8)
N_SPEC = 8

# --- scalar rules numbers --------------------------------------------------------------------
(P_CRIT_AT_LEAST, P_SUB_COL, P_SUB_AMOUNT, P_FUEL_EXCESS, P_HOUND_CARD, P_FIRE_CARD,
 P_FIRE_DICE, P_FIRE_THRESHOLD, P_FIRE_PER, P_NULL_DICE, P_NULL_LOST, P_SCR_ABOVE, P_SCR_ROLLS,
 P_DESTROY_AT_LEAST, P_MARKER_DICE, P_FIRE_ROLL_DICE, P_MAX_RANGE, P_RECOVERY_DICE,
 P_RECOVERY_SUCCESS, P_HOLE_DICE, P_FIRE_MOD, P_HOUND_DICE) = range(22)
P_HOLE_DICE_0 = P_HOLE_DICE          # 3 entries by class
P_FIRE_MOD_0 = P_HOLE_DICE + 3       # 3 entries by class
P_HOUND_DICE_0 = P_FIRE_MOD_0 + 3    # 3 entries by distance 0, 1, 2
P_FIRE_SI = P_HOUND_DICE_0 + 3       # 1: Hell Fire's result is SI damage (variant hell_fire_damage)
N_PAR = P_FIRE_SI + 1


def kernel_arrays(rules: Rules):
    """(crit, par, vturns) for the kernels, from the tables and the variant selection."""
    par = np.zeros(N_PAR, dtype=np.int64)
    par[P_CRIT_AT_LEAST] = rules.crit_at_least
    par[P_SUB_COL], par[P_SUB_AMOUNT] = rules.substitute
    par[P_FUEL_EXCESS] = int(rules.fuel_excess_to_si)
    par[P_HOUND_CARD] = int(rules.hound_card)
    par[P_FIRE_CARD] = int(rules.fire_card)
    par[P_FIRE_SI] = int(rules.fire_si_damage)
    hf = rules.t("hell_fire_attack")
    par[P_FIRE_DICE], par[P_FIRE_THRESHOLD], par[P_FIRE_PER] = hf["dice"], hf["threshold"], hf["crisis_per"]
    na = rules.t("null_attack")
    par[P_NULL_DICE], par[P_NULL_LOST] = na["dice"], na["lost_at_most"]
    se = rules.t("scrambler_effect")
    par[P_SCR_ABOVE], par[P_SCR_ROLLS] = se["damaged_above"], se["crisis_rolls"]
    le = rules.t("laser_effect")
    par[P_DESTROY_AT_LEAST], par[P_MARKER_DICE] = le["destroy_at_least"], le["buoy_screen_dice"]
    fi = rules.t("fire")
    par[P_FIRE_ROLL_DICE], par[P_MAX_RANGE] = fi["dice"], fi["max_range"]
    br = rules.t("buoy_recovery")
    par[P_RECOVERY_DICE], par[P_RECOVERY_SUCCESS] = br["dice"], br["success_at_least"]
    par[P_HOLE_DICE_0:P_HOLE_DICE_0 + 3] = rules.t("hell_hole_attack")["dice"]
    par[P_FIRE_MOD_0:P_FIRE_MOD_0 + 3] = hf["class_modifier"]
    hh = rules.t("hell_hound_attack")
    for d, n in zip(hh["distance"], hh["dice"]):
        par[P_HOUND_DICE_0 + d] = n
    return rules.critical_array(), par, rules.velocity_turns.copy()


@jit
def _roll(st, script, n, sides):
    """``dice.roll``: the kernels' one roll (a short name for the many call sites)."""
    return dice.roll(st, script, n, sides)


@jit
def _check(st, script, n, sides, target):
    """n d sides <= target, rolling only when the answer is not already certain."""
    if target < n:
        return False
    if target >= n * sides:
        return True
    return _roll(st, script, n, sides) <= target


@jit
def _lose_si(ship, hits, out):
    """Lose ``hits`` SI Levels; return the number of even Levels lost (0 if destroyed)."""
    s = ship[SI]
    new = s - hits
    if new < 0:
        new = 0
    ship[SI] = new
    out[O_SI_LOSS] += s - new
    if new == 0:
        out[O_DESTROYED] = 1
        return 0
    return s // 2 - new // 2


@jit
def _lose_function(ship, col, amount, par, out):
    """A Critical Hit 'Lose N Levels' with the Level-0 and Excess rules (210 B-C)."""
    if ship[col] == 0:
        if ship[BUOYS] > 0:
            ship[BUOYS] -= 1
            out[O_BUOYS_LOST] += 1
            return 0
        if col == FUEL:
            return 0
        col = par[P_SUB_COL]
        amount = par[P_SUB_AMOUNT]
        if ship[col] == 0:
            return 0
    new = ship[col] - amount
    if col == FUEL:
        out[O_FUEL_LOSS] += min(amount, ship[col])
    if new >= 0:
        ship[col] = new
        return 0
    ship[col] = 0
    if col == FUEL and par[P_FUEL_EXCESS] == 0:
        return 0
    return _lose_si(ship, -new, out)


@jit
def _crisis(st, script, out):
    r = _roll(st, script, 2, 6)
    out[O_CRISES] += 1
    out[O_CRISIS_HIST + r - 2] += 1


@jit
def apply_damage(st, script, ship, hits, crit, par, out):
    """210: lose ``hits`` SI Levels, then one Critical Hit check per even Level lost."""
    if hits <= 0:
        return
    out[O_EFFECT] = 1
    pending = _lose_si(ship, hits, out)
    while pending > 0 and out[O_DESTROYED] == 0:
        pending -= 1
        if _check(st, script, 1, 6, par[P_CRIT_AT_LEAST] - 1):
            continue
        r = _roll(st, script, 2, 6)
        out[O_CRITS] += 1
        if crit[r, 0] == CRIT_CRISIS:
            _crisis(st, script, out)
        else:
            pending += _lose_function(ship, crit[r, 1], crit[r, 2], par, out)


@jit
def _fire_hits(st, script, rng, mod, par):
    if rng < 1 or rng > par[P_MAX_RANGE]:
        return False
    return not _check(st, script, par[P_FIRE_ROLL_DICE], 6, rng - 1 - mod)


@jit
def hazard_trial(st, script, spec, ship, crit, par, vturns, out):
    """One procedure of kind ``spec[SP_KIND]`` against ``ship`` (modified in place)."""
    kind = spec[SP_KIND]
    arg = spec[SP_ARG]
    screens = spec[SP_SCREENS]
    if kind == K_HOLE:
        hits = _roll(st, script, par[P_HOLE_DICE_0 + arg], 6)
        apply_damage(st, script, ship, hits, crit, par, out)
    elif kind == K_FIRE:
        f = _roll(st, script, par[P_FIRE_DICE], 6) + par[P_FIRE_MOD_0 + arg] \
            + vturns[spec[SP_VELOCITY]]
        r = f - screens if par[P_FIRE_CARD] == 1 else screens - f
        if r >= par[P_FIRE_THRESHOLD]:
            out[O_EFFECT] = 1
            for _ in range(r // par[P_FIRE_PER]):
                _crisis(st, script, out)
            if par[P_FIRE_SI] == 1:   # 202 Step B D 1: then check for Critical Hit
                apply_damage(st, script, ship, r, crit, par, out)
    elif kind == K_HOUND:
        a = _roll(st, script, par[P_HOUND_DICE_0 + arg], 6)
        hits = a - screens if par[P_HOUND_CARD] == 1 else screens - a
        apply_damage(st, script, ship, hits, crit, par, out)
    elif kind == K_NULL:
        if _check(st, script, par[P_NULL_DICE], 6, par[P_NULL_LOST] - spec[SP_PI]):
            out[O_EFFECT] = 1
    elif kind == K_LASER:
        if _fire_hits(st, script, spec[SP_RANGE], spec[SP_MOD], par):
            apply_damage(st, script, ship, spec[SP_LEVEL] - screens, crit, par, out)
            out[O_EFFECT] = 1
    elif kind == K_LASER_MARKER:
        if _fire_hits(st, script, spec[SP_RANGE], spec[SP_MOD], par):
            out[O_EFFECT] = 1
            if _check(st, script, par[P_MARKER_DICE], 6, spec[SP_LEVEL] - par[P_DESTROY_AT_LEAST]):
                out[O_DESTROYED] = 1
    elif kind == K_SCRAMBLER:
        if _fire_hits(st, script, spec[SP_RANGE], spec[SP_MOD], par):
            if spec[SP_LEVEL] - screens > par[P_SCR_ABOVE]:
                out[O_EFFECT] = 1
                for _ in range(par[P_SCR_ROLLS]):
                    _crisis(st, script, out)
    elif kind == K_RECOVERY:
        tractor = spec[SP_LEVEL]
        if tractor > 0:
            base = tractor + spec[SP_MOD]
            if not _check(st, script, par[P_RECOVERY_DICE], 6, par[P_RECOVERY_SUCCESS] - 1 - base):
                out[O_EFFECT] = 1


# --- many trials -----------------------------------------------------------------------------

@jit
def run_one(st, script, spec, ship0, crit, par, vturns):
    """One procedure on a copy of ``ship0``; returns (outcome row, final ship)."""
    ship = ship0.copy()
    out = np.zeros(OUT_SIZE, np.int64)
    hazard_trial(st, script, spec, ship, crit, par, vturns, out)
    return out, ship


@jit
def outcomes(key, first, n, spec, ship0, crit, par, vturns):
    """Per-trial outcome rows (tests and small runs): trial i draws from stream (key, first+i).
    Serial on purpose: a parallel version takes several times longer to compile."""
    res = np.zeros((n, OUT_SIZE), np.int64)
    st = np.zeros(dice.STATE_SIZE, np.uint64)
    ship = np.zeros(ship0.shape[0], np.int64)
    out = np.zeros(OUT_SIZE, np.int64)
    for i in range(n):
        dice.seed_trial(st, key, first + i)
        ship[:] = ship0
        out[:] = 0
        hazard_trial(st, dice.NO_SCRIPT, spec, ship, crit, par, vturns, out)
        res[i] = out
    return res


# per-hazard statistics (int64 sums, so merges are exact in any grouping)
(S_DESTROYED, S_SI, S_SI2, S_CRIT, S_CRIT2, S_ANY_CRISIS, S_CRISES, S_CRISES2, S_EFFECT,
 S_FUEL, S_FUEL2, S_BUOYS) = range(12)
S_CRISIS_HIST = 12
N_STAT = S_CRISIS_HIST + 11
N_BLOCKS = 64  # work split; any value gives the same integer totals


@jit
def _hazard_block(key, lo, hi, specs, ship0, crit, par, vturns, acc):
    nh = specs.shape[0]
    st = np.zeros(dice.STATE_SIZE, np.uint64)
    out = np.zeros(OUT_SIZE, np.int64)
    ship = np.zeros(ship0.shape[0], np.int64)
    for i in range(lo, hi):
        dice.seed_trial(st, key, i)
        for h in range(nh):
            out[:] = 0
            ship[:] = ship0
            hazard_trial(st, dice.NO_SCRIPT, specs[h], ship, crit, par, vturns, out)
            acc[h, S_DESTROYED] += out[O_DESTROYED]
            acc[h, S_SI] += out[O_SI_LOSS]
            acc[h, S_SI2] += out[O_SI_LOSS] * out[O_SI_LOSS]
            acc[h, S_CRIT] += out[O_CRITS]
            acc[h, S_CRIT2] += out[O_CRITS] * out[O_CRITS]
            acc[h, S_EFFECT] += out[O_EFFECT]
            if out[O_CRISES] > 0:  # rare outside Hell Fire: skip the histogram otherwise
                acc[h, S_ANY_CRISIS] += 1
                acc[h, S_CRISES] += out[O_CRISES]
                acc[h, S_CRISES2] += out[O_CRISES] * out[O_CRISES]
                for j in range(11):
                    acc[h, S_CRISIS_HIST + j] += out[O_CRISIS_HIST + j]
            if out[O_FUEL_LOSS] > 0:
                acc[h, S_FUEL] += out[O_FUEL_LOSS]
                acc[h, S_FUEL2] += out[O_FUEL_LOSS] * out[O_FUEL_LOSS]
            acc[h, S_BUOYS] += out[O_BUOYS_LOST]


def hazard_stats(key, first, n, specs, ship0, crit, par, vturns):
    """Sum statistics of every hazard in ``specs`` over trials first..first+n-1.

    Trial i draws every hazard, in ``specs`` order, from its own stream (key, i): the same trial
    number faces the same dice whatever the chunking or thread count.
    """
    return sum_blocks(lambda lo, hi, acc: _hazard_block(key, lo, hi, specs, ship0, crit, par,
                                                        vturns, acc),
                      first, n, (specs.shape[0], N_STAT), N_BLOCKS)


@jit
def _count_block(key, lo, hi, spec, ship0, crit, par, vturns, acc):
    st = np.zeros(dice.STATE_SIZE, np.uint64)
    out = np.zeros(OUT_SIZE, np.int64)
    ship = np.zeros(ship0.shape[0], np.int64)
    for i in range(lo, hi):
        dice.seed_trial(st, key, i)
        out[:] = 0
        ship[:] = ship0
        hazard_trial(st, dice.NO_SCRIPT, spec, ship, crit, par, vturns, out)
        acc[0] += np.int64(st[dice.NROLLS])


def count_rolls(key, first, n, spec, ship0, crit, par, vturns):
    """Roll calls made by ``n`` trials of one procedure (for the benchmark's bare-RNG bound)."""
    return int(sum_blocks(lambda lo, hi, acc: _count_block(key, lo, hi, spec, ship0, crit, par,
                                                           vturns, acc),
                          first, n, 1, N_BLOCKS)[0])


@jit
def _bare_block(key, lo, hi, rolls_per_trial, acc):
    st = np.zeros(dice.STATE_SIZE, np.uint64)
    s = 0
    for i in range(lo, hi):
        dice.seed_trial(st, key, i)
        for _ in range(rolls_per_trial):
            s += dice.roll(st, dice.NO_SCRIPT, 2, 6)
    acc[0] = s


def bare_rng(key, first, n, rolls_per_trial):
    """The bare random-number bound: the same count of 2d6 rolls per trial, nothing else."""
    return int(sum_blocks(lambda lo, hi, acc: _bare_block(key, lo, hi, rolls_per_trial, acc),
                          first, n, 1, N_BLOCKS)[0])
