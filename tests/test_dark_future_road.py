"""The road: section geometry, ranges and corridors, track generation and random road hazards
(dark-future.txt p10, p25-26, p74-77; curve counts RECONSTRUCTED, rules-data.md 4.2)."""

import numpy as np

from simkit.core import dice
from simkit.dark_future.pieces import road as RD
from simkit.dark_future import rules as R


def _fresh():
    T = np.zeros((RD.MAXSEC, RD.T_W), np.int64)
    TM = np.zeros(RD.TM_W, np.int64)
    RD.reset_track(TM, 7)
    return T, TM


def _scripted(rolls):
    st = dice.new_state()
    dice.set_scripted(st)
    return st, np.array(rolls, np.int64)


def test_curves_count_lanes_from_the_inside_and_pairs_are_judged_on_the_outer_lane():
    T, TM = RD.track_from_layout(["S", "CL", "BR"])
    t = R.base_rules().table("curve_sections")
    assert list(T[1, RD.T_SPACES:RD.T_SPACES + 6]) == t["corner"]["spaces"]        # left: lane 0 inner
    assert list(T[2, RD.T_SPACES:RD.T_SPACES + 6]) == t["bend"]["spaces"][::-1]    # right: lane 5 inner
    # a car on lanes 0-1 of a left corner is judged on lane 1 (outer), p10; its limit is the
    # higher, outer one (p38)
    assert RD.pair_spaces(T, 1, 0) == t["corner"]["spaces"][1]
    assert RD.pair_limit(T, 1, 0) == t["corner"]["limits"][1]
    # on a right bend lanes 4-5: the outer lane is 4
    assert RD.pair_limit(T, 2, 4) == t["bend"]["limits"][1]
    assert RD.pair_limit(T, 0, 2) == 0 and RD.pair_spaces(T, 0, 2) == 3


def test_ranges_count_the_targets_space_and_part_spaces_p26():
    T, TM = RD.track_from_layout(["S", "S", "CL", "S"])
    # the next space on a straight is range 1; two straights on, range 4 from the first space
    assert RD.range_between(T, 2, RD.front_x(T, 0, 2, 0), RD.rear_x(T, 0, 2, 1)) == 1
    assert RD.range_between(T, 2, RD.front_x(T, 0, 2, 0), RD.rear_x(T, 1, 2, 2)) == 5
    # onto the corner: lanes 2-3 are judged on lane 3 (4 spaces), a quarter section is one space
    x = RD.front_x(T, 1, 2, 2)
    assert RD.range_between(T, 2, x, RD.rear_x(T, 2, 2, 1)) == 2
    # a part of a space counts as one (p26): a 3-space pair measured along a 5-space lane
    assert RD.range_between(T, 4, 2 * 60, 2 * 60 + 20) == 3   # 20/60 of a 5-space section -> 2 spaces (1.67) + 1


def test_sight_through_curves_reaches_one_space():
    T, TM = RD.track_from_layout(["S", "S", "CL", "S", "S"])
    assert RD.sight_clear(T, 0, False, 1)
    assert RD.sight_clear(T, 1, True, 2) and not RD.sight_clear(T, 1, False, 2)
    assert not RD.sight_clear(T, 1, True, 3)          # a whole curve between: blocked
    assert RD.sight_clear(T, 2, True, 3) and not RD.sight_clear(T, 2, False, 3)
    assert not RD.sight_clear(T, 2, True, 4)


def test_remap_space_on_drifting_into_uneven_lanes_p13():
    T, TM = RD.track_from_layout(["CL"])
    # lanes 2-3 (4 spaces, judged on lane 3) -> lanes 3-4 (4 spaces): same space
    assert RD.remap_space(T, 0, 2, 3, 1) == 1
    # lanes 3-4 (4 spaces) -> lanes 4-5 (5 spaces): front at 2/4 -> the space whose front is at
    # or past it on the outer lanes (3/5)
    assert RD.remap_space(T, 0, 3, 4, 1) == 2


def test_initial_generation_by_scripted_dice_p74():
    T, TM = _fresh()
    c, box = RD.curve_array(), RD.box_array()
    # three straights (no rolls); then: 5 curve, 6 corner, 1 left; the straight after it is not
    # rolled; 2 straight; 6 curve, 2 bend, 3 left -> seven sections
    st, script = _scripted([5, 6, 1, 2, 6, 2, 3])
    RD.generate_initial(st, script, T, TM, c, box, 7)
    assert RD.describe(T, TM) == ["S", "S", "S", "CL", "S", "S", "BL"]
    assert st[dice.POS] == len(script)


def test_the_180_degree_rule_is_not_rolled_and_curve_types_swap_when_used_up():
    T, TM = _fresh()
    c, box = RD.curve_array(), RD.box_array()
    box = box.copy()
    box[1] = 1   # one corner in the box
    # curve corner left; straight; curve corner (none left -> bend) left; straight; curve
    # bend: two lefts already, so it turns right with no direction roll
    st, script = _scripted([5, 5, 1, 5, 6, 3, 5, 1])
    RD.generate_initial(st, script, T, TM, c, box, 9)
    assert RD.describe(T, TM) == ["S", "S", "S", "CL", "S", "BL", "S", "BR", "S"]
    assert st[dice.POS] == len(script)


def test_out_of_straights_the_track_ends():
    T, TM = _fresh()
    c, box = RD.curve_array(), RD.box_array().copy()
    box[0] = 4
    st, script = _scripted([1, 1])
    RD.generate_initial(st, script, T, TM, c, box, 7)
    assert RD.describe(T, TM) == ["S"] * 4 and TM[RD.TM_ENDED] == 1


def test_generation_frequencies_match_the_dice():
    """Over many seeded generations the first rolled section is a curve 1/3 of the time, and a
    curve is a corner 1/3 of the time (p74)."""
    c, box = RD.curve_array(), RD.box_array()
    st = dice.new_state()
    key = dice.stream_key(7)
    n = 6000
    curves = corners = 0
    for i in range(n):
        T, TM = _fresh()
        dice.seed_trial(st, key, i)
        RD.generate_initial(st, dice.NO_SCRIPT, T, TM, c, box, 4)
        k = T[3, RD.T_KIND]
        curves += k != RD.STRAIGHT
        corners += k == RD.CORNER
    from simkit.core.stats import rate_ci
    lo, hi = rate_ci(curves, n, 0.999)
    assert lo <= 1 / 3 <= hi
    lo, hi = rate_ci(corners, curves, 0.999)
    assert lo <= 1 / 3 <= hi


def test_continuous_sight_p75():
    T, TM = RD.track_from_layout(["S", "S", "S"])
    TM[RD.TM_ENDED] = 0
    assert RD.sight_needs_more(T, TM, 0, 3)        # three sections past its own: 1, 2, 3 needed
    T4, TM4 = RD.track_from_layout(["S"] * 4)
    TM4[RD.TM_ENDED] = 0
    assert not RD.sight_needs_more(T4, TM4, 0, 3)  # already three ahead
    T2, TM2 = RD.track_from_layout(["S", "BL"])
    TM2[RD.TM_ENDED] = 0
    assert not RD.sight_needs_more(T2, TM2, 0, 3)  # a curve ahead blocks the view
    assert RD.sight_needs_more(T2, TM2, 1, 3)      # on the curve: lay the straight after it
    T3, TM3 = RD.track_from_layout(["S", "BL", "S"])
    TM3[RD.TM_ENDED] = 0
    assert not RD.sight_needs_more(T3, TM3, 1, 3)  # nothing more until it is off the curve
    assert RD.sight_needs_more(T3, TM3, 2, 3)


def _hazards_on(layout, rolls):
    T, TM = RD.track_from_layout(layout)
    M = np.zeros((RD.MAXM, RD.MK_W), np.int64)
    NM = np.zeros(1, np.int64)
    st, script = _scripted(rolls)
    RD.road_hazards(st, script, T, TM, M, NM, 0, 0)
    assert st[dice.POS] == len(script)
    return [(RD.MARKER_NAMES[M[i, RD.MK_KIND]], M[i, RD.MK_LLO], M[i, RD.MK_LHI]) for i in range(NM[0])]


def _laid(layout, rolls_per_section, d=0):
    """Road hazards rolled section by section in the order the track is laid, in the direction
    of play ``d``: [(kind, section, first lane, space on the strip's outer lane)]."""
    T, TM = RD.track_from_layout(layout)
    M = np.zeros((RD.MAXM, RD.MK_W), np.int64)
    NM = np.zeros(1, np.int64)
    secs = range(len(layout)) if d == 0 else range(len(layout) - 1, -1, -1)
    for sec, rolls in zip(secs, rolls_per_section):
        st, script = _scripted(rolls)
        RD.road_hazards(st, script, T, TM, M, NM, sec, d)
        assert st[dice.POS] == len(script)
    out = []
    for i in range(NM[0]):
        sec, llo = int(M[i, RD.MK_SEC]), int(M[i, RD.MK_LLO])
        outer = llo + 2 if T[sec, RD.T_DIR] < 0 else llo
        step = RD.UNITS // T[sec, RD.T_SPACES + outer]
        out.append((RD.MARKER_NAMES[M[i, RD.MK_KIND]], sec, llo,
                    int(M[i, RD.MK_XLO] - sec * RD.UNITS) // step))
    return out, TM


def test_random_road_hazards_p76():
    assert _hazards_on(["S"], [2]) == []                                  # no hazard unless a 1
    # higher die 6: sand; lower 3: three markers on the left (odd), one per space
    assert _hazards_on(["S"], [1, 6, 3]) == [("sand", 0, 2)] * 3
    # 5 and 2: two debris on the right
    assert _hazards_on(["S"], [1, 2, 5]) == [("debris", 3, 5)] * 2
    # 4 and 3: three obstacles on the left
    assert _hazards_on(["S"], [1, 4, 3]) == [("obstacle", 0, 2)] * 3
    # double 1: a railroad crossing across the road
    assert _hazards_on(["S"], [1, 1, 1]) == [("railroad", 0, 5)]
    # double 4: both sides, each re-rolled (a double ignored)
    assert _hazards_on(["S"], [1, 4, 4, 2, 2, 6, 1, 5, 2]) == [("sand", 0, 2), ("debris", 3, 5),
                                                                ("debris", 3, 5)]


def test_markers_that_do_not_fit_go_on_the_next_section_p76():
    """p76's example: five sand markers on the left of a straight; the fourth and fifth are
    placed on the next track along, from the space nearest the start."""
    got, TM = _laid(["S", "S", "S"], [[1, 6, 5], [2], [2]])
    assert got == [("sand", 0, 0, 0), ("sand", 0, 0, 1), ("sand", 0, 0, 2),
                   ("sand", 1, 0, 0), ("sand", 1, 0, 1)]
    assert TM[RD.TM_CARRY_L] == TM[RD.TM_CARRY_R] == 0
    # carried markers come first on a side; the section's own follow them and what does not
    # fit goes on again: four debris on the right, then four sand on the right
    got, TM = _laid(["S", "S", "S"], [[1, 5, 4], [1, 6, 4], [2]])
    assert got == [("debris", 0, 3, 0), ("debris", 0, 3, 1), ("debris", 0, 3, 2),
                   ("debris", 1, 3, 0), ("sand", 1, 3, 1), ("sand", 1, 3, 2),
                   ("sand", 2, 3, 0), ("sand", 2, 3, 1)]
    # a side's markers stay on their side: four debris on the right of a straight, then one
    # sand on the left of the next
    got, _ = _laid(["S", "S"], [[1, 5, 4], [1, 6, 1]])
    assert [g for g in got if g[1] == 1] == [("sand", 1, 0, 0), ("debris", 1, 3, 0)]
    # a double 3 or more: both sides, each carrying its own (6 and 5: five sand on the left;
    # 5 and 4: four debris on the right)
    got, TM = _laid(["S", "S"], [[1, 3, 3, 6, 5, 5, 4], [2]])
    assert [g for g in got if g[1] == 1] == [("sand", 1, 0, 0), ("sand", 1, 0, 1),
                                             ("debris", 1, 3, 0)]
    # on a curve the strip's spaces are those of its outer lane: a right bend's left strip is
    # judged on lane 0, four spaces (rules-data 4.2 reconstruction), so five markers leave one
    got, TM = _laid(["BR", "S"], [[1, 6, 5], [2]])
    assert got == [("sand", 0, 0, k) for k in range(4)] + [("sand", 1, 0, 0)]
    # with nothing more laid the carried marker waits: none is lost or invented
    got, TM = _laid(["S", "S"], [[1, 6, 5]])
    assert len(got) == 3 and RD._carry_len(TM[RD.TM_CARRY_L]) == 2


def test_road_hazards_when_play_goes_the_other_way_p75_p76():
    """With the direction of play reversed new sections are laid before the first: the drivers'
    left is the play-right lanes (3-5) and the markers start at the space nearest them, the
    section's last; a railroad on a curve lies across its end space in their direction."""
    got, _ = _laid(["S", "S"], [[1, 6, 1]], d=1)
    assert got == [("sand", 1, 3, 2)]
    got, _ = _laid(["S", "S"], [[1, 5, 4], [2]], d=1)
    assert got == [("debris", 1, 0, 2), ("debris", 1, 0, 1), ("debris", 1, 0, 0),
                   ("debris", 0, 0, 2)]
    for layout, d, space in ((["CR"], 0, 3), (["CR"], 1, 0), (["BL"], 0, 2), (["S"], 0, 1)):
        T, TM = RD.track_from_layout(layout)
        M = np.zeros((RD.MAXM, RD.MK_W), np.int64)
        NM = np.zeros(1, np.int64)
        st, script = _scripted([1, 1, 1])
        RD.road_hazards(st, script, T, TM, M, NM, 0, d)
        n = RD.pair_spaces(T, 0, 2)
        assert NM[0] == 1 and M[0, RD.MK_KIND] == RD.RAIL
        # wholly on the section, on the central lanes' end (or central) space
        assert (M[0, RD.MK_XLO], M[0, RD.MK_XHI]) == (space * 60 // n, (space + 1) * 60 // n)
