"""Vehicles against the direction of play: U-turns (p14), moving off (p15), reversing (p17),
head-on rams between moving cars and opposed sideswipes (p52-57), cutting up (p13), fire
corridors and passives of a car facing back, and Game Eight's intercept (p89).
Rulebook examples and every limit replayed on scripted dice through the engine's pieces."""

from pathlib import Path

import numpy as np
import pytest

from simkit.core import dice
from simkit.core.errors import UserInputError
from simkit.core.runner import run
from simkit.dark_future import engine as EG
from simkit.dark_future import scenario as GM
from simkit.dark_future import policies as PO
from simkit.dark_future.pieces import road as RD
from simkit.dark_future.pieces import vehicle as VH

from test_dark_future_engine import World

ROOT = Path(__file__).resolve().parents[1]
SCEN = ROOT / "scenarios" / "dark-future"
INTERCEPT = SCEN / "game-8-intercept.toml"


def _events(w, code):
    return [tuple(int(x) for x in e[2:8]) for e in w.E[:w.EN[0]] if e[3] == code]


def _act_dir(w, st, s, v, act, arg, moves, turn=1, phase=1, n=2):
    EG._act_dir(st, s, w.B, w.V, w.WS, w.FIT, n, v, EG.Action(act, arg, moves), w.common(),
                EG.Log(w.E, w.EN, turn, phase))


def _advance(w, st, s, v, drift=0, n=2, turn=1, phase=1):
    nl = EG._advance(st, s, w.B, w.V, w.WS, w.FIT, n, v, EG.Move(drift, drift == 0, False),
                     w.common(), EG.Log(w.E, w.EN, turn, phase))
    if nl != EG.MOVE_ENDED:
        EG._after_move(st, s, w.T, w.V, v, w.G, EG.Log(w.E, w.EN, turn, phase), w.K, nl, w.hp)
    return nl


def _fire(w, st, s, v, slot, n=2, turn=1, phase=1):
    EG._fire(st, s, w.B, w.V, w.WS, w.FIT, n, v, slot, w.common(),
             EG.Log(w.E, w.EN, turn, phase))


def _slot(w, v, mount):
    for k in range(VH.MAXW):
        if w.WS[v, k, VH.W_KIND] == VH.WK_DIRECT and w.WS[v, k, VH.W_MOUNT] == mount:
            return k
    raise AssertionError("no such weapon")


def test_moving_and_shooting_example_p14():
    """p14: the Interceptor at 55mph, the Renegade at 15mph. Phase 1: the Interceptor moves
    first, straight ahead; the Renegade U-turns (its action: no shot). Phase 2: the Interceptor
    moves and fires; the Renegade, too slow to move, still fires. Phase 3: the Interceptor
    drifts to avoid a collision."""
    w = World(scenario="game-8-intercept.toml")   # target#1 renegade, target#2, attacker
    # 0: the Renegade (target#1), 2: the Interceptor (attacker); 1 out of the way
    w.place(0, 1, 2, 0, 15, side=0, role=VH.LEAD, kind=0)      # lanes 2-3
    w.place(1, 6, 0, 2, 0, side=0, role=VH.LEAD, kind=0)
    w.V[1, VH.V_STATUS] = VH.CRASHED
    w.place(2, 0, 1, 0, 55, side=1, role=VH.CHASE, kind=1)     # lanes 1-2
    n = 3
    order = np.zeros(n, np.int64)
    st, s = w.script([1, 1, 1])  # the U-turn's hazard roll (15mph vs 10), two missed shots
    assert EG._order(st, s, w.T, w.V, n, order) == 2 and list(order[:2]) == [2, 0]
    # phase 1
    assert _advance(w, st, s, 2, n=n) >= 0
    _act_dir(w, st, s, 0, PO.A_UTURN, 0, True, n=n)
    assert w.V[0, VH.V_DIR] == 1 and (w.V[0, VH.V_SEC], w.V[0, VH.V_SP]) == (1, 1)
    haz = _events(w, EG.EV_HAZARD)
    assert len(haz) == 1 and haz[0][2] == 10 and haz[0][3] == 0   # against 10mph: OK
    assert st[dice.POS] == 1
    # phase 2: the Interceptor moves and fires its hood autocannon at the Renegade's front
    assert _advance(w, st, s, 2, n=n, phase=2) >= 0
    u = VH.find_target(w.T, w.V, n, 2, VH.M_HOOD, w.tbuf)
    assert u == 0 and w.tbuf[2] == 0           # the Renegade faces it: its front
    _fire(w, st, s, 2, _slot(w, 2, VH.M_HOOD), n=n, phase=2)
    # the Renegade does not move (SF 1) but fires its hood MG back along its new facing
    assert EG.speed_factor(w.V[0, VH.V_MPH], 20) < 2
    u = VH.find_target(w.T, w.V, n, 0, VH.M_HOOD, w.tbuf)
    assert u == 2 and w.tbuf[2] == 0 and w.tbuf[1] == 2
    _fire(w, st, s, 0, _slot(w, 0, VH.M_HOOD), n=n, phase=2)
    assert len(_events(w, EG.EV_SHOT)) == 2 and st[dice.POS] == 3
    # phase 3: the Renegade is two spaces ahead of the Interceptor, in its lanes: its driver
    # drifts (the Renegade does not move this phase, so this is no cutting up)
    act, arg = PO.decide(w.B, w.T, w.V, w.WS, n, 2, True, w.hp, PO.policy_vector("standard"),
                         *w.dice)
    assert act == PO.A_DRIFT
    lane0 = w.V[2, VH.V_LANE]
    assert _advance(w, st, s, 2, drift=arg, n=n, phase=3) >= 0
    assert w.V[2, VH.V_LANE] == lane0 + arg and not _events(w, EG.EV_RAM)
    assert not _events(w, EG.EV_CUTUP)


@pytest.mark.parametrize("mph,rolls,turned,haz", [
    (10, [], True, 0),          # up to 10mph: automatic, no roll
    (30, [1], True, 1),         # 11-30mph: a hazard roll against 10mph (1 + 2 - 4: OK)
    (30, [6], True, 1),         # 6 + 2 - 4 = 4: a 20mph panic brake, the U-turn is made
])
def test_uturn_limits_10_and_30mph_p14(mph, rolls, turned, haz):
    w = World()
    w.place(0, 1, 2, 1, mph)
    w.place(1, 5, 2, 0, 0)
    st, s = w.script(rolls)
    _act_dir(w, st, s, 0, PO.A_UTURN, 0, True)
    assert (w.V[0, VH.V_DIR] == 1) == turned
    assert len(_events(w, EG.EV_HAZARD)) == haz and st[dice.POS] == len(rolls)
    assert len(_events(w, EG.EV_UTURN)) == 1
    if rolls == [6]:
        assert w.V[0, VH.V_MPH] == 10 and w.V[0, VH.V_PANIC] == 1


def test_uturn_at_31mph_is_a_control_loss_test_instead_p14_p40():
    """31mph: control is lost before the move; a regained driver moves straight ahead."""
    w = World()
    w.place(0, 1, 2, 1, 31)
    w.place(1, 5, 2, 0, 0)
    st, s = w.script([1])           # control-loss test 1 + 2 - 3 = 0: regains control
    _act_dir(w, st, s, 0, PO.A_UTURN, 0, True)
    assert _events(w, EG.EV_UTURN_LOSS) and not _events(w, EG.EV_UTURN)
    assert w.V[0, VH.V_DIR] == 0 and (w.V[0, VH.V_SEC], w.V[0, VH.V_SP]) == (1, 2)
    assert w.V[0, VH.V_OOC] == VH.IN_CONTROL and len(_events(w, EG.EV_CONTROL)) == 1
    # a worse roll: the car skids instead, still without turning
    w = World()
    w.place(0, 1, 2, 1, 40)
    w.place(1, 5, 2, 0, 0)
    st, s = w.script([6, 2])        # 6 + 2 - 3 = 5: a skid (2: straight skid)
    _act_dir(w, st, s, 0, PO.A_UTURN, 0, True)
    assert w.V[0, VH.V_DIR] == 0 and _events(w, EG.EV_SKID)


def test_uturn_refused_when_the_six_lane_zone_is_not_clear_or_on_curves_p14():
    w = World()
    w.place(0, 1, 0, 1, 10)
    w.place(1, 1, 4, 2, 10)          # lanes 4-5 of the space moved into: the zone is blocked
    assert VH.uturn_zone(w.T, w.TM, w.M, w.NM, w.V, 2, 0, False)[0] == -1
    st, s = w.script([])
    _act_dir(w, st, s, 0, PO.A_UTURN, 0, True)
    assert w.V[0, VH.V_DIR] == 0 and not _events(w, EG.EV_RAM)   # no ramming by U-turn
    assert (w.V[0, VH.V_SEC], w.V[0, VH.V_SP]) == (1, 2)            # straight ahead instead
    # an obstacle in the zone
    w = World()
    w.place(0, 1, 0, 1, 10)
    w.place(1, 5, 0, 0, 0)
    RD._add_marker(w.M, w.NM, RD.OBSTACLE, 1, 3, 5, RD.rear_x(w.T, 1, 3, 2),
                   RD.front_x(w.T, 1, 3, 2), 1, -1)
    assert VH.uturn_zone(w.T, w.TM, w.M, w.NM, w.V, 2, 0, False)[0] == -1
    # curves: not from a curve onto a curve; from a straight across the edge of a curve, yes;
    # from a curve's last space onto a straight, yes
    w = World(layout=("S", "S", "BL", "S", "S"))
    w.place(1, 4, 0, 0, 0)
    w.place(0, 1, 2, 2, 10)          # last space of a straight, next space on the bend
    assert VH.uturn_zone(w.T, w.TM, w.M, w.NM, w.V, 2, 0, False)[0] == 2
    last = RD.pair_spaces(w.T, 2, 2) - 1
    w.place(0, 2, 2, 0, 10)          # on the bend, next space on the bend
    assert VH.uturn_zone(w.T, w.TM, w.M, w.NM, w.V, 2, 0, False)[0] == -1
    w.place(0, 2, 2, last, 10)       # the bend's edge, U-turning across the straight
    assert VH.uturn_zone(w.T, w.TM, w.M, w.NM, w.V, 2, 0, False)[0] == 3


def test_moving_off_with_a_uturn_p15():
    """Stationary at the start of phase 1: accelerate and U-turn in the same phase; not in
    phase 2."""
    w = World()
    w.place(0, 1, 2, 1, 0)
    w.place(1, 5, 2, 0, 0)
    st, s = w.script([])
    _act_dir(w, st, s, 0, PO.A_UTURN, 10, False, phase=2)
    assert w.V[0, VH.V_MPH] == 0 and w.V[0, VH.V_DIR] == 0
    _act_dir(w, st, s, 0, PO.A_UTURN, 10, False, phase=1)
    assert w.V[0, VH.V_MPH] == 10 and w.V[0, VH.V_DIR] == 1 and st[dice.POS] == 0


def test_reverse_p17():
    """Only from a stop at phase 1; one space back at 10mph (the rules' reverse speed), then
    0mph; facing unchanged; hazards ignored; drift or U-turn as part of it, not on a curve."""
    w = World()
    assert w.G[EG.G_REV_MPH] == 10
    w.place(0, 1, 2, 1, 0)
    w.place(1, 5, 2, 0, 0)
    st, s = w.script([])
    _act_dir(w, st, s, 0, PO.A_REVERSE, 0, False, phase=2)
    assert (w.V[0, VH.V_SEC], w.V[0, VH.V_SP]) == (1, 1)       # phase 2: no reverse
    w.place(0, 1, 2, 0, 0)
    # oil behind: run onto while reversing, handling -1, but no hazard roll
    RD._add_marker(w.M, w.NM, RD.OIL, 0, 2, 3, RD.rear_x(w.T, 0, 2, 2), RD.front_x(w.T, 0, 2, 2),
                   0, 1)
    _act_dir(w, st, s, 0, PO.A_REVERSE, 0, False)
    assert (w.V[0, VH.V_SEC], w.V[0, VH.V_SP]) == (0, 2) and w.V[0, VH.V_DIR] == 0
    assert w.V[0, VH.V_MPH] == 0 and w.V[0, VH.V_REV] == 0 and w.V[0, VH.V_HAND] == 3
    assert not _events(w, EG.EV_HAZARD) and st[dice.POS] == 0
    # reverse and drift
    w.place(0, 1, 2, 0, 0)
    _act_dir(w, st, s, 0, PO.A_REVERSE, 1, False)
    assert (w.V[0, VH.V_SEC], w.V[0, VH.V_LANE]) == (0, 3)
    # reverse and U-turn: it ends facing the way it was reversing
    w.place(0, 1, 2, 1, 0)
    _act_dir(w, st, s, 0, PO.A_REVERSE, 2, False)
    assert w.V[0, VH.V_DIR] == 1 and (w.V[0, VH.V_SEC], w.V[0, VH.V_SP]) == (1, 0)
    assert w.V[0, VH.V_MPH] == 0
    # on a curve: no drift while reversing
    w = World(layout=("S", "BR", "S"))
    w.place(0, 1, 2, 1, 0)
    w.place(1, 2, 0, 2, 0)
    st, s = w.script([])
    _act_dir(w, st, s, 0, PO.A_REVERSE, -1, False)
    assert w.V[0, VH.V_LANE] == 2 and (w.V[0, VH.V_SEC], w.V[0, VH.V_SP]) == (1, 0)
    # reversing into a stationary car facing the same way: its front, head-on at SF 1 + 0
    w = World()
    w.place(0, 1, 2, 0, 0)
    w.place(1, 0, 2, 2, 0)
    st, s = w.script([1, 1])
    _act_dir(w, st, s, 0, PO.A_REVERSE, 0, False)
    ram = _events(w, EG.EV_RAM)
    assert ram and ram[0][2:] == (1, 0, 1, 1) and st[dice.POS] == 2   # 1 hit at +1 each
    assert w.V[0, VH.V_SEC] == 1 and w.V[0, VH.V_MPH] == 0


def test_head_on_between_moving_cars_combined_speed_factor_p52_p56():
    """Two Interceptors at 57mph (SF 3) travelling at each other: 6 hits at +6 on each, both
    halt, the rammer left where it was (p52, p56)."""
    w = World()
    w.place(0, 1, 2, 0, 57, kind=1)
    w.place(1, 1, 3, 2, 57, kind=1)     # one lane in common, facing against play
    w.V[1, VH.V_DIR] = 1
    # the move from space 0 to space 1 is clear; the next one hits it
    st, s = w.script([])
    assert _advance(w, st, s, 0) >= 0
    st, s = w.script([1] * 12)
    assert EG._advance(st, s, w.B, w.V, w.WS, w.FIT, 2, 0, EG.Move(0, True, False), w.common(),
                       EG.Log(w.E, w.EN, 1, 2)) == EG.MOVE_ENDED
    ram = _events(w, EG.EV_RAM)[-1]
    assert ram[0] == 0 and ram[2:] == (1, 0, 6, 1)      # head-on, travelling at each other
    assert w.V[0, VH.V_DMG] == 24 - 6 * (1 + 6 - 4) and w.V[1, VH.V_DMG] == 24 - 6 * (1 + 6 - 4)
    assert w.V[0, VH.V_MPH] == 0 and w.V[1, VH.V_MPH] == 0 and w.V[0, VH.V_SP] == 1
    assert st[dice.POS] == 12
    # the same cars travelling the same way: a shunt, no damage at equal SF
    w = World()
    w.place(0, 1, 2, 1, 57, kind=1)
    w.place(1, 1, 2, 2, 40, kind=1)
    st, s = w.script([1, 1, 1, 1])
    EG._ram(st, s, w.B, w.V, w.WS, w.FIT, 0, 1, w.common(), EG.Log(w.E, w.EN, 1, 1))
    assert _events(w, EG.EV_RAM)[0][3] == 1


def test_opposed_sideswipe_combined_hit_p54_p57():
    """A car at 60mph (SF 3) sideswipes one coming the other way at 20mph (SF 1): the loser
    takes one combined hit at +4, both lose 20mph, the winner tests at 40mph, the loser at
    20mph."""
    w = World()
    w.place(0, 1, 0, 1, 60)     # rammer, lanes 0-1
    w.place(1, 1, 2, 1, 20)     # target, lanes 2-3, level, facing the other way
    w.V[1, VH.V_DIR] = 1
    # test: rammer 1 + 1 + 4 = 6, target 6 + 4 = 10: the rammer loses; damage 4 (+4 - 3 = 5);
    # its hazard roll at 40mph vs 20: 1 + 2 - 4 < 1: OK; the target (0mph) rolls nothing
    st, s = w.script([1, 6, 4, 1])
    EG._sideswipe(st, s, w.B, w.V, w.WS, w.FIT, 2, 0, 1, w.common(), EG.Log(w.E, w.EN, 1, 1))
    sw = _events(w, EG.EV_OPPSWIPE)
    assert sw and sw[0][2:] == (1, 6, 10, 1) and not _events(w, EG.EV_SWIPE)
    assert w.V[0, VH.V_DMG] == 18 - 5 and w.V[1, VH.V_DMG] == 18
    assert w.V[0, VH.V_MPH] == 40 and w.V[1, VH.V_MPH] == 0
    haz = _events(w, EG.EV_HAZARD)
    assert len(haz) == 1 and haz[0][0] == 0 and haz[0][2] == 20 and st[dice.POS] == 4
    # the winner tests against 40mph: the rammer wins at 80mph against a stationary car
    w = World()
    w.place(0, 1, 0, 1, 80)
    w.place(1, 1, 2, 1, 0)      # stationary, same facing: still an opposed sideswipe (p54)
    st, s = w.script([6, 1, 3, 1, 1])  # 6+1+4 vs 1+4: the target loses, damage 3; tests
    EG._sideswipe(st, s, w.B, w.V, w.WS, w.FIT, 2, 0, 1, w.common(), EG.Log(w.E, w.EN, 1, 1))
    assert w.V[1, VH.V_DMG] == 18 - (3 + 4 - 3) and w.V[0, VH.V_MPH] == 60
    haz = _events(w, EG.EV_HAZARD)
    assert [h[2] for h in haz] == [40]      # the winner's roll at 60mph vs 40


def test_cutting_up_p13():
    """A drift may not finish in front of a car level with the mover that has yet to move;
    once that car has moved (or when it is stationary after phase 1) it may."""
    w = World()
    w.place(0, 1, 0, 0, 60)
    w.place(1, 1, 2, 0, 60)     # level, lanes 2-3, yet to move this phase
    st, s = w.script([])
    assert _advance(w, st, s, 0, drift=1) >= 0
    assert w.V[0, VH.V_LANE] == 0 and _events(w, EG.EV_CUTUP) == [(0, EG.EV_CUTUP, 1, 0, 0, 0)]
    w.place(0, 1, 0, 0, 60)
    w.V[1, VH.V_STAMP] = 1 * 8 + 1   # it has moved this phase
    assert _advance(w, st, s, 0, drift=1) >= 0 and w.V[0, VH.V_LANE] == 1
    # a stationary car in phase 2 cannot be moving off: it may be cut up
    w = World()
    w.place(0, 1, 0, 0, 60)
    w.place(1, 1, 2, 0, 0)
    assert _advance(w, st, s, 0, drift=1, phase=2) >= 0 and w.V[0, VH.V_LANE] == 1
    # ... in phase 1 it could be moving off: not allowed
    w.place(0, 1, 0, 0, 60)
    assert _advance(w, st, s, 0, drift=1, phase=1) >= 0 and w.V[0, VH.V_LANE] == 0


def test_facing_back_corridors_passives_order_and_leaving_play():
    w = World(scenario="game-8-intercept.toml")   # target 0, 1; Interceptor 2
    w.place(2, 2, 2, 1, 60, side=1, kind=1)
    w.V[2, VH.V_DIR] = 1
    w.place(0, 0, 2, 2, 60, side=0)       # ahead of it (lower x), its lanes
    w.place(1, 5, 0, 0, 60, side=0)
    assert VH.find_target(w.T, w.V, 3, 2, VH.M_HOOD, w.tbuf) == 0
    assert w.tbuf[1] == 5 and w.tbuf[2] == 0      # 4 spaces between + 1; it faces the car
    # wings swap sides: its left wing is on the play-right lane
    w.place(0, 0, 3, 2, 60, side=0)
    assert VH.find_target(w.T, w.V, 3, 2, VH.M_WING_L, w.tbuf) == 0
    assert VH.find_target(w.T, w.V, 3, 2, VH.M_WING_R, w.tbuf) == -1
    # the gang car's hood weapon sees the Interceptor ahead, coming at it: its front
    assert VH.find_target(w.T, w.V, 3, 0, VH.M_HOOD, w.tbuf) == 2 and w.tbuf[2] == 0
    # behind the Interceptor (higher x) its hood weapon sees nothing
    w.place(0, 4, 2, 0, 60, side=0)
    assert VH.find_target(w.T, w.V, 3, 2, VH.M_HOOD, w.tbuf) == -1
    # a passive dropped behind it lands in the next space in the direction of play
    st, s = w.script([])
    slot = next(k for k in range(VH.MAXW) if w.WS[2, k, VH.W_KIND] == VH.WK_PASSIVE)
    EG._lay_passive(st, s, w.B, w.V, w.WS, 3, 2, slot, EG.Log(w.E, w.EN, 1, 1))
    i = w.NM[0] - 1
    assert w.M[i, RD.MK_SEC] == 2 and w.M[i, RD.MK_XLO] == RD.rear_x(w.T, 2, 2, 2)
    # phase order: equal speeds, two cars facing back: the lower one is in front of the other
    w.place(0, 1, 2, 0, 60, side=0)
    w.V[0, VH.V_DIR] = 1
    w.V[1, VH.V_STATUS] = VH.CRASHED
    order = np.zeros(3, np.int64)
    assert EG._order(st, s, w.T, w.V, 3, order) == 2 and list(order[:2]) == [0, 2]
    # ... and a car going the other way at the same speed: a d6 each, the lower first
    w.V[0, VH.V_DIR] = 0
    st, s = w.script([2, 5])
    EG._order(st, s, w.T, w.V, 3, order)
    assert list(order[:2]) == [0, 2] and st[dice.POS] == 2
    # driving off the start of the track: it leaves play
    w.place(2, 0, 2, 0, 60, side=1, kind=1)
    w.V[2, VH.V_DIR] = 1
    st, s = w.script([])
    assert EG._advance(st, s, w.B, w.V, w.WS, w.FIT, 3, 2, EG.Move(0, True, False), w.common(),
                       EG.Log(w.E, w.EN, 1, 1)) == EG.MOVE_ENDED
    assert w.V[2, VH.V_STATUS] == VH.LEFT


def test_drivers_turn_to_face_and_head_on():
    """P_UTURN: a lead car a couple of spaces after a bend with the enemy behind turns to face
    it (braking to the speed first); P_HEADON: a car meeting an oncoming enemy lines up with
    it. With the parameters at 0 the standard driver does neither."""
    w = World(layout=("S", "BL", "S", "S", "S", "S", "S"))
    std = PO.policy_vector("standard")
    ttf = PO.policy_vector("turn-to-face")
    hon = PO.policy_vector("head-on")
    w.place(0, 2, 2, 1, 30, side=0, role=VH.LEAD)     # one space after the bend
    w.place(1, 0, 2, 0, 60, side=1, role=VH.CHASE)    # behind it, round the bend
    d = lambda v, par, moves=True: PO.decide(w.B, w.T, w.V, w.WS, 2, v, moves, w.hp, par, *w.dice)
    assert d(0, ttf) == (PO.A_UTURN, 0)
    assert d(0, std)[0] != PO.A_UTURN
    w.V[0, VH.V_MPH] = 60
    assert d(0, ttf) == (PO.A_BRAKE, 30)
    w.place(0, 3, 2, 1, 30, side=0, role=VH.LEAD)     # too far from the bend: no turn
    assert d(0, ttf)[0] != PO.A_UTURN
    # a chase car facing against play, the enemy gone past it: turns round to chase
    w.place(1, 4, 2, 1, 20, side=1, role=VH.CHASE)
    w.V[1, VH.V_DIR] = 1
    w.place(0, 5, 2, 1, 60, side=0, role=VH.LEAD)
    assert d(1, ttf) == (PO.A_UTURN, 0) and d(1, std)[0] != PO.A_UTURN
    # head-on: an oncoming enemy three lanes over, far ahead: the head-on driver drifts
    # towards its lanes; in its lanes, it holds the line
    w.place(1, 6, 0, 1, 60, side=1, role=VH.CHASE)
    w.V[1, VH.V_DIR] = 1
    w.WS[1, :, VH.W_AMMO] = 0
    w.place(0, 3, 3, 1, 60, side=0, role=VH.LEAD)
    assert d(1, hon) == (PO.A_DRIFT, 1)
    w.place(1, 4, 3, 2, 60, side=1, role=VH.CHASE)
    w.V[1, VH.V_DIR] = 1
    w.place(0, 4, 3, 0, 60, side=0, role=VH.LEAD)     # two spaces ahead of it, same lanes
    assert d(1, hon) == (PO.A_NONE, 0)
    assert d(1, std)[0] in (PO.A_DRIFT, PO.A_BRAKE)   # the standard driver steers round
    # ... and, the oncoming car still five spaces off, already drifts out of its lanes
    w.place(0, 3, 3, 0, 60, side=0, role=VH.LEAD)
    assert d(1, std) == (PO.A_DRIFT, -1) and d(1, hon) == (PO.A_NONE, 0)
    assert PO._dodge_oncoming(w.T, w.M, w.NM, w.V, 2, 1, std, *w.dice) == -1
    w.V[0, VH.V_DIR] = 1   # the same car going the same way: nothing to dodge
    assert PO._dodge_oncoming(w.T, w.M, w.NM, w.V, 2, 1, std, *w.dice) == 0
    # stopped against a wreck in front, no shot: the turn-to-face driver reverses
    w.place(0, 2, 2, 2, 0, side=0, role=VH.LEAD)
    w.place(1, 3, 2, 0, 0, side=1, role=VH.CHASE)
    w.V[1, VH.V_STATUS] = VH.WRECK
    w.WS[0, :, VH.W_AMMO] = 0
    assert d(0, ttf, moves=False) == (PO.A_REVERSE, 0)
    # ... and since issue 15 (drivers move off) so does the standard driver
    assert d(0, std, moves=False)[0] == PO.A_REVERSE


def _intercept_counts(trials, seed=2026, policy=None):
    sc = GM.load_scenario(INTERCEPT, policies=policy)
    counts = {"uturn": 0, "headon": 0, "oppswipe": 0, "left": 0, "ended": 0}
    for t in range(trials):
        ev, res, _, _ = GM.play_one(sc, seed=seed, trial=t)
        codes = ev[:, 3]
        counts["uturn"] += int(np.sum((codes == EG.EV_UTURN) & (ev[:, 7] >= 0)))
        counts["headon"] += int(np.sum((codes == EG.EV_RAM) & (ev[:, 5] == 0) & (ev[:, 7] == 1)))
        counts["oppswipe"] += int(np.sum(codes == EG.EV_OPPSWIPE))
        counts["left"] += int(np.sum(codes == EG.EV_LEFT))
        counts["ended"] += int(np.sum(codes == EG.EV_END))
    return counts


def test_game_eight_intercept_plays():
    """The intercept loads, sets the attacker facing the target, and its games finish, with
    U-turns and head-on rams between moving cars among them."""
    sc = GM.load_scenario(INTERCEPT)
    lines, info = GM.playthrough(sc, seed=2026)
    assert any("faces against the direction of play" in x for x in lines)
    assert lines[-1].startswith("END")
    c = _intercept_counts(60)
    assert c["ended"] == 60 and c["uturn"] > 0 and c["headon"] > 0
    c2 = _intercept_counts(60, policy={"attacker": "head-on"})
    assert c2["headon"] > c["headon"]
    f = run(GM.GameSim(sc), 2000, 7, progress=False).frame
    assert f["wins"].sum() + f["draws"].iloc[0] == 2000
    assert 0 < f.loc[f["side"] == "attacker", "win_rate"].iloc[0] < 1


def test_intercept_cli_and_bad_input(capsys, tmp_path):
    from simkit.cli import main

    assert main(["scenario", "run", str(INTERCEPT), "--trials", "500"]) == 0
    assert "attacker" in capsys.readouterr().out
    base = INTERCEPT.read_text()
    for old, new, field in (("attacker_section = 6", "attacker_section = 4", "attacker_section"),
                            ("attacker_mph = 60", "attacker_mph = 500", "attacker_mph"),
                            ("attacker_mph = 60", "attacker_mph = \"x\"", "attacker_mph"),
                            ("start_mph = 60", "start_mph = 50", "start_mph"),
                            ("track = \"continuous\"", "track = \"initial\"", "track")):
        p = tmp_path / "bad.toml"
        p.write_text(base.replace(old, new))
        assert main(["scenario", "run", str(p)]) == 2
        err = capsys.readouterr().err.strip().splitlines()
        assert len(err) == 1 and field in err[0]


def test_intercept_loader_fuzz(tmp_path):
    from hypothesis import given, settings
    from hypothesis import strategies as st

    base = INTERCEPT.read_text().split("[intercept]")
    vals = st.one_of(st.integers(-5, 200), st.text(max_size=6), st.booleans(),
                     st.lists(st.integers(0, 9), max_size=3))
    table = st.dictionaries(st.sampled_from(["attacker_section", "attacker_mph", "bogus"]), vals,
                            max_size=3)

    @settings(max_examples=100, deadline=None)
    @given(table)
    def check(d):
        import json
        body = "\n".join(f"{k} = {json.dumps(v) if not isinstance(v, bool) else str(v).lower()}"
                         for k, v in d.items())
        rest = base[1].split("\n[[side]]", 1)[1]
        p = tmp_path / "fz.toml"
        p.write_text(base[0] + "[intercept]\n" + body + "\n\n[[side]]" + rest)
        try:
            GM.load_scenario(p)
        except UserInputError:
            pass

    check()


def test_changing_the_direction_of_play_p75():
    """Two cars of three facing the other way: the direction of play changes; track is laid
    before the first section for the most advanced of them, the far end removed with the car
    on it; on equal numbers the old direction stays."""
    w = World(layout=("S",) * 10, scenario="game-6.toml")
    assert w.G[EG.G_MODE] == EG.MODE_CONTINUOUS
    w.TM[RD.TM_ENDED] = 0
    w.TM[RD.TM_FIRST] = 3
    w.TM[RD.TM_STRAIGHTS] = 7
    w.place(0, 4, 2, 1, 60, side=0)
    w.place(1, 5, 2, 1, 60, side=0)
    w.place(2, 9, 2, 1, 60, side=1, kind=1)
    w.V[0, VH.V_DIR] = w.V[1, VH.V_DIR] = 1
    # per new section: d6 1 (no curve: a straight), d6 2 (no road hazard)
    st, s = w.script([1, 2, 1, 2])
    EG._extend_track(st, s, w.B, w.V, w.WS, 3, w.common(),
                     EG.Log(w.E, w.EN, 1, 1))
    assert w.TM[EG.TM_PLAYDIR] == 1 and st[dice.POS] == 4
    assert (w.TM[RD.TM_FIRST], w.TM[RD.TM_NSEC]) == (1, 8)
    tr = _events(w, EG.EV_TRACK)
    assert tr[0][2:4] == (-2, 1) and [t[2] for t in tr[1:]] == [2, 1]
    assert w.V[2, VH.V_STATUS] == VH.LEFT        # it was on the removed far end
    # one each way: the old direction stays
    w.V[1, VH.V_DIR] = 0
    w.place(2, 5, 0, 0, 0, side=1, kind=1)
    w.V[2, VH.V_STATUS] = VH.CRASHED
    st, s = w.script([])
    EG._extend_track(st, s, w.B, w.V, w.WS, 3, w.common(),
                     EG.Log(w.E, w.EN, 1, 2))
    assert w.TM[EG.TM_PLAYDIR] == 1 and len(_events(w, EG.EV_TRACK)) == 3
    # the curve directions are rolled for the drivers going that way: odd = their left
    w.TM[RD.TM_FIRST] = 3
    st, s = w.script([5, 1, 1])   # a curve; a bend; odd: left for them (play-right)
    assert EG._gen_section_back(st, s, w.T, w.TM, w.curves, w.box)
    assert w.T[2, RD.T_KIND] == RD.BEND and w.T[2, RD.T_DIR] == 1


def test_road_hazards_carried_to_the_next_section_laid_p75_p76():
    """Markers that did not fit a section go on the next one the engine lays, from its first
    space, logged with it; when the direction of play changes they are dropped, since the
    section they were meant for is never laid."""
    w = World(layout=("S",) * 7, scenario="game-6.toml")
    w.TM[RD.TM_ENDED] = 0
    w.TM[RD.TM_CARRY_L] = RD._carry_push(0, RD.SAND, 2)
    w.place(0, 5, 2, 0, 60, side=0)
    w.place(1, 4, 2, 0, 60, side=0)
    w.place(2, 3, 2, 0, 60, side=1, kind=1)
    # per new section: d6 1 (no curve: a straight), d6 2 (no road hazard of its own)
    st, s = w.script([1, 2, 1, 2])
    EG._extend_track(st, s, w.B, w.V, w.WS, 3, w.common(), EG.Log(w.E, w.EN, 1, 1))
    assert st[dice.POS] == 4 and w.TM[RD.TM_NSEC] == 9
    assert [e[2:5] for e in _events(w, EG.EV_ROADHAZ)] == [(RD.SAND, 7, 0)] * 2
    assert [(w.M[i, RD.MK_XLO], w.M[i, RD.MK_XHI]) for i in range(w.NM[0])] == \
        [(7 * 60, 7 * 60 + 20), (7 * 60 + 20, 7 * 60 + 40)]
    assert w.TM[RD.TM_CARRY_L] == 0
    # the direction of play changes: the carried markers are not laid on the new stretch
    w = World(layout=("S",) * 10, scenario="game-6.toml")
    w.TM[RD.TM_ENDED] = 0
    w.TM[RD.TM_FIRST] = 3
    w.TM[RD.TM_STRAIGHTS] = 7
    w.TM[RD.TM_CARRY_R] = RD._carry_push(0, RD.OBSTACLE, 3)
    w.place(0, 4, 2, 1, 60, side=0)
    w.place(1, 5, 2, 1, 60, side=0)
    w.place(2, 9, 2, 1, 60, side=1, kind=1)
    w.V[0, VH.V_DIR] = w.V[1, VH.V_DIR] = 1
    st, s = w.script([1, 2, 1, 2])
    EG._extend_track(st, s, w.B, w.V, w.WS, 3, w.common(), EG.Log(w.E, w.EN, 1, 1))
    assert w.TM[EG.TM_PLAYDIR] == 1 and w.TM[RD.TM_FIRST] == 1
    assert _events(w, EG.EV_ROADHAZ) == [] and w.TM[RD.TM_CARRY_R] == 0


def test_direction_tables_spot_checks():
    """The numbers the direction rules read, against the rule text (p14, p17, p38, p57, p89)."""
    from simkit.dark_future import rules as R

    r = R.base_rules()
    lim = r.table("safety_limits")
    assert lim["limits"]["uturn"] == 10 and lim["uturn_control_loss_mph"] == 31
    assert lim["limits"]["sideswipe_opposed_winner"] == 40
    assert lim["limits"]["sideswipe_opposed_loser"] == 20
    assert r.table("rams")["opposed_loss_mph"] == 20
    rev = r.table("reverse")
    assert rev.label == "RULE-TEXT" and rev["rows"]["renegade"] == [10]
    assert rev["rows"]["interceptor"] == [10] and rev["rows"]["bike"] == [0]
    ut = r.table("uturn")
    assert ut.label == "RECONSTRUCTED" and ut["zone_lanes"] == RD.LANES == 6
    it = r.table("intercept")
    assert (it["target_section"], it["target_mph"], it["attacker_sections"]) == (3, 60, [5, 6, 7])
    a = GM.GameSim(GM.load_scenario(INTERCEPT)).a
    assert a.G[EG.G_L_UTURN] == 10 and a.G[EG.G_UTURN_LOSS] == 31 and a.G[EG.G_REV_MPH] == 10
    assert (a.G[EG.G_L_SS_OPP_W], a.G[EG.G_L_SS_OPP_L], a.G[EG.G_SS_OPP_LOSS]) == (40, 20, 20)
    assert a.G[EG.G_INTERCEPT] == 61 and a.VPOS[0, 0, 0] == 2 and a.VPOS[2, 1, 0] == 5


def test_moving_off_with_a_drift_p15():
    """p15: 'In addition to accelerating or reversing, vehicles which are moving off may also
    perform a U-turn or Drift manoeuvre ... only applies to vehicles which are stationary at the
    start of phase 1', moved 'after all other vehicles' (the phase order puts stationary ones
    last): the speed set by the acceleration (at most the vehicle's), one space straight ahead,
    then a lane over, all in phase 1; outwards only on a curve (p13); nothing in phase 2 or for
    a moving vehicle."""
    w = World(layout=("S", "S", "BR", "S", "S", "S", "S"))
    w.place(1, 5, 2, 0, 0)
    st, s = w.script([])

    def off(arg, phase=1, moves=False):
        EG._move_off_drifting(st, s, w.B, w.V, w.WS, w.FIT, 2, 0,
                              EG.Action(PO.A_OFF_DRIFT, arg, moves), w.common(),
                              EG.Log(w.E, w.EN, 1, phase))

    def where():
        V = w.V
        return V[0, VH.V_SEC], V[0, VH.V_SP], V[0, VH.V_LANE], V[0, VH.V_MPH]

    w.place(0, 1, 2, 0, 0)
    off(20, phase=2)
    assert where() == (1, 0, 2, 0)
    off(20)
    assert where() == (1, 1, 3, 20) and st[dice.POS] == 0
    assert _events(w, EG.EV_ACTION)[-1][2:5] == (PO.A_OFF_DRIFT, 20, 20)
    w.place(0, 1, 2, 0, 0)
    off(-15)
    assert where() == (1, 1, 1, 15)
    w.place(0, 1, 2, 0, 0)
    off(90)
    assert where()[3] == w.V[0, VH.V_ACC] < 90
    w.place(0, 1, 2, 0, 40)
    off(20)
    assert where() == (1, 0, 2, 40)          # already moving: no such action
    # on the right bend: the drift outwards (left) is made, inwards (right) refused (p13)
    w.place(0, 2, 2, 0, 0)
    off(-20)
    assert where()[2] == 1
    w.place(0, 2, 2, 0, 0)
    off(20)
    assert where()[1:] == (1, 2, 20)


def test_play_turning_back_with_section_0_on_the_table_lays_track_before_it_p75():
    """p75: 'When the direction of play is changed, new track is generated using all the rules
    given above', however early. Section numbers start at 0, so with section 0 still on the
    table the engine used to lay nothing and the cars going the new way drove off the start.
    Now every section, marker and car is renumbered 32 up first (logged), and the track is laid
    before the old section 0 as anywhere else; the places a driver remembers backing off from
    are the same places after the renumbering."""
    w = World(layout=("S",) * 7, scenario="game-6.toml")
    w.TM[RD.TM_ENDED] = 0
    w.TM[RD.TM_STRAIGHTS] = 7
    assert w.TM[RD.TM_FIRST] == 0
    w.place(0, 1, 2, 1, 60, side=0)
    w.place(1, 2, 2, 1, 60, side=0)
    w.place(2, 6, 2, 1, 60, side=1, kind=1)
    w.V[0, VH.V_DIR] = w.V[1, VH.V_DIR] = 1
    RD._add_marker(w.M, w.NM, RD.OBSTACLE, 3, 0, 2, 3 * 60, 3 * 60 + 20, 1, -1)
    PO.remember_backing(w.V, 1)
    assert PO._backed_from(w.V, 1) == 1
    # per new section: d6 1 (no curve: a straight), d6 2 (no road hazard)
    st, s = w.script([1, 2, 1, 2])
    EG._extend_track(st, s, w.B, w.V, w.WS, 3, w.common(), EG.Log(w.E, w.EN, 1, 1))
    k = EG.RENUMBER
    assert w.TM[EG.TM_PLAYDIR] == 1 and st[dice.POS] == 4     # the old engine: no dice rolled
    tr = [t[2:4] for t in _events(w, EG.EV_TRACK)]
    assert tr == [(-2, 1), (EG.EV_TRACK_RENUMBER, k), (k - 1, 0), (k - 2, 0)]
    assert (w.TM[RD.TM_FIRST], w.TM[RD.TM_NSEC]) == (k - 2, k + 5)
    assert (w.V[0, VH.V_SEC], w.V[1, VH.V_SEC]) == (k + 1, k + 2)
    assert w.V[0, VH.V_STATUS] == w.V[1, VH.V_STATUS] == VH.ACTIVE
    assert w.V[2, VH.V_STATUS] == VH.LEFT        # on the far end, removed (p75)
    assert (w.M[0, RD.MK_SEC], w.M[0, RD.MK_XLO], w.M[0, RD.MK_XHI]) == \
        (k + 3, (k + 3) * 60, (k + 3) * 60 + 20)
    assert all(w.T[x, RD.T_KIND] == RD.STRAIGHT and w.T[x, RD.T_SPACES] == 3
               for x in range(k - 2, k + 5))
    assert PO._backed_from(w.V, 1) == 1
