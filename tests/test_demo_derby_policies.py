"""Driver policies (simkit.demo_derby.policies.plot_policy and the steering) in scripted positions
(STYLE.md habit 6): every test asserts the plot or the hex a policy picks in a constructed
position AND that another policy picks differently there, so it would fail if the policies were
swapped or merged. Plots are made from the state at the start of the round only."""

import numpy as np
import pytest

from simkit.demo_derby import GAME
from simkit.demo_derby.pieces import arena as A
from simkit.demo_derby import engine as D
from simkit.demo_derby import policies as P
from simkit.demo_derby.rules import ENGINE, build_tables

T = build_tables()
AR = A.load_arena()
N, NE, SE, S, SW, NW = range(6)


def game(policy, *cars, players=None, lim=None, **params):
    """Car 0 drives ``policy``; the others are hunters; cars at (row, col, facing)."""
    n = len(cars)
    players = players or list(range(n))
    rows = [P.policy_params(policy, players[0], **params)]
    rows += [P.policy_params("hunter", players[k]) for k in range(1, n)]
    return D.DerbyGame(T, AR, n, starts=np.array(cars, np.int64), params=np.stack(rows), lim=lim)


def test_policy_names_are_registered_without_loading_kernels():
    assert list(GAME.scenario.policies()) == list(P.POLICIES)


# one position, four different plots: car 0 moving F5 at (12, 12); car 1 stuck two hexes ahead
# (a weak car within the opportunist's reach); car 2 far away; round 3, no crash yet
# (the opportunist counts its own damage in full: at speed 2 it hurts the stuck car's rear
# about as much as a forward ram hurts its own front, so it eases in; the rammer, counting its
# own damage at 60%, rams at 8)
EXPECTED_PLOT = {"hunter": (1, 5, "hunt"), "rammer": (1, 8, "hunt"),
                 "survivor": (1, 3, "evade"), "opportunist": (1, 2, "hunt")}


def _position(policy):
    g = game(policy, (12, 12, N), (10, 12, N), (3, 20, S))
    g.cars[0, D.C_SPEED], g.cars[0, D.C_DIR] = 5, 1
    g.cars[1, D.C_STUCK] = 1
    g.cars[2, D.C_SPEED], g.cars[2, D.C_DIR] = 4, 1
    return g


@pytest.mark.parametrize("policy", P.POLICIES)
def test_each_policy_plots_its_own_speed_and_intent(policy):
    got = _position(policy).policy_plot(0)
    assert got == EXPECTED_PLOT[policy]
    others = [p for p in P.POLICIES if p != policy]
    assert all(_position(p).policy_plot(0) != got for p in others)


def test_opportunist_targets_the_weak_car_not_the_nearest():
    g = _position("opportunist")
    g.policy_plot(0)
    assert g.cars[0, D.C_TARGET] == 1
    g.cars[1, D.C_STUCK] = 0          # nothing weak in reach: it prowls at its safe speed
    g.cars[1, D.C_SPEED], g.cars[1, D.C_DIR] = 3, 1
    assert g.policy_plot(0) == (1, 2, "evade")


def test_survivor_avoids_crashes_until_the_eight_round_rule_closes_in():
    g = _position("survivor")
    g.cars[0, D.C_NOCRASH] = 5
    assert g.policy_plot(0) == (1, 3, "evade")
    g.cars[0, D.C_NOCRASH] = 6        # margin 6: two rounds left before disqualification:
    assert g.policy_plot(0) == (1, 2, "hunt")  # the cheapest crash, a nudge into the stuck car
    g.cars[2, D.C_ALIVE] = 0          # two cars left: the rule no longer applies, but a tie
    assert g.policy_plot(0)[2] == "hunt"  # is no win: it attacks (duel), unless told not to
    g.params[0, P.P_DUEL] = 0
    assert g.policy_plot(0) == (1, 3, "evade")
    # a larger margin waits longer; the hunter never evades at all
    g2 = _position("survivor")
    g2.params[0, P.P_MARGIN] = 7
    g2.cars[0, D.C_NOCRASH] = 6
    assert g2.policy_plot(0)[2] == "evade"
    h = _position("hunter")
    h.cars[0, D.C_NOCRASH] = 0
    assert h.policy_plot(0)[2] == "hunt"


@pytest.mark.parametrize("policy", P.POLICIES)
def test_a_plot_never_depends_on_another_cars_plot_this_round(policy):
    base = _position(policy).policy_plot(0)
    for d, sp in [(1, 8), (-1, 2), (1, 0)]:
        g = _position(policy)
        g.plot(1, d, sp)
        g.plot(2, d, sp)
        assert g.policy_plot(0) == base


def test_plots_are_all_made_before_any_car_moves_in_play():
    params = np.stack([P.policy_params(p, k) for k, p in enumerate(P.POLICIES)])
    g = D.DerbyGame(T, AR, 4, params=params)
    g.seed(5, 0)
    g.play()
    ev = g.events()
    for rnd, r in ev.groupby("round"):
        kinds = list(r["event"])
        plots = [k for k, e in enumerate(kinds) if e == "plot"]
        assert plots == list(range(len(plots)))   # the round's plots come first


# --- steering: which hex next ------------------------------------------------------------------
def _head_on(policy):
    """Car 0 at (12, 12) facing N; car 1 in the hex ahead, facing car 0 (a head-on ram)."""
    return game(policy, (12, 12, N), (11, 12, S), (3, 20, S))


def _side_on(policy, **params):
    """Car 1 in the hex ahead side-on (facing SE): entering it hits its rear left. Car 0 is
    moving at 5, fast enough to ram at once."""
    g = game(policy, (12, 12, N), (11, 12, SE), (3, 20, S), **params)
    g.cars[0, D.C_SPEED], g.cars[0, D.C_DIR] = 5, 1
    return g


def _steer(g):
    g.policy_plot(0)
    return g.steer(0)


def test_from_a_standstill_the_rammer_winds_up_where_the_hunter_rams_head_on():
    # a ram from a standstill is at speed 3 at most, below the rammer's min_ram (4)
    assert _steer(_head_on("hunter")) == 0
    assert _steer(_head_on("rammer")) != 0
    assert _steer(game("rammer", (12, 12, N), (11, 12, S), (3, 20, S), min_ram=3)) == 0


def test_a_rammer_that_counts_only_the_targets_damage_takes_a_side_ram_the_survivor_avoids():
    g = _side_on("rammer", care=0)
    assert D._impact_from(1, 12, 12, g.cars) not in (0,)  # not the front
    assert _steer(g) == 0
    assert _steer(_side_on("survivor")) != 0


def test_opportunist_steers_for_the_stuck_car_and_the_rammer_for_the_nearest():
    # car 1 (healthy) close on the left; car 2 stuck a little further on the right, in reach
    def g(policy):
        x = game(policy, (12, 12, N), (11, 10, N), (10, 15, N))
        x.cars[1, D.C_SPEED], x.cars[1, D.C_DIR] = 3, 1
        x.cars[2, D.C_STUCK] = 1
        return x
    assert _steer(g("opportunist")) == 1
    assert _steer(g("rammer")) == -1


def test_survivor_steers_away_from_the_nearest_car():
    g = game("survivor", (12, 12, N), (12, 15, N), (3, 3, S))
    assert _steer(g) == -1            # car 1 is to the right: go left
    h = game("hunter", (12, 12, N), (12, 15, N), (3, 3, S))
    assert _steer(h) == 1             # the hunter goes for it


def test_team_mates_are_not_rammed_on_purpose():
    g = game("rammer", (12, 12, N), (11, 12, SE), (3, 20, S), players=[0, 0, 1], care=0)
    g.cars[0, D.C_SPEED], g.cars[0, D.C_DIR] = 5, 1
    assert _steer(g) != 0             # the side-on car ahead is a team mate
    assert _steer(_side_on("rammer", care=0)) == 0


def test_engine_damage_caps_every_policys_plot():
    for policy in P.POLICIES:
        g = _position(policy)
        g.sheets[0, ENGINE] = 6       # max speed 2
        assert g.policy_plot(0)[1] <= 2


# --- in a race -------------------------------------------------------------------------------
RACE = D.limits_vector(T, AR, laps=8, dq=False)


@pytest.mark.parametrize("policy", P.POLICIES)
def test_in_a_race_every_policy_drives_at_its_race_speed(policy):
    g = game(policy, *AR.race_starts[:2], lim=RACE, race_speed=5)
    assert g.policy_plot(0) == (1, 3, "race")        # from a standstill: +3
    g.cars[0, D.C_SPEED], g.cars[0, D.C_DIR] = 3, 1
    assert g.policy_plot(0) == (1, 5, "race")


def test_in_a_race_the_rammer_takes_a_side_ram_and_the_survivor_drives_on():
    def g(policy):
        x = game(policy, (12, 12, N), (11, 12, SE), (3, 20, S), lim=RACE)
        x.cars[0, D.C_LAPK] = 0        # started, heading for the gap
        x.cars[0, D.C_LAPSGN] = 1
        x.cars[1, D.C_SPEED], x.cars[1, D.C_DIR] = 3, 1
        return x
    assert _steer(g("rammer")) == 0
    assert _steer(g("survivor")) != 0
    assert _steer(g("opportunist")) != 0   # car 1 is moving and unhurt: not worth it
    weak = g("opportunist")
    weak.cars[1, D.C_SPEED] = 0            # stopped: now it is
    assert _steer(weak) == 0
