"""The car state layout shared by the compiled derby (``engine``) and the drivers
(``policies``): named columns of the per-car state, card lights and effects, the rule
switches of the limits vector (``limits_vector``), the event codes of the log, and the few
board readings both make (blocking terrain, point of impact, hex centres)."""

from __future__ import annotations

import numpy as np

from ...core._numba import jit
from . import arena as A
from ..rules import (FRONT, FRONT_LEFT, FRONT_RIGHT, REAR, REAR_LEFT, REAR_RIGHT, Tables,
                     rules_data)

# --- car state columns -------------------------------------------------------------------------
(C_ROW, C_COL, C_FACING, C_SPEED, C_DIR, C_ALIVE, C_OUT, C_RADT, C_STUCK, C_NOCRASH, C_HIT,
 C_MOVED, C_LOCKED, C_CRASHED, C_PLDIR, C_PLSPEED, C_LEFT, C_STRAIGHT, C_MODE, C_TARGET,
 C_LAPK, C_LAPSGN, C_LAPST, C_FIN, C_OUTRND, C_SPOT, C_RANK) = range(27)
N_CAR = 27
#: cars[i, C_RANK]: the car's seat in the event's rolled order (0 first). It is the seating
#: round the table (turn order runs clockwise over it from the starting player) and the
#: tie-break order: any choice among equals (equally near rivals, equally weak targets) goes to
#: the lower rank, never to the lower index. ``play_event`` draws it as a uniform permutation
#: from the trial's dice stream; ``setup`` leaves rank = index, which only scripted positions
#: and ``DerbyGame`` use (DESIGN.md "Ties never follow list order").
MAX_HELD = 8

OUT_REASONS = ("in_game", "wrecked", "stalled", "left_by_ramp", "disqualified", "red_card")
R_NONE, R_WRECKED, R_STALLED, R_LEFT, R_DQ, R_RED = range(6)

# card lights and effects (indices of rules.LIGHTS / rules.EFFECTS)
L_GREEN, L_RED = 1, 2
E_NONE, E_NO_MOVE, E_STRAIGHT, E_FORWARD_ONLY, E_FENDERS, E_SKIP, E_MAX_SPEED = range(7)

# limits vector
(LIM_ACC_F, LIM_ACC_R, LIM_COLL_F, LIM_COLL_R, LIM_FLAT, LIM_RAD_TURNS, LIM_NO_CRASH,
 LIM_MAX_TURNS, LIM_OBST_MOD, LIM_SAME_COL, LIM_FIRST_ROUND, LIM_VECTOR, LIM_PHASED,
 LIM_LAPS, LIM_CRASHES, LIM_DQ, LIM_ROUND0, LIM_PA_R, LIM_PA_C, LIM_PB_R, LIM_PB_C) = range(21)
N_LIM = 21

# log events: (round, car, event, a, b)
(EV_MOVE, EV_CRASH, EV_OBSTACLE, EV_STUCK, EV_FREE, EV_OUT, EV_CARD, EV_BLOCKED, EV_LAP, EV_PLOT,
 EV_DAMAGE) = range(11)
EVENTS = ("move", "crash", "obstacle", "stuck", "free", "out", "card", "blocked", "lap", "plot",
          "damage")

#: the target's point of impact by the hexside (relative to its facing) the rammer comes through
_SIDE_TO_IMPACT = np.array([FRONT, FRONT_RIGHT, REAR_RIGHT, REAR, REAR_LEFT, FRONT_LEFT],
                           np.int64)


def limits_vector(tables: Tables, arena=None, *, laps: int = 0, crashes: bool = True,
                  dq: bool = True) -> np.ndarray:
    """Rule switches and limits for the kernels; ``laps`` > 0 makes the game a Figure-8 race."""
    lim = tables.limits
    obst = int(rules_data().table("obstacle_crash")["roll_modifier"])
    (ar, ac), (br, bc) = arena.poles() if arena is not None else ((0, 0), (0, 0))
    return np.array([lim["accelerate_forward"], lim["accelerate_reverse"],
                     lim["collision_forward"], lim["collision_reverse"],
                     lim["flat_tire_penalty"], lim["radiator_turns"],
                     lim["rounds_without_crash"], lim["max_turns"], obst,
                     1 if tables.rammer_same_column else 0,
                     1 if lim["first_round_no_crash"] else 0,
                     1 if tables.vector_collisions else 0,
                     1 if tables.phased_moves else 0,
                     laps, 1 if crashes else 0, 1 if dq else 0, 0, ar, ac, br, bc], np.int64)


@jit
def _blocking(ter):
    return ter == A.WALL or ter == A.POLE or ter == A.F8_POLE


@jit
def _impact_from(o, row, col, cars):
    """The point of impact on car ``o`` of a car entering its hex from (row, col)."""
    side = 0
    for f in range(6):
        ar, ac = A.neighbour(cars[o, C_ROW], cars[o, C_COL], f)
        if ar == row and ac == col:
            side = f
    return _SIDE_TO_IMPACT[(side - cars[o, C_FACING]) % 6]


# --- hex centres (the lap counting and the race drivers measure from them) -----------------
SQRT3 = np.sqrt(3.0)


@jit
def _centre(row, col):
    return 1.5 * col, -SQRT3 * (row + 0.5 * (col & 1))
