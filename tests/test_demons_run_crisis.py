"""210 C System Crises inside the compiled race: when a crisis takes effect (a-b), what each
result does to the ship's Turn, and contradictions (c). The dice procedures that roll the
crises are held to the exact oracle elsewhere (test_demons_run_hazards); here the crisis is
handed to the race's bookkeeping (``engine._after``) as a hazard procedure reports it, and
the ship's allocation and move are the compiled ones."""

import numpy as np

from simkit.core import dice
from simkit.demons_run import engine as RK
from simkit.demons_run.pieces.board import DIRECTIONS, neighbour
from simkit.demons_run.pieces.layout import (A_LASER, A_ME, A_SCR, A_SCREENS, A_TRACTOR,
                                             V_COL, V_CR_NEXT, V_CR_NOW, V_FACING, V_MOVED,
                                             V_ROW, V_VEL)
from simkit.demons_run.procedures import kernels as K
from simkit.demons_run.rules import FUEL, PI
from simkit.demons_run.scenario import RaceSim, load_scenario, position

from test_demons_run_race import DUEL, _kernel_position

NO_TURNING, NO_ACC, FAILURE, MUST_ACC = 5, 6, 7, 10      # 2d6 results (RULE-TEXT table)
TURN = 2


def _ready(facing, velocity=3, seed=3):
    """The worked ship mid-board at ``velocity`` facing ``facing``, its Turn's allocation
    made (the compiled pilot's), not yet moved."""
    rs = RaceSim(load_scenario(DUEL))
    sh, sv, bu, hd = position(rs, worked={"pos": (10, 10), "facing": facing,
                                          "velocity": velocity, "fuel": 200})
    S, FD, RT, BT, P, st, L = _kernel_position(rs, sh, sv, bu, hd, seed)
    RK.allocate(st, dice.NO_SCRIPT, RK.Mover(True, 0, TURN), S, FD, rs.pilots[0], P, RT, BT, L)
    return rs, S, FD, RT, BT, P, st, L


def _crisis(k, *results):
    """Hand the race's bookkeeping the crisis results one hazard procedure rolled."""
    rs, S, FD, RT, BT, P, st, L = k
    S.out[:] = 0
    for r in results:
        S.out[K.O_CRISIS_HIST + r - 2] += 1
    RK._after(st, dice.NO_SCRIPT, 0, S, RT, TURN, L)


def _move(k):
    rs, S, FD, RT, BT, P, st, L = k
    RK.ship_phase(st, dice.NO_SCRIPT, RK.Mover(True, 0, TURN), S, FD, rs.pilots[0], P, RT, BT, L)


def test_no_turning_before_the_move_takes_effect_this_turn_210_C_b():
    """Result 5 'May make no turning movements', received before the ship has moved (210 C b):
    the ship moves its Velocity in hexes straight ahead, facing unchanged. The same position
    without the crisis turns (so the test can see the rule)."""
    free = _ready(0)
    _move(free)
    assert free[1].sv[0, V_FACING] != 0
    k = _ready(0)
    sv = k[1].sv
    V = int(sv[0, V_VEL])
    _crisis(k, NO_TURNING)
    assert (sv[0, V_CR_NOW] >> NO_TURNING) & 1 and sv[0, V_CR_NEXT] == 0
    _move(k)
    c, r = 10, 10
    for _ in range(V):
        c, r = neighbour(c, r, DIRECTIONS[0])
    assert (int(sv[0, V_COL]), int(sv[0, V_ROW]), int(sv[0, V_FACING])) == (c, r, 0)


def test_a_crisis_after_the_move_waits_for_the_next_turn_210_C_a():
    """Received after the ship has moved (210 C a), the crisis is noted for the next Turn and
    that Turn's allocation brings it into effect: Systems Failure (7) then allocates no Level
    to any Function and costs one PI Level."""
    k = _ready(2)
    rs, S = k[0], k[1]
    sv, sh = S.sv, S.ships
    _move(k)
    assert sv[0, V_MOVED] == 1
    now, pi = int(sv[0, V_CR_NOW]), int(sh[0, PI])
    _crisis(k, FAILURE)
    assert sv[0, V_CR_NOW] == now and sh[0, PI] == pi
    assert (sv[0, V_CR_NEXT] >> FAILURE) & 1
    V = int(sv[0, V_VEL])
    _, _, FD, RT, BT, P, st, L = k
    RK.allocate(st, dice.NO_SCRIPT, RK.Mover(True, 0, TURN + 1), S, FD, rs.pilots[0], P, RT,
                BT, L)
    assert (sv[0, V_CR_NOW] >> FAILURE) & 1 and sv[0, V_CR_NEXT] == 0
    assert sh[0, PI] == pi - 1
    assert [int(sv[0, a]) for a in (A_ME, A_SCREENS, A_LASER, A_SCR, A_TRACTOR)] == [0] * 5
    assert sv[0, V_VEL] == V                       # no acceleration, no deceleration either


def test_systems_failure_before_the_move_cancels_this_turns_allocation_210_C():
    """Systems Failure received after allocating but before moving: the Turn's Screens,
    weapons and Tractor go (no Level allocated to any Function) and a PI Level is lost; the
    Fuel already spent stays spent."""
    k = _ready(0)
    S = k[1]
    sv, sh = S.sv, S.ships
    sv[0, A_SCREENS], sv[0, A_TRACTOR], sv[0, A_LASER] = 3, 5, 2
    pi = int(sh[0, PI])
    assert pi > 0
    fuel = int(sh[0, FUEL])
    _crisis(k, FAILURE)
    assert sh[0, PI] == pi - 1 and int(sh[0, FUEL]) == fuel
    assert [int(sv[0, a]) for a in (A_SCREENS, A_LASER, A_SCR, A_TRACTOR)] == [0] * 4


def test_no_acceleration_before_the_move_undoes_the_allocated_acceleration_210_C():
    """Result 6 'May not Accelerate' arriving before the move takes back the Turn's
    acceleration: the ship moves at the Velocity it had before allocating."""
    for facing in range(6):
        k = _ready(facing, velocity=2)
        sv = k[1].sv
        if sv[0, A_ME] > 0:
            break
    else:
        raise AssertionError("no position accelerates")
    before = int(sv[0, V_VEL]) - int(sv[0, A_ME])
    _crisis(k, NO_ACC)
    assert sv[0, V_VEL] == before == 2 and sv[0, A_ME] == 0


def test_contradictory_crises_in_one_turn_become_result_7_210_C_c():
    """'May not Accelerate' (6) and 'Must Accelerate' (10) in the same Turn contradict: both
    are ignored and result No. 7 (Systems Failure) applies instead, once."""
    k = _ready(0)
    S = k[1]
    sv, sh = S.sv, S.ships
    pi, V = int(sh[0, PI]), int(sv[0, V_VEL])
    _crisis(k, NO_ACC, MUST_ACC)
    assert sv[0, V_CR_NOW] == 1 << FAILURE
    assert sh[0, PI] == pi - 1 and sv[0, V_VEL] == V     # neither 6 nor 10 acted
