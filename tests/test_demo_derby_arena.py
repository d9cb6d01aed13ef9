"""The Demo Derby arena file: the default map holds every feature the rules name, a broken map
is refused naming file and field, the hex geometry is consistent, and the board command draws."""

import numpy as np
import pytest

from simkit import cli, games
from simkit.core.errors import UserInputError
from simkit.demo_derby.pieces import arena as A


def test_default_arena_has_every_feature_the_rules_name():
    a = A.load_arena()
    t = a.terrain
    assert a.label == "RECONSTRUCTED" and a.source.startswith("reconstructed:")
    for code in (A.WALL, A.RAMP, A.MUD, A.DITCH, A.POLE, A.F8_POLE, A.LINE, A.FIGURE8):
        assert (t == code).any(), A.TERRAIN[code]
    assert (t == A.F8_POLE).sum() == 2
    assert len(a.starts) == 6
    for r, c, f in a.starts:
        assert t[r, c] == A.FLOOR
        nr, nc = A.neighbour(int(r), int(c), int(f))
        assert t[nr, nc] not in (A.WALL, A.RAMP)  # every car starts facing open floor
    # both Figure-8 poles sit inside the Figure-8 area
    for r, c in zip(*np.nonzero(t == A.F8_POLE)):
        ring = [A.neighbour(int(r), int(c), f) for f in range(6)]
        assert all(t[x] in (A.FIGURE8, A.LINE) for x in ring)


def test_hex_geometry():
    for row, col in [(5, 5), (6, 6), (8, 9), (3, 12)]:
        ring = {A.neighbour(row, col, f) for f in range(6)}
        assert len(ring) == 6
        for f in range(6):
            nr, nc = A.neighbour(row, col, f)
            assert A.distance(row, col, nr, nc) == 1
            assert A.neighbour(nr, nc, (f + 3) % 6) == (row, col)  # opposite side returns
        assert A.to_offset(*A.to_axial(row, col)) == (row, col)
    assert A.distance(0, 0, 0, 4) == 4 and A.distance(0, 0, 4, 0) == 4


MAP = [
    "#####",
    "#1.2#",
    "#3O4#",
    "#5O6#",
    "#.S.#",
    "##R##",
]


def write(tmp_path, rows=MAP, facing=None, extra=""):
    facing = facing if facing is not None else {k: "S" for k in "123456"}
    lines = ['source = "test"', "[table.arena]", 'label = "RECONSTRUCTED"',
             'source = "reconstructed: test"', "map = [" + ", ".join(f'"{r}"' for r in rows) + "]",
             extra, "[table.arena.start_facing]"] + [f'"{k}" = "{v}"' for k, v in facing.items()]
    p = tmp_path / "arena.toml"
    p.write_text("\n".join(lines))
    return p


def test_a_minimal_valid_arena_loads(tmp_path):
    a = A.load_arena(write(tmp_path))
    assert a.shape == (6, 5) and a.starts[0].tolist() == [1, 1, 3]


@pytest.mark.parametrize("rows, facing, message", [
    ([MAP[0], "#1.2", *MAP[2:]], None, "row 1 has 4 hexes"),
    ([MAP[0], "#1X2#", *MAP[2:]], None, "unknown map symbol 'X'"),
    ([MAP[0], "#1.1#", *MAP[2:]], None, "start spot 1 appears twice"),
    ([MAP[0], "#1.2.", *MAP[2:]], None, "outer wall must enclose"),
    ([*MAP[:-1], "#####"], None, "access ramp"),
    ([MAP[0], MAP[1], "#3.4#", *MAP[3:]], None, "two poles"),
    ([*MAP[:4], "#...#", MAP[5]], None, "start/finish line"),
    (MAP, {**{k: "S" for k in "12345"}, "6": "UP"}, "start_facing.6"),
])
def test_a_broken_arena_is_refused_naming_file_and_field(tmp_path, rows, facing, message):
    with pytest.raises(UserInputError) as e:
        A.load_arena(write(tmp_path, rows, facing))
    assert "arena.toml" in str(e.value) and message in str(e.value)


@pytest.fixture
def only_this_game(monkeypatch):
    monkeypatch.setattr(games, "PACKAGES", {"demo-derby": "simkit.demo_derby"})


def test_board_command_draws_the_arena(only_this_game, tmp_path, capsys):
    png = tmp_path / "arena.png"
    assert cli.main(["board", "demo-derby", "--plot", str(png)]) == 0
    assert png.stat().st_size > 10_000
    assert "figure8_pole" in capsys.readouterr().out


def test_board_command_bad_arena_exits_2(only_this_game, tmp_path, capsys):
    assert cli.main(["board", "demo-derby", "--arena", str(tmp_path / "nope.toml")]) == 2
    err = capsys.readouterr().err.strip()
    assert "nope.toml: file not found" in err and len(err.splitlines()) == 1


def test_the_default_arena_has_a_starting_grid_behind_the_line():
    a = A.load_arena()
    assert a.race_starts is not None and len(a.race_starts) == 6
    (ar, ac), (br, bc) = a.poles()
    assert ac < bc
    for r, c, f in a.race_starts:
        assert a.terrain[r, c] == A.FIGURE8 and f == 0               # facing N, toward the line
        assert a.terrain[A.neighbour(int(r), int(c), 0)] in (A.LINE, A.FIGURE8)
    # the line lies on the ray from the left pole away from the right one
    for r, c in zip(*np.nonzero(a.terrain == A.LINE)):
        assert r == ar and c < ac


GRID = ["#######", "#1.2.3#", "#4O5O6#", "#abc..#", "#def.S#", "###R###"]


@pytest.mark.parametrize("rows, extra, message", [
    (GRID, "", "grid spot a needs a facing"),
    ([*GRID[:3], "#abb..#", *GRID[4:]], "", "grid spot b appears twice"),
    ([*GRID[:3], "#ab...#", *GRID[4:]], "", "starting grid needs spots a-f"),
    (GRID, "race_facing = 3", "race_facing"),
])
def test_a_broken_starting_grid_is_refused(tmp_path, rows, extra, message):
    with pytest.raises(UserInputError) as e:
        A.load_arena(write(tmp_path, rows, extra=extra))
    assert message in str(e.value)


def test_a_grid_with_facings_loads(tmp_path):
    p = write(tmp_path, GRID)
    p.write_text(p.read_text() + "\n[table.arena.race_facing]\n"
                 + "\n".join(f'{k} = "N"' for k in "abcdef"))
    a = A.load_arena(p)
    assert a.race_starts[0].tolist() == [3, 1, 0]
