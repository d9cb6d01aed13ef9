"""Drivers (issue 15, 'Drivers'): moving off when stopped, a halted spin or skid ending the
control loss (p46), in scripted positions through the policy and the engine's ``_act``."""

import numpy as np

from simkit.core import dice
import pytest

from simkit.dark_future import engine as EG
from simkit.dark_future import policies as PO
from simkit.dark_future.pieces import road as RD
from simkit.dark_future.pieces import vehicle as VH

from test_dark_future_engine import World, _rules_with


def _stream(trial):
    """A live dice stream (trial ``trial`` of one seed) for the drivers' tie rolls."""
    st = dice.new_state()
    dice.seed_trial(st, dice.stream_key(15), trial)
    return st, dice.NO_SCRIPT


def _d(w, v, par, moves=False, n=2, trial=None):
    if trial is not None:
        w.dice = _stream(trial)
    return PO.decide(w.B, w.T, w.V, w.WS, n, v, moves, w.hp, par, *w.dice)



def _obstacle(w, sec, lo, hi, sp=0):
    """An obstacle across lanes lo-hi of section ``sec``'s space ``sp`` (the made-up positions'
    road blocks)."""
    RD._add_marker(w.M, w.NM, RD.OBSTACLE, sec, lo, hi, RD.rear_x(w.T, sec, lo, sp),
                   RD.front_x(w.T, sec, lo, sp), 1, -1)

def _stopped_chase_world():
    """Two cars with no ammunition, the standard drivers; the chase car stopped on lanes 2-3 of
    section 1 (the lead car is the caller's to place). Returns (world, policy, both policies)."""
    w = World()
    std = PO.policy_vector("standard")
    w.WS[:, :, VH.W_AMMO] = 0
    w.place(1, 1, 2, 0, 0, side=1, role=VH.CHASE)
    return w, std, np.stack([std, std])


def _act(w, st, s, v, pol, n=2, turn=1, phase=1):
    EG._act(st, s, w.B, w.V, w.WS, w.FIT, n, v, w.common(pol), EG.Log(w.E, w.EN, turn, phase))


def test_stopped_cars_move_off_p15():
    """A stopped lead car moves off (it used to stay put for ever); a stopped chase car moves
    off whatever the enemy's speed (it used to wait for the enemy to be 10mph faster), unless
    it has a shot; a rule keeping the car still keeps it still."""
    w = World()
    std = PO.policy_vector("standard")
    w.place(0, 3, 2, 0, 0, side=0, role=VH.LEAD)
    w.place(1, 1, 0, 0, 0, side=1, role=VH.CHASE)     # two lanes over: no corridor shot
    w.WS[:, :, VH.W_AMMO] = 0
    for v in (0, 1):
        act, arg = _d(w, v, std)
        assert act == PO.A_ACCEL and 0 < arg <= w.V[v, VH.V_ACC], (v, act, arg)
    # the enemy slower than the chase car's +10mph threshold still does not hold it back
    w.V[0, VH.V_MPH] = 5
    assert _d(w, 1, std)[0] == PO.A_ACCEL
    # through the engine: the stationary lead car sets its speed in phase 1 (p15)
    w.V[0, VH.V_MPH] = 0
    st, s = w.script([])
    pol = np.stack([std, std])
    _act(w, st, s, 0, pol)
    assert w.V[0, VH.V_MPH] > 0
    # a chase car with a shot at a moving target shoots first (the target is leaving)
    w.place(0, 2, 0, 0, 40, side=0, role=VH.LEAD)
    w.place(1, 1, 0, 0, 0, side=1, role=VH.CHASE)
    w.WS[1] = w.a.LOAD[1, 0]
    assert _d(w, 1, std)[0] == PO.A_SHOOT
    # a stopped target is a sitting one (issue 15: moving off into it only braked the chase
    # car to a stop again, and seeded Game Six games shuttled so to the turn limit)
    w.V[0, VH.V_MPH] = 0
    assert _d(w, 1, std)[0] == PO.A_SHOOT
    # rules that keep a car still: engine out, zero handling (p16, p50)
    w.WS[:, :, VH.W_AMMO] = 0
    w.V[1, VH.V_ENGOFF] = 1
    assert _d(w, 1, std) == (PO.A_NONE, 0)
    w.V[1, VH.V_ENGOFF] = 0
    w.V[1, VH.V_HAND] = 0
    assert _d(w, 1, std) == (PO.A_NONE, 0)


def test_stopped_nose_to_a_wreck_reverses_p17():
    """Stopped against a wreck in front, a driver reverses (drifting to a clear side) instead
    of driving into it or waiting for ever."""
    w = World()
    std = PO.policy_vector("standard")
    w.place(0, 2, 2, 2, 0, side=0, role=VH.LEAD)
    w.place(1, 3, 2, 0, 0, side=1, role=VH.CHASE)
    w.V[1, VH.V_STATUS] = VH.WRECK
    w.WS[:, :, VH.W_AMMO] = 0
    act, arg = _d(w, 0, std)
    assert act == PO.A_REVERSE and arg in (-1, 0, 1)


def test_a_stopped_car_with_a_clear_next_space_moves_off_drifting_round_a_block_p15():
    """A stopped chase car (lanes 2-3) with nothing to shoot and a road obstacle on the left
    edge (lanes 0-2, p76) two spaces ahead used to reverse with a drift (p17), giving up a
    space and a turn before coming on again. The straight move is clear and so is the lane
    pair beside the block (3-4), so it moves off with a drift (p15) and is round it in phase
    1. With the block in the very next space the straight move would run into it (p13), and
    from lanes 1-2 the clear pair is two drifts away (one a move): there it still reverses."""
    w, std, pol = _stopped_chase_world()
    w.place(0, 6, 4, 0, 60, side=0, role=VH.LEAD)
    _obstacle(w, 1, 0, 2, 2)
    act, arg = _d(w, 1, std, trial=0)
    assert act == PO.A_OFF_DRIFT and 0 < arg <= w.V[1, VH.V_ACC], (act, arg)
    # through the engine: it moves in phase 1, a lane to the right, clear of the strip
    st, s = w.script([])
    _act(w, st, s, 1, pol)
    assert (w.V[1, VH.V_SP], w.V[1, VH.V_LANE]) == (1, 3) and w.V[1, VH.V_MPH] > 0
    # the strip in the very next space: the straight move cannot be made, so it backs off
    w.place(1, 1, 2, 1, 0, side=1, role=VH.CHASE)
    assert _d(w, 1, std, trial=0)[0] == PO.A_REVERSE
    # in lanes 1-2 the clear pair is two lanes over: one drift cannot reach it
    w.place(1, 1, 1, 0, 0, side=1, role=VH.CHASE)
    assert _d(w, 1, std, trial=0)[0] == PO.A_REVERSE


def test_a_car_halted_while_spinning_or_skidding_regains_control_p46():
    """A spinning car brought to a halt (by a ram: its speed set to 0 without a further spin
    roll) stops spinning and re-aligns next (p46: a spin lasts until the car comes to a
    halt); a skidding car halted square to the grid simply moves off. Before the fix both
    stayed out of control for ever (seeded Game One trials drawn at the turn limit)."""
    w, std, pol = _stopped_chase_world()
    w.place(0, 4, 2, 0, 60, side=0, role=VH.LEAD)
    w.V[1, VH.V_OOC] = VH.SPINNING
    w.V[1, VH.V_ATT] = 90
    st, s = w.script([])
    _act(w, st, s, 1, pol)
    assert w.V[1, VH.V_OOC] == VH.IN_CONTROL
    assert w.V[1, VH.V_ATT] == 0 and w.V[1, VH.V_NEEDALIGN] == 0
    assert 0 < w.V[1, VH.V_MPH] <= w.G[EG.G_REALIGN]          # the re-alignment (p46)
    w.place(1, 1, 2, 0, 0, side=1, role=VH.CHASE)
    w.V[1, VH.V_OOC] = VH.OUT_OF_CONTROL
    w.V[1, VH.V_SKIDDIR] = 1
    _act(w, st, s, 1, pol)
    assert w.V[1, VH.V_OOC] == VH.IN_CONTROL and w.V[1, VH.V_SKIDDIR] == 0
    assert w.V[1, VH.V_MPH] > 0                                # moving off (p15)


def _oil_ahead(w, v, k, shift=0):
    """An oil marker k spaces straight ahead of car v, in its two lanes (moved ``shift``
    lanes over)."""
    sec, sp, lane = w.V[v, VH.V_SEC], w.V[v, VH.V_SP] + k, w.V[v, VH.V_LANE]
    while sp >= RD.pair_spaces(w.T, sec, lane):
        sp -= RD.pair_spaces(w.T, sec, lane)
        sec += 1
    w.NM[0] = 0
    lane += shift
    RD._add_marker(w.M, w.NM, RD.OIL, sec, lane, lane + 1, RD.rear_x(w.T, sec, lane, sp),
                   RD.front_x(w.T, sec, lane, sp), 0, 1)


def test_drivers_hold_steady_or_slow_for_passives_p25_p41():
    """A chase car falling behind used to accelerate onto oil it could not steer round
    (turning a 60mph hazard into a 30mph one) and cross it at 100mph. Now: oil within two
    spaces, it holds its speed (no acceleration, no braking onto it, p25); oil further off
    and the car above its passive speed (80, the p41 optimum), it brakes before reaching it;
    with a clear lane beside it, it steers round."""
    w = World()
    std = PO.policy_vector("standard")
    w.WS[:, :, VH.W_AMMO] = 0
    w.place(0, 5, 2, 0, 100, side=0, role=VH.LEAD)      # far ahead, same lanes, faster
    w.place(1, 1, 2, 0, 60, side=1, role=VH.CHASE)
    assert _d(w, 1, std, moves=True)[0] == PO.A_ACCEL     # no oil: closes on the enemy
    _oil_ahead(w, 1, 1)
    assert _d(w, 1, std, moves=True) == (PO.A_NONE, 0)    # oil next: steady over it
    w.V[1, VH.V_MPH] = 100
    assert _d(w, 1, std, moves=True) == (PO.A_NONE, 0)    # too late to brake: no braking onto it
    _oil_ahead(w, 1, 4)
    act, arg = _d(w, 1, std, moves=True)
    assert act == PO.A_BRAKE and arg == min(w.V[1, VH.V_BRK], 20)
    # P_PASSMPH is the driver's: the reckless driver's 100 keeps its speed
    assert _d(w, 1, PO.policy_vector("reckless"), moves=True)[0] != PO.A_BRAKE
    # oil two spaces ahead over both its lanes: no single drift clears it, steady; over one
    # of them, with the lanes on the other side clear: drift round it
    w.V[1, VH.V_MPH] = 60
    _oil_ahead(w, 1, 2)
    assert _d(w, 1, std, moves=True) == (PO.A_NONE, 0)
    _oil_ahead(w, 1, 2, shift=1)
    assert _d(w, 1, std, moves=True) == (PO.A_DRIFT, -1)


def test_parameter_space_is_named_typed_and_bounded():
    """PO.PARAM_SPACE names every column of the policy vector once, with a kind, bounds and a
    default; the defaults are the standard driver, every named driver lies in the bounds and
    params_vector refuses unknown names and values outside the bounds."""
    cols = sorted(c for c, *_ in PO.PARAM_SPACE.values())
    assert cols == list(range(PO.P_W))
    for name, (col, kind, lo, hi, default) in PO.PARAM_SPACE.items():
        assert kind in ("int", "bool", "bits") and lo <= default <= hi, name
        if kind == "bool":
            assert (lo, hi) == (0, 1)
    assert (PO.params_vector() == PO.policy_vector("standard")).all()
    for pol in PO.POLICIES:
        vec = PO.policy_vector(pol)
        for name, (col, kind, lo, hi, _) in PO.PARAM_SPACE.items():
            assert lo <= vec[col] <= hi, (pol, name)
    assert PO.params_vector({"passive_mph": 60})[PO.P_PASSMPH] == 60
    with pytest.raises(KeyError):
        PO.params_vector({"nitro": 1})
    with pytest.raises(ValueError):
        PO.params_vector({"sideswipe": 2})


def test_stopped_before_a_block_backs_off_towards_the_open_side():
    """Seeded Game Six trial 518 drew at the turn limit: a car stopped two spaces short of an
    obstacle across its lanes and the lanes beside them moved off, braked to a stop in front
    of it, reversed straight back and did it again for 30 turns. A stopped car with the way
    blocked within two spaces and no clear lane beside it now reverses a lane towards the
    wider side of the road."""
    w = World()
    std = PO.policy_vector("standard")
    w.WS[:, :, VH.W_AMMO] = 0
    w.place(0, 6, 0, 0, 60, side=0, role=VH.LEAD)
    w.place(1, 1, 3, 0, 0, side=1, role=VH.CHASE)
    sec, sp = 1, 2
    _obstacle(w, sec, 2, 5, sp)
    assert _d(w, 1, std) == (PO.A_REVERSE, -1)


def test_parameters_change_decisions_in_scripted_positions():
    """One parameter of the space moved off its default (params_vector, everything else the
    standard driver) changes the decision in a scripted position (covered so far: passive_mph,
    curve_margin, sideswipe, shoot_sixths; uturn_mph and head_on in the direction tests)."""
    std = PO.params_vector()
    w = World(layout=("S", "S", "S", "CL", "S", "S", "S"))
    # shoot_sixths: the chase car 3 spaces behind in the lead car's lanes shoots its hood MG,
    # not when it wants a certain hit
    w.place(0, 1, 2, 1, 60, side=0, role=VH.LEAD)
    w.place(1, 0, 2, 1, 60, side=1, role=VH.CHASE)
    assert _d(w, 1, std, moves=True)[0] == PO.A_SHOOT
    assert _d(w, 1, PO.params_vector({"shoot_sixths": 6}), moves=True)[0] != PO.A_SHOOT
    # curve_margin: 90mph one space short of a corner brakes to the p41 optimum; 30 over the
    # limit is a different plan
    w.place(0, 2, 2, 1, 90, side=0, role=VH.LEAD)
    w.place(1, 0, 0, 0, 30, side=1, role=VH.CHASE)
    a = _d(w, 0, std, moves=True)
    b = _d(w, 0, PO.params_vector({"curve_margin": 30}), moves=True)
    assert a[0] == PO.A_BRAKE and a != b
    # sideswipe: level with an enemy in the adjacent lanes
    w.place(0, 1, 2, 1, 60, side=0, role=VH.LEAD)
    w.place(1, 1, 0, 0, 60, side=1, role=VH.CHASE)
    w.WS[1, :, VH.W_AMMO] = 0
    assert _d(w, 1, std, moves=True) == (PO.A_SWIPE, 1)
    assert _d(w, 1, PO.params_vector({"sideswipe": 0}), moves=True)[0] != PO.A_SWIPE
    # passive_mph: oil four spaces ahead at 100mph: brake to 80, not with 100
    w = World()
    w.WS[:, :, VH.W_AMMO] = 0
    w.place(0, 5, 2, 0, 100, side=0, role=VH.LEAD)
    w.place(1, 1, 2, 0, 100, side=1, role=VH.CHASE)
    _oil_ahead(w, 1, 4)
    assert _d(w, 1, std, moves=True)[0] == PO.A_BRAKE
    assert _d(w, 1, PO.params_vector({"passive_mph": 100}), moves=True)[0] != PO.A_BRAKE


def _gap_place(w, v, u, gap, lane, mph, side, role):
    """Place car ``u`` so that it is ``gap`` whole spaces behind car ``v`` (along v's lanes)."""
    for sec in range(w.V[v, VH.V_SEC], -1, -1):
        for sp in range(RD.pair_spaces(w.T, sec, lane) - 1, -1, -1):
            if (sec, sp) >= (w.V[v, VH.V_SEC], w.V[v, VH.V_SP]):
                continue
            w.place(u, sec, lane, sp, mph, side=side, role=role)
            if PO._nearest_enemy(w.T, w.V, 2, v, True, *w.dice) == (u, gap):
                return
    raise AssertionError("no such place")


def _no_guns(w, v):
    for s in range(VH.MAXW):
        if w.WS[v, s, VH.W_KIND] == VH.WK_DIRECT:
            w.WS[v, s, VH.W_AMMO] = 0


def _lead_with_pursuer(gap, mph=None, pursuer_lane=2):
    """A lead car with its oil layer and no guns, a pursuer ``gap`` spaces behind."""
    w = World()
    w.place(0, 4, 2, 1, 60, side=0, role=VH.LEAD)
    w.V[0, VH.V_MPH] = w.V[0, VH.V_MAXSPD] if mph is None else mph
    w.WS[0] = w.a.LOAD[0, 0]
    _no_guns(w, 0)
    _gap_place(w, 0, 1, gap, pursuer_lane, 60, 1, VH.CHASE)
    w.WS[1] = w.a.LOAD[1, 0]
    _no_guns(w, 1)
    return w


def _case_cruise():
    w = World()
    w.WS[:, :, VH.W_AMMO] = 0
    w.place(0, 3, 2, 0, 80, side=0, role=VH.LEAD)
    w.place(1, 0, 0, 0, 60, side=1, role=VH.CHASE)
    return lambda par: _d(w, 0, par, moves=True), {"cruise": 80}


def _case_passive_range():
    w = _lead_with_pursuer(5)
    return lambda par: _d(w, 0, par, moves=True), {"passive_range": 6}


def _case_dodge():
    w = _lead_with_pursuer(2)
    w.WS[0, :, VH.W_AMMO] = 0                       # its passives are spent too
    return lambda par: _d(w, 0, par, moves=True), {"dodge": 0}


def _case_close_margin():
    w = World()
    w.WS[:, :, VH.W_AMMO] = 0
    w.place(0, 3, 2, 0, 60, side=0, role=VH.LEAD)
    w.place(1, 1, 2, 0, 70, side=1, role=VH.CHASE)
    return lambda par: _d(w, 1, par, moves=True), {"close_margin": 0}


def _case_escape():
    w = _lead_with_pursuer(2, mph=60)
    return lambda par: _d(w, 0, par, moves=True), {"escape": 0}


def _case_flee():
    w = _lead_with_pursuer(0, mph=60)
    w.hp[PO.HP_GET_AWAY] = 1
    return lambda par: _d(w, 0, par, moves=True), {"flee": 0}


def _game_seven(near_mph, far_mph):
    """Game Seven (p89): attacker 3 (side 1, chasing) at 60mph on lanes 2-3; target 0 two
    spaces ahead on lanes 4-5 at ``near_mph``, target 1 three sections ahead on lanes 2-3 at
    ``far_mph``; the rest out of play. No one has ammunition."""
    w = World(scenario="game-7.toml")
    n = w.V.shape[0]
    assert w.hp[PO.HP_GET_AWAY] == 1
    for v in range(n):
        w.place(v, 0, 2, 0, 0, side=0 if v < 3 else 1, role=VH.LEAD if v < 3 else VH.CHASE)
        w.V[v, VH.V_STATUS] = VH.LEFT
    w.WS[:, :, VH.W_AMMO] = 0
    w.place(3, 1, 2, 0, 60, side=1, role=VH.CHASE)
    w.place(0, 1, 4, 2, near_mph, side=0, role=VH.LEAD)
    w.place(1, 4, 2, 0, far_mph, side=0, role=VH.LEAD)
    return w, n


def _case_runner():
    w, n = _game_seven(40, 100)
    return lambda par: _d(w, 3, par, moves=True, n=n), {"runner": 1}


def _passed_every_target():
    """Game Seven: the attacker (3) at 60mph has passed the one target still in play (0, a
    bike at 40mph a section behind, lanes 4-5); the other targets are out of play."""
    w, n = _game_seven(40, 60)
    w.place(0, 0, 4, 0, 40, side=0, role=VH.LEAD)
    w.V[1, VH.V_STATUS] = VH.LEFT
    return w, n


def _case_holdback():
    w, n = _passed_every_target()
    return lambda par: _d(w, 3, par, moves=True, n=n), {"holdback": 1}


FOCUS_TRIAL = 1   # a dice stream whose tie roll (focus 0) picks target 0, on lanes 0-1


def _case_focus():
    """Two equal targets level with each other (0 on lanes 0-1, 1 on lanes 4-5), the attacker
    on lanes 2-3 last chose target 1: with ``focus`` 1 it keeps it and drifts right, towards its
    lanes; the standard driver draws afresh, here target 0, and drifts left."""
    w, n = _two_equal_targets(0)
    w.V[3, VH.V_QUARRY] = 2
    return lambda par: _d(w, 3, par, moves=True, n=n, trial=FOCUS_TRIAL), {"focus": 1}


def _case_layer():
    w = _lead_with_pursuer(2)
    return lambda par: _d(w, 0, par, moves=True), {"layer": 1}


def _case_unlock():
    w = _lead_with_pursuer(9)
    for s in range(VH.MAXW):
        if w.WS[0, s, VH.W_KIND] == VH.WK_PASSIVE:
            w.WS[0, s, VH.W_LOCKED] = 1
    return (lambda par: _d(w, 0, par, moves=True),
            {"layer": 1, "unlock": 6}, {"layer": 1})


def _case_veto():
    w = World()
    pol = lambda par: np.stack([par, par])
    return (lambda par: bool(EG._lead_vetoes(w.V, 2, 0, pol(par), 80)), {"veto_mph": 80})


def _case_uturn():
    from test_dark_future_engine import World as W
    w = W(layout=("S", "BL", "S", "S", "S", "S", "S"))
    w.place(0, 2, 2, 1, 30, side=0, role=VH.LEAD)
    w.place(1, 0, 2, 0, 60, side=1, role=VH.CHASE)
    return lambda par: _d(w, 0, par, moves=True), {"uturn_mph": 30}


def _case_head_on():
    w = World()
    w.place(1, 4, 3, 2, 60, side=1, role=VH.CHASE)
    w.V[1, VH.V_DIR] = 1
    w.WS[1, :, VH.W_AMMO] = 0
    w.place(0, 3, 3, 0, 60, side=0, role=VH.LEAD)
    return lambda par: _d(w, 1, par, moves=True), {"head_on": 1}


def _bike_case(setup, values):
    def case():
        from test_dark_future_bikes import World as BW
        w = BW()
        setup(w)

        def run(par):
            w.POL[1] = par
            return w.decide(1)
        return run, values
    return case


def _swarm_pos(w):
    from test_dark_future_bikes import BIKE, CAR
    w.place(1, 1, 2, 0, 60, BIKE, side=0, role=VH.CHASE)
    w.place(3, 2, 2, 0, 60, CAR, side=1, role=VH.LEAD)
    w.WS[1, :, VH.W_AMMO] = 0


def _ram_clear_pos(w):
    from test_dark_future_bikes import BIKE, CAR
    w.place(1, 1, 2, 1, 60, BIKE, side=0, role=VH.LEAD)
    w.place(3, 1, 2, 0, 70, CAR, side=1, role=VH.CHASE)
    w.WS[1, :, VH.W_AMMO] = 0


def _dodge_passive_pos(w):
    from test_dark_future_bikes import BIKE
    w.place(1, 1, 2, 0, 50, BIKE, role=VH.LEAD)
    w.marker(RD.SPIKES, 1, 1, 3, 4)


def _strip_dodge_pos(w):
    from test_dark_future_bikes import BIKE, CAR
    # a rider at 50mph on lanes 2-3, an obstacle strip on lanes 0-2 in the next space, a wreck
    # on lanes 4-5 beside it: lane 3 alone is free (as the bikes' _strip_and_wreck)
    w.place(1, 1, 2, 2, 50, BIKE, role=VH.LEAD)
    w.place(0, 2, 4, 0, 0, CAR, side=1)
    w.V[0, VH.V_STATUS] = VH.WRECK
    w.marker(RD.OBSTACLE, 2, 0, 0, 2)


def _case_from(fn, values):
    """A case defined by a (position, parameters) pair of the tests above."""
    def case():
        return fn, values
    return case


def _case_shoot():
    w = World(layout=("S", "S", "S", "CL", "S", "S", "S"))
    w.place(0, 1, 2, 1, 60, side=0, role=VH.LEAD)
    w.place(1, 0, 2, 1, 60, side=1, role=VH.CHASE)
    return lambda par: _d(w, 1, par, moves=True), {"shoot_sixths": 6}


def _case_curve():
    w = World(layout=("S", "S", "S", "CL", "S", "S", "S"))
    w.place(0, 2, 2, 1, 90, side=0, role=VH.LEAD)
    w.place(1, 0, 0, 0, 30, side=1, role=VH.CHASE)
    return lambda par: _d(w, 0, par, moves=True), {"curve_margin": 30}


def _case_sideswipe():
    w = World()
    w.place(0, 1, 2, 1, 60, side=0, role=VH.LEAD)
    w.place(1, 1, 0, 0, 60, side=1, role=VH.CHASE)
    w.WS[1, :, VH.W_AMMO] = 0
    return lambda par: _d(w, 1, par, moves=True), {"sideswipe": 0}


def _three(w):
    """The World's two cars and a third vehicle (2), a copy of car 0's load."""
    V = np.zeros((3, VH.V_W), np.int64)
    V[:2] = w.V
    WS = np.zeros((3, VH.MAXW, VH.W_W), np.int64)
    WS[:2] = w.WS
    WS[2] = w.WS[0]
    w.V, w.WS = V, WS
    return w


def _swipe_or_shoot(sw_mph, tg_mph, tg_control, acc, dmg):
    """Chase car 1 (lanes 0-1) level with lead car 0 in the lanes beside it (a sideswipe
    after its straight move) and an enemy 2 eight spaces ahead in its lanes, in its hood
    weapon's corridor (set to accuracy ``acc`` and damage ``dmg``); car 0's handling and its
    driver's skill ``tg_control``."""
    w = _three(World())
    w.place(1, 2, 0, 1, sw_mph, side=1, role=VH.CHASE)
    w.place(0, 2, 2, 2, tg_mph, side=0, role=VH.LEAD, skill=tg_control)
    w.V[0, VH.V_HAND] = tg_control
    w.place(2, 5, 0, 0, 60, side=0, role=VH.LEAD)
    w.WS[1, 0, VH.W_ACC] = acc
    w.WS[1, 0, VH.W_DMG] = dmg
    return w


def _case_loss_value():
    # a 4-in-6 MG shot (1.44 expected points) against a sideswipe on a car with handling and
    # skill 2 at 80mph: worth 3.7 points with a control loss at 6, 1.1 with it at nothing
    w = _swipe_or_shoot(80, 80, 2, 2, 1)
    return lambda par: _d(w, 1, par, moves=True, n=3), {"loss_value": 0}


def _case_passive_mph():
    w = World()
    w.WS[:, :, VH.W_AMMO] = 0
    w.place(0, 5, 2, 0, 100, side=0, role=VH.LEAD)
    w.place(1, 1, 2, 0, 100, side=1, role=VH.CHASE)
    _oil_ahead(w, 1, 4)
    return lambda par: _d(w, 1, par, moves=True), {"passive_mph": 100}


def _bend_line_up_world():
    """The chase car (no ammunition) stopped on a bend's first space, a stranded enemy stopped
    ahead of it in other lanes, the road past the bend shut from edge to edge (p76): its choice
    is to back straight off the bend to line up (p17; the position of
    test_a_chase_car_stopped_on_a_bend_beside_a_stranded_enemy_backs_off_to_line_up)."""
    w = World(layout=("S", "S", "BL", "S", "S", "S", "S"))
    w.place(1, 2, 0, 1, 0, side=1, role=VH.CHASE)
    w.place(0, 2, 4, 2, 0, side=0, role=VH.LEAD)
    w.WS[1, :, VH.W_AMMO] = 0
    for lo, hi in ((0, 2), (3, 5)):
        _obstacle(w, 3, lo, hi, 0)
    return w


def _case_backoffs():
    # backed off from here twice already: the standard driver (2) stays, one allowing three
    # tries backs off again
    w = _bend_line_up_world()
    for _ in range(2):
        PO.remember_backing(w.V, 1)
    return lambda par: _d(w, 1, par), {"backoffs": 3}


def _case_ram_bike():
    # the Op shut in, a rider stopped behind it in its lanes: the standard driver reverses
    # into it (a head-on, p72), one without ram_bike waits
    w, n = _op_shut_in_with_a_rider_behind()
    return lambda par: PO.decide(w.B, w.T, w.V, w.WS, n, 0, False, w.hp, par, *_stream(0)), \
        {"ram_bike": 0}


def _case_ram_race():
    # the Op shut in, a stopped enemy car (a rider's place taken by a car) behind it in its
    # lanes with fewer points: the standard driver reverses into it, one without ram_race waits
    w, n = _op_shut_in_with_a_rider_behind()
    w.place(1, 3, 2, 0, 0, side=1, role=VH.CHASE, kind=1)
    w.V[1, VH.V_DMG] = 2
    return lambda par: PO.decide(w.B, w.T, w.V, w.WS, n, 0, False, w.hp, par, *_stream(0)), \
        {"ram_race": 0}


PARAM_CASES = {
    "curve_margin": (_case_curve, PO.A_BRAKE),
    "cruise": (_case_cruise, PO.A_ACCEL),
    "sideswipe": (_case_sideswipe, PO.A_SWIPE),
    "passive_range": (_case_passive_range, None),
    "shoot_sixths": (_case_shoot, PO.A_SHOOT),
    "dodge": (_case_dodge, PO.A_DRIFT),
    "close_margin": (_case_close_margin, PO.A_ACCEL),
    "escape": (_case_escape, PO.A_ACCEL),
    "uturn_mph": (_case_uturn, None),
    "head_on": (_case_head_on, PO.A_DRIFT),
    "swarm": (_bike_case(_swarm_pos, {"swarm": 4}), None),
    "dodge_passive_mph": (_bike_case(_dodge_passive_pos, {"dodge_passive_mph": 0}),
                          PO.A_DODGE),
    "ram_clear": (_bike_case(_ram_clear_pos, {"ram_clear": 0}), PO.A_DRIFT),
    "layer": (_case_layer, PO.A_PASSIVE),
    "unlock": (_case_unlock, None),
    "veto_mph": (_case_veto, True),
    "passive_mph": (_case_passive_mph, PO.A_BRAKE),
    "loss_value": (_case_loss_value, PO.A_SWIPE),
    "flee": (_case_flee, PO.A_ACCEL),
    "roll_risk": (lambda: _case_roll_risk(), None),
    "runner": (_case_runner, PO.A_NONE),
    "holdback": (_case_holdback, PO.A_ACCEL),
    "focus": (_case_focus, PO.A_DRIFT),
    "backoffs": (_case_backoffs, PO.A_NONE),
    "ram_bike": (lambda: _case_ram_bike(), PO.A_REVERSE),
    "ram_race": (lambda: _case_ram_race(), PO.A_REVERSE),
    "strip_dodge": (_bike_case(_strip_dodge_pos, {"strip_dodge": 0}), PO.A_DODGE),
}
# what the changed parameter makes the driver do instead
PARAM_EFFECT = {
    "curve_margin": None, "cruise": PO.A_NONE, "sideswipe": None,
    "passive_range": PO.A_PASSIVE, "shoot_sixths": None, "dodge": PO.A_NONE,
    "close_margin": PO.A_NONE, "escape": PO.A_PASSIVE, "uturn_mph": PO.A_UTURN,
    "head_on": PO.A_NONE, "swarm": PO.A_DRIFT, "dodge_passive_mph": None, "ram_clear": None,
    "layer": PO.A_LOCK, "unlock": PO.A_LOCK, "veto_mph": False, "passive_mph": None,
    "loss_value": PO.A_SHOOT, "flee": PO.A_PASSIVE, "roll_risk": PO.A_BRAKE,
    "runner": PO.A_ACCEL, "holdback": PO.A_BRAKE, "focus": PO.A_DRIFT,
    "backoffs": PO.A_REVERSE, "ram_bike": PO.A_NONE, "ram_race": PO.A_NONE, "strip_dodge": None,
}


@pytest.mark.parametrize("name", sorted(PO.PARAM_SPACE))
def test_every_parameter_of_the_space_changes_the_decision_it_names(name):
    """Each of the 27 driver parameters, moved off the standard driver (``unlock`` with the
    layer bit it needs), changes the choice in a scripted position, and to the choice it
    names: the standard driver's action first, then the changed driver's."""
    assert set(PARAM_CASES) == set(PO.PARAM_SPACE) == set(PARAM_EFFECT)
    case, expect_std = PARAM_CASES[name]
    got = case()
    decide, changed = got[0], got[1]
    base = got[2] if len(got) > 2 else {}
    a = decide(PO.params_vector(base))
    b = decide(PO.params_vector(changed))
    first = lambda x: x[0] if isinstance(x, tuple) else x
    assert a != b, (name, a, b)
    if expect_std is not None:
        assert first(a) == expect_std, (name, a)
    if PARAM_EFFECT[name] is not None:
        assert first(b) == PARAM_EFFECT[name], (name, b)


def test_game_seven_attacker_chases_the_gang_still_in_play_not_its_hulks_p88_p89():
    """Game Seven's attacker wins only by taking the whole target gang out (p89); a target
    vehicle stopped for good without weapons is taken out already (p88). The attacker used to
    pursue the nearest enemy whatever it was: it drifted into a hulk's lanes and slowed to
    close on it while the rest of the gang drove away, and stopped it shot the hulk. Now it
    pursues the gang still in play, and moves off rather than shoot a hulk."""
    w, n = _game_seven(0, 60)
    w.V[0, VH.V_ENGOFF] = 1                       # target 0: a hulk (engine out, no ammunition)
    for runner in (0, 1):
        par = PO.params_vector({"runner": runner})
        assert _d(w, 3, par, moves=True, n=n)[0] == PO.A_ACCEL, runner
    # stopped with its machine gun loaded and the hulk in its sights three spaces ahead
    w.place(0, 1, 2, 3, 0, side=0, role=VH.LEAD)
    w.V[0, VH.V_ENGOFF] = 1
    w.place(3, 1, 2, 0, 0, side=1, role=VH.CHASE)
    w.WS[3] = w.a.LOAD[3, 0]
    std = PO.policy_vector("standard")
    assert PO.best_shot(w.T, w.M, w.NM, w.V, w.WS, n, 3, w.hp, std, w.tbuf)[1] == 0
    assert _d(w, 3, std, n=n)[0] != PO.A_SHOOT
    # a target stopped for good that can still shoot is not taken out (p88): it is shot
    w.WS[0] = w.a.LOAD[0, 0]
    assert _d(w, 3, std, n=n)[0] == PO.A_SHOOT


def test_a_chase_car_coming_level_with_a_stopped_enemy_swipes_it_instead_of_stopping_p54_p57():
    """Seeded Game Seven trial 968 (seed 2026) was drawn at the turn limit: the attacker's car,
    with nothing to shoot, braked to a stop level with a stranded target rider in the lanes
    beside it (a stopped enemy it would not drift into line with before drawing level),
    backed off the bend behind to line up, could not drift there (p17) and came on again, for
    twenty turns. When the straight move brings the stopped enemy level in the adjacent lanes
    a sideswipe reaches it (a car's sideswipe against a bike always wins, p72), and the car
    takes it rather than stop."""
    w, n = _game_seven(0, 60)
    bike = int(w.a.G[EG.G_BIKE_KIND])
    w.place(0, 1, 4, 2, 0, side=0, role=VH.LEAD, kind=bike)
    w.V[0, VH.V_BIKE] = 1
    w.V[1, VH.V_STATUS] = VH.LEFT
    w.place(3, 1, 2, 1, 20, side=1, role=VH.CHASE)
    std = PO.policy_vector("standard")
    assert _d(w, 3, std, moves=True, n=n) == (PO.A_SWIPE, 1)
    # without sideswipes (careful drivers) it still stops to line up
    assert _d(w, 3, PO.params_vector({"sideswipe": 0}), moves=True, n=n)[0] == PO.A_BRAKE


# --- issue 15: shoot, lay or sideswipe by expected effect; ties to the dice ----------------------
def test_a_sure_sideswipe_beats_a_poor_shot():
    """The chase car used to shoot whenever a shot reached P_SHOOT and sideswipe only without
    one. Level with a car of handling and skill 1 (the swiper wins the p54 test unless the
    dice differ by 4 or more), at 80mph against 60 (a +1 hit and a 40mph test the target fails
    on 5-6, p56), it sideswipes rather than take a 2-in-6 shot with its GL-like hood weapon at
    an enemy eight spaces ahead; with a good weapon against a sound car at the same speed, it
    shoots."""
    std = PO.params_vector()
    w = _swipe_or_shoot(80, 60, 1, 0, 2)
    assert PO._shot_core(w.T, w.M, w.NM, w.V, w.WS, 3, 1, w.hp, w.tbuf, 1, 0)[3] == 2  # 2 in 6
    assert _d(w, 1, std, moves=True, n=3) == (PO.A_SWIPE, 1)
    # the same position, the target sound (handling 4, skill 3) and no faster than the swiper,
    # the weapon a chain gun (accuracy 3, damage 5): the shot is worth more
    w = _swipe_or_shoot(60, 60, 4, 3, 5)
    w.V[0, VH.V_SKILL] = 3
    assert _d(w, 1, std, moves=True, n=3) == (PO.A_SHOOT, 0)
    # a sideswipe that risks more than it gains (the swiper at 100mph fails its own 40mph
    # test on 4-6) is not made even with no shot
    w = _swipe_or_shoot(100, 100, 6, 2, 1)
    w.WS[1, :, VH.W_AMMO] = 0
    assert PO._swipe_value(w.V, 1, 0, w.hp, std) < 0
    assert _d(w, 1, std, moves=True, n=3)[0] != PO.A_SWIPE


def _lead_oil_and_gun(pursuer_mph, gap, acc=2, dmg=1):
    """Lead car 0 at its top speed with its oil and hood weapon (accuracy ``acc``, damage
    ``dmg``), pursuer 1 ``gap`` spaces behind in its lanes at ``pursuer_mph``, an enemy 2
    three spaces ahead in its lanes (a shot at range 4)."""
    w = _three(World())
    w.place(0, 4, 2, 1, 60, side=0, role=VH.LEAD)
    w.V[0, VH.V_MPH] = w.V[0, VH.V_MAXSPD]
    _gap_place(w, 0, 1, gap, 2, pursuer_mph, 1, VH.CHASE)
    w.place(2, 5, 2, 2, 60, side=1, role=VH.CHASE)
    w.WS[0, 0, VH.W_ACC] = acc
    w.WS[0, 0, VH.W_DMG] = dmg
    w.WS[1:, :, VH.W_AMMO] = 0
    return w


def test_the_lead_car_lays_oil_or_shoots_by_expected_effect():
    """The lead car used to drop a passive on any pursuer close behind in its lanes before it
    looked at a shot. Oil costs a pursuer at 60mph no hazard roll (its 60mph limit, p30), only
    a handling point, so a 5-in-6 MG shot at the enemy ahead is worth more; the same pursuer
    at 100mph one space behind fails its 60mph roll on 5-6 (a control loss), and the oil is
    worth more than a 2-in-6 shot."""
    std = PO.params_vector()
    w = _lead_oil_and_gun(60, 1)
    oil = PO._passive_slot(w.V, w.WS, 0)
    assert oil >= 0 and w.WS[0, oil, VH.W_PTYPE] == RD.OIL
    assert _d(w, 0, std, moves=True, n=3) == (PO.A_SHOOT, 0)
    w = _lead_oil_and_gun(100, 1, acc=0, dmg=2)
    assert _d(w, 0, std, moves=True, n=3) == (PO.A_PASSIVE, oil)
    # with nothing to shoot at, the oil goes down on the slow pursuer (its handling point)
    w = _lead_oil_and_gun(60, 1)
    w.V[2, VH.V_STATUS] = VH.WRECK
    w.V[2, VH.V_SEC] = 6
    assert _d(w, 0, std, moves=True, n=3) == (PO.A_PASSIVE, oil)


def _symmetric_block():
    """A car in the middle lanes (2-3) at 40mph, an obstacle three spaces ahead in its lanes
    (two drifts, one a move, p13, reach a clear pair before it), both sides of the road clear:
    drifting left or right is equally good. (Two spaces ahead, before session 27: the one
    drift left took the car into the block's lanes a space short of it, a ram; it now
    brakes there.) Returns (world, section, space of the block)."""
    w = World()
    w.WS[:, :, VH.W_AMMO] = 0
    w.place(0, 6, 0, 0, 60, side=0, role=VH.LEAD)
    w.place(1, 1, 2, 0, 40, side=1, role=VH.CHASE)
    sec, sp = PO._space_ahead(w.T, w.V, 1, 2, 3)
    _obstacle(w, sec, 2, 3, sp)
    return w, sec, sp


def test_equal_drifts_and_routes_go_to_the_dice():
    """_route (and _drift_dir) used to send a car in the middle lanes to 'the wider side of the
    road' (always the same one for lane 2) when both sides were equally good. Over 400 trials
    (a die from each trial's dice stream, rolled only on a tie) both sides are chosen, each
    about half the time (a chi-square test at 1 degree of freedom, 10.83: p = 0.001), through
    decide and through _route itself; with one side blocked the other is always chosen."""
    std = PO.params_vector()
    w, sec, sp = _symmetric_block()
    n = 400
    for fn in (lambda s: _d(w, 1, std, moves=True, trial=s),
               lambda s: (PO.A_DRIFT, PO._route(w.T, w.M, w.NM, w.V, 2, 1, PO.ROUTE_LOOK,
                                                True, *_stream(s))[1])):
        got = [fn(s) for s in range(n)]
        assert {a for a, _ in got} == {PO.A_DRIFT}, got[:5]
        left = sum(1 for _, d in got if d == -1)
        right = sum(1 for _, d in got if d == 1)
        assert left + right == n
        chi2 = (left - n / 2) ** 2 / (n / 2) + (right - n / 2) ** 2 / (n / 2)
        assert left > 0 and right > 0 and chi2 < 10.83, (left, right)
    # the same stream, the same choice (a seeded game replays)
    assert _d(w, 1, std, moves=True, trial=7) == _d(w, 1, std, moves=True, trial=7)
    # the right side shut by a second obstacle: always left
    _obstacle(w, sec, 4, 5, sp)
    route = {PO._route(w.T, w.M, w.NM, w.V, 2, 1, PO.ROUTE_LOOK, True, *_stream(s))[1]
             for s in range(50)}
    assert route == {-1}
    assert {_d(w, 1, std, moves=True, trial=s) for s in range(50)} == {(PO.A_DRIFT, -1)}


def _two_equal_targets(far_sp):
    """Game Seven: the attacker (3) at 60mph on lanes 2-3 of section 1; targets 0 and 1, the
    same car at 60mph, on lanes 0-1 and 4-5 of section 3, at space 0 and ``far_sp``."""
    w, n = _game_seven(60, 60)
    w.place(0, 3, 0, 0, 60, side=0, role=VH.LEAD)
    w.place(1, 3, 4, far_sp, 60, side=0, role=VH.LEAD)
    w.V[1, VH.V_KIND] = w.V[0, VH.V_KIND]
    return w, n


def test_equally_near_enemies_go_to_the_dice_not_the_list_order():
    """DESIGN.md: drivers break ties by the dice stream, never by list order. _nearest_enemy
    and _quarry (the nearest target, or with ``runner`` the furthest ahead) took the first of
    equally placed enemies, so vehicle 0 was always chased. Two identical targets level with
    each other: over 400 trials each is chosen, about half the time (chi-square, 1 degree of
    freedom, 10.83: p = 0.001), by _nearest_enemy and by _quarry either way. With one a space
    further on, the nearer (or with ``runner`` the further) is always chosen and no die is
    rolled."""
    std = PO.params_vector()
    runner = PO.params_vector({"runner": 1})
    w, n = _two_equal_targets(0)

    def fresh(st, s, par):
        w.V[:, VH.V_QUARRY] = 0   # no quarry remembered (``focus``: the test below)
        return PO._quarry(w.T, w.V, w.WS, n, 3, w.hp, par, st, s)

    calls = (lambda st, s: PO._nearest_enemy(w.T, w.V, n, 3, False, st, s),
             lambda st, s: fresh(st, s, std),
             lambda st, s: fresh(st, s, runner))
    m = 400
    for fn in calls:
        got = [fn(*_stream(t)) for t in range(m)]
        assert len({g for _, g in got}) == 1
        zero = sum(1 for u, _ in got if u == 0)
        one = sum(1 for u, _ in got if u == 1)
        assert zero + one == m
        chi2 = (zero - m / 2) ** 2 / (m / 2) + (one - m / 2) ** 2 / (m / 2)
        assert zero > 0 and one > 0 and chi2 < 10.83, (zero, one)
    w, n = _two_equal_targets(1)
    for fn, want in zip(calls, (0, 0, 1)):
        for t in range(20):
            st, s = _stream(t)
            before = st.copy()
            assert fn(st, s)[0] == want
            assert (st == before).all()


def test_an_oncoming_car_in_the_middle_lanes_is_dodged_to_either_side():
    """A car in the middle lanes meeting an oncoming car in the same lanes drifts out of its
    way; neither side of the road is wider, so the side is the dice's (it was always left)."""
    std = PO.params_vector()
    w = World()
    w.WS[:, :, VH.W_AMMO] = 0
    w.place(0, 1, 2, 0, 60, side=0, role=VH.LEAD)
    w.place(1, 2, 2, 2, 60, side=1, role=VH.CHASE)
    w.V[1, VH.V_DIR] = 1
    got = {_d(w, 0, std, moves=True, trial=s) for s in range(100)}
    assert got == {(PO.A_DRIFT, -1), (PO.A_DRIFT, 1)}, got


def test_no_dodge_of_an_oncoming_car_into_a_block_it_cannot_stop_for_p57_p76():
    """Seeded Game Eight intercept 1482 (seed 2026): a target at 80mph drifted out of the
    oncoming attacker's lanes towards an obstacle strip past a bend, and rammed it at 80mph
    (four hits at +4 to itself, none to the enemy). The dodge of an oncoming car
    (`_dodge_oncoming`) no longer drifts into lanes blocked within the car's stopping distance
    when its own are clear that far; with its own lanes blocked too, or the strip beyond
    stopping distance, it still drifts."""
    std = PO.params_vector()

    def position(strip_sec, strip_lo=3):
        w = World()
        w.WS[:, :, VH.W_AMMO] = 0
        w.place(0, 1, 1, 0, 80, side=0, role=VH.LEAD)      # lanes 1-2 at 80mph
        w.place(1, 2, 0, 2, 60, side=1, role=VH.CHASE)     # coming the other way, lanes 0-1
        w.V[1, VH.V_DIR] = 1
        if strip_sec is not None:
            _obstacle(w, strip_sec, strip_lo, 5, 1)
        return _d(w, 0, std, moves=True, trial=0)

    assert position(None) == (PO.A_DRIFT, 1)     # out of its lanes, to the right
    assert position(2) != (PO.A_DRIFT, 1)        # the old driver: (A_DRIFT, 1), into the strip
    assert position(3) == (PO.A_DRIFT, 1)        # the strip further than it needs to stop
    assert position(2, 1) == (PO.A_DRIFT, 1)     # its own lanes blocked as well


def test_a_chase_car_stopped_on_a_bend_beside_a_stranded_enemy_backs_off_to_line_up():
    """Seeded Game Six games (seed 2026, trials 822, 926, 993 before the choice by expected
    effect) froze to the turn limit: the Op stopped on a bend, a gang vehicle stopped a couple
    of spaces ahead in other lanes, the road beyond shut from edge to edge by obstacles (p76).
    With no enemy behind it, the Op waited for ever (its line-up by reversing with a drift ran
    only on straights, and on a curve a reversing car may not drift, p17). Now it backs
    straight off the bend, lines up on a straight by reversing with drifts, and, lined up with
    no shot, drives into the enemy (a ram, p52) instead of waiting."""
    std = PO.params_vector()
    w = World(layout=("S", "S", "BL", "S", "S", "S", "S"))
    w.place(1, 2, 0, 1, 0, side=1, role=VH.CHASE)
    w.place(0, 2, 4, 2, 0, side=0, role=VH.LEAD)
    w.WS[1, :, VH.W_AMMO] = 0
    for lo, hi in ((0, 2), (3, 5)):
        sec, sp = 3, 0
        _obstacle(w, sec, lo, hi, sp)
    assert PO._stopped_enemy_in_front(w.T, w.TM, w.V, w.WS, 2, 1, PO.LINE_UP, w.hp) == 0
    # the obstacles shut the road (the way to the stranded enemy is its line-up, not a route)
    assert PO._route(w.T, w.M, w.NM, w.V, 2, 1, PO.ROUTE_LOOK, False, *_stream(0)) == (True, 0)
    assert _d(w, 1, std) == (PO.A_REVERSE, 0)
    # on the straight before the bend: reverse drifting towards the enemy's lanes
    w.place(1, 1, 0, 2, 0, side=1, role=VH.CHASE)
    assert PO._stopped_enemy_in_front(w.T, w.TM, w.V, w.WS, 2, 1, PO.LINE_UP, w.hp) == 0
    assert _d(w, 1, std) == (PO.A_REVERSE, 1)
    # lined up in its lanes with no shot: it moves off into it
    w.place(1, 2, 4, 0, 0, side=1, role=VH.CHASE)
    act, arg = _d(w, 1, std)
    assert act == PO.A_ACCEL and 0 < arg <= PO.RAM_MOVE_OFF


def _ram_position(rammer_kind, target_kind, target_control, ammo=True):
    """Chase car 1 (``rammer_kind``, skill 5) at 100mph on lanes 2-3, lead car 0
    (``target_kind``, handling and skill ``target_control``) two spaces ahead in the same lanes
    at 40mph: the chase car's next two straight moves run into it (a shunt, p55). The chase
    car's hood weapon is made a poor one (a 2-in-6 hit at +0 damage, p26-28), or emptied."""
    w = World()
    w.place(0, 2, 2, 2, 40, side=0, role=VH.LEAD, skill=target_control, kind=target_kind)
    w.V[0, VH.V_HAND] = target_control
    w.place(1, 2, 2, 0, 100, side=1, role=VH.CHASE, skill=5, kind=rammer_kind)
    w.WS[1] = 0
    w.WS[1, 0] = w.a.LOAD[1, 0, 0]
    w.WS[1, 0, VH.W_KIND] = VH.WK_DIRECT
    w.WS[1, 0, VH.W_MOUNT] = VH.M_HOOD
    w.WS[1, 0, VH.W_AMMO] = 5 if ammo else 0
    w.WS[1, 0, VH.W_RANGE] = 12
    # at range 2 (the hood's +1, the firer's -1 at 100mph, p26): a 5+ to hit
    w.WS[1, 0, VH.W_ACC] = -3
    w.WS[1, 0, VH.W_DMG] = 0
    w.WS[0, :, VH.W_AMMO] = 0
    return w


def test_a_ram_that_beats_a_poor_shot_is_chosen_p52_p56():
    """Issue 15: ramming was only a by-product of movement (the chase car steered round a car
    two spaces ahead in its lanes, p13). An Interceptor (armour 4, skill 5) at 100mph closing
    on a Renegade (armour 3) driven badly (handling and skill 1) at 40mph: the shunt (p56:
    three hits at +3 each way, both at 70mph after it, 40mph tests) is worth more to it than a
    2-in-6 shot at +0, so it holds its line (shooting while it closes) instead of drifting
    round; with no ammunition it holds steady. Through the engine the next move rams (EV_RAM,
    a shunt) and the speeds meet halfway."""
    std = PO.params_vector()
    w = _ram_position(1, 0, 1)
    assert PO._ram_target(w.T, w.V, 2, 1) == (0, 2)
    ram = PO._ram_value(w.V, 1, 0, w.hp, std)
    slot, t, shot, h = PO._choose_shot(w.T, w.M, w.NM, w.V, w.WS, 2, 1, w.hp, w.tbuf, 1, *w.dice)
    assert (slot, t, h) == (0, 0, 2)
    assert ram > shot > 0
    assert _d(w, 1, std, moves=True) == (PO.A_SHOOT, 0)
    w.WS[1, 0, VH.W_AMMO] = 0
    assert _d(w, 1, std, moves=True) == (PO.A_NONE, 0)
    # the same position with the ram out of the weighing (a rammer as badly driven as its
    # target, its armour no better): the old driving, it brakes (no single drift takes its
    # two lanes clear of the slower car's, p13)
    w2 = _ram_position(0, 0, 1, ammo=False)
    w2.V[1, VH.V_SKILL] = 1
    w2.V[1, VH.V_HAND] = 1
    assert PO._ram_value(w2.V, 1, 0, w2.hp, std) <= 0
    assert _d(w2, 1, std, moves=True)[0] == PO.A_BRAKE
    # through the engine: a steady move to one space behind, then the shunt
    pol = np.stack([std, std])
    st, s = _stream(3)
    _act(w, st, s, 1, pol, phase=1)
    assert w.V[1, VH.V_LANE] == 2 and PO._ram_target(w.T, w.V, 2, 1) == (0, 1)
    w.EN[0] = 0
    st, s = w.script([3] * 12)
    _act(w, st, s, 1, pol, phase=2)
    rams = [tuple(r) for r in w.E[:w.EN[0]] if r[3] == EG.EV_RAM]   # column "kind"
    # the target pushed up by half the 60mph difference (p56); the rammer slowed as much (and
    # perhaps more by a panic brake on its 40mph roll)
    assert len(rams) == 1 and w.V[0, VH.V_MPH] == 70 and w.V[1, VH.V_MPH] <= 70


def test_a_ram_that_costs_more_than_it_gains_is_not_made_p56():
    """The mirror position: a Renegade (armour 3) driven badly (handling and skill 1) at
    100mph behind an Interceptor (armour 4, skill 5) at 40mph. The shunt's three +3 hits cost
    the rammer more than the target and its own 40mph test is the likelier to fail: worth less
    than nothing, so the car brakes (no single drift clears its lanes, p13) and never holds
    its line into the shunt, shot or no shot."""
    std = PO.params_vector()
    w = _ram_position(0, 1, 5)
    w.V[1, VH.V_SKILL] = 1
    w.V[1, VH.V_HAND] = 1
    assert PO._ram_value(w.V, 1, 0, w.hp, std) < 0
    assert _d(w, 1, std, moves=True)[0] == PO.A_BRAKE
    w.WS[1, 0, VH.W_AMMO] = 0
    assert _d(w, 1, std, moves=True)[0] == PO.A_BRAKE


def _patched_rules(monkeypatch, table, path, value):
    """scenario.to_arrays reading rules whose ``table``'s cell ``path`` is ``value``."""
    import copy
    from simkit.core.data import RulesData, Table
    from simkit.dark_future import rules as R
    from simkit.dark_future import scenario as GM
    base = R.rules_for({})
    tables = dict(base.tables)
    t = tables[table]
    data = copy.deepcopy(dict(t.data))
    cell = data
    for k in path[:-1]:
        cell = cell[k]
    cell[path[-1]] = value
    tables[table] = Table(t.name, t.label, t.source, data, t.notes, t.row_labels)
    patched = RulesData(tables, base.variants, base.files)
    monkeypatch.setattr(GM.R, "rules_for", lambda chosen=None: patched)


def test_the_drivers_price_with_the_rules_in_force(monkeypatch):
    """The drivers' rule numbers (the rammer's +1, the sideswipe's 40mph and 10mph, oil's
    60/30mph, the shunt's 40mph, ...) were constants in policies.py: a rule table changed in the
    data never reached them. They are now read from hp's driver block, which the scenario fills
    from the engine's G: each equals the table's cell, and a changed shunt limit (no shunt test
    up to 200mph) changes the driver's choice (a ram it would not make, its own 40mph test
    too likely to fail, becomes worth making)."""
    from simkit.dark_future import rules as R
    w = World()
    rules = R.rules_for({})
    lim = rules.table("safety_limits")["limits"]
    rm = rules.table("rams")
    pe = rules.table("passive_effects")
    want = {PO.HP_RAM_BONUS: rm["rammer_bonus"], PO.HP_SS_LOSS: rm["neck_and_neck_loss_mph"],
            PO.HP_L_SWIPE: lim["sideswipe_neck_and_neck_loser"],
            PO.HP_L_OIL_S: lim["oil_straight"], PO.HP_L_MINE: lim["pattern_mine"],
            PO.HP_L_SMOKE: lim["smoke"], PO.HP_L_SHUNT: lim["shunt"],
            PO.HP_MINE_DMG: pe["mine_damage"], PO.HP_SPIKE_MPH: pe["spike_immune_mph"],
            PO.HP_OIL_MAX: pe["oil_max"],
            PO.HP_MPH_SF: rules.table("speed_factor")["mph_per_factor"],
            PO.HP_CAR_SHUNT_SLOW: rules.table("bike_rules")["car_shunt_slow_mph"],
            PO.HP_L_OIL_O: lim["oil_other"]}
    for cell, value in want.items():
        assert w.hp[cell] == value, cell
    std = PO.params_vector()
    # an Interceptor (armour 4) badly driven (handling and skill 1) at 100mph two spaces
    # behind a Renegade (armour 3) driven well (5) at 40mph: the shunt's hits favour the
    # rammer, but its own 40mph roll at 70mph after it is far likelier to fail than the
    # target's: worth less than nothing, so it brakes
    w = _ram_position(1, 0, 5, ammo=False)
    w.V[1, VH.V_SKILL] = 1
    w.V[1, VH.V_HAND] = 1
    base = PO._ram_value(w.V, 1, 0, w.hp, std)
    assert _d(w, 1, std, moves=True)[0] == PO.A_BRAKE and base <= 0
    _patched_rules(monkeypatch, "safety_limits", ("limits", "shunt"), 200)
    w2 = World()
    assert w2.hp[PO.HP_L_SHUNT] == 200 and w2.G[EG.G_L_SHUNT] == 200
    w.a = w2.a
    assert PO._ram_value(w.V, 1, 0, w.hp, std) > 0
    assert _d(w, 1, std, moves=True) == (PO.A_NONE, 0)


def _shut_game_six(sp, gang):
    """Game Six's arrays, every vehicle armed, the gang bikes (1, 2) crashed, and the road
    shut from edge to edge by obstacles on both sides (p76) at space ``sp`` of section 3."""
    w = World(scenario="game-6.toml")
    n = w.a.G[EG.G_NV]
    for v in range(n):
        w.WS[v] = w.a.LOAD[v, 0]
    for v in (1, 2):
        w.place(v, 0, 2, 0, 0, side=0, role=gang)
        w.V[v, VH.V_STATUS] = VH.CRASHED
    for lo, hi in ((0, 2), (3, 5)):
        _obstacle(w, 3, lo, hi, sp)
    return w, n


def test_where_taking_the_other_side_out_wins_a_stopped_lead_car_lines_up_on_a_stranded_enemy():
    """Seeded Game Eight games (the gang pursuing, seed 2026, e.g. trial 88) froze: the Op's
    Interceptor, the lead car, stopped behind a road shut from edge to edge by obstacles
    (p76), the last gang bike stopped one space ahead a lane over, neither in the other's
    sights. Only chase cars lined up on a stopped enemy; in Games Six and Eight the lead side
    wins by taking the other out too (p88-89), so there the lead car reverses with a drift
    into line (p17) as well. In a Game won at the finish line (hp's HP_TAKE_OUT 0) it does not
    hunt: it waits, the road shut and no enemy behind it."""
    std = PO.params_vector()
    w, n = _shut_game_six(0, gang=VH.CHASE)
    w.place(3, 2, 2, 1, 0, side=1, role=VH.LEAD, kind=1)     # the Op
    w.WS[3] = w.a.LOAD[3, 0]
    w.place(0, 2, 0, 2, 0, side=0, role=VH.CHASE)            # the gang car, stopped
    assert PO.best_shot(w.T, w.M, w.NM, w.V, w.WS, n, 3, w.hp, std, w.tbuf)[0] < 0
    assert PO._route(w.T, w.M, w.NM, w.V, n, 3, PO.ROUTE_LOOK, False, *_stream(0)) == (True, 0)
    assert w.hp[PO.HP_TAKE_OUT] == 1
    hp = w.hp.copy()

    def decide(take):
        hp[PO.HP_TAKE_OUT] = take
        return PO.decide(w.B, w.T, w.V, w.WS, n, 3, False, hp, std, *_stream(0))

    assert decide(1) == (PO.A_REVERSE, -1)
    assert decide(0) == (PO.A_NONE, 0)
    # the scenario sets it from the Game's victory condition
    assert World().hp[PO.HP_TAKE_OUT] == 0


def test_a_stranded_enemy_the_car_cannot_get_past_is_hunted_not_left_behind_p75_p88():
    """Seeded Game Six 163 and 1625 (and the same in game-8.toml), seed 2026: every gang
    vehicle in play stopped for good, so the Op no longer hunted (_leaves_behind: drive on with
    play and leave them off the back of the road, p75); it counted the stranded gang vehicle as
    a block, found the road shut and waited. But the enemy was ahead of it or level, past a
    road shut from edge to edge (p76): the Op could never get past it to leave it behind, and
    an enemy stopped with weapons is not beaten (p88), so the position repeated. Where the
    stranded enemy cannot be got past, the driver keeps hunting it: here it reverses with a
    drift into line (p17), as with an enemy still able to move. With a lane pair open past
    the enemy, or the enemy already behind the car, it is left behind as before."""
    std = PO.params_vector()
    w, n = _shut_game_six(0, gang=VH.CHASE)
    w.place(3, 2, 2, 1, 0, side=1, role=VH.LEAD, kind=1)     # the Op
    w.WS[3] = w.a.LOAD[3, 0]
    w.place(0, 2, 0, 2, 0, side=0, role=VH.CHASE)            # the gang car, engine out
    w.V[0, VH.V_ENGOFF] = 1
    assert PO._stuck(w.V, 0) and VH.armed(w.V, w.WS, 0)
    assert PO.best_shot(w.T, w.M, w.NM, w.V, w.WS, n, 3, w.hp, std, w.tbuf)[0] < 0
    assert PO._route(w.T, w.M, w.NM, w.V, n, 3, PO.ROUTE_LOOK, False, *_stream(0)) == (True, 0)

    def decide():
        return PO.decide(w.B, w.T, w.V, w.WS, n, 3, False, w.hp, std, *_stream(0))

    def left_behind():
        return PO._leaves_behind(w.T, w.TM, w.M, w.NM, w.V, n, 3, w.hp)

    # ahead, past the shut road: hunted (the old driver waited, A_NONE)
    assert PO._past_shut_road(w.T, w.TM, w.M, w.NM, w.V, n, 3, 0)
    assert not left_behind()
    assert decide() == (PO.A_REVERSE, -1)
    # level with it (Game Six 1625), the road ahead shut: hunted too (A_NONE on the old)
    w.place(0, 2, 0, 1, 0, side=0, role=VH.CHASE)
    w.V[0, VH.V_ENGOFF] = 1
    assert PO._past_shut_road(w.T, w.TM, w.M, w.NM, w.V, n, 3, 0) and not left_behind()
    assert decide() == (PO.A_REVERSE, -1)
    # already behind the car, but the road ahead shut edge to edge: the car cannot drive on
    # far enough to leave it off the back (session 31: it used to count it left behind, and
    # seeded gang pursues 1093's Op drove to the strip and back past a stranded rider to the
    # turn limit); with the strip gone, driving on leaves it behind
    w.place(0, 1, 0, 0, 0, side=0, role=VH.CHASE)
    w.V[0, VH.V_ENGOFF] = 1
    assert not PO._past_shut_road(w.T, w.TM, w.M, w.NM, w.V, n, 3, 0)
    assert PO._way_on_shut(w.T, w.TM, w.M, w.NM, w.V, n, 3) and not left_behind()
    nm = w.NM[0]
    w.NM[0] = 0
    assert not PO._way_on_shut(w.T, w.TM, w.M, w.NM, w.V, n, 3) and left_behind()
    w.NM[0] = nm
    # ahead, with a lane pair open past it: it can be got past and left behind, as before
    w.place(0, 2, 0, 2, 0, side=0, role=VH.CHASE)
    w.NM[0] = 0
    w.V[0, VH.V_ENGOFF] = 1
    _obstacle(w, 3, 0, 2, 0)
    assert not PO._past_shut_road(w.T, w.TM, w.M, w.NM, w.V, n, 3, 0) and left_behind()
    # (moving off drifting into the open lanes, on the old driver and the new)
    assert decide() == (PO.A_OFF_DRIFT, 30)


def _weave_to_stranded_target():
    """Game Eight (the intercept), a straight road: the attacker (2) stopped on section 1's
    last space in lanes 0-1 facing with play, nothing to shoot; target#2 (1) a wreck on lanes
    1-2 of section 3's middle space; target#1 (0) stopped for good (engine out) on lanes 1-2 of
    section 5; an obstacle strip over lanes 3-5 on section 2's first two spaces. No lane pair
    runs clear from the attacker to target#1 (lanes 0-1 and 1-2 into the wreck, 2-3 and on into
    the strip), but a way weaves through a drift a move: lanes 1-2 beside the strip, 2-3 past
    its end, 3-4 past the wreck (seeded intercept 564's road)."""
    w, n = _intercept_world()
    w.place(0, 5, 1, 1, 0, side=0, role=VH.LEAD, kind=0)
    w.V[0, VH.V_ENGOFF] = 1
    w.place(1, 3, 1, 1, 0, side=0, role=VH.LEAD, kind=0)
    w.V[1, VH.V_STATUS] = VH.WRECK
    w.place(2, 1, 0, 2, 0, side=1, role=VH.CHASE, kind=1)
    w.WS[2, :, VH.W_AMMO] = 0
    _obstacle(w, 2, 3, 5, 0)
    _obstacle(w, 2, 3, 5, 1)
    assert PO._stuck(w.V, 0) and VH.armed(w.V, w.WS, 0)
    return w, n


def test_a_standoff_plan_takes_a_way_past_the_block_where_leaving_them_behind_wins_p75_p88():
    """Session 31: a car in a stand-off that cannot leave every enemy behind from where it
    stands (no lane pair runs clear past the block, p75), every enemy stranded, and nothing to
    shoot with, planned nothing: the planner's goals were a shot, a place past everything when
    it already left them behind, or a race of rams. Seeded intercept 4957's attacker stood so
    until the position repeated, a way past two moves of weaving off (the survey's 'past').
    Now it takes a place from which driving straight on leaves them behind (``_past_from``:
    facing with play, its own lanes clear ``ROUTE_LOOK`` spaces on, ``_leaves_behind``).
    Here seeded intercept 564's road: the attacker behind a wreck and a strip, target#1
    stranded past them; the goal is past both, in lanes the car can drive straight on in.
    With the strip run on across those lanes, there is no such place."""
    std = PO.params_vector()
    w, n = _weave_to_stranded_target()
    V = w.V.copy()
    assert not PO._leaves_behind(w.T, w.TM, w.M, w.NM, V, n, 2, w.hp)
    assert PO._plan_standoff(w.B, w.T, V, w.WS, n, 2, w.hp, std, *_stream(0))  # old: False
    goal = PO._goal_place(V[2, VH.V_GOAL])
    assert PO._past_from(w.T, w.TM, w.M, w.NM, V, n, 2, w.hp, *goal)
    sec, lane, sp, d = goal
    assert d == 0 and lane >= 3 and (sec, sp) > (2, 1)   # past the strip, clear of the wreck
    # its own lanes open on from there, driving on leaves target#1 behind (p75)
    old = PO._put_at(V, 2, *goal)
    assert PO._leaves_behind(w.T, w.TM, w.M, w.NM, V, n, 2, w.hp)
    PO._put_at(V, 2, *old)
    # facing against play, or with its own lanes shut ahead: not past
    assert not PO._past_from(w.T, w.TM, w.M, w.NM, V, n, 2, w.hp, sec, lane, sp, 1)
    _obstacle(w, 3, 3, 5, 2)
    V = w.V.copy()
    assert not PO._past_from(w.T, w.TM, w.M, w.NM, V, n, 2, w.hp, *goal)
    assert not PO._plan_standoff(w.B, w.T, V, w.WS, n, 2, w.hp, std, *_stream(0))


def test_a_hunter_comes_up_to_a_road_no_lane_pair_runs_clear_past_to_a_stranded_enemy_p13_p88():
    """Seeded Game Eight intercept 564 (seed 2026): the last target stopped for good past a
    wreck and an obstacle strip, the attacker stopped behind them. No lane pair ran clear past
    (_route: the road 'shut from edge to edge'), no enemy behind, so _move_off waited, and the
    position repeated; an enemy stopped with weapons is not beaten (p88) and never comes. But a
    way wove through a drift a move (p13), which the moving driver finds space by space: forced
    to move off, the attacker wove through and won. A hunter with every enemy stranded, one
    ahead, and its next two spaces clear now moves off slowly (at most RAM_MOVE_OFF) to come up
    to the block. With the enemy able to move off (it may come to the car), or the next space
    shut, it waits as before."""
    std = PO.params_vector()
    w, n = _weave_to_stranded_target()
    assert PO.best_shot(w.T, w.M, w.NM, w.V, w.WS, n, 2, w.hp, std, w.tbuf)[0] < 0
    assert PO._hunts(w.T, w.TM, w.M, w.NM, w.V, n, 2, w.hp)
    for p in range(5):
        assert not PO._pair_clear(w.T, w.M, w.NM, w.V, n, 2, p, PO.ROUTE_LOOK, True)

    def decide():
        return PO.decide(w.B, w.T, w.V, w.WS, n, 2, False, w.hp, std, *_stream(0))

    # the old driver waited: A_NONE
    up = min(w.V[2, VH.V_ACC], PO.RAM_MOVE_OFF)
    assert decide() == (PO.A_ACCEL, up)
    # an enemy stopped but able to move off: it may come to the car, which waits as before
    w.V[0, VH.V_ENGOFF] = 0
    assert not PO._stuck(w.V, 0)
    assert decide() == (PO.A_NONE, 0)
    # stranded again, but an obstacle in the very next space: nothing to come up through
    w.V[0, VH.V_ENGOFF] = 1
    _obstacle(w, 2, 0, 2, 0)
    assert decide() == (PO.A_NONE, 0)


def test_a_road_shut_just_past_a_stranded_enemy_keeps_it_in_play_p75_p88():
    """Seeded Game Eight intercept 2341 (seed 2026): the target, backed off a corner onto the
    straight behind the stranded attacker, found a lane pair clear past it over ROUTE_LOOK
    spaces from its own nose, counted it as left behind (p75), and drove on into an obstacle
    strip edge to edge just beyond that window, backed off and came on. Getting past an enemy
    is getting on from it: _past_shut_road now looks ROUTE_LOOK spaces beyond the enemy's far
    end. Made up: the target (no ammunition) on lanes 0-1, the attacker (engine out) a space
    on in lanes 2-3, the strip on section 4's last space (six spaces on from the target's
    nose, five past the attacker): hunted, the target reverses with a drift into line (p17);
    the old driver left it behind and moved off, A_ACCEL. With the strip a space nearer, in
    the old window too, hunted on both."""
    std = PO.params_vector()
    for sp, was_shut in ((2, False), (1, True)):
        w, n = _intercept_world()
        w.place(0, 2, 0, 2, 0, side=0, role=VH.LEAD, kind=0)
        w.WS[0, :, VH.W_AMMO] = 0
        w.place(1, 0, 2, 0, 0, side=0, role=VH.LEAD, kind=0)
        w.V[1, VH.V_STATUS] = VH.CRASHED
        w.place(2, 3, 2, 0, 0, side=1, role=VH.CHASE, kind=1)
        w.V[2, VH.V_ENGOFF] = 1
        for lo, hi in ((0, 2), (3, 5)):
            _obstacle(w, 4, lo, hi, sp)
        assert PO._stuck(w.V, 2) and VH.armed(w.V, w.WS, 2)
        # the old window, ROUTE_LOOK from the car's nose, saw the strip only at sp 1
        assert PO._a_pair_clear(w.T, w.M, w.NM, w.V, n, 0, 0, PO.ROUTE_LOOK, False, True) \
            == (not was_shut)
        assert PO._past_shut_road(w.T, w.TM, w.M, w.NM, w.V, n, 0, 2)
        assert not PO._leaves_behind(w.T, w.TM, w.M, w.NM, w.V, n, 0, w.hp)
        assert PO.decide(w.B, w.T, w.V, w.WS, n, 0, False, w.hp, std, *_stream(0)) \
            == (PO.A_REVERSE, 1)


def test_a_car_on_a_corner_backs_off_to_line_up_through_any_clear_pair_p17_p26():
    """Seeded Game Eight intercept 2341 (seed 2026): the target stopped on a corner's outside
    lanes level with the stranded attacker two lanes in, the road shut ahead; a wreck behind
    the attacker in its outer lane. _shielded_line_up took that wreck as shielding the
    attacker from any line-up behind the bend, so the target waited (a repeat); but lining up
    a lane a reverse, the car may get its shot from the pair between (the forced reverse won).
    Now, for a car with a gun, shielded only if every pair on the way to the enemy's is
    blocked: the target backs straight off the corner (a reverse may not drift on a curve,
    p17). The old driver waited, A_NONE. With nothing to shoot (lined up it could only ram,
    which needs the enemy's own lanes, p52), it waits as before; with the pair between blocked
    too, no line-up, but a stand-off plan (session 28)."""
    std = PO.params_vector()
    w = World(layout=("S", "S", "S", "CR", "S", "S", "CL"), scenario="game-8-intercept.toml")
    n = w.a.G[EG.G_NV]
    for v in range(n):
        w.WS[v] = w.a.LOAD[v, 0]
    w.place(0, 3, 0, 1, 0, side=0, role=VH.LEAD, kind=0)
    w.place(2, 3, 2, 0, 0, side=1, role=VH.CHASE, kind=1)
    w.V[2, VH.V_ENGOFF] = 1
    w.V[2, VH.V_DIR] = 1
    w.place(1, 2, 3, 2, 0, side=0, role=VH.LEAD, kind=0)
    w.V[1, VH.V_STATUS] = VH.WRECK
    for lo, hi in ((0, 2), (3, 5)):
        _obstacle(w, 4, lo, hi, 0)
    assert not PO._drift_legal(w.T, w.V, 0, 1)      # lanes 0-1 are the corner's outside
    assert PO.best_shot(w.T, w.M, w.NM, w.V, w.WS, n, 0, w.hp, std, w.tbuf)[0] < 0
    assert PO._stopped_enemy_in_front(w.T, w.TM, w.V, w.WS, n, 0, PO.LINE_UP, w.hp) == 2
    assert PO._off_curve_clear(w.T, w.M, w.NM, w.V, n, 0)

    def decide():
        return PO.decide(w.B, w.T, w.V, w.WS, n, 0, False, w.hp, std, *_stream(0))

    assert not PO._shielded_line_up(w.T, w.M, w.NM, w.V, w.WS, n, 0, 2)
    assert decide() == (PO.A_REVERSE, 0)
    # with no ammunition left it could only ram: shielded, it waits
    ammo = w.WS[0, :, VH.W_AMMO].copy()
    w.WS[0, :, VH.W_AMMO] = 0
    assert PO._shielded_line_up(w.T, w.M, w.NM, w.V, w.WS, n, 0, 2)
    assert decide() == (PO.A_NONE, 0)
    w.WS[0, :, VH.W_AMMO] = ammo
    # the pair between blocked behind the bend as well (its own way back still clear):
    # shielded, no line-up; it waited until the position repeated. Since session 28 the
    # stand-off plan (_plan_standoff) backs it off the corner to section 2's lanes 1-2, three
    # moves, where its hood has the attacker in its corridor over the obstacle (p26) and the
    # attacker, facing it, has the wreck closest in its own (no answer)
    _obstacle(w, 2, 2, 2, 2)
    assert PO._off_curve_clear(w.T, w.M, w.NM, w.V, n, 0)
    assert PO._shielded_line_up(w.T, w.M, w.NM, w.V, w.WS, n, 0, 2)
    assert decide() == (PO.A_REVERSE, 0)
    goal = PO._goal_place(w.V[0, VH.V_GOAL])
    assert goal == (2, 1, 1, 0) and w.V[0, VH.V_GOALN] == 3
    assert PO._exchange_at(w.T, w.M, w.NM, w.V, w.WS, n, 0, w.hp, w.tbuf, std[PO.P_SHOOT],
                           *goal)[1] == 0.0


def _last_rider_world(layout):
    """Game Eight (the gang pursuing) on ``layout``, each vehicle with its load-out, gang
    riders 2 and 3 crashed: the Op (0) and the last rider (1) left for the caller to place."""
    w = World(layout=layout, scenario="game-8-gang-pursues.toml")
    n = int(w.a.G[EG.G_NV])
    bike = int(w.a.G[EG.G_BIKE_KIND])
    for v in range(n):
        w.WS[v] = w.a.LOAD[v, 0]
    for v in (2, 3):
        w.place(v, 0, 2, 0, 0, side=1, role=VH.CHASE, kind=bike)
        w.V[v, VH.V_STATUS] = VH.CRASHED
    return w, n, bike


def _rider_behind_stranded_op(op_sp):
    """Game Eight (the gang pursuing), a right bend on section 3: the last gang rider (1, its
    ammunition spent) stopped on the bend's last space in lanes 1-2, the Op stranded (engine
    out) on the straight past it in the same lanes, space ``op_sp``; the other riders crashed."""
    w, n, bike = _last_rider_world(("S", "S", "S", "BR", "S", "S", "S"))
    w.place(0, 4, 1, op_sp, 0, side=0, role=VH.LEAD, kind=1)
    w.V[0, VH.V_ENGOFF] = 1
    w.place(1, 3, 1, RD.pair_spaces(w.T, 3, 1) - 1, 0, side=1, role=VH.CHASE, kind=bike)
    w.V[1, VH.V_BIKE] = 1
    w.WS[1, :, VH.W_AMMO] = 0
    assert w.T[3, RD.T_DIR] > 0 and PO._drift_legal(w.T, w.V, 1, -1)    # outwards: lane 0
    assert PO._stuck(w.V, 0) and VH.armed(w.V, w.WS, 0) and w.hp[PO.HP_OUTRUN] == 1
    return w, n


def test_lanes_a_rider_on_a_curve_cannot_reach_count_as_shut_p13_p64():
    """Seeded gang pursues 73, 2183, 3364 (seed 2026): the last rider stopped on a bend behind
    the stranded Op; the only lane pairs clear past the Op were on the bend's inside, where a
    rider cannot go (a drift on a curve goes outwards only, p13; a rider may not reverse off the
    bend first, p64), so _past_shut_road did not see the road as shut, the rider counted the Op
    as left behind (p75) and waited until the position repeated. A pair the vehicle cannot reach
    now counts as shut: the Op cannot be got past, so it is hunted (p88). From the inside lanes,
    or for a car (which backs off the bend first, p17), the same road is open as before. The
    curve that counts is the one the rider's straight move ends on, as for its drift (p13): from
    the bend's last space it moves onto the straight, where it may drift either way, and the
    inside pair is in its reach (session 32: judged on the rider's own section, the old driver
    counted it out of reach there too, and hunted an Op it could leave behind)."""
    w, n = _rider_behind_stranded_op(2)
    _obstacle(w, 5, 0, 3)    # lanes 0-3 shut past the Op: only the pair 4-5 is open
    # from the bend's last space: onto the straight, the inside pair in reach, the Op left behind
    assert not PO._out_of_reach(w.T, w.V, 1, 4)
    assert not PO._past_shut_road(w.T, w.TM, w.M, w.NM, w.V, n, 1, 0)
    assert PO._leaves_behind(w.T, w.TM, w.M, w.NM, w.V, n, 1, w.hp)
    # a space back, its next move still on the bend
    w.V[1, VH.V_SP] -= 1
    assert [PO._pair_clear(w.T, w.M, w.NM, w.V, n, 1, p, PO.ROUTE_LOOK + 1, False)
            for p in range(5)] == [False, False, False, False, True]
    # shut for the rider, so hunted (the old driver: not shut, left behind, not hunted)
    assert PO._past_shut_road(w.T, w.TM, w.M, w.NM, w.V, n, 1, 0)
    assert not PO._leaves_behind(w.T, w.TM, w.M, w.NM, w.V, n, 1, w.hp)
    assert PO._hunts(w.T, w.TM, w.M, w.NM, w.V, n, 1, w.hp)
    assert PO._out_of_reach(w.T, w.V, 1, 4) and not PO._out_of_reach(w.T, w.V, 1, 0)
    # a rider on the inside lanes reaches the open pair: the Op is left behind
    w.V[1, VH.V_LANE] = 4
    assert not PO._past_shut_road(w.T, w.TM, w.M, w.NM, w.V, n, 1, 0)
    assert PO._leaves_behind(w.T, w.TM, w.M, w.NM, w.V, n, 1, w.hp)
    # so is a car where the rider stood: it may back off the bend and drift (p17)
    w.V[1, VH.V_LANE] = 1
    w.V[1, VH.V_BIKE] = 0
    assert not PO._out_of_reach(w.T, w.V, 1, 4)
    assert not PO._past_shut_road(w.T, w.TM, w.M, w.NM, w.V, n, 1, 0)


def test_a_hunting_rider_stopped_behind_a_stranded_enemy_drifts_up_to_it_p13_p15_p64():
    """The same seeded riders, hunting the stranded Op (above), still waited: the Op two spaces
    ahead in their lanes, no shot (out of sight round the bend, or none left), and _drift_dir
    refused the outward drift because the Op holds those lanes in the second space. Riders may
    not reverse to line up (p64); the enemy will not clear the way. A hunting rider now moves off
    drifting (p15) outwards (p13) into lanes clear in the next space, to come up beside or behind
    the enemy, slowly (at most RAM_MOVE_OFF). With that space shut it waits, as before. (The
    road past the Op is shut on lanes 2-5: from the bend's last space the inside pairs are in
    the rider's reach (p13, session 32), and with them open the Op is one it leaves behind.)"""
    std = PO.params_vector()
    w, n = _rider_behind_stranded_op(1)    # two spaces ahead: the bend's last, then space 0
    _obstacle(w, 5, 2, 5)
    assert PO._hunts(w.T, w.TM, w.M, w.NM, w.V, n, 1, w.hp)
    assert PO.best_shot(w.T, w.M, w.NM, w.V, w.WS, n, 1, w.hp, std, w.tbuf)[0] < 0
    assert PO._drift_dir(w.T, w.M, w.NM, w.V, n, 1, 0, *_stream(0)) == 0

    def decide():
        return PO.decide(w.B, w.T, w.V, w.WS, n, 1, False, w.hp, std, *_stream(0))

    act, arg = decide()    # the old driver: A_NONE
    assert act == PO.A_OFF_DRIFT and arg < 0 and -arg <= PO.RAM_MOVE_OFF
    # the lanes either side shut in the next space: nothing to drift into, it waits (the
    # straight move ends on the straight past the bend, so an inward drift is legal too, p13)
    _obstacle(w, 4, 0, 0)
    assert decide()[0] == PO.A_OFF_DRIFT
    _obstacle(w, 4, 2, 2)
    assert decide() == (PO.A_NONE, 0)


def _intercept_world():
    """Game Eight (the intercept) on straights, each vehicle with its load-out: (world, count)."""
    w = World(scenario="game-8-intercept.toml")
    n = int(w.a.G[EG.G_NV])
    for v in range(n):
        w.WS[v] = w.a.LOAD[v, 0]
    return w, n


def _standoff_intercept():
    """Game Eight (the intercept): the attacker (2) stopped on section 4 lanes 2-3 facing with
    play, the road shut from edge to edge (p76) ahead of it on section 5 and between it and
    the last target car (1), stopped two sections back in the same lanes facing away from it;
    target#1 (0) crashed. Neither has a shot where it stands."""
    w, n = _intercept_world()
    w.place(0, 0, 0, 0, 0, side=0, role=VH.LEAD)
    w.V[0, VH.V_STATUS] = VH.CRASHED
    w.place(1, 2, 2, 1, 0, side=0, role=VH.LEAD)
    w.V[1, VH.V_DIR] = 1
    w.place(2, 4, 2, 1, 0, side=1, role=VH.CHASE, kind=1)
    for lo, hi in ((0, 2), (3, 5)):
        _obstacle(w, 5, lo, hi, 0)
        _obstacle(w, 3, lo, hi, 1)
    return w, n


def test_a_hunter_in_a_standoff_turns_round_for_a_shot_no_enemy_can_return_p14_p15():
    """Seeded Game Eight intercept 4911 (seed 2026) ended as a repeated position: the attacker
    with the last target car behind it beyond a road shut from edge to edge, the road ahead shut
    too; _move_off ('walled in both ways, nothing can') waited, and so did the target. Turned
    round where it stood the attacker had the target in its sights, and nothing had it in
    theirs: a driver about to wait with no shot now takes the one move (here a U-turn as it
    moves off, p14-p15) that puts an enemy in its sights from places no enemy without a shot
    at it now could shoot it from, where waiting only draws. With a wreck closest in the
    corridor (a fixed mount shoots the closest vehicle, p26) there is no such move: it waits."""
    std = PO.params_vector()
    w, n = _standoff_intercept()
    for v in (1, 2):
        assert PO.best_shot(w.T, w.M, w.NM, w.V, w.WS, n, v, w.hp, std, w.tbuf)[0] < 0
    assert PO._beyond_shut_road(w.T, w.M, w.NM, w.V, n, 2, True, True, *_stream(0))

    def decide():
        return PO.decide(w.B, w.T, w.V, w.WS, n, 2, False, w.hp, std, *_stream(0))

    assert decide() == (PO.A_UTURN, PO.U_TURN_SAFE)    # the old driver: A_NONE
    # turned round, the target is in its hood's corridor, which the target cannot return
    w.V[2, VH.V_DIR] = 1
    assert PO.best_shot(w.T, w.M, w.NM, w.V, w.WS, n, 2, w.hp, std, w.tbuf)[1] == 1
    assert PO.best_shot(w.T, w.M, w.NM, w.V, w.WS, n, 1, w.hp, std, w.tbuf)[0] < 0
    w.V[2, VH.V_DIR] = 0
    # target#1's wreck between them, closest in the corridor: no shot to turn round for
    w.place(0, 2, 2, 2, 0, side=0, role=VH.LEAD)
    w.V[0, VH.V_STATUS] = VH.WRECK
    assert decide() == (PO.A_NONE, 0)


def test_a_car_in_a_standoff_rams_a_stopped_enemy_bike_facing_it_p72():
    """Seeded gang pursues 4454 (seed 2026) ended as a repeated position: the Op facing against
    play, the last rider (its ammunition spent) stopped nose to nose with it a space away,
    neither with a shot, the lanes beside the rider and the way back shut. A bike in a head-on
    collision with a car is removed from play (p72: 'it always comes off worse'; the Op is
    beaten only immobilised without weapons, p88): a car that would wait with no shot drives
    into a stopped enemy bike facing it in its lanes, nothing between, at RAM_MOVE_OFF. A bike
    facing away was not rammed (read then as a shunt, both taking a relative speed hit); under
    the default reading of a car into a stationary bike (variant ``stopped_bike_ram``,
    ``head_on``) it is a head-on all the same, rammed since session 26 (``ram_bike``): the
    driver without it waits, as before."""
    std = PO.params_vector()
    w, n, bike = _last_rider_world(("S",) * 7)
    w.place(0, 3, 2, 2, 0, side=0, role=VH.LEAD, kind=1)     # the Op, facing back
    w.V[0, VH.V_DIR] = 1
    w.WS[0, :, VH.W_AMMO] = 0
    w.place(1, 3, 2, 0, 0, side=1, role=VH.CHASE, kind=bike)
    w.V[1, VH.V_BIKE] = 1
    w.WS[1, :, VH.W_AMMO] = 0
    _obstacle(w, 3, 0, 1, 0)     # beside the rider
    _obstacle(w, 3, 4, 5, 0)
    for lo, hi in ((0, 2), (3, 5)):
        _obstacle(w, 4, lo, hi, 0)     # behind the Op
    assert PO._first_in_way(w.T, w.M, w.NM, w.V, n, 0, 2) == 1

    def decide():
        return PO.decide(w.B, w.T, w.V, w.WS, n, 0, False, w.hp, std, *_stream(0))

    assert decide() == (PO.A_ACCEL, PO.RAM_MOVE_OFF)    # the old driver: A_NONE
    w.V[1, VH.V_DIR] = 1
    assert decide() == (PO.A_ACCEL, PO.RAM_MOVE_OFF)
    assert PO.decide(w.B, w.T, w.V, w.WS, n, 0, False, w.hp, PO.params_vector({"ram_bike": 0}),
                     *_stream(0)) == (PO.A_NONE, 0)


def _op_shut_in_with_a_rider_behind():
    """Game Eight (the gang pursuing) on a straight: the Op (0, armed, every mount firing
    forward, p82-83) stopped on section 3 lanes 2-3, space 1, nose to a road shut edge to edge
    (p76) in the very next space; the last gang rider (1, armed) stopped in the space behind it
    in the same lanes, facing the Op's tail, which it has in its corridor."""
    w, n, bike = _last_rider_world(("S",) * 7)
    w.place(0, 3, 2, 1, 0, side=0, role=VH.LEAD, kind=1)
    w.place(1, 3, 2, 0, 0, side=1, role=VH.CHASE, kind=bike)
    w.V[1, VH.V_BIKE] = 1
    for lo, hi in ((0, 2), (3, 5)):
        _obstacle(w, 3, lo, hi, 2)
    return w, n


def test_a_car_in_a_standoff_reverses_into_a_stopped_rider_behind_it_p17_p72():
    """Seeded gang pursues 52, 541, 1553 (seed 2026) ran to the turn limit: the Op stopped
    nose to an obstacle (on a bend, its way round the bend's inside, p13), the last rider
    stopped in the space behind it in its lanes, shooting it every turn; the Op, every gun
    forward, could not reply, its way back held by the rider (``_reverse_clear``), so it
    waited. A car running into a stationary upright bike is a head-on under the rules in force
    (variant ``stopped_bike_ram``, default ``head_on``), after which the bike is removed from
    play (p72): a stopped car with no shot and no move for one now reverses into such a bike
    (p17), at 10mph, taking one combined speed-factor hit. Not with one lane in common (a
    sideswipe, p72), not under the ``shunt`` reading, not with ``ram_bike`` 0: it waits."""
    std = PO.params_vector()
    w, n = _op_shut_in_with_a_rider_behind()
    assert PO.best_shot(w.T, w.M, w.NM, w.V, w.WS, n, 0, w.hp, std, w.tbuf)[0] < 0
    assert PO.best_shot(w.T, w.M, w.NM, w.V, w.WS, n, 1, w.hp, std, w.tbuf)[1] == 0

    def decide(par=std):
        return PO.decide(w.B, w.T, w.V, w.WS, n, 0, False, w.hp, par, *_stream(0))

    assert decide() == (PO.A_REVERSE, 0)     # the old driver: A_NONE
    assert decide(PO.params_vector({"ram_bike": 0})) == (PO.A_NONE, 0)
    assert decide(PO.params_vector({"ram_bike": 2})) == (PO.A_NONE, 0)
    # backed off from here as often as the memory allows: the ram is no backing off
    for _ in range(PO.BACKOFFS):
        PO.remember_backing(w.V, 0)
    assert decide() == (PO.A_REVERSE, 0)
    # through the engine: the reverse rams the rider head-on, which leaves play (p72)
    st, s = w.script([3] * 12)
    pol = np.stack([std] * n)
    _act(w, st, s, 0, pol, n=n)
    assert w.V[1, VH.V_STATUS] == VH.CRASHED and w.V[0, VH.V_STATUS] == VH.ACTIVE
    assert w.V[0, VH.V_MPH] == 0
    # one lane in common: a sideswipe the bike loses, not its end; without ram_bike's bit 4
    # (session 29: grinding it down, below) the car waits as before
    w, n = _op_shut_in_with_a_rider_behind()
    w.V[1, VH.V_LANE] = 3
    assert decide(PO.params_vector({"ram_bike": 3})) == (PO.A_NONE, 0)
    # the shunt reading of a car into a bike stopped its way: no sure gain, it waits
    w, n = _op_shut_in_with_a_rider_behind()
    w.hp[PO.HP_STOPPED_BIKE] = 0
    assert decide() == (PO.A_NONE, 0)


def test_a_car_in_a_standoff_rams_a_stopped_rider_facing_away_p57_p72():
    """The other half of ``ram_bike``: a stopped rider in front of the car in its lanes,
    facing away from it (session 25's reading of seeded Game Six 428, 2505, 3352: riders
    walled in short of a strip, the Op behind them with no shot). A car facing with play
    lines up and rams such an enemy already (``_move_off``); one facing against play (here
    the Op, turned round) did not, and ``_break_standoff`` rammed only a rider facing it
    (session 24). Driving into it is a head-on under the default reading (variant
    ``stopped_bike_ram``); with ``ram_bike`` 0, or the ``shunt`` reading, the car waits."""
    std = PO.params_vector()
    w, n, bike = _last_rider_world(("S",) * 7)
    w.place(0, 3, 2, 1, 0, side=0, role=VH.LEAD, kind=1)
    w.V[0, VH.V_DIR] = 1
    w.WS[0, :, VH.W_AMMO] = 0
    w.place(1, 3, 2, 0, 0, side=1, role=VH.CHASE, kind=bike)
    w.V[1, VH.V_BIKE] = 1
    w.V[1, VH.V_DIR] = 1
    w.WS[1, :, VH.W_AMMO] = 0
    for lo, hi in ((0, 2), (3, 5)):
        _obstacle(w, 2, lo, hi, 2)      # the rider nose to a road shut edge to edge
        _obstacle(w, 3, lo, hi, 2)      # and the Op's way back shut too
    assert PO._first_in_way(w.T, w.M, w.NM, w.V, n, 0, 2) == 1

    def decide(par=std):
        return PO.decide(w.B, w.T, w.V, w.WS, n, 0, False, w.hp, par, *_stream(0))

    assert decide() == (PO.A_ACCEL, PO.RAM_MOVE_OFF)     # the old driver: A_NONE
    assert decide(PO.params_vector({"ram_bike": 0})) == (PO.A_NONE, 0)
    w.hp[PO.HP_STOPPED_BIKE] = 0
    assert decide() == (PO.A_NONE, 0)


def test_a_car_in_a_standoff_rams_a_bike_wreck_out_of_its_way_p17_p72():
    """Seeded gang pursues 4450 (seed 2026) ended as a repeated position: the Op on a corner
    nose to an obstacle, a rider's wreck in the space behind it, the last rider stopped nose to
    the same obstacle beside it; the Op counted the wreck as a block for good
    (``_reverse_clear``) and waited. A car that hits a fallen bike rams it head-on and the bike
    is removed from play (p72; a wrecked bike the same, 'fallen bikes are usually wrecks'):
    forced to back into the wreck, the Op cleared its way back, lined up on the rider and won.
    A car that would wait with no shot now reverses into a bike's wreck in the space behind it
    (``ram_bike`` bit 2). Not a car's wreck (a block for good: a ram every turn, p57), not with
    the bit off."""
    std = PO.params_vector()
    w, n, bike = _last_rider_world(("S",) * 7)
    w.place(0, 3, 2, 1, 0, side=0, role=VH.LEAD, kind=1)
    w.place(2, 3, 2, 0, 0, side=1, role=VH.CHASE, kind=bike)    # gang#2's wreck behind the Op
    w.V[2, VH.V_BIKE] = 1
    w.V[2, VH.V_STATUS] = VH.WRECK
    w.place(1, 1, 0, 0, 0, side=1, role=VH.CHASE, kind=bike)    # the last rider, out of sight
    w.V[1, VH.V_BIKE] = 1
    for lo, hi in ((0, 2), (3, 5)):
        _obstacle(w, 3, lo, hi, 2)

    def decide(par=std):
        return PO.decide(w.B, w.T, w.V, w.WS, n, 0, False, w.hp, par, *_stream(0))

    assert PO.best_shot(w.T, w.M, w.NM, w.V, w.WS, n, 0, w.hp, std, w.tbuf)[0] < 0
    assert decide() == (PO.A_REVERSE, 0)     # the old driver: A_NONE
    assert decide(PO.params_vector({"ram_bike": 1})) == (PO.A_NONE, 0)
    # through the engine: the wreck is rammed out of play (p72), the way back open
    st, s = w.script([3] * 12)
    _act(w, st, s, 0, np.stack([std] * n), n=n)
    assert w.V[2, VH.V_STATUS] == VH.CRASHED and w.V[0, VH.V_STATUS] == VH.ACTIVE
    # a car's wreck there: a block for good, it waits
    w, n, bike = _last_rider_world(("S",) * 7)
    w.place(0, 3, 2, 1, 0, side=0, role=VH.LEAD, kind=1)
    w.place(2, 3, 2, 0, 0, side=1, role=VH.CHASE, kind=1)
    w.V[2, VH.V_STATUS] = VH.WRECK
    w.place(1, 1, 0, 0, 0, side=1, role=VH.CHASE, kind=bike)
    w.V[1, VH.V_BIKE] = 1
    for lo, hi in ((0, 2), (3, 5)):
        _obstacle(w, 3, lo, hi, 2)
    assert decide() == (PO.A_NONE, 0)


def test_a_car_in_a_standoff_rams_a_stopped_enemy_car_it_outlasts_p17_p56_p57():
    """Seeded Game Eight intercept 201 (seed 2026) ended as a repeated position: target#1 and
    the attacker (turned round) stopped rear to rear, each with the road shut in front of it,
    neither with a shot (every mount fires forward or to the side, none back), target#1 with 6
    damage points left, the attacker with 1. Forced to reverse into the attacker, target#1
    won: each such ram deals both cars the same hits (p56-57), so the one whose points outlast
    the other's expected hits wins the race. A car that would wait with no shot now rams a
    stopped enemy car in its lanes it outlasts (``ram_race``), here by reversing (p17); the
    points the other way round, or ``ram_race`` 0: it waits."""
    std = PO.params_vector()
    w, n = _intercept_world()
    w.place(1, 0, 0, 0, 0, side=0, role=VH.LEAD)
    w.V[1, VH.V_STATUS] = VH.CRASHED
    w.place(0, 3, 2, 1, 0, side=0, role=VH.LEAD)
    w.place(2, 3, 2, 0, 0, side=1, role=VH.CHASE, kind=1)
    w.V[2, VH.V_DIR] = 1
    for lo, hi in ((0, 2), (3, 5)):
        _obstacle(w, 3, lo, hi, 2)      # in front of target#1
        _obstacle(w, 2, lo, hi, 2)      # in front of the attacker, facing back
    w.V[0, VH.V_DMG], w.V[2, VH.V_DMG] = 6, 1
    for v in (0, 2):
        assert PO.best_shot(w.T, w.M, w.NM, w.V, w.WS, n, v, w.hp, std, w.tbuf)[0] < 0

    def decide(par=std):
        return PO.decide(w.B, w.T, w.V, w.WS, n, 0, False, w.hp, par, *_stream(0))

    assert decide() == (PO.A_REVERSE, 0)     # the old driver: A_NONE
    assert decide(PO.params_vector({"ram_race": 0})) == (PO.A_NONE, 0)
    w.V[0, VH.V_DMG], w.V[2, VH.V_DMG] = 1, 6
    assert decide() == (PO.A_NONE, 0)


def test_a_drift_is_judged_on_the_section_the_straight_move_ends_on_p13():
    """p13: 'Vehicles on corners or bends are allowed to drift but only to the lane on the
    outside', and 'cars which start the move on a corner or bend, but which are moving onto a
    straight section are allowed to execute a drift in either direction': the drift comes
    after the straight move, and the section that move ends on decides (as the engine has it,
    ``engine._advance``). The drivers judged it on the section the car stood on: at a
    straight's last space before a bend to the right, a drift to the right (inwards on the
    bend) looked legal, the engine refused it, and the car held its lanes into the block it
    meant to pass (seeded intercept 4377's attacker, twice); at a bend's last space before a
    straight, a drift inwards looked illegal though it is not. The drivers' test and the
    engine now agree in both places, both ways."""
    w = World(layout=("S", "S", "CR", "S", "S", "S", "S"))
    st, s = w.script([6] * 20)
    for sec, sp in ((1, 2), (2, 3)):           # a straight's last space; the bend's last
        for d in (-1, 1):
            w.place(0, sec, 2, sp, 30, side=0, role=VH.LEAD)
            w.place(1, 6, 0, 0, 0, side=1, role=VH.CHASE)
            legal = PO._drift_legal(w.T, w.V, 0, d)
            EG._advance(st, s, w.B, w.V, w.WS, w.FIT, 2, 0, EG.Move(d, False, False),
                        w.common(), EG.Log(w.E, w.EN, 1, 1))
            assert w.V[0, VH.V_SEC] == sec + 1 and w.V[0, VH.V_STATUS] == VH.ACTIVE
            assert (w.V[0, VH.V_LANE] == 2 + d) == legal, (sec, sp, d)
            # at the straight's end only the bend's outward drift (left), at the bend's end
            # either way (the old drivers had the inward one the other way round in both)
            assert legal == (not (sec == 1 and d == 1)), (sec, sp, d)


def _gunless_target_past_the_stranded_attacker():
    """Game Eight (the intercept) as seeded intercept 2677 stood at its turn limit: the last
    target car (1), its guns empty, stopped on section 4 lanes 4-5 space 2 facing with play;
    the attacker (2) stranded (engine out, armed) on lanes 2-3 a space back, turned round;
    target#1 (0) a wreck; an obstacle strip on the outside lanes of the bend ahead and the road
    shut from edge to edge (p76) past it, the markers where they lay. The target has passed
    the attacker, but can never leave it behind (p75)."""
    w = World(layout=("S", "S", "S", "S", "S", "BL", "S"), scenario="game-8-intercept.toml")
    n = int(w.a.G[EG.G_NV])
    for v in range(n):
        w.WS[v] = w.a.LOAD[v, 0]
    w.place(0, 4, 0, 0, 0, side=0, role=VH.LEAD)
    w.V[0, VH.V_STATUS] = VH.WRECK
    w.place(1, 4, 4, 2, 0, side=0, role=VH.LEAD)
    w.WS[1, :, VH.W_AMMO] = 0
    w.place(2, 4, 2, 1, 0, side=1, role=VH.CHASE, kind=1)
    w.V[2, VH.V_DIR] = 1
    w.V[2, VH.V_ENGOFF] = 1
    for sec, lo, hi, xlo, xhi in ((5, 3, 5, 300, 315), (5, 3, 5, 315, 330), (6, 0, 2, 360, 380),
                                  (6, 3, 5, 360, 380), (6, 3, 5, 380, 400), (6, 3, 5, 400, 420)):
        RD._add_marker(w.M, w.NM, RD.OBSTACLE, sec, lo, hi, xlo, xhi, 1, -1)
    w.V[1, VH.V_DMG], w.V[2, VH.V_DMG] = 5, 1
    for _ in range(int(PO.params_vector()[PO.P_BACKOFFS])):
        PO.remember_backing(w.V, 1)    # backed off from here as often as it does, as in 2677
    return w, n


def test_a_gunless_car_in_a_standoff_drives_to_a_ram_it_wins_and_makes_it_p17_p56_p57():
    """Issue 15, session 30: seeded Game Eight intercept 2677 was drawn at the turn limit, the
    last target, its guns gone, stopped beside the stranded attacker (armed, turned round,
    with no shot at it), the road shut edge to edge ahead. Ramming it (p52) was the only play
    left, and no driver planned a ram: the stand-off planner looked only for places with a
    shot, and ``ram_race`` rammed only an enemy already in the car's lanes. With ``ram_race``
    2 the planner takes a place the car wins the race of rams from (its points outlasting the
    enemy's, hit for hit, p56-57, with the enemies' shots at it there counted against it,
    ``_race_at``), drives there and rams; through the engine's own turns the attacker is
    taken out. ``ram_race`` 1 (the old driver): it waits."""
    std = PO.params_vector()
    w, n = _gunless_target_past_the_stranded_attacker()
    for v in (1, 2):
        assert PO.best_shot(w.T, w.M, w.NM, w.V, w.WS, n, v, w.hp, std, w.tbuf)[0] < 0
    # no lane in common: no ram from where it stands
    assert PO._outlasts(w.T, w.M, w.NM, w.V, n, 1, w.hp, False) < 0
    assert PO._outlasts(w.T, w.M, w.NM, w.V, n, 1, w.hp, True) < 0
    V = w.V.copy()
    assert _d(w, 1, PO.params_vector({"ram_race": 1}), n=n, trial=0) == (PO.A_NONE, 0)
    assert PO._plan_standoff(w.B, w.T, V, w.WS, n, 1, w.hp, std, *_stream(0))
    goal = PO._goal_place(V[1, VH.V_GOAL])
    assert PO._race_at(w.T, w.M, w.NM, V, w.WS, n, 1, w.hp, w.tbuf, *goal)[0] >= 0.0

    def play(par, games=40):
        """The rest of the game through the engine's turns (the book's 40), both drivers
        ``par``, on ``games`` dice streams: the winners counted (-1 a draw), and the target
        car's top speed in any of them."""
        wins = {-1: 0, 0: 0, 1: 0}
        top = 0
        for trial in range(games):
            w, n = _gunless_target_past_the_stranded_attacker()
            res = np.zeros(EG.R_W, np.int64)
            EG.play_turns(*_stream(trial), w.B, w.V, w.WS, w.FIT,
                          w.common(np.stack([par] * n)), EG.Log(w.E, w.EN, 0, 0), res, 0, 1)
            wins[int(res[EG.R_WINNER])] += 1
            ev = w.E[:w.EN[0]]
            top = max([top] + [int(e[7]) for e in ev if e[2] == 1 and e[3] == EG.EV_MOVE])
        return wins, top

    # the race has dice: the target (side 0) wins it most often, and it loses it far less
    # often than it wins (on 400 other streams: 274 won, 63 lost, 63 with both cars out)
    wins, top = play(std)
    assert wins[0] >= 20 and wins[0] >= 3 * wins[1], wins
    assert top <= PO.RAM_MOVE_OFF           # it crept there and rammed: no run at it
    wins, top = play(PO.params_vector({"ram_race": 1}))
    assert wins == {-1: 40, 0: 0, 1: 0}, wins    # the old driver: every game drawn
    # the race lost (the points the other way round): it waits
    w, n = _gunless_target_past_the_stranded_attacker()
    w.V[1, VH.V_DMG], w.V[2, VH.V_DMG] = 1, 5
    assert _d(w, 1, std, n=n, trial=0) == (PO.A_NONE, 0)


def test_a_ram_race_counts_the_enemy_s_shots_at_the_rammer_p56_p57():
    """The race of rams ``ram_race`` 2 plans for counts what the enemies' guns take off the
    car a turn where it rams from: an attacker that, facing it, would shoot it while it rams
    outlasts a car that would win the bare race (``_outlasts``); behind the attacker, out of
    its forward arcs (p82-83), the same car wins it."""
    w, n = _gunless_target_past_the_stranded_attacker()
    w.V[2, VH.V_DMG] = 3
    hp = w.hp
    # the target in the attacker's lanes, a space in front of its guns, facing it
    args = (w.T, w.M, w.NM, w.V, w.WS, n, 1, hp, w.tbuf)
    ahead = (4, 2, 0, 0)      # the attacker faces back, towards space 0
    w.V[1, VH.V_SEC], w.V[1, VH.V_LANE], w.V[1, VH.V_SP] = ahead[:3]
    assert PO._outlasts(w.T, w.M, w.NM, w.V, n, 1, hp, False) == 2
    s2, t2 = PO.best_shot(w.T, w.M, w.NM, w.V, w.WS, n, 2, hp, PO.params_vector(), w.tbuf)
    assert s2 >= 0 and t2 == 1
    assert PO._race_at(*args, *ahead)[0] < 0.0
    # behind it, facing its back: no shot at the target, the race won
    behind = (4, 2, 2, 1)
    assert PO._race_at(*args, *behind) == (0.0, 0)


def _rider_on_a_straight(op_sp=None):
    """Game Eight (the gang pursuing) on a straight road: the last gang rider (1, its
    ammunition spent) stopped on section 3, space 0, lanes 1-2; the other riders crashed; the
    Op stranded (engine out, armed) on section 3 lanes 1-2, space ``op_sp``, or (None) moving
    far ahead."""
    w, n, bike = _last_rider_world(("S",) * 7)
    if op_sp is None:
        w.place(0, 6, 2, 0, 60, side=0, role=VH.LEAD, kind=1)
    else:
        w.place(0, 3, 1, op_sp, 0, side=0, role=VH.LEAD, kind=1)
        w.V[0, VH.V_ENGOFF] = 1
    w.place(1, 3, 1, 0, 0, side=1, role=VH.CHASE, kind=bike)
    w.V[1, VH.V_BIKE] = 1
    w.WS[1, :, VH.W_AMMO] = 0
    return w, n


def test_a_rider_that_means_to_leave_a_stranded_enemy_behind_comes_up_beside_it_p15_p75():
    """Seeded gang pursues 3185 and 4304 (seed 2026): the last riders stopped two spaces
    behind the stranded Op with lane pairs clear past it, so they meant to leave it off the
    back of the road (p75) and did not hunt it; _drift_dir refused both drifts (the Op holds
    those lanes in the second space) and the riders waited until the position repeated. The
    Op will never clear the way: a rider that cannot drift clear of it now moves off drifting
    (p15) into lanes clear in the next space, slowly, to come up beside it (where the way past
    or a shot opens), hunted or not; lanes clear but for sand (seeded 2337) if no others are.
    With both sides shut in the next space it waits."""
    std = PO.params_vector()
    w, n = _rider_on_a_straight(2)
    assert PO._stuck(w.V, 0) and VH.armed(w.V, w.WS, 0)
    assert PO._leaves_behind(w.T, w.TM, w.M, w.NM, w.V, n, 1, w.hp)     # pairs 3, 4 clear past it
    assert not PO._hunts(w.T, w.TM, w.M, w.NM, w.V, n, 1, w.hp)
    assert PO._drift_dir(w.T, w.M, w.NM, w.V, n, 1, 0, *_stream(0)) == 0

    def decide(trial=0):
        return PO.decide(w.B, w.T, w.V, w.WS, n, 1, False, w.hp, std, *_stream(trial))

    sides = set()
    for trial in range(8):    # both sides open: the dice's
        act, arg = decide(trial)    # the old driver: A_NONE
        assert act == PO.A_OFF_DRIFT and 0 < abs(arg) <= PO.RAM_MOVE_OFF
        sides.add(arg > 0)
    assert sides == {False, True}
    left = (PO.A_OFF_DRIFT, -min(w.V[1, VH.V_ACC], PO.RAM_MOVE_OFF))
    _obstacle(w, 3, 3, 3, sp=1)          # the right-hand lanes shut in the next space
    assert decide() == left
    _sand(w, 3, 0, 0, 1)                 # sand on the left: over it, rather than wait
    assert decide() == left
    _obstacle(w, 3, 0, 0, sp=1)          # an obstacle on the left too: nothing to drift into
    assert decide() == (PO.A_NONE, 0)


def _sand(w, sec, lo, hi, sp):
    RD._add_marker(w.M, w.NM, RD.SAND, sec, lo, hi, RD.rear_x(w.T, sec, lo, sp),
                   RD.front_x(w.T, sec, lo, sp), 1, -1)


def test_a_rider_nose_to_what_never_moves_drifts_round_it_over_a_hazard_p15_p38_p76():
    """Seeded gang pursues 25 and 723 (seed 2026): riders nose to the stranded Op or an
    obstacle (p76) whose only lanes round it held sand or oil in the next space waited until
    the position repeated (_drift_dir counts hazards as blocks: 'the way may clear', but an
    obstacle, a wreck or a vehicle stopped for good never clears it). Such a rider now moves
    off drifting (p15) into lanes free of vehicles and obstacles over the next two spaces,
    over the hazard (a roll, not a wreck), slowly. Behind a vehicle that may still move, or
    with no such lanes, it waits as before."""
    std = PO.params_vector()
    w, n = _rider_on_a_straight(None)
    _obstacle(w, 3, 0, 1, sp=2)          # its own lanes and the left pair shut two spaces on
    _sand(w, 3, 2, 4, 1)                 # sand over the right pair's next space
    assert PO._drift_dir(w.T, w.M, w.NM, w.V, n, 1, 0, *_stream(0)) == 0
    assert PO._drift_past(w.T, w.M, w.NM, w.V, n, 1, *_stream(0)) == 1

    def decide():
        return PO.decide(w.B, w.T, w.V, w.WS, n, 1, False, w.hp, std, *_stream(0))

    # the old driver: A_NONE
    assert decide() == (PO.A_OFF_DRIFT, min(w.V[1, VH.V_ACC], PO.RAM_MOVE_OFF))
    # the obstacle in the very next space: the straight move comes first (p13) and would run
    # into it (p76), so it waits
    w.NM[0] = 0
    _obstacle(w, 3, 0, 1, sp=1)
    _sand(w, 3, 2, 4, 1)
    assert PO._drift_past(w.T, w.M, w.NM, w.V, n, 1, *_stream(0)) == 1
    assert decide() == (PO.A_NONE, 0)
    # a gang rider stopped in the way instead, able to move off: it waits (the way may clear)
    w.NM[0] = 0
    _sand(w, 3, 2, 4, 1)
    w.place(2, 3, 0, 2, 0, side=1, role=VH.CHASE, kind=int(w.a.G[EG.G_BIKE_KIND]))
    w.V[2, VH.V_BIKE] = 1
    w.V[2, VH.V_STATUS] = VH.ACTIVE
    assert not PO._stuck(w.V, 2)
    assert decide() == (PO.A_NONE, 0)
    # stranded (engine out): it never moves, so round it over the sand
    w.V[2, VH.V_ENGOFF] = 1
    assert decide()[0] == PO.A_OFF_DRIFT
    # the right pair shut two spaces on as well: nowhere to go, it waits
    _obstacle(w, 3, 3, 3, sp=2)
    assert decide() == (PO.A_NONE, 0)


def test_a_car_shut_in_on_a_bend_does_not_back_into_a_block_behind_it_p17_p57():
    """_move_off's reverses to where a U-turn may be made, off a curve, and with the drift
    before a curve did not look behind (s18-df15e checked only the nose-to-a-block reverse).
    The chase car stopped on a bend, the road ahead shut from edge to edge (p76), the lead car
    behind it: no U-turn on a curve, so it backs off the bend (p17). With an obstacle across
    its lanes in the space behind, backing is a ram every turn (p57): it waits (the old
    drivers reversed into it)."""
    std = PO.params_vector()
    w = World(layout=("S", "S", "BL", "S", "S", "S", "S"))
    w.WS[:, :, VH.W_AMMO] = 0
    w.place(1, 2, 2, 1, 0, side=1, role=VH.CHASE)
    w.place(0, 0, 2, 0, 0, side=0, role=VH.LEAD)
    for lo, hi in ((0, 2), (3, 5)):
        _obstacle(w, 3, lo, hi)
    assert PO._route(w.T, w.M, w.NM, w.V, 2, 1, PO.ROUTE_LOOK, False, *_stream(0)) == (True, 0)
    assert _d(w, 1, std) == (PO.A_REVERSE, 0)
    _obstacle(w, 2, 2, 3)
    assert not PO._reverse_clear(w.T, w.M, w.NM, w.V, 2, 1, 0)
    assert _d(w, 1, std) == (PO.A_NONE, 0)


def _outrun_world():
    """The Op (3) facing against play on section 4, the gang car (0) stopped on section 2,
    the road between shut on section 3; the Op out of ammunition."""
    w, n = _shut_game_six(1, gang=VH.LEAD)
    w.place(3, 4, 2, 1, 0, side=1, role=VH.CHASE, kind=1)
    w.V[3, VH.V_DIR] = 1
    w.WS[3] = w.a.LOAD[3, 0]
    w.WS[3, :, VH.W_AMMO] = 0
    w.place(0, 2, 2, 1, 0, side=0, role=VH.LEAD)
    return w, n


def test_cut_off_by_a_shut_road_a_car_facing_against_play_turns_round_to_outrun_p75():
    """Seeded Game Eight intercepts froze (e.g. trial 416): the Op facing against play, the
    target car beyond a road shut from edge to edge (p76), neither able to reach or see the
    other. On a continuous track the leader takes the stretch of road with it and a car left
    behind leaves play (p75), which loses a Game won by taking the other side out (p88): the
    Op turns round (a U-turn as it moves off, p15) and drives on. Not where the road is fixed
    (HP_OUTRUN 0), not where the Game is won at the line (HP_TAKE_OUT 0), not facing with
    play (the enemy would be the one left in front)."""
    std = PO.params_vector()
    w, n = _outrun_world()
    assert w.hp[PO.HP_OUTRUN] == 1 and w.hp[PO.HP_TAKE_OUT] == 1
    assert PO._beyond_shut_road(w.T, w.M, w.NM, w.V, n, 3, False, True, *w.dice)
    hp = w.hp.copy()

    def decide(**cells):
        h = hp.copy()
        for k, x in cells.items():
            h[getattr(PO, k)] = x
        return PO.decide(w.B, w.T, w.V, w.WS, n, 3, False, h, std, *_stream(0))

    act, arg = decide()
    assert act == PO.A_UTURN and arg > 0
    assert decide(HP_OUTRUN=0) == (PO.A_NONE, 0)
    assert decide(HP_TAKE_OUT=0) == (PO.A_NONE, 0)
    # the road open again: it stays to fight (no outrun)
    w.M[:w.NM[0], RD.MK_ACTIVE] = 0
    assert not PO._beyond_shut_road(w.T, w.M, w.NM, w.V, n, 3, False, True, *w.dice)
    assert decide()[0] != PO.A_UTURN


def test_a_turn_to_face_driver_does_not_turn_back_towards_an_enemy_beyond_a_shut_road():
    """Having turned round to outrun, a 'turn-to-face' driver (p14: U-turns to face an enemy
    behind at 30mph or less) would turn back at once and shuttle at the shut road; it turns
    only towards an enemy it can reach."""
    ttf = PO.policy_vector("turn-to-face")
    w, n = _outrun_world()
    w.V[3, VH.V_DIR] = 0
    w.V[3, VH.V_MPH] = 20

    def decide():
        return PO.decide(w.B, w.T, w.V, w.WS, n, 3, True, w.hp, ttf, *_stream(0))

    assert PO._beyond_shut_road(w.T, w.M, w.NM, w.V, n, 3, True, True, *w.dice)
    assert decide()[0] != PO.A_UTURN
    w.M[:w.NM[0], RD.MK_ACTIVE] = 0
    assert decide()[0] == PO.A_UTURN


def test_lined_up_on_a_stopped_enemy_a_car_rams_it_only_with_nothing_between():
    """A chase car lined up on a stopped enemy with no shot drives into it (a ram, p52). With
    an obstacle or a wreck between, the move would ram that instead, which cannot be driven
    through (p76): seeded Game Eight target cars rammed their own wreck, backed off and came
    on again to the turn limit. Then it does not move off into it."""
    std = PO.params_vector()
    w = World()
    w.WS[:, :, VH.W_AMMO] = 0
    w.place(1, 1, 2, 0, 0, side=1, role=VH.CHASE)
    w.place(0, 2, 2, 0, 0, side=0, role=VH.LEAD)
    assert PO._first_in_way(w.T, w.M, w.NM, w.V, 2, 1, PO.LINE_UP) == 0
    act, arg = _d(w, 1, std)
    assert act == PO.A_ACCEL and 0 < arg <= PO.RAM_MOVE_OFF
    _obstacle(w, 1, 2, 4, 2)
    assert PO._first_in_way(w.T, w.M, w.NM, w.V, 2, 1, PO.LINE_UP) == -2
    assert _d(w, 1, std)[0] != PO.A_ACCEL


def _op_near_the_roads_start(sp, mph, lead_mph):
    """Game Six: the Op (3) facing against play on section 0's lanes 2-3, space ``sp``, at
    ``mph``; a gang car (0) on section 6 at ``lead_mph``, the other two gang vehicles crashed;
    no ammunition anywhere. Returns (world, vehicle count)."""
    w = World(scenario="game-6.toml")
    n = w.a.G[EG.G_NV]
    w.WS[:, :, VH.W_AMMO] = 0
    w.place(3, 0, 2, sp, mph, side=1, role=VH.CHASE, kind=1)
    w.V[3, VH.V_DIR] = 1
    w.place(0, 6, 2, 0, lead_mph, side=0, role=VH.LEAD)
    for v in (1, 2):
        w.place(v, 6, 4, 0, 0, side=0, role=VH.LEAD)
        w.V[v, VH.V_STATUS] = VH.CRASHED
    return w, n


def test_where_taking_the_other_side_out_wins_a_car_does_not_drive_off_the_start_of_the_track():
    """A car facing against play that runs off the start of the stretch of road leaves play
    (p75), and a side all out of play is beaten (p88): seeded Game Eight Ops turned to chase a
    bike and drove off the start at 90mph. Such a car stops short of the end (the end planned
    like a curve taken at 0mph) and, stopped at it, turns round rather than move off. Where the
    Game is won at the line (HP_TAKE_OUT 0) the end is nothing to it."""
    std = PO.params_vector()
    w, n = _op_near_the_roads_start(1, 60, 60)
    assert PO._track_left(w.T, w.TM, w.V, 3, w.hp) == 1
    hp0 = w.hp.copy()
    hp0[PO.HP_TAKE_OUT] = 0
    assert PO._track_left(w.T, w.TM, w.V, 3, hp0) > 100

    def decide(hp, moves):
        return PO.decide(w.B, w.T, w.V, w.WS, n, 3, moves, hp, std, *_stream(0))

    assert decide(w.hp, True)[0] == PO.A_BRAKE
    assert decide(hp0, True)[0] != PO.A_BRAKE
    w.place(3, 0, 2, 0, 0, side=1, role=VH.CHASE, kind=1)
    w.V[3, VH.V_DIR] = 1
    assert PO._track_left(w.T, w.TM, w.V, 3, w.hp) == 0
    # turning round, or backing off the end to where it may turn towards the enemy behind
    # (session 23), never moving off
    assert decide(w.hp, False)[0] in (PO.A_UTURN, PO.A_REVERSE, PO.A_NONE)
    assert decide(hp0, False)[0] == PO.A_ACCEL


def _stranded_past_a_bend():
    """Seeded Game Eight intercept trial 1670 (seed 2026), as it stood: the road S S S BR S BL
    S; target#1 (0) stopped on section 4, lanes 0-1, space 2, nose to an obstacle on section
    5's lanes 0-2; target#2 (1) a wreck at the end of the bend (section 3, lanes 2-3, space
    2); the attacker's Interceptor (2) the chase car. The attacker's fixed weapons shoot only
    along its own lanes (p25, p82)."""
    w = World(layout=("S", "S", "S", "BR", "S", "BL", "S"), scenario="game-8-intercept.toml")
    n = w.a.G[EG.G_NV]
    for v in range(n):
        w.WS[v] = w.a.LOAD[v, 0]
    w.place(0, 4, 0, 2, 0, side=0, role=VH.LEAD)
    w.place(1, 3, 2, 2, 0, side=0, role=VH.LEAD)
    w.V[1, VH.V_STATUS] = VH.WRECK
    _obstacle(w, 5, 0, 2)
    return w, n


def test_a_hunter_is_not_turned_away_from_a_stranded_enemy_by_what_lies_beyond_it_issue_15():
    """Seeded Game Eight games ran to the turn limit with a car backing and filling round a
    block on a curve (intercept trial 1670, the gang pursuing trial 1411): its line-up on a
    stranded enemy (``_move_off``) and its way round the wreck or obstacle beyond that enemy
    (``_route``, the drift towards the enemy's lanes) pulled opposite ways, and each move
    undid the last. Now, for a car that means to take a stopped enemy out:
    - its look for a way round ends at the nearest stopped enemy ahead (what lies beyond does
      not matter yet), and the way round goes to the side of the enemy's lanes;
    - on a bend the stretch ahead is measured as road, not as the car's own spaces (from the
      inside lanes a wreck at the end of the outer ones was never looked at);
    - its drift towards the enemy's lanes does not undo its way round a wreck before it;
    - a stopped enemy close ahead that it can neither shoot nor drift into line with before
      drawing level makes it stop and line up by reversing (p17), as a player would; and it
      does not reverse into a wreck behind it (the attacker rammed one backwards each turn
      until it was one)."""
    std = PO.params_vector()
    w, n = _stranded_past_a_bend()
    at = 2

    def decide(moves):
        return PO.decide(w.B, w.T, w.V, w.WS, n, at, moves, w.hp, std, *_stream(0))

    # moving at 27mph level with the stranded car two lanes over, the obstacle beyond it two
    # spaces ahead: it stops to line up (it used to drift right round the obstacle, past the
    # enemy, turn and come round again)
    w.place(at, 4, 2, 1, 27, side=1, role=VH.CHASE, kind=1)
    assert PO.best_shot(w.T, w.M, w.NM, w.V, w.WS, n, at, w.hp, std, w.tbuf)[0] < 0
    assert decide(True)[0] == PO.A_BRAKE
    # stopped there: it reverses with a drift left into line (the space behind is clear) ...
    w.V[at, VH.V_MPH] = 0
    assert decide(False) == (PO.A_REVERSE, -1)
    # ... and lined up on lanes 1-2 it has its shot
    w.place(at, 4, 1, 0, 0, side=1, role=VH.CHASE, kind=1)
    assert decide(False)[0] == PO.A_SHOOT
    # at the start of section 4 with the wreck right behind: no reverse into it
    w.place(at, 4, 3, 0, 0, side=1, role=VH.CHASE, kind=1)
    _obstacle(w, 3, 3, 4, 2)
    assert not PO._reverse_clear(w.T, w.M, w.NM, w.V, n, at, -1)
    assert decide(False)[0] != PO.A_REVERSE
    w.M[w.NM[0] - 1, RD.MK_ACTIVE] = 0
    # on the straight before the bend, in the inside lanes past the wreck: it does not drift
    # back into the wreck's lanes towards the enemy (it used to, then brake on the bend and
    # back off it, to the turn limit); the wreck at the end of lanes 2-4 is seen from there
    w.place(at, 2, 4, 1, 21, side=1, role=VH.CHASE, kind=1)
    assert not PO._pair_clear(w.T, w.M, w.NM, w.V, n, at, 3, PO.ROUTE_LOOK, True)
    assert PO._pair_clear(w.T, w.M, w.NM, w.V, n, at, 4, PO.ROUTE_LOOK, True)
    assert decide(True) != (PO.A_DRIFT, -1)


def test_where_taking_out_wins_a_lead_car_is_not_routed_off_a_stranded_bike_issue_15():
    """Seeded Game Eight, the gang pursuing, trial 1411: the Op (the lead car, where taking the
    other side out wins) and the last gang bike stopped on a right bend in lanes 0-1, nose to
    an obstacle across lanes 0-2 (a rider may not reverse, p64). The Op backed off the bend
    and drifted into the bike's lanes to line up, then its route round the bike and the
    obstacle took it out of them again, twenty times. Its look now ends at the stranded
    enemy: driving on in the bike's lanes is its way, and there it has its shot."""
    std = PO.params_vector()
    w = World(layout=("S", "S", "S", "S", "BR", "S", "S"), scenario="game-8-gang-pursues.toml")
    n = w.a.G[EG.G_NV]
    bike = int(w.a.G[EG.G_BIKE_KIND])
    for v in range(n):
        w.WS[v] = w.a.LOAD[v, 0]
    op = 0
    for v in (1, 2):
        w.place(v, 0, 2, 0, 0, side=1, role=VH.CHASE, kind=bike)
        w.V[v, VH.V_STATUS] = VH.CRASHED
    w.place(3, 4, 0, 3, 0, side=1, role=VH.CHASE, kind=bike)
    w.V[3, VH.V_BIKE] = 1
    _obstacle(w, 5, 0, 2)
    w.place(op, 3, 1, 1, 27, side=0, role=VH.LEAD, kind=1)
    assert w.hp[PO.HP_TAKE_OUT] == 1
    # the old look: the bike and the obstacle block lanes 1-2 and the way is to the right
    assert PO._route(w.T, w.M, w.NM, w.V, n, op, PO.ROUTE_LOOK, False, *_stream(0)) == (True, 1)
    assert PO._route(w.T, w.M, w.NM, w.V, n, op, PO.ROUTE_LOOK, True, *_stream(0)) == (False, 0)
    act = PO.decide(w.B, w.T, w.V, w.WS, n, op, True, w.hp, std, *_stream(0))
    assert act[0] != PO.A_DRIFT
    # on the bend in the bike's lanes, behind it: the shot
    w.place(op, 4, 1, 1, 0, side=0, role=VH.LEAD, kind=1)
    assert PO.best_shot(w.T, w.M, w.NM, w.V, w.WS, n, op, w.hp, std, w.tbuf)[0] >= 0


def test_where_getting_away_wins_the_lead_driver_plays_to_leave_p89():
    """Game Seven (p89): the target gang wins by getting its vehicles safely out of play or
    outdistancing the attackers; the attacker only by taking the whole target gang out. The
    scenario tells the drivers (hp's HP_GET_AWAY, from victory = "gangs"; not in Games One or
    Six). There a lead driver (P_FLEE, the standard's choice) speeds up with a pursuer on its
    tail instead of laying its oil, and stopped it moves off instead of shooting a stranded
    enemy; with P_FLEE 0, or where getting away does not win, it fights as before."""
    from test_dark_future_engine import World as W
    assert W(scenario="game-7.toml").hp[PO.HP_GET_AWAY] == 1
    assert W(scenario="game-6.toml").hp[PO.HP_GET_AWAY] == 0
    assert World().hp[PO.HP_GET_AWAY] == 0
    std = PO.params_vector()
    stay = PO.params_vector({"flee": 0})
    w = _lead_with_pursuer(0, mph=60)
    oil = PO._passive_slot(w.V, w.WS, 0)
    assert _d(w, 0, std, moves=True) == (PO.A_PASSIVE, oil)      # getting away does not win
    w.hp[PO.HP_GET_AWAY] = 1
    act, arg = _d(w, 0, std, moves=True)
    assert act == PO.A_ACCEL and arg > 0
    assert _d(w, 0, stay, moves=True) == (PO.A_PASSIVE, oil)
    # stopped, with a shot at an enemy stopped for good ahead: it leaves rather than fights
    w = World()
    w.place(0, 2, 2, 0, 0, side=0, role=VH.LEAD)
    w.place(1, 3, 2, 0, 0, side=1, role=VH.CHASE)
    w.V[1, VH.V_ENGOFF] = 1
    assert PO._stuck(w.V, 1)
    assert PO.best_shot(w.T, w.M, w.NM, w.V, w.WS, 2, 0, w.hp, std, w.tbuf)[0] >= 0
    assert _d(w, 0, std)[0] == PO.A_SHOOT
    w.hp[PO.HP_GET_AWAY] = 1
    assert _d(w, 0, std)[0] == PO.A_ACCEL
    assert _d(w, 0, stay)[0] == PO.A_SHOOT


def test_a_bike_stopped_short_of_a_block_moves_off_drifting_round_it_p15_p64():
    """A rider may not reverse (p64), so a bike stopped short of an obstacle with no shot waited
    for the way to clear, which an obstacle never does. Moving off it may drift (p15): it
    accelerates and drifts into a clear lane beside the block, moving in phase 1. With no lane
    to drift into it still waits."""
    w = World(scenario="game-6.toml")
    n = w.a.G[EG.G_NV]
    bike = int(w.a.G[EG.G_BIKE_KIND])
    std = PO.policy_vector("standard")
    w.WS[:, :, VH.W_AMMO] = 0
    for v in range(n):
        w.place(v, 0, 2, 0, 0, side=0, role=VH.LEAD)
        w.V[v, VH.V_STATUS] = VH.CRASHED
    w.place(1, 2, 0, 0, 0, side=0, role=VH.LEAD, kind=bike)
    w.V[1, VH.V_BIKE] = 1
    w.place(3, 6, 2, 0, 60, side=1, role=VH.CHASE, kind=1)
    # an obstacle on lane 0 two spaces ahead (the straight move comes first, p13: one in the
    # very next space cannot be drifted round)
    _obstacle(w, 2, 0, 0, 2)
    act, arg = PO.decide(w.B, w.T, w.V, w.WS, n, 1, False, w.hp, std, *_stream(0))
    act, arg = PO.bike_decide(w.B, w.T, w.V, w.WS, n, 1, False, w.hp, std, act, arg, *_stream(0))
    assert act == PO.A_OFF_DRIFT and arg > 0, (act, arg)
    # through the engine: it moves in phase 1, a lane to the right, past nothing
    st, s = w.script([])
    pol = np.stack([std] * n)
    _act(w, st, s, 1, pol, n=n)
    assert (w.V[1, VH.V_SP], w.V[1, VH.V_LANE]) == (1, 1) and w.V[1, VH.V_MPH] > 0
    # walled in on the right as well: it waits
    w.place(1, 2, 0, 0, 0, side=0, role=VH.LEAD, kind=bike)
    w.V[1, VH.V_BIKE] = 1
    _obstacle(w, 2, 1, 3, 2)
    act, arg = PO.decide(w.B, w.T, w.V, w.WS, n, 1, False, w.hp, std, *_stream(0))
    assert act != PO.A_OFF_DRIFT


def _fleeing_rider_under_fire(mph, skill=3, enemy_armed=True):
    """Game Seven's case (p89): target rider 1 (lanes 2-3, playing to get away) at ``mph``, an
    enemy rider 2 two spaces behind in its lanes with its fairing guns (a shot at rider 1)."""
    from test_dark_future_bikes import World as BW, BIKE
    w = BW()
    w.a.hp[PO.HP_GET_AWAY] = 1
    w.place(1, 3, 2, 0, mph, BIKE, side=0, role=VH.LEAD, skill=skill)
    w.place(2, 2, 2, 1, mph, BIKE, side=1, role=VH.CHASE)
    w.WS[1, :, VH.W_AMMO] = 0     # nothing of its own to shoot or lay: the speed is the choice
    if not enemy_armed:
        w.WS[2, :, VH.W_AMMO] = 0
    return w


def _case_roll_risk():
    w = _fleeing_rider_under_fire(110)

    def run(par):
        w.POL[1] = par
        return w.decide(1)
    return run, {"roll_risk": 0}


def _rider(w, values):
    w.POL[1] = PO.params_vector(values)
    return w.decide(1)


def test_a_fleeing_rider_under_fire_weighs_its_speed_against_a_crash_p70_p89():
    """Game Seven's target riders lost mostly to their own bikes crashing (a roll at 81mph or
    more is a crash, p70: 57% of the target's games), from control losses a hit brought at
    110mph. The typed parameter ``roll_risk`` makes a rider playing to get away, with an enemy
    holding a shot at it, keep to the speeds where a control-loss test crashes the bike on at
    most ``roll_risk`` faces of six (d6 + speed factor - adverse control, the roll row from
    6): at 0 it brakes from 110 to 80 (a roll there is a fall, not a crash) and does not speed
    up past 80; at 3 a rider of skill 3 keeps 100mph (SF 5: a roll on 4-6) but not 110 (SF 6:
    3-6), and one of skill 4 keeps 110 (4-6). Out of the enemy's fire it rides at its top
    speed. The named drivers' 6 (never slowing) is the measured best (``policies.ROLL_RISK``)."""
    w = _fleeing_rider_under_fire(110)
    assert PO._under_fire(w.T, w.M, w.NM, w.V, w.WS, w.n, 1, w.a.hp, w.tbuf)
    assert [PO._roll_crash_sixths(m, w.V, 1, w.a.hp) for m in (80, 81, 100, 101, 110)] \
        == [0, 3, 3, 4, 4]
    assert _rider(w, {"roll_risk": 0}) == (PO.A_BRAKE, 30)
    assert _rider(w, {})[0] != PO.A_BRAKE
    assert _rider(w, {"roll_risk": 3}) == (PO.A_BRAKE, 10)
    w4 = _fleeing_rider_under_fire(110, skill=4)
    assert _rider(w4, {"roll_risk": 3})[0] != PO.A_BRAKE
    # at 80mph under fire it does not speed up; the standard rider does
    w = _fleeing_rider_under_fire(80)
    assert _rider(w, {"roll_risk": 0})[0] != PO.A_ACCEL
    assert _rider(w, {})[0] == PO.A_ACCEL
    # nobody with a shot at it: top speed
    w = _fleeing_rider_under_fire(80, enemy_armed=False)
    assert not PO._under_fire(w.T, w.M, w.NM, w.V, w.WS, w.n, 1, w.a.hp, w.tbuf)
    assert _rider(w, {"roll_risk": 0})[0] == PO.A_ACCEL
    # where getting away does not win (Game Six), the rider does not slow for it
    w = _fleeing_rider_under_fire(110)
    w.a.hp[PO.HP_GET_AWAY] = 0
    assert _rider(w, {"roll_risk": 0})[0] != PO.A_BRAKE


# --- issue 15: planning the drift over the straight before a curve (p13) -------------------------
def test_a_way_round_that_needs_an_inward_drift_is_taken_on_the_straight_before_the_curve_p13():
    """On a curve a drift may only go outwards (p13); the drivers planned one drift a move from
    where the car was (``_route``, five spaces ahead), so a block just past a bend whose way
    round lay on the inside was seen only on the bend, where the drift is refused: the car
    stopped, backed off the bend and came on in the same lanes again (seeded Game Eight
    intercept trials 803, 3686). The lead car, on the straight at 40mph on lanes 2-3, its next
    move the last on the straight before a right corner of four spaces in its lanes, with an
    obstacle across lanes 0-2 on the first space past the corner (six spaces off): the way
    round is lanes 3-4, on the inside, so it drifts right now, its last chance."""
    w = World(layout=("S", "S", "CR", "S", "S", "S", "S"))
    std = PO.policy_vector("standard")
    w.WS[:, :, VH.W_AMMO] = 0
    w.place(0, 1, 2, 1, 40, side=0, role=VH.LEAD)
    w.place(1, 0, 0, 0, 40, side=1, role=VH.CHASE)
    _obstacle(w, 3, 0, 2)
    assert PO._drift_legal(w.T, w.V, 0, 1)
    assert not PO._route(w.T, w.M, w.NM, w.V, 2, 0, PO.ROUTE_LOOK, False, *w.dice)[0]
    assert _d(w, 0, std, moves=True) == (PO.A_DRIFT, 1)
    assert PO._curve_ahead(w.T, w.TM, w.V, 0, PO.ROUTE_LOOK) == (5, -1)   # outwards: left
    # with the block on the outside instead (lanes 2-4), the bend allows the drift left: no
    # need to take it early
    w.NM[0] = 0
    RD._add_marker(w.M, w.NM, RD.OBSTACLE, 3, 2, 4, RD.rear_x(w.T, 3, 0, 0),
                   RD.front_x(w.T, 3, 0, 0), 1, -1)
    assert _d(w, 0, std, moves=True)[0] != PO.A_DRIFT


def test_a_stopped_hunter_lines_up_before_a_curve_on_a_stranded_enemy_on_its_inside_p13_p17():
    """Seeded Game Seven trial 968 (seed 2026) was drawn at the turn limit: the attacker's car
    stopped on a right corner level with a stranded target rider on the inside lanes, could not
    reverse with a drift on the corner (p17), backed straight off it, and, once on the
    straight, the rider was beyond its line-up distance (three spaces): it moved off in the
    same lanes and stopped level with the rider again, ten turns a round. On the straight
    before a curve that refuses the drift towards a stopped enemy on or just past it, the car
    lines up there, reversing with the drift (p17), and then comes on in the enemy's lanes.
    The attacker (no ammunition) on lanes 1-2 at the last space before a right corner, the
    rider stopped on lanes 4-5 on the first space past it, four spaces off."""
    w = World(layout=("S", "S", "CR", "S", "S", "S", "S"), scenario="game-7.toml")
    n = w.V.shape[0]
    for v in range(n):
        w.place(v, 0, 2, 0, 0, side=0 if v < 3 else 1, role=VH.LEAD if v < 3 else VH.CHASE)
        w.V[v, VH.V_STATUS] = VH.LEFT
    w.WS[:, :, VH.W_AMMO] = 0
    bike = int(w.a.G[EG.G_BIKE_KIND])
    w.place(0, 3, 4, 0, 0, side=0, role=VH.LEAD, kind=bike)
    w.V[0, VH.V_BIKE] = 1
    w.place(3, 1, 1, RD.pair_spaces(w.T, 1, 1) - 1, 0, side=1, role=VH.CHASE)
    std = PO.policy_vector("standard")
    assert PO.LINE_UP < PO._gap_to(w.T, w.V, 3, 0) <= PO.ROUTE_LOOK
    assert _d(w, 3, std, n=n) == (PO.A_REVERSE, 1)
    # in the rider's lanes already it moves off
    w.place(3, 1, 4, RD.pair_spaces(w.T, 1, 4) - 1, 0, side=1, role=VH.CHASE)
    assert _d(w, 3, std, n=n)[0] == PO.A_ACCEL


def test_a_game_seven_attacker_that_has_passed_every_target_can_hold_back_for_them_p75_p89():
    """Game Seven: the stretch of road moves on with the vehicle in front (p75) and a target
    vehicle that leaves play off its back is safely away, not taken out (p89). An attacker that
    has passed every target still in play used to drive on at its cruising speed, pulling the
    road away from them. Holding back (``holdback``) it drives no faster than the nearest
    target behind it, and stopped it does not move off ahead of a stopped one; a target still
    ahead is chased as before."""
    hold = PO.params_vector({"holdback": 1})
    std = PO.params_vector()
    w, n = _passed_every_target()
    assert PO._held_back_for(w.T, w.V, w.WS, n, 3, w.hp, hold, *w.dice) == 0
    assert PO._held_back_for(w.T, w.V, w.WS, n, 3, w.hp, std, *w.dice) == -1
    assert _d(w, 3, std, moves=True, n=n)[0] == PO.A_ACCEL
    assert _d(w, 3, hold, moves=True, n=n) == (PO.A_BRAKE, 20)
    # stopped, with the target stopped behind it: it waits; with the target coming on at 40mph
    # it moves off, no faster than 40mph
    w.V[3, VH.V_MPH] = 0
    w.V[0, VH.V_MPH] = 0
    assert _d(w, 3, hold, n=n) == (PO.A_NONE, 0)
    assert _d(w, 3, std, n=n)[0] == PO.A_ACCEL
    w.V[0, VH.V_MPH] = 40
    act, arg = _d(w, 3, hold, n=n)
    assert act == PO.A_ACCEL and 0 < arg <= 40
    # a target still in play ahead of it: no holding back
    w.place(1, 2, 2, 0, 60, side=0, role=VH.LEAD)
    w.V[3, VH.V_MPH] = 60
    assert PO._held_back_for(w.T, w.V, w.WS, n, 3, w.hp, hold, *w.dice) == -1


def test_a_car_drifts_over_a_road_hazard_rather_than_stop_nose_to_a_block_p25():
    """Seeded Game Eight intercept 1348 (seed 2026) was drawn at the turn limit: the attacker
    came up to a wreck on a bend, and the only lanes round it held debris; it would not drift
    onto a marker, so it braked to a stop nose to the wreck, backed off the bend and came on
    again for thirty turns. The book's advice over markers is to 'drive straight ahead and, in
    most cases, don't brake' (p25): when the way round a vehicle or obstacle two spaces ahead
    is clear of anything but markers, the car drifts over them rather than stop. A lead car at
    25mph on lanes 2-3, a wreck on lanes 1-2 two spaces ahead, debris on lanes 3-5 of the next
    two spaces: it drifts right (it used to brake); with the right lanes shut by an obstacle
    instead, it still brakes."""
    w = World()
    std = PO.policy_vector("standard")
    w.WS[:, :, VH.W_AMMO] = 0
    w.place(0, 1, 2, 0, 25, side=0, role=VH.LEAD)
    w.place(1, 1, 1, 2, 0, side=1, role=VH.CHASE)
    w.V[1, VH.V_STATUS] = VH.WRECK
    for sp in (1, 2):
        RD._add_marker(w.M, w.NM, RD.DEBRIS, 1, 3, 5, RD.rear_x(w.T, 1, 3, sp),
                       RD.front_x(w.T, 1, 3, sp), 1, -1)
    assert PO._drift_dir(w.T, w.M, w.NM, w.V, 2, 0, 0, *w.dice) == 0
    assert _d(w, 0, std, moves=True) == (PO.A_DRIFT, 1)
    w.NM[0] = 0
    RD._add_marker(w.M, w.NM, RD.OBSTACLE, 1, 3, 5, RD.rear_x(w.T, 1, 3, 1),
                   RD.front_x(w.T, 1, 3, 2), 1, -1)
    assert _d(w, 0, std, moves=True)[0] == PO.A_BRAKE


def test_a_turn_to_face_driver_nose_to_a_block_does_not_back_into_an_obstacle_p17():
    """Seeded Game Eight intercept 4117 (seed 2026) was drawn at the turn limit: the attacker
    (turn-to-face), stopped nose to a block with no shot, backed off (p17) into an obstacle
    behind it, every turn, twenty rams. Backing off is for a way back that is clear. A stopped
    car on lanes 2-3 with a wreck in the next space and an obstacle across lanes 2-3 of the
    space behind: it does not reverse into it (nor, in the move-off driving it falls back on,
    with a drift into the lanes beside); with the space behind clear it backs off."""
    w = World()
    ttf = PO.policy_vector("turn-to-face")
    w.WS[:, :, VH.W_AMMO] = 0
    w.place(0, 2, 2, 1, 0, side=0, role=VH.LEAD)
    w.place(1, 2, 2, 2, 0, side=1, role=VH.CHASE)
    w.V[1, VH.V_STATUS] = VH.WRECK
    assert _d(w, 0, ttf) == (PO.A_REVERSE, 0)
    _obstacle(w, 2, 2, 3)
    act, arg = _d(w, 0, ttf)
    assert act != PO.A_REVERSE or PO._reverse_clear(w.T, w.M, w.NM, w.V, 2, 0, arg)


def test_a_car_at_the_end_of_the_track_does_not_back_off_it_into_a_block_p17_p57():
    """decide's reverse off the end of the track: the Op faces against play, stopped at the
    start of the stretch (the next space is off the road, p75), no U-turn room there (its
    space is off the road), no shot, every enemy stranded (the gang car's engine out, its
    bikes crashed): it backs off the end to turn and drive on with play, leaving them behind
    (p17, p75). With an obstacle across its lanes in the space behind, backing is a ram into
    it (p57): it waits. The old drivers reversed whatever stood behind (s18 left this one
    reverse unchecked, the others in _move_off check ``_reverse_clear``)."""
    std = PO.params_vector()
    w, n = _shut_game_six(1, gang=VH.LEAD)
    # the road past the gang car open on lanes 3-5: shut from edge to edge, the Op could never
    # get past it to leave it behind and would hunt it (_past_shut_road; s23-df15o)
    w.NM[0] = 0
    _obstacle(w, 3, 0, 2, 1)
    w.place(0, 3, 2, 1, 0, side=0, role=VH.LEAD)
    w.V[0, VH.V_ENGOFF] = 1
    w.place(3, 0, 2, 0, 0, side=1, role=VH.CHASE, kind=1)
    w.V[3, VH.V_DIR] = 1
    w.WS[3] = w.a.LOAD[3, 0]
    w.WS[3, :, VH.W_AMMO] = 0
    assert PO._track_left(w.T, w.TM, w.V, 3, w.hp) == 0
    assert PO._leaves_behind(w.T, w.TM, w.M, w.NM, w.V, n, 3, w.hp)
    assert _d(w, 3, std, n=n) == (PO.A_REVERSE, 0)
    _obstacle(w, 0, 2, 3, 1)
    assert not PO._reverse_clear(w.T, w.M, w.NM, w.V, n, 3, 0)
    assert _d(w, 3, std, n=n) == (PO.A_NONE, 0)


def test_a_chase_driver_keeps_its_quarry_among_equals_and_can_join_its_team_mates():
    """``focus`` (P_FOCUS): how a chase driver chooses between equally placed enemies. Two
    identical targets level with each other (0 on lanes 0-1, 1 on lanes 4-5), attacker 3:
    - 0: a fresh draw at every decision, and nothing remembered;
    - 1: the quarry it chose last (V_QUARRY) while it is still among the equals, with no die
      rolled; with none remembered it draws, and remembers the one drawn;
    - 2: the one its team-mates pursue (an attacker bike, 4, chasing target 0) before its own
      (target 1); a team-mate out of play does not count.
    A remembered quarry no longer among the nearest is dropped for the nearest one."""
    w, n = _two_equal_targets(0)
    w.place(4, 0, 2, 0, 60, side=1, role=VH.CHASE)
    par = {f: PO.params_vector({"focus": f}) for f in (0, 1, 2)}

    def quarry(f, trial):
        st, s = _stream(trial)
        before = st.copy()
        u = PO._quarry(w.T, w.V, w.WS, n, 3, w.hp, par[f], st, s)[0]
        return u, bool((st == before).all())

    got = [quarry(0, t) for t in range(60)]
    assert {u for u, _ in got} == {0, 1} and not any(same for _, same in got)
    assert w.V[3, VH.V_QUARRY] == 0
    for t in range(60):
        w.V[3, VH.V_QUARRY] = 0
        u, same = quarry(1, t)
        assert not same and w.V[3, VH.V_QUARRY] == u + 1
        assert quarry(1, t + 1000) == (u, True)         # kept, no die
    w.V[3, VH.V_QUARRY] = 2
    w.V[4, VH.V_QUARRY] = 1
    assert quarry(1, 0) == (1, True)
    assert quarry(2, 0) == (0, True) and w.V[3, VH.V_QUARRY] == 1
    w.V[3, VH.V_QUARRY] = 2
    w.V[4, VH.V_STATUS] = VH.WRECK
    assert quarry(2, 0) == (1, True)
    w, n = _two_equal_targets(1)
    w.V[3, VH.V_QUARRY] = 2
    assert quarry(1, 0) == (0, True) and w.V[3, VH.V_QUARRY] == 1



def test_a_passive_is_laid_for_the_pursuer_in_the_layers_lanes_p22():
    """A passive marker takes the two lanes behind the layer (p22): it is for the pursuer in
    those lanes. The lead car (the gang's Renegade, its oil loaded, no guns) with two pursuers
    behind it, one in its lanes (the Op, 3), one two lanes over (vehicle 1):
    - level with each other: the drivers took the nearest enemy behind of any lanes, a tie the
      dice broke, and laid only when the draw fell on the one in its lanes (about half the
      time); now it lays every time;
    - the one in other lanes a space nearer: they never laid; now it lays for the one in its
      lanes, still within ``passive_range``.
    Found measuring Game Seven, whose target riders laid more after ties went to the dice
    (docs/rules/dark-future.md, issue 15 session 19)."""
    std = PO.params_vector()
    w = World(layout=("S",) * 7, scenario="game-6.toml")
    n = int(w.a.G[EG.G_NV])
    w.place(2, 0, 0, 0, 0, side=0, role=VH.LEAD)
    w.V[2, VH.V_STATUS] = VH.CRASHED
    w.place(0, 4, 2, 1, 60, side=0, role=VH.LEAD)
    w.V[0, VH.V_MPH] = w.V[0, VH.V_MAXSPD]      # at its cruising speed: nothing to gain
    w.WS[0] = w.a.LOAD[0, 0]
    _no_guns(w, 0)
    for u, lane in ((3, 2), (1, 4)):
        w.place(u, 3, lane, 2, 60, side=1, role=VH.CHASE)
        w.WS[u, :, VH.W_AMMO] = 0
    gaps = [PO._enemy_gap(w.T, w.V, 0, u, True) for u in (3, 1)]
    assert gaps[0] == gaps[1] <= std[PO.P_PASSIVE]
    got = [_d(w, 0, std, moves=True, n=n, trial=t)[0] for t in range(40)]
    assert got == [PO.A_PASSIVE] * 40, got
    w.place(1, 3, 4, 3, 60, side=1, role=VH.CHASE)
    w.WS[1, :, VH.W_AMMO] = 0
    assert PO._enemy_gap(w.T, w.V, 0, 1, True) < PO._enemy_gap(w.T, w.V, 0, 3, True)
    assert [_d(w, 0, std, moves=True, n=n, trial=t)[0] for t in range(10)] == [PO.A_PASSIVE] * 10


def test_a_car_on_a_bend_whose_way_round_is_inwards_waits_when_shut_in_behind_p13_p57():
    """A stopped car on a bend right, an obstacle across lanes 0-2 just past the bend: its way
    round (lanes 3-4) is inwards, which the bend refuses (p13), so it backs off the bend first
    (p17). With an enemy stopped in the space behind, the reverse is a ram (p57), and moving off
    only brings it nose to the obstacle again: seeded Game Eight gang pursues 23 (seed 2026)
    had the Op come on, brake, back off and come on four times. It waits (the old drivers moved
    off)."""
    std = PO.params_vector()
    w = World(layout=("S", "S", "BR", "S", "S", "S", "S"))
    w.WS[:, :, VH.W_AMMO] = 0
    w.place(0, 2, 1, 1, 0, side=0, role=VH.LEAD)
    _obstacle(w, 3, 0, 2)
    w.place(1, 1, 4, 0, 0, side=1, role=VH.CHASE)
    assert PO._route(w.T, w.M, w.NM, w.V, 2, 0, PO.ROUTE_LOOK, False, *_stream(0)) == (True, 1)
    assert not PO._drift_legal(w.T, w.V, 0, 1)
    assert _d(w, 0, std) == (PO.A_REVERSE, 0)
    w.place(1, 2, 1, 0, 0, side=1, role=VH.CHASE)
    assert not PO._reverse_clear(w.T, w.M, w.NM, w.V, 2, 0, 0)
    assert _d(w, 0, std) == (PO.A_NONE, 0)


def test_a_car_whose_way_round_past_a_bend_cannot_be_reached_waits_p13_p17():
    """Seeded Game Eight intercept 4911 (seed 2026) was drawn at the turn limit: the attacker,
    stopped on a straight's last space (lanes 1-2) before a bend right, the road past the
    bend shut on lanes 0-2 by an obstacle, moved off, braked nose to the block on the bend,
    backed off it and came on again, six times. The way round (lanes 3-4) is on the bend's
    inside, where a drift is refused (p13), and before the bend the only drift that lands on
    the straight is a reverse with a drift (p17) onto lanes 2-3 of the space behind, which an
    obstacle strip on lanes 3-5 holds. No drifts get there: for this car the road is shut,
    and with no enemy behind to turn for it waits (the old drivers moved off). With the strip
    gone the reverse with the drift is open, and it takes it (the way round is reachable)."""
    w = World(layout=("S", "S", "S", "BR", "S", "S", "S"))
    std = PO.policy_vector("standard")
    w.WS[:, :, VH.W_AMMO] = 0
    w.place(0, 6, 2, 0, 60, side=0, role=VH.LEAD)
    w.place(1, 2, 1, 2, 0, side=1, role=VH.CHASE)
    _obstacle(w, 4, 0, 2)
    assert PO._route(w.T, w.M, w.NM, w.V, 2, 1, PO.ROUTE_LOOK, True, *_stream(0)) == (True, 1)
    assert _d(w, 1, std, trial=0) == (PO.A_REVERSE, 1)
    for sp in (0, 1):
        _obstacle(w, 2, 3, 5, sp)
    assert not PO._reverse_clear(w.T, w.M, w.NM, w.V, 2, 1, 1)
    assert PO._inward_reach(w.T, w.M, w.NM, w.V, 2, 1, 1, 6, True) < 0
    assert [_d(w, 1, std, trial=t) for t in range(5)] == [(PO.A_NONE, 0)] * 5


def _nose_to_a_block_on_a_bend():
    """A turn-to-face attacker (2) stopped on a bend left, facing against play on lanes 1-2,
    nose to an obstacle strip (lanes 0-2) in the next space; target#1 (0) stopped beside the
    strip on lanes 3-4, beyond target#2's wreck (1) on lanes 3-4 level with the attacker;
    nothing has ammunition. Seeded Game Eight intercept 627's position."""
    w = World(layout=("S", "S", "BL", "S", "S", "S", "S"), scenario="game-8-intercept.toml")
    n = int(w.a.G[EG.G_NV])
    ttf = PO.policy_vector("turn-to-face")
    w.WS[:, :, VH.W_AMMO] = 0
    w.place(0, 1, 3, 2, 0, side=0, role=VH.LEAD)
    w.place(1, 2, 3, 0, 0, side=0, role=VH.LEAD)
    w.V[1, VH.V_STATUS] = VH.WRECK
    w.place(2, 2, 1, 0, 0, side=1, role=VH.CHASE)
    w.V[2, VH.V_DIR] = 1
    _obstacle(w, 1, 0, 2, 2)
    return w, n, ttf


def test_a_car_on_a_bend_with_no_way_round_a_block_does_not_back_off_straight_p17():
    """Seeded Game Eight intercept 627 (seed 2026, once the move-off saw the road past a bend
    shut, which changed its dice) was drawn at the turn limit: the turn-to-face attacker,
    facing against play on a bend, backed off an obstacle strip beside a stopped target (shut
    in there by the strip and a wreck) and moved off in the same lanes to the strip again, ten
    times. Nose to the strip it
    backs off a space (p17); there, with the strip two spaces ahead, no drift clear round it
    (the outward pair holds the strip and the wreck) and none planned (hunting, its way ends
    at the target), the move-off backed straight off again, a reverse on a bend being unable to
    drift (p17), and from further back came on again. It now shoots if it can, else waits (the
    old drivers reversed). On a straight the reverse with a drift to the wider side stays."""
    w, n, ttf = _nose_to_a_block_on_a_bend()
    assert _d(w, 2, ttf, n=n, trial=0) == (PO.A_REVERSE, 0)       # nose to it: backs off
    w.V[2, VH.V_SP] = 1
    assert not PO._blocked_ahead(w.T, w.M, w.NM, w.V, n, 2, 1, False, 1)
    assert PO._blocked_ahead(w.T, w.M, w.NM, w.V, n, 2, 1, False, 2)
    assert PO._drift_dir(w.T, w.M, w.NM, w.V, n, 2, 0, *_stream(0)) == 0
    for par in (ttf, PO.policy_vector("standard")):
        assert [_d(w, 2, par, n=n, trial=t) for t in range(5)] == [(PO.A_NONE, 0)] * 5
    # the same on a straight (the wreck gone): back off with a drift, as before
    w.T[...], w.TM[...] = RD.track_from_layout(["S"] * 7)
    w.V[1, VH.V_SEC] = 6
    act, arg = _d(w, 2, ttf, n=n, trial=0)
    assert act == PO.A_REVERSE and arg != 0


# --- issue 15, session 21 (df15j): the drivers price a shot at the odds the engine rolls ---------

def _smoke_at(w, sec, sp, lane):
    RD._add_marker(w.M, w.NM, RD.SMOKE, sec, lane, lane + 1, RD.rear_x(w.T, sec, lane, sp),
                   RD.front_x(w.T, sec, lane, sp), 1, 1)


def _engine_faces(w, n, v, slot):
    """How many faces of the hit roll's d6 hit when the engine fires ``v``'s weapon ``slot``
    (each face scripted in turn, the position restored after each shot)."""
    keep = [a.copy() for a in (w.V, w.WS, w.FIT, w.B, w.E, w.EN)]
    hits = 0
    for face in range(1, 7):
        w.V[...], w.WS[...], w.FIT[...], w.B[...], w.E[...], w.EN[...] = keep
        st, s = w.script([face] + [1] * 60)
        EG._fire(st, s, w.B, w.V, w.WS, w.FIT, n, v, slot, w.common(), EG.Log(w.E, w.EN, 1, 1))
        shots = [e for e in w.E[:w.EN[0]] if e[3] == EG.EV_SHOT]
        assert len(shots) == 1
        hits += int(shots[0][7] == 1)
    w.V[...], w.WS[...], w.FIT[...], w.B[...], w.E[...], w.EN[...] = keep
    return hits


def test_the_drivers_price_a_shot_at_the_odds_the_engine_rolls_p26_p30_p64():
    """policies._shot_core priced a shot from the weapon's accuracy and the mount's +1 only;
    the engine's roll also counts smoke in the corridor and under the target (p30), a firer
    and a target at 81mph or more (p26) and a bike target's -1 or -2 (p64). Both now go
    through one function (pieces.vehicle.hit_modifier, the factors in hp's driver block):
    over smoke, speeds, a bike target in one or both of the corridor's lanes, a hood and a
    wing mount, the faces the driver counts are the faces on which the engine's shot hits.
    On the old drivers the count ignored all but the first two (5 faces where the engine
    hits on 1 or none)."""
    w = _three(World())
    n = 3
    w.place(1, 1, 2, 0, 60, side=1, role=VH.CHASE)
    w.WS[1] = 0
    w.WS[1, 0, VH.W_KIND] = VH.WK_DIRECT
    w.WS[1, 0, VH.W_ACC], w.WS[1, 0, VH.W_DMG] = 2, 1
    w.WS[1, 0, VH.W_AMMO], w.WS[1, 0, VH.W_RANGE] = 10, 12
    w.place(0, 9, 0, 0, 60, side=0, role=VH.LEAD)            # out of the way
    seen = set()
    for mount in (VH.M_HOOD, VH.M_WING_R):
        for bike, lane in ((0, 2), (1, 2), (1, 3)):
            for mine, theirs in ((60, 60), (100, 60), (60, 100), (100, 100)):
                for smoke in range(5):
                    w.NM[0] = 0
                    w.WS[1, 0, VH.W_MOUNT] = mount
                    w.V[1, VH.V_MPH] = mine
                    w.place(2, 2, lane, 0, theirs, side=0, role=VH.LEAD, kind=2 if bike else 0)
                    w.V[2, VH.V_BIKE] = bike
                    for _ in range(smoke):
                        _smoke_at(w, 2, 0, lane)                  # under the target
                    assert VH.find_target(w.T, w.V, n, 1, mount, w.tbuf) == 2
                    h = PO._shot_sixths(w.T, w.M, w.NM, w.V, w.WS, 1, 0, 2, w.hp, w.tbuf, 0)
                    assert h == _engine_faces(w, n, 1, 0), (mount, bike, lane, mine, theirs, smoke)
                    got = PO._shot_core(w.T, w.M, w.NM, w.V, w.WS, n, 1, w.hp, w.tbuf, 1, 0)
                    assert got[3] == h and (got[1] == 2) == (h > 0)
                    seen.add(h)
    assert seen == {0, 1, 2, 3, 4, 5}


def test_a_driver_holds_fire_into_thick_smoke_when_laying_is_worth_more_p26_p30():
    """The lead car (at 100mph: -1 to hit, p26) with its MG (accuracy 2, hood +1) on an enemy
    three spaces ahead and oil for a pursuer a space behind at 60mph (a handling point, no
    hazard roll). With no smoke the 5-in-6 shot is worth more and it shoots; with three smoke
    markers under the enemy (-3, p30) the shot hits on a 5 or 6 only, worth less than the
    oil, and it lays the oil. The old drivers saw a 5-in-6 shot and shot into the smoke."""
    std = PO.params_vector()
    w = _lead_oil_and_gun(60, 1)
    oil = PO._passive_slot(w.V, w.WS, 0)
    assert w.V[0, VH.V_MPH] >= 81
    assert _d(w, 0, std, moves=True, n=3) == (PO.A_SHOOT, 0)
    for k in range(3):
        _smoke_at(w, w.V[2, VH.V_SEC], w.V[2, VH.V_SP], w.V[2, VH.V_LANE])
    slot, tgt, val, h, _ = PO._shot_core(w.T, w.M, w.NM, w.V, w.WS, 3, 0, w.hp, w.tbuf, 1, 0)
    assert (slot, tgt, h) == (0, 2, 2)
    assert val < PO._lay_value(w.T, w.M, w.NM, w.V, w.WS, 3, 0, oil, 1, 1, w.hp, std, w.tbuf)
    assert [_d(w, 0, std, moves=True, n=3, trial=t) for t in range(4)] == [(PO.A_PASSIVE, oil)] * 4


def test_a_driver_holds_fire_at_a_fast_bike_when_laying_is_worth_more_p26_p64():
    """The same lead car, the enemy ahead a bike at 100mph four spaces off with only one of
    its lanes in the corridor: -1 the firer's speed, -1 the target's, -2 the bike (p26, p64),
    so the MG hits on a 6 only, and the oil is laid. Slowed to 60mph in both lanes (-1) the
    bike is a 3-in-6 shot, worth more than the oil, and it shoots. The old drivers saw a
    5-in-6 shot either way."""
    std = PO.params_vector()
    w = _lead_oil_and_gun(60, 1)
    oil = PO._passive_slot(w.V, w.WS, 0)
    w.place(2, 6, 3, 0, 100, side=1, role=VH.CHASE, kind=2)
    w.V[2, VH.V_BIKE] = 1
    slot, tgt, val, h, _ = PO._shot_core(w.T, w.M, w.NM, w.V, w.WS, 3, 0, w.hp, w.tbuf, 1, 0)
    assert (slot, tgt, h) == (0, 2, 1)
    assert [_d(w, 0, std, moves=True, n=3, trial=t) for t in range(4)] == [(PO.A_PASSIVE, oil)] * 4
    w.V[2, VH.V_MPH] = 60
    w.V[2, VH.V_LANE] = 2
    assert PO._shot_core(w.T, w.M, w.NM, w.V, w.WS, 3, 0, w.hp, w.tbuf, 1, 0)[3] == 3
    assert _d(w, 0, std, moves=True, n=3) == (PO.A_SHOOT, 0)


def test_a_driver_shoots_the_target_with_the_better_real_odds_p26_p30():
    """A chase car with two wing guns (p82: forward firing, one lane each): the left one
    (accuracy 3, damage 2) bears on an enemy five spaces off in lanes 1-2, the right one
    (accuracy 2, damage 1) on an enemy three spaces off in lanes 3-4. Clear, the left gun's
    5-in-6 shot at +2 is worth more. With two smoke markers under the far enemy (-2, p30) it
    hits on 5-6 only and the right gun's clear 5-in-6 shot is the better: the driver fires
    that one. The old drivers fired the left gun into the smoke."""
    std = PO.params_vector()
    w = _three(World())
    w.place(1, 1, 2, 0, 60, side=1, role=VH.CHASE)
    w.WS[1] = 0
    for s, (m, acc, dmg) in enumerate(((VH.M_WING_L, 3, 2), (VH.M_WING_R, 2, 1))):
        w.WS[1, s, VH.W_KIND] = VH.WK_DIRECT
        w.WS[1, s, VH.W_MOUNT] = m
        w.WS[1, s, VH.W_ACC], w.WS[1, s, VH.W_DMG] = acc, dmg
        w.WS[1, s, VH.W_AMMO], w.WS[1, s, VH.W_RANGE] = 10, 12
    w.place(0, 2, 1, 2, 60, side=0, role=VH.LEAD)
    w.place(2, 2, 3, 0, 60, side=0, role=VH.LEAD)
    assert _d(w, 1, std, moves=True, n=3) == (PO.A_SHOOT, 0)
    _smoke_at(w, 2, 2, 1)
    _smoke_at(w, 2, 2, 1)
    assert PO._shot_core(w.T, w.M, w.NM, w.V, w.WS, 3, 1, w.hp, w.tbuf, 1, 0)[:2] == (1, 2)
    assert [_d(w, 1, std, moves=True, n=3, trial=t) for t in range(4)] == [(PO.A_SHOOT, 1)] * 4


def test_smoke_laid_on_a_pursuer_already_firing_through_three_markers_takes_nothing_off_p26():
    """A smoke marker laid in front of a pursuer is worth the faces it takes off that
    pursuer's shot at the layer (p30) besides its 60mph test. The old drivers counted one face
    whatever smoke the shot already crossed. Two spaces behind at 100mph (MG accuracy 2, hood
    +1, -1 each for the two speeds: +1 at range 3), clear, a marker takes one face off; with
    three markers already under the layer the shot is at the -3 cap (p26), one more takes
    nothing off, and the value is the hazard roll's alone. A space behind (range 2, a 2 or
    better at +1 or at 0) the marker would take nothing off either."""
    std = PO.params_vector()
    w = _lead_oil_and_gun(60, 2)
    lay = PO._passive_slot(w.V, w.WS, 0)
    w.WS[0, lay, VH.W_PTYPE] = RD.SMOKE
    w.WS[1] = w.WS[0]                                       # the pursuer's MG bears on the layer
    w.WS[1, lay, VH.W_AMMO] = 0
    w.V[2, VH.V_STATUS] = VH.WRECK
    w.V[2, VH.V_SEC] = 6
    w.V[1, VH.V_MPH] = 100
    loss = std[PO.P_LOSSVAL] * PO._loss_p(100, w.hp[PO.HP_L_SMOKE], w.V, 1, w.hp)
    slot, tgt, val, h, _ = PO._shot_core(w.T, w.M, w.NM, w.V, w.WS, 3, 1, w.hp, w.tbuf, 1, 0)
    assert (tgt, h) == (0, 5)
    clear = PO._lay_value(w.T, w.M, w.NM, w.V, w.WS, 3, 0, lay, 1, 2, w.hp, std, w.tbuf)
    assert clear == pytest.approx(loss + val / h)
    for _ in range(3):
        _smoke_at(w, w.V[0, VH.V_SEC], w.V[0, VH.V_SP], w.V[0, VH.V_LANE])
    assert PO._shot_core(w.T, w.M, w.NM, w.V, w.WS, 3, 1, w.hp, w.tbuf, 1, 0)[3] == 2
    thick = PO._lay_value(w.T, w.M, w.NM, w.V, w.WS, 3, 0, lay, 1, 2, w.hp, std, w.tbuf)
    assert thick == pytest.approx(loss)
    # a space behind, clear: 5 faces with the marker or without
    w.NM[0] = 0
    _gap_place(w, 0, 1, 1, 2, 100, 1, VH.CHASE)
    w.WS[1] = w.WS[0]
    w.WS[1, lay, VH.W_AMMO] = 0
    assert PO._lay_value(w.T, w.M, w.NM, w.V, w.WS, 3, 0, lay, 1, 1, w.hp, std, w.tbuf) \
        == pytest.approx(loss)


def _hunter_and_stranded_target(acc):
    """Chase car 1 with nothing to shoot at 20mph on lanes 1-2, section 1; lead car 0 stopped
    on lanes 3-4 of section 2's last space (acceleration ``acc``: 0 stops it for good), and
    road debris on lanes 0-2 over the chase car's next two spaces (p76)."""
    w = World()
    w.WS[:, :, VH.W_AMMO] = 0
    w.place(1, 1, 1, 0, 20, side=1, role=VH.CHASE)
    w.place(0, 2, 3, 2, 0, side=0, role=VH.LEAD)
    w.V[0, VH.V_ACC] = acc
    for sp in (1, 2):
        RD._add_marker(w.M, w.NM, RD.DEBRIS, 1, 0, 2, RD.rear_x(w.T, 1, 0, sp),
                       RD.front_x(w.T, 1, 0, sp), 1, -1)
    return w


def test_a_hunter_drifts_over_a_road_hazard_into_a_stranded_targets_lanes_p13_p25():
    """Seeded Game Seven 1287 (seed 2026, once the drivers priced shots at the engine's odds,
    which changed its dice) was drawn at the turn limit: the last attacker, lanes 1-2, came
    through a bend left whose lanes 0-2 hold debris towards the last target rider, stopped for
    good (no acceleration) past it in lanes 3-4. The drift towards it would land on the
    debris, which the drivers refuse (a drift onto a marker), so it drew level, stopped,
    tried to line up by reversing with a drift (which the bend behind refused, p17), backed
    down the bend and came on in the same lanes, three times. With a target stopped for good
    it now drifts into its lanes over the hazard (p25: drive over markers rather than stop);
    a target that may still move off keeps the old choice (no drift onto the marker)."""
    std = PO.params_vector()
    w = _hunter_and_stranded_target(0)
    assert PO._stuck(w.V, 0)
    assert PO._drift_dir(w.T, w.M, w.NM, w.V, 2, 1, 1, *w.dice) != 1
    assert [_d(w, 1, std, moves=True, trial=t) for t in range(4)] == [(PO.A_DRIFT, 1)] * 4
    w = _hunter_and_stranded_target(20)
    assert not PO._stuck(w.V, 0)
    assert all(_d(w, 1, std, moves=True, trial=t) != (PO.A_DRIFT, 1) for t in range(4))


def test_a_stopped_car_moves_off_with_the_inward_drift_a_curve_ahead_needs_p13_p15():
    """Seeded Game Eight intercept 874 was drawn at the turn limit: the attacker,
    stopped on the straight two spaces before a bend right, with an obstacle strip on lanes
    0-2 just past the bend, needed lanes 3-4 (the bend's inside: an inward drift, refused on
    the curve, p13). Moving off straight put it on the straight's last space, from where the
    drift lands on the bend and is refused; it came through in the wrong lanes, braked at the
    strip, backed off and came on again. A moving driver takes that drift on the straight
    (decide, _plan_before_curve); a stopped one now takes it as it moves off (p15: a drift
    may be the move-off's manoeuvre), where the old drivers moved off straight. On the
    straight's last space, where the drift would land on the curve, it does not."""
    std = PO.params_vector()
    w = World(layout=("S", "S", "BR", "S", "S", "S", "S"))
    w.WS[:, :, VH.W_AMMO] = 0
    w.place(1, 1, 2, 0, 0, side=1, role=VH.CHASE)
    w.place(0, 6, 3, 0, 60, side=0, role=VH.LEAD)
    _obstacle(w, 3, 0, 2)
    assert w.T[2, RD.T_KIND] != RD.STRAIGHT and w.T[2, RD.T_DIR] > 0      # a bend right
    act, arg = _d(w, 1, std, trial=0)
    assert act == PO.A_OFF_DRIFT and arg > 0, (act, arg)
    # through the engine: in phase 1 it moves a space and drifts a lane right, on the straight
    st, s = w.script([])
    _act(w, st, s, 1, np.stack([std, std]))
    assert (w.V[1, VH.V_SEC], w.V[1, VH.V_SP], w.V[1, VH.V_LANE]) == (1, 1, 3)
    # on the straight's last space the drift would land on the bend: no move-off drift there
    w.place(1, 1, 2, 2, 0, side=1, role=VH.CHASE)
    assert _d(w, 1, std, trial=0)[0] != PO.A_OFF_DRIFT


def test_a_hunter_on_a_curve_backs_off_it_to_line_up_only_when_the_way_back_is_clear_p17():
    """Seeded gang pursues 4974 (seed 2026, once shots were priced at the engine's odds) had
    the Op, out of ammunition, on a corner right's outside lanes (0-1) with a stopped rider on
    lanes 2-3 ahead of it and another rider stopped behind it on the corner: to line up it
    backed straight off the corner (a reverse may not drift on a curve, p17), two spaces, met
    the rider behind, moved off again to the same place, five times. It now backs off a curve
    to line up only when every space back to the straight behind is clear; shut in, it does
    not reverse (the old drivers did, the next space behind being clear). With the way back
    clear it still backs off."""
    std = PO.params_vector()
    w = _three(World(layout=("S", "S", "CR", "S", "S", "S", "S")))
    n = 3
    w.WS[:, :, VH.W_AMMO] = 0
    w.place(1, 2, 0, 2, 0, side=1, role=VH.CHASE)
    w.place(0, 2, 2, 3, 0, side=0, role=VH.LEAD)
    w.place(2, 2, 0, 0, 0, side=0, role=VH.LEAD)
    w.V[2, VH.V_STATUS] = VH.WRECK
    assert w.T[2, RD.T_KIND] == RD.CORNER and RD.pair_spaces(w.T, 2, 0) > 3
    assert PO._stopped_enemy_in_front(w.T, w.TM, w.V, w.WS, n, 1, PO.LINE_UP, w.hp) == 0
    assert PO._reverse_clear(w.T, w.M, w.NM, w.V, n, 1, 0)        # the next space back is free
    assert all(_d(w, 1, std, n=n, trial=t)[0] != PO.A_REVERSE for t in range(4))
    w.V[2, VH.V_SEC] = 0                                          # the way back clear
    assert _d(w, 1, std, n=n, trial=0) == (PO.A_REVERSE, 0)


def test_a_hunter_on_a_curve_does_not_back_off_it_to_line_up_behind_a_wreck_p17_p26_p52():
    """Seeded Game Eight intercept 570 (seed 2026): target#1, hunting (taking the other side
    out wins), lined up by reversing with drifts on the attacker stopped on a bend, with
    target#2's wreck between them in the attacker's lanes (no line of fire through it, p26, and
    no ram, p52); moving off it steered round the wreck onto the bend, braked nose to the road
    shut past it, backed straight off the bend to line up (p17) and came on again, to the turn
    limit. A car on a curve now backs off it to line up only when, lined up, no wreck or
    obstacle would stand between it and the enemy in the enemy's lanes (the old drivers
    reversed). With the wreck out of those lanes it still backs off."""
    std = PO.params_vector()
    w = _three(World(layout=("S", "S", "CR", "S", "S", "S", "S")))
    n = 3
    w.WS[:, :, VH.W_AMMO] = 0
    w.place(1, 2, 0, 2, 0, side=1, role=VH.CHASE)
    w.place(0, 2, 3, 1, 0, side=0, role=VH.LEAD)      # ahead of it, on the corner's inside
    w.place(2, 1, 3, RD.pair_spaces(w.T, 1, 3) - 1, 0, side=0, role=VH.LEAD)
    w.V[2, VH.V_STATUS] = VH.WRECK
    assert w.T[2, RD.T_KIND] == RD.CORNER
    assert PO._stopped_enemy_in_front(w.T, w.TM, w.V, w.WS, n, 1, PO.LINE_UP, w.hp) == 0
    assert PO._off_curve_clear(w.T, w.M, w.NM, w.V, n, 1)        # the way back is clear
    assert PO._shielded_line_up(w.T, w.M, w.NM, w.V, w.WS, n, 1, 0)
    assert all(_d(w, 1, std, n=n, trial=t)[0] != PO.A_REVERSE for t in range(4))
    w.V[2, VH.V_SEC], w.V[2, VH.V_LANE] = 0, 0    # the wreck far back, out of its lanes
    assert not PO._shielded_line_up(w.T, w.M, w.NM, w.V, w.WS, n, 1, 0)
    assert _d(w, 1, std, n=n, trial=0) == (PO.A_REVERSE, 0)


# --- issue 15, session 23: a driver remembers where it backed off ---

def test_a_car_that_backed_off_from_a_place_twice_stays_there_the_third_time_p17():
    """Seeded Game Eight intercept 570, 1243 and 3823 (seed 2026): cars stopped about a wreck
    on a bend backed off (p17), came on again and backed off from the same places, round after
    round, to the turn limit. A driver now remembers each place it backed off from (the engine
    counts a reverse as it is made, ``policies.remember_backing``) and, stopped there again
    after ``backoffs`` reverses from it (2), shoots or waits instead. Stopped for the first
    time, and after one reverse, it still backs off; a reverse declared where the engine
    refuses it (not stopped at the start of phase 1, p15, p17) is not counted; a reverse from
    another place does not count for this one."""
    w = _bend_line_up_world()
    std = PO.params_vector()
    both = np.stack([std, std])
    assert _d(w, 1, std) == (PO.A_REVERSE, 0)
    # the engine: a reverse declared in phase 2 is refused and not remembered
    _act(w, *_stream(0), 1, both, turn=1, phase=2)
    assert (w.V[1, VH.V_SEC], w.V[1, VH.V_SP]) == (2, 1) and PO._backed_from(w.V, 1) == 0
    # made at the start of phase 1, once for each reverse
    for k in (1, 2):
        assert _d(w, 1, std) == (PO.A_REVERSE, 0), k
        _act(w, *_stream(0), 1, both, turn=k, phase=1)
        assert (w.V[1, VH.V_SEC], w.V[1, VH.V_SP], w.V[1, VH.V_MPH]) == (2, 0, 0)   # backed off
        w.V[1, VH.V_SEC], w.V[1, VH.V_SP] = 2, 1                     # and came on again
        assert PO._backed_from(w.V, 1) == k
    assert _d(w, 1, std) == (PO.A_NONE, 0)                           # the third time: stays
    assert _d(w, 1, PO.params_vector({"backoffs": 0}))[0] == PO.A_REVERSE   # no limit
    # another place has its own count
    w.V[1, VH.V_SP] = 0
    assert PO._backed_from(w.V, 1) == 0



def test_the_backing_memory_keeps_every_place_of_a_round_p17():
    """Seeded Game Eight intercept 4592 (seed 2026, session 24): a target car behind a wreck on
    a bend backed off from four places in turn, round after round, to the turn limit. A new
    place used to push out the first of the least tried, which with every count equal was the
    place written just before, so each was forgotten before the round came back to it. Now the
    least tried goes, of equals the one backed from longest ago. Session 25: intercept 847 (the
    intercept's set-up changed) backed off from five places in turn, round after round, and the
    four columns then forgot each before it came round; the memory now has eight. After two
    rounds of five each counts two, whatever filled the memory before, and a new place pushes
    out the oldest of the least tried, not one of the round. Stopped at the first place after
    two rounds, the driver stays."""
    ncol = VH.V_BACKED7 - VH.V_BACKED0 + 1
    assert ncol == 8
    w = _bend_line_up_world()
    earlier = [(4, 0), (4, 1), (4, 2), (3, 0), (3, 1), (3, 2), (5, 0), (5, 1)]
    places = [(2, 1), (2, 0), (1, 2), (1, 1), (1, 0)]
    # eight places it backed off from earlier in the game fill the memory, once each
    for sec, sp in earlier:
        w.V[1, VH.V_SEC], w.V[1, VH.V_SP] = sec, sp
        PO.remember_backing(w.V, 1)
    for _ in range(2):
        for sec, sp in places:
            w.V[1, VH.V_SEC], w.V[1, VH.V_SP] = sec, sp
            PO.remember_backing(w.V, 1)

    def counts(ps):
        out = []
        for sec, sp in ps:
            w.V[1, VH.V_SEC], w.V[1, VH.V_SP] = sec, sp
            out.append(PO._backed_from(w.V, 1))
        return out

    assert counts(places) == [2] * 5
    assert counts(earlier) == [0] * 5 + [1] * 3      # the oldest five went
    w.V[1, VH.V_SEC], w.V[1, VH.V_SP] = 2, 1
    assert _d(w, 1, PO.params_vector()) == (PO.A_NONE, 0)
    # a new place: the oldest of the least tried goes (an earlier place), the round is kept
    w.V[1, VH.V_SEC], w.V[1, VH.V_SP] = 0, 2
    PO.remember_backing(w.V, 1)
    assert counts([(0, 2)]) == [1] and counts(places) == [2] * 5
    assert counts(earlier) == [0] * 6 + [1] * 2
    # equal counts of one: the newest are kept, the oldest goes
    w2 = _bend_line_up_world()
    seq = earlier + [(2, 1)]
    for sec, sp in seq:
        w2.V[1, VH.V_SEC], w2.V[1, VH.V_SP] = sec, sp
        PO.remember_backing(w2.V, 1)
    kept = []
    for sec, sp in seq:
        w2.V[1, VH.V_SEC], w2.V[1, VH.V_SP] = sec, sp
        kept.append(PO._backed_from(w2.V, 1))
    assert kept == [0] + [1] * ncol


def test_a_car_declares_no_drift_for_a_reverse_that_starts_or_ends_on_a_curve_p17():
    """'Drivers are allowed to reverse on curved tracks but may not drift or U-turn' (p17): the
    engine backs such a car straight. A chase car stopped on a bend nose to an obstacle in the
    next space, and one on the straight's first space past the bend (its reverse lands on the
    bend), used to declare a reverse with a drift towards clear lanes, which the engine
    refused; they now declare the straight reverse they make (a run-up to the drift round the
    block once moving). On a straight with a straight behind, the drift stays."""
    w = World(layout=("S", "S", "BL", "S", "S", "S", "S"))
    std = PO.policy_vector("standard")
    w.WS[:, :, VH.W_AMMO] = 0
    w.place(0, 6, 2, 0, 60, side=0, role=VH.LEAD)
    w.place(1, 2, 1, 1, 0, side=1, role=VH.CHASE)
    _obstacle(w, 2, 1, 2, 2)
    assert not PO._reverse_may_drift(w.T, w.V, 1)
    assert [_d(w, 1, std, trial=t) for t in range(4)] == [(PO.A_REVERSE, 0)] * 4
    w.M[:], w.NM[:] = 0, 0
    w.place(1, 3, 2, 0, 0, side=1, role=VH.CHASE)
    # (the block over lanes 3-4: one drift, to lanes 1-2, clears it. Over the car's own lanes
    # 2-3 no run-up of one drift clears it and the car stays, session 24:
    # test_no_run_up_onto_a_bend_when_one_drift_cannot_clear_the_block_p13_p17)
    _obstacle(w, 3, 3, 4, 1)
    assert w.T[3, RD.T_KIND] == RD.STRAIGHT and not PO._reverse_may_drift(w.T, w.V, 1)
    assert [_d(w, 1, std, trial=t) for t in range(4)] == [(PO.A_REVERSE, 0)] * 4
    # a space further on, the reverse lands on the straight: it may drift, and does
    w.M[:], w.NM[:] = 0, 0
    w.place(1, 3, 2, 1, 0, side=1, role=VH.CHASE)
    _obstacle(w, 3, 2, 3, 2)
    assert PO._reverse_may_drift(w.T, w.V, 1)
    assert {_d(w, 1, std, trial=t) for t in range(8)} == {(PO.A_REVERSE, -1), (PO.A_REVERSE, 1)}


def test_facing_against_play_with_the_enemy_behind_a_stopped_car_turns_round_p14_p17():
    """Seeded Game Eight gang-pursues draws (150, 941, 3849 and eight more, seed 2026): the Op
    had turned to chase a rider who then left play, drove on against play to the start of the
    stretch of road and stopped there; the last rider, walled in behind it (a road shut from
    edge to edge ahead of it, p76; riders may not reverse, p64), could not come to it, and
    the Op waited until the position repeated. Its way on only runs off the end (p75), away
    from the fight: a competent driver turns round, by a U-turn as it moves off where one may
    be made (p14, p15), else by backing off the end a space towards the enemy (p17) to where
    it may. Not towards an enemy beyond a road shut from edge to edge, and not where the
    Game is won at the line (HP_TAKE_OUT 0: the end of the road is nothing to it)."""
    std = PO.params_vector()
    w, n = _op_near_the_roads_start(0, 0, 0)
    assert PO._track_left(w.T, w.TM, w.V, 3, w.hp) == 0
    assert VH.uturn_zone(w.T, w.TM, w.M, w.NM, w.V, n, 3, False)[0] < 0
    assert not PO._leaves_behind(w.T, w.TM, w.M, w.NM, w.V, n, 3, w.hp)

    def decide(hp=w.hp):
        return PO.decide(w.B, w.T, w.V, w.WS, n, 3, False, hp, std, *_stream(0))

    # at the end: no U-turn there (its space is off the road), so back off it towards the rider
    assert decide() == (PO.A_REVERSE, 0)
    # a space off the end, where the U-turn may be made: turn round as it moves off
    w.place(3, 0, 2, 1, 0, side=1, role=VH.CHASE, kind=1)
    w.V[3, VH.V_DIR] = 1
    assert PO._track_left(w.T, w.TM, w.V, 3, w.hp) == 1
    assert VH.uturn_zone(w.T, w.TM, w.M, w.NM, w.V, n, 3, False)[0] >= 0
    act, arg = decide()
    assert act == PO.A_UTURN and arg > 0
    # the rider beyond a road shut from edge to edge: out of reach, nothing to turn round for
    _obstacle(w, 3, 0, 2)
    _obstacle(w, 3, 3, 5)
    assert PO._beyond_shut_road(w.T, w.M, w.NM, w.V, n, 3, True, True, *w.dice)
    assert decide()[0] not in (PO.A_UTURN, PO.A_REVERSE)
    w.M[:w.NM[0], RD.MK_ACTIVE] = 0
    # where the Game is won at the line the car is not facing the end of anything
    hp0 = w.hp.copy()
    hp0[PO.HP_TAKE_OUT] = 0
    assert decide(hp0)[0] not in (PO.A_UTURN, PO.A_REVERSE)


def test_a_stopped_car_hunting_the_enemy_shoots_rather_than_back_away_from_it_p17():
    """Seeded gang pursues 2605, 2998, 3347, 1997 (seed 2026): the Op, shut in by an obstacle
    past a bend, turned round towards the rider behind it (p14-15), stopped facing it a space
    or two off, and then backed away from it (or waited) with the rider in its hood gun's
    sights; a lead car fired only at a target stopped for good, so the rider's shots went
    unanswered to the turn limit. Where taking the other side out wins (hp's HP_TAKE_OUT), a
    stopped car that is not moving off this turn takes the shot it has: a reverse is the
    turn's action (p17), the two exclude each other. Here the Op faces against play on lanes
    2-3 of section 3, the rider stopped in front of it (able to move), the road the Op came by
    shut past a bend: on the old driver it reversed; in a Game won otherwise it still does
    (on the straight)."""
    for bend in ("S", "BR"):
        for gap in (1, 2):
            w, n, bike = _last_rider_world(("S", "S", "S", "S", bend, "S", "S"))
            _obstacle(w, 5, 0, 2, 0)
            w.place(0, 3, 2, 2, 0, side=0, role=VH.LEAD, kind=1)     # the Op, turned round
            w.V[0, VH.V_DIR] = 1
            w.place(1, 3, 2, 2 - gap, 0, side=1, role=VH.CHASE, kind=bike)
            w.V[1, VH.V_BIKE] = 1
            std = PO.params_vector()
            assert not PO._stuck(w.V, 1)
            assert tuple(PO.best_shot(w.T, w.M, w.NM, w.V, w.WS, n, 0, w.hp, std, w.tbuf)) == (0, 1)
            hp = w.hp.copy()
            assert hp[PO.HP_TAKE_OUT] == 1
            assert PO.decide(w.B, w.T, w.V, w.WS, n, 0, False, hp, std, *_stream(0)) \
                == (PO.A_SHOOT, 0)
            if bend == "S":
                # (on the bend the reverse behind it may not drift, p17, and one drift cannot
                # clear the rider: there it stays and shoots whatever the Game,
                # test_no_run_up_onto_a_bend_when_one_drift_cannot_clear_the_block_p13_p17)
                hp[PO.HP_TAKE_OUT] = 0
                assert PO.decide(w.B, w.T, w.V, w.WS, n, 0, False, hp, std, *_stream(0))[0] \
                    == PO.A_REVERSE


def test_no_run_up_onto_a_bend_when_one_drift_cannot_clear_the_block_p13_p17():
    """Seeded gang pursues 2055 (seed 2026): the Op, turned round, stopped nose to the wreck of
    the rider it had shot, the wreck filling its own two lanes, a bend behind it. A reverse may
    not drift where it ends on a curve (p17), so the driver backed straight onto the bend as a
    run-up to a drift round the block, but one drift (p13) could not clear a block in both its
    lanes: it came on to the same wreck again, three times (backing and filling to the turn
    limit). Where the reverse would end on a bend and no lane beside the block is clear for one
    drift, the car stays (shoots if it can, else waits); with one drift enough it still backs
    straight for the run-up, and on a straight road it still reverses with a drift (p17)."""
    std = PO.policy_vector("standard")

    def position(bend, lo, hi):
        w = World(layout=("S", "S", bend, "S", "S", "S", "S"))
        w.WS[:, :, VH.W_AMMO] = 0
        w.place(1, 0, 2, 0, 0, side=1, role=VH.CHASE)
        w.place(0, 3, 2, 0, 0, side=0, role=VH.LEAD)      # lanes 2-3, a bend behind it
        _obstacle(w, 3, lo, hi, 1)                         # the next space
        return PO.decide(w.B, w.T, w.V, w.WS, 2, 0, False, w.hp, std, *_stream(0))

    for bend in ("BR", "BL"):
        assert position(bend, 2, 3) == (PO.A_NONE, 0)      # the old driver: (A_REVERSE, 0)
        assert position(bend, 3, 4) == (PO.A_REVERSE, 0)   # one drift to lanes 1-2 clears it
    assert position("S", 2, 3) == (PO.A_REVERSE, -1)


def _escaping_towards(k, wreck=False):
    """A lead car on lanes 2-3 at 60mph with its escape acceleration (P_ESCAPE), no guns, a
    pursuer two spaces behind; ``k`` spaces ahead an obstacle strip across the whole road
    (p76), or with ``wreck`` the other car wrecked in its lanes there instead (p57), no
    pursuer, and obstacles on the lanes either side (no way round). Returns (world, the spaces
    it needs to stop from 60 + its acceleration)."""
    w = _lead_with_pursuer(2, mph=60)
    sec, sp = PO._space_ahead(w.T, w.V, 0, 2, k)
    if wreck:
        w.place(1, sec, 2, sp, 0, side=1, role=VH.CHASE)
        w.V[1, VH.V_STATUS] = VH.WRECK
        _obstacle(w, sec, 0, 1, sp)
        _obstacle(w, sec, 4, 5, sp)
    else:
        _obstacle(w, sec, 0, 5, sp)
    brk = w.V[0, VH.V_BRK]
    return w, 1 + (60 + w.V[0, VH.V_ACC] + brk - 1) // brk


def test_no_escape_acceleration_into_a_block_it_cannot_stop_for_p57_p76():
    """Seeded Game Eight intercept 3883: a target at 60mph four spaces short of a road shut by
    obstacles took its escape acceleration to 80mph, from which its brakes (one brake a move,
    after the move, p15-16) could no longer stop it short, and rammed the strip head-on (p57,
    p76: an obstacle is rammed as a wreck). The acceleration is not taken while a block stands
    in the car's lanes within the spaces it would need to stop at the new speed; a block just
    beyond them leaves the escape as it was. Nor, with no pursuer, is the plain speed-up to
    cruising speed (the same fault, without the escape)."""
    std = PO.policy_vector("standard")
    assert std[PO.P_ESCAPE] == 1
    cases = [(False, std), (True, std), (True, PO.params_vector({"escape": 0}))]
    for wreck, par in cases:
        w, need = _escaping_towards(4, wreck)
        assert need >= 4, need       # at 80mph the car cannot stop short of the fourth space
        assert _d(w, 0, par, moves=True)[0] != PO.A_ACCEL, wreck
        w, need = _escaping_towards(need + 1, wreck)
        assert _d(w, 0, par, moves=True) == (PO.A_ACCEL, w.V[0, VH.V_ACC]), wreck


def _falling_behind_towards(k):
    """A chase car with no ammunition on lanes 2-3 at 60mph, the lead car far ahead at 100mph
    (the chase car is falling behind), and, with ``k``, an obstacle strip across the whole road
    ``k`` spaces in front of the chase car (p76)."""
    w = World(layout=("S",) * 9)
    w.WS[:, :, VH.W_AMMO] = 0
    w.place(0, 8, 2, 0, 100, side=0, role=VH.LEAD)
    w.place(1, 0, 2, 0, 60, side=1, role=VH.CHASE)
    if k:
        sec, sp = PO._space_ahead(w.T, w.V, 1, 2, k)
        _obstacle(w, sec, 0, 5, sp)
    return w


def test_a_chase_car_falling_behind_does_not_speed_up_into_a_block_it_cannot_stop_for_p57_p76():
    """The chase car's speed-up when it falls behind (``_decide``: 'speed before shooting')
    obeys the same limit as the lead car's escape: not while a block stands in its lanes within
    the spaces it would need to stop from the new speed (this move, then one brake a move,
    p15-16), which it would ram (p57, p76); a block one space further leaves the speed-up as it
    was. The old driver sped up whatever stood ahead."""
    std = PO.policy_vector("standard")
    act, up = _d(_falling_behind_towards(0), 1, std, moves=True)
    assert act == PO.A_ACCEL and up > 0
    brk = int(_falling_behind_towards(0).V[1, VH.V_BRK])
    need = 1 + (60 + up + brk - 1) // brk
    assert _d(_falling_behind_towards(need), 1, std, moves=True)[0] != PO.A_ACCEL
    assert _d(_falling_behind_towards(need + 1), 1, std, moves=True) == (PO.A_ACCEL, up)


def _intercept_setup(rolls):
    """Game Eight's intercept set up on scripted dice: the three drive skills, then per section
    laid (the fourth to the seventh) a d6 for a curve and one for a road hazard (with its two
    dice when it is a 1). Returns the world and the dice state."""
    w = World(scenario="game-8-intercept.toml")
    st, s = w.script(rolls)
    res = np.zeros(EG.R_W, np.int64)
    EG.setup_game(st, s, w.B, w.V, w.WS, w.FIT, w.common(), w.E, w.EN, res)
    return w, st


def test_the_intercept_sides_set_up_clear_of_the_road_hazards_laid_p76_p89():
    """p89 lays the seven sections first; then the target sets up on the third and the attacker
    on its section: a player sees the road hazards and starts clear of them. Three obstacles
    on the left of the fourth section (lanes 0-2, its three spaces) are one space ahead of the
    target car on lanes 2-3 at the front of the third: it sets up on lanes clear past them
    (lanes 3-4 or 4-5, behind its friend; the dice choose among the four places). The old
    set-up left it there, to ram the strip on turn 1."""
    skills = [3, 3, 3]
    plain = [1, 2] * 4                      # four straights, no hazards
    w, st = _intercept_setup(skills + plain)
    # nothing laid in the way: the scenario's places, no die rolled for them
    assert st[dice.POS] == len(skills + plain)
    assert [tuple(w.V[v, [VH.V_SEC, VH.V_LANE, VH.V_SP]]) for v in range(3)] == \
        [(2, 2, 2), (2, 4, 2), (5, 2, 0)]
    strip = [1, 1, 4, 3] + [1, 2] * 3       # fourth section: a 1, then 4 and 3
    places = set()
    for pick in (1, 2, 3, 4):
        # the target car's pick, then the attacker's: facing back from the sixth section it
        # sees the strip five spaces off on its lanes 2-3 and sets up clear of it too
        w, st = _intercept_setup(skills + strip + [pick, 6])
        assert st[dice.POS] == len(skills + strip) + 2
        places.add(tuple(w.V[0, [VH.V_LANE, VH.V_SP]]))
        assert tuple(w.V[1, [VH.V_SEC, VH.V_LANE, VH.V_SP]]) == (2, 4, 2)   # clear already
        assert tuple(w.V[2, [VH.V_SEC, VH.V_LANE, VH.V_SP]]) == (5, 4, 2)
        starts = [e for e in w.E[:w.EN[0]] if e[3] == EG.EV_START]
        assert tuple(starts[0][4:7]) == (2, *w.V[0, [VH.V_LANE, VH.V_SP]])   # logged there
    assert places == {(3, 0), (3, 1), (4, 0), (4, 1)}
    # markers that only cost a hazard roll count after obstacles: two debris on the right of
    # the fifth section (lanes 3-5, its first two spaces) turn all three cars to the left lanes
    w, st = _intercept_setup(skills + [1, 2, 1, 1, 5, 2] + [1, 2] * 2 + [1, 1, 4])
    assert st[dice.POS] == len(skills) + 13
    assert [tuple(w.V[v, [VH.V_SEC, VH.V_LANE, VH.V_SP]]) for v in range(3)] == \
        [(2, 0, 0), (2, 0, 1), (5, 1, 0)]


def _beside_towards_strip(k, gap=0, other_mph=60):
    """A lead car with no guns at 60mph on lanes 0-1, an enemy car with none on lanes 2-3
    ``gap`` spaces ahead of it (0: level) at ``other_mph``, and a road-edge obstacle strip
    (p76) across lanes 0-2 ``k`` spaces ahead of the lead car: the one pair clear past the
    strip, lanes 3-4, lies beyond the other car's lanes."""
    w = World(layout=("S",) * 9)
    w.WS[:, :, VH.W_AMMO] = 0
    w.place(0, 1, 0, 0, 60, side=0, role=VH.LEAD)
    sec, sp = PO._space_ahead(w.T, w.V, 0, 2, gap)
    w.place(1, sec, 2, sp, other_mph, side=1, role=VH.CHASE)
    sec, sp = PO._space_ahead(w.T, w.V, 0, 0, k)
    _obstacle(w, sec, 0, 2, sp)
    return w


def test_a_car_whose_way_round_a_strip_is_held_beside_it_falls_in_behind_p13_p57_p76():
    """Two cars side by side approach a strip on one road edge (p76); the lanes clear past it
    are held by the moving car beside. The driver on the strip's side used to drift towards
    them anyway (``_route`` counts only what stays put), a drift refused as cutting up the car
    level with it (p13) or blocked, and so kept its lanes until it rammed the strip (p57: a
    ram into a wreck). Now it brakes to fall in behind the other car; once that car is two
    spaces ahead the drift lands behind it, and it drifts as before. Beside a faster car it
    holds its speed (the other draws ahead) while it can still stop short of the strip, but
    does not speed up; where it could no longer stop short it brakes."""
    std = PO.policy_vector("standard")
    # level with it, as fast: brake (the old driver drifted into the refused cut-up)
    assert _d(_beside_towards_strip(5), 0, std, moves=True, trial=0) == (PO.A_BRAKE, 30)
    # a space ahead of it: the drift's landing space is held; brake
    assert _d(_beside_towards_strip(5, gap=1), 0, std, moves=True, trial=0)[0] == PO.A_BRAKE
    # two spaces ahead: the drift lands behind it
    assert _d(_beside_towards_strip(5, gap=2), 0, std, moves=True, trial=0) == (PO.A_DRIFT, 1)
    # beside a faster car, the strip beyond its stopping distance (three spaces from 60mph
    # with brakes of 30): no braking, and no speeding up towards the strip either
    act = _d(_beside_towards_strip(5, other_mph=90), 0, std, moves=True, trial=0)[0]
    assert act not in (PO.A_BRAKE, PO.A_ACCEL, PO.A_DRIFT), act
    # ... within it: brake
    assert _d(_beside_towards_strip(3, other_mph=90), 0, std, moves=True, trial=0)[0] \
        == PO.A_BRAKE


def _nearing_block(k, mph, lane=2, lo=0, hi=5):
    """A lead car with no guns on ``lane``'s pair at ``mph``, a pursuer two spaces behind in
    its lanes, and ``k`` spaces ahead an obstacle strip across lanes ``lo``-``hi`` (p76)."""
    w = _lead_with_pursuer(2, mph=mph, pursuer_lane=lane)
    w.V[0, VH.V_LANE] = lane
    sec, sp = PO._space_ahead(w.T, w.V, 0, lane, k)
    _obstacle(w, sec, lo, hi, sp)
    return w


def test_brakes_in_time_to_stop_short_of_a_block_it_cannot_get_round_p13_p15_p57_p76():
    """Seeded Game Eight intercepts, Game Six and gang pursues: drivers braked for a block in
    their lanes only two spaces off (``_decide``'s step 2), too late from 60mph with brakes of
    30 (one brake a move, after the move, p15-16), and rammed road-hazard strips (p76; a ram
    into an obstacle is one into a wreck, p57). Now a car that holding its speed this move could
    no longer stop short of a block, with more drifts to the clear lane pair than moves before
    it (one drift a move, p13), brakes, as little as keeps the stop (it keeps moving where it
    may: 50mph brakes to 30, not to 20). A block beyond its stop, or one with moves enough to
    drift round it, leaves the choice as it was (it steers)."""
    std = PO.policy_vector("standard")
    brk = int(_nearing_block(3, 60).V[0, VH.V_BRK])
    assert brk == 30
    # the only clear pair three drifts off (lanes 4-5, the car on 1-2): three spaces ahead two
    # moves are too few (the old driver drifted towards it, and rammed the strip)
    assert _d(_nearing_block(3, 60, lane=1, lo=0, hi=3), 0, std, moves=True) == (PO.A_BRAKE, 30)
    assert _d(_nearing_block(3, 50, lane=1, lo=0, hi=3), 0, std, moves=True) == (PO.A_BRAKE, 20)
    # four spaces ahead, three moves for three drifts: it steers, as before
    assert _d(_nearing_block(4, 60, lane=1, lo=0, hi=3), 0, std, moves=True) == (PO.A_DRIFT, 1)
    # two drifts off (the car on 2-3, lanes 0-3 shut: lanes 4-5 clear), three spaces ahead:
    # enough moves, it steers
    assert _d(_nearing_block(3, 60, lane=2, lo=0, hi=3), 0, std, moves=True) == (PO.A_DRIFT, 1)


def test_a_stopped_car_with_no_shot_rams_an_enemy_it_meets_in_one_lane_p55_p17():
    """Seeded Game Eight intercept 2462 (seed 2026): the last target car, out of ammunition,
    stopped on lanes 3-4 two spaces short of the stranded attacker (lanes 2-3, facing it), its
    own side's wreck on lanes 1-2 between them. To line up lane for lane it reversed with a
    drift onto lanes 2-3, where the wreck stood in the way; from there it drove round the wreck
    onto a corner's outside lanes, into the obstacle strip past it, backed off and came on
    again to the turn limit (a backing-and-filling draw). A head-on ram needs only one lane in
    common (p55), so with no shot and the straight move already meeting the enemy car it moves
    off into it (the old driver reversed); with the enemy two lanes over it still lines up by
    reversing with a drift (p17), and a bike met in one lane is not rammed so (that is a
    sideswipe, p71)."""
    std = PO.policy_vector("standard")

    def position(lane, bike=False):
        w = World()
        w.WS[:, :, VH.W_AMMO] = 0
        w.place(0, 1, lane, 1, 0, side=0, role=VH.LEAD)   # the target, stopped
        w.place(1, 2, 2, 0, 0, side=1, role=VH.CHASE)     # the attacker, facing it, stuck
        w.V[1, VH.V_DIR] = 1
        w.V[1, VH.V_ACC] = 0
        w.V[1, VH.V_BIKE] = int(bike)
        _obstacle(w, 1, 1, 2, 2)        # in place of the wreck: lanes 1-2 between them
        assert PO._stuck(w.V, 1)
        hp = w.hp.copy()
        hp[PO.HP_TAKE_OUT] = 1
        return PO.decide(w.B, w.T, w.V, w.WS, 2, 0, False, hp, std, *_stream(0))

    act, arg = position(3)
    assert act == PO.A_ACCEL and 0 < arg <= PO.RAM_MOVE_OFF, (act, arg)  # old: (A_REVERSE, -1)
    assert position(4)[0] == PO.A_REVERSE                 # no lane in common: line up first
    assert position(3, bike=True)[0] != PO.A_ACCEL


def test_an_enemy_left_behind_is_judged_with_play_after_play_turns_round_p75():
    """Once most cars face the other way, play runs the other way (p75): the road is laid
    ahead of them and taken up behind them. Whether a stranded enemy can be left behind
    (`_past_shut_road`, `_leaves_behind`), and which stopped enemy a car going with play lines
    up on (`_stopped_enemy_in_front`), were judged from direction 0 whatever the play, so
    after the change a car going with play counted a stranded rider ahead of it, past a road
    shut edge to edge, as passed (left behind: not hunted, though it can never get by it), and
    one it had passed as still to be got past (seeded intercepts see play turn round in about 3
    games in 100). Here play runs towards lower sections and the Op faces that way."""
    w, n, bike = _last_rider_world(("S",) * 7)
    w.TM[RD.TM_PLAYDIR] = 1
    w.place(0, 3, 2, 1, 0, side=0, role=VH.LEAD, kind=1)       # the Op, going with play
    w.V[0, VH.V_DIR] = 1
    w.place(1, 2, 2, 0, 0, side=1, role=VH.CHASE, kind=bike)   # stranded ahead of it
    w.V[1, VH.V_BIKE] = 1
    w.V[1, VH.V_ENGOFF] = 1
    _obstacle(w, 1, 0, 5)                                      # the road shut past the rider
    assert PO._stuck(w.V, 1)
    # (judged from direction 0, as before: passed already, so left behind and not hunted)
    assert PO._past_shut_road(w.T, w.TM, w.M, w.NM, w.V, n, 0, 1)
    assert not PO._leaves_behind(w.T, w.TM, w.M, w.NM, w.V, n, 0, w.hp)
    assert PO._hunts(w.T, w.TM, w.M, w.NM, w.V, n, 0, w.hp)
    # with the road open past it, driving on with play leaves it behind
    w.M[:], w.NM[:] = 0, 0
    assert not PO._past_shut_road(w.T, w.TM, w.M, w.NM, w.V, n, 0, 1)
    assert PO._leaves_behind(w.T, w.TM, w.M, w.NM, w.V, n, 0, w.hp)
    # a rider the Op has passed (behind it, play's way) is left behind whatever the road is
    # like the other way (the old judgement: shut, not left behind)
    w.place(1, 4, 2, 1, 0, side=1, role=VH.CHASE, kind=bike)
    w.V[1, VH.V_BIKE] = 1
    w.V[1, VH.V_ENGOFF] = 1
    _obstacle(w, 5, 0, 5)
    assert not PO._past_shut_road(w.T, w.TM, w.M, w.NM, w.V, n, 0, 1)
    assert PO._leaves_behind(w.T, w.TM, w.M, w.NM, w.V, n, 0, w.hp)
    # with play the usual way, the same positions read the other way round
    w.TM[RD.TM_PLAYDIR] = 0
    assert PO._past_shut_road(w.T, w.TM, w.M, w.NM, w.V, n, 0, 1)
    # lining up on a stopped enemy ahead (_stopped_enemy_in_front) is for a car going with
    # play: after the change that is the Op facing towards lower sections (it used to be
    # direction 0 only, so the Op lined up on nothing); the gap counts along its own way
    w.place(1, 2, 3, 1, 0, side=1, role=VH.CHASE, kind=bike)   # ahead of it, a lane over
    w.V[1, VH.V_BIKE] = 1
    w.V[1, VH.V_ENGOFF] = 1
    assert PO._stopped_enemy_in_front(w.T, w.TM, w.V, w.WS, n, 0, PO.LINE_UP, w.hp) == -1
    w.TM[RD.TM_PLAYDIR] = 1
    assert PO._stopped_enemy_in_front(w.T, w.TM, w.V, w.WS, n, 0, PO.LINE_UP, w.hp) == 1
    assert PO._gap_to(w.T, w.V, 0, 1) == 2   # section 3 space 0, section 2 space 2
    w.place(1, 4, 3, 0, 0, side=1, role=VH.CHASE, kind=bike)   # behind it: not in front
    assert PO._stopped_enemy_in_front(w.T, w.TM, w.V, w.WS, n, 0, PO.LINE_UP, w.hp) == -1


def test_a_car_walled_off_from_the_enemy_turns_round_where_that_turns_play_p75_p88():
    """Seeded Game Eight intercepts (seed 2026; 48 of the 69 draws before): the last target car
    and the attacker stopped face to face, a road shut from edge to edge between them (p76), no
    shot either way, both waiting until the position repeated. A car facing against play in
    that place already turned round to leave the enemy behind (p75, `_outruns`); the target,
    going with play, waited. Turning round makes its way the majority's (p75: the direction of
    play is the majority's), so the road it leaves is taken up behind it with the attacker on
    it, which beats the attacker (p88). It now turns round (the old driver: it waited); where
    its turn would not turn play, or would leave a team-mate going the old way, it does not."""
    std = PO.params_vector()
    w, n = _intercept_world()
    w.WS[:, :, VH.W_AMMO] = 0
    w.place(0, 0, 0, 0, 0, side=0, role=VH.LEAD)
    w.V[0, VH.V_STATUS] = VH.CRASHED
    w.place(1, 2, 2, 1, 0, side=0, role=VH.LEAD)               # the last target
    w.place(2, 4, 2, 1, 0, side=1, role=VH.CHASE, kind=1)      # the attacker, facing it
    w.V[2, VH.V_DIR] = 1
    _obstacle(w, 3, 0, 5, 1)                                   # the road shut between them
    assert w.hp[PO.HP_OUTRUN] == 1 and w.TM[RD.TM_PLAYDIR] == 0
    assert PO._turns_play(w.V, n, 1)
    act, arg = PO.decide(w.B, w.T, w.V, w.WS, n, 1, False, w.hp, std, *_stream(0))
    assert act == PO.A_UTURN and arg > 0, (act, arg)
    # with its team-mate in play going its way, the turn would leave the team-mate going
    # against the new play (it would leave play, p75): it stays
    w.place(0, 1, 2, 0, 0, side=0, role=VH.LEAD)
    assert not PO._turns_play(w.V, n, 1)
    assert PO.decide(w.B, w.T, w.V, w.WS, n, 1, False, w.hp, std, *_stream(0))[0] != PO.A_UTURN


def _strip_two_ahead(mph, strip_hi):
    """A lead car with no guns on lanes 0-1 of a straight at ``mph``, the chase car far behind,
    and an obstacle strip on lanes 0 to ``strip_hi`` two spaces in front of it (p76)."""
    w = World(layout=("S",) * 9)
    w.WS[:, :, VH.W_AMMO] = 0
    w.place(0, 4, 0, 1, mph, side=0, role=VH.LEAD)
    w.place(1, 0, 4, 0, 30, side=1, role=VH.CHASE)
    sec, sp = PO._space_ahead(w.T, w.V, 0, 0, 2)
    _obstacle(w, sec, 0, strip_hi, sp)
    return w


def test_no_drift_two_spaces_from_a_strip_it_has_not_the_moves_to_get_round_p13_p57_p76():
    """Seeded Game Eight intercept targets (trials 316, 514 and many more, the largest class of
    the cars' obstacle rams): braked from 60 to 30mph three spaces short of an obstacle strip
    over three lanes, then, two spaces off, drifted one lane towards the clear pair three drifts
    away (one drift a move, p13) instead of braking to a stop; the block then stood a space
    ahead of a car still doing 30mph, whose next move (the move comes before the brake,
    p15-16) rammed it (p57, p76). The old driver: (A_DRIFT, 1). Two spaces off with more
    drifts to make than the one move left, the car brakes (as it already did further off);
    with the one drift enough (an obstacle on lane 0 only) it still drifts round at speed. A
    wreck there keeps the old drift: braking for wrecks and stopped cars too stopped hunters
    nose to a wreck with the enemy beyond it, and the seeded intercept's repeated positions
    rose 21 -> 38."""
    std = PO.policy_vector("standard")
    w = _strip_two_ahead(30, 2)
    assert _d(w, 0, std, moves=True) == (PO.A_BRAKE, 30)
    w = _strip_two_ahead(30, 0)
    assert _d(w, 0, std, moves=True) == (PO.A_DRIFT, 1)
    w = _strip_two_ahead(30, 0)
    w.NM[0] = 0                                   # no strip: the other car's wreck instead
    sec, sp = PO._space_ahead(w.T, w.V, 0, 0, 2)
    w.place(1, sec, 0, sp, 0, side=1, role=VH.CHASE)
    w.V[1, VH.V_STATUS] = VH.WRECK
    assert PO._block_plan(w.T, w.M, w.NM, w.V, 2, 0, 30, 30, False) == (2, 2)
    assert _d(w, 0, std, moves=True) == (PO.A_DRIFT, 1)



def _wreck_between_intercept():
    """Game Eight (the intercept) on straights: the last target car (0) stopped on section 3
    lanes 2-3, space 1, facing with play, nose to target#1's wreck (1) in the next space; the
    attacker (2) stopped nose to the wreck's other end, section 4 space 0, facing back in the
    same lanes (seeded intercept 151, 3467, 3879). Every corridor between them runs through the
    wreck (the closest vehicle is the target, p25-26): neither has a shot, and neither has a
    move that gives one (the straight move rams the wreck; each drift lands beside it, where
    the lanes overlap)."""
    w, n = _intercept_world()
    w.place(0, 3, 2, 1, 0, side=0, role=VH.LEAD)
    w.place(1, 3, 2, 2, 0, side=0, role=VH.LEAD)
    w.V[1, VH.V_STATUS] = VH.WRECK
    w.V[1, VH.V_DMG] = 0
    w.place(2, 4, 2, 0, 0, side=1, role=VH.CHASE, kind=1)
    w.V[2, VH.V_DIR] = 1
    return w, n


def test_a_hunter_in_a_standoff_plans_its_way_round_a_wreck_to_a_shot_p14_p17():
    """Issue 15, session 28: the two cars nose to the two ends of a wreck in the same lanes, all
    in play stopped. No one move (p13-15) nor a reverse and a move (p17) gives either a shot;
    the attacker backed off and came on until it had backed off from its place ``P_BACKOFFS``
    times, then waited, and so did the target, until the position repeated (seeded intercept
    151, 485, 3558 ...). It now plans a way of several slow moves round the wreck to a place it
    has a shot from and wins the exchange at, here behind the target, whose guns all face
    forward (p82-83) and cannot answer; remembers it (``V_GOAL``) and keeps to it moving. Its
    own turns through the engine, the target left where it stands: it gets round, stops with
    the target in its sights and shoots it (the old driver: waits, no shot, every turn)."""
    std = PO.params_vector()
    w, n = _wreck_between_intercept()
    pol = np.stack([std] * n)
    for v in (0, 2):
        assert PO.best_shot(w.T, w.M, w.NM, w.V, w.WS, n, v, w.hp, std, w.tbuf)[0] < 0
    for _ in range(int(std[PO.P_BACKOFFS])):
        PO.remember_backing(w.V, 2)    # backed off from here as often as it does
    # the plan: a place with the target in its sights that the target cannot answer from
    V = w.V.copy()
    assert PO._plan_standoff(w.B, w.T, V, w.WS, n, 2, w.hp, std, *_stream(0))
    goal = PO._goal_place(V[2, VH.V_GOAL])
    assert 3 <= V[2, VH.V_GOALN] <= PO.PLAN_MOVES
    mine, theirs = PO._exchange_at(w.T, w.M, w.NM, V, w.WS, n, 2, w.hp, w.tbuf, std[PO.P_SHOOT],
                                   *goal)
    assert mine > 0.0 and theirs == 0.0
    assert _d(w, 2, std, n=n, trial=0)[0] != PO.A_NONE     # the old driver: A_NONE
    # the attacker's own turns through the engine (its moves at 10mph: one phase a turn)
    st, s = _stream(3)
    for turn in range(1, PO.PLAN_MOVES + 1):
        _act(w, st, s, 2, pol, n=n, turn=turn, phase=1)
        assert w.V[2, VH.V_STATUS] == VH.ACTIVE and w.V[2, VH.V_MPH] <= PO.PLAN_MPH
        slot, u = PO.best_shot(w.T, w.M, w.NM, w.V, w.WS, n, 2, w.hp, std, w.tbuf)
        if slot >= 0 and w.V[2, VH.V_MPH] == 0:
            break
    assert u == 0 and w.V[2, VH.V_MPH] == 0, turn
    assert turn <= V[2, VH.V_GOALN] + 2
    assert PO.best_shot(w.T, w.M, w.NM, w.V, w.WS, n, 0, w.hp, std, w.tbuf)[0] < 0
    # it shoots from there (the plan is over: the car stands where it set out for)
    assert _d(w, 2, std, n=n, trial=0) == (PO.A_SHOOT, slot)
    assert w.V[2, VH.V_GOAL] == 0


def _op_shut_in_under_fire():
    """Game Eight (the gang pursuing) on straights: the Op (0), its engine running, stopped on
    section 3's last space in lanes 1-2 facing with play, the road ahead shut edge to edge by
    two staggered strips (section 4 lanes 3-5, its first two spaces; section 5 lanes 0-2, its
    first space); the last rider (1) stopped at its back quarter (lanes 0-1, the space behind),
    guns loaded, the Op in its sights (seeded gang pursues 550, 3187, 3430: 'stopped with a
    move available', the rider shooting to the turn limit)."""
    w, n, bike = _last_rider_world(("S",) * 7)
    w.place(0, 3, 1, 2, 0, side=0, role=VH.LEAD, kind=1)
    w.place(1, 3, 0, 1, 0, side=1, role=VH.CHASE, kind=bike)
    w.V[1, VH.V_BIKE] = 1
    for sp in (0, 1):
        _obstacle(w, 4, 3, 5, sp)
    _obstacle(w, 5, 0, 2, 0)
    return w, n


def test_a_car_shut_in_under_fire_with_no_shot_plans_its_way_to_the_winning_exchange_p13_p17():
    """Issue 15, session 29: the Op shut in front by staggered strips, a rider stopped at its
    back quarter with the only shot, everything in play stopped. The Op's guns face forward
    (p82-83), the U-turn's six-lane zone in the next space holds a strip (p14), the road ahead
    is shut edge to edge: the old driver waited, taking the rider's hits to the turn limit.
    The stand-off planner (session 28) looked for a place only where no one had a shot; where
    the only shots are at the car itself, waiting is no stand-off but a loss by attrition, and
    it plans too. Here the best place is one the rider cannot answer from (its guns fixed
    forward too): behind it in its lanes, by a move on with a drift (p13), a stop and reverses
    with drifts (p17). Its own turns through the engine (the rider left where it stands) bring
    it there, stopped, the rider in its sights and none at it."""
    w, n = _op_shut_in_under_fire()
    std = PO.params_vector()
    pol = np.stack([std] * n)
    assert PO.best_shot(w.T, w.M, w.NM, w.V, w.WS, n, 0, w.hp, std, w.tbuf)[0] < 0
    assert PO.best_shot(w.T, w.M, w.NM, w.V, w.WS, n, 1, w.hp, std, w.tbuf)[1] == 0
    V = w.V.copy()
    assert PO._plan_standoff(w.B, w.T, V, w.WS, n, 0, w.hp, std, *_stream(0))
    goal = PO._goal_place(V[0, VH.V_GOAL])
    mine, theirs = PO._exchange_at(w.T, w.M, w.NM, V, w.WS, n, 0, w.hp, w.tbuf,
                                   std[PO.P_SHOOT], *goal)
    assert mine > 0.0 and mine > theirs
    assert _d(w, 0, std, n=n, trial=0)[0] != PO.A_NONE     # the old driver: A_NONE
    st, s = _stream(3)
    for turn in range(1, PO.PLAN_MOVES + 1):
        _act(w, st, s, 0, pol, n=n, turn=turn, phase=1)
        assert w.V[0, VH.V_STATUS] == VH.ACTIVE and w.V[0, VH.V_MPH] <= PO.PLAN_MPH
        slot, u = PO.best_shot(w.T, w.M, w.NM, w.V, w.WS, n, 0, w.hp, std, w.tbuf)
        if slot >= 0 and w.V[0, VH.V_MPH] == 0:
            break
    assert u == 1 and w.V[0, VH.V_MPH] == 0, turn
    assert turn <= V[0, VH.V_GOALN] + 2
    assert PO.best_shot(w.T, w.M, w.NM, w.V, w.WS, n, 1, w.hp, std, w.tbuf)[0] < 0


def test_a_car_shut_in_grinds_down_a_rider_at_its_back_quarter_p17_p72():
    """Issue 15, session 29 (seeded gang pursues 3187, 3430, 'stopped with a move available' to
    the turn limit): the Op nose to a road shut edge to edge, the last rider stopped in the
    space behind it with one lane in common, shooting it; the Op has no shot (its guns face
    forward, p82-83) and no move but rams: not one, and no plan (``_plan_standoff`` finds no
    place). A reverse into the rider (p17) is a partial ram with a motorcycle, a sideswipe the
    bike automatically loses (p72): the engine hits the bike and not the car. The old driver
    waited (session 26: no end of the bike); with ``ram_bike``'s bit 4, on in every named
    policy, it reverses into it, again each turn (seeded: both games became Op wins). Not with
    bit 4 off, not into a rider facing it (an opposed sideswipe makes the car test too), not
    with its engine out."""
    std = PO.params_vector()
    w, n = _op_shut_in_with_a_rider_behind()
    w.V[1, VH.V_LANE] = 3
    assert PO.best_shot(w.T, w.M, w.NM, w.V, w.WS, n, 0, w.hp, std, w.tbuf)[0] < 0
    assert PO.best_shot(w.T, w.M, w.NM, w.V, w.WS, n, 1, w.hp, std, w.tbuf)[1] == 0
    V = w.V.copy()
    assert not PO._plan_standoff(w.B, w.T, V, w.WS, n, 0, w.hp, std, *_stream(0))

    def decide(par=std):
        return PO.decide(w.B, w.T, w.V, w.WS, n, 0, False, w.hp, par, *_stream(0))

    assert decide() == (PO.A_REVERSE, 0)     # the old driver: A_NONE
    assert decide(PO.params_vector({"ram_bike": 3})) == (PO.A_NONE, 0)
    for _ in range(PO.BACKOFFS):
        PO.remember_backing(w.V, 0)          # no backing off: the ram is made from here
    assert decide() == (PO.A_REVERSE, 0)
    # through the engine: the rider takes the sideswipe's hit, the car none, both stay
    pts, mine = w.V[1, VH.V_DMG], w.V[0, VH.V_DMG]
    st, s = _stream(5)
    pol = np.stack([std] * n)
    for turn in range(1, 4):
        _act(w, st, s, 0, pol, n=n, turn=turn)
    assert w.V[1, VH.V_DMG] < pts and w.V[0, VH.V_DMG] == mine
    assert w.V[0, VH.V_STATUS] == VH.ACTIVE and (w.V[0, VH.V_SEC], w.V[0, VH.V_SP]) == (3, 1)
    # a rider facing it: an opposed sideswipe, the car tests too; its engine out: no move
    w, n = _op_shut_in_with_a_rider_behind()
    w.V[1, VH.V_LANE] = 3
    w.V[1, VH.V_DIR] = 1
    assert not PO._grinds_behind(w.B, w.T, w.V, n, 0)
    w, n = _op_shut_in_with_a_rider_behind()
    w.V[1, VH.V_LANE] = 3
    w.V[0, VH.V_ENGOFF] = 1
    assert not PO._grinds_behind(w.B, w.T, w.V, n, 0)


def _walled_lead_intercept():
    """Game Eight (the intercept), play running towards section 0 (direction 1): the last target
    car (1) stopped facing with play at the end of a bend (section 1, lanes 4-5, space 0),
    target#1 (0) crashed; the attacker (2) stranded, engine out, four sections behind it. On
    section 0, the last laid, an obstacle strip on lanes 3-5 in the first space the target
    meets and debris on lanes 0-2 over that space and the next (seeded intercept 4739, turned
    to section numbers from 0). The way on is over the debris, four lanes over from the car,
    drifting outwards only on the bend (p13) and not at all reversing on it (p17)."""
    w = World(layout=("S", "BR", "S", "S", "S", "S", "S"), scenario="game-8-intercept.toml")
    n = int(w.a.G[EG.G_NV])
    for v in range(n):
        w.WS[v] = w.a.LOAD[v, 0]
    w.TM[RD.TM_PLAYDIR] = 1
    w.place(0, 6, 0, 2, 0, side=0, role=VH.LEAD)
    w.V[0, VH.V_STATUS] = VH.CRASHED
    w.place(1, 1, 4, 0, 0, side=0, role=VH.LEAD)
    w.V[1, VH.V_DIR] = 1
    w.place(2, 5, 3, 2, 0, side=1, role=VH.CHASE, kind=1)
    w.V[2, VH.V_DIR] = 1
    w.V[2, VH.V_ENGOFF] = 1
    _obstacle(w, 0, 3, 5, 2)
    for sp in (1, 2):
        RD._add_marker(w.M, w.NM, RD.DEBRIS, 0, 0, 2, RD.rear_x(w.T, 0, 0, sp),
                       RD.front_x(w.T, 0, 0, sp), 1, -1)
    return w, n


def test_a_car_leaving_a_stranded_enemy_behind_plans_its_way_past_a_block_p13_p17_p75():
    """Issue 15, session 29: every enemy stranded behind it (``_leaves_behind``), the last
    target stands nose to an obstacle strip with the way on over debris four lanes over. It
    backed straight off the bend (p17: no drift reversing on a curve) and came on to the same
    place until it had backed off ``P_BACKOFFS`` times, then waited, the attacker too, until
    the position repeated (seeded intercept 4739): the stand-off planner looked only for a
    place with a shot, and there is none. Driving on with play leaves the attacker off the back
    of the road (p75), which beats it (p88): the planner now takes a place past everything its
    window shows ahead as the goal of a car that leaves every enemy behind and has no shot to
    drive to. Its own turns through the engine bring it there, stopped, within the plan's
    moves (the old driver: waits, every turn). The search it made while the attacker could
    still move is not the last word: a vehicle stranded since changes the table
    (``_table_key``; 4739's attacker ran out of fuel where it stood)."""
    std = PO.params_vector()
    w, n = _walled_lead_intercept()
    pol = np.stack([std] * n)
    assert PO._leaves_behind(w.T, w.TM, w.M, w.NM, w.V, n, 1, w.hp)
    for _ in range(int(std[PO.P_BACKOFFS])):
        PO.remember_backing(w.V, 1)    # backed off from here as often as it does
    # the attacker's engine still running, there is no one to leave behind and no shot: no
    # plan, and the table is remembered ...
    V = w.V.copy()
    V[2, VH.V_ENGOFF] = 0
    assert not PO._plan_standoff(w.B, w.T, V, w.WS, n, 1, w.hp, std, *_stream(0))
    assert V[1, VH.V_GOALN] < 0
    # ... until the engine goes (its fuel out, say) where it stands: the table has changed
    V[2, VH.V_ENGOFF] = 1
    assert PO._plan_standoff(w.B, w.T, V, w.WS, n, 1, w.hp, std, *_stream(0))
    assert 3 <= V[1, VH.V_GOALN] <= PO.PLAN_MOVES
    g = PO._goal_place(V[1, VH.V_GOAL])
    assert (g[0], g[3]) == (0, 1)                  # on section 0, facing with play
    assert _d(w, 1, std, n=n, trial=0)[0] != PO.A_NONE     # the old driver: A_NONE
    st, s = _stream(3)
    for turn in range(1, PO.PLAN_MOVES + 3):
        _act(w, st, s, 1, pol, n=n, turn=turn, phase=1)
        assert w.V[1, VH.V_STATUS] == VH.ACTIVE and w.V[1, VH.V_MPH] <= PO.PLAN_MPH
        if w.V[1, VH.V_MPH] == 0 and w.V[1, VH.V_SEC] == 0:
            break
    assert w.V[1, VH.V_SEC] == 0 and w.V[1, VH.V_MPH] == 0, turn
    assert w.V[1, VH.V_LANE] <= 1     # past the strip, over the debris
    assert turn <= V[1, VH.V_GOALN] + 2


def _wreck_on_a_corner_intercept():
    """Game Eight (the intercept), seeded intercept 3467 as it stood at its repeat: the last
    target (0) stopped on a corner (section 3) on lanes 3-4, space 1, facing with play, nose to
    target#1's wreck (1) in the corner's last space; the attacker (2) stopped past the wreck on
    the straight, section 4 space 1, facing back in the same lanes; debris on section 4's lanes
    0-2 in its first space, an obstacle strip on the inside lanes of the corner after it. The
    corridors between them run through the wreck (p25-26)."""
    w = World(layout=("S", "S", "S", "CR", "S", "S", "CL"), scenario="game-8-intercept.toml")
    n = int(w.a.G[EG.G_NV])
    for v in range(n):
        w.WS[v] = w.a.LOAD[v, 0]
    w.place(0, 3, 3, 1, 0, side=0, role=VH.LEAD)
    w.place(1, 3, 3, 2, 0, side=0, role=VH.LEAD)
    w.V[1, VH.V_STATUS] = VH.WRECK
    w.V[1, VH.V_DMG] = 0
    w.place(2, 4, 3, 1, 0, side=1, role=VH.CHASE, kind=1)
    w.V[2, VH.V_DIR] = 1
    RD._add_marker(w.M, w.NM, RD.DEBRIS, 4, 0, 2, RD.rear_x(w.T, 4, 0, 0),
                   RD.front_x(w.T, 4, 0, 0), 1, -1)
    for sp in range(3):
        _obstacle(w, 6, 0, 2, sp)      # the next corner's inside lanes, end to end
    w.V[0, VH.V_DMG] = 11              # the points each had left
    w.V[2, VH.V_DMG] = 7
    return w, n


def test_a_standoff_plan_reaches_a_shot_more_than_twelve_moves_off_p13_p17():
    """Issue 15, session 29: seeded intercept 3467 repeated its position at turn 15, both cars
    stopped nose to the two ends of a wreck on a corner, neither with a shot. The target's
    places with a shot it wins the exchange at lie more than twelve slow moves off (backing
    off the corner, p17: no drift reversing on a curve; round the wreck outwards on the
    corner, p13; over the debris and round behind the attacker), beyond the twelve moves the
    stand-off plan looked over (``PLAN_MOVES``): it waited. It now looks over twenty and finds
    a way of thirteen (in the seeded game it drove it, turning round on the way, and the fight
    was shot out). The window (two sections either side) bounds the search as before, so it
    costs little (intercept speed level)."""
    std = PO.params_vector()
    w, n = _wreck_on_a_corner_intercept()
    for v in (0, 2):
        assert PO.best_shot(w.T, w.M, w.NM, w.V, w.WS, n, v, w.hp, std, w.tbuf)[0] < 0
    V = w.V.copy()
    assert PO._plan_standoff(w.B, w.T, V, w.WS, n, 0, w.hp, std, *_stream(0))
    # the target's: the old planner (twelve moves) found none and it waited
    assert 12 < V[0, VH.V_GOALN] <= PO.PLAN_MOVES
    goal = PO._goal_place(V[0, VH.V_GOAL])
    mine, theirs = PO._exchange_at(w.T, w.M, w.NM, V, w.WS, n, 0, w.hp, w.tbuf, std[PO.P_SHOOT],
                                   *goal)
    assert mine > theirs


def test_no_backing_and_filling_before_strips_staggered_closer_than_its_drifts_p13_p17_p76():
    """Seeded Game Eight intercept 453 (seed 2026): the last target, stopped on lanes 1-2 at the
    end of a section whose right-hand lanes are an obstacle strip from end to end, a strip on
    the left-hand lanes a space into the next section. The way on is over lanes 3-4, two drifts
    over in the one space between the strips, and a car drifts one lane a move, after its
    straight move (p13): no way. Its driver saw a clear lane pair past the strip and backed off
    to come on again (p17) for twenty turns. The road is shut for this car, as one shut from
    edge to edge (p76): it turns towards the enemy behind it or waits, and does not back off.
    With the second strip a space further on, one drift a space gets round, and the way is
    open (``_weave_shut`` is false). Session 28 measured this and dropped it as 11% slower;
    session 29 keeps it, asked only back at a place the car has backed off from already, the
    answer remembered (``_weave_shut_at``, ``V_WEAVE``)."""
    std = PO.policy_vector("standard")

    def position(gap):
        w = World()
        w.WS[:, :, VH.W_AMMO] = 0
        w.place(1, 1, 4, 0, 0, side=1, role=VH.CHASE)     # the enemy, stopped behind
        w.place(0, 3, 1, 2, 0, side=0, role=VH.LEAD)      # lanes 1-2, the section's last space
        for sp in range(3):
            _obstacle(w, 3, 3, 5, sp)                     # the right-hand strip, end to end
        for sp in range(gap, 3):
            _obstacle(w, 4, 0, 2, sp)                     # the left-hand strip
        _obstacle(w, 5, 0, 2, 0)
        return w

    w = position(1)
    # the first time there it backs off as ever (the search is made only back at the place)
    assert _d(w, 0, std)[0] == PO.A_REVERSE
    PO.remember_backing(w.V, 0)
    act, arg = _d(w, 0, std)
    assert act == PO.A_UTURN, (act, arg)   # towards the enemy; the old driver: (A_REVERSE, 0)
    assert PO._weave_shut(w.T, w.TM, w.M, w.NM, w.V, 2, 0)
    # the answer is remembered with what it was asked on (the car's place, the wrecks and the
    # cars stopped for good, the markers), and asked again when that changes
    key = PO._weave_key(w.TM, w.V, w.NM, 2, 0)
    assert w.V[0, VH.V_WEAVE] == key + 1
    w.V[0, VH.V_WEAVE] = -1 - key              # as if found open here: taken as such
    w.V[1, VH.V_SP] = 1                        # an enemy that can move: the same key
    assert PO._weave_key(w.TM, w.V, w.NM, 2, 0) == key
    assert not PO._weave_shut_at(w.T, w.TM, w.M, w.NM, w.V, 2, 0)
    w.V[1, VH.V_ENGOFF] = 1                    # stranded where it stands: asked again
    assert PO._weave_shut_at(w.T, w.TM, w.M, w.NM, w.V, 2, 0)
    assert w.V[0, VH.V_WEAVE] == PO._weave_key(w.TM, w.V, w.NM, 2, 0) + 1
    w = position(2)
    assert not PO._weave_shut(w.T, w.TM, w.M, w.NM, w.V, 2, 0)
