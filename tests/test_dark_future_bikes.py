"""Bikes as movers (dark-future.txt p62-72): the rulebook's worked bike examples replayed on the
engine's pieces with scripted dice, every bike rule in a scripted position (dodge, overlap,
rolls, road damage, collisions bike-bike and bike-car, abandoning and pushing), the gang
tactics' parameters changing the rider's choice, and whole Games Six and Seven with bikes.
"""

from pathlib import Path

import numpy as np

from simkit.core import dice
from simkit.core.runner import run
from simkit.dark_future import engine as EG
from simkit.dark_future import scenario as GM
from simkit.dark_future import policies as PO
from simkit.dark_future.pieces import road as RD
from simkit.dark_future.pieces import vehicle as VH

ROOT = Path(__file__).resolve().parents[1]
SCEN = ROOT / "scenarios" / "dark-future"
BIKE = 2      # rules.VEHICLES index
CAR = 0


class World:
    """Game Six's arrays (vehicle 0 a Renegade, 1-2 bikes, 3 the Interceptor), every vehicle
    parked off the road until placed by hand."""

    def __init__(self, layout=("S",) * 7):
        self.sc = GM.load_scenario(SCEN / "game-6.toml")
        self.sim = GM.GameSim(self.sc)
        a = self.a = self.sim.a
        n = self.n = a.G[EG.G_NV]
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
        self.POL = a.POL.copy()
        for v in range(n):
            self.WS[v] = a.LOAD[v, 0]
            self.FIT[v] = a.LFIT[v, 0]
            self.V[v, VH.V_STATUS] = VH.LEFT

    def place(self, v, sec, lane, sp, mph, kind, side=None, role=0, skill=3, direction=0):
        V, P = self.V, self.a.PROF[kind]
        V[v, :] = 0
        V[v, VH.V_KIND] = kind
        V[v, VH.V_BIKE] = 1 if kind == BIKE else 0
        V[v, VH.V_SIDE] = v if side is None else side
        V[v, VH.V_ROLE] = role
        V[v, VH.V_DIR] = direction
        V[v, VH.V_SEC], V[v, VH.V_LANE], V[v, VH.V_SP], V[v, VH.V_MPH] = sec, lane, sp, mph
        V[v, VH.V_DMG] = V[v, VH.V_MAXDMG] = P[0]
        V[v, VH.V_ARM], V[v, VH.V_MAXSPD], V[v, VH.V_ACC] = P[1], P[2], P[3]
        V[v, VH.V_BRK] = V[v, VH.V_BRKLEFT] = P[4]
        V[v, VH.V_HAND] = P[5]
        V[v, VH.V_SKILL] = skill

    def script(self, rolls):
        st = dice.new_state()
        dice.set_scripted(st)
        return st, np.array(rolls, np.int64)

    def common(self):
        """The rules buffer of the scenario's tables with this world's policies."""
        tables = [getattr(self.a, k) for k in EG.RULES_ARGS[:-1]] + [self.POL]
        return EG.rules_buffer(*tables)

    def ram(self, st, s, v, u):
        EG._ram(st, s, self.B, self.V, self.WS, self.FIT, v, u, self.common(),
                EG.Log(self.E, self.EN, 1, 1))

    def ooc_move(self, st, s, v):
        EG._out_of_control_move(st, s, self.B, self.V, self.WS, self.FIT, self.n, v, self.common(),
                                EG.Log(self.E, self.EN, 1, 1))

    def act(self, st, s, v, turn=1, phase=1):
        EG._act(st, s, self.B, self.V, self.WS, self.FIT, self.n, v, self.common(),
                EG.Log(self.E, self.EN, turn, phase))

    def decide(self, v, moves=True):
        act, arg = PO.decide(self.B, self.T, self.V, self.WS, self.n, v, moves, self.a.hp,
                             self.POL[v], *self.dice)
        return PO.bike_decide(self.B, self.T, self.V, self.WS, self.n, v, moves, self.a.hp,
                              self.POL[v], act, arg, *self.dice)

    def events(self, code=None):
        ev = self.E[:self.EN[0]]
        return ev if code is None else ev[ev[:, 3] == code]

    def marker(self, kind, sec, sp, llo, lhi):
        lane = llo
        return RD._add_marker(self.M, self.NM, kind, sec, llo, lhi, RD.rear_x(self.T, sec, lane, sp),
                              RD.front_x(self.T, sec, lane, sp), 0, -1)


def _pos(st):
    return int(st[dice.POS])


# --- worked examples --------------------------------------------------------------------------------
def test_road_damage_example_p68_a_bike_rolling_at_35mph():
    """'an out of control bike rolls at 35mph, which is speed factor 2, and the rider takes
    road damage. The player rolls for a driver critical, but subtracts two from the score.'
    Control-loss test 5 + SF 2 - adverse 1 = 6: a roll (bike table, p70); skid test 2 (straight,
    -5mph: 30mph, still SF 2); SF 2 - 2 = no hits; road damage d6 4 - 2 = 2: 'hurt'."""
    w = World()
    w.place(1, 1, 2, 0, 35, BIKE, skill=1)
    w.V[1, VH.V_OOC] = VH.OUT_OF_CONTROL
    st, s = w.script([5, 2, 4])
    w.ooc_move(st, s, 1)
    assert _pos(st) == 3
    rd = w.events(EG.EV_ROADDMG)
    assert rd.shape[0] == 1 and tuple(rd[0, 4:8]) == (4, -2, 2, 2)
    assert w.V[1, VH.V_FALLEN] == 1 and w.V[1, VH.V_MPH] == 0 and w.V[1, VH.V_STATUS] == VH.ACTIVE
    assert w.V[1, VH.V_SP] == 1          # the skid's move came before the fall
    assert w.V[1, VH.V_SKILL] == 1       # hurt: a hazard roll only, the bike is halted
    # a low enough roll leaves the rider unhurt (the score is under 1)
    w = World()
    w.place(1, 1, 2, 0, 35, BIKE, skill=1)
    w.V[1, VH.V_OOC] = VH.OUT_OF_CONTROL
    st, s = w.script([6, 2, 2])
    w.ooc_move(st, s, 1)
    assert tuple(w.events(EG.EV_ROADDMG)[0, 4:7]) == (2, -2, 0)


def test_rolling_bike_example_p70_two_hits_at_plus_two():
    """'A bike rolling at speed factor 4 would take 2 hits, both at +2 damage', on random
    facings; then road damage at +2: d6 4 + 2 = 6, K.O.: the bike is a wreck (p70)."""
    w = World()
    w.place(1, 1, 2, 0, 75, BIKE, skill=3)
    w.V[1, VH.V_OOC] = VH.OUT_OF_CONTROL
    # test 5 + 4 - 3 = 6 roll; skid 2 (straight, 70mph: SF 4); hit 1: facing 6 (rear), damage
    # 3 + 2 - 2 = 3; hit 2: facing 5 (front), damage 4 + 2 - 2 = 4; road damage 4
    st, s = w.script([5, 2, 6, 3, 5, 4, 4])
    w.ooc_move(st, s, 1)
    assert _pos(st) == 7
    roll = w.events(EG.EV_BIKEROLL)
    assert roll.shape[0] == 1 and tuple(roll[0, 4:6]) == (2, 2)
    assert w.V[1, VH.V_DMG] == 9 - 3 - 4
    assert w.V[1, VH.V_NODRIVER] == 1 and w.V[1, VH.V_STATUS] == VH.WRECK


def test_bike_roll_at_81mph_or_more_is_a_crash_without_a_move_p70():
    w = World()
    w.place(1, 1, 2, 0, 90, BIKE, skill=3)
    w.V[1, VH.V_OOC] = VH.OUT_OF_CONTROL
    st, s = w.script([4] + [2] * 40)    # 4 + SF 5 - 3 = 6: roll at 90mph
    w.ooc_move(st, s, 1)
    assert w.V[1, VH.V_STATUS] == VH.CRASHED and w.V[1, VH.V_SP] == 0
    assert w.events(EG.EV_CRASH)[0, 4] == EG.CRASH_BIKE_ROLL
    assert w.events(EG.EV_ROADDMG).shape[0] == 1            # the rider's road damage
    assert w.events(EG.EV_DAMAGE).shape[0] >= 1             # crash damage, SF 5 hits


def test_overlap_example_p64_opposed_bikes_only_the_fast_one_tests():
    """'a bike travelling at 70 miles per hour flashes past another bike at 30mph' (opposed:
    40mph limit): the 70mph rider rolls, the 30mph one is under the limit. The other bike
    travels against the direction of play (V_DIR = 1)."""
    w = World()
    w.place(1, 1, 2, 1, 70, BIKE)
    w.place(2, 1, 3, 1, 30, BIKE, direction=1)
    st, s = w.script([1])
    nl = EG._bike_after_move(st, s, w.B, w.V, w.n, 1, PO.A_NONE, w.a.G, w.a.hp, 0,
                             EG.Log(w.E, w.EN, 4, 4))
    assert nl == 1 and w.lim[0] == 40 and _pos(st) == 0
    EG._hazards(st, s, w.V, 1, w.K, nl, w.a.G, w.a.hp, EG.Log(w.E, w.EN, 4, 4))
    assert _pos(st) == 1
    # going the same way the limit is 80mph: no roll at 70mph
    w.V[2, VH.V_DIR] = 0
    st, s = w.script([])
    nl = EG._bike_after_move(st, s, w.B, w.V, w.n, 1, PO.A_NONE, w.a.G, w.a.hp, 0,
                             EG.Log(w.E, w.EN, 4, 4))
    assert nl == 1 and w.lim[0] == 80


def test_bikes_under_control_share_lanes_but_an_out_of_control_one_collides():
    w = World()
    w.place(1, 1, 2, 0, 60, BIKE)
    w.place(2, 1, 2, 1, 40, BIKE)
    st, s = w.script([])
    nl = EG._advance(st, s, w.B, w.V, w.WS, w.FIT, w.n, 1, EG.Move(0, True, False), w.common(),
                     EG.Log(w.E, w.EN, 1, 1))
    assert nl != EG.MOVE_ENDED and w.V[1, VH.V_SP] == 1 and w.events(EG.EV_BIKERAM).shape[0] == 0
    # out of control: a bike-to-bike shunt; both riders lose control, no hazard roll (p70)
    w.place(1, 1, 2, 0, 60, BIKE)
    w.V[1, VH.V_OOC] = VH.OUT_OF_CONTROL
    st, s = w.script([2, 2])   # one hit at +1 each (SF 3 - SF 2): damage rolls only
    nl = EG._advance(st, s, w.B, w.V, w.WS, w.FIT, w.n, 1, EG.Move(0, False, False), w.common(),
                     EG.Log(w.E, w.EN, 1, 1))
    assert nl == EG.MOVE_ENDED and w.V[1, VH.V_SP] == 0 and _pos(st) == 2
    assert w.events(EG.EV_BIKERAM)[0, 5] == EG.BR_SHUNT
    assert w.V[1, VH.V_MPH] == 50 and w.V[2, VH.V_MPH] == 50
    assert w.V[2, VH.V_OOC] == VH.OUT_OF_CONTROL


def test_a_bike_shunt_during_a_regaining_move_leaves_the_rider_out_of_control_p42_p70():
    """p42: on a regain (or skid-and-regain) result the driver regains control once the move is
    made; p70: 'bikes involved in shunts with other bikes automatically lose control'. The
    regain ends the loss the test was taken for; a shunt made during that move is a new loss,
    so the rammer starts its next move with a control-loss test, as the target does. Rider 1
    (60mph, out of control, adverse 3) behind rider 2 (40mph)."""
    # no one in the way: the test 1 + SF 3 - 3 = 1 regains control after the move
    w = World()
    w.place(1, 1, 2, 0, 60, BIKE)
    w.place(2, 3, 2, 0, 40, BIKE)
    w.V[1, VH.V_OOC] = VH.OUT_OF_CONTROL
    st, s = w.script([1])
    w.ooc_move(st, s, 1)
    assert w.V[1, VH.V_OOC] == VH.IN_CONTROL and w.V[1, VH.V_SP] == 1
    # rider 2 just ahead: the regain move shunts it (SF 3 - SF 2: one hit each, damage rolls
    # 2, 2); both riders lose control, and the end of the move does not give it back
    w = World()
    w.place(1, 1, 2, 0, 60, BIKE)
    w.place(2, 1, 2, 1, 40, BIKE)
    w.V[1, VH.V_OOC] = VH.OUT_OF_CONTROL
    st, s = w.script([1, 2, 2])
    w.ooc_move(st, s, 1)
    assert w.events(EG.EV_CONTROL)[0, 4] == 0                    # the regain result
    assert w.events(EG.EV_BIKERAM)[0, 5] == EG.BR_SHUNT and _pos(st) == 3
    assert w.V[1, VH.V_MPH] == 50 and w.V[2, VH.V_MPH] == 50
    assert w.V[2, VH.V_OOC] == VH.OUT_OF_CONTROL
    assert w.V[1, VH.V_OOC] == VH.OUT_OF_CONTROL
    # its next move begins with a control-loss test (1 + SF 3 - 3 = 1: regain)
    st, s = w.script([1] + [1] * 10)
    w.act(st, s, 1, turn=1, phase=2)
    assert w.events(EG.EV_CONTROL).shape[0] == 2
    # skid and regain (2 + 3 - 3 = 2): the drift skid (d6 1, then 2: right) runs into rider 2
    # in lanes 4-5, a shunt (damage rolls 2, 2); the rider stays out of control
    w = World()
    w.place(1, 1, 2, 0, 60, BIKE)
    w.place(2, 1, 4, 1, 40, BIKE)
    w.V[1, VH.V_OOC] = VH.OUT_OF_CONTROL
    st, s = w.script([2, 1, 2, 2, 2])
    w.ooc_move(st, s, 1)
    assert w.events(EG.EV_CONTROL)[0, 4] == 1 and _pos(st) == 5
    assert w.events(EG.EV_BIKERAM)[0, 5] == EG.BR_SHUNT
    assert w.V[2, VH.V_OOC] == VH.OUT_OF_CONTROL
    assert w.V[1, VH.V_OOC] == VH.OUT_OF_CONTROL


# --- reduced handling, criticals ------------------------------------------------------------------
def test_bike_tests_reduced_handling_only_for_the_listed_hazards_p70():
    """A mine's 50mph test at 60mph: reduced handling 6 - 3 = 3 (drive skill 2): d6 3 + 1 - 3
    = 1, a panic brake; the same roll against a curve's limit (full handling 6) is safe."""
    w = World()
    w.place(1, 1, 2, 0, 60, BIKE, skill=2)
    w.lim[0], w.oil[0] = 50, EG._rflag(w.V, 1)
    st, s = w.script([3])
    EG._hazards(st, s, w.V, 1, w.K, 1, w.a.G, w.a.hp, EG.Log(w.E, w.EN, 1, 1))
    assert w.V[1, VH.V_PANIC] == 1 and w.V[1, VH.V_MPH] == 55
    w.place(1, 1, 2, 0, 60, BIKE, skill=2)
    w.lim[0], w.oil[0] = 50, 0
    st, s = w.script([3])
    EG._hazards(st, s, w.V, 1, w.K, 1, w.a.G, w.a.hp, EG.Log(w.E, w.EN, 1, 1))
    assert w.V[1, VH.V_PANIC] == 0 and w.V[1, VH.V_MPH] == 60


def test_a_bike_takes_criticals_on_the_bike_matrix_and_a_ko_means_an_automatic_roll():
    """Roof facing, a critical (damage roll 6), matrix d6 4: 'Rider' on the bike's roof row
    (p68); rider table 6: K.O., the bike has no rider (p69). Its next move is a roll (p69)."""
    w = World()
    w.place(1, 1, 2, 0, 50, BIKE)
    st, s = w.script([6, 4, 6])
    EG._take_hit(st, s, w.B, w.V, w.WS, w.FIT, 1, EG._auto_hit(0, 4, -1), w.common(),
                 EG.Log(w.E, w.EN, 1, 1))
    assert _pos(st) == 3 and w.V[1, VH.V_NODRIVER] == 1
    assert w.V[1, VH.V_OOC] == VH.OUT_OF_CONTROL
    # no control-loss test: skid 2 (straight, -5mph: 45mph SF 3), one hit at +1 (facing 3
    # roof, damage 2: 2 + 1 - 2 = 1), road damage 3 + 0 = 3; no rider: a wreck
    st, s = w.script([2, 3, 2, 3])
    w.ooc_move(st, s, 1)
    assert _pos(st) == 4 and w.V[1, VH.V_STATUS] == VH.WRECK
    assert w.events(EG.EV_CONTROL)[-1, 4] == EG.ROLL_CODE


def test_bikes_as_targets_minus_one_or_two_p64():
    w = World()
    w.place(0, 1, 2, 0, 60, CAR)
    w.place(1, 2, 2, 0, 60, BIKE)
    assert VH.bike_target_mod(w.V, 0, 1, VH.M_HOOD, w.a.hp[PO.HP_TF:PO.HP_DRV_END]) == -1
    w.V[1, VH.V_LANE] = 3
    assert VH.bike_target_mod(w.V, 0, 1, VH.M_HOOD, w.a.hp[PO.HP_TF:PO.HP_DRV_END]) == -2
    assert VH.bike_target_mod(w.V, 1, 0, VH.M_FAIRING_L, w.a.hp[PO.HP_TF:PO.HP_DRV_END]) == 0   # a car target


# --- dodge ------------------------------------------------------------------------------------------
def test_dodge_avoids_a_passive_marker_that_a_two_lane_move_hits_p64():
    for dodge, hit in ((0, True), (-1, False)):
        w = World()
        w.place(1, 1, 2, 0, 40, BIKE)
        w.marker(RD.SPIKES, 1, 1, 3, 4)           # spikes on lanes 3-4: the bike's right lane
        w.V[1, VH.V_DODGE] = dodge
        st, s = w.script([3])
        EG._advance(st, s, w.B, w.V, w.WS, w.FIT, w.n, 1, EG.Move(0, True, False), w.common(),
                    EG.Log(w.E, w.EN, 1, 1))
        assert (w.events(EG.EV_MARKER).shape[0] == 1) == hit
        assert _pos(st) == (1 if hit else 0)      # the spikes' damage roll
        assert w.V[1, VH.V_SP] == 1


def test_rider_dodges_by_policy_and_takes_the_40mph_test():
    """At 50mph with spikes ahead in its right lane the rider (dodging passives up to 50mph)
    dodges left: no marker, one hazard roll against 40mph on full handling (1 + 1 - 6: OK)."""
    w = World()
    w.place(1, 1, 2, 0, 50, BIKE, role=VH.LEAD)
    w.marker(RD.SPIKES, 1, 1, 3, 4)
    w.POL[1, PO.P_DODGEP] = 50
    assert w.decide(1) == (PO.A_DODGE, -1)
    st, s = w.script([1])
    w.act(st, s, 1)
    acts = w.events(EG.EV_ACTION)
    assert acts[0, 4] == PO.A_DODGE and w.events(EG.EV_MARKER).shape[0] == 0
    haz = w.events(EG.EV_HAZARD)
    assert haz.shape[0] == 1 and haz[0, 4] == 40 and haz[0, 5] == 0 and _pos(st) == 1
    # the parameter at 0: no dodge, the rider runs onto the spikes
    w.POL[1, PO.P_DODGEP] = 0
    assert w.decide(1)[0] != PO.A_DODGE


def test_a_dodge_squeezes_past_an_obstacle_on_its_other_lane_variant_dodge_obstacles_p62_p64_p76():
    """p62: 'Bikes are allowed to dodge around obstacles by using a special dodge action,
    temporarily reducing their contact zone'. A rider on lanes 2-3 at 40mph, an obstacle strip
    on lanes 0-2 in the next space: dodging right (its zone lane 3) it rides past; without the
    dodge it rams the strip (a crash, p70-72). Under the variant's other reading (an obstacle
    met as a wreck, p57, p76) the dodge rams too. Fails on the old engine (obstacles were met
    with both lanes whatever the dodge)."""
    for choice, dodge, rams in (("one_lane", 1, False), ("one_lane", 0, True),
                                ("both_lanes", 1, True)):
        w = World()
        sc = GM.load_scenario(SCEN / "game-6.toml", variants={"dodge_obstacles": choice})
        w.a.G[EG.G_DODGE_OBST] = GM.GameSim(sc).a.G[EG.G_DODGE_OBST]
        w.place(1, 1, 2, 0, 40, BIKE)
        w.marker(RD.OBSTACLE, 1, 1, 0, 2)
        w.V[1, VH.V_DODGE] = dodge
        st, s = w.script([1, 1, 1, 1])
        EG._advance(st, s, w.B, w.V, w.WS, w.FIT, w.n, 1, EG.Move(0, True, False), w.common(),
                    EG.Log(w.E, w.EN, 1, 1))
        ram = w.events(EG.EV_BIKERAM)
        assert (ram.shape[0] == 1 and ram[0, 4] == -1) == rams, choice
        assert (w.V[1, VH.V_SP] == 1) == (not rams)
        w.a.G[EG.G_DODGE_OBST] = 1


def _strip_and_wreck(lane, mph):
    """A lead rider on ``lane`` at ``mph`` (section 1, space 0), an obstacle strip on lanes 0-2
    three spaces ahead and a wreck on lanes 4-5 beside it: no lane pair runs clear past, lane 3
    alone is free (a road a car cannot pass, a rider can dodge through, p62, p64)."""
    w = World()
    w.place(1, 1, lane, 0, mph, BIKE, role=VH.LEAD)
    w.place(0, 2, 4, 0, 0, CAR, side=1)
    w.V[0, VH.V_STATUS] = VH.WRECK
    w.marker(RD.OBSTACLE, 2, 0, 0, 2)
    w.POL[1, PO.P_STRIPDODGE] = 1
    return w


def test_a_rider_brakes_in_time_and_dodges_through_a_strip_it_cannot_drift_round_p62_p64_p76():
    """A rider at 90mph on lanes 2-3, a strip on lanes 0-2 three spaces ahead, a wreck on lanes
    4-5 beside it (:func:`_strip_and_wreck`): it holds its speed (one brake, 40mph, takes it
    to the 50mph it dodges at, ``P_DODGEP``, and two moves are left), brakes 40 with the strip
    two spaces off, and dodges right through lane 3 on the move into it: past the strip, a
    40mph hazard roll. From lanes 1-2 two spaces off it first drifts right, to the pair it can
    dodge from. With ``P_STRIPDODGE`` or ``P_DODGEP`` 0, or under variant dodge_obstacles =
    both_lanes, no plan.
    Fails on the old driver (riders dodged only passives and road hazards other than
    obstacles; on a strip they braked, and rammed it or stopped short for good, p64: no
    reverse)."""
    w = _strip_and_wreck(2, 90)
    assert w.decide(1) == (PO.A_NONE, 0)
    w.V[1, VH.V_SP] = 1
    assert w.decide(1) == (PO.A_BRAKE, 40)
    w.V[1, VH.V_SP], w.V[1, VH.V_MPH] = 2, 50
    assert w.decide(1) == (PO.A_DODGE, 1)
    st, s = w.script([1])
    w.act(st, s, 1)
    assert w.events(EG.EV_BIKERAM).shape[0] == 0
    assert (w.V[1, VH.V_SEC], w.V[1, VH.V_SP], w.V[1, VH.V_STATUS]) == (2, 0, VH.ACTIVE)
    haz = w.events(EG.EV_HAZARD)
    assert haz.shape[0] == 1 and haz[0, 4] == 40 and haz[0, 5] == 0
    # from lanes 1-2, both lanes under the strip two spaces off: drift to lanes 2-3 first
    w = _strip_and_wreck(1, 60)
    w.V[1, VH.V_SP] = 1
    assert w.decide(1) == (PO.A_DRIFT, 1)
    # no plan (P_STRIPDODGE 0), no dodging (P_DODGEP 0), or obstacles met with both lanes
    for col in (PO.P_STRIPDODGE, PO.P_DODGEP):
        w = _strip_and_wreck(2, 50)
        w.V[1, VH.V_SP] = 2
        w.POL[1, col] = 0
        assert w.decide(1)[0] != PO.A_DODGE
    w = _strip_and_wreck(2, 50)
    w.V[1, VH.V_SP] = 2
    w.a.hp[PO.HP_DODGE_OBST] = 0
    try:
        assert w.decide(1)[0] != PO.A_DODGE
    finally:
        w.a.hp[PO.HP_DODGE_OBST] = 1


# --- collisions -------------------------------------------------------------------------------------
def test_car_shunts_a_bike_p72():
    """Car 60mph (SF 3) into a bike at 30mph (SF 2), both lanes in common: one hit at +1
    each; the bike accelerates to 60mph, the car slows 10mph; 40mph shunt tests (the bike's on
    reduced handling 3: d6 1 + 2 - 3 = 0, OK)."""
    w = World()
    w.place(0, 1, 2, 0, 60, CAR)
    w.place(1, 1, 2, 1, 30, BIKE)
    st, s = w.script([2, 2, 1, 1])
    w.ram(st, s, 0, 1)
    assert _pos(st) == 4
    assert w.V[1, VH.V_MPH] == 60 and w.V[0, VH.V_MPH] == 50
    assert w.V[1, VH.V_DMG] == 9 - (2 + 1 - 2) and w.V[0, VH.V_DMG] == 18
    assert w.events(EG.EV_BIKERAM)[0, 5] == EG.BR_SHUNT


def test_car_shunts_a_bike_and_the_bike_moves_next_p72():
    """p72: 'The car model isn't moved. The shunt is calculated normally, both vehicles must
    take hazard rolls. The bike moves next; if the bike lost control because of the shunt's
    hazard roll, its move must be preceded by a control loss test.' Then the car completes
    its move with no action (p56). Car 60mph one space behind a bike at 30mph, both lanes in
    common: damage rolls 2, 2; the car's 40mph test at 50mph 1 (safe); the bike's at 60mph on
    reduced handling 3: 6 + 2 - 3 = 5, control lost. The bike's control-loss test (bike
    table): 1 + SF 3 - adverse 3 = 1, regain: it moves straight ahead; the car follows into
    the space it left."""
    w = World()
    w.place(0, 1, 2, 0, 60, CAR)
    w.place(1, 1, 2, 1, 30, BIKE)
    w.WS[:, :, VH.W_AMMO] = 0
    st, s = w.script([2, 2, 1, 6, 1] + [1] * 20)
    EG._take_turn(st, s, w.B, w.V, w.WS, w.FIT, w.n, 0, w.common(), EG.Log(w.E, w.EN, 1, 1))
    ev = [tuple(int(x) for x in e[2:8]) for e in w.events()]
    codes = [(v, c) for v, c, *_ in ev]
    ram = codes.index((0, EG.EV_BIKERAM))
    assert ev[ram][3] == EG.BR_SHUNT
    told = codes.index((1, EG.EV_SHUNTMOVE))
    test = codes.index((1, EG.EV_CONTROL))
    moves = [i for i, (v, c) in enumerate(codes) if c == EG.EV_MOVE]
    done = codes.index((0, EG.EV_SHUNTMOVE))
    assert ram < told < test < moves[0] < done < moves[1]
    assert [codes[i][0] for i in moves] == [1, 0]
    assert ev[test][2] == 0                          # regain control (bike table, p70)
    assert w.V[1, VH.V_SP] == 2 and w.V[0, VH.V_SP] == 1
    assert w.V[1, VH.V_OOC] == VH.IN_CONTROL and w.V[1, VH.V_STAMP] == 1 * 8 + 1
    assert w.V[0, VH.V_MPH] == 50 and w.V[1, VH.V_MPH] == 60


def test_bike_shunts_a_car_slows_to_its_speed_p72():
    w = World()
    w.place(1, 1, 2, 0, 60, BIKE)
    w.place(0, 1, 2, 1, 40, CAR)
    st, s = w.script([2, 2, 1])   # damage rolls; the bike's 40mph test at 40mph: none
    w.ram(st, s, 1, 0)
    assert w.V[1, VH.V_MPH] == 40 and w.V[0, VH.V_MPH] == 40 and _pos(st) == 2


def test_a_bike_running_into_a_stopped_car_facing_its_way_shunts_it_p57_p72():
    """p57: a collision with a stationary vehicle pointed the rammer's way is a shunt (a head-on
    only if it faces the rammer, is a wreck or at an angle); p70-72 use 'the usual rules' for
    bikes. A bike (20mph, SF 1) runs into a car stopped in its lanes facing its way: a shunt,
    relative hit SF 1 - 0 = 1 each, the bike slows to the car's 0mph and stays in play (the old
    engine called it a head-on: the bike crashed, out of play). Facing the bike, it is a
    head-on."""
    for facing, kind in ((0, EG.BR_SHUNT), (1, EG.BR_HEAD_ON)):
        w = World()
        w.place(1, 1, 2, 0, 20, BIKE)
        w.place(0, 1, 2, 1, 0, CAR, direction=facing)
        st, s = w.script([3, 3, 6, 6, 6, 6])
        w.ram(st, s, 1, 0)
        assert w.events(EG.EV_BIKERAM)[0, 5] == kind
        if kind == EG.BR_SHUNT:
            assert w.V[1, VH.V_STATUS] == VH.ACTIVE and w.V[1, VH.V_MPH] == 0
            assert w.V[1, VH.V_DMG] < w.V[1, VH.V_MAXDMG] and w.V[0, VH.V_DMG] < w.V[0, VH.V_MAXDMG]
        else:
            assert w.V[1, VH.V_STATUS] == VH.CRASHED


def test_a_car_into_an_upright_bike_stopped_its_way_variant_stopped_bike_ram_p57_p70_p72():
    """p70's note ('collisions with stationary and fallen bikes are always treated as head-on
    rams') sits under Bike vs. Bike; p72 names only fallen bikes for cars, and p57 shunts a
    stationary vehicle pointed the rammer's way. A car (40mph, SF 2) runs into an upright bike
    stopped in its lanes facing its way. Default ``head_on``: one combined hit each, the bike
    out of play, the car -30mph and out of control. ``shunt``: relative hits (SF 2 - 0), the
    bike pushed to the car's 40mph, the car -10mph; the drivers price the ram the same way."""
    values = {}
    for choice, kind in (("head_on", EG.BR_HEAD_ON), ("shunt", EG.BR_SHUNT)):
        sc = GM.load_scenario(SCEN / "game-6.toml", variants={"stopped_bike_ram": choice})
        w = World()
        w.a = GM.GameSim(sc).a
        w.place(0, 1, 2, 0, 40, CAR)
        w.place(1, 1, 2, 1, 0, BIKE)
        value = PO._ram_value(w.V, 0, 1, w.a.hp, w.POL[0])
        st, s = w.script([1, 1, 1, 1, 6, 6, 6, 6])
        w.ram(st, s, 0, 1)
        assert w.events(EG.EV_BIKERAM)[0, 5] == kind
        if kind == EG.BR_HEAD_ON:
            assert w.V[1, VH.V_STATUS] == VH.CRASHED and w.V[0, VH.V_MPH] == 10
        else:
            assert w.V[1, VH.V_STATUS] == VH.ACTIVE and w.V[1, VH.V_MPH] == 40
            assert w.V[0, VH.V_MPH] == 30
        values[choice] = value
    # the driver's price follows the variant: a head-on takes the bike's 9 points out for one
    # combined hit (SF 2) and a control loss; a shunt is priced as one
    head_on = 9 - PO._hit_pts(2, w.V[0, VH.V_ARM]) - w.POL[0][PO.P_LOSSVAL]
    assert values["head_on"] == head_on and values["shunt"] != head_on


def test_partial_collision_with_a_bike_is_a_sideswipe_the_bike_loses_p72():
    """A bike (lanes 2-3, 60mph) runs into a car in lanes 3-4 (40mph): no sideswipe test, the
    bike takes the relative hit (+1: 3 + 1 - 2 = 2), both -10mph, the bike tests at 40mph on
    reduced handling (d6 1: OK)."""
    w = World()
    w.place(1, 1, 2, 0, 60, BIKE)
    w.place(0, 1, 3, 1, 40, CAR)
    st, s = w.script([3, 1])
    w.ram(st, s, 1, 0)
    assert _pos(st) == 2 and w.events(EG.EV_BIKERAM)[0, 5] == EG.BR_SWIPE
    assert w.V[1, VH.V_DMG] == 7 and w.V[0, VH.V_DMG] == 18
    assert w.V[1, VH.V_MPH] == 50 and w.V[0, VH.V_MPH] == 30


def test_car_sideswiping_a_bike_always_wins_the_test_p72():
    w = World()
    w.place(0, 1, 0, 1, 60, CAR)
    w.place(1, 1, 2, 1, 60, BIKE, skill=6)
    # test: car 1 + 1 + 4 = 6, bike 6 + 6 = 12 (it would win): the car wins; the bike's hit
    # (SF 3 - SF 3 = +0): damage 3 + 0 - 2 = 1; its 40mph test at 50mph on reduced handling 3
    # (skill 6 is higher: optimum 6): d6 1, OK
    st, s = w.script([1, 6, 3, 1])
    EG._sideswipe(st, s, w.B, w.V, w.WS, w.FIT, w.n, 0, 1, w.common(), EG.Log(w.E, w.EN, 1, 1))
    sw = w.events(EG.EV_SWIPE)
    assert sw[0, 7] == 0 and w.V[1, VH.V_DMG] == 8 and w.V[0, VH.V_DMG] == 18


def test_head_on_bike_and_car_opposed_p72():
    """A bike (60mph, SF 3) meets a car going against the direction of play (V_DIR = 1, 60mph,
    SF 3) in both lanes: one hit at +6 each (bike 1 + 6 - 2 = 5, car 1 + 6 - 3 = 4), road damage
    (SF 3: d6 3 + 0 = 3, injured: skill -1); the bike crashes; the car slows 30mph and loses
    control."""
    w = World()
    w.place(1, 1, 2, 0, 60, BIKE)
    w.place(0, 1, 2, 1, 60, CAR, direction=1)
    st, s = w.script([1, 1, 3])
    w.ram(st, s, 1, 0)
    assert _pos(st) == 3
    assert w.V[1, VH.V_STATUS] == VH.CRASHED and w.V[1, VH.V_DMG] == 4 and w.V[1, VH.V_SKILL] == 2
    assert w.V[0, VH.V_DMG] == 14 and w.V[0, VH.V_MPH] == 30
    assert w.V[0, VH.V_OOC] == VH.OUT_OF_CONTROL


def test_car_hitting_a_fallen_bike_completes_its_move_and_loses_control_p72():
    w = World()
    w.place(0, 1, 2, 0, 60, CAR)
    w.place(1, 1, 2, 1, 0, BIKE)
    w.V[1, VH.V_FALLEN] = 1
    st, s = w.script([1, 1, 1])   # +3 hit each, then road damage 1 - 4: unhurt
    nl = EG._advance(st, s, w.B, w.V, w.WS, w.FIT, w.n, 0, EG.Move(0, True, False), w.common(),
                     EG.Log(w.E, w.EN, 1, 1))
    assert nl != EG.MOVE_ENDED and w.V[0, VH.V_SP] == 1                 # the car moved on
    assert w.V[1, VH.V_STATUS] == VH.CRASHED and w.V[0, VH.V_OOC] == VH.OUT_OF_CONTROL
    assert w.events(EG.EV_BIKERAM)[0, 5] == EG.BR_HEAD_ON


def test_a_car_that_takes_one_of_two_bikes_out_meets_the_other_p52_p64_p72():
    """Two bikes may share a space (p64). A car that rams one of them out of play completes its
    move (p72) into that space, and so collides with the other there (p52: 'whenever a
    manoeuvre would result in a car's contact zone overlapping with another, the two vehicles
    collide'); the engine used to put it on the space beside the second bike unhit (seeded gang
    pursues 1172, session 26: the Op and a rider on one space to a repeated position)."""
    w = World()
    w.place(0, 1, 2, 0, 60, CAR)
    w.place(1, 1, 2, 1, 0, BIKE)
    w.place(2, 1, 2, 1, 0, BIKE)
    w.V[1, VH.V_FALLEN] = w.V[2, VH.V_FALLEN] = 1
    st, s = w.script([1] * 40)
    EG._advance(st, s, w.B, w.V, w.WS, w.FIT, w.n, 0, EG.Move(0, True, False), w.common(),
                EG.Log(w.E, w.EN, 1, 1))
    rams = w.events(EG.EV_BIKERAM)
    assert len(rams) == 2 and sorted(rams[:, 2]) == [0, 0]        # the old engine: one ram
    assert w.V[1, VH.V_STATUS] == VH.CRASHED and w.V[2, VH.V_STATUS] == VH.CRASHED
    # a car on the space no bike is left on: it went on through both (p72, twice)
    assert w.V[0, VH.V_SP] == 1


def test_a_car_facing_against_play_also_completes_its_move_through_a_fallen_bike_p72():
    # p72 does not depend on the way the car faces: the same ram as above, travelling against
    # play (lower x) into a fallen bike on the space behind it
    w = World()
    w.place(0, 1, 2, 1, 60, CAR, direction=1)
    w.place(1, 1, 2, 0, 0, BIKE)
    w.V[1, VH.V_FALLEN] = 1
    st, s = w.script([1, 1, 1] + [1] * 20)
    nl = EG._advance(st, s, w.B, w.V, w.WS, w.FIT, w.n, 0, EG.Move(0, True, False), w.common(),
                     EG.Log(w.E, w.EN, 1, 1))
    assert w.V[1, VH.V_STATUS] == VH.CRASHED
    assert nl != EG.MOVE_ENDED and w.V[0, VH.V_SP] == 0                 # the car moved on
    assert len(w.events(EG.EV_BIKERAM)) == 1


def test_only_turret_weapons_shoot_a_fallen_bike_whichever_way_the_firer_faces_p66():
    for direction, car_sp, bike_sp in ((0, 0, 3), (1, 3, 0)):
        w = World()
        w.place(0, 1, 2, car_sp, 60, CAR, direction=direction)
        w.place(1, 1, 2, bike_sp, 0, BIKE)                 # ahead of the car, in its lanes
        assert VH.find_target(w.T, w.V, w.n, 0, VH.M_HOOD, w.tbuf) == 1, direction
        w.V[1, VH.V_FALLEN] = 1
        assert VH.find_target(w.T, w.V, w.n, 0, VH.M_HOOD, w.tbuf) == -1, direction
        assert VH.find_target(w.T, w.V, w.n, 0, VH.M_TURRET, w.tbuf) == 1, direction


def test_bike_bike_head_on_opposed_and_into_a_wrecked_bike_p70():
    w = World()
    w.place(1, 1, 2, 0, 40, BIKE)
    w.place(2, 1, 2, 1, 40, BIKE, direction=1)
    w.V[1, VH.V_OOC] = VH.OUT_OF_CONTROL      # a rider under control would pass it
    # combined SF 2 + 2 = 4 hits at +4 on each: damage rolls 1 (1 + 4 - 2 = 3 each hit: 9 -> 0
    # after 3 hits: terminal, an explosion roll 2; the 4th hit: damage and explosion rolls);
    # then each rider's road damage (SF 2: 3 - 2 = 1, hurt)
    st, s = w.script([1, 1, 1, 2, 1, 2] * 2 + [3, 3])
    w.ram(st, s, 1, 2)
    assert _pos(st) == 14 and w.events(EG.EV_ROADDMG).shape[0] == 2
    assert w.V[1, VH.V_MPH] == 0 and w.V[2, VH.V_MPH] == 0
    assert w.V[1, VH.V_STATUS] == VH.WRECK and w.V[2, VH.V_STATUS] == VH.WRECK
    assert w.events(EG.EV_BIKERAM)[0, 5] == EG.BR_HEAD_ON
    # into a wrecked bike: the mover crashes (crash and road damage), the wreck stays
    w.place(1, 1, 2, 0, 40, BIKE)
    w.V[1, VH.V_OOC] = VH.OUT_OF_CONTROL
    st, s = w.script([2] * 20)
    w.ram(st, s, 1, 2)
    assert w.V[1, VH.V_STATUS] == VH.CRASHED and w.V[2, VH.V_STATUS] == VH.WRECK
    assert w.events(EG.EV_CRASH)[-1, 4] == EG.CRASH_BIKE_WRECK


# --- abandoning and pushing -------------------------------------------------------------------------
def test_halted_dead_bike_is_pushed_when_armed_else_abandoned_p69():
    w = World()
    w.place(1, 1, 2, 0, 0, BIKE)
    w.place(2, 1, 4, 0, 0, BIKE)
    for v in (1, 2):
        w.V[v, VH.V_ENGOFF] = 1
        w.V[v, VH.V_ACC] = 0
    w.WS[2, :, VH.W_AMMO] = 0                       # bike 2 has nothing left to shoot
    assert not EG._is_out(w.V, 1)                   # its rider may still push it
    EG._bike_turn_start(w.V, w.WS, w.n, w.a.G, w.E, w.EN, 2)
    assert w.V[1, VH.V_PUSH] == 1 and w.V[1, VH.V_STATUS] == VH.ACTIVE
    assert w.V[2, VH.V_STATUS] == VH.WRECK and w.events(EG.EV_ABANDON).shape[0] == 1
    # phase 1: the rider starts pushing (5mph); next turn the bike moves a space, no coasting
    st, s = w.script([])
    w.act(st, s, 1, turn=2, phase=1)
    assert w.V[1, VH.V_MPH] == 5 and w.V[1, VH.V_SP] == 0
    w.act(st, s, 1, turn=3, phase=1)
    assert w.V[1, VH.V_MPH] == 5 and w.V[1, VH.V_SP] == 1
    assert all(e[4] == PO.A_PUSH for e in w.events(EG.EV_ACTION))


# --- gang tactics ---------------------------------------------------------------------------------
def test_swarm_parameter_moves_a_bike_beside_the_enemy_car():
    w = World()
    w.place(1, 1, 2, 0, 60, BIKE, side=0, role=VH.CHASE)
    w.place(3, 2, 2, 0, 60, CAR, side=1, role=VH.LEAD)
    w.WS[1, :, VH.W_AMMO] = 0                        # nothing to shoot: the driving decides
    w.POL[1, PO.P_SWARM] = 0
    plain = w.decide(1)
    w.POL[1, PO.P_SWARM] = 4
    swarm = w.decide(1)
    assert swarm[0] == PO.A_DRIFT and swarm != plain


def test_a_rider_never_reverses_where_a_driver_would_p64_p17():
    """Stopped against a wreck with nothing to shoot, a turn-to-face driver reverses (p17);
    a rider in the same place may not (p64)."""
    w = World()
    w.place(1, 2, 2, 2, 0, CAR, side=1, role=VH.LEAD)
    w.V[1, VH.V_STATUS] = VH.WRECK
    w.place(2, 0, 2, 0, 60, CAR, side=1, role=VH.LEAD)
    for kind in (CAR, BIKE):
        w.place(0, 2, 2, 1, 0, kind, side=0, role=VH.CHASE)
        w.WS[0, :, VH.W_AMMO] = 0
        w.POL[0] = PO.policy_vector("turn-to-face")
        car_choice = PO.decide(w.B, w.T, w.V, w.WS, w.n, 0, False, w.a.hp, w.POL[0], *w.dice)
        assert car_choice[0] == PO.A_REVERSE, car_choice
        if kind == BIKE:
            assert w.decide(0, moves=False)[0] != PO.A_REVERSE


def test_ram_clear_parameter_moves_a_rider_out_of_a_car_s_lanes():
    w = World()
    w.place(1, 1, 2, 1, 60, BIKE, side=0, role=VH.LEAD)
    w.place(3, 1, 2, 0, 70, CAR, side=1, role=VH.CHASE)
    w.WS[1, :, VH.W_AMMO] = 0
    w.POL[1, PO.P_RAMCLEAR] = 0
    plain = w.decide(1)
    w.POL[1, PO.P_RAMCLEAR] = 2
    clear = w.decide(1)
    assert clear[0] == PO.A_DRIFT and clear != plain


def test_riders_never_sideswipe_cars_but_may_sideswipe_an_overlapping_bike_p70():
    w = World()
    w.place(1, 1, 2, 0, 60, BIKE, side=0, role=VH.CHASE)
    w.place(3, 1, 4, 0, 60, CAR, side=1, role=VH.LEAD)
    w.WS[1, :, VH.W_AMMO] = 0
    assert w.decide(1)[0] != PO.A_SWIPE
    w.V[3, VH.V_STATUS] = VH.LEFT
    w.place(2, 1, 3, 0, 60, BIKE, side=1, role=VH.LEAD)
    w.POL[1, PO.P_DODGEP] = 0
    assert w.decide(1) == (PO.A_SWIPE, 1)


# --- whole games --------------------------------------------------------------------------------
BIKE_EVENTS = (EG.EV_ROADDMG, EG.EV_OVERLAP, EG.EV_BIKEROLL, EG.EV_FALL, EG.EV_PICKUP,
               EG.EV_ABANDON, EG.EV_PUSH, EG.EV_BIKERAM)


def test_games_six_and_seven_with_bikes_finish_and_log_bike_events():
    for name in ("game-6", "game-7"):
        sc = GM.load_scenario(SCEN / f"{name}.toml")
        bikes = [v for v, loads in enumerate(GM.to_arrays(sc).loadouts)
                 if loads[0].startswith("bike")]
        assert bikes
        seen = set()
        for trial in range(120):   # seeded Game Six first overlaps at trial 99
            if trial >= 12 and {EG.EV_OVERLAP, EG.EV_ROADDMG} <= seen:
                break   # at least 12 games; more when the seeded ones show no overlap yet
            events, res, _, _ = GM.play_one(sc, seed=2026, trial=trial)
            assert res[EG.R_REASON] in (EG.REASON_SIDE_OUT, EG.REASON_TIME)
            for e in events:
                if e[3] in BIKE_EVENTS or (e[3] == EG.EV_ACTION and e[4] == PO.A_DODGE):
                    seen.add(int(e[3]) if e[3] != EG.EV_ACTION else "dodge")
            lines, _ = GM.playthrough(sc, seed=2026, trial=trial)
            assert lines[-1].startswith("END after")
        assert {EG.EV_OVERLAP, EG.EV_ROADDMG} <= seen, (name, seen)
        f = run(GM.GameSim(sc), 400, 7, progress=False).frame
        assert f["wins"].sum() + f["draws"].iloc[0] == 400


def test_scenario_cli_runs_a_gang_with_bikes(capsys):
    from simkit.cli import main
    assert main(["scenario", "run", str(SCEN / "game-7.toml"), "--trials", "300"]) == 0
    out = capsys.readouterr().out
    assert "target" in out and "attacker" in out and "win_rate" in out


def test_bike_games_replay_from_their_recorded_dice_and_ignore_threads_and_chunks():
    """Every bike roll goes through the dice source (a recorded Game Seven, replayed as a
    script, is the same game), and the totals are bit-identical across threads and chunks."""
    sc = GM.load_scenario(SCEN / "game-7.toml")
    for trial in range(4):
        ev, res, world, _ = GM.play_one(sc, seed=5, trial=trial)
        ev2, res2, world2, _ = GM.play_one(sc, script=world[-1])
        assert np.array_equal(ev, ev2) and np.array_equal(res, res2)
    sim = GM.GameSim(sc)
    a = run(sim, 3000, 11, chunk_size=1000, threads=1, progress=False).totals
    b = run(sim, 3000, 11, chunk_size=777, threads=2, progress=False).totals
    assert np.array_equal(a, b)


def test_gang_tactics_parameters_change_whole_games_of_game_seven():
    """P 10-12 are read only by riders: switching the dodge and ram-clear tactics off (the rest
    of every policy vector the same) changes Game Seven's totals on the same trials."""
    assert tuple(PO.policy_vector("swarm")[PO.P_SWARM:PO.P_RAMCLEAR + 1]) == PO.GANG_TACTICS["swarm"]
    sc = GM.load_scenario(SCEN / "game-7.toml")
    sim = GM.GameSim(sc)
    a = run(sim, 2000, 3, progress=False).totals
    sim.a.POL[:, PO.P_DODGEP] = 0
    sim.a.POL[:, PO.P_RAMCLEAR] = 0
    b = run(sim, 2000, 3, progress=False).totals
    assert not np.array_equal(a, b)


def test_swarm_parameter_changes_a_bike_gang_pursuing_an_op():
    """Game Eight with the gang attacking on three bikes: swarming beside the Interceptor (P 10)
    changes the games (bikes beside the car have it out of their fairings' corridor)."""
    sc = GM.load_scenario(SCEN / "game-8-gang-pursues.toml")
    sim = GM.GameSim(sc)
    a = run(sim, 2000, 3, progress=False)
    sim.a.POL[:, PO.P_SWARM] = 4
    b = run(sim, 2000, 3, progress=False)
    assert not np.array_equal(a.totals, b.totals)
    assert b.frame["wins"].sum() + b.frame["draws"].iloc[0] == 2000


def test_a_dodge_does_not_avoid_a_car_it_is_a_sideswipe_p64_p72():
    """The rider dodges into its left lane, but the car in lanes 3-4 ahead still meets the
    bike's two-lane zone: a partial collision, treated as a sideswipe the bike loses; the bike
    stays where it was."""
    w = World()
    w.place(1, 1, 2, 0, 40, BIKE)
    w.place(0, 1, 3, 1, 20, CAR)
    w.V[1, VH.V_DODGE] = -1
    st, s = w.script([3, 1])   # the bike's hit (+1: 3 + 1 - 2 = 2); its test at 30mph: none
    nl = EG._advance(st, s, w.B, w.V, w.WS, w.FIT, w.n, 1, EG.Move(0, True, False), w.common(),
                     EG.Log(w.E, w.EN, 1, 1))
    assert nl == EG.MOVE_ENDED and w.V[1, VH.V_SP] == 0
    assert w.events(EG.EV_BIKERAM)[0, 5] == EG.BR_SWIPE and w.V[1, VH.V_DMG] == 7


def test_opposed_partial_collision_bike_and_car_p72_with_v_dir():
    """A bike (lanes 2-3, 60mph) meets a car going against play (V_DIR = 1, lanes 3-4, 60mph):
    an opposed sideswipe the bike loses: the combined hit (+6: 1 + 6 - 2 = 5), the car as winner
    tests at 40mph (1 + 2 - 4: OK), the bike as loser at 20mph on reduced handling 3
    (1 + 4 - 3 = 2: a 10mph panic brake)."""
    w = World()
    w.place(1, 1, 2, 0, 60, BIKE)
    w.place(0, 1, 3, 1, 60, CAR, direction=1)
    st, s = w.script([1, 1, 1])
    w.ram(st, s, 1, 0)
    assert _pos(st) == 3 and w.events(EG.EV_BIKERAM)[0, 5] == EG.BR_SWIPE
    assert w.V[1, VH.V_DMG] == 4 and w.V[1, VH.V_MPH] == 50 and w.V[1, VH.V_PANIC] == 1
    assert w.V[0, VH.V_MPH] == 60 and w.V[0, VH.V_DMG] == 18


def _wheel_off_hit(mph, check):
    """Bike 1 at ``mph`` hit on the front at damage 1, a critical (damage die 6: 5 points),
    matrix d6 3: front wheels (p68); result d6 2: wheel bearing; the check d6 ``check`` + 1
    (p69)."""
    w = World()
    w.place(1, 1, 2, 0, mph, BIKE)
    st, s = w.script([6, 3, 2, check, 3, 3, 3, 3])
    EG._take_hit(st, s, w.B, w.V, w.WS, w.FIT, 1, EG._auto_hit(1, 0, -1), w.common(),
                 EG.Log(w.E, w.EN, 1, 1))
    return w, st


def test_a_wheel_off_crashes_at_81mph_or_rolls_on_the_next_move_p69():
    """Wheel Bearing (p69): 'If the score was 7 or more, a wheel has fallen off! If the bike is
    travelling at 81mph or faster it crashes. The model should be removed from play, ... the
    rider takes road damage. If the bike is travelling at 80mph or less, it automatically
    rolls on its next move.' It used to be a plain control loss: the rider's control-loss test
    could regain control, and at 81mph+ the bike stayed in play until its next move."""
    from simkit.dark_future.procedures import shooting as SH
    w, st = _wheel_off_hit(100, 6)
    assert w.events(EG.EV_LASTING)[:, 4].tolist() == [SH.L_WHEEL_OFF]
    assert w.V[1, VH.V_STATUS] == VH.CRASHED
    assert w.events(EG.EV_CRASH)[-1, 4] == EG.CRASH_WHEEL_OFF
    assert len(w.events(EG.EV_ROADDMG)) == 1 and _pos(st) == 5
    # at 80mph: still in play, out of control; its next move is a roll with no control-loss
    # roll (skid 2: straight, -5mph; SF 4 - 2 = two hits at +2, damage dice 1: a point each,
    # 4 - 2 = 2 points left, no terminal damage; road damage), then a wreck: a bike without
    # a wheel is not picked up again (a reading: the book is silent)
    w, st = _wheel_off_hit(80, 6)
    assert w.V[1, VH.V_STATUS] == VH.ACTIVE and w.V[1, VH.V_OOC] == VH.OUT_OF_CONTROL
    assert w.V[1, VH.V_WHEELOFF] == 1 and _pos(st) == 4 and w.V[1, VH.V_DMG] == 4
    st, s = w.script([2, 3, 1, 3, 1, 1, 1, 1, 1])
    w.ooc_move(st, s, 1)
    assert w.events(EG.EV_CONTROL)[-1, 4] == EG.ROLL_CODE
    assert w.events(EG.EV_BIKEROLL).shape[0] == 1
    assert w.V[1, VH.V_DMG] == 2 and not w.V[1, VH.V_TERMINAL] and not w.V[1, VH.V_NODRIVER]
    assert w.V[1, VH.V_STATUS] == VH.WRECK
    # the bearing holds (5 + 1 = 6): handling -1 for it and -1 for the damage level passed
    # (9 -> 4 points, below the bike's level at 6, p69), no wheel off, no crash
    w, st = _wheel_off_hit(100, 5)
    assert w.V[1, VH.V_STATUS] == VH.ACTIVE and w.V[1, VH.V_WHEELOFF] == 0
    assert w.V[1, VH.V_HAND] == 6 - 2


def test_a_rider_cutting_up_a_bike_variant_bike_cut_up_p13_p64():
    """p13 forbids a drift that cuts up 'a car which has yet to move'; p64 lets bikes share
    lanes with bikes. Two bikes level at 60mph, lanes 0-1 and 2-3; the first drifts right,
    finishing in front of the other, which has yet to move this phase. Default
    ``every_vehicle``: the drift is not made (a cut-up). ``not_between_bikes``: it is made, the
    two contact zones overlapping. A rider cutting up a car is refused under both."""
    for choice, made in (("every_vehicle", False), ("not_between_bikes", True)):
        sc = GM.load_scenario(SCEN / "game-6.toml", variants={"bike_cut_up": choice})
        w = World()
        w.a = GM.GameSim(sc).a
        for other, kind in ((2, BIKE), (0, CAR)):
            w.place(1, 1, 0, 0, 60, BIKE, side=0)
            w.place(other, 1, 2, 0, 60, kind, side=0)
            w.EN[0] = 0
            st, s = w.script([])
            EG._advance(st, s, w.B, w.V, w.WS, w.FIT, w.n, 1, EG.Move(1, False, False),
                        w.common(), EG.Log(w.E, w.EN, 1, 1))
            cut = len(w.events(EG.EV_CUTUP)) == 1
            assert cut == (kind == CAR or not made), (choice, kind)
            assert w.V[1, VH.V_LANE] == (1 if not cut else 0)
            w.V[other, VH.V_STATUS] = VH.LEFT


def test_a_stopped_bike_moves_off_the_other_way_turned_round_in_its_square_p64():
    """p64 Moving Off: 'A bike moving off in a different direction is turned around and aligned
    against the dividing lines at the opposite end of the square. Bikes can only do this when
    they're moving off and aren't accelerating to more than 20mph (such a manoeuvre will
    effectively take up the whole turn).' Not modelled before session 26: bikes turned only by
    the cars' U-turn, into the next space with its six lanes clear. A stopped rider declaring it
    in phase 1 faces the other way in its own space at 20mph at most; a moving bike, a later
    phase or a car: no action."""
    def turn_round(mph=0, phase=1, kind=BIKE, arg=30):
        w = World()
        w.place(1, 2, 2, 1, mph, kind)
        w.V[1, VH.V_DECL] = PO.A_TURN_ROUND + 1
        w.V[1, VH.V_DECLARG] = arg
        st, s = w.script([1] * 10)
        w.act(st, s, 1, phase=phase)
        return w
    w = turn_round()
    assert w.V[1, VH.V_DIR] == 1 and w.V[1, VH.V_MPH] == PO.TURN_ROUND_MPH
    assert (w.V[1, VH.V_SEC], w.V[1, VH.V_LANE], w.V[1, VH.V_SP]) == (2, 2, 1)
    assert w.events(EG.EV_ACTION)[0, 4] == PO.A_TURN_ROUND
    assert turn_round(arg=10).V[1, VH.V_MPH] == 10
    assert turn_round(phase=2).V[1, VH.V_DIR] == 0
    assert turn_round(kind=CAR).V[1, VH.V_DIR] == 0
    moving = turn_round(mph=20)
    assert moving.V[1, VH.V_DIR] == 0


def test_a_rider_shut_in_ahead_turns_round_in_its_square_towards_the_enemy_behind_p64():
    """A rider stopped nose to a road shut from edge to edge (p76), the Op behind it: a driver
    turns round towards the enemy (a U-turn as it moves off, p15), but a U-turn needs the next
    space's six lanes clear (p14), and a rider may not reverse to make room (p64), so the
    riders waited there for ever. A bike may move off the other way in its own square (p64):
    it does (the old driver: it waited)."""
    w = World()
    w.place(1, 2, 2, 2, 0, BIKE, side=0, role=VH.CHASE)
    w.place(3, 1, 2, 0, 40, CAR, side=1, role=VH.LEAD)
    w.WS[1, :, VH.W_AMMO] = 0
    w.marker(RD.OBSTACLE, 3, 0, 0, 5)
    assert VH.uturn_zone(w.T, w.TM, w.M, w.NM, w.V, w.n, 1, False)[0] < 0
    act, arg = w.decide(1, moves=False)
    assert act == PO.A_TURN_ROUND and 0 < arg <= PO.TURN_ROUND_MPH, (act, arg)


def _behind_own_wreck(direction=0, mph=0):
    """A gang rider (1) with nothing to shoot, its side's wrecked bike (2) in its lanes, the
    stopped Op (3) beyond the wreck; ``direction`` 1: the rider already turned round, going
    away from both."""
    w = World()
    w.place(1, 2, 2, 1, mph, BIKE, side=0, role=VH.CHASE, direction=direction)
    w.place(2, 2, 2, 2, 0, BIKE, side=0, role=VH.CHASE)
    w.V[2, VH.V_STATUS] = VH.WRECK
    w.V[2, VH.V_FALLEN] = 1
    w.place(3, 3, 2, 1, 0, CAR, side=1, role=VH.LEAD)
    w.WS[1, :, VH.W_AMMO] = 0
    return w


def test_a_rider_stopped_nose_to_its_side_s_wreck_turns_round_in_its_square_p13_p64():
    """A rider stopped with its side's wreck in its next space and nothing to shoot can never
    pass it from there: the straight move comes first (p13), a rider may not reverse (p64) nor
    dodge a vehicle or a wreck (p64). The old driver waited, and seeded gang pursues games
    (213, 849, 4229, 4604, ...) ended with the position repeated, the stopped Op beyond the
    wreck. It turns round in its square (p64) for a run-up round the wreck; where the space
    behind it is held (the move back would be a ram) it still waits."""
    w = _behind_own_wreck()
    act, arg = w.decide(1, moves=False)
    assert act == PO.A_TURN_ROUND and 0 < arg <= PO.TURN_ROUND_MPH, (act, arg)
    w.place(0, 2, 2, 0, 0, CAR, side=1, role=VH.LEAD)   # an enemy car stopped behind it
    assert w.decide(1, moves=False)[0] == PO.A_NONE


def test_a_rider_turns_round_from_one_place_at_most_backoffs_times_p64():
    """A rider may not reverse (p64): its turn-round in its own square is its backing off, and
    the engine remembers it as it remembers a car's reverse (``remember_backing``, the place
    and the facing it turned from). A rider nose to its side's wreck, a run-up round it open,
    turns round; the run-up bringing it back to the same place each time, after
    ``P_BACKOFFS`` (2) turn-rounds from there it waits (seeded gang pursues 2372, 2799, 4604:
    the last rider by the stranded Op, the way past shut beyond its reach, went round and round
    for 160 turns with the limit raised to 200; issue 15, session 32). The old engine did not
    remember a turn-round, and the old driver turned round every time. With ``backoffs`` 0
    (no limit) it turns round every time, as before."""
    for limit, expect in ((PO.BACKOFFS, PO.A_NONE), (0, PO.A_TURN_ROUND)):
        w = _behind_own_wreck()
        w.POL[1, PO.P_BACKOFFS] = limit
        for k in range(PO.BACKOFFS):
            assert w.decide(1, moves=False)[0] == PO.A_TURN_ROUND
            st, s = w.dice
            w.act(st, s, 1, turn=k + 1, phase=1)
            assert w.V[1, VH.V_DIR] == 1 and w.V[1, VH.V_MPH] > 0
            # the run-up brings it back, stopped where it turned round, facing the wreck
            w.V[1, VH.V_DIR] = 0
            w.V[1, VH.V_MPH] = 0
            assert PO._backed_from(w.V, 1) == k + 1
        assert w.decide(1, moves=False)[0] == expect


def test_a_rider_turned_round_drifts_off_the_blocked_lanes_before_it_turns_back_p13_p64():
    """The rider that turned round from its side's wreck, going away at 20mph with the stopped
    Op behind it beyond the wreck: the old driver rode on in the wreck's lanes (here it
    accelerated), stopped short of the road's end, turned round in its square (p64) and came
    back nose to the wreck, to the turn limit (seeded gang pursues 1393). It drifts first
    towards the nearest lanes clear back to the Op (two drifts either side of a wreck on its
    lanes: the dice's side); with its lanes clear back to the Op, no drift."""
    w = _behind_own_wreck(direction=1, mph=20)
    act, arg = w.decide(1)
    assert act == PO.A_DRIFT and arg in (-1, 1), (act, arg)
    w.V[2, VH.V_STATUS] = VH.LEFT
    assert w.decide(1)[0] != PO.A_DRIFT


def test_a_rider_going_away_to_turn_back_drifts_for_the_way_back_not_off_a_marker_p13_p30():
    """The rider that turned round from its side's wreck, going away at 20mph: oil two spaces
    ahead in its right lane, and the way back left of the wreck shut by an obstacle. The
    driver's drift off the oil (to the left) passed through, and the old rider went on away
    from the fight in lanes that bring it back nose to the wreck or the obstacle (seeded gang
    pursues 1393: round and round to the turn limit). It drifts towards the lanes clear back
    to the Op (right, onto the oil's lanes: at 20mph, under oil's safety limit, the oil costs
    a handling point, not control, p30)."""
    w = _behind_own_wreck(direction=1, mph=20)
    w.marker(RD.OBSTACLE, 2, 2, 0, 1)
    w.marker(RD.OIL, 1, 2, 3, 4)
    assert PO.decide(w.B, w.T, w.V, w.WS, w.n, 1, True, w.a.hp, w.POL[1], *w.dice) \
        == (PO.A_DRIFT, -1)
    assert w.decide(1) == (PO.A_DRIFT, 1)


def _rolling_up_to_stranded_op(mph=20, sp=1):
    """A gang rider (1) at ``mph`` coming up behind the Op (3), stopped with its engine out
    (p15), in the rider's lanes two spaces ahead (``sp`` 1) or further (the fairing mounts
    fire into the two lanes ahead, p64)."""
    w = World()
    w.place(1, 2, 2, sp, mph, BIKE, side=0, role=VH.CHASE)
    w.place(3, 3, 2, 0, 0, CAR, side=1, role=VH.LEAD)
    w.V[3, VH.V_ENGOFF] = 1
    return w


def test_a_rider_coming_up_on_a_stranded_op_stops_where_it_has_the_shot_p16_p25_p64():
    """Every enemy stopped for good (here the Op's engine out, p15), a rider whose next space
    is the last in line for a shot (a space on, the Op is in the way) brakes to a stop there
    (the move comes before the brake, p16) and shoots from it. The old driver steered round
    the Op in its lanes (here a drift), rode on beside and past it with no shot, its guns
    fixed forward (p64) and no reverse (p64), and came back by a run-up and a turn round
    (seeded gang pursues 897, 2358: round a stranded Op to the turn limit). Further back,
    the shot still there a space on, it comes on closer (the odds fall with the range, p25);
    with the Op moving or only waiting (its engine running) it does not stop."""
    w = _rolling_up_to_stranded_op()
    assert w.decide(1) == (PO.A_BRAKE, 20)

    def stops(w):
        return PO._stops_with_shot(w.T, w.TM, w.M, w.NM, w.V, w.WS, w.n, 1, w.a.hp, w.POL[1],
                                   w.tbuf)

    assert stops(w)
    assert not stops(_rolling_up_to_stranded_op(sp=0))
    w.V[3, VH.V_MPH] = 30
    assert not stops(w)
    w = _rolling_up_to_stranded_op()
    w.V[3, VH.V_ENGOFF] = 0
    assert not stops(w)


def _riding_at_stranded_op(mph=20, sec=0, sp=0, direction=0, op_sec=6):
    """A gang rider (1) at ``mph`` on a straight road with nothing to shoot with, the Op (3)
    stopped with its engine out (p15) in the rider's lanes at section ``op_sec``, the road shut
    edge to edge by obstacles just past it (so the rider cannot leave it behind, p75, and
    hunts it, p88)."""
    w = World()
    w.place(1, sec, 2, sp, mph, BIKE, side=0, role=VH.CHASE, direction=direction)
    w.place(3, op_sec, 2, 0, 0, CAR, side=1, role=VH.LEAD)
    w.V[3, VH.V_ENGOFF] = 1
    w.WS[1, :, VH.W_AMMO] = 0
    w.marker(RD.OBSTACLE, op_sec, 1, 0, 5)
    return w


def test_a_rider_rides_at_a_stranded_op_as_fast_as_it_can_brake_back_in_time_p15_p16_p64():
    """Every enemy stopped for good, the Op far ahead: the old rider closed at its closing
    speed over the Op's 0mph (``close_margin``, 20mph: a space a turn), and seeded gang
    pursues riders back from a turn round spent the game's last 15-20 turns on one run-up
    (637, 2143, 2372, 3076, 4383). It speeds up, no faster than one brake a move brings it
    back to the closing speed ``RUN_IN`` spaces short of the Op (p15-16), and is braking
    there. An Op only waiting (its engine running) is stopped too, and gets the same run-in
    (session 31: the last rider of seeded gang pursues 1274 and 1522, turned round ten spaces
    behind a waiting Op, closed at 20mph and the turn limit came first); an Op on the move
    gets the closing speed over its own (30mph: 50mph, no more). Not towards its side's wreck
    in its lanes short of the Op (a ram, p57): the route drifts round that at the old
    speed."""
    close = int(PO.params_vector()[PO.P_CLOSE])
    w = _riding_at_stranded_op()
    act, arg = w.decide(1)
    assert act == PO.A_ACCEL and 20 + close < 20 + arg <= w.V[1, VH.V_MAXSPD], (act, arg)
    w = _riding_at_stranded_op(mph=100, sec=5)
    assert w.decide(1) == (PO.A_BRAKE, min(w.V[1, VH.V_BRK], 80))
    w = _riding_at_stranded_op()
    w.V[3, VH.V_ENGOFF] = 0
    assert w.decide(1) == (act, arg)
    w.V[3, VH.V_MPH] = 30
    assert w.decide(1) == (PO.A_ACCEL, 30 + close - 20)
    w = _riding_at_stranded_op()
    w.place(2, 1, 2, 1, 0, BIKE, side=0, role=VH.CHASE)
    w.V[2, VH.V_STATUS] = VH.WRECK
    w.V[2, VH.V_FALLEN] = 1
    assert w.decide(1)[0] != PO.A_ACCEL



def _op_past_stranded_rider_road_shut(strip=True):
    """Game Six's arrays as seeded gang pursues 1093 stood (session 31): the Op (3, the lead
    car, where taking the other side out wins) stopped on section 5 lanes 4-5 facing with play;
    a gang rider (1) stranded (its handling gone, p34-35; an engine out would leave it pushing
    its bike) and armed on section 3 lanes 2-3, two sections back, facing with play; the rest
    of the gang wrecked; and, with ``strip``, the road shut edge to edge by obstacles (p76) at
    the start of the bend on section 7, the last laid. The Op has passed the rider but can
    never leave it off the back of the road."""
    w = World(layout=("S",) * 7 + ("BL",))
    w.place(3, 5, 4, 0, 0, CAR, side=1, role=VH.LEAD)
    w.place(1, 3, 2, 0, 0, BIKE, side=0, role=VH.CHASE)
    w.V[1, VH.V_HAND] = 0
    for v, lane in ((0, 0), (2, 2)):
        w.place(v, 0, lane, 0, 0, CAR if v == 0 else BIKE, side=0, role=VH.CHASE)
        w.V[v, VH.V_STATUS] = VH.WRECK
    if strip:
        w.marker(RD.OBSTACLE, 7, 0, 0, 2)
        w.marker(RD.OBSTACLE, 7, 0, 3, 5)
    return w


def test_a_lead_car_that_cannot_leave_a_stranded_enemy_behind_hunts_it_p75_p76_p88():
    """Seeded gang pursues 1093 (session 31) was drawn at the turn limit: the Op, past a
    stranded rider with a gun, counted it left behind (p75) and drove on with play, met an
    obstacle strip shut edge to edge (p76), backed off, U-turned, drove past the rider at
    120mph to the start of the track, U-turned again, and so on for twenty turns. An enemy
    stopped with weapons is not beaten (p88); the Op could never drive on far enough to
    leave it off the back of the road. Now the road shut anywhere on its way on
    (``_way_on_shut``) means it leaves no one behind, and a lead car that must take stranded
    enemies out drives at them as a chase car does (``_lead_hunts``: closing speed, line-up,
    the shot). Through the engine's own turns, on 20 dice streams, the Op takes the rider out
    in 17 (100 streams: 78 won, 15 lost, 7 drawn with nothing left able to move or shoot).
    The old driver won none of the 20: it drove up and down past the rider, under its guns,
    ramming the strip, until the rider or the strip wrecked it (19; one drawn). With the strip
    gone, the rider is left behind (the old judgement, kept)."""
    w = _op_past_stranded_rider_road_shut()
    n = w.n
    assert PO._stuck(w.V, 1) and VH.armed(w.V, w.WS, 1)
    assert PO._way_on_shut(w.T, w.TM, w.M, w.NM, w.V, n, 3)
    assert not PO._leaves_behind(w.T, w.TM, w.M, w.NM, w.V, n, 3, w.a.hp)
    assert PO._lead_hunts(w.T, w.TM, w.M, w.NM, w.V, n, 3, w.a.hp)
    open_road = _op_past_stranded_rider_road_shut(strip=False)
    assert PO._leaves_behind(open_road.T, open_road.TM, open_road.M, open_road.NM,
                             open_road.V, n, 3, w.a.hp)
    assert not PO._lead_hunts(open_road.T, open_road.TM, open_road.M, open_road.NM,
                              open_road.V, n, 3, w.a.hp)
    # a stopped vehicle of the Op's own side in the strip's gap is not a block for good: it
    # may move (here the strip leaves lanes 4-5 open, the team-mate stopped in them)
    gap = World(layout=("S",) * 7 + ("BL",))
    gap.V[...] = w.V
    gap.marker(RD.OBSTACLE, 7, 0, 0, 3)
    gap.place(0, 7, 4, 0, 0, CAR, side=1, role=VH.LEAD)
    assert not PO._way_on_shut(gap.T, gap.TM, gap.M, gap.NM, gap.V, n, 3)
    gap.V[0, VH.V_STATUS] = VH.WRECK
    assert PO._way_on_shut(gap.T, gap.TM, gap.M, gap.NM, gap.V, n, 3)

    wins = {-1: 0, 0: 0, 1: 0}
    for trial in range(20):
        w = _op_past_stranded_rider_road_shut()
        st = dice.new_state()
        dice.seed_trial(st, dice.stream_key(2026), trial)
        res = np.zeros(EG.R_W, np.int64)
        EG.play_turns(st, dice.NO_SCRIPT, w.B, w.V, w.WS, w.FIT, w.common(),
                      EG.Log(w.E, w.EN, 0, 0), res, 1, 1)
        wins[int(res[EG.R_WINNER])] += 1
    assert wins[1] >= 14 and wins[1] >= 4 * (wins[0] + wins[-1]), wins


def _stopped_behind_stranded_op(sec=1, sp=0):
    """A gang rider (1) stopped in the Op's lanes some spaces behind it, the Op (3) stopped
    with its engine out (p15) at section 3, the rider's guns loaded, nothing between."""
    w = World()
    w.place(1, sec, 2, sp, 0, BIKE, side=0, role=VH.CHASE)
    w.place(3, 3, 2, 0, 0, CAR, side=1, role=VH.LEAD)
    w.V[3, VH.V_ENGOFF] = 1
    return w


def test_a_rider_stopped_well_behind_a_stranded_op_moves_up_for_better_odds_p15_p25_p26():
    """A rider stopped six spaces behind the Op stranded with its engine out, out of its guns'
    corridor (fixed forward, p82-83): the old driver shot from there every turn, and seeded
    gang pursues riders five to seven spaces back missed half their shots to the turn limit
    (967, 2265, 2961, 3787). The hit roll must reach the range (p25-26): it moves up a space
    as it moves off in phase 1 (p15), to fire later in the turn, and comes on to the last
    place in line (_stops_with_shot). Right behind the Op (nothing to gain), with the Op only
    waiting (its engine running) or facing it with its guns, it shoots."""
    w = _stopped_behind_stranded_op()
    assert PO._shot_core(w.T, w.M, w.NM, w.V, w.WS, w.n, 1, w.a.hp, w.tbuf, 1, 0)[0] >= 0
    assert w.decide(1, moves=False) == (PO.A_ACCEL, PO._creep(w.V, 1))
    w = _stopped_behind_stranded_op(sec=2, sp=2)
    assert w.decide(1, moves=False)[0] == PO.A_SHOOT
    w = _stopped_behind_stranded_op()
    w.V[3, VH.V_ENGOFF] = 0
    assert w.decide(1, moves=False)[0] == PO.A_SHOOT
    w = _stopped_behind_stranded_op()
    w.V[3, VH.V_DIR] = 1
    assert w.decide(1, moves=False)[0] == PO.A_SHOOT


def _queued_behind_shooting_team_mate(mate_lane=2):
    """A gang rider (1) stopped in the Op's lanes nose to a team-mate (2) stopped right
    behind the Op (3), stranded with its engine out (p15); the team-mate (on ``mate_lane``'s
    pair) has the shot, the rider none (the team-mate is first in its corridor, p25)."""
    w = World()
    w.place(1, 2, 2, 1, 0, BIKE, side=0, role=VH.CHASE)
    w.place(2, 2, mate_lane, 2, 0, BIKE, side=0, role=VH.CHASE)
    w.place(3, 3, 2, 0, 0, CAR, side=1, role=VH.LEAD)
    w.V[3, VH.V_ENGOFF] = 1
    return w


def test_a_rider_queued_behind_a_team_mate_with_the_only_shot_waits_to_take_over_p25_p64():
    """A rider stopped nose to a team-mate that holds the only line of fire at the stranded
    Op: every lane pair sharing a lane with the Op shares one with the team-mate, so any
    place with a shot of its own lies past the team-mate, in its corridor, taking its shot
    away (the closest vehicle in a corridor is the target, a team-mate blocks, p25; a bike's
    corridor is the two lanes ahead, p64). The old driver turned round in its square (p64)
    and came back at 20mph to the same place, again and again (seeded gang pursues 3076,
    4704, to the turn limit); it waits there to take over. A third rider queued behind it
    waits too. With a pair of its own clear of the team-mate's lanes (the team-mate a lane
    over), the team-mate out of shots, or the Op only waiting (its engine running), it turns
    round as before."""
    w = _queued_behind_shooting_team_mate()
    assert PO._shot_core(w.T, w.M, w.NM, w.V, w.WS, w.n, 2, w.a.hp, w.tbuf, 1, 0)[1] == 3
    assert w.decide(1, moves=False) == (PO.A_NONE, 0)
    w.place(0, 2, 2, 0, 0, BIKE, side=0, role=VH.CHASE)
    w.WS[0, :, VH.W_AMMO] = 0
    assert w.decide(0, moves=False) == (PO.A_NONE, 0)
    w = _queued_behind_shooting_team_mate(mate_lane=1)
    w.place(1, 2, 1, 1, 0, BIKE, side=0, role=VH.CHASE)
    assert w.decide(1, moves=False)[0] == PO.A_TURN_ROUND
    w = _queued_behind_shooting_team_mate()
    w.WS[2, :, VH.W_AMMO] = 0
    assert w.decide(1, moves=False)[0] == PO.A_TURN_ROUND
    w = _queued_behind_shooting_team_mate()
    w.V[3, VH.V_ENGOFF] = 0
    assert w.decide(1, moves=False)[0] == PO.A_TURN_ROUND



def test_a_rider_in_a_standoff_plans_with_a_rider_s_moves_behind_a_stranded_op_p64_p82():
    """Issue 15, session 29: the Op (3) stopped for good (no acceleration, p15, p28) on
    section 3's lanes 1-2, space 1; the last rider (1) stopped beside it on lanes 3-4, no shot
    (the Op is not in its corridor, the two lanes ahead of it, p64), neither has one. The
    stand-off plan (``_plan_standoff``) was for cars only; with a rider's moves (no reverses;
    stopped, a turn round in its own square to move off the other way, p64) it finds a place
    with the Op in its sights that the Op, its guns fixed forward (p82-83), cannot answer,
    and no step of the way is a reverse. The old planner: no plan for a bike."""
    w = World()
    w.place(1, 3, 3, 1, 0, BIKE, side=0, role=VH.CHASE)
    w.place(3, 3, 1, 1, 0, CAR, side=1, role=VH.LEAD)
    w.V[3, VH.V_ACC] = 0
    std = w.POL[1]
    n = w.n
    assert PO.best_shot(w.T, w.M, w.NM, w.V, w.WS, n, 1, w.a.hp, std, w.tbuf)[0] < 0
    assert PO.best_shot(w.T, w.M, w.NM, w.V, w.WS, n, 3, w.a.hp, w.POL[3], w.tbuf)[0] < 0
    V = w.V.copy()
    assert PO._plan_standoff(w.B, w.T, V, w.WS, n, 1, w.a.hp, std, *w.dice)
    goal = PO._goal_place(V[1, VH.V_GOAL])
    mine, theirs = PO._exchange_at(w.T, w.M, w.NM, V, w.WS, n, 1, w.a.hp, w.tbuf,
                                   std[PO.P_SHOOT], *goal)
    assert mine > 0.0 and theirs == 0.0
    dist, first, q, qs, tail = PO._plan_search(w.T, w.TM, w.M, w.NM, V, n, 1, -1, False,
                                               w.a.hp[PO.HP_DODGE_OBST])
    for k in range(tail):
        assert first[q[k]] & ((1 << PO.PS_BACK) | (1 << PO.PS_BACK_L) | (1 << PO.PS_BACK_R)
                              | (1 << PO.PS_BACK_UTURN)) == 0
    # its first step from the stop is a move off, never a reverse
    act, arg = PO._follow_plan(w.B, w.T, V, w.WS, n, 1, False, w.a.hp, std, *w.dice)
    assert act in (PO.A_ACCEL, PO.A_OFF_DRIFT, PO.A_TURN_ROUND), (act, arg)


def test_a_rider_in_a_standoff_turns_round_and_dodges_through_the_engine_to_a_shot_p62_p64():
    """Issue 15, session 30: the driver-level check of the rider's stand-off plan. The last
    rider (1) stands stopped on lanes 3-4 at section 3's last space, facing with play, nose to
    an obstacle strip across its lanes in the next space; an obstacle on lane 3 in the space
    behind it; the Op (3) stopped for good (no acceleration, p15, p28) three spaces back in the
    same lanes, facing away from it, its guns fixed forward (p82-83). Neither has a shot. The
    rider may not reverse (p64), so its driver's choice is a wait, and with the space behind
    held ``_shut_in_rider`` does not turn it round either: the old driver waited for good, the
    position repeating. Its plan: turn round in its own square (p64 'Moving Off'), dodge the
    obstacle behind in lane 4 (p62, p64), and stop a space on with the Op in its sights and
    none at it. Its own turns through the engine (the Op left where it stands; at 10mph one
    phase a turn) bring it there, no move a reverse, and it shoots. Where the rules in force
    have a dodge meet an obstacle with both lanes (variant dodge_obstacles), the plan does not
    count on the dodge."""
    w = World()
    w.place(1, 3, 3, 2, 0, BIKE, side=0, role=VH.CHASE)
    w.place(3, 2, 3, 2, 0, CAR, side=1, role=VH.LEAD, direction=1)
    w.V[3, VH.V_ACC] = 0
    w.marker(RD.OBSTACLE, 4, 0, 3, 4)      # the strip ahead, the rider's lanes
    w.marker(RD.OBSTACLE, 3, 1, 3, 3)      # lane 3 of the space behind
    std = w.POL[1]
    n = w.n
    hp = w.a.hp
    for v in (1, 3):
        assert PO.best_shot(w.T, w.M, w.NM, w.V, w.WS, n, v, hp, w.POL[v], w.tbuf)[0] < 0
    # what the rider's driver makes of it before the plan: a wait, not a turn round
    act, arg = PO.decide(w.B, w.T, w.V.copy(), w.WS, n, 1, False, hp, std, *w.dice)
    assert act in (PO.A_NONE, PO.A_REVERSE)
    assert not PO._shut_in_rider(w.T, w.M, w.NM, w.V, n, 1)
    # under the variant where a dodge meets an obstacle with both lanes (dodge_obstacles =
    # both_lanes, the engine's G_DODGE_OBST 0) the way behind is shut and no plan is made:
    # the search dodges only what the engine lets the rider dodge
    both = hp.copy()
    both[PO.HP_DODGE_OBST] = 0
    assert not PO._plan_standoff(w.B, w.T, w.V.copy(), w.WS, n, 1, both, std, *w.dice)
    st, s = w.dice
    place = (w.V[1, VH.V_SEC], w.V[1, VH.V_LANE], w.V[1, VH.V_SP])
    for turn in range(1, PO.PLAN_MOVES + 1):
        w.act(st, s, 1, turn=turn, phase=1)
        assert w.V[1, VH.V_STATUS] == VH.ACTIVE and w.V[1, VH.V_MPH] <= PO.PLAN_MPH
        assert w.V[1, VH.V_REV] == 0
        slot, u = PO.best_shot(w.T, w.M, w.NM, w.V, w.WS, n, 1, hp, std, w.tbuf)
        if slot >= 0 and w.V[1, VH.V_MPH] == 0:
            break
    # the old driver: waited where it stood, no shot, every turn
    assert u == 3 and w.V[1, VH.V_MPH] == 0, turn
    assert PO.best_shot(w.T, w.M, w.NM, w.V, w.WS, n, 3, hp, w.POL[3], w.tbuf)[0] < 0
    acts = w.events(EG.EV_ACTION)
    acts = acts[acts[:, 2] == 1]
    # a rider's moves: turned round where it stood, then the dodge; never a reverse (p64)
    assert acts[0, 4] == PO.A_TURN_ROUND
    assert PO.A_DODGE in acts[:, 4] and PO.A_REVERSE not in acts[:, 4]
    for code in (EG.EV_REVERSE, EG.EV_RAM, EG.EV_BIKERAM):
        assert len(w.events(code)) == 0
    assert w.V[1, VH.V_DIR] == 1 and w.V[1, VH.V_LANE] == place[1] \
        and w.V[1, VH.V_SEC] == place[0] and w.V[1, VH.V_SP] == place[2] - 2
    assert w.V[1, VH.V_DMG] == w.V[1, VH.V_MAXDMG]     # the dodge squeezed past unhit
    # the plan is over where it stopped, and the next turn it shoots the Op
    w.act(st, s, 1, turn=turn + 1, phase=1)
    shots = w.events(EG.EV_SHOT)
    assert w.V[1, VH.V_GOAL] == 0
    assert any(shots[(shots[:, 0] == turn + 1) & (shots[:, 2] == 1), 4] == 3)


def test_a_rider_out_of_ammunition_plans_no_race_of_rams_p72():
    """Issue 15, session 30: the stand-off plan's race of rams (``ram_race`` 2: a place from
    which a slow ram of a stopped enemy car wins the race of equal hits, ``_race_at``) is a
    car's: a bike's head-on ram with a car crashes the bike (p72), and no rider's driver makes
    the ram (``_ram_race_now`` is a car's). The rider stopped facing against play nose to a
    strip, an obstacle on lane 3 of the space behind, the Op stranded on the next section in
    its lanes facing away, down to its last point. With its guns it plans its way to a shot;
    out of ammunition it plans nothing (it used to plan the way to a ram it 'won' once riders
    took the car's planner)."""
    w = World()
    w.place(1, 3, 3, 0, 0, BIKE, side=0, role=VH.CHASE, direction=1)
    w.place(3, 4, 3, 0, 0, CAR, side=1, role=VH.LEAD)
    w.V[3, VH.V_ACC] = 0
    w.V[3, VH.V_DMG] = 1
    w.marker(RD.OBSTACLE, 2, 2, 3, 4)      # the strip ahead of it, against play
    w.marker(RD.OBSTACLE, 3, 1, 3, 3)      # lane 3 of the space behind
    std = w.POL[1]
    assert std[PO.P_RAMRACE] == 2
    V = w.V.copy()
    assert PO._plan_standoff(w.B, w.T, V, w.WS, w.n, 1, w.a.hp, std, *w.dice)
    w.WS[1, :, VH.W_AMMO] = 0
    V = w.V.copy()
    assert not PO._plan_standoff(w.B, w.T, V, w.WS, w.n, 1, w.a.hp, std, *w.dice)
    assert V[1, VH.V_GOAL] == 0
