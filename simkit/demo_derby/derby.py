"""A whole Demo Derby (demo-derby.txt: Game Flow, Record Your Move, Move and Crash, Record
Sheet, Special Damage Cards, Winning the Game), as one compiled kernel driven by scripted
policies.

Each round every car still in the game plots a direction and speed (all plots are made from the
state at the start of the round, so they are secret and simultaneous), then cars move in turn
order from the starting player. The rules enforced on a plot: a car starts stopped; it may gain
up to 3 hexes of speed a round forward or 2 in reverse; lowering the speed is braking; it must
stop before changing direction; its speed is capped by its highest uncrossed engine box. On its
turn a car first rolls for each special damage card with a die (green listed result: the card
ends and goes under the deck; red: the car is out; otherwise its effect holds), counts down a
full radiator (two more turns, then it stalls), and rolls 5-6 to get out of mud or the ditch.
It then moves its speed less one hex per flat tire, hex by hex, each hex straight ahead (behind
when reversing) or to either side of its path, turning one hexside as it moves. Entering:

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
rounds in a row is disqualified, unless only two cars remain. The last car that can move wins;
after 64 rounds with more than one car left, or if the last cars go out together, it is a tie.

Starting player: a uniform pick (a roll-off among equal dice is uniform). Car k takes start spot
k. Policies are numba functions chosen by id with a parameter vector per car.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from ..core import dice
from ..core._numba import jit, pjit, prange
from ..core.stats import mean_ci, quantiles_from_histogram, rate_ci
from . import arena as A
from .crash import CARDS_R, CARDS_T, OUT_SIZE, _damage_car, crash_once, new_deck, return_card
from .rules import FRONT, FRONT_LEFT, FRONT_RIGHT, REAR, REAR_LEFT, REAR_RIGHT, Tables, rules_data
from .sheet import flat_tires, is_out, max_speed, radiator_full

# --- car state columns -------------------------------------------------------------------------
(C_ROW, C_COL, C_FACING, C_SPEED, C_DIR, C_ALIVE, C_OUT, C_RADT, C_STUCK, C_NOCRASH, C_HIT,
 C_MOVED, C_LOCKED, C_CRASHED, C_PLDIR, C_PLSPEED, C_LEFT, C_STRAIGHT) = range(18)
N_CAR = 18
MAX_HELD = 8

OUT_REASONS = ("in_game", "wrecked", "stalled", "left_by_ramp", "disqualified", "red_card")
R_NONE, R_WRECKED, R_STALLED, R_LEFT, R_DQ, R_RED = range(6)

# card lights and effects (indices of rules.LIGHTS / rules.EFFECTS)
L_GREEN, L_RED = 1, 2
E_NONE, E_NO_MOVE, E_STRAIGHT, E_FORWARD_ONLY, E_FENDERS, E_SKIP, E_MAX_SPEED = range(7)

# limits vector
(LIM_ACC_F, LIM_ACC_R, LIM_COLL_F, LIM_COLL_R, LIM_FLAT, LIM_RAD_TURNS, LIM_NO_CRASH,
 LIM_MAX_TURNS, LIM_OBST_MOD, LIM_SAME_COL, LIM_FIRST_ROUND, LIM_VECTOR, LIM_PHASED) = range(13)

# log events: (round, car, event, a, b)
EV_MOVE, EV_CRASH, EV_OBSTACLE, EV_STUCK, EV_FREE, EV_OUT, EV_CARD, EV_BLOCKED = range(8)
EVENTS = ("move", "crash", "obstacle", "stuck", "free", "out", "card", "blocked")

#: the target's point of impact by the hexside (relative to its facing) the rammer comes through
_SIDE_TO_IMPACT = np.array([FRONT, FRONT_RIGHT, REAR_RIGHT, REAR, REAR_LEFT, FRONT_LEFT],
                           np.int64)

POLICIES = ("hunter",)


def limits_vector(tables: Tables) -> np.ndarray:
    lim = tables.limits
    obst = int(rules_data().table("obstacle_crash")["roll_modifier"])
    return np.array([lim["accelerate_forward"], lim["accelerate_reverse"],
                     lim["collision_forward"], lim["collision_reverse"],
                     lim["flat_tire_penalty"], lim["radiator_turns"],
                     lim["rounds_without_crash"], lim["max_turns"], obst,
                     1 if tables.rammer_same_column else 0,
                     1 if lim["first_round_no_crash"] else 0,
                     1 if tables.vector_collisions else 0,
                     1 if tables.phased_moves else 0], np.int64)


@jit
def _log(log, nlog, rnd, car, ev, a, b):
    k = nlog[0]
    if k < log.shape[0]:
        log[k, 0] = rnd
        log[k, 1] = car
        log[k, 2] = ev
        log[k, 3] = a
        log[k, 4] = b
    nlog[0] = k + 1


@jit
def _blocking(ter):
    return ter == A.WALL or ter == A.POLE or ter == A.F8_POLE


@jit
def _eliminate(i, reason, cars, held, occ, dk, log, nlog, rnd):
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
    _log(log, nlog, rnd, i, EV_OUT, reason, 0)


@jit
def _take_card(i, c, other, cars, held, dk, card_light, card_effect, log, nlog, rnd):
    """A drawn card: kept face up if it has a die or a lasting effect, else back under the deck."""
    if c < 0:
        return
    _log(log, nlog, rnd, i, EV_CARD, c, other)
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
def _after_damage(i, cars, sheets, capacity, lim, held, occ, dk, log, nlog, rnd):
    if radiator_full(sheets[i], capacity) and cars[i, C_RADT] < 0:
        cars[i, C_RADT] = lim[LIM_RAD_TURNS]
    if is_out(sheets[i], capacity):
        _eliminate(i, R_WRECKED, cars, held, occ, dk, log, nlog, rnd)


# --- the hunter policy -------------------------------------------------------------------------
@jit
def _nearest(i, cars):
    best = -1
    bd = 1 << 30
    for j in range(cars.shape[0]):
        if j != i and cars[j, C_ALIVE] == 1:
            d = A.distance(cars[i, C_ROW], cars[i, C_COL], cars[j, C_ROW], cars[j, C_COL])
            if d < bd:
                bd = d
                best = j
    return best


@jit
def _step_score(i, target, nr, nc, cars, occ, terrain, rnd, first_round_rule):
    o = occ[nr, nc] - 1
    if o >= 0:
        if cars[o, C_ALIVE] == 1:
            if rnd == 1 and first_round_rule == 1:
                return 10000
            return 0 if o == target else 1
        return 3000  # a wreck is an obstacle
    ter = terrain[nr, nc]
    if _blocking(ter):
        return 3000
    if ter == A.RAMP:
        return 5000
    if ter == A.MUD or ter == A.DITCH:
        return 2000
    if target < 0:
        return 10
    return 10 + A.distance(nr, nc, cars[target, C_ROW], cars[target, C_COL])


@jit
def _steer(i, pdir, straight, cars, occ, terrain, rnd, lim):
    """Hunter: the step (0 straight, -1 left, +1 right) that best closes on the nearest car,
    ramming it (or any car) when it can, avoiding walls, poles, the ramp, mud and wrecks."""
    target = _nearest(i, cars)
    best = 0
    best_score = 1 << 30
    for k in range(1 if straight else 3):
        turn = 0 if k == 0 else (-1 if k == 1 else 1)
        nf = (cars[i, C_FACING] + turn) % 6
        travel = nf if pdir > 0 else (nf + 3) % 6
        nr, nc = A.neighbour(cars[i, C_ROW], cars[i, C_COL], travel)
        s = _step_score(i, target, nr, nc, cars, occ, terrain, rnd, lim[LIM_FIRST_ROUND])
        if s < best_score:
            best_score = s
            best = turn
    return best


@jit
def _plot_hunter(i, params, cars, sheets, capacity, occ, terrain, lim):
    """Forward at the cruise speed ``params[0]`` (as fast as acceleration and engine allow);
    if every hex ahead is wall, pole or wreck: stop, then back off 2; stop after reversing."""
    cur_dir = cars[i, C_DIR]
    cur = cars[i, C_SPEED]
    maxs = max_speed(sheets[i], capacity)
    blocked = True
    for turn in (-1, 0, 1):
        nf = (cars[i, C_FACING] + turn) % 6
        nr, nc = A.neighbour(cars[i, C_ROW], cars[i, C_COL], nf)
        o = occ[nr, nc] - 1
        ter = terrain[nr, nc]
        wreck = o >= 0 and cars[o, C_ALIVE] == 0
        if not (_blocking(ter) or ter == A.RAMP or wreck):
            blocked = False
    if cur_dir < 0:
        cars[i, C_PLDIR] = -1
        cars[i, C_PLSPEED] = 0
    elif blocked:
        if cur_dir > 0 and cur > 0:
            cars[i, C_PLDIR] = 1
            cars[i, C_PLSPEED] = 0
        else:
            cars[i, C_PLDIR] = -1
            cars[i, C_PLSPEED] = min(lim[LIM_ACC_R], maxs)
    else:
        cars[i, C_PLDIR] = 1
        cars[i, C_PLSPEED] = min(params[0], maxs, cur + lim[LIM_ACC_F])


# --- one turn ----------------------------------------------------------------------------------
@jit
def _legal_plot(i, cars, sheets, capacity, lim):
    """Clamp a plot to the rules: stop before changing direction; acceleration limits; engine."""
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
def _start_turn(st, script, i, rnd, cars, sheets, held, occ, dk, terrain, damage, special, hit,
          capacity, overflow, on_draw, card_die, card_light, card_effect, card_param, ext_damage,
          ext_special, vec_sign, vec_div, lim,
          cout, log, nlog):
    """The start of a car's turn: card dice, locks, radiator, mud; then its speed and the
    hexes it has to move (cars[i, C_LEFT])."""
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
                    _eliminate(i, R_RED, cars, held, occ, dk, log, nlog, rnd)
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
            _eliminate(i, R_STALLED, cars, held, occ, dk, log, nlog, rnd)
            return
        cars[i, C_RADT] -= 1
    if cars[i, C_STUCK] == 1:
        if dice.d6(st, script) >= 5:
            cars[i, C_STUCK] = 0
            _log(log, nlog, rnd, i, EV_FREE, 0, 0)
        else:
            can_move = False
    cars[i, C_MOVED] = 1
    if not can_move:
        cars[i, C_SPEED] = 0
        cars[i, C_DIR] = 0
        return
    if cars[i, C_HIT] == 1:
        # hit before moving: speed zero, may still move up to 3 forward or 2 in reverse
        pdir = cars[i, C_PLDIR]
        ps = cars[i, C_PLSPEED]
        ps = min(ps, lim[LIM_COLL_F] if pdir >= 0 else lim[LIM_COLL_R],
                 max_speed(sheets[i], capacity))
        if ps < 0:
            ps = 0
    else:
        pdir, ps = _legal_plot(i, cars, sheets, capacity, lim)
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
def _step(st, script, i, rnd, cars, sheets, held, occ, dk, terrain, damage, special, hit,
          capacity, overflow, on_draw, card_die, card_light, card_effect, card_param, ext_damage,
          ext_special, vec_sign, vec_div, lim,
          cout, log, nlog):
    """One hex of a car's move (decrements cars[i, C_LEFT]; zero once the move ends)."""
    pdir = cars[i, C_DIR]
    ps = cars[i, C_SPEED]
    straight = cars[i, C_STRAIGHT] == 1
    turn = _steer(i, pdir, straight, cars, occ, terrain, rnd, lim)
    nf = (cars[i, C_FACING] + turn) % 6
    travel = nf if pdir > 0 else (nf + 3) % 6
    row = cars[i, C_ROW]
    col = cars[i, C_COL]
    nr, nc = A.neighbour(row, col, travel)
    o = occ[nr, nc] - 1
    ter = terrain[nr, nc]
    if o >= 0 and cars[o, C_ALIVE] == 1:
        if rnd == 1 and lim[LIM_FIRST_ROUND] == 1:
            _log(log, nlog, rnd, i, EV_BLOCKED, o, 0)
            cars[i, C_LEFT] = 0  # no crashes in the first round: the car goes no further
            return
        # the rammer stays on the hex it came from; impact by the target's hexside
        side = -1
        for f in range(6):
            ar, ac = A.neighbour(cars[o, C_ROW], cars[o, C_COL], f)
            if ar == row and ac == col:
                side = f
        impact = _SIDE_TO_IMPACT[(side - cars[o, C_FACING]) % 6]
        rcol = impact if lim[LIM_SAME_COL] == 1 else (FRONT if pdir > 0 else REAR)
        if lim[LIM_VECTOR] == 1:
            # Vector Collisions: the column from both speeds, on the extended table
            col = ps + vec_sign[impact] * (cars[o, C_SPEED] // vec_div[impact])
            col = min(max(col, 0), ext_damage.shape[1] - 1)
            crash_once(st, script, col, impact, rcol, ext_damage, ext_special, hit,
                       capacity, overflow, on_draw, sheets[o], sheets[i], dk, cout)
        else:
            crash_once(st, script, ps, impact, rcol, damage, special, hit, capacity,
                       overflow, on_draw, sheets[o], sheets[i], dk, cout)
        _log(log, nlog, rnd, i, EV_CRASH, o, impact)
        _take_card(o, cout[CARDS_T], i, cars, held, dk, card_light, card_effect, log, nlog, rnd)
        _take_card(o, cout[CARDS_T + 1], i, cars, held, dk, card_light, card_effect, log,
                   nlog, rnd)
        _take_card(i, cout[CARDS_R], o, cars, held, dk, card_light, card_effect, log, nlog, rnd)
        _take_card(i, cout[CARDS_R + 1], o, cars, held, dk, card_light, card_effect, log,
                   nlog, rnd)
        for k in (i, o):  # each crash stops both cars
            cars[k, C_SPEED] = 0
            cars[k, C_DIR] = 0
            cars[k, C_CRASHED] = 1
        if cars[o, C_MOVED] == 0:
            cars[o, C_HIT] = 1
        _after_damage(o, cars, sheets, capacity, lim, held, occ, dk, log, nlog, rnd)
        _after_damage(i, cars, sheets, capacity, lim, held, occ, dk, log, nlog, rnd)
        cars[i, C_LEFT] = 0
        return
    if _blocking(ter) or o >= 0:
        # wall, light pole or wreck: the damage table at the car's own speed, roll unmodified
        r = dice.d6(st, script) + lim[LIM_OBST_MOD]
        r = min(max(r, 0), 6)
        _damage_car(st, script, r, ps, FRONT if pdir > 0 else REAR, damage, special, hit,
                    capacity, overflow, on_draw, sheets[i], dk, cout, 0, CARDS_T)
        _log(log, nlog, rnd, i, EV_OBSTACLE, ter, cout[0])
        _take_card(i, cout[CARDS_T], -1, cars, held, dk, card_light, card_effect, log, nlog, rnd)
        _take_card(i, cout[CARDS_T + 1], -1, cars, held, dk, card_light, card_effect, log,
                   nlog, rnd)
        cars[i, C_SPEED] = 0
        cars[i, C_DIR] = 0
        _after_damage(i, cars, sheets, capacity, lim, held, occ, dk, log, nlog, rnd)
        cars[i, C_LEFT] = 0
        return
    occ[row, col] = 0
    cars[i, C_ROW] = nr
    cars[i, C_COL] = nc
    cars[i, C_FACING] = nf
    if ter == A.RAMP:
        _eliminate(i, R_LEFT, cars, held, occ, dk, log, nlog, rnd)
        return
    occ[nr, nc] = i + 1
    _log(log, nlog, rnd, i, EV_MOVE, nr, nc)
    if ter == A.MUD or ter == A.DITCH:
        cars[i, C_STUCK] = 1
        cars[i, C_SPEED] = 0
        cars[i, C_DIR] = 0
        _log(log, nlog, rnd, i, EV_STUCK, ter, 0)
        cars[i, C_LEFT] = 0
        return
    cars[i, C_LEFT] -= 1


@jit
def _turn(st, script, i, rnd, cars, sheets, held, occ, dk, terrain, damage, special, hit,
          capacity, overflow, on_draw, card_die, card_light, card_effect, card_param, ext_damage,
          ext_special, vec_sign, vec_div, lim,
          cout, log, nlog):
    """A whole turn in the rulebook's turn order."""
    _start_turn(st, script, i, rnd, cars, sheets, held, occ, dk, terrain, damage, special, hit, capacity, overflow, on_draw, card_die, card_light, card_effect, card_param, ext_damage, ext_special, vec_sign, vec_div, lim, cout, log, nlog)
    while cars[i, C_ALIVE] == 1 and cars[i, C_LEFT] > 0:
        _step(st, script, i, rnd, cars, sheets, held, occ, dk, terrain, damage, special, hit, capacity, overflow, on_draw, card_die, card_light, card_effect, card_param, ext_damage, ext_special, vec_sign, vec_div, lim, cout, log, nlog)


@jit
def _alive(cars):
    n = 0
    for i in range(cars.shape[0]):
        n += cars[i, C_ALIVE]
    return n


@jit
def setup(cars, sheets, held, occ, starts, n_cars):
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
        occ[starts[i, 0], starts[i, 1]] = i + 1


@jit
def play(st, script, params, cars, sheets, held, occ, dk, terrain, damage, special, hit,
         capacity, overflow, on_draw, card_die, card_light, card_effect, card_param, ext_damage,
         ext_special, vec_sign, vec_div, lim, log, nlog, first_player, phases):
    """Play one derby from the set-up state; returns (winner or -1, rounds played)."""
    n = cars.shape[0]
    cout = np.zeros(OUT_SIZE, np.int64)
    first = first_player
    if first < 0:
        first = dice.roll(st, script, 1, n) - 1 if n > 1 else 0
    rnd = 0
    while rnd < lim[LIM_MAX_TURNS] and _alive(cars) > 1:
        rnd += 1
        for i in range(n):  # secret, simultaneous plots from the state at the round's start
            if cars[i, C_ALIVE] == 1:
                _plot_hunter(i, params[i], cars, sheets, capacity, occ, terrain, lim)
        if lim[LIM_PHASED] == 0:
            for k in range(n):
                i = (first + k) % n
                if cars[i, C_ALIVE] == 1:
                    _turn(st, script, i, rnd, cars, sheets, held, occ, dk, terrain, damage,
                          special, hit, capacity, overflow, on_draw, card_die, card_light,
                          card_effect, card_param, ext_damage, ext_special, vec_sign, vec_div,
                          lim, cout, log, nlog)
                if _alive(cars) <= 1:
                    break
        else:
            # Phased Moves: every car's turn starts in turn order, then one hex at a time by
            # phase, faster speeds first, turn order within a speed
            for k in range(n):
                i = (first + k) % n
                if cars[i, C_ALIVE] == 1:
                    _start_turn(st, script, i, rnd, cars, sheets, held, occ, dk, terrain, damage,
                                special, hit, capacity, overflow, on_draw, card_die, card_light,
                                card_effect, card_param, ext_damage, ext_special, vec_sign,
                                vec_div, lim, cout, log, nlog)
            for ph in range(1, phases.shape[1]):
                for sp in range(phases.shape[0] - 1, 0, -1):
                    if phases[sp, ph] == 0:
                        continue
                    for k in range(n):
                        i = (first + k) % n
                        if cars[i, C_ALIVE] == 1 and cars[i, C_SPEED] == sp and cars[i, C_LEFT] > 0:
                            _step(st, script, i, rnd, cars, sheets, held, occ, dk, terrain,
                                  damage, special, hit, capacity, overflow, on_draw, card_die,
                                  card_light, card_effect, card_param, ext_damage, ext_special,
                                  vec_sign, vec_div, lim, cout, log, nlog)
                if _alive(cars) <= 1:
                    break
        alive = _alive(cars)
        dq = np.zeros(n, np.bool_)
        for i in range(n):
            if cars[i, C_ALIVE] == 1:
                if cars[i, C_CRASHED] == 1:
                    cars[i, C_NOCRASH] = 0
                else:
                    cars[i, C_NOCRASH] += 1
                if alive > 2 and cars[i, C_NOCRASH] >= lim[LIM_NO_CRASH]:
                    dq[i] = True
            cars[i, C_CRASHED] = 0
            cars[i, C_HIT] = 0
            cars[i, C_MOVED] = 0
        for i in range(n):  # disqualifications at the end of the round, all at once
            if dq[i]:
                _eliminate(i, R_DQ, cars, held, occ, dk, log, nlog, rnd)
    winner = -1
    if _alive(cars) == 1:
        for i in range(n):
            if cars[i, C_ALIVE] == 1:
                winner = i
    return winner, rnd


# --- Monte Carlo -------------------------------------------------------------------------------
MAX_ROUNDS = 64
# stats: wins[6], ties, sum rounds, sum rounds^2, hist rounds[65], out reasons [6 cars x 6],
# crashes (car-car) sum
S_WINS = 0
S_TIES = 6
S_ROUNDS = 7
S_ROUNDS_SQ = 8
S_HIST = 9
S_REASONS = S_HIST + MAX_ROUNDS + 1
N_DERBY_STATS = S_REASONS + 36


@pjit
def _derby_chunk(key, first, n, n_cars, params, starts, terrain, damage, special, hit, capacity,
                 overflow, on_draw, card_die, card_light, card_effect, card_param, ext_damage,
                 ext_special, vec_sign, vec_div, lim, dk0, phases):
    n_blocks = min(n, 64)
    acc = np.zeros((n_blocks, N_DERBY_STATS), np.int64)
    for b in prange(n_blocks):
        lo = first + (n * b) // n_blocks
        hi = first + (n * (b + 1)) // n_blocks
        st = np.zeros(dice.STATE_SIZE, np.uint64)
        cars = np.zeros((n_cars, N_CAR), np.int64)
        sheets = np.zeros((n_cars, capacity.shape[0]), np.int64)
        held = np.full((n_cars, MAX_HELD), -1, np.int64)
        occ = np.zeros(terrain.shape, np.int64)
        dk = dk0.copy()
        log = np.zeros((1, 5), np.int64)
        nlog = np.zeros(1, np.int64)
        for t in range(lo, hi):
            dice.seed_trial(st, key, t)
            setup(cars, sheets, held, occ, starts, n_cars)
            dk[:] = dk0
            nlog[0] = 0
            w, rounds = play(st, dice.NO_SCRIPT, params, cars, sheets, held, occ, dk, terrain,
                             damage, special, hit, capacity, overflow, on_draw, card_die,
                             card_light, card_effect, card_param, ext_damage, ext_special,
                             vec_sign, vec_div, lim, log, nlog, -1, phases)
            if w >= 0:
                acc[b, S_WINS + w] += 1
            else:
                acc[b, S_TIES] += 1
            acc[b, S_ROUNDS] += rounds
            acc[b, S_ROUNDS_SQ] += rounds * rounds
            acc[b, S_HIST + rounds] += 1
            for i in range(n_cars):
                acc[b, S_REASONS + 6 * i + cars[i, C_OUT]] += 1
    return acc.sum(axis=0)


def kernel_tables(tables: Tables):
    return (tables.damage, tables.special, tables.hit, tables.capacity, tables.overflow,
            tables.card_on_draw, tables.card_die, tables.card_light, tables.card_effect,
            tables.card_param, tables.ext_damage, tables.ext_special, tables.vec_sign,
            tables.vec_div)


@dataclass
class DerbySimulation:
    tables: Tables
    arena: A.Arena
    params: np.ndarray                 # [car, k] policy parameters (hunter: cruise speed)
    name: str = "demo-derby derby"

    def __post_init__(self):
        self.n_cars = int(self.params.shape[0])
        self.n_stats = N_DERBY_STATS
        self.lim = limits_vector(self.tables)

    def chunk(self, key, first, n):
        return _derby_chunk(np.uint64(key), first, n, self.n_cars,
                            np.ascontiguousarray(self.params, np.int64),
                            np.ascontiguousarray(self.arena.starts[:self.n_cars]),
                            self.arena.terrain, *kernel_tables(self.tables), self.lim,
                            new_deck(self.tables), self.tables.phases)

    def summarise(self, totals, n_trials):
        t = np.asarray(totals)
        rows = []
        for i in range(self.n_cars):
            k = int(t[S_WINS + i])
            lo, hi = rate_ci(k, n_trials)
            reasons = t[S_REASONS + 6 * i: S_REASONS + 6 * i + 6]
            row = {"car": i + 1, "start_spot": i + 1, "policy": "hunter",
                   "cruise_speed": int(self.params[i, 0]), "p_win": k / n_trials,
                   "p_win_lo": float(lo), "p_win_hi": float(hi)}
            for r, name in enumerate(OUT_REASONS[1:], start=1):
                row[f"p_{name}"] = reasons[r] / n_trials
            rows.append(row)
        lo, hi = rate_ci(int(t[S_TIES]), n_trials)
        rows.append({"car": 0, "start_spot": 0, "policy": "tie", "cruise_speed": 0,
                     "p_win": t[S_TIES] / n_trials, "p_win_lo": float(lo), "p_win_hi": float(hi)})
        frame = pd.DataFrame(rows)
        m, mlo, mhi = mean_ci(t[S_ROUNDS], t[S_ROUNDS_SQ], n_trials)
        q = quantiles_from_histogram(t[S_HIST:S_HIST + MAX_ROUNDS + 1])[0]
        frame.attrs["rounds"] = {"mean": float(m), "lo": float(mlo), "hi": float(mhi),
                                 "q05": int(q[0]), "median": int(q[1]), "q95": int(q[2])}
        return frame


class DerbyGame:
    """One derby's state as arrays, for scripted positions, replays and golden playthroughs."""

    def __init__(self, tables: Tables, arena: A.Arena, n_cars: int = 6, starts=None, params=None,
                 log_size: int = 20_000):
        self.tables, self.arena = tables, arena
        self.n = n_cars
        self.starts = np.ascontiguousarray(arena.starts[:n_cars] if starts is None else starts,
                                           dtype=np.int64)
        self.params = (np.full((n_cars, 1), 5, np.int64) if params is None
                       else np.ascontiguousarray(params, dtype=np.int64).reshape(n_cars, -1))
        self.lim = limits_vector(tables)
        self.cars = np.zeros((n_cars, N_CAR), np.int64)
        self.sheets = np.zeros((n_cars, tables.capacity.shape[0]), np.int64)
        self.held = np.full((n_cars, MAX_HELD), -1, np.int64)
        self.occ = np.zeros(arena.terrain.shape, np.int64)
        self.dk = new_deck(tables)
        self.log = np.zeros((log_size, 5), np.int64)
        self.nlog = np.zeros(1, np.int64)
        self.cout = np.zeros(OUT_SIZE, np.int64)
        setup(self.cars, self.sheets, self.held, self.occ, self.starts, n_cars)
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
        _take_card(car, c, partner, self.cars, self.held, self.dk, self.tables.card_light,
                   self.tables.card_effect, self.log, self.nlog, 0)

    def plot(self, car: int, direction: int, speed: int):
        self.cars[car, C_PLDIR] = direction
        self.cars[car, C_PLSPEED] = speed

    def turn(self, car: int, rnd: int = 2):
        _turn(self.st, self.script, car, rnd, self.cars, self.sheets, self.held, self.occ,
              self.dk, self.arena.terrain, *kernel_tables(self.tables), self.lim, self.cout,
              self.log, self.nlog)

    def play(self, first_player: int = -1):
        return play(self.st, self.script, self.params, self.cars, self.sheets, self.held,
                    self.occ, self.dk, self.arena.terrain, *kernel_tables(self.tables),
                    self.lim, self.log, self.nlog, first_player, self.tables.phases)

    def events(self) -> pd.DataFrame:
        k = min(int(self.nlog[0]), self.log.shape[0])
        f = pd.DataFrame(self.log[:k], columns=["round", "car", "event", "a", "b"])
        f["event"] = [EVENTS[e] for e in f["event"]]
        return f
