"""How games end (issue 15): the per-side endings frame with intervals, the stalemate end
(nothing left can move or shoot), and no Game Six game frozen to the turn limit."""

from pathlib import Path

import numpy as np

from simkit.core import dice
from simkit.dark_future import engine as EG
from simkit.dark_future import scenario as GM
from simkit.dark_future import policies as PO
from simkit.dark_future.pieces import vehicle as VH

from test_dark_future_engine import World

SCEN = Path(__file__).resolve().parents[1] / "scenarios" / "dark-future"


def _run(name, n, seed=2026):
    sim = GM.GameSim(GM.load_scenario(SCEN / f"{name}.toml"))
    return sim.summarise(sim.chunk(dice.stream_key(seed), 0, n), n)


def test_endings_frame_partitions_each_sides_games_and_matches_the_wins():
    n = 300
    for name in ("game-1", "game-6"):
        frame = _run(name, n)
        end = frame.attrs["extra"]["how games ended, per side"]
        assert list(end.columns) == ["scenario", "side", "policy", "measure", "ending", "games",
                                     "trials", "rate", "rate_lo", "rate_hi"]
        assert (end.rate_lo <= end.rate).all() and (end.rate <= end.rate_hi).all()
        reasons = frame.attrs["extra"]["how games ended"].set_index("how the game ended").games
        for _, row in frame.iterrows():
            e = end[end.side == row.side]
            res = e[e.measure == "result"]
            assert res.games.sum() == n                       # every game once per side
            assert res[res.ending.str.startswith("won")].games.sum() == row.wins
            assert res[res.ending.str.startswith("drawn")].games.sum() == row.draws
            for why, k in reasons.items():                  # the same reasons as the totals
                assert res[res.ending.str.endswith(": " + why)].games.sum() == k
            veh = e[e.measure == "vehicles"].set_index("ending").games
            assert list(veh.index) == list(GM.FATE_NAMES)
            if name == "game-1":
                # Game One: a lead car over the line won it (a chase car driven off the end
                # of the track crosses it too, and is merely out)
                won_line = res[res.ending == "won: " + EG.REASON_NAMES[EG.REASON_FINISH]].games
                assert veh["crossed the line"] >= int(won_line.iloc[0]) > 0
            else:
                assert veh["crossed the line"] == 0         # continuous track: no line
        # the two sides' wins and losses mirror each other
        a, b = (end[(end.side == s) & (end.measure == "result")].set_index("ending").games
                for s in frame.side)
        for why in EG.REASON_NAMES:
            assert a["won: " + why] == b["lost: " + why] and a["drawn: " + why] == b["drawn: " + why]
    six = _run("game-6", n).attrs["extra"]["how games ended, per side"]
    crashed = six[six.ending.str.startswith("crashed") & (six.measure == "vehicles")]
    assert crashed.games.sum() > 0                           # bikes and cars do crash


def test_how_games_ended_is_a_public_tidy_frame():
    end = GM.how_games_ended(SCEN / "game-6.toml", trials=50, seed=7)
    assert set(end.side) == {"gang", "op"} and (end.trials == 50).all()


def test_stalemate_ends_the_game_when_nothing_can_move_or_shoot():
    """Game Six (p88): a side immobilised *with* weapons is not beaten. When every vehicle left
    in play is stopped for good and none has a shot, nothing can change: the game ends as a
    draw at once instead of running to the turn limit."""
    w = World(scenario="game-6.toml")
    n = w.a.G[EG.G_NV]
    pol = np.stack([PO.policy_vector("standard")] * n)
    for v in range(n):
        w.WS[v] = w.a.LOAD[v, 0]
    # the gang car and the Op stopped for good, side by side out of each other's corridors;
    # the bikes crashed
    w.place(0, 2, 0, 1, 0, side=0, role=VH.LEAD)
    w.place(3, 2, 4, 1, 0, side=1, role=VH.CHASE, kind=1)
    for v in (1, 2):
        w.place(v, 1, 2, 0, 0, side=0, role=VH.LEAD)
        w.V[v, VH.V_STATUS] = VH.CRASHED
    w.V[0, VH.V_ENGOFF] = w.V[3, VH.V_ENGOFF] = 1
    assert EG.armed(w.V, w.WS, 0) and EG.armed(w.V, w.WS, 3)
    assert not EG._beaten(w.V, w.WS, n, 0) and not EG._beaten(w.V, w.WS, n, 1)
    assert EG._stalemate(w.B, w.T, w.V, w.WS, n, pol, w.K, w.hp)
    # one of them could still move: not over
    w.V[3, VH.V_ENGOFF] = 0
    assert not EG._stalemate(w.B, w.T, w.V, w.WS, n, pol, w.K, w.hp)
    w.V[3, VH.V_ENGOFF] = 1
    # the Op in the gang car's lanes behind it: its hood gun has a shot, the game goes on
    w.place(3, 2, 0, 0, 0, side=1, role=VH.CHASE, kind=1)
    w.V[3, VH.V_ENGOFF] = 1
    assert not EG._stalemate(w.B, w.T, w.V, w.WS, n, pol, w.K, w.hp)


def test_a_chase_car_shoots_a_stranded_enemy_instead_of_shuttling_behind_it():
    """Seeded Game Six trials 486 and 590 (of 2,000) drew at the turn limit: the Op stopped
    behind a gang car stranded with no handling (but a working gun, so not beaten, p88) moved
    off, braked to a stop in front of it, reversed, and again, for 25 turns, never shooting
    (a stopped chase car shot only at a moving target). A stopped chase car now takes its shot;
    a lead car shoots a target stopped for good."""
    w = World()
    std = PO.policy_vector("standard")
    w.place(0, 1, 2, 2, 0, side=0, role=VH.LEAD)
    w.place(1, 1, 2, 0, 0, side=1, role=VH.CHASE)
    w.WS[1] = w.a.LOAD[1, 0]
    w.WS[0, :, VH.W_AMMO] = 0
    w.V[0, VH.V_HAND] = -1
    act, _ = PO.decide(w.B, w.T, w.V, w.WS, 2, 1, False, w.hp, std, *w.dice)
    assert act == PO.A_SHOOT
    # the lead car stopped behind a stranded enemy shoots too (it would only shuttle); behind
    # one that can still move off it moves off itself (it means to escape)
    w.place(0, 1, 2, 0, 0, side=0, role=VH.LEAD)
    w.place(1, 1, 2, 2, 0, side=1, role=VH.CHASE)
    w.WS[0] = w.a.LOAD[0, 0]
    w.WS[1, :, VH.W_AMMO] = 0
    act, _ = PO.decide(w.B, w.T, w.V, w.WS, 2, 0, False, w.hp, std, *w.dice)
    assert act != PO.A_SHOOT
    w.V[1, VH.V_ENGOFF] = 1
    act, _ = PO.decide(w.B, w.T, w.V, w.WS, 2, 0, False, w.hp, std, *w.dice)
    assert act == PO.A_SHOOT
