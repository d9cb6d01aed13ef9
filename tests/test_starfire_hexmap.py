"""Hex geometry against the rulebook's movement example (4.8) and brute-force BFS distances."""

import itertools

import pytest

from simkit.core.errors import UserInputError
from simkit.starfire.pieces.hexmap import (distance, hex_label, in_rear_arc, line_passes, neighbour,
                                    parse_facing, parse_hex)


def step(label, facing):
    return hex_label(*neighbour(*parse_hex(label), facing))


def test_movement_example_hexes_are_adjacent_along_the_stated_facings():
    # Jackson: 0707 facing 0708 (down); turns to face 0809 (down-right) at 0709
    assert step("0707", 3) == "0708" and step("0708", 3) == "0709"
    assert [step("0709", 2), step("0809", 2), step("0910", 2)] == ["0809", "0910", "1010"]
    # Falkreg: 1720 facing 1619 (up-left), then up from 1418
    assert [step("1720", 5), step("1619", 5), step("1519", 5)] == ["1619", "1519", "1418"]
    assert [step("1418", 0), step("1417", 0), step("1416", 0)] == ["1417", "1416", "1415"]
    # Hercules: 0608 facing 0609; turns to face 0710 at 0609; then 0710, 0810, 0911
    assert step("0608", 3) == "0609" and step("0609", 2) == "0710"
    assert [step("0710", 2), step("0810", 2)] == ["0810", "0911"]


def test_distance_equals_breadth_first_search():
    start = (7, 8)
    seen = {start: 0}
    frontier = [start]
    while frontier:
        nxt = []
        for c, r in frontier:
            for f in range(6):
                h = neighbour(c, r, f)
                if h not in seen and 0 <= h[0] <= 16 and 0 <= h[1] <= 16:
                    seen[h] = seen[(c, r)] + 1
                    nxt.append(h)
        frontier = nxt
    for (c, r), d in seen.items():
        assert distance(*start, c, r) == d


def test_neighbours_are_mutual_and_opposite():
    for c, r, f in itertools.product(range(4, 8), range(4, 8), range(6)):
        n = neighbour(c, r, f)
        assert neighbour(*n, (f + 3) % 6) == (c, r)
        assert distance(c, r, *n) == 1


def test_rear_arc_is_the_single_rear_hexside():
    c, r = 10, 10
    for facing in range(6):
        rear = neighbour(c, r, (facing + 3) % 6)
        assert in_rear_arc(c, r, facing, *rear)
        for f in range(6):
            if f != (facing + 3) % 6:
                assert not in_rear_arc(c, r, facing, *neighbour(c, r, f))


def test_line_of_fire_through_a_planet_hex():
    assert line_passes(2, 5, 8, 5, 5, 5)  # straight along the row band
    assert not line_passes(2, 5, 8, 5, 5, 9)


@pytest.mark.parametrize("bad", ["608", "06O8", 608.0, "12345"])
def test_bad_hex_labels_are_named(bad):
    with pytest.raises(UserInputError, match="four digits"):
        parse_hex(bad, where="s.toml", field="sides.a.ships[0].hex")


def test_facing_by_adjacent_hex():
    assert parse_facing("0609", 6, 8, where="s", field="f") == 3
    with pytest.raises(UserInputError, match="not adjacent"):
        parse_facing("0611", 6, 8, where="s", field="f")
