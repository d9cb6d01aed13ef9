"""Evidence for coverage rows that rested on a golden log (issue 15, 'Evidence'): the phase
order and turn sequence (p8-12), each Game's set-up and victory condition (p87-89), the 27
safety limits of p38 and where the engine reads each, a panic brake costing the move in the
engine (p41), and the spike roll at every face and speed (p30)."""

from pathlib import Path

import numpy as np
import pytest

from simkit.dark_future import engine as EG
from simkit.dark_future import scenario as GM
from simkit.dark_future import policies as PO
from simkit.dark_future.pieces import road as RD
from simkit.dark_future import rules as R
from simkit.dark_future.pieces import vehicle as VH
from simkit.core import dice

from test_dark_future_engine import World

SCEN = Path(__file__).resolve().parents[1] / "scenarios" / "dark-future"


# --- the turn sequence (p8-12) ---------------------------------------------------------------
def test_phase_order_p12():
    """Fastest first; at equal speed the one in front; neck and neck a d6 each, the lower
    moves first (a tie rolls again); wrecks and crashed vehicles have no place."""
    w = World(scenario="game-6.toml")
    order = np.zeros(4, np.int64)
    w.place(0, 1, 0, 0, 60)
    w.place(1, 1, 2, 1, 60)          # level speed, one space in front of 0
    w.place(2, 0, 2, 0, 90)          # fastest, furthest back
    w.place(3, 1, 4, 0, 60)          # neck and neck with 0
    st, s = w.script([5, 2])         # 0 rolls 5, 3 rolls 2: 3 first
    k = EG._order(st, s, w.T, w.V, 4, order)
    assert k == 4 and list(order) == [2, 1, 3, 0] and st[dice.POS] == 2
    st, s = w.script([3, 3, 1, 4])   # a tie rolls again; 0 lower now
    EG._order(st, s, w.T, w.V, 4, order)
    assert list(order) == [2, 1, 0, 3] and st[dice.POS] == 4
    w.V[2, VH.V_STATUS] = VH.WRECK
    st, s = w.script([1, 2])
    assert EG._order(st, s, w.T, w.V, 4, order) == 3 and 2 not in order[:3]


@pytest.mark.parametrize("name", ["game-1", "game-6"])
def test_turn_sequence_in_seeded_games_p8_p12(name):
    """Over 40 seeded, recorded games: phases run 1, 2, ... without gaps and the phase order
    is by the speeds at the phase's start; each vehicle acts at most once a phase, declares
    before it moves, and shoots or lays passives only after its move (p9, p11, p22-25);
    a vehicle that moved does so at a speed factor that reaches the phase (or one changed by
    its own move), and phase 1 is always played."""
    sc = GM.load_scenario(SCEN / f"{name}.toml")
    for trial in range(40):
        ev, res, world, sim = GM.play_one(sc, seed=11, trial=trial)
        phases = {}
        seen = {}
        for i, e in enumerate(ev):
            turn, phase, v, code = (int(x) for x in e[:4])
            if turn <= 0:
                continue
            if code == EG.EV_PHASE:
                phases.setdefault(turn, []).append(phase)
            if v < 0 or phase <= 0:
                continue
            seen.setdefault((turn, phase, v), []).append((i, code))
        for turn, ps in phases.items():
            assert ps == list(range(1, len(ps) + 1)), (trial, turn, ps)
        for key, evs in seen.items():
            codes = [c for _, c in evs]
            assert codes.count(EG.EV_MOVE) <= 1, (trial, key, codes)
            if EG.EV_MOVE in codes:
                m = codes.index(EG.EV_MOVE)
                assert EG.EV_ACTION not in codes[m + 1:], (trial, key, codes)
                # (a shot of its own, not one it received: EV_SHOT is logged by the firer)
                assert EG.EV_SHOT not in codes[:m] and EG.EV_PASSIVE not in codes[:m], \
                    (trial, key, codes)


# --- set-ups (p87-89) ---------------------------------------------------------------------------
def _setups(name, trials=60, seed=5):
    sc = GM.load_scenario(SCEN / f"{name}.toml")
    out = []
    for t in range(trials):
        ev, res, world, sim = GM.play_one(sc, seed=seed, trial=t)
        starts = {int(e[2]): (int(e[4]), int(e[5]), int(e[6]), int(e[7]))
                  for e in ev if e[0] == 0 and e[3] == EG.EV_START}
        info = {int(e[2]): (int(e[4]), int(e[5]), int(e[6]))
                for e in ev if e[0] == 0 and e[3] == EG.EV_SPEED}
        out.append((res, starts, info, world, sim))
    return sc, out


def test_game_one_and_two_set_up_p87():
    """Games One and Two: Renegades with a hood MG and an oil layer, drive skill 3, both at
    60mph; the chase car on the first section, the lead car on the one in front; the lead
    decided by a die (both sides lead in some games)."""
    for name in ("game-1", "game-2"):
        sc, games = _setups(name)
        leads = set()
        for res, starts, info, world, sim in games:
            V = world[4]
            assert {s[3] for s in starts.values()} == {60}
            lead = int(res[EG.R_LEAD_SIDE])
            leads.add(lead)
            for v, (sec, lane, sp, mph) in starts.items():
                role = info[v][2]
                assert role == (VH.LEAD if V[v, VH.V_SIDE] == lead else VH.CHASE)
                assert sec == (0 if role == VH.CHASE else 1), (name, v, sec)
                assert info[v][0] == 3                               # drive skill 3
        assert leads == {0, 1}
        for side in sc.sides:
            for loads in side.cars:
                assert GM._compact(loads[0]) == "renegade: hood=mg, passive=oil"
    # Game One is seven straights
    assert GM.GameSim(GM.load_scenario(SCEN / "game-1.toml")).a.G[EG.G_MODE] == EG.MODE_FIXED


def test_rolled_start_speeds_p88():
    """Games Three to Six: 2d6 x 10mph, re-rolled on 2-4 and on 10 or more; the lead car's
    driver re-rolls 8 or more (the standard driver always does), so 50, 60 or 70mph."""
    for name in ("game-3", "game-4", "game-5", "game-6"):
        sc, games = _setups(name, trials=40)
        speeds = {s[3] for _, starts, _, world, _ in games for v, s in starts.items()
                  if world[4][v, VH.V_MAXSPD] >= 70}
        assert speeds <= {50, 60, 70} and len(speeds) >= 2, (name, speeds)


def test_game_four_and_five_drive_skill_table_p88():
    sc = GM.load_scenario(SCEN / "game-4.toml")
    assert list(GM.GameSim(sc).a.SKILLS) == [2, 3, 3, 3, 4, 5]
    for name in ("game-4", "game-5"):
        sc, games = _setups(name, trials=40)
        skills = [info[v][0] for _, _, info, _, _ in games for v in info]
        assert set(skills) <= {2, 3, 4, 5} and skills.count(3) > skills.count(5)


def test_game_six_set_up_p88():
    """Game Six: the gang always leads; continuous track; each side within $100,000; every
    vehicle armed; the gang is one of the book's minimums."""
    sc, games = _setups("game-6", trials=20)
    gang = [s.name for s in sc.sides].index("gang")
    for res, starts, info, world, sim in games:
        assert int(res[EG.R_LEAD_SIDE]) == gang
    a = GM.GameSim(sc).a
    assert a.G[EG.G_MODE] == EG.MODE_CONTINUOUS and a.G[EG.G_VICTORY] == EG.VICTORY_DESTROY
    kinds = [loads[0].vehicle for loads in sc.sides[gang].cars]
    assert sorted(kinds) in (["renegade", "renegade"], ["bike"] * 3, ["bike", "bike", "renegade"])
    op = [s for s in sc.sides if s.name != "gang"][0]
    assert [loads[0].vehicle for loads in op.cars] == ["interceptor"]
    for side in sc.sides:
        assert side.budget == 100_000 and side.budget_scope == "side"
        for loads in side.cars:
            assert loads[0].mounts                               # at least one weapon


# --- victory conditions (p87-89) -----------------------------------------------------------------
def _verdict(w, victory, lead=0):
    n = w.V.shape[0]
    w.a.G[EG.G_VICTORY] = victory
    res = np.zeros(EG.R_W, np.int64)
    res[EG.R_WINNER] = -1
    ended = EG._verdict(w.V, w.WS, n, w.a.G, res, lead)
    return ended, int(res[EG.R_WINNER]), int(res[EG.R_REASON])


def test_victory_conditions_games_one_to_five_p87():
    """The lead car wins by crossing the finish; the pursuer only by stopping it reaching the
    line (a lead car stopped for good); a chase car off the end is simply out."""
    w = World()
    for v in (0, 1):
        w.place(v, 2, 2, v, 60, side=v, role=v)
        w.WS[v] = w.a.LOAD[v, 0]
    assert _verdict(w, EG.VICTORY_FINISH) == (False, -1, 0)
    w.V[0, VH.V_STATUS] = VH.FINISHED
    assert _verdict(w, EG.VICTORY_FINISH) == (True, 0, EG.REASON_FINISH)
    w.V[0, VH.V_STATUS] = VH.ACTIVE
    w.V[1, VH.V_STATUS] = VH.FINISHED                # the chase car over the line: no win
    assert _verdict(w, EG.VICTORY_FINISH)[0] is False
    w.V[1, VH.V_STATUS] = VH.ACTIVE
    w.V[0, VH.V_MPH] = 0
    w.V[0, VH.V_ENGOFF] = 1                           # the lead car stopped for good
    assert _verdict(w, EG.VICTORY_FINISH) == (True, 1, EG.REASON_LEAD_OUT)
    w.V[0, VH.V_ENGOFF] = 0
    assert _verdict(w, EG.VICTORY_FINISH)[0] is False  # stopped but able to move off
    w.V[0, VH.V_STATUS] = VH.WRECK
    assert _verdict(w, EG.VICTORY_FINISH) == (True, 1, EG.REASON_LEAD_OUT)


def test_victory_condition_game_six_p88():
    """'Until all the vehicles on one side are either wrecked, crashed or immobilised without
    weapons': each way of going out ends the game; a stopped vehicle with a gun stays in."""
    w = World(scenario="game-6.toml")
    n = w.V.shape[0]
    for v in range(n):
        w.WS[v] = w.a.LOAD[v, 0]
        w.place(v, 2, 0 if v < 3 else 2, v % 3, 60, side=0 if v < 3 else 1,
                role=VH.LEAD if v < 3 else VH.CHASE, kind=1 if v == 3 else 0)
    assert _verdict(w, EG.VICTORY_DESTROY) == (False, -1, 0)
    w.V[0, VH.V_STATUS] = VH.WRECK
    w.V[1, VH.V_STATUS] = VH.CRASHED
    assert _verdict(w, EG.VICTORY_DESTROY)[0] is False
    w.V[2, VH.V_MPH] = 0
    w.V[2, VH.V_ENGOFF] = 1                           # immobilised, still armed: in
    assert _verdict(w, EG.VICTORY_DESTROY)[0] is False
    w.WS[2, :, VH.W_AMMO] = 0                         # ... and without weapons: out
    assert _verdict(w, EG.VICTORY_DESTROY) == (True, 1, EG.REASON_SIDE_OUT)
    w.WS[2] = w.a.LOAD[2, 0]
    w.V[2, VH.V_STATUS] = VH.LEFT                     # outdistanced off the back (p75)
    assert _verdict(w, EG.VICTORY_DESTROY) == (True, 1, EG.REASON_SIDE_OUT)
    w.V[3, VH.V_STATUS] = VH.CRASHED                  # both sides gone together: a draw
    assert _verdict(w, EG.VICTORY_DESTROY) == (True, -1, EG.REASON_SIDE_OUT)


def test_victory_mode_of_every_game_p87_p89():
    modes = {"game-1": EG.VICTORY_FINISH, "game-2": EG.VICTORY_FINISH,
             "game-3": EG.VICTORY_FINISH, "game-4": EG.VICTORY_FINISH,
             "game-5": EG.VICTORY_FINISH, "game-6": EG.VICTORY_DESTROY,
             "game-7": EG.VICTORY_GANGS, "game-8": EG.VICTORY_DESTROY,
             "game-8-gang-pursues": EG.VICTORY_DESTROY, "game-8-intercept": EG.VICTORY_DESTROY}
    for name, mode in modes.items():
        a = GM.GameSim(GM.load_scenario(SCEN / f"{name}.toml")).a
        assert a.G[EG.G_VICTORY] == mode, name
    # Game Five: initial generation, whose seventh section ends the track (p74, p88)
    a = GM.GameSim(GM.load_scenario(SCEN / "game-5.toml")).a
    assert a.G[EG.G_MODE] == EG.MODE_INITIAL


# --- safety limits (p38) -------------------------------------------------------------------------
# The book's list, as printed (p38; p13 drift, p14 U-turn, p30 passives, p64 bikes, p76 road
# hazards), and where the engine takes each one: a column of G, or the critical result's own
# hazard in criticals.toml.
P38 = {
    "sideswipe_neck_and_neck_loser": (40, "G_L_SS_NN"),
    "sideswipe_opposed_winner": (40, "G_L_SS_OPP_W"),
    "sideswipe_opposed_loser": (20, "G_L_SS_OPP_L"),
    "shunt": (40, "G_L_SHUNT"),
    "drift": (80, "G_L_DRIFT"),
    "uturn": (10, "G_L_UTURN"),
    "bike_overlap_neck_and_neck": (80, "G_L_OVERLAP"),
    "bike_overlap_opposed": (40, "G_L_OVERLAP_OPP"),
    "bike_dodge": (40, "G_L_DODGE"),
    "oil_straight": (60, "G_L_OIL_S"),
    "oil_other": (30, "G_L_OIL_O"),
    "pattern_mine": (50, "G_L_MINE"),
    "pattern_mine_double": (30, "G_L_MINE2"),
    "smoke": (60, "G_L_SMOKE"),
    "sand": (30, "G_L_SAND"),
    "debris": (10, "G_L_DEBRIS"),
    "railroad": (60, "G_L_RAIL"),
    "he_small": (50, "G_HE_SMALL"),
    "he_large": (30, "G_HE_LARGE"),
    "tyre_destroyed": (20, "G_L_TYRE"),
    "broken_axle": (40, "G_L_AXLE"),
    "shattered_screen": (30, ("bodywork", "screen")),
    "driver_hurt": (40, ("driver", "hurt")),
    "driver_injured": (20, ("driver", "injured")),
    "exploding_weapon": (30, "he_large"),
    "exploding_engine": (50, "he_small"),
    "exploding_fuel": (30, "he_large"),
}


def test_all_27_safety_limits_p38_and_where_the_engine_reads_them():
    lim = R.base_rules().table("safety_limits")["limits"]
    assert len(P38) == 27 and set(lim) == set(P38)
    G = GM.GameSim(GM.load_scenario(SCEN / "game-6.toml")).a.G
    results = R.base_rules().table("car_critical_results")["rows"]
    for name, (mph, where) in P38.items():
        assert lim[name] == mph, name
        if isinstance(where, str) and where.startswith("G_"):
            assert G[getattr(EG, where)] == mph, name           # the engine's own array
        elif isinstance(where, tuple):
            # critical results that force their own test carry it in criticals.toml
            loc, res = where
            effects = [e for e in results[loc] if e.get("name") == res]
            assert effects and all(e.get("hazard") == mph for e in effects), name
        else:
            # explosions are HE hits whose roll is the HE hit's own (p34, p38)
            assert lim[where] == mph, name
    # the explosions: a weapon, the fuel tank (+8 HE) and the engine (+2 HE)
    def he(loc, name):
        return [e for e in results[loc] if e.get("name") == name][0]["explosion"]
    assert he("engine", "explosion") <= G[EG.G_HE_SMALL_MAX] < he("fuel", "explodes")


def test_changing_a_limit_in_the_engines_array_changes_the_test():
    """The engine reads the limits from its arrays, not literals: a move through smoke gathers
    the book's 60mph limit for its hazard rolls, and 70 with the array's limit raised."""
    def run(limit):
        w = World(layout=("S", "S", "S"))
        w.a.G[EG.G_L_SMOKE] = limit
        w.place(0, 0, 2, 2, 61)
        w.place(1, 2, 0, 2, 0)
        x0, x1 = RD.rear_x(w.T, 1, 2, 0), RD.front_x(w.T, 1, 2, 0)
        RD._add_marker(w.M, w.NM, RD.SMOKE, 1, 2, 3, x0, x1, 0, 1)
        st, s = w.script([1] * 6)
        nl = EG._advance(st, s, w.B, w.V, w.WS, w.FIT, 2, 0, EG.Move(0, True, False), w.common(),
                         EG.Log(w.E, w.EN, 1, 1))
        return list(w.lim[:nl])        # the limits the move's hazard rolls are taken against
    assert 60 in run(60) and 70 in run(70) and 60 not in run(70)


# --- a panic brake costs the move (p41) ---------------------------------------------------------
def test_panic_brake_costs_the_move_in_the_engine_p41():
    """p41's example in the engine: a car at 50mph (SF 3) hit by a 40mm GL (+8 HE: 30mph
    limit) fails the roll and panic brakes 15mph; in phase 3 it has lost its move (35mph is
    SF 2), and in phase 2 it moves but may take no action (p41: 'distracted')."""
    for phase, moves in ((3, False), (2, True)):
        w = World()
        w.place(0, 2, 2, 0, 50, side=0, role=VH.LEAD)
        w.place(1, 0, 2, 0, 0, side=1, role=VH.CHASE)
        w.WS[0] = w.a.LOAD[0, 0]
        # damage d6 1 (1 + 8 - 3 = 6 points), the hazard roll 5: 5 + 2 - 4 = 3, 15mph
        st, s = w.script([1, 5])
        EG._take_hit(st, s, w.B, w.V, w.WS, w.FIT, 0, EG.Hit(8, 1, VH.F_REAR, True, 0, 0, 0, 1),
                     w.common(), EG.Log(w.E, w.EN, 1, phase))
        assert w.V[0, VH.V_MPH] == 35 and w.V[0, VH.V_PANIC] == 1
        before = (w.V[0, VH.V_SEC], w.V[0, VH.V_SP])
        pol = np.stack([PO.policy_vector("standard")] * 2)
        n0 = int(w.EN[0])
        st, s = w.script([1] * 10)
        EG._act(st, s, w.B, w.V, w.WS, w.FIT, 2, 0, w.common(pol), EG.Log(w.E, w.EN, 1, phase))
        codes = [int(c) for c in w.E[n0:w.EN[0], 3]]
        assert (EG.EV_MOVE in codes) == moves, (phase, codes)
        assert EG.EV_ACTION not in codes and EG.EV_SHOT not in codes
        assert ((w.V[0, VH.V_SEC], w.V[0, VH.V_SP]) != before) == moves


# --- spikes at every face and speed (p30) ---------------------------------------------------
@pytest.mark.parametrize("mph", [20, 21, 60, 120])
@pytest.mark.parametrize("face", [1, 2, 3, 4, 5, 6])
def test_spike_roll_at_every_face_and_speed_p30(face, mph):
    """20mph or less: immune, no die rolled. Faster: one die; 5 or less no effect (faces
    1-5 alike), a 6 a wheel critical at 0 damage (the floor facing's wheel result)."""
    w = World(layout=("S", "S", "S"))
    w.place(0, 0, 2, 2, mph)
    w.place(1, 2, 0, 2, 0)
    x0, x1 = RD.rear_x(w.T, 1, 2, 0), RD.front_x(w.T, 1, 2, 0)
    RD._add_marker(w.M, w.NM, RD.SPIKES, 1, 2, 3, x0, x1, 0, 1)
    # a 6: the floor matrix's wheels (1-4 front), then the Wheels table 1: brake pipe
    st, s = w.script([face, 1, 1] + [6] * 6)
    dmg0 = w.V[0, VH.V_DMG]
    EG._advance(st, s, w.B, w.V, w.WS, w.FIT, 2, 0, EG.Move(0, True, False), w.common(),
                EG.Log(w.E, w.EN, 1, 1))
    used = int(st[dice.POS])
    assert w.V[0, VH.V_DMG] == dmg0                     # spikes never do damage points
    spike_hits = [e for e in w.E[:w.EN[0]] if e[3] == EG.EV_DAMAGE]
    if mph <= 20:
        assert used == 0 and not spike_hits
    elif face < 6:
        assert used == 1 and not any(e[7] for e in spike_hits)
    else:
        assert used >= 3 and any(e[7] for e in spike_hits)   # a critical was rolled
