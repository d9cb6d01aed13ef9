"""Free Floater, High Roller and Hell Hound movement (204 G-J, 204 O): the 204 H and 204 I
examples with scripted dice, the Gravity Whip, and the compiled kernel held to the reference on
random scripts."""

from pathlib import Path
import numpy as np

from simkit.core import dice
from simkit.core.exact import ScriptedDice
from simkit.demons_run.pieces import markers as M
from simkit.demons_run.pieces.layout import board_tables
from simkit.demons_run.pieces.board import DIRECTIONS, distance, load_board, neighbour
from simkit.demons_run.rules import make_rules

R = make_rules()
# the pre-issue-14 board: these scripted positions were written against its hexes
B = load_board(Path(__file__).parent / "fixtures" / "demons-run-board-2025.toml")
A = M.board_arrays(B)
BT = board_tables(B)


def kernel(pos, kind, rolls, rules=R):
    st = dice.scripted_state()
    out = M.kernel_move_marker(st, dice.as_script(rolls), pos[0], pos[1], kind, BT,
                               rules.t("marker_movement")["moves_at_most"], M._whip_steps(rules))
    assert dice.script_position(st) == len(rolls)
    return tuple(int(v) for v in out)


def both(pos, kind, rolls, rules=R):
    d = ScriptedDice(rolls)
    a = M.move_marker(d, rules, B, pos, kind)
    assert d.exhausted
    assert kernel(pos, kind, rolls, rules) == a
    return a


def test_free_floater_example_204_H():
    """'The first die roll is a 2 and the second a 5: the Buoy moves two hexes through hexside 5.'"""
    start = (5, 20)
    d = DIRECTIONS[list(B.hexsides.values()).index(5)]
    assert both(start, M.FREE, [2, 5]) == neighbour(*neighbour(*start, d), d)
    assert both(start, M.FREE, [4]) == start            # 4-6: no movement
    assert both((1, 1), M.FREE, [3, 1]) == (1, 1)       # would leave the board: stays
    assert both((2, 1), M.FREE, [3, 4]) == (2, 4)       # direction 4 (S) leaves the top edge


def test_high_roller_example_204_I():
    """A High Roller rolls 4 and moves four Well hexes in the hole's rotation."""
    hole = next(h for h in B.holes if h.rotation == "ccw" and h.cls == "hell3")
    start = hole.well[0]
    expect = hole.well[(0 - 4) % 6]
    assert both(start, M.ORBIT_ONLY, [4]) == expect           # the Lucifer Buoy
    assert both(start, M.FREE, [5, 4]) == expect              # a Free Floater turned High Roller
    easy = B.markers["easy"][0]
    assert both(easy, M.EASY, []) == easy                     # 204 G


def test_gravity_whip_204_O_and_becoming_a_high_roller():
    top = B.holes[0]                                   # Hell2 at (15, 10), clockwise
    assert top.center == (15, 10) and top.rotation == "cw"
    # 3 hexes south from (15, 6): the third is the N Well hex -> ends there, a High Roller
    assert both((15, 6), M.FREE, [3, 4]) == top.well[0]
    # from (15, 7): enters the N Well hex with one hex left: whipped to SE (card), then S
    assert both((15, 7), M.FREE, [3, 4]) == neighbour(*top.well[2], "S")
    rules_variant = make_rules({"marker_whip": "rules"})
    assert both((15, 7), M.FREE, [3, 4], rules_variant) == neighbour(*top.well[3], "S")


def test_kernel_equals_reference_on_random_scripts():
    rng = np.random.default_rng(4)
    starts = [(1, 1), (30, 40), (15, 7), (16, 9), (14, 20), (5, 5), (7, 12), (23, 27)]
    for _ in range(1500):
        pos = starts[rng.integers(len(starts))]
        kind = M.FREE if B.terrain[pos] != 0 or rng.random() < 0.8 else M.EASY
        if pos in [h for hole in B.holes for h in hole.well] and rng.random() < 0.3:
            kind = M.ORBIT_ONLY
        rolls = list(rng.integers(1, 7, size=3))
        d = ScriptedDice(rolls)
        ref = M.move_marker(d, R, B, pos, kind)
        used = rolls[:d.pos]
        assert kernel(pos, kind, used) == ref


def test_hell_hound_step_F_stops_at_closest_approach_and_detonates():
    """204 J / 207 A example shape: the hound moves 1 -> 2 -> 3 towards a ship and detonates
    at 3, its closest point, though it could have attacked at 2."""
    from types import SimpleNamespace
    from simkit.demons_run.builds import worked_ship
    from simkit.demons_run.reference import ship_from_build
    start = (10, 20)
    ship = SimpleNamespace(pos=(10, 25), ship=ship_from_build(worked_ship()), screens=4)
    # die 3, hexside 4 (S): path 10,21 / 10,22 / 10,23 -- distances 4, 3, 2 -> stops at 10,23
    # (within two hexes at the end): 2d6 = 9 -> 9 - 4 = 5 hits, then three checks (14, 12, 10)
    where, attack = M.move_hell_hound(ScriptedDice([3, 4, 9, 1, 1, 1]), R, B, start, [ship])
    assert where == (10, 23) and attack[0] == 0 and attack[1] == 2 and attack[2].si_loss == 5
    # a ship it passes: the hound stops at the closest hex, not at the end of its move
    near = SimpleNamespace(pos=(12, 22), ship=ship_from_build(worked_ship()), screens=4)
    path = [(10, 20), (10, 21), (10, 22), (10, 23)]
    assert [distance(h, near.pos) for h in path] == [3, 2, 2, 2]
    where, attack = M.move_hell_hound(ScriptedDice([3, 4, 10, 1, 1, 1]), R, B, start, [near])
    assert where == (10, 21) and attack[1] == 2 and attack[2].si_loss == 6
    # no ship within two hexes: an ordinary Free Floater move
    far = SimpleNamespace(pos=(25, 5), ship=ship_from_build(worked_ship()), screens=4)
    assert M.move_hell_hound(ScriptedDice([2, 4]), R, B, start, [far]) == ((10, 22), None)


def test_drift_after_one_turn_matches_exact_means_and_is_reproducible():
    """One Turn: a Free Floater in open space moves 1-3 hexes with chance 1/6 each (mean 1);
    an orbiting Buoy is uniform round its hole (ring distances 1, 2, 2, 2, 1, 0: mean 4/3)."""
    from simkit.core.runner import run
    sim = M.DriftSim(R, B, 1)
    a = run(sim, 30_000, 3, chunk_size=7777, progress=False)
    b = run(sim, 30_000, 3, chunk_size=1000, threads=1, progress=False)
    assert np.array_equal(a.totals, b.totals)
    f = a.frame.set_index(["marker", "number"])
    ff = f.loc[("free_floater", 1)]
    assert ff.start == "15,4" and ff.mean_hexes_lo <= 1.0 <= ff.mean_hexes_hi
    ast = f.loc[("astaroth", 1)]
    assert ast.p_in_well == 1 and ast.mean_hexes_lo <= 4 / 3 <= ast.mean_hexes_hi
    assert f.loc[("easy", 1)].mean_hexes_from_start == 0
    assert sim.occupancy.sum() == 30_000 * (len(sim.labels) - len(B.markers["easy"]))


def test_board_drift_command(monkeypatch, tmp_path, capsys):
    from simkit import cli, games
    monkeypatch.setattr(games, "available", lambda: ["demons-run"])
    out = tmp_path / "drift.png"
    assert cli.main(["board", "demons-run", "--drift", "3", "--trials", "2000",
                     "--plot", str(out)]) == 0
    assert "lucifer" in capsys.readouterr().out and out.stat().st_size > 10_000
    assert cli.main(["board", "demons-run", "--drift", "31"]) == 2
