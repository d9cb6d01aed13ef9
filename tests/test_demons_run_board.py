"""The board file format and the RECONSTRUCTED default board (rules-data.md 2.5), and the
board-free movement arithmetic of 204 L-O (examples of 204 M and 204 O)."""

import pytest

from simkit import cli, games
from simkit.core.errors import UserInputError
from simkit.demons_run import movement
from simkit.demons_run.board import (DIRECTIONS, HOLE, NULL, WELL, default_board_path, distance,
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
    assert b.corners["A"] == (1, 1) and b.corners["D"] == (30, 40)
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
