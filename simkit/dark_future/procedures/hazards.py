"""Hazard rolls, panic braking, several tests in one move, control-loss tests, skids and spins.

Models dark-future.txt p38-45:

* the hazard roll (p39): d6 + 1 per 10mph (or part) over the safety limit - optimum control;
  0 or less OK, 1-4 panic brake by 5mph per point, 5+ control loss;
* panic braking against what is left of the phase's braking allowance (p41): short of it, the
  car brakes what it can and loses control; a stationary car's allowance covers the rest of the
  turn (the caller passes that allowance);
* several tests in one move (p41 Multiple Tests): higher safety limits first, oil always last;
  a panic brake to or below a later limit skips that test; after a control loss no more tests;
* the control-loss test (p42): d6 + speed factor - adverse control (+2 with zero handling or no
  driver) on the car or the bike table (p70);
* the skid test (p43) and the spin test (p44) on the spin template (RECONSTRUCTED, rules-data 4.1).

Each procedure exists twice: a plain-Python reference that reads like the rule text and takes a
dice object (``roll(n, sides)``; in :mod:`..reference`, whose exact oracle goes through
:func:`simkit.core.exact.distribution`), and the compiled kernel here, drawing through
:mod:`simkit.core.dice`, which replays scripted rolls for
the rulebook's examples. Simulations hold one cell per (excess speed, optimum control) or
(vehicle, speed factor, adverse control) and share each trial's stream across cells (common
random numbers).
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from ...core import dice, stats
from ...core._numba import jit
from ...core.blocks import sum_blocks
from ...core.exact import distribution
from .. import rules as R

# hazard outcome codes
OK, PANIC, LOSS, LOSS_BRAKES = 0, 1, 2, 3  # LOSS_BRAKES: a panic brake beyond the allowance
HAZARD_NAMES = ("ok", "panic", "loss", "loss_out_of_braking")
NO_LIMIT = 1_000_000  # an allowance nothing can exhaust
_BASE = 1_000  # notional safety limit for tables by excess speed

# params array columns (rules.HazardParams.as_array); the engine's hp starts with them, and
# HP_BASE_W is where its next block begins
HP_DIE, HP_STEP, HP_OK_MAX, HP_LOSS_MIN, HP_PANIC, HP_BASE_W = range(6)


def _reference():
    # the references import this module's outcome codes, so they are fetched when first needed
    from .. import reference
    return reference


# --- compiled kernels --------------------------------------------------------------------------
@jit
def hazard_roll(st, script, speed, limit, optimum, braking_left, hp):
    """Kernel twin of :func:`..reference.hazard_roll_ref`; returns (outcome, mph braked)."""
    if speed <= limit:
        return OK, 0
    step = hp[HP_STEP]
    excess = (speed - limit + step - 1) // step
    score = dice.roll(st, script, 1, hp[HP_DIE]) + excess - optimum
    if score <= hp[HP_OK_MAX]:
        return OK, 0
    if score >= hp[HP_LOSS_MIN]:
        return LOSS, 0
    wanted = hp[HP_PANIC] * score
    if wanted > braking_left:
        return LOSS_BRAKES, max(0, min(braking_left, speed))
    return PANIC, min(wanted, speed)


@jit
def hazard_sequence(st, script, speed, limits, oil, oil_panic_limit, optimum, braking_left, hp,
                    outcomes):
    """Kernel twin of :func:`..reference.hazard_sequence_ref` on tests already in order (``oil[i]`` = 1 for
    an oil test); writes each outcome into ``outcomes`` (-1 = not taken) and returns (speed,
    braking left, lost)."""
    lost = False
    panicked = False
    for i in range(limits.shape[0]):
        outcomes[i] = -1
    for i in range(limits.shape[0]):
        limit = limits[i]
        if oil[i] and panicked:
            limit = min(limit, oil_panic_limit)
        out, mph = hazard_roll(st, script, speed, limit, optimum, braking_left, hp)
        if out == PANIC:
            panicked = True
        speed -= mph
        braking_left -= mph
        outcomes[i] = out
        if out >= LOSS:
            lost = True
            break
    return speed, braking_left, lost


@jit
def control_loss_test(st, script, sf, adverse, penalty, lows, codes):
    score = dice.roll(st, script, 1, 6) + sf - adverse + penalty
    out = codes[0]
    for i in range(lows.shape[0]):
        if score >= lows[i]:
            out = codes[i]
    return out


@jit
def skid_test(st, script, on_curve, straight_mph, drift_mph):
    if dice.roll(st, script, 1, 6) % 2 == 0:
        return 0, 0, straight_mph
    if on_curve:
        return 1, 2, drift_mph
    return 1, (1 if dice.roll(st, script, 1, 6) % 2 == 0 else -1), drift_mph


@jit
def spin_test(st, script, sf, first_spin, direction, template):
    if first_spin:
        direction = 1 if dice.roll(st, script, 1, 6) % 2 == 0 else -1
    total = dice.roll(st, script, 1, 6) + sf
    for i in range(template.shape[0]):
        if template[i, 0] <= total <= template[i, 1]:
            return direction, template[i, 2], template[i, 3]
    return direction, -1, -1


N_HAZARD_STATS = 7  # ok, panic 5/10/15/20, loss, loss because the braking ran out


@jit
def _hazard_block(key, lo, hi, speeds, limits, controls, braking, hp, script, acc):
    st = np.zeros(dice.STATE_SIZE, dtype=np.uint64)
    for t in range(lo, hi):
        dice.seed_trial(st, key, t)
        for c in range(speeds.shape[0]):
            out, mph = hazard_roll(st, script, speeds[c], limits[c], controls[c], braking, hp)
            base = c * N_HAZARD_STATS
            if out == OK:
                acc[base] += 1
            elif out == PANIC:
                acc[base + mph // hp[HP_PANIC]] += 1
            else:
                acc[base + 5] += 1
                if out == LOSS_BRAKES:
                    acc[base + 6] += 1


def _hazard_chunk(key, first, n, speeds, limits, controls, braking, hp, script):
    return sum_blocks(lambda lo, hi, acc: _hazard_block(key, lo, hi, speeds, limits, controls,
                                                        braking, hp, script, acc),
                      first, n, speeds.shape[0] * N_HAZARD_STATS)


@jit
def _control_block(key, lo, hi, sfs, adverse, penalty, kinds, lows, codes, script, acc):
    st = np.zeros(dice.STATE_SIZE, dtype=np.uint64)
    for t in range(lo, hi):
        dice.seed_trial(st, key, t)
        for c in range(sfs.shape[0]):
            k = kinds[c]
            out = control_loss_test(st, script, sfs[c], adverse[c], penalty[c], lows[k], codes[k])
            acc[c * 5 + out] += 1


def _control_chunk(key, first, n, sfs, adverse, penalty, kinds, lows, codes, script):
    """kinds[c] indexes rows of lows/codes (0 car, 1 bike); lows/codes padded per kind."""
    return sum_blocks(lambda lo, hi, acc: _control_block(key, lo, hi, sfs, adverse, penalty,
                                                         kinds, lows, codes, script, acc),
                      first, n, sfs.shape[0] * 5)


# --- simulations ---------------------------------------------------------------------------------
class HazardSim:
    """Hazard rolls for every (excess mph, optimum control) cell; ``braking`` = allowance left."""

    name = "dark-future hazard roll"

    def __init__(self, excess_mph, controls, braking=None, rules=None):
        self.rules = rules or R.base_rules()
        self.hp = R.hazard_params(self.rules)
        cells = [(e, c) for e in excess_mph for c in controls]
        self.cells = cells
        # a high notional limit so that a panic brake is never capped by the car stopping
        self.speeds = np.array([_BASE + e for e, _ in cells], dtype=np.int64)
        self.limits = np.full(len(cells), _BASE, dtype=np.int64)
        self.controls = np.array([c for _, c in cells], dtype=np.int64)
        self.braking = NO_LIMIT if braking is None else int(braking)
        self.n_stats = len(cells) * N_HAZARD_STATS

    def chunk(self, key, first, n):
        return _hazard_chunk(key, first, n, self.speeds, self.limits, self.controls,
                             self.braking, self.hp.as_array(), dice.NO_SCRIPT)

    def exact(self, excess, control):
        """Exact distribution of (outcome, mph braked) for one cell."""
        return distribution(_reference().hazard_roll_ref, _BASE + excess, _BASE, control, self.braking, self.hp)

    def summarise(self, totals, n_trials):
        rows = []
        t = totals.reshape(len(self.cells), N_HAZARD_STATS)
        step = self.hp.panic_mph_per_point
        for (e, c), k in zip(self.cells, t):
            ex = self.exact(e, c)
            row = {"excess_mph": e, "excess_modifier": R.excess_modifier(e, 0, self.rules),
                   "control": c,
                   "braking_left": None if self.braking == NO_LIMIT else self.braking,
                   "trials": n_trials}
            groups = {"ok": [0], "panic": [1, 2, 3, 4], "loss": [5]}
            exact_p = {"ok": sum(float(p) for (o, _), p in ex.items() if o == OK),
                       "panic": sum(float(p) for (o, _), p in ex.items() if o == PANIC),
                       "loss": sum(float(p) for (o, _), p in ex.items() if o >= LOSS)}
            for g, idx in groups.items():
                kk = int(k[idx].sum())
                lo, hi = stats.rate_ci(kk, n_trials)
                row[f"p_{g}"] = kk / n_trials
                row[f"p_{g}_lo"], row[f"p_{g}_hi"] = float(lo), float(hi)
                row[f"p_{g}_exact"] = exact_p[g]
            for j in range(1, 5):
                row[f"p_panic_{step * j}"] = int(k[j]) / n_trials
                row[f"p_panic_{step * j}_exact"] = float(ex.get((PANIC, step * j), 0))
            row["p_loss_out_of_braking"] = int(k[6]) / n_trials
            row["p_loss_out_of_braking_exact"] = sum(
                float(p) for (o, _), p in ex.items() if o == LOSS_BRAKES)
            mean_exact = sum(float(p) * mph for (o, mph), p in ex.items() if o == PANIC)
            row["mean_panic_mph"] = float(sum(step * j * int(k[j]) for j in range(1, 5))) / n_trials
            row["mean_panic_mph_exact"] = mean_exact
            rows.append(row)
        return pd.DataFrame(rows)


class ControlLossSim:
    """Control-loss tests for every (vehicle kind, speed factor, adverse control, +2?) cell."""

    name = "dark-future control loss test"

    def __init__(self, kinds, sfs, adverse, penalties=(False,), rules=None):
        self.rules = rules or R.base_rules()
        self.cells = [(k, s, a, p) for k in kinds for p in penalties for s in sfs for a in adverse]
        tabs = [R.control_loss_table(k, self.rules) for k in ("car", "bike")]
        width = max(len(t[0]) for t in tabs)
        self.lows = np.full((2, width), 10 ** 6, dtype=np.int64)
        self.codes = np.zeros((2, width), dtype=np.int64)
        for i, (lo, co) in enumerate(tabs):
            self.lows[i, :len(lo)] = lo
            self.codes[i, :len(co)] = co
        self.tables = tabs
        pen = R.control_loss_penalty(self.rules)
        self.kind_idx = np.array([0 if k == "car" else 1 for k, *_ in self.cells], dtype=np.int64)
        self.sfs = np.array([s for _, s, _, _ in self.cells], dtype=np.int64)
        self.adverse = np.array([a for _, _, a, _ in self.cells], dtype=np.int64)
        self.penalty = np.array([pen if p else 0 for *_, p in self.cells], dtype=np.int64)
        self.n_stats = len(self.cells) * 5

    def chunk(self, key, first, n):
        return _control_chunk(key, first, n, self.sfs, self.adverse, self.penalty, self.kind_idx,
                              self.lows, self.codes, dice.NO_SCRIPT)

    def exact(self, i):
        k = self.kind_idx[i]
        lows, codes = self.tables[k]
        return distribution(_reference().control_loss_ref, int(self.sfs[i]), int(self.adverse[i]),
                            int(self.penalty[i]), list(lows), list(codes))

    def summarise(self, totals, n_trials):
        rows = []
        t = totals.reshape(len(self.cells), 5)
        for i, ((kind, sf, adv, pen), k) in enumerate(zip(self.cells, t)):
            ex = self.exact(i)
            row = {"vehicle": kind, "speed_factor": sf, "adverse_control": adv,
                   "no_control_plus_2": pen, "trials": n_trials}
            for j, name in enumerate(R.CONTROL_OUTCOMES):
                if kind == "bike" and name == "spin":
                    continue  # bikes roll rather than spin (p64); their table has no spin row
                lo, hi = stats.rate_ci(int(k[j]), n_trials)
                row[f"p_{name}"] = int(k[j]) / n_trials
                row[f"p_{name}_lo"], row[f"p_{name}_hi"] = float(lo), float(hi)
                row[f"p_{name}_exact"] = float(ex.get(j, 0))
            rows.append(row)
        return pd.DataFrame(rows)
