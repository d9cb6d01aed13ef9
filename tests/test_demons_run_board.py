"""The board file format and the RECONSTRUCTED default board (rules-data.md 2.5), and the
board-free movement arithmetic of 204 L-O (examples of 204 M and 204 O)."""

from pathlib import Path

import pytest

from simkit import cli, games
from simkit.core.errors import UserInputError
from simkit.demons_run.pieces import movement
from simkit.demons_run.pieces.movement import whip_velocity_next_turn
from simkit.demons_run.pieces.board import (DIRECTIONS, HOLE, NULL, WELL, default_board_path, distance,
                                     load_board, neighbour)


@pytest.fixture
def only_demons_run(monkeypatch):
    monkeypatch.setattr(games, "available", lambda: ["demons-run"])


def test_hex_geometry_neighbours_are_adjacent_to_each_other():
    for c in [(15, 10), (16, 10), (1, 1), (30, 40)]:
        ring = [neighbour(*c, d) for d in DIRECTIONS]
        assert all(distance(c, h) == 1 for h in ring)
        assert all(distance(a, b) == 1 for a, b in zip(ring, ring[1:] + ring[:1]))
    assert distance((1, 1), (1, 3)) == 2


def test_default_board_meets_the_rule_text_constraints():
    b = load_board()
    assert b.label == "RECONSTRUCTED" and "rules-data.md 2.5" in b.source
    big = sorted((h for h in b.holes if h.cls != "hell"), key=lambda h: h.center[1])
    assert [h.cls for h in big] == ["hell2", "hell3", "hell2"]          # 004 A NOTE
    for h in big:                                                       # wells all Hell Fire
        assert set(h.well_terrain.values()) == {"hell_fire"} and len(h.well) == 6
        assert all(b.fire_class[x] == ("hell", "hell2", "hell3").index(h.cls) + 1 for x in h.well)
        assert b.terrain[h.center] == HOLE
    plain = [h for h in b.holes if h.cls == "hell"]
    assert plain and any("null" in h.well_terrain.values() for h in plain)
    assert b.finish == {"A": "D", "D": "A", "B": "C", "C": "B"}         # 211 A
    assert b.corners["A"] == (1, 1) and b.corners["D"] == (31, 40)
    assert b.markers["astaroth"][0] in big[0].well and b.markers["belial"][0] in big[2].well
    assert b.markers["lucifer"][0] in big[1].well and len(b.markers["hell_hound"]) == 3
    assert b.hexsides["N"] == 1 and b.hexsides["S"] == 4


def test_a_null_well_hex_is_null_only():
    """004 A: 'A ship entering one of these hexes is in the Null Zone only.'"""
    b = load_board()
    h = next(h for h in b.holes if "null" in h.well_terrain.values())
    x = next(x for x, t in h.well_terrain.items() if t == "null")
    assert b.terrain[x] == NULL and b.hole_of[x] == 0
    y = next(x for x, t in h.well_terrain.items() if t == "plain")
    assert b.terrain[y] == WELL


def test_a_bad_board_lists_every_problem(tmp_path):
    text = default_board_path().read_text()
    text = text.replace('class = "hell3"', 'class = "hell4"').replace("A = [1, 1]", "A = [0, 1]")
    text = text.replace("belial = [15, 31]", "belial = [1, 2]")
    p = tmp_path / "bad.toml"
    p.write_text(text)
    with pytest.raises(UserInputError) as e:
        load_board(p)
    msg = str(e.value)
    assert "class must be one of" in msg and "corners.A" in msg and "markers.belial" in msg
    assert str(p) in msg


def test_board_command_plots(only_demons_run, tmp_path, capsys):
    out = tmp_path / "board.png"
    assert cli.main(["board", "demons-run", "--plot", str(out)]) == 0
    assert out.stat().st_size > 10_000
    assert "RECONSTRUCTED" in capsys.readouterr().out
    assert cli.main(["board", "demons-run", "--file", str(tmp_path / "none.toml")]) == 2
    assert "file not found" in capsys.readouterr().err


def test_hell_hole_escape_example_204_M():
    """Accelerates to 4: escapes, 4 - 3 = 1 hex. To 6: escapes, moves 3."""
    assert movement.hell_hole_escape(4) == (True, 1)
    assert movement.hell_hole_escape(6) == (True, 3)
    assert movement.hell_hole_escape(3) == (False, 3)
    assert [movement.hell_hole_entry(v) for v in (4, 5, 8, 9)] == ["whip", "captured", "captured", "pass"]


def test_gravity_whip_example_204_O():
    """Enters the Well at 4 and whips through 4 (or 5) hexes: Velocity 8 next Turn; never +12."""
    assert movement.well_entry(4) == "whip" and movement.well_entry(5) == "normal"
    assert movement.whip_velocity_next_turn(4, 4) == 8
    assert movement.whip_velocity_next_turn(4, 5) == 8      # gain capped at +4
    assert movement.whip_velocity_next_turn(2, 1) == 3
    with pytest.raises(ValueError):
        movement.whip_velocity_next_turn(4, 7)


# --- a ship's movement over the board (204 C-F, K-O) --------------------------------------------

from simkit.core.exact import ScriptedDice  # noqa: E402
from simkit.demons_run.builds import worked_ship  # noqa: E402
from simkit.demons_run.pieces.movement import IllegalMove, ShipMove, move_ship  # noqa: E402
from simkit.demons_run.reference import ship_from_build  # noqa: E402
from simkit.demons_run.rules import SI, make_rules  # noqa: E402

RULES = make_rules()
# the pre-issue-14 board: the scripted positions below were written against its hexes
OLD_BOARD = Path(__file__).parent / "fixtures" / "demons-run-board-2025.toml"
S = DIRECTIONS.index("S")


def ship_at(pos, facing=S, velocity=3, maneuver=8):
    return ShipMove(pos=pos, facing=facing, velocity=velocity, maneuver=maneuver, screens=4,
                    pi_modifier=0, ship=ship_from_build(worked_ship()))


def go(pos, plan, rolls=(), **kw):
    d = ScriptedDice(list(rolls))
    s = move_ship(d, RULES, load_board(OLD_BOARD), ship_at(pos, **kw), plan)
    assert d.exhausted
    return s


def test_turning_limits_204_E():
    """Maneuver Engines '2/3' (Level 8): two turns in one hex, three in the Turn (diagram B)."""
    assert RULES.maneuver(8) == (2, 3)
    s = go((10, 20), "RRFLFF", velocity=3)
    assert s.turning_movements == 3 and s.facing == (S + 1) % 6
    with pytest.raises(IllegalMove, match="2 turning movements in one hex"):
        go((10, 20), "RRRFFF", velocity=3)
    # a Velocity that allows only one turning movement takes priority over the engines
    assert RULES.turns_allowed(6) == 1
    go((10, 20), "RFFFFFF", velocity=6)
    with pytest.raises(IllegalMove, match="only 1 turning movements"):
        go((10, 20), "RFRFFFFF", velocity=6)


def test_every_movement_point_is_used_204_C():
    with pytest.raises(IllegalMove, match="must enter 3 hexes"):
        go((10, 20), "FF", velocity=3)
    with pytest.raises(IllegalMove, match="enters exactly 3"):
        go((10, 20), "FFFF", velocity=3)


def test_null_attack_stops_the_ship_204_K():
    b = load_board(OLD_BOARD)
    start = neighbour(12, 16, "N")            # a Null hex lies one hex south
    assert b.terrain[12, 16] == 2
    s = go(start, "FFF", rolls=[5], velocity=3)   # 2d6 = 5 + PI 0 <= 5: lost in Null
    assert s.lost_in_null and s.pos == (12, 16) and s.velocity == 0
    s = go(start, "FFF", rolls=[6], velocity=3)   # 6: the attack fails, movement goes on
    assert not s.lost_in_null and s.pos == (12, 18)


def test_hell_hole_capture_and_pass_204_M():
    """V6 through a plain Well hex into the hole: captured, attacked (1d6 = 3), Velocity 0."""
    s = go((6, 8), "FFFFFF", rolls=[3, 1, 1], velocity=6)
    assert s.captured and s.pos == (6, 12) and s.velocity == 0
    assert s.ship[SI] == 14 - 3
    s = go((6, 8), "FFFFFFFFF", velocity=9)       # 9 or more: moves through unharmed
    assert not s.captured and s.pos == (6, 17)


def test_gravity_whip_example_204_O_on_the_board():
    """V4: two hexes, into the Well, whipped five Well hexes (no MP), last 2 MPs out; V8 next Turn."""
    b = load_board(OLD_BOARD)
    hole = b.holes[3]                              # northwest plain hole, counter-clockwise
    assert hole.center == (6, 12) and hole.rotation == "ccw"
    # the whip passes the SW Well hex, which is Null: 2d6 = 7 + 0 > 5, the attack fails
    s = go((6, 8), "FFFW5FF", rolls=[7], velocity=4)
    assert ("whip", 5) in s.events and s.whip_gain == 4
    assert whip_velocity_next_turn(4, 5) == 8
    assert s.pos == neighbour(*neighbour(*hole.well[2], "S"), "S")
    with pytest.raises(IllegalMove, match="whips the ship"):
        go((6, 8), "FFFFF", velocity=4)
    with pytest.raises(IllegalMove, match="no turning movement in a Gravity Well"):
        go((6, 9), "FFW1LF", velocity=4)


def test_hell_fire_attacks_on_entry_movement_unaffected_204_N():
    """204 N: 'A ship entering a Hell Fire hex will be attacked by the Hell Fire immediately as
    the ship enters' and 'The Hell Fire will not effect the movement': at Velocity 5 straight
    south from (10, 3) through the Hell Fire hexes (10, 5) and (10, 6), each is attacked as it
    is entered, and the ship still ends five hexes on, damaged or not."""
    b = load_board(OLD_BOARD)
    assert [int(b.fire_class[10, r]) for r in range(4, 9)] == [0, 1, 1, 0, 0]
    t = RULES.turns_allowed(5)
    # (10, 5): 2d6 = 2 -> 2 + t - 4 < 2, no damage; (10, 6): 2d6 = 12 -> r = 8 + t: r // 2
    # crisis rolls (7s) then r SI Levels lost, every even Level checked (1s: no Critical Hit)
    r = 12 + t - 4
    assert 2 + t - 4 < 2 and r < 14
    checks = 14 // 2 - (14 - r) // 2
    s = go((10, 3), "FFFFF", rolls=[2, 12] + [7] * (r // 2) + [1] * checks, velocity=5)
    fire = [e for e in s.events if e[0] == "hell_fire"]
    assert fire == [("hell_fire", (10, 5), []), ("hell_fire", (10, 6), [7] * (r // 2))]
    assert s.pos == (10, 8) and s.ship[SI] == 14 - r and not s.captured


def test_leaving_the_board_disqualifies_211_A():
    s = go((1, 1), "FFF", velocity=3, facing=DIRECTIONS.index("N"))
    assert s.off_board


def test_hell_hound_detonates_at_closest_approach_207_A():
    """Distances along the path 2, 1, 1, 2: it detonates on the first hex at one hex (3d6)."""
    path = [(10, 20), (10, 21), (10, 22), (10, 23)]
    hound = (11, 22)
    assert [distance(p, hound) for p in path] == [2, 1, 1, 2]
    hounds = [hound, (25, 5)]
    # 3d6 = 10 at one hex: 10 - Screens 4 = 6 hits, SI 14 -> 8: Levels 14, 12, 10 checked
    d = ScriptedDice([10, 1, 1, 1])
    s = move_ship(d, RULES, load_board(OLD_BOARD), ship_at((10, 20), velocity=3), "FFF", hounds=hounds)
    assert d.exhausted and hounds == [(25, 5)]          # the far hound stays, this one is spent
    assert ("hell_hound", hound, 1, 6, (10, 21)) in s.events and s.ship[SI] == 8
    assert s.pos == (10, 23)


def test_buoy_recovery_during_movement_205():
    """Tractor 10 at Velocity 5: after two hexes, a Buoy three hexes away in plain space (-2 -6):
    die 3 -> 10 + 3 - 8 = 5, recovered; a second attempt the same Turn needs another hex first."""
    board = load_board(OLD_BOARD)

    def tractor_ship(tractor=10):
        s = ship_at((10, 20), velocity=5)
        s.tractor = tractor
        return s

    assert distance((10, 22), (13, 22)) == 3 and board.terrain[13, 22] == 0
    buoys = [[(13, 22), "free_floater"], [(10, 30), "easy"]]
    d = ScriptedDice([3])
    s = move_ship(d, RULES, board, tractor_ship(), "FFT0FFF", buoys=buoys)
    assert d.exhausted and s.recovered == ["free_floater"] and buoys[0] is None
    assert s.tractor_uses == 1
    # a die of 2 fails (10 + 2 - 8 = 4); the next attempt, one hex on, is at -1 more (205 B g)
    buoys = [[(13, 22), "free_floater"]]
    d = ScriptedDice([2, 6])
    s = move_ship(d, RULES, board, tractor_ship(), "FFT0FT0FF", buoys=buoys)
    assert d.exhausted and s.tractor_uses == 2 and s.recovered == ["free_floater"]
    with pytest.raises(IllegalMove, match="move at least one hex"):
        move_ship(ScriptedDice([]), RULES, board, tractor_ship(), "FT0T1FFFF",
                  buoys=[[(12, 22), "easy"], [(10, 30), "easy"]])
    with pytest.raises(IllegalMove, match="no Tractor Levels"):
        move_ship(ScriptedDice([]), RULES, board, tractor_ship(0), "FT0FFFF", buoys=buoys)


def test_recovery_terrain_takes_the_most_severe_modifier():
    from simkit.demons_run.pieces.movement import recovery_terrain_modifier
    b = load_board(OLD_BOARD)
    lucifer = b.markers["lucifer"][0]
    assert recovery_terrain_modifier(RULES, b, lucifer) == -6          # Hell3 Fire beats the Well
    plain_well = next(x for x, t in b.holes[3].well_terrain.items() if t == "plain")
    assert recovery_terrain_modifier(RULES, b, plain_well) == -2
    assert recovery_terrain_modifier(RULES, b, (10, 5)) == -1          # a Hell Fire zone hex
