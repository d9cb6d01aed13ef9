"""Drivers as parameterised policies (DESIGN.md 'Policies are data too').

One compiled function :func:`decide` plays every driver; a policy is a name for a parameter
vector. It reads the car's role (lead or chase car, p87) and returns one action per phase (p11):

* lead car: brake for the next curve down to its planned speed (the optimum speed of p41, or
  the safety limit plus a margin), steer round markers, wrecks and obstacles ahead, lay a
  passive on an enemy close behind in its lanes or shoot what its corridor holds, whichever is
  worth more, drift out of a pursuer's fire corridor once its passives are spent, otherwise
  accelerate to its cruising speed;
* chase car: the same curve and obstacle driving, shoot (when a weapon's hit chance reaches the
  policy's threshold), sideswipe an enemy it will be level with or ram (shunt) a slower enemy
  in its lanes ahead, whichever is worth more,
  drift into the enemy's lanes to bring a fixed weapon to bear, close to the enemy's speed plus
  a margin.

Shots, sideswipes and passives are weighed in one currency, expected damage points (issue 15):
a shot is its hit chance (the faces the engine's roll hits on: ``_shot_sixths``, through
:func:`.pieces.vehicle.hit_modifier`, every modifier the firer can see) times the expected
points of a hit (d6 + damage - armour, p28, and a critical on a 6 counted ``CRIT_PTS``); a
sideswipe the chance of winning the p54 test times the hit and the 40mph control-loss chance it
forces on the target, less the same risk to the swiper; a passive what it costs the pursuer
(p30: oil's control-loss chance at 60mph, or 30 off the straight, and a handling point; mines'
+3 hit and 50mph test; spikes' wheel critical; smoke's 60mph test and the faces one marker more
takes off the pursuer's shot), halved when the pursuer is far enough back to steer round it; a ram (a shunt of a slower enemy in its lanes one or two spaces ahead,
p55-57) the relative speed-factor hits and the 40mph test it forces on the target less the same
to the rammer (``_ram_value``; a car shunting a bike pushes it to its speed, p72), taken instead
of steering round when it beats the shot. The rule numbers in these prices (the rammer's +1,
the sideswipe's 40mph, oil's 60/30mph, ...) are the rules in force, read from the driver block
of ``hp`` (``HP_*``, filled by the scenario from the engine's G). A control loss counts
``P_LOSSVAL`` points. Equal values, and equal
ways round a block (``_route``, ``_drift_dir``), go to a die rolled from the trial's stream
(only when there is a tie: a decision without one draws nothing).

Parameters (columns of the policy vector): ``P_CURVE`` mph over a curve's limit accepted (-1:
the optimum speed, p41), ``P_CRUISE`` cruising mph (0: the car's maximum), ``P_SWIPE`` sideswipe
(0/1), ``P_PASSIVE`` spaces behind within which passives are dropped, ``P_SHOOT`` lowest hit
chance to shoot, in sixths, ``P_DODGE`` drift out of an enemy's corridor (0/1), ``P_CLOSE`` mph
above the enemy's speed the chaser drives at, ``P_ESCAPE`` a lead car below its cruising
speed accelerates before laying passives unless the pursuer is on its tail (0/1), ``P_LAYER``
bits: 1 = lock an oil or smoke layer on (p23-24) instead of dropping single markers, 2 = lay
dummy markers (p22) on a close pursuer once the real passives are spent, ``P_UNLOCK`` switch a
locked-on layer off when no enemy is within this many spaces behind (0: never).
``P_LOSSVAL`` the damage points a control loss is worth in that weighing. ``P_FLEE`` (0/1)
where the lead side wins by getting away (Game Seven's target gang, p89), the lead driver plays
to leave rather than to fight (see its comment).
``P_UTURN`` the fastest mph at which the driver U-turns (0: never; p14): with an enemy behind
it (a lead car only a couple of spaces after a bend, the book's advice p14; a chase car once the
enemy has gone past) it brakes to that speed and turns to face the enemy; a stationary car
moving off U-turns as it moves off (p15), and one stopped against something in front of it
reverses (p17) when it has no shot. ``P_HEADON`` (0/1) a car meeting an oncoming enemy
in front lines up in its lanes and drives into it (the head-on ram, p52-56) instead of
steering round it; with ``P_HEADON`` 0 a driver drifts out of the lanes of an oncoming car
within ``ONCOMING_LOOK`` spaces (both close in: the two-space look of the with-play driving is
too short). Cars facing against the direction of play read 'ahead' the other way.

Drivers steer round every face-down marker alike (they cannot tell a dummy from oil, mines or
spikes, p22), which is what makes a dummy worth an action.

Bikes (p62-72) are driven by :func:`decide` and then :func:`bike_decide` (gang tactics):
riders never sideswipe cars (p70; they sideswipe an enemy bike they overlap), and three
parameters set the gang's tactics: ``P_SWARM`` spaces within which a bike moves into the lanes
beside the enemy car ahead (0: never), ``P_DODGEP`` the highest mph at which a rider dodges a
passive or road hazard in one of its lanes in the next space (0: never), and the speed it brakes
to for a dodge it plans through an obstacle strip it cannot drift round (:func:`_strip_plan`,
p62, p64), ``P_RAMCLEAR`` spaces
within which a rider drifts out of the lanes of an enemy car behind it, out of its ram range
(0: never).
"""

from __future__ import annotations

import numpy as np

from ..core import dice
from ..core._numba import jit
from .pieces import road as RD
from .pieces.board import (B_K, B_M, B_M_END, B_NM, B_NM_END, B_T, B_T_END, B_TM, B_TM_END,
                           K_TBUF, K_TBUF_END)
from .pieces.vehicle import (V_BIKE, V_DIR, V_FALLEN, ACTIVE, CHASE, M_TURRET, MAXW, V_ACC, V_BRK,
                             V_HAND, V_LANE, V_MAXSPD, V_MPH, V_ROLE, V_SEC, V_SIDE, V_SKILL, V_SP,
                             V_STATUS, W_ACC, W_AMMO, W_DMG, W_KIND, W_MOUNT, W_RANGE, W_LASER,
                             W_FIRED, WK_DIRECT, WK_PASSIVE, find_target, lanes_of, v_front,
                             v_rear, zone_hits, V_DUMMIES, W_OFF, W_LOCKED, W_PTYPE, OFF_LASTSHOT,
                             V_ENGOFF, LEAD, uturn_zone)
from .pieces.vehicle import V_AXLE, V_NODRIVER, V_TERMINAL, WRECK, V_ARM, V_OIL
from .pieces.vehicle import V_ATT, V_OOC, SPINNING, V_DMG, V_QUARRY, V_BACKED0, V_BACKED7
from .pieces.vehicle import V_GOAL, V_GOALN, V_WEAVE
from .pieces.vehicle import HIT_NONE, HIT_OBSTACLE, play_majority, V_STAMP
from .pieces.vehicle import armed, has_gun, marker_over, may_overlap
from .pieces.vehicle import TF_RANGE_CAP, TF_W, hit_modifier
from .procedures.hazards import HP_DIE, HP_LOSS_MIN, HP_STEP

P_CURVE, P_CRUISE, P_SWIPE, P_PASSIVE, P_SHOOT, P_DODGE, P_CLOSE, P_ESCAPE = range(8)
P_UTURN, P_HEADON = 8, 9
# Parameters 8-9 direction of travel, 10-12 bikes and gangs, 13-14 weapons; unused ones are 0.
(P_LAYER, P_UNLOCK) = (13, 14)
# P_VETO: a lead car's start-speed veto is the driver's choice ('may choose to roll again',
# p88): the highest rolled start speed (mph) it keeps; 0 = re-roll whenever the rule allows
# (every named driver here).
P_VETO = 15
# P_PASSMPH: the speed a driver crosses a passive or road hazard it cannot steer round at
# (p41: 'optimum speed about 80'; p25: drive straight over, do not brake onto it): above it
# the driver brakes while the marker is still PASS_LOOK spaces off, within two spaces it holds
# its speed, and it never accelerates towards one
P_PASSMPH = 16
# P_LOSSVAL: what a control loss forced on an enemy (or suffered) is worth, in damage points:
# the one currency in which a shot, a sideswipe and a passive are weighed against each other
# (the chase car's choice in :func:`decide`, the lead car's there too); 0 values damage only
P_LOSSVAL = 17
# P_FLEE: where the lead side wins by getting away (Game Seven's target gang, p89: 'get all its
# vehicles safely out of play and/or ... outdistancing the attackers', ``HP_GET_AWAY``), a
# lead driver plays to leave: below its cruising speed it accelerates rather than shoot or lay
# a passive even with a pursuer on its tail, it makes no planned ram (a shunt slows the
# rammer), and stopped it moves off rather than shoot a stranded enemy. The trade-off: the
# passive or shot forgone against the distance gained. 0: it fights as where taking out wins.
P_FLEE = 18
# P_ROLLRISK: a rider playing to get away (``_flees``) while an enemy has a shot at it holds
# its speed where a control-loss test is at most this many sixths likely to end in a crash
# (p70: a roll at 81mph or more removes the bike; at 80mph or less the rider falls and gets up):
# the distance kept against the bike kept. 6: never slows for it (every named driver).
P_ROLLRISK = 19
# P_RUNNER: where the attacker wins only by taking the whole target gang out (Game Seven, p89,
# ``HP_GET_AWAY``), a chase driver pursues the target vehicle furthest ahead in play, the one
# nearest to getting away, instead of the nearest one; both skip hulks (stopped for good
# without weapons: taken out already, p88). The trade-off: closing on the runner against the
# shots at the vehicles it passes. 0: the nearest (the old pursuit).
P_RUNNER = 20
# P_HOLDBACK: where the attacker wins only by taking the whole target gang out (Game Seven,
# ``HP_GET_AWAY``), a chase driver that has passed every target still in play holds back for
# them: it drives no faster than the nearest one behind it and, stopped, does not move off
# ahead of it. The stretch of road moves on with the vehicle in front (p75), so an attacker
# driving on at its cruising speed leaves the targets off the back, safely out of play (p89).
# The trade-off: the targets kept in play against the time the attacker spends waiting in
# front of their guns. 0: it drives on (the old pursuit).
P_HOLDBACK = 21
# P_FOCUS: how a chase driver chooses between enemies equally placed to pursue (``_quarry``):
# 0 a fresh draw of the dice at every decision (it may switch quarry, and with it the lanes it
# steers for and the speed it sets, from one phase to the next); 1 it keeps the quarry it chose
# last while that one is still among the equals, a draw only when it is not; 2 as 1, and it
# joins the quarry its team-mates pursue (the one most of them chose; a side plays as one
# player). Equals left after that go to the dice, never to the list order.
P_FOCUS = 22
# P_BACKOFFS: the times a driver backs off (p17) from one place before it takes that way for one
# that leads nowhere and, stopped there again, shoots or waits instead (``decide``): a player's
# memory of what it tried. Lining up on an enemy or backing off a block takes one reverse from a
# place; cars backing and filling round a wreck on a bend (seeded Game Eight intercept 570, 1243,
# 3823: each reverse undone by its own next choice or by the other car's next move, a round of
# five to eight turns, to the turn limit) back off from the same places every round. The
# trade-off: another try at getting round against a turn spent where it came from. 0: no
# limit (the drivers before session 23).
P_BACKOFFS = 23
# P_RAMBIKE (bits): a car that would wait in a standoff with no shot (``_break_standoff``)
# drives into a bike where that takes the bike out of play (p72). Bit 1: a stopped enemy bike
# that has both its lanes, where the rules in force make that a head-on: behind it by reversing
# (p17), or in front facing away (a car into a stationary upright bike is a head-on under the
# default reading, variant ``stopped_bike_ram``); one facing it in front is rammed whatever
# this says (session 24). Bit 2: a wrecked bike (or an enemy's fallen one) in its way ahead or
# behind, which the ram removes from play (p72: 'when a car hits a fallen bike ... the bike is
# removed'; fallen bikes are 'usually wrecks ... the results of the impact are the same'): a
# wreck that holds a car's way is a block for good only if it is a car's. The trade-off: the
# car's one combined speed-factor hit and a control loss at 0mph against a rider that,
# shooting it from where its guns cannot reply, is otherwise left alone to the turn limit, or
# a way shut for ever. 0: neither (the drivers before session 26). Bit 4: a stopped enemy
# bike in the space behind with one lane in common with it, facing its way, where the car has
# no shot and no place to plan for (``_plan_standoff``): a reverse into it (p17) is a partial
# ram with a bike, a sideswipe the bike loses (p72), a hit on the rider for none on the car
# as the engine has it; again each turn it grinds the rider down, where waiting only takes the
# rider's shots (seeded gang pursues 3187, 3430; issue 15, session 29). The trade-off: the
# bike is not taken out by one ram, and the car stays nose to it.
P_RAMBIKE = 24
# P_RAMRACE (0-2): 1, a car that would wait in a standoff with no shot (``_break_standoff``) drives into a
# stopped enemy car in its lanes (in front within two spaces, or behind it by reversing, p17)
# when it wins the damage race: each ram deals both the same hits (p56-57), so the car whose
# points outlast the other's, hit for hit against its armour, is the one to ram (seeded Game
# Eight intercept 201: target#1 with 6 points, the attacker rear to rear with it with 1, both
# waiting; forced to reverse into it, the target won). The trade-off: the rammer's own points
# and the dice of the race against a draw. 0: it waits (the drivers before session 26). 2: and,
# in a stand-off with no shot to drive to, a car (a gunless one too) plans its way to a place it
# wins that race from (``_plan_standoff``, :func:`_race_at`), the enemies' shots at it there
# counted against it: a gunless target shut in beside the stranded attacker, the road shut
# edge to edge ahead (p76) and turning round leaving play (p75), waited to the turn limit
# (seeded intercepts 92, 2677; issue 15, session 30). The trade-off: the car's own points and
# the dice of the race against a draw.
P_RAMRACE = 25
# P_STRIPDODGE (0/1): a rider with an obstacle strip ahead that it has too few moves to drift
# round (one drift a move, p13) but can dodge through, a lane of its pair free in every space of
# the strip (p62, p64; variant dodge_obstacles), plans the dodge (:func:`_strip_plan`): the
# drifts to that pair, the brakes to ``P_DODGEP``, the dodge. The trade-off: the riders that
# used to ram the strip (a crash, p70-72) live on, against the hazard roll of a dodge over
# 40mph and the speed given up. 0: the riders of the drivers before session 26.
P_STRIPDODGE = 26
P_W = 27
PASS_LOOK = 6
P_SWARM, P_DODGEP, P_RAMCLEAR = range(10, 13)

POLICIES = {
    # the rulebook's advice (p41: 'always hit corners travelling at the optimum speed')
    "standard": (-1, 0, 1, 4, 2, 1, 20, 1),
    # safety limit into curves, no sideswipes, only good shots, a cruising speed, a lead car
    # that lays passives before it speeds up
    "careful": (0, 80, 0, 3, 3, 1, 10, 0),
    # 20mph over every limit, sideswipes, any shot that can hit
    "reckless": (20, 0, 1, 6, 1, 0, 30, 1),
    # a gang's swarm: the standard driving, bikes crowd the lanes beside the enemy car
    "swarm": (-1, 0, 1, 4, 2, 1, 20, 1),
    # the standard driver that locks oil and smoke on (p23-24), switches them off when nothing
    # is within 6 spaces behind, and bluffs with dummies once its passives are spent (p22)
    "layer": (-1, 0, 1, 4, 2, 1, 20, 1, 0, 0, 0, 0, 0, 3, 6),
    # the standard driver who turns to face the enemy behind it at 30mph or less (p14)
    "turn-to-face": (-1, 0, 1, 4, 2, 1, 20, 1, 30, 0),
    # ... and who drives head-on into an oncoming enemy (p52-56; a sacrifice the book allows)
    "head-on": (-1, 0, 1, 4, 2, 1, 20, 1, 30, 1),
}
# Gang tactics of each policy (P_SWARM, P_DODGEP, P_RAMCLEAR); read by bikes only.
GANG_TACTICS = {
    "standard": (0, 50, 2),
    "careful": (0, 40, 3),
    "reckless": (0, 0, 0),
    "swarm": (4, 50, 0),
    "layer": (0, 50, 2),
    "turn-to-face": (0, 50, 2),
    "head-on": (0, 50, 2),
}

# P_PASSMPH of each policy (80: the book's optimum speed, p41)
PASS_MPH = {"careful": 60, "reckless": 100}
# P_LOSSVAL of every named policy: a control loss counts as much as six damage points (a
# judgement: a third of a Renegade's 18 points, two criticals at CRIT_PTS; a control loss costs
# the car its next moves and often its race, p42-46)
LOSS_VALUE = 6
# P_ROLLRISK of every named policy: 6, never slowing for it. Measured on Game Seven (5,000
# games, seed 2026): the target gang wins 38.7% at 6, 37.9% at 5, 37.4% at 4, 34.6% at 3 and
# 18.5% at 0: a rider that slows under fire is caught and hit more often (and loses the -1 to
# be hit at 81mph+, p26), which costs more than the crashes it saves
ROLL_RISK = 6
# P_RUNNER of every named policy: 0, the nearest. Measured on Game Seven (5,000 games, seed
# 2026): the attacker wins 60.9% chasing the nearest live target, 60.2% chasing the runner
# (inside each other's intervals): target vehicles seldom get away (1.8% of games), the gang
# wins by outdistancing the attackers, so the runner is no better a quarry
RUNNER = 0
# P_HOLDBACK of every named policy (measured on Game Seven, docs/rules/dark-future.md)
HOLDBACK = 0
# P_FOCUS of every named policy (measured on Game Seven, docs/rules/dark-future.md)
FOCUS = 0
# P_BACKOFFS of every named policy (measured on the Game Eight intercept, session 23 in
# docs/rules/dark-future.md)
BACKOFFS = 2
# P_RAMBIKE of every named policy: every ram (bits 1-2 measured on the Game Eight pursuit,
# session 26, bit 4 in session 29, docs/rules/dark-future.md)
RAMBIKE = 7
# P_RAMRACE of every named policy (measured on the Game Eight intercept, sessions 26 and 30)
RAMRACE = 2
# P_STRIPDODGE of every named policy: on since session 26's merge (its 'all together' paragraph
# in docs/rules/dark-future.md: a thousand fewer riders' rams, no more draws of the deadlock kinds)
STRIP_DODGE = 1

A_NONE, A_ACCEL, A_BRAKE, A_DRIFT, A_SHOOT, A_PASSIVE, A_SWIPE, A_REALIGN = range(8)
# A_UTURN: arg = mph of acceleration when moving off (p15), else 0; A_REVERSE: arg = 0 straight,
# -1/+1 a drift, 2 a U-turn as part of the reverse (p17)
A_UTURN, A_REVERSE = 8, 9
# Action codes 8-9 direction of travel (U-turn, reverse), 10-11 bikes, 12-13 weapons.
ACTION_NAMES = ("steady", "accelerate", "brake", "drift", "shoot", "passive", "sideswipe",
                "re-align", "u-turn", "reverse")
# a bike's dodge (argument -1: the left lane, +1: the right lane, p64) and push (p69)
A_DODGE, A_PUSH = 10, 11
# A_LOCK: argument = slot to lock on (a marker is laid now and after every later move), or
# -1 - slot to switch it off (p23); A_DUMMY: a dummy marker from the passive slot given (p22)
(A_LOCK, A_DUMMY) = (12, 13)
# A_OFF_DRIFT: moving off with a drift (p15: 'vehicles which are moving off may also perform a
# U-turn or Drift manoeuvre'): |arg| = mph of acceleration, its sign the drift (-1 left, +1
# right)
A_OFF_DRIFT = 14
# A_TURN_ROUND: a stopped bike moving off the other way (p64: 'turned around and aligned
# against the dividing lines at the opposite end of the square', accelerating to 20mph at most,
# the manoeuvre taking the whole turn): arg = mph of acceleration
A_TURN_ROUND = 15
TURN_ROUND_MPH = 20
ACTION_NAMES = ACTION_NAMES + ("-",) * (A_DODGE - len(ACTION_NAMES)) + ("dodge", "push",
                                                                        "lock-on", "dummy",
                                                                        "move off drifting",
                                                                        "turn round")


# The drivers' parameter space (DESIGN.md: a typed parameter space a search can explore):
# name -> (column, kind, low, high, default). kind "int" is a count or mph, "bool" 0/1,
# "bits" a bit set within [low, high]; the defaults are the "standard" driver's.
PARAM_SPACE = {
    "curve_margin": (P_CURVE, "int", -1, 30, -1),      # mph over a curve limit; -1: p41 optimum
    "cruise": (P_CRUISE, "int", 0, 200, 0),            # cruising mph; 0: the car's maximum
    "sideswipe": (P_SWIPE, "bool", 0, 1, 1),
    "passive_range": (P_PASSIVE, "int", 0, 12, 4),     # spaces behind to drop passives within
    "shoot_sixths": (P_SHOOT, "int", 1, 6, 2),         # lowest hit chance to shoot, in sixths
    "dodge": (P_DODGE, "bool", 0, 1, 1),
    "close_margin": (P_CLOSE, "int", 0, 60, 20),       # chaser's mph above the enemy's
    "escape": (P_ESCAPE, "bool", 0, 1, 1),
    "uturn_mph": (P_UTURN, "int", 0, 30, 0),           # 0: never U-turn (p14)
    "head_on": (P_HEADON, "bool", 0, 1, 0),
    "swarm": (P_SWARM, "int", 0, 12, 0),               # bikes only
    "dodge_passive_mph": (P_DODGEP, "int", 0, 100, 50),  # bikes: dodge at or below; a planned dodge's speed
    "ram_clear": (P_RAMCLEAR, "int", 0, 12, 2),
    "layer": (P_LAYER, "bits", 0, 3, 0),
    "unlock": (P_UNLOCK, "int", 0, 12, 0),
    "veto_mph": (P_VETO, "int", 0, 200, 0),
    "passive_mph": (P_PASSMPH, "int", 10, 200, 80),   # speed over passives/hazards (p41)
    "loss_value": (P_LOSSVAL, "int", 0, 30, LOSS_VALUE),  # damage points a control loss is worth
    "flee": (P_FLEE, "bool", 0, 1, 1),                 # play to get away where that wins (p89)
    "roll_risk": (P_ROLLRISK, "int", 0, 6, ROLL_RISK),  # sixths of a crash a fleeing rider under fire accepts
    "runner": (P_RUNNER, "bool", 0, 1, RUNNER),        # Game Seven's attacker: chase the leading target (p89)
    "holdback": (P_HOLDBACK, "bool", 0, 1, HOLDBACK),  # Game Seven's attacker: wait for targets passed (p75)
    "focus": (P_FOCUS, "int", 0, 2, FOCUS),            # equal quarries: 0 redraw, 1 keep own, 2 join team-mates'
    "backoffs": (P_BACKOFFS, "int", 0, 12, BACKOFFS),  # reverses from one place before it stays; 0 no limit
    "ram_bike": (P_RAMBIKE, "bits", 0, 7, RAMBIKE),    # standoff rams (p72): 1 a stopped bike, 2 a bike wreck, 4 a rider at its back quarter
    "ram_race": (P_RAMRACE, "int", 0, 2, RAMRACE),     # standoff: ram a stopped enemy car it outlasts (p56-57); 2: plan the way there
    "strip_dodge": (P_STRIPDODGE, "bool", 0, 1, STRIP_DODGE),  # riders plan dodges through strips (p62, p64)
}


def params_vector(values: dict | None = None) -> np.ndarray:
    """A policy vector from parameter names (the rest at their defaults), checked against the
    space's kinds and bounds."""
    v = np.zeros(P_W, np.int64)
    for name, (col, kind, lo, hi, default) in PARAM_SPACE.items():
        v[col] = default
    for name, x in (values or {}).items():
        if name not in PARAM_SPACE:
            raise KeyError(f"unknown driver parameter {name!r}")
        col, kind, lo, hi, _ = PARAM_SPACE[name]
        if isinstance(x, bool) or int(x) != x or not lo <= int(x) <= hi:
            raise ValueError(f"driver parameter {name}={x!r} outside {kind} [{lo}, {hi}]")
        v[col] = int(x)
    return v


def policy_vector(name: str) -> np.ndarray:
    v = np.zeros(P_W, np.int64)
    v[:len(POLICIES[name])] = POLICIES[name]
    v[P_SWARM:P_RAMCLEAR + 1] = GANG_TACTICS.get(name, (0, 0, 0))
    v[P_PASSMPH] = PASS_MPH.get(name, 80)
    v[P_LOSSVAL] = LOSS_VALUE
    v[P_FLEE] = 1
    v[P_ROLLRISK] = ROLL_RISK
    v[P_RUNNER] = RUNNER
    v[P_HOLDBACK] = HOLDBACK
    v[P_FOCUS] = FOCUS
    v[P_BACKOFFS] = BACKOFFS
    v[P_RAMBIKE] = RAMBIKE
    v[P_RAMRACE] = RAMRACE
    v[P_STRIPDODGE] = STRIP_DODGE
    return v


@jit
def planned_speed(T, V, v, sec, hp, par):
    """The speed the driver means to take curve ``sec`` at (p41 optimum speed, or a margin)."""
    limit = RD.pair_limit(T, sec, V[v, V_LANE])
    if par[P_CURVE] >= 0:
        return limit + par[P_CURVE]
    optimum = max(V[v, V_HAND], V[v, V_SKILL])
    pts = (hp[HP_LOSS_MIN] - 1) - hp[HP_DIE] + optimum
    if pts < 0:
        return limit
    return limit + hp[HP_STEP] * pts


@jit
def curve_plan(T, TM, V, v, hp, par):
    """(speed wanted now or soon, spaces until it is needed) for the next curve in sight."""
    sec = V[v, V_SEC]
    if T[sec, RD.T_KIND] != RD.STRAIGHT:
        return planned_speed(T, V, v, sec, hp, par), 0
    if V[v, V_DIR] != 0:   # facing against play: the next curve is towards the start
        rx = v_rear(T, V, v)
        for s in range(sec - 1, max(TM[RD.TM_FIRST], 0) - 1, -1):
            if T[s, RD.T_KIND] != RD.STRAIGHT:
                gap = RD.along(T, V[v, V_LANE], (s + 1) * RD.UNITS, rx) // RD.UNITS
                return planned_speed(T, V, v, s, hp, par), gap
        return 1 << 20, 1 << 20
    fx = v_front(T, V, v)
    for s in range(sec + 1, TM[RD.TM_NSEC]):
        if T[s, RD.T_KIND] != RD.STRAIGHT:
            gap = RD.along(T, V[v, V_LANE], fx, s * RD.UNITS) // RD.UNITS
            return planned_speed(T, V, v, s, hp, par), gap
    return 1 << 20, 1 << 20


@jit
def _marker_on(M, NM, lane, markers, xlo, xhi):
    """An obstacle (with ``markers``, any passive marker or road hazard but smoke) on
    ``lane``'s pair between ``xlo`` and ``xhi``."""
    for i in range(NM[0]):
        k = M[i, RD.MK_KIND]
        if M[i, RD.MK_ACTIVE] and (k == RD.OBSTACLE or (markers and k != RD.SMOKE)) \
                and marker_over(M, i, lane, lane + 1, xlo, xhi):
            return True
    return False


@jit
def _blocked_ahead(T, M, NM, V, n, v, lane, markers, ahead):
    """Is the space ``ahead`` spaces in front (in the car's own direction), on ``lane``'s pair,
    occupied by a vehicle or an obstacle (and, with ``markers``, by a passive marker or road
    hazard other than smoke)?"""
    d = 1 if V[v, V_DIR] != 0 else 0
    sec = V[v, V_SEC]
    sp = V[v, V_SP]
    for _ in range(ahead):
        sec, sp = RD.step_space(T, sec, V[v, V_LANE], sp, d)
        if sec < 0:
            return False   # off the start of the track
    if d == 0 and sec >= TM_LIMIT:
        return False
    if lane < 0 or lane > 4:
        return True
    sp = min(sp, RD.pair_spaces(T, sec, lane) - 1)
    xlo = RD.rear_x(T, sec, lane, sp)
    xhi = RD.front_x(T, sec, lane, sp)
    if zone_hits(T, V, n, v, sec, lane, lane + 1, xlo, xhi) >= 0:
        return True
    return _marker_on(M, NM, lane, markers, xlo, xhi)


TM_LIMIT = RD.MAXSEC - 1


@jit
def _pick(st, script, m):
    """A uniform choice in [0, m) by a die of ``m`` faces from the trial's dice stream: equal
    options go to the dice, never to the order they are listed in (DESIGN.md). Drawn only when
    there is a tie, so a decision without one leaves the stream as it was; a seeded game
    replays from its recorded rolls and is the same on any number of threads."""
    return dice.roll(st, script, 1, m) - 1


SETUP_LOOK = 6   # spaces: two turns' moves at the intercept's 60mph


@jit
def _setup_score(T, M, NM, V, n, v):
    """How good the car's place is to start from: -1 when it overlaps a vehicle or a marker,
    else the spaces ahead on its lanes clear of obstacles, then of any marker, each counted up
    to ``SETUP_LOOK`` in one walk. Vehicles ahead are not counted: at the set-up every one of
    them is about to move."""
    lane = V[v, V_LANE]
    if _blocked_ahead(T, M, NM, V, n, v, lane, True, 0):
        return -1
    hard = SETUP_LOOK
    soft = -1
    sec = V[v, V_SEC]
    sp = V[v, V_SP]
    for k in range(1, SETUP_LOOK + 1):
        sec, sp = _step_ahead(T, V, v, sec, sp)
        if sec < 0 or RD.pair_spaces(T, sec, lane) == 0:
            break   # off the road laid so far
        xlo = RD.rear_x(T, sec, lane, sp)
        xhi = RD.front_x(T, sec, lane, sp)
        if soft < 0 and _marker_on(M, NM, lane, True, xlo, xhi):
            soft = k - 1
        if _marker_on(M, NM, lane, False, xlo, xhi):
            hard = k - 1
            break
    if soft < 0 or soft > hard:
        soft = hard
    return hard * (SETUP_LOOK + 1) + soft


@jit
def setup_place(st, script, T, M, NM, V, n, v):
    """A player setting up on a section already laid (Game Eight's intercept, p89: the target
    'on the third track', the attacker 'anywhere on track sections 5, 6 or 7') sees its road
    hazards and picks a lane pair and space of the section with the longest clear run ahead
    (:func:`_setup_score`). The scenario's place is kept when none is better; among better
    ones alike, the dice choose. The seeded intercept started cars nose to an obstacle strip
    they rammed on turn 1 (issue 15, session 25)."""
    sec = V[v, V_SEC]
    lane0 = V[v, V_LANE]
    sp0 = V[v, V_SP]
    best = _setup_score(T, M, NM, V, n, v)
    ties = 0
    for phase in range(2):
        # the first pass finds the best score and counts the places that reach it; the second
        # takes the one the dice picked
        pick = -1
        if phase == 1:
            if ties == 0:
                break
            pick = _pick(st, script, ties)
        k = 0
        for lane in range(0, 5):
            for sp in range(RD.pair_spaces(T, sec, lane)):
                if lane == lane0 and sp == sp0:
                    continue
                V[v, V_LANE] = lane
                V[v, V_SP] = sp
                sc = _setup_score(T, M, NM, V, n, v)
                if phase == 0:
                    if sc > best:
                        best = sc
                        ties = 1
                    elif sc == best and ties > 0:
                        ties += 1
                elif sc == best:
                    if k == pick:
                        return
                    k += 1
    V[v, V_LANE] = lane0
    V[v, V_SP] = sp0


@jit
def _drift_dir(T, M, NM, V, n, v, prefer, st, script):
    """A legal drift direction (-1, +1) that clears the way, or 0. With no preference and both
    sides clear, the side is the dice's (it used to be the wider side of the road)."""
    lane = V[v, V_LANE]
    ok_l = False
    ok_r = False
    for k in range(2):
        dd = -1 if k == 0 else 1
        if not _drift_legal(T, V, v, dd):
            continue   # on a curve a drift may only go outwards (p13)
        if 0 <= lane + dd <= 4 and not _blocked_ahead(T, M, NM, V, n, v, lane + dd, True, 1) \
                and not _blocked_ahead(T, M, NM, V, n, v, lane + dd, True, 2):
            if dd < 0:
                ok_l = True
            else:
                ok_r = True
    if prefer < 0 and ok_l:
        return -1
    if prefer > 0 and ok_r:
        return 1
    if ok_l and ok_r:
        return -1 if _pick(st, script, 2) == 0 else 1
    if ok_l:
        return -1
    if ok_r:
        return 1
    return 0


@jit
def _drift_over(T, M, NM, V, n, v, dd):
    """Is a drift ``dd`` legal with its lanes holding no vehicle or obstacle in the next two
    spaces (markers and road hazards allowed)?"""
    lane = V[v, V_LANE]
    return _drift_legal(T, V, v, dd) and 0 <= lane + dd <= 4 \
        and not _blocked_ahead(T, M, NM, V, n, v, lane + dd, False, 1) \
        and not _blocked_ahead(T, M, NM, V, n, v, lane + dd, False, 2)


@jit
def _drift_past(T, M, NM, V, n, v, st, script):
    """A legal drift direction (-1, +1) whose lanes hold no vehicle or obstacle in the next two
    spaces, markers and road hazards allowed, or 0 (both sides: the dice's)."""
    ok = 0
    last = 0
    for dd in (-1, 1):
        if _drift_over(T, M, NM, V, n, v, dd):
            ok += 1
            last = dd
    if ok == 2:
        return -1 if _pick(st, script, 2) == 0 else 1
    return last


# a U-turn made as the car moves off from a shut road: at 10mph or less it needs no hazard
# roll (p14); the driver's choice of speed, the engine applies the rule
U_TURN_SAFE = 10
ROUTE_LOOK = 5   # spaces: far enough to drift three lanes round a road-edge strip (p76)


@jit
def _flees(V, v, hp, par):
    """Does a lead driver play to get away (``P_FLEE``, where that wins: ``HP_GET_AWAY``)?"""
    return par[P_FLEE] != 0 and hp[HP_GET_AWAY] != 0 and V[v, V_ROLE] == LEAD


@jit
def _hunts(T, TM, M, NM, V, n, v, hp):
    """Does the driver mean to take a stopped enemy out rather than pass it: a chase car, or
    any car where taking the other side out wins (Games Six and Eight, ``HP_TAKE_OUT``), unless
    it leaves them all behind (:func:`_leaves_behind`)?"""
    if V[v, V_ROLE] != CHASE and hp[HP_TAKE_OUT] == 0:
        return False
    return not _leaves_behind(T, TM, M, NM, V, n, v, hp)


@jit
def _lead_hunts(T, TM, M, NM, V, n, v, hp):
    """Is the car a lead car that must take the enemy out: where that wins (``HP_TAKE_OUT``),
    every enemy in play stopped for good (:func:`_stuck`) and none it can leave behind
    (:func:`_hunts`)? Then running gains nothing: it closes on them, lines up and shoots as a
    chase car does. The lead car's own driving holds its cruising speed whatever the enemy
    does: the Op of seeded gang pursues 1093 (session 31), its way on shut edge to edge
    (:func:`_way_on_shut`) past a stranded rider with a gun, drove back and forth past it at
    120mph, turning at either end, to the turn limit."""
    if V[v, V_ROLE] != LEAD or hp[HP_TAKE_OUT] == 0 or not _foes_stranded(V, n, v):
        return False
    return _hunts(T, TM, M, NM, V, n, v, hp)


@jit
def _foes_stranded(V, n, v):
    """Is every enemy in play stopped for good (:func:`_stuck`)?"""
    for u in range(n):
        if V[u, V_STATUS] == ACTIVE and V[u, V_SIDE] != V[v, V_SIDE] and not _stuck(V, u):
            return False
    return True


@jit
def _hulk(V, WS, u):
    """An enemy taken out already where being 'immobilised without weapons' counts (p88, Games
    Six-Eight): stopped for good (:func:`_stuck`) with no driver or no direct-fire weapon in
    action with ammunition left (the criticals that put weapons out are announced, and the
    shots each weapon fired were seen)."""
    return V[u, V_STATUS] == ACTIVE and _stuck(V, u) and not armed(V, WS, u)


@jit
def _hulks(V, WS, n):
    """The hulks (:func:`_hulk`) as a bit set over the vehicles (at most 8, scenario.py)."""
    m = 0
    for u in range(n):
        if _hulk(V, WS, u):
            m |= 1 << u
    return m


@jit
def _finishes_hulks(V, WS, v, u, hp):
    """Would shooting or lining up on ``u`` be finishing a hulk the attacker need not touch?
    Where the attacker must take the whole target gang out (Game Seven, p89), a hulk already
    counts as taken out: its shots and its moves belong to the vehicles still in play."""
    return u >= 0 and hp[HP_GET_AWAY] != 0 and V[v, V_ROLE] == CHASE and _hulk(V, WS, u)


@jit
def _quarry(T, V, WS, n, v, hp, par, st, script):
    """(enemy, gap in spaces) a chase driver pursues: the nearest enemy ahead; where the
    attacker must take the whole target gang out (Game Seven, ``HP_GET_AWAY``) not a hulk, and
    with ``P_RUNNER`` the one furthest ahead, nearest to getting away (p89). A tie goes to the
    dice."""
    focus = par[P_FOCUS]
    if hp[HP_GET_AWAY] == 0:
        u, g = _pick_enemy(T, V, n, v, False, False, 0, st, script, focus)
    else:
        u, g = _pick_enemy(T, V, n, v, False, par[P_RUNNER] != 0, _hulks(V, WS, n), st, script,
                           focus)
    if focus > 0:
        V[v, V_QUARRY] = u + 1
    return u, g


@jit
def _held_back_for(T, V, WS, n, v, hp, par, st, script):
    """The target a Game Seven attacker holding back (``P_HOLDBACK``) waits for: with no target
    still in play ahead of it, the nearest one behind (a tie to the dice); else -1."""
    if hp[HP_GET_AWAY] == 0 or par[P_HOLDBACK] == 0 or V[v, V_ROLE] != CHASE:
        return -1
    if _quarry(T, V, WS, n, v, hp, par, st, script)[0] >= 0:
        return -1
    return _pick_enemy(T, V, n, v, True, False, _hulks(V, WS, n), st, script, 0)[0]


@jit
def _leaves_behind(T, TM, M, NM, V, n, v, hp):
    """On a continuous track where taking the other side out wins, is every enemy left stopped
    for good (:func:`_stuck`), none of them one the car cannot get past
    (:func:`_past_shut_road`), and the car's own way on open (:func:`_way_on_shut`)? Then
    driving on with play leaves them off the back of the road (p75), which beats them (p88)
    with no fight (a seeded Game Six Op backed and filled behind a gang car whose engine was
    out, shielded by a wreck, to the turn limit)."""
    if hp[HP_TAKE_OUT] == 0 or hp[HP_OUTRUN] == 0 or not _foes_stranded(V, n, v):
        return False
    for u in range(n):
        if V[u, V_STATUS] == ACTIVE and V[u, V_SIDE] != V[v, V_SIDE] \
                and _past_shut_road(T, TM, M, NM, V, n, v, u):
            return False
    return not _way_on_shut(T, TM, M, NM, V, n, v)


@jit
def _past_shut_road(T, TM, M, NM, V, n, v, u):
    """Is stranded enemy ``u`` one the car has not got past with play (its far end ahead of the
    car's tail, or level) with no lane pair clear from the car on past that far end and
    ``ROUTE_LOOK`` spaces beyond it (as :func:`_route` plans), every pair held by the enemy
    itself or shut by an obstacle, a wreck or a stopped vehicle (p57, p76)? Then the car can
    never get past it to leave it behind (p75), and an enemy stopped with weapons is not
    beaten (p88): it must be taken out. Seeded Game Six and Eight drivers that counted such an
    enemy as left behind waited beside or behind it until the position repeated (issue 15,
    session 23). Looked at with play (``TM_PLAYDIR``): an enemy behind that, facing against
    play, the car has in front of it is left behind by turning round (:func:`_outruns`). Once
    the majority has turned and play runs the other way (p75), the road is left behind the
    other way too: looked at from direction 0 whatever the play, an enemy ahead of such a car
    counted as passed, and one it had passed as ahead (issue 15, session 26). A pair the car
    cannot reach counts as shut for it (:func:`_out_of_reach`)."""
    play = TM[RD.TM_PLAYDIR]
    if play == 0:
        far = v_front(T, V, u)
        if far <= v_rear(T, V, v):
            return False     # passed already
        k = RD.along(T, V[v, V_LANE], v_front(T, V, v), far)
    else:
        far = v_rear(T, V, u)
        if far >= v_front(T, V, v):
            return False
        k = RD.along(T, V[v, V_LANE], far, v_rear(T, V, v))
    # on to the enemy's far end and the stretch the driver plans its way over (ROUTE_LOOK)
    # beyond it: getting past it is getting on from there, and a road shut just past the
    # enemy leaves it in play as surely as one beside it (seeded Game Eight intercept 2341:
    # backed off a corner, the target counted the stranded attacker as left behind, the
    # obstacle strip past it out of a window measured from the car, drove on into the strip,
    # backed off, to a repeated position)
    look = max((k + RD.UNITS - 1) // RD.UNITS, 0) + ROUTE_LOOK
    return not _a_pair_clear(T, M, NM, V, n, v, play, look, False, True)   # looking with play


@jit
def _way_on_shut(T, TM, M, NM, V, n, v):
    """Is the road shut edge to edge somewhere on the car's way on with play (``TM_PLAYDIR``),
    between it and the end of the track laid so far: a space of its lanes where every lane
    pair holds an obstacle (p76), a wreck or a vehicle stopped for good (:func:`_stuck`), none
    of which will ever move? Then the car cannot drive on far enough to leave an enemy it has
    passed off the back of the road (p75), and a stranded enemy with weapons is not beaten
    (p88): it must be taken out. :func:`_past_shut_road` asks the same of the road up to and
    past an enemy not yet passed; this asks it of the road past the car, as far as it is laid,
    so the answer does not change as the car comes and goes (a stretch measured from the car
    would open again as it drove back to the enemy). Seeded gang pursues 1093 (session 31):
    the Op, past a stranded rider with a gun, drove on to an obstacle strip shut edge to edge,
    backed off, U-turned, drove to the start of the track, U-turned again, to the turn limit;
    intercept 2677 (session 30): the last target, past the stranded attacker, waited. A
    stopped vehicle of the car's own side is not counted: it may yet move."""
    play = TM[RD.TM_PLAYDIR]
    lane = V[v, V_LANE]
    sec = V[v, V_SEC]
    sp = V[v, V_SP]
    while True:
        sec, sp = RD.step_space(T, sec, lane, sp, play)
        if sec < TM[RD.TM_FIRST] or sec >= TM[RD.TM_NSEC]:
            return False
        xlo = RD.rear_x(T, sec, lane, sp)
        xhi = RD.front_x(T, sec, lane, sp)
        shut = True
        for p in range(5):
            if not (_obstacle_on(M, NM, p, xlo, xhi)
                    or _fixed_hits(T, V, n, v, sec, p, p + 1, xlo, xhi)):
                shut = False
                break
        if shut:
            return True


@jit
def _drift_to_stranded(T, M, NM, V, n, v, markers, st, script):
    """For a stopped rider with a stranded enemy (:func:`_stuck`) two spaces ahead in its
    lanes and the space between clear: a legal drift direction (outwards only on a curve, p13)
    whose lanes are clear in the next space (with ``markers``, of passive markers and road
    hazards too), the enemy allowed in the space after it (the rider comes up beside or behind
    it), or 0; with both sides open, the dice's. Riders may not reverse (p64), so this is their
    way to line up."""
    lane = V[v, V_LANE]
    if _blocked_ahead(T, M, NM, V, n, v, lane, False, 1):
        return 0
    u = _first_in_way(T, M, NM, V, n, v, 2)
    if u < 0 or V[u, V_SIDE] == V[v, V_SIDE] or V[u, V_STATUS] != ACTIVE or not _stuck(V, u):
        return 0
    ok = 0
    last = 0
    for dd in (-1, 1):
        if _drift_legal(T, V, v, dd) and 0 <= lane + dd <= 4 \
                and not _blocked_ahead(T, M, NM, V, n, v, lane + dd, markers, 1):
            ok += 1
            last = dd
    if ok == 2:
        return -1 if _pick(st, script, 2) == 0 else 1
    return last


@jit
def _fixed_in_way(T, M, NM, V, n, v):
    """Is what stands first in the car's lanes within two spaces something that will never
    move: an obstacle (p76), a wreck, or a vehicle stopped for good (:func:`_stuck`)?"""
    u = _first_in_way(T, M, NM, V, n, v, 2)
    if u == HIT_OBSTACLE:
        return True
    return u >= 0 and V[u, V_MPH] == 0 and (V[u, V_STATUS] == WRECK or _stuck(V, u))


@jit
def _out_of_reach(T, V, v, lane):
    """Can the car not get to ``lane``'s pair from where it stands? A rider on a curve cannot
    get to a pair on the inside of its own lanes: a drift on a curve goes outwards only (p13)
    and a rider may not reverse off the curve first (p64). A car can (p17: it backs straight
    off the bend, then drifts), so for a car every pair is in reach. Seeded gang pursues riders
    stopped on a bend behind the stranded Op, the only clear pair past it on the bend's inside,
    counted the Op as left behind and waited until the position repeated (issue 15, session
    23). The curve that counts is the section the rider's next straight move ends on, as for
    a drift (:func:`_drift_legal`, p13): from a curve's last space onto a straight a drift
    goes either way (session 32; judged on the rider's own section, a rider at a curve's end
    behind the stranded Op of seeded gang pursues 1513 counted the inside pairs out of its
    reach)."""
    if not V[v, V_BIKE]:
        return False
    t = T[_landing_section(T, V, v), RD.T_DIR]
    if t == 0:
        return False
    return (lane - V[v, V_LANE]) * (1 if t < 0 else -1) < 0


@jit
def _step_ahead(T, V, v, sec, sp):
    """The space after (``sec``, ``sp``) along the car's own lanes in its own direction, or
    (-1, 0) past either end of the track."""
    lane = V[v, V_LANE]
    if V[v, V_DIR] == 0:
        sp += 1
        if sp >= RD.pair_spaces(T, sec, lane):
            sec += 1
            sp = 0
        if sec >= TM_LIMIT:
            return -1, 0
    else:
        sp -= 1
        if sp < 0:
            sec -= 1
            if sec < 0:
                return -1, 0
            sp = RD.pair_spaces(T, sec, lane) - 1
    return sec, sp


@jit
def _space_ahead(T, V, v, lane, ahead):
    """(section, space) ``ahead`` spaces in front of the car on ``lane``'s pair (counted along
    its own lane, in its own direction), or (-1, 0) past either end of the track."""
    sec = V[v, V_SEC]
    sp = V[v, V_SP]
    for _ in range(ahead):
        sec, sp = _step_ahead(T, V, v, sec, sp)
        if sec < 0:
            return -1, 0
    return sec, min(sp, RD.pair_spaces(T, sec, lane) - 1)


@jit
def _static_at(T, M, NM, V, n, v, lane, ahead):
    """An obstacle, or a stopped vehicle or wreck, on ``lane``'s pair ``ahead`` spaces in front
    (things that will still be there when the car arrives). A chase car does not steer round a
    stopped enemy: it means to shoot it."""
    if lane < 0 or lane > 4:
        return True
    sec, sp = _space_ahead(T, V, v, lane, ahead)
    if sec < 0:
        return False
    xlo = RD.rear_x(T, sec, lane, sp)
    xhi = RD.front_x(T, sec, lane, sp)
    return _stopped_on(T, V, n, v, lane, xlo, xhi, V[v, V_ROLE] == CHASE) \
        or _obstacle_on(M, NM, lane, xlo, xhi)


@jit
def _obstacle_ahead(T, M, NM, V, v, ahead):
    """An obstacle (p76) on the car's own lanes ``ahead`` spaces in front."""
    lane = V[v, V_LANE]
    sec, sp = _space_ahead(T, V, v, lane, ahead)
    if sec < 0:
        return False
    return _obstacle_on(M, NM, lane, RD.rear_x(T, sec, lane, sp), RD.front_x(T, sec, lane, sp))


@jit
def _first_static(T, M, NM, V, n, v, ahead):
    """The nearest ``k`` of 1 to ``ahead`` with a block in the car's own lanes ``k`` spaces in
    front (what :func:`_static_at` finds there), or 0: one walk along the lanes, where asking
    :func:`_static_at` for each ``k`` walked from the car every time (the drivers ask this
    every decision, session 25's braking and acceleration checks)."""
    lane = V[v, V_LANE]
    sec = V[v, V_SEC]
    sp = V[v, V_SP]
    chase = V[v, V_ROLE] == CHASE
    for k in range(1, ahead + 1):
        sec, sp = _step_ahead(T, V, v, sec, sp)
        if sec < 0:
            return 0
        xlo = RD.rear_x(T, sec, lane, sp)
        xhi = RD.front_x(T, sec, lane, sp)
        if _stopped_on(T, V, n, v, lane, xlo, xhi, chase) or _obstacle_on(M, NM, lane, xlo, xhi):
            return k
    return 0


@jit
def _stop_spaces(mph, brk):
    """The spaces a car ending this phase's move at ``mph`` covers before it can stop: the
    move, then one brake of ``brk`` a move (p15-16)."""
    return 1 + (mph + brk - 1) // brk


@jit
def _stops_short(T, M, NM, V, n, v, mph, brk):
    """Can a car that ends this phase's move at ``mph`` still brake to a stop short of an
    obstacle, wreck or stopped vehicle in its lanes (:func:`_static_at`)? The phase's move
    comes before its speed change, and then one brake a move (p15-16): a car that speeds up
    within reach of a block it cannot stop for rams it (p57, p76). Seeded Game Eight
    intercept 3883: a target sped up from 60mph to 80mph four spaces short of a road shut by
    obstacles, where from 80mph no braking stops it short of them."""
    return _first_static(T, M, NM, V, n, v, _stop_spaces(mph, brk)) == 0


@jit
def _block_plan(T, M, NM, V, n, v, mph, brk, hunt):
    """(spaces to the first block, drifts to get round it) for a car that would end this
    phase's move at ``mph`` with no stop short of a block left (not :func:`_stops_short`):
    the first obstacle, wreck or stopped vehicle in its lanes (:func:`_static_at`) within the
    spaces it covers before stopping, and the fewest drifts to a lane pair clear of blocks up
    to and through that space (:func:`_pair_clear`) on a side the car may drift to where it
    is (p13: outwards only on a curve); (0, 0) when it can still stop short, 99 drifts when no
    such pair exists. One drift a move, each after the move's straight part (p13): a block
    ``k`` spaces off leaves ``k - 1`` moves to drift in before the move that would ram it."""
    kb = _first_static(T, M, NM, V, n, v, _stop_spaces(mph, brk))
    if kb == 0:
        return 0, 0
    lane = V[v, V_LANE]
    for dist in range(1, 5):
        for dd in (-1, 1):
            p = lane + dd * dist
            if 0 <= p <= 4 and _drift_legal(T, V, v, dd) \
                    and _pair_clear(T, M, NM, V, n, v, p, kb, hunt):
                return kb, dist
    return kb, 99


@jit
def _brake_short(mph, brk, kb):
    """The least brake after which a car whose move is about to take it a space nearer a
    block ``kb`` spaces off can still stop short of it, one brake a move (p15-16): it keeps
    moving, as slowly as that needs and no slower, and may still drift round if a way opens
    (a crawl rather than a dead stop); all of its brakes when even they cannot."""
    return min(brk, mph, max(mph - max(kb - 2, 0) * brk, 0))


@jit
def _stopped_on(T, V, n, v, lane, xlo, xhi, hunt):
    """A stopped vehicle or a wreck on ``lane``'s pair between ``xlo`` and ``xhi``; a driver
    who hunts does not count a stopped enemy (it means to shoot it)."""
    for u in range(n):
        if u == v or V[u, V_MPH] != 0 or not (V[u, V_STATUS] == ACTIVE or V[u, V_STATUS] == WRECK):
            continue
        if hunt and V[u, V_STATUS] == ACTIVE and V[u, V_SIDE] != V[v, V_SIDE]:
            continue
        a, b = lanes_of(V, u)
        if b < lane or a > lane + 1:
            continue
        if v_rear(T, V, u) < xhi and xlo < v_front(T, V, u):
            return True
    return False


@jit
def _obstacle_on(M, NM, lane, xlo, xhi):
    """An obstacle (p76) on ``lane``'s pair between ``xlo`` and ``xhi``."""
    for i in range(NM[0]):
        if M[i, RD.MK_ACTIVE] and M[i, RD.MK_KIND] == RD.OBSTACLE \
                and marker_over(M, i, lane, lane + 1, xlo, xhi):
            return True
    return False


@jit
def _pair_clear(T, M, NM, V, n, v, lane, look, hunt):
    """Is ``lane``'s pair free, over the stretch of road the car covers in its next ``look``
    moves, of things that will still be there when it arrives (obstacles, wrecks, stopped
    vehicles; as :func:`_static_at`)? The stretch is measured along the car's own lanes and
    tested on the pair as a length of road, not space by space: on a curve the pairs have
    different numbers of spaces, and counting the other pair's spaces by the car's own left a
    wreck on the outside of a bend unseen from the inside lanes. For a driver who hunts
    (:func:`_hunts`) the stretch ends at the nearest stopped enemy ahead: that enemy is where it
    is going, and what lies beyond does not matter yet (an obstacle or a wreck past a stranded
    enemy steered the hunter off the enemy's lanes while its line-up steered it back, to the
    turn limit: seeded Game Eight)."""
    if lane < 0 or lane > 4:
        return False
    back = V[v, V_DIR] != 0
    sec, sp = _space_ahead(T, V, v, V[v, V_LANE], look)
    if back:
        hi = v_rear(T, V, v)
        lo = RD.rear_x(T, sec, V[v, V_LANE], sp) if sec >= 0 else 0
    else:
        lo = v_front(T, V, v)
        hi = RD.front_x(T, sec, V[v, V_LANE], sp) if sec >= 0 else TM_LIMIT * RD.UNITS
    if hunt:
        for u in range(n):
            if u == v or V[u, V_MPH] != 0 or V[u, V_STATUS] != ACTIVE \
                    or V[u, V_SIDE] == V[v, V_SIDE]:
                continue
            a, b = lanes_of(V, u)
            ur = v_rear(T, V, u)
            uf = v_front(T, V, u)
            # ahead of the car in any lanes (it means to draw level or line up there first), or
            # in this pair's lanes overlapping the stretch
            if (lo < uf <= hi) if back else (lo <= ur < hi):
                pass
            elif b < lane or a > lane + 1 or not (ur < hi and lo < uf):
                continue
            if back:
                lo = max(lo, uf)
            else:
                hi = min(hi, ur)
    if hi <= lo:
        return True
    return not (_stopped_on(T, V, n, v, lane, lo, hi, hunt) or _obstacle_on(M, NM, lane, lo, hi))


@jit
def _route(T, M, NM, V, n, v, look, hunt, st, script):
    """(blocked, direction): whether a stopped thing or an obstacle stands in the car's lanes
    within ``look`` spaces, and the way (-1, +1) to the nearest lane pair clear of them for
    that distance (0: none; two clear pairs equally near: the dice's side). A car that waits
    until the block is two spaces off can only brake (one drift a move, after the straight
    move, p13); three-lane strips of obstacles on a road edge (p76) take several drifts.
    A driver who hunts a stopped enemy ahead goes round on the side of the clear pair nearest
    that enemy's lanes (the nearest pair to its own lanes only breaks ties there): the nearest
    way round a wreck on a bend led away from a stranded enemy beyond it, which the car then
    drove past, turned, and passed again (seeded Game Eight intercepts)."""
    lane = V[v, V_LANE]
    if _pair_clear(T, M, NM, V, n, v, lane, look, hunt):
        return False, 0
    if hunt:
        e, g = _nearest_enemy(T, V, n, v, False, st, script)
        if e >= 0 and V[e, V_MPH] == 0:
            goal = V[e, V_LANE]
            best = -1
            for p in range(5):
                if p == lane or not _pair_clear(T, M, NM, V, n, v, p, look, hunt):
                    continue
                if best < 0 or abs(p - goal) < abs(best - goal) or (
                        abs(p - goal) == abs(best - goal) and abs(p - lane) < abs(best - lane)):
                    best = p
                elif abs(p - goal) == abs(best - goal) and abs(p - lane) == abs(best - lane):
                    if _pick(st, script, 2) == 0:
                        best = p
            if best >= 0:
                return True, 1 if best > lane else -1
    for dist in range(1, 5):
        left = lane - dist >= 0 and _pair_clear(T, M, NM, V, n, v, lane - dist, look, hunt)
        right = lane + dist <= 4 and _pair_clear(T, M, NM, V, n, v, lane + dist, look, hunt)
        if left and right:
            return True, -1 if _pick(st, script, 2) == 0 else 1
        if left:
            return True, -1
        if right:
            return True, 1
    return True, 0


@jit
def _way_held(T, V, n, v, d):
    """A vehicle on the move, going the car's way, in the lane pair its drift ``d`` would land
    on, level with the car or in the space the drift lands in; -1 if none. ``_route`` counts
    only what stays put, so that pair may be clear for it; but the drift is refused there
    (cutting up a car level with the mover that has yet to move, p13) or blocked (the landing
    space held), and made next move it is refused again while the two keep level. Seeded
    Game Six, gang pursues and intercept cars side by side approaching a road-edge strip
    (p76) kept their lanes expecting to drift past it and rammed it (p57): the largest single
    cause of the drivers' avoidable obstacle rams (issue 15, session 25)."""
    lane = V[v, V_LANE]
    p = lane + d
    if p < 0 or p > 4:
        return -1
    sec, sp = _space_ahead(T, V, v, p, 1)
    if V[v, V_DIR] != 0:
        hi = v_front(T, V, v)
        lo = RD.rear_x(T, sec, p, sp) if sec >= 0 else 0
    else:
        lo = v_rear(T, V, v)
        hi = RD.front_x(T, sec, p, sp) if sec >= 0 else TM_LIMIT * RD.UNITS
    for u in range(n):
        if u == v or V[u, V_STATUS] != ACTIVE or V[u, V_MPH] == 0 \
                or V[u, V_DIR] != V[v, V_DIR]:
            continue
        a, b = lanes_of(V, u)
        if b < p or a > p + 1:
            continue
        if may_overlap(V, v, u):
            # a rider may share lanes with a moving bike (p64): only the cut-up holds it
            if v_rear(T, V, u) < v_front(T, V, v) and v_rear(T, V, v) < v_front(T, V, u):
                return u
        elif v_rear(T, V, u) < hi and lo < v_front(T, V, u):
            return u
    return -1


CURVE_PLAN = 2   # spaces past a curve's end that the planning before it covers (a judgement:
                 # a drift there is legal again, but one a move after the straight one, p13)


@jit
def _curve_ahead(T, TM, V, v, look):
    """For a car on a straight: (the spaces to the last of the first curve that starts within
    ``look`` spaces ahead in its lanes, that curve's outward side -1 or +1); (0, 0) on a curve
    or with no such curve on the track laid so far."""
    if T[V[v, V_SEC], RD.T_KIND] != RD.STRAIGHT:
        return 0, 0
    d = 1 if V[v, V_DIR] != 0 else 0
    sec = V[v, V_SEC]
    sp = V[v, V_SP]
    lane = V[v, V_LANE]
    start = -1
    out = 0
    k = 0
    while True:
        sec, sp = RD.step_space(T, sec, lane, sp, d)
        k += 1
        if sec < TM[RD.TM_FIRST] or sec >= TM[RD.TM_NSEC]:
            break
        if start < 0:
            if k > look:
                return 0, 0
            if T[sec, RD.T_KIND] != RD.STRAIGHT:
                start = sec
                out = 1 if T[sec, RD.T_DIR] < 0 else -1
        elif sec != start:
            break
    if start < 0:
        return 0, 0
    return k - 1, out


@jit
def _straight_before(T, V, v, far):
    """The spaces ahead (at most ``far``) that lie on straights before the car's lanes first
    reach a curve: where a drift towards a curve's inside can still land (p13)."""
    k = 0
    while k < far:
        sec, sp = _space_ahead(T, V, v, V[v, V_LANE], k + 1)
        if sec < 0 or T[sec, RD.T_KIND] != RD.STRAIGHT:
            break
        k += 1
    return k


@jit
def _inward_reach(T, M, NM, V, n, v, inward, far, hunt):
    """Can a stopped car get onto a lane pair on the ``inward`` side (-1, +1) that is clear
    round the curve ahead (``far`` spaces, as :func:`_pair_clear`), drifting one lane a move
    while its drifts still land on the straight before the curve (p13; on the curve a drift
    goes outwards only)? A reverse may take the first drift (p17); each move's straight part
    must be clear in the lanes the car holds, and each drift's lanes where it lands. Returns
    the clear pair reached, or -1: then, for this car, the road past the curve is shut."""
    lane = V[v, V_LANE]
    s = _straight_before(T, V, v, far)
    k0 = 1
    if 0 <= lane + inward <= 4 and T[V[v, V_SEC], RD.T_KIND] == RD.STRAIGHT \
            and _reverse_clear(T, M, NM, V, n, v, inward):
        # the reverse lands behind, on the straight, and the car comes on through its own
        # space again, where a drift may land too
        lane += inward
        if _pair_clear(T, M, NM, V, n, v, lane, far, hunt):
            return lane
        k0 = 0
    for k in range(k0, s + 1):
        if k > 0 and _static_at(T, M, NM, V, n, v, lane, k):
            break
        if 0 <= lane + inward <= 4 and not _static_at(T, M, NM, V, n, v, lane + inward, k):
            lane += inward
            if _pair_clear(T, M, NM, V, n, v, lane, far, hunt):
                return lane
    return -1


@jit
def _plan_before_curve(T, TM, M, NM, V, WS, n, v, look, hp, st, script):
    """The drift (-1, +1) to make on the straight before a curve, or 0: on the curve a drift
    may only go outwards (p13), so a way round a block on or just past it that needs an inward
    drift, or the lanes of a stopped enemy there that the car means to line up on, are reached
    only by drifting before it (``_route`` alone plans from where the car is, one drift a move:
    seeded Game Eight cars came onto the bend in the wrong lanes, stopped, backed off it and
    came on again, and a Game Seven attacker did the same beside a stranded rider)."""
    span, out = _curve_ahead(T, TM, V, v, look)
    if span == 0:
        return 0
    far = span + CURVE_PLAN
    hunt = _hunts(T, TM, M, NM, V, n, v, hp)
    blocked, r = _route(T, M, NM, V, n, v, far, hunt, st, script)
    if blocked and r != 0 and r != out:
        return r
    if hunt and not V[v, V_BIKE]:
        e = _stopped_enemy_in_front(T, TM, V, WS, n, v, far, hp)
        if e >= 0 and V[e, V_LANE] != V[v, V_LANE]:
            toward = 1 if V[e, V_LANE] > V[v, V_LANE] else -1
            if toward != out:
                return toward
    return 0


@jit
def _back_into_block(T, M, NM, V, n, v, lane, g):
    """Would a drift onto ``lane``'s pair take a chase car out of clear lanes into ones blocked
    before it reaches the enemy ``g`` spaces ahead? Its way round a wreck or an obstacle
    (:func:`_route`) is then undone by its drift towards the enemy's lanes; the two pulled it
    back and forth in front of a wreck on a bend to the turn limit (seeded Game Eight)."""
    look = min(max(g, 1), ROUTE_LOOK)
    return _pair_clear(T, M, NM, V, n, v, V[v, V_LANE], look, True) \
        and not _pair_clear(T, M, NM, V, n, v, lane, look, True)


@jit
def _a_pair_clear(T, M, NM, V, n, v, facing, look, hunt, reach):
    """Is some lane pair clear over ``look`` spaces from the car, looking as if it faced
    ``facing`` (0 with play, 1 against it; :func:`_pair_clear`)? With ``reach``, only among
    the pairs the car can get to (:func:`_out_of_reach`)."""
    d = V[v, V_DIR]
    V[v, V_DIR] = facing     # look that way (restored below)
    clear = False
    for lane in range(5):
        if reach and _out_of_reach(T, V, v, lane):
            continue
        if _pair_clear(T, M, NM, V, n, v, lane, look, hunt):
            clear = True
            break
    V[v, V_DIR] = d
    return clear


@jit
def _beyond_shut_road(T, M, NM, V, n, v, behind, hunt, st, script):
    """Is the nearest enemy behind (or ahead) out of reach: every lane pair between it and the
    car stopped by an obstacle, a wreck or a stopped vehicle (p57, p76; no way through, and
    obstacles cannot be driven through or shot away)? False with no such enemy."""
    u, g = _nearest_enemy(T, V, n, v, behind, st, script)
    if u < 0:
        return False
    d = V[v, V_DIR]
    return not _a_pair_clear(T, M, NM, V, n, v, 1 - d if behind else d, max(g, 1), hunt, False)


@jit
def _first_in_way(T, M, NM, V, n, v, look):
    """What stands first in the car's lanes within ``look`` spaces ahead: a vehicle's index,
    HIT_OBSTACLE or HIT_NONE."""
    lane = V[v, V_LANE]
    d = 1 if V[v, V_DIR] != 0 else 0
    sec = V[v, V_SEC]
    sp = V[v, V_SP]
    for _ in range(look):
        sec, sp = RD.step_space(T, sec, lane, sp, d)
        if sec < 0 or (d == 0 and sec >= TM_LIMIT):
            return HIT_NONE
        xlo = RD.rear_x(T, sec, lane, sp)
        xhi = RD.front_x(T, sec, lane, sp)
        u = zone_hits(T, V, n, v, sec, lane, lane + 1, xlo, xhi)
        if u >= 0:
            return u
        if _obstacle_on(M, NM, lane, xlo, xhi):
            return HIT_OBSTACLE
    return HIT_NONE


TRACK_LOOK = 12   # spaces: enough to stop from any speed (200mph at 20mph a move)


@jit
def _track_left(T, TM, V, v, hp):
    """Where taking the other side out wins, the spaces a car facing against play can still
    move before it runs off the end of the stretch of road and leaves play (p75), which loses
    as surely as a wreck (p88: seeded Game Eight Ops turned to chase and drove off the start
    of the track); else, or beyond ``TRACK_LOOK``, as far as no curve (``curve_plan``'s)."""
    if hp[HP_TAKE_OUT] == 0 or V[v, V_DIR] == TM[RD.TM_PLAYDIR]:
        return 1 << 20
    d = V[v, V_DIR]
    sec = V[v, V_SEC]
    sp = V[v, V_SP]
    for k in range(TRACK_LOOK):
        sec, sp = RD.step_space(T, sec, V[v, V_LANE], sp, d)
        if sec < TM[RD.TM_FIRST] or sec >= TM[RD.TM_NSEC]:
            return k
    return 1 << 20


@jit
def _turns_play(V, n, v):
    """Would car ``v`` turning round make its new way the way of most of the cars in play, and
    so the direction of play (p75: the majority's; on equal numbers the old one stays), with no
    team-mate left going the old way (against the new play it would leave play, p75)?"""
    d = V[v, V_DIR]
    for u in range(n):
        if u != v and V[u, V_STATUS] == ACTIVE and V[u, V_SIDE] == V[v, V_SIDE] \
                and V[u, V_DIR] == d:
            return False
    V[v, V_DIR] = 1 - d          # as if turned (restored below)
    turned = play_majority(V, n, d) != d
    V[v, V_DIR] = d
    return turned


@jit
def _outruns(T, TM, M, NM, V, n, v, hp, st, script):
    """Where taking the other side out wins on a continuous track (Games Six and Eight), a car
    facing against play whose enemy ahead is beyond a shut road, with none it can reach
    behind, turns round and drives on with play: the stretch of road moves on with the leader
    and the enemies behind the shut road leave play off its back (p75), which beats them (p88)
    as surely as a shot. Decided from the enemy's side of the road, not from how far off the
    shut road is, so backing off to where it may turn does not bring the car back to it.
    A car going with play does the same where its turn makes its way the majority's, and so
    play's (p75: the old way's road is then taken up behind it): seeded Game Eight intercepts
    ended with the last target and the attacker face to face, a road shut between them, both
    waiting until the position repeated (issue 15, session 26)."""
    if hp[HP_TAKE_OUT] == 0 or hp[HP_OUTRUN] == 0:
        return False
    if V[v, V_DIR] == TM[RD.TM_PLAYDIR]:
        if not _turns_play(V, n, v):
            return False
    elif _leaves_behind(T, TM, M, NM, V, n, v, hp):
        return True     # every enemy stranded: they are left behind only going with play
    hunt = _hunts(T, TM, M, NM, V, n, v, hp)
    u, g = _nearest_enemy(T, V, n, v, False, st, script)
    if u < 0 or not _beyond_shut_road(T, M, NM, V, n, v, False, hunt, st, script):
        return False
    e, g = _nearest_enemy(T, V, n, v, True, st, script)
    return e < 0 or _beyond_shut_road(T, M, NM, V, n, v, True, hunt, st, script)


@jit
def _drift_legal(T, V, v, d):
    """On a curve a drift may only go outwards (p13). The drift comes after the straight move,
    so the section that counts is the one that move ends on: 'cars which start the move on a
    corner or bend, but which are moving onto a straight section are allowed to execute a drift
    in either direction' (p13), and one moving from a straight onto a curve only outwards (the
    engine's reading, ``engine._advance``). Judged on the car's own section, a driver at a
    straight's last space steered inwards into the curve ahead, the engine refused the drift,
    and it stopped short of the block it meant to pass: seeded intercept 4377's attacker,
    twice, before it found the way round (issue 15, session 30)."""
    t = T[_landing_section(T, V, v), RD.T_DIR]
    return t == 0 or d == (1 if t < 0 else -1)


@jit
def _landing_section(T, V, v):
    """The section the car's next straight move ends on (its own past either end of the
    track): the one whose curve a drift, and a rider's reach of a lane pair, is judged on
    (p13)."""
    sec, sp = RD.step_space(T, V[v, V_SEC], V[v, V_LANE], V[v, V_SP], V[v, V_DIR])
    return sec if sec >= 0 else V[v, V_SEC]


@jit
def _hit_sixths(rng, mod):
    """Faces of a d6 that hit at this counted range and modifier (a natural 1 misses, p26)."""
    need = max(2, rng - mod)
    return max(0, 7 - need)


@jit
def _shot_sixths(T, M, NM, V, WS, v, w, u, hp, tbuf, more_smoke):
    """Faces of a d6 on which ``v``'s weapon ``w`` hits ``u`` now, as the engine will roll it:
    the range counted up to the cap, and every modifier the firer can see
    (:func:`.pieces.vehicle.hit_modifier`, the engine's own; ``more_smoke`` markers not laid
    yet). ``tbuf``: :func:`find_target`'s answer for the weapon's mount."""
    tf = hp[HP_TF:HP_DRV_END]
    mod = hit_modifier(T, V, M, NM, v, u, WS[v, w, W_MOUNT], WS[v, w, W_ACC], tbuf, tf,
                       more_smoke)
    return _hit_sixths(min(tbuf[1], tf[TF_RANGE_CAP]), mod)


# --- the value of an action, in expected damage points (issue 15: shoot, lay, sideswipe or ram
# by expected effect). The rule numbers the driver prices with are the rules in force: the
# scenario copies them from the engine's G (filled from data/*.toml and the variants chosen) into
# the driver block of the hazard-parameter array hp (``HP_*`` below, scenario.to_arrays), so a
# variant or a table changed there reaches the driver as it reaches the engine.
HP_DRV = 27   # after the hazard roll's cells and the engine's bike tables (engine.HP_*)
(HP_RAM_BONUS,       # the rammer's +1 in a sideswipe test (p54)
 HP_SS_LOSS,         # both cars of a neck-and-neck sideswipe lose 10mph (p56)
 HP_L_SWIPE,         # the sideswipe loser's hazard limit, 40mph (p56)
 HP_L_OIL_S,         # oil: 60mph straight and steady (p30)
 HP_L_OIL_O,         # oil: 30mph otherwise (p30)
 HP_L_MINE,          # pattern mines: a 50mph test (p30)
 HP_MINE_DMG,        # ... and one +3 hit (p30)
 HP_L_SMOKE,         # smoke: a 60mph test (p30)
 HP_SPIKE_MPH,       # spikes do nothing at 20mph or less (p31)
 HP_OIL_MAX,         # oil: -1 handling, at most -2 (p30)
 HP_MPH_SF,          # a speed factor per 20mph (p12)
 HP_L_SHUNT,         # both vehicles of a shunt test at 40mph (p56)
 HP_CAR_SHUNT_SLOW,  # a car shunting a bike slows 10mph, the bike takes the car's speed (p72)
 HP_TAKE_OUT,        # 1: the Game is won by taking the other side out (Six, Eight: p88-89)
 HP_OUTRUN,          # 1: continuous track, where a car left behind leaves play (p75)
 HP_GET_AWAY,        # 1: the lead side wins by getting away (Game Seven's target gang, p89)
 HP_ROLL_LOW,        # the bike control-loss table's lowest score that rolls (p70)
 HP_ROLL_CRASH,      # a bike that rolls at this mph or more crashes (p70)
 HP_STOPPED_BIKE,    # 1: a car into an upright bike stopped its way is a head-on (p70 note)
 HP_DODGE_OBST,      # 1: a dodging rider meets an obstacle with its one lane (p62, p64)
 ) = range(HP_DRV, HP_DRV + 20)
# ... and the hit roll's tactical factors (pieces.vehicle.TF_*), which the engine's shot reads
# from the same cells (pieces.vehicle.hit_modifier)
HP_TF = HP_DRV + 20
HP_DRV_END = HP_TF + TF_W
# judgements, not rules (the book gives no price of a critical or of a handling point)
CRIT_PTS = 3.0      # a critical hit (a natural 6 on the damage die, p28, p32): three points
OIL_HAND_PTS = 1.0  # a handling point off the pursuer's later hazard rolls and tests
LAY_FAR = 0.5       # a pursuer more than two spaces back may steer round a marker (p25)
DUMMY_VALUE = 0.01  # a dummy (p22) harms nobody: laid only when nothing else is worth anything


@jit
def _hit_pts(dmg, arm):
    """Expected damage points of one hit: d6 + damage - armour, at least 0 (p28), plus the
    critical a 6 on the die scores."""
    t = 0
    for r in range(1, 7):
        t += max(0, r + dmg - arm)
    return t / 6.0 + CRIT_PTS / 6.0


@jit
def _sf(mph, hp):
    """Speed factor: a factor per 20mph or part of it (p12)."""
    return (mph + hp[HP_MPH_SF] - 1) // hp[HP_MPH_SF]


@jit
def _loss_p(mph, limit, V, u, hp):
    """The chance that a hazard roll at ``limit`` loses car ``u`` control at ``mph`` (p39: d6 +
    1 a 10mph over the limit - optimum control, 5 or more; panic brakes not counted)."""
    if mph <= limit:
        return 0.0
    step = hp[HP_STEP]
    excess = (mph - limit + step - 1) // step
    need = hp[HP_LOSS_MIN] - excess + max(V[u, V_HAND], V[u, V_SKILL])
    faces = min(hp[HP_DIE], max(0, hp[HP_DIE] - max(need, 1) + 1))
    return faces / hp[HP_DIE]


@jit
def _roll_crash_sixths(mph, V, v, hp):
    """Faces of six on which a control-loss test of bike ``v`` at ``mph`` rolls and so crashes
    (p70: d6 + speed factor - adverse control, the roll row; a roll at 81mph or more is a
    crash, at 80mph or less a fall the rider gets up from): 0 below the crash speed."""
    if mph < hp[HP_ROLL_CRASH]:
        return 0
    need = hp[HP_ROLL_LOW] - _sf(mph, hp) + min(V[v, V_HAND], V[v, V_SKILL])
    return min(6, max(0, 7 - max(need, 1)))


@jit
def _under_fire(T, M, NM, V, WS, n, v, hp, tbuf):
    """Has an enemy a shot at ``v`` now: is ``v`` the target of some enemy's best direct-fire
    weapon (its corridor, range and ammunition, all on the table)?"""
    for u in range(n):
        if V[u, V_STATUS] != ACTIVE or V[u, V_SIDE] == V[v, V_SIDE] or V[u, V_NODRIVER]:
            continue
        if _shot_core(T, M, NM, V, WS, n, u, hp, tbuf, 1, 0)[1] == v:
            return True
    return False


@jit
def _roll_safe_mph(T, M, NM, V, WS, n, v, hp, par, tbuf):
    """The fastest speed a rider playing to get away keeps while an enemy has a shot at it:
    where a control loss (which a hit's critical or forced hazard roll may bring) crashes the
    bike on at most ``P_ROLLRISK`` faces (p70); no limit (1 << 20) otherwise."""
    if not V[v, V_BIKE] or par[P_ROLLRISK] >= 6 or not _flees(V, v, hp, par):
        return 1 << 20
    if not _under_fire(T, M, NM, V, WS, n, v, hp, tbuf):
        return 1 << 20
    top = V[v, V_MAXSPD]
    while top > 0 and _roll_crash_sixths(top, V, v, hp) > par[P_ROLLRISK]:
        top -= 1
    return top


@jit
def _shot_core(T, M, NM, V, WS, n, v, hp, tbuf, least, pick):
    """(slot, target, value, hit sixths, ties) of the direct-fire weapon with the most expected
    damage points at a hit chance of at least ``least`` sixths, or (-1, -1, 0.0, 0, 0); of
    ``ties`` weapons of equal value, the ``pick``-th (0: the first)."""
    best = -1.0
    slot = -1
    tgt = -1
    hb = 0
    ties = 0
    for w in range(MAXW):
        if WS[v, w, W_KIND] != WK_DIRECT or WS[v, w, W_AMMO] == 0:
            continue
        if WS[v, w, W_LASER] and WS[v, w, W_FIRED]:
            continue
        if WS[v, w, W_OFF] & ~OFF_LASTSHOT:
            continue   # out of action (p34-35)
        u = find_target(T, V, n, v, WS[v, w, W_MOUNT], tbuf)
        if u < 0 or tbuf[1] > WS[v, w, W_RANGE]:
            continue
        # the odds the engine will roll (smoke, speeds, a bike target: issue 15, session 21;
        # accuracy and the mount's +1 alone before)
        h = _shot_sixths(T, M, NM, V, WS, v, w, u, hp, tbuf, 0)
        if h < least or h <= 0:
            continue
        value = h / 6.0 * _hit_pts(WS[v, w, W_DMG], V[u, V_ARM])
        if value < best:
            continue
        if value == best:
            ties += 1
            if ties - 1 != pick:
                continue
        else:
            ties = 1   # a better weapon: the count of equals starts again
        best = value
        slot = w
        tgt = u
        hb = h
    return slot, tgt, max(best, 0.0), hb, ties


@jit
def best_shot(T, M, NM, V, WS, n, v, hp, par, tbuf):
    """(slot, target) of the direct-fire weapon with the most expected damage, or (-1, -1)
    (of equal ones the first: for callers that ask whether there is a shot)."""
    slot, tgt, val, h, ties = _shot_core(T, M, NM, V, WS, n, v, hp, tbuf, par[P_SHOOT], 0)
    return slot, tgt


@jit
def _choose_shot(T, M, NM, V, WS, n, v, hp, tbuf, least, st, script):
    """:func:`_shot_core` with equal weapons (linked pairs, twin mounts) chosen by a die."""
    slot, tgt, val, h, ties = _shot_core(T, M, NM, V, WS, n, v, hp, tbuf, least, 0)
    if ties > 1:
        slot, tgt, val, h, ties = _shot_core(T, M, NM, V, WS, n, v, hp, tbuf, least,
                                             _pick(st, script, ties))
    return slot, tgt, val, h


@jit
def _shot_option(T, M, NM, V, WS, n, v, hp, tbuf, least, st, script):
    """The best shot as one option to weigh against the others: (action, argument, its value
    in expected damage points); with no shot (A_NONE, 0, 0.0)."""
    slot, _, best, _ = _choose_shot(T, M, NM, V, WS, n, v, hp, tbuf, least, st, script)
    if slot < 0:
        return A_NONE, 0, 0.0
    return A_SHOOT, slot, best


@jit
def _swipe_value(V, v, u, hp, par):
    """Expected damage points a sideswipe of ``u`` gains the swiper, less what it risks (p54-56):
    the test d6 + 1 + the better of handling and skill against the target's; the loser (both on
    a tie) takes a hit at the speed factors' difference and a 40mph hazard roll 10mph slower."""
    cv = max(V[v, V_HAND], V[v, V_SKILL]) + hp[HP_RAM_BONUS]
    cu = max(V[u, V_HAND], V[u, V_SKILL])
    win = 0
    lose = 0
    for a in range(1, 7):
        for b in range(1, 7):
            if a + cv > b + cu:
                win += 1
            elif a + cv < b + cu:
                lose += 1
    tie = 36 - win - lose
    if V[u, V_BIKE]:
        win, lose, tie = 36, 0, 0   # a bike against a car always loses (p72)
    rel = abs(_sf(V[v, V_MPH], hp) - _sf(V[u, V_MPH], hp))
    lv = par[P_LOSSVAL]
    lu = _loss_p(max(0, V[u, V_MPH] - hp[HP_SS_LOSS]), hp[HP_L_SWIPE], V, u, hp)
    lme = _loss_p(max(0, V[v, V_MPH] - hp[HP_SS_LOSS]), hp[HP_L_SWIPE], V, v, hp)
    gain = _hit_pts(rel, V[u, V_ARM]) + lv * lu
    cost = _hit_pts(rel, V[v, V_ARM]) + lv * lme
    return ((win + tie) * gain - (lose + tie) * cost) / 36.0


@jit
def _ram_target(T, V, n, v):
    """(enemy, spaces) of an enemy going the car's way, slower (or stopped, not a wreck and
    square to the grid: a shunt, p57), whose zone the car's next one or two straight moves run
    into (its own two lanes, one or both in common, p55), or (-1, 0). Anything else in the way
    first (a friend, a wreck, an angled car: a head-on, p57) is no ram target."""
    # most phases no enemy is slower than the car: skip the look along the road (it costs
    # Game One several per cent of its throughput when made every move)
    slower = False
    for u in range(n):
        if V[u, V_STATUS] == ACTIVE and V[u, V_SIDE] != V[v, V_SIDE] \
                and V[u, V_DIR] == V[v, V_DIR] and V[u, V_MPH] < V[v, V_MPH]:
            slower = True
            break
    if not slower:
        return -1, 0
    d = 1 if V[v, V_DIR] != 0 else 0
    sec = V[v, V_SEC]
    sp = V[v, V_SP]
    lane = V[v, V_LANE]
    for k in range(1, 3):
        sec, sp = RD.step_space(T, sec, lane, sp, d)
        if sec < 0 or (d == 0 and sec >= TM_LIMIT):
            return -1, 0
        u = zone_hits(T, V, n, v, sec, lane, lane + 1, RD.rear_x(T, sec, lane, sp),
                      RD.front_x(T, sec, lane, sp))
        if u < 0:
            continue
        if V[u, V_STATUS] != ACTIVE or V[u, V_SIDE] == V[v, V_SIDE] or V[u, V_DIR] != V[v, V_DIR] \
                or V[u, V_TERMINAL] or V[u, V_AXLE] or V[u, V_FALLEN] or V[u, V_ATT] % 180 != 0 \
                or V[u, V_OOC] == SPINNING or V[u, V_MPH] >= V[v, V_MPH]:
            return -1, 0
        return u, k
    return -1, 0


@jit
def _ram_value(V, v, u, hp, par):
    """Expected damage points a shunt of ``u`` by car ``v`` gains, less what it costs the
    rammer (p55-57): both take relative speed-factor damage (as many hits as the speed factors
    differ, each at +that), the speeds meet halfway and both test at the shunt's 40mph (the
    target ignores panic results; a control loss counts ``P_LOSSVAL``). A car shunting a bike
    (p72) pushes it to the car's speed and slows 10mph; with one lane in common it is a
    sideswipe the bike loses (a relative hit and the loser's 40mph test, 10mph off each)."""
    lv = par[P_LOSSVAL]
    mv = V[v, V_MPH]
    mu = V[u, V_MPH]
    rel = max(_sf(mv, hp) - _sf(mu, hp), 0)
    a = V[u, V_LANE]
    b = V[v, V_LANE]
    shared = 2 - min(abs(a - b), 2)
    if V[u, V_BIKE] and shared == 1:
        return _hit_pts(rel, V[u, V_ARM]) \
            + lv * _loss_p(max(0, mu - hp[HP_SS_LOSS]), hp[HP_L_SWIPE], V, u, hp)
    if V[u, V_BIKE] and mu == 0 and hp[HP_STOPPED_BIKE]:
        # into a stopped bike: a head-on, one combined hit each, the bike crashes (out of play,
        # worth its remaining points), the car loses control (p72; variant stopped_bike_ram)
        c = _sf(mv, hp)
        return V[u, V_DMG] - _hit_pts(c, V[v, V_ARM]) - lv
    if V[u, V_BIKE]:
        nu = min(mv, max(V[u, V_MAXSPD], mu))
        nv = max(0, mv - hp[HP_CAR_SHUNT_SLOW])
    else:
        half = (mv - mu + 1) // 2
        nu = min(mu + half, max(V[u, V_MAXSPD], mu))
        nv = mv - half
    hits_u = rel * _hit_pts(rel, V[u, V_ARM]) if rel > 0 else 0.0
    hits_v = rel * _hit_pts(rel, V[v, V_ARM]) if rel > 0 else 0.0
    gain = hits_u + lv * _loss_p(nu, hp[HP_L_SHUNT], V, u, hp)
    cost = hits_v + lv * _loss_p(nv, hp[HP_L_SHUNT], V, v, hp)
    return gain - cost


@jit
def _lay_value(T, M, NM, V, WS, n, v, w, u, g, hp, par, tbuf):
    """Expected damage points a passive of slot ``w`` laid now costs pursuer ``u``, ``g``
    spaces behind in the car's lanes (p30): oil, a loss of control at 60mph (30mph off the
    straight); mines, a +3 hit and a 50mph test; spikes, a wheel critical on a 6 above 20mph;
    smoke, a 60mph test and what a marker more takes off the pursuer's best shot. Within two
    spaces it cannot steer round it (p13: the drift comes after the straight move), further
    back it may."""
    k = WS[v, w, W_PTYPE]
    mph = V[u, V_MPH]
    lv = par[P_LOSSVAL]
    if k == RD.OIL:
        lim = hp[HP_L_OIL_S] if T[V[u, V_SEC], RD.T_KIND] == RD.STRAIGHT else hp[HP_L_OIL_O]
        e = lv * _loss_p(mph, lim, V, u, hp)
        if V[u, V_OIL] < hp[HP_OIL_MAX]:
            e += OIL_HAND_PTS   # a handling point off its later hazard rolls and tests
    elif k == RD.MINES:
        e = _hit_pts(hp[HP_MINE_DMG], V[u, V_ARM]) + lv * _loss_p(mph, hp[HP_L_MINE], V, u, hp)
    elif k == RD.SPIKES:
        e = CRIT_PTS / 6.0 if mph > hp[HP_SPIKE_MPH] else 0.0
    elif k == RD.SMOKE:
        e = lv * _loss_p(mph, hp[HP_L_SMOKE], V, u, hp)
        s, t, val, h, k = _shot_core(T, M, NM, V, WS, n, u, hp, tbuf, 1, 0)
        if s >= 0 and t == v:
            # the faces one more marker in its corridor takes off that shot: none once the
            # smoke it already counts is at the -3 cap (p26), where one face was counted before
            find_target(T, V, n, u, WS[u, s, W_MOUNT], tbuf)
            e += val * (h - _shot_sixths(T, M, NM, V, WS, u, s, v, hp, tbuf, 1)) / h
    else:
        e = 0.0
    return e if g <= 2 else LAY_FAR * e


@jit
def _better(val, best, st, script, ties):
    """Does an option of value ``val`` replace the best so far? Exact ties go to the dice
    (reservoir sampling over the tied options, a die of as many faces as there are ties so
    far: each tied option is kept with equal chance). Returns (replace, ties now)."""
    if val > best:
        return True, 1
    if val == best:
        ties += 1
        return _pick(st, script, ties) == 0, ties
    return False, ties


@jit
def _passive_slot(V, WS, v):
    for w in range(MAXW):
        if WS[v, w, W_KIND] == WK_PASSIVE and WS[v, w, W_AMMO] != 0 \
                and WS[v, w, W_OFF] == 0 and WS[v, w, W_LOCKED] == 0:
            return w
    return -1


@jit
def _lock_or_dummy(T, V, WS, n, v, par, close, st, script):
    """(action, arg) for the layer bits of P_LAYER, or (A_NONE, 0)."""
    if par[P_LAYER] & 1 and close:
        for w in range(MAXW):
            if WS[v, w, W_KIND] == WK_PASSIVE and WS[v, w, W_AMMO] != 0 and WS[v, w, W_OFF] == 0 \
                    and WS[v, w, W_LOCKED] == 0 \
                    and (WS[v, w, W_PTYPE] == RD.OIL or WS[v, w, W_PTYPE] == RD.SMOKE):
                return A_LOCK, w
    if par[P_LAYER] & 1 and par[P_UNLOCK] > 0:
        for w in range(MAXW):
            if WS[v, w, W_LOCKED]:
                u, g = _nearest_enemy(T, V, n, v, True, st, script)
                if u < 0 or g > par[P_UNLOCK]:
                    return A_LOCK, -1 - w
    if par[P_LAYER] & 2 and close and V[v, V_DUMMIES] > 0 and _passive_slot(V, WS, v) < 0:
        for w in range(MAXW):
            if WS[v, w, W_KIND] == WK_PASSIVE and WS[v, w, W_OFF] == 0 \
                    and WS[v, w, W_PTYPE] != RD.SMOKE:
                return A_DUMMY, w
    return A_NONE, 0


@jit
def _enemy_gap(T, V, v, u, behind):
    """The gap in spaces from car ``v`` to vehicle ``u`` ahead of it (behind=False) or behind
    it, in its own direction, or -1 when ``u`` is not on that side."""
    back = V[v, V_DIR] != 0
    if behind:
        tail = v_front(T, V, v) if back else v_rear(T, V, v)
        x = v_rear(T, V, u) if back else v_front(T, V, u)   # u's end towards our tail
        if (x < tail) if back else (x > tail):
            return -1
        return (RD.along(T, V[v, V_LANE], tail, x) if back
                else RD.along(T, V[v, V_LANE], x, tail)) // RD.UNITS
    nose = v_rear(T, V, v) if back else v_front(T, V, v)
    x = v_front(T, V, u) if back else v_rear(T, V, u)       # u's end towards our nose
    if (x > nose) if back else (x < nose):
        return -1
    return (RD.along(T, V[v, V_LANE], x, nose) if back
            else RD.along(T, V[v, V_LANE], nose, x)) // RD.UNITS


@jit
def _focus_score(V, n, v, u, focus):
    """How strongly driver ``v`` holds to enemy ``u`` among equals (``P_FOCUS``): 1 for its own
    last quarry; with focus 2, 2 more for each team-mate still in play pursuing it."""
    s = 1 if V[v, V_QUARRY] == u + 1 else 0
    if focus >= 2:
        for m in range(n):
            if m != v and V[m, V_STATUS] == ACTIVE and V[m, V_SIDE] == V[v, V_SIDE] \
                    and V[m, V_QUARRY] == u + 1:
                s += 2
    return s


@jit
def _pick_enemy(T, V, n, v, behind, furthest, skip, st, script, focus):
    """(enemy, gap in spaces): the nearest active enemy ahead (behind=False) or behind, or with
    ``furthest`` the furthest one, leaving out the vehicles whose bits are set in ``skip``;
    (-1, 2**20) when there is none. Equally placed enemies go to the dice (:func:`_pick`),
    never to their order in the list; with ``focus`` (``P_FOCUS``) the ones the driver or its
    team-mates already pursue first (:func:`_focus_score`)."""
    best = -1
    ties = 0
    who = -1
    for u in range(n):
        if u == v or V[u, V_STATUS] != ACTIVE or V[u, V_SIDE] == V[v, V_SIDE] or (skip >> u) & 1:
            continue
        g = _enemy_gap(T, V, v, u, behind)
        if g < 0:
            continue
        if ties == 0 or (g > best if furthest else g < best):
            best = g
            ties = 1
            who = u
        elif g == best:
            ties += 1
    if ties == 0:
        return -1, 1 << 20
    if ties == 1:                  # no tie: no second pass over the gaps, and no die
        return who, best
    top = 0
    if focus > 0:
        # the equals the driver (or its side) already pursues, if any: their count
        nt = 0
        for u in range(n):
            if u == v or V[u, V_STATUS] != ACTIVE or V[u, V_SIDE] == V[v, V_SIDE] \
                    or (skip >> u) & 1 or _enemy_gap(T, V, v, u, behind) != best:
                continue
            sc = _focus_score(V, n, v, u, focus)
            if sc > top:
                top = sc
                nt = 1
                who = u
            elif sc == top and sc > 0:
                nt += 1
        if top > 0:
            if nt == 1:
                return who, best
            ties = nt
    k = _pick(st, script, ties)
    for u in range(n):
        if u == v or V[u, V_STATUS] != ACTIVE or V[u, V_SIDE] == V[v, V_SIDE] or (skip >> u) & 1:
            continue
        if _enemy_gap(T, V, v, u, behind) == best \
                and (top == 0 or _focus_score(V, n, v, u, focus) == top):
            if k == 0:
                return u, best
            k -= 1
    return -1, 1 << 20


@jit
def _off_lanes(V, n, v):
    """Bit set (for :func:`_pick_enemy`'s ``skip``) of the vehicles sharing no lane with
    ``v``."""
    m = 0
    for u in range(n):
        a, b = lanes_of(V, u)
        if b < V[v, V_LANE] or a > V[v, V_LANE] + 1:
            m |= 1 << u
    return m


@jit
def _nearest_enemy(T, V, n, v, behind, st, script):
    """Nearest active enemy ahead (behind=False) or behind, in the car's own direction, and its
    gap in spaces; a tie goes to the dice."""
    return _pick_enemy(T, V, n, v, behind, False, 0, st, script, 0)


@jit
def _enemy_beside(T, V, n, v, sec, sp, lane):
    """(+1 / -1, the enemy) when an enemy overlaps space (sec, sp) in the lanes right / left of
    the car's two, else (0, -1) (either way of travel reads the same space test)."""
    xlo = RD.rear_x(T, sec, lane, sp)
    xhi = RD.front_x(T, sec, lane, sp)
    for u in range(n):
        if u == v or V[u, V_STATUS] != ACTIVE or V[u, V_SIDE] == V[v, V_SIDE]:
            continue
        a, b = lanes_of(V, u)
        if not (v_rear(T, V, u) < xhi and xlo < v_front(T, V, u)):
            continue
        if a == lane + 2:
            return 1, u
        if b == lane - 1:
            return -1, u
    return 0, -1


@jit
def _swipe_target(T, V, n, v):
    """(direction, enemy) of an enemy that will be level in the adjacent lanes after a
    straight move (in the car's own direction), or (0, -1)."""
    d = 1 if V[v, V_DIR] != 0 else 0
    lane = V[v, V_LANE]
    sec, sp = RD.step_space(T, V[v, V_SEC], lane, V[v, V_SP], d)
    if sec < 0 or (d == 0 and sec >= RD.MAXSEC - 1):
        return 0, -1
    return _enemy_beside(T, V, n, v, sec, sp, lane)


@jit
def _swipe_dir(T, V, n, v):
    """Direction of an enemy that will be level in the adjacent lanes after a straight move."""
    return _swipe_target(T, V, n, v)[0]


@jit
def decide(B, T, V, WS, n, v, moves, hp, par, st, script):
    """One action for driver ``v`` this phase: (action, argument). ``B``: the board buffer
    (:mod:`.pieces.board`); ``T`` its track, which the engine has cut already (a reshaped view
    costs a call each time it is made). The other pieces are cut after the direction driving,
    which cuts its own, has passed. A stopped car does not back off (p17) from a place it has
    backed off from ``P_BACKOFFS`` times already: it shoots or waits instead."""
    if V[v, V_GOAL] != 0:
        act, arg = _follow_plan(B, T, V, WS, n, v, moves, hp, par, st, script)
        if act >= 0:
            return act, arg
    if V[v, V_MPH] == 0 and not moves:
        act, arg = _decide(B, T, V, WS, n, v, False, hp, par, st, script)
        # riders never reverse (p64): bike_decide makes the choice a wait; a reverse U-turn
        # turns the car round, which no shuttle does
        if act == A_REVERSE and arg != 2 and not V[v, V_BIKE] \
                and _tried_enough(V, v, par) \
                and not (arg == 0 and _rams_behind(B, T, V, n, v, hp, par)):
            # (a reverse that rams is no backing off: no shuttle)
            act, arg = _hold(B, T, V, WS, n, v, hp, par, st, script)
        if act == A_NONE and not V[v, V_BIKE] \
                and _plan_standoff(B, T, V, WS, n, v, hp, par, st, script):
            # (a rider plans in bike_decide, where its own rules have made the choice a wait)
            a, g = _follow_plan(B, T, V, WS, n, v, moves, hp, par, st, script)
            if a >= 0:
                return a, g
        if act == A_NONE:
            act, arg = _ram_race_now(B, T, V, WS, n, v, hp, par)
        if act == A_NONE and par[P_RAMBIKE] & 4 and _grinds_behind(B, T, V, n, v):
            # no shot and nowhere to plan for: wear the rider at its back down (P_RAMBIKE)
            return A_REVERSE, 0
        return act, arg
    return _decide(B, T, V, WS, n, v, moves, hp, par, st, script)


BACKED_KEY = 16    # V_BACKED*: place key * BACKED_KEY + times (times < BACKED_KEY)


@jit
def _place_key(V, v):
    return _goal_key(V[v, V_SEC], V[v, V_LANE], V[v, V_SP], V[v, V_DIR])


@jit
def _tried_enough(V, v, par):
    """Has the driver backed off (a car's reverse, a rider's turn-round) from where it stands
    ``P_BACKOFFS`` times already (0: no limit)?"""
    return 0 < par[P_BACKOFFS] <= _backed_from(V, v)


@jit
def _backed_from(V, v):
    """How many times the driver has backed off from where the car stands, facing its way."""
    key = _place_key(V, v)
    for c in range(V_BACKED0, V_BACKED7 + 1):
        if V[v, c] // BACKED_KEY == key:
            return V[v, c] % BACKED_KEY
    return 0


@jit
def renumber_backing(V, v, k):
    """The remembered places (:func:`remember_backing`) after the sections were renumbered ``k``
    up (``engine._renumber``): the same places of the road, under their new numbers."""
    for c in range(V_BACKED0, V_BACKED7 + 1):
        if V[v, c] != 0:
            V[v, c] += k * 8 * 64 * 2 * BACKED_KEY   # _place_key's section step
    if V[v, V_GOAL] != 0:
        V[v, V_GOAL] += k * 8 * 64 * 2           # the stand-off plan's goal (_plan_standoff)


@jit
def remember_backing(V, v):
    """Count one more reverse from where the car stands. The columns are kept newest first: the
    place moves to the front with its count; a place not yet remembered takes the front and
    pushes out the least tried, of equals the one backed from longest ago. (Pushing out the
    first column of the least tried, as before session 24, threw away the place just written
    whenever every count was equal, so a round of four places forgot each one before it came
    round again: seeded Game Eight intercept 4592 backed and filled to the turn limit.) Called
    by the engine as the reverse is made: a reverse the driver declares where the engine
    refuses it (not stopped at the start of phase 1, p15, p17) is not remembered."""
    key = _place_key(V, v)
    slot = -1
    for c in range(V_BACKED0, V_BACKED7 + 1):
        if V[v, c] // BACKED_KEY == key:
            slot = c
            break
    if slot >= 0:
        entry = V[v, slot]
    else:
        # the least tried, of equals the oldest (an empty column counts 0 times)
        slot = V_BACKED7
        for c in range(V_BACKED7 - 1, V_BACKED0 - 1, -1):
            if V[v, c] % BACKED_KEY < V[v, slot] % BACKED_KEY:
                slot = c
        entry = key * BACKED_KEY
    if entry % BACKED_KEY < BACKED_KEY - 1:
        entry += 1
    for c in range(slot, V_BACKED0, -1):
        V[v, c] = V[v, c - 1]
    V[v, V_BACKED0] = entry


@jit
def _hold(B, T, V, WS, n, v, hp, par, st, script):
    """Shoot if a shot is on, else wait: what a stopped car does where moving gains nothing."""
    M = B[B_M:B_M_END].reshape((RD.MAXM, RD.MK_W))
    NM = B[B_NM:B_NM_END]
    tbuf = B[B_K + K_TBUF:B_K + K_TBUF_END]
    slot, u, val, h = _choose_shot(T, M, NM, V, WS, n, v, hp, tbuf, par[P_SHOOT], st, script)
    if slot >= 0 and not _finishes_hulks(V, WS, v, u, hp):
        return A_SHOOT, slot
    return A_NONE, 0


@jit
def _chases_behind(T, TM, M, NM, V, n, v, hp):
    """For a car facing against play where taking the other side out wins: is there no enemy
    ahead of it and one behind it within reach (no road shut from edge to edge between)? Its
    way on then only runs off the end of the road (p75), away from the fight, and the enemy is
    reached by turning round (p14), or by backing off the end to where it may turn (p17). A
    seeded gang-pursues Op that had turned to chase a rider who then left play drove on to the
    road's end and waited there, the last rider walled in behind it, until the position
    repeated (issue 15, session 23). Reads no dice: only the nearest gap matters, not which
    of equally near enemies it is (``_nearest_enemy`` would roll for that, and this is asked
    of every stopped car facing against play near the end)."""
    g = 1 << 20
    for u in range(n):
        if u == v or V[u, V_STATUS] != ACTIVE or V[u, V_SIDE] == V[v, V_SIDE]:
            continue
        if _enemy_gap(T, V, v, u, False) >= 0:
            return False
        e = _enemy_gap(T, V, v, u, True)
        if e >= 0:
            g = min(g, e)
    if g >= 1 << 20:
        return False
    # within reach: a lane pair clear from here to it (as _beyond_shut_road, looking back)
    return _a_pair_clear(T, M, NM, V, n, v, 1 - V[v, V_DIR], max(g, 1),
                         _hunts(T, TM, M, NM, V, n, v, hp), False)


@jit
def _decide(B, T, V, WS, n, v, moves, hp, par, st, script):
    """:func:`decide` without the driver's memory of where it backed off (what the driver
    would choose were it there for the first time)."""
    if par[P_UTURN] > 0 or par[P_HEADON] > 0:
        da, dg = decide_dir(B, V, WS, n, v, moves, hp, par, st, script)
        if da >= 0:
            return da, dg
    TM = B[B_TM:B_TM_END]
    M = B[B_M:B_M_END].reshape((RD.MAXM, RD.MK_W))
    NM = B[B_NM:B_NM_END]
    tbuf = B[B_K + K_TBUF:B_K + K_TBUF_END]
    mph = V[v, V_MPH]
    cruise = V[v, V_MAXSPD] if par[P_CRUISE] <= 0 else min(par[P_CRUISE], V[v, V_MAXSPD])
    want, gap = curve_plan(T, TM, V, v, hp, par)
    brk = max(V[v, V_BRK], 1)
    left = _track_left(T, TM, V, v, hp)
    if left < gap:
        # the end of the track it would leave play by is nearer than any curve: a stop there
        want, gap = 0, left
    if mph == 0 and not moves:
        # facing against play with the fight behind it: its way on only runs off the end
        chase = left < (1 << 19) and _chases_behind(T, TM, M, NM, V, n, v, hp)
        if left == 0 or chase:
            # moving off would take it out of play, or only away from the enemy: turn round
            # if it may, else stay (at the end) or move off as ever (short of it)
            if uturn_zone(T, TM, M, NM, V, n, v, False)[0] >= 0 and not V[v, V_ENGOFF]:
                return A_UTURN, min(V[v, V_ACC], U_TURN_SAFE)
            if V[v, V_BIKE] and not V[v, V_ENGOFF]:
                return A_TURN_ROUND, _turn_round_mph(V, v)
            slot, u, val, h = _choose_shot(T, M, NM, V, WS, n, v, hp, tbuf, par[P_SHOOT],
                                           st, script)
            if slot >= 0:
                return A_SHOOT, slot
            if not V[v, V_BIKE] and not V[v, V_ENGOFF] \
                    and (chase or _leaves_behind(T, TM, M, NM, V, n, v, hp)) \
                    and _reverse_clear(T, M, NM, V, n, v, 0):
                # the U-turn's space is off the road: back off the end first (p17), to turn
                # there and drive on with play, leaving the stranded enemies behind (p75) or
                # after the enemy behind; not into a block behind (a ram every turn, p57), as
                # every reverse in _move_off
                return A_REVERSE, 0
            if left == 0:
                return A_NONE, 0
        act, arg = _move_off(B, V, WS, n, v, hp, par, cruise, want, st, script)
        if (act == A_REVERSE or act == A_NONE) and _hunts(T, TM, M, NM, V, n, v, hp):
            # not moving off this turn, a car that means to take the enemy out takes the shot
            # it has (a reverse is the turn's action, p17: the two exclude each other), where
            # a lead car otherwise fires only at a target stopped for good. Seeded gang
            # pursues Ops, shut in by an obstacle past a bend, turned round towards the
            # rider behind them and then backed away from it or waited, the rider's shots
            # unanswered, to the turn limit
            slot, u = best_shot(T, M, NM, V, WS, n, v, hp, par, tbuf)
            if slot >= 0 and V[u, V_SIDE] != V[v, V_SIDE] \
                    and not _finishes_hulks(V, WS, v, u, hp):
                # of equal weapons the dice choose (no roll when no shot is taken)
                slot, u, val, h = _choose_shot(T, M, NM, V, WS, n, v, hp, tbuf, par[P_SHOOT],
                                               st, script)
                return A_SHOOT, slot
            if act == A_NONE:
                return _break_standoff(T, TM, M, NM, V, WS, n, v, hp, par, tbuf, par[P_SHOOT],
                                       st, script)
        return act, arg
    behind = False   # falling in behind a vehicle holding its way round a block (below)
    # a lead car that must take stranded enemies out drives at them as a chase car does
    chaser = V[v, V_ROLE] == CHASE or _lead_hunts(T, TM, M, NM, V, n, v, hp)
    run = _run_in(T, M, NM, V, n, v) if moves and V[v, V_BIKE] and chaser else -1
    if run >= 0 and not _hunts(T, TM, M, NM, V, n, v, hp):
        run = -1   # it means to ride on past them and leave them off the back (p75)
    come = max(par[P_CLOSE], 1)
    if moves:
        # 1. curves: brake early enough to be at the planned speed on arrival
        if mph > want:
            phases_needed = (mph - want + brk - 1) // brk
            if gap <= phases_needed:
                return A_BRAKE, min(brk, mph - want)
        # a rider on its run-in to a stopped enemy: as a curve, back to its closing speed
        # RUN_IN spaces short of it (the move comes before the brake, p15-16)
        if run >= 0 and mph > come and (mph - come + brk - 1) // brk >= run - RUN_IN:
            return A_BRAKE, min(brk, mph - come)
        # a planned ram (p17, p52-57): an enemy going its way, slower, in its lanes one or two
        # spaces ahead is rammed when the shunt's expected effect (_ram_value) beats the best
        # shot (the ram takes the phase's action, p52); two spaces off, a shot this phase does
        # not stop the ram next phase. Otherwise the car steers round it or brakes (below).
        if not V[v, V_BIKE] and not _flees(V, v, hp, par):
            ru, rk = _ram_target(T, V, n, v)
            if ru >= 0:
                rv = _ram_value(V, v, ru, hp, par)
                if rv > 0.0:
                    slot, t, sv, h = _choose_shot(T, M, NM, V, WS, n, v, hp, tbuf, par[P_SHOOT],
                                                  st, script)
                    if slot < 0:
                        sv = 0.0
                    take, ties = _better(rv, sv, st, script, 1)
                    if take:
                        if rk >= 2 and slot >= 0:
                            return A_SHOOT, slot
                        return A_NONE, 0   # hold the line: the straight move rams it
        # 2. a vehicle or an obstacle two spaces ahead: drift now (the straight-ahead move
        # comes first, so the next space cannot be dodged, p13, p25) or brake; a marker: drift
        # if a lane is clear, else drive straight over it at a steady speed (p25: 'drive
        # straight ahead and, in most cases, don't brake')
        if chaser and not V[v, V_BIKE] and _hunts(T, TM, M, NM, V, n, v, hp):
            ef = _stopped_enemy_in_front(T, TM, V, WS, n, v, LINE_UP, hp)
            if ef >= 0 and abs(V[ef, V_LANE] - V[v, V_LANE]) - 1 > _gap_to(T, V, v, ef) \
                    and best_shot(T, M, NM, V, WS, n, v, hp, par, tbuf)[0] < 0:
                if _swipes_level(T, V, WS, n, v, ef, hp, par):
                    return A_SWIPE, _swipe_target(T, V, n, v)[0]
                # a stopped enemy close ahead that it cannot shoot and will not drift into
                # line with before drawing level (one drift a move, p13): stop, and line up
                # on it by reversing with drifts (_move_off, p17), as a player would, rather
                # than steer round what lies beyond it, drive past and come round again
                # (seeded Game Eight intercepts circled a stranded car to the turn limit)
                return A_BRAKE, min(brk, mph)
        d = _dodge_oncoming(T, M, NM, V, n, v, par, st, script)
        if d != 0:
            return A_DRIFT, d
        # a block in its lanes that holding its speed this move would leave it unable to stop
        # short of (p15-16, p57, p76), with more drifts to a clear pair than moves before it:
        # brake now, as little as keeps the stop; with just enough moves, only the drift this
        # move (below) keeps the speed. Step 2 (below) braked with the block two spaces off,
        # too late from 60mph with brakes of 30 (seeded intercept, Game Six, gang pursues).
        # Not for a road shut edge to edge (no clear pair), nor for a rider, which may not
        # reverse (p64) and for which a pair it has too few moves to reach is shut: stopped
        # short of such a road, riders that used to ram it waited there with the enemy
        # behind until the position repeated (seeded Game Six 91, 213, 684, 2738: Six's draws
        # 9 -> 61 with every driver braking for every block, 20 without the shut roads)
        hunt = _hunts(T, TM, M, NM, V, n, v, hp)
        kb, nd = (0, 0)
        if mph > 0 and not V[v, V_BIKE]:
            kb, nd = _block_plan(T, M, NM, V, n, v, mph, brk, hunt)
        if (kb > 2 or (kb == 2 and _obstacle_ahead(T, M, NM, V, v, 2))) and kb - 1 < nd < 99:
            # an obstacle two spaces off too: the drift _route plans below leads towards a pair
            # it has not the moves left to reach, and after it the strip still stands in its
            # lanes a space ahead at a speed no brake then stops (seeded intercept targets at
            # 30mph drifted one lane of a three-lane strip two spaces off and rammed it with
            # next turn's first move, the largest class of the cars' obstacle rams, session
            # 27). Not for a wreck or a stopped car there: the drift keeps a hunter working
            # its way round to the enemy beyond, where stopped short it waited nose to the
            # wreck, the enemy nose to its other end, until the position repeated (seeded
            # intercept 134 and a dozen more: draws 43 -> 60 with the brake for every block)
            return A_BRAKE, _brake_short(mph, brk, kb)
        # steer early round a stopped car, a wreck or obstacles in its lanes (p76)
        blocked, d = _route(T, M, NM, V, n, v, ROUTE_LOOK, hunt, st, script)
        held = -1
        if blocked and d != 0 and _drift_legal(T, V, v, d):
            held = _way_held(T, V, n, v, d)
        # (not onto a marker: oil after a drift is a 30mph hazard, not a 60mph one, p30)
        if blocked and d != 0 and held < 0 and _drift_legal(T, V, v, d) \
                and not _blocked_ahead(T, M, NM, V, n, v, V[v, V_LANE] + d, True, 1) \
                and not _static_at(T, M, NM, V, n, v, V[v, V_LANE], 1):
            return A_DRIFT, d
        if held >= 0:
            # the way round is the lanes of a vehicle on the move beside it: fall in behind
            # it (slower than it, it draws ahead and the drift lands behind it), and in any
            # case keep the speed it can still stop short of the block from (p15-16), which it
            # would otherwise ram (p57, p76); a car already slower keeps its speed, so the
            # other draws ahead sooner, but speeds up no more
            if mph >= V[held, V_MPH] or not _stops_short(T, M, NM, V, n, v, mph, brk):
                return A_BRAKE, min(brk, mph)
            behind = True
        if not blocked:
            d = _plan_before_curve(T, TM, M, NM, V, WS, n, v, ROUTE_LOOK, hp, st, script)
            if d != 0 and not _blocked_ahead(T, M, NM, V, n, v, V[v, V_LANE] + d, True, 1) \
                    and not _static_at(T, M, NM, V, n, v, V[v, V_LANE], 1):
                return A_DRIFT, d
        if kb > 2 and nd == kb - 1:
            # just enough moves to drift round, but no drift taken this move: now too few
            return A_BRAKE, _brake_short(mph, brk, kb)
        if _blocked_ahead(T, M, NM, V, n, v, V[v, V_LANE], False, 2):
            d = _drift_dir(T, M, NM, V, n, v, 0, st, script)
            if d == 0:
                # the only way past is over a marker or road hazard: drive over it (p25: 'drive
                # straight ahead and, in most cases, don't brake') rather than stop nose to the
                # block, back off and come on again (seeded Game Eight intercept 1348: a wreck
                # on a bend with debris on the lanes round it, to the turn limit)
                d = _drift_past(T, M, NM, V, n, v, st, script)
            if d != 0:
                return A_DRIFT, d
            return A_BRAKE, min(brk, mph)
        if _blocked_ahead(T, M, NM, V, n, v, V[v, V_LANE], True, 2):
            d = _drift_dir(T, M, NM, V, n, v, 0, st, script)
            if d != 0:
                return A_DRIFT, d
    # a passive or road hazard it cannot steer round: hold steady on top of it, brake to
    # P_PASSMPH while it is still a few spaces off, never speed up towards it (p25, p41)
    hold = behind
    if moves:
        k = _marker_gap(T, TM, M, NM, V, n, v, PASS_LOOK)
        if k > 0:
            cruise = min(cruise, max(par[P_PASSMPH], 1))
            if k <= 2:
                hold = True
            elif mph > par[P_PASSMPH]:
                return A_BRAKE, min(brk, mph - par[P_PASSMPH])
    if chaser:
        u, g = _quarry(T, V, WS, n, v, hp, par, st, script)
        # falling behind (or stopped): speed before shooting
        if not hold and u >= 0 and mph + 10 < V[u, V_MPH] and V[v, V_ACC] > 0 and mph < cruise:
            up = min(V[v, V_ACC], cruise - mph)
            if (want >= (1 << 19) or (mph + up - want + brk - 1) // brk < gap) \
                    and _stops_short(T, M, NM, V, n, v, mph + up, brk):
                return A_ACCEL, up
        # the shot and the sideswipe by their expected damage points (a control loss forced on
        # the loser counted at P_LOSSVAL points; the swiper's own risk taken off); a swipe
        # worth nothing is not made, equal values go to the dice
        slot, su, best, h = _choose_shot(T, M, NM, V, WS, n, v, hp, tbuf, par[P_SHOOT], st, script)
        act, arg = (A_SHOOT, slot) if slot >= 0 else (A_NONE, 0)
        if _finishes_hulks(V, WS, v, su, hp):
            act, arg, best = A_NONE, 0, 0.0
        ties = 1
        if moves and par[P_SWIPE]:
            d, t = _swipe_target(T, V, n, v)
            if d != 0:
                val = _swipe_value(V, v, t, hp, par)
                if val > 0.0:
                    take, ties = _better(val, best, st, script, ties)
                    if take:
                        act, arg, best = A_SWIPE, d, val
        if act != A_NONE:
            return act, arg
        if not moves:
            return A_NONE, 0
        u, g = _quarry(T, V, WS, n, v, hp, par, st, script)
        if u >= 0 and _leaves_behind(T, TM, M, NM, V, n, v, hp):
            u = -1     # every enemy stranded: drive on and leave them behind (p75)
        h = _held_back_for(T, V, WS, n, v, hp, par, st, script)
        if h >= 0:
            cruise = min(cruise, V[h, V_MPH])
        if u >= 0:
            ul = V[u, V_LANE]
            mine = V[v, V_LANE]
            if ul != mine and abs(ul - mine) >= 1 and g >= 1:
                toward = 1 if ul > mine else -1
                d = _drift_dir(T, M, NM, V, n, v, toward, st, script)
                if d != toward and _stuck(V, u) and _drift_over(T, M, NM, V, n, v, toward):
                    # a target stopped for good: into its lanes over a marker or road hazard
                    # rather than draw level, stop and back off to line up (p17), which a bend
                    # behind may refuse (seeded Game Seven 1287: debris on the bend's inside
                    # lanes, the last target bike stopped for good past it, to the turn limit)
                    d = toward
                if d != 0 and abs(mine + d - ul) < abs(mine - ul) \
                        and not _back_into_block(T, M, NM, V, n, v, mine + d, g):
                    return A_DRIFT, d
            target = min(cruise, V[u, V_MPH] + par[P_CLOSE])
            if run >= 0:
                # every enemy stopped: no closing speed over one that is not moving (a
                # rider that came back from a turn round rode its whole run-up at 20mph, a
                # space a turn: seeded gang pursues 637, 2143, 2372, 3076, 4383 to the limit);
                # the run-in's brake (above) and cap (below) bring it in
                target = cruise
        else:
            target = cruise
    else:
        flee = _flees(V, v, hp, par)
        if moves and flee:
            safe = _roll_safe_mph(T, M, NM, V, WS, n, v, hp, par, tbuf)
            if mph > safe:
                return A_BRAKE, min(brk, mph - safe)
            cruise = min(cruise, safe)
        if moves and not hold and (par[P_ESCAPE] or flee) and mph < cruise and V[v, V_ACC] > 0:
            u, g = _nearest_enemy(T, V, n, v, True, st, script)
            up = min(V[v, V_ACC], cruise - mph)
            if (u < 0 or g >= 1 or flee) \
                    and (want >= (1 << 19) or (mph + up - want + brk - 1) // brk < gap) \
                    and _stops_short(T, M, NM, V, n, v, mph + up, brk):
                return A_ACCEL, up
        # a passive on a close pursuer in its lanes, or a shot, by expected damage points
        # (_lay_value, _shot_core); equal values go to the dice
        la, lw = A_NONE, 0
        close = False
        u, g = -1, 0
        if moves:
            # the enemy a marker laid now is for: the nearest behind sharing a lane with the car
            # (p22: the marker takes the car's two lanes); one in other lanes, however near,
            # runs past it. The nearest of any lanes was taken before, so whether a rider laid
            # its passive hung on which of equally near pursuers the tie gave it.
            u, g = _pick_enemy(T, V, n, v, True, False, _off_lanes(V, n, v), st, script, 0)
            close = u >= 0 and g <= par[P_PASSIVE]
            if par[P_LAYER]:
                la, lw = _lock_or_dummy(T, V, WS, n, v, par, close, st, script)
                if la == A_LOCK and lw < 0:
                    return la, lw   # switching a layer off: nothing behind to lay on
        act, arg, best = _shot_option(T, M, NM, V, WS, n, v, hp, tbuf, par[P_SHOOT], st, script)
        ties = 1
        w = -1
        if close:
            if la == A_LOCK:
                val = _lay_value(T, M, NM, V, WS, n, v, lw, u, g, hp, par, tbuf)
                if val > 0.0:
                    take, ties = _better(val, best, st, script, ties)
                    if take:
                        act, arg, best = A_LOCK, lw, val
            elif la == A_DUMMY:
                take, ties = _better(DUMMY_VALUE, best, st, script, ties)
                if take:
                    act, arg, best = A_DUMMY, lw, DUMMY_VALUE
            w = _passive_slot(V, WS, v)
            if w >= 0 and not (la == A_LOCK and lw == w):
                val = _lay_value(T, M, NM, V, WS, n, v, w, u, g, hp, par, tbuf)
                if val > 0.0:
                    take, ties = _better(val, best, st, script, ties)
                    if take:
                        act, arg, best = A_PASSIVE, w, val
            if w < 0 and la == A_NONE and par[P_DODGE]:
                # nothing left to lay: out of the pursuer's corridor (before a shot)
                away = 1 if V[v, V_LANE] < V[u, V_LANE] else -1
                d = _drift_dir(T, M, NM, V, n, v, away, st, script)
                if d != 0:
                    return A_DRIFT, d
        if act != A_NONE:
            return act, arg
        if not moves:
            return A_NONE, 0
        target = cruise
    # speed: towards the target speed, never so fast the next curve cannot be braked for
    if hold:
        return A_NONE, 0
    if mph < target:
        up = min(V[v, V_ACC], target - mph)
        if up > 0:
            if want < (1 << 19):
                if (mph + up - want + brk - 1) // brk >= gap:
                    # more than the curve plan still brakes back from; a rider takes what it
                    # does (on the curve, up to the speed wanted there): refused the whole
                    # acceleration, riders turned round on a bend rode on at 20mph, a space a
                    # turn (seeded gang pursues 637)
                    up = max(min(up, want + brk * max(gap - 1, 0) - mph), 0) \
                        if run >= 0 else 0
            if run >= 0:
                # no faster than the run-in's brakes take off again in time
                up = min(up, come + brk * max(run - RUN_IN - 1, 0) - mph)
            if up > 0 and _stops_short(T, M, NM, V, n, v, mph + up, brk):
                return A_ACCEL, up
    elif mph > target + 10:
        return A_BRAKE, min(brk, mph - target)
    return A_NONE, 0


@jit
def _marker_gap(T, TM, M, NM, V, n, v, look):
    """Spaces (1..look) to the nearest passive marker or road hazard (not smoke, not an
    obstacle) in the car's two lanes straight ahead, or 0. Looks only over the track laid so
    far (sections past it hold an earlier game's rows)."""
    sec = V[v, V_SEC]
    sp = V[v, V_SP]
    for k in range(1, look + 1):
        sec, sp = _step_ahead(T, V, v, sec, sp)
        if sec < TM[RD.TM_FIRST] or sec >= TM[RD.TM_NSEC]:
            return 0   # off the track laid so far (or past either end)
        if _blocked_ahead(T, M, NM, V, n, v, V[v, V_LANE], True, k) \
                and not _blocked_ahead(T, M, NM, V, n, v, V[v, V_LANE], False, k):
            return k
    return 0


@jit
def _cannot_drive(V, v):
    """Has the car lost what driving off takes: its engine, its acceleration or top speed, its
    handling or its driver's skill (p15, p34-35, p40)?"""
    return V[v, V_ENGOFF] != 0 or V[v, V_ACC] <= 0 or V[v, V_MAXSPD] <= 0 or V[v, V_HAND] <= 0 \
        or V[v, V_SKILL] <= 0


@jit
def _stuck(V, u):
    """A stopped vehicle that cannot move off (engine or driver out, no handling, no
    acceleration, a broken axle, terminal damage: p15-16, p34-35, p40); all announced by the
    dice its critical hits rolled, so a driver may know it."""
    return V[u, V_MPH] == 0 and (V[u, V_ENGOFF] or V[u, V_ACC] <= 0 or V[u, V_HAND] <= 0
                                 or V[u, V_SKILL] <= 0 or V[u, V_NODRIVER] or V[u, V_TERMINAL]
                                 or V[u, V_AXLE])


LINE_UP = 3   # spaces: a stopped enemy this close in other lanes is lined up on by reversing
RAM_MOVE_OFF = 20   # mph: a chase car lined up on a stopped enemy it cannot shoot rams it


@jit
def _creep(V, v):
    """The slow move-off (``RAM_MOVE_OFF``, within the car's acceleration and maximum speed)
    with which a driver comes up to a block, a stranded enemy or a shot, or rams."""
    return min(V[v, V_ACC], V[v, V_MAXSPD], RAM_MOVE_OFF)


@jit
def _swipes_level(T, V, WS, n, v, u, hp, par):
    """Will the straight move bring stopped enemy ``u`` level in the lanes beside a car with
    nothing left to shoot, with a sideswipe worth making (p54-57)? Then it is swiped in
    passing: lined up, such a car could only ram, and stopping level to back off and line up
    came round to the same place again (a seeded Game Seven attacker braked beside a
    stranded rider, reversed off the bend behind and came on again to the turn limit). A car
    with a gun still lines up for the shot."""
    if par[P_SWIPE] == 0 or _swipe_target(T, V, n, v)[1] != u or has_gun(WS, v):
        return False
    return _swipe_value(V, v, u, hp, par) > 0.0


@jit
def _stopped_enemy_in_front(T, TM, V, WS, n, v, look, hp):
    """The nearest stopped enemy level with the car or ahead of it within ``look`` spaces, or
    -1 (with the direction of play, ``TM_PLAYDIR``; a car facing against play does not line
    up); not a hulk the attacker need not finish (:func:`_finishes_hulks`). After play turned
    round (p75) the cars going with play face the other way: with direction 0 taken as play's,
    they lined up on nothing (issue 15, session 26)."""
    if V[v, V_DIR] != TM[RD.TM_PLAYDIR]:
        return -1
    back = V[v, V_DIR] != 0
    tail = v_front(T, V, v) if back else v_rear(T, V, v)
    best = look + 1
    who = -1
    for u in range(n):
        if u == v or V[u, V_STATUS] != ACTIVE or V[u, V_SIDE] == V[v, V_SIDE] \
                or V[u, V_MPH] != 0 or _finishes_hulks(V, WS, v, u, hp):
            continue
        if (v_rear(T, V, u) >= tail) if back else (v_front(T, V, u) <= tail):
            continue   # behind
        g = _gap_to(T, V, v, u)
        if g < best:
            best = g
            who = u
    return who


@jit
def _stranded_ahead(T, V, n, v):
    """Is every enemy in play stopped for good (:func:`_stuck`), one of them ahead of the car
    in its own direction? Such an enemy, stopped with weapons, is not beaten (p88) and will
    never come to the car: the car must go to it. Reads no dice (which of them is nearest
    does not matter)."""
    ahead = False
    for u in range(n):
        if u == v or V[u, V_STATUS] != ACTIVE or V[u, V_SIDE] == V[v, V_SIDE]:
            continue
        if not _stuck(V, u):
            return False
        if _enemy_gap(T, V, v, u, False) >= 0:
            ahead = True
    return ahead


@jit
def _comes_closer(T, TM, M, NM, V, WS, n, v, hp, par, tbuf):
    """For a stopped rider with a shot, every enemy in play stopped for good and none with a
    shot at it: is the next space straight on clear (no vehicle, wreck or obstacle: p57, p76),
    on the road laid, and a better place to shoot from, more expected damage points a shot
    (the hit roll must reach the range, p25-26) with no enemy's sights on it there either?
    Then it moves up a space as it moves off (p15: at 20mph, its one move in phase 1) and still
    fires later in the turn; the move on stops at the last place in line
    (:func:`_stops_with_shot`). A lone rider stopped five to seven spaces behind a stranded Op
    missed half its shots to the turn limit (seeded gang pursues 967, 2265, 2961, 3787)."""
    if not V[v, V_BIKE] or V[v, V_MPH] != 0 or V[v, V_ENGOFF] or V[v, V_ACC] <= 0 \
            or V[v, V_MAXSPD] <= 0 or V[v, V_FALLEN] or V[v, V_STAMP] % 8 > 1:
        # (a stopped vehicle moves off only in phase 1, p15: later its action is the shot)
        return False
    if not _foes_stranded(V, n, v):
        return False
    lane = V[v, V_LANE]
    if _sighted_by(T, M, NM, V, WS, n, v, hp, tbuf) != 0 \
            or _blocked_ahead(T, M, NM, V, n, v, lane, False, 1):
        return False
    sec, sp = RD.step_space(T, V[v, V_SEC], lane, V[v, V_SP], 1 if V[v, V_DIR] != 0 else 0)
    if sec < TM[RD.TM_FIRST] or sec >= TM[RD.TM_NSEC]:
        return False
    now = _shot_core(T, M, NM, V, WS, n, v, hp, tbuf, par[P_SHOOT], 0)[2]
    s0 = V[v, V_SEC]
    p0 = V[v, V_SP]
    V[v, V_SEC] = sec
    V[v, V_SP] = sp
    slot, u, val, h, ties = _shot_core(T, M, NM, V, WS, n, v, hp, tbuf, par[P_SHOOT], 0)
    seen = _sighted_by(T, M, NM, V, WS, n, v, hp, tbuf)
    V[v, V_SEC] = s0
    V[v, V_SP] = p0
    return slot >= 0 and V[u, V_SIDE] != V[v, V_SIDE] and seen == 0 and val > now


RUN_IN = 2   # spaces short of a stopped enemy by which a rider on its run-in is back to P_CLOSE


@jit
def _run_in(T, M, NM, V, n, v):
    """For a rider with every enemy in play stopped: the gap in spaces to the nearest of them
    ahead of it in its own direction, in any lanes; else -1. A stopped enemy is not getting
    away and not coming on: a rider that means to take it out rather than leave it behind
    (:func:`_hunts`, asked by the caller) may ride at it as fast as it can still brake back to
    its closing speed (``P_CLOSE``) ``RUN_IN`` spaces short of it, one brake a move (p15-16),
    where it comes on as it would at any enemy or, one stopped for good, lines up and stops
    for its shot (:func:`_stops_with_shot`). Once one moves off, the closing speed over its
    speed is the rider's again. Only stranded enemies (:func:`_stuck`) used to count: the last
    rider of seeded gang pursues 1274 and 1522, turned round ten spaces behind the stopped
    Op, closed at 20mph, a space a turn, and the turn limit came first (issue 15, session
    31). Reads no dice."""
    g = -1
    for u in range(n):
        if u == v or V[u, V_STATUS] != ACTIVE or V[u, V_SIDE] == V[v, V_SIDE]:
            continue
        if V[u, V_MPH] != 0:
            return -1
        e = _enemy_gap(T, V, v, u, False)
        if e >= 0 and (g < 0 or e < g):
            g = e
    if g > 0:
        # a wreck, an obstacle or a stopped vehicle of its own side in its lanes short of the
        # enemy is where the run-in ends (p57, p76): the route drifts round it at the old
        # closing speed (a rider on a run-in at 80mph rammed its side's wreck, seeded gang
        # pursues 4805)
        k = _first_static(T, M, NM, V, n, v, g + 1)
        if k > 0:
            g = min(g, k - 1)
    return g


@jit
def _reverse_may_drift(T, V, v):
    """May a reverse from here drift? Not on a curve (p17): the engine refuses the drift where
    the reverse starts or ends on one, and backs the car straight."""
    sec = V[v, V_SEC]
    if T[sec, RD.T_KIND] != RD.STRAIGHT:
        return False
    nsec, nsp = RD.step_space(T, sec, V[v, V_LANE], V[v, V_SP], 0 if V[v, V_DIR] != 0 else 1)
    return nsec >= 0 and T[nsec, RD.T_KIND] == RD.STRAIGHT


@jit
def _reverse_clear(T, M, NM, V, n, v, d):
    """Is the space behind the car free of vehicles, wrecks and obstacles, and, for a reverse
    with a drift ``d`` (-1, +1), the pair it drifts onto as well?"""
    back = V[v, V_DIR]
    V[v, V_DIR] = 1 - back       # look the other way (restored below)
    ok = not _blocked_ahead(T, M, NM, V, n, v, V[v, V_LANE], False, 1) and (
        d == 0 or not _blocked_ahead(T, M, NM, V, n, v, V[v, V_LANE] + d, False, 1))
    V[v, V_DIR] = back
    return ok


@jit
def _curve_spaces_behind(T, V, v):
    """Spaces a car backs over to leave its section against its facing: those behind it on
    the section and the first beyond."""
    sp = V[v, V_SP]
    return sp + 1 if V[v, V_DIR] == 0 else RD.pair_spaces(T, V[v, V_SEC], V[v, V_LANE]) - sp


@jit
def _off_curve_clear(T, M, NM, V, n, v):
    """Can a car on a curve back straight off it (a reverse may not drift there, p17): every
    space behind it on the curve and the first beyond it clear of vehicles, wrecks and
    obstacles?"""
    back = V[v, V_DIR]
    k = _curve_spaces_behind(T, V, v)
    V[v, V_DIR] = 1 - back       # look the other way (restored below)
    ok = True
    for g in range(1, k + 1):
        if _blocked_ahead(T, M, NM, V, n, v, V[v, V_LANE], False, g):
            ok = False
            break
    V[v, V_DIR] = back
    return ok


@jit
def _shielded_line_up(T, M, NM, V, WS, n, v, u):
    """Would a car on a curve, backed off it to line up on stopped enemy ``u``, have a wreck or
    an obstacle between them in ``u``'s lanes and, for a car with a gun, in every pair between
    the car's and ``u``'s (from the spaces it backs over, plus the ``LINE_UP`` it may reverse
    further, to ``u``)?
    Lined up behind it the car could neither
    shoot (no line of fire through a wreck, p26) nor ram (p52), and moving off it steers round
    the block to the same place on the curve again."""
    k = _curve_spaces_behind(T, V, v)
    hi = v_rear(T, V, u)
    lo = v_rear(T, V, v) - (k + LINE_UP) * RD.UNITS
    # lined up a lane a reverse (p17), a car with a gun may get its shot from any pair on the
    # way to the enemy's, not only from its very lanes: shielded only if every one of them is
    # (seeded Game Eight intercept 2341: a wreck in the stranded attacker's outer lane kept
    # the target on a corner beside it, a shot open from the pair between, to a repeat). A
    # car with nothing to shoot lines up to ram, which only the enemy's own lanes give (p52)
    lane = V[u, V_LANE]
    step = 1 if lane > V[v, V_LANE] else -1
    p = V[v, V_LANE] + step if has_gun(WS, v) and V[v, V_LANE] != lane else lane
    while _stopped_on(T, V, n, v, p, lo, hi, True) or _obstacle_on(M, NM, p, lo, hi):
        if p == lane:
            return True    # every pair shut
        p += step
    return False


@jit
def _gap_to(T, V, v, u):
    """Whole spaces between the car's nose and vehicle ``u`` ahead of it (0: level or
    touching), along the car's lanes, in the car's own direction."""
    if V[v, V_DIR] != 0:
        nose = v_rear(T, V, v)
        uf = v_front(T, V, u)
        return RD.along(T, V[v, V_LANE], uf, nose) // RD.UNITS if uf < nose else 0
    fx = v_front(T, V, v)
    ur = v_rear(T, V, u)
    return RD.along(T, V[v, V_LANE], fx, ur) // RD.UNITS if ur > fx else 0


@jit
def _sighted_by(T, M, NM, V, WS, n, v, hp, tbuf):
    """The enemies in play whose best shot now is at the car, as bits (bit ``u`` set)."""
    seen = 0
    for u in range(n):
        if u != v and V[u, V_STATUS] == ACTIVE and V[u, V_SIDE] != V[v, V_SIDE] \
                and _shot_core(T, M, NM, V, WS, n, u, hp, tbuf, 0, 0)[1] == v:
            seen |= 1 << u
    return seen


@jit
def _land_for_shot(T, TM, M, NM, V, WS, n, v, hp, tbuf, least, sec, lane, sp, back, now):
    """Expected damage of the car's best shot with it moved to ``sec``, ``lane``, ``sp`` facing
    ``back`` or, moving on at the slowest speed, one space further straight on (the brake comes
    after the move, p16); -1.0 where either space is off the track laid (off the table is out,
    p75, p88), the space further on is blocked (a ram, p57), neither gives a shot, or an enemy
    without a shot at it now (bit ``u`` of ``now`` clear) would have one in either. The car is
    put back."""
    s0, l0, p0, d0 = V[v, V_SEC], V[v, V_LANE], V[v, V_SP], V[v, V_DIR]
    best = -1.0
    for k in range(2):
        if sec < TM[RD.TM_FIRST] or sec >= TM[RD.TM_NSEC]:
            best = -1.0
            break
        _put_at(V, v, sec, lane, min(sp, RD.pair_spaces(T, sec, lane) - 1), back)
        if _sighted_by(T, M, NM, V, WS, n, v, hp, tbuf) & ~now:
            best = -1.0
            break
        slot, tgt, val, h, ties = _shot_core(T, M, NM, V, WS, n, v, hp, tbuf, least, 0)
        if slot >= 0 and V[tgt, V_SIDE] != V[v, V_SIDE] and V[tgt, V_STATUS] == ACTIVE \
                and val > best:
            best = val   # (a fixed mount's corridor ends at the closest vehicle, friend or wreck)
        if k == 0:
            if _blocked_ahead(T, M, NM, V, n, v, lane, False, 1):
                best = -1.0
                break
            sec, sp = RD.step_space(T, sec, lane, V[v, V_SP], 1 if back != 0 else 0)
    _put_at(V, v, s0, l0, p0, d0)
    return best


@jit
def _break_standoff(T, TM, M, NM, V, WS, n, v, hp, par, tbuf, least, st, script):
    """A stopped hunter that ``_move_off`` would keep waiting with no shot moves off where one
    move (straight, drifting, or a U-turn, p13-p15) brings an enemy into its sights from places
    (where it lands, and one space on) no enemy without a shot at it now has one from: it
    loses nothing by moving and gains a shot. Where both sides wait, the position repeats and
    the game is drawn; a player sees the table and knows nothing will change while nobody
    moves. (Seeded Game Eight intercepts 3471 and 4911 ended so, the attacker on the far side
    of a road shut edge to edge from the last target car, which a drift into its lanes or a
    U-turn where it stood put in its sights.) Of several such moves the one with the best
    shot; equal ones the dice choose (the only roll). With no such move, a car rams a stopped
    enemy bike facing it in its lanes, (``P_RAMBIKE``) a bike it rams out of play in front or
    behind it (:func:`_rams_away`), and (``P_RAMRACE``) a stopped enemy car there that it
    outlasts (:func:`_outlasts`). (A_NONE, 0): none. Reads no dice but for that tie."""
    if _cannot_drive(V, v):
        return A_NONE, 0
    back = 1 if V[v, V_DIR] != 0 else 0
    lane = V[v, V_LANE]
    best = 0.0
    act = A_NONE
    arg = 0
    ties = 0
    now = _sighted_by(T, M, NM, V, WS, n, v, hp, tbuf)
    for c in range(4):
        if c < 3:
            d = c - 1   # the straight move-off, then each drift (after the straight move, p13)
            if _blocked_ahead(T, M, NM, V, n, v, lane, False, 1) or lane + d < 0 \
                    or lane + d > 4 or (d != 0 and (not _drift_legal(T, V, v, d) or _blocked_ahead(
                        T, M, NM, V, n, v, lane + d, False, 1))):
                continue
            sec, sp = RD.step_space(T, V[v, V_SEC], lane, V[v, V_SP], back)
            val = _land_for_shot(T, TM, M, NM, V, WS, n, v, hp, tbuf, least, sec, lane + d,
                                 sp, back, now)
        else:
            sec, sp = uturn_zone(T, TM, M, NM, V, n, v, False)
            if sec < 0:
                continue
            val = _land_for_shot(T, TM, M, NM, V, WS, n, v, hp, tbuf, least, sec, lane, sp,
                                 1 - back, now)
        if val <= 0.0 or val < best:
            continue
        if val > best:
            ties = 0
        ties += 1
        if ties > 1 and _pick(st, script, ties) != 0:
            continue
        best = val
        if c == 3:
            act, arg = A_UTURN, min(V[v, V_ACC], U_TURN_SAFE)
        elif c == 1:
            act, arg = A_ACCEL, _creep(V, v)
        else:
            act, arg = A_OFF_DRIFT, (c - 1) * _creep(V, v)
    if act == A_NONE and not V[v, V_BIKE]:
        u = _first_in_way(T, M, NM, V, n, v, 2)
        if u >= 0 and V[u, V_SIDE] != V[v, V_SIDE] and V[u, V_STATUS] == ACTIVE \
                and V[u, V_BIKE] and V[u, V_MPH] == 0 and V[u, V_DIR] != V[v, V_DIR]:
            # a stopped enemy bike facing it in its lanes with nothing between: driving into it
            # is a head-on ram, after which the bike is removed from play (p72: 'it always comes
            # off worse'), where waiting only draws (seeded gang pursues: the Op, facing back,
            # nose to nose with the last rider, out of ammunition)
            return A_ACCEL, _creep(V, v)
        # a bike it rams out of play (P_RAMBIKE): in front first, the way on, then behind
        # it, where its guns (all forward on an Interceptor, p82-83) cannot reach: a reverse
        # into it (p17). Seeded gang pursues riders stopped behind the Op on a bend, the Op
        # nose to an obstacle and its way back held by the rider, shot at it to the turn
        # limit while it waited (df15t's class A); in others a bike's wreck held the way back
        if _rams_away(T, M, NM, V, n, v, hp, par, False) >= 0:
            return A_ACCEL, _creep(V, v)
        if _rams_away(T, M, NM, V, n, v, hp, par, True) >= 0:
            return A_REVERSE, 0
        if par[P_RAMRACE]:
            if _outlasts(T, M, NM, V, n, v, hp, False) >= 0:
                return A_ACCEL, _creep(V, v)
            if _outlasts(T, M, NM, V, n, v, hp, True) >= 0:
                return A_REVERSE, 0
    return act, arg


# --- stand-off plans (issue 15, session 28) ----------------------------------------------------
# Where every vehicle in play is stopped and a hunter with no shot would wait, nothing changes
# and the game is drawn by the repeated position; a player looks over the table for a place it
# can shoot from and drives there over several turns. The moves are those of the slowest
# speed: moving off at PLAN_MPH (speed factor 1: one space a turn, p9, p15) straight, drifting
# or with a U-turn (p13-15), then each turn one space straight, drifting, with a U-turn, or
# braking to a stop (the brake comes after the move, p16); from a stop a reverse, straight,
# drifting or with a U-turn (p14, p17).
PLAN_MPH = 10
PLAN_SECS = 2       # sections either side of the car the plan may use
PLAN_MOVES = 20     # the longest plan, in moves (a turn each)
PLAN_SP = 5         # most spaces on a pair of lanes of any section (a corner's outside)
PLAN_N = (2 * PLAN_SECS + 1) * 5 * PLAN_SP * 4
(PS_ON, PS_LEFT, PS_RIGHT, PS_UTURN, PS_BACK, PS_BACK_L, PS_BACK_R, PS_BACK_UTURN,
 PS_BRAKE) = range(9)


@jit
def _goal_key(sec, lane, sp, d):
    # distinct for every place and facing: lanes 0-4 fit in 8, a pair's spaces in 64
    return (((sec * 8 + lane) * 64 + sp) * 2 + d) + 1


@jit
def _goal_place(key):
    """The place and facing (sec, lane, space, facing) a :func:`_goal_key` stands for."""
    g = key - 1
    return g // 1024, (g // 128) % 8, (g // 2) % 64, g % 2


@jit
def _plan_idx(base, sec, lane, sp, d, mov):
    s = sec - base
    if s < 0 or s > 2 * PLAN_SECS or sp >= PLAN_SP:
        return -1
    return (((s * 5 + lane) * PLAN_SP + sp) * 2 + d) * 2 + mov


@jit
def _plan_marker(M, NM, llo, lhi, xlo, xhi, walls):
    """A marker a plan does not drive over on lanes ``llo``-``lhi`` between ``xlo`` and ``xhi``:
    an obstacle, a passive (oil, mines, spikes, a dummy that may be one) or a railroad (a train
    at any speed, p77). Sand and debris are crossed at ``PLAN_MPH``, under both their safety
    limits (p76-77: 30mph, 10mph), where the hazard roll adds nothing for speed (p41):
    a player crawls over them to a place it wins from rather than wait for ever. With
    ``walls`` only obstacles: what no car may drive through at any speed (p76, p57)."""
    for i in range(NM[0]):
        k = M[i, RD.MK_KIND]
        if M[i, RD.MK_ACTIVE] and k != RD.SMOKE and k != RD.SAND and k != RD.DEBRIS \
                and (k == RD.OBSTACLE or not walls) and marker_over(M, i, llo, lhi, xlo, xhi):
            return True
    return False


@jit
def _plan_clear(T, M, NM, V, n, v, sec, lane, sp, walls):
    """Is ``lane``'s pair at (``sec``, ``sp``) free of vehicles, wrecks and the markers a plan
    does not drive over (:func:`_plan_marker`)?"""
    xlo = RD.rear_x(T, sec, lane, sp)
    xhi = RD.front_x(T, sec, lane, sp)
    if walls:
        return not _fixed_hits(T, V, n, v, sec, lane, lane + 1, xlo, xhi) \
            and not _plan_marker(M, NM, lane, lane + 1, xlo, xhi, walls)
    return zone_hits(T, V, n, v, sec, lane, lane + 1, xlo, xhi) < 0 \
        and not _plan_marker(M, NM, lane, lane + 1, xlo, xhi, walls)


@jit
def _fixed_hits(T, V, n, v, sec, llo, lhi, xlo, xhi):
    """Does a wreck or a vehicle stopped for good (``_stuck``) stand in the zone? What is
    moving, or can move, may be gone when the car comes up."""
    for u in range(n):
        if u == v or not (V[u, V_STATUS] == WRECK or (V[u, V_STATUS] == ACTIVE and _stuck(V, u))):
            continue
        a, b = lanes_of(V, u)
        if b < llo or a > lhi:
            continue
        if v_rear(T, V, u) < xhi and xlo < v_front(T, V, u):
            return True
    return False


@jit
def _plan_cells(T, TM, M, NM, V, n, v, base, walls, rider, obst):
    """The window's places, each as flags (bit 0: the pair clear, :func:`_plan_clear`; bit
    1: the U-turn's six-lane zone there clear of vehicles and of the markers a plan does not
    drive over; bit 2, with ``rider``: the pair held only by markers on one of its lanes, which
    a rider's dodge passes, p62, p64; an obstacle among them only with ``obst``, the rules'
    ``HP_DODGE_OBST``), 0 off the track laid; indexed as :func:`_plan_cell`. Worked out once a
    search: the other vehicles stand where they are while the car plans."""
    cells = np.zeros((2 * PLAN_SECS + 1) * 5 * PLAN_SP, np.int64)
    for s in range(2 * PLAN_SECS + 1):
        sec = base + s
        if sec < TM[RD.TM_FIRST] or sec >= TM[RD.TM_NSEC]:
            continue
        for lane in range(5):
            for sp in range(RD.pair_spaces(T, sec, lane)):
                f = 1 if _plan_clear(T, M, NM, V, n, v, sec, lane, sp, walls) else 0
                xlo = RD.rear_x(T, sec, lane, sp)
                xhi = RD.front_x(T, sec, lane, sp)
                if walls:
                    held = _fixed_hits(T, V, n, v, sec, 0, RD.LANES - 1, xlo, xhi)
                else:
                    held = zone_hits(T, V, n, v, sec, 0, RD.LANES - 1, xlo, xhi) >= 0
                if not held and not _plan_marker(M, NM, 0, RD.LANES - 1, xlo, xhi, walls):
                    f |= 2
                if f & 1 == 0 and rider and zone_hits(T, V, n, v, sec, lane, lane + 1, xlo,
                                                      xhi) < 0 \
                        and _plan_marker(M, NM, lane, lane, xlo, xhi, walls) \
                        != _plan_marker(M, NM, lane + 1, lane + 1, xlo, xhi, walls) \
                        and (obst != 0 or not _plan_marker(M, NM, lane, lane + 1, xlo, xhi, True)):
                    f |= 4   # a rider's dodge squeezes past it in the other lane (p62, p64)
                cells[(s * 5 + lane) * PLAN_SP + sp] = f
    return cells


@jit
def _plan_cell(cells, base, sec, lane, sp, bit):
    """Flag ``bit`` of a place (:func:`_plan_cells`); False outside the window."""
    s = sec - base
    if s < 0 or s > 2 * PLAN_SECS or sp >= PLAN_SP:
        return False
    return (cells[(s * 5 + lane) * PLAN_SP + sp] & bit) != 0


@jit
def _plan_move(T, cells, base, sec, lane, sp, d, code):
    """Where step ``code`` takes a car at (``sec``, ``lane``, ``sp``) facing ``d``, as the engine
    would move it (``engine._advance``, ``_uturn_move``): (sec, lane, sp, facing), sec -1 where
    the step is refused, runs into something, or leaves the window (or the track laid)."""
    rev = PS_BACK <= code <= PS_BACK_UTURN
    td = 1 - d if rev else d
    nsec, nsp = RD.step_space(T, sec, lane, sp, td)
    if nsec < 0:
        return -1, 0, 0, 0
    if code == PS_UTURN or code == PS_BACK_UTURN:
        # p14: not from a curve onto a curve; the six-lane zone clear of vehicles and
        # obstacles, and (as every step of a plan) of the markers it does not drive over
        if T[sec, RD.T_KIND] != RD.STRAIGHT and T[nsec, RD.T_KIND] != RD.STRAIGHT:
            return -1, 0, 0, 0
        if not _plan_cell(cells, base, nsec, lane, nsp, 2):
            return -1, 0, 0, 0
        return nsec, lane, nsp, 1 - d
    if not _plan_cell(cells, base, nsec, lane, nsp, 1):
        return -1, 0, 0, 0
    dr = 0
    if code == PS_LEFT or code == PS_BACK_L:
        dr = -1
    elif code == PS_RIGHT or code == PS_BACK_R:
        dr = 1
    if dr == 0:
        return nsec, lane, nsp, d
    nl = lane + dr
    if nl < 0 or nl > 4:
        return -1, 0, 0, 0
    curve = T[nsec, RD.T_KIND] != RD.STRAIGHT
    if rev:
        if curve or T[sec, RD.T_KIND] != RD.STRAIGHT:
            return -1, 0, 0, 0     # no drift while reversing on a curve (p17)
    elif curve and dr != (1 if T[nsec, RD.T_DIR] < 0 else -1):
        return -1, 0, 0, 0         # outwards only on a curve (p13)
    if td == 0:
        nsp2 = RD.remap_space(T, nsec, lane, nl, nsp)
    else:
        n0 = RD.pair_spaces(T, nsec, lane)
        n1 = RD.pair_spaces(T, nsec, nl)
        nsp2 = min(max((nsp * n1) // n0, 0), n1 - 1)
    if not _plan_cell(cells, base, nsec, nl, nsp2, 1):
        return -1, 0, 0, 0
    return nsec, nl, nsp2, d


@jit
def _plan_search(T, TM, M, NM, V, n, v, goal, walls, obst):
    """Breadth-first over the plan's steps from where the car stands (stopped, or moving at
    ``PLAN_MPH``), every other vehicle where it is: for each state (place, facing, moving) the
    fewest moves to it (-1 none within ``PLAN_MOVES``) and, as bits, the first steps that begin
    a way of that length. The section the state indices start from is ``V_SEC - PLAN_SECS``.
    With a ``goal`` state index (not -1), the search stops once every way to it of the fewest
    moves is known, or none can be within the moves it had left (``V_GOALN``). With ``walls``
    (:func:`_weave_shut`: only obstacles, wrecks and vehicles stopped for good hold a space) it
    stops at the first state it meets on the section two on from the car's. ``obst``: does a
    rider's dodge squeeze past an obstacle (``HP_DODGE_OBST``, variant dodge_obstacles; the
    engine's ``G_DODGE_OBST``)?"""
    base = V[v, V_SEC] - PLAN_SECS
    # a rider (p64) never reverses and, stopped, turns round in its own square to move off the
    # other way (only its own pair, where it stands, need be clear); the walls' search asks
    # what lies ahead, not how a bike gets there
    rider = V[v, V_BIKE] != 0 and not walls
    dist = np.full(PLAN_N, -1, np.int64)
    first = np.zeros(PLAN_N, np.int64)
    q = np.empty(PLAN_N, np.int64)
    qs = np.empty((PLAN_N, 5), np.int64)
    cells = _plan_cells(T, TM, M, NM, V, n, v, base, walls, rider, obst)
    far = V[v, V_SEC] + (2 if V[v, V_DIR] == 0 else -2)
    limit = PLAN_MOVES if goal < 0 else V[v, V_GOALN]
    mov0 = 1 if V[v, V_MPH] > 0 else 0
    i0 = _plan_idx(base, V[v, V_SEC], V[v, V_LANE], V[v, V_SP], V[v, V_DIR], mov0)
    dist[i0] = 0
    q[0] = i0
    qs[0, 0] = V[v, V_SEC]
    qs[0, 1] = V[v, V_LANE]
    qs[0, 2] = V[v, V_SP]
    qs[0, 3] = V[v, V_DIR]
    qs[0, 4] = mov0
    head = 0
    tail = 1
    while head < tail:
        i = q[head]
        if goal >= 0 and dist[goal] >= 0 and dist[i] >= dist[goal]:
            break
        sec, lane, sp, d, mov = qs[head, 0], qs[head, 1], qs[head, 2], qs[head, 3], qs[head, 4]
        head += 1
        if dist[i] >= limit:
            continue
        for code in range(9):
            if mov == 1 and PS_BACK <= code <= PS_BACK_UTURN:
                continue   # only a car stationary at the start of the turn reverses (p17)
            if mov == 0 and code == PS_BRAKE:
                continue
            if rider and PS_BACK <= code <= PS_BACK_UTURN:
                continue   # riders may not reverse (p64)
            if rider and mov == 0 and code == PS_UTURN:
                if not _plan_cell(cells, base, sec, lane, sp, 1):
                    continue
                ns, nl, np_, nd = sec, lane, sp, 1 - d
            elif rider and mov == 1 and code == PS_ON:
                # moving straight on, a rider may dodge (a dodge is the phase's one action:
                # not on moving off, nor with a drift or the brake)
                ns, np_ = RD.step_space(T, sec, lane, sp, d)
                nl = lane
                nd = d
                if ns < 0 or not (_plan_cell(cells, base, ns, lane, np_, 1)
                                  or _plan_cell(cells, base, ns, lane, np_, 4)):
                    ns = -1
            else:
                ns, nl, np_, nd = _plan_move(T, cells, base, sec, lane, sp, d,
                                             PS_ON if code == PS_BRAKE else code)
            if ns < 0:
                continue
            nm = 0 if (code == PS_BRAKE or PS_BACK <= code <= PS_BACK_UTURN) else 1
            j = _plan_idx(base, ns, nl, np_, nd, nm)
            if j < 0:
                continue
            f = (1 << code) if dist[i] == 0 else first[i]
            if dist[j] < 0:
                dist[j] = dist[i] + 1
                first[j] = f
                q[tail] = j
                qs[tail, 0] = ns
                qs[tail, 1] = nl
                qs[tail, 2] = np_
                qs[tail, 3] = nd
                qs[tail, 4] = nm
                tail += 1
                if walls and ns == far:
                    return dist, first, q, qs, tail   # _weave_shut asks only this
            elif dist[j] == dist[i] + 1:
                first[j] |= f
    return dist, first, q, qs, tail


@jit
def _foe_not_ahead(T, V, n, v):
    """Is an active enemy anywhere but wholly ahead of the car? (What ``_weave_shut`` serves
    needs one behind; its search is the dear part.)"""
    for u in range(n):
        if u != v and V[u, V_STATUS] == ACTIVE and V[u, V_SIDE] != V[v, V_SIDE]:
            if V[v, V_DIR] == 0:
                if v_rear(T, V, u) < v_front(T, V, v):
                    return True
            elif v_front(T, V, u) > v_rear(T, V, v):
                return True
    return False


@jit
def _weave_shut(T, TM, M, NM, V, n, v):
    """Is the way on shut for this car though no one space is shut from edge to edge: with
    every move it could make, one space and at most one drift a move (the straight move first,
    p13; outwards only on a curve; reverses and U-turns too, p14, p17), no way past the
    obstacles ahead reaches the section two on from its own? Strips staggered across the road
    a space apart ask for two drifts in one space, which no car has at any speed. Wrecks and
    vehicles stopped for good count where they stand (``_fixed_hits``), the rest may be gone
    when it comes up. False where that section is not laid."""
    far = V[v, V_SEC] + (2 if V[v, V_DIR] == 0 else -2)
    if far < TM[RD.TM_FIRST] or far >= TM[RD.TM_NSEC]:
        return False
    dist, first, q, qs, tail = _plan_search(T, TM, M, NM, V, n, v, -1, True, 0)
    for k in range(tail):
        if qs[k, 0] == far:
            return False
    return True


@jit
def _weave_key(TM, V, NM, n, v):
    """A number for what :func:`_weave_shut` reads: the car's place and facing, the places of
    the wrecks and the vehicles stopped for good, how many markers lie on the road and the
    track laid."""
    h = ((NM[0] * 4099 + TM[RD.TM_FIRST]) * 4099 + TM[RD.TM_NSEC]) % 2147483647
    for u in range(n):
        if u == v or V[u, V_STATUS] == WRECK or (V[u, V_STATUS] == ACTIVE and _stuck(V, u)):
            x = (((V[u, V_SEC] * 8 + V[u, V_LANE]) * 64 + V[u, V_SP]) * 2 + V[u, V_DIR]) * 64 + u
            h = (h * 1000003 + x) % 2147483647
    return h


@jit
def _weave_shut_at(T, TM, M, NM, V, n, v):
    """:func:`_weave_shut`, remembered per car (``V_WEAVE``, keyed by
    :func:`_weave_key`): a stopped car before a block is asked every phase, and the search each
    time made the intercept about 11% slower (session 28). Its answer hangs only on where the
    car, the wrecks and the vehicles stopped for good stand, the markers and the track laid
    (:func:`_weave_key`): what moves about the car does not change it."""
    key = _weave_key(TM, V, NM, n, v)
    if V[v, V_WEAVE] == key + 1:
        return True
    if V[v, V_WEAVE] == -1 - key:
        return False
    shut = _weave_shut(T, TM, M, NM, V, n, v)
    V[v, V_WEAVE] = key + 1 if shut else -1 - key
    return shut


@jit
def _exchange_at(T, M, NM, V, WS, n, v, hp, tbuf, least, sec, lane, sp, d):
    """With the car stopped at (``sec``, ``lane``, ``sp``) facing ``d``: the share of its
    target's points its best shot takes a turn (expected damage points, ``_shot_core``, over the
    points left), -1.0 with no shot at an enemy in play; and the share of its own points the
    enemies whose best shot would then be at it take. The car is put back."""
    s0, l0, p0, d0 = _put_at(V, v, sec, lane, sp, d)
    mine = -1.0
    theirs = 0.0
    slot, tgt, val, h, ties = _shot_core(T, M, NM, V, WS, n, v, hp, tbuf, least, 0)
    if slot >= 0 and V[tgt, V_SIDE] != V[v, V_SIDE] and V[tgt, V_STATUS] == ACTIVE and val > 0.0:
        mine = val / max(V[tgt, V_DMG], 1)
        theirs = _fire_on(T, M, NM, V, WS, n, v, hp, tbuf) / max(V[v, V_DMG], 1)
    _put_at(V, v, s0, l0, p0, d0)
    return mine, theirs


@jit
def _put_at(V, v, sec, lane, sp, d):
    """Stand car ``v`` at (``sec``, ``lane``, ``sp``) facing ``d``, to judge a place it might
    go to; returns where it stood, to be put back the same way."""
    old = (V[v, V_SEC], V[v, V_LANE], V[v, V_SP], V[v, V_DIR])
    V[v, V_SEC] = sec
    V[v, V_LANE] = lane
    V[v, V_SP] = sp
    V[v, V_DIR] = d
    return old


@jit
def _fire_on(T, M, NM, V, WS, n, v, hp, tbuf):
    """The expected damage points a turn of the enemies whose best shot is at ``v``."""
    theirs = 0.0
    for u in range(n):
        if u != v and V[u, V_STATUS] == ACTIVE and V[u, V_SIDE] != V[v, V_SIDE]:
            s2, t2, v2, h2, k2 = _shot_core(T, M, NM, V, WS, n, u, hp, tbuf, 0, 0)
            if s2 >= 0 and t2 == v:
                theirs += v2
    return theirs


@jit
def _all_stopped(V, n, v):
    """Is every other vehicle in play stopped, an enemy among them?"""
    foe = False
    for u in range(n):
        if u == v or V[u, V_STATUS] != ACTIVE:
            continue
        if V[u, V_MPH] != 0:
            return False
        if V[u, V_SIDE] != V[v, V_SIDE]:
            foe = True
    return foe


@jit
def _someone_shoots(T, M, NM, V, WS, n, v, hp, tbuf):
    """Has any other vehicle in play a shot at an enemy of its own other than the car? Then
    the dice roll and the position changes: no stand-off (yet). Shots at the car itself do not
    count: with none of its own, waiting there only takes them to the turn limit, a loss by
    attrition, and it looks for a place it wins the exchange at as in a stand-off (seeded
    gang pursues 550: the Op shut in by staggered strips, the last rider stopped at its back
    with the only shot, to the turn limit; issue 15, session 29)."""
    for u in range(n):
        if u != v and V[u, V_STATUS] == ACTIVE:
            slot, tgt, val, h, ties = _shot_core(T, M, NM, V, WS, n, u, hp, tbuf, 0, 0)
            if slot >= 0 and V[tgt, V_SIDE] != V[u, V_SIDE] and V[tgt, V_STATUS] == ACTIVE \
                    and tgt != v:
                return True
    return False


@jit
def _table_key(V, NM, n):
    """A number for where every vehicle stands (place, facing, status, whether it is stopped for
    good) and how many markers lie on the road: a plan looked for and not found is not looked
    for again until it changes. (An enemy stranded where it stands, its engine out of fuel,
    say, is one a car may now leave behind, p75: seeded intercept 4739's last target waited
    on, its search made while the attacker could still move.)"""
    h = NM[0] + 1
    for u in range(n):
        x = (((((V[u, V_SEC] * 8 + V[u, V_LANE]) * 64 + V[u, V_SP]) * 2 + V[u, V_DIR]) * 8
              + V[u, V_STATUS]) * 2 + (1 if _stuck(V, u) else 0))
        h = (h * 1000003 + x) % 2147483647
    return h


@jit
def _goal_first(k, goal, free, d, val, best_free, best_d, best_val, ties, st, script):
    """(goal, best_free, best_d, best_val, ties) after a stand-off plan's candidate place ``k``
    is weighed against the best so far (``goal`` -1: none yet): one no enemy shoots at
    (``free``) first, then the fewest moves ``d``, then the larger ``val``; of equals the dice
    choose, the ``ties``-th equal one kept with chance one in ``ties`` (:func:`_pick`)."""
    if goal >= 0 and free == best_free and d == best_d and val == best_val:
        ties += 1
        if _pick(st, script, ties) == 0:
            return k, free, d, val, ties
        return goal, best_free, best_d, best_val, ties
    if goal < 0 or free > best_free or (free == best_free and (
            d < best_d or (d == best_d and val > best_val))):
        return k, free, d, val, 1
    return goal, best_free, best_d, best_val, ties


@jit
def _standing_off(V, n, v, hp):
    """Is the car in a stand-off it means to break: stopped, able to drive and in control, a
    car that means to take the enemy out (a chase car, or any car where that wins,
    ``HP_TAKE_OUT``), with every other vehicle in play stopped and an enemy among them? What
    :func:`_plan_standoff` and :func:`_ram_race_now` both ask first."""
    return V[v, V_MPH] == 0 and not _cannot_drive(V, v) and V[v, V_OOC] == 0 \
        and (V[v, V_ROLE] == CHASE or hp[HP_TAKE_OUT] != 0) and _all_stopped(V, n, v)


@jit
def _plan_standoff(B, T, V, WS, n, v, hp, par, st, script):
    """A stopped car that means to take the enemy out (a chase car, or any car where taking the
    other side out wins, ``HP_TAKE_OUT``), has no shot and would wait, with every vehicle in
    play stopped and none with a shot (nothing will change: the position repeats), looks for a
    place within ``PLAN_MOVES`` of the slowest moves (above) where it would have a shot and win
    the exchange there: the share of its target's points its shot takes a turn above the share
    of its own the enemies' answer takes (:func:`_exchange_at`). Places no enemy can answer from
    first (behind a car whose guns all face forward, p82-83), then the fewest moves, then the
    best shot; equal ones the dice choose. The place is remembered (``V_GOAL``, ``V_GOALN``)
    and driven to (:func:`_follow_plan`). Nothing in play moving, waiting only repeats the
    position and draws (seeded Game Eight intercepts: the last target nose to an obstacle, the
    attacker past it facing back, neither with a shot in one move or two; issue 15, sessions
    27-28). A car that counts every enemy left behind (``_leaves_behind``, p75) plans too:
    waiting, it leaves no one behind (seeded intercept 3879: the last target, walled in short
    of the stranded attacker, waited to a repeat). True when a plan is made. A search that
    finds nothing is remembered with the table it was made on (``_table_key``, a negative
    ``V_GOALN``) and not made again until a vehicle moves. With no such place (and a gunless car
    has none), a car that cannot leave every enemy behind from where it stands, every enemy
    stranded, takes a place from which it can (:func:`_past_from`: a way past the block, p75;
    seeded intercept 4957, session 31). Else ``P_RAMRACE`` 2 takes a place a slow ram of a
    stopped enemy car wins the race from (:func:`_race_at`): the car drives there and rams
    (``_break_standoff``), where waiting only repeats the position (seeded intercepts 92,
    2677: the last target, its gun gone, shut in beside the stranded attacker; issue 15,
    session 30). Reads no dice but for a tie."""
    if V[v, V_FALLEN] or not _standing_off(V, n, v, hp):
        return False
    TM = B[B_TM:B_TM_END]
    M = B[B_M:B_M_END].reshape((RD.MAXM, RD.MK_W))
    NM = B[B_NM:B_NM_END]
    key = _table_key(V, NM, n)
    if V[v, V_GOALN] == -1 - key:
        return False
    play = TM[RD.TM_PLAYDIR]
    # every enemy stranded and the car going with play: past the block, driving on leaves
    # them off the back of the road (p75), which beats them (p88), gun or none
    behind = _leaves_behind(T, TM, M, NM, V, n, v, hp)
    away = V[v, V_DIR] == play and behind
    # not leaving them behind from here, where that wins (p75, p88): a way past (below)
    past = not behind and hp[HP_TAKE_OUT] != 0 and hp[HP_OUTRUN] != 0 \
        and _foes_stranded(V, n, v)
    gun = has_gun(WS, v)
    # (a rider's ram of a car is one the bike loses, p72: the race is a car's)
    race = par[P_RAMRACE] >= 2 and not V[v, V_BIKE]
    if not away and not past and not gun and not race:
        return False
    tbuf = B[B_K + K_TBUF:B_K + K_TBUF_END]
    if _someone_shoots(T, M, NM, V, WS, n, v, hp, tbuf):
        return False
    dist, first, q, qs, tail = _plan_search(T, TM, M, NM, V, n, v, -1, False,
                                            hp[HP_DODGE_OBST])
    best_free = -1
    best_d = 0
    best_val = 0.0
    goal = -1
    ties = 0
    for k in range(1, tail if gun else 0):
        if qs[k, 4] != 0:
            continue   # a goal is a place stopped at
        i = q[k]
        mine, theirs = _exchange_at(T, M, NM, V, WS, n, v, hp, tbuf, par[P_SHOOT],
                                    qs[k, 0], qs[k, 1], qs[k, 2], qs[k, 3])
        if mine <= theirs:
            continue
        free = 1 if theirs == 0.0 else 0
        goal, best_free, best_d, best_val, ties = _goal_first(
            k, goal, free, dist[i], mine, best_free, best_d, best_val, ties, st, script)
    if goal < 0 and away:
        # no shot to drive to: a place past everything the window shows ahead, stopped facing
        # on with play, its next space off the window or the track laid; the fewest moves,
        # equal ones the dice choose
        base = V[v, V_SEC] - PLAN_SECS
        for k in range(1, tail):
            if qs[k, 4] != 0 or qs[k, 3] != play:
                continue
            ns, nsp = RD.step_space(T, qs[k, 0], qs[k, 1], qs[k, 2], play)
            if ns >= 0 and TM[RD.TM_FIRST] <= ns < TM[RD.TM_NSEC] \
                    and base <= ns <= base + 2 * PLAN_SECS:
                continue
            goal, best_free, best_d, best_val, ties = _goal_first(
                k, goal, 0, dist[q[k]], 0.0, best_free, best_d, best_val, ties, st, script)
    if goal < 0 and past:
        # no shot to drive to, and every enemy stranded but one the car cannot leave behind
        # from where it stands: a place from which it can (a way past the block, p75), one no
        # enemy shoots at first, then the fewest moves, equal ones the dice choose. There it
        # drives on with play (seeded intercept 4957, session 31: the attacker, nothing to
        # shoot with, nine moves from the lanes past a wrecked target, until the position
        # repeated)
        for k in range(1, tail):
            if qs[k, 4] != 0 or not _past_from(T, TM, M, NM, V, n, v, hp, qs[k, 0], qs[k, 1],
                                               qs[k, 2], qs[k, 3]):
                continue
            old = _put_at(V, v, qs[k, 0], qs[k, 1], qs[k, 2], qs[k, 3])
            free = 1 if _fire_on(T, M, NM, V, WS, n, v, hp, tbuf) == 0.0 else 0
            _put_at(V, v, old[0], old[1], old[2], old[3])
            goal, best_free, best_d, best_val, ties = _goal_first(
                k, goal, free, dist[q[k]], 0.0, best_free, best_d, best_val, ties, st, script)
    if goal < 0 and race:
        # no shot and no way past: a place a slow ram of a stopped enemy car wins the race
        # from (P_RAMRACE 2), one no enemy shoots at first, then the fewest moves (where it
        # stands first of all); equal ones the dice choose. There the ram is made
        # (:func:`_ram_race_now`)
        for k in range(tail):
            if qs[k, 4] != 0:
                continue
            theirs, b = _race_at(T, M, NM, V, WS, n, v, hp, tbuf, qs[k, 0], qs[k, 1], qs[k, 2],
                                 qs[k, 3])
            if theirs < 0.0:
                continue
            free = 1 if theirs == 0.0 else 0
            goal, best_free, best_d, best_val, ties = _goal_first(
                k, goal, free, dist[q[k]], 0.0, best_free, best_d, best_val, ties, st, script)
    if goal <= 0:
        # nowhere to go from this table (the car remembers), or it rams from where it stands
        V[v, V_GOALN] = -1 - key
        return False
    V[v, V_GOAL] = _goal_key(qs[goal, 0], qs[goal, 1], qs[goal, 2], qs[goal, 3])
    V[v, V_GOALN] = best_d
    return True


@jit
def _past_from(T, TM, M, NM, V, n, v, hp, sec, lane, sp, d):
    """Stopped at (``sec``, ``lane``, ``sp``) facing ``d``, would the car be past the block:
    facing with play, every enemy one it leaves behind by driving on (:func:`_leaves_behind`),
    and its own lanes clear ``ROUTE_LOOK`` spaces on, so that driving straight on is the way?
    (``_leaves_behind`` asks only that some lane pair runs clear on from the car: one it can get
    to from a stop may not be there. The last target of seeded intercept 3306, session 31,
    stopped on a corner's last space with the lanes past the stranded attacker open beside it,
    the attacker's lanes and an obstacle strip between.) The car is put back."""
    if d != TM[RD.TM_PLAYDIR]:
        return False
    old = _put_at(V, v, sec, lane, sp, d)
    ok = _pair_clear(T, M, NM, V, n, v, lane, ROUTE_LOOK, False) \
        and _leaves_behind(T, TM, M, NM, V, n, v, hp)
    _put_at(V, v, old[0], old[1], old[2], old[3])
    return ok


@jit
def _ram_race_now(B, T, V, WS, n, v, hp, par):
    """The ram ``P_RAMRACE`` 2 makes where the car stands: a stopped car that means to take the
    enemy out (as :func:`_plan_standoff`), gun or none, every vehicle in play stopped, drives
    into a stopped enemy car in front of it (moving off at its creep) or reverses into one
    behind it (p17) where it wins the race of rams with the enemies' shots at it counted
    against it (:func:`_race_at`), whether or not it hunts (``_break_standoff``). (The last
    target of seeded intercept 2677, its gun gone, stood past the stranded attacker with the
    road shut edge to edge ahead and counted it left behind, so did not hunt, issue 15,
    session 30; since session 31 ``_leaves_behind`` sees the road shut ahead, ``_way_on_shut``,
    and such a car hunts.) (A_NONE, 0): no such ram."""
    if par[P_RAMRACE] < 2 or V[v, V_BIKE] or not _standing_off(V, n, v, hp):
        return A_NONE, 0
    M = B[B_M:B_M_END].reshape((RD.MAXM, RD.MK_W))
    NM = B[B_NM:B_NM_END]
    tbuf = B[B_K + K_TBUF:B_K + K_TBUF_END]
    theirs, b = _race_at(T, M, NM, V, WS, n, v, hp, tbuf, V[v, V_SEC], V[v, V_LANE],
                         V[v, V_SP], V[v, V_DIR])
    if theirs < 0.0:
        return A_NONE, 0
    if b == 1:
        return A_REVERSE, 0
    return A_ACCEL, _creep(V, v)


@jit
def _plan_dodge(T, M, NM, V, n, v):
    """The dodge (-1, +1: the lane the rider keeps to, p64) a rider's plan searched through its
    next space straight on (a marker on one of its lanes, :func:`_plan_cells`' bit 4), or 0."""
    lane = V[v, V_LANE]
    ns, nsp = RD.step_space(T, V[v, V_SEC], lane, V[v, V_SP], V[v, V_DIR])
    if ns < 0:
        return 0
    xlo = RD.rear_x(T, ns, lane, nsp)
    xhi = RD.front_x(T, ns, lane, nsp)
    left = _plan_marker(M, NM, lane, lane, xlo, xhi, False)
    right = _plan_marker(M, NM, lane + 1, lane + 1, xlo, xhi, False)
    if left and not right:
        return 1
    if right and not left:
        return -1
    return 0


@jit
def _follow_plan(B, T, V, WS, n, v, moves, hp, par, st, script):
    """The next step of the car's stand-off plan (:func:`_plan_standoff`), or (-1, 0) with the
    plan dropped or nothing to do this phase (the driver then decides as ever). Kept until the
    car stands stopped at the place, a shot opens from where it stops, an enemy drives off
    faster than the crawl of a plan (the stand-off is over; one creeping to a place of its own,
    or reversing, is still in it), or the way there grows longer than the moves it still
    needed (the road changed: the plan no longer holds). A moving driver keeps to the plan (it used not to:
    forced off a stop with no plan, the attacker of seeded intercept 1684 came level beside the
    target, rammed a wreck, backed off and came on again to a repeat). Moving, it takes a shot
    where the step is straight on (the shot moves the car as steadily). Of equally short ways
    the dice choose the step."""
    mph = V[v, V_MPH]
    if V[v, V_STATUS] != ACTIVE or V[v, V_OOC] != 0 or (mph != 0 and mph > PLAN_MPH) \
            or (mph == 0 and moves):
        V[v, V_GOAL] = 0
        V[v, V_GOALN] = 0
        return -1, 0
    if mph > 0 and not moves:
        return -1, 0   # moved this turn already
    for u in range(n):
        if u != v and V[u, V_STATUS] == ACTIVE and V[u, V_SIDE] != V[v, V_SIDE] \
                and V[u, V_MPH] > PLAN_MPH:
            V[v, V_GOAL] = 0
            V[v, V_GOALN] = 0
            return -1, 0
    TM = B[B_TM:B_TM_END]
    M = B[B_M:B_M_END].reshape((RD.MAXM, RD.MK_W))
    NM = B[B_NM:B_NM_END]
    tbuf = B[B_K + K_TBUF:B_K + K_TBUF_END]
    slot, tgt, val, h, ties = _shot_core(T, M, NM, V, WS, n, v, hp, tbuf, par[P_SHOOT], 0)
    shot = slot >= 0 and V[tgt, V_SIDE] != V[v, V_SIDE] and V[tgt, V_STATUS] == ACTIVE
    if mph == 0 and (shot or _place_key(V, v) == V[v, V_GOAL]):
        V[v, V_GOAL] = 0
        V[v, V_GOALN] = 0
        return -1, 0
    gs, gl, gsp, gd = _goal_place(V[v, V_GOAL])
    gi = _plan_idx(V[v, V_SEC] - PLAN_SECS, gs, gl, gsp, gd, 0)
    if gi < 0:
        V[v, V_GOAL] = 0
        V[v, V_GOALN] = 0
        return -1, 0
    dist, first, q, qs, tail = _plan_search(T, TM, M, NM, V, n, v, gi, False,
                                            hp[HP_DODGE_OBST])
    if dist[gi] < 1 or dist[gi] > V[v, V_GOALN]:
        V[v, V_GOAL] = 0
        V[v, V_GOALN] = 0
        return -1, 0
    V[v, V_GOALN] = dist[gi]
    mask = first[gi]
    m = 0
    for c in range(9):
        if mask & (1 << c):
            m += 1
    k = _pick(st, script, m) if m > 1 else 0
    code = 0
    for c in range(9):
        if mask & (1 << c):
            if k == 0:
                code = c
                break
            k -= 1
    if mph == 0:
        if code == PS_ON:
            return A_ACCEL, PLAN_MPH
        if code == PS_LEFT or code == PS_RIGHT:
            return A_OFF_DRIFT, (1 if code == PS_RIGHT else -1) * PLAN_MPH
        if code == PS_UTURN:
            if V[v, V_BIKE]:
                return A_TURN_ROUND, PLAN_MPH   # in its own square (p64), as searched
            return A_UTURN, PLAN_MPH
        if code == PS_BACK:
            return A_REVERSE, 0
        if code == PS_BACK_L or code == PS_BACK_R:
            return A_REVERSE, 1 if code == PS_BACK_R else -1
        return A_REVERSE, 2
    if code == PS_ON and V[v, V_BIKE]:
        side = _plan_dodge(T, M, NM, V, n, v)
        if side != 0:
            return A_DODGE, side
    if code == PS_ON:
        if shot and not _finishes_hulks(V, WS, v, tgt, hp):
            slot, tgt, val, h = _choose_shot(T, M, NM, V, WS, n, v, hp, tbuf, par[P_SHOOT], st,
                                             script)
            return A_SHOOT, slot
        return A_NONE, 0
    if code == PS_LEFT or code == PS_RIGHT:
        return A_DRIFT, 1 if code == PS_RIGHT else -1
    if code == PS_UTURN:
        return A_UTURN, 0
    return A_BRAKE, mph


REVERSE_MPH = 10   # p17: a reversing car 'is assumed to be travelling at 10mph'


@jit
def _first_in_ram_reach(T, M, NM, V, n, v, behind):
    """What stands first in the car's lanes where a slow ram reaches it (:func:`_first_in_way`):
    within two spaces in front, or with ``behind`` the space behind, which a reverse rams
    (p17)."""
    if not behind:
        return _first_in_way(T, M, NM, V, n, v, 2)
    d = V[v, V_DIR]
    V[v, V_DIR] = 1 - d          # look the other way (restored below)
    u = _first_in_way(T, M, NM, V, n, v, 1)
    V[v, V_DIR] = d
    return u


@jit
def _outlasts(T, M, NM, V, n, v, hp, behind):
    """A stopped enemy car first in the car's lanes (in front within two spaces, or with
    ``behind`` in the space behind), sharing a lane with it, which the car, ramming it at the
    slow speed it moves off or reverses at, outlasts: every such ram deals each the same hits
    at the same plus (p56-57: a head-on's combined speed factor, a shunt's relative one, the
    target at 0mph), so it wins the race whose points last more of the other's expected hits
    (:func:`_hit_pts`, against each one's armour), strictly; or -1."""
    u = _first_in_ram_reach(T, M, NM, V, n, v, behind)
    if u < 0 or V[u, V_BIKE] or V[u, V_SIDE] == V[v, V_SIDE] or V[u, V_STATUS] != ACTIVE \
            or V[u, V_MPH] != 0:
        return -1
    if _race_won(V, v, u, _ram_sf(V, v, hp, behind), 0.0):
        return u
    return -1


@jit
def _ram_sf(V, v, hp, behind):
    """The speed factor of the car's slow ram (:func:`_outlasts`): a reverse's 10mph (p17) or
    the move-off's creep."""
    return max(_sf(REVERSE_MPH if behind else _creep(V, v), hp), 1)


@jit
def _race_won(V, v, u, c, shot):
    """Do the car's points outlast ``u``'s in a race of rams at speed factor ``c``, each
    dealing both the same hit (p56-57), with ``shot`` more expected points a turn taken off
    the car by the enemies' guns? Strictly: the turns each lasts, its points over what it
    loses a turn."""
    return V[u, V_DMG] * (_hit_pts(c, V[v, V_ARM]) + shot) < V[v, V_DMG] * _hit_pts(c, V[u, V_ARM])


@jit
def _race_at(T, M, NM, V, WS, n, v, hp, tbuf, sec, lane, sp, d):
    """With the car stopped at (``sec``, ``lane``, ``sp``) facing ``d``: the expected points a
    turn the enemies' best shots there take off it, if from there it wins a slow ram's race
    with a stopped enemy car (:func:`_outlasts`, in front or behind) with those shots counted
    against it (:func:`_race_won`), -1.0 if it wins none; and 1 if that ram is behind it (a
    reverse), 0 in front. The car is put back."""
    s0, l0, p0, d0 = _put_at(V, v, sec, lane, sp, d)
    out = -1.0
    back = 0
    for b in range(2):
        u = _outlasts(T, M, NM, V, n, v, hp, b == 1)
        if u < 0:
            continue
        theirs = _fire_on(T, M, NM, V, WS, n, v, hp, tbuf)
        if _race_won(V, v, u, _ram_sf(V, v, hp, b == 1), theirs):
            out = theirs
            back = b
            break
    _put_at(V, v, s0, l0, p0, d0)
    return out, back


@jit
def _rams_behind(B, T, V, n, v, hp, par):
    """Is a straight reverse from here one of ``_break_standoff``'s rams?"""
    M = B[B_M:B_M_END].reshape((RD.MAXM, RD.MK_W))
    NM = B[B_NM:B_NM_END]
    return _rams_away(T, M, NM, V, n, v, hp, par, True) >= 0 or (
        par[P_RAMRACE] != 0 and _outlasts(T, M, NM, V, n, v, hp, True) >= 0)


@jit
def _rams_away(T, M, NM, V, n, v, hp, par, behind):
    """The bike a car driving into it (in front within two spaces, or with ``behind`` in the
    space behind, by reversing) would take out of play, as ``P_RAMBIKE`` allows: (bit 1) a
    stopped enemy bike it rams head-on (:func:`_head_on_bike`), (bit 2) a wrecked bike, or an
    enemy's fallen one, first in its way (p72: the bike is removed); or -1."""
    if par[P_RAMBIKE] & 1:
        u = _head_on_bike(T, M, NM, V, n, v, hp, behind)
        if u >= 0:
            return u
    if par[P_RAMBIKE] & 2:
        u = _first_in_ram_reach(T, M, NM, V, n, v, behind)
        if u >= 0 and V[u, V_BIKE] and V[u, V_MPH] == 0 and (
                V[u, V_STATUS] == WRECK or (V[u, V_STATUS] == ACTIVE and V[u, V_FALLEN]
                                            and V[u, V_SIDE] != V[v, V_SIDE])):
            return u
    return -1


@jit
def _grinds_behind(B, T, V, n, v):
    """Is first in the space behind the stopped car (a reverse's reach, p17) a stopped,
    upright enemy bike facing the car's way with one lane in common with it? The reverse into
    it is a partial ram with a motorcycle, 'always treated as a sideswipe', which a bike
    'automatically' loses (p72): the engine's ``_bike_ram`` hits the bike at the relative
    speed factor and not the car, and the bike stays where it was. Not a car with its engine
    out, nor one that cannot move."""
    if V[v, V_BIKE] or V[v, V_MPH] != 0 or _cannot_drive(V, v) or V[v, V_OOC] != 0:
        return False
    M = B[B_M:B_M_END].reshape((RD.MAXM, RD.MK_W))
    NM = B[B_NM:B_NM_END]
    u = _first_in_ram_reach(T, M, NM, V, n, v, True)
    if u < 0 or not V[u, V_BIKE] or V[u, V_SIDE] == V[v, V_SIDE] or V[u, V_STATUS] != ACTIVE \
            or V[u, V_MPH] != 0 or V[u, V_FALLEN] or V[u, V_DIR] != V[v, V_DIR]:
        return False
    a, b = lanes_of(V, u)
    c, d = lanes_of(V, v)
    return min(b, d) == max(a, c)


@jit
def _head_on_bike(T, M, NM, V, n, v, hp, behind):
    """A stopped enemy bike with both its lanes in the car's (p72: a bike is shunted or
    rammed head-on only so; one lane in common is a sideswipe), nothing between, which the
    car driving into it rams head-on and so removes from play (p72), or -1: in front within
    two spaces, or (``behind``) in the space behind, which a reverse rams (p17). A head-on as
    the engine has it: a fallen bike, one facing the other way, or, under the variant
    ``stopped_bike_ram = head_on`` in force (``HP_STOPPED_BIKE``), any stationary bike (p70's
    note; otherwise a bike stopped the car's way is shunted, p57, both taking a hit, and
    pushed on, which gains nothing sure)."""
    u = _first_in_ram_reach(T, M, NM, V, n, v, behind)
    if u < 0 or V[u, V_SIDE] == V[v, V_SIDE] or V[u, V_STATUS] != ACTIVE or not V[u, V_BIKE] \
            or V[u, V_MPH] != 0 or V[u, V_LANE] != V[v, V_LANE]:
        return -1
    if V[u, V_DIR] != V[v, V_DIR] or V[u, V_FALLEN] or hp[HP_STOPPED_BIKE]:
        return u
    return -1


@jit
def _turn_back(T, TM, M, NM, V, n, v):
    """How a stopped driver turns round: a U-turn as it moves off (p14-15) where its six lanes
    are clear; else a rider, which may not reverse (p64), moves off the other way in its own
    square (p64); else a car backs off a space to where a U-turn may be made (p17), if that
    space is clear. (-1, 0): none of them."""
    if uturn_zone(T, TM, M, NM, V, n, v, False)[0] >= 0:
        return A_UTURN, min(V[v, V_ACC], U_TURN_SAFE)
    if V[v, V_BIKE]:
        return A_TURN_ROUND, _turn_round_mph(V, v)
    if _reverse_clear(T, M, NM, V, n, v, 0):
        return A_REVERSE, 0
    return -1, 0


@jit
def _turn_round_mph(V, v):
    """The acceleration a rider turning round in its square moves off with (p64: no more than
    20mph)."""
    return max(min(V[v, V_ACC], V[v, V_MAXSPD], TURN_ROUND_MPH), 1)


@jit
def _move_off(B, V, WS, n, v, hp, par, cruise, want, st, script):
    """A stationary driver's action (p15, p17): move off unless a rule keeps the car where it
    is (engine out, no acceleration or maximum speed, zero handling or skill, p16, p50). A chase
    car with a shot takes it (a moving target is leaving, a stopped one is a sitting target);
    a lead car shoots only a target stopped for good, else it moves off. Stopped with the way
    blocked within two spaces the car reverses, drifting towards clear lanes; a road shut from
    edge to edge within ``ROUTE_LOOK`` spaces turns it round (a U-turn as it moves off, p15)
    towards an enemy behind, or backs it off to where it may turn; with no enemy behind it
    waits. A chase car (and a lead car where taking the other side out wins, ``HP_TAKE_OUT``)
    lines up on a stopped enemy ahead in other lanes by reversing with a drift (p17; on a
    curve, where a reverse may not drift, it backs straight off it first), and lined up on it
    with no shot drives into it (a ram, p52)."""
    T = B[B_T:B_T_END].reshape((RD.MAXSEC, RD.T_W))
    TM = B[B_TM:B_TM_END]
    M = B[B_M:B_M_END].reshape((RD.MAXM, RD.MK_W))
    NM = B[B_NM:B_NM_END]
    tbuf = B[B_K + K_TBUF:B_K + K_TBUF_END]
    slot, u, val, h = _choose_shot(T, M, NM, V, WS, n, v, hp, tbuf, par[P_SHOOT], st, script)
    if _cannot_drive(V, v):
        if slot >= 0:
            return A_SHOOT, slot
        return A_NONE, 0
    if _finishes_hulks(V, WS, v, u, hp):
        slot = -1   # moving off after the gang still in play (p89)
    if slot >= 0 and (V[v, V_ROLE] == CHASE or (_stuck(V, u) and not _flees(V, v, hp, par))):
        # moving off into a stopped target only brakes the car to a stop again (seeded Game
        # Six games shuttled behind a stranded gang car to the turn limit)
        if V[v, V_BIKE] and _comes_closer(T, TM, M, NM, V, WS, n, v, hp, par, tbuf):
            # a rider moves up on a stranded enemy for better odds, and still shoots after
            return A_ACCEL, _creep(V, v)
        return A_SHOOT, slot
    h = _held_back_for(T, V, WS, n, v, hp, par, st, script)
    if h >= 0:
        if V[h, V_MPH] == 0:
            return A_NONE, 0   # moving off ahead of it would only pull the road away from it
        cruise = min(cruise, V[h, V_MPH])
    straight = T[V[v, V_SEC], RD.T_KIND] == RD.STRAIGHT
    if _outruns(T, TM, M, NM, V, n, v, hp, st, script):
        act, arg = _turn_back(T, TM, M, NM, V, n, v)
        if act >= 0:
            return act, arg
    ef = -1
    # where taking the other side out wins (Games Six and Eight), the lead car hunts a stranded
    # enemy too: seeded Game Eight Ops waited for ever behind a road shut from edge to edge
    # with a stopped gang bike a lane over, which one reverse with a drift put in their sights
    if _hunts(T, TM, M, NM, V, n, v, hp) and not V[v, V_BIKE]:
        ef = _stopped_enemy_in_front(T, TM, V, WS, n, v, LINE_UP, hp)
        if ef < 0 and straight:
            # farther off, across a curve that refuses the drift towards it: line up here
            # (backed straight off the bend, the car used to come on in the same lanes)
            e = _stopped_enemy_in_front(T, TM, V, WS, n, v, ROUTE_LOOK, hp)
            if e >= 0 and _plan_before_curve(T, TM, M, NM, V, WS, n, v, LINE_UP, hp, st,
                                             script) == (1 if V[e, V_LANE] > V[v, V_LANE] else -1):
                ef = e
        if ef >= 0 and slot < 0 and V[ef, V_LANE] != V[v, V_LANE] \
                and _first_in_way(T, M, NM, V, n, v, LINE_UP) == ef and not V[ef, V_BIKE]:
            # no shot, and the straight move already meets the car in one lane: a head-on
            # ram all the same (p55: 'when they have only one lane in common'; with a bike it
            # would be a sideswipe, p71). Backing off to line up lane for lane put a wreck
            # between them: seeded Game Eight intercept 2462's target, out of ammunition,
            # reversed onto its own side's wreck's lanes, drove round it onto a corner's
            # outside lanes and into the strip past it, backed off and came on, to the turn
            # limit
            return A_ACCEL, min(_creep(V, v), max(cruise, 1))
        if ef >= 0 and V[ef, V_LANE] != V[v, V_LANE]:
            # on a curve a reversing car may not drift (p17): back straight off it first, then
            # line up (seeded Game Six games waited beside a stranded bike on a bend, the road
            # ahead shut, to the turn limit)
            d = (1 if V[ef, V_LANE] > V[v, V_LANE] else -1) if _reverse_may_drift(T, V, v) else 0
            # not into a wreck or an obstacle behind (a seeded Game Eight attacker rammed a
            # wreck backwards every turn until it was one), and on a curve only when the way
            # back off it is clear: shut in on it, backing a space or two only brought the car
            # on again to the same place (seeded gang pursues 4974: the Op on a corner's
            # outside lanes, a stopped rider inside it, another behind it, five times)
            if _reverse_clear(T, M, NM, V, n, v, d) \
                    and (straight or (_off_curve_clear(T, M, NM, V, n, v)
                                      and not _shielded_line_up(T, M, NM, V, WS, n, v, ef))):
                return A_REVERSE, d
        if ef >= 0 and _first_in_way(T, M, NM, V, n, v, LINE_UP) == ef:
            # lined up on it with no shot (none left, or out of sight round the bend): drive
            # into it, a ram (p52), rather than wait behind it; not when a wreck or an
            # obstacle stands between (seeded Game Eight target cars rammed their own wreck
            # again and again, backing off and coming on, to the turn limit)
            return A_ACCEL, min(_creep(V, v), max(cruise, 1))
    near = _blocked_ahead(T, M, NM, V, n, v, V[v, V_LANE], False, 1) \
        or _blocked_ahead(T, M, NM, V, n, v, V[v, V_LANE], False, 2)
    d = _drift_dir(T, M, NM, V, n, v, 0, st, script) if near else 0
    hunt = _hunts(T, TM, M, NM, V, n, v, hp)
    blocked, r = _route(T, M, NM, V, n, v, ROUTE_LOOK, hunt, st, script)
    if not blocked and straight and not V[v, V_BIKE]:
        r = _plan_before_curve(T, TM, M, NM, V, WS, n, v, 1, hp, st, script)
        blocked = r != 0
    if blocked and r != 0 and d == 0 and straight and not V[v, V_BIKE] \
            and not _reverse_clear(T, M, NM, V, n, v, r):
        span, out = _curve_ahead(T, TM, V, v, 1)
        if span > 0 and r != out \
                and _inward_reach(T, M, NM, V, n, v, r, span + CURVE_PLAN, hunt) < 0:
            # on the straight's last space before a curve whose inside the way round lies on,
            # the reverse with the drift (below) shut behind it and no other drifts landing
            # on the straight: for this car the road is shut. Moving off only brought it nose
            # to the block on the curve, to back off it and come on again (seeded Game Eight
            # intercept 4911 and Game Seven 2444, to the turn limit)
            r = 0
    if (near or blocked) and (r != 0 or d != 0) and not V[v, V_BIKE] \
            and _backed_from(V, v) > 0 and _foe_not_ahead(T, V, n, v) \
            and _weave_shut_at(T, TM, M, NM, V, n, v):
        # strips staggered across the road that want more drifts than the spaces between
        # them give (p13): the way round is no way, and backing off to come on again only
        # brought the car to the same strip (seeded Game Eight intercept 453's last target,
        # nose to a strip on the left lanes with one on the right the space before, backed off
        # and came on for twenty turns): for this car the road is shut, and with an enemy
        # behind within reach it turns towards it, as before a road shut edge to edge. With
        # none, it backs and fills as before: waiting there, the enemy ahead stopped too,
        # only repeated the position (seeded intercept 559 and seven others, at turn 5 or 6).
        # Asked only back at a place it has backed off from already (the way round it saw
        # then led here again): the search is dear, and most stops before a block are first
        e, g = _nearest_enemy(T, V, n, v, True, st, script)
        if e >= 0 and not _beyond_shut_road(T, M, NM, V, n, v, True, hunt, st, script):
            act, arg = _turn_back(T, TM, M, NM, V, n, v)
            if act >= 0:
                return act, arg
    if blocked and r == 0 and d == 0:
        # the road is shut from edge to edge (obstacles on both sides, p76)
        e, g = _nearest_enemy(T, V, n, v, True, st, script)
        if e < 0 or _beyond_shut_road(T, M, NM, V, n, v, True, hunt, st, script):
            # turning round helps only to reach an enemy behind (outrunning those ahead is
            # above); walled in both ways, nothing can
            if slot >= 0:
                return A_SHOOT, slot
            if hunt and not near and _stranded_ahead(T, V, n, v):
                # no one lane pair runs clear past the block, but a way may weave through
                # it a drift a move (p13), which the moving driver takes space by space
                # (_drift_dir), and up at the block a shot over an obstacle may open (p26):
                # come up to it slowly, as a car lines up (seeded Game Eight intercept 564:
                # the attacker waited for ever behind a wreck and two obstacle strips, the
                # last target stranded past them; moved off, it wove through and won)
                return A_ACCEL, min(_creep(V, v), max(cruise, 1))
            return A_NONE, 0
        act, arg = _turn_back(T, TM, M, NM, V, n, v)
        if act >= 0:
            return act, arg
        # shut in front and behind (backing into a block is a ram every turn, p57): wait
        if slot >= 0:
            return A_SHOOT, slot
        return A_NONE, 0
    if blocked and r != 0 and d == 0 and not V[v, V_BIKE] and not straight \
            and not _drift_legal(T, V, v, r):
        # the way round is on the inside of the curve it is on (drifts go outwards only, p13):
        # back off the curve first (on a straight before a curve: the reverse with a drift
        # below)
        if _reverse_clear(T, M, NM, V, n, v, 0):
            return A_REVERSE, 0
        # shut in behind too (p57): moving off would only bring it nose to the block again,
        # to back off and come on while the way behind opens and shuts (seeded gang pursues
        # 23: the Op between an obstacle past a bend and a gang bike stopped behind it)
        if slot >= 0:
            return A_SHOOT, slot
        return A_NONE, 0
    if blocked and r != 0 and d == 0 and not V[v, V_BIKE] and straight:
        nsec, nsp = RD.step_space(T, V[v, V_SEC], V[v, V_LANE], V[v, V_SP], V[v, V_DIR])
        t = T[nsec, RD.T_DIR] if nsec >= 0 else 0
        if nsec >= 0 and T[nsec, RD.T_KIND] != RD.STRAIGHT and t != 0 \
                and r != (1 if t < 0 else -1):
            # moving off, the straight move would put it on a curve where the way round is
            # inwards and the drift is refused (p13): take the drift here, reversing (p17;
            # seeded Game Eight cars came on, rammed the obstacle, backed off, to the turn
            # limit); not into a block behind
            if _reverse_may_drift(T, V, v) and _reverse_clear(T, M, NM, V, n, v, r):
                return A_REVERSE, r
    if near:
        if V[v, V_BIKE]:
            if slot >= 0:
                return A_SHOOT, slot
            if d != 0:
                # riders may not reverse (p64): round the block by drifting as the bike moves
                # off (p15; seeded Game Eight bikes waited nose to an obstacle for ever)
                up = min(V[v, V_ACC], V[v, V_MAXSPD], max(cruise, 1))
                if 0 < want < up:
                    up = want
                return A_OFF_DRIFT, d * up
            d = _drift_to_stranded(T, M, NM, V, n, v, True, st, script)
            if d != 0:
                # the stranded enemy will not clear the way, hunted or not: come up beside or
                # behind it where it is in sight, slowly, as a car lines up (seeded gang pursues
                # riders waited on a bend behind the stranded Op, out of sight round it, until
                # the position repeated); one that means to leave it behind (p75) starts its
                # way past it there (seeded gang pursues 3185 and 4304 waited two spaces
                # behind it, counting it left behind, until the position repeated)
                return A_OFF_DRIFT, d * _creep(V, v)
            if _fixed_in_way(T, M, NM, V, n, v) \
                    and not _blocked_ahead(T, M, NM, V, n, v, V[v, V_LANE], False, 1):
                # the straight move comes first (p13): only with its own next space clear
                d = _drift_past(T, M, NM, V, n, v, st, script)
                if d == 0:
                    d = _drift_to_stranded(T, M, NM, V, n, v, False, st, script)
                if d != 0:
                    # no lanes beside the block free of hazards too, but some free of vehicles
                    # and obstacles: over the sand or oil (a hazard roll) rather than wait for
                    # ever behind what will never move (seeded gang pursues 25 and 2337:
                    # riders nose to the stranded Op or an obstacle, sand in the lanes beside,
                    # waited until the position repeated), slowly, as above
                    return A_OFF_DRIFT, d * _creep(V, v)
            return A_NONE, 0   # no lane to drift into; the way may clear
        if d != 0 and not _blocked_ahead(T, M, NM, V, n, v, V[v, V_LANE], False, 1):
            # the straight move is clear and so are the lanes beside the block: moving off
            # with a drift (p15) goes round it at once, where a reverse gave up a space and a
            # turn (a stopped chase car with nothing to shoot backed off and came on again)
            nsec, nsp = RD.step_space(T, V[v, V_SEC], V[v, V_LANE], V[v, V_SP], V[v, V_DIR])
            t = T[nsec, RD.T_DIR] if nsec >= 0 else 0
            if nsec >= 0 and (t == 0 or d == (1 if t < 0 else -1)):
                up = min(V[v, V_ACC], V[v, V_MAXSPD], max(cruise, 1))
                if 0 < want < up:
                    up = want
                return A_OFF_DRIFT, d * up
        # no clear lane beside it, or the block in the very next space (the straight move
        # comes first, p13): back off a lane towards the nearest clear lanes (else the wider
        # side of the road) each turn until one is clear
        if d == 0 and straight and not _reverse_may_drift(T, V, v):
            # the reverse would end on a curve, where it may not drift (p17): backing straight
            # is a run-up for one drift round the block, and no lane beside it is clear for one
            # drift; the car would only come on to the same block again (seeded gang pursues
            # 2055: the Op, turned round, nose to the wreck of the rider it had shot, backed
            # onto the bend behind it and came on again three times)
            if slot >= 0:
                return A_SHOOT, slot
            return A_NONE, 0
        if d == 0:
            d = r
        if d == 0 and not straight:
            # on a curve a reverse may not drift (p17) and nothing plans a way round from
            # further back: backing straight off only brings the car on in the same lanes to
            # the same block (seeded Game Eight intercept 627's turn-to-face attacker, on a
            # bend beside a stopped target shut in by a strip and a wreck, backed off and came
            # on ten times)
            if slot >= 0:
                return A_SHOOT, slot
            return A_NONE, 0
        if not _reverse_may_drift(T, V, v):
            # a reverse may not drift where it starts or ends on a curve (p17): it backs
            # straight, a run-up to the drift round the block once moving (the drivers used to
            # declare the drift and have the engine refuse it)
            d = 0
        elif d == 0:
            d = -1 if V[v, V_LANE] > 2 else 1
            if V[v, V_LANE] == 2:   # the middle: neither side is wider, the dice choose
                d = -1 if _pick(st, script, 2) == 0 else 1
        if d != 0 and not _reverse_clear(T, M, NM, V, n, v, d):
            d = 0
        if not _reverse_clear(T, M, NM, V, n, v, d):
            # the way back is shut as well: backing into it is a ram every turn (p57); wait
            if slot >= 0:
                return A_SHOOT, slot
            return A_NONE, 0
        return A_REVERSE, d
    up = min(V[v, V_ACC], V[v, V_MAXSPD], max(cruise, 1))
    if 0 < want < up:
        up = want
    if straight and not V[v, V_BIKE]:
        p = _plan_before_curve(T, TM, M, NM, V, WS, n, v, ROUTE_LOOK, hp, st, script)
        if p != 0 and _straight_before(T, V, v, 1) == 1 \
                and not _blocked_ahead(T, M, NM, V, n, v, V[v, V_LANE], False, 1) \
                and not _blocked_ahead(T, M, NM, V, n, v, V[v, V_LANE] + p, True, 1):
            # the way past a curve ahead needs an inward drift, which must land on the
            # straight (p13): take it as the car moves off (p15), as a moving driver would
            # (decide), rather than move off straight onto the straight's last space, from
            # where the drift lands on the curve and is refused (seeded Game Eight intercept
            # 874: the attacker drifted off the debris on the bend's inside lanes into lanes
            # an obstacle past the bend shuts, braked, backed off and came on, to the turn
            # limit)
            return A_OFF_DRIFT, p * up
    return A_ACCEL, up


# --- bikes and gang tactics (p62-72) ------------------------------------------------------------
@jit
def _marker_in_lane(T, M, NM, V, v, lane):
    """A passive or road hazard (not smoke, not an obstacle) on one lane of the next space."""
    sec = V[v, V_SEC]
    sp = V[v, V_SP] + 1
    if sp >= RD.pair_spaces(T, sec, V[v, V_LANE]):
        sec += 1
        sp = 0
    if sec >= TM_LIMIT:
        return False
    xlo = RD.rear_x(T, sec, V[v, V_LANE], sp)
    xhi = RD.front_x(T, sec, V[v, V_LANE], sp)
    for i in range(NM[0]):
        k = M[i, RD.MK_KIND]
        if M[i, RD.MK_ACTIVE] and k != RD.SMOKE and k != RD.OBSTACLE \
                and M[i, RD.MK_LLO] <= lane <= M[i, RD.MK_LHI] \
                and M[i, RD.MK_XLO] < xhi and xlo < M[i, RD.MK_XHI]:
            return True
    return False


@jit
def _car_behind(T, V, n, v, spaces):
    """An enemy car (not a bike) behind within ``spaces`` in lanes shared with the bike, or
    level in the lanes beside it (its ram or sideswipe range); its lane, or -1."""
    lo = V[v, V_LANE]
    rx = v_rear(T, V, v)
    fx = v_front(T, V, v)
    for u in range(n):
        if u == v or V[u, V_STATUS] != ACTIVE or V[u, V_SIDE] == V[v, V_SIDE] or V[u, V_BIKE]:
            continue
        a, b = lanes_of(V, u)
        uf = v_front(T, V, u)
        ur = v_rear(T, V, u)
        if uf <= rx and not (b < lo or a > lo + 1):
            if RD.along(T, lo, uf, rx) // RD.UNITS < spaces:
                return V[u, V_LANE]
        elif ur < fx and rx < uf and (a == lo + 2 or b == lo - 1):
            return V[u, V_LANE]
    return -1


@jit
def _bike_swipe_dir(T, V, n, v):
    """An enemy bike, upright and level, whose zone overlaps the rider's (p70: bikes sideswipe
    only bikes going their way with overlapping zones): the side it is on, or 0."""
    lo = V[v, V_LANE]
    for u in range(n):
        if u == v or V[u, V_STATUS] != ACTIVE or V[u, V_SIDE] == V[v, V_SIDE] \
                or V[u, V_BIKE] == 0 or V[u, V_FALLEN] or V[u, V_DIR] != V[v, V_DIR]:
            continue
        if V[u, V_LANE] == lo or abs(V[u, V_LANE] - lo) > 1:
            continue
        if v_rear(T, V, u) < v_front(T, V, v) + RD.UNITS and v_rear(T, V, v) < v_front(T, V, u):
            return 1 if V[u, V_LANE] > lo else -1
    return 0


STRIP_LEN = 6   # spaces of a strip walked past its first (p76: three markers to a side of a
                # straight, the rest carried on to the next section): how far a dodge plan
                # checks that every space of it leaves the rider a lane
A_HOLD = -2     # _strip_plan: keep the lanes and speed (a shot or passive may stand)


@jit
def _dodge_side(T, M, NM, V, n, v, p, k):
    """For a rider on lane pair ``p``, what stands ``k`` spaces ahead (counted along its own
    lanes): 0 nothing (no obstacle, stopped vehicle or wreck), -1 or +1 the dodge that squeezes
    past an obstacle on the pair's other lane (a dodge's zone is its left or right lane, p64),
    2 no dodge does (obstacles on both lanes, or a stopped vehicle or wreck: 'They can't dodge
    other vehicles', p64)."""
    if p < 0 or p > 4:
        return 2
    sec, sp = _space_ahead(T, V, v, V[v, V_LANE], k)
    if sec < 0:
        return 0
    xlo = RD.rear_x(T, sec, V[v, V_LANE], sp)
    xhi = RD.front_x(T, sec, V[v, V_LANE], sp)
    if _stopped_on(T, V, n, v, p, xlo, xhi, False):
        return 2
    left = False
    right = False
    for i in range(NM[0]):
        if M[i, RD.MK_ACTIVE] and M[i, RD.MK_KIND] == RD.OBSTACLE:
            left = left or marker_over(M, i, p, p, xlo, xhi)
            right = right or marker_over(M, i, p + 1, p + 1, xlo, xhi)
    if left and right:
        return 2
    if left:
        return 1
    if right:
        return -1
    return 0


@jit
def _dodges_through(T, M, NM, V, n, v, p, kb):
    """Can a rider on pair ``p`` dodge through the block ``kb`` spaces ahead, a lane left to it
    in every space of the strip (:func:`_dodge_side`), with no block before it on that pair?"""
    if kb > 1 and not _pair_clear(T, M, NM, V, n, v, p, kb - 1, False):
        return False
    for k in range(kb, kb + STRIP_LEN + 1):
        d = _dodge_side(T, M, NM, V, n, v, p, k)
        if d == 2:
            return False
        if d == 0:
            return k > kb
    return True


@jit
def _strip_plan(T, TM, M, NM, V, n, v, mph, brk, hp, par, st, script):
    """A rider's plan for a block in its lanes that it has too few moves to drift round (one
    drift a move, p13; :func:`_route` finds no clear pair that near) but can dodge through, a
    lane left to it in every space (p62: 'Bikes are allowed to dodge around obstacles'; p64;
    variant dodge_obstacles; parameter ``P_STRIPDODGE``): (A_DODGE, side) on the move into it; before that the drifts to
    the nearest pair it can dodge through from (the dice's side between equals), and the
    brakes, as late and as little as the moves left allow, to ``P_DODGEP`` mph, the speed it
    dodges at (p64: a hazard over 40mph); otherwise it holds its lanes and speed (A_HOLD).
    (-1, 0): no such block, a clear pair in reach, or no dodge through. A rider that brakes to
    a stop short of the strip stays there, as it may not reverse (p64): the planned dodge
    keeps it moving. Too fast for the dodge when it gets there, it dodges still (its hazard
    roll against a ram, which is a crash, p70-72)."""
    tgt = par[P_DODGEP]
    if par[P_STRIPDODGE] == 0 or tgt <= 0 or hp[HP_DODGE_OBST] == 0 or mph <= 0:
        return -1, 0
    look = ROUTE_LOOK
    if mph > tgt:
        look = max(look, 2 + (mph - tgt + brk - 1) // brk)
    kb = _first_static(T, M, NM, V, n, v, look)
    if kb == 0:
        return -1, 0
    lane = V[v, V_LANE]
    hunt = _hunts(T, TM, M, NM, V, n, v, hp)
    for dist in range(0, kb):
        for dd in (-1, 1):
            p = lane + dd * dist
            if 0 <= p <= 4 and (dist == 0 or _drift_legal(T, V, v, dd)) \
                    and _pair_clear(T, M, NM, V, n, v, p, kb, hunt):
                return -1, 0   # the route drifts round (decide)
    pd = -1
    go = 0
    for dist in range(0, kb):
        left = dist > 0 and lane - dist >= 0 and _drift_legal(T, V, v, -1) \
            and _dodges_through(T, M, NM, V, n, v, lane - dist, kb)
        right = dist > 0 and lane + dist <= 4 and _drift_legal(T, V, v, 1) \
            and _dodges_through(T, M, NM, V, n, v, lane + dist, kb)
        if dist == 0 and _dodges_through(T, M, NM, V, n, v, lane, kb):
            pd = 0
        elif left and right:
            pd, go = dist, -1 if _pick(st, script, 2) == 0 else 1
        elif left:
            pd, go = dist, -1
        elif right:
            pd, go = dist, 1
        if pd >= 0:
            break
    if pd < 0:
        return -1, 0
    if kb == 1:
        if pd > 0:
            return -1, 0
        return A_DODGE, _dodge_side(T, M, NM, V, n, v, lane, 1)
    nb = 0
    if mph > tgt:
        nb = (mph - tgt + brk - 1) // brk
    spare = kb - 2 - pd   # the moves after this one left for brakes
    if nb > spare and pd < kb - 1:
        return A_BRAKE, min(brk, mph - tgt - max(spare, 0) * brk)
    if pd > 0:
        if _blocked_ahead(T, M, NM, V, n, v, lane + go, False, 1):
            return A_HOLD, 0   # the landing space is held: the drift waits a move
        return A_DRIFT, go
    return A_HOLD, 0


@jit
def _foe_in_play(V, n, v):
    """Is any enemy of ``v`` still in play?"""
    for u in range(n):
        if V[u, V_STATUS] == ACTIVE and V[u, V_SIDE] != V[v, V_SIDE]:
            return True
    return False


@jit
def _shut_in_rider(T, M, NM, V, n, v):
    """Is a stopped rider that its driver would leave waiting (no shot, no way round found on
    moving off, :func:`_move_off`) nose to a block: a vehicle, a wreck or an obstacle in its
    next space or the one after? The straight move comes first (p13), so no drift on moving off
    gets it round a block in the next space, a rider may not reverse (p64) and may not dodge a
    vehicle or a wreck (p64: 'They can't dodge other vehicles'); waiting, it stays there for
    good. It may move off the other way in its own square (p64), when the space behind it is
    clear (else the move back would be a ram) and an enemy is still in play."""
    if not V[v, V_BIKE] or V[v, V_MPH] != 0 or V[v, V_ENGOFF] or V[v, V_FALLEN] \
            or V[v, V_ACC] <= 0 or V[v, V_MAXSPD] <= 0:
        return False
    lane = V[v, V_LANE]
    if not (_blocked_ahead(T, M, NM, V, n, v, lane, False, 1)
            or _blocked_ahead(T, M, NM, V, n, v, lane, False, 2)):
        return False
    return _foe_in_play(V, n, v) and _reverse_clear(T, M, NM, V, n, v, 0)


@jit
def _vehicle_ahead(T, V, n, v, ahead):
    """The vehicle in the rider's own lane pair ``ahead`` spaces in front, or -1 (as
    :func:`_blocked_ahead`, without the markers)."""
    d = 1 if V[v, V_DIR] != 0 else 0
    sec = V[v, V_SEC]
    sp = V[v, V_SP]
    lane = V[v, V_LANE]
    for _ in range(ahead):
        sec, sp = RD.step_space(T, sec, lane, sp, d)
        if sec < 0:
            return -1
    if d == 0 and sec >= TM_LIMIT:
        return -1
    sp = min(sp, RD.pair_spaces(T, sec, lane) - 1)
    return zone_hits(T, V, n, v, sec, lane, lane + 1, RD.rear_x(T, sec, lane, sp),
                     RD.front_x(T, sec, lane, sp))


@jit
def _queued_behind(T, M, NM, V, WS, n, v, hp, tbuf, least):
    """Is the stopped rider queued behind a team-mate that holds the only line of fire: the
    block in its next space or the one after a stopped team-mate with a shot at an enemy
    stopped for good (p25-26), and no lane pair sharing a lane with that enemy clear of the
    team-mate's lanes? In a corridor the closest vehicle is the target, a team-mate in it
    blocks the shot (p25: 'a friendly vehicle partly obscuring the fire corridor will
    effectively block out the real targets'), and a bike's corridor is the two lanes ahead of
    it (p64), so every place with a shot of its own lies past the team-mate in its corridor,
    only taking its shot away: one shot a turn either way. Then the rider waits where it
    is to take over, rather than turn round (p64: a space a turn at 20mph at most) and come
    back to the same place (seeded gang pursues 3076, 4704, to the turn limit)."""
    w = v
    for _ in range(n):
        u = _vehicle_ahead(T, V, n, w, 1)
        if u < 0:
            u = _vehicle_ahead(T, V, n, w, 2)
        if u < 0 or u == v or V[u, V_SIDE] != V[v, V_SIDE] or V[u, V_STATUS] != ACTIVE \
                or V[u, V_MPH] != 0 or V[u, V_DIR] != V[v, V_DIR]:
            return False
        slot, e, val, h, ties = _shot_core(T, M, NM, V, WS, n, u, hp, tbuf, least, 0)
        if slot < 0:
            # a team-mate queued itself, waiting on the one ahead of it: look past it (a
            # third rider behind two used to turn round and come back as well, 3076)
            w = u
            continue
        if V[e, V_SIDE] == V[v, V_SIDE] or V[e, V_STATUS] != ACTIVE or not _stuck(V, e):
            return False
        a, b = lanes_of(V, e)
        lo, hi = lanes_of(V, u)
        for p in range(max(a - 1, 0), min(b, 4) + 1):
            if p + 1 < lo or p > hi:
                return False   # a pair of its own beside the team-mate's (old run-up)
        return True
    return False


@jit
def _run_up_drift(T, M, NM, V, n, v, st, script):
    """For a rider going away from the enemy, to turn back towards it: a drift (-1, +1) to
    take first, or 0 (none needed or none possible). Where its own lanes back towards the enemy
    are blocked within ``ROUTE_LOOK`` spaces (a wreck, an obstacle, a stopped vehicle short of
    a stopped enemy, :func:`_pair_clear`) and another pair within two drifts is clear, turning
    back would only bring it nose to the block it turned round from; the drift towards the
    nearest clear pair (the dice's side between equals) comes first, where it lands clear."""
    lane = V[v, V_LANE]
    d0 = V[v, V_DIR]
    V[v, V_DIR] = 1 - d0          # look back towards the enemy (restored below)
    go = 0
    if not _pair_clear(T, M, NM, V, n, v, lane, ROUTE_LOOK, True):
        for dist in range(1, 3):
            left = lane - dist >= 0 and _pair_clear(T, M, NM, V, n, v, lane - dist, ROUTE_LOOK,
                                                    True)
            right = lane + dist <= 4 and _pair_clear(T, M, NM, V, n, v, lane + dist,
                                                     ROUTE_LOOK, True)
            if left or right:
                if left and right:
                    go = -1 if _pick(st, script, 2) == 0 else 1
                else:
                    go = -1 if left else 1
                break
    V[v, V_DIR] = d0
    if go != 0 and _drift_legal(T, V, v, go) \
            and not _blocked_ahead(T, M, NM, V, n, v, lane + go, True, 1):
        return go
    return 0


@jit
def _shot_from(T, M, NM, V, WS, n, v, hp, tbuf, least, sec, sp):
    """Would the rider have a shot at an enemy in play from space ``sec``, ``sp`` of its lanes
    (p25-26)? It is put back."""
    s0 = V[v, V_SEC]
    p0 = V[v, V_SP]
    V[v, V_SEC] = sec
    V[v, V_SP] = sp
    slot, u, val, h, ties = _shot_core(T, M, NM, V, WS, n, v, hp, tbuf, least, 0)
    V[v, V_SEC] = s0
    V[v, V_SP] = p0
    return slot >= 0 and V[u, V_SIDE] != V[v, V_SIDE] and V[u, V_STATUS] == ACTIVE


@jit
def _stops_with_shot(T, TM, M, NM, V, WS, n, v, hp, par, tbuf):
    """Should a rolling rider, every enemy in play stopped for good (:func:`_stuck`), brake to
    a stop now? The move comes before the brake (p16), so it stops one space straight on: yes
    where it has a shot from there at one of them (in line within range, the corridor clear,
    p25-26) and none a space further on, or that space is held: the last place in line. Not
    where that space is off the track laid (p75) or held (a ram, p57), or the brake cannot
    stop it this move."""
    mph = V[v, V_MPH]
    if mph <= 0 or mph > max(V[v, V_BRK], 1):
        return False
    foe = False
    for u in range(n):
        if u != v and V[u, V_STATUS] == ACTIVE and V[u, V_SIDE] != V[v, V_SIDE]:
            if not _stuck(V, u):
                return False
            foe = True
    lane = V[v, V_LANE]
    if not foe or _blocked_ahead(T, M, NM, V, n, v, lane, False, 1):
        return False
    fwd = 1 if V[v, V_DIR] != 0 else 0
    sec, sp = RD.step_space(T, V[v, V_SEC], lane, V[v, V_SP], fwd)
    if sec < TM[RD.TM_FIRST] or sec >= TM[RD.TM_NSEC]:
        return False
    if not _shot_from(T, M, NM, V, WS, n, v, hp, tbuf, par[P_SHOOT], sec, sp):
        return False
    # the shot still there a space on: come on closer (a hit needs the die to reach the
    # range, p25-26; riders stopped at ranges of 6 to 9 did not finish a stranded Op in the
    # turns left, seeded gang pursues 1393, 1634)
    if _blocked_ahead(T, M, NM, V, n, v, lane, False, 2):
        return True
    sec, sp = RD.step_space(T, sec, lane, sp, fwd)
    return not (TM[RD.TM_FIRST] <= sec < TM[RD.TM_NSEC]
                and _shot_from(T, M, NM, V, WS, n, v, hp, tbuf, par[P_SHOOT], sec, sp))


@jit
def bike_decide(B, T, V, WS, n, v, moves, hp, par, act, arg, st, script):
    """A rider's action: the driver's choice from :func:`decide`, then the gang tactics and the
    bike's own rules (no sideswipes against cars, no reversing, dodges, p64-70). ``B``, ``T``,
    ``WS``, ``hp``: as :func:`decide`."""
    if act == A_SWIPE:
        act, arg = A_NONE, 0   # riders sideswipe only bikes (below)
    if act == A_REVERSE:
        act, arg = A_NONE, 0   # riders may not reverse (p64)
    TM = B[B_TM:B_TM_END]
    M = B[B_M:B_M_END].reshape((RD.MAXM, RD.MK_W))
    NM = B[B_NM:B_NM_END]
    if not moves:
        if act == A_NONE and _shut_in_rider(T, M, NM, V, n, v) \
                and not _tried_enough(V, v, par) \
                and not _queued_behind(T, M, NM, V, WS, n, v, hp,
                                       B[B_K + K_TBUF:B_K + K_TBUF_END], par[P_SHOOT]):
            # nose to a block it can never pass with nothing to shoot: turn round in its
            # square (p64) for a run-up round it (_run_up_drift, then the U-turn back, p14)
            # rather than wait for good (seeded gang pursues: riders stopped behind their own
            # side's wreck, the stopped Op beyond it, until the position repeated). Not from a
            # place it has turned round from P_BACKOFFS times: the run-ups led back to it (the
            # engine remembers a turn-round as a car's reverse; seeded gang pursues 2372, 2799,
            # 4604, session 32: the last rider behind or beside the stranded Op, the way past it
            # shut, turned round, came back and turned round again, still going at turn 200)
            return A_TURN_ROUND, _turn_round_mph(V, v)
        if act == A_NONE and _plan_standoff(B, T, V, WS, n, v, hp, par, st, script):
            # waiting would only repeat the position: drive to a place with a shot the enemy
            # cannot answer, with a rider's moves (seeded gang pursues 1934: the last rider
            # stopped beside the stranded Op, neither with a shot, to a repeat)
            a, g = _follow_plan(B, T, V, WS, n, v, moves, hp, par, st, script)
            if a >= 0:
                return a, g
        return act, arg
    lane = V[v, V_LANE]
    mph = V[v, V_MPH]
    if V[v, V_GOAL] != 0 and mph <= PLAN_MPH:
        return act, arg   # the stand-off plan's step (decide, _follow_plan): searched as taken
    if act != A_BRAKE and _stops_with_shot(T, TM, M, NM, V, WS, n, v, hp, par,
                                           B[B_K + K_TBUF:B_K + K_TBUF_END]):
        # every enemy stopped for good: stop at the last place in line for a shot and shoot
        # every phase from there, rather than steer round the enemy as round any block and
        # ride on beside or past it with none: its guns fixed forward (p64) and no reverse
        # (p64), a rider past the enemy came back only by a run-up and a turn round (seeded
        # gang pursues 897, 2358: round a stranded Op to the turn limit). Not for an enemy
        # only waiting: riders held behind a waiting Op they used to pass drew more games
        return A_BRAKE, mph
    # a strip it cannot drift round in time but can dodge through: the plan's drift, brake or
    # dodge before the rest (the route's drift towards a pair out of reach, or decide's brake
    # to a stop short of it, left riders ramming or stopped for good, p64)
    pa, pg = _strip_plan(T, TM, M, NM, V, n, v, mph, max(V[v, V_BRK], 1), hp, par, st, script)
    if pa == A_HOLD:
        if act == A_BRAKE:
            # decide's brake, down to the speed of the dodge or of a curve before it but not
            # to a stop short of the strip (decide brakes hard for a block two spaces off,
            # and a rider stopped there may not reverse, p64)
            want, gap = curve_plan(T, TM, V, v, hp, par)
            floor = max(min(par[P_DODGEP], want), 5)
            if mph - arg < floor:
                arg = mph - floor
            if arg > 0:
                return act, arg
            return A_NONE, 0
        if act == A_SHOOT or act == A_PASSIVE or act == A_LOCK or act == A_DUMMY:
            return act, arg
        return A_NONE, 0
    if pa >= 0:
        return pa, pg
    if act == A_UTURN or ((act == A_NONE or act == A_ACCEL or act == A_DRIFT)
                          and V[v, V_DIR] != TM[RD.TM_PLAYDIR]
                          and _chases_behind(T, TM, M, NM, V, n, v, hp)):
        # going away from the fight, to turn back towards it (a U-turn, or turned round in
        # its square where it stops, _decide): first off the lanes that would bring it back
        # nose to the block it turned round from (a rider that turned round from its side's
        # wreck came back to it in the same lanes, to the turn limit), over the driver's own
        # drift too, which only steers round what lies on the way away from the fight (seeded
        # gang pursues 1393 drifted off oil into the lanes back to the wreck, to the limit)
        d = _run_up_drift(T, M, NM, V, n, v, st, script)
        if d != 0:
            return A_DRIFT, d
    if act == A_BRAKE:
        return act, arg
    # keep clear of a car that could ram it (a bike always comes off worse, p70)
    if par[P_RAMCLEAR] > 0 and act != A_SHOOT:
        cl = _car_behind(T, V, n, v, par[P_RAMCLEAR])
        if cl >= 0:
            d = _drift_dir(T, M, NM, V, n, v, 1 if cl <= lane else -1, st, script)
            if d != 0 and abs(lane + d - cl) > abs(lane - cl):
                return A_DRIFT, d
    # dodge a passive or road hazard in one of its two lanes (p64; 40mph safety limit)
    if par[P_DODGEP] > 0 and mph <= par[P_DODGEP]:
        left = _marker_in_lane(T, M, NM, V, v, lane)
        right = _marker_in_lane(T, M, NM, V, v, lane + 1)
        if left != right:
            return A_DODGE, 1 if left else -1
    if par[P_SWIPE]:
        d = _bike_swipe_dir(T, V, n, v)
        if d != 0 and act != A_SHOOT:
            return A_SWIPE, d
    # swarm: into the lanes beside the enemy car ahead
    if par[P_SWARM] > 0 and act != A_SHOOT and act != A_PASSIVE:
        u, g = _nearest_enemy(T, V, n, v, False, st, script)
        if u >= 0 and V[u, V_BIKE] == 0 and g <= par[P_SWARM]:
            a, b = lanes_of(V, u)
            want = b + 1 if b + 1 <= 3 else a - 2
            if a - 2 >= 0 and abs(a - 2 - lane) < abs(want - lane):
                want = a - 2
            if 0 <= want <= 4 and want != lane:
                d = _drift_dir(T, M, NM, V, n, v, 1 if want > lane else -1, st, script)
                if d != 0 and abs(lane + d - want) < abs(lane - want):
                    return A_DRIFT, d
    return act, arg


@jit
def _after_bend(T, V, v):
    """Spaces the car has come since the end of a bend behind it, or -1 (p14: 'a couple of
    spaces after a bend')."""
    sec = V[v, V_SEC]
    if T[sec, RD.T_KIND] != RD.STRAIGHT:
        return -1
    prev = sec - 1 if V[v, V_DIR] == 0 else sec + 1
    if prev < 0 or prev >= RD.MAXSEC or T[prev, RD.T_KIND] == RD.STRAIGHT:
        return -1
    if V[v, V_DIR] == 0:
        return V[v, V_SP]
    return RD.pair_spaces(T, sec, V[v, V_LANE]) - 1 - V[v, V_SP]


@jit
def decide_dir(B, V, WS, n, v, moves, hp, par, st, script):
    """The direction-of-travel driving of ``P_UTURN`` and ``P_HEADON``; (-1, 0) leaves the
    choice to :func:`decide`."""
    T = B[B_T:B_T_END].reshape((RD.MAXSEC, RD.T_W))
    TM = B[B_TM:B_TM_END]
    M = B[B_M:B_M_END].reshape((RD.MAXM, RD.MK_W))
    NM = B[B_NM:B_NM_END]
    tbuf = B[B_K + K_TBUF:B_K + K_TBUF_END]
    mph = V[v, V_MPH]
    brk = max(V[v, V_BRK], 1)
    lim = par[P_UTURN]
    if lim > 0 and mph == 0 and not moves and not V[v, V_ENGOFF] \
            and _blocked_ahead(T, M, NM, V, n, v, V[v, V_LANE], False, 1):
        # stopped nose to nose with a car, a wreck or an obstacle: back off (p17) unless a
        # shot is on, or the way back is shut too (seeded Game Eight intercept 4117: the
        # attacker reversed into an obstacle behind it every turn, twenty rams)
        slot, tg = best_shot(T, M, NM, V, WS, n, v, hp, par, tbuf)
        if slot < 0 and _reverse_clear(T, M, NM, V, n, v, 0):
            return A_REVERSE, 0
    if lim > 0:
        u, g = _nearest_enemy(T, V, n, v, True, st, script)
        a, ga = _nearest_enemy(T, V, n, v, False, st, script)
        turn = False
        # not towards an enemy out of reach (it would turn back and forth at a shut road),
        # nor back to enemies all stranded that driving on leaves behind (_hunts)
        if u >= 0 and a < 0 and not _leaves_behind(T, TM, M, NM, V, n, v, hp) \
                and not _beyond_shut_road(T, M, NM, V, n, v, True, _hunts(T, TM, M, NM, V, n, v, hp),
                                          st, script):
            if V[v, V_ROLE] == LEAD:
                k = _after_bend(T, V, v)
                turn = 0 <= k <= 2 and g >= 2
            else:
                # the enemy has gone past: turn round and chase it
                turn = V[u, V_DIR] != V[v, V_DIR] or V[u, V_MPH] == 0
        if turn:
            stationary = mph == 0 and not moves
            if (moves and mph <= lim) or stationary:
                s, _ = uturn_zone(T, TM, M, NM, V, n, v, False)
                if s >= 0:
                    if stationary:
                        if V[v, V_ENGOFF]:
                            return -1, 0
                        return A_UTURN, min(V[v, V_ACC], lim)
                    return A_UTURN, 0
            elif moves and mph > lim:
                return A_BRAKE, min(brk, mph - lim)
    if par[P_HEADON] > 0 and moves:
        u, g = _nearest_enemy(T, V, n, v, False, st, script)
        if u >= 0 and V[u, V_DIR] != V[v, V_DIR]:
            slot, tg, val, h = _choose_shot(T, M, NM, V, WS, n, v, hp, tbuf, par[P_SHOOT],
                                            st, script)
            if slot >= 0:
                return A_SHOOT, slot
            ul = V[u, V_LANE]
            mine = V[v, V_LANE]
            if ul != mine and g >= 3:
                d = 1 if ul > mine else -1
                if _drift_dir(T, M, NM, V, n, v, d, st, script) == d:
                    return A_DRIFT, d
            if abs(ul - mine) <= 1:
                return A_NONE, 0   # hold the line: the ram is the driver's choice (p17)
    return -1, 0


ONCOMING_LOOK = 6   # spaces: two cars at 60mph close about six spaces in a turn (a judgement)


@jit
def _dodge_oncoming(T, M, NM, V, n, v, par, st, script):
    """A drift (-1, +1) out of the lanes of the nearest car coming the other way within
    ``ONCOMING_LOOK`` spaces in front, or 0 (none, no room, or a head-on driver)."""
    if par[P_HEADON] > 0:
        return 0
    lane = V[v, V_LANE]
    best = ONCOMING_LOOK + 1
    who = -1
    for u in range(n):
        if u == v or V[u, V_STATUS] != ACTIVE or V[u, V_DIR] == V[v, V_DIR] or V[u, V_MPH] == 0:
            continue
        a, b = lanes_of(V, u)
        if b < lane or a > lane + 1:
            continue
        if V[v, V_DIR] == 0:
            fx = v_front(T, V, v)
            ur = v_rear(T, V, u)
            if ur < fx:
                continue
            g = RD.along(T, lane, fx, ur) // RD.UNITS
        else:
            nose = v_rear(T, V, v)
            uf = v_front(T, V, u)
            if uf > nose:
                continue
            g = RD.along(T, lane, uf, nose) // RD.UNITS
        if g < best:
            best = g
            who = u
    if who < 0:
        return 0
    # away from its lanes; level with it, towards the wider side of the road (in the middle
    # lanes neither side is wider: the dice's side, in _drift_dir)
    ul = V[who, V_LANE]
    if ul > lane:
        prefer = -1
    elif ul < lane:
        prefer = 1
    elif lane == 2:
        prefer = 0
    else:
        prefer = -1 if lane > 2 else 1
    d = _drift_dir(T, M, NM, V, n, v, prefer, st, script)
    if d == 0:
        return 0
    # not out of the car's way into a block it could no longer stop short of (an obstacle, a
    # wreck, a stopped vehicle: p57, p76): from its own lanes, clear that far, the car may
    # still brake or steer round the oncoming one; rammed, a block costs the rammer its own
    # speed factor in hits and does nothing to the enemy (seeded Game Eight intercept 1482:
    # a target at 80mph drifted out of the attacker's lanes towards a strip past a bend and
    # rammed it at 80mph). A drift the other way only takes it further into the oncoming
    # car's lanes: it holds its own.
    stop = _stop_spaces(V[v, V_MPH], max(V[v, V_BRK], 1))
    if _pair_clear(T, M, NM, V, n, v, lane + d, stop, False) \
            or not _pair_clear(T, M, NM, V, n, v, lane, stop, False):
        return d
    return 0
