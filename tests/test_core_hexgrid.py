"""The one hex-grid module: distance against a breadth-first search over the neighbour graph,
neighbours against each game's own map conventions, lines against their definition."""

from __future__ import annotations

import itertools
from collections import deque

import numpy as np
import pytest

from simkit.core import hexgrid as H

COLS, ROWS = 9, 8


def _bfs(start, lower):
    seen = {start: 0}
    todo = deque([start])
    while todo:
        c, r = todo.popleft()
        for f in range(6):
            n = H.neighbour(c, r, f, lower)
            if -3 <= n[0] < COLS + 3 and -3 <= n[1] < ROWS + 3 and n not in seen:
                seen[n] = seen[(c, r)] + 1
                todo.append(n)
    return seen


@pytest.mark.parametrize("lower", [H.EVEN_LOWER, H.ODD_LOWER])
def test_distance_is_the_shortest_path_through_neighbours(lower):
    for start in [(0, 0), (3, 4), (4, 4), (8, 7)]:
        steps = _bfs(start, lower)
        for c, r in itertools.product(range(COLS), range(ROWS)):
            assert H.distance(start[0], start[1], c, r, lower) == steps[(c, r)]


@pytest.mark.parametrize("lower", [H.EVEN_LOWER, H.ODD_LOWER])
def test_neighbours_are_six_distinct_adjacent_hexes_and_opposites_return(lower):
    for c, r in itertools.product(range(-2, 5), range(-2, 5)):
        ns = [H.neighbour(c, r, f, lower) for f in range(6)]
        assert len(set(ns)) == 6
        for f, (nc, nr) in enumerate(ns):
            assert H.distance(c, r, nc, nr, lower) == 1
            assert H.neighbour(nc, nr, (f + 3) % 6, lower) == (c, r)
        x, y, z = H.to_cube(c, r, lower)
        assert x + y + z == 0 and H.to_offset(x, z, lower) == (c, r)


def test_the_lower_columns_are_the_ones_named():
    # column 0 lower (EVEN_LOWER): its row 0 touches row 0 *and* row 1 of column 1
    assert {H.neighbour(0, 0, f, H.EVEN_LOWER) for f in (1, 2)} == {(1, 0), (1, 1)}
    # column 1 lower (ODD_LOWER): column 0's row 1 touches rows 0 and 1 of column 1
    assert {H.neighbour(0, 1, f, H.ODD_LOWER) for f in (1, 2)} == {(1, 0), (1, 1)}


def test_each_game_calls_the_shared_grid_with_its_own_lower_columns():
    from simkit.demo_derby.pieces import arena as dd
    from simkit.demons_run.pieces import board as dr
    from simkit.starfire.pieces import hexmap as sf

    for c1, r1, c2, r2 in itertools.product(range(1, 7), range(1, 6), range(1, 7), range(1, 6)):
        assert sf.distance(c1, r1, c2, r2) == H.distance(c1, r1, c2, r2, H.EVEN_LOWER)
        assert dr.distance((c1, r1), (c2, r2)) == H.distance(c1, r1, c2, r2, H.EVEN_LOWER)
        # Demo Derby passes (row, col), odd columns lower
        assert dd.distance(r1, c1, r2, c2) == H.distance(c1, r1, c2, r2, H.ODD_LOWER)
    for c, r, f in itertools.product(range(1, 6), range(1, 6), range(6)):
        assert sf.neighbour(c, r, f) == H.neighbour(c, r, f, H.EVEN_LOWER)
        assert dr.neighbour(c, r, dr.DIRECTIONS[f]) == H.neighbour(c, r, f, H.EVEN_LOWER)
        assert dd.neighbour(r, c, f)[::-1] == H.neighbour(c, r, f, H.ODD_LOWER)


@pytest.mark.parametrize("lower", [H.EVEN_LOWER, H.ODD_LOWER])
def test_a_line_steps_through_adjacent_hexes_from_end_to_end(lower):
    out = np.zeros((32, 2), np.int64)
    rng = np.random.default_rng(7)
    for _ in range(200):
        c1, r1, c2, r2 = (int(v) for v in rng.integers(-5, 12, 4))
        n = H.line(c1, r1, c2, r2, lower, out)
        d = H.distance(c1, r1, c2, r2, lower)
        assert n == d + 1
        assert tuple(out[0]) == (c1, r1) and tuple(out[n - 1]) == (c2, r2)
        for i in range(1, n):
            assert H.distance(out[i - 1, 0], out[i - 1, 1], out[i, 0], out[i, 1], lower) == 1
            # every hex of the line is on a shortest path
            assert (H.distance(c1, r1, out[i, 0], out[i, 1], lower) == i
                    and H.distance(out[i, 0], out[i, 1], c2, r2, lower) == d - i)


def test_cube_round_ties_go_to_even_like_python_round():
    assert H.round_half_even(2.5) == 2.0 and H.round_half_even(3.5) == 4.0
    assert H.round_half_even(-0.5) == 0.0 and H.round_half_even(0.51) == 1.0
    assert H.cube_round(0.1, -0.2, 0.1) == (0, 0, 0)
    x, y, z = H.cube_round(1.4, -0.3, -1.1)
    assert x + y + z == 0
