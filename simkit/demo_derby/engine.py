"""A whole Demo Derby, Figure-8 race or combined event (demo-derby.txt: Game Flow, Record Your
Move, Move and Crash, Record Sheet, Special Damage Cards, Winning the Game, Figure-8 Race,
Variants), as one compiled kernel driven by parameterised driver policies.

Each round every car still in the game plots a direction and speed (``plot_policy``: all plots
are made from the state at the start of the round, so they are secret and simultaneous), then
cars move in turn order from the starting player. The rules enforced on a plot: a car starts
stopped; it may gain up to 3 hexes of speed a round forward or 2 in reverse; lowering the speed
is braking; it must stop before changing direction; its speed is capped by its highest uncrossed
engine box. On its turn a car first rolls for each special damage card with a die (green listed
result: the card ends and goes under the deck; red: the car is out; otherwise its effect holds),
counts down a full radiator (two more turns, then it stalls), and rolls 5-6 to get out of mud or
the ditch. It then moves its speed less one hex per flat tire, hex by hex, each hex straight
ahead (behind when reversing) or to either side of its path (the policy steers), turning one
hexside as it moves. Entering:

* a car's hex (after the first round): a crash (``crash.crash_once``); the rammer stays on the
  hex it came from; both cars stop; a target that has not moved yet this round is "hit before
  moving" and may move only up to 3 forward / 2 reverse; the point of impact is the target's
  hexside the rammer comes through;
* a wall or light pole: damage table in the car's own speed column, roll unmodified, read in its
  front (rear when reversing) column; the car stops. A wreck (a car put out stays on the board
  as an obstacle) counts as an obstacle too;
* the access ramp: the car leaves the game;
* mud or ditch: the car enters and is stuck.

After each round a car that has neither crashed into a car nor been crashed into for eight
rounds in a row is disqualified, unless only two players have cars left (never in a race). The
last player with a car that can move wins; after 64 rounds with more than one player left, or if
the last cars go out together, it is a tie. In a Figure-8 race (``lim[LIM_LAPS]`` > 0) laps are
counted from the crossings of the line through the two poles (``_lap_step``) and the first car
to complete its laps wins at once. The combined event (``play_event``) plays a race, regroups
the survivors on the derby spots with their damage (``regroup``) and plays a derby.

The drivers (``policies``) plot and steer; the state layout they share with this kernel is
``pieces.layout``.

Seating and ties: every event rolls an order of the cars (``draw_ranks``): turn order runs
clockwise over it from the starting player, and any choice among equals goes to the car first
in it, so nothing depends on a car's place in the scenario file (DESIGN.md "Ties never follow
list order"). Starting player: a uniform pick (a roll-off among equal dice is uniform). Start
spots: car k on spot k of the pool, or a uniform deal (``deal_spots``). Policies are numba
functions chosen by id with a parameter vector per car; a player (team) id per car lets a
player field several cars.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple

import numpy as np
import pandas as pd

from ..core.extras import Extras
from ..core import dice, eventlog
from ..core._numba import jit
from ..core.blocks import sum_blocks
from ..core.stats import mean_ci, quantiles_from_histogram, rate_ci
from .pieces import arena as A
from .pieces.layout import (C_ALIVE, C_COL, C_CRASHED, C_DIR, C_FACING, C_FIN, C_HIT, C_LAPK,
                            C_LAPSGN, C_LAPST, C_LEFT, C_LOCKED, C_MODE, C_MOVED, C_NOCRASH, C_OUT,
                            C_OUTRND, C_PLDIR, C_PLSPEED, C_RADT, C_RANK, C_ROW, C_SPEED,
                            C_STRAIGHT, C_STUCK, C_TARGET, E_FENDERS, E_FORWARD_ONLY, E_MAX_SPEED,
                            E_NO_MOVE, E_NONE, E_SKIP, E_STRAIGHT, EV_BLOCKED, EV_CARD, EV_CRASH,
                            EV_DAMAGE, EV_FREE, EV_LAP, EV_MOVE, EV_OBSTACLE, EV_OUT, EV_PLOT,
                            EV_STUCK, EVENTS, L_RED, LIM_ACC_F, LIM_ACC_R, LIM_COLL_F, LIM_COLL_R,
                            LIM_CRASHES, LIM_DQ, LIM_FIRST_ROUND, LIM_FLAT, LIM_LAPS, LIM_MAX_TURNS,
                            LIM_NO_CRASH, LIM_OBST_MOD, LIM_PA_C, LIM_PA_R, LIM_PB_C, LIM_PB_R,
                            LIM_PHASED, LIM_RAD_TURNS, LIM_ROUND0, LIM_SAME_COL, LIM_VECTOR,
                            MAX_HELD, N_CAR, N_LIM, OUT_REASONS, R_DQ, R_LEFT, R_RED, R_STALLED,
                            R_WRECKED, _blocking, _centre, _impact_from, limits_vector)
from .pieces.sheet import flat_tires, is_out, max_speed, radiator_full
from .policies import (P_CRUISE, P_PLAYER, P_POLICY, POLICIES, expand_params,
                       driver_tables, new_clearance, _players_alive, _plot_plan, plot_policy,
                       _steer)
from .procedures import (CARDS_R, CARDS_T, N_OUT, OUT_SIZE, Impact, _damage_car, crash_once,
                         hit_tables, kernel_tables, new_deck, return_card)
from .rules import FRONT, LAPS, REAR, Tables


class Derby(NamedTuple):
    """One derby's changing state, passed to compiled code as ``S``."""
    cars: np.ndarray      # int64[car, C_*]
    sheets: np.ndarray    # int64[car, location]: boxes crossed on each record sheet
    held: np.ndarray      # int64[car, MAX_HELD]: special damage cards held (-1 none)
    occ: np.ndarray       # int64[row, col]: car + 1 on that hex, 0 none
    dk: np.ndarray        # the deck (``procedures.new_deck``)


class Ground(NamedTuple):
    """The arena as compiled code reads it, ``G``: terrain and the drivers' clearance."""
    terrain: np.ndarray   # int64[row, col]
    clear: np.ndarray     # int64[2, row, col, 6]: ``policies.clearance``


class Log(NamedTuple):
    """The event log, ``L`` (a zero-row log when not logging)."""
    log: np.ndarray
    nlog: np.ndarray


class Event(NamedTuple):
    """What the Monte Carlo of an :class:`EventSimulation` plays, ``E``."""
    params: np.ndarray    # int64[car, P_*]
    pool: np.ndarray      # int64[spot, 3]: start spots (row, col, facing)
    pool2: np.ndarray     # the combined event's derby spots
    random_spots: int     # 1: cars are dealt spots at random
    lim: np.ndarray       # int64[LIM_*]
    lim2: np.ndarray      # the combined event's derby limits (LIM_MAX_TURNS 0: none)
    deck: np.ndarray      # a fresh deck


class Stages(NamedTuple):
    """The parts of one event :func:`play_event` plays, ``EV``; the Monte Carlo makes it once a
    block of games and rewrites ``lim2`` in place."""
    lim: np.ndarray       # int64[LIM_*]: the derby, the race, or the combined event's race
    lim2: np.ndarray      # the combined event's derby limits (LIM_MAX_TURNS 0: none); written
    starts2: np.ndarray   # int64[car, 3]: the combined event's derby start of each car


def ground(terrain) -> Ground:
    return Ground(np.ascontiguousarray(terrain, np.int64), new_clearance(terrain))


@jit
def _log(L, rnd, car, ev, a, b):
    """One event in the shared layout (:mod:`simkit.core.eventlog`): the round as the turn, no
    phase, the car as the actor."""
    log, nlog = L.log, L.nlog
    eventlog.write_event(log, nlog, (rnd, -1, car, ev, a, b, 0, 0, 0, 0, 0))


@jit
def _eliminate(i, reason, S, L, rnd):
    cars, held, occ, dk = S.cars, S.held, S.occ, S.dk
    if cars[i, C_ALIVE] == 0:
        return
    cars[i, C_ALIVE] = 0
    cars[i, C_OUT] = reason
    for h in range(MAX_HELD):  # an eliminated player returns its cards
        if held[i, h] >= 0:
            return_card(dk, held[i, h])
            held[i, h] = -1
    p = cars[i, C_LOCKED] - 1
    if p >= 0:
        cars[p, C_LOCKED] = 0
        cars[i, C_LOCKED] = 0
    if reason == R_LEFT:
        occ[cars[i, C_ROW], cars[i, C_COL]] = 0  # left the arena: no wreck
    _log(L, rnd, i, EV_OUT, reason, 0)


@jit
def _take_card(i, c, other, S, T, L, rnd):
    """A drawn card: kept face up if it has a die or a lasting effect, else back under the deck."""
    cars, held, dk = S.cars, S.held, S.dk
    card_light, card_effect = T.card_light, T.card_effect
    if c < 0:
        return
    _log(L, rnd, i, EV_CARD, c, other)
    if card_light[c] == 0 and card_effect[c] == E_NONE:
        return_card(dk, c)
        return
    for h in range(MAX_HELD):
        if held[i, h] < 0:
            held[i, h] = c
            break
    if card_effect[c] == E_FENDERS and other >= 0 and cars[other, C_ALIVE] == 1:
        cars[i, C_LOCKED] = other + 1
        cars[other, C_LOCKED] = i + 1


@jit
def _after_damage(i, S, capacity, lim, L, rnd):
    cars, sheets = S.cars, S.sheets
    if radiator_full(sheets[i], capacity) and cars[i, C_RADT] < 0:
        cars[i, C_RADT] = lim[LIM_RAD_TURNS]
    if is_out(sheets[i], capacity):
        _eliminate(i, R_WRECKED, S, L, rnd)


# --- Figure-8 lap counting -----------------------------------------------------------------------
# A lap is read from the two poles alone. The line through them splits into the left ray (L, away
# from the right pole), the gap between them (G) and the right ray (R). A figure 8 crosses that
# line L, G, R, G, L... and every ray crossing goes the same way (say upward) while every gap
# crossing goes the other way; an oval round both poles (L up, R down) or a loop round one pole
# (L, G, L) never makes that sequence. Each crossing that continues the sequence counts; crossing
# straight back over the last counted one undoes it; any other crossing is ignored. Four counted
# crossings after the first ray crossing (the start/finish line of the default arena) make a lap.
@jit
def _expected(k, p0, s):
    """(symbol, sign) of crossing number k + 1 after the start (0 L, 1 G, 2 R): the chain runs
    L G R G L ... from the starting ray p0, rays crossed with sign s and the gap with -s."""
    pos = (p0 + k + 1) % 4
    if pos % 2 == 1:
        return 1, -s
    return pos, s


@jit
def lap_crossing(r0, c0, r1, c1, lim):
    """Which part of the pole line a step from (r0, c0) to (r1, c1) crosses, and which way:
    (symbol 0 L / 1 G / 2 R, sign +1 to the left of the A->B direction), or (-1, 0)."""
    ax, ay = _centre(lim[LIM_PA_R], lim[LIM_PA_C])
    bx, by = _centre(lim[LIM_PB_R], lim[LIM_PB_C])
    ux = bx - ax
    uy = by - ay
    px, py = _centre(r0, c0)
    qx, qy = _centre(r1, c1)
    sp = ux * (py - ay) - uy * (px - ax)
    sq = ux * (qy - ay) - uy * (qx - ax)
    a = 1 if sp >= 0 else -1
    b = 1 if sq >= 0 else -1
    if a == b:
        return -1, 0
    f = sp / (sp - sq) if sp != sq else 0.0
    ix = px + f * (qx - px)
    iy = py + f * (qy - py)
    t = ((ix - ax) * ux + (iy - ay) * uy) / (ux * ux + uy * uy)
    if t < 0:
        return 0, b
    if t > 1:
        return 2, b
    return 1, b


@jit
def _lap_step(i, r0, c0, r1, c1, cars, lim):
    sym, sgn = lap_crossing(r0, c0, r1, c1, lim)
    if sym < 0:
        return
    k = cars[i, C_LAPK]
    if k < 0:
        if sym != 1:  # the first ray crossing starts the race and fixes its sense
            cars[i, C_LAPK] = 0
            cars[i, C_LAPSGN] = sgn
            cars[i, C_LAPST] = sym
        return
    s = cars[i, C_LAPSGN]
    p0 = cars[i, C_LAPST]
    es, eg = _expected(k, p0, s)
    if sym == es and sgn == eg:
        cars[i, C_LAPK] = k + 1
    elif k > 0:
        ls, lg = _expected(k - 1, p0, s)
        if sym == ls and sgn == -lg:
            cars[i, C_LAPK] = k - 1
    elif sym == p0 and sgn == -s:  # back behind the line: not started after all
        cars[i, C_LAPK] = -1


@jit
def laps_done(cars, i):
    k = cars[i, C_LAPK]
    return k // 4 if k > 0 else 0


@jit
def _salt(st, i, rnd):
    return np.int64((st[dice.S0] ^ (st[dice.S1] >> np.uint64(1))) >> np.uint64(2)) + 7919 * i + rnd


# --- one turn ----------------------------------------------------------------------------------
@jit
def _legal_plot(i, S, capacity, lim):
    """Clamp a plot to the rules: stop before changing direction; acceleration limits; engine."""
    cars, sheets = S.cars, S.sheets
    pdir = cars[i, C_PLDIR]
    ps = cars[i, C_PLSPEED]
    cur_dir = cars[i, C_DIR]
    cur = cars[i, C_SPEED]
    if ps < 0:
        ps = 0
    if cur_dir != 0 and pdir != cur_dir:  # must brake first: the plot becomes a stop
        pdir = cur_dir
        ps = 0
    if pdir > 0:
        ps = min(ps, cur + lim[LIM_ACC_F] if cur_dir >= 0 else lim[LIM_ACC_F])
    elif pdir < 0:
        ps = min(ps, cur + lim[LIM_ACC_R] if cur_dir <= 0 else lim[LIM_ACC_R])
    else:
        ps = 0
    return pdir, min(ps, max_speed(sheets[i], capacity))


@jit
def _start_turn(st, script, i, rnd, S, G, T, lim, cout, L, params):
    """The start of a car's turn: card dice, locks, radiator, mud; then its speed and the
    hexes it has to move (cars[i, C_LEFT])."""
    cars, sheets, held, dk = S.cars, S.sheets, S.held, S.dk
    (capacity, card_die, card_light, card_effect, card_param) = (
        T.capacity, T.card_die, T.card_light, T.card_effect, T.card_param)
    cars[i, C_LEFT] = 0
    can_move = True
    straight = False
    fwd_only = False
    cap = 1 << 20
    # special damage cards: the die is rolled each round before moving
    for h in range(MAX_HELD):
        c = held[i, h]
        if c < 0:
            continue
        light = card_light[c]
        eff = card_effect[c]
        if light != 0:
            r = dice.d6(st, script)
            if card_die[c, r] == 1:
                if light == L_RED:
                    _eliminate(i, R_RED, S, L, rnd)
                    return
                held[i, h] = -1
                return_card(dk, c)
                if eff == E_FENDERS:
                    p = cars[i, C_LOCKED] - 1
                    if p >= 0:
                        cars[p, C_LOCKED] = 0
                    cars[i, C_LOCKED] = 0
                continue
        if eff == E_NO_MOVE:
            can_move = False
        elif eff == E_FENDERS:
            if cars[i, C_LOCKED] > 0:
                can_move = False
            else:  # the partner rolled free, or left the game: the card has ceased
                held[i, h] = -1
                return_card(dk, c)
        elif eff == E_STRAIGHT:
            straight = True
        elif eff == E_FORWARD_ONLY:
            fwd_only = True
        elif eff == E_MAX_SPEED:
            cap = min(cap, card_param[c])
        elif eff == E_SKIP:
            can_move = False
            held[i, h] = -1
            return_card(dk, c)
    # locked to a partner holding Fenders Locked: this car may roll to unlock too
    p = cars[i, C_LOCKED] - 1
    if p >= 0:
        for h in range(MAX_HELD):
            c = held[p, h]
            if c >= 0 and card_effect[c] == E_FENDERS:
                r = dice.d6(st, script)
                if card_die[c, r] == 1:
                    held[p, h] = -1
                    return_card(dk, c)
                    cars[p, C_LOCKED] = 0
                    cars[i, C_LOCKED] = 0
                else:
                    can_move = False
                break
    # a full radiator: two more turns, then the car stalls
    if cars[i, C_RADT] >= 0:
        if cars[i, C_RADT] == 0:
            _eliminate(i, R_STALLED, S, L, rnd)
            return
        cars[i, C_RADT] -= 1
    if cars[i, C_STUCK] == 1:
        if dice.d6(st, script) >= 5:
            cars[i, C_STUCK] = 0
            _log(L, rnd, i, EV_FREE, 0, 0)
        else:
            can_move = False
    cars[i, C_MOVED] = 1
    if not can_move:
        cars[i, C_SPEED] = 0
        cars[i, C_DIR] = 0
        return
    if cars[i, C_HIT] == 1:
        # hit before moving: speed zero, may still move up to 3 forward or 2 in reverse
        # "without regard to what the player recorded": the driver picks the distance anew on
        # the board as it is now, wanting the hexes it plotted (keeping the plotted direction)
        pdir = cars[i, C_PLDIR]
        allow = lim[LIM_COLL_F] if pdir >= 0 else lim[LIM_COLL_R]
        want = max(cars[i, C_PLSPEED] - lim[LIM_FLAT] * flat_tires(sheets[i], capacity), 0)
        _plot_plan(i, want, S, T, params, G, lim, rnd, _salt(st, i, rnd), 1 if pdir >= 0 else -1,
                   allow)
        ps = cars[i, C_PLSPEED] if cars[i, C_PLDIR] == pdir else 0
        ps = min(ps, allow, max_speed(sheets[i], capacity))
        if ps < 0:
            ps = 0
    else:
        pdir, ps = _legal_plot(i, S, capacity, lim)
    ps = min(ps, cap)
    if fwd_only and pdir < 0:
        ps = 0
    if ps == 0:
        pdir = 0
    cars[i, C_SPEED] = ps
    cars[i, C_DIR] = pdir
    hexes = ps - lim[LIM_FLAT] * flat_tires(sheets[i], capacity)
    cars[i, C_LEFT] = max(hexes, 0)
    cars[i, C_STRAIGHT] = 1 if straight else 0


@jit
def _step(st, script, i, rnd, S, G, T, lim, cout, L, params):
    """One hex of a car's move (decrements cars[i, C_LEFT]; zero once the move ends)."""
    cars, sheets, occ, dk = S.cars, S.sheets, S.occ, S.dk
    terrain = G.terrain
    (damage, special, capacity, ext_damage, vec_sign, vec_div) = (
        T.damage, T.special, T.capacity, T.ext_damage, T.vec_sign, T.vec_div)
    pdir = cars[i, C_DIR]
    ps = cars[i, C_SPEED]
    straight = cars[i, C_STRAIGHT] == 1
    turn = _steer(i, pdir, straight, S, G, rnd, lim, params, driver_tables(T), _salt(st, i, rnd))
    nf = (cars[i, C_FACING] + turn) % 6
    travel = nf if pdir > 0 else (nf + 3) % 6
    row = cars[i, C_ROW]
    col = cars[i, C_COL]
    nr, nc = A.neighbour(row, col, travel)
    o = occ[nr, nc] - 1
    ter = terrain[nr, nc]
    if o >= 0 and cars[o, C_ALIVE] == 1:
        if (rnd == lim[LIM_ROUND0] + 1 and lim[LIM_FIRST_ROUND] == 1) or lim[LIM_CRASHES] == 0:
            # no crashes in the first round (or in a race played without crashes): the car
            # goes no further
            _log(L, rnd, i, EV_BLOCKED, o, 0)
            cars[i, C_LEFT] = 0
            return
        # the rammer stays on the hex it came from; impact by the target's hexside
        impact = _impact_from(o, row, col, cars)
        rcol = impact if lim[LIM_SAME_COL] == 1 else (FRONT if pdir > 0 else REAR)
        if lim[LIM_VECTOR] == 1:
            # Vector Collisions: the column from both speeds, on the extended table
            col = ps + vec_sign[impact] * (cars[o, C_SPEED] // vec_div[impact])
            col = min(max(col, 0), ext_damage.shape[1] - 1)
            crash_once(st, script, Impact(col, impact, rcol), ext_damage, T.ext_special,
                       hit_tables(T), sheets[o], sheets[i], dk, cout)
        else:
            crash_once(st, script, Impact(ps, impact, rcol), damage, special, hit_tables(T),
                       sheets[o], sheets[i], dk, cout)
        _log(L, rnd, i, EV_CRASH, o, impact)
        _log(L, rnd, i, EV_DAMAGE, cout[0], cout[N_OUT])  # points to target, rammer
        _take_card(o, cout[CARDS_T], i, S, T, L, rnd)
        _take_card(o, cout[CARDS_T + 1], i, S, T, L, rnd)
        _take_card(i, cout[CARDS_R], o, S, T, L, rnd)
        _take_card(i, cout[CARDS_R + 1], o, S, T, L, rnd)
        for k in (i, o):  # each crash stops both cars
            cars[k, C_SPEED] = 0
            cars[k, C_DIR] = 0
            cars[k, C_CRASHED] = 1
        if cars[o, C_MOVED] == 0:
            cars[o, C_HIT] = 1
        _after_damage(o, S, capacity, lim, L, rnd)
        _after_damage(i, S, capacity, lim, L, rnd)
        cars[i, C_LEFT] = 0
        return
    if _blocking(ter) or o >= 0:
        # wall, light pole or wreck: the damage table at the car's own speed, roll unmodified
        r = dice.d6(st, script) + lim[LIM_OBST_MOD]
        r = min(max(r, 0), 6)
        _damage_car(st, script, damage[r, ps], special[r, ps], FRONT if pdir > 0 else REAR,
                    hit_tables(T), sheets[i], dk, cout, 0, CARDS_T)
        _log(L, rnd, i, EV_OBSTACLE, ter, cout[0])
        _take_card(i, cout[CARDS_T], -1, S, T, L, rnd)
        _take_card(i, cout[CARDS_T + 1], -1, S, T, L, rnd)
        cars[i, C_SPEED] = 0
        cars[i, C_DIR] = 0
        _after_damage(i, S, capacity, lim, L, rnd)
        cars[i, C_LEFT] = 0
        return
    occ[row, col] = 0
    cars[i, C_ROW] = nr
    cars[i, C_COL] = nc
    cars[i, C_FACING] = nf
    if ter == A.RAMP:
        _eliminate(i, R_LEFT, S, L, rnd)
        return
    occ[nr, nc] = i + 1
    _log(L, rnd, i, EV_MOVE, nr, nc)
    if lim[LIM_LAPS] > 0:
        before = laps_done(cars, i)
        _lap_step(i, row, col, nr, nc, cars, lim)
        done = laps_done(cars, i)
        if done != before:
            sheets[i, LAPS] = min(done, capacity[LAPS])  # laps are marked on the record sheet
            _log(L, rnd, i, EV_LAP, done, 0)
        if done >= lim[LIM_LAPS]:
            cars[i, C_FIN] = 1   # first to complete the laps: the race is over at once
            cars[i, C_LEFT] = 0
            return
    if ter == A.MUD or ter == A.DITCH:
        cars[i, C_STUCK] = 1
        cars[i, C_SPEED] = 0
        cars[i, C_DIR] = 0
        _log(L, rnd, i, EV_STUCK, ter, 0)
        cars[i, C_LEFT] = 0
        return
    cars[i, C_LEFT] -= 1


@jit
def _turn(st, script, i, rnd, S, G, T, lim, cout, L, params):
    """A whole turn in the rulebook's turn order."""
    cars = S.cars
    _start_turn(st, script, i, rnd, S, G, T, lim, cout, L, params)
    while cars[i, C_ALIVE] == 1 and cars[i, C_LEFT] > 0:
        _step(st, script, i, rnd, S, G, T, lim, cout, L, params)


@jit
def _alive(cars):
    n = 0
    for i in range(cars.shape[0]):
        n += cars[i, C_ALIVE]
    return n


@jit
def setup(S, starts, n_cars):
    cars, sheets, held, occ = S.cars, S.sheets, S.held, S.occ
    cars[:] = 0
    sheets[:] = 0
    held[:] = -1
    occ[:] = 0
    for i in range(n_cars):
        cars[i, C_ROW] = starts[i, 0]
        cars[i, C_COL] = starts[i, 1]
        cars[i, C_FACING] = starts[i, 2]
        cars[i, C_ALIVE] = 1
        cars[i, C_RADT] = -1
        cars[i, C_TARGET] = -1
        cars[i, C_LAPK] = -1
        cars[i, C_RANK] = i
        occ[starts[i, 0], starts[i, 1]] = i + 1


@jit
def draw_ranks(st, script, cars):
    """The event's seating and tie-break order (cars[:, C_RANK]): a uniform permutation of the
    cars from the dice stream (Fisher-Yates, one roll per car but the last)."""
    n = cars.shape[0]
    for i in range(n):
        cars[i, C_RANK] = i
    for k in range(n - 1, 0, -1):
        j = dice.roll(st, script, 1, k + 1) - 1
        for i in range(n):  # swap the ranks k and j
            if cars[i, C_RANK] == k:
                cars[i, C_RANK] = -1
        for i in range(n):
            if cars[i, C_RANK] == j:
                cars[i, C_RANK] = k
        for i in range(n):
            if cars[i, C_RANK] == -1:
                cars[i, C_RANK] = j


@jit
def regroup(S, starts, card_effect):
    """Between the two parts of the combined event: the survivors line up on the derby start
    spots, stopped, with the damage and cards they carry; wrecks are cleared; a Fenders Locked
    pair is separated (the card has ceased to have an effect)."""
    cars, held, occ, dk = S.cars, S.held, S.occ, S.dk
    occ[:] = 0
    for i in range(cars.shape[0]):
        if cars[i, C_LOCKED] > 0:
            cars[i, C_LOCKED] = 0
            for h in range(MAX_HELD):
                c = held[i, h]
                if c >= 0 and card_effect[c] == E_FENDERS:
                    held[i, h] = -1
                    return_card(dk, c)
        if cars[i, C_ALIVE] == 1:
            cars[i, C_ROW] = starts[i, 0]
            cars[i, C_COL] = starts[i, 1]
            cars[i, C_FACING] = starts[i, 2]
            occ[starts[i, 0], starts[i, 1]] = i + 1
        for k in (C_SPEED, C_DIR, C_STUCK, C_NOCRASH, C_HIT, C_MOVED, C_CRASHED, C_FIN):
            cars[i, k] = 0
        cars[i, C_LAPK] = -1


@jit
def play(st, script, params, S, G, T, lim, L, first_player):
    """Play one derby (or, with lim[LIM_LAPS] > 0, one Figure-8 race) from the set-up state.

    Returns (winning player or -1 for a tie, rounds played, winning car or -1, tie at the round
    limit 0/1). Rounds are numbered from lim[LIM_ROUND0] + 1 in the log."""
    cars = S.cars
    phases = T.phases
    n = cars.shape[0]
    cout = np.zeros(OUT_SIZE, np.int64)
    first = first_player
    if first < 0:
        first = dice.roll(st, script, 1, n) - 1 if n > 1 else 0
    r0 = lim[LIM_ROUND0]
    rnd = 0
    seat = np.zeros(n, np.int64)  # turn order: clockwise over the rolled order (C_RANK)
    for i in range(n):
        seat[cars[i, C_RANK]] = i
    before = np.zeros(n, np.int64)
    finished = -1
    while rnd < lim[LIM_MAX_TURNS] and _players_alive(cars, params)[0] > 1:
        rnd += 1
        R = r0 + rnd
        for i in range(n):
            before[i] = cars[i, C_ALIVE]
        for i in range(n):  # secret, simultaneous plots from the state at the round's start
            if cars[i, C_ALIVE] == 1:
                plot_policy(i, params, S, T, G, lim, R, _salt(st, i, R))
        for i in range(n):  # logged after all plots: no plot can have seen another
            if cars[i, C_ALIVE] == 1:
                _log(L, R, i, EV_PLOT, cars[i, C_PLDIR] * cars[i, C_PLSPEED], cars[i, C_MODE])
        over = False
        if lim[LIM_PHASED] == 0:
            for k in range(n):
                i = seat[(first + k) % n]
                if cars[i, C_ALIVE] == 1:
                    _turn(st, script, i, R, S, G, T, lim, cout, L, params)
                if cars[i, C_FIN] == 1:
                    finished = i
                if finished >= 0 or _players_alive(cars, params)[0] <= 1:
                    over = True
                    break
        else:
            # Phased Moves: every car's turn starts in turn order, then one hex at a time by
            # phase, faster speeds first, turn order within a speed
            for k in range(n):
                i = seat[(first + k) % n]
                if cars[i, C_ALIVE] == 1:
                    _start_turn(st, script, i, R, S, G, T, lim, cout, L, params)
            for ph in range(1, phases.shape[1]):
                for sp in range(phases.shape[0] - 1, 0, -1):
                    if phases[sp, ph] == 0:
                        continue
                    for k in range(n):
                        i = seat[(first + k) % n]
                        if cars[i, C_ALIVE] == 1 and cars[i, C_SPEED] == sp and cars[i, C_LEFT] > 0:
                            _step(st, script, i, R, S, G, T, lim, cout, L, params)
                            if cars[i, C_FIN] == 1:
                                finished = i
                                break
                    if finished >= 0:
                        break
                if finished >= 0 or _players_alive(cars, params)[0] <= 1:
                    over = True
                    break
        n_players = _players_alive(cars, params)[0]
        dq = np.zeros(n, np.bool_)
        for i in range(n):
            if cars[i, C_ALIVE] == 1:
                if cars[i, C_CRASHED] == 1:
                    cars[i, C_NOCRASH] = 0
                else:
                    cars[i, C_NOCRASH] += 1
                if (not over and lim[LIM_DQ] == 1 and n_players > 2
                        and cars[i, C_NOCRASH] >= lim[LIM_NO_CRASH]):
                    dq[i] = True
            cars[i, C_CRASHED] = 0
            cars[i, C_HIT] = 0
            cars[i, C_MOVED] = 0
        for i in range(n):  # disqualifications at the end of the round, all at once
            if dq[i]:
                _eliminate(i, R_DQ, S, L, R)
        for i in range(n):
            if before[i] == 1 and cars[i, C_ALIVE] == 0:
                cars[i, C_OUTRND] = R
        if over:
            break
    if finished >= 0:
        return params[finished, P_PLAYER], rnd, finished, 0
    k, last = _players_alive(cars, params)
    if k == 1:  # the winner's surviving car seated first (never the lowest index)
        car = -1
        for i in range(n):
            if cars[i, C_ALIVE] == 1 and (car < 0 or cars[i, C_RANK] < cars[car, C_RANK]):
                car = i
        return last, rnd, car, 0
    return -1, rnd, -1, 1 if k > 1 else 0


@jit
def play_event(st, script, params, S, G, T, EV, L, first_player, out):
    """A whole event (``EV``: :class:`Stages`): a derby or a race (lim), or, when
    lim2[LIM_MAX_TURNS] > 0, the combined event: the race under ``lim``, then a derby under
    ``lim2`` for the cars still in the game, from ``starts2`` with the damage and cards they
    carry. Fills ``out``: winning player, total rounds, winning car, tie at the round limit,
    race winner car, race rounds."""
    lim, lim2, derby_starts = EV.lim, EV.lim2, EV.starts2
    cars = S.cars
    card_effect = T.card_effect
    n = cars.shape[0]
    first = first_player
    if first < 0:
        first = dice.roll(st, script, 1, n) - 1 if n > 1 else 0
    draw_ranks(st, script, cars)
    w, rounds, car, tie64 = play(st, script, params, S, G, T, lim, L, first)
    out[4] = car
    out[5] = rounds
    if lim2[LIM_MAX_TURNS] > 0:
        regroup(S, derby_starts, card_effect)
        lim2[LIM_ROUND0] = rounds
        w, r2, car, tie64 = play(st, script, params, S, G, T, lim2, L, first)
        rounds += r2
    out[0] = w
    out[1] = rounds
    out[2] = car
    out[3] = tie64


# --- Monte Carlo -------------------------------------------------------------------------------
MAX_ROUNDS = 128     # a combined event: up to 64 rounds of race, then 64 of derby
MAXC = 6
# stats (integers): wins per player, ties at the round limit, ties with every car out, rounds
# sum / sum of squares / histogram, out reasons per car, the round each car went out (0 = never),
# games with a car on each start spot and games its player won, race winner per car, race rounds
S_WINS = 0
S_TIES = MAXC
S_TIE64 = S_TIES + 1
S_ROUNDS = S_TIE64 + 1
S_ROUNDS_SQ = S_ROUNDS + 1
S_HIST = S_ROUNDS_SQ + 1
S_REASONS = S_HIST + MAX_ROUNDS + 1
S_OUTRND = S_REASONS + MAXC * 6
S_SPOTN = S_OUTRND + MAXC * (MAX_ROUNDS + 1)
S_SPOTWIN = S_SPOTN + MAXC
S_CARWIN = S_SPOTWIN + MAXC
S_RACEWIN = S_CARWIN + MAXC
S_RACE_ROUNDS = S_RACEWIN + MAXC
S_RACE_ROUNDS_SQ = S_RACE_ROUNDS + 1
N_DERBY_STATS = S_RACE_ROUNDS_SQ + 1


@jit
def deal_spots(st, script, pool, n_cars, random_spots, spot_of):
    """Which spot of ``pool`` each car starts on: car k on spot k, or a uniform draw of n_cars
    of the pool's spots (the rulebook's players choose their spots in turn; a uniform deal
    stands in for that choice)."""
    m = pool.shape[0]
    for k in range(m):
        spot_of[k] = k
    if random_spots == 1:
        for k in range(n_cars):
            j = k + dice.roll(st, script, 1, m - k) - 1 if m - k > 1 else k
            t = spot_of[k]
            spot_of[k] = spot_of[j]
            spot_of[j] = t


@jit
def _event_block(key, lo, hi, E, G, T, acc):
    """Trials lo..hi-1 of the :class:`Event` ``E`` on the ground ``G``, their integer statistics
    added to ``acc``."""
    params, pool, pool2, random_spots, lim, lim2, dk0 = (E.params, E.pool, E.pool2,
                                                         E.random_spots, E.lim, E.lim2, E.deck)
    n_cars = params.shape[0]
    st = np.zeros(dice.STATE_SIZE, np.uint64)
    S = Derby(np.zeros((n_cars, N_CAR), np.int64),
              np.zeros((n_cars, T.capacity.shape[0]), np.int64),
              np.full((n_cars, MAX_HELD), -1, np.int64), np.zeros(G.terrain.shape, np.int64),
              dk0.copy())
    cars, dk = S.cars, S.dk
    L = Log(np.zeros((0, eventlog.WIDTH), np.int64), np.zeros(1, np.int64))  # nothing kept
    spot_of = np.zeros(pool.shape[0], np.int64)
    starts = np.zeros((n_cars, 3), np.int64)
    starts2 = np.zeros((n_cars, 3), np.int64)
    out = np.zeros(6, np.int64)
    lim2c = lim2.copy()
    EV = Stages(lim, lim2c, starts2)
    for t in range(lo, hi):
        dice.seed_trial(st, key, t)
        deal_spots(st, dice.NO_SCRIPT, pool, n_cars, random_spots, spot_of)
        for i in range(n_cars):
            starts[i] = pool[spot_of[i]]
            starts2[i] = pool2[spot_of[i]]
        setup(S, starts, n_cars)
        dk[:] = dk0
        L.nlog[0] = 0
        lim2c[:] = lim2
        play_event(st, dice.NO_SCRIPT, params, S, G, T, EV, L, -1, out)
        w = out[0]
        rounds = out[1]
        if w >= 0:
            acc[S_WINS + w] += 1
            if cars[out[2], C_FIN] == 1:  # first across the line in a race
                acc[S_CARWIN + out[2]] += 1
            else:  # every car of the winning player still moving (never one by index)
                for i in range(n_cars):
                    if cars[i, C_ALIVE] == 1 and params[i, P_PLAYER] == w:
                        acc[S_CARWIN + i] += 1
        elif out[3] == 1:
            acc[S_TIE64] += 1
        else:
            acc[S_TIES] += 1
        acc[S_ROUNDS] += rounds
        acc[S_ROUNDS_SQ] += rounds * rounds
        acc[S_HIST + rounds] += 1
        if out[4] >= 0:
            acc[S_RACEWIN + out[4]] += 1
        acc[S_RACE_ROUNDS] += out[5]
        acc[S_RACE_ROUNDS_SQ] += out[5] * out[5]
        for i in range(n_cars):
            acc[S_REASONS + 6 * i + cars[i, C_OUT]] += 1
            acc[S_OUTRND + (MAX_ROUNDS + 1) * i + cars[i, C_OUTRND]] += 1
            acc[S_SPOTN + spot_of[i]] += 1
            if w >= 0 and params[i, P_PLAYER] == w:
                acc[S_SPOTWIN + spot_of[i]] += 1


def _event_chunk(key, first, n, E, G, T):
    return sum_blocks(lambda lo, hi, acc: _event_block(key, lo, hi, E, G, T, acc), first, n,
                      N_DERBY_STATS)


@dataclass
class EventSimulation:
    """Many seeded derbies, races or combined events for the runner (integer statistics only).

    ``pool`` holds the start spots (row, col, facing) the cars are dealt from (car k on spot k
    unless ``random_spots``); ``pool2`` the derby spots of the combined event's second part."""
    tables: Tables
    arena: A.Arena
    params: np.ndarray
    pool: np.ndarray
    lim: np.ndarray
    lim2: np.ndarray
    pool2: np.ndarray | None = None
    random_spots: bool = False
    name: str = "demo-derby event"

    def __post_init__(self):
        self.params = expand_params(self.params)
        self.n_cars = int(self.params.shape[0])
        self.n_stats = N_DERBY_STATS
        self.pool = np.ascontiguousarray(self.pool, np.int64)
        self.pool2 = np.ascontiguousarray(self.pool if self.pool2 is None else self.pool2,
                                          np.int64)
        self._event = Event(self.params, self.pool, self.pool2, 1 if self.random_spots else 0,
                            np.asarray(self.lim, np.int64), np.asarray(self.lim2, np.int64),
                            new_deck(self.tables))
        self._ground = ground(self.arena.terrain)
        self._tables = kernel_tables(self.tables)

    def chunk(self, key, first, n):
        return _event_chunk(np.uint64(key), first, n, self._event, self._ground, self._tables)

    def summarise(self, totals, n_trials):
        return pd.DataFrame({"statistic": np.arange(len(totals)), "total": np.asarray(totals)})


@dataclass
class DerbySimulation:
    """Derbies with every car on its own start spot (car k on spot k); the ``simkit derby``
    command and the benchmark. ``params`` rows: at least the cruise speed (a hunter)."""
    tables: Tables
    arena: A.Arena
    params: np.ndarray
    name: str = "demo-derby derby"

    def __post_init__(self):
        self.params = expand_params(self.params)
        self.n_cars = int(self.params.shape[0])
        self.n_stats = N_DERBY_STATS
        self.lim = limits_vector(self.tables, self.arena)
        self._sim = EventSimulation(self.tables, self.arena, self.params,
                                    self.arena.starts[:self.n_cars], self.lim,
                                    np.zeros(N_LIM, np.int64))

    def chunk(self, key, first, n):
        return self._sim.chunk(key, first, n)

    def summarise(self, totals, n_trials):
        """One row per car (car k starts on spot k, so this is also the win rate per start
        spot) and one per kind of tie, each rate with its 95% Wilson interval; how cars went
        out (every way out, with interval) and how games end are in ``attrs["extra"]``."""
        t = np.asarray(totals)
        n = n_trials
        rows = []
        went_out = []
        for i in range(self.n_cars):
            k = int(t[S_WINS + self.params[i, P_PLAYER]])
            lo, hi = rate_ci(k, n)
            reasons = t[S_REASONS + 6 * i: S_REASONS + 6 * i + 6]
            row = {"car": i + 1, "start_spot": i + 1,
                   "policy": POLICIES[self.params[i, P_POLICY]],
                   "cruise_speed": int(self.params[i, P_CRUISE]), "p_win": k / n,
                   "p_win_lo": float(lo), "p_win_hi": float(hi)}
            for r, name in enumerate(OUT_REASONS):
                kr = int(reasons[r])
                rlo, rhi = rate_ci(kr, n)
                if r > 0:
                    row[f"p_{name}"] = kr / n
                went_out.append({"car": i + 1, "start_spot": i + 1,
                                 "how": "still in at the end" if r == 0
                                 else name.replace("_", " "),
                                 "games": kr, "share": kr / n, "share_lo": float(rlo),
                                 "share_hi": float(rhi)})
            rows.append(row)
        ends = []
        for label, k in (("tie: more than one player left after 64 rounds", int(t[S_TIE64])),
                         ("tie: the last cars went out together", int(t[S_TIES]))):
            lo, hi = rate_ci(k, n)
            rows.append({"car": 0, "start_spot": 0, "policy": label, "cruise_speed": 0,
                         "p_win": k / n, "p_win_lo": float(lo), "p_win_hi": float(hi)})
        won = int(t[S_WINS:S_WINS + MAXC].sum())
        for label, k in (("a player won", won),
                         ("tie: more than one player left after 64 rounds", int(t[S_TIE64])),
                         ("tie: the last cars went out together", int(t[S_TIES]))):
            lo, hi = rate_ci(k, n)
            ends.append({"outcome": label, "games": k, "share": k / n, "share_lo": float(lo),
                         "share_hi": float(hi)})
        frame = pd.DataFrame(rows)
        m, mlo, mhi = mean_ci(t[S_ROUNDS], t[S_ROUNDS_SQ], n)
        q = quantiles_from_histogram(t[S_HIST:S_HIST + MAX_ROUNDS + 1])[0]
        frame.attrs["rounds"] = {"mean": float(m), "lo": float(mlo), "hi": float(mhi),
                                 "q05": int(q[0]), "median": int(q[1]), "q95": int(q[2])}
        frame.attrs["extra"] = Extras({
            "how cars went out (share of derbies, 95% Wilson)": pd.DataFrame(went_out),
            "how derbies end (share, 95% Wilson)": pd.DataFrame(ends),
        })
        return frame


class DerbyGame:
    """One game's state as arrays, for scripted positions, replays and golden playthroughs."""

    def __init__(self, tables: Tables, arena: A.Arena, n_cars: int = 6, starts=None, params=None,
                 log_size: int = 20_000, lim=None):
        self.tables, self.arena = tables, arena
        self.n = n_cars
        self.starts = np.ascontiguousarray(arena.starts[:n_cars] if starts is None else starts,
                                           dtype=np.int64)
        self.params = expand_params(np.full((n_cars, 1), 5, np.int64) if params is None
                                    else np.asarray(params, np.int64).reshape(n_cars, -1))
        self.lim = limits_vector(tables, arena) if lim is None else np.array(lim, np.int64)
        # the kernels' named state; cars, sheets, ... below are the same arrays
        self.S = Derby(np.zeros((n_cars, N_CAR), np.int64),
                       np.zeros((n_cars, tables.capacity.shape[0]), np.int64),
                       np.full((n_cars, MAX_HELD), -1, np.int64),
                       np.zeros(arena.terrain.shape, np.int64), new_deck(tables))
        self.cars, self.sheets, self.held, self.occ, self.dk = self.S
        self.G = ground(arena.terrain)
        self.clear = self.G.clear
        self.T = kernel_tables(tables)
        self.L = Log(np.zeros((log_size, eventlog.WIDTH), np.int64), np.zeros(1, np.int64))
        self.log, self.nlog = self.L
        self.cout = np.zeros(OUT_SIZE, np.int64)
        setup(self.S, self.starts, n_cars)
        self.st = dice.new_state()
        self.script = dice.NO_SCRIPT

    def seed(self, seed: int, trial: int = 0):
        dice.seed_trial(self.st, dice.stream_key(seed), trial)

    def scripted(self, rolls):
        self.st = dice.scripted_state()
        self.script = dice.as_script(rolls)

    def rolls_used(self) -> int:
        return dice.script_position(self.st)

    def give_card(self, car: int, name: str, partner: int = -1):
        c = list(self.tables.card_names).index(name)
        d = (self.dk.shape[0] - 3) // 2
        pool = self.dk[2 * d]
        i = int(np.flatnonzero(self.dk[:pool] == c)[0])  # take that card out of the pool
        self.dk[i], self.dk[pool - 1] = self.dk[pool - 1], self.dk[i]
        self.dk[2 * d] = pool - 1
        _take_card(car, c, partner, self.S, self.T, self.L, 0)

    def plot(self, car: int, direction: int, speed: int):
        self.cars[car, C_PLDIR] = direction
        self.cars[car, C_PLSPEED] = speed

    def policy_plot(self, car: int, rnd: int = 2, salt: int = 0):
        """What car's policy plots in the current position: (direction, speed, mode)."""
        plot_policy(car, self.params, self.S, self.T, self.G, self.lim, rnd, salt)
        return (int(self.cars[car, C_PLDIR]), int(self.cars[car, C_PLSPEED]),
                ("hunt", "evade", "race")[self.cars[car, C_MODE]])

    def steer(self, car: int, direction: int = 1, rnd: int = 2, left: int | None = None,
              straight: bool = False, salt: int = 0) -> int:
        """The next hex the car's policy picks: -1 left of its path, 0 straight on, +1 right,
        with ``left`` hexes of its move to go (this one included; default: its plotted speed,
        at least 1), at its plotted speed."""
        keep = int(self.cars[car, C_LEFT]), int(self.cars[car, C_SPEED])
        self.cars[car, C_LEFT] = max(int(self.cars[car, C_PLSPEED]), 1) if left is None else left
        self.cars[car, C_SPEED] = self.cars[car, C_PLSPEED]
        try:
            return int(_steer(car, direction, straight, self.S, self.G, rnd, self.lim,
                              self.params, driver_tables(self.T), salt))
        finally:
            self.cars[car, C_LEFT], self.cars[car, C_SPEED] = keep

    def turn(self, car: int, rnd: int = 2):
        _turn(self.st, self.script, car, rnd, self.S, self.G, self.T, self.lim, self.cout,
              self.L, self.params)

    def play(self, first_player: int = -1):
        """Play to the end; (winning player or -1, rounds)."""
        w, rounds, _, _ = play(self.st, self.script, self.params, self.S, self.G, self.T,
                               self.lim, self.L, first_player)
        return w, rounds

    def event_rows(self, where: str = "the derby's event log") -> np.ndarray:
        """The events written, in the shared layout; an overflowed log is an error."""
        return eventlog.EventLog(self.log, self.nlog).table(where=where)

    def events(self) -> pd.DataFrame:
        rows = self.event_rows()
        f = pd.DataFrame({"round": rows[:, eventlog.TURN], "car": rows[:, eventlog.ACTOR],
                          "event": rows[:, eventlog.KIND], "a": rows[:, eventlog.A],
                          "b": rows[:, eventlog.B]})
        f["event"] = [EVENTS[e] for e in f["event"]]
        return f
