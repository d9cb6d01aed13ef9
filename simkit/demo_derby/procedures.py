"""Crash damage between two cars (demo-derby.txt, Crash Damage), compiled, with its analysis
table (Monte Carlo beside the exact figures).

The procedure, in the rulebook's order:

1. The rammer rolls a d6 and reads the Damage Table in the column of its own speed: the cell
   gives the target's damage points and whether the target draws a special damage card (S).
2. One hit-location d6 per damage point, read in the column of the point of impact on the
   target; each point is crossed off the target's record sheet (overflow as ``pieces.sheet``).
3. The target then rolls a d6, subtracts 1, and reads the same speed column (the rammer's):
   the rammer's damage points and S.
4. The rammer's hit locations are "determined and recorded in the same way". The part of the
   rammer that strikes is its front (its rear when it rams in reverse): cars move into the hex
   ahead of them, or behind when reversing, turning as they move. That is the default reading;
   variant ``rammer_hit_column=same_as_target`` reads the rammer's damage in the target's
   column instead.

Special damage cards are drawn from the top of a freshly shuffled 28-card deck (a uniformly
random card among those not yet drawn); a card's ``on_draw`` effect is applied at once
(Radiator Burst crosses the radiator; Blown Tire flattens a 1d4-chosen tire). Rolls that cannot
change the outcome are not made: no hit-location rolls or card draws for a car already out.

Reported per car: damage points (as the table gives them), whether a card was due, whether the
car is out (engine or trunk fully crossed), and whether its radiator is full (it stalls after
two more turns), from given starting sheets (fresh by default).

Three implementations: the compiled kernel here (``crash_once``; scripted-dice capable), and
in ``reference`` the readable ``crash_reference`` (runs on simkit.core.exact's dice objects)
and the exact oracle ``crash_exact`` which merges identical record sheets after every point
(the outcome depends on the order of points only through the sheet), which keeps it fast
enough to sit beside every Monte Carlo figure (``exact_row``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import NamedTuple

import numpy as np
import pandas as pd

from ..core import dice
from ..core._numba import jit
from ..core.blocks import sum_blocks
from ..core.stats import mean_ci, rate_ci
from .reference import _deck_classes, _oracle
from .rules import (ENGINE, IMPACTS, ON_DRAW_CROSS_RADIATOR, ON_DRAW_FLAT_RANDOM_TIRE, RADIATOR,
                    Tables, rammer_column)
from .pieces.sheet import apply_point, flat_tires, fresh_sheet, is_out, radiator_full

# --- per-car outcome columns ------------------------------------------------------------------
O_DAMAGE, O_SPECIAL, O_OUT, O_STALL, O_FLATS, O_ENGINE, O_CARDS = range(7)
N_OUT = 7
OUTCOME_FIELDS = ("damage", "special", "out", "stall", "flat_tires", "engine_crossed", "cards")


# ---------------------------------------------------------------------------------------------
# compiled kernel
# ---------------------------------------------------------------------------------------------
def new_deck(tables: Tables) -> np.ndarray:
    """A freshly shuffled deck as one int64 array: [pool (D) | returned FIFO (D) | n_pool,
    fifo_head, fifo_count]. The pool holds the never-drawn cards: the top card of a shuffled
    deck is a uniform pick among them. Cards given back go under the deck (the FIFO) and come
    up again only once the pool is empty."""
    d = tables.deck.shape[0]
    dk = np.zeros(2 * d + 3, np.int64)
    dk[:d] = tables.deck
    dk[2 * d] = d
    return dk


@jit
def draw_card(st, script, dk):
    """Draw the top card (-1 if every card is held by a car)."""
    d = (dk.shape[0] - 3) // 2
    n = dk[2 * d]
    if n > 0:
        i = 0
        if n > 1:  # a one-card pool leaves nothing to roll for
            i = dice.roll(st, script, 1, n) - 1
        c = dk[i]
        dk[i] = dk[n - 1]
        dk[n - 1] = c
        dk[2 * d] = n - 1
        return c
    cnt = dk[2 * d + 2]
    if cnt == 0:
        return -1
    head = dk[2 * d + 1]
    c = dk[d + head]
    dk[2 * d + 1] = (head + 1) % d
    dk[2 * d + 2] = cnt - 1
    return c


@jit
def return_card(dk, c):
    """Put a card back at the bottom of the deck."""
    d = (dk.shape[0] - 3) // 2
    head = dk[2 * d + 1]
    cnt = dk[2 * d + 2]
    dk[d + (head + cnt) % d] = c
    dk[2 * d + 2] = cnt + 1


class Hits(NamedTuple):
    """What damaging a car reads, ``H``: a narrow view of :class:`TableArrays` (numba passes a
    tuple's every member on every call, and this one is called for every crash)."""
    hit: np.ndarray
    capacity: np.ndarray
    overflow: np.ndarray
    on_draw: np.ndarray


@jit
def hit_tables(T):
    return Hits(T.hit, T.capacity, T.overflow, T.on_draw)


@jit
def _damage_car(st, script, dmg, ns, column, H, sheet, dk, out, off, card_off):
    """Damage one car by ``dmg`` points, drawing a card if ``ns`` (a damage-table cell); cards
    drawn go to out[card_off:card_off+2]. ``H``: :func:`hit_tables`."""
    hit, capacity, overflow, on_draw = H.hit, H.capacity, H.overflow, H.on_draw
    for _ in range(dmg):
        if is_out(sheet, capacity):
            break
        apply_point(sheet, capacity, overflow, hit[dice.d6(st, script), column])
    cards = 0
    out[card_off] = -1
    out[card_off + 1] = -1
    for _ in range(ns):
        if is_out(sheet, capacity):
            break
        c = draw_card(st, script, dk)
        if c < 0:
            break
        if cards < 2:
            out[card_off + cards] = c
        cards += 1
        eff = on_draw[c]
        if eff == ON_DRAW_CROSS_RADIATOR:
            sheet[RADIATOR] = capacity[RADIATOR]
        elif eff == ON_DRAW_FLAT_RANDOM_TIRE:
            if flat_tires(sheet, capacity) < 4:
                t = dice.roll(st, script, 1, 4) - 1
                sheet[t] = capacity[t]
    out[off + O_DAMAGE] = dmg
    out[off + O_SPECIAL] = 1 if ns > 0 else 0
    out[off + O_OUT] = 1 if is_out(sheet, capacity) else 0
    out[off + O_STALL] = 1 if radiator_full(sheet, capacity) else 0
    out[off + O_FLATS] = flat_tires(sheet, capacity)
    out[off + O_ENGINE] = sheet[ENGINE]
    out[off + O_CARDS] = cards


#: out array of crash_once: target outcome, rammer outcome, target's cards, rammer's cards
OUT_SIZE = 2 * N_OUT + 4
CARDS_T = 2 * N_OUT
CARDS_R = 2 * N_OUT + 2


class Impact(NamedTuple):
    """Where one crash is read, ``IM``: three scalars, which cross a compiled call for free."""
    speed: int     # the column of ``damage``/``special``
    t_col: int     # the target's hit-location column (the point of impact)
    r_col: int     # the rammer's


@jit
def crash_once(st, script, IM, damage, special, H, sheet_t, sheet_r, dk, out):
    """One crash read in column ``IM.speed`` of ``damage``/``special`` (the Damage Table, or
    Vector Collisions' extended one); sheets and deck are updated in place; out[0:7] target,
    out[7:14] rammer, out[14:16] / out[16:18] the card types each drew (-1 none). ``IM``:
    :class:`Impact`; ``H``: :func:`hit_tables`."""
    speed, t_col, r_col = IM.speed, IM.t_col, IM.r_col
    row = dice.d6(st, script)
    _damage_car(st, script, damage[row, speed], special[row, speed], t_col, H, sheet_t, dk, out,
                0, CARDS_T)
    row = dice.d6(st, script) - 1
    _damage_car(st, script, damage[row, speed], special[row, speed], r_col, H, sheet_r, dk, out,
                N_OUT, CARDS_R)


@jit
def _outcomes(key, first, n, speed, t_col, r_col, T, sheet_t0, sheet_r0, deck0):
    """Per-trial outcomes of one crash cell (tests hold these to the exact oracle)."""
    res = np.zeros((n, OUT_SIZE), np.int64)
    st = np.zeros(dice.STATE_SIZE, np.uint64)
    H = hit_tables(T)
    for i in range(n):
        dice.seed_trial(st, key, first + i)
        crash_once(st, dice.NO_SCRIPT, Impact(speed, t_col, r_col), T.damage, T.special, H,
                   sheet_t0.copy(), sheet_r0.copy(), deck0.copy(), res[i])
    return res


# statistics per cell
(S_SUM_DT, S_SQ_DT, S_SPEC_T, S_OUT_T, S_STALL_T,
 S_SUM_DR, S_SQ_DR, S_SPEC_R, S_OUT_R, S_STALL_R) = range(10)
N_STATS = 10


@jit
def _crash_block(key, lo, hi, speeds, t_cols, r_cols, T, sheet_t0, sheet_r0, deck0, acc):
    n_cells = speeds.shape[0]
    st = np.zeros(dice.STATE_SIZE, np.uint64)
    o = np.zeros(OUT_SIZE, np.int64)
    sheet_t = np.empty_like(sheet_t0)
    sheet_r = np.empty_like(sheet_r0)
    deck = np.empty_like(deck0)
    H = hit_tables(T)
    for i in range(lo, hi):
        for c in range(n_cells):
            dice.seed_trial(st, key, i)
            sheet_t[:] = sheet_t0
            sheet_r[:] = sheet_r0
            deck[:] = deck0
            crash_once(st, dice.NO_SCRIPT, Impact(speeds[c], t_cols[c], r_cols[c]), T.damage,
                       T.special, H, sheet_t, sheet_r, deck, o)
            k = c * N_STATS
            dt = o[O_DAMAGE]
            dr = o[N_OUT + O_DAMAGE]
            acc[k + S_SUM_DT] += dt
            acc[k + S_SQ_DT] += dt * dt
            acc[k + S_SPEC_T] += o[O_SPECIAL]
            acc[k + S_OUT_T] += o[O_OUT]
            acc[k + S_STALL_T] += o[O_STALL]
            acc[k + S_SUM_DR] += dr
            acc[k + S_SQ_DR] += dr * dr
            acc[k + S_SPEC_R] += o[N_OUT + O_SPECIAL]
            acc[k + S_OUT_R] += o[N_OUT + O_OUT]
            acc[k + S_STALL_R] += o[N_OUT + O_STALL]


def _crash_chunk(key, first, n, speeds, t_cols, r_cols, T, sheet_t0, sheet_r0, deck0):
    """Summed integer statistics of ``n`` trials; each trial crashes once in every cell, all
    cells replaying the trial's own stream (common random numbers across cells)."""
    return sum_blocks(lambda lo, hi, acc: _crash_block(
        key, lo, hi, speeds, t_cols, r_cols, T, sheet_t0, sheet_r0, deck0, acc), first, n,
        speeds.shape[0] * N_STATS)


class TableArrays(NamedTuple):
    """The rule tables compiled code reads (``rules.Tables``), passed as one argument ``T``.
    Defined at module level so numba's on-disk cache can name its type."""
    damage: np.ndarray        # [roll, column] damage points
    special: np.ndarray       # [roll, column] 1 if a special damage card is due
    hit: np.ndarray           # [roll, impact] hit location
    capacity: np.ndarray      # [location] boxes on the record sheet
    overflow: np.ndarray      # [location] where a point goes once the location is full
    on_draw: np.ndarray       # [card type] effect applied when drawn
    card_die: np.ndarray      # [card, d6] 1 if that roll ends the card
    card_light: np.ndarray    # [card] light colour
    card_effect: np.ndarray   # [card] effect kind
    card_param: np.ndarray    # [card] effect parameter
    ext_damage: np.ndarray    # Vector Collisions: extended damage table
    ext_special: np.ndarray
    vec_sign: np.ndarray      # [impact] sign of the target's speed in the column
    vec_div: np.ndarray       # [impact] divisor of the target's speed
    phases: np.ndarray        # [speed, phase] 1 if that speed moves in that phase


def kernel_tables(tables: Tables) -> TableArrays:
    """The :class:`TableArrays` of a ``rules.Tables``."""
    return TableArrays(tables.damage, tables.special, tables.hit, tables.capacity,
                       tables.overflow, tables.card_on_draw, tables.card_die, tables.card_light,
                       tables.card_effect, tables.card_param, tables.ext_damage,
                       tables.ext_special, tables.vec_sign, tables.vec_div, tables.phases)


def crash_scripted(tables: Tables, rolls, speed: int, impact: int, *, reverse: bool = False,
                   sheet_t=None, sheet_r=None):
    """Replay one crash with scripted dice through the compiled kernel.

    Returns (outcome array, target sheet, rammer sheet, rolls used)."""
    st = dice.scripted_state()
    script = dice.as_script(rolls)
    st_t = fresh_sheet() if sheet_t is None else np.asarray(sheet_t, np.int64).copy()
    st_r = fresh_sheet() if sheet_r is None else np.asarray(sheet_r, np.int64).copy()
    out = np.zeros(OUT_SIZE, np.int64)
    T = kernel_tables(tables)
    IM = Impact(np.int64(speed), np.int64(impact), np.int64(rammer_column(tables, impact, reverse)))
    crash_once(st, script, IM, T.damage, T.special, hit_tables(T), st_t, st_r, new_deck(tables),
               out)
    return out, st_t, st_r, dice.script_position(st)


# ---------------------------------------------------------------------------------------------
# the analysis: every speed x point of impact
# ---------------------------------------------------------------------------------------------
@dataclass
class CrashSimulation:
    """All (speed, impact) cells of the crash table as one runner Simulation."""

    tables: Tables
    speeds: list = field(default_factory=lambda: list(range(1, 9)))
    impacts: list = field(default_factory=lambda: list(range(len(IMPACTS))))
    reverse: bool = False
    sheet_t: np.ndarray = field(default_factory=fresh_sheet)
    sheet_r: np.ndarray = field(default_factory=fresh_sheet)
    target_speed: int = 0          # used by the Vector Collisions variant only
    name: str = "demo-derby crash"

    def __post_init__(self):
        cells = [(s, i) for s in self.speeds for i in self.impacts]
        self.cells = cells
        if self.tables.vector_collisions:
            # the extended table, read in the column the relative speeds give
            self.columns = [self.tables.vector_column(s, i, self.target_speed) for s, i in cells]
            self.tables = self.tables.as_vector()
        else:
            self.columns = [s for s, _ in cells]
        self._speeds = np.array(self.columns, np.int64)
        self._tcols = np.array([i for _, i in cells], np.int64)
        self._rcols = np.array([rammer_column(self.tables, i, self.reverse) for _, i in cells],
                               np.int64)
        self.n_stats = len(cells) * N_STATS

    def chunk(self, key, first, n):
        return _crash_chunk(np.uint64(key), first, n, self._speeds, self._tcols, self._rcols,
                            kernel_tables(self.tables), np.asarray(self.sheet_t, np.int64),
                            np.asarray(self.sheet_r, np.int64), new_deck(self.tables))

    def summarise(self, totals, n_trials, exact: bool = True):
        tot = np.asarray(totals).reshape(len(self.cells), N_STATS)
        rows = []
        for c, (speed, impact) in enumerate(self.cells):
            t = tot[c]
            row = {"speed": speed, "impact": IMPACTS[impact],
                   "rammer_column": IMPACTS[int(self._rcols[c])],
                   "table_column": int(self.columns[c]), "trials": n_trials}
            for side, s_sum, s_sq in (("target", S_SUM_DT, S_SQ_DT), ("rammer", S_SUM_DR, S_SQ_DR)):
                m, lo, hi = mean_ci(t[s_sum], t[s_sq], n_trials)
                row[f"mean_damage_{side}"] = float(m)
                row[f"mean_damage_{side}_lo"] = float(lo)
                row[f"mean_damage_{side}_hi"] = float(hi)
            for name, idx in (("p_special_target", S_SPEC_T), ("p_special_rammer", S_SPEC_R),
                              ("p_out_target", S_OUT_T), ("p_out_rammer", S_OUT_R),
                              ("p_stall_target", S_STALL_T), ("p_stall_rammer", S_STALL_R)):
                lo, hi = rate_ci(t[idx], n_trials)
                row[name] = t[idx] / n_trials
                row[f"{name}_lo"] = float(lo)
                row[f"{name}_hi"] = float(hi)
            if exact:
                row.update(exact_row(self.tables, int(self.columns[c]), impact, self.reverse,
                                     tuple(int(x) for x in self.sheet_t),
                                     tuple(int(x) for x in self.sheet_r)))
            rows.append(row)
        frame = pd.DataFrame(rows)
        return frame[_ordered(frame.columns)]


def _ordered(cols):
    first = ["speed", "impact", "rammer_column"]
    stats_ = ["mean_damage_target", "mean_damage_rammer", "p_special_target", "p_special_rammer",
              "p_out_target", "p_out_rammer", "p_stall_target", "p_stall_rammer"]
    out = list(first)
    for s in stats_:
        out += [c for c in (s, f"{s}_lo", f"{s}_hi", f"{s}_exact") if c in cols]
    return out + [c for c in cols if c not in out]


def exact_row(tables: Tables, speed, impact, reverse=False, sheet_t=None, sheet_r=None,
              num=float) -> dict:
    """The exact figures of one cell for the analysis table (``num=Fraction`` for rationals).

    Marginals only, so the rammer is summed over the decks the target may leave rather than
    paired with every target outcome (``crash_exact`` gives the full joint)."""
    orc = _oracle(tables, num)
    st = tuple(int(x) for x in (fresh_sheet() if sheet_t is None else sheet_t))
    sr = tuple(int(x) for x in (fresh_sheet() if sheet_r is None else sheet_r))
    deck0 = _deck_classes(tables)
    rcol = rammer_column(tables, impact, reverse)
    target: dict = {}
    decks: dict = {}
    for (o, dk), p in orc.car(st, impact, speed, (1, 2, 3, 4, 5, 6), deck0).items():
        target[o] = target.get(o, 0) + p
        decks[dk] = decks.get(dk, 0) + p
    rammer: dict = {}
    for dk, p in decks.items():
        for (o, _), q in orc.car(sr, rcol, speed, (0, 1, 2, 3, 4, 5), dk).items():
            rammer[o] = rammer.get(o, 0) + p * q
    out = {}
    for side, dist in (("target", target), ("rammer", rammer)):
        out[f"mean_damage_{side}_exact"] = num(sum(p * o[O_DAMAGE] for o, p in dist.items()))
        for name, col in (("special", O_SPECIAL), ("out", O_OUT), ("stall", O_STALL)):
            out[f"p_{name}_{side}_exact"] = num(sum(p for o, p in dist.items() if o[col]))
    if num is float:  # drop the last-bit noise of float weights (rationals are exact anyway)
        out = {k: round(v, 13) for k, v in out.items()}
    return out


def crash_table(tables: Tables, n_trials: int, seed: int, *, speeds=None, impacts=None,
                reverse: bool = False, target_speed: int = 0, **run_opts):
    """Monte Carlo (95% intervals) beside the exact figures for every speed x impact."""
    from ..core.runner import run
    sim = CrashSimulation(tables, list(speeds or range(1, tables.max_speed + 1)),
                          list(impacts if impacts is not None else range(len(IMPACTS))), reverse,
                          target_speed=target_speed)
    return run(sim, n_trials, seed, **run_opts)
