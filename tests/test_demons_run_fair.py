"""Issue 14 item 2: the RECONSTRUCTED board races the same from every corner.

211 A pairs the corners A <-> D and B <-> C. The board (``data/board.toml``, its header explains
the construction) is laid out from its top-left quarter by the left-right mirror M and the
top-bottom mirror T; their product is the half turn P (A <-> D, B <-> C). The first tests
check that layout hex by hex (exact, cheap); the slow ones race identical ships flown by the
same pilot from every corner and check that no corner wins more than its share, with enough
races that a 3-point advantage would show (the 95% interval of each difference is narrower
than 3 points).
"""

from __future__ import annotations

import numpy as np
import pytest

from simkit.core import dice
from simkit.demons_run import engine as RK
from simkit.demons_run.pieces.board import DIRECTIONS, distance, load_board
from simkit.demons_run.builds import worked_ship
from simkit.demons_run.scenario import RaceScenario, RaceSim, ShipEntry

B = load_board()
C, R = B.columns, B.rows
SPIN = {"cw": "ccw", "ccw": "cw"}


def M(h):
    return (C + 1 - h[0], h[1])


def T(h):
    return (h[0], R + 1 - h[1] if h[0] % 2 else R - h[1])


def P(h):
    return M(T(h))


M_SIDE = {"N": "N", "NE": "NW", "SE": "SW", "S": "S", "SW": "SE", "NW": "NE"}
T_SIDE = {"N": "S", "NE": "SE", "SE": "NE", "S": "N", "SW": "NW", "NW": "SW"}


def _features():
    """Everything on the board a ship meets, as {(kind, hex)}."""
    out = set()
    for c in range(1, C + 1):
        for r in range(1, R + 1):
            out.add(("terrain", (c, r), int(B.terrain[c, r]), int(B.fire_class[c, r])))
    for kind, hs in B.markers.items():
        for h in hs:
            out.add(("hell2" if kind in ("astaroth", "belial") else kind, h))
    return out


def test_all_four_corners_are_corners_and_both_courses_are_equally_long():
    assert B.corners == {"A": (1, 1), "B": (C, 1), "C": (1, R), "D": (C, R)}
    assert C % 2 == 1          # every corner in an odd column: M is exact
    assert distance(B.corners["A"], B.corners["D"]) == distance(B.corners["B"], B.corners["C"])
    assert M(B.corners["A"]) == B.corners["B"] and P(B.corners["A"]) == B.corners["D"]
    assert P(B.corners["B"]) == B.corners["C"] and T(B.corners["A"]) == B.corners["C"]


def test_the_board_is_its_own_mirror_image_but_for_the_documented_exceptions():
    """M maps every hex and marker onto one of the same kind; T and the half turn P too,
    except the bottom hexes of the even columns (no image at the top) and
    the start of the three orbiting Buoys (one per central hole; they orbit from Turn 1); holes map onto holes of the same class (M and T reverse the spin, P keeps it;
    the central holes lie on M's axis and keep their spin: the one asymmetry of the rules)."""
    feats = _features()
    for name, f in (("M", M), ("T", T), ("P", P)):
        missing = []
        for feat in feats:
            img = f(feat[1])
            if not (1 <= img[0] <= C and 1 <= img[1] <= R):
                assert name in "TP" and feat[1][0] % 2 == 0 and feat[1][1] == R, (name, feat)
                continue
            if (feat[0], img) + feat[2:] not in feats:
                missing.append(feat)
        # one marker per central hole (the orbiting Astaroth, Lucifer, Belial) cannot be its
        # own mirror image; P swaps Astaroth and Belial. Every Hell Hound has its image (the
        # third sits on [16, 20], the one hex P fixes): a hound without one decided duels.
        orbit = {("hell2" if k != "lucifer" else k, B.markers[k][0])
                 for k in ("astaroth", "belial", "lucifer")}
        allowed = {"M": orbit, "T": orbit, "P": {("lucifer", B.markers["lucifer"][0])}}[name]
        assert set(missing) <= allowed, (name, missing)
    holes = {h.center: h for h in B.holes}
    for h in B.holes:
        for name, f, sides, flips in (("M", M, M_SIDE, True), ("T", T, T_SIDE, True),
                                      ("P", P, {k: T_SIDE[M_SIDE[k]] for k in M_SIDE}, False)):
            img = holes[f(h.center)]
            assert img.cls == h.cls
            want = [sides[d] for d in DIRECTIONS]
            assert [img.well_terrain[img.well[DIRECTIONS.index(d)]] for d in want] == \
                [h.well_terrain[x] for x in h.well]
            central = h.cls != "hell"
            if name == "P" or (central and name == "M"):
                assert img.rotation == h.rotation
            elif not central:
                assert img.rotation == SPIN[h.rotation], (name, h.name)


# --- races -------------------------------------------------------------------------------------

def _wins(corners, n, seed=14, pilot="buoy_hunter"):
    ships = [ShipEntry(f"s{c}", c, worked_ship(), pilot) for c in corners]
    sim = RaceSim(RaceScenario("<fair>", "fair", "ORIGINAL", "", None, ships, {}))
    tot = RK.race_stats(np.uint64(dice.stream_key(seed)), 0, n, *sim.args())
    return np.array([tot[RK.N_GLOBAL + i * RK.N_SHIP_STATS + RK.S_WINS]
                     for i in range(len(corners))], np.int64)


def _diff_ci(wins, i, j, n):
    """95% interval of win rate i minus win rate j in the same races (multinomial: the
    variance of the difference of two shares of one race is (p_i + p_j - (p_i - p_j)^2)/n)."""
    pi, pj = wins[i] / n, wins[j] / n
    d = pi - pj
    half = 1.96 * np.sqrt(max(pi + pj - d * d, 1e-12) / n)
    return d, d - half, d + half


# What the board achieves, measured (docs/rules/demons-run.md, "The fair board"): the old
# board gave corner D 71% of duels; with every Hell Hound placed by the symmetry (s11-drboard)
# the A-D duel is even within its interval (D 50.8%, 4,500 races, seed 14) and each pairwise
# four-ship difference's interval contains 0. The tests are sized to see 3 points and assert
# every interval inside +-5 points: the third hound off the symmetry (D 57%) fails both.
EDGE = 0.05


@pytest.mark.slow
def test_a_duel_is_fair_from_either_corner():
    """Two identical worked ships, same pilot, corners A and D (100 B). 13,500 races: the
    interval of the difference is narrower than +-3 points, and within EDGE of even. (At
    4,500 races the interval is about 5.8 points wide, so a fair duel's estimate had to fall
    within about 2 points of even to pass: since ``rival_laser`` seed 14's first 4,500 races
    read -3.4 (-6.4, -0.5), seeds 15 and 16 -1.7 and +1.4, and all 13,500 -0.6 (-2.3, +1.1).)"""
    n = 13_500
    w = _wins("AD", n)
    d, lo, hi = _diff_ci(w, 0, 1, n)
    assert hi - lo < 0.06
    assert -EDGE < lo and hi < EDGE, (w, d, lo, hi)


@pytest.mark.slow
def test_four_ships_win_equally_from_every_corner():
    """Four identical ships: each corner's share is near a quarter. 2,400 races: each
    pairwise difference's interval is narrower than +-4 points and within EDGE of even."""
    n = 2_400
    w = _wins("ABCD", n)
    assert w.sum() > 0.95 * n
    for i in range(4):
        for j in range(i + 1, 4):
            d, lo, hi = _diff_ci(w, i, j, n)
            assert hi - lo < 0.08
            assert -EDGE < lo and hi < EDGE, ("ABCD"[i], "ABCD"[j], w)
