"""Field of Fire and Line of Fire on the board (206 A-D), and the 206 E example on a real line."""

from pathlib import Path

from simkit.core.exact import ScriptedDice
from simkit.demons_run import reference as ref
from simkit.demons_run.pieces.board import DIRECTIONS, distance, load_board, neighbour
from simkit.demons_run.pieces.los import (_pixel_to_hex, centre, fire_solution, in_field_of_fire,
                                   line_of_fire)
from simkit.demons_run.rules import make_rules

R = make_rules()
# the pre-issue-14 board: these scripted positions were written against its hexes
B = load_board(Path(__file__).parent / "fixtures" / "demons-run-board-2025.toml")
N = DIRECTIONS.index("N")


def test_pixel_to_hex_inverts_centre_everywhere():
    assert all(_pixel_to_hex(*centre(c, r)) == (c, r) for c in range(1, 31) for r in range(1, 41))


def test_field_of_fire_is_the_60_degree_cone_206_A():
    f = (10, 20)
    assert in_field_of_fire(f, N, (10, 15))                       # straight ahead
    edge = neighbour(*neighbour(*f, "NE"), "N")                   # centre on the cone's edge
    assert in_field_of_fire(f, N, edge)                           # partially shaded: in
    assert not in_field_of_fire(f, N, neighbour(*f, "NE"))        # only touches the edge: out
    assert not in_field_of_fire(f, N, (10, 23)) and not in_field_of_fire(f, N, f)
    # every direction: the hex ahead is in, the two beside it are out
    for d, name in enumerate(DIRECTIONS):
        assert in_field_of_fire(f, d, neighbour(*neighbour(*f, name), name))
        assert not in_field_of_fire(f, d, neighbour(*f, DIRECTIONS[(d + 1) % 6]))


def test_line_of_fire_counts_range_and_resolves_hexside_lines():
    """206 C: exclusive of the firer's hex, inclusive of the target's; a ruler along a hexside
    touches two hexes at each step and the two sides are traced separately."""
    f = (10, 20)
    assert line_of_fire(f, (10, 13)) == [(10, r) for r in range(19, 12, -1)]   # range 7
    assert distance(f, (10, 13)) == 7
    edge = neighbour(*neighbour(*f, "NE"), "N")
    assert {line_of_fire(f, edge, 1)[0], line_of_fire(f, edge, -1)[0]} == \
        {neighbour(*f, "N"), neighbour(*f, "NE")}


def test_laser_example_206_E_on_the_board():
    """Range 7 past a Hell3 Well hex (-6 only), Pilot +2, roll 9: 9 + 2 - 6 = 5 < 7, missed."""
    firer, target = (13, 25), (17, 20)
    ok, rng, mod, hexes = fire_solution(R, B, firer, DIRECTIONS.index("NE"), target)
    assert ok and rng == 7 and mod == -6 and (16, 20) in hexes
    assert B.fire_class[16, 20] == 3
    assert not ref.fire_hits(ScriptedDice([9]), R, rng, mod + 2)
    assert ref.fire_hits(ScriptedDice([11]), R, rng, mod + 2)


def test_null_blocks_and_range_limit_206_C_D():
    # a line straight through the Null patch at (12, 16)-(13, 16)
    firer = (12, 19)
    ok, rng, mod, hexes = fire_solution(R, B, firer, N, (12, 13))
    assert not ok and (12, 16) in hexes
    ok, rng, _, _ = fire_solution(R, B, (1, 40), N, (1, 27))
    assert rng == 13 and not ok                                   # 12 hexes at most
    ok, rng, mod, _ = fire_solution(R, B, (15, 26), N, (15, 14))  # through the Hell3 hole
    assert ok and rng == 12 and mod == -6 - 3 - 6                 # well, hole, well
