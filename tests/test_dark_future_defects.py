"""Rule defects of issue 15, each pinned by a test that failed on the code before its fix."""

from pathlib import Path

import numpy as np

from simkit.dark_future import engine as EG
from simkit.dark_future import scenario as GM
from simkit.dark_future.pieces import road as RD
from simkit.dark_future.pieces import vehicle as VH
from test_dark_future_engine import World

ROOT = Path(__file__).resolve().parents[1]
SCEN = ROOT / "scenarios" / "dark-future"


def _turn_ends_too_early(ev, step):
    """(turn, last phase, vehicle, mph) where a vehicle's speed at the next turn's first record
    shows a speed factor above the last phase the turn played (p9, p12)."""
    last = {}
    for t, p, *_ in ev:
        if p > 0:
            last[t] = max(last.get(t, 0), p)
    bad, seen = [], set()
    for t, p, v, code, a, b, c, d, *_ in ev:
        if p != 1 or t - 1 not in last or (t, v) in seen:
            continue
        if code == EG.EV_ACTION and a == EG.A_ACCEL and b == c:
            # moving off from 0mph logs the new speed (= the acceleration asked for); a moving
            # car at exactly its acceleration's mph is skipped with it
            seen.add((t, v))
            continue
        if code == EG.EV_ACTION and a == EG.A_ACCEL:
            mph = c
        elif code == EG.EV_MOVE:
            mph = d
        else:
            continue
        seen.add((t, v))
        if EG.speed_factor(mph, step) > last[t - 1]:
            bad.append((t - 1, last[t - 1], v, mph))
    return bad


def test_turn_goes_on_while_a_car_is_fast_enough_p9_p12():
    """Seeded Game One: both cars reach 100mph (speed factor 5) in phase 2 of turn 1 and must
    move in phases 4 and 5 of that turn."""
    lines, _ = GM.playthrough(SCEN / "game-1.toml", seed=2026)
    text = "\n".join(lines)
    assert "-- turn 1 phase 5" in text
    p4 = text.split("-- turn 1 phase 4")[1].split("-- turn 1 phase 5")[0]
    assert "player-1 moves" in p4 and "player-2 moves" in p4
    for name in ("game-1.toml", "game-6.toml"):
        sc = GM.load_scenario(SCEN / name)
        for trial in range(6):
            ev, _, _, sim = GM.play_one(sc, seed=7, trial=trial)
            assert _turn_ends_too_early(ev, int(sim.a.G[EG.G_SPEED_STEP])) == [], (name, trial)


def _world(scenario):
    return World(scenario=scenario)


def test_side_mounts_fire_forward_p82_p83():
    """'All fixed mounted weapons are forward firing' (p82): the Interceptor's side mounts
    shoot along a lane ahead, not at a car level with the firer."""
    w = _world("game-6.toml")
    # gang cars 0, 1 (side 0), Interceptor 2 (side 1)
    w.place(1, 6, 0, 0, 60, side=0)           # far away, out of the way
    w.place(2, 1, 2, 0, 60, side=1)
    w.place(0, 1, 2, 2, 60, side=0)           # dead ahead on the Interceptor's lanes 2-3
    for m in (VH.M_SIDE_L, VH.M_SIDE_R):
        assert VH.find_target(w.T, w.V, 3, 2, m, w.tbuf) == 0 and w.tbuf[1] == 2, m
    # a car level with the Interceptor on lanes 0-1: no forward corridor reaches it
    w.place(0, 1, 0, 0, 60, side=0)
    assert VH.find_target(w.T, w.V, 3, 2, VH.M_SIDE_L, w.tbuf) == -1
    # a car ahead on lanes 0-1: the left side mount fires along lane 2 (default), or lane 1
    # with the 'beside' reading
    w.place(0, 1, 0, 2, 60, side=0)
    assert VH.find_target(w.T, w.V, 3, 2, VH.M_SIDE_L, w.tbuf) == -1
    w.V[2, VH.V_SIDEREACH] = 1
    assert VH.find_target(w.T, w.V, 3, 2, VH.M_SIDE_L, w.tbuf) == 0
    assert VH.find_target(w.T, w.V, 3, 2, VH.M_SIDE_R, w.tbuf) == -1


def test_side_mount_variant_reaches_the_engine():
    for choice, reach in (("own_lane", 0), ("beside", 1)):
        sc = GM.load_scenario(SCEN / "game-6.toml", variants={"side_mount_corridor": choice})
        assert GM.GameSim(sc).a.G[EG.G_SIDE_CORRIDOR] == reach


def _spikes(rolls, variants=None):
    """A Renegade at 60mph runs onto spikes ahead in its lanes on scripted dice; returns the
    world and the number of dice used."""
    from simkit.core import dice
    from simkit.dark_future.pieces import road as RD
    w = World(layout=("S", "S", "S"))
    if variants:
        w.a.G[EG.G_SPIKE_RULE] = variants
    w.place(0, 0, 2, 2, 60)
    w.place(1, 2, 0, 2, 0)
    x0, x1 = RD.rear_x(w.T, 1, 2, 0), RD.front_x(w.T, 1, 2, 0)
    RD._add_marker(w.M, w.NM, RD.SPIKES, 1, 2, 3, x0, x1, 0, 1)
    st, s = w.script(rolls)
    EG._advance(st, s, w.B, w.V, w.WS, w.FIT, 2, 0, EG.Move(0, True, False), w.common(),
                EG.Log(w.E, w.EN, 1, 1))
    return w, int(st[dice.POS])


def test_spikes_do_nothing_below_six_and_a_six_is_a_wheel_critical_p30():
    dmg0 = None
    for r in (1, 4, 5):
        w, used = _spikes([r])
        dmg0 = w.V[0, VH.V_MAXDMG]
        assert w.V[0, VH.V_DMG] == dmg0 and used == 1, r        # 'no effect'
        assert w.V[0, VH.V_TYRE] == 0 and w.V[0, VH.V_HAND] == 4
    # a 6: no damage (0 damage, armour 3), a wheel critical: floor hit 1-4 front wheels, then
    # the Wheels table (p34): 1 brake pipe (no tyre lost, handling untouched)
    w, used = _spikes([6, 1, 1])
    assert w.V[0, VH.V_DMG] == dmg0 and used == 3
    assert w.V[0, VH.V_TYRE] == 0 and w.V[0, VH.V_HAND] == 4
    # a 6, then a 5 on the Wheels table: tyre destroyed, handling -2 (its 20mph hazard roll
    # follows: a 6 on it is no trouble)
    w, used = _spikes([6, 1, 5, 6, 6, 6])
    assert w.V[0, VH.V_DMG] == dmg0 and w.V[0, VH.V_HAND] == 2
    # the reference sheet's reading as a variant: base damage d6 - armour, a 6 a tyre destroyed
    w, used = _spikes([5], variants=1)
    assert w.V[0, VH.V_DMG] == dmg0 - 2
    sc = GM.load_scenario(SCEN / "game-1.toml", variants={"spike_damage": "reference_sheet"})
    assert GM.GameSim(sc).a.G[EG.G_SPIKE_RULE] == 1
    assert GM.GameSim(GM.load_scenario(SCEN / "game-1.toml")).a.G[EG.G_SPIKE_RULE] == 0


def test_above_a_reduced_maximum_the_car_slows_5mph_a_move_p15_p16():
    """'Its acceleration is therefore treated as being zero ... until its speed has reached the
    new limit' (p15): a car left at 100mph under an 80mph maximum loses 5mph after each move
    (p15: zero acceleration), not 20mph at once."""
    w = World(layout=("S", "S", "S"))
    w.place(0, 0, 2, 2, 100)
    w.place(1, 2, 0, 2, 0)
    w.V[0, VH.V_MAXSPD] = 80
    speeds = []
    for _ in range(5):
        st, s = w.script([6] * 4)
        EG._after_move(st, s, w.T, w.V, 0, w.G, EG.Log(w.E, w.EN, 1, 1), w.K, 0, w.hp)
        speeds.append(int(w.V[0, VH.V_MPH]))
    assert speeds == [95, 90, 85, 80, 80]


def _verdict(w, lead_side=0):
    res = np.zeros(EG.R_W, np.int64)
    res[EG.R_WINNER] = -1
    ended = EG._verdict(w.V, w.WS, w.V.shape[0], w.G, res, lead_side)
    return ended, int(res[EG.R_WINNER])


def test_game_six_a_stopped_car_with_weapons_is_not_beaten_p88():
    """Game Six ends when one side is 'wrecked, crashed or immobilised without weapons'."""
    w = World(scenario="game-6.toml")     # gang 0, 1 (side 0); the Op 2 (side 1)
    for v, side in ((0, 0), (1, 0), (2, 1)):
        w.place(v, v, 2, 0, 60, side=side)
        w.WS[v] = w.a.LOAD[v, 0]
    # the Op's engine is dead and it has stopped, but its autocannon still works
    w.V[2, VH.V_MPH] = 0
    w.V[2, VH.V_ENGOFF] = 1
    assert _verdict(w) == (False, -1)
    # out of ammunition as well: now it is beaten
    w.WS[2, :, VH.W_AMMO] = 0
    assert _verdict(w) == (True, 0)


def test_game_seven_gang_against_gang_p89():
    """The attacker wins only when the whole target gang is taken out; a target vehicle that
    got out of play is not taken out; the target wins by escaping or by taking out or
    outdistancing the attackers."""
    sc = GM.load_scenario(SCEN / "game-7.toml")
    assert sc.victory == "gangs"
    w = World(scenario="game-7.toml")     # target 0-2 (side 0, lead), attacker 3-5 (side 1)
    n = w.V.shape[0]
    assert w.G[EG.G_VICTORY] == EG.VICTORY_GANGS

    def reset():
        for v in range(n):
            side = 0 if v < 3 else 1
            w.place(v, v, 2, 0, 60, side=side, kind=int(w.V[v, VH.V_KIND]))
            w.V[v, VH.V_SIDE] = side
            w.WS[v] = w.a.LOAD[v, 0]
    reset()
    assert _verdict(w) == (False, -1)
    # two target bikes taken out, the third left play: no attacker victory (not a draw on time
    # either: the game is over, neither claim met)
    w.V[0, VH.V_STATUS] = w.V[1, VH.V_STATUS] = VH.WRECK
    w.V[2, VH.V_STATUS] = VH.LEFT
    assert _verdict(w) == (True, -1)
    # every target vehicle taken out: the attacker wins
    w.V[2, VH.V_STATUS] = VH.CRASHED
    assert _verdict(w) == (True, 1)
    # every target vehicle safely out of play: the target wins
    for v in range(3):
        w.V[v, VH.V_STATUS] = VH.LEFT
    assert _verdict(w) == (True, 0)
    # the attackers taken out or outdistanced, a target still in play: the target wins
    reset()
    w.V[3, VH.V_STATUS] = VH.WRECK
    w.V[4, VH.V_STATUS] = w.V[5, VH.V_STATUS] = VH.LEFT
    assert _verdict(w) == (True, 0)


def test_a_train_removes_every_vehicle_on_the_crossing_p76():
    """'The vehicle and all others on the railroad section are removed from play immediately.'"""
    from simkit.dark_future.pieces import road as RD
    w = World(layout=("S", "S", "S"))
    w.place(0, 0, 2, 2, 60)
    w.place(1, 1, 0, 0, 0)             # stopped on the crossing, in the other lanes
    x0, x1 = RD.rear_x(w.T, 1, 2, 0), RD.front_x(w.T, 1, 2, 0)
    RD._add_marker(w.M, w.NM, RD.RAIL, 1, 0, RD.LANES - 1, x0, x1, 1, -1)
    st, s = w.script([1, 1])           # the double 1: the express train
    EG._advance(st, s, w.B, w.V, w.WS, w.FIT, 2, 0, EG.Move(0, True, False), w.common(),
                EG.Log(w.E, w.EN, 1, 1))
    assert w.V[0, VH.V_STATUS] == VH.CRASHED
    assert w.V[1, VH.V_STATUS] == VH.CRASHED


def test_the_lead_cars_start_speed_veto_is_the_drivers_choice_p88(monkeypatch):
    """'The driver of the lead car may choose to roll again on any score of 8 or more': a
    driver that keeps speeds up to 120mph starts some games at 80-90mph; the named drivers
    (P_VETO 0) re-roll every time the rule lets them."""
    from simkit.dark_future import policies as PO
    sc = GM.load_scenario(SCEN / "game-3.toml")

    def starts():
        out = set()
        for trial in range(40):
            ev, res, _, _ = GM.play_one(sc, seed=11, trial=trial, max_events=200)
            out |= {int(e[7]) for e in ev if e[3] == EG.EV_START}
        return out
    assert max(starts()) <= 70
    orig = PO.policy_vector

    def keeps_speed(name):
        v = orig(name)
        v[PO.P_VETO] = 120
        return v
    monkeypatch.setattr(PO, "policy_vector", keeps_speed)
    assert {80, 90} & starts()


def _move_off(w, phase, mph=0):
    """Car 0 stopped (or at ``mph``) on a straight, its driver accelerating: its speed and
    space after its action in ``phase``."""
    from simkit.dark_future import policies as PO
    w.place(0, 1, 2, 0, mph)
    w.place(1, 4, 0, 0, 0)
    w.WS[:, :, VH.W_AMMO] = 0
    pol = np.stack([PO.policy_vector("standard")] * 2)
    st, s = w.script([])
    EG._act(st, s, w.B, w.V, w.WS, w.FIT, 2, 0, w.common(pol), EG.Log(w.E, w.EN, 1, phase))
    return int(w.V[0, VH.V_MPH]), int(w.V[0, VH.V_SP])


def test_a_car_moving_off_moves_in_phase_1_p15():
    """'The only exception is the case of a vehicle which is stationary at the beginning of
    phase 1. In this case, the vehicle is allowed to accelerate ..., and is moved after all
    other vehicles' (p15; the phase order already puts stationary vehicles last). A stopped
    car accelerating in phase 1 now moves in phase 1, one space at its new speed; before, it
    only set its speed and first moved in the next phase. Later in the turn a stopped car is
    'not going fast enough to move in the current phase', so its action 'may only be shoot':
    an acceleration there no longer sets its speed for the next phase either."""
    w = World(layout=("S",) * 7)
    mph, sp = _move_off(w, 1)
    assert mph == w.V[0, VH.V_ACC] > 0 and sp == 1
    assert [e[4] for e in w.E[:w.EN[0]] if e[3] == EG.EV_ACTION] == [EG.A_ACCEL]
    w = World(layout=("S",) * 7)
    assert _move_off(w, 2) == (0, 0)


def test_game_seven_a_target_taken_out_stays_taken_out_when_its_section_is_removed_p75_p89():
    """p75: vehicles on a section removed from the back of the stretch leave play; p89: the
    target gang wins by getting its vehicles 'safely out of play', the attacker by taking the
    whole gang out. A target bike wrecked, or stopped for good without weapons (p88), was
    taken out before its section went: it did not get away. It used to count as escaped, which
    turned the attacker's win into a draw. A target still running when removed did leave play."""
    from simkit.core import dice
    w = World(scenario="game-7.toml")     # target 0-2 (side 0, lead), attacker 3-5 (side 1)
    n = w.V.shape[0]
    for v in range(n):
        side = 0 if v < 3 else 1
        w.place(v, 6, 2, 0, 60, side=side, kind=int(w.V[v, VH.V_KIND]))
        w.V[v, VH.V_SIDE] = side
        w.V[v, VH.V_ROLE] = VH.LEAD if side == 0 else VH.CHASE
        w.WS[v] = w.a.LOAD[v, 0]
    w.V[0, VH.V_SEC] = w.V[1, VH.V_SEC] = 0
    w.V[0, VH.V_STATUS] = VH.WRECK
    w.V[0, VH.V_MPH] = 0
    w.V[1, VH.V_MPH] = 0
    w.V[1, VH.V_ENGOFF] = 1                 # stopped for good
    w.WS[1, :, VH.W_AMMO] = 0               # and nothing left to shoot with
    w.V[2, VH.V_STATUS] = VH.CRASHED        # the third taken out in play
    w.TM[RD.TM_ENDED] = 0                   # a continuous track (p75)
    st = dice.new_state()
    dice.set_scripted(st)
    EG._extend_track(st, np.full(40, 2, np.int64), w.B, w.V, w.WS, n, w.common(),
                     EG.Log(w.E, w.EN, 1, 1))
    assert w.V[0, VH.V_STATUS] == VH.LEFT and w.V[1, VH.V_STATUS] == VH.LEFT
    assert _verdict(w) == (True, 1)         # the whole target gang taken out
    # the same with the second bike still able to move when its section went: it got away
    w.V[1, VH.V_STATUS] = VH.ACTIVE
    w.V[1, VH.V_ENGOFF] = 0
    w.V[1, VH.V_SEC] = 0
    w.V[1, VH.V_LEFTOUT] = 0
    w.TM[...] = RD.track_from_layout(["S"] * 7)[1]
    w.TM[RD.TM_ENDED] = 0
    EG._extend_track(st, np.full(40, 2, np.int64), w.B, w.V, w.WS, n, w.common(),
                     EG.Log(w.E, w.EN, 1, 1))
    assert w.V[1, VH.V_STATUS] == VH.LEFT
    assert _verdict(w) == (True, -1)        # partly escaped, partly taken out: a draw
