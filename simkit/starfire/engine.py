"""Compiled Starfire battles: whole games over trials (starfire.txt (3.0)-(12.6)).

One trial is one battle from the scenario's set-up. Each turn runs the sequence of play (3.1):

1. **Initiative** (3.21, 10.1): each side rolls a die, ties re-rolled among the tied, unless the
   scenario gives one side the initiative every turn. Order of movement is the reverse of the
   order of fire.
2. **Arrivals** (9.4): ships due this turn are placed on their warp point.
3. **Movement** (4.0-4.8): movement points = intact Ion Engines; every point is spent, moving
   into the faced hex or in place; a facing change of one hexside needs turn-mode points spent
   in the current direction (carried over between turns); or the ship turns in place to any
   facing and spends all its points (4.5). Points are spent one at a time, side by side, the
   initiative loser first (4.6). No leaving the map (4.1) unless the map is unbounded (12.3);
   never within four hexes of a Star (9.3) unless the scenario allows it; Bases never move
   (9.1). A ship entering (or spending a point in place on) its side's exit warp point may leave
   (9.4): the admirals leave where the objective rewards it (_heads_out). Tractored ships move as
   (8.3) says (below). With simultaneous movement (12.5) every ship plans from the positions at
   the start of the phase.
4. **Combat** (5.0-5.8): sides alternate, initiative winner first, each firing all the weapons
   of one ship (hits take effect at once, so a destroyed system cannot fire later in the phase);
   one target per ship unless Multiplex Tracking (Mn) allows n, plus any ship it holds in a
   Tractor Beam; Primary Beams every other turn (6.5); Gun-Missile Launchers choose their
   ammunition each turn (6.3); DataLink groups (12.2) fire together, their Missiles one volley
   for Point Defense and their Energy Beams one volley for Overload Dampeners, each member
   within 3 hexes of another firing member with a working DataLink; a member that joined a
   volley keeps that target for the turn (5.5); optional restricted field of fire (12.6) and Planets/Stars blocking fire (12.4).
5. **Tractor Beams** (8.3-8.4): each intact Tractor Beam may latch onto one enemy ship at range
   0-5 that has no intact Shearing Plane and is not a Base.
6. **Record keeping** (3.25): optional Damage Control (12.1) restores one Shield hit on a ship
   undamaged for three consecutive turns; scans (8.6) are recorded at the end of movement.

Tractor links (8.3): the ships joined by links form chains; the largest ship (hull spaces) of a
chain moves normally and the others shut down their engines and follow it on an identical
course (a course that would drag a held ship off the map is illegal); if two ships tie for
largest, nothing in the chain moves; nor does a chain that holds a Base, which cannot move
(9.1). After movement each ship smaller than (or equal to) a ship it is linked with, or held by
a Base, is pulled one hex closer, only if the hex is closer to every ship it is linked with; a
Base is never pulled. Ranges for the Probability of Hit table are reduced by 3 for the tractoring ship
and increased by 3 for the held ship firing back; missiles between them hit automatically; a
tractoring ship adjacent to its held target designates the system each Primary Beam hits.
A link breaks when either ship is destroyed or leaves, or the tractoring ship has fewer intact
Tractor Beams than links. Ships in a tractor link do not leave by warp point (9.4 allows it
only in a special case; simkit forbids it outright: documented in docs/rules/starfire.md).

Victory (per side objective): ``destroy`` -- decisive when every enemy ship is destroyed, minor
when at the end it has destroyed more enemy hull spaces than it lost (and at least one ship);
``scan_and_exit`` -- decisive when every scan target was scanned and a ship left by the exit
warp point, minor when a ship left without all scans; ``survive`` -- decisive when a ship is on
the map at the turn limit. The side with the highest level wins; equal levels are a draw.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple

import numpy as np
import pandas as pd

from ..core import dice, eventlog, stats
from ..core._numba import jit
from ..core.blocks import sum_blocks
from .pieces.hexmap import bearing_off_facing, distance, in_rear_arc, line_passes, neighbour
from .policies import (I_CAUTION, I_ENGAGE, I_FLEET, I_HORIZON, I_RETREAT, I_W_POINTS,
                       I_W_THREAT, P_CLOSER, P_OBJECTIVE, P_SCRIPTED, P_STANDOFF,
                       P_LOOKAHEAD, I_ROLLOUTS, I_DEPTH, I_MARGIN, I_MODEL, N_PARAMS, PARAMS)
from .procedures import kernel_tables
from .procedures import Shot, resolve_volley_call as resolve_volley
from .rules import CODE, ENERGY, FORCE, GUN, LASER, MISSILE, PRIMARY, combat_tables
from .scenario import Scenario, to_arrays

# ship_int columns (scenario.SHIP_FIELDS)
SI_SIDE, SI_COL, SI_ROW, SI_FACING, SI_ARRIVES, SI_DL, SI_BASE, SI_SIZE, SI_TM, SI_ZOK, SI_PROG = (
    range(11))
SI_ESCORT = 11
# opt columns (scenario.OPTIONS + map + turns + initiative)
O_DC, O_BLOCK, O_SIMUL, O_REAR, O_STAR, O_UNBOUNDED, O_COLS, O_ROWS, O_TURNS, O_INIT = range(10)
# status of a ship
NOT_ARRIVED, ON_MAP, DESTROYED, EXITED = 0, 1, 2, 3

C_G, C_R, C_W, C_F, C_P, C_L, C_E = (CODE[c] for c in "GRWFPLE")
C_T, C_C, C_X, C_I, C_Z, C_D, C_S, C_M = (CODE[c] for c in "TCXIZDSM")

# log event kinds
EV_TURN, EV_ARRIVE, EV_MOVE, EV_STAY, EV_TURNFACE, EV_PIVOT, EV_EXIT = 1, 2, 3, 4, 5, 6, 7
EV_FIRE, EV_DESTROYED, EV_TRACTOR, EV_SCAN, EV_REPAIR, EV_END, EV_DRAG, EV_PULL = (
    8, 9, 10, 11, 12, 13, 14, 15)
EV_RELEASE = 16
LOG_W = eventlog.WIDTH
LOG_ROLLS = eventlog.G   # a shot's dice: first roll * 1000 + the roll after its last
MAX_RANGE = 20
# sentinels: what a -1 (or a far-off turn) means where a function answers one
NO_SHIP = -1        # no ship qualifies (target, nearest enemy, chain leader)
NO_SCAN = -1        # no scan target left to achieve
NO_SYSTEM = -1      # no system left to designate
CANNOT_FIRE = -1    # a weapon family cannot fire at this range (tables and _shot_params)
NEVER = 1 << 30     # a side never fired upon yet
DRAW = -1           # result[RES_WINNER] of a drawn battle
# result slots of play: the outcome, then a scripted move that broke the rules (fault != 0)
RES_WINNER, RES_LEVEL, RES_TURNS, RES_FAULT, RES_FAULT_SHIP, RES_FAULT_TURN = range(6)
FAULT_NO_MOVE, FAULT_TURN_MODE, FAULT_ILLEGAL_HEX = 1, 2, 3


# The compiled functions pass these few named structures instead of dozens of arrays. They are
# module-level classes so numba's on-disk cache can name their types. Tuples are immutable, so
# every value that changes during a battle is an array (scalars as one-element arrays).

class Fleet(NamedTuple):
    """One scenario's set-up, read only (``scenario.to_arrays``)."""
    si: np.ndarray          # int64[ship, SI_*]
    side_int: np.ndarray    # int64[side, 4]: objective, holds fire, exit object, policy id
    side_par: np.ndarray    # float64[side, k]: policy parameters
    codes: np.ndarray       # int64[ship, system]: system codes
    nsys: np.ndarray        # int64[ship]: systems on its sheet
    run_end: np.ndarray     # int64[ship, system]: Hold runs (8.1)
    mult: np.ndarray        # int64[ship]: targets its Multiplex Tracking allows
    obj: np.ndarray         # int64[object, 3]: kind, col, row
    scan: np.ndarray        # int64[side, k, 2]: scan targets (kind, index), kind -1 none
    opt: np.ndarray         # int64[O_*]
    moves: np.ndarray       # int64[ship, turn, point]: scripted moves
    ev: np.ndarray          # float64[family, range]: expected half points of one weapon


class State(NamedTuple):
    """One battle's changing state, and the scratch arrays its phases share."""
    hp: np.ndarray          # int64[ship, system]: 2 intact, 1 circled, 0 destroyed
    status: np.ndarray      # int64[ship]: NOT_ARRIVED, ON_MAP, DESTROYED, EXITED
    col: np.ndarray
    row: np.ndarray
    fac: np.ndarray
    prog: np.ndarray        # turn-mode points spent in the current direction
    link: np.ndarray        # int64[holder, held]: tractor links
    prim_last: np.ndarray   # turn its Primary Beams last fired
    last_dmg: np.ndarray    # turn it was last damaged (12.1)
    fired: np.ndarray       # fired this combat phase
    mspent: np.ndarray      # int64[ship, 2]: DataLink volley joined: target + 1, families
    fired_upon: np.ndarray  # int64[side]: first turn it was fired on (NEVER)
    scanned: np.ndarray     # int64[side, k]
    order: np.ndarray       # int64[side]: this turn's order of fire
    pcol: np.ndarray        # positions plans see (start of movement, or of the point)
    prow: np.ndarray
    mp: np.ndarray
    pivoted: np.ndarray
    comp: np.ndarray        # a tractor chain (_component)
    goal: np.ndarray        # int64[3]: _plan's goal hex and desired range
    shipev: np.ndarray      # float64[ship, range]: _fill_ship_ev
    pd_fired: np.ndarray
    out: np.ndarray         # int64[3]: resolve_volley's result
    chosen: np.ndarray      # targets one ship chose this turn
    pick: np.ndarray        # float64[2]: _pick_target's (ship, score)
    mode: np.ndarray        # int64[ship]: this movement phase's _heads_out (_fill_modes)
    force: np.ndarray       # int64[side]: the look-ahead admiral's range for its fighting
                            # ships this turn (-1: the closer's own plan)


class Log(NamedTuple):
    """The event log (empty arrays when not logging): rows, row count, target sheets."""
    log: np.ndarray
    logn: np.ndarray
    hpsnap: np.ndarray


@jit
def _log(log, logn, kind, turn, a, b, c, d, e, f, g):
    """One event in the shared layout (:mod:`simkit.core.eventlog`): no phase, ``a`` (the ship,
    or the first side of an initiative) as the actor, ``b``-``g`` as its a-f; column g holds a
    shot's dice (``LOG_ROLLS``), written after the event."""
    eventlog.write_event(log, logn, (turn, -1, a, kind, b, c, d, e, f, g, 0))


@jit
def _tie(st, script, k):
    """The k-th of k equally scored candidates replaces the kept one with probability 1/k
    (uniform among ties), from the dice stream; never in scripted dice mode (fixed scripts)."""
    if st[dice.MODE] == dice.MODE_SCRIPTED:
        return False
    return dice.roll(st, script, 1, k) == 1


@jit
def _count(codes, hp, s, nsys, code):
    n = 0
    for j in range(nsys[s]):
        if codes[s, j] == code and hp[s, j] > 0:
            n += 1
    return n


@jit
def _intact(hp, s, nsys):
    n = 0
    for j in range(nsys[s]):
        if hp[s, j] > 0:
            n += 1
    return n


@jit
def _sys_ev(c, ev, r):
    """Expected half points per turn of one intact system with code c at range r."""
    if r > MAX_RANGE:
        return 0.0
    if c == C_G:
        return ev[GUN, r]
    if c == C_R:
        return ev[MISSILE, r]
    if c == C_W:
        return max(ev[GUN, r], ev[MISSILE, r])
    if c == C_F:
        return ev[FORCE, r]
    if c == C_P:
        return ev[PRIMARY, r] * 0.5  # every other turn
    if c == C_L:
        return ev[LASER, r]
    if c == C_E:
        return ev[ENERGY, r]
    return 0.0


@jit
def _ship_ev(codes, hp, nsys, ev, s, r):
    """Expected half points per turn of ship s's surviving weapons at range r (no defences)."""
    if r > MAX_RANGE:
        return 0.0
    tot = 0.0
    for j in range(nsys[s]):
        if hp[s, j] > 0:
            tot += _sys_ev(codes[s, j], ev, r)
    return tot


@jit
def _armed(codes, hp, nsys, s):
    for j in range(nsys[s]):
        c = codes[s, j]
        if hp[s, j] > 0 and (c == C_G or c == C_R or c == C_W or c == C_F or c == C_P
                             or c == C_L or c == C_E):
            return True
    return False


@jit
def _nearest_enemy(si, status, s, gcol, grow, shipev, st, script):
    """The enemy ship on the map nearest to s; among equally near ones the one with the most
    fire at that range (the threat to plan against), then the dice stream (_tie), so the
    answer never depends on the order ships are listed."""
    best = NO_SHIP
    bd = 1 << 30
    bf = 0.0
    nties = 1
    for t in range(status.shape[0]):
        if status[t] == ON_MAP and si[t, SI_SIDE] != si[s, SI_SIDE]:
            d = distance(gcol[s], grow[s], gcol[t], grow[t])
            f = shipev[t, min(d, MAX_RANGE)]
            if d < bd or (d == bd and f > bf + 1e-12):
                bd = d
                bf = f
                best = t
                nties = 1
            elif d == bd and f >= bf - 1e-12:
                nties += 1
                if _tie(st, script, nties):
                    best = t
    return best


@jit
def _open_scan(codes, hp, nsys, si, scan, scanned, status, s):
    """The first scan target ship s can still achieve (8.6): it needs intact Science
    Instruments and a target not yet scanned that is an object or a ship still on the map."""
    if _count(codes, hp, s, nsys, C_X) == 0:
        return NO_SCAN
    side = si[s, SI_SIDE]
    for k in range(scan.shape[1]):
        kind = scan[side, k, 0]
        if kind < 0 or scanned[side, k] == 1:
            continue
        if kind == 0 or status[scan[side, k, 1]] == ON_MAP:
            return k
    return NO_SCAN


@jit
def _fill_ship_ev(codes, hp, nsys, ev, shipev, prim_ready):
    """shipev[s, r]: ship s's expected half points this turn at range r, fixed through a
    movement phase (no damage is taken). Primary Beams fire every other turn (6.5): they count
    in full in a turn they can fire (``prim_ready[s]``) and not at all in one they cannot, so
    a Primary ship closes when its beams are ready and its enemies close on it when they are
    spent (elsewhere, _sys_ev counts them at half, their average)."""
    for s in range(shipev.shape[0]):
        np_beams = 0
        for j in range(nsys[s]):
            if codes[s, j] == C_P and hp[s, j] > 0:
                np_beams += 1
        for r in range(MAX_RANGE + 1):
            shipev[s, r] = _ship_ev(codes, hp, nsys, ev, s, r)
            if np_beams > 0:
                shipev[s, r] += np_beams * ev[PRIMARY, r] * (0.5 if prim_ready[s] else -0.5)


@jit
def _exchange(mine, theirs, ns, nt, first, horizon, caution, fixed):
    """Expected exchange of two ships at one range over ``horizon`` turns: damage dealt -
    caution * damage received (half points), each ship's fire shrinking with the share of its
    systems lost (ns, nt: its intact half points). ``first``: 1 when the first ship fires first
    this turn (initiative, 3.21), 0 when second, -1 unknown; later turns count as simultaneous
    (initiative is rolled anew) unless ``fixed`` (the scenario gives one side the initiative
    every turn, 3.21), when every turn keeps this turn's order."""
    x = 1.0
    y = 1.0
    dealt = 0.0
    recv = 0.0
    for h in range(horizon):
        if (h == 0 or fixed) and first == 1:
            d1 = mine * x
            y = max(0.0, y - d1 / nt)
            d2 = theirs * y
            x = max(0.0, x - d2 / ns)
        elif (h == 0 or fixed) and first == 0:
            d2 = theirs * y
            x = max(0.0, x - d2 / ns)
            d1 = mine * x
            y = max(0.0, y - d1 / nt)
        else:
            d1 = mine * x
            d2 = theirs * y
            x = max(0.0, x - d2 / ns)
            y = max(0.0, y - d1 / nt)
        dealt += d1
        recv += d2
    return dealt - caution * recv


@jit
def _plan(F, S, s, first, st, script):
    """Policy: goal hex and desired distance for ship s, from positions (pcol, prow); ``first``:
    1 when s's side fires first this turn, 0 when it fires later, -1 unknown.

    Keeping out of reach (a range where s cannot fire) is a choice only when it can be held or
    pays: s is faster than its enemy, its side wins by surviving, or the initiative is rolled
    each turn (keep away this turn, fight when the dice give the initiative). Otherwise the
    enemy, moving as fast and (with the initiative fixed to it) always last, chooses the range
    in the end: s fights at the range where the exchange is least bad."""
    si, side_int, side_par, codes, nsys, obj, scan, opt = (F.si, F.side_int, F.side_par, F.codes,
                                                           F.nsys, F.obj, F.scan, F.opt)
    hp, shipev, scanned, status, pcol, prow, goal = (S.hp, S.shipev, S.scanned, S.status, S.pcol,
                                                     S.prow, S.goal)
    side = si[s, SI_SIDE]
    pid = side_int[side, 3]
    par = side_par[side]
    goal[0] = pcol[s]
    goal[1] = prow[s]
    goal[2] = 0
    mode = S.mode[s]
    if mode != FIGHT:
        k = _open_scan(codes, hp, nsys, si, scan, scanned, status, s) if mode == SCAN_EXIT else -1
        if k >= 0:
            idx = scan[side, k, 1]
            if scan[side, k, 0] == 0:
                goal[0] = obj[idx, 1]
                goal[1] = obj[idx, 2]
            else:
                goal[0] = pcol[idx]
                goal[1] = prow[idx]
            goal[2] = int(par[0])
            return True
        e = side_int[side, 2]
        if e >= 0:
            goal[0] = obj[e, 1]
            goal[1] = obj[e, 2]
            goal[2] = 0
            return True
    t = _nearest_enemy(si, status, s, pcol, prow, shipev, st, script)
    if t < 0:
        return False
    goal[0] = pcol[t]
    goal[1] = prow[t]
    if pid == P_STANDOFF:
        goal[2] = int(par[0])
    else:
        caution, horizon, fleet, engage = 1.0, 3, 0.0, 0.0
        if pid == P_CLOSER or pid == P_LOOKAHEAD:
            caution = par[I_CAUTION]
            horizon = int(par[I_HORIZON])
            fleet = par[I_FLEET]
            engage = par[I_ENGAGE]
        ns = 2.0 * _intact(hp, s, nsys)
        nt = 2.0 * _intact(hp, t, nsys)
        # the fleets: every ship of each side on the map
        fs, ft = _fleets(si, hp, status, nsys, side)
        fixed = opt[O_INIT] >= 0
        can_hide = (first < 0 or opt[O_INIT] < 0 or side_int[side, 0] == 2
                    or _count(codes, hp, s, nsys, C_I) > _count(codes, hp, t, nsys, C_I))
        # a cornered ship (can_hide false) fights only at ranges where its fire is at least
        # ``engage`` x its best: with no way out, the fight should happen where it can hurt
        top = 0.0
        for r in range(MAX_RANGE + 1):
            top = max(top, shipev[s, r])
        best = 0
        bscore = -1e18
        bmine = 0.0
        for r in range(MAX_RANGE + 1):
            if not can_hide and (shipev[s, r] <= 0.0 or shipev[s, r] < engage * top):
                continue
            sc = _exchange(shipev[s, r], shipev[t, r], ns, nt, first, horizon, caution, fixed)
            if fleet > 0.0:
                # the fleet's exchange: every ship at this range from the enemy's
                ms, mt = _fleet_fire(si, shipev, status, side, r)
                sc = ((1.0 - fleet) * sc + fleet * _exchange(ms, mt, fs, ft, first, horizon,
                                                             caution, fixed) * ns / fs)
            mine = shipev[s, r]
            # ties: the range where s deals the most, then the nearer
            if sc > bscore + 1e-12 or (abs(sc - bscore) <= 1e-12 and mine > bmine + 1e-12):
                bscore = sc
                best = r
                bmine = mine
        if shipev[s, best] <= 0.0:
            best = MAX_RANGE  # nothing to shoot with: keep away
        elif S.force[side] >= 0:
            best = S.force[side]  # the range its look-ahead admiral chose for the fleet
        elif pid == P_CLOSER or pid == P_LOOKAHEAD:
            best = max(0, best + int(par[1]))
        goal[2] = best
    return True


# what a ship is about, from _heads_out: fight, go for the scans then the exit, leave now
FIGHT, SCAN_EXIT, RETREAT = 0, 1, 2


@jit
def _fleets(si, hp, status, nsys, side):
    """Intact half points of ``side``'s ships on the map and of its enemies'."""
    fs = 0.0
    ft = 0.0
    for q in range(status.shape[0]):
        if status[q] == ON_MAP:
            if si[q, SI_SIDE] == side:
                fs += 2.0 * _intact(hp, q, nsys)
            else:
                ft += 2.0 * _intact(hp, q, nsys)
    return fs, ft


@jit
def _fleet_fire(si, shipev, status, side, r):
    """Expected fire at range ``r`` of ``side``'s ships on the map and of its enemies'."""
    ms = 0.0
    mt = 0.0
    for q in range(status.shape[0]):
        if status[q] == ON_MAP:
            if si[q, SI_SIDE] == side:
                ms += shipev[q, r]
            else:
                mt += shipev[q, r]
    return ms, mt


@jit
def _side_odds(F, S, side, horizon):
    """The side's best share of the fleets' expected exchange over ``horizon`` turns: at each
    range, every ship of each side on the map firing at it (``shipev``), each side's fire
    shrinking with its fleet's losses (_exchange, initiative unknown), dealt / (dealt +
    received); the best range's share. 1 when no enemy can fire at any range, 0 when only the
    enemy can."""
    si, nsys = F.si, F.nsys
    hp, status, shipev = S.hp, S.status, S.shipev
    fs, ft = _fleets(si, hp, status, nsys, side)
    if fs <= 0.0 or ft <= 0.0:
        return 1.0
    best = 0.0
    threat = False
    for r in range(MAX_RANGE + 1):
        ms, mt = _fleet_fire(si, shipev, status, side, r)
        if mt > 0.0:
            threat = True
        dealt = _exchange(ms, mt, fs, ft, -1, horizon, 0.0, False)
        recv = dealt - _exchange(ms, mt, fs, ft, -1, horizon, 1.0, False)
        if dealt + recv > 0.0:
            best = max(best, dealt / (dealt + recv))
    return best if threat else 1.0


@jit
def _fill_modes(F, S):
    """S.mode[s] = _heads_out for every ship on the map, once a movement phase (no damage is
    taken while ships move; computed here rather than in _plan's hot path)."""
    for s in range(S.status.shape[0]):
        S.mode[s] = _heads_out(F, S, s) if S.status[s] == ON_MAP else FIGHT


@jit
def _heads_out(F, S, s):
    """Whether ship s fights (FIGHT), goes for its side's scans and then its exit (SCAN_EXIT),
    or leaves by the exit now (RETREAT). Leaving (9.4) is considered only where the side's
    objective rewards it: ``scan_and_exit`` (a ship that leaves scores) or ``destroy`` (a ship
    that leaves is not lost, and its enemy cannot destroy every ship); ``survive`` scores ships
    on the map. A ship retreats when its share of intact systems, or its side's best share of
    the fleets' expected exchange (_side_odds: the fight is lost at every range), is at most its
    policy's ``retreat`` (0: never). Escorts, Bases and scripted ships never retreat. ``objective`` ships scan and exit;
    so does any ship of a ``scan_and_exit`` side once no enemy is left to fight."""
    si, side_int, side_par, nsys = F.si, F.side_int, F.side_par, F.nsys
    status = S.status
    side = si[s, SI_SIDE]
    pid = side_int[side, 3]
    if si[s, SI_ESCORT] == 1 or si[s, SI_BASE] == 1 or pid == P_SCRIPTED:
        return FIGHT
    kind = side_int[side, 0]
    if side_int[side, 2] >= 0 and kind != 2:
        ri = I_RETREAT[pid]
        if ri >= 0 and side_par[side, ri] > 0.0:
            # out of the fight: the ship half wrecked (at the default), or its side losing the
            # exchange at every range
            if _intact(S.hp, s, nsys) <= side_par[side, ri] * nsys[s]:
                return RETREAT
            horizon = (int(side_par[side, I_HORIZON]) if pid == P_CLOSER or pid == P_LOOKAHEAD
                       else 3)
            if _side_odds(F, S, side, horizon) <= side_par[side, ri]:
                return RETREAT
    if pid == P_OBJECTIVE:
        return SCAN_EXIT
    if kind == 1:
        for t in range(status.shape[0]):
            if si[t, SI_SIDE] != side and (status[t] == ON_MAP or status[t] == NOT_ARRIVED):
                return FIGHT
        return SCAN_EXIT
    return FIGHT


@jit
def _legal_hex(c, r, opt, obj):
    if opt[O_UNBOUNDED] == 0 and (c < 1 or r < 1 or c > opt[O_COLS] or r > opt[O_ROWS]):
        return False
    if opt[O_STAR] == 0:
        for o in range(obj.shape[0]):
            if obj[o, 0] == 0 and distance(c, r, obj[o, 1], obj[o, 2]) <= 4:
                return False
    return True


@jit
def _score_pos(c, r, f, goal):
    d = distance(c, r, goal[0], goal[1])
    off = abs(d - goal[2])
    b = bearing_off_facing(c, r, f, goal[0], goal[1]) / 180.0
    face = b if d >= goal[2] else 1.0 - b
    if d == 0:
        face = 0.0
    return -10.0 * off - face


@jit
def _component(link, status, s, comp):
    """Ships joined to s by tractor links (any direction), into comp; returns the count."""
    n = status.shape[0]
    comp[0] = s
    m = 1
    k = 0
    while k < m:
        a = comp[k]
        for b in range(n):
            if (link[a, b] or link[b, a]) and status[b] == ON_MAP:
                seen = False
                for q in range(m):
                    if comp[q] == b:
                        seen = True
                        break
                if not seen:
                    comp[m] = b
                    m += 1
        k += 1
    return m


@jit
def _leader(si, comp, m):
    """The largest ship of a tractor chain, or NO_SHIP when two tie for largest (8.3) or the chain
    holds a Base: a Base cannot move (9.1), so nothing linked to it moves in normal movement."""
    best = -1
    bsize = -1
    tie = False
    for q in range(m):
        if si[comp[q], SI_BASE] == 1:
            return NO_SHIP
        sz = si[comp[q], SI_SIZE]
        if sz > bsize:
            bsize = sz
            best = comp[q]
            tie = False
        elif sz == bsize:
            tie = True
    return NO_SHIP if tie else best


@jit
def _break_links(link, codes, hp, nsys, status, col, row, hit_number, effect_halves, st, script):
    """Links broken by the combat phase (8.3): every link of a ship that was destroyed or left,
    and, when a tractoring ship has fewer intact Tractor Beams than links, as many links as it
    lost beams. The book ties no link to a particular beam, so which links go is the holder's
    choice: it keeps those worth most to it and lets go the one that gains least
    (``_tractor_gain``, the same measure it latches and releases by), equal gains drawn by the
    dice stream (_tie), never by the order the held ships are listed in."""
    n = status.shape[0]
    for a in range(n):
        links = 0
        for b in range(n):
            if link[a, b]:
                if status[a] != ON_MAP or status[b] != ON_MAP:
                    link[a, b] = 0
                else:
                    links += 1
        beams = _count(codes, hp, a, nsys, C_T) if status[a] == ON_MAP else 0
        while links > beams:
            worst = NO_SHIP
            wg = 0.0
            nties = 1
            for b in range(n):
                if not link[a, b]:
                    continue
                g = _tractor_gain(codes, hp, nsys, hit_number, effect_halves, a, b,
                                  distance(col[a], row[a], col[b], row[b]))
                if worst < 0 or g < wg - 1e-12:
                    worst = b
                    wg = g
                    nties = 1
                elif g <= wg + 1e-12:
                    nties += 1
                    if _tie(st, script, nties):
                        worst = b
            link[a, worst] = 0
            links -= 1


@jit
def _linked(link, s):
    for b in range(link.shape[0]):
        if link[s, b] or link[b, s]:
            return True
    return False


@jit
def _dl_spread(si, codes, hp, nsys, status, col, row, s, c, r):
    """Hexes beyond 3 from hex (c, r) to ship s's nearest DataLink group mate (12.2), when s
    and that mate both have a working DataLink; 0 otherwise."""
    if si[s, SI_DL] == 0 or si[s, SI_ZOK] == 0 or _count(codes, hp, s, nsys, C_Z) == 0:
        return 0
    best = -1
    for m in range(status.shape[0]):
        if (m == s or status[m] != ON_MAP or si[m, SI_DL] != si[s, SI_DL] or si[m, SI_ZOK] == 0
                or si[m, SI_SIDE] != si[s, SI_SIDE] or _count(codes, hp, m, nsys, C_Z) == 0):
            continue
        d = distance(c, r, col[m], row[m])
        if best < 0 or d < best:
            best = d
    return max(0, best - 3)


@jit
def _move_phase(turn, F, S, result, st, script, L):
    """Ties between equally good moves or facings are broken by the dice stream (_tie), never
    by the order candidates are tried, so mirrored positions get mirrored choices."""
    si, side_int, codes, nsys, ev, obj, opt, moves = (F.si, F.side_int, F.codes, F.nsys, F.ev,
                                                      F.obj, F.opt, F.moves)
    hp, status, col, row, fac, prog, link = S.hp, S.status, S.col, S.row, S.fac, S.prog, S.link
    pcol, prow, mp, pivoted, comp, goal = S.pcol, S.prow, S.mp, S.pivoted, S.comp, S.goal
    shipev, prim_last, order = S.shipev, S.prim_last, S.order
    log, logn = L.log, L.logn
    nsides = side_int.shape[0]
    n = status.shape[0]
    prim_ready = np.empty(n, dtype=np.int64)
    for s in range(n):
        prim_ready[s] = 1 if turn - prim_last[s] >= 2 else 0  # (6.5) every other turn
    _fill_ship_ev(codes, hp, nsys, ev, shipev, prim_ready)
    _fill_modes(F, S)
    # snapshot for simultaneous movement (12.5); also the positions plans see when it is off
    for s in range(n):
        pcol[s] = col[s]
        prow[s] = row[s]
        mp[s] = 0
        pivoted[s] = 0
    maxmp = 0
    for s in range(n):
        if status[s] != ON_MAP or si[s, SI_BASE] == 1:
            continue
        m = _component(link, status, s, comp)
        if m > 1 and _leader(si, comp, m) != s:
            continue  # engines shut down: moved with the chain's leader (8.3)
        mp[s] = _count(codes, hp, s, nsys, C_I)
        if mp[s] > maxmp:
            maxmp = mp[s]
        if side_int[si[s, SI_SIDE], 3] == P_SCRIPTED:
            code = moves[s, turn, 0] if turn < moves.shape[1] else 0
            if code >= MV_PIVOT and mp[s] > 0:
                fac[s] = code - MV_PIVOT
                prog[s] = 0
                pivoted[s] = 1
                _log(log, logn, EV_PIVOT, turn, s, col[s], row[s], fac[s], mp[s], 0, 0)
            continue
        # (4.5): turn in place when the goal is behind and the turn mode is far from satisfied
        if mp[s] > 0 and _plan(F, S, s, 1 if order[0] == si[s, SI_SIDE] else 0, st, script):
            d = distance(col[s], row[s], goal[0], goal[1])
            b = bearing_off_facing(col[s], row[s], fac[s], goal[0], goal[1])
            want_away = d < goal[2]
            behind = b < 60.0 if want_away else b > 100.0
            if behind and si[s, SI_TM] - prog[s] >= 2 and not _linked(link, s):
                best_f = fac[s]
                bs = -1e18
                nties = 1
                for f in range(6):
                    sc = _score_pos(col[s], row[s], f, goal)
                    if sc > bs + 1e-12:
                        bs = sc
                        best_f = f
                        nties = 1
                    elif sc >= bs - 1e-12:
                        nties += 1
                        if _tie(st, script, nties):
                            best_f = f
                if best_f != fac[s]:
                    fac[s] = best_f
                    prog[s] = 0
                    pivoted[s] = 1
                    _log(log, logn, EV_PIVOT, turn, s, col[s], row[s], fac[s], mp[s], 0, 0)
    # the order a side moves its ships in, point by point, is its player's choice: a fresh
    # shuffle from the dice stream each turn, so no ship moves first for being listed first
    # (scripted sides keep their listed order: the script is written for it)
    perm = np.arange(n)
    if st[dice.MODE] != dice.MODE_SCRIPTED:
        for i in range(n - 1, 0, -1):
            j = dice.roll(st, script, 1, i + 1) - 1
            tmp = perm[i]
            perm[i] = perm[j]
            perm[j] = tmp
    for k in range(1, maxmp + 1):
        for oi in range(nsides - 1, -1, -1):  # initiative loser moves first (4.6)
            side = order[oi]
            for ii in range(n):
                s = ii if side_int[side, 3] == P_SCRIPTED else perm[ii]
                if si[s, SI_SIDE] != side or status[s] != ON_MAP or mp[s] < k or pivoted[s]:
                    continue
                if opt[O_SIMUL] == 0:
                    for q in range(n):
                        pcol[q] = col[q]
                        prow[q] = row[q]
                m = _component(link, status, s, comp)
                best_turn = 0
                best_move = 0
                best_sc = -1e18
                nties = 1
                scripted = side_int[side, 3] == P_SCRIPTED
                has_goal = False
                if scripted:
                    code = moves[s, turn, k - 1] if turn < moves.shape[1] and k <= moves.shape[2] else 0
                    if code == 0 or code >= MV_PIVOT:
                        _script_fault(result, s, turn, FAULT_NO_MOVE)
                        return
                    best_move = 1 if code in (MV_M, MV_RM, MV_LM) else 0
                    best_turn = 1 if code in (MV_RM, MV_RS) else -1 if code in (MV_LM, MV_LS) else 0
                    if best_turn != 0 and prog[s] < si[s, SI_TM]:
                        # turn mode not yet satisfied (4.4)
                        _script_fault(result, s, turn, FAULT_TURN_MODE)
                        return
                    if best_move:
                        c, r = neighbour(col[s], row[s], (fac[s] + best_turn) % 6)
                        if not _legal_hex(c, r, opt, obj):
                            _script_fault(result, s, turn, FAULT_ILLEGAL_HEX)
                            return
                else:
                    has_goal = _plan(F, S, s, 1 if order[0] == side else 0, st, script)
                for dt in (0, 1, -1):
                    if scripted:
                        break
                    if dt != 0 and prog[s] < si[s, SI_TM]:
                        continue
                    f = (fac[s] + dt) % 6
                    for mv in (1, 0):
                        c, r = col[s], row[s]
                        if mv:
                            c, r = neighbour(c, r, f)
                            if not _legal_hex(c, r, opt, obj):
                                continue
                            ok = True
                            for q in range(1, m):  # dragged ships must stay legal too
                                t = comp[q]
                                nc, nr = _drag_target(col[s], row[s], c, r, col[t], row[t])
                                if not _legal_hex(nc, nr, opt, obj):
                                    ok = False
                            if not ok:
                                continue
                        if has_goal:
                            sc = _score_pos(c, r, f, goal)
                        else:
                            sc = 0.0
                        # (12.2): a DataLink member fires with its group only within 3 hexes of
                        # another member; each hex beyond costs as much as a hex off the range
                        sc -= 10.0 * _dl_spread(si, codes, hp, nsys, status, col, row, s, c, r)
                        sc -= 0.001 * abs(dt)  # prefer not to turn when it does not matter
                        if sc > best_sc + 1e-12:
                            best_sc = sc
                            best_turn = dt
                            best_move = mv
                            nties = 1
                        elif sc >= best_sc - 1e-12:
                            nties += 1
                            if _tie(st, script, nties):
                                best_turn = dt
                                best_move = mv
                if best_turn != 0:
                    fac[s] = (fac[s] + best_turn) % 6
                    prog[s] = 0
                    _log(log, logn, EV_TURNFACE, turn, s, col[s], row[s], fac[s], k, 0, 0)
                prog[s] += 1
                if best_move:
                    oc, orow = col[s], row[s]
                    col[s], row[s] = neighbour(oc, orow, fac[s])
                    _log(log, logn, EV_MOVE, turn, s, col[s], row[s], fac[s], k, 0, 0)
                    for q in range(1, m):
                        t = comp[q]
                        col[t], row[t] = _drag_target(oc, orow, col[s], row[s], col[t], row[t])
                        _log(log, logn, EV_DRAG, turn, t, col[t], row[t], fac[t], s, 0, 0)
                    if side_int[side, 2] >= 0:  # (a call passes F, S, L by value: only if
                        _maybe_exit(turn, F, S, s, L)  # the side has an exit at all)
                else:
                    _log(log, logn, EV_STAY, turn, s, col[s], row[s], fac[s], k, 0, 0)
                    # a point spent in place on the exit warp point (where it arrived, say)
                    # may take the ship out as entering the hex would (9.4)
                    if side_int[side, 2] >= 0:
                        _maybe_exit(turn, F, S, s, L)
    for s in range(n):
        if pivoted[s]:
            prog[s] = 0


MV_M, MV_S, MV_RM, MV_LM, MV_RS, MV_LS, MV_PIVOT = 1, 2, 3, 4, 5, 6, 10


@jit
def _script_fault(result, s, turn, why):
    result[RES_FAULT] = why
    result[RES_FAULT_SHIP] = s
    result[RES_FAULT_TURN] = turn


@jit
def _drag_target(oc, orow, nc, nr, tc, tr):
    """Where a ship at (tc, tr) goes when the chain leader moves (oc, orow) -> (nc, nr)."""
    for f in range(6):
        a, b = neighbour(oc, orow, f)
        if a == nc and b == nr:
            return neighbour(tc, tr, f)
    return tc, tr


@jit
def _maybe_exit(turn, F, S, s, L):
    """A ship on its side's exit warp point leaves (9.4) when it retreats, or when it goes for
    the scans and the exit (_heads_out) and can scan nothing more."""
    si, side_int, codes, nsys, scan, obj = F.si, F.side_int, F.codes, F.nsys, F.scan, F.obj
    hp, scanned, status, col, row, link = S.hp, S.scanned, S.status, S.col, S.row, S.link
    log, logn = L.log, L.logn
    side = si[s, SI_SIDE]
    e = side_int[side, 2]
    if e < 0 or _linked(link, s) or col[s] != obj[e, 1] or row[s] != obj[e, 2]:
        return
    mode = S.mode[s]
    if mode == FIGHT or (mode == SCAN_EXIT
                         and _open_scan(codes, hp, nsys, si, scan, scanned, status, s) >= 0):
        return
    status[s] = EXITED
    _log(log, logn, EV_EXIT, turn, s, col[s], row[s], 0, 0, 0, 0)


@jit
def _pull(turn, F, S, L):
    """End of movement (8.3): smaller (or equal) linked ships move one hex closer. A Base never
    moves (9.1): a ship a Base holds is pulled towards it whatever their sizes."""
    si, opt, obj = F.si, F.opt, F.obj
    status, col, row, link = S.status, S.col, S.row, S.link
    log, logn = L.log, L.logn
    n = status.shape[0]
    for s in range(n):
        if status[s] != ON_MAP or si[s, SI_BASE] == 1:
            continue
        pulled = False
        for t in range(n):
            if status[t] != ON_MAP:
                continue
            # the smaller ship moves; between equals the held one (both when mutual)
            if (link[t, s] and si[s, SI_SIZE] <= si[t, SI_SIZE]) or (
                    link[s, t] and si[s, SI_SIZE] < si[t, SI_SIZE]) or (
                    link[t, s] and si[t, SI_BASE] == 1):
                pulled = True
        if not pulled:
            continue
        bc, br, btot = col[s], row[s], 1 << 30
        for f in range(6):
            c, r = neighbour(col[s], row[s], f)
            if not _legal_hex(c, r, opt, obj):
                continue
            ok = True
            tot = 0
            for t in range(n):
                if (link[s, t] or link[t, s]) and status[t] == ON_MAP:
                    d0 = distance(col[s], row[s], col[t], row[t])
                    d1 = distance(c, r, col[t], row[t])
                    if d1 >= d0:
                        ok = False
                    tot += d1
            if ok and tot < btot:
                btot = tot
                bc, br = c, r
        if bc != col[s] or br != row[s]:
            col[s], row[s] = bc, br
            _log(log, logn, EV_PULL, turn, s, col[s], row[s], 0, 0, 0, 0)


@jit
def _can_target(F, S, s, t):
    si, opt, obj = F.si, F.opt, F.obj
    status, col, row, fac = S.status, S.col, S.row, S.fac
    if status[t] != ON_MAP or si[t, SI_SIDE] == si[s, SI_SIDE]:
        return False
    if opt[O_REAR] == 1 and in_rear_arc(col[s], row[s], fac[s], col[t], row[t]):
        return False
    if opt[O_BLOCK] == 1:
        for o in range(obj.shape[0]):
            if obj[o, 0] <= 1:  # stars and planets
                pc, pr = obj[o, 1], obj[o, 2]
                near = (distance(col[s], row[s], pc, pr) <= 3 or
                        distance(col[t], row[t], pc, pr) <= 3)
                if near and line_passes(col[s], row[s], col[t], row[t], pc, pr):
                    return False  # (12.4): blocked; simkit's admirals never grant permission
    return True


@jit
def _family_count(codes, hp, nsys, s, fam, w_missile, spent):
    """Intact launchers of ``fam``; once a ship's missiles joined a DataLink volley (``spent``)
    its Missile and Gun-Missile launchers have fired this turn."""
    n = 0
    if spent and fam == MISSILE:
        return 0
    for j in range(nsys[s]):
        if hp[s, j] == 0:
            continue
        c = codes[s, j]
        if fam == GUN and (c == C_G or (c == C_W and not w_missile and not spent)):
            n += 1
        elif fam == MISSILE and (c == C_R or (c == C_W and w_missile)):
            n += 1
        elif fam == FORCE and c == C_F:
            n += 1
        elif fam == PRIMARY and c == C_P:
            n += 1
        elif fam == LASER and c == C_L:
            n += 1
        elif fam == ENERGY and c == C_E:
            n += 1
    return n


@jit
def _shot_params(hit_number, effect_halves, fam, r, s, t, link):
    """(hit number, effect, auto) for s firing family fam at t at range r, with (8.3) shifts."""
    if r > MAX_RANGE or hit_number[fam, r] < 0 or effect_halves[fam, r] < 0:
        return CANNOT_FIRE, CANNOT_FIRE, False
    eff = effect_halves[fam, r]
    shift = 0
    tractored = False
    if link[s, t]:
        shift = -3
        tractored = True
    elif link[t, s]:
        shift = 3
        tractored = True
    if fam == MISSILE and tractored:
        return hit_number[fam, r], eff, True
    hr = max(0, r + shift)
    if hr > MAX_RANGE:
        return CANNOT_FIRE, eff, False
    return hit_number[fam, hr], eff, False


@jit
def _target_score(F, S, s, t):
    """Worth of ship s firing at t now: the threat removed and the victory bought (policies.py).
    0 when s cannot hurt t at this range; -1 when t has no system left."""
    codes, nsys, ev, si, side_par = F.codes, F.nsys, F.ev, F.si, F.side_par
    hp, status, col, row = S.hp, S.status, S.col, S.row
    rem = _intact(hp, t, nsys)
    if rem == 0:
        return -1.0
    r = distance(col[s], row[s], col[t], row[t])
    dmg = _ship_ev(codes, hp, nsys, ev, s, r)
    if dmg <= 0.0:
        return 0.0
    par = side_par[si[s, SI_SIDE]]
    # t's damage per turn against s's side: at its range to the nearest of s's side's ships
    rt = 1 << 30
    for q in range(status.shape[0]):
        if status[q] == ON_MAP and si[q, SI_SIDE] == si[s, SI_SIDE]:
            d = distance(col[q], row[q], col[t], row[t])
            if d < rt:
                rt = d
    rt = min(rt, MAX_RANGE + 1)
    threat = _ship_ev(codes, hp, nsys, ev, t, rt)
    # the expected volley in damage order (left to right): the weapons it destroys
    budget = dmg  # half points; an intact system takes two, a circled one one
    removed = 0.0
    halves = 0
    for j in range(nsys[t]):
        halves += hp[t, j]
    for j in range(nsys[t]):
        if budget <= 0.0:
            break
        h = hp[t, j]
        if h == 0:
            continue
        take = min(1.0, budget / h)
        removed += take * _sys_ev(codes[t, j], ev, rt)
        budget -= h
    frac = min(1.0, dmg / halves)
    return (par[I_W_THREAT] * (removed + threat * frac) + par[I_W_POINTS] * si[t, SI_SIZE] * frac
            + 1e-6 * dmg)


@jit
def _harmless(codes, hp, nsys, si, side_int, t):
    """t can neither shoot (no intact weapon) nor score (not a ship that must scan or exit)."""
    if _armed(codes, hp, nsys, t):
        return False
    return not (side_int[si[t, SI_SIDE], 0] == 1 and si[t, SI_ESCORT] == 0)


@jit
def _pick_target(F, S, s, n_chosen, cap, fam, st, script):
    """Best target for s (S.pick[0] = ship, [1] = score; NO_SHIP when none is worth a shot): one
    already chosen this turn, a new one while fewer than ``cap`` are chosen, or one it holds in
    a Tractor Beam (5.5, 8.5). ``fam`` < 0 scores the whole ship's fire; a weapon family (for
    Multiplex Tracking, each family at its own target) shares each target's worth by the
    family's part of s's expected damage at that range, so a family that cannot fire at a
    range adds nothing there. A harmless target (_harmless) is taken only when no armed one is
    within reach. Equal scores are chosen between by the dice stream, never by list order.
    ``n_chosen``: how many targets S.chosen holds."""
    si, side_int, codes, nsys, ev = F.si, F.side_int, F.codes, F.nsys, F.ev
    hp, status, col, row, link = S.hp, S.status, S.col, S.row, S.link
    chosen, out2 = S.chosen, S.pick
    best = 0.0
    bt = NO_SHIP
    nt = 1
    best_h = 0.0
    bt_h = NO_SHIP
    nt_h = 1
    for q in range(status.shape[0]):
        if not _can_target(F, S, s, q):
            continue
        allowed = n_chosen < cap or link[s, q] == 1
        for k in range(n_chosen):
            if chosen[k] == q:
                allowed = True
        if not allowed:
            continue
        sc = _target_score(F, S, s, q)
        if fam >= 0:
            r = distance(col[s], row[s], col[q], row[q])
            if r > MAX_RANGE or ev[fam, r] <= 0.0:
                continue
            tot = _ship_ev(codes, hp, nsys, ev, s, r)
            if tot <= 0.0:
                continue
            sc *= ev[fam, r] / tot
        if sc <= 0.0:
            continue
        eps = 1e-9 * sc
        if _harmless(codes, hp, nsys, si, side_int, q):
            if sc > best_h + eps:
                best_h = sc
                bt_h = q
                nt_h = 1
            elif sc >= best_h - eps:
                nt_h += 1
                if _tie(st, script, nt_h):
                    bt_h = q
        elif sc > best + eps:
            best = sc
            bt = q
            nt = 1
        elif sc >= best - eps:
            nt += 1
            if _tie(st, script, nt):
                bt = q
    if bt < 0:
        bt = bt_h
        best = best_h
    out2[0] = bt
    out2[1] = best
    return bt


@jit
def _dl_group(F, T, S, s, t, fam, grp):
    """The DataLink group firing family ``fam`` with s at t (12.2), s first, into grp; returns
    the count. A member joins when its DataLink works, it has not fired, has not joined a volley
    at another target, has weapons of the family that reach t, and is within 3 hexes of at
    least one member already firing (so each is within 3 hexes of another, not only of s)."""
    si, codes, nsys = F.si, F.codes, F.nsys
    hit_number, effect_halves = T.hit_number, T.effect_halves
    hp, status, col, row, fired, mspent, link = (S.hp, S.status, S.col, S.row, S.fired, S.mspent,
                                                 S.link)
    n = status.shape[0]
    grp[0] = s
    ng = 1
    changed = True
    while changed:
        changed = False
        for m in range(n):
            if (m == s or status[m] != ON_MAP or fired[m] == 1 or si[m, SI_DL] != si[s, SI_DL]
                    or si[m, SI_ZOK] == 0 or _count(codes, hp, m, nsys, C_Z) == 0
                    or (mspent[m, 0] != 0 and mspent[m, 0] != t + 1)
                    or ((mspent[m, 1] >> fam) & 1) == 1):
                continue
            inside = False
            near = False
            for q in range(ng):
                if grp[q] == m:
                    inside = True
                elif distance(col[grp[q]], row[grp[q]], col[m], row[m]) <= 3:
                    near = True
            if inside or not near:
                continue
            rm = distance(col[m], row[m], col[t], row[t])
            if _family_count(codes, hp, nsys, m, fam, True, False) == 0:
                continue
            hm, em, am = _shot_params(hit_number, effect_halves, fam, rm, m, t, link)
            if em < 0:
                continue
            grp[ng] = m
            ng += 1
            changed = True
    return ng


@jit
def _p2d6(h):
    """P(2d6 <= h)."""
    if h >= 12:
        return 1.0
    if h < 2:
        return 0.0
    if h <= 7:
        return (h - 1) * h / 72.0
    return 1.0 - (12 - h) * (13 - h) / 72.0


@jit
def _held_fire(codes, hp, nsys, hit_number, effect_halves, x, r, shift):
    """Expected half points a turn of ship x's weapons at range r, with the Probability of Hit
    range shifted by ``shift`` and Missiles hitting automatically when ``shift`` != 0 (8.3: a
    tractor link between firer and target), as do the holder's (``shift`` < 0) Primary Beams
    at a target in its hex or adjacent; Primary Beams at half (every other turn)."""
    if r > MAX_RANGE:
        return 0.0
    hr = min(MAX_RANGE, max(0, r + shift))
    tot = 0.0
    for j in range(nsys[x]):
        if hp[x, j] == 0:
            continue
        c = codes[x, j]
        best = 0.0
        for fi in range(6):
            fam = (GUN, MISSILE, FORCE, PRIMARY, LASER, ENERGY)[fi]
            if not ((fam == GUN and (c == C_G or c == C_W)) or (fam == MISSILE and (
                    c == C_R or c == C_W)) or (fam == FORCE and c == C_F)
                    or (fam == PRIMARY and c == C_P) or (fam == LASER and c == C_L)
                    or (fam == ENERGY and c == C_E)):
                continue
            eff = effect_halves[fam, r]
            if eff < 0 or hit_number[fam, r] < 0:
                continue
            if (fam == MISSILE and shift != 0) or (fam == PRIMARY and shift < 0 and r <= 1):
                v = float(eff)  # automatic: Missiles either way, a holder's designated Primary
            elif r + shift > MAX_RANGE:
                v = 0.0
            else:
                v = _p2d6(hit_number[fam, hr]) * eff
            if fam == PRIMARY:
                v *= 0.5
            if v > best:
                best = v
        tot += best
    return tot


@jit
def _tractor_gain(codes, hp, nsys, hit_number, effect_halves, s, t, r):
    """What a tractor link from s onto t at range r is worth to s a turn (8.3): s's fire at t
    gains the -3 range shift and automatic Missiles, t's fire at s loses 3 hexes of range but
    its Missiles hit s automatically. Gain = (s's fire with - without) - (t's with - without),
    expected half points. The link's other effects (engines shut down, the pull) are not
    counted, except that the admirals latch at a gain of 0 (holding a ship costs nothing and
    keeps it from running) and release only below it."""
    mine = (_held_fire(codes, hp, nsys, hit_number, effect_halves, s, r, -3)
            - _held_fire(codes, hp, nsys, hit_number, effect_halves, s, r, 0))
    theirs = (_held_fire(codes, hp, nsys, hit_number, effect_halves, t, r, 3)
              - _held_fire(codes, hp, nsys, hit_number, effect_halves, t, r, 0))
    return mine - theirs


@jit
def _volley_member_can_fire(F, T, S, s):
    """A DataLink member that joined a volley this turn (5.5, 12.2) still has a shot: a weapon
    family not yet fired that reaches the volley's target, a ship it holds in a Tractor Beam,
    or Multiplex Tracking for another target. One with none takes no turn to fire."""
    codes, nsys, mult = F.codes, F.nsys, F.mult
    hit_number, effect_halves = T.hit_number, T.effect_halves
    hp, status, col, row, link, mspent = S.hp, S.status, S.col, S.row, S.link, S.mspent
    for j in range(nsys[s]):
        if codes[s, j] == C_M and hp[s, j] > 0 and mult[s] > 1:
            return True
    for q in range(status.shape[0]):
        if link[s, q] == 1 and status[q] == ON_MAP:
            return True
    t = mspent[s, 0] - 1
    if status[t] != ON_MAP:
        return False
    r = distance(col[s], row[s], col[t], row[t])
    spent_missiles = ((mspent[s, 1] >> MISSILE) & 1) == 1
    for fi in range(6):
        fam = (PRIMARY, MISSILE, GUN, FORCE, ENERGY, LASER)[fi]
        if (mspent[s, 1] >> fam) & 1:
            continue
        for w in (False, True):
            if _family_count(codes, hp, nsys, s, fam, w, spent_missiles) > 0:
                h, e, a = _shot_params(hit_number, effect_halves, fam, r, s, t, link)
                if e >= 0:
                    return True
    return False


@jit
def _designate(codes, hp_t, ns, t):
    """The system a tractoring ship's Primary Beam designates (8.3): the first intact weapon,
    else the first intact system; -1 when nothing is left."""
    for j in range(ns):
        c = codes[t, j]
        if hp_t[j] > 0 and (c == C_G or c == C_R or c == C_W or c == C_F or c == C_P
                           or c == C_L or c == C_E):
            return j
    for j in range(ns):
        if hp_t[j] > 0:
            return j
    return NO_SYSTEM


@jit
def _fire_ship(turn, s, F, T, S, st, script, L):
    """Ship s fires every weapon it may this turn (5.1): a target per family as _pick_target
    and Multiplex Tracking (8.5) allow, DataLink volleys (12.2) and designated Primary Beams
    (8.3) included."""
    si, mult, codes, nsys, run_end, ev = F.si, F.mult, F.codes, F.nsys, F.run_end, F.ev
    hit_number, effect_halves = T.hit_number, T.effect_halves
    hp, status, col, row, link = S.hp, S.status, S.col, S.row, S.link
    prim_last, fired, mspent, last_dmg, fired_upon = (S.prim_last, S.fired, S.mspent, S.last_dmg,
                                                      S.fired_upon)
    pd_fired, out, chosen, pick = S.pd_fired, S.out, S.chosen, S.pick
    log, logn, hpsnap = L.log, L.logn, L.hpsnap
    n = status.shape[0]
    cap = 1
    for j in range(nsys[s]):
        if codes[s, j] == C_M and hp[s, j] > 0:
            cap = mult[s]  # (8.5): an intact (Mn) allows n targets
    fired[s] = 1
    n_chosen = 0
    grp = np.empty(n, dtype=np.int64)
    if mspent[s, 0] > 0:
        # (5.5): its weapons joined a DataLink volley, so that target is already one of its
        # targets this turn (the only one without Multiplex Tracking, tractored ships apart)
        chosen[0] = mspent[s, 0] - 1
        n_chosen = 1
    for fi in range(6):
        fam = (PRIMARY, MISSILE, GUN, FORCE, ENERGY, LASER)[fi]
        if fam == PRIMARY and turn - prim_last[s] < 2:
            continue
        # pick the target for this family: keep the current one while it stands
        t = NO_SHIP
        if cap > 1 and mspent[s, 0] == 0:
            # Multiplex Tracking (8.5): each family at the target it is worth most against
            # (Missiles at a distant ship, beams at a close one), at most cap targets
            t = _pick_target(F, S, s, n_chosen, cap, fam, st, script)
            if t < 0:
                continue
            new_t = True
            for q in range(n_chosen):
                if chosen[q] == t:
                    new_t = False
            if new_t:
                chosen[n_chosen] = t
                n_chosen += 1
        elif n_chosen > 0 and status[chosen[n_chosen - 1]] == ON_MAP:
            t = chosen[n_chosen - 1]
        else:
            t = _pick_target(F, S, s, n_chosen, cap, -1, st, script)
            if t < 0 or pick[1] <= 0.0:
                return
            chosen[n_chosen] = t
            n_chosen += 1
        r = distance(col[s], row[s], col[t], row[t])
        w_missile = False
        if fam == MISSILE or fam == GUN:
            pd = _count(codes, hp, t, nsys, C_D)
            w_missile = ev[MISSILE, min(r, MAX_RANGE)] * (0.5 ** pd) > ev[GUN, min(r, MAX_RANGE)]
        if (mspent[s, 1] >> fam) & 1:
            continue  # fired in a DataLink volley this turn (12.2)
        k = _family_count(codes, hp, nsys, s, fam, w_missile, ((mspent[s, 1] >> MISSILE) & 1) == 1)
        if k == 0:
            continue
        hit, eff, auto = _shot_params(hit_number, effect_halves, fam, r, s, t, link)
        if eff < 0:
            continue
        first_roll = np.int64(st[dice.POS])
        pd_fired[:] = 0  # every Point Defense of the target starts the volley fresh (7.3)
        hp_t = hp[t]
        pdf = pd_fired[:nsys[t]]
        hp_before = 0
        for j in range(nsys[t]):
            hp_before += hp_t[j]
        if fam == PRIMARY and link[s, t] == 1 and r <= 1:
            # (8.3): designate any system for each Primary Beam and hit it automatically; each
            # beam designates anew (the first intact weapon, else the first intact system), so
            # no beam is wasted on a system an earlier beam destroyed
            out[0] = k
            out[1] = 0
            out[2] = 0
            for _ in range(k):
                dsg = _designate(codes, hp_t, nsys[t], t)
                if dsg < 0:
                    break
                if eff >= 2 or hp_t[dsg] == 1:
                    hp_t[dsg] = 0
                else:
                    hp_t[dsg] = 1
                out[1] += eff
        elif ((fam == MISSILE or fam == ENERGY) and si[s, SI_DL] > 0 and si[s, SI_ZOK] == 1
              and _count(codes, hp, s, nsys, C_Z) > 0):
            # DataLink group (12.2): the members that can join fire simultaneously, as one
            # volley: Missiles for Point Defense, Energy Beams for Overload Dampeners
            ng = _dl_group(F, T, S, s, t, fam, grp)
            hits = 0
            for _ in range(k):
                if auto or hit >= 12 or (hit >= 2 and dice.roll(st, script, 2, 6) <= hit):
                    hits += 1
            total = hits * eff
            for q in range(1, ng):
                m = grp[q]
                rm = distance(col[m], row[m], col[t], row[t])
                km = _family_count(codes, hp, nsys, m, fam, True, False)
                hm, em, am = _shot_params(hit_number, effect_halves, fam, rm, m, t, link)
                mspent[m, 0] = t + 1  # its target for the turn (5.5)
                mspent[m, 1] |= 1 << fam  # these launchers fired; the rest fire later
                k += km  # the log counts every weapon of the group's volley
                for _ in range(km):
                    if am or hm >= 12 or (hm >= 2 and dice.roll(st, script, 2, 6) <= hm):
                        hits += 1
                        total += em
            if fam == MISSILE:
                resolve_volley(codes[t, :nsys[t]], hp_t[:nsys[t]], run_end[t, :nsys[t]], pdf,
                               Shot(MISSILE, hits, 12, eff, True), T, st, script, out)
            else:
                # every hit's points at its own firer's range, dampened once (7.4)
                resolve_volley(codes[t, :nsys[t]], hp_t[:nsys[t]], run_end[t, :nsys[t]], pdf,
                               Shot(ENERGY, 1, 12, total, True), T, st, script, out)
                out[0] = hits
        else:
            resolve_volley(codes[t, :nsys[t]], hp_t[:nsys[t]], run_end[t, :nsys[t]], pdf,
                           Shot(fam, k, hit, eff, auto), T, st, script, out)
        if fam == PRIMARY:
            prim_last[s] = turn
        if fired_upon[si[t, SI_SIDE]] > turn:
            fired_upon[si[t, SI_SIDE]] = turn
        hp_after = 0
        for j in range(nsys[t]):
            hp_after += hp_t[j]
        if hp_after < hp_before:
            # (12.1) "damaged": any system lost or circled, dampeners burnt out absorbing a
            # volley included (no point of the volley need have landed)
            last_dmg[t] = turn
        i = logn[0]
        _log(log, logn, EV_FIRE, turn, s, t, fam, k, out[0], out[1], out[2])
        if log.shape[0] > 0 and i < log.shape[0]:
            log[i, LOG_ROLLS] = first_roll * 1000 + np.int64(st[dice.POS])
            for j in range(nsys[t]):
                hpsnap[i, j] = hp_t[j]
        if _intact(hp, t, nsys) == 0:
            status[t] = DESTROYED
            _log(log, logn, EV_DESTROYED, turn, t, col[t], row[t], 0, 0, 0, 0)


@jit
def _runners_left(si, status, turn, side):
    """Ships of a scan-and-exit side that still have to leave (escorts do not count)."""
    for s in range(status.shape[0]):
        if si[s, SI_SIDE] == side and si[s, SI_ESCORT] == 0 and (
                status[s] == ON_MAP or (status[s] == NOT_ARRIVED and si[s, SI_ARRIVES] > turn)):
            return True
    return False


@jit
def _side_alive(si, status, turn, side):
    for s in range(status.shape[0]):
        if si[s, SI_SIDE] == side and (status[s] == ON_MAP or
                                       (status[s] == NOT_ARRIVED and si[s, SI_ARRIVES] > turn)):
            return True
    return False


# what _turn_rest reports: the battle goes on, it is over, a scripted move was illegal
TURN_ON, TURN_OVER, TURN_FAULT = 0, 1, 2


@jit
def _initiative(turn, F, S, init_roll, st, script, L):
    """Step 1 of a turn (10.1): the order of the sides, ``S.order[0]`` firing first and moving
    last; fixed by the scenario or rolled, ties re-rolled among the tied."""
    side_int, opt = F.side_int, F.opt
    order = S.order
    log, logn = L.log, L.logn
    nsides = side_int.shape[0]
    # 1. initiative: order[0] fires first and moves last
    if opt[O_INIT] >= 0:
        order[0] = opt[O_INIT]
        q = 1
        for side in range(nsides):
            if side != opt[O_INIT]:
                order[q] = side
                q += 1
    else:
        for side in range(nsides):
            init_roll[side] = dice.roll(st, script, 1, 6) * 16
        while True:  # re-roll ties among the tied (10.1)
            tie = False
            for a in range(nsides):
                for b in range(a + 1, nsides):
                    if init_roll[a] == init_roll[b]:
                        tie = True
                        init_roll[a] += dice.roll(st, script, 1, 6)
                        init_roll[b] += dice.roll(st, script, 1, 6)
            if not tie:
                break
        for side in range(nsides):
            order[side] = side
        for a in range(nsides):  # sort by roll, highest first
            for b in range(nsides - 1 - a):
                if init_roll[order[b]] < init_roll[order[b + 1]]:
                    tmp = order[b]
                    order[b] = order[b + 1]
                    order[b + 1] = tmp
    _log(log, logn, EV_TURN, turn, order[0], order[1], order[2] if nsides > 2 else -1,
         0, 0, 0, 0)


@jit
def _turn_rest(turn, F, T, S, st, script, result, L):
    """Steps 2-6 of a turn (arrivals, movement, scans, combat, tractors, damage control) after
    the initiative; ``TURN_OVER`` when the battle ends with it, ``TURN_FAULT`` when a scripted
    move was illegal (``result[RES_FAULT]``)."""
    si, side_int, side_par, codes0, nsys, obj, scan, opt = (F.si, F.side_int, F.side_par, F.codes,
                                                            F.nsys, F.obj, F.scan, F.opt)
    hp, status, col, row, fac, link, last_dmg, fired, mspent, fired_upon, scanned, order, pick = (
        S.hp, S.status, S.col, S.row, S.fac, S.link, S.last_dmg, S.fired, S.mspent, S.fired_upon,
        S.scanned, S.order, S.pick)
    log, logn = L.log, L.logn
    n = si.shape[0]
    nsides = side_int.shape[0]
    hit_number, effect_halves = T.hit_number, T.effect_halves
    # 2. arrivals
    for s in range(n):
        if status[s] == NOT_ARRIVED and si[s, SI_ARRIVES] == turn:
            status[s] = ON_MAP
            _log(log, logn, EV_ARRIVE, turn, s, col[s], row[s], fac[s], 0, 0, 0)
    # 3. movement
    _move_phase(turn, F, S, result, st, script, L)
    if result[RES_FAULT] != 0:
        return TURN_FAULT
    _pull(turn, F, S, L)
    for s in range(n):  # scans (8.6) at the end of movement
        if status[s] != ON_MAP or _count(codes0, hp, s, nsys, C_X) == 0:
            continue
        side = si[s, SI_SIDE]
        rng_ok = int(side_par[side, 0]) if side_int[side, 3] == P_OBJECTIVE else 1
        for k in range(scan.shape[1]):
            kind = scan[side, k, 0]
            if kind < 0 or scanned[side, k] == 1:
                continue
            idx = scan[side, k, 1]
            if kind == 0:
                tc, tr = obj[idx, 1], obj[idx, 2]
            elif status[idx] == ON_MAP:
                tc, tr = col[idx], row[idx]
            else:
                continue
            if distance(col[s], row[s], tc, tr) <= rng_ok:
                scanned[side, k] = 1
                _log(log, logn, EV_SCAN, turn, s, kind, idx, 0, 0, 0, 0)
    # 4. combat: alternate sides, one ship at a time (5.1)
    for s in range(n):
        fired[s] = 0
        mspent[s, 0] = 0
        mspent[s, 1] = 0
    while True:
        any_fired = False
        for oi in range(nsides):
            side = order[oi]
            if side_int[side, 1] == 1 and not fired_upon[side] < turn:
                continue  # scenario rule: holds fire until a full turn after being fired on
            # the ship whose best shot is worth most fires next; equal worth: dice
            best = -1
            bsc = 0.0
            nties = 1
            for s in range(n):
                if si[s, SI_SIDE] != side or status[s] != ON_MAP or fired[s] == 1:
                    continue
                if mspent[s, 0] > 0 and not _volley_member_can_fire(F, T, S, s):
                    continue  # every weapon it may still use fired in its group's volley
                _pick_target(F, S, s, 0, 1 << 30, -1, st, script)
                if pick[0] < 0:
                    continue
                if pick[1] > bsc * (1.0 + 1e-9):
                    bsc = pick[1]
                    best = s
                    nties = 1
                elif pick[1] >= bsc * (1.0 - 1e-9):
                    nties += 1
                    if _tie(st, script, nties):
                        best = s
            if best >= 0:
                _fire_ship(turn, best, F, T, S, st, script, L)
                any_fired = True
        if not any_fired:
            break
    _break_links(link, codes0, hp, nsys, status, col, row, hit_number, effect_halves, st,
                 script)
    # 5. tractor beams (8.3)
    for oi in range(nsides):
        side = order[oi]
        tix = 0 if side_int[side, 3] == P_CLOSER or side_int[side, 3] == P_LOOKAHEAD else 1
        if side_par[side, tix] < 0.5:
            continue
        for s in range(n):
            if si[s, SI_SIDE] != side or status[s] != ON_MAP:
                continue
            beams = _count(codes0, hp, s, nsys, C_T)
            used = 0
            for t in range(n):
                if link[s, t] == 1 and _tractor_gain(
                        codes0, hp, nsys, hit_number, effect_halves, s, t,
                        distance(col[s], row[s], col[t], row[t])) < 0.0:
                    # (8.3) voluntarily released: the link now costs s more than it gives
                    link[s, t] = 0
                    _log(log, logn, EV_RELEASE, turn, s, t, 0, 0, 0, 0, 0)
                used += link[s, t]
            while used < beams:
                bt = -1
                bd = 6
                nties = 1
                for t in range(n):
                    if (status[t] == ON_MAP and si[t, SI_SIDE] != side and link[s, t] == 0
                            and si[t, SI_BASE] == 0 and _count(codes0, hp, t, nsys, C_C) == 0):
                        d = distance(col[s], row[s], col[t], row[t])
                        if d < 6 and _tractor_gain(codes0, hp, nsys, hit_number,
                                                   effect_halves, s, t, d) < 0.0:
                            continue  # never latch where the link costs (8.3)
                        if d < bd:
                            bd = d
                            bt = t
                            nties = 1
                        elif d == bd:
                            nties += 1
                            if _tie(st, script, nties):
                                bt = t
                if bt < 0:
                    break
                link[s, bt] = 1
                used += 1
                _log(log, logn, EV_TRACTOR, turn, s, bt, bd, 0, 0, 0, 0)
    # 6. record keeping: damage control (12.1)
    if opt[O_DC] == 1:
        for s in range(n):
            if status[s] == ON_MAP and turn - last_dmg[s] >= 3:
                for j in range(nsys[s] - 1, -1, -1):
                    if codes0[s, j] == C_S and hp[s, j] < 2:
                        hp[s, j] = 2
                        _log(log, logn, EV_REPAIR, turn, s, j, 0, 0, 0, 0, 0)
                        break
    # end of battle?
    alive = 0
    runner_left = False  # a scan-and-exit side still on the map keeps the battle going
    done_obj = False
    for side in range(nsides):
        if _side_alive(si, status, turn, side):
            alive += 1
        if side_int[side, 0] == 1:
            if _runners_left(si, status, turn, side):
                runner_left = True
            else:
                done_obj = True
    if done_obj or (alive <= 1 and not runner_left):
        return TURN_OVER
    return TURN_ON


@jit
def _copy_state(S):
    """A State of its own with the same values (the rollouts' scratch board)."""
    return State(S.hp.copy(), S.status.copy(), S.col.copy(), S.row.copy(), S.fac.copy(),
                 S.prog.copy(), S.link.copy(), S.prim_last.copy(), S.last_dmg.copy(),
                 S.fired.copy(), S.mspent.copy(), S.fired_upon.copy(), S.scanned.copy(),
                 S.order.copy(), S.pcol.copy(), S.prow.copy(), S.mp.copy(), S.pivoted.copy(),
                 S.comp.copy(), S.goal.copy(), S.shipev.copy(), S.pd_fired.copy(), S.out.copy(),
                 S.chosen.copy(), S.pick.copy(), S.mode.copy(), S.force.copy())


@jit
def _restore(R, S):
    """Set the scratch board ``R`` to the battle's state ``S`` (what carries from turn to turn;
    the phases' scratch arrays are rewritten before they are read)."""
    R.hp[:] = S.hp
    R.status[:] = S.status
    R.col[:] = S.col
    R.row[:] = S.row
    R.fac[:] = S.fac
    R.prog[:] = S.prog
    R.link[:] = S.link
    R.prim_last[:] = S.prim_last
    R.last_dmg[:] = S.last_dmg
    R.fired_upon[:] = S.fired_upon
    R.scanned[:] = S.scanned
    R.order[:] = S.order
    R.force[:] = S.force


@jit
def _material(F, S, side):
    """What a board is worth to ``side``: the enemies' hull spaces lost (a share of a ship's
    spaces for the share of its systems gone; all of them for a ship destroyed) less its own."""
    si, nsys = F.si, F.nsys
    v = 0.0
    for s in range(si.shape[0]):
        if S.status[s] == NOT_ARRIVED or S.status[s] == EXITED:
            continue
        if S.status[s] == DESTROYED:
            lost = 1.0
        else:
            lost = 1.0 - _intact(S.hp, s, nsys) / max(nsys[s], 1)
        w = si[s, SI_SIZE] * lost
        v += -w if si[s, SI_SIDE] == side else w
    return v


#: the closer's default parameter vector: how a look-ahead admiral models its enemies
CLOSER_DEFAULTS = np.zeros(N_PARAMS, dtype=np.float64)
CLOSER_DEFAULTS[:len(PARAMS["closer"])] = list(PARAMS["closer"].values())


@jit
def _modelled(F):
    """The fleet as a look-ahead admiral with ``model`` 1 sees it in its rollouts: every side
    that does not look ahead played by a closer with the default parameters (a player knows the
    enemy's ships, not its admiral's plan); scenario rules (objective, exit, holds fire) kept."""
    side_int = F.side_int.copy()
    side_par = F.side_par.copy()
    for side in range(side_int.shape[0]):
        if side_int[side, 3] != P_LOOKAHEAD and side_int[side, 3] != P_SCRIPTED:
            side_int[side, 3] = P_CLOSER
            side_par[side, :] = CLOSER_DEFAULTS
    return Fleet(F.si, side_int, side_par, F.codes, F.nsys, F.run_end, F.mult, F.obj, F.scan,
                 F.opt, F.moves, F.ev)


#: the ranges the look-ahead admiral tries for its fleet, beside the closer's own plan (-1)
LOOK_RANGES = np.array([-1, 0, 1, 2, 3, 4, 5, 6, 8, 10, 12, 15, 20], dtype=np.int64)


@jit
def _look_ahead(turn, F, FM, T, S, R, side, st):
    """The look-ahead admiral (issue 13): the range its fighting ships keep this turn. Each
    candidate (the closer's own plan, or one range for the whole fleet held for ``depth`` turns)
    is played out ``rollouts`` times by the compiled engine itself -- movement, fire, tractors,
    the enemy's own admiral -- from a copy of the board, and scored by the hull spaces the
    enemy loses less its own. Every candidate sees the same dice in its k-th rollout (common
    random numbers, a stream keyed by the battle's dice state, which no rollout advances). The
    closer's plan is left only for a range whose paired mean gain over it exceeds ``margin``
    standard errors. ``FM``: the fleet as modelled (:func:`_modelled`), played with ``model``
    1; with 0 the enemy's own admiral is played."""
    par = F.side_par[side]
    if par[I_MODEL] >= 0.5:
        F = FM
    k_n = int(par[I_ROLLOUTS])
    depth = int(par[I_DEPTH])
    margin = par[I_MARGIN]
    nsides = F.side_int.shape[0]
    last = min(F.opt[O_TURNS], turn + depth - 1)
    st2 = np.zeros(dice.STATE_SIZE, dtype=np.uint64)
    init2 = np.zeros(nsides, dtype=np.int64)
    res2 = np.zeros(RES_FAULT + 1, dtype=np.int64)
    # no log, no script: local arrays of the real battle's types (one compiled _turn_rest)
    quiet = Log(np.zeros((0, LOG_W), dtype=np.int64), np.zeros(1, dtype=np.int64),
                np.zeros((0, F.codes.shape[1]), dtype=np.int64))
    no_script = np.zeros(0, dtype=np.int64)
    key = st[0] ^ (np.uint64(turn) * np.uint64(0x9E3779B97F4A7C15)) ^ np.uint64(side + 1)
    nc = LOOK_RANGES.shape[0]
    score = np.zeros((nc, k_n), dtype=np.float64)
    base = _material(F, S, side)
    for c in range(nc):
        for k in range(k_n):
            _restore(R, S)
            if par[I_MODEL] >= 0.5:
                R.force[:] = -1   # a modelled enemy plans as a plain closer
            R.force[side] = LOOK_RANGES[c]
            dice.seed_trial(st2, key, k)
            for tt in range(turn, last + 1):
                if tt > turn:
                    _initiative(tt, F, R, init2, st2, no_script, quiet)
                quiet.logn[0] = 0
                if _turn_rest(tt, F, T, R, st2, no_script, res2, quiet) != TURN_ON:
                    break
            score[c, k] = _material(F, R, side) - base
    best = -1
    best_m = 0.0
    for c in range(1, nc):
        # the paired gain over the closer's own plan, and its standard error
        m = 0.0
        for k in range(k_n):
            m += score[c, k] - score[0, k]
        m /= k_n
        v = 0.0
        for k in range(k_n):
            d = score[c, k] - score[0, k] - m
            v += d * d
        se = np.sqrt(v / (k_n - 1) / k_n) if k_n > 1 else 0.0
        if m > margin * se and m > 1e-9 and (best < 0 or m > best_m):
            best = c
            best_m = m
    return -1 if best < 0 else LOOK_RANGES[best]


#: ``play``'s ``look`` for a battle in which an admiral looks ahead (None otherwise)
LOOKS = np.ones(1, dtype=np.int64)


def looks_of(F) -> "np.ndarray | None":
    """:data:`LOOKS` when a side of the fleet is played by the look-ahead admiral, else None."""
    return LOOKS if (np.asarray(F.side_int)[:, 3] == P_LOOKAHEAD).any() else None


@jit
def _look_ahead_sides(turn, F, T, S, st):
    """Each look-ahead side's range for this turn (``S.force``), from rollouts on a scratch
    board."""
    si, side_int = F.si, F.side_int
    R = _copy_state(S)   # the rollouts' board, overwritten from S for each one
    FM = _modelled(F)    # the enemies as the look-ahead admiral models them
    for side in range(side_int.shape[0]):
        if side_int[side, 3] == P_LOOKAHEAD and _side_alive(si, S.status, turn, side):
            S.force[side] = _look_ahead(turn, F, FM, T, S, R, side, st)


@jit
def play(F, T, st, script, result, side_out, L, look):
    """One battle of the :class:`Fleet` ``F`` under the :class:`~.procedures.Tables` ``T``, on the
    dice state (``st``, ``script``), logged into the :class:`Log` ``L``. ``result``: winner side
    (DRAW), level, turns, then a scripted move's fault (RES_*); ``side_out[side]``: surviving
    ships, surviving systems, hull spaces destroyed of the enemy, victory level, ships of its own
    destroyed. ``look``: ``None`` when no side's admiral looks ahead (numba then compiles no
    look-ahead: the branch is pruned for a None-typed argument, which keeps every other battle's
    cold compile as it was), else any array (:data:`LOOKS`)."""
    si, side_int, codes0, nsys, obj, scan, opt = (F.si, F.side_int, F.codes, F.nsys, F.obj,
                                                  F.scan, F.opt)
    log, logn = L.log, L.logn
    n = si.shape[0]
    nsides = side_int.shape[0]
    turns = opt[O_TURNS]
    hp = np.empty(codes0.shape, dtype=np.int64)
    for s in range(n):
        for j in range(codes0.shape[1]):
            hp[s, j] = 2 if j < nsys[s] else 0
    status = np.zeros(n, dtype=np.int64)
    col = si[:, SI_COL].copy()
    row = si[:, SI_ROW].copy()
    fac = si[:, SI_FACING].copy()
    prog = si[:, SI_PROG].copy()
    link = np.zeros((n, n), dtype=np.int64)
    result[RES_FAULT] = 0
    prim_last = np.full(n, -10, dtype=np.int64)
    last_dmg = np.zeros(n, dtype=np.int64)
    fired = np.zeros(n, dtype=np.int64)
    mspent = np.zeros((n, 2), dtype=np.int64)  # DataLink volley joined: target + 1, families
    fired_upon = np.full(nsides, NEVER, dtype=np.int64)
    scanned = np.zeros((nsides, scan.shape[1]), dtype=np.int64)
    order = np.zeros(nsides, dtype=np.int64)
    pcol = np.zeros(n, dtype=np.int64)
    prow = np.zeros(n, dtype=np.int64)
    mp = np.zeros(n, dtype=np.int64)
    pivoted = np.zeros(n, dtype=np.int64)
    comp = np.zeros(n, dtype=np.int64)
    goal = np.zeros(3, dtype=np.int64)
    shipev = np.zeros((n, MAX_RANGE + 1), dtype=np.float64)
    pd_fired = np.zeros(codes0.shape[1], dtype=np.int64)
    out = np.zeros(3, dtype=np.int64)
    chosen = np.zeros(n + 1, dtype=np.int64)  # distinct targets of one ship: at most n
    pick = np.zeros(2, dtype=np.float64)  # _pick_target: (ship, score)
    mode = np.zeros(n, dtype=np.int64)
    init_roll = np.zeros(nsides, dtype=np.int64)
    force = np.full(nsides, -1, dtype=np.int64)
    S = State(hp, status, col, row, fac, prog, link, prim_last, last_dmg, fired, mspent,
              fired_upon, scanned, order, pcol, prow, mp, pivoted, comp, goal, shipev, pd_fired,
              out, chosen, pick, mode, force)
    turn = 0
    for turn in range(1, turns + 1):
        _initiative(turn, F, S, init_roll, st, script, L)
        if look is not None:
            _look_ahead_sides(turn, F, T, S, st)
        code = _turn_rest(turn, F, T, S, st, script, result, L)
        if code == TURN_FAULT:
            return
        if code == TURN_OVER:
            break
    # victory levels
    best_level = 0
    winner = DRAW
    tie = False
    for side in range(nsides):
        lvl = 0
        obj_kind = side_int[side, 0]
        mine_lost = 0
        theirs_lost = 0
        enemies_destroyed = 0
        all_destroyed = True
        exited_ok = False
        on_map = False
        surv_ships = 0
        surv_sys = 0
        ships_lost = 0
        all_gone = True
        for s in range(n):
            if si[s, SI_SIDE] != side and (status[s] == ON_MAP or (
                    status[s] == NOT_ARRIVED and si[s, SI_ARRIVES] > turn)):
                all_gone = False
        for s in range(n):
            if si[s, SI_SIDE] == side:
                if status[s] == DESTROYED:
                    mine_lost += si[s, SI_SIZE]
                    ships_lost += 1
                else:
                    surv_ships += 1
                    surv_sys += _intact(hp, s, nsys)
                if status[s] == ON_MAP:
                    on_map = True
                if status[s] == EXITED and si[s, SI_ESCORT] == 0:
                    e = side_int[side, 2]
                    if e >= 0 and col[s] == obj[e, 1] and row[s] == obj[e, 2]:
                        exited_ok = True
            else:
                if status[s] == DESTROYED:
                    theirs_lost += si[s, SI_SIZE]
                    enemies_destroyed += 1
                else:
                    all_destroyed = False
        if obj_kind == 0:
            if all_destroyed:
                lvl = 2
            elif enemies_destroyed > 0 and theirs_lost > mine_lost and on_map:
                lvl = 1
        elif obj_kind == 1:
            if exited_ok:
                lvl = 1
                all_scanned = True
                for k in range(scan.shape[1]):
                    if scan[side, k, 0] >= 0 and scanned[side, k] == 0:
                        all_scanned = False
                if all_scanned:
                    lvl = 2
        else:
            if on_map and (turn == turns or all_gone):
                lvl = 2
        side_out[side, 0] = surv_ships
        side_out[side, 1] = surv_sys
        side_out[side, 2] = theirs_lost
        side_out[side, 3] = lvl
        side_out[side, 4] = ships_lost
        if lvl > best_level:
            best_level = lvl
            winner = side
            tie = False
        elif lvl == best_level and lvl > 0:
            tie = True
    if tie:
        winner = DRAW
    result[RES_WINNER] = winner
    result[RES_LEVEL] = best_level if winner >= 0 else 0
    result[RES_TURNS] = turn
    _log(log, logn, EV_END, turn, winner, result[RES_LEVEL], 0, 0, 0, 0, 0)


# per-trial statistics layout: global, then per side
G_DRAWS, G_TURNS, G_TURNS_SQ, G_HIST = 0, 1, 2, 3
S_WINS, S_DECISIVE, S_SHIPS, S_SHIPS_SQ, S_SYS, S_SYS_SQ, S_KILLS = range(7)
# how the side's wins came (turns of the battles it won) and what it cost (own ships destroyed)
S_WIN_TURNS, S_WIN_TURNS_SQ, S_LOST, S_LOST_SQ = range(7, 11)
N_SIDE_STATS = 11
SIDE_OUT_W = 5


@jit
def _battles_block(F, T, key, lo, hi, acc, look):
    nsides = F.side_int.shape[0]
    n_glob = G_HIST + F.opt[O_TURNS] + 1
    st = np.zeros(dice.STATE_SIZE, dtype=np.uint64)
    result = np.zeros(6, dtype=np.int64)
    side_out = np.zeros((nsides, SIDE_OUT_W), dtype=np.int64)
    log = np.zeros((0, LOG_W), dtype=np.int64)
    logn = np.zeros(1, dtype=np.int64)
    hpsnap = np.zeros((0, F.codes.shape[1]), dtype=np.int64)
    L = Log(log, logn, hpsnap)
    no_script = np.zeros(0, dtype=np.int64)  # a local array: same type as playthrough's
    for t in range(lo, hi):
        dice.seed_trial(st, key, t)
        play(F, T, st, no_script, result, side_out, L, look)
        w = result[0]
        if w < 0:
            acc[G_DRAWS] += 1
        acc[G_TURNS] += result[2]
        acc[G_TURNS_SQ] += result[2] * result[2]
        acc[G_HIST + result[2]] += 1
        for side in range(nsides):
            base = n_glob + side * N_SIDE_STATS
            if w == side:
                acc[base + S_WINS] += 1
                if result[1] == 2:
                    acc[base + S_DECISIVE] += 1
                acc[base + S_WIN_TURNS] += result[2]
                acc[base + S_WIN_TURNS_SQ] += result[2] * result[2]
            acc[base + S_LOST] += side_out[side, 4]
            acc[base + S_LOST_SQ] += side_out[side, 4] * side_out[side, 4]
            acc[base + S_SHIPS] += side_out[side, 0]
            acc[base + S_SHIPS_SQ] += side_out[side, 0] * side_out[side, 0]
            acc[base + S_SYS] += side_out[side, 1]
            acc[base + S_SYS_SQ] += side_out[side, 1] * side_out[side, 1]
            acc[base + S_KILLS] += side_out[side, 2]


def battles_kernel(F, T, key, first, n):
    """Summed statistics of battles first..first+n-1 (battle t from stream (key, t))."""
    n_stat = G_HIST + int(F.opt[O_TURNS]) + 1 + F.side_int.shape[0] * N_SIDE_STATS
    look = looks_of(F)
    return sum_blocks(lambda lo, hi, acc: _battles_block(F, T, key, lo, hi, acc, look),
                      first, n, n_stat)


# --- the simulation the runner plays, and its summaries ---------------------------------------
# (Python: imported with the kernels above, which it drives)

def expected_values(tables) -> np.ndarray:
    """ev[family, range]: expected half points of one weapon, no defences (for the policies)."""
    from ..core.exact import p_at_most

    ev = np.zeros(tables.hit_number.shape, dtype=np.float64)
    for f in range(ev.shape[0]):
        for r in range(ev.shape[1]):
            h, e = tables.hit_number[f, r], tables.effect_halves[f, r]
            if h >= 0 and e >= 0:
                p = 1.0 if h >= 12 else float(p_at_most(2, 6, int(h))) if h >= 2 else 0.0
                ev[f, r] = p * e
    return ev


@dataclass
class BattleSim:
    scenario: Scenario
    name: str = "starfire battles"
    #: the rates --target-ci aims at (the victory breakdown's rates ride along)
    reported_rates = ("win_rate",)

    def __post_init__(self):
        sc = self.scenario
        self.tables = combat_tables(sc.variants)
        self.a = to_arrays(sc)
        self.mult = np.array([s.sheet.multiplex for s in sc.ships], dtype=np.int64)
        self.ev = expected_values(self.tables)
        self.nsides = len(sc.sides)
        self.n_glob = G_HIST + sc.turns + 1
        self.n_stats = self.n_glob + self.nsides * N_SIDE_STATS

        a = self.a
        #: the compiled kernels' arguments: the scenario's set-up and its combat tables
        self.fleet = Fleet(a.ship_int, a.side_int, a.side_par, a.codes, a.nsys, a.run_end,
                           self.mult, a.obj, a.scan, a.opt, a.moves, self.ev)
        self.kernel_tables = kernel_tables(self.tables)

    def chunk(self, key, first, n):
        return battles_kernel(self.fleet, self.kernel_tables, np.uint64(key), first, n)

    def summarise(self, totals, n_trials):
        tot = np.asarray(totals)
        sc = self.scenario
        n = n_trials
        turns, t_lo, t_hi = stats.mean_ci(tot[G_TURNS], tot[G_TURNS_SQ], n)
        rows = []
        for i, side in enumerate(sc.sides):
            b = self.n_glob + i * N_SIDE_STATS
            wins = int(tot[b + S_WINS])
            lo, hi = stats.rate_ci(wins, n)
            ships, s_lo, s_hi = stats.mean_ci(tot[b + S_SHIPS], tot[b + S_SHIPS_SQ], n)
            syst, y_lo, y_hi = stats.mean_ci(tot[b + S_SYS], tot[b + S_SYS_SQ], n)
            rows.append({
                "scenario": sc.name, "side": side, "policy": sc.side_policy[i], "trials": n,
                "wins": wins, "draws": int(tot[G_DRAWS]), "win_rate": wins / n,
                "win_lo": float(lo), "win_hi": float(hi),
                "decisive_wins": int(tot[b + S_DECISIVE]),
                "draw_rate": tot[G_DRAWS] / n,
                "mean_turns": float(turns), "turns_lo": float(t_lo), "turns_hi": float(t_hi),
                "mean_surviving_ships": float(ships), "ships_lo": float(s_lo),
                "ships_hi": float(s_hi),
                "mean_surviving_systems": float(syst), "systems_lo": float(y_lo),
                "systems_hi": float(y_hi),
                "mean_enemy_hull_destroyed": tot[b + S_KILLS] / n,
                **_how_won(tot, b, wins, n),
            })
        return pd.DataFrame(rows)

    def turn_distribution(self, totals, n_trials):
        h = np.asarray(totals)[G_HIST:G_HIST + self.scenario.turns + 1]
        return pd.DataFrame({"turns": np.arange(len(h)), "games": h, "share": h / n_trials})


def _how_won(tot, b, wins, n):
    """How a side's battles were won: decisive and minor wins as shares of all battles (Wilson
    intervals), the turns its won battles lasted and its own ships destroyed per battle (t
    intervals; turns NaN when it won none)."""
    dec = int(tot[b + S_DECISIVE])
    d_lo, d_hi = stats.rate_ci(dec, n)
    m_lo, m_hi = stats.rate_ci(wins - dec, n)
    if wins > 0:
        wt, wt_lo, wt_hi = stats.mean_ci(tot[b + S_WIN_TURNS], tot[b + S_WIN_TURNS_SQ], wins)
    else:
        wt = wt_lo = wt_hi = float("nan")
    lost, l_lo, l_hi = stats.mean_ci(tot[b + S_LOST], tot[b + S_LOST_SQ], n)
    return {"decisive_rate": dec / n, "decisive_lo": float(d_lo), "decisive_hi": float(d_hi),
            "minor_rate": (wins - dec) / n, "minor_lo": float(m_lo), "minor_hi": float(m_hi),
            "mean_win_turns": float(wt), "win_turns_lo": float(wt_lo),
            "win_turns_hi": float(wt_hi),
            "mean_ships_lost": float(lost), "ships_lost_lo": float(l_lo),
            "ships_lost_hi": float(l_hi)}


#: the columns of :func:`how_battles_were_won`, beside side and policy
HOW_WON_COLUMNS = ("win_rate", "win_lo", "win_hi", "decisive_rate", "decisive_lo", "decisive_hi",
                   "minor_rate", "minor_lo", "minor_hi", "draw_rate", "mean_win_turns",
                   "win_turns_lo", "win_turns_hi", "mean_ships_lost", "ships_lost_lo",
                   "ships_lost_hi")


def how_battles_were_won(frame: pd.DataFrame) -> pd.DataFrame:
    """How each side's battles were won, from a scenario frame (:func:`scenario_table` or
    ``BattleSim.summarise``): win rate, decisive and minor wins (shares of all battles), the
    turns its won battles lasted and its own ships destroyed per battle, each with its 95%
    interval. One row per side (per pairing with ``--policies all``)."""
    keys = [c for c in ("scenario", "pairing", "side", "policy", "trials") if c in frame.columns]
    return frame[keys + list(HOW_WON_COLUMNS)].reset_index(drop=True)
