"""Invariants over many seeded, recorded games of Games One, Six, Seven and Eight (issue 15,
'Evidence'): no vehicle moves in a phase above its speed factor or twice in a phase (a
shunted target moves next, once, p56), no turn ends while a vehicle still in play was fast
enough for the next phase, no car ends the game stopped and out of control, no game runs
to the turn limit with a car that could still act, and no vehicle shuttles (backs off a space
and comes on onto it again more than ``SHUTTLES`` times)."""

import os
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

from simkit.dark_future import engine as EG
from simkit.dark_future import diagnostics as DG
from simkit.dark_future.diagnostics import shuttles
from simkit.dark_future import scenario as GM
from simkit.dark_future import policies as PO
from simkit.dark_future.pieces import vehicle as VH

SCEN = Path(__file__).resolve().parents[1] / "scenarios" / "dark-future"
TRIALS = 100
# events that change a vehicle's speed during its own move (collisions, control, hazards)
_DURING = {EG.EV_HAZARD, EG.EV_CONTROL, EG.EV_SKID, EG.EV_SPIN}
SHUTTLES = DG.SHUTTLES      # issue 15, 'never deadlock' (the judgement is in diagnostics)


def test_the_shuttle_count_sees_a_car_backing_and_filling():
    """The invariant's count on a made-up log: a car that backs off two spaces and comes on
    again four times has come forward four times onto each space it backed onto; one that
    backs off two spaces and drives on through them, once; one that never reverses, never."""
    def log(steps):
        ev = []
        for sec, sp, rev in steps:
            ev.append((1, 1, 0, EG.EV_MOVE, sec, 2, sp, 10))
            if rev:
                ev.append((1, 1, 0, EG.EV_REVERSE, sec, 2, sp, 0))
        return ev
    cycle = [(3, 1, True), (3, 0, True), (3, 1, False), (3, 2, False)]
    assert shuttles(log([(3, 2, False)] + cycle * 4)) == 4
    assert shuttles(log([(3, 2, False), (3, 1, True), (3, 0, True), (3, 1, False),
                         (3, 2, False), (3, 3, False)])) == 1
    assert shuttles(log([(3, 0, False), (3, 1, False), (3, 2, False)])) == 0
    # per vehicle, and how a drawn game is named from it
    two = log([(3, 2, False)] + cycle * 2) + [(1, 1, 1, EG.EV_MOVE, 5, 0, 0, 10)]
    assert DG.shuttle_counts(two) == {0: 2, 1: 0}
    assert DG.draw_kind(EG.REASON_TIME, 2, ()) == DG.KIND_SHUTTLE
    assert DG.draw_kind(EG.REASON_TIME, 1, (0,)) == DG.KIND_WAITING
    assert DG.draw_kind(EG.REASON_TIME, 1, ()) == DG.KIND_RUNNING
    assert DG.draw_kind(EG.REASON_REPEAT, 3, ()) == DG.KIND_FROZEN
    assert DG.draw_kind(EG.REASON_STALEMATE, 0, ()) == DG.KIND_STALEMATE
    assert DG.draw_kind(EG.REASON_SIDE_OUT, 0, ()) == DG.KIND_OTHER
    # the same backing and filling across a renumbering of the sections (engine._renumber):
    # the places are the same places under new numbers
    k = EG.RENUMBER
    shifted = [(k + 3, sp, rev) for sec, sp, rev in cycle]
    across = log([(3, 2, False)] + cycle * 2) \
        + [(1, 1, -1, EG.EV_TRACK, EG.EV_TRACK_RENUMBER, k, 0, 0)] + log(shifted * 2)
    assert shuttles(across) == 4
    # a rider may not reverse (p64): turned round in its square (EV_ACTION 'turn round', after
    # its last move) and back onto that space, round after round, is its backing and filling
    # (seeded gang pursues 4445 before session 32: turned round and moved a space, back and
    # forth, until a train hit it); the old count saw none
    turn = (1, 1, 0, EG.EV_ACTION, EG.A_TURN_ROUND, 20, 20, 0)
    rider = []
    for k in range(3):
        rider += [(1, 1, 0, EG.EV_MOVE, 3, 2, 1, 20), turn,
                  (1, 1, 0, EG.EV_MOVE, 3, 2, 0, 20), turn]
    assert shuttles(rider) == 2
    # turned round once and ridden on: none; another action is no turn-round
    assert shuttles(rider[:3]) == 0
    other = [e if e != turn else (1, 1, 0, EG.EV_ACTION, EG.A_ACCEL, 20, 20, 0)
             for e in rider]
    assert shuttles(other) == 0


@pytest.mark.parametrize("name", ["game-1", "game-6", "game-7", "game-8", "game-8-gang-pursues",
                                  "game-8-intercept"])
def test_seeded_games_keep_the_turn_and_control_invariants(name):
    sc = GM.load_scenario(SCEN / f"{name}.toml")
    bad = []
    shunt_moves = 0
    for trial in range(TRIALS):
        ev, res, world, sim = GM.play_one(sc, seed=2026, trial=trial)
        step = sim.a.G[EG.G_SPEED_STEP]
        V = world[4]
        last_phase = {}
        fast = {}          # (turn, phase) -> cars whose move left them fast enough for phase+1
        touched = set()    # (turn, phase, v) with a collision, hazard or control event
        last_seen = {}     # v -> the last turn with an event of v's
        moved = set()      # (turn, phase, v) that made a move
        # (turn, v) -> v's speed on its first move or declaration of the turn, logged before
        # that phase changes it: the speed it ended the turn before with, after the unlogged
        # after-move steps (a coasting car's 5mph, p15) that the move's own log entry predates
        carried = {}
        for e in ev:
            turn, phase, v, code = (int(x) for x in e[:4])
            if turn <= 0 or phase <= 0:
                continue
            if v >= 0 and (turn, v) not in carried:
                carried[(turn, v)] = (int(e[7]) if code == EG.EV_MOVE else
                                      int(e[6]) if code == EG.EV_ACTION
                                      and int(e[4]) != EG.A_REALIGN else None)
            last_phase[turn] = max(last_phase.get(turn, 0), phase)
            if v >= 0:
                last_seen[v] = turn
            # a shunted target taking its move out of the phase order, or a rammer completing
            # its move (p56), is still held to its speed factor: not an excuse
            if code != EG.EV_MOVE and code != EG.EV_SHUNTMOVE:
                if v >= 0:
                    touched.add((turn, phase, v))
                continue
            if code == EG.EV_SHUNTMOVE:
                shunt_moves += 1
                continue
            if (turn, phase, v) in moved:
                bad.append((trial, "moved twice in a phase", turn, phase, v))
            moved.add((turn, phase, v))
            mph = int(e[7])
            sf = EG.speed_factor(mph, step)
            if (turn, phase, v) not in touched and sf < phase and mph > 0:
                bad.append((trial, "moved above its speed factor", turn, phase, v, mph))
            if sf > phase:
                fast.setdefault((turn, phase), set()).add(v)
        if shuttles(ev) > SHUTTLES:
            bad.append((trial, "a vehicle backed and filled", shuttles(ev)))
        final_turn = max(last_phase) if last_phase else 0
        for turn, p in last_phase.items():
            if turn < final_turn and p < 6 and fast.get((turn, p)):
                movers = [v for v in fast[(turn, p)] if (turn, p, v) not in touched
                          and not (carried.get((turn + 1, v)) is not None
                                   and EG.speed_factor(carried[(turn + 1, v)], step) <= p)]
                if movers:
                    bad.append((trial, "turn ended with a car still fast enough", turn, p,
                                movers))
        for v in range(V.shape[0]):
            # (a car put out of the game by the hit that stopped it never acts again; one
            # stopped in the game's last turn had no action left to regain control in, p46)
            if V[v, VH.V_STATUS] == VH.ACTIVE and V[v, VH.V_MPH] == 0 \
                    and V[v, VH.V_OOC] != VH.IN_CONTROL and not EG._is_out(V, v) \
                    and last_seen.get(v, 0) < final_turn:
                bad.append((trial, "stopped and out of control", v))
        # Games Seven and Eight may still be fought at their 40-turn limit (a stopped armoured
        # car chipped at by a light gun once a turn): there the frozen games are the repeated
        # positions of test_a_seeded_game_ended_as_a_repeated_position_would_repeat_for_ever
        if res[EG.R_REASON] == EG.REASON_TIME and name in ("game-1", "game-6"):
            for v in range(V.shape[0]):
                if not EG._is_out(V, v):
                    bad.append((trial, "frozen to the turn limit with a car that could act", v))
    assert not bad, bad[:10]
    assert shunt_moves > 0   # the moves after a shunt were among those checked




def test_seeded_game_six_turn_limit_draws_issue_15():
    """Issue 15: 9 of 2,000 seeded Game Six games (seed 2026) were drawn at the turn limit with
    a car going nowhere: an Op shuttling behind a stranded gang car it never shot (486, 590),
    cars backing and filling in front of obstacle strips they steered round too late (1365,
    1672), one stalemate of two stranded cars (1541). Those games now end. After the choice by
    expected effect and the drivers' tie rolls (which change the stream of later rolls), the
    three games that met a road shut from edge to edge next to a curve (822, 926, 993) play
    differently and end; the shut road itself is still a known limit of the drivers. The last
    one, a long chase of a gang bike by an Op out of ammunition (447: it braked every time it
    came up behind the bike, which it could not shoot), ends since the planned ram: with no
    shot, closing on the slower bike in its lanes is worth more than braking (a car shunting a
    bike, p72), and the Op sideswipes it off the road in turn 16. Since equally placed enemies
    go to the dice (policies._pick_enemy), one game of the 2,000 is drawn at the turn limit
    again: 898, no deadlock (the Op and a gang bike both still move to the end) but a chase
    neither finishes: the bike follows the Op, its light guns doing 0 damage through the Op's
    armour, and the Op, whose guns face forward, last shoots in turn 6 and never drops back
    behind the bike (why the drivers do not: not examined). Since a stranded enemy the car
    cannot get past is hunted rather than left behind (s23-df15o), 326 is a second: the same
    40-turn chase to turn 38, when the last gang bike falls and halts ahead of the Op, which
    finds it stopped for good and no lane pair clear past it; the Op now drifts into its lanes,
    hunting it, rather than drive straight on, and the turn limit comes a move before the
    head-on collision that used to end it in turn 40 (p72). No deadlock: the Op moves to the
    end. Since session 25 road hazards that do not fit a section go on the next one (p76), so
    Game Six's roads are others, and a driver falls in behind a vehicle holding its way round a
    road-edge strip (898 then plays differently from turn 1: the gang's bikes and car, abreast,
    brake short of an obstacle strip instead of cutting one another up, and it ends in turn 11).
    898 and 326 end; 808 is the one turn-limit draw, the same kind of chase (a gang bike with 1
    damage point left outruns the Op over forty turns of curves, the Op shooting nine times in
    the game). Since session 30 a drift is judged on the section the straight move ends on
    (p13), and 808 plays otherwise and ends too. A guard against new deadlocks: no turn-limit
    draw in the 2,000."""
    sc = GM.load_scenario(SCEN / "game-6.toml")
    sim = GM.GameSim(sc)
    key = EG.dice.stream_key(2026)
    for t in (486, 590, 1365, 1672, 1541, 822, 926, 993, 447, 898, 808):
        acc = sim.chunk(key, t, 1)
        assert acc[EG.ST_REASON + EG.REASON_TIME] == 0, t
    tot = sim.chunk(key, 0, 2000)
    assert tot[EG.ST_REASON + EG.REASON_TIME] == 0
    assert tot[EG.ST_REASON + EG.REASON_STALEMATE] <= 4


def test_seeded_game_one_has_no_turn_limit_draws_issue_15():
    """None of 2,000 seeded Game One games (seed 2026) reaches the turn limit. Trial 208 did:
    its lead car, stopped by a spin, had its driver's skill cut to 0 by a limb critical
    (unconscious for the rest of the game, p50). Its driver never moved off again
    (policies._move_off), but the engine's out-test did not count the car as stopped for good,
    so the game waited 57 turns; now the lead car is out and the chase car wins."""
    sc = GM.load_scenario(SCEN / "game-1.toml")
    sim = GM.GameSim(sc)
    key = EG.dice.stream_key(2026)
    acc = sim.chunk(key, 208, 1)
    assert acc[EG.ST_REASON + EG.REASON_LEAD_OUT] == 1
    tot = sim.chunk(key, 0, 2000)
    assert tot[EG.ST_REASON + EG.REASON_TIME] == 0


def test_a_stopped_car_with_an_unconscious_driver_or_no_top_speed_is_out_p16_p50():
    """Stopped, a car whose driver's skill is 0 (unconscious, p50) or whose maximum speed is 0
    (p16) never moves again: out (engine._is_out), as the drivers' move-off already held
    (policies._move_off, _stuck); moving, it is not yet."""
    from simkit.dark_future import policies as PO
    from test_dark_future_engine import World
    w = World()
    w.place(0, 2, 2, 0, 0)
    assert not EG._is_out(w.V, 0) and not PO._stuck(w.V, 0)
    w.V[0, VH.V_SKILL] = 0
    assert EG._is_out(w.V, 0) and PO._stuck(w.V, 0)
    w.V[0, VH.V_MPH] = 20
    assert not EG._is_out(w.V, 0)
    w.place(0, 2, 2, 0, 0)
    w.V[0, VH.V_MAXSPD] = 0
    assert EG._is_out(w.V, 0)


def _two_more_turns_change_nothing(sim, B, V, WS, FIT, res, label):
    """From a game's final position, two more turns on an empty dice script (any roll raises)
    end as a repeat again and leave every array as it was but the turn stamps."""
    import numpy as np

    from simkit.core import dice

    T, TM, M, NM, _ = EG.board_views(B)
    before = [x.copy() for x in (T, TM, M, NM, V, WS, FIT)]
    st = dice.new_state()
    dice.set_scripted(st)
    E = np.zeros((2000, EG.LOG_W), np.int64)
    EN = np.zeros(1, np.int64)
    res2 = res.copy()
    turn = int(res[EG.R_TURNS])
    EG.play_turns(st, np.zeros(0, np.int64), B, V, WS, FIT, EG.rules_buffer(*sim.args()),
                  EG.Log(E, EN, 0, 0), res2, int(res[EG.R_LEAD_SIDE]), turn + 1)
    assert res2[EG.R_REASON] == EG.REASON_REPEAT and res2[EG.R_TURNS] == turn + 2, label
    V[:, VH.V_STAMP] = before[4][:, VH.V_STAMP]
    for x, y in zip((T, TM, M, NM, V, WS, FIT), before):
        assert np.array_equal(x, y), label


def test_a_position_nothing_can_change_ends_as_a_repeat_and_would_repeat_for_ever():
    """Issue 15, no deadlocks: a turn that rolls no dice and leaves the position as it found
    it ends the game as a draw (REASON_REPEAT) instead of running to the turn limit. Built by
    hand so that the check does not wait on the drivers leaving such a game in a seeded
    sample: the intercept's two cars out of ammunition, each boxed in between two obstacle
    strips shut edge to edge (p76) a space in front and a space behind, nothing to shoot and
    nowhere to go but into an obstacle; the third car has left play. Turn 1 is played, turn 2
    repeats it without a roll and ends the game; from there two more turns change nothing.
    On the old engine (before ``play_turns`` ended such games) it ran to the turn limit."""
    import numpy as np

    from simkit.core import dice
    from test_dark_future_drivers import _obstacle
    from test_dark_future_engine import World

    w = World(scenario="game-8-intercept.toml")
    w.place(0, 2, 2, 1, 0, side=0, role=VH.LEAD)
    w.place(1, 4, 2, 1, 0, side=1, role=VH.CHASE)
    w.V[2:, VH.V_STATUS] = VH.LEFT
    w.WS[:, :, VH.W_AMMO] = 0
    for sec in (2, 4):
        _obstacle(w, sec, 0, 5, 0)
        _obstacle(w, sec, 0, 5, 2)
    st = dice.new_state()
    dice.set_scripted(st)
    res = np.zeros(EG.R_W, np.int64)
    EG.play_turns(st, np.zeros(0, np.int64), w.B, w.V, w.WS, w.FIT, w.common(),
                  EG.Log(w.E, w.EN, 0, 0), res, 0, 1)
    assert res[EG.R_REASON] == EG.REASON_REPEAT and res[EG.R_WINNER] == -1
    assert res[EG.R_TURNS] == 2 and st[dice.NROLLS] == 0
    _two_more_turns_change_nothing(w.sim, w.B, w.V, w.WS, w.FIT, res, "boxed in")


@pytest.mark.parametrize("name,trials", [("game-8-gang-pursues", 2000),
                                          ("game-8-intercept", 1000)])
def test_a_seeded_game_ended_as_a_repeated_position_would_repeat_for_ever(name, trials):
    """The same claim on real games: seeded Game Eight games froze to the turn limit (31 and
    57 of 2,000 at seed 2026 in the two pursuits, before engine.play_turns ended them), cars
    stopped at a road shut from edge to edge by obstacles (p76), their enemies out of reach
    and out of sight. Every game of the first ``trials`` (found by their totals, only those
    replayed with their logs) that ended as a repeat must repeat for ever from its final
    position (:func:`_two_more_turns_change_nothing`). As the drivers improve, the sample may
    hold none (session 27 left one in the gang pursuit's 2,000, trial 1934): the test then
    skips, saying so, and the hand-built position above still checks the mechanism."""
    from simkit.core import dice

    sc = GM.load_scenario(SCEN / f"{name}.toml")
    scan = GM.GameSim(sc)
    key = dice.stream_key(2026)
    found = 0
    for trial in range(trials):
        if scan.chunk(key, trial, 1)[EG.ST_REASON + EG.REASON_REPEAT] == 0:
            continue
        ev, res, world, sim = GM.play_one(sc, seed=2026, trial=trial)
        assert res[EG.R_REASON] == EG.REASON_REPEAT, trial
        found += 1
        assert res[EG.R_WINNER] == -1 and res[EG.R_TURNS] < sc.max_turns
        T, TM, M, NM, V, WS, FIT, _ = world
        B = EG.new_board()
        for x, y in zip(EG.board_views(B), (T, TM, M, NM)):
            x[...] = y
        _two_more_turns_change_nothing(sim, B, V, WS, FIT, res, trial)
    if not found:
        pytest.skip(f"no repeated-position game in {name}'s first {trials} seeded trials")


@pytest.mark.parametrize("name,trial", [("game-8-intercept", 1670),
                                        ("game-8-gang-pursues", 1411)])
def test_seeded_game_eight_cars_no_longer_back_and_fill_to_the_turn_limit_issue_15(name, trial):
    """Seeded Game Eight games (seed 2026) drawn at the turn limit with a car backing and
    filling round a block on a curve: intercept trial 1670 (the attacker between a wreck on a
    bend and a stranded target car nose to an obstacle, its line-up and its way round pulling
    opposite ways) and gang-pursues trial 1411 (the Op and a gang bike stranded nose to an
    obstacle on a bend). Both now end with a side taken out (the drivers' scripted positions:
    DRV test_a_hunter_is_not_turned_away_from_a_stranded_enemy_by_what_lies_beyond_it_issue_15,
    test_where_taking_out_wins_a_lead_car_is_not_routed_off_a_stranded_bike_issue_15)."""
    sc = GM.load_scenario(SCEN / f"{name}.toml")
    ev, res, world, sim = GM.play_one(sc, seed=2026, trial=trial)
    assert res[EG.R_REASON] == EG.REASON_SIDE_OUT and res[EG.R_WINNER] >= 0


@pytest.mark.parametrize("trial", [1684, 3558, 4895])
def test_seeded_intercept_standoffs_are_fought_out_issue_15(trial):
    """Seeded Game Eight intercepts (seed 2026) that ended as repeated positions, every car in
    play stopped with no shot: 1684 and 4895 the last target nose to an obstacle across lanes
    3-5, the attacker just past it facing back; 3558 the two cars nose to the two ends of a
    wreck in the same lanes. A stopped hunter with no shot now plans several slow moves to a
    place it has a shot from (``policies._plan_standoff``; session 28), and each now ends with
    a side taken out (the drivers' position made up: DRV
    test_a_hunter_in_a_standoff_plans_its_way_round_a_wreck_to_a_shot_p14_p17)."""
    sc = GM.load_scenario(SCEN / "game-8-intercept.toml")
    ev, res, world, sim = GM.play_one(sc, seed=2026, trial=trial)
    assert res[EG.R_REASON] == EG.REASON_SIDE_OUT and res[EG.R_WINNER] >= 0


# Issue 15, 'never deadlock', over more games than the invariants above: the shuttle count
# costs little beside playing the game (benchmarks/dark_future_deadlocks.py plays all 5,000)
SURVEY = 5000
# The games among them still known to shuttle (docs/rules/dark-future.md, issue 15): a guard
# against new ones, and a record of which are left (none from session 22, where intercept 570
# was the last, to session 27). Intercept 453 came with session 27's brake two spaces short of
# a strip: the last target, stopped short of an obstacle strip on the left lanes of a section
# whose predecessor holds one on the right (a weave it has not the drifts for), backs off four
# spaces in its lanes and comes on to the same strip again (the old driver rammed it); the
# fight is then shot out to the turn limit (docs/rules/dark-future.md, session 27). Since session
# 29 (intercept leftovers) a car that cannot weave through turns towards the enemy behind it
# (`policies._weave_shut_at`): 453 no longer shuttles, and none was left. Since session 32 a
# rider coming back onto the space it turned round in counts (a rider may not reverse, p64: the
# turn-round is its backing off), and a rider turns round from one place at most `backoffs`
# (2) times: two gang pursues games end at the limit with their last rider in its second try
# (2372: played on, a repeated position in turn 63; 2521: the Op's win in turn 84)
SHUTTLING: dict[str, list[int]] = {"game-8-gang-pursues": [2372, 2521]}
# The turn limit every draw at the scenario's own (40 turns) is played on to: the book's games
# have none, so a game still going past this is no fight but a driver going round in circles
# (session 32: four gang pursues riders rode back and forth by a stranded Op for 160 turns,
# turning round in their squares, which the shuttle count did not see; the limit hid them)
LONGER = 200


@pytest.mark.parametrize("name", ["game-1", "game-6", "game-7", "game-8-gang-pursues",
                                  "game-8-intercept"])
def test_no_new_seeded_game_shuttles(name):
    """Over the first ``SURVEY`` seeded games (seed 2026) of each Game, the games that are
    shuttling draws (``diagnostics.KIND_SHUTTLE``: drawn at the turn limit with a vehicle that
    came forward twice or more onto a space it had reversed onto) or that have a vehicle doing
    so more than ``SHUTTLES`` times are exactly the known ones (``SHUTTLING``). The first 100
    games of each Game, which the invariants above play, missed the six shuttles a reverted
    bend planner made (docs/rules/dark-future.md, issue 15 session 19). And every draw of the
    kinds a driver's deadlock shows as (backing and filling, stopped with a move available,
    repeated position) is forced within the stand-off planner's window: from its last
    position no vehicle has a place to go (``diagnostics.places_to_go``: a shot that wins the
    exchange, a race of rams it wins, a way past every enemy), whatever the drivers' gates
    (session 31: seeded gang pursues 1274, 1522 and intercept 4957 were such draws with one;
    the first 1,000 of each Game hold five forced ones, intercept 16, 92, 116, 240, 432). And
    every draw at the turn limit, played on with the same dice to ``LONGER`` turns, ends
    before that (session 32: gang pursues 691, 2372, 2799, 4604 did not)."""
    sc = GM.load_scenario(SCEN / f"{name}.toml")
    longer = replace(sc, max_turns=LONGER)
    bad = []
    missed = []
    endless = []
    for trial in range(SURVEY):
        ev, res, world, sim = GM.play_one(sc, seed=2026, trial=trial)
        d = DG.examine(ev, res, world[4], trial)
        if d.shuttles > SHUTTLES or (DG.is_draw(res) and d.kind == DG.KIND_SHUTTLE):
            bad.append(d)
        if DG.is_draw(res):
            kind = DG.examine(ev, res, world[4], trial, board=tuple(world[:4])).kind
            if kind in (DG.KIND_SHUTTLE, DG.KIND_WAITING, DG.KIND_FROZEN):
                go = DG.places_to_go(world[:4], world[4], world[5], sim.a.hp, sim.a.POL)
                if go:
                    missed.append((trial, kind, go))
            if res[EG.R_REASON] == EG.REASON_TIME:
                on = GM.play_one(longer, seed=2026, trial=trial)[1]
                assert on[EG.R_TURNS] > sc.max_turns   # the same game, played on
                if on[EG.R_REASON] == EG.REASON_TIME:
                    endless.append(trial)
    assert [d.trial for d in bad] == SHUTTLING.get(name, []), bad[:5]
    assert missed == []
    assert endless == []


def _survey_script():
    import importlib.util
    path = Path(__file__).resolve().parents[1] / "benchmarks" / "dark_future_deadlocks.py"
    spec = importlib.util.spec_from_file_location("dark_future_deadlocks", path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def test_the_deadlock_survey_names_each_draw_and_refuses_bad_input(capsys, tmp_path):
    """``benchmarks/dark_future_deadlocks.py`` on a few games: one table row per Game, each
    drawn game listed with its kind; an unknown Game or a bad count is one line and exit 2."""
    mod = _survey_script()
    out = tmp_path / "survey.md"
    assert mod.main(["--trials", "3", "--first", "4911", "--games", "game-1,game-8-intercept",
                     "--out", str(out)]) == 0
    text = out.read_text()
    assert "| game-1 | 0 |" in text and "| game-8-intercept |" in text
    draws, shuttlers, summary = mod.survey("game-8-intercept", 1, 2026, first=4911)
    assert summary["draws"] == len(draws) and sum(summary["kinds"].values()) == len(draws)
    capsys.readouterr()
    assert mod.main(["--games", "game-99"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "game-99" in err and "Traceback" not in err
    assert mod.main(["--trials", "0", "--games", "game-1"]) == 2
    capsys.readouterr()
    assert mod.main(["--longer", "501", "--games", "game-1"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "--longer" in err and "Traceback" not in err


def test_the_deadlock_survey_plays_a_draw_still_fighting_on_to_a_longer_limit():
    """The survey's ``--longer``: a seeded gang pursuit drawn still fighting at its 40-turn
    limit (1513: a rider shooting the stranded Op from outside its guns' arc, a point a turn or
    less) is played on with the same dice, the same game to turn 40, and ends with a side
    taken out; played 'on' to the old limit it is the same draw."""
    mod = _survey_script()
    draws, shuttlers, summary = mod.survey("game-8-gang-pursues", 1, 2026, first=1513,
                                           longer=200)
    assert [d.kind for d in draws] == [DG.KIND_RUNNING]
    who, why, turns = summary["longer"][1513]
    assert why == EG.REASON_SIDE_OUT and who in ("op", "gang") and 40 < turns < 200
    sc = GM.load_scenario(SCEN / "game-8-gang-pursues.toml")
    assert mod.played_on(sc, 2026, 1513, 40) == (None, EG.REASON_TIME, 40)
    assert "1 of 1 ended by turn 200" in mod.render([(draws, shuttlers, summary)], 1, 2026,
                                                      1513)


def test_the_forced_draw_check_asks_again_in_a_wider_window_and_refuses_bad_input(tmp_path):
    """``benchmarks/dark_future_forced.py`` replays a drawn game with the compiler off (a fresh
    interpreter: numba reads the planner's window when it compiles) and asks
    ``places_to_go`` in the window it is given. Game Six 1462 (a repeated position, the Op
    boxed in): nothing to go to; its search reaches more places in a wider window than in a
    narrow one, so the window is the one asked for. A malformed game, an unknown Game: one
    line, exit 2."""
    import re
    import subprocess
    import sys
    script = Path(__file__).resolve().parents[1] / "benchmarks" / "dark_future_forced.py"

    def run(*args):
        env = {k: v for k, v in os.environ.items() if k != "NUMBA_DISABLE_JIT"}
        return subprocess.run([sys.executable, str(script), *args], capture_output=True,
                              text=True, env=env, timeout=300)

    reached = {}
    for secs, moves in ((6, 60), (1, 2)):
        out = tmp_path / f"forced-{secs}.md"
        r = run("game-6:1462", "--secs", str(secs), "--moves", str(moves), "--out", str(out))
        assert r.returncode == 0, r.stderr
        text = out.read_text()
        assert "| game-6 | 1462 | the position repeated" in text
        assert "1 of 1 with no place to go" in text
        reached[secs] = int(re.search(r"\| op: (\d+) \(", text).group(1))
    assert reached[6] > reached[1] >= 1
    for bad in (["game-6"], ["game-99:3"], ["game-6:1", "--secs", "0"]):
        r = run(*bad)
        assert r.returncode == 2 and r.stderr.count("\n") == 1 and "Traceback" not in r.stderr


@pytest.mark.parametrize("name,trial", [("game-8-intercept", 4911), ("game-7", 2444)])
def test_seeded_cars_shut_out_past_a_bend_no_longer_back_and_fill_issue_15(name, trial):
    """Seeded games (seed 2026) drawn at the turn limit with a car backing and filling at a
    road shut past a bend for it (its way round on the bend's inside, the reverse with the
    drift before it shut by an obstacle strip): intercept 4911's attacker and Game Seven
    2444's attacker#1 moved off, braked nose to the block on the bend, backed off and came on
    again, three and five times. Now each comes forward at most once onto a space it backed
    onto and the game is no shuttling draw: 4911 ended as a repeated position (the target
    beyond the block cannot come on either) until session 24 (df15s), where the attacker turns
    round for a shot the target cannot return and wins; 2444 with the target gang's win (the
    scripted position: DRV
    test_a_car_whose_way_round_past_a_bend_cannot_be_reached_waits_p13_p17)."""
    sc = GM.load_scenario(SCEN / f"{name}.toml")
    ev, res, world, sim = GM.play_one(sc, seed=2026, trial=trial)
    d = DG.examine(ev, res, world[4], trial)
    assert d.shuttles <= 1 and d.kind != DG.KIND_SHUTTLE
    assert res[EG.R_REASON] != EG.REASON_TIME


@pytest.mark.parametrize("trial, reason, by_memory", [
    (570, EG.REASON_SIDE_OUT, False), (1243, EG.REASON_SIDE_OUT, False),
    (3823, EG.REASON_SIDE_OUT, False)])
def test_seeded_cars_beside_a_shielded_enemy_no_longer_back_and_fill_issue_15(trial, reason,
                                                                              by_memory):
    """Seeded Game Eight intercepts (seed 2026) where a wreck in the lanes between target#1
    and the attacker, both stopped about a bend, shielded each from the other: 570 was drawn
    at the turn limit with the attacker backing and filling four times (target#1 lining up
    behind the wreck and coming on round it); 1243 and 3823 became such draws (nine and eight
    times) when target#1 alone stopped lining up there (session 21's tries). With the hunter
    not backing off a curve to line up behind a wreck (DRV
    test_a_hunter_on_a_curve_does_not_back_off_it_to_line_up_behind_a_wreck_p17_p26_p52) and
    each driver remembering where it backed off (DRV
    test_a_car_that_backed_off_from_a_place_twice_stays_there_the_third_time_p17), no vehicle
    comes forward onto a space it backed onto more often than it may back off from one place,
    and no game runs to the turn limit: each ends as a repeated position, neither car having a
    way to the other. Without the memory (``backoffs`` 0) 1243 and 3823 were shuttling draws
    again (nine and eight times); 570 the hunter's rule alone ends. Since session 24 (df15q) a
    car with a gun backs off a bend to line up through any clear pair, not only the enemy's
    (``_shielded_line_up``), and 1243 (the attacker) and 3823 (target#1) are decided, with the
    memory or without it: the wreck shielded the enemy's lanes only. Since session 25 the sides
    set up clear of the road hazards they see (``policies.setup_place``) and 570 is another
    game, which the attacker wins."""
    sc = GM.load_scenario(SCEN / "game-8-intercept.toml")
    ev, res, world, sim = GM.play_one(sc, seed=2026, trial=trial)
    d = DG.examine(ev, res, world[4], trial)
    assert d.shuttles <= PO.BACKOFFS and d.kind != DG.KIND_SHUTTLE
    assert res[EG.R_REASON] == reason
    for side in sc.sides:
        side.params = {"backoffs": 0}
    ev, res, world, sim = GM.play_one(sc, seed=2026, trial=trial)
    d = DG.examine(ev, res, world[4], trial)
    assert (d.kind == DG.KIND_SHUTTLE) == by_memory


def test_a_vehicle_stopped_and_firing_is_fighting_not_waiting_issue_15():
    """``diagnostics.waiting`` on a made-up log: a car stopped for the last ``WAIT_TURNS`` turns
    of a 40-turn draw is waiting ('stopped with a move available'); the same car firing a shot
    in that time is fighting ('still fighting at the turn limit'). Seeded gang-pursues draws
    counted so were mostly a gang rider stopped and shooting the stopped Op every turn (issue
    15, session 22; the old count called it waiting)."""
    from test_dark_future_engine import World
    w = World()
    w.place(0, 3, 2, 0, 0, side=0, role=VH.LEAD)
    w.place(1, 5, 2, 0, 60, side=1, role=VH.CHASE)
    moves = [(20, 1, 0, EG.EV_MOVE, 3, 2, 0, 10), (39, 1, 1, EG.EV_MOVE, 5, 2, 0, 60)]
    assert DG.waiting(moves, w.V, 40) == [0]
    shot = moves + [(40 - DG.WAIT_TURNS + 1, 1, 0, EG.EV_SHOT, 1, 0, 3, 1)]
    assert DG.waiting(shot, w.V, 40) == []
    old = moves + [(40 - DG.WAIT_TURNS, 1, 0, EG.EV_SHOT, 1, 0, 3, 1)]
    assert DG.waiting(old, w.V, 40) == [0]
    assert DG.draw_kind(EG.REASON_TIME, 0, tuple(DG.waiting(shot, w.V, 40))) == DG.KIND_RUNNING


def test_a_vehicle_queued_behind_a_firing_team_mate_is_fighting_not_waiting_p25_issue_15():
    """``diagnostics.waiting`` given the final board: a vehicle stopped behind a stopped
    team-mate facing its way, first in its lanes, which fired in the last ``WAIT_TURNS`` turns,
    is queued to take over (p25: the closest vehicle in a corridor is the target, so the line
    has one shot a turn), not waiting; so is one behind a line of such team-mates. Without the
    board, or with the team-mate not firing, facing the other way, or on the other side, it is
    waiting as before (issue 15 session 28: seeded gang pursues 3076 and 4704, a rider queued
    behind the one firing at the stranded Op, were counted 'stopped with a move available')."""
    from test_dark_future_engine import World
    w = World(scenario="game-8-intercept.toml")
    w.place(0, 3, 2, 2, 0, side=0, role=VH.LEAD)       # firing at the front
    w.place(1, 3, 2, 1, 0, side=0, role=VH.LEAD)       # behind it, in its lanes
    w.place(2, 5, 2, 0, 60, side=1, role=VH.CHASE)
    board = (w.T, w.TM, w.M, w.NM)
    moves = [(20, 1, 0, EG.EV_MOVE, 3, 2, 2, 10), (20, 1, 1, EG.EV_MOVE, 3, 2, 1, 10),
             (39, 1, 2, EG.EV_MOVE, 5, 2, 0, 60)]
    fired = moves + [(38, 1, 0, EG.EV_SHOT, 2, 0, 3, 1)]
    assert DG.waiting(fired, w.V, 40) == [1]
    assert DG.waiting(fired, w.V, 40, board=board) == []
    assert DG.waiting(moves, w.V, 40, board=board) == [0, 1]
    # a line of two: the one behind the queued one is queued too
    w.place(0, 3, 2, 2, 0, side=0, role=VH.LEAD)
    w.place(1, 3, 2, 0, 0, side=0, role=VH.LEAD)
    w.place(2, 3, 2, 1, 0, side=0, role=VH.LEAD)
    line = [(20, 1, u, EG.EV_MOVE, 3, 2, 2 - u, 10) for u in range(3)] \
        + [(38, 1, 0, EG.EV_SHOT, 2, 0, 3, 1)]
    w.V[1, VH.V_SP], w.V[2, VH.V_SP] = 0, 1
    assert DG.waiting(line, w.V, 40, board=board) == []
    # the middle one faces the other way: no line, so the one behind it waits (the middle one,
    # nose to tail between the others, is shut in: every move it has is a collision)
    w.V[2, VH.V_DIR] = 1
    assert DG.waiting(line, w.V, 40, board=board) == [1]
    assert DG.waiting(line, w.V, 40) == [1, 2] and DG.shut_in(board, w.V, 2)
    w.V[2, VH.V_DIR] = 0
    w.V[2, VH.V_SIDE] = 1                              # an enemy between: no line
    assert DG.waiting(line, w.V, 40, board=board) == [1]


def test_a_drawn_position_with_a_place_to_go_is_told_from_a_forced_one_issue_15():
    """``diagnostics.places_to_go`` asks the stand-off planner's own search, with none of the
    drivers' gates, for a place a stopped vehicle would go to. Seeded intercept 2677's position
    (the gunless last target past the stranded attacker, the road shut ahead): the target has
    a race of rams to win from a place it can reach, which its driver, counting the enemy left
    behind, did not go to (issue 15, session 30); the attacker cannot drive. With the points the
    other way round the race is lost, and nothing is left: a forced draw within the window. With
    the target's guns loaded, its places with a shot it wins the exchange from are found too."""
    from test_dark_future_drivers import _gunless_target_past_the_stranded_attacker
    w, n = _gunless_target_past_the_stranded_attacker()
    pol = np.stack([PO.params_vector()] * n)
    board = (w.T, w.TM, w.M, w.NM)
    go = DG.places_to_go(board, w.V, w.WS, w.hp, pol)
    assert [(v, what) for v, what, k in go] == [(1, "ram")]
    assert 1 <= go[0][2] <= PO.PLAN_MOVES
    w.V[1, VH.V_DMG], w.V[2, VH.V_DMG] = 1, 5
    assert DG.places_to_go(board, w.V, w.WS, w.hp, pol) == []
    w.WS[1] = w.a.LOAD[1, 0]
    assert (1, "shot") in [(v, what) for v, what, k in DG.places_to_go(board, w.V, w.WS, w.hp,
                                                                       pol)]


def test_a_drawn_position_with_a_way_past_the_block_has_a_place_to_go_issue_15():
    """A way past is a place to go too (session 31): seeded intercept 564's road (the attacker
    behind a wreck and an obstacle strip, no lane pair running clear past them to the stranded
    last target, so it cannot leave it behind where it stands, p75), but five of the planner's
    moves weave to a place from which driving straight on does (``_past_from``: its own lanes
    clear on): (attacker, 'past', 5). With the strip run on across the lanes that weave uses,
    there is none."""
    from test_dark_future_drivers import _obstacle, _weave_to_stranded_target
    w, n = _weave_to_stranded_target()
    pol = np.stack([PO.params_vector()] * n)
    board = (w.T, w.TM, w.M, w.NM)
    assert not PO._leaves_behind(w.T, w.TM, w.M, w.NM, w.V, n, 2, w.hp)
    assert DG.places_to_go(board, w.V, w.WS, w.hp, pol) == [(2, "past", 5)]
    _obstacle(w, 3, 3, 5, 2)
    assert DG.places_to_go(board, w.V, w.WS, w.hp, pol) == []


def test_a_car_whose_every_move_is_a_collision_is_shut_in_not_waiting_issue_15():
    """``diagnostics.shut_in``: a car stopped with obstacles across the road in the space in
    front of it and the space behind it can neither move off (straight, drifting after the
    straight move, or with a U-turn into the space ahead, p13-p15) nor reverse (p17) without
    a collision. It is not 'stopped with a move available': a drawn game it idles in is
    'shut in'. With the way back open it can move, and is waiting again. Seeded intercept
    2295 (issue 15, session 30): the last target boxed in by the attacker, a wreck and debris,
    every move it had a ram, was counted as a car waiting with a move available (since the
    drifts are judged where the straight move ends, p13, that game plays otherwise and ends)."""
    from test_dark_future_engine import World
    from simkit.dark_future.pieces import road as RD
    w = World(scenario="game-8-intercept.toml")
    w.place(0, 3, 2, 1, 0, side=0, role=VH.LEAD)
    w.place(1, 6, 2, 0, 0, side=1, role=VH.CHASE)
    for sp in (0, 2):
        for lo, hi in ((0, 2), (3, 5)):
            RD._add_marker(w.M, w.NM, RD.OBSTACLE, 3, lo, hi, RD.rear_x(w.T, 3, lo, sp),
                           RD.front_x(w.T, 3, lo, sp), 1, -1)
    board = (w.T, w.TM, w.M, w.NM)
    idle = [(1, 1, 0, EG.EV_MOVE, 3, 2, 1, 10), (1, 1, 1, EG.EV_MOVE, 6, 2, 0, 10)]
    assert DG.shut_in(board, w.V, 0) and not DG.shut_in(board, w.V, 1)
    assert DG.waiting(idle, w.V, 40) == [0, 1]
    assert DG.waiting(idle, w.V, 40, board=board) == [1]
    assert DG.shut_waiting(idle, w.V, 40, board) == [0]
    assert DG.draw_kind(EG.REASON_TIME, 0, (), (0,)) == DG.KIND_SHUT
    assert DG.draw_kind(EG.REASON_TIME, 0, (1,), (0,)) == DG.KIND_WAITING
    w.M[0:2, RD.MK_ACTIVE] = 0                # the way back open
    assert not DG.shut_in(board, w.V, 0)
    assert DG.waiting(idle, w.V, 40, board=board) == [0, 1]


@pytest.mark.parametrize("trial", [150, 177, 789, 941, 1093, 1373, 1427, 1662, 2276, 3849])
def test_seeded_ops_at_the_roads_end_turn_round_for_the_rider_behind_issue_15(trial):
    """Seeded gang-pursues games (seed 2026) that ended as repeated positions with the Op
    stopped at the start of the stretch of road facing against play and the last rider walled
    in behind it (a road shut ahead of it, no U-turn zone, no reverse for riders, p64): the
    Op waited, its U-turn's space off the road and its reverse kept for leaving stranded
    enemies behind. It now backs off the end and turns round (p14, p17) and the game is
    decided (docs/rules/dark-future.md, issue 15 session 23; the driver's made-up position:
    DRV test_facing_against_play_with_the_enemy_behind_a_stopped_car_turns_round_p14_p17).
    Trial 1414 of the same kind ended in turn 40 and is now a turn-limit draw."""
    sc = GM.load_scenario(SCEN / "game-8-gang-pursues.toml")
    ev, res, world, sim = GM.play_one(sc, seed=2026, trial=trial)
    assert res[EG.R_REASON] == EG.REASON_SIDE_OUT and res[EG.R_WINNER] >= 0


def test_a_car_that_backed_and_filled_early_then_drove_on_is_no_shuttling_draw_issue_15():
    """``diagnostics.examine`` on made-up logs of a 40-turn draw: a car that backs off a space
    and comes on onto it twice names the draw 'backing and filling' only if it is still doing
    so in the last ``WAIT_TURNS`` turns; one that did it early and then drove on to the turn
    limit is still fighting. Seeded gang pursues 3362 (session 26) ended in a chase at 110mph
    and the whole game's count named it a shuttling draw."""
    from test_dark_future_engine import World
    w = World()
    w.place(0, 3, 2, 0, 60, side=0, role=VH.LEAD)
    w.place(1, 5, 2, 0, 60, side=1, role=VH.CHASE)

    def shuttle(t):
        # reverse onto a space and come forward onto it again, twice over
        back = [(t, 1, 0, EG.EV_MOVE, 3, 2, 0, 0), (t, 1, 0, EG.EV_REVERSE, 3, 2, 0, 0)]
        on = [(t, 2, 0, EG.EV_MOVE, 3, 2, 0, 0)]
        return back + on + [(r[0] + 1,) + r[1:] for r in back + on]
    chase = [(t, 1, v, EG.EV_MOVE, 10 + t, 2, v, 60) for t in range(20, 41) for v in (0, 1)]
    res = np.zeros(EG.R_W, np.int64)
    res[EG.R_WINNER] = -1
    res[EG.R_REASON] = EG.REASON_TIME
    res[EG.R_TURNS] = 40
    early = DG.examine(shuttle(5) + chase, res, w.V)
    assert early.shuttles == 2 and early.kind == DG.KIND_RUNNING
    late = DG.examine(chase[:20] + shuttle(36), res, w.V)
    assert late.shuttles == 2 and late.kind == DG.KIND_SHUTTLE
    assert DG.shuttling_at_end(shuttle(5) + chase, 40) == 0
    assert DG.shuttling_at_end(shuttle(36), 40) == 2
