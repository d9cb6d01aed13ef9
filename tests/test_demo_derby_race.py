"""The Figure-8 race and the combined event (demo-derby.txt: Figure-8 Race; Variants): lap
counting round the two poles through the gap between them, the race ending at the first car to
finish, races without crashes, no eight-round disqualification in a race, and the derby after a
4-lap race starting with the damage carried over."""

import numpy as np
import pytest

from simkit.core.runner import run
from simkit.demo_derby.pieces import arena as A
from simkit.demo_derby import engine as D
from simkit.demo_derby import policies as P
from simkit.demo_derby.rules import build_tables

T = build_tables()
AR = A.load_arena()
LIM = D.limits_vector(T, AR, laps=8, dq=False)
N = 0

# the default arena: poles at (8, 9) and (8, 15); the start/finish line on the left ray


def laps_along(path, lim=LIM):
    """Feed a car's positions hex by hex (or corner to corner) to the lap counter."""
    cars = np.zeros((1, D.N_CAR), np.int64)
    cars[0, D.C_LAPK] = -1
    for (r0, c0), (r1, c1) in zip(path, path[1:]):
        D._lap_step(0, r0, c0, r1, c1, cars, lim)
    return D.laps_done(cars, 0), int(cars[0, D.C_LAPK])


# one lap driven by a racing car on the default arena (the hexes it moved through)
LAP = [(8, 6), (7, 7), (7, 8), (6, 9), (7, 10), (7, 11), (8, 11), (9, 12), (9, 13), (10, 14),
       (10, 15), (10, 16), (9, 16), (8, 17), (7, 17), (7, 16), (6, 15), (7, 14), (7, 13), (8, 13),
       (9, 12), (9, 11), (10, 10), (10, 9), (10, 8), (9, 8), (8, 7)]


def test_a_figure_8_counts_one_lap_per_circuit():
    assert laps_along([(9, 6)] + LAP) == (1, 4)
    assert laps_along([(9, 6)] + LAP * 3) == (3, 12)
    for (r0, c0), (r1, c1) in zip(LAP, LAP[1:]):   # the driven lap is made of adjacent hexes
        assert A.distance(r0, c0, r1, c1) == 1


def test_an_oval_round_both_poles_or_a_loop_round_one_pole_is_not_a_lap():
    oval = [(10, 5), (6, 5), (5, 12), (6, 19), (10, 19), (11, 12)] * 4 + [(10, 5)]
    assert laps_along(oval)[0] == 0
    loop_a = [(10, 6), (6, 6), (6, 12), (10, 12)] * 4 + [(10, 6)]
    assert laps_along(loop_a)[0] == 0
    eight = [(10, 6), (6, 6), (6, 12), (10, 12), (10, 18), (6, 18), (6, 12), (10, 12), (10, 6),
             (6, 6)]
    assert laps_along(eight) == (1, 4)
    # the mirror image (round the left pole the other way) is a figure 8 too
    mirror = [(6, 6), (10, 6), (10, 12), (6, 12), (6, 18), (10, 18), (10, 12), (6, 12), (6, 6),
              (10, 6)]
    assert laps_along(mirror) == (1, 4)


def test_backing_over_a_line_undoes_the_crossing():
    assert laps_along([(9, 6), (8, 6), (9, 6)]) == (0, -1)          # back behind the line
    part = [(10, 6), (6, 6), (6, 12), (10, 12)]
    assert laps_along(part)[1] == 1
    assert laps_along(part + [(6, 12)])[1] == 0                     # back through the gap
    assert laps_along(part + [(6, 12), (10, 12)])[1] == 1


def test_the_crossings_are_read_from_the_pole_line():
    assert D.lap_crossing(9, 6, 8, 6, LIM) == (0, 1)     # left ray, upward: the line
    assert D.lap_crossing(7, 12, 9, 12, LIM) == (1, -1)  # the gap, downward
    assert D.lap_crossing(9, 18, 7, 18, LIM) == (2, 1)   # right ray, upward
    assert D.lap_crossing(6, 6, 6, 12, LIM) == (-1, 0)   # above the line: nothing


def race(n_cars=2, laps=1, crashes=True, policy="survivor", seed=3, trial=0, **params):
    lim = D.limits_vector(T, AR, laps=laps, crashes=crashes, dq=False)
    p = np.stack([P.policy_params(policy, k, **params) for k in range(n_cars)])
    g = D.DerbyGame(T, AR, n_cars, starts=AR.race_starts[:n_cars], params=p, lim=lim)
    g.seed(seed, trial)
    return g, g.play()


def test_the_first_car_to_finish_wins_and_the_race_stops_at_once():
    g, (winner, rounds) = race(n_cars=3, laps=2)
    ev = g.events()
    laps = ev.query("event == 'lap'")
    final = laps.query("a == 2")
    assert len(final) == 1 and final.iloc[0]["car"] == winner
    # nothing moves after the winning hex
    after = ev.loc[final.index[0] + 1:]
    assert not (after["event"] == "move").any()
    assert g.sheets[winner, D.LAPS] == 2                    # marked on the record sheet
    assert all(D.laps_done(g.cars, i) < 2 for i in range(3) if i != winner)


def test_laps_follow_the_rule_8_by_default_and_a_race_ends_before_64_rounds():
    g, (winner, rounds) = race(n_cars=2, laps=8, crashes=False)
    assert winner >= 0 and D.laps_done(g.cars, winner) == 8 and rounds < 64


def test_a_race_without_crashes_has_none_and_the_last_car_moving_wins_otherwise():
    for trial in range(10):
        g, _ = race(n_cars=6, laps=2, crashes=False, trial=trial)
        assert "crash" not in set(g.events()["event"])
    # with crashes, hunters wreck each other; whoever is left moving wins
    g, (winner, rounds) = race(n_cars=3, laps=8, policy="hunter", seed=1)
    assert winner >= 0 and g.cars[winner, D.C_ALIVE] == 1
    assert (g.cars[:, D.C_ALIVE].sum() == 1) or D.laps_done(g.cars, winner) == 8


def test_no_eight_round_disqualification_in_a_race():
    sc = D.EventSimulation(T, AR, np.stack([P.policy_params("survivor", k) for k in range(4)]),
                           AR.race_starts[:4], LIM, np.zeros(D.N_LIM, np.int64))
    t = run(sc, 300, seed=2, progress=False).totals
    dq = sum(t[D.S_REASONS + 6 * i + D.R_DQ] for i in range(4))
    assert dq == 0
    # the same cars in a derby are disqualified now and then
    derby = D.EventSimulation(T, AR, sc.params, AR.starts[:4], D.limits_vector(T, AR),
                              np.zeros(D.N_LIM, np.int64))
    t = run(derby, 300, seed=2, progress=False).totals
    assert sum(t[D.S_REASONS + 6 * i + D.R_DQ] for i in range(4)) > 0


def test_the_combined_event_carries_damage_and_cards_into_the_derby():
    g, _ = race(n_cars=4, laps=4, policy="rammer", seed=4)
    sheets = g.sheets.copy()
    held = g.held.copy()
    alive = g.cars[:, D.C_ALIVE].copy()
    assert sheets.sum() > 0
    D.regroup(g.S, AR.starts[:4], T.card_effect)
    assert np.array_equal(g.sheets, sheets)                 # the damage is kept
    for i in np.flatnonzero(alive):
        assert tuple(g.cars[i, [D.C_ROW, D.C_COL, D.C_FACING]]) == tuple(AR.starts[i])
        assert g.cars[i, D.C_SPEED] == 0 and g.occ[AR.starts[i][0], AR.starts[i][1]] == i + 1
        fenders = [c for c in held[i] if c >= 0 and T.card_effect[c] == D.E_FENDERS]
        assert sorted(c for c in g.held[i] if c >= 0) == sorted(
            c for c in held[i] if c >= 0 and c not in fenders)
    assert (g.occ > 0).sum() == alive.sum()                 # wrecks cleared


def test_combined_event_statistics_add_the_race_and_the_derby():
    lim = D.limits_vector(T, AR, laps=4, dq=False)
    p = np.stack([P.policy_params(x, k) for k, x in
                  enumerate(["survivor", "rammer", "opportunist", "hunter"])])
    sim = D.EventSimulation(T, AR, p, AR.race_starts[:4], lim, D.limits_vector(T, AR),
                            AR.starts[:4])
    n = 400
    t = run(sim, n, seed=9, progress=False).totals
    race_rounds = t[D.S_RACE_ROUNDS]
    assert 0 < race_rounds < t[D.S_ROUNDS]
    assert t[D.S_RACEWIN:D.S_RACEWIN + 6].sum() <= n
    assert t[D.S_WINS:D.S_WINS + 6].sum() + t[D.S_TIES] + t[D.S_TIE64] == n


@pytest.mark.parametrize("kind", ["derby", "figure8", "combined"])
def test_events_are_identical_for_any_chunk_size_and_thread_count(kind):
    p = np.stack([P.policy_params(x, k) for k, x in
                  enumerate(["survivor", "rammer", "opportunist", "hunter", "rammer"])])
    derby = D.limits_vector(T, AR)
    none = np.zeros(D.N_LIM, np.int64)
    if kind == "derby":
        sim = D.EventSimulation(T, AR, p, AR.starts, derby, none, random_spots=True)
    elif kind == "figure8":
        sim = D.EventSimulation(T, AR, p, AR.race_starts, LIM, none, random_spots=True)
    else:
        sim = D.EventSimulation(T, AR, p, AR.race_starts, D.limits_vector(T, AR, laps=4, dq=False),
                                derby, AR.starts, random_spots=True)
    a = run(sim, 1500, seed=4, chunk_size=500, threads=1, progress=False)
    b = run(sim, 1500, seed=4, chunk_size=377, threads=2, progress=False)
    assert np.array_equal(a.totals, b.totals)
    assert a.totals[D.S_SPOTN:D.S_SPOTN + 6].sum() == 5 * 1500
