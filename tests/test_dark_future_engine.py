"""The road engine: rulebook examples replayed on its pieces with scripted dice, drivers in
scripted positions, golden seeded game logs, reproducibility, and the scenario loader (fuzzed).
"""

from pathlib import Path

import numpy as np
import pytest

from simkit.core import dice
from simkit.core.errors import UserInputError
from simkit.core.runner import run
from simkit.dark_future import engine as EG
from simkit.dark_future import scenario as GM
from simkit.dark_future import SCENARIO
from simkit.dark_future import policies as PO
from simkit.dark_future.pieces import road as RD
from simkit.dark_future.procedures import shooting as SH
from simkit.dark_future.pieces import vehicle as VH

ROOT = Path(__file__).resolve().parents[1]
SCEN = ROOT / "scenarios" / "dark-future"
GOLDEN = Path(__file__).with_name("golden")


class World:
    """A scenario's arrays with the vehicles placed by hand, for calling engine pieces."""

    def __init__(self, layout=("S",) * 7, scenario="game-1.toml"):
        self.sc = GM.load_scenario(SCEN / scenario)
        self.sim = GM.GameSim(self.sc)
        a = self.a = self.sim.a
        n = a.G[EG.G_NV]
        # the board buffer, and its pieces for the tests that read them (the scratch K is one)
        self.B = EG.new_board()
        self.T, self.TM, self.M, self.NM, K = EG.board_views(self.B)
        self.T[...], self.TM[...] = RD.track_from_layout(list(layout))
        self.V = np.zeros((n, VH.V_W), np.int64)
        self.WS = np.zeros((n, VH.MAXW, VH.W_W), np.int64)
        self.FIT = np.zeros((n, a.LFIT.shape[2]), np.int64)
        self.E = np.zeros((500, EG.LOG_W), np.int64)
        self.EN = np.zeros(1, np.int64)
        self.K = K
        self.ws, self.sp = K[EG.K_WS:EG.K_WS_END], K[EG.K_SP:EG.K_SP_END]
        self.o = K[EG.K_O:EG.K_O_END]
        self.lim, self.oil = K[EG.K_LIM:EG.K_LIM_END], K[EG.K_OIL:EG.K_OIL_END]
        self.outc, self.tbuf = K[EG.K_OUTC:EG.K_OUTC_END], K[EG.K_TBUF:EG.K_TBUF_END]
        # a live dice stream for the drivers' ties (policies._pick rolls only on a tie)
        st = dice.new_state()
        dice.seed_trial(st, dice.stream_key(15), 0)
        self.dice = (st, dice.NO_SCRIPT)
        for v in range(n):
            self.place(v, sec=0, lane=2, sp=0, mph=60, side=v, role=v)
            self.WS[v] = a.LOAD[v, 0]
            self.FIT[v] = a.LFIT[v, 0]

    def place(self, v, sec, lane, sp, mph, side=None, role=None, skill=3, kind=0):
        V, P = self.V, self.a.PROF[kind:kind + 1]
        V[v, :] = 0
        V[v, VH.V_KIND] = kind
        V[v, VH.V_SIDE] = v if side is None else side
        V[v, VH.V_ROLE] = v if role is None else role
        V[v, VH.V_SEC], V[v, VH.V_LANE], V[v, VH.V_SP], V[v, VH.V_MPH] = sec, lane, sp, mph
        V[v, VH.V_DMG] = V[v, VH.V_MAXDMG] = P[0, 0]
        V[v, VH.V_ARM], V[v, VH.V_MAXSPD], V[v, VH.V_ACC] = P[0, 1], P[0, 2], P[0, 3]
        V[v, VH.V_BRK] = V[v, VH.V_BRKLEFT] = P[0, 4]
        V[v, VH.V_HAND] = P[0, 5]
        V[v, VH.V_SKILL] = skill

    def script(self, rolls):
        st = dice.new_state()
        dice.set_scripted(st)
        return st, np.array(rolls, np.int64)

    def common(self, pol=None):
        """The rules buffer of the tables (``pol`` for the policies)."""
        tables = [getattr(self, k) for k in EG.RULES_ARGS]
        if pol is not None:
            tables[-1] = pol
        return EG.rules_buffer(*tables)

    def __getattr__(self, k):
        return getattr(self.a, k)


def test_shunt_example_p56():
    """60mph shunts 40mph: one hit at +1 each (SF 3 - SF 2), both end at 50mph, 40mph tests."""
    w = World()
    w.place(0, 0, 2, 0, 60)
    w.place(1, 0, 2, 1, 40)
    st, s = w.script([2, 2, 1, 1])  # damage rolls rammer, target; hazard rolls at 50mph
    EG._ram(st, s, w.B, w.V, w.WS, w.FIT, 0, 1, w.common(), EG.Log(w.E, w.EN, 1, 1))
    assert w.V[0, VH.V_MPH] == 50 and w.V[1, VH.V_MPH] == 50
    assert w.V[0, VH.V_DMG] == 18 and w.V[1, VH.V_DMG] == 18   # 2 + 1 - 3 armour = 0
    assert st[dice.POS] == 4


def _rules_with(w, **cells):
    """The world's rules buffer with G cells changed (G_NAME=value)."""
    G = w.a.G.copy()
    for k, x in cells.items():
        G[getattr(EG, k)] = x
    tables = [G if k == "G" else getattr(w, k) for k in EG.RULES_ARGS]
    return EG.rules_buffer(*tables)


def _phase_events(w, phase, turn=1):
    ev = w.E[:w.EN[0]]
    return [tuple(int(x) for x in e[2:8]) for e in ev if e[0] == turn and e[1] == phase]


def test_moving_after_a_shunt_ram_p56():
    """p56: after the shunt 'the target vehicle must now take its move' (an action declared
    as usual), then 'the driver of the ramming vehicle may then complete his move, although
    the driver can't perform any actions'. The p56 example's cars (60mph into 40mph, one
    space apart, both lanes in common) through one whole turn of the phase loop: in phase 1
    the chase car's move stops at the lead car (the shunt: both 50mph, damage rolls 1, 40mph
    tests 1: no damage, no panic); the lead car moves next, once; then the chase car completes
    its move into the space the lead car left, with no action (no shot, no speed change, no
    drift). The old engine ended the chase car's move at the shunt."""
    w = World()
    w.place(0, 0, 2, 1, 40, side=0, role=VH.LEAD)
    w.place(1, 0, 2, 0, 60, side=1, role=VH.CHASE)
    st, s = w.script([1] * 400)
    res = np.zeros(EG.R_W, np.int64)
    EG.play_turns(st, s, w.B, w.V, w.WS, w.FIT, _rules_with(w, G_MAXTURNS=1),
                  EG.Log(w.E, w.EN, 0, 0), res, 0, 1)
    ev = _phase_events(w, 1)
    codes = [(v, c) for v, c, *_ in ev]
    ram = codes.index((1, EG.EV_RAM))
    assert ev[ram][2:4] == (0, 1)                       # a shunt of the lead car
    moves = [i for i, (v, c) in enumerate(codes) if c == EG.EV_MOVE]
    assert [codes[i][0] for i in moves] == [0, 1]       # the target first, each once
    told = codes.index((0, EG.EV_SHUNTMOVE))
    done = codes.index((1, EG.EV_SHUNTMOVE))
    assert ram < told < moves[0] < done < moves[1]
    assert ev[told][2:5] == (0, 1, 50) and ev[done][2:5] == (1, 0, 50)
    assert ev[moves[0]][2:5] == (0, 2, 2)               # the lead car on to space 2
    assert ev[moves[1]][2:6] == (0, 2, 1, 50)           # the chase car to space 1, 50mph
    after = codes[done + 1:]
    assert all(c not in (EG.EV_ACTION, EG.EV_SHOT, EG.EV_PASSIVE) for v, c in after if v == 1)


def test_a_shunted_target_that_has_moved_does_not_move_again_p56_p11():
    """One move and one action a phase (p11-12): a target that has taken its part of the phase
    is not moved again after a shunt, and the rammer's move ends where it stood (completing it
    would run into the same car again)."""
    w = World()
    w.place(0, 0, 2, 1, 40, side=0, role=VH.LEAD)
    w.place(1, 0, 2, 0, 60, side=1, role=VH.CHASE)
    w.V[0, VH.V_STAMP] = 1 * 8 + 1
    st, s = w.script([1] * 100)
    EG._take_turn(st, s, w.B, w.V, w.WS, w.FIT, 2, 1, w.common(), EG.Log(w.E, w.EN, 1, 1))
    codes = [c for v, c, *_ in _phase_events(w, 1)]
    assert EG.EV_RAM in codes and EG.EV_SHUNTMOVE not in codes and EG.EV_MOVE not in codes
    assert w.V[0, VH.V_SP] == 1 and w.V[1, VH.V_SP] == 0
    assert w.V[0, VH.V_MPH] == 50 and w.V[1, VH.V_MPH] == 50 and w.V[1, VH.V_SHUNTED] == 0


@pytest.mark.parametrize("always", [0, 1])
def test_shunt_below_the_phase_variant_shunt_target_move_p56_p12(always):
    """Phase 3: 60mph (SF 3) shunts 20mph (SF 1): both 40mph (SF 2). Default reading
    (phase_rule): the target takes its part of the phase now but, its current speed factor
    below the phase (p12), does not move; nor does the rammer complete its move. Variant
    always: the target takes a move and the rammer completes its move regardless."""
    w = World()
    w.place(0, 0, 2, 1, 20, side=0, role=VH.LEAD)
    w.place(1, 0, 2, 0, 60, side=1, role=VH.CHASE)
    w.WS[:, :, VH.W_AMMO] = 0
    st, s = w.script([1] * 100)
    EG._take_turn(st, s, w.B, w.V, w.WS, w.FIT, 2, 1, _rules_with(w, G_SHUNT_MOVE=always),
                  EG.Log(w.E, w.EN, 1, 3))
    codes = [(v, c) for v, c, *_ in _phase_events(w, 3)]
    assert (1, EG.EV_RAM) in codes and (0, EG.EV_SHUNTMOVE) in codes
    assert w.V[0, VH.V_STAMP] == 1 * 8 + 3          # its part of the phase is taken
    moved = [v for v, c in codes if c == EG.EV_MOVE]
    if always:
        assert moved == [0, 1] and w.V[0, VH.V_SP] == 2 and w.V[1, VH.V_SP] == 1
    else:
        assert moved == [] and w.V[0, VH.V_SP] == 1 and w.V[1, VH.V_SP] == 0


def _regaining_rammer(w, target_moved):
    """The chase car (1) out of control at 60mph one space behind the lead car (0) at 40mph on
    its lanes; the lead car has either taken its part of phase 1 already or is out of control
    too (its own control-loss test comes first when it is told to move, p56)."""
    w.place(0, 0, 2, 1, 40, side=0, role=VH.LEAD)
    w.place(1, 0, 2, 0, 60, side=1, role=VH.CHASE)
    w.V[1, VH.V_OOC] = VH.OUT_OF_CONTROL
    w.WS[:, :, VH.W_AMMO] = 0
    if target_moved:
        w.V[0, VH.V_STAMP] = 1 * 8 + 1
    else:
        w.V[0, VH.V_OOC] = VH.OUT_OF_CONTROL


@pytest.mark.parametrize("braking_left", [30, 10])
def test_a_car_regaining_control_takes_its_shunts_hazard_roll_p42_p56(braking_left):
    """p42, regain control: 'The vehicle must move straight-ahead. Once this has been
    completed, the driver instantly regains control ... The driver must roll for any new
    hazards encountered during the straight-ahead move'; p56: 'Vehicles involved in a shunt
    must take a hazard roll against a safety limit of 40mph'. The chase car's test 1 + SF 3 -
    3 = 1 regains control; its move shunts the lead car (damage rolls 2, 2: nothing through
    the armour; both 50mph). The rammer rolls the 40mph test: 6 + 1 - optimum 4 = 3, a 15mph
    panic brake. With 30mph of braking left it brakes to 35mph and has control back once its
    move is over; with 10mph left it brakes its last 10mph and loses control (p41), a new loss
    the regain does not undo. The target's test (1) is an OK. The old engine skipped the
    rammer's test, because the car was still out of control when it shunted."""
    w = World()
    _regaining_rammer(w, target_moved=True)
    w.V[1, VH.V_BRKLEFT] = braking_left
    st, s = w.script([1, 2, 2, 6, 1])
    EG._take_turn(st, s, w.B, w.V, w.WS, w.FIT, 2, 1, w.common(), EG.Log(w.E, w.EN, 1, 1))
    ev = _phase_events(w, 1)
    tests = [e for e in ev if e[1] == EG.EV_HAZARD]
    assert [(v, lim) for v, c, lim, *_ in tests] == [(1, 40), (0, 40)]
    assert st[dice.POS] == 5
    assert w.V[0, VH.V_MPH] == 50 and w.V[0, VH.V_OOC] == VH.IN_CONTROL
    if braking_left == 30:
        assert w.V[1, VH.V_MPH] == 35 and w.V[1, VH.V_OOC] == VH.IN_CONTROL
    else:
        assert w.V[1, VH.V_MPH] == 40 and w.V[1, VH.V_OOC] == VH.OUT_OF_CONTROL
    assert w.V[1, VH.V_SP] == 0 and w.V[1, VH.V_REGAIN] == 0


@pytest.mark.parametrize("target_moved", [True, False])
def test_a_skid_and_regain_move_ending_in_a_shunt_regains_control_once_made_p42_p56(
        target_moved):
    """p42, skid and regain control: 'The vehicle is treated as being out of control for the
    duration of this move. Once it has been completed the driver instantly regains control.'
    p56: after a shunt the target moves, then the rammer 'may then complete his move'. The
    chase car's test 2 + SF 3 - 3 = 2; the skid test 2 (even) skids it straight, 5mph off; the
    straight move shunts the lead car (damage rolls 2, 2; both 50mph; the rammer, out of
    control for the move, takes no test). If the lead car has moved already (its shunt test 1
    is an OK) the chase car's move ends where it stood; otherwise the lead car, out of control
    and so untested, makes its own control-loss test (1 + 3 - 3 = 1) and regains control on its
    move to space 2, and the chase
    car completes its move to space 1. Either way the move is made and the chase car has
    control back: the old engine left it out of control, as if the move had never ended."""
    w = World()
    _regaining_rammer(w, target_moved)
    st, s = w.script([2, 2, 2, 2, 1])
    EG._take_turn(st, s, w.B, w.V, w.WS, w.FIT, 2, 1, w.common(), EG.Log(w.E, w.EN, 1, 1))
    ev = _phase_events(w, 1)
    tests = [(v, lim) for v, c, lim, *_ in ev if c == EG.EV_HAZARD]
    assert tests == ([(0, 40)] if target_moved else [])
    assert st[dice.POS] == 5
    assert w.V[1, VH.V_MPH] == 45
    assert w.V[1, VH.V_SP] == (0 if target_moved else 1)
    assert w.V[0, VH.V_SP] == (1 if target_moved else 2)
    assert ((1, EG.EV_SHUNTMOVE) in [(v, c) for v, c, *_ in ev]) == (not target_moved)
    assert w.V[1, VH.V_OOC] == VH.IN_CONTROL and w.V[1, VH.V_REGAIN] == 0
    assert w.V[0, VH.V_OOC] == VH.IN_CONTROL


@pytest.mark.parametrize("case", ["drift skid", "first spin"])
def test_a_skidding_or_spinning_rammer_skids_or_spins_after_completing_its_move_p58(case):
    """p58: 'After a shunt ram, a car which is skidding or spinning will get to take its normal
    forward move in which case it simply completes the straight-ahead move, then tests for the
    skid and/or the spin.' The chase car (60mph, out of control) shunts the lead car one space
    ahead, also out of control (damage rolls 2, 2; both 50mph; neither tested). The lead car's
    control-loss test 1 + 3 - 3 = 1 regains control on its move to space 2; the chase car then
    completes its move to space 1 and only then drifts or spins.
    - drift skid: its test 4 + 3 - 3 = 4 (skid, out of control), the skid test 1 (odd, a
      drift skid, 10mph off), 2 (right): it ends in lanes 3-4;
    - first spin: its test 6 + 3 - 3 = 6, the skid test 2 (straight, 5mph off), then after
      the move the spin's direction 2 and rotation 1;
    (A car already spinning never shunts: its collisions are head-on, p57.) The old engine completed every such move as a plain straight move: no drift, no spin."""
    w = World()
    _regaining_rammer(w, target_moved=False)
    if case == "drift skid":
        dice_ = [4, 1, 2, 2, 2, 1]
    else:
        dice_ = [6, 2, 2, 2, 1, 2, 1]
    st, s = w.script(dice_)
    EG._take_turn(st, s, w.B, w.V, w.WS, w.FIT, 2, 1, w.common(), EG.Log(w.E, w.EN, 1, 1))
    ev = _phase_events(w, 1)
    assert st[dice.POS] == len(dice_)
    assert w.V[0, VH.V_SP] == 2 and w.V[1, VH.V_SP] == 1
    done = [i for i, e in enumerate(ev) if e[:3] == (1, EG.EV_SHUNTMOVE, 1)]
    assert len(done) == 1
    spins = [i for i, e in enumerate(ev) if e[:2] == (1, EG.EV_SPIN)]
    assert w.V[1, VH.V_CDRIFT] == 0 and w.V[1, VH.V_CSPIN] == 0
    if case == "drift skid":
        assert w.V[1, VH.V_LANE] == 3 and w.V[1, VH.V_MPH] == 40 and not spins
        assert w.V[1, VH.V_OOC] == VH.OUT_OF_CONTROL
    else:
        assert w.V[1, VH.V_LANE] == 2
        assert len(spins) == 1 and spins[0] > done[0]
        assert ev[spins[0]][2] == 1                     # clockwise: the even die


@pytest.mark.parametrize("blocked_by", ["shunt", "obstacle"])
def test_a_rolling_car_blocked_in_its_move_rolls_where_it_stood_p58(blocked_by):
    """p58: 'Vehicles which are rolling may have one of the four stages of their move blocked
    by another vehicle - in which case take as many of the stages as possible, and work out the
    collision at that speed. The car then rolls and comes to a halt.' The chase car (60mph,
    out of control, handling 1) rolls: control-loss test 6 + 3 - 1 = 8, skid test 2 (straight,
    -5mph). Its forward move runs into
    - the lead car one space ahead at 40mph, which has moved this phase: a shunt (damage rolls
      2, 2; both 50mph; the target's 40mph test 1, OK), the rammer 45mph after the skid's loss,
      SF 3: the roll's three hits at +3 (2, 3, 4), a wreck where it stood, the lead car
      unmoved;
    - an obstacle across its lanes: head-on, three hits at +3 (2, 2, 2), halted: the roll has
      no speed left for hits; a wreck.
    The old engine completed a shunted rammer's move as a plain straight move (no roll) and
    left a head-on rammer out of control at 0mph, never rolled."""
    w = World()
    _regaining_rammer(w, target_moved=True)
    w.V[1, VH.V_HAND] = 1
    if blocked_by == "shunt":
        dice_ = [6, 2, 2, 2, 1, 2, 3, 4]
    else:
        w.place(0, 4, 2, 0, 40, side=0, role=VH.LEAD)
        RD._add_marker(w.M, w.NM, RD.OBSTACLE, 0, 2, 3, RD.rear_x(w.T, 0, 2, 1),
                       RD.front_x(w.T, 0, 2, 1), 1, -1)
        dice_ = [6, 2, 2, 2, 2]
    st, s = w.script(dice_)
    EG._take_turn(st, s, w.B, w.V, w.WS, w.FIT, 2, 1, w.common(), EG.Log(w.E, w.EN, 1, 1))
    ev = _phase_events(w, 1)
    assert st[dice.POS] == len(dice_)
    rolls = [e for e in ev if e[:2] == (1, EG.EV_ROLL)]
    assert len(rolls) == 1 and rolls[0][4] == 1          # rolled where it was blocked
    assert not [e for e in ev if e[:2] == (1, EG.EV_SPIN)]  # the rotation stage not reached
    assert w.V[1, VH.V_STATUS] == VH.WRECK and w.V[1, VH.V_MPH] == 0
    assert w.V[1, VH.V_SP] == 0 and w.V[1, VH.V_LANE] == 2
    if blocked_by == "shunt":
        assert rolls[0][2] == 3
        assert w.V[1, VH.V_DMG] == 18 - sum(r + 3 - 3 for r in (2, 3, 4))
        assert not [e for e in ev if e[:3] == (1, EG.EV_SHUNTMOVE, 1)]  # nothing completed
        assert w.V[0, VH.V_SP] == 1 and w.V[0, VH.V_MPH] == 50
    else:
        assert rolls[0][2] == 0


def test_a_critical_on_a_regaining_move_forces_its_hazard_roll_p42():
    """p42, regain control: 'The driver must roll for any new hazards encountered during the
    straight-ahead move'; p41: out of control, no hazard rolls. A hazard roll a critical forces
    is such a hazard. The chase car at 80mph (handling and skill 4), out of control, regains:
    1 + 4 - 4 = 1; its move runs over a mine (damage 6: a critical; floor 5, then 5: the
    driver; 1: Hurt, a hazard roll over 40mph): the roll 6 + 4 - 4 = 6 loses control again,
    a new loss the regain does not undo (the mine's own 50mph test is not rolled: the car is
    out of control once the move is made). The old engine told the shot kernel an out of
    control car's speed was 0, so the forced roll was never made and the car had control
    back."""
    w = World()
    w.place(0, 3, 2, 0, 40, side=0, role=VH.LEAD)
    w.place(1, 0, 2, 0, 80, side=1, role=VH.CHASE, skill=4)
    w.V[1, VH.V_OOC] = VH.OUT_OF_CONTROL
    w.WS[:, :, VH.W_AMMO] = 0
    x0, x1 = RD.rear_x(w.T, 0, 2, 1), RD.front_x(w.T, 0, 2, 1)
    RD._add_marker(w.M, w.NM, RD.MINES, 0, 2, 3, x0, x1, 0, 0)
    st, s = w.script([1, 6, 5, 5, 1, 6])
    EG._take_turn(st, s, w.B, w.V, w.WS, w.FIT, 2, 1, w.common(), EG.Log(w.E, w.EN, 1, 1))
    ev = _phase_events(w, 1)
    assert st[dice.POS] == 6
    # the last die is the forced roll: no hazard roll follows the move (the old engine rolled
    # the mine's 50mph test with it, 6 + 3 - 4, and lost control there instead)
    assert not [e for e in ev if e[1] == EG.EV_HAZARD]
    assert w.V[1, VH.V_SP] == 1
    assert w.V[1, VH.V_OOC] == VH.OUT_OF_CONTROL
    assert w.V[1, VH.V_REGAIN] == 0 and w.V[1, VH.V_LOSTAGAIN] == 0


def test_a_limb_disabled_by_a_mine_on_a_regaining_move_keeps_the_car_out_of_control_p34_p42():
    """p42, regain control: 'Once this has been completed, the driver instantly regains
    control'; p34, Limb Disabled: 'The vehicle automatically loses control, and the driver
    makes a control loss test at the start of the next move'; p40: 'Vehicles can also be forced
    to lose control as a result of critical damage hits.' The regain ends the loss its test
    was for, not a new one forced during the move. The chase car's test 1 + 3 - 3 = 1 regains
    control; its move runs over a mine (damage 6, then the critical rolls 6, 5, 5: a driver
    hit, Limb Disabled; the limb dice 6, 4: the right arm, drive skill -2). It ends the move
    out of control, to test at the start of its next; the old engine gave it control back."""
    w = World()
    w.place(0, 3, 2, 0, 40, side=0, role=VH.LEAD)
    w.place(1, 0, 2, 0, 60, side=1, role=VH.CHASE)
    w.V[1, VH.V_OOC] = VH.OUT_OF_CONTROL
    w.WS[:, :, VH.W_AMMO] = 0
    x0, x1 = RD.rear_x(w.T, 0, 2, 1), RD.front_x(w.T, 0, 2, 1)
    RD._add_marker(w.M, w.NM, RD.MINES, 0, 2, 3, x0, x1, 0, 0)
    st, s = w.script([1, 6, 6, 5, 5, 6, 4])
    EG._take_turn(st, s, w.B, w.V, w.WS, w.FIT, 2, 1, w.common(), EG.Log(w.E, w.EN, 1, 1))
    ev = _phase_events(w, 1)
    assert st[dice.POS] == 7
    assert (1, EG.EV_LASTING, SH.L_LIMB, 3) in [e[:4] for e in ev]
    assert w.V[1, VH.V_SP] == 1 and w.V[1, VH.V_SKILL] == 1
    assert w.V[1, VH.V_OOC] == VH.OUT_OF_CONTROL
    assert w.V[1, VH.V_REGAIN] == 0 and w.V[1, VH.V_LOSTAGAIN] == 0


def test_the_one_accelerating_the_most_moves_off_first_p15():
    """p15: stationary vehicles move after all others in phase 1, and 'when there are 2 or
    more vehicles moving off together, the one which is accelerating the most moves first'.
    Two stopped cars on separate lanes, the one in front (the chase car) with its acceleration
    cut to 5mph, the lead car behind it moving off at 20mph: the car behind moves off first
    (the old engine moved the one in front first). The declarations come before either moves
    and are the ones each then takes (logged with the speed set)."""
    w = World()
    w.place(0, 0, 0, 0, 0, side=0, role=VH.LEAD)
    w.place(1, 0, 3, 2, 0, side=1, role=VH.CHASE)
    w.V[1, VH.V_ACC] = 5
    w.WS[:, :, VH.W_AMMO] = 0
    st, s = w.script([1] * 400)
    res = np.zeros(EG.R_W, np.int64)
    EG.play_turns(st, s, w.B, w.V, w.WS, w.FIT, _rules_with(w, G_MAXTURNS=1),
                  EG.Log(w.E, w.EN, 0, 0), res, 0, 1)
    ev = _phase_events(w, 1)
    acts = {v: a for v, c, *a in ev if c == EG.EV_ACTION}
    assert acts[0][:3] == [PO.A_ACCEL, 20, 20] and acts[1][:3] == [PO.A_ACCEL, 5, 5]
    assert [v for v, c, *_ in ev if c == EG.EV_MOVE] == [0, 1]


def test_head_on_example_p56_six_hits_at_plus_six():
    """Two cars at 57mph (SF 3 each) meet head-on: 6 hits at +6 on each; both halt.
    Interceptors (24 points, armour 4) so that no hit is terminal."""
    w = World()
    w.place(0, 0, 2, 0, 57, kind=1)
    w.place(1, 0, 2, 1, 57, kind=1)
    w.V[1, VH.V_ATT] = 90      # at an angle to the grid: any collision is head-on (p57)
    st, s = w.script([1] * 12)
    EG._ram(st, s, w.B, w.V, w.WS, w.FIT, 0, 1, w.common(), EG.Log(w.E, w.EN, 1, 1))
    assert w.V[0, VH.V_DMG] == 24 - 6 * (1 + 6 - 4) and w.V[1, VH.V_DMG] == 24 - 6 * (1 + 6 - 4)
    assert w.V[0, VH.V_MPH] == 0 and w.V[1, VH.V_MPH] == 0
    assert st[dice.POS] == 12


def test_sideswipe_relative_hit_example_p56():
    """Neck and neck at SF 4 and SF 3: the loser of the test takes one hit at +1, both -10mph,
    the loser tests at 40mph and, losing control, skids away from the rammer."""
    w = World()
    w.place(0, 1, 0, 1, 70)     # rammer, lanes 0-1
    w.place(1, 1, 2, 1, 55)     # target, lanes 2-3, level with it
    # test: rammer 1 + 1 + 4 = 6, target 6 + 4 = 10: the rammer loses; its damage roll 4
    # (+1 - 3 = 2 points); its hazard roll at 60mph vs 40: 6 + 2 - 4 = 4: 20mph panic brake
    st, s = w.script([1, 6, 4, 6])
    EG._sideswipe(st, s, w.B, w.V, w.WS, w.FIT, 2, 0, 1, w.common(), EG.Log(w.E, w.EN, 1, 1))
    assert w.V[0, VH.V_DMG] == 16 and w.V[1, VH.V_DMG] == 18
    assert w.V[0, VH.V_MPH] == 40 and w.V[1, VH.V_MPH] == 45
    assert w.V[0, VH.V_PANIC] == 1 and w.V[0, VH.V_OOC] == VH.IN_CONTROL


def test_rolling_example_p46_three_hits_at_plus_three():
    """A car out of control at 60mph (SF 3) with adverse control 1 rolls a 6: 6 + 3 - 1 = 8, a
    roll: it skids (straight, -5mph: still SF 3), spins, then takes 3 hits at +3 on the roof
    and is a wreck."""
    w = World()
    w.place(0, 1, 2, 0, 60)
    w.place(1, 5, 2, 0, 60)
    w.V[0, VH.V_HAND] = 1
    w.V[0, VH.V_OOC] = VH.OUT_OF_CONTROL
    # control-loss test 6; skid test 2 (even: straight); spin: direction 2, rotation 3; three
    # damage rolls 2, 3, 4 (no criticals)
    st, s = w.script([6, 2, 2, 3, 2, 3, 4])
    EG._out_of_control_move(st, s, w.B, w.V, w.WS, w.FIT, 2, 0, w.common(),
                            EG.Log(w.E, w.EN, 1, 1))
    assert w.V[0, VH.V_STATUS] == VH.WRECK and w.V[0, VH.V_MPH] == 0
    assert w.V[0, VH.V_DMG] == 18 - sum(r + 3 - 3 for r in (2, 3, 4))
    assert st[dice.POS] == 7


def test_skid_off_the_road_is_a_crash_p58():
    w = World()
    w.place(0, 1, 4, 0, 50)      # lanes 4-5, the right edge
    w.place(1, 5, 0, 0, 50)
    w.V[0, VH.V_OOC] = VH.OUT_OF_CONTROL
    # control-loss 6 + 3 - 3 = 6: spin -> skid test 1 (odd: drift skid), 2 (even: right) -> off
    st, s = w.script([6, 1, 2])
    EG._out_of_control_move(st, s, w.B, w.V, w.WS, w.FIT, 2, 0, w.common(),
                            EG.Log(w.E, w.EN, 1, 1))
    assert w.V[0, VH.V_STATUS] == VH.CRASHED


def test_oil_tested_last_and_at_30mph_after_a_panic_brake_p30():
    """80mph onto oil on a 50mph curve: the curve first; a panic brake makes the oil test 30mph."""
    w = World(layout=("S", "CR", "S"))
    w.place(0, 0, 2, 2, 80)
    w.place(1, 2, 0, 2, 0)
    lane = 2
    x0, x1 = RD.rear_x(w.T, 1, lane, 0), RD.front_x(w.T, 1, lane, 0)
    RD._add_marker(w.M, w.NM, RD.OIL, 1, 2, 3, x0, x1, 0, 1)
    lim_curve = RD.pair_limit(w.T, 1, 2)
    # the oil costs a handling point first (optimum control 3); the curve: 1 + 3 - 3 = 1, a 5mph
    # panic brake; then the oil against 30mph (not 60: a curve, and after a panic brake)
    st, s = w.script([1, 1])
    nl = EG._advance(st, s, w.B, w.V, w.WS, w.FIT, 2, 0, EG.Move(0, True, False), w.common(),
                     EG.Log(w.E, w.EN, 1, 1))
    assert nl == 2 and w.V[0, VH.V_HAND] == 3    # oil: handling -1
    EG._after_move(st, s, w.T, w.V, 0, w.G, EG.Log(w.E, w.EN, 1, 1), w.K, nl, w.hp)
    ev = [tuple(e[4:8]) for e in w.E[:w.EN[0]] if e[3] == EG.EV_HAZARD]
    assert ev[0][0] == lim_curve and ev[0][1] == 1          # the curve, a panic brake
    assert ev[1][3] == 1                                     # then the oil


def test_drivers_in_scripted_positions():
    w = World(layout=("S", "S", "S", "CL", "S", "S", "S"))
    par_std = PO.policy_vector("standard")
    # the chase car (1) 3 spaces behind the lead car (0) in its lanes: it shoots its hood MG
    w.place(0, 1, 2, 1, 60, side=0, role=VH.LEAD)
    w.place(1, 0, 2, 1, 60, side=1, role=VH.CHASE)
    act, arg = PO.decide(w.B, w.T, w.V, w.WS, 2, 1, True, w.hp, par_std, *w.dice)
    assert act == PO.A_SHOOT and w.WS[1, arg, VH.W_MOUNT] == VH.M_HOOD
    # the lead car below its cruising speed, the pursuer not on its tail: the escaping driver
    # speeds up, the careful one drops its oil
    act, arg = PO.decide(w.B, w.T, w.V, w.WS, 2, 0, True, w.hp, par_std, *w.dice)
    assert (act, arg) == (PO.A_ACCEL, 20)
    act, arg = PO.decide(w.B, w.T, w.V, w.WS, 2, 0, True, w.hp, PO.policy_vector("careful"),
                         *w.dice)
    assert act == PO.A_PASSIVE and w.WS[0, arg, VH.W_KIND] == VH.WK_PASSIVE
    # at its cruising speed the escaping driver drops oil too
    w.V[0, VH.V_MPH] = 100
    act, arg = PO.decide(w.B, w.T, w.V, w.WS, 2, 0, True, w.hp, par_std, *w.dice)
    assert act == PO.A_PASSIVE
    # out of passives, the lead car drifts out of the chase car's corridor
    w.WS[0, arg, VH.W_AMMO] = 0
    act, arg = PO.decide(w.B, w.T, w.V, w.WS, 2, 0, True, w.hp, par_std, *w.dice)
    assert act == PO.A_DRIFT
    # 90mph one space short of a corner: brake towards the optimum speed (p41)
    w.place(0, 2, 2, 1, 90, side=0, role=VH.LEAD)
    w.place(1, 0, 0, 0, 30, side=1, role=VH.CHASE)
    act, arg = PO.decide(w.B, w.T, w.V, w.WS, 2, 0, True, w.hp, par_std, *w.dice)
    want = PO.planned_speed(w.T, w.V, 0, 3, w.hp, par_std)
    assert act == PO.A_BRAKE and arg == min(30, 90 - want)
    # the optimum speed of p41: limit + 10 x (control - 2) with control 4 -> limit + 20
    assert want == RD.pair_limit(w.T, 3, 2) + 20
    # careful drivers take the limit itself
    assert PO.planned_speed(w.T, w.V, 0, 3, w.hp, PO.policy_vector("careful")) == RD.pair_limit(w.T, 3, 2)
    # the chase car level with an enemy in the adjacent lanes sideswipes it
    w.place(0, 1, 2, 1, 60, side=0, role=VH.LEAD)
    w.place(1, 1, 0, 0, 60, side=1, role=VH.CHASE)
    w.WS[1, :, VH.W_AMMO] = 0
    act, arg = PO.decide(w.B, w.T, w.V, w.WS, 2, 1, True, w.hp, par_std, *w.dice)
    assert (act, arg) == (PO.A_SWIPE, 1)
    act, arg = PO.decide(w.B, w.T, w.V, w.WS, 2, 1, True, w.hp, PO.policy_vector("careful"),
                         *w.dice)
    assert act != PO.A_SWIPE


def test_closest_target_rule_and_turrets_p25_p27():
    w = World(scenario="game-6.toml")
    # gang cars 0, 1 (side 0), Interceptor 2 (side 1)
    w.place(2, 0, 2, 0, 60, side=1)
    w.place(0, 0, 2, 2, 60, side=0)    # directly ahead, 2 spaces
    w.place(1, 1, 2, 1, 60, side=0)
    assert VH.find_target(w.T, w.V, 3, 2, VH.M_HOOD, w.tbuf) == 0 and w.tbuf[1] == 2
    # a friend in front blocks the corridor: gang car 0 cannot shoot through gang car 1
    w.place(0, 1, 2, 0, 60, side=0)
    w.place(1, 1, 2, 1, 60, side=0)
    w.place(2, 1, 2, 2, 60, side=1)
    assert VH.find_target(w.T, w.V, 3, 0, VH.M_HOOD, w.tbuf) == -1
    # a wing's corridor is its own lane: the left wing misses a car on lanes 3-4
    w.place(1, 5, 0, 0, 60, side=0)
    w.place(2, 1, 3, 2, 60, side=1)
    assert VH.find_target(w.T, w.V, 3, 0, VH.M_WING_L, w.tbuf) == -1
    assert VH.find_target(w.T, w.V, 3, 0, VH.M_WING_R, w.tbuf) == 2
    # a turret picks the nearest enemy, behind on a tie
    w.place(2, 1, 2, 1, 60, side=1)
    w.place(0, 0, 2, 1, 60, side=0)   # 2 spaces behind
    w.place(1, 2, 2, 1, 60, side=0)   # as far ahead
    assert VH.find_target(w.T, w.V, 3, 2, VH.M_TURRET, w.tbuf) == 0 and w.tbuf[2] == 0


def test_golden_playthroughs():
    """Seeded game logs kept in tests/golden; a change in them must be a deliberate one."""
    for name in ("game-1", "game-6"):
        lines, _ = GM.playthrough(SCEN / f"{name}.toml", seed=2026)
        golden = GOLDEN / f"dark-future-{name}.log"
        assert "\n".join(lines) + "\n" == golden.read_text(), name


def test_recorded_dice_replay_the_same_game():
    """Every roll goes through the dice source: the recorded rolls of a seeded game, replayed
    as a script, give the same game."""
    sc = GM.load_scenario(SCEN / "game-3.toml")
    ev, res, world, _ = GM.play_one(sc, seed=5, trial=3)
    rolls = world[-1]
    ev2, res2, world2, _ = GM.play_one(sc, script=rolls)
    assert np.array_equal(ev, ev2) and np.array_equal(res, res2)
    assert len(world2[-1]) == len(rolls)


def test_a_log_too_small_is_refused_not_cut():
    """The log counts every event, kept or not (core.eventlog): a game that overflows its log
    is an error naming the game, never a silently shortened playthrough."""
    from simkit.core.eventlog import COLUMNS, LogOverflow

    sc = GM.load_scenario(SCEN / "game-1.toml")
    ev, _, _, _ = GM.play_one(sc, seed=5, trial=3)
    assert ev.shape == (len(ev), len(COLUMNS)) and len(ev) > 10
    with pytest.raises(LogOverflow, match=f"{len(ev):,} events.*capacity 10"):
        GM.play_one(sc, seed=5, trial=3, max_events=10)


@pytest.mark.parametrize("name", ["game-2.toml", "game-6.toml"])
def test_results_do_not_depend_on_threads_or_chunks(name):
    sim = GM.GameSim(GM.load_scenario(SCEN / name))
    a = run(sim, 3000, 11, chunk_size=1000, threads=1, progress=False).totals
    b = run(sim, 3000, 11, chunk_size=777, threads=2, progress=False).totals
    assert np.array_equal(a, b)


def test_every_game_plays_or_is_refused():
    for n in range(1, 9):
        sc = GM.load_scenario(SCEN / f"game-{n}.toml")
        f = run(GM.GameSim(sc), 400, 1, progress=False).frame
        assert f["wins"].sum() + f["draws"].iloc[0] == 400
    # Game Eight's intercept plays since vehicles may face against the direction of play
    f = run(GM.GameSim(GM.load_scenario(SCEN / "game-8-intercept.toml")), 400, 1,
            progress=False).frame
    assert f["wins"].sum() + f["draws"].iloc[0] == 400


def test_scenario_cli(capsys, tmp_path):
    from simkit.cli import main

    log = tmp_path / "g1.log"
    assert main(["scenario", "run", str(SCEN / "game-1.toml"), "--trials", "2000",
                 "--log", str(log)]) == 0
    out = capsys.readouterr().out
    assert "win_rate" in out and "lead" in out and "chase" in out
    assert log.read_text().startswith("# Game One")
    refused = tmp_path / "refused.toml"
    refused.write_text('refuse = "needs a rule"\n' + (SCEN / "game-1.toml").read_text())
    assert main(["scenario", "run", str(refused)]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "not modelled" in err[0]
    # bikes ride now (tests/test_dark_future_bikes.py); a car's weapon on a bike is refused
    bike = tmp_path / "bikes.toml"
    bike.write_text((SCEN / "game-6.toml").read_text().replace(
        '"bike: fairings=lw_mg"', '"bike: fairings=mg"'))
    assert main(["scenario", "run", str(bike)]) == 2
    assert "bike" in capsys.readouterr().err


def test_scenario_policies_and_pairings():
    f = SCENARIO.table(SCEN / "game-1.toml", trials=500, seed=3, all_policies=True,
                       progress=False)
    assert len(f) == 2 * len(PO.POLICIES) ** 2 and set(f["policy"]) == set(PO.POLICIES)
    with pytest.raises(UserInputError):
        SCENARIO.table(SCEN / "game-1.toml", trials=10, policies={"player-1": "nosuch"})


def test_budget_is_enforced(tmp_path):
    p = tmp_path / "g4.toml"
    p.write_text((SCEN / "game-4.toml").read_text().replace(
        '"renegade: hood=autocannon, passive=mines"', '"renegade: hood=chain_gun, passive=mines"'))
    with pytest.raises(UserInputError, match="budget"):
        GM.load_scenario(p)


def _tv(x):
    import json
    if isinstance(x, bool):
        return "true" if x else "false"
    if isinstance(x, int):
        return str(x)
    if isinstance(x, str):
        return json.dumps(x)
    return "[" + ", ".join(_tv(y) for y in x) + "]"


def _toml(d):
    """A small TOML writer for the fuzz documents (scalars, lists, [[side]] tables)."""
    out = [f"{k} = {_tv(v)}" for k, v in d.items() if k != "side"]
    for sd in d.get("side", []):
        out.append("[[side]]")
        out += [f"{k} = {_tv(v)}" for k, v in sd.items()]
    return "\n".join(out) + "\n"


def test_loader_fuzz(tmp_path):
    """Random TOML thrown at the scenario loader: a UserInputError or a scenario, never a
    traceback."""
    from hypothesis import given, settings
    from hypothesis import strategies as st

    scalars = st.one_of(st.integers(-5, 200), st.text(max_size=12), st.booleans(),
                        st.sampled_from(["roll", "die", "fixed", "finish", "destroy", "layouts",
                                         "continuous", "initial", "straights", "standard",
                                         "renegade: hood=mg", "bike: fairings=lw_mg",
                                         "offensive", "S", "CL", "lead", "chase"]))
    values = st.one_of(scalars, st.lists(scalars, max_size=4),
                       st.lists(st.lists(scalars, max_size=8), max_size=3))
    keys = st.sampled_from(["game", "name", "track", "start_mph", "roles", "victory", "max_turns",
                            "road_hazards", "layouts", "sections", "variants", "refuse"])
    side_keys = st.sampled_from(["name", "policy", "cars", "skill", "role", "budget",
                                 "budget_scope", "car_table"])
    side = st.dictionaries(side_keys, values, max_size=6)
    doc = st.fixed_dictionaries({"game": st.just("dark-future"), "track": st.sampled_from(
        ["straights", "layouts", "initial", "continuous", "bogus"]),
        "side": st.lists(side, min_size=0, max_size=3)}).flatmap(
        lambda base: st.dictionaries(keys, values, max_size=5).map(lambda extra: {**extra, **base}))

    @settings(max_examples=100, deadline=None)
    @given(doc)
    def check(d):
        path = tmp_path / "fuzz.toml"
        path.write_text(_toml(d))
        try:
            GM.load_scenario(path)
        except UserInputError:
            pass

    check()


def _spinning_beside(lead_mph):
    """The chase car (1) out of control at 60mph on lanes 2-3 of space 0; the lead car (0) on
    lanes 4-5 of space 1, having taken its part of phase 1, at ``lead_mph``."""
    w = World()
    w.place(0, 0, 4, 1, lead_mph, side=0, role=VH.LEAD)
    w.place(1, 0, 2, 0, 60, side=1, role=VH.CHASE)
    w.V[1, VH.V_OOC] = VH.OUT_OF_CONTROL
    w.V[0, VH.V_STAMP] = 1 * 8 + 1
    w.WS[:, :, VH.W_AMMO] = 0
    return w


def _spins_next_move(w):
    """Phase 2, the lead car gone: the spinning chase car moves and makes its first rotation,
    rolling its direction (2: clockwise) and the rotation (1)."""
    w.V[0, VH.V_STATUS] = VH.LEFT
    st, s = w.script([2, 1])
    EG._take_turn(st, s, w.B, w.V, w.WS, w.FIT, 2, 1, w.common(), EG.Log(w.E, w.EN, 1, 2))
    ev = _phase_events(w, 2)
    assert st[dice.POS] == 2
    spins = [e for e in ev if e[:2] == (1, EG.EV_SPIN)]
    assert len(spins) == 1 and spins[0][2] == 1     # clockwise: the direction rolled now


def test_a_spin_whose_drift_skid_is_blocked_makes_no_rotation_that_move_p57_p58():
    """p57-58: 'Vehicles which are spinning or skidding must execute their moves in a strict
    sequence - forward moves, drift skids and spins, in that order ... if a collision will
    occur, the move comes to an end.' The chase car's control-loss test 6 + 3 - 3 = 6, a spin;
    its skid test 1 (a drift skid, -10mph), 2 (right): after its forward move the drift into
    lanes 3-4 runs into the lead car (40mph) on lanes 4-5, a shunt (damage rolls 2, 2; the lead
    car's 40mph test 2). The move ends there: no rotation, no dice for one (six rolls in all),
    and the car, still moving, is spinning; its next move makes the first rotation, its
    direction rolled then. The old engine rotated it after the blocked drift (eight rolls)."""
    w = _spinning_beside(40)
    dice_ = [6, 1, 2, 2, 2, 2, 2, 1]
    st, s = w.script(dice_)
    EG._take_turn(st, s, w.B, w.V, w.WS, w.FIT, 2, 1, w.common(), EG.Log(w.E, w.EN, 1, 1))
    ev = _phase_events(w, 1)
    assert [e for e in ev if e[:2] == (1, EG.EV_RAM)]
    assert not [e for e in ev if e[:2] == (1, EG.EV_SPIN)]
    assert st[dice.POS] == 6
    assert w.V[1, VH.V_LANE] == 2 and w.V[1, VH.V_SP] == 1 and w.V[1, VH.V_MPH] > 0
    assert w.V[1, VH.V_OOC] == VH.SPINNING and w.V[1, VH.V_ATT] == 0
    _spins_next_move(w)


def test_a_spin_rotation_blocked_by_a_car_is_a_sideswipe_and_the_car_spins_on_p44_p58():
    """p58: 'The rotation of a spinning model may cause it to hit another vehicle. In these
    cases, there is no need to roll for rotation. The car model isn't actually moved, and the
    collision is treated as a sideswipe. If the car is still moving after the sideswipe, it is
    still classed as spinning. In its next move, and all subsequent ones, it moves
    straight-ahead and rolls for rotation normally' (p44 alike). The chase car's test 6, a spin;
    skid test 2 (straight, -5mph): it moves to space 1, 55mph; the rotation's four-lane zone
    (lanes 1-4) holds the stationary lead car on lanes 4-5: no direction or rotation roll, not
    moved (still square to the grid), an opposed sideswipe (p54: the target is stationary; both
    3 + 3 + 1 = 7, a draw: one combined hit each, damage rolls 3, 3; both -20mph; the hazard
    rolls 3). Still moving (35mph), it is spinning, and its next move makes the first rotation.
    The old engine rolled the rotation through the lead car ('not yet' in the coverage row)."""
    w = _spinning_beside(0)
    dice_ = [6, 2, 3, 3, 3, 3, 2, 1]
    st, s = w.script(dice_)
    EG._take_turn(st, s, w.B, w.V, w.WS, w.FIT, 2, 1, w.common(), EG.Log(w.E, w.EN, 1, 1))
    ev = _phase_events(w, 1)
    assert st[dice.POS] == 6
    spins = [e for e in ev if e[:2] == (1, EG.EV_SPIN)]
    assert spins == [(1, EG.EV_SPIN, 0, 0, 0, 55)]     # blocked by car 0, no rotation
    assert [e for e in ev if e[:2] == (1, EG.EV_OPPSWIPE)]
    assert w.V[1, VH.V_SP] == 1 and w.V[1, VH.V_LANE] == 2 and w.V[1, VH.V_ATT] == 0
    assert w.V[1, VH.V_MPH] == 35 and w.V[1, VH.V_OOC] == VH.SPINNING
    _spins_next_move(w)
